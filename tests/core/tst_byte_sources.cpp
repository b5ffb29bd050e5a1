// SPDX-License-Identifier: MIT
// Every byte source returns exactly the right bytes: random offsets/lengths (seeded), at and past
// EOF, zero length, a 0-byte file, a sparse file larger than 4 GiB; and files are opened read-only.

#include "io/copy_to_fd.h"
#include "io/file_source.h"
#include "io/memory_source.h"
#include "io/mmap_source.h"
#include "io/slice_source.h"
#include "test_files.h"

#include <QRandomGenerator>
#include <QTest>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace asc;

class TestByteSources : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QByteArray content_;
    QString path_;

    std::vector<std::pair<QString, SourcePtr>> sources(const QString &path, const QByteArray &content)
    {
        std::vector<std::pair<QString, SourcePtr>> all;
        all.emplace_back(QStringLiteral("file"), FileSource::open(path).value());
        all.emplace_back(QStringLiteral("mmap"), MmapSource::open(path).value());
        all.emplace_back(QStringLiteral("memory"), std::make_shared<MemorySource>(content));
        // A slice of a bigger source padded on both sides must read as the original.
        QByteArray padded = QByteArray(777, 'x') + content + QByteArray(333, 'y');
        all.emplace_back(QStringLiteral("slice"),
                         std::make_shared<SliceSource>(std::make_shared<MemorySource>(padded), 777,
                                                       uint64_t(content.size()), QStringLiteral("slice")));
        return all;
    }

    static void checkReads(const ByteSource &source, const QByteArray &content, quint32 seed)
    {
        QRandomGenerator rng(seed);
        const uint64_t size = uint64_t(content.size());
        QCOMPARE(source.size(), size);
        for (int i = 0; i < 500; ++i) {
            const uint64_t offset = size ? rng.bounded(quint64(size + 100)) : rng.bounded(100);
            const size_t length = rng.bounded(70000);
            QByteArray buf(qsizetype(length), '\xee');
            auto got = source.readAt(offset, std::span(buf.data(), length));
            QVERIFY2(got.ok(), qPrintable(got.ok() ? QString() : got.error().toString()));
            const uint64_t expected = offset >= size ? 0 : std::min<uint64_t>(length, size - offset);
            QCOMPARE(*got, expected);
            QCOMPARE(buf.left(qsizetype(expected)), content.mid(qsizetype(std::min(offset, size)), qsizetype(expected)));
        }
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        content_ = test::seededBytes(1234567, 42);
        path_ = test::writeFile(dir_, QStringLiteral("data.bin"), content_);
    }

    void randomReads()
    {
        for (auto &[name, source] : sources(path_, content_)) {
            qInfo("source %s", qPrintable(name));
            checkReads(*source, content_, 7);
        }
    }

    void edges()
    {
        for (auto &[name, source] : sources(path_, content_)) {
            char buf[16];
            QCOMPARE(*source->readAt(0, std::span(buf, 0)), size_t(0)); // zero length
            QCOMPARE(*source->readAt(source->size(), std::span(buf, 16)), size_t(0)); // at EOF
            QCOMPARE(*source->readAt(source->size() + 5000, std::span(buf, 16)), size_t(0)); // past EOF
            QCOMPARE(*source->readAt(source->size() - 3, std::span(buf, 16)), size_t(3)); // across EOF
            QCOMPARE(QByteArray(buf, 3), content_.right(3));
            QVERIFY(!source->readExact(source->size() - 3, std::span(buf, 16)).ok());
        }
    }

    void emptyFile()
    {
        const QString empty = test::writeFile(dir_, QStringLiteral("empty"), {});
        for (auto &[name, source] : sources(empty, {})) {
            char buf[8];
            QCOMPARE(source->size(), uint64_t(0));
            QCOMPARE(*source->readAt(0, std::span(buf, 8)), size_t(0));
        }
    }

    // Copying into a regular file leaves whole zero blocks inside data as holes (as qemu-img
    // convert and cp --sparse=always do) and the bytes read back identical; zero runs shorter
    // than a block or not aligned to one are written.
    void copyLeavesZeroBlocksAsHoles()
    {
        QByteArray bytes = test::seededBytes(3 * 1024 * 1024 + 5000, 9);
        for (qsizetype i = 100; i < 8000; ++i) // zeros covering no whole aligned block
            bytes[i] = 0;
        for (qsizetype i = 1024 * 1024; i < 2 * 1024 * 1024; ++i) // 1 MiB of aligned zero blocks
            bytes[i] = 0;
        for (qsizetype i = 3 * 1024 * 1024 + 10; i < 3 * 1024 * 1024 + 4000; ++i) // short run near the end
            bytes[i] = 0;
        MemorySource source(bytes);
        const QString path = dir_.filePath(QStringLiteral("copied"));
        const int fd = ::open(path.toLocal8Bit().constData(), O_CREAT | O_RDWR | O_TRUNC | O_CLOEXEC, 0644);
        QVERIFY(fd >= 0);
        auto copied = copyToFd(source, fd, path);
        QVERIFY(copied.ok());
        QCOMPARE(copied->bytes, quint64(bytes.size()));
        // The 1 MiB of zeros starts a hole wherever the filesystem keeps holes.
        const off_t hole = ::lseek(fd, 0, SEEK_HOLE);
        const off_t dataAfter = ::lseek(fd, 1024 * 1024, SEEK_DATA);
        ::close(fd);
        if (hole < off_t(bytes.size())) {
            QCOMPARE(hole, off_t(1024 * 1024));
            QCOMPARE(dataAfter, off_t(2 * 1024 * 1024));
        }
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY(f.readAll() == bytes);
    }

    void sparseOver4GiB()
    {
        const QString path = dir_.filePath(QStringLiteral("sparse"));
        const uint64_t size = 5ULL << 30;
        const uint64_t marker = (4ULL << 30) + 12345;
        int fd = ::open(path.toLocal8Bit().constData(), O_CREAT | O_WRONLY | O_TRUNC, 0644);
        QVERIFY(fd >= 0);
        QCOMPARE(::ftruncate(fd, off_t(size)), 0);
        QCOMPARE(::pwrite(fd, "MARK", 4, off_t(marker)), ssize_t(4));
        ::close(fd);
        for (const SourcePtr &source : {SourcePtr(FileSource::open(path).value()), SourcePtr(MmapSource::open(path).value())}) {
            QCOMPARE(source->size(), size);
            char buf[10];
            QCOMPARE(*source->readAt(marker - 3, std::span(buf, 10)), size_t(10));
            QCOMPARE(QByteArray(buf, 10), QByteArray("\0\0\0MARK\0\0\0", 10));
            QCOMPARE(*source->readAt(size - 4, std::span(buf, 10)), size_t(4));
            SliceSource slice(source, marker, 4, QStringLiteral("s"));
            QCOMPARE(*slice.readAt(0, std::span(buf, 10)), size_t(4));
            QCOMPARE(QByteArray(buf, 4), QByteArray("MARK"));
        }
    }

    void errorsNameTheFile()
    {
        auto missing = FileSource::open(dir_.filePath(QStringLiteral("nope")));
        QVERIFY(!missing.ok());
        QVERIFY(missing.error().toString().contains(QStringLiteral("nope")));
        QVERIFY(missing.error().toString().contains(QStringLiteral("No such file")));
        auto directory = FileSource::open(dir_.path());
        QVERIFY(!directory.ok());
        QVERIFY(directory.error().toString().contains(QStringLiteral("directory")));
    }

    // The opened file is never opened for writing: the fd's access mode is O_RDONLY with
    // O_CLOEXEC, and the file's bytes and mtime are unchanged after reading.
    void openedReadOnly()
    {
        struct stat before {};
        QCOMPARE(::stat(path_.toLocal8Bit().constData(), &before), 0);
        auto source = FileSource::open(path_);
        QVERIFY(source.ok());
        const int fd = (*source)->fd();
        QCOMPARE(::fcntl(fd, F_GETFL) & O_ACCMODE, O_RDONLY);
        QVERIFY(::fcntl(fd, F_GETFD) & FD_CLOEXEC);
        char buf[4096];
        for (uint64_t at = 0; at < (*source)->size(); at += sizeof buf)
            QVERIFY((*source)->readAt(at, std::span(buf, sizeof buf)).ok());
        source = Result<std::shared_ptr<FileSource>>(Error());
        struct stat after {};
        QCOMPARE(::stat(path_.toLocal8Bit().constData(), &after), 0);
        QCOMPARE(after.st_mtim.tv_sec, before.st_mtim.tv_sec);
        QCOMPARE(after.st_mtim.tv_nsec, before.st_mtim.tv_nsec);
        QCOMPARE(test::sha256File(path_), test::sha256(content_));
    }
};

QTEST_GUILESS_MAIN(TestByteSources)
#include "tst_byte_sources.moc"
