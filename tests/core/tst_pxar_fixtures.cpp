// SPDX-License-Identifier: MIT
// The reference pxar archives (tests/data/pxar): through the sequential decoder (sync and async,
// several buffer capacities) and the accessor (sync and async), the listing, offsets and content
// hashes equal the truth files exactly; every path is found by lookup, incl. the two names with
// the same goodbye hash; the writer reproduces tiny.pxar byte for byte.

#include "fixtures.h"
#include "formats/pxar/pxar_accessor.h"
#include "formats/pxar/pxar_container.h"
#include "formats/pxar/pxar_decoder.h"
#include "formats/pxar/pxar_format.h"
#include "formats/pxar/pxar_writer.h"
#include "io/file_source.h"
#include "pxar_truth.h"
#include "test_files.h"

#include <QCryptographicHash>
#include <QFile>
#include <QTest>

using namespace asc;
using namespace asc::pxar;

namespace {

struct Fixture {
    const char *archive;
    const char *payload;
    const char *truth;
};
const Fixture kFixtures[] = {
    {"tiny.pxar", nullptr, "tiny"},
    {"basic.pxar", nullptr, "basic"},
    {"special.pxar", nullptr, "special"},
    {"manyentries.pxar", nullptr, "manyentries"},
    {"basic.mpxar", "basic.ppxar", "basic-split"},
};

QString data(const char *name)
{
    return test::dataPath(QStringLiteral("pxar/") + QLatin1String(name));
}
SourcePtr open(const char *name)
{
    return name ? SourcePtr(FileSource::open(data(name)).value()) : SourcePtr();
}

std::unique_ptr<SequentialInput> input(SourcePtr source, bool async, size_t capacity)
{
    if (!source)
        return nullptr;
    if (async)
        return ReadAheadInput::create(source, capacity, 4).value();
    return std::make_unique<SyncInput>(source, capacity);
}

QByteArray sha(const QByteArray &bytes)
{
    return QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex();
}

} // namespace

