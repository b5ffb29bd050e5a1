// SPDX-License-Identifier: MIT
#include "pxar_truth.h"

#include "vfs/path_text.h"

#include <QFile>

namespace asc::test {

QByteArray truthEscape(const QByteArray &bytes)
{
    static const char hex[] = "0123456789abcdef";
    QByteArray out;
    const auto *p = reinterpret_cast<const unsigned char *>(bytes.constData());
    for (qsizetype i = 0; i < bytes.size();) {
        const unsigned char c = p[i];
        const int n = utf8SequenceLength(p + i, bytes.size() - i);
        if (c == '\\') {
            out += "\\\\";
            ++i;
            continue;
        }
        if (c == '\t') {
            out += "\\t";
            ++i;
            continue;
        }
        if (c == '\n') {
            out += "\\n";
            ++i;
            continue;
        }
        if (c == '\r') {
            out += "\\r";
            ++i;
            continue;
        }
        if (n == 0 || c < 0x20 || c == 0x7F) {
            out += "\\x";
            out += hex[c >> 4];
            out += hex[c & 15];
            ++i;
            continue;
        }
        out.append(reinterpret_cast<const char *>(p + i), n);
        i += n;
    }
    return out;
}

static const char *kindName(pxar::Kind k)
{
    switch (k) {
    case pxar::Kind::Directory: return "dir";
    case pxar::Kind::File: return "file";
    case pxar::Kind::Symlink: return "symlink";
    case pxar::Kind::Hardlink: return "hardlink";
    case pxar::Kind::CharDevice: return "chardev";
    case pxar::Kind::BlockDevice: return "blockdev";
    case pxar::Kind::Fifo: return "fifo";
    case pxar::Kind::Socket: return "socket";
    }
    return "?";
}

static QByteArray perm(uint64_t p)
{
    return p == pxar::kNoMask ? QByteArray("-") : QByteArray::number(qulonglong(p), 8);
}

QByteArray listLine(const pxar::PxarEntry &e)
{
    QList<QByteArray> f;
    f << truthEscape(e.path) << kindName(e.kind);
    if (e.kind == pxar::Kind::Hardlink) {
        f << "-"
          << "-"
          << "-"
          << "-"
          << "-"
          << "-" << truthEscape(e.target) << "hl_offset:" + QByteArray::number(qulonglong(e.hardlinkOffset));
        return f.join('\t');
    }
    f << QByteArray::number(qulonglong(e.mode & 07777), 8).rightJustified(4, '0');
    f << QByteArray::number(e.uid) << QByteArray::number(e.gid);
    f << QByteArray::number(qlonglong(e.mtimeSecs)) + "." + QByteArray::number(e.mtimeNanos).rightJustified(9, '0');
    f << (e.kind == pxar::Kind::File ? QByteArray::number(qulonglong(e.size)) : QByteArray("-"));
    f << QByteArray::number(qulonglong(e.flags), 16);
    if (e.kind == pxar::Kind::Symlink)
        f << truthEscape(e.target);
    else if (e.kind == pxar::Kind::CharDevice || e.kind == pxar::Kind::BlockDevice)
        f << QByteArray::number(qulonglong(e.deviceMajor)) + ":" + QByteArray::number(qulonglong(e.deviceMinor));
    else
        f << "-";
    QList<QByteArray> extra;
    for (const auto &[name, value] : e.xattrs)
        extra << "xattr:" + truthEscape(name).replace(";", "\\x3b").replace("=", "\\x3d") + "=" + value.toHex();
    for (const auto &a : e.aclUsers)
        extra << "acl.user:" + QByteArray::number(qulonglong(a.id)) + ":" + perm(a.permissions);
    for (const auto &a : e.aclGroups)
        extra << "acl.group:" + QByteArray::number(qulonglong(a.id)) + ":" + perm(a.permissions);
    if (e.aclGroupObj)
        extra << "acl.group_obj:" + perm(*e.aclGroupObj);
    if (e.aclDefault)
        extra << "acl.default:" + perm((*e.aclDefault)[0]) + "," + perm((*e.aclDefault)[1]) + "," + perm((*e.aclDefault)[2]) + "," + perm((*e.aclDefault)[3]);
    for (const auto &a : e.aclDefaultUsers)
        extra << "acl.default_user:" + QByteArray::number(qulonglong(a.id)) + ":" + perm(a.permissions);
    for (const auto &a : e.aclDefaultGroups)
        extra << "acl.default_group:" + QByteArray::number(qulonglong(a.id)) + ":" + perm(a.permissions);
    if (!e.fcaps.isEmpty())
        extra << "fcaps:" + e.fcaps.toHex();
    if (e.projid)
        extra << "projid:" + QByteArray::number(qulonglong(*e.projid));
    f << (extra.isEmpty() ? QByteArray("-") : extra.join(';'));
    return f.join('\t');
}

QByteArray offsetsLine(const pxar::PxarEntry &e)
{
    QList<QByteArray> f;
    f << truthEscape(e.path) << kindName(e.kind);
    f << (e.filenameOffset ? QByteArray::number(qulonglong(*e.filenameOffset)) : QByteArray("-"));
    f << QByteArray::number(qulonglong(e.entryStart)) << QByteArray::number(qulonglong(e.entryEnd));
    if (e.kind == pxar::Kind::File)
        f << (e.contentInPayloadFile ? "payload:" + QByteArray::number(qulonglong(e.contentOffset + 16)) : "archive:" + QByteArray::number(qulonglong(e.contentOffset))) +
                 "+" + QByteArray::number(qulonglong(e.size));
    else
        f << "-";
    return f.join('\t');
}

QList<QByteArray> truthLines(const QString &path, QList<QByteArray> *comments)
{
    QFile file(path);
    QList<QByteArray> lines;
    if (!file.open(QIODevice::ReadOnly))
        return lines;
    for (const QByteArray &line : file.readAll().split('\n')) {
        if (line.isEmpty())
            continue;
        if (line.startsWith('#')) {
            if (comments)
                *comments << line;
            continue;
        }
        lines << line;
    }
    return lines;
}

} // namespace asc::test
