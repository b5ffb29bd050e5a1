// SPDX-License-Identifier: MIT
#pragma once
// A LUKS volume's key, from its metadata and a password: libcryptsetup opens the key slots (PBKDF2
// or Argon2, anti-forensic split, the key digest) in archivescope-luks-unlock, a helper of ours that
// reads the metadata and the passwords on its stdin, locks itself down before parsing anything, and
// answers the key on its stdout. A worker cannot start programs: it asks its parent, who starts
// the helper (setVolumeUnlocker). Keys opened are kept in this process's memory only, so a volume
// opened again does not pay its PBKDF again; never in argv, logs, traces or files.

#include "luks_header.h"

#include <QList>
#include <functional>

namespace asc {

// Opens a key slot of `metadata` with one of `passwords`: the volume key, or an error naming
// `name` ("wrong password" when none opens a slot).
using VolumeUnlocker = std::function<Result<QByteArray>(const QByteArray &metadata, const QList<QByteArray> &passwords, const QString &name)>;

// Replaces how keys are opened in this process (a worker: by asking its parent).
void setVolumeUnlocker(VolumeUnlocker unlocker);
// Runs the helper program from here (with no passwords: the error saying one is needed).
Result<QByteArray> unlockWithHelper(const QByteArray &metadata, const QList<QByteArray> &passwords, const QString &name);
// The default unlocker, and what a worker's parent answers: unlockWithHelper, then, where someone
// can be asked (the CLI's terminal: askForPassword), asking while no password opens it (three
// times), keeping an answer that opens it for what is opened later.
Result<QByteArray> unlockAsking(const QByteArray &metadata, const QList<QByteArray> &passwords, const QString &name);

// The key of the volume whose header is `header` at the start of `source`: from this process's
// keys, else opened with the passwords given (archivePasswords()).
Result<QByteArray> luksVolumeKey(const LuksHeader &header, const ByteSource &source);

} // namespace asc
