// SPDX-License-Identifier: MIT
#include "entry_format.h"

#include "vfs/path_text.h"

#include <cstdio>
#include <charconv>
#include <cstring>
#include <ctime>

namespace asc::cli {

void appendJsonString(QByteArray &out, const QByteArray &utf8)
{
    static const char hex[] = "0123456789abcdef";
    out += '"';
    for (char ch : utf8) {
        const auto c = static_cast<unsigned char>(ch);
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        case '\b': out += "\\b"; break;
        case '\f': out += "\\f"; break;
        default:
            if (c < 0x20 || c == 0x7f) {
                out += "\\u00";
                out += hex[c >> 4];
                out += hex[c & 15];
            } else {
                out += ch;
            }
        }
    }
    out += '"';
}

static void appendText(QByteArray &out, const char *key, const QByteArray &raw, bool withHex)
{
    out += ",\"";
    out += key;
    out += "\":";
    const bool valid = isValidUtf8(raw);
    appendJsonString(out, valid ? raw : pathText(raw).toUtf8());
    if (withHex && !valid) {
        out += ",\"";
        out += key;
        out += "_hex\":\"";
        out += raw.toHex();
        out += '"';
    }
}

// floor(mtime) in whole seconds: our (sec, nsec) pair already is floor for negative times.
void appendEntryJson(QByteArray &out, const Entry &entry, const QByteArray &path)
{
    out += "{\"path\":";
    const bool valid = isValidUtf8(path);
    appendJsonString(out, valid ? path : pathText(path).toUtf8());
    if (!valid) {
        out += ",\"path_hex\":\"";
        out += path.toHex();
        out += '"';
    }
    // The numeric middle of the object in one snprintf: this runs once per entry.
    char numbers[256];
    const bool hasContent = entry.type == EntryType::File || entry.type == EntryType::Partition;
    const unsigned long long size = hasContent && entry.size != kUnknown ? entry.size : 0;
    // A size the format does not record is null, never 0 (CLI.md).
    char sizeText[24];
    if (hasContent && entry.size == kUnknown)
        std::memcpy(sizeText, "null", 5);
    else
        snprintf(sizeText, sizeof sizeText, "%llu", size);
    int n;
    if (entry.hasMtime)
        n = snprintf(numbers, sizeof numbers, ",\"type\":\"%s\",\"size\":%s,\"mode\":%u,\"mtime\":%lld,\"uid\":%u,\"gid\":%u,\"target\":",
                     entryTypeName(entry.type).toLatin1().constData(), sizeText, entry.mode & 07777, (long long)entry.mtime, entry.uid, entry.gid);
    else
        n = snprintf(numbers, sizeof numbers, ",\"type\":\"%s\",\"size\":%s,\"mode\":%u,\"mtime\":null,\"uid\":%u,\"gid\":%u,\"target\":",
                     entryTypeName(entry.type).toLatin1().constData(), sizeText, entry.mode & 07777, entry.uid, entry.gid);
    out.append(numbers, std::min<int>(n, int(sizeof numbers) - 1));
    if (entry.type == EntryType::Symlink || entry.type == EntryType::Hardlink) {
        const bool targetValid = isValidUtf8(entry.target);
        appendJsonString(out, targetValid ? entry.target : pathText(entry.target).toUtf8());
        if (!targetValid) {
            out += ",\"target_hex\":\"";
            out += entry.target.toHex();
            out += '"';
        }
    } else {
        out += "null";
    }
    if (entry.hasMtime) {
        n = snprintf(numbers, sizeof numbers, ",\"mtime_nsec\":%u", entry.mtimeNsec);
        out.append(numbers, n);
    }
    if (!entry.uname.isEmpty())
        appendText(out, "uname", entry.uname, false);
    if (!entry.gname.isEmpty())
        appendText(out, "gname", entry.gname, false);
    if (entry.type == EntryType::CharDev || entry.type == EntryType::BlockDev) {
        n = snprintf(numbers, sizeof numbers, ",\"rdev_major\":%u,\"rdev_minor\":%u", entry.rdevMajor, entry.rdevMinor);
        out.append(numbers, n);
    }
    if (entry.compressedSize != kUnknown)
        out += ",\"compressed_size\":" + QByteArray::number(entry.compressedSize);
    if (entry.dataOffset != kUnknown) {
        n = snprintf(numbers, sizeof numbers, ",\"offset\":%llu", (unsigned long long)entry.dataOffset);
        out.append(numbers, n);
    }
    if (!entry.detail.isEmpty())
        appendText(out, "detail", entry.detail, false);
    if (entry.encrypted)
        out += ",\"encrypted\":true";
    if (entry.unsafePath)
        out += ",\"unsafe_path\":true";
    if (!entry.problem.isEmpty())
        appendText(out, "unreadable", entry.problem, false);
    out += "}\n";
}