class TestPxarFixtures : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void hashAndConstants()
    {
        QCOMPARE(nameHash(""), 0x76614015f8d1bb6cULL);
        QCOMPARE(nameHash("a"), 0x0c26e9067c2c7bcfULL);
        QCOMPARE(nameHash("hello.txt"), 0x9b1ee0b84c66190cULL);
        QCOMPARE(nameHash("0123456789abcdef"), 0xf5b4df2499dd8ecbULL);
        QCOMPARE(nameHash(QByteArray("日本語.txt")), 0xa911e3545695b8c6ULL);
        QCOMPARE(nameHash("__PROXMOX_FORMAT_ENTRY_V2__"), kEntry);
        QCOMPARE(nameHash("__PROXMOX_FORMAT_PXAR_GOODBYE_TAIL_MARKER__"), kGoodbyeTailMarker);
        QCOMPARE(nameHash("coll-85c9cbb5a3774ad5"), nameHash("coll-41f075a224263763"));
    }

    void decoder_data()
    {
        QTest::addColumn<int>("fixture");
        QTest::addColumn<bool>("async");
        QTest::addColumn<int>("capacity");
        for (int i = 0; i < int(std::size(kFixtures)); ++i)
            for (bool async : {false, true})
                for (int capacity : {0, 7, 4096, 65536, 1 << 20}) // polled, inline and offloaded reads
                    QTest::addRow("%s %s %d", kFixtures[i].truth, async ? "async" : "sync", capacity) << i << async << capacity;
    }

    void decoder()
    {
        QFETCH(int, fixture);
        QFETCH(bool, async);
        QFETCH(int, capacity);
        const Fixture &fx = kFixtures[fixture];
        Decoder decoder(input(open(fx.archive), async, size_t(capacity)), input(open(fx.payload), async, size_t(capacity)));
        QList<QByteArray> listing;
        QList<QByteArray> hashes;
        for (;;) {
            auto next = decoder.next();
            QVERIFY2(next.ok(), qPrintable(next.ok() ? QString() : next.error().toString()));
            if (!*next)
                break;
            listing << test::listLine(**next);
            if ((*next)->kind == Kind::File) {
                QByteArray content;
                char buf[10000];
                for (;;) {
                    auto got = decoder.readContent(buf);
                    QVERIFY(got.ok());
                    if (*got == 0)
                        break;
                    content.append(buf, qsizetype(*got));
                }
                QCOMPARE(quint64(content.size()), (*next)->size);
                hashes << sha(content) + "  " + test::truthEscape((*next)->path);
            }
        }
        QList<QByteArray> comments;
        const auto expected = test::truthLines(data(fx.truth) + QStringLiteral(".list.txt"), &comments);
        QCOMPARE(listing.size(), expected.size());
        for (qsizetype i = 0; i < listing.size(); ++i)
            QCOMPARE(listing[i], expected[i]);
        QCOMPARE(hashes, test::truthLines(data(fx.truth) + QStringLiteral(".sha256.txt")));
        if (fx.payload) {
            QVERIFY(comments.contains("# format-version: Version2"));
            QCOMPARE(decoder.formatVersion(), quint64(2));
            QVERIFY(comments.contains("# prelude: " + QByteArray::number(decoder.prelude().size()) + " bytes sha256=" + sha(decoder.prelude())));
        }
    }

    void accessor_data()
    {
        QTest::addColumn<int>("fixture");
        for (int i = 0; i < int(std::size(kFixtures)); ++i)
            QTest::newRow(kFixtures[i].truth) << i;
    }

    void accessor()
    {
        QFETCH(int, fixture);
        const Fixture &fx = kFixtures[fixture];
        auto a = Accessor::open(open(fx.archive), open(fx.payload));
        QVERIFY2(a.ok(), qPrintable(a.ok() ? QString() : a.error().toString()));
        QList<QByteArray> offsets;
        QMap<QByteArray, QByteArray> hashes;
        std::function<void(const PxarEntry &)> walk = [&](const PxarEntry &dir) {
            offsets << test::offsetsLine(dir);
            auto children = (*a)->list(dir);
            QVERIFY2(children.ok(), qPrintable(children.ok() ? QString() : children.error().toString()));
            for (const PxarEntry &c : *children) {
                if (c.kind == Kind::Directory) {
                    walk(c);
                    continue;
                }
                offsets << test::offsetsLine(c);
                if (c.kind == Kind::File) {
                    auto content = (*a)->content(c);
                    QVERIFY(content.ok());
                    QByteArray bytes(qsizetype((*content)->size()), Qt::Uninitialized);
                    QVERIFY((*content)->readExact(0, std::span(bytes.data(), size_t(bytes.size()))).ok());
                    hashes.insert(test::truthEscape(c.path), sha(bytes));
                }
            }
        };
        walk((*a)->root());
        QCOMPARE(offsets, test::truthLines(data(fx.truth) + QStringLiteral(".offsets.txt")));
        for (const QByteArray &line : test::truthLines(data(fx.truth) + QStringLiteral(".sha256.txt")))
            QCOMPARE(hashes.value(line.mid(66)), line.left(64));

        // Every path of the listing (real bytes, from the decoder) is found by lookup, with the same
        // metadata; hardlinks resolve to regular files.
        Decoder decoder(input(open(fx.archive), false, 65536), input(open(fx.payload), false, 65536));
        for (;;) {
            auto next = decoder.next();
            QVERIFY(next.ok());
            if (!*next)
                break;
            auto found = (*a)->lookup((*next)->path);
            QVERIFY2(found.ok() && *found, (*next)->path.constData());
            QCOMPARE(test::listLine(**found), test::listLine(**next));
            if ((*found)->kind == Kind::Hardlink) {
                auto target = (*a)->resolveHardlink(**found);
                QVERIFY(target.ok());
                QCOMPARE(target->kind, Kind::File);
            }
        }
        auto missing = (*a)->lookup("/no/such/name");
        QVERIFY(missing.ok() && !*missing);
    }

    void collidingNamesAndBigDirectory()
    {
        auto a = Accessor::open(open("manyentries.pxar"), nullptr);
        QVERIFY(a.ok());
        for (const char *name : {"/collide/coll-85c9cbb5a3774ad5", "/collide/coll-41f075a224263763"}) {
            auto found = (*a)->lookup(name);
            QVERIFY2(found.ok() && *found && (*found)->path == name, name);
        }
        auto big = (*a)->lookup("/big");
        QVERIFY(big.ok() && *big);
        auto children = (*a)->list(**big);
        QVERIFY(children.ok());
        QCOMPARE(int(children->size()), 2000);
        for (const PxarEntry &c : *children) {
            auto found = (*a)->lookup(c.path);
            QVERIFY(found.ok() && *found && (*found)->entryStart == c.entryStart);
        }
        QVERIFY((*a)->lookup("/collide/coll-00000000").ok());
        QVERIFY(!*(*a)->lookup("/collide/coll-00000000"));
    }

    void splitWithoutPayloadIsRefused()
    {
        auto a = Accessor::open(open("basic.mpxar"), nullptr);
        QVERIFY(!a.ok());
        QVERIFY(a.error().toString().contains(QStringLiteral("payload file missing")));
    }

    void writerReproducesTiny()
    {
        WriterNode root;
        root.meta.kind = Kind::Directory;
        root.meta.mode = 040755;
        root.meta.mtimeSecs = 1700000000;
        WriterNode hi;
        hi.name = "hi.txt";
        hi.meta.kind = Kind::File;
        hi.meta.mode = 0100644;
        hi.meta.mtimeSecs = 1700000001;
        hi.meta.mtimeNanos = 500000000;
        hi.contentBytes = "hello\n";
        WriterNode ln;
        ln.name = "ln";
        ln.meta.kind = Kind::Symlink;
        ln.meta.mode = 0120777;
        ln.meta.mtimeSecs = 1700000002;
        ln.meta.target = "hi.txt";
        root.children = {ln, hi}; // order given does not matter: children are sorted
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("tiny.pxar"));
        QVERIFY(writeArchive(root, out, {}, {}).ok());
        QCOMPARE(test::sha256File(out), test::sha256File(data("tiny.pxar")));
    }
};

QTEST_GUILESS_MAIN(TestPxarFixtures)
#include "tst_pxar_fixtures.moc"
