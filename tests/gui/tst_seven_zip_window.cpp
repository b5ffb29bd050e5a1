// SPDX-License-Identifier: MIT
// Encrypted 7z in the window (read by 7zz in its jail): an archive whose names are encrypted asks
// for its password when opened, again when wrong (saying so), then lists; an archive whose
// content only is encrypted lists at once and asks when an encrypted file is selected, then
// previews its bytes. The password never reaches recent files.

#include "fixtures.h"
#include "main_window.h"
#include "model_search.h"
#include "recent_files.h"
#include "test_files.h"
#include "window_waits.h"

#include "browse/details_pane.h"
#include "browse/entry_filter_model.h"
#include "browse/hex_view.h"
#include "formats/archive/archive_passwords.h"

#include <QAbstractItemModelTester>
#include <QInputDialog>
#include <QItemSelectionModel>
#include <QSignalSpy>
#include <QTest>
#include <QTimer>
#include <QTreeView>

using namespace asc;

class TestSevenZipWindow : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

private Q_SLOTS:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("ArchiveScopeTests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_seven_zip_window"));
        ASC_REQUIRE_TOOL(QStringLiteral("7zz"));
        test::writeFile(dir_, QStringLiteral("src/a.txt"), "alpha\n");
        test::writeFile(dir_, QStringLiteral("src/docs/b.txt"), "bravo\n");
        auto made = test::run(QStringLiteral("/bin/sh"),
                              {QStringLiteral("-c"), QStringLiteral("set -e; cd src; 7zz a -pS3cret -mhe=on ../names.7z . >/dev/null; "
                                                                    "7zz a -pS3cret ../content.7z . >/dev/null")},
                              120000, dir_.path());
        QVERIFY2(made.exitCode == 0, made.err.constData());
    }

    void init() { setDefaultArchivePasswords({}); }

    void encryptedNamesAskWhenOpened()
    {
        ui::MainWindow window;
        QAbstractItemModelTester tester(window.proxy(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        window.show();
        test::PasswordAnswers answers(&window, {QStringLiteral("not it"), QStringLiteral("S3cret")});
        window.openSpec(dir_.filePath(QStringLiteral("names.7z")));
        QTRY_VERIFY_WITH_TIMEOUT(test::findByName(window.proxy(), QStringLiteral("a.txt"), {}, false).isValid(), 30000);
        QCOMPARE(answers.asked.size(), 2);
        QVERIFY2(answers.asked[0].contains(QStringLiteral("names.7z")), qPrintable(answers.asked[0]));
        QVERIFY2(answers.asked[1].contains(QStringLiteral("does not open")), qPrintable(answers.asked[1]));
        QVERIFY(!ui::RecentFiles().list().join(QLatin1Char(' ')).contains(QStringLiteral("S3cret")));
    }

    void encryptedContentAsksWhenAFileIsSelected()
    {
        ui::MainWindow window;
        window.show();
        QVERIFY(test::openAndWait(window, dir_.filePath(QStringLiteral("content.7z"))));
        const QModelIndex a = test::findByName(window.proxy(), QStringLiteral("a.txt"), {}, false);
        QVERIFY(a.isValid());
        test::PasswordAnswers answers(&window, {QStringLiteral("S3cret")});
        window.treeView()->selectionModel()->setCurrentIndex(a, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        QTRY_COMPARE_WITH_TIMEOUT(window.detailsPane()->hexView()->bytes(), QByteArray("alpha\n"), 30000);
        QCOMPARE(answers.asked.size(), 1);
        QVERIFY2(answers.asked[0].contains(QStringLiteral("content.7z")), qPrintable(answers.asked[0]));
    }
};

QTEST_MAIN(TestSevenZipWindow)
#include "tst_seven_zip_window.moc"
