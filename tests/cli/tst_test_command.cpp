// SPDX-License-Identifier: MIT
// `test SPEC`: reads everything below SPEC and what opens inside it; a member whose CRC fails,
// inside a zip inside a tar.gz, is one line naming its SPEC (exit 1) while the rest is read; a
// clean tree says so (exit 0); --json gives one object per problem and a summary.

#include "test_files.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace asc;

class TestTestCommand : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

    test::RunResult sh(const QString &script) { return test::run(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), script}, 120000, dir_.path()); }

private Q_SLOTS:
    void initTestCase()
    {
        ASC_REQUIRE_TOOL(QStringLiteral("bsdtar"));
        auto made = sh(QStringLiteral("set -e; mkdir -p z; printf 'first\\n' > z/a.txt; head -c 20000 /dev/urandom > z/b.bin; "
                                      "(cd z && bsdtar --format zip --options zip:compression=store -cf ../good.zip a.txt b.bin && "
                                      "bsdtar --format zip --options zip:compression=store -cf ../bad.zip a.txt b.bin)"));
        QVERIFY2(made.exitCode == 0, made.err.constData());
        const QString zipPath = dir_.filePath(QStringLiteral("bad.zip"));
        QVERIFY(test::flipByteAfter(zipPath, "b.bin", 10000)); // inside b.bin's stored data
        made = sh(QStringLiteral("set -e; mkdir -p t; cp good.zip bad.zip t/; printf 'plain\\n' > t/readme; tar -czf outer.tar.gz -C t ."));
        QVERIFY2(made.exitCode == 0, made.err.constData());
    }

    void aDamagedMemberDeepInsideIsNamed()
    {
        auto r = test::runCli({QStringLiteral("test"), dir_.filePath(QStringLiteral("outer.tar.gz"))});
        QCOMPARE(r.exitCode, 1);
        const QList<QByteArray> lines = r.out.trimmed().split('\n');
        QCOMPARE(lines.size(), 2); // the problem, then the summary
        QVERIFY2(lines[0].contains("outer.tar.gz!/bad.zip!/b.bin: "), r.out.constData());
        QVERIFY2(lines[1].contains("in 3 containers: 1 problems"), r.out.constData());
    }

    void aCleanTreeIsOk()
    {
        auto r = test::runCli({QStringLiteral("test"), dir_.filePath(QStringLiteral("good.zip"))});
        QVERIFY2(r.exitCode == 0, r.out + r.err);
        QVERIFY(r.out.contains("everything is OK"));
        auto json = test::runCli({QStringLiteral("test"), QStringLiteral("--json"), dir_.filePath(QStringLiteral("outer.tar.gz"))});
        QCOMPARE(json.exitCode, 1);
        const QList<QByteArray> lines = json.out.trimmed().split('\n');
        QCOMPARE(lines.size(), 2);
        QVERIFY(QJsonDocument::fromJson(lines[0]).object().value(QStringLiteral("spec")).toString().endsWith(QStringLiteral("bad.zip!/b.bin")));
        QCOMPARE(QJsonDocument::fromJson(lines[1]).object().value(QStringLiteral("problems")).toInt(), 1);
        QCOMPARE(QJsonDocument::fromJson(lines[1]).object().value(QStringLiteral("files")).toInt(), 6); // the two zips and readme; a.txt, b.bin of good; a.txt of bad
    }
};

QTEST_GUILESS_MAIN(TestTestCommand)
#include "tst_test_command.moc"
