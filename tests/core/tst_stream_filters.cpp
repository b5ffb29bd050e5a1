// SPDX-License-Identifier: MIT
// Our decompression filters against the reference tools: gzip (gzip, pigz, members
// concatenated, bgzip-style blocks with zero padding), xz (single- and multi-block, two streams
// concatenated), zstd (with and without a content size, several frames) decode to exactly the
// original bytes; truncated and bit-flipped copies are errors naming the file and the offset;
// a gzip in a gzip in a gzip... is refused after kMaxFilterDepth; an archive read through them
// lists as bsdtar lists it and still says which filter it was.

#include "formats/archive/compressed_facts.h"
#include "io/filters/filter_chain.h"
#include "io/memory_source.h"
#include "test_files.h"

#include <QTemporaryDir>
#include <QTest>

using namespace asc;

class TestStreamFilters : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QByteArray original_;
    QString plain_;

    // Text-like and random bytes mixed: real matches for the compressors, and incompressible runs.
    static QByteArray sample()
    {
        QByteArray bytes;
        for (int i = 0; i < 40000; ++i)
            bytes += QByteArray::number(i) + " the quick brown fox jumps over the lazy dog\n";
        bytes += test::seededBytes(3 << 20, 9);
        for (int i = 0; i < 20000; ++i)
            bytes += "line " + QByteArray::number(i * 7) + '\n';
        return bytes;
    }

    static QByteArray tool(const QString &program, const QStringList &args)
    {
        const auto r = test::run(program, args);
        if (r.exitCode != 0)
            qWarning() << program << args << r.err;
        return r.exitCode == 0 ? r.out : QByteArray();
    }

    static Result<QByteArray> decodeAll(const QByteArray &compressed, QStringList *filters = nullptr)
    {
        auto decoded = openDecoded(std::make_shared<MemorySource>(compressed, QStringLiteral("sample.z")));
        if (!decoded)
            return std::move(decoded).error();
        if (filters)
            *filters = decoded->filters;
        QByteArray out;
        std::vector<char> block(300000); // not a power of two: reads end mid-member
        for (;;) {
            auto got = decoded->stream->read(block);
            if (!got)
                return std::move(got).error();
            if (*got == 0)
                return out;
            out.append(block.data(), qsizetype(*got));
        }
    }

    void expectDecodes(const QByteArray &compressed, const QString &filter, const char *what)
    {
        QVERIFY2(!compressed.isEmpty(), what);
        QStringList filters;
        auto out = decodeAll(compressed, &filters);
        QVERIFY2(out, qPrintable(QString::fromUtf8(what) + QStringLiteral(": ") + (out ? QString() : out.error().toString())));
        QCOMPARE(filters, QStringList{filter});
        QVERIFY2(*out == original_, what);
    }

    void expectError(const QByteArray &damaged, const char *what)
    {
        auto out = decodeAll(damaged);
        QVERIFY2(!out, what);
        QCOMPARE(out.error().file, QStringLiteral("sample.z"));
        QVERIFY2(out.error().offset.has_value(), qPrintable(out.error().toString()));
        QVERIFY2(*out.error().offset <= uint64_t(damaged.size()), qPrintable(out.error().toString()));
    }

