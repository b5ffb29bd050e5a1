// SPDX-License-Identifier: MIT
#include "bench_request.h"

#include "bench_codec.h"

#include <atomic>
#include <chrono>
#include <thread>

namespace asc {

using wire::Kind;
using wire::Message;
using wire::Received;

namespace {

void writeConfig(Message &m, const BenchConfig &config)
{
    m << config.spec << config.strategies << quint32(config.buffers.size());
    for (uint64_t buffer : config.buffers)
        m << quint64(buffer);
    m << qint32(config.runs) << qint32(config.warmup) << bool(config.cache == CacheMode::Cold) << qint32(config.passes) << config.outputDir;
}

// Bounded as the CLI bounds them: a hostile client is not expected, a broken one is caught.
std::optional<BenchConfig> readConfig(Received &r)
{
    BenchConfig config;
    quint32 count = 0;
    r >> config.spec >> config.strategies >> count;
    if (!r.ok() || count > 64)
        return std::nullopt;
    for (quint32 i = 0; i < count; ++i) {
        quint64 buffer = 0;
        r >> buffer;
        config.buffers.push_back(buffer);
    }
    qint32 runs = 0, warmup = 0, passes = 0;
    bool cold = false;
    r >> runs >> warmup >> cold >> passes >> config.outputDir;
    if (!r.ok() || runs < 1 || runs > 10000 || warmup < 0 || warmup > 10000 || passes < 1 || passes > 100)
        return std::nullopt;
    config.runs = runs;
    config.warmup = warmup;
    config.passes = passes;
    config.cache = cold ? CacheMode::Cold : CacheMode::Warm;
    return config;
}

QByteArray done(const Result<BenchResult> &result)
{
    Message m(Kind::Done);
    m << !result;
    if (result)
        m << *result;
    else
        m << result.error();
    return m.bytes();
}

} // namespace

void reserveBenchRings(LockdownLimits &limits)
{
    limits.plainRings = 3;
    limits.polledRings = 3;
}

WorkerAct benchAct()
{
    return [](Received &request, const WorkerActContext &context) -> QByteArray {
        auto config = readConfig(request);
        if (!config)
            return done(Error::make(ErrorKind::Usage, QStringLiteral("worker"), QStringLiteral("a bench request out of bounds")));
        auto target = openReadTarget(config->spec);
        if (!target)
            return done(target.error());
        // The strategies check a flag per buffer; the client's stop arrives on the socket.
        CancelFlag cancel;
        std::atomic<bool> finished{false};
        std::thread watch([&] {
            while (!finished.load()) {
                if (context.stopped())
                    cancel.cancel();
                std::this_thread::sleep_for(std::chrono::milliseconds(20));
            }
        });
        BenchCallbacks callbacks;
        callbacks.point = [&](const BenchPoint &point) { context.send((Message(Kind::BenchPoint) << point).bytes()); };
        callbacks.progress = [&](int doneRuns, int total, const QString &what) {
            context.send((Message(Kind::BenchProgress) << qint32(doneRuns) << qint32(total) << what).bytes());
        };
        auto result = runBench(*config, *target, cancel, callbacks);
        finished = true;
        watch.join();
        return done(result);
    };
}

Result<BenchResult> runBenchInWorker(WorkerChannel &worker, const BenchConfig &config, const CancelFlag &cancel, const BenchCallbacks &callbacks)
{
    const CancelScope stop(cancel);
    std::optional<Result<BenchResult>> outcome;
    auto talked = worker.converse(
        Kind::Bench, [&](Message &m) { writeConfig(m, config); },
        [&]() -> Result<void> {
            for (;;) {
                auto message = worker.next();
                if (!message)
                    return std::move(message).error();
                switch (message->kind()) {
                case Kind::BenchPoint: {
                    BenchPoint point;
                    *message >> point;
                    if (!message->ok())
                        return worker.broken(QStringLiteral("a bench point"));
                    if (callbacks.point)
                        callbacks.point(point);
                    continue;
                }
                case Kind::BenchProgress: {
                    qint32 done = 0, total = 0;
                    QString what;
                    *message >> done >> total >> what;
                    if (!message->ok())
                        return worker.broken(QStringLiteral("bench progress"));
                    if (callbacks.progress)
                        callbacks.progress(done, total, what);
                    continue;
                }
                case Kind::Done: {
                    bool failed = true;
                    *message >> failed;
                    if (failed) {
                        Error error;
                        *message >> error;
                        if (!message->ok())
                            return worker.broken(QStringLiteral("a bench's end"));
                        outcome = error;
                        return {};
                    }
                    BenchResult result;
                    *message >> result;
                    if (!message->ok())
                        return worker.broken(QStringLiteral("a bench result"));
                    result.config.outputDir = config.outputDir;
                    outcome = std::move(result);
                    return {};
                }
                default:
                    return worker.broken(QStringLiteral("an answer to a bench"));
                }
            }
        });
    if (!talked)
        return std::move(talked).error();
    return std::move(*outcome);
}

} // namespace asc
