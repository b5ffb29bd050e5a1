// SPDX-License-Identifier: MIT
// Seek points made while a gzip stream is inflated (codecs/gzip_seek_points): for streams
// written by gzip -1/-9, pigz and several members one after another, reading from any offset
// through the points gives exactly what gzip -d gives there, and reads from the file only the
// span holding that offset (counted); a point that does not decode to what it recorded is an
// error, never other bytes.

#include "io/counting_source.h"
#include "codecs/gzip_seek_points.h"
#include "codecs/gzip_stream.h"
#include "io/memory_source.h"
#include "test_files.h"

#include <QTemporaryDir>
#include <QTest>

using namespace asc;

class TestGzipSeekPoints : public QObject {
    Q_OBJECT

    QByteArray original_;
    QTemporaryDir dir_;
    QString plain_;

    QByteArray tool(const QString &program, const QStringList &args, const QByteArray &)
    {
        const auto r = test::run(program, args + QStringList{plain_});
        if (r.exitCode != 0)
            qWarning() << program << args << r.err;
        return r.exitCode == 0 ? r.out : QByteArray();
    }

    // Text that compresses about 3:1 in many blocks, then random bytes (stored blocks).
    static QByteArray sample() { return test::seededWords(40 << 20, 12345) + test::seededBytes(3 << 20, 7); }

    // The stream inflated front to back with a recorder: what it gives, and the index.
    static std::optional<GzipSeekIndex> indexOf(const QByteArray &gz, uint64_t spacing, QByteArray *decoded)
    {
        GzipSeekRecorder recorder(spacing);
        GzipStream stream(std::make_unique<SourceStream>(std::make_shared<MemorySource>(gz)), QStringLiteral("t.gz"));
        stream.recordSeekPoints(&recorder);
        std::vector<char> buffer(1 << 20);
        for (;;) {
            auto n = stream.read(buffer);
            if (!n) {
                qWarning() << n.error().toString();
                return std::nullopt;
            }
            if (*n == 0)
                break;
            decoded->append(buffer.data(), qsizetype(*n));
        }
        return recorder.finish(uint64_t(decoded->size()));
    }

    static QByteArray readAt(SourcePtr source, std::shared_ptr<const GzipSeekIndex> index, uint64_t offset, qsizetype length, QString *error = nullptr)
    {
        auto stream = openGzipAt(std::move(source), std::move(index), offset, QStringLiteral("t.gz"));
        if (!stream) {
            if (error)
                *error = stream.error().toString();
            return {};
        }
        QByteArray out(length, '\0');
        qsizetype got = 0;
        while (got < length) {
            auto n = (*stream)->read(std::span(out.data() + got, size_t(length - got)));
            if (!n) {
                if (error)
                    *error = n.error().toString();
                return {};
            }
            if (*n == 0)
                break;
            got += qsizetype(*n);
        }
        out.truncate(got);
        return out;
    }

private Q_SLOTS:
    void initTestCase()
    {
        ASC_REQUIRE_TOOL(QStringLiteral("gzip"));
        ASC_REQUIRE_TOOL(QStringLiteral("pigz"));
        original_ = sample();
        plain_ = test::writeFile(dir_, QStringLiteral("plain"), original_);
    }

    void anyOffsetGivesWhatGzipGives_data()
    {
        QTest::addColumn<QString>("program");
        QTest::addColumn<QStringList>("args");
        QTest::newRow("gzip -1") << QStringLiteral("gzip") << QStringList{QStringLiteral("-1c")};
        QTest::newRow("gzip -9") << QStringLiteral("gzip") << QStringList{QStringLiteral("-9c")};
        QTest::newRow("pigz") << QStringLiteral("pigz") << QStringList{QStringLiteral("-c")};
        QTest::newRow("pigz -i") << QStringLiteral("pigz") << QStringList{QStringLiteral("-ic")};
    }

