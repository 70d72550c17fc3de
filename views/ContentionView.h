#pragma once
// One policy's side of the contention view (docs/architecture.md, "Live contention"): per-CPU lanes
// grouped by NUMA node, each a strip of recent history (one column per snapshot, newest on the
// right) coloured working / waiting / holding, with the lock it waits for or holds as a colour chip
// at the "now" edge (named in the legend and on hover); each lock's holders and queue, in arrival
// order, as they form; and a running execs/s counter. It only renders the snapshots it is
// given and emits what the user points at. Painting is a few scaled image blits and one row
// per busy lock, so hundreds of lanes repaint well above 30 frames/s.

#include <QImage>
#include <QWidget>
#include <vector>

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
    static constexpr int kHistory = 240;  // columns of history kept

    // Geometry, for tests and hit testing: the lane strip of lane i (history, newest column at
    // the right edge), its lock chip, and the queue row of lock `lock` (empty when not shown).
    QRect laneRect(int lane) const;
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
    void relayout();
    QString tooltipAt(QPoint p) const;

    live::RunSnapshot run_;
    sim::Time now_ = 0;
    QString title_;
    QImage history_;  // lanes x kHistory, ARGB; column `head_` is the newest
    int head_ = -1;
    int columns_ = 0;  // filled so far
    // Layout (widget coordinates).
    QRect header_, lanes_, queues_, legend_;
    std::vector<int> laneTop_;  // y of each lane
    int laneHeight_ = 1;
    // Geometry that follows the type (workshop mode enlarges it), set by relayout().
    int header_h_ = 34, legend_h_ = 20, nodeLabel_ = 64, queueRow_ = 17, queueName_ = 150;
    std::vector<std::pair<int, QRect>> groups_;     // node, its lanes' band
    std::vector<std::pair<int, QRect>> queueRows_;  // lock, its row
};

}  // namespace immap::views
