// SPDX-License-Identifier: MIT
// e2fsprogs' own test images (tests/data/thirdparty/e2fsprogs, SOURCES says which), read by our
// ext reader and by debugfs (`rdump /`), compared file by file with diff -r: the images e2fsck
// finds clean, d_inline_dump's inline files and folders, deep and sparse extent trees. Damaged
// images are judged by upstream's expectation: where e2fsck would change a file, reading it is an
// error naming it, never other bytes with exit 0. Every difference fails, or is listed below with
// why (the README's "Known differences" says the same).

#include "test_files.h"

#include <QDir>
#include <QTest>

using namespace asc;

namespace {

const QString kImages = QStringLiteral(TEST_DATA_DIR "/thirdparty/e2fsprogs");

struct Expected {
    const char *image;
    const char *diff; // diff -r's output, where we differ from debugfs on purpose
    const char *error; // words our extract's error says, for damaged images
    const char *why;
};

const Expected kExpected[] = {
    {"d_inline_dump", "Binary files ref/shortfile and ours/shortfile differ", nullptr,
     "shortfile is 20 bytes (i_size, as the kernel reads it); debugfs's rdump writes all 60 bytes of its inline area"},
    {"f_messy_inode", "Only in ref: MAKEDEV", "block pointer", "e2fsck clears MAKEDEV's block pointers past the volume: we refuse the file by name"},
    {"f_extents2", nullptr, "outside the volume", "e2fsck clears the extents past the volume: we refuse those files by name"},
};

} // namespace

class TestExtCorpus : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

private Q_SLOTS:
    void initTestCase()
    {
        ASC_REQUIRE_TOOL(QStringLiteral("debugfs"));
        ASC_REQUIRE_TOOL(QStringLiteral("diff"));
    }

    void readsAsDebugfs_data()
    {
        QTest::addColumn<QString>("image");
        const QStringList images = QDir(kImages).entryList({QStringLiteral("*.img.gz")}, QDir::Files, QDir::Name);
        QVERIFY(images.size() >= 30);
        for (const QString &image : images)
            QTest::newRow(qPrintable(image)) << image;
    }

    void readsAsDebugfs()
    {
        QFETCH(QString, image);
        const QString name = image.chopped(7);
        const QString work = dir_.filePath(name);
        QVERIFY(QDir().mkpath(work + QStringLiteral("/ref")));
        auto made = test::run(QStringLiteral("/bin/sh"),
                              {QStringLiteral("-c"), QStringLiteral("gzip -dc \"$1\" > img && debugfs -R 'rdump / ref' img >/dev/null 2>&1; exit 0"),
                               QStringLiteral("sh"), kImages + QLatin1Char('/') + image},
                              60000, work);
        QCOMPARE(made.exitCode, 0);
        auto ours = test::runCli({QStringLiteral("extract"), work + QStringLiteral("/img"), QStringLiteral("-C"), work + QStringLiteral("/ours")});
        auto diff = test::run(QStringLiteral("diff"), {QStringLiteral("-r"), QStringLiteral("--no-dereference"), QStringLiteral("ref"), QStringLiteral("ours")},
                              60000, work);
        const Expected *expected = nullptr;
        for (const Expected &e : kExpected)
            if (name == QLatin1String(e.image))
                expected = &e;
        if (!expected) {
            QVERIFY2(ours.exitCode == 0, ours.err.constData());
            QVERIFY2(diff.out.isEmpty(), diff.out.constData());
            return;
        }
        if (expected->diff)
            QVERIFY2(diff.out.trimmed() == QByteArray(expected->diff), diff.out.constData());
        if (expected->error) {
            QCOMPARE(ours.exitCode, 1);
            QVERIFY2(ours.err.contains(expected->error) && ours.err.contains("img!/"), ours.err.constData());
            // What is not refused is debugfs's bytes: every difference is a refused file.
            for (const QByteArray &line : diff.out.split('\n'))
                QVERIFY2(line.isEmpty() || line.startsWith("Only in ref"), line.constData());
        } else {
            QVERIFY2(ours.exitCode == 0, ours.err.constData());
        }
    }
};

QTEST_GUILESS_MAIN(TestExtCorpus)
#include "tst_ext_corpus.moc"
