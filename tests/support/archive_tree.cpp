// SPDX-License-Identifier: MIT
#include "archive_tree.h"

#include "test_files.h"

#include <QDir>
#include <QFile>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace asc::test {

static void setTimes(const QString &path, qint64 mtime)
{
    const timespec times[2] = {{mtime, 0}, {mtime, 0}};
    ::utimensat(AT_FDCWD, path.toLocal8Bit().constData(), times, AT_SYMLINK_NOFOLLOW);
}

ArchiveTree makeArchiveTree(const QString &root)
{
    ArchiveTree tree;
    tree.root = root;
    const QByteArray longName = QByteArray(120, 'L') + "-" + QByteArray(60, 'n') + ".txt"; // 185 bytes
    auto add = [&](const QByteArray &path, TreeItem item) { tree.items.insert(path.isEmpty() ? QByteArray("tree") : "tree/" + path, item); };
    add("", {QStringLiteral("dir"), {}, {}, 0755, 1700000000});
    add("hello.txt", {QStringLiteral("file"), "hello, world\n", {}, 0644, 1700000000});
    add("empty.txt", {QStringLiteral("file"), {}, {}, 0600, 1600000000});
    add(QByteArray("ünïcödé-名前.txt"), {QStringLiteral("file"), "utf-8 name\n", {}, 0644, 1700000001});
    add("old-1969.txt", {QStringLiteral("file"), "before the epoch\n", {}, 0644, -86400 * 30});
    add("docs", {QStringLiteral("dir"), {}, {}, 0755, 1700000002});
    add("docs/" + longName, {QStringLiteral("file"), "long name\n", {}, 0644, 1700000003});
    add("docs/deep", {QStringLiteral("dir"), {}, {}, 0750, 1700000004});
    add("docs/deep/er", {QStringLiteral("dir"), {}, {}, 0755, 1700000005});
    add("docs/deep/er/leaf.bin", {QStringLiteral("file"), seededBytes(12345, 77), {}, 0640, 1700000006});
    add("empty-dir", {QStringLiteral("dir"), {}, {}, 0700, 1700000007});
    add("data", {QStringLiteral("dir"), {}, {}, 0755, 1700000008});
    add("data/random-5m.bin", {QStringLiteral("file"), seededBytes(5 * 1024 * 1024, 5), {}, 0644, 1700000009});
    add("data/script.sh", {QStringLiteral("file"), "#!/bin/sh\necho hi\n", {}, 0755, 1700000010});
    add("link-to-hello", {QStringLiteral("symlink"), {}, "hello.txt", 0777, 1700000011});
    add("data/link-up", {QStringLiteral("symlink"), {}, "../docs", 0777, 1700000012});
    add("hardlink-to-hello", {QStringLiteral("hardlink"), "hello, world\n", "tree/hello.txt", 0644, 1700000000});

    QDir(root).mkpath(QStringLiteral("tree"));
    // Files and dirs first, then links, then times (children before parents).
    for (auto it = tree.items.cbegin(); it != tree.items.cend(); ++it) {
        const QString path = root + QLatin1Char('/') + QString::fromUtf8(it.key());
        if (it->type == QLatin1String("dir")) {
            QDir().mkpath(path);
        } else if (it->type == QLatin1String("file")) {
            QFile f(path);
            if (!f.open(QIODevice::WriteOnly) || f.write(it->content) != it->content.size())
                qFatal("cannot write %s", qPrintable(path));
        }
    }
    for (auto it = tree.items.cbegin(); it != tree.items.cend(); ++it) {
        const QByteArray path = (root + QLatin1Char('/')).toUtf8() + it.key();
        if (it->type == QLatin1String("symlink"))
            ::symlink(it->target.constData(), path.constData());
        else if (it->type == QLatin1String("hardlink"))
            ::link(((root + QLatin1Char('/')).toUtf8() + it->target).constData(), path.constData());
    }
    for (auto it = tree.items.cbegin(); it != tree.items.cend(); ++it) {
        const QByteArray path = (root + QLatin1Char('/')).toUtf8() + it.key();
        if (it->type != QLatin1String("symlink"))
            ::chmod(path.constData(), mode_t(it->mode));
    }
    for (auto it = tree.items.cend(); it != tree.items.cbegin();) {
        --it;
        setTimes(root + QLatin1Char('/') + QString::fromUtf8(it.key()), it->mtime);
    }
    return tree;
}

} // namespace asc::test
