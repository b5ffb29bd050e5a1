// SPDX-License-Identifier: MIT
#include "check_dialog.h"

#include "cli_json_job.h"
#include "io/units.h"

#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace asc::ui {

CheckDialog::CheckDialog(const QString &spec, Mode mode, QWidget *parent)
    : QDialog(parent),
      spec_(spec),
      mode_(mode),
      job_(new CliJsonJob(this))
{
    setObjectName(mode == Mode::Test ? QStringLiteral("testDialog") : QStringLiteral("checksumsDialog"));
    setWindowTitle(mode == Mode::Test ? tr("Test — %1").arg(spec) : tr("Checksums — %1").arg(spec));
    setAttribute(Qt::WA_DeleteOnClose);
    resize(820, 420);
    auto *layout = new QVBoxLayout(this);
    auto *top = new QHBoxLayout;
    auto *what = new QLabel(mode == Mode::Test ? tr("Every entry below <b>%1</b> read to its end, each checksum the format carries checked:").arg(spec.toHtmlEscaped())
                                               : tr("The checksum of every file below <b>%1</b>:").arg(spec.toHtmlEscaped()),
                            this);
    what->setWordWrap(true);
    top->addWidget(what, 1);
    if (mode == Mode::Checksums) {
        algorithm_ = new QComboBox(this);
        algorithm_->setObjectName(QStringLiteral("checksumAlgorithm"));
        for (const char *name : {"crc32", "md5", "sha1", "sha256", "sha512", "blake2b"})
            algorithm_->addItem(QString::fromLatin1(name));
        algorithm_->setCurrentText(QStringLiteral("sha256"));
        connect(algorithm_, &QComboBox::currentTextChanged, this, &CheckDialog::start);
        top->addWidget(algorithm_);
    }
    layout->addLayout(top);
    rows_ = new QTreeWidget(this);
    rows_->setObjectName(QStringLiteral("checkRows"));
    rows_->setRootIsDecorated(false);
    rows_->setUniformRowHeights(true);
    rows_->setHeaderLabels(mode == Mode::Test ? QStringList{tr("Entry"), tr("Offset"), tr("Problem")} : QStringList{tr("Path"), tr("Size"), tr("Checksum")});
    rows_->header()->setStretchLastSection(true);
    rows_->setColumnWidth(0, 360);
    rows_->setColumnWidth(1, 90);
    layout->addWidget(rows_, 1);
    status_ = new QLabel(this);
    status_->setObjectName(QStringLiteral("checkStatus"));
    status_->setWordWrap(true);
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(status_);
    busy_ = new QProgressBar(this);
    busy_->setRange(0, 0); // the commands say how far only at their end
    busy_->setTextVisible(false);
    busy_->setMaximumHeight(8);
    layout->addWidget(busy_);
    auto *buttons = new QDialogButtonBox(this);
    stop_ = buttons->addButton(tr("&Stop"), QDialogButtonBox::RejectRole);
    stop_->setObjectName(QStringLiteral("checkStop"));
    copy_ = buttons->addButton(tr("&Copy"), QDialogButtonBox::ActionRole);
    copy_->setObjectName(QStringLiteral("checkCopy"));
    copy_->setToolTip(mode == Mode::Test ? tr("The problems, one per line") : tr("As sha256sum writes them: HASH, two spaces, path"));
    QPushButton *close = buttons->addButton(QDialogButtonBox::Close);
    layout->addWidget(buttons);
    connect(stop_, &QPushButton::clicked, job_, &CliJsonJob::stop);
    connect(copy_, &QPushButton::clicked, this, [this] { QApplication::clipboard()->setText(text()); });
    connect(close, &QPushButton::clicked, this, &QDialog::close);

    connect(job_, &CliJsonJob::line, this, [this](const QJsonObject &o) {
        if (mode_ == Mode::Test && o.contains(QStringLiteral("problem"))) {
            const QJsonValue offset = o.value(QStringLiteral("offset"));
            auto *row = new QTreeWidgetItem(rows_, {o.value(QStringLiteral("spec")).toString(), offset.isDouble() ? QString::number(qint64(offset.toDouble())) : QString(),
                                                    o.value(QStringLiteral("problem")).toString()});
            row->setToolTip(2, row->text(2));
        } else if (mode_ == Mode::Test) {
            const auto count = [&o](const char *key) { return uint64_t(o.value(QLatin1String(key)).toDouble()); };
            summary_ = tr("%1, %2 read (%3) in %4: ")
                           .arg(countText(count("entries"), tr("%n entry"), tr("%n entries")), countText(count("files"), tr("%n file"), tr("%n files")),
                                sizeLabel(count("bytes")), countText(count("containers"), tr("%n container"), tr("%n containers"))) +
                       (count("problems") == 0 ? tr("everything checks out.") : countText(count("problems"), tr("%n problem."), tr("%n problems.")));
        } else {
            auto *row = new QTreeWidgetItem(rows_, {o.value(QStringLiteral("path")).toString(), sizeLabel(uint64_t(o.value(QStringLiteral("size")).toDouble())),
                                                    o.value(QStringLiteral("hash")).toString()});
            row->setFont(2, QFont(QStringLiteral("monospace")));
        }
        if (rows_->topLevelItemCount() % 256 == 1)
            status_->setText(mode_ == Mode::Test ? tr("Testing… %1 so far").arg(countText(uint64_t(rows_->topLevelItemCount()), tr("%n problem"), tr("%n problems")))
                                                 : tr("Reading… %1 so far").arg(countText(uint64_t(rows_->topLevelItemCount()), tr("%n file"), tr("%n files"))));
    });
    connect(job_, &CliJsonJob::errorLine, this, [this](const QString &text) { errors_ << text; });
    connect(job_, &CliJsonJob::finished, this, &CheckDialog::finish);
    start();
}

