// SPDX-License-Identifier: MIT
// A gzip member inflated in pieces on several threads (codecs/gzip_pieces, with the bit-level
// side in codecs/deflate_blocks) gives exactly what gzip -d gives, for members written by
// gzip -1/-6/-9 and pigz and for members one after another, over data that exercises every path:
// text (pieces that start with markers), random bytes (stored blocks), compressed files stored as
// they are (deflate blocks inside stored data), and long repeats (markers that never clear, so
// ISA-L redoes the piece). Damaged and truncated copies are errors naming the file and an offset.
// The marker decoder on its own: a block found in the middle decodes, once its window is known,
// to the bytes gzip gives there.

#include "codecs/deflate_blocks.h"
#include "codecs/gzip_stream.h"
#include "io/memory_source.h"
#include "stream_read.h"
#include "test_files.h"

#include <QTemporaryDir>
#include <QTest>

using namespace asc;

class TestGzipPieces : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QByteArray original_;
    QString plain_;

    static QByteArray tool(const QString &program, const QStringList &args)
    {
        const auto r = test::run(program, args);
        if (r.exitCode != 0)
            qWarning() << program << args << r.err;
        return r.exitCode == 0 ? r.out : QByteArray();
    }

    // Text of words picked at random: compresses about 3:1 in many blocks, as prose and code do.
    static QByteArray words(int count, uint32_t seed)
    {
        static const char *vocabulary[] = {"the", "quick", "brown", "fox", "jumps", "over", "lazy", "dog", "archive", "member",
                                           "block", "window", "piece", "marker", "stored", "dynamic", "huffman", "code", "length", "distance",
                                           "literal", "inflate", "deflate", "gzip", "tar", "entry", "header", "offset", "bytes", "file"};
        QByteArray text;
        uint32_t x = seed * 2654435761u + 1;
        for (int i = 0; i < count; ++i) {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            text += vocabulary[x % 30];
            text += (x >> 8) % 11 == 0 ? '\n' : ' ';
            if ((x >> 12) % 7 == 0)
                text += QByteArray::number(x % 100000);
        }
        return text;
    }

    // 16 KiB of random bytes again and again, a few bytes changed each time: nearly every byte is
    // a copy of one 16 KiB back, so a piece starting in there never has its window known.
    static QByteArray copiesOfCopies(uint32_t seed)
    {
        QByteArray pattern = test::seededBytes(16 << 10, seed + 50);
        const QByteArray noise = test::seededBytes(1 << 20, seed + 60);
        QByteArray out;
        for (int round = 0, n = 0; round < 200; ++round) {
            for (qsizetype k = round % 97; k < pattern.size(); k += 97)
                pattern[k] = noise[n++ % noise.size()];
            out += pattern;
        }
        return out;
    }

    // Like a tarball of mixed files.
    QByteArray sample()
    {
        QByteArray bytes;
        for (int part = 0; part < 6; ++part) {
            bytes += words(150000, uint32_t(part + 1));
            bytes += test::seededBytes(300 << 10, uint32_t(part + 1));
            // A compressed file, stored as it is by the outer compressor.
            QByteArray text;
            for (int i = 0; i < 30000; ++i)
                text += "changelog entry " + QByteArray::number(i * 13 % 977) + " fixed\n";
            const QString inner = test::writeFile(dir_, QStringLiteral("inner%1").arg(part), text);
            bytes += tool(QStringLiteral("gzip"), {QStringLiteral("-9"), QStringLiteral("-c"), inner});
            if (part % 2 == 0)
                bytes += QByteArray(400 << 10, '\0'); // sparse
            else
                bytes += copiesOfCopies(uint32_t(part));
        }
        return bytes;
    }

    static Result<QByteArray> decode(const QByteArray &compressed, GzipPieces::Options pieces, GzipPieces::Counts *counts = nullptr)
    {
        GzipStream stream(std::make_unique<SourceStream>(std::make_shared<MemorySource>(compressed, QStringLiteral("sample.gz"))),
                          QStringLiteral("sample.gz"), size_t(1) << 20, pieces);
        auto out = test::readToEnd(stream); // reads end mid-piece
        if (out && counts)
            *counts = stream.pieceCounts();
        return out;
    }

    static GzipPieces::Options cut(size_t region, unsigned threads = 2)
    {
        GzipPieces::Options o;
        o.threads = threads;
        o.region = region;
        o.rampUp = region; // cut from the second region on
        return o;
    }

