// SPDX-License-Identifier: MIT
#include "trace.h"

#include <QHash>
#include <chrono>
#include <mutex>
#include <set>

namespace asc {

std::atomic<bool> IoTrace::enabled_{false};

namespace {

struct State {
    std::mutex mutex;
    std::vector<TraceRecord> records;
    QStringList files;
    QHash<QString, int> fileIndex;
    std::chrono::steady_clock::time_point start;
    std::atomic<int> threads{0};
};

State &state()
{
    static State s;
    return s;
}

// The file's number in the trace (called with the mutex held).
int fileNumber(State &s, const QString &file)
{
    auto it = s.fileIndex.constFind(file);
    if (it == s.fileIndex.constEnd()) {
        it = s.fileIndex.insert(file, int(s.files.size()));
        s.files << file;
    }
    return *it;
}

thread_local const char *currentLayer = nullptr;
thread_local int threadNumber = -1;

} // namespace

void IoTrace::start()
{
    State &s = state();
    std::lock_guard lock(s.mutex);
    s.records.clear();
    s.files.clear();
    s.fileIndex.clear();
    s.start = std::chrono::steady_clock::now();
    enabled_.store(true);
}

std::vector<TraceRecord> IoTrace::stop()
{
    State &s = state();
    enabled_.store(false);
    std::lock_guard lock(s.mutex);
    return std::move(s.records);
}

QStringList IoTrace::files()
{
    State &s = state();
    std::lock_guard lock(s.mutex);
    return s.files;
}

void IoTrace::record(const QString &file, uint64_t offset, uint64_t length)
{
    State &s = state();
    if (threadNumber < 0)
        threadNumber = s.threads.fetch_add(1);
    const auto now = std::chrono::steady_clock::now();
    std::lock_guard lock(s.mutex);
    s.records.push_back({fileNumber(s, file), offset, length, std::chrono::duration_cast<std::chrono::nanoseconds>(now - s.start).count(), threadNumber,
                         currentLayer ? currentLayer : "read"});
}

int64_t IoTrace::elapsedNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - state().start).count();
}

void IoTrace::recordFrom(const QString &file, uint64_t offset, uint64_t length, int64_t tNs, int thread, const QByteArray &layer)
{
    State &s = state();
    std::lock_guard lock(s.mutex);
    // Layer names live as long as the process (records point at them): each kept once.
    static std::set<QByteArray> layers;
    const char *name = layers.insert(layer).first->constData();
    s.records.push_back({fileNumber(s, file), offset, length, tNs, thread, name});
}

TraceLayer::TraceLayer(const char *name)
    : outer_(currentLayer)
{
    currentLayer = name;
}

TraceLayer::~TraceLayer()
{
    currentLayer = outer_;
}

} // namespace asc
