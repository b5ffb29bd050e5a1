#pragma once
// The main window: address bar, entry tree, details and hex view, status bar. Files open from
// the command line, the Open dialog, Open Recent, and by dropping them on the window.

#include "open_job.h"
#include "recent_files.h"

#include <QMainWindow>

class QLabel;
class QLineEdit;
class QMenu;
class QSplitter;

namespace asc::ui {

class HexView;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    // Starts opening a SPEC (file path, optionally with !/ parts) on a worker thread.
    void openSpec(const QString &spec);
    QString currentSpec() const { return current_ ? current_->spec : QString(); }
    quint64 currentSize() const { return current_ ? current_->size : 0; }
    bool isOpening() const { return opening_; }
    HexView *hexView() const { return hex_; }

Q_SIGNALS:
    // After each open attempt, successful or not (tests wait on this).
    void opened(const QString &spec, bool ok);

protected:
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;
    void closeEvent(QCloseEvent *event) override;

private:
    void buildMenus();
    void showOpened(OpenedSpec opened);
    void showError(const QString &spec, const Error &error);
    void rebuildRecentMenu();
    void chooseFile();

    QLineEdit *address_ = nullptr;
    QLabel *summary_ = nullptr;
    QLabel *banner_ = nullptr;
    HexView *hex_ = nullptr;
    QSplitter *splitter_ = nullptr;
    QMenu *recentMenu_ = nullptr;
    RecentFiles recent_;
    std::optional<OpenedSpec> current_;
    quint64 generation_ = 0; // a newer open drops results of older ones
    bool opening_ = false;
};

} // namespace asc::ui
