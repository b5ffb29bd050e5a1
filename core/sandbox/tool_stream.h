// SPDX-License-Identifier: MIT
#pragma once
// What the external tools' jail (app/tool_jail) writes on its stdout: the tool's stdout in frames,
// then how the tool ended and what it said on stderr. So whoever reads the tool's output (the
// worker, which cannot wait for a process) learns whether it was complete and correct:
//   data:  u32 length (> 0, little-endian), that many bytes
//   end:   u32 0, i32 wait status (as waitpid gives it), u32 n, n bytes of the tool's stderr

#include "io/result.h"

#include <QByteArray>
#include <span>

namespace asc {

inline constexpr uint32_t kToolFrameBytes = 256 * 1024;
inline constexpr uint32_t kToolStderrBytes = 16 * 1024; // kept of what the tool says

class ToolStream {
public:
    // Takes `fd`; `what` names the tool's run in errors.
    ToolStream(int fd, QString what);
    ~ToolStream();
    ToolStream(const ToolStream &) = delete;
    ToolStream &operator=(const ToolStream &) = delete;

    // The tool's next bytes; 0 once it ended (then status() and messages() say how).
    Result<size_t> read(std::span<char> out);
    bool ended() const { return ended_; }
    int status() const { return status_; }
    const QByteArray &messages() const { return messages_; }
    // Whether it exited with 0.
    bool succeeded() const;
    // How it ended, for an error: "exit status 2: <its last stderr line>", "killed by signal 24".
    QString howItEnded() const;

private:
    Result<void> readExact(char *p, size_t n);
    int fd_;
    QString what_;
    uint32_t left_ = 0; // bytes of the current frame not yet read
    bool ended_ = false;
    int status_ = -1;
    QByteArray messages_;
};

} // namespace asc
