// SPDX-License-Identifier: MIT
// A LUKS volume in the window (the Ubuntu "encrypt + LVM" disk of tests/data/disks/make_luks.sh):
// expanding the LUKS partition asks for its password in a dialog naming it; a wrong password asks
// again and says so; the right one opens it in place down to the root volume's files; a LUKS
// image opened as the file asks the same way. The password never reaches recent files.

#include "browse/entry_filter_model.h"
#include "fixtures.h"
#include "main_window.h"
#include "model_search.h"
#include "recent_files.h"
#include "test_files.h"
#include "window_waits.h"
#include "formats/archive/archive_passwords.h"

#include <QAbstractItemModelTester>
#include <QInputDialog>
#include <QSignalSpy>
#include <QTest>
#include <QTimer>
#include <QTreeView>

using namespace asc;

class TestLuksWindow : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QString disk_, old_;

    QString unpack(const QString &name, const QString &packed) { return test::unpackDisk(dir_, packed, name); }

private Q_SLOTS:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("ArchiveScopeTests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_luks_window"));
        ASC_REQUIRE_TOOL(QStringLiteral("xz"));
        disk_ = unpack(QStringLiteral("luks-ubuntu.raw"), QStringLiteral("luks-ubuntu.raw.xz"));
        old_ = unpack(QStringLiteral("luks1-cbc.img"), QStringLiteral("luks1-cbc.img.xz"));
        QVERIFY(!disk_.isEmpty() && !old_.isEmpty());
    }

    void init() { setDefaultArchivePasswords({}); }

    void expandingTheVolumeAsksForItsPassword()
    {
        ui::MainWindow window;
        QAbstractItemModelTester tester(window.proxy(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        window.show();
        // Answered from the start: the model tester fetches what it sees, p3 included.
        test::PasswordAnswers answers(&window, {QStringLiteral("not it"), QStringLiteral("ubuntu pass")});
        QVERIFY(test::openAndWait(window, disk_));
        const QModelIndex p3 = test::findByName(window.proxy(), QStringLiteral("p3"), {}, false);
        QVERIFY(p3.isValid());
        window.treeView()->expand(p3);
        QTRY_VERIFY_WITH_TIMEOUT(test::findByName(window.proxy(), QStringLiteral("ubuntu-lv"), p3).isValid(), 30000);
        QCOMPARE(answers.asked.size(), 2);
        QVERIFY2(answers.asked[0].contains(QStringLiteral("luks-ubuntu.raw!/p3")), qPrintable(answers.asked[0]));
        QVERIFY2(answers.asked[1].contains(QStringLiteral("does not open")), qPrintable(answers.asked[1]));
        // Down to a file of the root volume, in place.
        const QModelIndex lv = test::findByName(window.proxy(), QStringLiteral("ubuntu-lv"), p3);
        window.treeView()->expand(lv);
        QTRY_VERIFY_WITH_TIMEOUT(test::findByName(window.proxy(), QStringLiteral("etc"), lv).isValid(), 30000);
        QVERIFY(!ui::RecentFiles().list().join(QLatin1Char(' ')).contains(QStringLiteral("ubuntu pass")));
    }

    void declinedTheVolumeStaysClosedAndSaysWhy()
    {
        ui::MainWindow window;
        window.show();
        QVERIFY(test::openAndWait(window, disk_));
        const QModelIndex p3 = test::findByName(window.proxy(), QStringLiteral("p3"), {}, false);
        test::PasswordAnswers answers(&window, {QString()});
        window.treeView()->expand(p3);
        QTRY_COMPARE_WITH_TIMEOUT(answers.asked.size(), 1, 30000);
        QTRY_VERIFY_WITH_TIMEOUT(!window.isBusy(), 20000);
        QCOMPARE(window.proxy()->rowCount(p3), 0);
    }

    void aLuksImageOpenedAsTheFileAsks()
    {
        ui::MainWindow window;
        window.show();
        test::PasswordAnswers answers(&window, {QStringLiteral("old debian")});
        QVERIFY(test::openAndWait(window, old_));
        QTRY_VERIFY_WITH_TIMEOUT(test::findByName(window.proxy(), QStringLiteral("etc"), {}, false).isValid(), 30000);
        QCOMPARE(answers.asked.size(), 1);
        QVERIFY2(answers.asked[0].contains(QStringLiteral("luks1-cbc.img")), qPrintable(answers.asked[0]));
    }
};

QTEST_MAIN(TestLuksWindow)
#include "tst_luks_window.moc"
