// SPDX-License-Identifier: MIT
#pragma once
// Extract…: where to (remembered), the selection or everything, with folders or flattened, what to
// do with names already there (ask, overwrite, skip, keep both, refuse), and whether to open the
// destination when done.

#include "vfs/extraction.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QLineEdit;
class QRadioButton;

namespace asc::ui {

struct ExtractChoice {
    QString directory;
    bool everything = false;
    ExtractOptions options; // flatten and the policy for existing names
    bool openWhenDone = false;
};

class ExtractDialog : public QDialog {
    Q_OBJECT
public:
    // `selected`: how many entries are selected (0: only "everything" is offered).
    explicit ExtractDialog(int selected, QWidget *parent = nullptr);
    ExtractChoice choice() const;
    void setDirectory(const QString &directory);

    void accept() override; // remembers the choices for next time

private:
    QLineEdit *directory_;
    QRadioButton *selection_;
    QRadioButton *everything_;
    QCheckBox *flatten_;
    QComboBox *existing_;
    QCheckBox *open_;
};

} // namespace asc::ui
