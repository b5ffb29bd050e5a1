// SPDX-License-Identifier: MIT
// The one encoding of entries (vfs/entry_codec): every field survives the trip (devices, unknown
// sizes and offsets, times before 1970, repeated and new owner names, paths that share nothing),
// and an encoding cut short, bit-flipped or lying about its count is refused, never half-read.

#include "vfs/entry_codec.h"

#include <QTest>

using namespace asc;

namespace {

std::vector<Entry> variedEntries()
{
    std::vector<Entry> entries;
    for (int i = 0; i < 300; ++i) {
        Entry e;
        e.path = QByteArray("usr/share/doc/pkg") + QByteArray::number(i / 7) + "/file-" + QByteArray::number(i);
        if (i % 50 == 0)
            e.path = "other/" + QByteArray::number(i); // shares nothing with the one before
        e.type = EntryType(i % 9);
        e.size = i % 3 ? uint64_t(i) * 4099 : 0;
        e.compressedSize = i % 4 ? kUnknown : uint64_t(i);
        e.dataOffset = i % 5 ? uint64_t(1000000 - i * 512) : kUnknown; // falling, and unknown
        e.ordinal = uint64_t(i % 10 ? i : i * 3);
        e.mtime = i % 6 ? 1700000000 + i : -86400 * i; // before 1970 too
        e.mtimeNsec = uint32_t(i * 1000003 % 1000000000);
        e.mode = uint32_t(0100000 | (i % 07777));
        e.uid = uint32_t(i % 3 ? 0 : 100000 + i);
        e.gid = uint32_t(i % 2);
        e.rdevMajor = uint32_t(i % 7);
        e.rdevMinor = uint32_t(i % 13);
        e.uname = i % 3 ? QByteArray("root") : "user" + QByteArray::number(i % 11);
        e.gname = i % 2 ? QByteArray("wheel") : QByteArray();
        e.target = e.type == EntryType::Symlink ? "../target/" + QByteArray::number(i) : QByteArray();
        e.detail = i % 17 ? QByteArray() : QByteArray("Linux filesystem");
        e.problem = i % 19 ? QByteArray() : QByteArray("damaged header");
        e.encrypted = i % 23 == 0;
        e.hasMtime = i % 5 != 0;
        e.unsafePath = i % 29 == 0;
        e.opaque = i % 31 == 0;
        entries.push_back(e);
    }
    return entries;
}

QByteArray encode(const std::vector<Entry> &entries)
{
    QByteArray bytes;
    QDataStream out(&bytes, QIODevice::WriteOnly);
    out << entries;
    return bytes;
}

bool decodes(const QByteArray &bytes, std::vector<Entry> &entries)
{
    QDataStream in(bytes);
    in >> entries;
    return in.status() == QDataStream::Ok;
}

} // namespace

class TestEntryCodec : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void everyFieldSurvives()
    {
        const std::vector<Entry> sent = variedEntries();
        std::vector<Entry> got;
        QVERIFY(decodes(encode(sent), got));
        QCOMPARE(got.size(), sent.size());
        for (size_t i = 0; i < sent.size(); ++i) {
            const Entry &a = sent[i], &b = got[i];
            QCOMPARE(b.path, a.path);
            QCOMPARE(b.target, a.target);
            QCOMPARE(b.uname, a.uname);
            QCOMPARE(b.gname, a.gname);
            QCOMPARE(b.detail, a.detail);
            QCOMPARE(b.problem, a.problem);
            QCOMPARE(b.size, a.size);
            QCOMPARE(b.compressedSize, a.compressedSize);
            QCOMPARE(b.dataOffset, a.dataOffset);
            QCOMPARE(b.ordinal, a.ordinal);
            QCOMPARE(b.mtime, a.mtime);
            QCOMPARE(b.mtimeNsec, a.mtimeNsec);
            QCOMPARE(b.mode, a.mode);
            QCOMPARE(b.uid, a.uid);
            QCOMPARE(b.gid, a.gid);
            QCOMPARE(b.type, a.type);
            const bool device = a.type == EntryType::CharDev || a.type == EntryType::BlockDev;
            QCOMPARE(b.rdevMajor, device ? a.rdevMajor : 0u); // only devices carry one
            QCOMPARE(b.rdevMinor, device ? a.rdevMinor : 0u);
            QCOMPARE(b.encrypted, a.encrypted);
            QCOMPARE(b.hasMtime, a.hasMtime);
            QCOMPARE(b.unsafePath, a.unsafePath);
            QCOMPARE(b.opaque, a.opaque);
        }
    }

    void emptyListing()
    {
        std::vector<Entry> got = variedEntries();
        QVERIFY(decodes(encode({}), got));
        QVERIFY(got.empty());
    }

    void damageIsRefused()
    {
        const QByteArray whole = encode(variedEntries());
        std::vector<Entry> got;
        for (qsizetype cut = 0; cut < whole.size(); cut += 7) {
            QVERIFY2(!decodes(whole.left(cut), got), qPrintable(QStringLiteral("cut at %1").arg(cut)));
            QVERIFY(got.empty());
        }
        // One more byte after the last column is as wrong as one missing.
        QByteArray longer = whole;
        longer[4 + 3] = char(longer[4 + 3] + 1); // the packed bytes' length, low byte: one more
        QVERIFY(!decodes(longer + 'x', got));
    }

    void aCountBeyondTheBytesIsRefused()
    {
        QByteArray bytes = encode(variedEntries());
        QDataStream patch(&bytes, QIODevice::WriteOnly);
        patch << quint32(4000000000u); // the count, first in the encoding
        std::vector<Entry> got;
        QVERIFY(!decodes(bytes, got));
        QVERIFY(got.empty());
        QVERIFY(got.capacity() < 1000); // refused before reserving for the count
    }
};

QTEST_GUILESS_MAIN(TestEntryCodec)
#include "tst_entry_codec.moc"
