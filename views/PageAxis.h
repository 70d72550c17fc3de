#pragma once
// The file's pages as an axis, with every VMA drawn as a bar over the pages it maps (identical
// ranges stacked into one bar with a count). Click a page or drag over a range to ask for an
// rmap walk of it; the chosen range stays shaded.

#include <QWidget>
#include <vector>

#include "session/TreeSet.h"

namespace immap::views {

class PageAxis : public QWidget {
    Q_OBJECT
public:
    explicit PageAxis(QWidget* parent = nullptr);

    void setBars(std::vector<session::TreeSet::PageBar> bars);
    void setRange(itree::Index first, itree::Index last);
    void clearRange();
    // The page under x (clamped to the axis).
    itree::Index pageAt(double x) const;
    double xOf(itree::Index page) const;  // left edge of the page's cell

    QSize sizeHint() const override { return {600, height()}; }

signals:
    void rangeChosen(quint64 first, quint64 last);

protected:
    void paintEvent(QPaintEvent*) override;
    void mousePressEvent(QMouseEvent*) override;
    void mouseMoveEvent(QMouseEvent*) override;
    void mouseReleaseEvent(QMouseEvent*) override;

private:
    QRectF axisRect() const;

    std::vector<session::TreeSet::PageBar> bars_;
    std::vector<int> lane_;
    int lanes_ = 1;
    itree::Index pages_ = 1;  // axis length: one past the highest last page
    bool hasRange_ = false, dragging_ = false;
    itree::Index first_ = 0, last_ = 0, anchor_ = 0;
};

}  // namespace immap::views
