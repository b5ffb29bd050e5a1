// SPDX-License-Identifier: MIT
#pragma once
// The window's mounts (File > Mount…): each is `archivescope-cli mount SPEC DIR` in a process of
// its own (the FUSE side; the parsing is in that command's worker), started without waiting;
// unmounted with fusermount3 when asked or when the window closes.

#include <QObject>
#include <QStringList>

namespace asc::ui {

class Mounts : public QObject {
    Q_OBJECT
public:
    explicit Mounts(QObject *parent = nullptr);
    ~Mounts() override; // unmounts what is still mounted

    // Starts mounting `spec` at `dir`: mounted() or failed() follows.
    void mount(const QString &spec, const QString &dir);
    // Unmounts every mount of this window (blocks for fusermount3, a short wait).
    void unmountAll();
    QStringList mounted() const { return dirs_; }

Q_SIGNALS:
    void mountedAt(const QString &spec, const QString &dir);
    void failed(const QString &spec, const QString &why);
    void changed();

private:
    QStringList dirs_;
};

} // namespace asc::ui
