// SPDX-License-Identifier: MIT
#pragma once
// Test and Checksums, as 7-Zip's and Ark's: `archivescope-cli test` (every entry read to its end,
// each CRC and checksum the format carries checked, nested archives and images too) or `hash`
// (every file's checksum, as sha256sum prints it) below a SPEC, run in a process of its own; the
// rows arrive as found, with Stop, and the result says whether all is well.

#include <QDialog>

class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QTreeWidget;

namespace asc::ui {

class CliJsonJob;

class CheckDialog : public QDialog {
    Q_OBJECT
public:
    enum class Mode { Test,
                      Checksums };
    CheckDialog(const QString &spec, Mode mode, QWidget *parent = nullptr);
    ~CheckDialog() override;

    bool running() const;
    // "HASH  path" lines, as sha256sum writes them (Checksums), or "SPEC: problem" lines (Test).
    QString text() const;

private:
    void start();
    void finish(int exitCode, bool stopped);

    QString spec_;
    Mode mode_;
    CliJsonJob *job_ = nullptr;
    QComboBox *algorithm_ = nullptr;
    QTreeWidget *rows_ = nullptr;
    QLabel *status_ = nullptr;
    QProgressBar *busy_ = nullptr;
    QPushButton *stop_ = nullptr;
    QPushButton *copy_ = nullptr;
    QStringList errors_;
    QString summary_;
};

} // namespace asc::ui
