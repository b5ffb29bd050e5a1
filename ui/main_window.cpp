#include "main_window.h"

#include "hex_view.h"
#include "units.h"
#include "version.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDragEnterEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPointer>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QVBoxLayout>

namespace asc::ui {

MainWindow::MainWindow(QWidget *parent) : QMainWindow(parent)
{
    setAcceptDrops(true);
    setWindowTitle(tr("ArchiveScope"));
    setWindowIcon(QIcon(QStringLiteral(":/icons/archivescope.svg")));

    auto *central = new QWidget(this);
    auto *layout = new QVBoxLayout(central);
    address_ = new QLineEdit(central);
    address_->setPlaceholderText(tr("File or SPEC (outer!/inner/path) — press Enter to open"));
    address_->setClearButtonEnabled(true);
    connect(address_, &QLineEdit::returnPressed, this, [this] {
        if (!address_->text().trimmed().isEmpty())
            openSpec(address_->text().trimmed());
    });
    banner_ = new QLabel(central);
    banner_->setWordWrap(true);
    banner_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    banner_->setAutoFillBackground(true);
    banner_->setForegroundRole(QPalette::BrightText);
    banner_->setBackgroundRole(QPalette::Highlight);
    banner_->setMargin(6);
    banner_->hide();
    summary_ = new QLabel(tr("Open a file with File > Open, or drop it here."), central);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    hex_ = new HexView(central);
    splitter_ = new QSplitter(Qt::Vertical, central);
    splitter_->addWidget(summary_);
    splitter_->addWidget(hex_);
    splitter_->setStretchFactor(1, 1);
    layout->addWidget(address_);
    layout->addWidget(banner_);
    layout->addWidget(splitter_, 1);
    setCentralWidget(central);

    buildMenus();
    statusBar()->showMessage(tr("Ready"));

    QSettings settings;
    if (!restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray()))
        resize(1100, 750);
    splitter_->restoreState(settings.value(QStringLiteral("window/splitter")).toByteArray());
}

MainWindow::~MainWindow() = default;

void MainWindow::buildMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    QAction *open = file->addAction(tr("&Open…"), this, &MainWindow::chooseFile);
    open->setShortcut(QKeySequence::Open);
    recentMenu_ = file->addMenu(tr("Open &Recent"));
    rebuildRecentMenu();
    file->addSeparator();
    QAction *quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About ArchiveScope"), this, [this] {
        QMessageBox::about(this, tr("About ArchiveScope"),
                           tr("<h3>ArchiveScope %1</h3><p>Browse archives and disk images, and measure how fast "
                              "they read.</p><p>Built with %2.</p>")
                               .arg(programVersion(), libraryVersions().toHtmlEscaped()));
    });
}

void MainWindow::rebuildRecentMenu()
{
    recentMenu_->clear();
    const QStringList files = recent_.list();
    for (const QString &spec : files)
        recentMenu_->addAction(spec, this, [this, spec] { openSpec(spec); });
    if (files.isEmpty()) {
        recentMenu_->addAction(tr("(none)"))->setEnabled(false);
    } else {
        recentMenu_->addSeparator();
        recentMenu_->addAction(tr("Clear List"), this, [this] {
            recent_.clear();
            rebuildRecentMenu();
        });
    }
}

void MainWindow::chooseFile()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Open Archive or Disk Image"));
    if (!path.isEmpty())
        openSpec(path);
}

void MainWindow::openSpec(const QString &spec)
{
    const quint64 generation = ++generation_;
    opening_ = true;
    address_->setText(spec);
    statusBar()->showMessage(tr("Opening %1…").arg(spec));
    QPointer<MainWindow> self(this);
    openSpecAsync(spec).then(this, [self, generation, spec](Result<OpenedSpec> result) {
        if (!self || generation != self->generation_)
            return; // a newer open replaced this one
        self->opening_ = false;
        if (result)
            self->showOpened(std::move(result).value());
        else
            self->showError(spec, result.error());
    });
}

void MainWindow::showOpened(OpenedSpec opened)
{
    banner_->hide();
    const QString name = QFileInfo(opened.spec.section(QStringLiteral("!/"), 0, 0)).fileName();
    const QString inner = opened.spec.contains(QStringLiteral("!/")) ? QStringLiteral("!/") + opened.spec.section(QStringLiteral("!/"), 1) : QString();
    setWindowTitle(tr("%1 — ArchiveScope").arg(name + inner));
    summary_->setText(tr("<b>%1</b><br>Size: %2 (%3 bytes) · Format: %4")
                          .arg(opened.spec.toHtmlEscaped(), sizeLabel(opened.size))
                          .arg(opened.size)
                          .arg(opened.formatName));
    hex_->setBytes(opened.head);
    statusBar()->showMessage(tr("%1: %2 bytes").arg(opened.spec).arg(opened.size));
    recent_.add(opened.spec);
    rebuildRecentMenu();
    const QString spec = opened.spec;
    current_ = std::move(opened);
    Q_EMIT this->opened(spec, true);
}

void MainWindow::showError(const QString &spec, const Error &error)
{
    const QString text = error.file.isEmpty() ? spec + QStringLiteral(": ") + error.withoutFile() : error.toString();
    banner_->setText(text);
    banner_->show();
    statusBar()->showMessage(tr("Could not open %1").arg(spec));
    Q_EMIT opened(spec, false);
}

void MainWindow::dragEnterEvent(QDragEnterEvent *event)
{
    if (event->mimeData()->hasUrls())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent *event)
{
    const QList<QUrl> urls = event->mimeData()->urls();
    for (const QUrl &url : urls) {
        if (url.isLocalFile()) {
            openSpec(url.toLocalFile());
            event->acceptProposedAction();
            return;
        }
    }
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/splitter"), splitter_->saveState());
    ++generation_; // results still arriving are dropped
    QMainWindow::closeEvent(event);
}

} // namespace asc::ui
