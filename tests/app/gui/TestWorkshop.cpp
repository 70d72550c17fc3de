// Workshop scenarios in the window: opening one sets the topology, file, parameters, sweep grid,
// view and first caption to what the file says (read here with QJsonDocument, not with the
// loader under test); a bad one gives a dialog and changes nothing; save then open gives the same
// state; workshop mode scales the type and goes full screen, and back; PgDn/PgUp step through
// the captions; --scenario renders from the command line.
#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLocale>
#include <QMessageBox>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <QTextDocument>

#include "MainWindow.h"
#include "Suites.h"
#include "TextSizeProbe.h"
#include "session/Scenario.h"
#include "sim/RunCache.h"
#include "sim/RunKey.h"
#include "sim/Sweep.h"
#include "views/FontScale.h"
#include "views/SplitView.h"
#include "views/SweepControls.h"
#include "views/ThroughputView.h"
#include "views/TopologyView.h"
#include "views/TreeView.h"

using namespace immap;

namespace {

QString workshop(const QString& name) {
    return QStringLiteral(IMMAP_SAMPLES "/workshops/") + name;
}

QJsonObject readJson(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

QString plain(const QLabel* label) {
    QTextDocument d;
    d.setHtml(label->text());
    return d.toPlainText();
}

// `text` written to `name` in `dir`; the path, or empty when it could not be written.
QString writeFile(const QTemporaryDir& dir, const QString& name, const QByteArray& text) {
    const QString path = dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(text) != text.size()) return {};
    return path;
}

QMessageBox* errorBox(QWidget& w) {
    return w.findChild<QMessageBox*>(QStringLiteral("errorDialog"));
}

}  // namespace

class TestWorkshop : public QObject {
    Q_OBJECT

private slots:
    void openSetsWhatTheFileSays_data() {
        QTest::addColumn<QString>("file");
        QTest::newRow("libc-384") << workshop("libc-384.json");
        QTest::newRow("walkers") << workshop("walkers-and-memory.json");
    }
    void openSetsWhatTheFileSays() {
        QFETCH(QString, file);
        const QJsonObject o = readJson(file);
        QVERIFY(!o.isEmpty());
        gui::MainWindow w(false);
        w.setHeadless(false);
        w.loadDefault();
        QVERIFY2(w.openScenario(file), qPrintable(w.lastError()));

        // Topology: the sample machine, 12 nodes and 384 CPUs.
        QVERIFY(w.session().topologySpec().find("numa12-384cpu.xml") != std::string::npos);
        QCOMPARE(w.session().host().topology->nodeCount(), std::size_t{12});
        QCOMPARE(w.session().host().topology->pus().size(), std::size_t{384});
        QCOMPARE(QString::fromStdString(w.session().file().name()), o["file"].toString());
        QCOMPARE(QString::fromStdString(w.session().host().source), o["source"].toString());

        // The sweep grid, as the file lists it.
        QStringList policies;
        for (const QJsonValue& v : o["policies"].toArray())
            policies << v.toString();
        QCOMPARE(w.sweepControls()->policies(), policies.join(','));
        QStringList copies;
        for (const QJsonValue& v : o["copies"].toArray())
            copies << QString::number(v.toInt());
        QCOMPARE(w.sweepControls()->copies(), copies.join(','));
        QCOMPARE(w.sweepControls()->durationMs(), o["durationMs"].toInt());

        // Every parameter the file sets shows in the panel; the rest are the defaults.
        const QJsonObject params = o["params"].toObject();
        const sim::CostParams defaults;
        for (const auto& info : sim::CostParams::table()) {
            QDoubleSpinBox* e = w.paramsPanel()->editor(QString::fromLatin1(info.name));
            QVERIFY(e);
            const double want =
                params.contains(info.name) ? params[info.name].toDouble() : defaults.*(info.field);
            QCOMPARE(w.paramsPanel()->params().*(info.field), want);
            QVERIFY(std::abs(e->value() - want) <= std::max(1e-9, std::abs(want) * 1e-6));
        }

        // The view of the first bookmark (it names one) and its caption.
        const QJsonArray marks = o["bookmarks"].toArray();
        QCOMPARE(w.currentBookmark(), 0);
        QVERIFY(plain(w.captionLabel()).endsWith(marks[0].toObject()["caption"].toString()));
        QVERIFY(w.setView(marks[0].toObject()["view"].toString()));
        const QWidget* expected = w.currentView();
        w.setView("table");
        w.showBookmark(0);
        QCOMPARE(w.currentView(), expected);
    }