CheckDialog::~CheckDialog() = default;

bool CheckDialog::running() const
{
    return job_->running();
}

void CheckDialog::start()
{
    job_->stop();
    rows_->clear();
    errors_.clear();
    summary_.clear();
    busy_->show();
    stop_->setEnabled(true);
    status_->setText(mode_ == Mode::Test ? tr("Testing…") : tr("Reading…"));
    if (mode_ == Mode::Test)
        job_->start({QStringLiteral("test"), QStringLiteral("--json"), spec_});
    else
        job_->start({QStringLiteral("hash"), QStringLiteral("--json"), QStringLiteral("--algo"), algorithm_->currentText(), spec_});
}

void CheckDialog::finish(int exitCode, bool stopped)
{
    busy_->hide();
    stop_->setEnabled(false);
    QString text;
    if (stopped) {
        text = tr("Stopped: what is listed is what was read so far.");
    } else if (mode_ == Mode::Test) {
        // test: one line per problem, then the summary; exit 1 when any problem was found.
        text = !summary_.isEmpty() ? summary_ : tr("The test could not run.");
    } else {
        text = countText(uint64_t(rows_->topLevelItemCount()), tr("%n file."), tr("%n files."));
    }
    // The command's own words for what stopped it or what it met (a password needed, damage).
    QStringList said = errors_;
    if (mode_ == Mode::Test)
        said.removeIf([](const QString &line) { return line.contains(QLatin1String("problem")) && line.startsWith(QLatin1String("archivescope-cli: test:")); });
    if (!said.isEmpty())
        text += QLatin1Char('\n') + said.mid(0, 5).join(QLatin1Char('\n')) + (said.size() > 5 ? tr("\n… and %1 more").arg(said.size() - 5) : QString());
    if (exitCode != 0 && !stopped && mode_ == Mode::Checksums && said.isEmpty())
        text += tr(" (exit %1)").arg(exitCode);
    status_->setText(text);
}

QString CheckDialog::text() const
{
    QStringList lines;
    for (int i = 0; i < rows_->topLevelItemCount(); ++i) {
        const QTreeWidgetItem *row = rows_->topLevelItem(i);
        lines << (mode_ == Mode::Test ? row->text(0) + QStringLiteral(": ") + row->text(2) : row->text(2) + QStringLiteral("  ") + row->text(0));
    }
    return lines.join(QLatin1Char('\n')) + (lines.isEmpty() ? QString() : QStringLiteral("\n"));
}

} // namespace asc::ui
