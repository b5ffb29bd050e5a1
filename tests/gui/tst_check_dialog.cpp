// SPDX-License-Identifier: MIT
// Test and Checksums in the window (File > Test, File > Checksums…, and an entry's context menu):
// a damaged zip member is named with its problem, a whole archive says everything checks out,
// the checksums are the files' own (sha256 by default, another algorithm on choice) and Copy
// gives sha256sum's lines (paths below the SPEC, as sha256sum run there prints them); the rows
// arrive from `archivescope-cli test|hash --json`.

#include "check/check_dialog.h"
#include "open/reading_policy.h"
#include "main_window.h"
#include "model_search.h"
#include "test_files.h"
#include "window_waits.h"

#include "browse/browse_view.h"
#include "browse/entry_filter_model.h"
#include "browse/entry_menu.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QCryptographicHash>
#include <QLabel>
#include <QMenu>
#include <QPushButton>
#include <QTest>
#include <QTreeView>
#include <QTreeWidget>

using namespace asc;

namespace {

QStringList column(QTreeWidget *rows, int c)
{
    QStringList out;
    for (int i = 0; i < rows->topLevelItemCount(); ++i)
        out << rows->topLevelItem(i)->text(c);
    return out;
}

QString hex(const QByteArray &data, QCryptographicHash::Algorithm algorithm)
{
    return QString::fromLatin1(QCryptographicHash::hash(data, algorithm).toHex());
}

} // namespace