    void bookmarksStepWithPageKeys() {
        const QJsonArray marks = readJson(workshop("libc-384.json"))["bookmarks"].toArray();
        QVERIFY(marks.size() >= 3);
        gui::MainWindow w(false);
        w.loadDefault();
        QVERIFY(w.openScenario(workshop("libc-384.json")));
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto caption = [&](int i) { return marks[i].toObject()["caption"].toString(); };
        auto viewOf = [&](int i) {
            gui::MainWindow probe(false);
            probe.setView(marks[i].toObject()["view"].toString());
            return probe.tabs()->currentIndex();
        };
        QTest::keyClick(&w, Qt::Key_PageDown);
        QCOMPARE(w.currentBookmark(), 1);
        QVERIFY(plain(w.captionLabel()).endsWith(caption(1)));
        QVERIFY(plain(w.captionLabel()).startsWith(QStringLiteral("2/%1").arg(marks.size())));
        QCOMPARE(w.tabs()->currentIndex(), viewOf(1));
        QTest::keyClick(&w, Qt::Key_PageDown);
        QCOMPARE(w.currentBookmark(), 2);
        QVERIFY(plain(w.captionLabel()).endsWith(caption(2)));
        QTest::keyClick(&w, Qt::Key_PageUp);
        QCOMPARE(w.currentBookmark(), 1);
        QVERIFY(plain(w.captionLabel()).endsWith(caption(1)));
        // The ends hold: no wrap-around, no index past the list.
        for (int i = 0; i < marks.size() + 3; ++i)
            QTest::keyClick(&w, Qt::Key_PageDown);
        QCOMPARE(w.currentBookmark(), static_cast<int>(marks.size()) - 1);
        QVERIFY(plain(w.captionLabel()).endsWith(caption(static_cast<int>(marks.size()) - 1)));
        for (int i = 0; i < marks.size() + 3; ++i)
            QTest::keyClick(&w, Qt::Key_PageUp);
        QCOMPARE(w.currentBookmark(), 0);
    }

