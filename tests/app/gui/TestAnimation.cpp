// Step animation in the window: forward to the end and back to the start gives the picture from
// before; shortcuts drive the player; captions name the kernel step; exec/exit run recipes.
#include <QPainter>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>

#include <QComboBox>
#include <QLineEdit>

#include "InsertVmaDialog.h"
#include "MainWindow.h"
#include "Suites.h"
#include "views/NodePalette.h"

using namespace immap;

namespace {

// The split view's trees (single and per-node) as they stand, motion finished. Only the trees:
// the page axis shows the file's live VMAs, which an update changes at once by design.
QImage still(gui::MainWindow& w) {
    views::SplitView* split = w.splitView();
    QImage img(split->size(), QImage::Format_ARGB32_Premultiplied);
    img.fill(Qt::white);
    QPainter p(&img);
    std::vector<views::TreeView*> trees{split->single()};
    for (int i = 0; i < split->partCount(); ++i)
        trees.push_back(split->part(i));
    for (views::TreeView* v : trees) {
        v->finishMotion();
        p.save();
        p.translate(v->mapTo(split, QPoint(0, 0)));
        v->paintTo(p, v->rect());
        p.restore();
    }
    p.end();
    return img;
}

void open(gui::MainWindow& w) {
    QCoreApplication::setOrganizationName(QStringLiteral("immap-lab-tests"));
    w.setAutoplay(false);
    QVERIFY(w.openSource(QStringLiteral("synthetic:libc?processes=60&seed=2"),
                         QStringLiteral("synthetic:numa:4 core:4 pu:1")));
    w.resize(1400, 900);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
}

}  // namespace

class TestAnimation : public QObject {
    Q_OBJECT
private slots:
    void forwardToEndAndBackIsThePictureFromBefore() {
        gui::MainWindow w(false);
        open(w);
        const QImage before = still(w);
        w.insertVma(session::ExecRecipe::vma(999, 2, 0x30, 0x40, "r--p"));
        auto* player = w.animation()->player();
        QVERIFY(player && player->count() > 5);
        QCOMPARE(still(w), before);  // at the start the picture has not changed yet
        int steps = 0;
        while (!player->atEnd()) {
            w.animation()->forward();
            ++steps;
        }
        QCOMPARE(steps, int(player->count()));
        const QImage end = still(w);
        QVERIFY(end != before);
        QCOMPARE(w.splitView()->single()->tree().nodes.size(), std::size_t{301});
        while (!player->atStart())
            w.animation()->back();
        QCOMPARE(still(w), before);
        QCOMPARE(w.splitView()->single()->tree().nodes.size(), std::size_t{300});
        // Forward again lands on the same end picture: the replay is exact both ways.
        w.animation()->toEnd();
        QCOMPARE(still(w), end);
    }

    void aBTreePolicyPlaysItsBTreesBothWays() {
        // Issue 20: under btree+split-trees every tree tab draws the B-tree indexes, and an
        // insert plays the B-tree's own steps; back to the start is the picture from before.
        gui::MainWindow w(false);
        open(w);
        w.treePages()->setSplitPolicy(QStringLiteral("btree+split-trees"));
        views::SplitView* split = w.splitView();
        QCOMPARE(split->partCount(), 4);
        QVERIFY(split->single()->showsBTree() && w.treeView()->showsBTree());
        for (int i = 0; i < split->partCount(); ++i)
            QVERIFY(split->part(i)->showsBTree());
        QCOMPARE(split->single()->btree().items, std::size_t{300});
        const QImage before = still(w);
        w.insertVma(session::ExecRecipe::vma(999, 2, 0x30, 0x40, "r--p"));
        auto* player = w.animation()->player();
        QVERIFY(dynamic_cast<session::BTreePlayer*>(player));
        QCOMPARE(still(w), before);
        w.animation()->forward();
        QVERIFY2(w.controls()->caption().startsWith(
                     QStringLiteral("single tree: insert pid 999 [0x30, 0x6f]: descend")),
                 qPrintable(w.controls()->caption()));
        w.animation()->toEnd();
        const QImage end = still(w);
        QVERIFY(end != before);
        QCOMPARE(split->single()->btree().items, std::size_t{301});
        QCOMPARE(split->part(2)->btree().items, w.session().trees().btree(3).size());
        while (!player->atStart())
            w.animation()->back();
        QCOMPARE(still(w), before);
        // A click on a leaf slot selects that VMA in the window (and so in the table).
        views::TreeView* single = split->single();
        const session::DrawBTree& d = single->btree();
        const int leaf = d.leaves().front();
        const int id = d.nodes[static_cast<std::size_t>(leaf)].id[0];
        const QRectF r = single->btreeLayout().slotRect(leaf, 0);
        QTest::mouseClick(single, Qt::LeftButton, {}, r.center().toPoint());
        QCOMPARE(w.treePages()->selectedId(), id);
        QCOMPARE(w.treePages()->table()->selectedId(), id);
        // Back to the kernel's rbtree: discs again.
        w.treePages()->setSplitPolicy(QStringLiteral("split-trees"));
        QVERIFY(!split->single()->showsBTree());
    }

