// SPDX-License-Identifier: MIT
// LUKS1 and LUKS2 against what cryptsetup wrote (tests/data/disks/make_luks.sh): Ubuntu's
// "encrypt + LVM" disk (GPT, ESP, /boot, LUKS2 with argon2id and 4096-byte sectors holding an LVM
// volume group whose root volume is ext4) read down to every file, and an old Debian LUKS1 volume
// (AES-CBC-ESSIV). Every file against what went in; passwords from ARCHIVESCOPE_PASSWORD and
// --password-file (tried in turn, the second key slot too); without a password or with a wrong
// one an error naming the volume and never bytes; the password never in what we print; the
// header described without a password; damage as errors.

#include "fixtures.h"
#include "test_files.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace asc;

class TestLuks : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QString ubuntu_, old_;
    QByteArray uuid_;

    QString unpack(const QString &name, const QString &packed) { return test::unpackDisk(dir_, packed, name); }
    static QList<QByteArrayList> tsv(const QString &name) { return test::diskTruth(name); }

    QString passwordFile(const QString &name, const QByteArray &lines)
    {
        const QString path = dir_.filePath(name);
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly) || f.write(lines) != lines.size())
            return {};
        return path;
    }

private Q_SLOTS:
    void initTestCase()
    {
        ASC_REQUIRE_TOOL(QStringLiteral("xz"));
        qunsetenv("ARCHIVESCOPE_PASSWORD");
        ubuntu_ = unpack(QStringLiteral("luks-ubuntu.raw"), QStringLiteral("luks-ubuntu.raw.xz"));
        old_ = unpack(QStringLiteral("luks1-cbc.img"), QStringLiteral("luks1-cbc.img.xz"));
        QVERIFY(!ubuntu_.isEmpty() && !old_.isEmpty());
        QFile uuid(test::dataPath(QStringLiteral("disks/luks-ubuntu.uuid.txt")));
        QVERIFY(uuid.open(QIODevice::ReadOnly));
        uuid_ = uuid.readAll().trimmed();
        QCOMPARE(uuid_.size(), 36);
    }

    void anUbuntuDiskReadsDownToEveryFile()
    {
        // The partition says what it holds; once unlocked its volume group lists like any other.
        auto parts = test::runCli({QStringLiteral("ls"), ubuntu_});
        QVERIFY2(parts.out.contains("p3  [") && parts.out.contains("LUKS2 encrypted volume"), parts.out.constData());
        auto ls = test::runCliWithPassword({QStringLiteral("ls"), ubuntu_ + QStringLiteral("!/p3")}, "ubuntu pass");
        QVERIFY2(ls.exitCode == 0, ls.err.constData());
        QVERIFY2(ls.out.contains("ubuntu-vg/ubuntu-lv  [LVM logical volume (linear), ext4]"), ls.out.constData());
        int compared = 0;
        for (const QByteArrayList &row : tsv(QStringLiteral("luks-ubuntu.files.tsv"))) {
            const QString where = row[0] == "boot" ? QStringLiteral("!/p2!/") : QStringLiteral("!/p3!/ubuntu-vg/ubuntu-lv!/");
            auto cat = test::runCliWithPassword({QStringLiteral("cat"), ubuntu_ + where + QString::fromUtf8(row[1])}, "ubuntu pass");
            QVERIFY2(cat.exitCode == 0, cat.err.constData());
            QCOMPARE(QByteArray::number(cat.out.size()), row[2]);
            QCOMPARE(test::sha256(cat.out), row[3]);
            compared += row[0] != "boot";
        }
        QVERIFY(compared >= 4);
        // `hash` of the whole disk goes through the LUKS volume and the LVM volume to the files.
        auto hash = test::runCliWithPassword({QStringLiteral("hash"), ubuntu_}, "ubuntu pass");
        QVERIFY2(hash.exitCode == 0, hash.err.constData());
        for (const QByteArrayList &row : tsv(QStringLiteral("luks-ubuntu.files.tsv")))
            if (row[0] != "boot")
                QVERIFY2(hash.out.contains(row[3] + "  p3!/ubuntu-vg/ubuntu-lv!/" + row[1] + '\n'), hash.out.constData());
    }

    void passwordsAreTriedInTurnAndTheSecondKeySlotOpens()
    {
        const QString file = passwordFile(QStringLiteral("passwords"), "not this one\nsecond pass\n");
        auto cat = test::runCli({QStringLiteral("--password-file"), file, QStringLiteral("cat"), ubuntu_ + QStringLiteral("!/p3!/ubuntu-vg/ubuntu-lv!/etc/hostname")});
        QVERIFY2(cat.exitCode == 0, cat.err.constData());
        QCOMPARE(cat.out, QByteArray("root.example.com\n"));
    }

    void withoutTheRightPasswordNothingIsRead()
    {
        const QString spec = ubuntu_ + QStringLiteral("!/p3!/ubuntu-vg/ubuntu-lv!/etc/hostname");
        auto none = test::runCli({QStringLiteral("cat"), spec});
        QCOMPARE(none.exitCode, 1);
        QCOMPARE(none.out, QByteArray());
        QVERIFY2(none.err.contains("a password is needed") && none.err.contains(uuid_), none.err.constData());
        auto wrong = test::runCliWithPassword({QStringLiteral("cat"), spec}, "not the ubuntu password");
        QCOMPARE(wrong.exitCode, 1);
        QCOMPARE(wrong.out, QByteArray());
        QVERIFY2(wrong.err.contains("wrong password"), wrong.err.constData());
        QVERIFY(!wrong.err.contains("not the ubuntu password"));
        // `test` of the disk says the volume went untested, and why.
        auto untested = test::runCli({QStringLiteral("test"), ubuntu_});
        QCOMPARE(untested.exitCode, 1);
        QVERIFY2(untested.out.contains("p3") && untested.out.contains("a password is needed"), untested.out.constData());
        // The disk still lists: the partition holds what it cannot open.
        auto raw = test::runCli({QStringLiteral("cat"), ubuntu_ + QStringLiteral("!/p3")});
        QCOMPARE(raw.exitCode, 1);
        QCOMPARE(raw.out, QByteArray());
    }

    void theTerminalIsAskedWhenNoPasswordWasGiven()
    {
        // stdin a terminal (a pty), no --password-file, no ARCHIVESCOPE_PASSWORD: asked without
        // echo, again when wrong, and the volume opens with the answer.
        ASC_REQUIRE_TOOL(QStringLiteral("python3"));
        auto r = test::runCliOnTerminal({QStringLiteral("cat"), ubuntu_ + QStringLiteral("!/p3!/ubuntu-vg/ubuntu-lv!/etc/hostname")},
                                        {"not it", "ubuntu pass"});
        QVERIFY2(r.exitCode == 0, r.out.constData());
        QVERIFY2(r.out.contains("password for ") && r.out.contains("wrong password for "), r.out.constData());
        QVERIFY2(r.out.contains("root.example.com"), r.out.constData());
        QVERIFY2(!r.out.contains("ubuntu pass") && !r.out.contains("not it"), r.out.constData()); // never echoed
    }

    void theHeaderIsDescribedWithoutAPassword()
    {
        // Exit 1: what the volume holds needs the password, and that is said.
        auto info = test::runCli({QStringLiteral("info"), QStringLiteral("--json"), ubuntu_ + QStringLiteral("!/p3")});
        QCOMPARE(info.exitCode, 1);
        QVERIFY2(info.err.contains("a password is needed"), info.err.constData());
        QVERIFY2(info.out.contains("\"uuid\":\"" + uuid_ + '"'), info.out.constData());
        QVERIFY2(info.out.contains("\"cipher\":\"aes-xts-plain64\""), info.out.constData());
        QVERIFY2(info.out.contains("\"sector_size\":4096"), info.out.constData());
        QVERIFY2(info.out.contains("\"label\":\"ubuntu-crypt\""), info.out.constData());
        QVERIFY2(info.out.contains("\"pbkdf\":\"argon2id\"") && info.out.contains("\"pbkdf\":\"pbkdf2\""), info.out.constData());
    }

    void anOldLuks1VolumeWithEssiv()
    {
        auto ls = test::runCliWithPassword({QStringLiteral("ls"), old_}, "old debian");
        QVERIFY2(ls.exitCode == 0, ls.err.constData());
        int compared = 0;
        for (const QByteArrayList &row : tsv(QStringLiteral("luks1-cbc.files.tsv"))) {
            auto cat = test::runCliWithPassword({QStringLiteral("cat"), old_ + QStringLiteral("!/") + QString::fromUtf8(row[1])}, "old debian");
            QVERIFY2(cat.exitCode == 0, cat.err.constData());
            QCOMPARE(test::sha256(cat.out), row[3]);
            ++compared;
        }
        QVERIFY(compared >= 4);
        auto info = test::runCli({QStringLiteral("info"), QStringLiteral("--json"), old_});
        QVERIFY2(info.out.contains("\"cipher\":\"aes-cbc-essiv:sha256\"") && info.out.contains("\"version\":1"), info.out.constData());
    }

    void cryptsetupsDefaultsReadByteForByte()
    {
        // LUKS2 as `cryptsetup luksFormat` makes it by default (aes-xts-plain64, 512-bit key,
        // 512-byte sectors), encrypted here by cryptsetup itself over 24 MiB of random bytes:
        // the volume reads back as those bytes, across many reads and sector boundaries.
        ASC_REQUIRE_TOOL(QStringLiteral("cryptsetup"));
        const QByteArray plain = test::seededBytes(24 << 20, 47);
        const QString image = test::writeFile(dir_, QStringLiteral("defaults.img"), plain + QByteArray(8 << 20, '\0'));
        const QString key = test::writeFile(dir_, QStringLiteral("defaults.key"), "default words");
        auto made = test::run(QStringLiteral("cryptsetup"), {QStringLiteral("reencrypt"), QStringLiteral("--encrypt"), QStringLiteral("--type"), QStringLiteral("luks2"),
                                                             QStringLiteral("--batch-mode"), QStringLiteral("-q"), QStringLiteral("--reduce-device-size"), QStringLiteral("8M"),
                                                             QStringLiteral("--pbkdf"), QStringLiteral("pbkdf2"), QStringLiteral("--pbkdf-force-iterations"), QStringLiteral("1000"),
                                                             QStringLiteral("--key-file"), key, image});
        QVERIFY2(made.exitCode == 0, made.err.constData());
        auto cat = test::runCliWithPassword({QStringLiteral("cat"), image}, "default words");
        QVERIFY2(cat.exitCode == 0, cat.err.constData());
        QVERIFY(cat.out.size() >= plain.size());
        QVERIFY(cat.out.left(plain.size()) == plain);
        auto info = test::runCli({QStringLiteral("info"), QStringLiteral("--json"), image});
        QVERIFY2(info.out.contains("\"sector_size\":512") && info.out.contains("\"key_bits\":512"), info.out.constData());
    }

    void damageIsAnError()
    {
        // A byte of the LUKS2 JSON metadata: libcryptsetup's header checksum refuses it.
        const QString damaged = dir_.filePath(QStringLiteral("damaged.img"));
        QVERIFY(QFile::copy(old_, damaged));
        QFile::setPermissions(damaged, QFile::ReadOwner | QFile::WriteOwner);
        // LUKS1: the master key digest (offset 112) no longer matches any key slot's key.
        QVERIFY(test::flipByte(damaged, 112));
        auto digest = test::runCliWithPassword({QStringLiteral("ls"), damaged}, "old debian");
        QCOMPARE(digest.exitCode, 1);
        QCOMPARE(digest.out, QByteArray());
        // A header cut short names what is missing.
        const QString cut = dir_.filePath(QStringLiteral("cut.img"));
        QVERIFY(QFile::copy(old_, cut));
        QFile::setPermissions(cut, QFile::ReadOwner | QFile::WriteOwner);
        QVERIFY(QFile::resize(cut, 300 * 1024));
        auto short_ = test::runCliWithPassword({QStringLiteral("ls"), cut}, "old debian");
        QCOMPARE(short_.exitCode, 1);
        QVERIFY2(short_.err.contains("LUKS1 header puts the encrypted data at"), short_.err.constData());
        // LUKS2 JSON that is not JSON.
        const QString json = dir_.filePath(QStringLiteral("json.img"));
        QFile disk(ubuntu_);
        QVERIFY(disk.open(QIODevice::ReadOnly));
        const QByteArray all = disk.readAll();
        const qsizetype header = all.indexOf("LUKS\xba\xbe\x00\x02");
        QVERIFY(header > 0);
        QFile out(json);
        QVERIFY(out.open(QIODevice::WriteOnly));
        QByteArray volume = all.mid(header);
        volume[4096] = '!'; // the JSON's opening brace
        QVERIFY(out.write(volume) == volume.size());
        out.close();
        auto bad = test::runCliWithPassword({QStringLiteral("ls"), json}, "ubuntu pass");
        QCOMPARE(bad.exitCode, 1);
        QVERIFY2(bad.err.contains("LUKS2 metadata is not JSON") && bad.err.contains("offset 409"), bad.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestLuks)
#include "tst_luks.moc"
