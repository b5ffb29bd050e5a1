// SPDX-License-Identifier: MIT
#include "terminal_password.h"

#include "open/reading_policy.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <termios.h>
#include <unistd.h>

namespace asc::cli {

void askOnTerminalWhenNeeded()
{
    if (::isatty(STDIN_FILENO))
        setPasswordAsker(askOnTerminal);
}

std::optional<QByteArray> askOnTerminal(const QString &what, bool wrong)
{
    const int tty = ::open("/dev/tty", O_RDWR | O_CLOEXEC | O_NOCTTY);
    if (tty < 0)
        return std::nullopt;
    const QByteArray prompt = (wrong ? QStringLiteral("archivescope-cli: wrong password for %1; password: ")
                                     : QStringLiteral("archivescope-cli: password for %1: "))
                                  .arg(what)
                                  .toLocal8Bit();
    // Echo off before the prompt shows: what is typed once it shows is never echoed.
    termios before{};
    const bool terminal = ::tcgetattr(tty, &before) == 0;
    if (terminal) {
        termios quiet = before;
        quiet.c_lflag &= ~tcflag_t(ECHO);
        quiet.c_lflag |= ECHONL;
        ::tcsetattr(tty, TCSAFLUSH, &quiet);
    }
    (void)!::write(tty, prompt.constData(), size_t(prompt.size()));
    QByteArray answer;
    char c = 0;
    for (;;) {
        const ssize_t n = ::read(tty, &c, 1);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0 || c == '\n' || answer.size() > 4096)
            break;
        answer.append(c);
    }
    if (answer.endsWith('\r'))
        answer.chop(1);
    if (terminal)
        ::tcsetattr(tty, TCSANOW, &before);
    ::close(tty);
    c = 0;
    if (answer.isEmpty())
        return std::nullopt;
    return answer;
}

} // namespace asc::cli
