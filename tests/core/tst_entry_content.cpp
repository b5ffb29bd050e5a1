// SPDX-License-Identifier: MIT
// An entry's bytes are what its decoder produced. EntryContent is fed scripted blocks, as a
// misbehaving decoder hands them back: empty blocks while it takes input (LHA, RAR5), a warning
// in the middle (a checksum mismatch), a stream that ends short, jumps ahead or runs long, a
// decoder that never moves. Each must come out as the decoder's bytes or as an error, never as
// zeros; only a sparse entry's holes are zeros.

#include "formats/archive/entry_content.h"

#include <QTest>
#include <deque>
#include <variant>

using namespace asc;

namespace {

// One scripted answer of the decoder: a block (data at an offset), an empty block (the decoder
// took `input` more bytes of the archive), the end, or an error.
struct Data {
    QByteArray bytes;
    int64_t offset;
};
struct Empty {
    uint64_t input;
};
struct End {};
struct Fail {
    QString what;
};
using Step = std::variant<Data, Empty, End, Fail>;

class ScriptedBlocks : public EntryContent::Blocks {
public:
    ScriptedBlocks(const EntryContent &content, std::deque<Step> steps)
        : content_(content),
          steps_(std::move(steps))
    {
    }
    Result<EntryContent::Block> nextBlock() override
    {
        ++calls;
        EntryContent::Block block;
        if (steps_.empty()) { // a decoder that has nothing more and never moves
            return block;
        }
        Step step = steps_.front();
        steps_.pop_front();
        if (auto *data = std::get_if<Data>(&step)) {
            held_ = data->bytes;
            block.data = held_.constData();
            block.size = size_t(held_.size());
            block.offset = data->offset;
            input_ += 100;
        } else if (auto *empty = std::get_if<Empty>(&step)) {
            input_ += empty->input;
        } else if (std::holds_alternative<End>(step)) {
            block.end = true;
        } else {
            return contentError(std::get<Fail>(step).what);
        }
        return block;
    }
    uint64_t inputPosition() const override { return input_; }
    Error contentError(const QString &what) const override
    {
        return Error::format(QStringLiteral("a.lzh!/x"), std::nullopt,
                             QStringLiteral("at byte %1 of the entry: %2").arg(content_.position()).arg(what));
    }
    int calls = 0;

private:
    const EntryContent &content_;
    std::deque<Step> steps_;
    QByteArray held_;
    uint64_t input_ = 0;
};

// Everything read() gives, in small reads, until 0 or an error.
Result<QByteArray> readAll(EntryContent &content, ScriptedBlocks &blocks, size_t chunk = 7)
{
    QByteArray out;
    std::vector<char> buffer(chunk);
    for (;;) {
        auto got = content.read(std::span(buffer.data(), buffer.size()), blocks);
        if (!got)
            return std::move(got).error();
        if (*got == 0)
            return out;
        out.append(buffer.data(), qsizetype(*got));
    }
}

} // namespace

