// SPDX-License-Identifier: MIT
#include "extract_dialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QSettings>
#include <QVBoxLayout>

namespace asc::ui {

ExtractDialog::ExtractDialog(int selected, QWidget *parent)
    : QDialog(parent)
{
    setWindowTitle(tr("Extract"));
    setObjectName(QStringLiteral("extractDialog"));
    QSettings settings;
    auto *form = new QFormLayout;
    directory_ = new QLineEdit(settings.value(QStringLiteral("extract/directory"), QDir::homePath()).toString(), this);
    directory_->setObjectName(QStringLiteral("extractDirectory"));
    auto *browse = new QPushButton(tr("Browse…"), this);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString chosen = QFileDialog::getExistingDirectory(this, tr("Extract To"), directory_->text());
        if (!chosen.isEmpty())
            directory_->setText(chosen);
    });
    auto *where = new QHBoxLayout;
    where->addWidget(directory_, 1);
    where->addWidget(browse);
    form->addRow(tr("Destination"), where);
    selection_ = new QRadioButton(tr("Selected entries (%1)").arg(selected), this);
    everything_ = new QRadioButton(tr("Everything"), this);
    selection_->setEnabled(selected > 0);
    (selected > 0 ? selection_ : everything_)->setChecked(true);
    auto *what = new QVBoxLayout;
    what->addWidget(selection_);
    what->addWidget(everything_);
    form->addRow(tr("Extract"), what);
    flatten_ = new QCheckBox(tr("Without folders (every file directly in the destination)"), this);
    flatten_->setChecked(settings.value(QStringLiteral("extract/flatten"), false).toBool());
    form->addRow(tr("Paths"), flatten_);
    existing_ = new QComboBox(this);
    existing_->setObjectName(QStringLiteral("extractExisting"));
    existing_->addItem(tr("Ask for each"), int(ExistingPolicy::Ask));
    existing_->addItem(tr("Overwrite"), int(ExistingPolicy::Overwrite));
    existing_->addItem(tr("Skip"), int(ExistingPolicy::Skip));
    existing_->addItem(tr("Keep both (rename the new one)"), int(ExistingPolicy::KeepBoth));
    existing_->addItem(tr("Refuse (report them)"), int(ExistingPolicy::Refuse));
    existing_->setCurrentIndex(std::max(0, existing_->findData(settings.value(QStringLiteral("extract/existing"), int(ExistingPolicy::Ask)).toInt())));
    form->addRow(tr("Existing names"), existing_);
    open_ = new QCheckBox(tr("Open the destination when done"), this);
    open_->setChecked(settings.value(QStringLiteral("extract/open"), false).toBool());
    form->addRow(QString(), open_);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Extract"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(buttons);
}

void ExtractDialog::setDirectory(const QString &directory)
{
    directory_->setText(directory);
}

ExtractChoice ExtractDialog::choice() const
{
    ExtractChoice c;
    c.directory = directory_->text().trimmed();
    c.everything = everything_->isChecked();
    c.options.flatten = flatten_->isChecked();
    c.options.existing = ExistingPolicy(existing_->currentData().toInt());
    c.openWhenDone = open_->isChecked();
    return c;
}

void ExtractDialog::accept()
{
    if (directory_->text().trimmed().isEmpty())
        return;
    QSettings settings;
    settings.setValue(QStringLiteral("extract/directory"), directory_->text().trimmed());
    settings.setValue(QStringLiteral("extract/flatten"), flatten_->isChecked());
    settings.setValue(QStringLiteral("extract/existing"), existing_->currentData().toInt());
    settings.setValue(QStringLiteral("extract/open"), open_->isChecked());
    QDialog::accept();
}

} // namespace asc::ui
