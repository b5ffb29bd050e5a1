// SPDX-License-Identifier: MIT
#include "command_template.h"

#include <QFileInfo>
#include <QRegularExpression>
#include <QStandardPaths>

namespace asc {

namespace {

const QStringList knownPlaceholders = {QStringLiteral("file"), QStringLiteral("stdin"), QStringLiteral("buffer"), QStringLiteral("buffer_kib")};

// {name} placeholders; "{{" and "}}" are literal braces (awk '{{print}}').
const QRegularExpression &placeholderPattern()
{
    static const QRegularExpression pattern(QStringLiteral("\\{\\{|\\}\\}|\\{([a-z_]+)\\}"));
    return pattern;
}

QString shellQuoted(const QString &word)
{
    static const QRegularExpression plain(QStringLiteral("^[A-Za-z0-9_@%+=:,./-]+$"));
    if (plain.match(word).hasMatch())
        return word;
    QString quoted = word;
    quoted.replace(QLatin1Char('\''), QStringLiteral("'\\''"));
    return QLatin1Char('\'') + quoted + QLatin1Char('\'');
}

// Replaces the placeholders in one word (or, in shell mode, the whole text).
QString substitute(const QString &text, const QString &file, uint64_t buffer, bool quote)
{
    QString out;
    qsizetype at = 0;
    auto it = placeholderPattern().globalMatch(text);
    while (it.hasNext()) {
        const auto m = it.next();
        out += text.mid(at, m.capturedStart() - at);
        at = m.capturedEnd();
        const QString name = m.captured(1);
        if (m.captured(0) == QLatin1String("{{"))
            out += QLatin1Char('{');
        else if (m.captured(0) == QLatin1String("}}"))
            out += QLatin1Char('}');
        else if (name == QLatin1String("file"))
            out += quote ? shellQuoted(file) : file;
        else if (name == QLatin1String("stdin"))
            out += QStringLiteral("/dev/stdin");
        else if (name == QLatin1String("buffer"))
            out += QString::number(buffer);
        else if (name == QLatin1String("buffer_kib"))
            out += QString::number(buffer / 1024);
    }
    out += text.mid(at);
    return out;
}

} // namespace

std::optional<QStringList> splitCommandWords(const QString &text)
{
    QStringList words;
    QString word;
    bool inWord = false;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        if (c == QLatin1Char('\'')) {
            const qsizetype end = text.indexOf(QLatin1Char('\''), i + 1);
            if (end < 0)
                return std::nullopt;
            word += text.mid(i + 1, end - i - 1);
            i = end;
            inWord = true;
        } else if (c == QLatin1Char('"')) {
            qsizetype j = i + 1;
            for (; j < text.size() && text[j] != QLatin1Char('"'); ++j) {
                if (text[j] == QLatin1Char('\\') && j + 1 < text.size() && QStringLiteral("\"\\$`").contains(text[j + 1]))
                    ++j;
                word += text[j];
            }
            if (j >= text.size())
                return std::nullopt;
            i = j;
            inWord = true;
        } else if (c == QLatin1Char('\\')) {
            if (i + 1 < text.size())
                word += text[++i];
            inWord = true;
        } else if (c.isSpace()) {
            if (inWord)
                words << word;
            word.clear();
            inWord = false;
        } else {
            word += c;
            inWord = true;
        }
    }
    if (inWord)
        words << word;
    return words;
}

QString findProgram(const QString &word)
{
    if (word.contains(QLatin1Char('/'))) {
        const QFileInfo info(word);
        return info.isFile() && info.isExecutable() ? info.absoluteFilePath() : QString();
    }
    return QStandardPaths::findExecutable(word);
}

Result<CommandTemplate> parseCommandTemplate(const QString &spec, bool shell, bool needsBuffer)
{
    CommandTemplate t;
    t.shell = shell;
    // NAME=TEMPLATE, where NAME is a plain word (an "=" later on, as in dd's if=, is the command's).
    static const QRegularExpression named(QStringLiteral("^([A-Za-z0-9_.+-]+)=(.*)$"), QRegularExpression::DotMatchesEverythingOption);
    const auto m = named.match(spec);
    const bool hasName = m.hasMatch() && !m.captured(2).trimmed().isEmpty() && !m.captured(2).startsWith(QLatin1Char('='));
    t.text = (hasName ? m.captured(2) : spec).trimmed();
    auto bad = [&](const QString &why) {
        return Error::make(ErrorKind::Usage, {}, QStringLiteral("--command '%1': %2").arg(spec, why));
    };
    if (t.text.isEmpty())
        return bad(QStringLiteral("no command"));
    auto words = splitCommandWords(t.text);
    if (!words)
        return bad(QStringLiteral("a quote is not closed"));
    if (words->isEmpty())
        return bad(QStringLiteral("no command"));
    t.words = *words;
    bool usesBuffer = false;
    auto it = placeholderPattern().globalMatch(t.text);
    while (it.hasNext()) {
        const QString name = it.next().captured(1);
        if (name.isEmpty())
            continue;
        if (!knownPlaceholders.contains(name))
            return bad(QStringLiteral("unknown placeholder {%1} (known: {file}, {stdin}, {buffer}, {buffer_kib}; {{ and }} are literal braces)").arg(name));
        t.usesFile |= name == QLatin1String("file");
        t.usesStdin |= name == QLatin1String("stdin");
        usesBuffer |= name.startsWith(QLatin1String("buffer"));
    }
    if (!t.usesFile && !t.usesStdin)
        return bad(QStringLiteral("it names neither {file} nor {stdin}, so it would not read the target"));
    if (!usesBuffer && needsBuffer)
        return bad(QStringLiteral("it has no {buffer} or {buffer_kib}, so every buffer size would run the same command"));
    if (shell) {
        if (findProgram(QStringLiteral("sh")).isEmpty())
            return bad(QStringLiteral("no /bin/sh to run it with --shell"));
    } else if (findProgram(substitute(t.words.first(), QString(), 0, false)).isEmpty()) {
        return bad(QStringLiteral("program '%1' not found (not an executable file, nor in PATH)").arg(t.words.first()));
    }
    t.name = hasName ? m.captured(1) : QFileInfo(t.words.first()).fileName();
    return t;
}

QStringList CommandTemplate::expand(const QString &file, uint64_t buffer) const
{
    if (shell)
        return {QStringLiteral("/bin/sh"), QStringLiteral("-c"), substitute(text, file, buffer, true)};
    QStringList argv;
    for (const QString &word : words)
        argv << substitute(word, file, buffer, false);
    return argv;
}

QString CommandTemplate::expandedText(const QString &file, uint64_t buffer) const
{
    if (shell)
        return substitute(text, file, buffer, true);
    QStringList quoted;
    for (const QString &word : expand(file, buffer))
        quoted << shellQuoted(word);
    return quoted.join(QLatin1Char(' '));
}

} // namespace asc