class TestEntryContent : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // LHA's decoder hands back empty blocks while it reads input: they are not the end.
    void emptyBlocksWhileDecodingAreNotTheEnd()
    {
        EntryContent content;
        content.start(12, false);
        ScriptedBlocks blocks(content, {Data{"hello ", 0}, Empty{512}, Empty{512}, Data{"world!", 6}, End{}});
        auto all = readAll(content, blocks);
        QVERIFY2(all.ok(), all.ok() ? "" : qPrintable(all.error().toString()));
        QCOMPARE(*all, QByteArray("hello world!"));
    }

    // A warning mid-entry (libarchive's checksum mismatch) is an error naming the entry and
    // where in it; the bytes before it were the decoder's, nothing after it is made up.
    void aWarningMidEntryIsAnError()
    {
        EntryContent content;
        content.start(1000, false);
        ScriptedBlocks blocks(content, {Data{QByteArray(300, 'a'), 0}, Empty{64}, Fail{QStringLiteral("CRC error")}});
        QByteArray out;
        std::vector<char> buffer(4096);
        auto got = content.read(std::span(buffer.data(), buffer.size()), blocks);
        QVERIFY(!got.ok());
        QVERIFY2(got.error().toString().contains(QStringLiteral("a.lzh!/x")), qPrintable(got.error().toString()));
        QVERIFY2(got.error().toString().contains(QStringLiteral("at byte 300")), qPrintable(got.error().toString()));
        QVERIFY(got.error().toString().contains(QStringLiteral("CRC error")));
    }

    // The decoder ends before the recorded size, with no sparse map: an error, not zeros.
    void anEntryEndingShortIsAnError()
    {
        EntryContent content;
        content.start(100, false);
        ScriptedBlocks blocks(content, {Data{QByteArray(40, 'b'), 0}, Empty{10}, End{}});
        auto all = readAll(content, blocks);
        QVERIFY(!all.ok());
        QVERIFY2(all.error().toString().contains(QStringLiteral("ends at byte 40 of the 100")), qPrintable(all.error().toString()));
    }

    // An empty block that is really the end, for an entry of a recorded size: an error too.
    void nothingAtAllIsAnErrorForANonEmptyEntry()
    {
        EntryContent content;
        content.start(5, false);
        ScriptedBlocks blocks(content, {Empty{10}, End{}});
        auto all = readAll(content, blocks);
        QVERIFY(!all.ok());
    }

    void aJumpWithoutHolesIsAnError()
    {
        EntryContent content;
        content.start(30, false);
        ScriptedBlocks blocks(content, {Data{"0123456789", 0}, Data{"abcdefghij", 20}, End{}});
        auto all = readAll(content, blocks);
        QVERIFY(!all.ok());
        QVERIFY(all.error().toString().contains(QStringLiteral("skipped to byte 20")));
    }

    void moreThanTheRecordedSizeIsAnError()
    {
        EntryContent content;
        content.start(8, false);
        ScriptedBlocks blocks(content, {Data{"0123456789", 0}, End{}});
        auto all = readAll(content, blocks);
        QVERIFY(!all.ok());
        QVERIFY(all.error().toString().contains(QStringLiteral("more data than the 8 bytes")));
    }

    // The end is asked for before the last bytes go out: libarchive checks a zip's CRC there.
    void theEndIsConfirmedBeforeTheLastBytes()
    {
        EntryContent content;
        content.start(4, false);
        ScriptedBlocks blocks(content, {Data{"abcd", 0}, Empty{1}, Fail{QStringLiteral("ZIP bad CRC")}});
        std::vector<char> buffer(16);
        auto got = content.read(std::span(buffer.data(), buffer.size()), blocks);
        QVERIFY(!got.ok());
        QVERIFY(got.error().toString().contains(QStringLiteral("ZIP bad CRC")));
    }

    // Only a sparse entry has holes: before a block, between blocks, and up to the size.
    void sparseHolesAreZeros()
    {
        EntryContent content;
        content.start(20, true);
        ScriptedBlocks blocks(content, {Data{"abc", 4}, Data{"xy", 10}, End{}});
        auto all = readAll(content, blocks, 3);
        QVERIFY(all.ok());
        QCOMPARE(*all, QByteArray(4, '\0') + "abc" + QByteArray(3, '\0') + "xy" + QByteArray(8, '\0'));
    }

    // Empty blocks with no input taken: the decoder is stuck. Bounded by calls, not time.
    void aStuckDecoderIsAnErrorAfterBoundedCalls()
    {
        EntryContent content;
        content.start(10, false);
        ScriptedBlocks blocks(content, {Data{"ab", 0}}); // then empty blocks forever, no input
        auto all = readAll(content, blocks);
        QVERIFY(!all.ok());
        QVERIFY(all.error().toString().contains(QStringLiteral("makes no progress")));
        QVERIFY2(blocks.calls < 5000, qPrintable(QString::number(blocks.calls)));
    }

    // Nothing records a size (a raw compressed stream): the content is what the decoder gave.
    void unknownSizeEndsWithTheData()
    {
        EntryContent content;
        content.start(kUnknown, false);
        ScriptedBlocks blocks(content, {Data{"abc", 0}, Empty{5}, Data{"def", 3}, End{}});
        auto all = readAll(content, blocks, 2);
        QVERIFY(all.ok());
        QCOMPARE(*all, QByteArray("abcdef"));
    }

    void anEmptyEntryReadsNothing()
    {
        EntryContent content;
        content.startEmpty();
        ScriptedBlocks blocks(content, {Data{"never", 0}});
        auto all = readAll(content, blocks);
        QVERIFY(all.ok());
        QVERIFY(all->isEmpty());
        QCOMPARE(blocks.calls, 0);
    }
};

QTEST_GUILESS_MAIN(TestEntryContent)
#include "tst_entry_content.moc"