private Q_SLOTS:
    void initTestCase()
    {
        for (const char *t : {"gzip", "pigz"})
            ASC_REQUIRE_TOOL(QString::fromLatin1(t));
        original_ = sample();
        plain_ = test::writeFile(dir_, QStringLiteral("sample"), original_);
    }

    void piecesGiveWhatGzipGives_data()
    {
        QTest::addColumn<QString>("program");
        QTest::addColumn<QStringList>("args");
        QTest::newRow("gzip -1") << QStringLiteral("gzip") << QStringList{QStringLiteral("-1")};
        QTest::newRow("gzip -6") << QStringLiteral("gzip") << QStringList{QStringLiteral("-6")};
        QTest::newRow("gzip -9") << QStringLiteral("gzip") << QStringList{QStringLiteral("-9")};
        QTest::newRow("pigz") << QStringLiteral("pigz") << QStringList{QStringLiteral("-p2")};
    }
    void piecesGiveWhatGzipGives()
    {
        QFETCH(QString, program);
        QFETCH(QStringList, args);
        const QByteArray packed = tool(program, args + QStringList{QStringLiteral("-c"), plain_});
        QVERIFY(!packed.isEmpty());
        for (size_t region : {size_t(64) << 10, size_t(256) << 10}) {
            GzipPieces::Counts counts;
            auto out = decode(packed, cut(region), &counts);
            QVERIFY2(out, qPrintable(out ? QString() : out.error().toString()));
            QVERIFY2(*out == original_, qPrintable(QStringLiteral("region %1").arg(region)));
            // Many regions became pieces of their own; the rest (random bytes, stored compressed
            // files, zeros: no dynamic block starts in them) went through zlib, in order.
            const uint64_t regions = uint64_t(packed.size()) / region;
            QVERIFY2(counts.pieces >= regions / 5, qPrintable(QStringLiteral("%1 pieces of %2 regions").arg(counts.pieces).arg(regions)));
            QVERIFY2(counts.mostInFlight >= 2, qPrintable(QString::number(counts.mostInFlight)));
        }
        // One thread: the member is not cut.
        GzipPieces::Counts one;
        auto whole = decode(packed, cut(64 << 10, 1), &one);
        QVERIFY(whole);
        QVERIFY(*whole == original_);
        QCOMPARE(one.pieces, uint64_t(0));
    }

    // Each path is taken somewhere in the sample: ISA-L redoing a piece whose markers did not
    // clear, and zlib going block by block until a piece starts where a block ends.
    void everyPathIsTaken()
    {
        const QByteArray packed = tool(QStringLiteral("gzip"), {QStringLiteral("-6"), QStringLiteral("-c"), plain_});
        GzipPieces::Counts counts;
        auto out = decode(packed, cut(128 << 10), &counts);
        QVERIFY(out);
        QVERIFY(*out == original_);
        QVERIFY2(counts.redone > 0, "no piece was redone by ISA-L");
        QVERIFY2(counts.sequentialBlocks > 0, "no block was inflated in order");
    }

    // Text all through: the first piece is inflated as it is read, the pieces after it on the
    // threads, and the member's last region by ISA-L in order.
    void firstPiecesAndTheEnd()
    {
        const QByteArray text = words(400000, 3);
        const QString file = test::writeFile(dir_, QStringLiteral("words"), text);
        const QByteArray packed = tool(QStringLiteral("gzip"), {QStringLiteral("-6"), QStringLiteral("-c"), file});
        GzipPieces::Counts counts;
        auto out = decode(packed, cut(64 << 10), &counts);
        QVERIFY(out);
        QVERIFY(*out == text);
        QCOMPARE(counts.tails, uint64_t(1));
        QCOMPARE(counts.sequentialBlocks, uint64_t(0));
        // (the first piece runs on to the first region ISA-L has not been given when it is cut)
        QVERIFY2(counts.pieces >= uint64_t(packed.size()) / (64 << 10) / 2, qPrintable(QStringLiteral("%1 pieces").arg(counts.pieces)));
        // Reading only the start starts no thread.
        GzipStream stream(std::make_unique<SourceStream>(std::make_shared<MemorySource>(packed, QStringLiteral("words.gz"))),
                          QStringLiteral("words.gz"), size_t(1) << 20, cut(64 << 10));
        std::vector<char> start(65536);
        QVERIFY(stream.read(start));
        QVERIFY(std::memcmp(start.data(), text.constData(), start.size()) == 0);
        QCOMPARE(stream.pieceCounts().mostInFlight, size_t(0));
    }

    // BGZF (bgzip): members of at most 64 KiB, marked by a "BC" extra subfield, are not cut.
    void bgzfMembersAreNotCut()
    {
        const QByteArray text = words(300000, 11);
        QByteArray bgzf;
        for (qsizetype at = 0; at < text.size(); at += 60000) {
            const QString part = test::writeFile(dir_, QStringLiteral("part"), text.mid(at, 60000));
            const QByteArray member = tool(QStringLiteral("gzip"), {QStringLiteral("-n"), QStringLiteral("-c"), part});
            QByteArray header = member.left(10);
            header[3] = char(header[3] | 0x04); // FEXTRA
            const int size = int(member.size()) + 8 - 1; // BSIZE: the member's size less one
            header += QByteArray("\x06\x00"
                                 "BC"
                                 "\x02\x00",
                                 6) +
                      char(size & 0xff) + char(size >> 8);
            bgzf += header + member.mid(10);
        }
        GzipPieces::Counts counts;
        auto out = decode(bgzf, cut(64 << 10), &counts);
        QVERIFY2(out, qPrintable(out ? QString() : out.error().toString()));
        QVERIFY(*out == text);
        QCOMPARE(counts.tails, uint64_t(0)); // ISA-L took each member as it came
        QCOMPARE(counts.mostInFlight, size_t(0));
    }

    // A member ends inside a piece, in its marker part or in ISA-L's, wherever the cut falls.
    void membersOneAfterAnother()
    {
        const QByteArray a = tool(QStringLiteral("gzip"), {QStringLiteral("-6"), QStringLiteral("-c"), plain_});
        const QByteArray b = tool(QStringLiteral("pigz"), {QStringLiteral("-9"), QStringLiteral("-c"), plain_});
        const QString small = test::writeFile(dir_, QStringLiteral("small"), words(20000, 7));
        const QByteArray c = tool(QStringLiteral("gzip"), {QStringLiteral("-c"), small});
        for (size_t region : {size_t(48) << 10, size_t(80) << 10, size_t(112) << 10, size_t(160) << 10, size_t(224) << 10}) {
            GzipPieces::Counts counts;
            auto out = decode(a + c + b + a, cut(region), &counts);
            QVERIFY2(out, qPrintable(out ? QString() : out.error().toString()));
            QVERIFY2(*out == original_ + words(20000, 7) + original_ + original_, qPrintable(QStringLiteral("region %1").arg(region)));
            QVERIFY(counts.pieces > 0);
        }
        // Zero padding after the last member ends the data, as for gzip -d.
        auto padded = decode(a + QByteArray(1000, '\0'), cut(64 << 10));
        QVERIFY(padded);
        QVERIFY(*padded == original_);
    }

    void damageIsAnErrorWithAnOffset()
    {
        const QByteArray packed = tool(QStringLiteral("gzip"), {QStringLiteral("-6"), QStringLiteral("-c"), plain_});
        for (int i = 1; i < 12; ++i) {
            QByteArray bad = packed;
            const qsizetype at = packed.size() * i / 12;
            bad[at] = char(bad[at] ^ 0x5a);
            bad[at + 1] = char(bad[at + 1] ^ 0xff);
            auto out = decode(bad, cut(64 << 10));
            // A flip inside a stored block's data changes the data, not the structure: the CRC
            // catches that one.
            QVERIFY2(!out, qPrintable(QStringLiteral("flip at %1 went unnoticed").arg(at)));
            QCOMPARE(out.error().file, QStringLiteral("sample.gz"));
            QVERIFY2(out.error().offset.has_value(), qPrintable(out.error().toString()));
            QVERIFY(*out.error().offset <= uint64_t(packed.size()));
        }
        for (int i = 1; i < 8; ++i) {
            auto out = decode(packed.left(packed.size() * i / 8), cut(64 << 10));
            QVERIFY(!out);
            QVERIFY2(out.error().message.contains(QStringLiteral("truncated")), qPrintable(out.error().toString()));
        }
        QByteArray badCrc = packed;
        badCrc[badCrc.size() - 6] = char(badCrc[badCrc.size() - 6] ^ 1);
        auto out = decode(badCrc, cut(64 << 10));
        QVERIFY(!out);
        QVERIFY2(out.error().message.contains(QStringLiteral("CRC-32")), qPrintable(out.error().toString()));
        QCOMPARE(out.error().offset, std::optional<uint64_t>(0));
    }

    // The marker decoder: a block found in the middle of a member decodes, with the 32 KiB before
    // it filled in, to what gzip gives from there; the bits before it end at a block there.
    void aBlockInTheMiddleDecodesWithMarkers()
    {
        const QByteArray text = words(300000, 42);
        const QString file = test::writeFile(dir_, QStringLiteral("text"), text);
        const QByteArray packed = tool(QStringLiteral("gzip"), {QStringLiteral("-6"), QStringLiteral("-n"), QStringLiteral("-c"), file});
        const auto deflate = std::span(reinterpret_cast<const uint8_t *>(packed.constData()) + 10, size_t(packed.size()) - 18);
        const auto found = deflate::findBlock({}, deflate, deflate.size() * 8 / 2, deflate.size() * 8);
        QVERIFY(found.has_value());
        deflate::Limits upTo;
        upTo.stopBit = *found;
        upTo.maxSymbols = size_t(text.size());
        const auto before = deflate::decode(deflate, 0, upTo);
        QCOMPARE(int(before.stop), int(deflate::Stop::AtStopBit));
        const size_t at = before.symbols.size();
        deflate::Limits all;
        all.maxSymbols = size_t(text.size());
        const auto rest = deflate::decode(deflate, *found, all);
        QCOMPARE(int(rest.stop), int(deflate::Stop::FinalBlock));
        QCOMPARE(rest.symbols.size(), size_t(text.size()) - at);
        bool markers = false;
        for (uint16_t s : rest.symbols)
            markers = markers || s >= deflate::kMarker;
        QVERIFY2(markers, "the block refers to nothing before it: the test shows nothing");
        std::vector<uint8_t> resolved(rest.symbols.size());
        const auto window = std::span(reinterpret_cast<const uint8_t *>(text.constData()) + at - deflate::kWindow, deflate::kWindow);
        QVERIFY(deflate::resolve(rest.symbols, window, resolved.data()));
        QVERIFY(std::memcmp(resolved.data(), text.constData() + at, resolved.size()) == 0);
        // A window shorter than a marker reaches back is refused, not read out of bounds.
        QVERIFY(!deflate::resolve(rest.symbols, window.last(10), resolved.data()));
    }
};

QTEST_GUILESS_MAIN(TestGzipPieces)
#include "tst_gzip_pieces.moc"