// Lines are one entry each: what is not printable UTF-8 appears as \xNN (CLI.md).
static void appendEscaped(QByteArray &out, const QByteArray &bytes)
{
    for (char ch : bytes) {
        const auto c = static_cast<unsigned char>(ch);
        if (c < 0x20 || c >= 0x7f || c == '\\') {
            out += escapeForTerminal(bytes);
            return;
        }
    }
    out += bytes;
}

void appendEntryText(QByteArray &out, const Entry &entry, const QByteArray &path)
{
    // Formatted into a stack buffer: this runs once per entry of 200k-entry archives.
    static thread_local int64_t cachedMinute = INT64_MIN;
    static thread_local char cachedWhen[32];
    char when[32] = "                ";
    if (entry.hasMtime) {
        const int64_t minute = entry.mtime >= 0 ? entry.mtime / 60 : -((-entry.mtime + 59) / 60);
        if (minute != cachedMinute) {
            const time_t t = time_t(minute * 60);
            struct tm parts {};
            cachedWhen[0] = 0;
            if (gmtime_r(&t, &parts))
                strftime(cachedWhen, sizeof cachedWhen, "%Y-%m-%d %H:%M", &parts);
            cachedMinute = minute;
        }
        memcpy(when, cachedWhen, sizeof when);
    }
    // Columns written by hand (no printf): "PERMS OWNER(16, left) SIZE(12, right) WHEN ".
    auto pad = [&out](std::string_view text, size_t width, bool right) {
        const size_t fill = text.size() < width ? width - text.size() : 0;
        if (right)
            out.append(qsizetype(fill), ' ');
        out.append(text.data(), qsizetype(text.size()));
        if (!right)
            out.append(qsizetype(fill), ' ');
    };
    auto number = [](char *buffer, uint64_t value) { return std::string_view(buffer, size_t(std::to_chars(buffer, buffer + 24, value).ptr - buffer)); };
    char uid[24], gid[24];
    QByteArray owner;
    owner.reserve(40);
    owner += entry.uname.isEmpty() ? QByteArray(number(uid, entry.uid).data(), qsizetype(number(uid, entry.uid).size())) : entry.uname;
    owner += '/';
    owner += entry.gname.isEmpty() ? QByteArray(number(gid, entry.gid).data(), qsizetype(number(gid, entry.gid).size())) : entry.gname;
    const bool hasContent = entry.type == EntryType::File || entry.type == EntryType::Partition;
    char sizeBuffer[24];
    const std::string_view sizeText =
        hasContent && entry.size == kUnknown ? std::string_view("?") // the format does not record it
                                             : number(sizeBuffer, hasContent ? entry.size : 0);
    out += permissionText(entry.type, entry.mode).toLatin1();
    out += ' ';
    pad(std::string_view(owner.constData(), size_t(owner.size())), 16, false);
    out += ' ';
    pad(sizeText, 12, true);
    out += ' ';
    out.append(when, qsizetype(std::strlen(when)));
    out += ' ';
    appendEscaped(out, path);
    if (entry.type == EntryType::Symlink) {
        out += " -> ";
        appendEscaped(out, entry.target);
    } else if (entry.type == EntryType::Hardlink) {
        out += " link to ";
        appendEscaped(out, entry.target);
    }
    if (!entry.problem.isEmpty()) {
        out += " (unreadable: ";
        appendEscaped(out, entry.problem);
        out += ')';
    }
    if (entry.encrypted)
        out += " (encrypted)";
    if (!entry.detail.isEmpty())
        out += "  [" + entry.detail + "]";
    out += '\n';
}

} // namespace asc::cli
