// SPDX-License-Identifier: MIT
#pragma once
// The sequential pxar decoder: reads an archive front to back (never seeks back) and yields every
// entry in archive order with its full path; file content can be read as it passes. Driven by a
// SequentialInput: sync (buffered stream) or async (read-ahead). Split archives read their payload
// file front to back alongside. Not thread safe; blocks on its inputs.

#include "pxar_items.h"

namespace asc::pxar {

class Decoder {
public:
    // `payload` is the .ppxar input for a split archive, else null.
    Decoder(std::unique_ptr<SequentialInput> archive, std::unique_ptr<SequentialInput> payload);

    // The next entry (the root first), or nullopt after the root's GOODBYE.
    Result<std::optional<PxarEntry>> next();
    // Content of the file entry just returned (0 at its end); unread content is skipped by next().
    Result<size_t> readContent(std::span<char> out);
    // The same content as views into the input's buffer (no copy); empty at its end.
    Result<std::span<const char>> readContentView(size_t max);

    uint64_t formatVersion() const { return version_; }
    const QByteArray &prelude() const { return prelude_; }
    const SequentialInput &archive() const { return *archive_; }

private:
    Result<void> start(PxarEntry &root);
    Result<void> finishPendingContent();
    Result<void> openPayload(const PxarEntry &file);

    std::unique_ptr<SequentialInput> archive_;
    std::unique_ptr<SequentialInput> payload_;
    std::vector<QByteArray> directories_; // paths of the open directories
    std::optional<Header> pending_; // a header read ahead that belongs to a directory
    bool started_ = false;
    bool finished_ = false;
    uint64_t version_ = 1;
    QByteArray prelude_;
    SequentialInput *contentInput_ = nullptr;
    uint64_t contentLeft_ = 0;
};

} // namespace asc::pxar