    void anyOffsetGivesWhatGzipGives()
    {
        QFETCH(QString, program);
        QFETCH(QStringList, args);
        QByteArray gz = tool(program, args, original_);
        QVERIFY(!gz.isEmpty());
        const uint64_t spacing = uint64_t(4) << 20;
        QByteArray decoded;
        auto index = indexOf(gz, spacing, &decoded);
        QVERIFY(index.has_value());
        QCOMPARE(decoded, original_);
        QCOMPARE(index->decodedSize, uint64_t(original_.size()));
        // About one point per spacing (a few more where a block could not be proven at once).
        QVERIFY2(index->points.size() >= size_t(original_.size()) / spacing - 1, qPrintable(QString::number(index->points.size())));
        QVERIFY(index->plausible(uint64_t(16) << 20));
        auto shared = std::make_shared<const GzipSeekIndex>(*index);
        auto source = std::make_shared<CountingSource>(std::make_shared<MemorySource>(gz));
        uint32_t x = 99;
        for (int i = 0; i < 40; ++i) {
            x = x * 1103515245u + 12345u;
            const uint64_t offset = i == 0 ? 0 : i == 1 ? uint64_t(original_.size()) - 1000
                                                        : uint64_t(x) % uint64_t(original_.size());
            const uint64_t before = source->bytes();
            const QByteArray got = readAt(source, shared, offset, 70000);
            QCOMPARE(got, original_.mid(qsizetype(offset), 70000));
            // Only the spans holding the bytes are read (at most two here), and of the file no
            // more than their compressed bytes and a read's worth past them.
            const size_t first = shared->pointFor(offset);
            const size_t last = shared->pointFor(offset + uint64_t(got.size()) - 1);
            const uint64_t spanBytes = (last + 1 < shared->points.size() ? shared->points[last + 1].bit / 8 : uint64_t(gz.size())) - shared->points[first].bit / 8;
            QVERIFY2(source->bytes() - before <= spanBytes + (2 << 20), qPrintable(QStringLiteral("%1 > %2").arg(source->bytes() - before).arg(spanBytes)));
        }
        // Whole: the same bytes from the start.
        QCOMPARE(readAt(source, shared, 0, original_.size() + 10), original_);
    }

    void aWrongPointIsAnError()
    {
        QByteArray gz = tool(QStringLiteral("gzip"), {QStringLiteral("-6c")}, original_);
        QByteArray decoded;
        auto index = indexOf(gz, uint64_t(4) << 20, &decoded);
        QVERIFY(index.has_value());
        QVERIFY(index->points.size() > 3);
        auto source = std::make_shared<MemorySource>(gz);
        // A window byte changed: the span decodes differently, and its CRC says so.
        GzipSeekIndex damaged = *index;
        GzipSeekPoint &p = damaged.points[2];
        QVERIFY(!p.memberStart && p.window.size() == 32768);
        for (qsizetype i = 0; i < p.window.size(); ++i)
            p.window[i] = char(p.window[i] ^ 0x20);
        QString error;
        const QByteArray got = readAt(source, std::make_shared<const GzipSeekIndex>(damaged), p.out + 10, 1000, &error);
        QVERIFY2(got.isEmpty() && error.contains(QStringLiteral("does not decode")), qPrintable(error));
        // A bit offset moved: an error too.
        damaged = *index;
        damaged.points[2].bit += 3;
        error.clear();
        QVERIFY(readAt(source, std::make_shared<const GzipSeekIndex>(damaged), damaged.points[2].out, 1000, &error).isEmpty());
        QVERIFY(!error.isEmpty());
        // Out of order: refused before anything is read.
        damaged = *index;
        std::swap(damaged.points[1], damaged.points[2]);
        error.clear();
        QVERIFY(readAt(source, std::make_shared<const GzipSeekIndex>(damaged), 0, 10, &error).isEmpty());
        QVERIFY(error.contains(QStringLiteral("not usable")));
    }
};

QTEST_GUILESS_MAIN(TestGzipSeekPoints)
#include "tst_gzip_seek_points.moc"
