// SPDX-License-Identifier: MIT
#pragma once
// The Benchmark workspace's own readers (bench --command): templates added, edited and removed
// here, each checked as it is typed (an unknown placeholder, no {buffer}, a program not found),
// run beside the chosen strategies and remembered across restarts.

#include "bench/command/command_template.h"

#include <QWidget>

class QCheckBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;

namespace asc::ui {

class CommandsList : public QWidget {
    Q_OBJECT
public:
    explicit CommandsList(QWidget *parent = nullptr);

    // NAME=TEMPLATE lines, as `bench --command` takes them.
    QStringList lines() const;
    void setLines(const QStringList &lines, const QStringList &unchecked = {});
    bool shell() const;
    void setShell(bool shell);
    // The checked, valid commands; what is wrong with the others goes to `problems`.
    std::vector<CommandTemplate> commands(QStringList *problems = nullptr) const;
    // What the edit field's text would be as a command: empty when it is fine.
    QString problemWith(const QString &line) const;
    // Adds the edit field's line (as the Add button does); false, with the problem shown, if bad.
    bool addLine(const QString &line);

Q_SIGNALS:
    void changed();

private:
    void checkEdit();
    void appendItem(const QString &line, bool checked = true);
    void save() const;

    QListWidget *list_;
    QLineEdit *edit_;
    QLabel *problem_;
    QPushButton *add_;
    QPushButton *remove_;
    QCheckBox *shell_;
};

} // namespace asc::ui
