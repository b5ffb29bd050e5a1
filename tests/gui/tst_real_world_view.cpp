// SPDX-License-Identifier: MIT
// Real-world archives in the window: entries whose names are not UTF-8 are reached by node
// (details, hex, extract, drag-out, benchmark target); the Name Encoding choice decodes legacy
// names; damaged headers and unreadable entries end in one banner with a details list; a second
// extraction onto the same folder asks what to do with each name that exists.

#include "bench/bench_panel.h"
#include "browse/details_pane.h"
#include "browse/entry_filter_model.h"
#include "browse/entry_tree_model.h"
#include "browse/hex_view.h"
#include "io/byte_text.h"
#include "io/remove_tree.h"
#include "main_window.h"
#include "model_search.h"
#include "test_files.h"
#include "window_waits.h"
#include "open/spec.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QCheckBox>
#include <QFile>
#include <QMessageBox>
#include <QMimeData>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>
#include <QTimer>
#include <QTreeView>
#include <sys/stat.h>

using namespace asc;
using test::findByName;

class TestRealWorldView : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QString legacy_;
    QString damaged_;
    QString legacyTar_; // the same names in a GNU tar, kept as stored

    void select(ui::MainWindow &window, const QModelIndex &index)
    {
        window.treeView()->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    }

    // Clicks `button` in the next conflict question, ticking "Apply to all" when asked to.
    static void answerConflicts(const QString &button, bool all, int *asked)
    {
        auto *poll = new QTimer(qApp);
        QObject::connect(poll, &QTimer::timeout, poll, [poll, button, all, asked] {
            auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget());
            if (!box || box->objectName() != QLatin1String("conflictQuestion"))
                return;
            ++*asked;
            if (all)
                box->checkBox()->setChecked(true);
            for (QAbstractButton *b : box->buttons()) {
                if (b->text().remove(QLatin1Char('&')) == button) {
                    b->click();
                    break;
                }
            }
            if (all)
                poll->deleteLater();
        });
        poll->start(20);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("ArchiveScopeTests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_real_world_view"));
        legacy_ = dir_.filePath(QStringLiteral("legacy.zip"));
        damaged_ = dir_.filePath(QStringLiteral("damaged.tar"));
        legacyTar_ = dir_.filePath(QStringLiteral("legacy.tar"));
        auto made = test::run(QStringLiteral("python3"), {QStringLiteral("-c"), QStringLiteral(R"PY(
import io, sys, tarfile, zipfile
class Raw(zipfile.ZipInfo):
    def _encodeFilenameFlags(self):
        return self.filename.encode('latin-1'), self.flag_bits & ~0x800
z = zipfile.ZipFile(sys.argv[1], 'w')
for name, data in ((u'Привет.txt'.encode('cp866'), b'cp866 text\n'), (b'\xff\xfe.bin', b'no charset\n' * 100)):
    i = Raw(name.decode('latin-1')); i.external_attr = 0o644 << 16
    z.writestr(i, data)
z.close()
t = tarfile.open(sys.argv[3], 'w', format=tarfile.GNU_FORMAT, encoding='latin-1', errors='surrogateescape')
for name, data in ((u'Привет.txt'.encode('cp866'), b'cp866 text\n'), (b'\xff\xfe.bin', b'no charset\n' * 100)):
    i = tarfile.TarInfo(name.decode('latin-1')); i.size = len(data); i.mode = 0o644; t.addfile(i, io.BytesIO(data))
t.close()
buf = io.BytesIO()
t = tarfile.open(fileobj=buf, mode='w', format=tarfile.USTAR_FORMAT)
for n in ('f1', 'f2', 'f3'):
    data = ('file %s\n' % n).encode(); i = tarfile.TarInfo(n); i.size = len(data); t.addfile(i, io.BytesIO(data))
t.close()
b = bytearray(buf.getvalue()); b[1024 + 148] = ord('9'); b[1024 + 149] = ord('9')
open(sys.argv[2], 'wb').write(b)
)PY"),
                                                          legacy_, damaged_, legacyTar_});
        QVERIFY2(made.exitCode == 0, made.err.constData());
    }

    void entryWithBytesNameIsReachedByNode()
    {
        ui::MainWindow window;
        QAbstractItemModelTester tester(window.proxy(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        window.show();
        QVERIFY(test::openAndWait(window, legacyTar_, 30)); // a tar's names as stored (a zip's are CP437)
        // Shown with U+FFFD for the bytes outside UTF-8; addressed by the node's raw path.
        const QModelIndex bad = findByName(window.proxy(), QString(QChar(0xFFFD)) + QChar(0xFFFD) + QStringLiteral(".bin"));
        QVERIFY(bad.isValid());
        select(window, bad);
        QVERIFY2(window.detailsPane()->text().contains(QStringLiteral("ff fe 2e 62 69 6e")), qPrintable(window.detailsPane()->text()));
        QTRY_COMPARE_WITH_TIMEOUT(window.hexView()->bytes(), QByteArray("no charset\n").repeated(100), 10000);
        // The benchmark's target resolves to the same bytes.
        auto location = resolve(window.benchPanel()->target());
        QVERIFY2(location, qPrintable(location ? QString() : location.error().toString()));
        QCOMPARE(location->source->size(), quint64(1100));
        // Extract Selected writes the file under its raw name.
        const QString target = dir_.filePath(QStringLiteral("extracted"));
        QSignalSpy done(&window, &ui::MainWindow::extractionFinished);
        window.extractSelectedTo(target);
        QVERIFY(done.count() > 0 || done.wait(20000));
        struct stat st {};
        QVERIFY(::stat((QFile::encodeName(target) + "/\xff\xfe.bin").constData(), &st) == 0);
        QCOMPARE(st.st_size, off_t(1100));
        QVERIFY2(done.first().first().toString().startsWith(QStringLiteral("Extracted 1 file, 0 folders, 0 links")), qPrintable(done.first().first().toString()));
        // Drag-out too.
        std::unique_ptr<QMimeData> mime(window.proxy()->mimeData({bad}));
        QVERIFY(mime && mime->urls().size() == 1);
        QVERIFY(::stat(QFile::encodeName(mime->urls().first().toLocalFile()).constData(), &st) == 0 || ::stat(textToBytes(mime->urls().first().toLocalFile()).constData(), &st) == 0);
        QCOMPARE(st.st_size, off_t(1100));
        QVERIFY(removeTree(target));
    }

    void nameEncodingDecodesLegacyNames()
    {
        ui::MainWindow window;
        window.show();
        QVERIFY(test::openAndWait(window, legacy_, 30));
        QVERIFY(!findByName(window.proxy(), QStringLiteral("Привет.txt")).isValid());
        // A zip without the UTF-8 flag shows CP437 by default (the dot kept), as unzip and 7-Zip do.
        QVERIFY(findByName(window.proxy(), QStringLiteral("Åα¿óÑΓ.txt")).isValid());
        // Shift JIS decodes neither name: both stay, by their bytes (neither vanishes).
        {
            QSignalSpy relisted(&window, &ui::MainWindow::listingFinished);
            window.setNameCharset("SHIFT_JIS");
            QVERIFY(relisted.count() > 0 || relisted.wait(20000));
            QCOMPARE(window.model()->tree().size() - 1, 2);
        }
        QSignalSpy listed(&window, &ui::MainWindow::listingFinished);
        window.setNameCharset("CP866");
        QVERIFY(listed.count() > 0 || listed.wait(20000));
        const QModelIndex decoded = findByName(window.proxy(), QStringLiteral("Привет.txt"));
        QVERIFY(decoded.isValid());
        select(window, decoded);
        QTRY_COMPARE_WITH_TIMEOUT(window.hexView()->bytes(), QByteArray("cp866 text\n"), 10000);
        QCOMPARE(window.nameCharset(), QByteArray("CP866"));
    }

    void problemsEndInOneBanner()
    {
        ui::MainWindow window;
        window.show();
        QVERIFY(test::openAndWait(window, damaged_, 30));
        QVERIFY(findByName(window.proxy(), QStringLiteral("f1")).isValid());
        QVERIFY(findByName(window.proxy(), QStringLiteral("f3")).isValid());
        QCOMPARE(window.problems().size(), 1);
        QVERIFY2(window.problems().first().contains(QStringLiteral("offset 1024: damaged header, skipped")), qPrintable(window.problems().first()));
        QVERIFY2(window.bannerText().contains(QStringLiteral("1 problem reading")), qPrintable(window.bannerText()));
        // A clean file clears them.
        QVERIFY(test::openAndWait(window, legacy_, 30));
        QVERIFY(window.problems().isEmpty());
        QVERIFY(window.bannerText().isEmpty());
    }

    void secondExtractionAsks()
    {
        ui::MainWindow window;
        window.show();
        QVERIFY(test::openAndWait(window, damaged_, 30));
        const QString target = dir_.filePath(QStringLiteral("again"));
        QSignalSpy done(&window, &ui::MainWindow::extractionFinished);
        window.extractSelectedTo(target); // nothing selected: everything
        QVERIFY(done.count() > 0 || done.wait(20000));
        QVERIFY2(done.last().first().toString().startsWith(QStringLiteral("Extracted 2 files")), qPrintable(done.last().first().toString()));
        // Again: each name exists. "Keep Both" for the first, with "Apply to all".
        int asked = 0;
        answerConflicts(QStringLiteral("Keep Both"), true, &asked);
        window.extractSelectedTo(target);
        QVERIFY(done.count() > 1 || done.wait(20000));
        QCOMPARE(asked, 1);
        QVERIFY(QFile::exists(target + QStringLiteral("/f1 (2)")));
        QVERIFY(QFile::exists(target + QStringLiteral("/f3 (2)")));
        // And once more, skipping: nothing written, nothing refused.
        asked = 0;
        answerConflicts(QStringLiteral("Skip"), true, &asked);
        window.extractSelectedTo(target);
        QVERIFY(done.count() > 2 || done.wait(20000));
        QCOMPARE(asked, 1);
        const QString summary = done.last().first().toString();
        QVERIFY2(summary.contains(QStringLiteral("Extracted 0 files")) && summary.contains(QStringLiteral("2 skipped")), qPrintable(summary));
        QVERIFY(!QFile::exists(target + QStringLiteral("/f1 (3)")));
    }
};

QTEST_MAIN(TestRealWorldView)
#include "tst_real_world_view.moc"