    // A slide chooses its docks: the ones it names, else none in workshop mode; the next tab
    // and leaving workshop mode bring the tab's own docks back.
    void slidesChooseTheirDocks() {
        QTemporaryDir dir;
        const QString path =
            writeFile(dir, QStringLiteral("docks.json"),
                      R"({"version": 1, "source": "synthetic:libc?processes=40&seed=1",
                    "bookmarks": [{"caption": "bare", "view": "split"},
                                  {"caption": "steps", "view": "split", "docks": ["steps"]}]})");
        QVERIFY(!path.isEmpty());
        gui::MainWindow w(false);
        w.loadDefault();
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.openScenario(path));
        auto shown = [&] {
            QStringList names;
            for (const QDockWidget* d : w.findChildren<QDockWidget*>())
                if (d->isVisible()) names << d->objectName();
            names.sort();
            return names;
        };
        const QStringList own = shown();  // not in workshop mode: the split tab's docks
        QVERIFY(own.contains(QStringLiteral("stepsDock")) && own.size() >= 2);
        w.setWorkshopMode(true);
        QApplication::processEvents();
        QCOMPARE(shown(), QStringList());  // bookmark 1 names none
        w.showBookmark(1);
        QApplication::processEvents();
        QCOMPARE(shown(), QStringList{QStringLiteral("stepsDock")});
        w.setWorkshopMode(false);
        QApplication::processEvents();
        QCOMPARE(shown(), own);
    }

    // A slide's zoom: the trees magnified about their roots, which keep their x, and their top
    // edges, which stay put; the next slide without a zoom shows them fitted again.
    void slidesZoomOnTheRoots() {
        QTemporaryDir dir;
        const QString path =
            writeFile(dir, QStringLiteral("zoom.json"),
                      R"({"version": 1, "source": "synthetic:libc?processes=400&seed=1",
                    "bookmarks": [{"caption": "close", "view": "split", "zoom": 4},
                                  {"caption": "whole", "view": "trees"}]})");
        QVERIFY(!path.isEmpty());
        gui::MainWindow w(false);
        w.loadDefault();
        w.resize(1280, 720);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.openScenario(path));
        QApplication::processEvents();
        views::TreeView* single = w.treePages()->split()->single();
        views::TreeView* part = w.treePages()->split()->part(0);
        for (views::TreeView* v : {single, part}) {
            const views::TreeLayout zoomed = v->layout();
            v->fitToWindow();
            const views::TreeLayout fitted = v->layout();
            QVERIFY(qFuzzyCompare(zoomed.sx, 4 * fitted.sx));
            const int root = v->tree().root;
            QVERIFY(std::abs(zoomed.center(root).x() - fitted.center(root).x()) < 0.01);
            // The tree's top edge stays put: the rows grow downwards.
            QVERIFY(std::abs((zoomed.rowTop.front() * zoomed.sy + zoomed.oy) -
                             (fitted.rowTop.front() * fitted.sy + fitted.oy)) < 0.01);
        }
        w.showBookmark(0);
        w.showBookmark(1);
        QApplication::processEvents();
        for (views::TreeView* v : {w.treeView(), single}) {
            const double now = v->layout().sx;
            v->fitToWindow();
            QCOMPARE(now, v->layout().sx);
        }
    }

    void workshopModeScalesTypeAndGoesFullScreen() {
        gui::MainWindow w(false);
        w.loadDefault();
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        const QFont before = QApplication::font();
        const QFont labelBefore = w.captionLabel()->font();
        QVERIFY(!w.isFullScreen());
        QTest::keyClick(&w, Qt::Key_F11);
        QApplication::processEvents();
        QVERIFY(w.workshopMode());
        QVERIFY(w.windowState() & Qt::WindowFullScreen);
        const QFont big = QApplication::font();
        if (before.pointSizeF() > 0)
            QCOMPARE(big.pointSizeF(), before.pointSizeF() * gui::MainWindow::kWorkshopScale);
        else
            QCOMPARE(big.pixelSize(), qRound(before.pixelSize() * gui::MainWindow::kWorkshopScale));
        // Every widget follows: the caption, a tab's table and the parameters panel.
        QCOMPARE(w.captionLabel()->font(), big);
        QCOMPARE(w.tableView()->font(), big);
        QCOMPARE(w.paramsPanel()->font(), big);
        QVERIFY(w.captionLabel()->isVisible());
        // The text the views paint themselves (tree titles, axes, topology labels) scales too.
        QCOMPARE(views::fontScale(), gui::MainWindow::kWorkshopScale);
        QCOMPARE(views::scaledPx(20), 32);                 // 1.6 x 20
        QCOMPARE(views::scaledPx(8), views::kSlideMinPx);  // never under 18 px on a slide
        auto* action = w.findChild<QAction*>(QStringLiteral("workshopAction"));
        QVERIFY(action && action->isChecked());

        QTest::keyClick(&w, Qt::Key_F11);
        QApplication::processEvents();
        QVERIFY(!w.workshopMode());
        QVERIFY(!(w.windowState() & Qt::WindowFullScreen));
        QCOMPARE(QApplication::font(), before);
        QCOMPARE(views::fontScale(), 1.0);
        QCOMPARE(w.captionLabel()->font(), labelBefore);
        QVERIFY(!action->isChecked());
        QVERIFY(!w.captionLabel()->isVisible());  // no scenario, no captions
        // Without bookmarks PgDn/PgUp are not taken from the tables.
        auto* next = w.findChild<QAction*>(QStringLiteral("nextBookmark"));
        QVERIFY(next && !next->isEnabled());
    }

    void saveThenOpenGivesTheSameState() {
        QTemporaryDir dir;
        gui::MainWindow w(false);
        w.loadDefault();
        QVERIFY(w.openScenario(workshop("walkers-and-memory.json")));
        // Change what a user would: parameters, grid, view.
        w.paramsPanel()->editor("tree_op_ns")->setValue(21);
        w.sweepControls()->setPolicies("single,sharded:32");
        w.sweepControls()->setCopies("1,8");
        w.setView("topology");
        const QString path = dir.filePath("mine.json");
        QVERIFY2(w.saveScenario(path), qPrintable(w.lastError()));

        // Only the parameters that differ from the defaults are written: the one changed, and
        // the scenario's own (its walkers wait for the lock).
        const QJsonObject o = readJson(path);
        QCOMPARE(o["params"].toObject().keys(), (QStringList{"tree_op_ns", "walker_trylock"}));
        QCOMPARE(o["view"].toString(), QStringLiteral("topology"));
        QCOMPARE(o["walkersPerSecond"].toDouble(), 10000.0);

        gui::MainWindow again(false);
        again.loadDefault();
        QVERIFY2(again.openScenario(path), qPrintable(again.lastError()));
        QCOMPARE(again.paramsPanel()->params().treeOpNs, 21.0);
        QCOMPARE(again.sweepControls()->policies(), QStringLiteral("single,sharded:32"));
        QCOMPARE(again.sweepControls()->copies(), QStringLiteral("1,8"));
        QCOMPARE(again.session().topologySpec(), w.session().topologySpec());
        QCOMPARE(again.session().file().name(), w.session().file().name());
        QCOMPARE(again.scenario().bookmarks, w.scenario().bookmarks);
        QCOMPARE(again.scenario().walkersPerSecond.value_or(-1), 10000.0);
        QCOMPARE(again.sweepControls()->walkersPerSecond(), 10000.0);
        QVERIFY(again.sweepControls()->sideBySide());
        // The recipe path still resolves from the new place.
        QVERIFY(!again.scenario().recipePath.empty());

        // The sweep's walker fields are saved too, and shown again on opening.
        w.sweepControls()->walkersField()->setValue(2500);
        w.sweepControls()->sideBySideBox()->setChecked(false);
        QCOMPARE(w.session().settings().walkerRates(), std::vector<double>{2500});
        const QString alone = dir.filePath("alone.json");
        QVERIFY2(w.saveScenario(alone), qPrintable(w.lastError()));
        const QJsonObject a = readJson(alone);
        QCOMPARE(a["walkersPerSecond"].toDouble(), 2500.0);
        QCOMPARE(a["walkersSideBySide"], QJsonValue(false));
        QVERIFY2(again.openScenario(alone), qPrintable(again.lastError()));
        QCOMPARE(again.sweepControls()->walkersPerSecond(), 2500.0);
        QVERIFY(!again.sweepControls()->sideBySide());
        QCOMPARE(again.session().settings().walkerRates(), std::vector<double>{2500});
    }

    // A scenario opened with its sweep's runs saves them again while its settings are the
    // same (a presenter's save does not lose what a bake took minutes to make), none of them
    // once a parameter changes what its sweep would run, and "with results" writes what the
    // cache holds of the new settings.
    void savingKeepsTheResultsOfItsSettings() {
        sim::RunCache memory{std::string()};
        sim::RunCache::setProcess(&memory);
        struct Unset {
            ~Unset() { sim::RunCache::setProcess(nullptr); }
        } unset;
        QTemporaryDir dir;
        const QString shipped = workshop("walkers-and-memory.json");
        const session::Scenario baked = session::Scenario::load(shipped.toStdString());
        QVERIFY(baked.results.size() > 100);
        gui::MainWindow w(false);
        w.loadDefault();
        QVERIFY(w.openScenario(shipped));
        const QString same = dir.filePath("same.json");
        QVERIFY2(w.saveScenario(same), qPrintable(w.lastError()));
        QVERIFY(session::Scenario::load(same.toStdString()).results == baked.results);
        // Every shipped workshop carries every run of its sweep: a model version bump or a key
        // change without baking again fails here, not on a projector.
        for (const char* name : {"walkers-and-memory.json", "libc-384.json"}) {
            gui::MainWindow one(false);
            one.loadDefault();
            QVERIFY(one.openScenario(workshop(name)));
            const std::vector<sim::SweepRun> runs =
                sim::Sweep::runs(one.session().settings().sweep(*one.session().host().topology, 1));
            const auto carried = session::Scenario::load(workshop(name).toStdString()).results;
            QCOMPARE(carried.size(), runs.size());
            std::size_t known = 0;
            for (const sim::SweepRun& r : runs)
                known += carried.count(sim::RunKey::of(r.config));
            QVERIFY2(known == runs.size(), name);
        }
        const double treeOpNs = w.paramsPanel()->editor("tree_op_ns")->value();
        w.paramsPanel()->editor("tree_op_ns")->setValue(21);
        const QString changed = dir.filePath("changed.json");
        QVERIFY2(w.saveScenario(changed), qPrintable(w.lastError()));
        QVERIFY(session::Scenario::load(changed.toStdString()).results.empty());
        QVERIFY2(w.saveScenario(changed, true), qPrintable(w.lastError()));
        QVERIFY(session::Scenario::load(changed.toStdString()).results.empty());
        // Back to the baked value: its runs are known again, so "with results" writes them.
        w.paramsPanel()->editor("tree_op_ns")->setValue(treeOpNs);
        QVERIFY2(w.saveScenario(changed, true), qPrintable(w.lastError()));
        QVERIFY(session::Scenario::load(changed.toStdString()).results == baked.results);
    }

    // Every tab saves as its own view and opens on it again. The Contention tab used to be
    // saved as "" (the window kept its own copy of the view names, and it had six).
    void everyTabSavesAsItsViewAndOpensOnIt() {
        QTemporaryDir dir;
        gui::MainWindow w(false);
        w.loadDefault();
        for (const std::string& name : session::Scenario::viewNames()) {
            const QString view = QString::fromStdString(name);
            QVERIFY2(w.setView(view), name.c_str());
            QCOMPARE(w.currentScenario().view, name);
            const QString path = dir.filePath(view + ".json");
            QVERIFY2(w.saveScenario(path), qPrintable(w.lastError()));
            QCOMPARE(readJson(path)["view"].toString(), view);
            gui::MainWindow again(false);
            again.loadDefault();
            QVERIFY2(again.openScenario(path), qPrintable(again.lastError()));
            QCOMPARE(again.currentViewName(), view);
        }
        QVERIFY(!w.setView(QStringLiteral("no-such-view")));
    }

    void badScenarioGivesADialogAndChangesNothing() {
        QTemporaryDir dir;
        const QString bad = writeFile(
            dir, "bad.json", "{\"version\": 1,\n \"policies\": [\"single\",\n \"split-all\"]}\n");
        QVERIFY(!bad.isEmpty());
        gui::MainWindow w(false);
        w.setHeadless(false);
        QVERIFY(w.openScenario(workshop("libc-384.json")));
        const std::size_t vmas = w.session().trees().liveCount();
        const QString policies = w.sweepControls()->policies();
        QVERIFY(!w.openScenario(bad));
        QMessageBox* box = errorBox(w);
        QVERIFY(box);
        QVERIFY(box->text().contains(bad));
        QVERIFY(box->text().contains(QStringLiteral("Line: 3")));
        QVERIFY(box->text().contains(QStringLiteral("unknown policy \"split-all\"")));
        QCOMPARE(w.session().trees().liveCount(), vmas);
        QCOMPARE(w.sweepControls()->policies(), policies);
        QCOMPARE(w.currentBookmark(), 0);
        box->accept();
    }

    // A scenario with a throughput slide starts its sweep as it opens: the plot shows its
    // progress and the topology's heat legend says it is coming; when it ends, the plot and
    // the heat show its runs. Opening a scenario without one clears all of it and starts
    // nothing; with precompute off nothing starts either.
    void openingComputesTheSlidesSweep() {
        QTemporaryDir dir;
        auto write = [&](const QString& name, const QString& view) {
            return writeFile(
                dir, name,
                QStringLiteral(
                    "{\"version\": 1, \"title\": \"t\", \"topology\": "
                    "\"synthetic:package:1 numa:2 core:2 pu:1\", \"source\": "
                    "\"synthetic:libc?processes=40&seed=1\", \"policies\": [\"single\", "
                    "\"split-locks\"], \"copies\": [1, 4], \"durationMs\": 5, \"bands\": 0, "
                    "\"walkersPerSecond\": 0,"
                    " \"bookmarks\": [{\"view\": \"split\", \"caption\": \"a\"}, "
                    "{\"view\": \"%1\", \"caption\": \"b\"}]}\n")
                    .arg(view)
                    .toUtf8());
        };
        const QString withSweep = write("sweep.json", "throughput");
        const QString without = write("none.json", "topology");
        gui::MainWindow w(false);
        w.setHeadless(false);
        // What the plot and the heat legend say while the sweep runs, at its first progress
        // (the page's own handler, connected first, has updated them by then).
        QString overlay, heat;
        connect(w.sweeps(), &SweepController::progress, &w, [&] {
            if (!overlay.isEmpty()) return;
            overlay = w.throughputView()->overlay();
            heat = w.topologyView()->heatLegendText();
        });
        QVERIFY(w.openScenario(withSweep));
        QCOMPARE(w.currentBookmark(), 0);  // a split slide first: the sweep runs behind it
        QVERIFY(!w.sweeps()->running());   // queued: the caller's settings go in first
        QTRY_VERIFY_WITH_TIMEOUT(!overlay.isEmpty(), 60000);
        QVERIFY2(overlay.startsWith(QStringLiteral("Simulating")), qPrintable(overlay));
        QVERIFY2(heat.contains(QStringLiteral("sweep is running")), qPrintable(heat));
        QTRY_VERIFY_WITH_TIMEOUT(!w.sweeps()->running() && !w.throughputView()->runs().empty(),
                                 120000);
        QCOMPARE(w.throughputView()->runs().size(), std::size_t{4});  // 2 policies x 2 counts
        QVERIFY(w.throughputView()->overlay().isEmpty());
        QVERIFY(w.topologyView()->hasHeat());
        QCOMPARE(w.session().sweepResults().size(), std::size_t{4});

        QVERIFY(w.openScenario(without));
        QTest::qWait(200);
        QVERIFY(!w.sweeps()->running());
        QVERIFY(w.throughputView()->runs().empty());
        QVERIFY(w.session().sweepResults().empty());
        QVERIFY(!w.topologyView()->hasHeat());

        w.workshop()->setPrecompute(false);
        QVERIFY(w.openScenario(withSweep));
        QTest::qWait(200);
        QVERIFY(!w.sweeps()->running());
        QVERIFY(w.throughputView()->runs().empty());
    }

    // Every slide of the shipped scenarios fits 1280x720 in workshop mode, and every text
    // painted on it is at least 18 px high (TextSizeProbe sees each text run the window paints,
    // widgets' and views' alike; the throughput plot paints from a buffer, and its fonts are
    // checked through pxFont's floor instead).
    void slidesTextIsAtLeast18Px_data() {
        QTest::addColumn<QString>("file");
        QTest::newRow("libc-384") << workshop("libc-384.json");
        QTest::newRow("walkers") << workshop("walkers-and-memory.json");
    }
    void slidesTextIsAtLeast18Px() {
        QFETCH(QString, file);
        gui::MainWindow w(false);
        w.setHeadless(false);
        w.workshop()->setPrecompute(false);
        QVERIFY(w.openScenario(file));
        w.setWorkshopMode(true);
        w.setWindowState(w.windowState() & ~Qt::WindowFullScreen);  // offscreen: 800x800
        w.resize(1280, 720);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QStringList small;
        for (int i = 0; i < static_cast<int>(w.scenario().bookmarks.size()); ++i) {
            w.showBookmark(i);
            w.resize(1280, 720);
            QApplication::processEvents();
            // The slide fits the projector: nothing's minimum size pushes the window past it
            // (a throughput slide's fields, summary and caption once made it 754 px tall).
            QVERIFY2(
                w.size() == QSize(1280, 720),
                qPrintable(
                    QStringLiteral("slide %1: %2x%3").arg(i + 1).arg(w.width()).arg(w.height())));
            TextSizeProbe probe(w.size());
            w.render(&probe);
            QVERIFY(probe.texts().size() > 10);
            for (const TextSizeProbe::Text& t : probe.texts())
                if (t.px < views::kSlideMinPx - 0.5)
                    small << QStringLiteral("slide %1: \"%2\" %3 px at (%4, %5)")
                                 .arg(i + 1)
                                 .arg(t.text.left(40))
                                 .arg(t.px, 0, 'f', 1)
                                 .arg(t.at.x(), 0, 'f', 0)
                                 .arg(t.at.y(), 0, 'f', 0);
        }
        small.removeDuplicates();
        QVERIFY2(small.isEmpty(), qPrintable(small.mid(0, 30).join('\n')));
    }

    // A slide's quoted points are written on the plot once its sweep is in: each figure is
    // the sweep's own result for that policy and copy count (read from the session's runs,
    // not from the plot), execs/s and, for a policy other than single, its ratio to single.
    void slideWritesTheFiguresItQuotes() {
        QTemporaryDir dir;
        const QString path =
            writeFile(dir, "quote.json",
                      R"({"version": 1, "topology": "synthetic:package:1 numa:2 core:2 pu:1",
 "source": "synthetic:libc?processes=40&seed=1", "policies": ["single", "split-locks"],
 "copies": [1, 4], "durationMs": 5, "bands": 0, "walkersPerSecond": 5000,
 "bookmarks": [{"view": "throughput", "caption": "q",
                "points": [{"policy": "split-locks", "copies": 4}]},
               {"view": "throughput", "caption": "with walkers",
                "points": [{"policy": "split-locks", "copies": 4, "walkers": true}]},
               {"view": "split", "caption": "none"}]})");
        QVERIFY(!path.isEmpty());
        gui::MainWindow w(false);
        w.setHeadless(false);
        QVERIFY(w.openScenario(path));
        QTRY_VERIFY_WITH_TIMEOUT(!w.session().sweepResults().empty(), 120000);
        // The sweep's own results at 4 copies, without walkers (0) and with (5000/s).
        auto at = [&](const char* policy, double walkers) -> const sim::SimResult* {
            for (const sim::SimResult& r : w.session().sweepResults())
                if (r.copies == 4 && r.policy == policy && r.walkersPerSecond == walkers) return &r;
            return nullptr;
        };
        for (double walkers : {0.0, 5000.0}) {
            const sim::SimResult* locks = at("split-locks", walkers);
            const sim::SimResult* single = at("single", walkers);
            QVERIFY(locks && single && locks->execsPerSecond > 0 && single->execsPerSecond > 0);
            QString execs = QLocale().toString(locks->execsPerSecond, 'f', 0) + " execs/s";
            if (walkers > 0) {
                QVERIFY(locks->walks > 0);
                execs += ", walk " + QLocale().toString(locks->walkerLatencyMeanNs / 1e3, 'f', 1) +
                         " µs";
            }
            const QStringList want = {
                execs,
                QLocale().toString(locks->execsPerSecond / single->execsPerSecond, 'f', 2) + "x"};
            QCOMPARE(w.throughputView()->markTexts(), want);
            w.nextBookmark();
        }
        // A slide that quotes nothing clears them.
        QVERIFY(w.throughputView()->markTexts().isEmpty());
    }

    void screenshotFromTheCommandLine() {
        QTemporaryDir dir;
        const QString png = dir.filePath("w.png");
        QProcess p;
        p.start(QStringLiteral(IMMAP_GUI),
                {"--scenario", workshop("libc-384.json"), "--bookmark", "2", "--workshop", "--view",
                 "topology", "--screenshot", png, "--size", "1200x800"});
        QVERIFY(p.waitForFinished(120000));
        QCOMPARE(p.exitCode(), 0);
        const QString out = QString::fromUtf8(p.readAllStandardOutput());
        const QString caption = readJson(workshop("libc-384.json"))["bookmarks"]
                                    .toArray()[1]
                                    .toObject()["caption"]
                                    .toString();
        QVERIFY2(out.contains(QStringLiteral("bookmark 2/")) && out.contains(caption),
                 qPrintable(out));
        QVERIFY(QImage(png).size() == QSize(1200, 800));

        // A bad scenario: exit 1 and the reason on stderr.
        QProcess bad;
        bad.start(QStringLiteral(IMMAP_GUI),
                  {"--scenario", dir.filePath("none.json"), "--screenshot", png});
        QVERIFY(bad.waitForFinished(60000));
        QCOMPARE(bad.exitCode(), 1);
        QVERIFY(QString::fromUtf8(bad.readAllStandardError()).contains("none.json"));
    }
};

IMMAP_TEST_SUITE(TestWorkshop);
#include "TestWorkshop.moc"
