// SPDX-License-Identifier: MIT
// File > Mount… in the window: the open tar.gz is mounted read-only at a folder (through
// `archivescope-cli mount`, without blocking the window), its files readable there; Unmount All,
// and closing the window, unmount it. A folder that cannot be mounted on says why in the banner.

#include "main_window.h"
#include "open/reading_policy.h"
#include "mounts.h"
#include "test_files.h"
#include "window_waits.h"

#include <QAction>
#include <QDir>
#include <QSignalSpy>
#include <QTest>
#include <sys/stat.h>

using namespace asc;

class TestMountWindow : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QString tarball_;

private Q_SLOTS:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("ArchiveScopeTests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_mount_window"));
        ASC_REQUIRE_TOOL(QStringLiteral("fusermount3"));
        qputenv("ARCHIVESCOPE_CLI", CLI_PATH);
        test::writeFile(dir_, QStringLiteral("src/docs/a.txt"), "alpha\n");
        auto made = test::run(QStringLiteral("tar"), {QStringLiteral("czf"), dir_.filePath(QStringLiteral("t.tgz")), QStringLiteral("-C"), dir_.filePath(QStringLiteral("src")), QStringLiteral(".")});
        QCOMPARE(made.exitCode, 0);
        tarball_ = dir_.filePath(QStringLiteral("t.tgz"));
    }

    void mountThenUnmount()
    {
        const QString mnt = dir_.filePath(QStringLiteral("mnt"));
        QVERIFY(QDir().mkpath(mnt));
        {
            ui::MainWindow window;
            window.show();
            QVERIFY(test::openAndWait(window, tarball_));
            QAction *mount = window.findChild<QAction *>(QStringLiteral("mountAction"));
            QAction *unmount = window.findChild<QAction *>(QStringLiteral("unmountAction"));
            QVERIFY(mount && mount->isEnabled());
            QVERIFY(unmount && !unmount->isEnabled());
            QSignalSpy mountedAt(window.mounts(), &ui::Mounts::mountedAt);
            window.mountAt(mnt);
            QVERIFY(mountedAt.wait(30000));
            QVERIFY(test::isMountPoint(mnt));
            QFile a(mnt + QStringLiteral("/docs/a.txt"));
            QVERIFY(a.open(QIODevice::ReadOnly));
            QCOMPARE(a.readAll(), QByteArray("alpha\n"));
            a.close();
            QVERIFY(unmount->isEnabled());
            unmount->trigger();
            QVERIFY(!test::isMountPoint(mnt));
            // Mounted again, then the window closes: unmounted with it.
            window.mountAt(mnt);
            QVERIFY(mountedAt.wait(30000));
            QVERIFY(test::isMountPoint(mnt));
            window.close();
        }
        QVERIFY(!test::isMountPoint(mnt));
    }

    void aFolderThatCannotBeMountedOnSaysWhy()
    {
        ui::MainWindow window;
        window.show();
        QVERIFY(test::openAndWait(window, tarball_));
        QSignalSpy failed(window.mounts(), &ui::Mounts::failed);
        window.mountAt(dir_.filePath(QStringLiteral("no-such-folder")));
        QVERIFY(failed.wait(30000));
        QTRY_VERIFY(window.bannerText().contains(QStringLiteral("not a folder")));
    }

    // An encrypted zip mounted from the window reads with the window's password (given to the
    // mount's process on its input). Last: the password stays in this process from then on.
    void anEncryptedArchiveMountsWithTheWindowsPassword()
    {
        ASC_REQUIRE_TOOL(QStringLiteral("zip"));
        auto made = test::run(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), QStringLiteral("cd src && zip -q -r -P 'open up' ../locked.zip docs")}, 60000, dir_.path());
        QVERIFY2(made.exitCode == 0, made.err.constData());
        const QString locked = dir_.filePath(QStringLiteral("locked.zip"));
        const QString mnt = dir_.filePath(QStringLiteral("mnt-locked"));
        QVERIFY(QDir().mkpath(mnt));
        setDefaultArchivePasswords({QByteArray("open up")}); // as File > Enter Password… keeps it
        ui::MainWindow window;
        window.show();
        QVERIFY(test::openAndWait(window, locked));
        QSignalSpy mountedAt(window.mounts(), &ui::Mounts::mountedAt);
        window.mountAt(mnt);
        QVERIFY(mountedAt.wait(30000));
        QFile a(mnt + QStringLiteral("/docs/a.txt"));
        QVERIFY(a.open(QIODevice::ReadOnly));
        QCOMPARE(a.readAll(), QByteArray("alpha\n"));
        a.close();
        window.close();
        QVERIFY(!test::isMountPoint(mnt));
    }
};

QTEST_MAIN(TestMountWindow)
#include "tst_mount_window.moc"
