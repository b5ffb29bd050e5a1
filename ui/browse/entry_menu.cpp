// SPDX-License-Identifier: MIT
#include "entry_menu.h"

#include "desktop/desktop_applications.h"
#include "open/spec.h"

#include "entry_extractor.h"
#include "entry_filter_model.h"
#include "entry_tree_model.h"
#include "entry_tree_view.h"
#include "extract_job.h"
#include "io/byte_text.h"

#include <QApplication>
#include <QClipboard>
#include <QDesktopServices>
#include <QFileInfo>
#include <QInputDialog>
#include <QMenu>
#include <QMimeDatabase>
#include <QProcess>
#include <QUrl>

namespace asc::ui {

EntryMenu::EntryMenu(EntryTreeView *view, EntryTreeModel *model, EntryFilterModel *proxy, EntryExtractor *extractor)
    : QObject(view),
      view_(view),
      model_(model),
      proxy_(proxy),
      extractor_(extractor)
{
    view_->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(view_, &QWidget::customContextMenuRequested, this, &EntryMenu::showMenu);
    connect(view_, &QAbstractItemView::doubleClicked, this, [this](const QModelIndex &index) { doubleClicked(model_->nodeOf(proxy_->mapToSource(index))); });
}

QList<int32_t> EntryMenu::selectedNodes() const
{
    QList<int32_t> nodes;
    for (const QModelIndex &index : view_->selectionModel()->selectedRows())
        nodes << model_->nodeOf(proxy_->mapToSource(index));
    return nodes;
}

QString EntryMenu::hereFolder() const
{
    const EntryTree &tree = model_->tree();
    if (tree.layerCount() == 0)
        return {};
    // The outer file of the SPEC: "a/b.tar.gz!/x" -> a/b (the name without its archive suffixes).
    const QFileInfo outer(splitSpec(tree.layer(0).spec).file);
    QString name = outer.fileName();
    for (const char *suffix : {".gz", ".bz2", ".xz", ".zst", ".lz4", ".lz", ".tar", ".tgz", ".zip", ".7z", ".iso", ".qcow2", ".img", ".pxar", ".mpxar"})
        if (name.endsWith(QLatin1String(suffix)) && name.size() > qsizetype(strlen(suffix)))
            name.chop(qsizetype(strlen(suffix)));
    return outer.absolutePath() + QLatin1Char('/') + name;
}

void EntryMenu::open(int32_t node, const std::optional<DesktopApplication> &app)
{
    const EntryTree &tree = model_->tree();
    const uint64_t size = tree.contentSize(node) == kUnknown ? 0 : tree.contentSize(node);
    const QStringList paths = extractor_->extractForDrag(requestsFor(tree, {node}), size);
    if (paths.isEmpty()) {
        Q_EMIT message(tr("Could not extract %1 to open it").arg(tree.spec(node)));
        return;
    }
    if (!app) {
        // Without a desktop launcher (xdg-open) nothing would happen: say where the file is.
        if (!QDesktopServices::openUrl(QUrl::fromLocalFile(paths.first())))
            Q_EMIT message(tr("No application is set up to open it (is xdg-open installed?): the file is at %1").arg(paths.first()));
        return;
    }
    QStringList args = commandFor(*app, paths.first());
    if (args.isEmpty()) {
        Q_EMIT message(tr("Could not read the command of %1").arg(app->name));
        return;
    }
    const QString program = args.takeFirst();
    if (!QProcess::startDetached(program, args))
        Q_EMIT message(tr("Could not start %1").arg(program));
}

QMenu *EntryMenu::build(QWidget *parent)
{
    auto *menu = new QMenu(parent);
    menu->setObjectName(QStringLiteral("entryMenu"));
    const QList<int32_t> nodes = selectedNodes();
    const EntryTree &tree = model_->tree();
    const int32_t node = nodes.size() == 1 ? nodes.first() : -1;
    const bool file = node > 0 && tree.type(node) == EntryType::File;
    const bool readable = node > 0 && (tree.type(node) == EntryType::File || tree.type(node) == EntryType::Partition);
    menu->addAction(tr("&Open"), this, [this, node] { open(node); })->setEnabled(file);
    // The applications the desktop knows for the entry's type, as Ark lists them; a command of
    // one's own last.
    QMenu *with = menu->addMenu(tr("Open &With"));
    with->setObjectName(QStringLiteral("openWithMenu"));
    with->setEnabled(file);
    if (file) {
        const QString type = QMimeDatabase().mimeTypeForFile(bytesToText(tree.name(node).toByteArray()), QMimeDatabase::MatchExtension).name();
        for (const DesktopApplication &app : applicationsFor(type))
            with->addAction(app.name, this, [this, node, app] { open(node, app); })->setToolTip(app.desktopFile);
        if (!with->isEmpty())
            with->addSeparator();
    }
    with->addAction(tr("Other Command…"), this, [this, node] {
        bool ok = false;
        const QString command = QInputDialog::getText(view_, tr("Open With"), tr("Command (the file is added at the end):"), QLineEdit::Normal, QString(), &ok);
        if (ok && !command.trimmed().isEmpty())
            open(node, DesktopApplication{command.trimmed(), command.trimmed(), {}});
    });
    menu->addAction(tr("&Preview"), this, [this, node] { Q_EMIT previewRequested(node); })->setEnabled(readable);
    menu->addSeparator();
    menu->addAction(tr("&Extract…"), this, &EntryMenu::extractRequested);
    menu->addAction(tr("Extract &Here"), this, [this] { Q_EMIT extractHereRequested(hereFolder()); })->setEnabled(!nodes.isEmpty());
    menu->addSeparator();
    menu->addAction(tr("Copy &Path"), this, [this, nodes] {
            QStringList paths;
            for (int32_t n : nodes)
                paths << bytesToText(model_->tree().path(n).toByteArray());
            QApplication::clipboard()->setText(paths.join(QLatin1Char('\n')));
        })
        ->setEnabled(!nodes.isEmpty());
    menu->addAction(tr("Copy &SPEC"), this, [this, nodes] {
            QStringList specs;
            for (int32_t n : nodes)
                specs << model_->tree().spec(n);
            QApplication::clipboard()->setText(specs.join(QLatin1Char('\n')));
        })
        ->setEnabled(!nodes.isEmpty());
    menu->addSeparator();
    // A folder is tested (or summed) with all below it, as 7-Zip's Test and CRC menus do.
    const bool checkable = node > 0 && tree.type(node) != EntryType::Symlink;
    QAction *test = menu->addAction(tr("&Test"), this, [this, node] { Q_EMIT checkRequested(model_->tree().spec(node), false); });
    test->setEnabled(checkable);
    test->setObjectName(QStringLiteral("testEntryAction"));
    QAction *sums = menu->addAction(tr("Check&sums…"), this, [this, node] { Q_EMIT checkRequested(model_->tree().spec(node), true); });
    sums->setEnabled(checkable);
    sums->setObjectName(QStringLiteral("checksumsEntryAction"));
    menu->addAction(tr("&Benchmark This"), this, [this, node] { Q_EMIT benchmarkRequested(model_->tree().spec(node), qint64(model_->tree().contentSize(node))); })->setEnabled(readable);
    menu->addAction(tr("P&roperties"), this, [this, node] { Q_EMIT propertiesRequested(node); })->setEnabled(node > 0);
    return menu;
}

void EntryMenu::showMenu(const QPoint &at)
{
    if (model_->tree().layerCount() == 0)
        return;
    QMenu *menu = build(view_);
    menu->setAttribute(Qt::WA_DeleteOnClose);
    menu->popup(view_->viewport()->mapToGlobal(at));
}

void EntryMenu::doubleClicked(int32_t node)
{
    // Containers and folders expand (the view toggles them); a plain file previews.
    if (node > 0 && model_->tree().type(node) == EntryType::File && !model_->loader()->looksNested(node))
        Q_EMIT previewRequested(node);
}

} // namespace asc::ui
