// SPDX-License-Identifier: MIT
#include "commands_list.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSettings>
#include <QVBoxLayout>

namespace asc::ui {

namespace {
const QString settingsKey = QStringLiteral("benchmark/commands");
const QString shellKey = QStringLiteral("benchmark/commandsShell");
const QString uncheckedKey = QStringLiteral("benchmark/commandsUnchecked");
} // namespace

CommandsList::CommandsList(QWidget *parent)
    : QWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto *hint = new QLabel(tr("Your own readers, as NAME=command line with {file} or {stdin} and {buffer}:"), this);
    hint->setWordWrap(true);
    layout->addWidget(hint);
    list_ = new QListWidget(this);
    list_->setObjectName(QStringLiteral("benchCommands"));
    list_->setMaximumHeight(110);
    list_->setToolTip(tr("Checked commands run beside the checked strategies; double-click to edit"));
    layout->addWidget(list_);
    edit_ = new QLineEdit(this);
    edit_->setObjectName(QStringLiteral("benchCommandEdit"));
    edit_->setPlaceholderText(QStringLiteral("dd=dd if={file} of=/dev/null bs={buffer}"));
    edit_->setClearButtonEnabled(true);
    layout->addWidget(edit_);
    problem_ = new QLabel(this);
    problem_->setObjectName(QStringLiteral("benchCommandProblem"));
    problem_->setWordWrap(true);
    problem_->setStyleSheet(QStringLiteral("QLabel { color: #b00020; }"));
    problem_->hide();
    layout->addWidget(problem_);
    auto *buttons = new QHBoxLayout;
    add_ = new QPushButton(tr("Add"), this);
    remove_ = new QPushButton(tr("Remove"), this);
    shell_ = new QCheckBox(tr("with /bin/sh"), this);
    shell_->setToolTip(tr("Run the commands with /bin/sh -c: pipes and redirections"));
    buttons->addWidget(add_);
    buttons->addWidget(remove_);
    buttons->addWidget(shell_);
    buttons->addStretch(1);
    layout->addLayout(buttons);

    connect(edit_, &QLineEdit::textChanged, this, &CommandsList::checkEdit);
    connect(edit_, &QLineEdit::returnPressed, this, [this] { addLine(edit_->text()); });
    connect(add_, &QPushButton::clicked, this, [this] { addLine(edit_->text()); });
    connect(remove_, &QPushButton::clicked, this, [this] {
        delete list_->currentItem();
        save();
        Q_EMIT changed();
    });
    // Editing a line: it comes back to the field, where it is checked again.
    connect(list_, &QListWidget::itemDoubleClicked, this, [this](QListWidgetItem *item) {
        edit_->setText(item->text());
        delete item;
        save();
        edit_->setFocus();
        Q_EMIT changed();
    });
    connect(list_, &QListWidget::itemChanged, this, [this] {
        save();
        Q_EMIT changed();
    });
    connect(shell_, &QCheckBox::toggled, this, [this] {
        checkEdit();
        save();
        Q_EMIT changed();
    });
    QSettings settings;
    shell_->setChecked(settings.value(shellKey).toBool());
    setLines(settings.value(settingsKey).toStringList(), settings.value(uncheckedKey).toStringList());
    checkEdit();
}

QString CommandsList::problemWith(const QString &line) const
{
    if (line.trimmed().isEmpty())
        return {};
    auto parsed = parseCommandTemplate(line.trimmed(), shell_->isChecked());
    if (!parsed)
        return parsed.error().message;
    for (const QString &existing : lines())
        if (auto other = parseCommandTemplate(existing, shell_->isChecked()); other && other->name == parsed->name)
            return tr("a command named %1 is already in the list: give this one a NAME= of its own").arg(parsed->name);
    return {};
}

void CommandsList::checkEdit()
{
    const QString problem = problemWith(edit_->text());
    problem_->setText(problem);
    problem_->setVisible(!problem.isEmpty());
    add_->setEnabled(!edit_->text().trimmed().isEmpty() && problem.isEmpty());
}

bool CommandsList::addLine(const QString &line)
{
    const QString problem = problemWith(line);
    if (line.trimmed().isEmpty() || !problem.isEmpty()) {
        problem_->setText(problem);
        problem_->setVisible(!problem.isEmpty());
        return false;
    }
    appendItem(line.trimmed());
    if (edit_->text() == line)
        edit_->clear();
    save();
    Q_EMIT changed();
    return true;
}

void CommandsList::appendItem(const QString &line, bool checked)
{
    auto *item = new QListWidgetItem(line, list_);
    item->setToolTip(line); // the list is narrow: the whole command on hover
    item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
    item->setCheckState(checked ? Qt::Checked : Qt::Unchecked);
}

QStringList CommandsList::lines() const
{
    QStringList out;
    for (int i = 0; i < list_->count(); ++i)
        out << list_->item(i)->text();
    return out;
}

void CommandsList::setLines(const QStringList &lines, const QStringList &unchecked)
{
    const QSignalBlocker block(list_);
    list_->clear();
    for (const QString &line : lines)
        appendItem(line, !unchecked.contains(line));
    save();
}

bool CommandsList::shell() const
{
    return shell_->isChecked();
}

void CommandsList::setShell(bool shell)
{
    shell_->setChecked(shell);
}

std::vector<CommandTemplate> CommandsList::commands(QStringList *problems) const
{
    std::vector<CommandTemplate> out;
    for (int i = 0; i < list_->count(); ++i) {
        const QListWidgetItem *item = list_->item(i);
        if (item->checkState() != Qt::Checked)
            continue;
        auto parsed = parseCommandTemplate(item->text(), shell_->isChecked());
        if (parsed)
            out.push_back(*parsed);
        else if (problems)
            *problems << item->text() + QStringLiteral(": ") + parsed.error().message;
    }
    return out;
}

void CommandsList::save() const
{
    QSettings settings;
    settings.setValue(settingsKey, lines());
    settings.setValue(shellKey, shell_->isChecked());
    // A command unticked stays unticked in the next session.
    QStringList unchecked;
    for (int i = 0; i < list_->count(); ++i)
        if (list_->item(i)->checkState() != Qt::Checked)
            unchecked << list_->item(i)->text();
    settings.setValue(uncheckedKey, unchecked);
}

} // namespace asc::ui