private Q_SLOTS:
    void initTestCase()
    {
        for (const char *t : {"gzip", "pigz", "xz", "zstd", "bsdtar"})
            ASC_REQUIRE_TOOL(QString::fromLatin1(t));
        original_ = sample();
        plain_ = test::writeFile(dir_, QStringLiteral("sample"), original_);
    }

    void gzipAsTheToolsWriteIt()
    {
        expectDecodes(tool(QStringLiteral("gzip"), {QStringLiteral("-c"), plain_}), QStringLiteral("gzip"), "gzip");
        expectDecodes(tool(QStringLiteral("pigz"), {QStringLiteral("-c"), QStringLiteral("-p2"), plain_}), QStringLiteral("gzip"), "pigz");
        // Members back to back (cat a.gz b.gz), and bgzip-style: 64 KiB blocks, each its own
        // member, then zeros as tape tools pad.
        QByteArray members, blocks;
        const qsizetype third = original_.size() / 3;
        for (int i = 0; i < 3; ++i) {
            const QString part = test::writeFile(dir_, QStringLiteral("part%1").arg(i), original_.mid(i * third, i == 2 ? -1 : third));
            members += tool(QStringLiteral("gzip"), {QStringLiteral("-c"), part});
        }
        expectDecodes(members, QStringLiteral("gzip"), "three members");
        for (qsizetype at = 0; at < original_.size(); at += 65280) {
            const QString block = test::writeFile(dir_, QStringLiteral("block"), original_.mid(at, 65280));
            blocks += tool(QStringLiteral("gzip"), {QStringLiteral("-1"), QStringLiteral("-c"), block});
        }
        blocks += QByteArray(10240, '\0');
        expectDecodes(blocks, QStringLiteral("gzip"), "bgzip-style blocks");
    }

    void xzSingleAndMultiBlock()
    {
        expectDecodes(tool(QStringLiteral("xz"), {QStringLiteral("-T1"), QStringLiteral("-c"), plain_}), QStringLiteral("xz"), "xz single block");
        expectDecodes(tool(QStringLiteral("xz"), {QStringLiteral("-T2"), QStringLiteral("--block-size=262144"), QStringLiteral("-c"), plain_}),
                      QStringLiteral("xz"), "xz multi-block");
        const QString half = test::writeFile(dir_, QStringLiteral("half"), original_.left(original_.size() / 2));
        const QString rest = test::writeFile(dir_, QStringLiteral("rest"), original_.mid(original_.size() / 2));
        expectDecodes(tool(QStringLiteral("xz"), {QStringLiteral("-c"), half}) + tool(QStringLiteral("xz"), {QStringLiteral("-c"), rest}),
                      QStringLiteral("xz"), "two xz streams");
    }

    void zstdWithAndWithoutContentSize()
    {
        expectDecodes(tool(QStringLiteral("zstd"), {QStringLiteral("-q"), QStringLiteral("-c"), plain_}), QStringLiteral("zstd"), "zstd");
        expectDecodes(tool(QStringLiteral("zstd"), {QStringLiteral("-q"), QStringLiteral("--no-content-size"), QStringLiteral("-c"), plain_}),
                      QStringLiteral("zstd"), "zstd without content size");
        const QString half = test::writeFile(dir_, QStringLiteral("half"), original_.left(original_.size() / 2));
        const QString rest = test::writeFile(dir_, QStringLiteral("rest"), original_.mid(original_.size() / 2));
        expectDecodes(tool(QStringLiteral("zstd"), {QStringLiteral("-q"), QStringLiteral("-c"), half}) +
                          tool(QStringLiteral("zstd"), {QStringLiteral("-q"), QStringLiteral("-c"), rest}),
                      QStringLiteral("zstd"), "two zstd frames");
    }

    void damageIsAnErrorWithAnOffset()
    {
        const QByteArray gz = tool(QStringLiteral("gzip"), {QStringLiteral("-c"), plain_});
        const QByteArray xz = tool(QStringLiteral("xz"), {QStringLiteral("-c"), plain_});
        const QByteArray zst = tool(QStringLiteral("zstd"), {QStringLiteral("-q"), QStringLiteral("-c"), plain_});
        for (const QByteArray &whole : {gz, xz, zst}) {
            expectError(whole.left(whole.size() / 2), "truncated in the middle");
            expectError(whole.left(whole.size() - 3), "truncated in the trailer");
        }
        // A flipped bit in the data, and in the gzip trailer's CRC-32 and length: the check
        // catches each.
        for (const QByteArray &whole : {gz, xz, zst}) {
            QByteArray flipped = whole;
            flipped[flipped.size() / 2] = char(flipped[flipped.size() / 2] ^ 0x10);
            expectError(flipped, "bit flipped in the data");
        }
        QByteArray badCrc = gz;
        badCrc[badCrc.size() - 6] = char(badCrc[badCrc.size() - 6] ^ 1);
        expectError(badCrc, "CRC-32 wrong");
        QByteArray badLength = gz;
        badLength[badLength.size() - 2] = char(badLength[badLength.size() - 2] ^ 1);
        expectError(badLength, "ISIZE wrong");
        QVERIFY(decodeAll(badLength).error().message.contains(QStringLiteral("gzip member starting here")));
        QCOMPARE(decodeAll(badLength).error().offset, std::optional<uint64_t>(0));
    }

    void nestedCompressionIsBounded()
    {
        // gzip of gzip of ... six deep: the first kMaxFilterDepth are decoded, then refused.
        QByteArray layered = original_.left(5000);
        for (int i = 0; i < 6; ++i) {
            const QString file = test::writeFile(dir_, QStringLiteral("layer"), layered);
            layered = tool(QStringLiteral("gzip"), {QStringLiteral("-c"), file});
        }
        auto out = decodeAll(layered);
        QVERIFY(!out);
        QVERIFY2(out.error().message.contains(QStringLiteral("compressed more than %1 times over").arg(kMaxFilterDepth)), qPrintable(out.error().toString()));
        // Up to the limit is fine: a .tar.gz.gz is still read.
        QByteArray twice = original_;
        for (int i = 0; i < 2; ++i)
            twice = tool(QStringLiteral("gzip"), {QStringLiteral("-c"), test::writeFile(dir_, QStringLiteral("layer"), twice)});
        QStringList filters;
        auto two = decodeAll(twice, &filters);
        QVERIFY(two && *two == original_);
        QCOMPARE(filters, (QStringList{QStringLiteral("gzip"), QStringLiteral("gzip")}));
    }

    void skippableFrameSizeDoesNotWrap()
    {
        // Found by fuzz_compressed_facts: a zstd frame, then a skippable frame claiming
        // 0xfffffff8 bytes; 8 + that size in 32 bits is 0, and the walk over the frames never
        // advanced. It must end (unknown size), and our decoder must refuse the stream.
        const QByteArray bytes = QByteArray::fromBase64("KLUv/WQbAAAAACUAADEjBABgYAAAUCpNGPj///9gYAAAAAAAowAAAAAAAAAAABg=");
        const MemorySource source(bytes, QStringLiteral("sample.z"));
        QVERIFY(!readCompressedFacts(source).size.has_value());
        QVERIFY(!decodeAll(bytes));
    }

    void archivesListThroughTheFilters()
    {
        // A tarball of 300 files, compressed each way: the CLI lists what bsdtar lists, and info
        // still names the filter.
        for (int i = 0; i < 300; ++i)
            test::writeFile(dir_, QStringLiteral("tree/d%1/f%2.txt").arg(i % 7).arg(i), QByteArray::number(i).repeated(i * 13 + 1));
        test::writeFile(dir_, QStringLiteral("tree/big.bin"), test::seededBytes(6 << 20, 3)); // big enough for the decoding thread
        const QString tar = dir_.filePath(QStringLiteral("tree.tar"));
        QCOMPARE(test::run(QStringLiteral("bsdtar"), {QStringLiteral("-cf"), tar, QStringLiteral("-C"), dir_.path(), QStringLiteral("tree")}).exitCode, 0);
        const QByteArray expected = test::run(QStringLiteral("bsdtar"), {QStringLiteral("-tf"), tar}).out;
        struct Variant {
            QString program, suffix, filter;
        };
        for (const Variant &v : {Variant{QStringLiteral("pigz"), QStringLiteral(".gz"), QStringLiteral("gzip")},
                                 Variant{QStringLiteral("xz"), QStringLiteral(".xz"), QStringLiteral("xz")},
                                 Variant{QStringLiteral("zstd"), QStringLiteral(".zst"), QStringLiteral("zstd")}}) {
            const QString file = test::writeFile(dir_, QStringLiteral("tree.tar") + v.suffix, tool(v.program, {QStringLiteral("-c"), tar}));
            auto ls = test::runCli({QStringLiteral("ls"), file});
            QCOMPARE(ls.exitCode, 0);
            QStringList got = QString::fromUtf8(ls.out).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
            QStringList want = QString::fromUtf8(expected).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
            for (QString &w : want)
                if (w.endsWith(QLatin1Char('/')))
                    w.chop(1);
            for (QString &g : got) { // "-rw-r--r-- root/root 1 2026-12-01 17:54 tree/d0/f0.txt": the path is last
                g = g.simplified().section(QLatin1Char(' '), -1);
                if (g.endsWith(QLatin1Char('/')))
                    g.chop(1);
            }
            got.sort();
            want.sort();
            QCOMPARE(got, want);
            auto info = test::runCli({QStringLiteral("info"), QStringLiteral("--json"), file});
            QVERIFY2(info.out.contains("\"filters\":[\"" + v.filter.toUtf8() + "\"]"), info.out.constData());
            auto cat = test::runCli({QStringLiteral("cat"), file + QStringLiteral("!/tree/big.bin")});
            QCOMPARE(cat.exitCode, 0);
            QCOMPARE(cat.out, test::seededBytes(6 << 20, 3));
        }
    }
};

QTEST_GUILESS_MAIN(TestStreamFilters)
#include "tst_stream_filters.moc"