    void shortcutsDriveThePlayer() {
        gui::MainWindow w(false);
        open(w);
        w.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        w.execProcess();
        auto* player = w.animation()->player();
        QVERIFY(player);
        QCOMPARE(player->position(), std::size_t{0});
        QTest::keyClick(&w, Qt::Key_Right);
        QTest::keyClick(&w, Qt::Key_Right);
        QCOMPARE(player->position(), std::size_t{2});
        QTest::keyClick(&w, Qt::Key_Left);
        QCOMPARE(player->position(), std::size_t{1});
        QTest::keyClick(&w, Qt::Key_End);
        QVERIFY(player->atEnd());
        QTest::keyClick(&w, Qt::Key_Home);
        QVERIFY(player->atStart());
        QSignalSpy playing(w.animation(), &gui::AnimationController::playingChanged);
        // The caption says what Space does now.
        QVERIFY2(w.controls()->caption().endsWith(QStringLiteral("Space plays")),
                 qPrintable(w.controls()->caption()));
        QTest::keyClick(&w, Qt::Key_Space);
        QVERIFY(w.animation()->playing());
        QVERIFY2(w.controls()->caption().endsWith(QStringLiteral("Space pauses")),
                 qPrintable(w.controls()->caption()));
        QTest::keyClick(&w, Qt::Key_Plus);
        QTest::keyClick(&w, Qt::Key_Plus);
        QCOMPARE(w.animation()->speed(), 4.0);
        QTRY_VERIFY_WITH_TIMEOUT(player->position() >= 3, 20000);  // generous: CI is loaded
        QTest::keyClick(&w, Qt::Key_Space);
        QVERIFY(!w.animation()->playing());
        QVERIFY(w.controls()->caption().endsWith(QStringLiteral("Space plays")));
        QCOMPARE(playing.count(), 2);
        QCOMPARE(w.controls()->slider()->value(), int(player->position()));
    }

    void captionsNameTheKernelStep() {
        gui::MainWindow w(false);
        open(w);
        w.execProcess();
        w.animation()->forward();
        QVERIFY2(w.controls()->caption().contains(
                     QStringLiteral("single tree, vma_interval_tree_insert: insert pid")),
                 qPrintable(w.controls()->caption()));
        // Somewhere in five inserts into six trees the fix-up runs; its caption names the case.
        bool fixup = false;
        while (!w.animation()->player()->atEnd()) {
            w.animation()->forward();
            fixup = fixup || w.controls()->caption().contains(QStringLiteral("insert fix-up"));
        }
        QVERIFY(fixup);
    }

    void execAndExitRunTheirRecipes() {
        gui::MainWindow w(false);
        open(w);
        const auto find = [&](const QString& text) {
            for (QPushButton* b : w.controls()->findChildren<QPushButton*>())
                if (b->text() == text) return b;
            return static_cast<QPushButton*>(nullptr);
        };
        find(QStringLiteral("exec"))->click();
        w.animation()->toEnd();
        QCOMPARE(w.splitView()->single()->tree().nodes.size(), std::size_t{305});
        QCOMPARE(w.tableView()->model()->rowCount(), 305);
        // exit the process of a selected VMA: all its VMAs of this file go.
        const int id = w.tableView()->model()->idAt(0);
        const auto pid = w.session().trees().entry(id).vma.pid;
        w.selectId(id);
        find(QStringLiteral("exit"))->click();
        w.animation()->toEnd();
        QCOMPARE(w.splitView()->single()->tree().nodes.size(), std::size_t{300});
        QVERIFY(w.session().trees().idsOfPid(pid).empty());
        // Remove one by clicking its node, then Delete.
        views::TreeView* single = w.splitView()->single();
        const int root = single->tree().root;
        QTest::mouseClick(single, Qt::LeftButton, {}, single->layout().center(root).toPoint());
        QTest::keyClick(single, Qt::Key_Delete);
        w.animation()->toEnd();
        QCOMPARE(w.splitView()->single()->tree().nodes.size(), std::size_t{299});
    }

