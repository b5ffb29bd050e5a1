// SPDX-License-Identifier: MIT
#include "write_bench.h"

#include <optional>

#include "bench/machine_info.h"
#include "sandbox/proc_io.h"
#include "bench/statistics.h"
#include "io/units.h"
#include "io/version.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QRandomGenerator>
#include <chrono>
#include <csignal>
#include <optional>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

namespace asc {

namespace {

const char *kPrivatePrefix = ".archivescope-writebench-";

// The sectors-written counter of the block device holding `dir` (field 7 of its stat file).
struct BlockCounter {
    QString statPath;
    std::optional<uint64_t> read() const
    {
        QFile f(statPath);
        if (statPath.isEmpty() || !f.open(QIODevice::ReadOnly))
            return std::nullopt;
        const QList<QByteArray> fields = f.readAll().simplified().split(' ');
        if (fields.size() < 7)
            return std::nullopt;
        return fields[6].toULongLong() * 512;
    }
};

BlockCounter blockCounterFor(const QString &dir)
{
    struct stat st {};
    if (::stat(dir.toLocal8Bit().constData(), &st) != 0 || major(st.st_dev) == 0)
        return {};
    const QString path = QStringLiteral("/sys/dev/block/%1:%2/stat").arg(major(st.st_dev)).arg(minor(st.st_dev));
    return QFile::exists(path) ? BlockCounter{path} : BlockCounter{};
}

// Removes private folders left by runs that were killed (their process is gone).
void removeStaleFolders(const QString &dir)
{
    for (const QString &name : QDir(dir).entryList({QString::fromLatin1(kPrivatePrefix) + QStringLiteral("*")}, QDir::Dirs | QDir::Hidden)) {
        const pid_t pid = pid_t(name.mid(int(strlen(kPrivatePrefix))).section(QLatin1Char('-'), 0, 0).toInt());
        if (pid > 0 && ::kill(pid, 0) != 0 && errno == ESRCH)
            QDir(dir + QLatin1Char('/') + name).removeRecursively();
    }
}

class PrivateFolder {
public:
    explicit PrivateFolder(const QString &parent)
        : path_(parent + QLatin1Char('/') + QString::fromLatin1(kPrivatePrefix) + QString::number(::getpid()) + QLatin1Char('-') +
                QString::number(QRandomGenerator::global()->generate(), 36))
    {
    }
    ~PrivateFolder()
    {
        if (fd_ >= 0)
            ::close(fd_);
        QDir(path_).removeRecursively();
    }
    Result<int> create()
    {
        if (::mkdir(path_.toLocal8Bit().constData(), 0700) != 0)
            return Error::system(path_, QStringLiteral("create folder"), errno);
        fd_ = ::open(path_.toLocal8Bit().constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (fd_ < 0)
            return Error::system(path_, QStringLiteral("open folder"), errno);
        return fd_;
    }
    const QString &path() const { return path_; }

private:
    QString path_;
    int fd_ = -1;
};

template <class T>
T medianOf(std::vector<T> values)
{
    if (values.empty())
        return T{};
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

} // namespace

Result<WriteBenchResult> runWriteBench(const WriteBenchConfig &config, const CancelFlag &cancel,
                                       const std::function<void(const WritePoint &)> &pointDone)
{
    const QFileInfo info(config.directory);
    if (!info.exists())
        return Error::make(ErrorKind::NotFound, config.directory, QStringLiteral("no such directory"));
    if (!info.isDir())
        return Error::make(ErrorKind::Usage, config.directory, QStringLiteral("not a directory"));
    if (::access(config.directory.toLocal8Bit().constData(), W_OK) != 0)
        return Error::system(config.directory, QStringLiteral("write into the directory"), errno);
    std::vector<WriteStrategyPtr> strategies;
    for (const QString &name : config.strategies.isEmpty() ? QStringList() : config.strategies) {
        auto s = findWriteStrategy(name);
        if (!s)
            return Error::make(ErrorKind::Usage, config.directory, QStringLiteral("unknown write strategy '%1'").arg(name));
        strategies.push_back(s);
    }
    if (strategies.empty())
        strategies = writeStrategies();

    WriteBenchResult result;
    result.config = config;
    result.machine = machineInfo(config.directory);
    result.filesystem = filesystemOf(config.directory);
    if (result.filesystem == QLatin1String("tmpfs") || result.filesystem == QLatin1String("ramfs"))
        result.warnings << QStringLiteral("%1 is on %2: nothing reaches a device, so there are no device writes to count").arg(config.directory, result.filesystem);
    const BlockCounter block = blockCounterFor(config.directory);
    const bool haveProc = readProcIo().has_value();
    result.deviceBytesSource = block.read() ? QStringLiteral("block-stat") : haveProc ? QStringLiteral("proc-io")
                                                                                      : QStringLiteral("none");
    if (result.deviceBytesSource == QLatin1String("block-stat"))
        result.warnings << QStringLiteral("device bytes are the whole device's sectors-written counter (%1): other writers on it add noise; runs are repeated and medians taken").arg(block.statPath);

    removeStaleFolders(config.directory);
    PrivateFolder folder(config.directory);
    auto dirfd = folder.create();
    if (!dirfd)
        return std::move(dirfd).error();
    const uint64_t largest = config.fileSizes.empty() ? 0 : *std::max_element(config.fileSizes.begin(), config.fileSizes.end());
    // Deterministic bytes (seed kWriteBenchSeed), so a test can tell a complete file from a torn one.
    QByteArray payload(qsizetype(largest), Qt::Uninitialized);
    QRandomGenerator rng(kWriteBenchSeed);
    for (qsizetype i = 0; i < payload.size(); ++i)
        payload[i] = char(rng.generate());

    for (uint64_t fileSize : config.fileSizes) {
        for (const WriteStrategyPtr &strategy : strategies) {
            WritePoint point;
            point.strategy = strategy->name();
            point.fileSize = fileSize;
            point.buffer = config.buffer;
            for (int run = 0; run < std::max(1, config.runs); ++run) {
                if (cancel.isCancelled())
                    return Error::cancelled();
                WriteJob job;
                job.dirfd = *dirfd;
                job.dirName = folder.path();
                job.fileName = "file-" + QByteArray::number(qulonglong(fileSize));
                job.payload = payload.constData();
                job.size = size_t(fileSize);
                job.buffer = size_t(std::max<uint64_t>(1, config.buffer));
                job.atomic = config.atomic;
                job.fsync = config.fsync;
                ::sync(); // start each run from a quiet device
                const auto procBefore = readProcIo();
                const auto blockBefore = block.read();
                const auto start = std::chrono::steady_clock::now();
                auto outcome = strategy->write(job, cancel);
                const auto end = std::chrono::steady_clock::now();
                const auto blockAfter = block.read();
                const auto procAfter = readProcIo();
                if (!outcome)
                    return std::move(outcome).error();
                WriteRun r;
                r.seconds = std::chrono::duration<double>(end - start).count();
                r.writeCalls = outcome->writeCalls;
                r.bytesToWriteCalls = outcome->bytesToWriteCalls;
                if (procBefore && procAfter)
                    r.procWriteBytes = int64_t(procAfter->writeBytes - procBefore->writeBytes);
                if (blockBefore && blockAfter)
                    r.deviceBytes = int64_t(*blockAfter - *blockBefore);
                else
                    r.deviceBytes = r.procWriteBytes;
                point.note = outcome->note;
                point.runs.push_back(r);
            }
            std::vector<uint64_t> calls, bytes;
            std::vector<int64_t> device;
            double seconds = 0;
            for (const WriteRun &r : point.runs) {
                calls.push_back(r.writeCalls);
                bytes.push_back(r.bytesToWriteCalls);
                device.push_back(r.deviceBytes);
                seconds += r.seconds;
            }
            point.writeCalls = medianOf(calls);
            point.bytesToWriteCalls = medianOf(bytes);
            point.deviceBytes = medianOf(device);
            point.amplification = point.deviceBytes >= 0 && fileSize ? double(point.deviceBytes) / double(fileSize) : 0;
            point.meanSeconds = seconds / double(point.runs.size());
            if (pointDone)
                pointDone(point);
            result.points.push_back(point);
        }
    }
    return result;
}

QJsonObject toJson(const WriteBenchResult &result)
{
    QJsonObject o;
    o[QStringLiteral("tool")] = QStringLiteral("archivescope-cli");
    o[QStringLiteral("version")] = programVersion();
    o[QStringLiteral("machine")] = result.machine;
    o[QStringLiteral("directory")] = result.config.directory;
    o[QStringLiteral("filesystem")] = result.filesystem;
    o[QStringLiteral("atomic")] = result.config.atomic;
    o[QStringLiteral("fsync")] = result.config.fsync;
    o[QStringLiteral("warnings")] = QJsonArray::fromStringList(result.warnings);
    QJsonArray points;
    for (const WritePoint &p : result.points) {
        QJsonObject j;
        j[QStringLiteral("strategy")] = p.strategy;
        j[QStringLiteral("file_size")] = double(p.fileSize);
        j[QStringLiteral("buffer")] = double(p.buffer);
        QJsonArray runs;
        for (const WriteRun &r : p.runs)
            runs.append(QJsonObject{{QStringLiteral("seconds"), r.seconds}, {QStringLiteral("write_calls"), double(r.writeCalls)}, {QStringLiteral("bytes_to_write_calls"), double(r.bytesToWriteCalls)}, {QStringLiteral("device_bytes"), r.deviceBytes < 0 ? QJsonValue() : QJsonValue(double(r.deviceBytes))}, {QStringLiteral("proc_write_bytes"), r.procWriteBytes < 0 ? QJsonValue() : QJsonValue(double(r.procWriteBytes))}});
        j[QStringLiteral("runs")] = runs;
        j[QStringLiteral("write_calls")] = double(p.writeCalls);
        j[QStringLiteral("bytes_to_write_calls")] = double(p.bytesToWriteCalls);
        j[QStringLiteral("device_bytes")] = p.deviceBytes < 0 ? QJsonValue() : QJsonValue(double(p.deviceBytes));
        j[QStringLiteral("device_bytes_source")] = result.deviceBytesSource;
        j[QStringLiteral("amplification")] = p.amplification;
        j[QStringLiteral("mean_seconds")] = p.meanSeconds;
        if (!p.note.isEmpty())
            j[QStringLiteral("note")] = p.note;
        points.append(j);
    }
    o[QStringLiteral("points")] = points;
    return o;
}

static bool usesBuffer(const QString &strategy)
{
    const WriteStrategyPtr found = findWriteStrategy(strategy);
    return found && found->usesBuffer();
}

Result<WriteBenchResult> runWriteBenchSweep(const WriteBenchConfig &config, const std::vector<uint64_t> &buffers,
                                            const CancelFlag &cancel, const std::function<void(const WritePoint &)> &pointDone)
{
    std::optional<WriteBenchResult> all;
    for (size_t i = 0; i < std::max<size_t>(1, buffers.size()); ++i) {
        WriteBenchConfig run = config;
        if (!buffers.empty())
            run.buffer = buffers[i];
        if (i > 0) {
            if (run.strategies.isEmpty())
                for (const auto &strategy : writeStrategies())
                    run.strategies << strategy->name();
            run.strategies.removeIf([](const QString &name) { return !usesBuffer(name); });
            if (run.strategies.isEmpty())
                break;
        }
        auto result = runWriteBench(run, cancel, pointDone);
        if (!result)
            return std::move(result).error();
        if (!all)
            all = std::move(result).value();
        else
            all->points.insert(all->points.end(), result->points.begin(), result->points.end());
    }
    return std::move(*all);
}

QStringList writeSeriesNames(const WriteBenchResult &result)
{
    const bool sweep = std::any_of(result.points.begin(), result.points.end(),
                                   [&](const WritePoint &p) { return p.buffer != result.config.buffer; });
    QStringList names;
    for (const WritePoint &p : result.points)
        names << (sweep && usesBuffer(p.strategy) ? QStringLiteral("%1 N=%2").arg(p.strategy, sizeLabel(p.buffer)) : p.strategy);
    return names;
}

QStringList writeTable(const WriteBenchResult &result)
{
    const QStringList names = writeSeriesNames(result);
    QStringList columns;
    std::vector<uint64_t> sizes;
    for (qsizetype i = 0; i < names.size(); ++i) {
        if (!columns.contains(names[i]))
            columns << names[i];
        if (std::find(sizes.begin(), sizes.end(), result.points[size_t(i)].fileSize) == sizes.end())
            sizes.push_back(result.points[size_t(i)].fileSize);
    }
    QStringList lines;
    QString header = QStringLiteral("%1").arg(QStringLiteral("file size"), -10);
    for (const QString &c : columns)
        header += QStringLiteral(" | %1").arg(c, -22);
    lines << header;
    for (uint64_t size : sizes) {
        QString line = QStringLiteral("%1").arg(sizeLabel(size), -10);
        for (const QString &c : columns) {
            for (qsizetype i = 0; i < names.size(); ++i) {
                const WritePoint &p = result.points[size_t(i)];
                if (p.fileSize != size || names[i] != c)
                    continue;
                const QString cell = p.deviceBytes < 0 ? QStringLiteral("n/a")
                                                       : QStringLiteral("%1 (x%2), %3 calls").arg(sizeLabel(uint64_t(p.deviceBytes))).arg(p.amplification, 0, 'f', 1).arg(p.writeCalls);
                line += QStringLiteral(" | %1").arg(cell, -22);
            }
        }
        lines << line;
    }
    return lines;
}

} // namespace asc
