// SPDX-License-Identifier: MIT
#include "verification.h"

#include "formats/format.h"
#include "io/byte_text.h"

#include <memory>

namespace asc {

namespace {

constexpr size_t kChunk = 1 << 20;

void testInto(const ContainerPtr &container, const QString &spec, const QByteArray &selection, int depth, TestReport &report,
              const std::function<void(const TestProblem &)> &onProblem)
{
    ++report.containers;
    auto problem = [&](const QString &where, const Error &error) {
        ++report.problems;
        onProblem({where, error});
    };
    const QByteArray prefix = selection.isEmpty() ? QByteArray() : selection + '/';
    std::vector<Entry> nested; // opened after the walk: a streaming container is read once
    std::unique_ptr<char[]> buffer(new char[kChunk]);
    auto walked = container->walkSelection(selection, [&](const Entry &entry, const Container::ContentReader &read) -> Result<bool> {
        if (!prefix.isEmpty() && entry.path != selection && !entry.path.startsWith(prefix))
            return true;
        ++report.entries;
        const QString where = spec + QStringLiteral("!/") + bytesToText(entry.path);
        const bool content = entry.type == EntryType::File || (entry.type == EntryType::Hardlink && entry.size > 0 && entry.size != kUnknown);
        if (content) {
            uint64_t size = 0;
            for (;;) {
                auto got = read(std::span(buffer.get(), kChunk));
                if (!got) {
                    problem(where, got.error());
                    // A damaged or encrypted entry: the others can still be read; a broken stream cannot.
                    return got.error().onlyThisEntry();
                }
                if (*got == 0)
                    break;
                size += *got;
            }
            ++report.files;
            report.bytes += size;
            if (entry.size != kUnknown && size != entry.size && entry.type == EntryType::File)
                problem(where, Error::format(where, std::nullopt, QStringLiteral("read %1 bytes where the entry says %2").arg(size).arg(entry.size)));
        }
        if (depth > 0 && ((entry.type == EntryType::Partition && !entry.opaque) || (entry.type == EntryType::File && nameSuggestsContainer(entry.name()))))
            nested.push_back(entry);
        return true;
    });
    if (!walked)
        problem(spec, walked.error());
    for (const Entry &entry : nested) {
        const QString where = spec + QStringLiteral("!/") + bytesToText(entry.path);
        auto source = container->open(entry);
        if (!source)
            continue; // its read above has said what is wrong
        // A name that only looked like an archive (nothing claims its bytes) is a file like any;
        // one a format claims and cannot open is a problem.
        auto claimed = probeFormat(*source);
        if (!claimed || !*claimed)
            continue;
        auto inner = openContainer(*source);
        if (!inner) {
            // A partition holding what we do not open (swap) is no problem; one we cannot open
            // for want of its password (LUKS) is: its contents went untested.
            if (entry.type != EntryType::Partition || inner.error().kind == ErrorKind::Password)
                problem(where, inner.error());
            continue;
        }
        testInto(*inner, where, {}, depth - 1, report, onProblem);
    }
}

} // namespace

TestReport testContainer(const ContainerPtr &container, const QString &spec, const QByteArray &selection, int depth,
                         const std::function<void(const TestProblem &)> &onProblem)
{
    TestReport report;
    testInto(container, spec, selection, depth, report, onProblem);
    return report;
}

} // namespace asc
