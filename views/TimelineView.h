#pragma once
// A trace's timeline (trace::Timeline): one lane per CPU, grouped by NUMA node, showing execs
// and walks, and over them waits for and holds of locks; tree updates as ticks; the time axis
// with units; bookmarks as markers with captions; the replay's position as a line.
//
// Zoom and pan change only what is visible (W/S zoom in/out, A/D pan, Ctrl+wheel zooms at the
// cursor, Shift+wheel pans, the wheel scrolls lanes, Home shows everything); dragging selects
// a time range (selectionChanged), a click on a span or tick emits its event (eventClicked).
// Statistics and filters are not this widget's business: app/ computes them from the selection.
//
// A plain QWidget painting what Timeline::query() returns for the visible range, rather than
// a QGraphicsView: a 2.5 M-event trace has about a million spans, far too many scene items,
// while the query merges everything narrower than a pixel, so a paint costs what is visible.

#include <QColor>
#include <QImage>
#include <QWidget>
#include <memory>
#include <optional>
#include <tuple>
#include <vector>

#include "trace/Timeline.h"

class QScrollBar;

namespace immap::views {

class TimelineView : public QWidget {
    Q_OBJECT
public:
    using Time = trace::Time;
    struct Marker {
        Time time = 0;
        QString caption;
    };

    explicit TimelineView(QWidget* parent = nullptr);

    // Shows the whole timeline; clears the selection and the highlight.
    void setTimeline(std::shared_ptr<const trace::Timeline> timeline);
    const trace::Timeline* timeline() const { return timeline_.get(); }
    void setBookmarks(std::vector<Marker> marks);
    void setCursorTime(std::optional<Time> t);

    // The view: what part of the trace is visible. Never touches the selection or statistics.
    Time visibleFrom() const { return from_; }
    Time visibleTo() const { return to_; }
    void setVisibleRange(Time from, Time to);
    // Zooms by `factor` (> 1 zooms in) keeping the time under x (widget coordinates) in place.
    void zoomAt(double factor, double x);
    void zoomIn();
    void zoomOut();
    void panBy(double fractionOfView);  // > 0: later
    void showAll();
    // Scrolls the lanes (not the time) so that `lane` is in sight.
    void scrollToLane(int lane);

    // The selected range (a rubber band drag), if any.
    std::optional<std::pair<Time, Time>> selection() const { return selection_; }
    void setSelection(Time from, Time to);
    void clearSelection();
    std::optional<std::uint32_t> highlightedSpan() const { return highlight_; }

    // Geometry, for hit tests and pixel checks.
    QRectF plotArea() const;
    QRectF laneRect(int lane) const;  // in widget coordinates (may lie outside when scrolled)
    double xOfTime(Time t) const;
    Time timeAtX(double x) const;
    int laneAtY(double y) const;
    static QColor colorOf(trace::SpanKind kind);
    static QColor pointColor(int eventKind);

signals:
    void visibleRangeChanged(qint64 from, qint64 to);
    void selectionChanged(qint64 from, qint64 to);
    void selectionCleared();
    void eventClicked(qint64 eventIndex);

protected:
    void paintEvent(QPaintEvent*) override;
    void resizeEvent(QResizeEvent*) override;
    void keyPressEvent(QKeyEvent* e) override;
    void wheelEvent(QWheelEvent* e) override;
    void mousePressEvent(QMouseEvent* e) override;
    void mouseMoveEvent(QMouseEvent* e) override;
    void mouseReleaseEvent(QMouseEvent* e) override;
    bool event(QEvent* e) override;

private:
    void relayout();
    void paintAxis(QPainter& p, const QRectF& plot);
    void paintLanes(QPainter& p, const QRectF& plot);
    void paintHighlight(QPainter& p, const QRectF& plot);
    void paintMarkers(QPainter& p, const QRectF& plot);
    QString describeAt(const QPoint& pos) const;
    Time resolution() const;  // ns per pixel
    std::optional<std::uint32_t> spanUnder(const QPoint& pos) const;
    std::optional<std::uint32_t> pointUnder(const QPoint& pos) const;

    std::shared_ptr<const trace::Timeline> timeline_;
    std::vector<Marker> marks_;
    std::optional<Time> cursor_;
    Time from_ = 0, to_ = 1;
    std::optional<std::pair<Time, Time>> selection_;
    std::optional<std::uint32_t> highlight_;
    // Lanes' vertical layout (content coordinates, before scrolling).
    std::vector<double> laneY_;
    double laneH_ = 12;
    double contentH_ = 0;
    QScrollBar* scroll_;
    // The axis and lanes as last painted: a full-range paint of a 2.5 M-event trace takes tens
    // of ms, while the replay cursor, a drag or a click only change what is drawn over them.
    using CacheKey =
        std::tuple<const trace::Timeline*, Time, Time, int, double, int, int, qreal, qreal, qreal>;
    QImage cache_;
    CacheKey cacheKey_{};
    // A drag in progress.
    std::optional<QPointF> press_;
    double dragX_ = 0;
    bool dragging_ = false;
};

}  // namespace immap::views
