// SPDX-License-Identifier: MIT
// `grep PATTERN SPEC [-i] [-F|-E|-P] [-l] [-c] [-a] [--json]`: the lines of every regular file
// below SPEC that match, recursively through the volumes of disks and the archives and compressed
// files inside (by name), printed as grep -rn prints them with the entry's SPEC:
// `backup.tar.gz!/etc/hosts:12:127.0.0.1 localhost`. Exit status as grep's: 0 a line matched,
// 1 none, 2 an error (an entry that could not be read, a bad pattern).

#include "argument_parser.h"
#include "cli_output.h"
#include "commands.h"
#include "entry_format.h"
#include "io/byte_text.h"
#include "open/deep_walk.h"
#include "open/line_scanner.h"
#include "open/spec.h"
#include "vfs/path_text.h"
#include "walk_target.h"

#include <QElapsedTimer>
#include <memory>

namespace asc::cli {

namespace {

constexpr size_t kChunk = 1 << 20;
constexpr int kFound = 0, kNone = 1, kError = 2;

enum class Mode { Lines,
                  FilesWithMatches,
                  Count };

// What grep prints for one file: its lines, its name, or its count; text or JSON Lines.
class GrepOutput {
public:
    explicit GrepOutput(bool json)
        : json_(json)
    {
    }
    bool line(const QByteArray &spec, uint64_t number, QByteArrayView text)
    {
        QByteArray out;
        if (json_) {
            out = head(spec) + ",\"line\":" + QByteArray::number(qulonglong(number)) + ",\"text\":";
            const QByteArray bytes = text.toByteArray();
            appendJsonString(out, isValidUtf8(bytes) ? bytes : pathText(bytes).toUtf8());
            out += "}\n";
        } else {
            out = spec + ':' + QByteArray::number(qulonglong(number)) + ':' + text.toByteArray() + '\n';
        }
        return write(out);
    }
    bool file(const QByteArray &spec) { return write(json_ ? head(spec) + "}\n" : spec + '\n'); }
    bool count(const QByteArray &spec, uint64_t n)
    {
        return write(json_ ? head(spec) + ",\"count\":" + QByteArray::number(qulonglong(n)) + "}\n" : spec + ':' + QByteArray::number(qulonglong(n)) + '\n');
    }
    bool binary(const QByteArray &spec) { return write(json_ ? head(spec) + ",\"binary\":true}\n" : spec + ": binary file matches\n"); }
    bool ended() const { return closed_ || error_; }
    const std::optional<Error> &error() const { return error_; }

private:
    static QByteArray head(const QByteArray &spec)
    {
        QByteArray out = "{\"spec\":";
        appendJsonString(out, isValidUtf8(spec) ? spec : pathText(spec).toUtf8());
        return out;
    }
    bool write(const QByteArray &bytes)
    {
        auto written = writeStdout(bytes.constData(), size_t(bytes.size()));
        if (!written)
            error_ = written.error();
        else if (!*written)
            closed_ = true;
        return !ended();
    }
    bool json_;
    bool closed_ = false;
    std::optional<Error> error_;
};

} // namespace

int runGrep(const QStringList &args)
{
    ArgumentParser p(QStringLiteral("grep"),
                     QStringLiteral("Print the lines that match PATTERN in every regular file below SPEC, recursively: through\n"
                                    "disk images, partitions, volumes and filesystems, and into the archives and compressed files\n"
                                    "found there (by name). Lines as `grep -rn` prints them, with the entry's SPEC:\n"
                                    "  backup.tar.gz!/etc/hosts:12:127.0.0.1 localhost\n"
                                    "A binary file (a NUL byte) says 'binary file matches' unless -a. PCRE2 does the matching.\n"
                                    "Exit status 0 when a line matched, 1 when none did, 2 on an error."));
    p.addPositional(QStringLiteral("PATTERN"), QStringLiteral("what to look for (grep's basic syntax unless -E, -F or -P)"));
    p.addPositional(QStringLiteral("SPEC"), QStringLiteral("an archive, a disk image, or a folder or file inside one"));
    QCommandLineParser &parser = p.parser();
    parser.addOption({{QStringLiteral("i"), QStringLiteral("ignore-case")}, QStringLiteral("Ignore case (Unicode, for UTF-8 text).")});
    parser.addOption({{QStringLiteral("F"), QStringLiteral("fixed-strings")}, QStringLiteral("PATTERN is a string, not a regular expression.")});
    parser.addOption({{QStringLiteral("E"), QStringLiteral("extended-regexp")}, QStringLiteral("Extended regular expressions (egrep's).")});
    parser.addOption({{QStringLiteral("P"), QStringLiteral("perl-regexp")}, QStringLiteral("Perl-compatible regular expressions.")});
    parser.addOption({{QStringLiteral("l"), QStringLiteral("files-with-matches")}, QStringLiteral("Print only the SPEC of each file with a match.")});
    parser.addOption({{QStringLiteral("c"), QStringLiteral("count")}, QStringLiteral("Print each file's SPEC and how many lines match.")});
    parser.addOption({{QStringLiteral("a"), QStringLiteral("text")}, QStringLiteral("Search binary files as text.")});
    parser.addOption({QStringLiteral("json"), QStringLiteral("JSON Lines: {\"spec\", \"line\", \"text\"} per line ({\"spec\"} with -l, {\"spec\", \"count\"} with -c).")});
    parser.addOption({QStringLiteral("progress"), QStringLiteral("JSON Lines on stderr as files are searched, at most ten a second and at the end: {\"files\": N, \"bytes\": B} (the window's Find in Contents reads them).")});
    if (auto stop = p.parse(args, 2))
        return *stop;
    const QStringList positional = parser.positionalArguments();
    const QByteArray patternText = positional[0].toUtf8();
    const QString spec = positional[1];
    const int syntaxes = int(parser.isSet(QStringLiteral("F"))) + int(parser.isSet(QStringLiteral("E"))) + int(parser.isSet(QStringLiteral("P")));
    if (syntaxes > 1)
        return usage(QStringLiteral("grep: -F, -E and -P exclude each other"));
    const PatternSyntax syntax = parser.isSet(QStringLiteral("F"))   ? PatternSyntax::Fixed
                                 : parser.isSet(QStringLiteral("E")) ? PatternSyntax::Extended
                                 : parser.isSet(QStringLiteral("P")) ? PatternSyntax::Perl
                                                                     : PatternSyntax::Basic;
    auto pattern = LinePattern::compile(patternText, syntax, parser.isSet(QStringLiteral("i")));
    if (!pattern)
        return usage(QStringLiteral("grep: ") + pattern.error().toString());
    const Mode mode = parser.isSet(QStringLiteral("l")) ? Mode::FilesWithMatches : parser.isSet(QStringLiteral("c")) ? Mode::Count
                                                                                                                     : Mode::Lines;
    const bool allText = parser.isSet(QStringLiteral("a"));
    GrepOutput out(parser.isSet(QStringLiteral("json")));

    auto location = resolve(spec);
    if (!location) {
        fail(spec, location.error());
        return kError;
    }
    auto target = walkTargetOf(*location, spec);
    if (!target) {
        fail(spec, target.error());
        return kError;
    }
    std::unique_ptr<char[]> buffer(new char[kChunk]);
    // --progress: files and bytes searched so far, on stderr, throttled.
    const bool progress = parser.isSet(QStringLiteral("progress"));
    uint64_t filesSearched = 0, bytesSearched = 0;
    QElapsedTimer sinceSaid;
    sinceSaid.start();
    auto sayProgress = [&](bool last) {
        if (!progress || (!last && sinceSaid.elapsed() < 100))
            return;
        sinceSaid.restart();
        const QByteArray line = "{\"files\":" + QByteArray::number(qulonglong(filesSearched)) + ",\"bytes\":" + QByteArray::number(qulonglong(bytesSearched)) + "}\n";
        std::fwrite(line.constData(), 1, size_t(line.size()), stderr);
        std::fflush(stderr);
    };
    bool found = false;
    bool failed = false;
    // One file's content through the scanner, printed under `name`; false when the output ended.
    auto search = [&](const QByteArray &name, const Container::ContentReader &read) -> Result<bool> {
        const LineScanner *self = nullptr;
        LineScanner scanner(*pattern, allText, [&](uint64_t number, QByteArrayView text) {
            found = true;
            if (mode == Mode::FilesWithMatches)
                return out.file(name) && false;
            if (mode == Mode::Count)
                return true;
            if (self->binary())
                return out.binary(name) && false; // once, then the rest of it is not read
            return out.line(name, number, text);
        });
        self = &scanner;
        for (;;) {
            auto got = read(std::span(buffer.get(), kChunk));
            if (!got) {
                failed = true;
                reportProblemLine(got.error());
                // A damaged or encrypted entry: the others can still be read; a broken stream cannot.
                return got.error().onlyThisEntry();
            }
            if (*got == 0 || !scanner.feed(QByteArrayView(buffer.get(), qsizetype(*got))))
                break;
            bytesSearched += *got;
        }
        scanner.finish();
        ++filesSearched;
        sayProgress(false);
        if (mode == Mode::Count)
            out.count(name, scanner.matches());
        return !out.ended();
    };
    const QByteArray under = target->under.toUtf8() + "!/";
    WalkFilesOptions options;
    options.intoArchives = true;
    options.cannotOpen = [&](const Error &error) {
        failed = true;
        reportProblemLine(error);
    };
    Result<void> walked;
    if (target->singleFile) {
        // One file that holds no archive: its own bytes, under the SPEC given.
        const SourcePtr &source = location->source;
        uint64_t offset = 0;
        const Container::ContentReader read = [&](std::span<char> into) -> Result<size_t> {
            auto got = source->readAt(offset, into);
            if (got)
                offset += *got;
            return got;
        };
        auto done = search(spec.toUtf8(), read);
        walked = done ? Result<void>() : Result<void>(std::move(done).error());
    } else {
        walked = walkFiles(
            target->container, target->selection, [&](const ContainerPtr &, const Entry &entry, const QByteArray &shown, const Container::ContentReader &read) -> Result<bool> {
                const bool carriesData = entry.type == EntryType::File || (entry.type == EntryType::Hardlink && entry.size > 0 && entry.size != kUnknown);
                return carriesData ? search(under + shown, read) : Result<bool>(true);
            },
            options);
    }
    sayProgress(true);
    if (out.error()) {
        fail(spec, *out.error());
        return kError;
    }
    if (!walked) {
        fail(spec, walked.error());
        return kError;
    }
    return failed || problemsReported() > 0 ? kError : found ? kFound
                                                             : kNone;
}

} // namespace asc::cli