class TestCheckDialog : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QString good_, damaged_;
    QByteArray big_, small_;

    // Waits for the dialog's command to end.
    static bool settle(ui::CheckDialog *dialog)
    {
        return QTest::qWaitFor([dialog] { return !dialog->running(); }, 60000);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("ArchiveScopeTests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_check_dialog"));
        ASC_REQUIRE_TOOL(QStringLiteral("zip"));
        qputenv("ARCHIVESCOPE_CLI", CLI_PATH);
        for (int i = 0; i < 20000; ++i)
            big_ += "line " + QByteArray::number(i) + "\n";
        small_ = "hello\n";
        test::writeFile(dir_, QStringLiteral("src/d/big.txt"), big_);
        test::writeFile(dir_, QStringLiteral("src/d/small.txt"), small_);
        auto made = test::run(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), QStringLiteral("cd src && zip -q -r ../good.zip d")}, 60000, dir_.path());
        QVERIFY2(made.exitCode == 0, made.err.constData());
        good_ = dir_.filePath(QStringLiteral("good.zip"));
        // One byte inside big.txt's deflated data flipped: its inflate or CRC fails.
        QFile in(good_);
        QVERIFY(in.open(QIODevice::ReadOnly));
        QByteArray bytes = in.readAll();
        const qsizetype data = bytes.indexOf("d/big.txt") + 9 + 28;
        bytes[data + 200] = char(bytes[data + 200] ^ 0x5a);
        damaged_ = dir_.filePath(QStringLiteral("damaged.zip"));
        QFile out(damaged_);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(bytes);
    }

    void testNamesTheDamagedMember()
    {
        ui::MainWindow window;
        window.show();
        QVERIFY(test::openAndWait(window, damaged_));
        QAction *test = window.findChild<QAction *>(QStringLiteral("testAction"));
        QVERIFY(test);
        test->trigger();
        auto *dialog = window.findChild<ui::CheckDialog *>(QStringLiteral("testDialog"));
        QVERIFY(dialog);
        auto *rows = dialog->findChild<QTreeWidget *>(QStringLiteral("checkRows"));
        QAbstractItemModelTester tester(rows->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QVERIFY(settle(dialog));
        QCOMPARE(column(rows, 0), QStringList{damaged_ + QStringLiteral("!/d/big.txt")});
        QVERIFY2(!rows->topLevelItem(0)->text(2).isEmpty(), "the problem is said");
        const QString status = dialog->findChild<QLabel *>(QStringLiteral("checkStatus"))->text();
        QVERIFY2(status.contains(QLatin1String("1 problem")), qPrintable(status));
        QVERIFY(dialog->text().startsWith(damaged_ + QStringLiteral("!/d/big.txt: ")));
    }

    void testOfAGoodArchiveChecksOut()
    {
        ui::MainWindow window;
        window.show();
        QVERIFY(test::openAndWait(window, good_));
        window.check(good_, false);
        auto *dialog = window.findChild<ui::CheckDialog *>(QStringLiteral("testDialog"));
        QVERIFY(dialog);
        QVERIFY(settle(dialog));
        QCOMPARE(dialog->findChild<QTreeWidget *>(QStringLiteral("checkRows"))->topLevelItemCount(), 0);
        const QString status = dialog->findChild<QLabel *>(QStringLiteral("checkStatus"))->text();
        QVERIFY2(status.contains(QLatin1String("2 files read")) && status.contains(QLatin1String("everything checks out")), qPrintable(status));
    }

    void checksumsOfAFolderFromItsMenu()
    {
        ui::MainWindow window;
        window.show();
        QVERIFY(test::openAndWait(window, good_));
        const QModelIndex folder = test::findByName(window.proxy(), QStringLiteral("d"));
        QVERIFY(folder.isValid());
        window.treeView()->selectionModel()->setCurrentIndex(folder, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        std::unique_ptr<QMenu> menu(window.browseView()->entryMenu()->build(&window));
        QAction *sums = menu->findChild<QAction *>(QStringLiteral("checksumsEntryAction"));
        QVERIFY(sums && sums->isEnabled());
        sums->trigger();
        auto *dialog = window.findChild<ui::CheckDialog *>(QStringLiteral("checksumsDialog"));
        QVERIFY(dialog);
        QVERIFY(dialog->windowTitle().contains(good_ + QStringLiteral("!/d")));
        auto *rows = dialog->findChild<QTreeWidget *>(QStringLiteral("checkRows"));
        QAbstractItemModelTester tester(rows->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QVERIFY(settle(dialog));
        QMap<QString, QString> sha;
        for (int i = 0; i < rows->topLevelItemCount(); ++i)
            sha.insert(rows->topLevelItem(i)->text(0), rows->topLevelItem(i)->text(2));
        QCOMPARE(sha.size(), 2);
        QCOMPARE(sha.value(QStringLiteral("big.txt")), hex(big_, QCryptographicHash::Sha256));
        QCOMPARE(sha.value(QStringLiteral("small.txt")), hex(small_, QCryptographicHash::Sha256));
        dialog->findChild<QPushButton *>(QStringLiteral("checkCopy"))->click();
        QVERIFY(QApplication::clipboard()->text().contains(hex(small_, QCryptographicHash::Sha256) + QStringLiteral("  small.txt\n")));
        // Another algorithm: the rows are made again.
        dialog->findChild<QComboBox *>(QStringLiteral("checksumAlgorithm"))->setCurrentText(QStringLiteral("md5"));
        QVERIFY(settle(dialog));
        QCOMPARE(rows->topLevelItemCount(), 2);
        QVERIFY(column(rows, 2).contains(hex(big_, QCryptographicHash::Md5)));
    }

    // The window's password reaches the command (on its input, never its command line): Test of
    // an encrypted zip reads it whole once the window was given the password, and says a
    // password is needed before. Last: the password stays in this process from then on.
    void testUsesTheWindowsPassword()
    {
        const QString locked = dir_.filePath(QStringLiteral("locked.zip"));
        auto made = test::run(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), QStringLiteral("cd src && zip -q -r -P 'sesame 42' ../locked.zip d")}, 60000, dir_.path());
        QVERIFY2(made.exitCode == 0, made.err.constData());
        ui::MainWindow window;
        window.show();
        QVERIFY(test::openAndWait(window, locked));
        window.check(locked, false);
        auto *before = window.findChild<ui::CheckDialog *>(QStringLiteral("testDialog"));
        QVERIFY(before);
        QVERIFY(settle(before));
        const QString refused = before->findChild<QLabel *>(QStringLiteral("checkStatus"))->text();
        QVERIFY2(!refused.contains(QLatin1String("everything checks out")), qPrintable(refused));
        QVERIFY2(before->text().contains(QLatin1String("password")), qPrintable(before->text()));
        delete before;

        setDefaultArchivePasswords({QByteArray("sesame 42")}); // as File > Enter Password… keeps it
        window.check(locked, false);
        auto *after = window.findChild<ui::CheckDialog *>(QStringLiteral("testDialog"));
        QVERIFY(after);
        QVERIFY(settle(after));
        const QString status = after->findChild<QLabel *>(QStringLiteral("checkStatus"))->text();
        QVERIFY2(status.contains(QLatin1String("2 files read")) && status.contains(QLatin1String("everything checks out")), qPrintable(status));
    }
};

QTEST_MAIN(TestCheckDialog)
#include "tst_check_dialog.moc"
