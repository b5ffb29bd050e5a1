// SPDX-License-Identifier: MIT
#pragma once
// A format: a cheap probe by content and an open. Container formats yield entries; image formats
// (qcow2, ...) yield a virtual disk, which is probed again (images are transparent in SPECs).

#include "vfs/container.h"

#include <QStringList>
#include <functional>
#include <vector>

namespace asc {

// What a probe sees: the source and its first bytes (up to kProbeBytes).
struct ProbeInput {
    const SourcePtr &source;
    std::span<const char> head;
    // The first, short pass: only magic in the head counts; probes that read the source more
    // widely (libarchive's bidders, The Sleuth Kit) wait for the full pass.
    bool quick = false;
};
inline constexpr size_t kProbeBytes = 64 * 1024;
// A probe score at or above this is magic at a fixed offset: later formats are not probed.
inline constexpr int kConclusiveScore = 90;

// What a file reads beside itself, so the parent grants it to the file's worker
// (remote/file_requests.h).
struct BesideFiles {
    bool folder = false; // files in its folder or below (a qcow2's backing file, a VMDK's extents)
    QString companion; // one file named after it (a split pxar's .ppxar beside its .mpxar)
};
// How many first bytes `Format::beside` is given.
inline constexpr size_t kBesideHeadBytes = 4096;

struct Format {
    QString name; // as `formats` prints it
    QString description; // one line
    QStringList mimeTypes;
    // File name suffixes without the dot ("tgz", "qcow2"): the Open dialog's filter and the tree's
    // "can be expanded in place" guess read them (the content decides when it is opened).
    QStringList suffixes;
    // The lines `formats` prints for this format, when it covers several (libarchive does).
    std::vector<std::pair<QString, QString>> variants;
    // 0: not this format; 1..100: confidence (magic at a fixed offset is 90+).
    std::function<int(const ProbeInput &)> probe;
    // Exactly one of the two is set.
    std::function<Result<ContainerPtr>(SourcePtr)> openContainer;
    std::function<Result<SourcePtr>(SourcePtr)> openImage;
    // What a file of this format reads beside itself, from its first bytes (up to
    // kBesideHeadBytes) and its path only: the parent asks this before any parse, so it compares
    // bytes and names, nothing more. Unset: nothing beside it.
    std::function<BesideFiles(std::span<const char> head, const QString &path)> beside;
};

// What the file at `path`, starting with `head`, reads beside itself, as its format declares.
BesideFiles besideFilesOf(std::span<const char> head, const QString &path);

// Every format, in the order `formats` lists them. Built once, thread safe to read.
const std::vector<Format> &registeredFormats();

// The best-matching format for a source, or nullptr when nothing claims it.
Result<const Format *> probeFormat(const SourcePtr &source);
// Whether a file name ends in a suffix some format declares (a guess: opening decides).
bool nameSuggestsContainer(QByteArrayView name);
// Every declared suffix as a glob ("*.tgz"), for file dialogs.
QStringList containerNameGlobs();

// Probes and opens a container; unwraps disk images on the way (a qcow2 holding a GPT disk
// opens as the GPT container). Error when nothing recognises the content.
Result<ContainerPtr> openContainer(SourcePtr source);
// Unwraps disk images only: the virtual disk of an image, else the source itself.
Result<SourcePtr> unwrapImages(SourcePtr source);

} // namespace asc
