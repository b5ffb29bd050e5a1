// SPDX-License-Identifier: MIT
// The installed application, as a user gets it: build the .deb with CPack, unpack it into a
// temporary root, validate the .desktop file and the AppStream metainfo, install the MIME XML
// into that root and check .pxar and .qcow2 files resolve to our types there, and start the
// installed binary (offscreen) with one file and with two.

#include "test_files.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QMimeDatabase>
#include <QProcessEnvironment>
#include <QTest>

using namespace asc;

class TestPackage : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QString root_;
    QString deb_;
    QString ddeb_;

private Q_SLOTS:
    void initTestCase()
    {
        for (const char *tool : {"cpack", "dpkg-deb", "desktop-file-validate", "appstreamcli", "update-mime-database", "lintian", "man", "bash"})
            if (!test::haveTool(QString::fromLatin1(tool)))
                QFAIL(qPrintable(QStringLiteral("%1 not installed (scripts/setup.sh installs it)").arg(QLatin1String(tool))));
        const QString packages = dir_.filePath(QStringLiteral("packages"));
        auto built = test::run(QStringLiteral("cpack"), {QStringLiteral("-G"), QStringLiteral("DEB"), QStringLiteral("-B"), packages, QStringLiteral("--config"), QStringLiteral(BUILD_DIR "/CPackConfig.cmake")}, 600000, QStringLiteral(BUILD_DIR));
        QVERIFY2(built.exitCode == 0, (built.out + built.err).constData());
        const QStringList debs = QDir(packages).entryList({QStringLiteral("*.deb")});
        QCOMPARE(debs.size(), 1);
        const QString deb = packages + QLatin1Char('/') + debs.first();
        deb_ = deb;
        const QStringList ddebs = QDir(packages).entryList({QStringLiteral("*.ddeb")});
        QCOMPARE(ddebs.size(), 1); // the debug symbols, split out
        ddeb_ = packages + QLatin1Char('/') + ddebs.first();
        auto control = test::run(QStringLiteral("dpkg-deb"), {QStringLiteral("-f"), deb, QStringLiteral("Depends")});
        QVERIFY2(control.out.contains("libqt6") && control.out.contains("libarchive"), control.out.constData()); // computed by shlibdeps
        auto scripts = test::run(QStringLiteral("dpkg-deb"), {QStringLiteral("-I"), deb});
        QVERIFY(scripts.out.contains("postinst"));
        root_ = dir_.filePath(QStringLiteral("root"));
        QCOMPARE(test::run(QStringLiteral("dpkg-deb"), {QStringLiteral("-x"), deb, root_}).exitCode, 0);
    }

    void desktopAndMetainfoValidate()
    {
        const QString desktop = root_ + QStringLiteral("/usr/share/applications/io.github.archivescope.archivescope.desktop");
        auto d = test::run(QStringLiteral("desktop-file-validate"), {desktop});
        QVERIFY2(d.exitCode == 0 && !d.out.contains("error"), (d.out + d.err).constData());
        QFile file(desktop);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray text = file.readAll();
        QVERIFY(text.contains("Exec=archivescope %F"));
        for (const char *type : {"application/x-qemu-disk", "application/x-proxmox-pxar", "application/zip", "application/x-compressed-tar"})
            QVERIFY2(text.contains(type), type);
        auto m = test::run(QStringLiteral("appstreamcli"), {QStringLiteral("validate"), QStringLiteral("--pedantic"), QStringLiteral("--no-net"),
                                                            root_ + QStringLiteral("/usr/share/metainfo/io.github.archivescope.archivescope.metainfo.xml")});
        QVERIFY2(m.exitCode == 0 && !m.out.contains("P: ") && !m.out.contains("I: ") && !m.out.contains("W: "), (m.out + m.err).constData());
        QVERIFY(QFile::exists(root_ + QStringLiteral("/usr/share/icons/hicolor/scalable/apps/archivescope.svg")));
        QVERIFY(QFile::exists(root_ + QStringLiteral("/usr/share/icons/hicolor/48x48/apps/archivescope.png")));
        QVERIFY(QFile::exists(root_ + QStringLiteral("/usr/share/archivescope/sample.tar.gz")));
    }

    void lintianIsClean()
    {
        // Debian's checker: no errors and no warnings (informational tags are allowed; the ones
        // left are named in README's Development section).
        auto l = test::run(QStringLiteral("lintian"), {QStringLiteral("--pedantic"), QStringLiteral("--allow-root"), deb_, ddeb_}, 600000);
        QList<QByteArray> bad;
        for (const QByteArray &line : (l.out + l.err).split('\n')) {
            if (line.startsWith("E: ") || line.startsWith("W: ") || line.startsWith("P: "))
                bad << line;
        }
        QVERIFY2(bad.isEmpty(), bad.join('\n').constData());
        // Stripped: the symbols live in the dbgsym package under the binaries' build ids.
        auto file = test::run(QStringLiteral("file"), {root_ + QStringLiteral("/usr/bin/archivescope-cli")});
        QVERIFY2(file.out.contains("stripped") && !file.out.contains("not stripped"), file.out.constData());
        auto contents = test::run(QStringLiteral("dpkg-deb"), {QStringLiteral("-c"), ddeb_});
        QVERIFY2(contents.out.contains("./usr/lib/debug/.build-id/"), contents.out.constData());
        QVERIFY(QFile::exists(root_ + QStringLiteral("/usr/share/doc/archivescope/copyright")));
        QVERIFY(QFile::exists(root_ + QStringLiteral("/usr/share/doc/archivescope/changelog.gz")));
    }

    void manPagesShow()
    {
        for (const char *page : {"archivescope-cli", "archivescope"}) {
            const QString path = root_ + QStringLiteral("/usr/share/man/man1/%1.1.gz").arg(QLatin1String(page));
            QVERIFY2(QFile::exists(path), page);
            QProcess man;
            QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
            env.insert(QStringLiteral("MANWIDTH"), QStringLiteral("100"));
            man.setProcessEnvironment(env);
            man.start(QStringLiteral("man"), {QStringLiteral("-l"), path});
            QVERIFY(man.waitForFinished(30000));
            const QByteArray text = man.readAllStandardOutput();
            QVERIFY2(text.contains("NAME") && text.contains(page), text.constData());
            if (QByteArray(page) == "archivescope-cli") {
                // Every command's own --help is in it, so the page cannot drift from the binary.
                for (const char *section : {"COMMANDS", "EXIT STATUS", "--charset", "--skip-existing", "--strategy"})
                    QVERIFY2(text.contains(section), section);
            }
        }
    }

    void bashCompletes()
    {
        const QString completion = root_ + QStringLiteral("/usr/share/bash-completion/completions/archivescope-cli");
        QVERIFY(QFile::exists(completion));
        // Runs the completion function as bash would for a partly typed line; prints COMPREPLY.
        auto complete = [&](const QString &line) {
            const QString script = QStringLiteral(
                "source /usr/share/bash-completion/bash_completion; source \"$1\"; "
                "CLI=\"$2\"; archivescope-cli() { \"$CLI\" \"$@\"; }; "
                "COMP_LINE=\"$3\"; COMP_POINT=${#COMP_LINE}; eval \"COMP_WORDS=($3)\"; "
                "[[ $3 == *' ' ]] && COMP_WORDS+=(''); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); "
                "_archivescope_cli; printf '%s\\n' \"${COMPREPLY[@]}\"");
            return test::run(QStringLiteral("bash"), {QStringLiteral("-c"), script, QStringLiteral("bash"), completion, QStringLiteral(CLI_PATH), line},
                             60000, dir_.path())
                .out;
        };
        const QByteArray commands = complete(QStringLiteral("archivescope-cli "));
        for (const char *command : {"ls", "cat", "extract", "bench", "writebench"})
            QVERIFY2(commands.split('\n').contains(command), commands.constData());
        QVERIFY2(complete(QStringLiteral("archivescope-cli ex")).trimmed() == "extract", "a prefix completes");
        const QByteArray options = complete(QStringLiteral("archivescope-cli extract --ov"));
        QCOMPARE(options.trimmed(), QByteArray("--overwrite"));
        const QByteArray strategies = complete(QStringLiteral("archivescope-cli bench x --strategy uring-"));
        QVERIFY2(strategies.contains("uring-qd4") && strategies.contains("uring-qd16"), strategies.constData());
        // Inside an archive, after "!/": its entries.
        QVERIFY(QFile::copy(QStringLiteral(TEST_DATA_DIR "/pxar/tiny.pxar"), dir_.filePath(QStringLiteral("tiny.pxar"))));
        const QByteArray entries = complete(QStringLiteral("archivescope-cli cat tiny.pxar!/"));
        QVERIFY2(entries.startsWith("tiny.pxar!/"), entries.constData());
    }

    void sampleIsReproducible()
    {
        QFile sample(root_ + QStringLiteral("/usr/share/archivescope/sample.tar.gz"));
        QVERIFY(sample.open(QIODevice::ReadOnly));
        const QByteArray bytes = sample.readAll();
        QVERIFY(bytes.size() > 18);
        QCOMPARE(bytes.mid(4, 4), QByteArray(4, '\0')); // no timestamp in the gzip header
        QCOMPARE(uint8_t(bytes[3]) & 0x08, 0); // nor a file name
        auto listing = test::runCli({QStringLiteral("ls"), QStringLiteral("--json"), sample.fileName() + QStringLiteral("!/")});
        QCOMPARE(listing.exitCode, 0);
        for (const QByteArray &line : listing.out.trimmed().split('\n')) {
            QVERIFY2(line.contains("\"mtime\":1796083200") && line.contains("\"uid\":0,\"gid\":0"), line.constData());
        }
    }

    void mimeTypesResolve()
    {
        // The system's base types plus ours, compiled into the unpacked root.
        const QString packages = root_ + QStringLiteral("/usr/share/mime/packages");
        QVERIFY(QFile::exists(packages + QStringLiteral("/archivescope.xml")));
        QVERIFY(QFile::copy(QStringLiteral("/usr/share/mime/packages/freedesktop.org.xml"), packages + QStringLiteral("/freedesktop.org.xml")));
        QCOMPARE(test::run(QStringLiteral("update-mime-database"), {root_ + QStringLiteral("/usr/share/mime")}).exitCode, 0);
        // Ask a process that sees only that root which types the files have.
        const QString pxar = QStringLiteral(TEST_DATA_DIR "/pxar/tiny.pxar");
        const QString renamed = dir_.filePath(QStringLiteral("no-extension"));
        QFile::copy(pxar, renamed); // content alone must be enough
        QProcess probe;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("XDG_DATA_DIRS"), root_ + QStringLiteral("/usr/share"));
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        probe.setProcessEnvironment(env);
        probe.start(QStringLiteral(CLI_PATH), {QStringLiteral("mime-type"), pxar, QStringLiteral(TEST_DATA_DIR "/images/gpt.v3.qcow2"), renamed});
        QVERIFY(probe.waitForFinished(20000));
        const QList<QByteArray> lines = probe.readAllStandardOutput().trimmed().split('\n');
        QCOMPARE(lines.size(), 3);
        QVERIFY2(lines[0].endsWith("application/x-proxmox-pxar"), lines[0].constData());
        QVERIFY2(lines[1].endsWith("application/x-qemu-disk"), lines[1].constData());
        QVERIFY2(lines[2].endsWith("application/x-proxmox-pxar"), lines[2].constData());
    }

    void installedCliBenchmarksAndCharts()
    {
        // The installed CLI measures in its worker and draws with archivescope-chart, both found
        // in the package's libexec folder from the binary's.
        const QString cli = root_ + QStringLiteral("/usr/bin/archivescope-cli");
        QVERIFY(QFileInfo(root_ + QStringLiteral("/usr/libexec/archivescope/archivescope-chart")).isExecutable());
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("ARCHIVESCOPE_WORKER"));
        env.remove(QStringLiteral("ARCHIVESCOPE_CHART"));
        const QString data = test::writeFile(dir_, QStringLiteral("chart-data.bin"), test::seededBytes(1 << 20, 3));
        const QString json = dir_.filePath(QStringLiteral("chart.json"));
        const QString png = dir_.filePath(QStringLiteral("chart.png"));
        for (const QStringList &args : {QStringList{QStringLiteral("bench"), data, QStringLiteral("--strategy"), QStringLiteral("read"), QStringLiteral("--sizes"),
                                                    QStringLiteral("64K"), QStringLiteral("--runs"), QStringLiteral("1"), QStringLiteral("--json"), json},
                                        QStringList{QStringLiteral("chart"), json, QStringLiteral("-o"), png}}) {
            QProcess run;
            run.setProcessEnvironment(env);
            run.start(cli, args);
            QVERIFY(run.waitForFinished(60000));
            QVERIFY2(run.exitStatus() == QProcess::NormalExit && run.exitCode() == 0, run.readAllStandardError().constData());
        }
        QFile chart(png);
        QVERIFY(chart.open(QIODevice::ReadOnly));
        QVERIFY(chart.read(8).startsWith("\x89PNG"));
    }

    void installedBinaryOpensFiles()
    {
        const QString binary = root_ + QStringLiteral("/usr/bin/archivescope");
        QVERIFY(QFile::exists(binary));
        // Each file is parsed by the installed worker, found from the binary's folder.
        QVERIFY(QFileInfo(root_ + QStringLiteral("/usr/libexec/archivescope/archivescope-worker")).isExecutable());
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("ARCHIVESCOPE_WORKER"));
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        // Its own settings: the user's recent files stay untouched, and no other process's
        // settings lock can hold this one up.
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), dir_.filePath(QStringLiteral("config")));
        for (const QStringList &files : {QStringList{QStringLiteral(TEST_DATA_DIR "/pxar/tiny.pxar")},
                                         QStringList{QStringLiteral(TEST_DATA_DIR "/pxar/tiny.pxar"), QStringLiteral(TEST_DATA_DIR "/images/gpt.v3.qcow2")}}) {
            QProcess app;
            app.setProcessEnvironment(env);
            app.start(binary, QStringList{QStringLiteral("--exit-after-open")} + files);
            if (!app.waitForFinished(60000)) {
                // Say where it stands before failing: its output so far and, with gdb, its threads.
                QByteArray stacks;
                if (test::haveTool(QStringLiteral("gdb")))
                    stacks = test::run(QStringLiteral("gdb"), {QStringLiteral("-batch"), QStringLiteral("-p"), QString::number(app.processId()), QStringLiteral("-ex"), QStringLiteral("thread apply all bt")}, 60000).out;
                QFAIL(qPrintable(QStringLiteral("still running after 60 s; output: %1\n%2")
                                     .arg(QString::fromUtf8(app.readAllStandardOutput() + app.readAllStandardError()), QString::fromUtf8(stacks))));
            }
            const QByteArray out = app.readAllStandardOutput();
            for (const QString &f : files)
                QVERIFY2(out.contains("opened " + f.toUtf8()), out.constData());
        }
    }
};

QTEST_GUILESS_MAIN(TestPackage)
#include "tst_package.moc"
