#include "TimelinePanel.h"

#include <QComboBox>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>

#include "trace/TimelineFilter.h"
#include "views/TimelineStatsModel.h"

namespace immap::views {

TimelinePanel::TimelinePanel(QWidget* parent)
    : QWidget(parent),
      model_(new TimelineStatsModel(this)),
      over_(new QLabel(this)),
      summary_(new QLabel(this)),
      table_(new QTableView(this)),
      toSelection_(new QPushButton(tr("Filter to selection"), this)),
      type_(new QComboBox(this)),
      value_(new QComboBox(this)),
      add_(new QPushButton(tr("Add"), this)),
      active_(new QLabel(this)),
      filters_(new QListWidget(this)),
      remove_(new QPushButton(tr("Remove"), this)),
      clear_(new QPushButton(tr("Clear"), this)),
      inspect_(new QLabel(this)),
      seek_(new QPushButton(tr("Seek the replay here"), this)),
      export_(new QPushButton(tr("Export timeline..."), this)) {
    auto* box = new QVBoxLayout(this);
    box->setContentsMargins(6, 4, 6, 4);
    auto* top = new QHBoxLayout;
    QFont bold = over_->font();
    bold.setBold(true);
    over_->setFont(bold);
    over_->setWordWrap(true);
    top->addWidget(over_, 1);
    top->addWidget(export_);
    box->addLayout(top);
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    box->addWidget(summary_);
    table_->setModel(model_);
    table_->verticalHeader()->hide();
    // Every figure whole in a narrow column: two-line headers, numbers sized to their
    // contents, and the lock's name takes what is left, elided in the middle (its tooltip and
    // the name's two ends, file and node, stay readable).
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setSectionResizeMode(TimelineStatsModel::Lock,
                                                     QHeaderView::Stretch);
    table_->horizontalHeader()->setMinimumSectionSize(24);
    table_->setTextElideMode(Qt::ElideMiddle);
    table_->setWordWrap(false);
    table_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    table_->setSelectionMode(QAbstractItemView::NoSelection);
    table_->setMinimumHeight(90);
    box->addWidget(table_, 1);

    auto* fbox = new QGroupBox(tr("Filters (change the statistics, not the view)"), this);
    auto* fl = new QVBoxLayout(fbox);
    // Two short rows rather than one long one: the panel sits in a narrow, vertically scrolling
    // column, and a row wider than it would be cut off at the right.
    auto* row = new QHBoxLayout;
    row->addWidget(type_);
    row->addWidget(value_, 1);
    row->addWidget(add_);
    fl->addLayout(row);
    fl->addWidget(active_);
    filters_->setMaximumHeight(86);
    filters_->installEventFilter(this);
    filters_->setToolTip(tr("Active filters; Delete removes the chosen one"));
    fl->addWidget(filters_);
    auto* row2 = new QHBoxLayout;
    row2->addWidget(toSelection_);
    row2->addStretch(1);
    row2->addWidget(remove_);
    row2->addWidget(clear_);
    fl->addLayout(row2);
    box->addWidget(fbox);

    auto* ibox = new QGroupBox(tr("Inspect (click an event or span)"), this);
    auto* il = new QVBoxLayout(ibox);
    inspect_->setWordWrap(true);
    inspect_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    inspect_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    inspect_->setMinimumHeight(48);
    il->addWidget(inspect_);
    il->addWidget(seek_, 0, Qt::AlignRight);
    box->addWidget(ibox);

    type_->addItem(tr("Lock"), trace::FilterItem::Lock);
    type_->addItem(tr("CPU"), trace::FilterItem::Cpu);
    type_->addItem(tr("Node"), trace::FilterItem::Node);
    type_->addItem(tr("Event kind"), trace::FilterItem::Kind);
    toSelection_->setEnabled(false);
    toSelection_->setToolTip(
        tr("Count only the selected time range (listed below; the zoom "
           "stays as it is)"));
    seek_->setEnabled(false);
    setInspect({}, -1);
    setFilters({});

    connect(type_, &QComboBox::currentIndexChanged, this, [this] { fillValues(); });
    connect(add_, &QPushButton::clicked, this, [this] {
        if (value_->currentIndex() >= 0)
            emit filterRequested(type_->currentData().toInt(), value_->currentData().toInt());
    });
    connect(toSelection_, &QPushButton::clicked, this, &TimelinePanel::filterToSelectionRequested);
    connect(remove_, &QPushButton::clicked, this, [this] {
        if (filters_->currentRow() >= 0) emit filterRemoveRequested(filters_->currentRow());
    });
    connect(clear_, &QPushButton::clicked, this, &TimelinePanel::filtersClearRequested);
    connect(seek_, &QPushButton::clicked, this, [this] {
        if (inspected_ >= 0) emit seekRequested(inspected_);
    });
    connect(export_, &QPushButton::clicked, this, &TimelinePanel::exportRequested);
}

bool TimelinePanel::eventFilter(QObject* watched, QEvent* e) {
    if (watched == filters_ && e->type() == QEvent::KeyPress) {
        const int key = static_cast<QKeyEvent*>(e)->key();
        if ((key == Qt::Key_Delete || key == Qt::Key_Backspace) && filters_->currentRow() >= 0) {
            emit filterRemoveRequested(filters_->currentRow());
            return true;
        }
    }
    return QWidget::eventFilter(watched, e);
}

void TimelinePanel::setChoices(const trace::Timeline& timeline) {
    locks_ = timeline.lockNames();
    cpus_.clear();
    for (const trace::TimelineLane& l : timeline.lanes())
        if (l.cpu >= 0) cpus_.push_back(l.cpu);
    std::sort(cpus_.begin(), cpus_.end());
    nodes_.clear();
    for (int n : timeline.nodes())
        if (n >= 0) nodes_.push_back(n);
    fillValues();
}

void TimelinePanel::fillValues() {
    value_->clear();
    switch (type_->currentData().toInt()) {
        case trace::FilterItem::Lock:
            for (std::size_t i = 0; i < locks_.size(); ++i)
                value_->addItem(QString::fromStdString(locks_[i]), static_cast<int>(i));
            break;
        case trace::FilterItem::Cpu:
            for (int c : cpus_)
                value_->addItem(tr("CPU %1").arg(c), c);
            break;
        case trace::FilterItem::Node:
            for (int n : nodes_)
                value_->addItem(tr("node %1").arg(n), n);
            break;
        case trace::FilterItem::Kind:
            for (int k = 0; k < trace::kEventKinds; ++k)
                value_->addItem(
                    QString::fromLatin1(sim::simEventName(static_cast<sim::SimEvent::Kind>(k))), k);
            break;
    }
    add_->setEnabled(value_->count() > 0);
}

void TimelinePanel::setStats(const trace::RangeStats& s, const QString& over) {
    model_->setStats(s);
    over_->setText(over);
    QStringList kinds;
    for (int k = 0; k < trace::kEventKinds; ++k)
        if (s.byKind[static_cast<std::size_t>(k)])
            kinds << QStringLiteral("%1 %L2")
                         .arg(QString::fromLatin1(
                             sim::simEventName(static_cast<sim::SimEvent::Kind>(k))))
                         .arg(s.byKind[static_cast<std::size_t>(k)]);
    summary_->setText(
        tr("%1 long: %L2 events; %3\n%4")
            .arg(QString::fromStdString(trace::formatTime(std::max<trace::Time>(0, s.to - s.from))))
            .arg(s.events)
            .arg(QString::fromStdString(s.execRate().text()))
            .arg(kinds.isEmpty() ? tr("no events") : kinds.join(QStringLiteral(", "))));
}

void TimelinePanel::setFilters(const QStringList& lines) {
    filters_->clear();
    filters_->addItems(lines);
    active_->setText(lines.isEmpty() ? tr("Active filters: none, every event counts.")
                                     : tr("Active filters (all must hold; of one type, any):"));
    remove_->setEnabled(!lines.isEmpty());
    clear_->setEnabled(!lines.isEmpty());
}

void TimelinePanel::setInspect(const QString& text, qint64 event) {
    inspected_ = event;
    inspect_->setText(event >= 0 ? text : tr("Nothing inspected."));
    seek_->setEnabled(event >= 0);
}

void TimelinePanel::setSelectionAvailable(bool available) {
    toSelection_->setEnabled(available);
}

}  // namespace immap::views
