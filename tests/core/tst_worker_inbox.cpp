// SPDX-License-Identifier: MIT
// The worker's one reader of its socket (remote/worker_inbox): requests, stops and answers
// are told apart as they arrive. Before it, four places read the socket and the stop was "any
// byte while a request runs": an answer to a file request could be taken for a stop, and the
// worker's questions had to be kept from overlapping by hand. Here the test is the client, on the
// other end of a socketpair. Run under ThreadSanitizer too (label tsan).

#include "remote/wire.h"
#include "remote/worker_inbox.h"

#include <QTest>
#include <fcntl.h>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

using namespace asc;
using wire::Kind;
using wire::Message;

class TestWorkerInbox : public QObject {
    Q_OBJECT

    int client_ = -1;
    int worker_ = -1;

    void closeClient()
    {
        if (client_ >= 0)
            ::close(std::exchange(client_, -1));
    }

    // A request numbered `id` by the client, carrying `tag` as its field.
    static QByteArray request(Kind kind, quint32 id, quint32 tag = 0) { return (Message(kind, id) << tag).bytes(); }
    static quint32 tagOf(const QByteArray &frame)
    {
        wire::Received r(frame);
        quint32 tag = 0;
        r >> tag;
        return tag;
    }

private Q_SLOTS:
    void init()
    {
        int pair[2];
        QCOMPARE(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair), 0);
        client_ = pair[0];
        worker_ = pair[1];
    }

    void cleanup()
    {
        ::close(worker_); // the inbox (each test's own) has stopped reading it
        closeClient();
    }

    void requestsComeInOrderAndAStopBelongsToItsRequest()
    {
        WorkerInbox inbox(worker_);
        QVERIFY(wire::sendFrame(client_, request(Kind::List, 1, 11)));
        auto first = inbox.nextRequest(wire::Lane::Stream);
        QVERIFY(first);
        QCOMPARE(tagOf(*first), 11u);
        QVERIFY(!inbox.cancelled(1));
        // A short request beside the listing has its own lane: it is taken while the listing runs.
        QVERIFY(wire::sendFrame(client_, request(Kind::ReadAt, 2, 22)));
        auto beside = inbox.nextRequest(wire::Lane::Single);
        QVERIFY(beside);
        QCOMPARE(tagOf(*beside), 22u);
        // A Cancel stops the request it names, not the other one running.
        QVERIFY(wire::sendFrame(client_, Message(Kind::Cancel, 1).bytes()));
        QTRY_VERIFY(inbox.cancelled(1)); // seen as it arrives: nothing polls the socket
        QVERIFY(!inbox.cancelled(2));
        inbox.finished(1);
        inbox.finished(2);
        QVERIFY(!inbox.cancelled(1)); // answered: forgotten
        // A Cancel that comes after its request was answered stops nothing that follows, and a
        // Release in between is handed over as it is (with the short requests).
        QVERIFY(wire::sendFrame(client_, Message(Kind::Cancel, 2).bytes()));
        QVERIFY(wire::sendFrame(client_, request(Kind::Release, 0, 7)));
        QVERIFY(wire::sendFrame(client_, request(Kind::Find, 3, 33)));
        auto release = inbox.nextRequest(wire::Lane::Single);
        QCOMPARE(wire::Received(*release).kind(), Kind::Release);
        auto third = inbox.nextRequest(wire::Lane::Single);
        QCOMPARE(tagOf(*third), 33u);
        QVERIFY(!inbox.cancelled(2));
        QVERIFY(!inbox.cancelled(3));
        closeClient();
        QVERIFY(!inbox.nextRequest(wire::Lane::Stream)); // the client is gone
        QVERIFY(!inbox.nextRequest(wire::Lane::Single));
        QVERIFY(inbox.cancelled(3)); // and whatever runs may stop
    }

    void answersAreNotStopsNorRequests()
    {
        WorkerInbox inbox(worker_);
        QVERIFY(wire::sendFrame(client_, request(Kind::List, 1)));
        QVERIFY(inbox.nextRequest(wire::Lane::Stream));
        // The client answers a question while the request runs: the answer goes to the asker,
        // and the request is not taken as stopped (the old poll saw a byte and stopped it).
        std::thread client([this] {
            auto question = wire::receiveFrame(client_);
            if (!question)
                return; // the ask below then waits in vain: the test times out, failing
            const int file = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
            wire::sendFrame(client_, (Message(Kind::FileAnswer) << qint32(0)).bytes(), file);
            ::close(file);
        });
        int passed = -1;
        const QByteArray answer = inbox.ask((Message(Kind::OpenFile) << QByteArray("/x")).bytes(), Kind::FileAnswer, &passed);
        client.join();
        QCOMPARE(wire::Received(answer).kind(), Kind::FileAnswer);
        QVERIFY(passed >= 0); // the descriptor came with its answer
        ::close(passed);
        QVERIFY(!inbox.cancelled(1));
    }

    void questionsFromManyThreadsEachGetTheirAnswer()
    {
        WorkerInbox inbox(worker_);
        // The client answers each question with its own tag, in the order asked.
        std::thread client([this] {
            for (int i = 0; i < 40; ++i) {
                auto question = wire::receiveFrame(client_);
                if (!question)
                    return;
                wire::Received q(*question);
                QByteArray path;
                q >> path;
                wire::sendFrame(client_, (Message(q.kind() == Kind::AskBacking ? Kind::BackingAnswer : Kind::ExportAnswer) << path).bytes());
            }
        });
        std::atomic<int> right{0};
        std::vector<std::thread> askers;
        for (int t = 0; t < 4; ++t) {
            askers.emplace_back([&, t] {
                for (int i = 0; i < 10; ++i) {
                    const QByteArray mine = QByteArray::number(t * 100 + i);
                    const Kind kind = (t + i) % 2 ? Kind::AskBacking : Kind::WriteExport;
                    int passed = -1;
                    const QByteArray answer = inbox.ask((Message(kind) << mine).bytes(), kind == Kind::AskBacking ? Kind::BackingAnswer : Kind::ExportAnswer, &passed);
                    wire::Received a(answer);
                    QByteArray got;
                    a >> got;
                    if (got == mine && passed == -1)
                        ++right;
                }
            });
        }
        for (auto &a : askers)
            a.join();
        client.join();
        QCOMPARE(right.load(), 40);
    }
};

QTEST_GUILESS_MAIN(TestWorkerInbox)
#include "tst_worker_inbox.moc"
