#pragma once
// One policy's side of the contention view (docs/architecture.md, "Live contention"): per-CPU lanes
// grouped by NUMA node, each a strip of recent history (LaneHistory: one column per moment of
// simulated time, newest on the right, under a time axis) coloured working / waiting / holding,
// with the lock it waits for or holds as a chip at the "now" edge (its short name in the chip
// when the lane is tall enough, on hover always); each lock's holders and queue, in arrival
// order, as they form; and a running execs/s counter, said to be a warm-up's until the
// simulator's measured window starts. A node's lanes collapse into one summary lane (its CPUs'
// shares per column, and the lock most of them wait for) and expand again on a click on the
// node's label; too many lanes to tell apart start collapsed but the first node. It only
// renders the snapshots it is given and emits what the user points at. Painting is a few
// scaled image blits and one row per busy lock, so hundreds of lanes repaint above 30 frames/s.

#include <QImage>
#include <QWidget>
#include <vector>

#include "LaneHistory.h"
#include "live/LiveSnapshot.h"

namespace immap::views {

class ContentionView : public QWidget {
    Q_OBJECT
public:
    explicit ContentionView(QWidget* parent = nullptr);

    // Adds the snapshot as the newest history column. lockNames: the locks' names, for the
    // legend (taken from the snapshot's queues when empty).
    void setSnapshot(const live::RunSnapshot& run, sim::Time now);
    void clear();
    void setTitle(const QString& title);
    const live::RunSnapshot& snapshot() const { return run_; }

    static QColor workingColor() { return QColor(0xc9, 0xcd, 0xd2); }
    static QColor waitingColor() { return QColor(0xe4, 0x57, 0x2e); }
    static QColor holdingColor() { return QColor(0x1f, 0x8a, 0x70); }
    static QColor lockColor(int lock);
    static constexpr int kHistory = LaneHistory::kColumns;  // columns of history kept
    // "libc.so.6/node3" -> "libc/n3", "ld-linux-x86-64.so.2" -> "ld": what a lane's chip says.
    static QString shortLockName(const QString& name);

    // Collapsing: a node's lanes as one summary lane. Lanes of a collapsed node have no
    // laneRect; summaryRect(node) is its summary lane (empty when expanded or absent).
    void setCollapsed(int node, bool collapsed);
    void setAllCollapsed(bool collapsed);
    bool isCollapsed(int node) const;
    QRect summaryRect(int node) const;
    QRect nodeLabelRect(int node) const;  // a click here collapses or expands the node
    // What a collapsed node's summary says now ("12 waiting for libc/n3"), empty when idle.
    QString summaryText(int node) const;
    // The header's figure: "warm-up" before the measured window, else the running execs/s.
    QString rateText() const;
    // The time axis under the lanes: each tick's x and label ("now", "-20.0 µs").
    std::vector<std::pair<int, QString>> axisTicks() const;
    const LaneHistory& history() const { return history_; }

    // Geometry, for tests and hit testing: the lane strip of lane i (history, newest column at
    // the right edge), its lock chip, and the queue row of lock `lock` (empty when not shown).
    QRect laneRect(int lane) const;  // empty for a lane of a collapsed node
    QRect chipRect(int lane) const;
    QRect queueRect(int lock) const;
    int laneAt(QPoint p) const;
    void paintTo(QPainter& p, const QRect& rect);

    QSize sizeHint() const override { return {640, 520}; }
    QSize minimumSizeHint() const override { return {240, 160}; }

signals:
    void laneClicked(unsigned cpu);

protected:
    void paintEvent(QPaintEvent*) override;
    void resizeEvent(QResizeEvent*) override;
    void changeEvent(QEvent* e) override;  // a new font (workshop mode) lays the view out anew
    void mousePressEvent(QMouseEvent*) override;
    bool event(QEvent*) override;

private:
    struct Band {
        LaneHistory::Group group;
        int index = 0;  // into history_.groups()
        bool collapsed = false;
        QRect strip;  // the history strip(s) of its lanes, or its summary lane
    };
    void relayout();
    QString tooltipAt(QPoint p) const;
    const Band* bandOf(int node) const;
    int bandAt(QPoint p) const;
    void paintLanes(QPainter& p);
    void paintAxis(QPainter& p, const QFontMetrics& fm);
    void paintQueues(QPainter& p, const QFont& f);
    void paintLegend(QPainter& p, const QFontMetrics& fm);

    live::RunSnapshot run_;
    sim::Time now_ = 0;
    QString title_;
    LaneHistory history_;
    std::vector<int> collapsedNodes_;
    bool autoCollapse_ = true;  // until the user collapses or expands a node
    // Layout (widget coordinates).
    QRect header_, lanes_, axis_, queues_, legend_;
    std::vector<int> laneTop_;  // y of each lane; -1 in a collapsed node
    int laneHeight_ = 1;
    // Geometry that follows the type (workshop mode enlarges it), set by relayout().
    int header_h_ = 34, legend_h_ = 20, nodeLabel_ = 64, queueRow_ = 17, queueName_ = 150;
    int chipWidth_ = 10, summaryHeight_ = 18;
    int bandHeight_ = 18;  // a summary lane's height as laid out (summaryHeight_ or less)
    std::vector<Band> bands_;
    std::vector<std::pair<int, QRect>> queueRows_;  // lock, its row
};

}  // namespace immap::views
