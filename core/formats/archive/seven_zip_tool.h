// SPDX-License-Identifier: MIT
#pragma once
// An encrypted 7z (AES-256: names too, or contents only), read through 7-Zip's 7zz in its jail
// (sandbox/tool_run.h), as Ark's cli7z does: Debian 12's libarchive cannot decrypt 7z. The
// passwords are archivePasswords(), tried in turn; the first that opens the archive (its listing,
// or its smallest encrypted file, CRC and all) is kept for this archive. Every file read is
// checked against the size and CRC 7-Zip listed and against how 7zz ended: a wrong password or
// damaged data is an error naming the entry, never bytes. A plain 7z stays with libarchive.

#include "seven_zip_listing.h"
#include "vfs/container.h"

#include <mutex>

namespace asc {

class SevenZipToolContainer final : public Container {
public:
    // `source` must be a file's bytes from its start (what 7zz is given is that file).
    static Result<ContainerPtr> open(SourcePtr source);

    QString formatName() const override { return QStringLiteral("7z"); }
    Result<void> list(const EntrySink &sink) override;
    Result<void> walk(const ContentSink &sink) override;
    Result<SourcePtr> open(const Entry &entry) override;
    QJsonObject info() const override;
    const SourcePtr &source() const override { return source_; }

private:
    SevenZipToolContainer(SourcePtr source, QByteArray path);
    Result<void> load();
    // The password that opens the archive's content: confirmed once on its smallest encrypted file.
    // `what` (the entry asked for) is what a missing or wrong password's error names.
    Result<QByteArray> contentPassword(const QString &what);
    QString entryName(const Entry &entry) const;

    SourcePtr source_;
    QByteArray path_; // the file 7zz reads
    bool namesEncrypted_ = false;
    SevenZipListing listing_;
    mutable std::mutex mutex_;
    std::optional<QByteArray> password_; // the one that works, once known (empty: none needed)
};

// Whether a 7z needs 7zz: its header is encrypted, or an entry is (libarchive says so); with
// `namesOnly`, only whether its header (the names) is encrypted, the entries not looked at.
bool sevenZipNeedsTool(const SourcePtr &source, bool *namesEncrypted = nullptr, bool namesOnly = false);

} // namespace asc
