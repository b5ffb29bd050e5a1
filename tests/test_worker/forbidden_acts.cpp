// SPDX-License-Identifier: MIT
#include "forbidden_acts.h"

#include "io/file_source.h"

#include <QFile>
#include <algorithm>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <memory>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <unistd.h>
#include <vector>

namespace asc::test {

namespace {

QByteArray answer(const QByteArray &what)
{
    return (wire::Message(wire::Kind::Bytes) << what).bytes();
}

} // namespace

WorkerAct forbiddenActs()
{
    return [](wire::Received &request, const WorkerActContext &) -> QByteArray {
        QByteArray act;
        request >> act;
        int rc = 0;
        if (act == "crash") {
            ::raise(SIGSEGV);
        } else if (act == "allocate") {
            std::vector<std::unique_ptr<char[]>> hog;
            for (;;) {
                hog.emplace_back(new char[64 << 20]);
                std::fill_n(hog.back().get(), 64 << 20, char(1));
            }
        } else if (act == "spin") {
            static volatile uint64_t turns = 0; // work the compiler cannot drop
            for (;;)
                turns = turns + 1;
        } else if (act == "open-write") {
            rc = ::open("/tmp/archivescope-worker-test", O_WRONLY | O_CREAT, 0600);
        } else if (act == "socket") {
            rc = ::socket(AF_INET, SOCK_STREAM, 0);
        } else if (act == "exec") {
            char *const argv[] = {const_cast<char *>("/bin/true"), nullptr};
            rc = ::execv("/bin/true", argv);
        } else if (act == "ptrace") {
            rc = int(::ptrace(PTRACE_ATTACH, ::getppid(), nullptr, nullptr));
        } else if (act == "read") {
            rc = ::open("/proc/self/status", O_RDONLY);
        } else if (act.startsWith("ask-parent:")) {
            auto file = FileSource::open(QFile::decodeName(act.mid(11)));
            return answer(file ? QByteArray("allowed") : QByteArray("refused: " + file.error().toString().toUtf8()));
        } else {
            return answer("unknown act " + act);
        }
        const int error = rc < 0 ? errno : 0;
        if (rc >= 0)
            ::close(rc);
        return answer(rc < 0 ? QByteArray("refused: ") + QByteArray(std::strerror(error)) : QByteArray("allowed"));
    };
}

} // namespace asc::test
