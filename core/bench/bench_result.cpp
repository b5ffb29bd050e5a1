// SPDX-License-Identifier: MIT
#include "bench_result.h"

#include "io/units.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <algorithm>
#include <map>

namespace asc {

QString cacheModeName(CacheMode mode)
{
    return mode == CacheMode::Cold ? QStringLiteral("cold") : QStringLiteral("warm");
}

double BenchPoint::medianSyscalls() const
{
    std::vector<double> calls;
    for (const Sample &s : runs)
        calls.push_back(double(s.syscalls));
    return summarise(calls).median;
}

static QJsonObject summaryJson(const Summary &s)
{
    QJsonObject o;
    o[QStringLiteral("mean_mibps")] = s.mean;
    o[QStringLiteral("sd_mibps")] = s.sd;
    o[QStringLiteral("median_mibps")] = s.median;
    o[QStringLiteral("min_mibps")] = s.min;
    o[QStringLiteral("max_mibps")] = s.max;
    return o;
}

QJsonObject toJson(const BenchResult &result)
{
    QJsonObject json;
    json[QStringLiteral("tool")] = result.tool;
    json[QStringLiteral("version")] = result.version;
    json[QStringLiteral("machine")] = result.machine;
    json[QStringLiteral("target")] = QJsonObject{{QStringLiteral("spec"), result.spec}, {QStringLiteral("bytes"), double(result.targetBytes)}};
    QJsonArray buffers;
    for (uint64_t b : result.config.buffers)
        buffers.append(double(b));
    json[QStringLiteral("config")] = QJsonObject{
        {QStringLiteral("strategies"), QJsonArray::fromStringList(result.config.strategies)},
        {QStringLiteral("buffers"), buffers},
        {QStringLiteral("runs"), result.config.runs},
        {QStringLiteral("warmup"), result.config.warmup},
        {QStringLiteral("cache"), cacheModeName(result.config.cache)},
        {QStringLiteral("passes"), result.config.passes},
        {QStringLiteral("units"), QStringLiteral("MiB/s, MiB = 2^20 bytes")},
    };
    if (!result.config.commands.empty()) {
        QJsonArray commands;
        for (const CommandTemplate &c : result.config.commands)
            commands.append(QJsonObject{{QStringLiteral("name"), c.name}, {QStringLiteral("template"), c.text}, {QStringLiteral("shell"), c.shell}});
        QJsonObject config = json[QStringLiteral("config")].toObject();
        config[QStringLiteral("commands")] = commands;
        if (!result.config.prepare.isEmpty())
            config[QStringLiteral("prepare")] = result.config.prepare;
        json[QStringLiteral("config")] = config;
    }
    if (!result.notes.isEmpty())
        json[QStringLiteral("notes")] = QJsonArray::fromStringList(result.notes);
    if (!result.skipped.isEmpty())
        json[QStringLiteral("skipped")] = QJsonArray::fromStringList(result.skipped);
    QJsonArray points;
    for (const BenchPoint &p : result.points) {
        QJsonObject o = summaryJson(p.mibps);
        o[QStringLiteral("strategy")] = p.strategy;
        o[QStringLiteral("buffer")] = double(p.buffer);
        o[QStringLiteral("cache")] = cacheModeName(p.cache);
        o[QStringLiteral("pass")] = p.pass;
        if (!p.note.isEmpty())
            o[QStringLiteral("note")] = p.note;
        auto count = [](int64_t v) { return v < 0 ? QJsonValue() : QJsonValue(double(v)); };
        if (p.isCommand) {
            o[QStringLiteral("kind")] = QStringLiteral("command");
            o[QStringLiteral("template")] = p.commandTemplate;
            o[QStringLiteral("command")] = p.command;
            o[QStringLiteral("request_bytes_median")] = p.requestBytesMedian < 0 ? QJsonValue() : QJsonValue(p.requestBytesMedian);
            o[QStringLiteral("target_read_calls")] = count(p.targetReadCalls);
            o[QStringLiteral("target_read_bytes")] = count(p.targetReadBytes);
        }
        QJsonArray runs;
        for (const Sample &s : p.runs) {
            QJsonObject r;
            if (p.isCommand) {
                // The whole process tree, as the kernel counted it (CLI.md, bench --command).
                r[QStringLiteral("seconds")] = s.seconds;
                r[QStringLiteral("bytes")] = double(s.bytes);
                r[QStringLiteral("user")] = s.user;
                r[QStringLiteral("sys")] = s.sys;
                r[QStringLiteral("max_rss")] = count(s.maxRssBytes);
                // On the target: the point's traced run (timed runs are not stopped per call).
                r[QStringLiteral("read_calls")] = count(p.targetReadCalls);
                r[QStringLiteral("read_bytes")] = count(p.targetReadBytes);
                // Every read of every task, as the kernel counted them in this run (execve's own
                // reads of the program included).
                r[QStringLiteral("tree_read_calls")] = double(s.syscalls);
                r[QStringLiteral("tree_read_bytes")] = count(s.rchar);
                r[QStringLiteral("storage_read_bytes")] = count(s.readBytes);
                r[QStringLiteral("write_calls")] = count(s.writeCalls);
                r[QStringLiteral("write_bytes")] = count(s.writeBytes);
                r[QStringLiteral("storage_write_bytes")] = count(s.storageWriteBytes);
                r[QStringLiteral("exit_status")] = s.exitStatus;
                runs.append(r);
                continue;
            }
            r[QStringLiteral("seconds")] = s.seconds;
            r[QStringLiteral("bytes")] = double(s.bytes);
            r[QStringLiteral("user")] = s.user;
            r[QStringLiteral("sys")] = s.sys;
            r[QStringLiteral("syscalls")] = double(s.syscalls);
            r[QStringLiteral("read_bytes")] = s.readBytes < 0 ? QJsonValue() : QJsonValue(double(s.readBytes));
            r[QStringLiteral("rchar")] = s.rchar < 0 ? QJsonValue() : QJsonValue(double(s.rchar));
            runs.append(r);
        }
        o[QStringLiteral("runs")] = runs;
        points.append(o);
    }
    json[QStringLiteral("points")] = points;
    return json;
}

Result<BenchResult> benchResultFromJson(const QJsonObject &json, const QString &name)
{
    auto bad = [&](const QString &what) { return Error::format(name, std::nullopt, QStringLiteral("not a bench result: ") + what); };
    if (!json.value(QStringLiteral("points")).isArray())
        return bad(QStringLiteral("no \"points\" array"));
    BenchResult result;
    result.tool = json.value(QStringLiteral("tool")).toString();
    result.version = json.value(QStringLiteral("version")).toString();
    result.machine = json.value(QStringLiteral("machine")).toObject();
    const QJsonObject target = json.value(QStringLiteral("target")).toObject();
    result.spec = target.value(QStringLiteral("spec")).toString();
    result.targetBytes = uint64_t(target.value(QStringLiteral("bytes")).toDouble());
    const QJsonObject config = json.value(QStringLiteral("config")).toObject();
    result.config.spec = result.spec;
    for (const auto &s : config.value(QStringLiteral("strategies")).toArray())
        result.config.strategies << s.toString();
    for (const auto &b : config.value(QStringLiteral("buffers")).toArray())
        result.config.buffers.push_back(uint64_t(b.toDouble()));
    result.config.runs = config.value(QStringLiteral("runs")).toInt(5);
    result.config.warmup = config.value(QStringLiteral("warmup")).toInt(1);
    result.config.cache = config.value(QStringLiteral("cache")).toString() == QLatin1String("cold") ? CacheMode::Cold : CacheMode::Warm;
    result.config.passes = config.value(QStringLiteral("passes")).toInt(1);
    for (const auto &c : config.value(QStringLiteral("commands")).toArray()) {
        CommandTemplate t;
        t.name = c.toObject().value(QStringLiteral("name")).toString();
        t.text = c.toObject().value(QStringLiteral("template")).toString();
        t.shell = c.toObject().value(QStringLiteral("shell")).toBool();
        result.config.commands.push_back(t);
    }
    result.config.prepare = config.value(QStringLiteral("prepare")).toString();
    for (const auto &n : json.value(QStringLiteral("notes")).toArray())
        result.notes << n.toString();
    for (const auto &n : json.value(QStringLiteral("skipped")).toArray())
        result.skipped << n.toString();
    for (const auto &value : json.value(QStringLiteral("points")).toArray()) {
        const QJsonObject o = value.toObject();
        if (!o.value(QStringLiteral("strategy")).isString() || !o.value(QStringLiteral("buffer")).isDouble())
            return bad(QStringLiteral("a point without strategy or buffer"));
        BenchPoint p;
        p.strategy = o.value(QStringLiteral("strategy")).toString();
        p.buffer = uint64_t(o.value(QStringLiteral("buffer")).toDouble());
        p.cache = o.value(QStringLiteral("cache")).toString() == QLatin1String("cold") ? CacheMode::Cold : CacheMode::Warm;
        p.pass = o.value(QStringLiteral("pass")).toInt(1);
        p.note = o.value(QStringLiteral("note")).toString();
        auto count = [](const QJsonValue &v) { return v.isDouble() ? int64_t(v.toDouble()) : int64_t(-1); };
        p.isCommand = o.value(QStringLiteral("kind")).toString() == QLatin1String("command");
        if (p.isCommand) {
            p.commandTemplate = o.value(QStringLiteral("template")).toString();
            p.command = o.value(QStringLiteral("command")).toString();
            p.requestBytesMedian = o.value(QStringLiteral("request_bytes_median")).toDouble(-1);
            p.targetReadCalls = count(o.value(QStringLiteral("target_read_calls")));
            p.targetReadBytes = count(o.value(QStringLiteral("target_read_bytes")));
        }
        std::vector<double> rates;
        for (const auto &r : o.value(QStringLiteral("runs")).toArray()) {
            const QJsonObject run = r.toObject();
            Sample s;
            s.seconds = run.value(QStringLiteral("seconds")).toDouble();
            s.bytes = uint64_t(run.value(QStringLiteral("bytes")).toDouble());
            s.user = run.value(QStringLiteral("user")).toDouble();
            s.sys = run.value(QStringLiteral("sys")).toDouble();
            if (p.isCommand) {
                s.syscalls = uint64_t(std::max<int64_t>(0, count(run.value(QStringLiteral("tree_read_calls")))));
                s.rchar = count(run.value(QStringLiteral("tree_read_bytes")));
                s.readBytes = count(run.value(QStringLiteral("storage_read_bytes")));
                s.maxRssBytes = count(run.value(QStringLiteral("max_rss")));
                s.writeCalls = count(run.value(QStringLiteral("write_calls")));
                s.writeBytes = count(run.value(QStringLiteral("write_bytes")));
                s.storageWriteBytes = count(run.value(QStringLiteral("storage_write_bytes")));
                s.exitStatus = run.value(QStringLiteral("exit_status")).toInt();
            } else {
                s.syscalls = uint64_t(run.value(QStringLiteral("syscalls")).toDouble());
                s.readBytes = count(run.value(QStringLiteral("read_bytes")));
                s.rchar = count(run.value(QStringLiteral("rchar")));
            }
            p.runs.push_back(s);
            if (s.seconds > 0)
                rates.push_back(double(s.bytes) / 1048576.0 / s.seconds);
        }
        p.mibps = summarise(rates);
        if (p.runs.empty()) { // a result file with statistics only
            p.mibps.mean = o.value(QStringLiteral("mean_mibps")).toDouble();
            p.mibps.sd = o.value(QStringLiteral("sd_mibps")).toDouble();
            p.mibps.median = o.value(QStringLiteral("median_mibps")).toDouble();
            p.mibps.min = o.value(QStringLiteral("min_mibps")).toDouble();
            p.mibps.max = o.value(QStringLiteral("max_mibps")).toDouble();
        }
        result.points.push_back(std::move(p));
    }
    return result;
}

QByteArray toCsv(const BenchResult &result)
{
    QByteArray csv = "strategy,buffer,cache,pass,runs,mean_mibps,sd_mibps,median_mibps,min_mibps,max_mibps,median_syscalls,cpu_user_s,cpu_sys_s,note,kind,request_bytes_median,command\n";
    for (const BenchPoint &p : result.points) {
        double user = 0, sys = 0;
        for (const Sample &s : p.runs) {
            user += s.user;
            sys += s.sys;
        }
        const double n = std::max<size_t>(1, p.runs.size());
        QString note = p.note;
        note.replace(QLatin1Char('"'), QStringLiteral("\"\""));
        QString command = p.command;
        command.replace(QLatin1Char('"'), QStringLiteral("\"\""));
        csv += QStringLiteral("%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,\"%14\",%15,%16,\"%17\"\n")
                   .arg(p.strategy)
                   .arg(p.buffer)
                   .arg(cacheModeName(p.cache))
                   .arg(p.pass)
                   .arg(p.runs.size())
                   .arg(p.mibps.mean, 0, 'f', 2)
                   .arg(p.mibps.sd, 0, 'f', 2)
                   .arg(p.mibps.median, 0, 'f', 2)
                   .arg(p.mibps.min, 0, 'f', 2)
                   .arg(p.mibps.max, 0, 'f', 2)
                   .arg(p.medianSyscalls(), 0, 'f', 0)
                   .arg(user / n, 0, 'f', 4)
                   .arg(sys / n, 0, 'f', 4)
                   .arg(note)
                   .arg(p.isCommand ? QStringLiteral("command") : QStringLiteral("strategy"))
                   .arg(p.requestBytesMedian < 0 ? QString() : QString::number(p.requestBytesMedian, 'f', 0))
                   .arg(command)
                   .toUtf8();
    }
    return csv;
}

QString pointLine(const BenchPoint &p, int strategyWidth)
{
    QString line = p.strategy.leftJustified(strategyWidth) + QLatin1Char(' ') + sizeLabel(p.buffer).rightJustified(8) +
                   QStringLiteral("  %1 ± %2 MiB/s  (%3 … %4)")
                       .arg(p.mibps.mean, 9, 'f', 1)
                       .arg(p.mibps.sd, 7, 'f', 1)
                       .arg(p.mibps.min, 0, 'f', 1)
                       .arg(p.mibps.max, 0, 'f', 1);
    // A command's calls on the target (its traced run), as its JSON's read_calls; its tree's
    // calls on every file are in the JSON too.
    if (p.isCommand && p.targetReadCalls >= 0)
        line += QStringLiteral("  %1 calls, requests of %2").arg(p.targetReadCalls).arg(sizeLabel(uint64_t(std::max(0.0, p.requestBytesMedian))));
    else
        line += QStringLiteral("  %1 calls").arg(p.medianSyscalls(), 0, 'f', 0);
    if (p.cache == CacheMode::Cold || p.pass > 1)
        line += QStringLiteral("  [%1, pass %2]").arg(cacheModeName(p.cache)).arg(p.pass);
    if (!p.note.isEmpty())
        line += QStringLiteral("  (%1)").arg(p.note);
    return line;
}

static QString pointName(const BenchPoint &p, bool withPass)
{
    QString name = p.strategy + QLatin1Char(' ') + sizeLabel(p.buffer);
    if (withPass)
        name += QStringLiteral(" (pass %1)").arg(p.pass);
    return name;
}

QStringList summaryLines(const BenchResult &result)
{
    QStringList lines;
    if (result.points.empty())
        return lines;
    const bool passes = result.config.passes > 1;
    const BenchPoint *fastest = nullptr;
    for (const BenchPoint &p : result.points)
        if (!fastest || p.mibps.mean > fastest->mibps.mean)
            fastest = &p;
    lines << QStringLiteral("Fastest: %1 at %2 ± %3 MiB/s").arg(pointName(*fastest, passes)).arg(fastest->mibps.mean, 0, 'f', 1).arg(fastest->mibps.sd, 0, 'f', 1);
    // Each other strategy's best point (per pass), compared with the fastest.
    std::map<std::pair<QString, int>, const BenchPoint *> best;
    for (const BenchPoint &p : result.points) {
        auto &slot = best[{p.strategy, p.pass}];
        if (!slot || p.mibps.mean > slot->mibps.mean)
            slot = &p;
    }
    std::vector<const BenchPoint *> others;
    for (const auto &[key, p] : best)
        if (p != fastest)
            others.push_back(p);
    std::sort(others.begin(), others.end(), [](const BenchPoint *a, const BenchPoint *b) { return a->mibps.mean > b->mibps.mean; });
    for (const BenchPoint *p : others) {
        const Ratio r = ratioOf(fastest->mibps, p->mibps);
        lines << QStringLiteral("  %1 ± %2 times faster than %3").arg(r.value, 0, 'f', 2).arg(r.sd, 0, 'f', 2).arg(pointName(*p, passes));
    }
    for (const QString &note : result.notes)
        lines << QStringLiteral("Note: ") + note;
    return lines;
}

Result<BenchResult> loadBenchResult(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return Error::make(ErrorKind::System, path, file.errorString());
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(file.readAll(), &parseError);
    if (parseError.error != QJsonParseError::NoError)
        return Error::format(path, uint64_t(parseError.offset), QStringLiteral("not JSON: ") + parseError.errorString());
    return benchResultFromJson(doc.object(), path);
}

} // namespace asc
