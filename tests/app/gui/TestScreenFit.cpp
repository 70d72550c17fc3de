// The window on a projector (issue 19, point 1): it opens inside the screen's available area
// (a saved geometry only if it still fits), every tab title is whole at 1280x720 and
// 1920x1080, no dock reaches past the window, and each view shows only the docks it uses,
// remembering what the user shows or hides there.
#include <QAction>
#include <QDockWidget>
#include <QTabBar>
#include <QTest>

#include "MainWindow.h"
#include "Suites.h"

using namespace immap;

namespace {

// The offscreen platform may clamp a first resize to its own 800x800 screen; a second sticks.
void sizeTo(gui::MainWindow& w, QSize size) {
    w.resize(size);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.resize(size);
    QApplication::processEvents();
}

// What a window of this size at this place saves.
QByteArray savedGeometry(QSize size, QPoint at) {
    gui::MainWindow w(false);
    w.resize(size);
    w.move(at);
    return w.saveGeometry();
}

QStringList visibleDocks(const gui::MainWindow& w) {
    QStringList names;
    for (const QDockWidget* d : w.findChildren<QDockWidget*>())
        if (d->isVisible()) names << d->objectName();
    names.sort();
    return names;
}

}  // namespace

class TestScreenFit : public QObject {
    Q_OBJECT
private slots:
    void opensInsideTheScreen() {
        const QRect projector(0, 0, 1280, 720);
        const QRect desktop(0, 0, 1920, 1080);
        {
            gui::MainWindow w(false);
            w.placeWithin(desktop);
            QCOMPARE(w.size(), QSize(1600, 1000));
            QVERIFY(desktop.contains(w.geometry()));
            QVERIFY(!w.isMaximized());
        }
        {
            gui::MainWindow w(false);
            w.placeWithin(projector);
            QVERIFY2(
                projector.contains(w.geometry()),
                qPrintable(
                    QString("%1x%2+%3+%4").arg(w.width()).arg(w.height()).arg(w.x()).arg(w.y())));
            QVERIFY(w.windowState() & Qt::WindowMaximized);
        }
        // A geometry saved on the desktop is not restored on the projector; one that fits is.
        {
            gui::MainWindow w(false);
            w.placeWithin(projector, savedGeometry({1600, 1000}, {200, 40}));
            QVERIFY(projector.contains(w.geometry()));
        }
        {
            gui::MainWindow w(false);
            w.placeWithin(projector, savedGeometry({700, 500}, {30, 20}));
            QCOMPARE(w.size(), QSize(700, 500));
            QCOMPARE(w.pos(), QPoint(30, 20));
        }
    }

    void tabsWholeAndDocksInside_data() {
        QTest::addColumn<QSize>("size");
        QTest::newRow("1280x720") << QSize(1280, 720);
        QTest::newRow("1920x1080") << QSize(1920, 1080);
    }
    void tabsWholeAndDocksInside() {
        QFETCH(QSize, size);
        gui::MainWindow w(false);
        w.loadDefault();
        sizeTo(w, size);
        QCOMPARE(w.size(), size);
        // Each view's docks: the trees' picker, VMA list and steps; the table's picker; the
        // throughput plot's parameters; nothing beside topology, replay and contention.
        const std::map<QString, QStringList> expected = {
            {"split", {"filesDock", "stepsDock", "vmaDock"}},
            {"trees", {"filesDock", "stepsDock", "vmaDock"}},
            {"table", {"filesDock"}},
            {"throughput", {"paramsDock"}},
            {"topology", {}},
            {"replay", {}},
            {"contention", {}}};
        for (const auto& [view, docks] : expected) {
            QVERIFY(w.setView(view));
            QApplication::processEvents();
            QCOMPARE(visibleDocks(w), docks);
            for (const QDockWidget* d : w.findChildren<QDockWidget*>()) {
                // A dock behind another's tab is parked off the window, not drawn.
                if (!d->isVisible() || d->visibleRegion().isEmpty()) continue;
                const QRect r(d->mapTo(&w, QPoint(0, 0)), d->size());
                QVERIFY2(w.rect().contains(r), qPrintable(QString("%1: %2 at %3x%4+%5+%6")
                                                              .arg(view, d->objectName())
                                                              .arg(r.width())
                                                              .arg(r.height())
                                                              .arg(r.x())
                                                              .arg(r.y())));
            }
            // In front of the tabbed docks: the VMA list beside the trees, the picker beside
            // the table.
            if (!docks.isEmpty())
                QVERIFY(!w.findChild<QDockWidget*>(docks.contains("vmaDock") ? "vmaDock"
                                                                             : docks.first())
                             ->visibleRegion()
                             .isEmpty());
            // The page gets most of the window when no dock is beside it.
            const QWidget* page = w.currentView();
            QVERIFY2(page->width() >= size.width() * (docks.isEmpty() ? 0.95 : 0.6),
                     qPrintable(view));
        }
        const QTabBar* bar = w.tabs()->tabBar();
        for (int i = 0; i < bar->count(); ++i) {
            const QRect r = bar->tabRect(i);
            QVERIFY2(bar->rect().contains(r), qPrintable(bar->tabText(i)));
            QVERIFY2(r.width() > bar->fontMetrics().horizontalAdvance(bar->tabText(i)),
                     qPrintable(bar->tabText(i)));
        }
    }

    void aViewRemembersTheUsersDocks() {
        gui::MainWindow w(false);
        w.loadDefault();
        sizeTo(w, {1280, 720});
        w.setView("throughput");
        QApplication::processEvents();
        auto* params = w.findChild<QDockWidget*>(QStringLiteral("paramsDock"));
        auto* steps = w.findChild<QDockWidget*>(QStringLiteral("stepsDock"));
        QVERIFY(params->isVisible());
        params->toggleViewAction()->trigger();  // View > Parameters: hidden by the user
        QVERIFY(!params->isVisible());
        w.setView("split");
        QApplication::processEvents();
        QVERIFY(steps->isVisible());
        QVERIFY(!params->isVisible());
        steps->close();  // the dock's own close button
        w.setView("throughput");
        QApplication::processEvents();
        QVERIFY(!params->isVisible());
        QVERIFY(!params->toggleViewAction()->isChecked());
        w.setView("trees");  // the choice was the split view's only
        QApplication::processEvents();
        QVERIFY(steps->isVisible());
        w.setView("split");
        QApplication::processEvents();
        QVERIFY(!steps->isVisible());
        QVERIFY(!steps->toggleViewAction()->isChecked());
    }
};

IMMAP_TEST_SUITE(TestScreenFit);
#include "TestScreenFit.moc"
