// SPDX-License-Identifier: MIT
#pragma once
// An external decoder run for one archive: 7-Zip's 7zz for encrypted 7z (Debian 12's libarchive
// cannot decrypt it). What may be asked is a short table — a tool, an operation, the archive and
// a member — from which the argv is built here: never a password (it goes to the tool's stdin),
// never an option the asker chose. The tool runs in archivescope-tool-jail: the worker's lockdown
// (no new processes, sockets or written files, a memory ceiling), a CPU-time ceiling, and Landlock
// letting it read only the archive's set and the system's libraries. Its output comes back framed
// (sandbox/tool_stream.h) on one descriptor, so a worker that cannot start programs can be handed
// it by its parent (remote/file_requests.h).

#include "io/result.h"

#include <QByteArray>
#include <QList>
#include <QStringList>
#include <functional>
#include <optional>

namespace asc {

enum class Tool : quint8 {
    SevenZip = 1, // 7zz
};

enum class ToolOperation : quint8 {
    List = 1, // 7zz l -slt: the technical listing
    ExtractAll, // every file's content, one after another in archive order
    ExtractOne, // `member`'s content
};

struct ToolRun {
    Tool tool = Tool::SevenZip;
    ToolOperation operation = ToolOperation::List;
    QByteArray archive; // its path (the first part of a split set)
    QByteArray member; // ExtractOne: the member's path as the tool lists it
    QByteArray password; // empty: none is given (the tool is told nothing)

    QByteArray encode() const;
    static std::optional<ToolRun> decode(const QByteArray &bytes);
    void wipe(); // zeros the password
};

// The tool's program, found on PATH ("7zz"); empty when not installed.
QString toolProgram(Tool tool);
// Its package, for "install it" errors ("7zip").
QString toolPackage(Tool tool);
// The argv after the program. Never holds the password.
QStringList toolArguments(const ToolRun &run);

// Starts `run` in the jail, granting it reads of `readable` (the archive and its set's other
// parts); the descriptor its framed output is read from.
Result<int> startJailedTool(const ToolRun &run, const QList<QByteArray> &readable);

// How a process reaches the tools: its parent, for a worker (file_requests.h sets it); by
// default startJailedTool with the archive alone.
using ToolStarter = std::function<Result<int>(const ToolRun &)>;
void setToolStarter(ToolStarter starter);
Result<int> startTool(const ToolRun &run);

// The jail's limits: address space, and CPU seconds for a set of `bytes` (a floor, plus one
// second per 4 MiB: decoding is far faster, a bomb is far slower).
inline constexpr uint64_t kToolMemoryBytes = uint64_t(4) << 30;
uint64_t toolCpuSeconds(uint64_t bytes);

} // namespace asc
