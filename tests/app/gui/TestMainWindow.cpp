// The immap-lab window, offscreen: it opens on the default with both views, every sample
// loads, bad input gives a dialog naming file and line (found without blocking), selection is
// shared both ways, exports are real files, and --screenshot writes a PNG.
#include <QDir>
#include <QDockWidget>
#include <QMessageBox>
#include <QMimeData>
#include <QProcess>
#include <QProgressDialog>
#include <QPushButton>
#include <QScreen>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QUrl>

#include "MainWindow.h"
#include "SourceArg.h"
#include "Suites.h"
#include "views/NodePalette.h"

using namespace immap;

namespace {

QString samples(const QString& rel) {
    return QStringLiteral(IMMAP_SAMPLES "/") + rel;
}

QMessageBox* errorBox(QWidget& w) {
    return w.findChild<QMessageBox*>(QStringLiteral("errorDialog"));
}

int countColor(const QImage& img, QRgb c) {
    int n = 0;
    for (int y = 0; y < img.height(); ++y)
        for (int x = 0; x < img.width(); ++x)
            n += img.pixel(x, y) == c;
    return n;
}

}  // namespace

class TestMainWindow : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        // Never touch the user's settings: test mode moves QSettings under ~/.qttest.
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("immap-lab-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("immap-lab-tests"));
        QSettings().clear();
    }

    void settingsKeepRecentSourcesAndLayout() {
        const QString snap = "snapshot:" + samples("snapshots/host250");
        {
            gui::MainWindow w(true);
            w.loadDefault();
            QVERIFY(w.openSource(snap));
            w.controls()->setSpeedIndex(4);
            w.setWindowState(Qt::WindowNoState);
            w.resize(1234, 777);
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            w.findChild<QDockWidget*>(QStringLiteral("filesDock"))->close();
            w.close();  // saves geometry, dock state and speed
        }
        QCOMPARE(QSettings().value("recentFiles").toStringList().value(0), snap);
        QCOMPARE(QSettings().value("animation/speed").toInt(), 4);
        gui::MainWindow again(true);
        QCOMPARE(again.controls()->speedIndex(), 4);
        again.show();
        QVERIFY(QTest::qWaitForWindowExposed(&again));
        // 1234x777 does not fit the offscreen platform's 800x800 screen: not restored, the
        // window opens inside the screen (TestScreenFit checks one that fits is restored).
        QVERIFY(again.screen()->availableGeometry().contains(again.geometry()));
        QVERIFY(!again.findChild<QDockWidget*>(QStringLiteral("filesDock"))->isVisible());
        QVERIFY(again.findChild<QDockWidget*>(QStringLiteral("stepsDock"))->isVisible());
        QAction* recent = nullptr;
        for (QAction* a : again.findChildren<QAction*>())
            if (a->text() == snap) recent = a;
        QVERIFY(recent);
        recent->trigger();
        QCOMPARE(again.session().host().mappings.processes().size(), std::size_t{250});
        QSettings().clear();
    }

    void opensOnTheDefaultWithBothViews() {
        gui::MainWindow w(false);
        w.loadDefault();
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QCOMPARE(w.tabs()->currentWidget(), static_cast<QWidget*>(w.splitView()));
        QCOMPARE(w.splitView()->single()->tree().nodes.size(), std::size_t{6000});
        QCOMPARE(w.splitView()->partCount(), 12);
        for (int i = 0; i < 12; ++i)
            QCOMPARE(w.splitView()->part(i)->tree().nodes.size(), std::size_t{500});
        QCOMPARE(w.filePicker()->item(0)->text().left(9), QStringLiteral("libc.so.6"));
        QCOMPARE(w.tableView()->model()->rowCount(), 6000);
        // Both views are on screen and drawn: red and black pixels in each.
        const QImage single = w.splitView()->single()->grab().toImage();
        const QImage part = w.splitView()->part(5)->grab().toImage();
        for (const QImage& img : {single, part}) {
            QVERIFY(countColor(img, views::NodePalette::red().rgb()) > 50);
            QVERIFY(countColor(img, views::NodePalette::black().rgb()) > 50);
        }
        QVERIFY(!errorBox(w));
    }

    void everySampleLoads() {
        gui::MainWindow w(false);
        w.loadDefault();
        const QStringList paths{samples("snapshots/host250"),
                                samples("snapshots/host250/17513/maps")};
        for (const QString& p : paths) {
            QVERIFY2(w.openPath(p), qPrintable(p + ": " + w.lastError()));
            QVERIFY(w.session().trees().liveCount() > 0);
            QCOMPARE(w.session().file().name(), std::string("libc.so.6"));
        }
        // A snapshot archive made from the sample directory, as capture-host.sh makes them.
        QTemporaryDir tmp;
        const QString tgz = tmp.filePath("host250.tar.gz");
        QCOMPARE(QProcess::execute("tar", {"-czf", tgz, "-C", samples("snapshots"), "host250"}), 0);
        QVERIFY2(w.openPath(tgz), qPrintable(w.lastError()));
        QCOMPARE(w.session().host().mappings.processes().size(), std::size_t{250});
        for (const QString& xml : QDir(samples("topologies")).entryList({"*.xml"})) {
            QVERIFY2(w.openPath(samples("topologies/") + xml), qPrintable(w.lastError()));
        }
        QCOMPARE(w.session().host().topology->nodeCount(), std::size_t{12});  // numa12 last
        QVERIFY(!errorBox(w));
    }

    void malformedFileGivesADialogNotACrash() {
        gui::MainWindow w(false);
        w.loadDefault();
        w.show();
        QTemporaryDir tmp;
        const QString bad = tmp.filePath("maps");
        {
            QFile f(bad);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(
                "7f0000000000-7f0000001000 r--p 00000000 fe:00 1 /lib/a.so\n"
                "7f0000001000-7f0000002000 r-xp 00001000 fe:00 1 /lib/a.so\n"
                "this is not a maps line\n");
        }
        QVERIFY(!w.openPath(bad));
        QMessageBox* box = errorBox(w);
        QVERIFY(box);
        QTRY_VERIFY(box->isVisible());  // open(), not exec(): we got here without blocking
        QVERIFY2(box->text().contains(bad), qPrintable(box->text()));
        QVERIFY2(box->text().contains(QStringLiteral("Line: 3")), qPrintable(box->text()));
        QVERIFY(box->text().contains(QStringLiteral("Reason:")));
        // Nothing changed behind it.
        QCOMPARE(w.session().trees().liveCount(), std::size_t{6000});
        box->accept();
        QTRY_VERIFY(!errorBox(w));

        const QString badXml = tmp.filePath("topo.xml");
        {
            QFile f(badXml);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("<?xml version=\"1.0\"?><topology><object type=\"Machine\"");
        }
        QVERIFY(!w.openPath(badXml));
        QVERIFY(errorBox(w));
        QVERIFY(errorBox(w)->text().contains(badXml));
        QVERIFY(!w.openPath(tmp.filePath("missing-dir/")));
    }

    void selectionIsSharedBothWays() {
        gui::MainWindow w(false);
        w.loadDefault();
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        views::TreeView* single = w.splitView()->single();
        const auto& tree = single->tree();
        const int rootIndex = tree.root;
        const int rootId = tree.nodes[static_cast<std::size_t>(rootIndex)].id;
        QTest::mouseClick(single, Qt::LeftButton, {}, single->layout().center(rootIndex).toPoint());
        QCOMPARE(w.selectedId(), rootId);
        QCOMPARE(w.tableView()->selectedId(), rootId);
        QCOMPARE(w.tableDock()->selectedId(), rootId);
        QCOMPARE(w.treeView()->selectedId(), rootId);
        // The tree of the root VMA's home node selects it too.
        const int home = w.session().trees().entry(rootId).splitTree;
        QCOMPARE(w.splitView()->part(home)->selectedId(), rootId);
        // From the table to the trees.
        w.tableDock()->table()->selectRow(10);
        const int picked = w.tableDock()->selectedId();
        QVERIFY(picked >= 0 && picked != rootId);
        QCOMPARE(single->selectedId(), picked);
        QCOMPARE(w.tableView()->selectedId(), picked);
    }

    void exportsPngSvgPdf() {
        gui::MainWindow w(false);
        w.loadDefault();
        w.resize(1200, 800);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QTemporaryDir tmp;
        for (const char* name : {"view.png", "view.svg", "view.pdf"})
            QVERIFY2(w.exportView(tmp.filePath(name)), qPrintable(w.lastError()));
        QImage png(tmp.filePath("view.png"));
        QCOMPARE(png.size(), w.currentView()->size());
        QVERIFY(countColor(png, views::NodePalette::red().rgb()) > 50);
        QFile svg(tmp.filePath("view.svg"));
        QVERIFY(svg.open(QIODevice::ReadOnly));
        const QByteArray svgText = svg.readAll();
        QVERIFY(svgText.contains("<svg"));
        QVERIFY(svgText.contains("#d0212e"));  // the red fill
        QFile pdf(tmp.filePath("view.pdf"));
        QVERIFY(pdf.open(QIODevice::ReadOnly));
        QVERIFY(pdf.read(5) == "%PDF-");
        QVERIFY(pdf.size() > 2000);
        // Unknown format: an error, no file.
        QVERIFY(!w.exportView(tmp.filePath("view.bmp")));
        QVERIFY(!QFile::exists(tmp.filePath("view.bmp")));
        if (QMessageBox* b = errorBox(w)) b->accept();
    }

    void shardedTreesOnRequest() {
        gui::MainWindow w(false);
        w.loadDefault();
        QAction* sharded = nullptr;
        for (QAction* a : w.findChildren<QAction*>())
            if (a->text() == QLatin1String("sharded:64")) sharded = a;
        QVERIFY(sharded);
        sharded->trigger();
        // 384 CPUs in shards of 64 (two 32-CPU nodes each): six trees of 2 x 500 VMAs.
        QCOMPARE(w.splitView()->partCount(), 6);
        std::size_t total = 0;
        for (int i = 0; i < 6; ++i)
            total += w.splitView()->part(i)->tree().nodes.size();
        QCOMPARE(total, std::size_t{6000});
        QCOMPARE(w.splitView()->part(0)->tree().nodes.size(), std::size_t{1000});
    }

    void sourceArgumentsMeanWhatTheySay() {
        using gui::SourceArg;
        auto is = [](const QString& arg, SourceArg::Kind kind, const QString& spec) {
            const SourceArg a = gui::classifySource(arg);
            return a.kind == kind && a.spec == spec;
        };
        const QString dir = samples("snapshots/host250");
        QVERIFY(is(dir, SourceArg::Kind::Source, "snapshot:" + dir));
        QVERIFY(is("x/cap.tar.gz", SourceArg::Kind::Source, "snapshot:x/cap.tar.gz"));
        QVERIFY(is("cap.TGZ", SourceArg::Kind::Source, "snapshot:cap.TGZ"));
        QVERIFY(is("t/numa.xml", SourceArg::Kind::Topology, "xml:t/numa.xml"));
        QVERIFY(is("/proc/1/maps", SourceArg::Kind::Source, "maps:/proc/1/maps"));
        QVERIFY(is("live", SourceArg::Kind::Source, "live"));
        QVERIFY(is("synthetic:libc?processes=3", SourceArg::Kind::Source,
                   "synthetic:libc?processes=3"));
        QVERIFY(is("xml:a.xml", SourceArg::Kind::Topology, "xml:a.xml"));
    }

    void dropOpensASnapshot() {
        gui::MainWindow w(false);
        w.loadDefault();
        QMimeData mime;
        mime.setUrls({QUrl::fromLocalFile(samples("snapshots/host250"))});
        QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, {});
        QApplication::sendEvent(&w, &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, {});
        QApplication::sendEvent(&w, &drop);
        QCOMPARE(w.session().host().mappings.processes().size(), std::size_t{250});
    }

    void screenshotCommand() {
        QTemporaryDir tmp;
        const QString out = tmp.filePath("shot.png");
        QProcess p;
        p.start(QStringLiteral(IMMAP_GUI), {"--screenshot", out, "--size", "1000x700"});
        QVERIFY(p.waitForFinished(20000));
        QCOMPARE(p.exitCode(), 0);
        QImage img(out);
        QCOMPARE(img.size(), QSize(1000, 700));
        QVERIFY(countColor(img, views::NodePalette::red().rgb()) > 100);
        QVERIFY(countColor(img, views::NodePalette::black().rgb()) > 100);
        // The table view, from a given source.
        p.start(QStringLiteral(IMMAP_GUI),
                {"--screenshot", out, "--view", "table", samples("snapshots/host250")});
        QVERIFY(p.waitForFinished(20000));
        QCOMPARE(p.exitCode(), 0);
        QCOMPARE(QImage(out).size(), QSize(1600, 1000));
        // Another file of the default host, and a file it does not map.
        p.start(QStringLiteral(IMMAP_GUI), {"--screenshot", out, "--file", "ld-linux-x86-64.so.2"});
        QVERIFY(p.waitForFinished(20000));
        QCOMPARE(p.exitCode(), 0);
        p.start(QStringLiteral(IMMAP_GUI),
                {"--screenshot", tmp.filePath("nofile.png"), "--file", "no-such.so"});
        QVERIFY(p.waitForFinished(20000));
        QCOMPARE(p.exitCode(), 1);
        QVERIFY(QString::fromLocal8Bit(p.readAllStandardError()).contains("no-such.so"));
        // Bad input: no picture, a message naming the file, exit status 1.
        p.start(QStringLiteral(IMMAP_GUI),
                {"--screenshot", tmp.filePath("no.png"), "maps:" + tmp.filePath("missing")});
        QVERIFY(p.waitForFinished(20000));
        QCOMPARE(p.exitCode(), 1);
        QVERIFY(QString::fromLocal8Bit(p.readAllStandardError()).contains(tmp.filePath("missing")));
        QVERIFY(!QFile::exists(tmp.filePath("no.png")));
    }

    // Issue 15: a large legal host (200,000 synthetic processes, a second or more to read and
    // build) loads on a worker while the window's loop runs, and Cancel leaves the window on
    // the host it showed, file, trees and all.
    void aLongLoadShowsProgressAndCancels() {
        gui::MainWindow w(false);
        w.setHeadless(false);
        w.setAutoplay(false);
        w.show();
        w.loadDefault();
        const std::string before = w.session().host().source;
        const std::size_t vmasBefore = w.session().trees().liveCount();
        const QString big = QStringLiteral("synthetic:libc?processes=200000");
        int ticks = 0;
        QTimer tick;
        connect(&tick, &QTimer::timeout, [&] { ++ticks; });
        tick.start(1);
        bool sawProgress = false;
        QTimer::singleShot(0, &w, [&] {
            auto* progress = w.findChild<QProgressDialog*>();
            QVERIFY(progress);
            sawProgress = true;
            auto* button = progress->findChild<QPushButton*>();
            QVERIFY(button);
            button->click();
        });
        QVERIFY(!w.openSource(big));
        tick.stop();
        QVERIFY(sawProgress);
        QVERIFY2(ticks > 0, "the GUI thread was blocked for the whole load");
        QCOMPARE(w.session().host().source, before);
        QCOMPARE(w.session().trees().liveCount(), vmasBefore);
        // Not cancelled: it loads, and the window shows it.
        QVERIFY2(w.openSource(big), qPrintable(w.lastError()));
        QCOMPARE(w.session().host().source, big.toStdString());
        QVERIFY(w.session().trees().liveCount() >= 200000);
    }
};

IMMAP_TEST_SUITE(TestMainWindow);
#include "TestMainWindow.moc"
