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

    static bool openAndWait(ui::MainWindow &window, const QString &spec)
    {
        QSignalSpy listed(&window, &ui::MainWindow::listingFinished);
        QSignalSpy opened(&window, &ui::MainWindow::opened);
        window.openSpec(spec);
        if ((opened.count() == 0 && !opened.wait(20000)) || !opened.first().at(1).toBool())
            return false;
        return listed.count() > 0 || listed.wait(20000);
    }

    // Answers the password questions as they come, in order; what each asked is kept.
    struct Answers {
        QStringList answers;
        QStringList asked;
        QTimer timer;
        explicit Answers(QWidget *window, QStringList given)
            : answers(std::move(given))
        {
            timer.setInterval(20);
            QObject::connect(&timer, &QTimer::timeout, window, [this, window] {
                auto *dialog = window->findChild<QInputDialog *>(QStringLiteral("passwordPrompt"));
                if (!dialog || !dialog->isVisible() || answers.isEmpty())
                    return;
                asked << dialog->labelText();
                dialog->setTextValue(answers.takeFirst());
                dialog->accept();
            });
            timer.start();
        }
    };

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
        Answers answers(&window, {QStringLiteral("not it"), QStringLiteral("S3cret")});
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
        QVERIFY(openAndWait(window, dir_.filePath(QStringLiteral("content.7z"))));
        const QModelIndex a = test::findByName(window.proxy(), QStringLiteral("a.txt"), {}, false);
        QVERIFY(a.isValid());
        Answers answers(&window, {QStringLiteral("S3cret")});
        window.treeView()->selectionModel()->setCurrentIndex(a, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        QTRY_COMPARE_WITH_TIMEOUT(window.detailsPane()->hexView()->bytes(), QByteArray("alpha\n"), 30000);
        QCOMPARE(answers.asked.size(), 1);
        QVERIFY2(answers.asked[0].contains(QStringLiteral("content.7z")), qPrintable(answers.asked[0]));
    }
};

QTEST_MAIN(TestSevenZipWindow)
#include "tst_seven_zip_window.moc"
