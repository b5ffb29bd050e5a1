// SPDX-License-Identifier: MIT
// What a worker's parent checks before it stores an index the worker made (the worker may not
// write files): an index file of this version, whole, goes into the cache; anything else sent to
// an index's path (other bytes, a cut or damaged index, another version's) is refused with the
// reason and leaves no file. The parent checks the file's frame, not its whole content: the
// loader decodes and checks that, for every file of the cache.

#include "formats/archive/archive_index.h"
#include "formats/archive/index_cache.h"
#include "remote/file_requests.h"
#include "remote/parent_answers.h"
#include "remote/wire.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <sys/socket.h>
#include <unistd.h>

using namespace asc;

namespace {

ArchiveIndex smallIndex()
{
    ArchiveIndex index;
    index.identity = "1:2:3:4.5:feed";
    index.libarchiveFormat = QStringLiteral("GNU tar format");
    index.filters = {QStringLiteral("gzip")};
    for (int i = 0; i < 40; ++i) {
        Entry e;
        e.path = "dir/file-" + QByteArray::number(i);
        e.size = uint64_t(i) * 100;
        e.ordinal = uint64_t(i);
        index.entries.push_back(e);
        index.headers.push_back(uint64_t(i) * 4096);
    }
    index.decodedSize = 40 * 4096;
    return index;
}

} // namespace

class TestIndexFileCheck : public QObject {
    Q_OBJECT

    QTemporaryDir cache_;

    // The parent's answer to a worker asking it to write `bytes` at `path`: whether it wrote.
    static bool parentWrites(const QString &path, const QByteArray &bytes, QString *why)
    {
        int pair[2];
        if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) != 0)
            return false;
        wire::Received request((wire::Message(wire::Kind::WriteExport) << path << bytes).bytes());
        const bool sent = answerWorkerRequest(pair[0], request, WorkerGrants{});
        bool written = false;
        if (auto frame = wire::receiveFrame(pair[1])) {
            wire::Received answer(*frame);
            answer >> written;
            if (!written && why) {
                Error error;
                answer >> error;
                *why = error.toString();
            }
        }
        ::close(pair[0]);
        ::close(pair[1]);
        return sent && written;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(cache_.isValid());
        qputenv("ARCHIVESCOPE_INDEX_DIR", QFile::encodeName(cache_.path()));
    }

    void aWholeIndexPassesAndDecodes()
    {
        const QByteArray file = encodeIndex(smallIndex());
        QVERIFY(checkIndexFile(file, QStringLiteral("x.idx")).ok());
        auto decoded = decodeIndex(file, QStringLiteral("x.idx"));
        QVERIFY(decoded.ok());
        QCOMPARE(decoded->entries.size(), size_t(40));
    }

    void otherBytesAreRefusedWithTheReason_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("reason");
        const QByteArray file = encodeIndex(smallIndex());
        QByteArray flipped = file;
        flipped[flipped.size() - 3] = char(flipped[flipped.size() - 3] ^ 0x10);
        QByteArray otherVersion = file;
        otherVersion[8] = char(otherVersion[8] ^ 0x7f); // the version follows the magic
        QTest::newRow("not an index") << QByteArray("#!/bin/sh\nrm -rf ~\n") << QStringLiteral("no index header");
        QTest::newRow("cut short") << file.left(file.size() - 10) << QStringLiteral("checksum");
        QTest::newRow("a bit flipped") << flipped << QStringLiteral("checksum");
        QTest::newRow("another version") << otherVersion << QStringLiteral("another version");
        QTest::newRow("padded") << file + QByteArray(16, 'x') << QStringLiteral("checksum");
    }

    void otherBytesAreRefusedWithTheReason()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, reason);
        auto checked = checkIndexFile(bytes, QStringLiteral("x.idx"));
        QVERIFY(!checked.ok());
        QVERIFY2(checked.error().toString().contains(reason), qPrintable(checked.error().toString()));
        QVERIFY(!decodeIndex(bytes, QStringLiteral("x.idx")).ok()); // the loader agrees
    }

    void theParentStoresOnlyAnIndex()
    {
        const QString path = index_cache::pathFor("some archive's identity");
        QVERIFY(index_cache::isIndexPath(path));
        QString why;
        QVERIFY(!parentWrites(path, QByteArray("#!/bin/sh\nrm -rf ~\n"), &why));
        QVERIFY2(why.contains(QStringLiteral("not a usable index")), qPrintable(why));
        QVERIFY(!QFile::exists(path));
        const QByteArray file = encodeIndex(smallIndex());
        QVERIFY(!parentWrites(path, file.left(file.size() / 2), &why));
        QVERIFY(!QFile::exists(path));
        QVERIFY(parentWrites(path, file, &why));
        QFile written(path);
        QVERIFY(written.open(QIODevice::ReadOnly));
        QCOMPARE(written.readAll(), file);
        // Beside the cache's files, nothing is written for a worker that names no export.
        QVERIFY(!parentWrites(cache_.filePath(QStringLiteral("elsewhere.idx")), file, &why));
        QVERIFY(!QFile::exists(cache_.filePath(QStringLiteral("elsewhere.idx"))));
    }
};

QTEST_GUILESS_MAIN(TestIndexFileCheck)
#include "tst_index_file_check.moc"
