#pragma once
// The single tree above the split policy's trees (one per NUMA node, or per shard), side by
// side in a grid, all drawn in the same colours so a VMA's home ring matches across them.

#include <QLabel>
#include <QWidget>
#include <vector>

#include "PageAxis.h"
#include "TreeView.h"

namespace immap::views {

class SplitView : public QWidget {
    Q_OBJECT
public:
    explicit SplitView(QWidget* parent = nullptr);

    void setPartCount(int n);
    int partCount() const { return static_cast<int>(parts_.size()); }
    TreeView* single() const { return single_; }
    PageAxis* pageAxis() const { return axis_; }
    TreeView* part(int i) const { return parts_[static_cast<std::size_t>(i)]; }
    // The heading over the grid: policy and memory per inode.
    void setHeading(const QString& text);
    void setSelectedId(int id);
    void fitToWindow();
    void zoomOnRoots(double factor);  // every tree, as TreeView::zoomOnRoot

signals:
    void nodeClicked(int id);
    void removeRequested(int id);

private:
    TreeView* single_;
    PageAxis* axis_;
    QLabel* heading_;
    QWidget* grid_;
    std::vector<TreeView*> parts_;
};

}  // namespace immap::views
