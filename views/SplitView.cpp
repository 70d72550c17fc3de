#include "SplitView.h"

#include <QGridLayout>
#include <QSplitter>
#include <QVBoxLayout>
#include <cmath>

namespace immap::views {

SplitView::SplitView(QWidget* parent) : QWidget(parent) {
    auto* box = new QVBoxLayout(this);
    box->setContentsMargins(0, 0, 0, 0);
    box->setSpacing(0);
    auto* splitter = new QSplitter(Qt::Vertical, this);
    // The single tree with its page axis under it.
    auto* upper = new QWidget(splitter);
    auto* upperBox = new QVBoxLayout(upper);
    upperBox->setContentsMargins(0, 0, 0, 0);
    upperBox->setSpacing(0);
    single_ = new TreeView(upper);
    axis_ = new PageAxis(upper);
    upperBox->addWidget(single_, 1);
    upperBox->addWidget(axis_);
    auto* lower = new QWidget(splitter);
    auto* lowerBox = new QVBoxLayout(lower);
    lowerBox->setContentsMargins(0, 4, 0, 0);
    lowerBox->setSpacing(2);
    heading_ = new QLabel(lower);
    heading_->setContentsMargins(10, 2, 10, 2);
    heading_->setWordWrap(true);  // never wider than the window, in workshop type too
    // The weight alone: the size follows the application's type (workshop mode scales it; a
    // style sheet would freeze it).
    {
        QFont bold;
        bold.setWeight(QFont::DemiBold);
        bold.setResolveMask(QFont::WeightResolved);
        heading_->setFont(bold);
        QPalette pal = heading_->palette();
        pal.setColor(QPalette::WindowText, QColor(0x30, 0x30, 0x30));
        heading_->setPalette(pal);
    }
    grid_ = new QWidget(lower);
    auto* grid = new QGridLayout(grid_);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->setSpacing(3);
    lowerBox->addWidget(heading_);
    lowerBox->addWidget(grid_, 1);
    splitter->addWidget(upper);
    splitter->addWidget(lower);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({480, 520});
    single_->setMinimumHeight(120);  // workshop type on 1280x720 leaves the split view ~420 px
    box->addWidget(splitter);
    connect(single_, &TreeView::nodeClicked, this, &SplitView::nodeClicked);
    connect(single_, &TreeView::removeRequested, this, &SplitView::removeRequested);
}

void SplitView::setPartCount(int n) {
    if (n == partCount()) return;
    for (TreeView* v : parts_)
        delete v;
    parts_.clear();
    auto* grid = static_cast<QGridLayout*>(grid_->layout());
    // Two rows once there are more than four trees: wide enough to read, all on screen.
    const int cols = n <= 4 ? std::max(1, n) : static_cast<int>(std::ceil(n / 2.0));
    for (int i = 0; i < n; ++i) {
        auto* v = new TreeView(grid_);
        grid->addWidget(v, i / cols, i % cols);
        connect(v, &TreeView::nodeClicked, this, &SplitView::nodeClicked);
        connect(v, &TreeView::removeRequested, this, &SplitView::removeRequested);
        parts_.push_back(v);
    }
}

void SplitView::setHeading(const QString& text) {
    heading_->setText(text);
}

void SplitView::setSelectedId(int id) {
    single_->setSelectedId(id);
    for (TreeView* v : parts_)
        v->setSelectedId(id);
}

void SplitView::fitToWindow() {
    single_->fitToWindow();
    for (TreeView* v : parts_)
        v->fitToWindow();
}

void SplitView::zoomOnRoots(double factor) {
    single_->zoomOnRoot(factor);
    for (TreeView* v : parts_)
        v->zoomOnRoot(factor);
}

}  // namespace immap::views