    void pageAxisClickStartsAWalk() {
        gui::MainWindow w(false);
        open(w);
        views::PageAxis* axis = w.splitView()->pageAxis();
        // Page 0x30 lies in the r-xp text [0x26, 0x17b]: one VMA per process, 60 processes.
        const int x = static_cast<int>((axis->xOf(0x30) + axis->xOf(0x31)) / 2);
        QCOMPARE(axis->pageAt(x), itree::Index{0x30});
        QTest::mouseClick(axis, Qt::LeftButton, {}, QPoint(x, axis->height() / 2));
        auto* walk = dynamic_cast<session::WalkPlayer*>(w.animation()->player());
        QVERIFY(walk);
        QCOMPARE(walk->first(), itree::Index{0x30});
        QCOMPARE(walk->last(), itree::Index{0x30});
        QCOMPARE(walk->singleMatches(), std::size_t{60});
        QCOMPARE(walk->splitMatches(), std::size_t{60});
        const QImage before = still(w);
        w.animation()->toEnd();
        const QImage after = still(w);
        int green = 0;
        for (int y = 0; y < after.height(); ++y)
            for (int xx = 0; xx < after.width(); ++xx)
                green += after.pixel(xx, y) == views::NodePalette::match().rgb();
        QVERIFY(green > 100);  // found VMAs are ringed green
        QVERIFY2(w.controls()->caption().contains(QStringLiteral("60 VMAs")),
                 qPrintable(w.controls()->caption()));
        w.animation()->toStart();
        QCOMPARE(still(w), before);
    }

    // A walk steps by node, decision or tree (the choice is kept for the next walk), and Esc
    // on the page takes its overlay away: the picture is the one from before the walk.
    void walkStridesAndEscape() {
        gui::MainWindow w(false);
        open(w);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        const QImage before = still(w);
        views::StepControls* steps = w.controls();
        QVERIFY(steps->strideBox()->isHidden());
        w.walkPages(0x30, 0x30);
        auto* walk = dynamic_cast<session::WalkPlayer*>(w.animation()->player());
        QVERIFY(walk);
        QVERIFY(!steps->strideBox()->isHidden());
        steps->setStrideIndex(2);  // by tree: one step per tree walked
        QCOMPARE(walk->stride(), session::WalkPlayer::Stride::Tree);
        w.animation()->forward();
        QCOMPARE(walk->position(), walk->walks().front().result.events.size());
        QVERIFY2(steps->caption().contains(QStringLiteral("this tree done")),
                 qPrintable(steps->caption()));
        w.walkPages(0x31, 0x31);  // the next walk keeps the stride
        walk = dynamic_cast<session::WalkPlayer*>(w.animation()->player());
        QCOMPARE(walk->stride(), session::WalkPlayer::Stride::Tree);
        w.animation()->toEnd();
        QVERIFY(still(w) != before);
        w.splitView()->single()->setFocus();
        QTest::keyClick(w.splitView()->single(), Qt::Key_Escape);
        QVERIFY(w.animation()->player() == nullptr);
        QVERIFY(steps->strideBox()->isHidden());
        QCOMPARE(still(w), before);
    }

    void insertDialogBuildsTheVma() {
        std::uint64_t v = 0;
        QVERIFY(gui::InsertVmaDialog::parsePage(QStringLiteral("0x1d3"), v));
        QCOMPARE(v, std::uint64_t{0x1d3});
        QVERIFY(gui::InsertVmaDialog::parsePage(QStringLiteral(" 467 "), v));
        QCOMPARE(v, std::uint64_t{467});
        QVERIFY(!gui::InsertVmaDialog::parsePage(QStringLiteral("0xzz"), v));
        QVERIFY(!gui::InsertVmaDialog::parsePage(QStringLiteral("-1"), v));
        gui::InsertVmaDialog d(4242, 4);
        d.findChild<QLineEdit*>(QStringLiteral("firstPage"))->setText(QStringLiteral("0x10"));
        d.findChild<QLineEdit*>(QStringLiteral("lastPage"))->setText(QStringLiteral("0x1f"));
        d.findChild<QComboBox*>(QStringLiteral("node"))->setCurrentIndex(3);
        d.accept();
        QCOMPARE(d.result(), int(QDialog::Accepted));
        const mapping::Vma vma = d.vma();
        QCOMPARE(vma.pid, std::int64_t{4242});
        QCOMPARE(vma.first(), itree::Index{0x10});
        QCOMPARE(vma.last(), itree::Index{0x1f});
        QCOMPARE(vma.pages, itree::Index{16});
        QCOMPARE(vma.homeNode, 3);
        QCOMPARE(QString::fromLatin1(vma.perms), QStringLiteral("r-xp"));
    }

    void filePickerSwitchesFile() {
        gui::MainWindow w(false);
        open(w);
        QCOMPARE(w.filePicker()->count(), 2);
        QVERIFY(w.filePicker()->item(1)->text().startsWith(QStringLiteral("ld-linux")));
        w.filePicker()->setCurrentRow(1);
        QCOMPARE(w.session().file().name(), std::string("ld-linux-x86-64.so.2"));
        // ld's five segments per process: the same count, other intervals.
        const auto& single = w.splitView()->single()->tree();
        QCOMPARE(single.nodes.size(), std::size_t{300});
        QCOMPARE(single.nodes.back().last, itree::Index{0x34});  // ld's rw-p [0x33, 0x34]
        QCOMPARE(w.tableView()->model()->rowCount(), 300);
    }
};

IMMAP_TEST_SUITE(TestAnimation);
#include "TestAnimation.moc"
