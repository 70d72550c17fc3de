// The window's replay tab: a simulation recorded from the window opens for replay; the
// scrubber seeks and the drawn tree is the replay's tree at that event (node for node); the
// chosen file and tree switch what is drawn; bookmarks are kept beside the trace and survive
// reopening; a broken trace gives a dialog naming the line and shows what came before.
#include <QComboBox>
#include <QFile>
#include <QFileInfo>
#include <QListWidget>
#include <QMessageBox>
#include <QSlider>
#include <QTemporaryDir>
#include <QTest>

#include "MainWindow.h"
#include "Suites.h"
#include "trace/Bookmarks.h"

using namespace immap;

namespace {

// The drawn tree against the replay's own tree: same size, same in-order intervals.
bool drawnIsReplayed(gui::MainWindow& w, int file, int tree) {
    const session::DrawTree& d = w.replayTreeView()->tree();
    const itree::IntervalTree& t = w.traceCursor()->replay().tree(file, tree);
    if (d.nodes.size() != t.size()) return false;
    std::size_t i = 0;
    for (const itree::Node* n = t.leftmost(); n; n = itree::IntervalTree::next(n), ++i)
        if (d.nodes[i].start != n->start || d.nodes[i].last != n->last ||
            d.nodes[i].red != n->isRed())
            return false;
    return true;
}

}  // namespace

class TestReplayTab : public QObject {
    Q_OBJECT

private slots:
    void recordScrubAndBookmark() {
        QTemporaryDir dir;
        const QString path = dir.filePath("run.trace");
        gui::MainWindow w(false);
        w.loadDefault();
        QVERIFY(w.recordTrace(path, "split-trees", 24, 5));
        QVERIFY(w.traceCursor());
        const auto events = static_cast<qint64>(w.traceCursor()->events());
        QVERIFY(events > 1000);
        QCOMPARE(static_cast<qint64>(w.traceCursor()->position()), events);  // opens at the end
        QVERIFY(drawnIsReplayed(w, 0, 0));

        // Scrub with the slider.
        w.replayControls()->slider()->setValue(static_cast<int>(events / 3));
        QCOMPARE(static_cast<qint64>(w.traceCursor()->position()), events / 3);
        QVERIFY(drawnIsReplayed(w, 0, 0));
        QVERIFY(!w.replayControls()->eventText().isEmpty());

        // Another file and another tree.
        const int libc = w.replayControls()->files()->findText("libc.so.6");
        QVERIFY(libc >= 0);
        w.replayControls()->files()->setCurrentIndex(libc);
        w.replayControls()->trees()->setCurrentIndex(3);
        QVERIFY(drawnIsReplayed(w, libc, 3));

        // A bookmark, saved beside the trace, and back to it after moving away.
        w.addBookmark("a third of the way");
        const auto marks =
            trace::Bookmarks::load(trace::Bookmarks::sidecarPath(path.toStdString()));
        QCOMPARE(marks.size(), std::size_t{1});
        QCOMPARE(marks[0].event, static_cast<std::uint64_t>(events / 3));
        QCOMPARE(marks[0].caption, std::string("a third of the way"));
        w.replaySeek(10);
        QCOMPARE(w.replayControls()->bookmarks()->count(), 1);
        emit w.replayControls()->bookmarkChosen(0);
        QCOMPARE(static_cast<qint64>(w.traceCursor()->position()), events / 3);

        // Reopened, the bookmark is still there.
        gui::MainWindow again(false);
        again.loadDefault();
        QVERIFY(again.openTrace(path));
        QCOMPARE(again.replayControls()->bookmarks()->count(), 1);
    }

    void brokenTraceShowsWhatCameBefore() {
        QTemporaryDir dir;
        const QString good = dir.filePath("good.trace");
        gui::MainWindow w(false);
        w.loadDefault();
        QVERIFY(w.recordTrace(good, "single", 4, 2));
        QFile f(good);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QList<QByteArray> lines = f.readAll().split('\n');
        lines[50] = "12 nonsense 0 0";
        const QString bad = dir.filePath("bad.trace");
        QFile out(bad);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(lines.join('\n'));
        out.close();
        QVERIFY(w.openTrace(bad));
        QCOMPARE(w.traceCursor()->events(), std::uint64_t{49});
        auto* box = w.findChild<QMessageBox*>(QStringLiteral("errorDialog"));
        QVERIFY(box);
        QVERIFY2(box->text().contains(bad + ":51:"), qPrintable(box->text()));
        box->close();
        QVERIFY(!w.openTrace(dir.filePath("missing.trace")));
    }
};

IMMAP_TEST_SUITE(TestReplayTab);
#include "TestReplayTab.moc"
