#include "ScorecardModel.h"

#include <QBrush>
#include <QColor>

namespace immap::views {

namespace {

QString text(const std::string& s) {
    return QString::fromStdString(s);
}

}  // namespace

ScorecardModel::ScorecardModel(QObject* parent) : QAbstractTableModel(parent) {
    showObservations();
}

void ScorecardModel::showObservations() {
    beginResetModel();
    lines_.clear();
    for (const sim::Observation& o : sim::Observation::all()) {
        sim::ScoreLine l;
        l.observation = &o;
        lines_.push_back(l);
    }
    ran_ = false;
    running_ = false;
    rowDone_.assign(lines_.size(), false);
    endResetModel();
}

void ScorecardModel::startRun() {
    showObservations();
    running_ = true;
    // The header's band title follows the lines; a run's first row may change it.
    emit headerDataChanged(Qt::Horizontal, Band, Band);
}

void ScorecardModel::setLine(std::size_t row, const sim::ScoreLine& line) {
    if (row >= lines_.size()) return;
    lines_[row] = line;
    rowDone_[row] = true;
    const int r = static_cast<int>(row);
    emit dataChanged(index(r, 0), index(r, ColumnCount - 1));
    emit headerDataChanged(Qt::Horizontal, Band, Band);
}

bool ScorecardModel::rowDone(int row) const {
    return ran_ || (row >= 0 && static_cast<std::size_t>(row) < rowDone_.size() &&
                    rowDone_[static_cast<std::size_t>(row)]);
}

void ScorecardModel::setLines(const std::vector<sim::ScoreLine>& lines) {
    beginResetModel();
    lines_ = lines;
    ran_ = true;
    running_ = false;
    rowDone_.assign(lines_.size(), true);
    endResetModel();
}

int ScorecardModel::hits() const {
    return static_cast<int>(sim::Scorecard::tally(lines_).hits);
}

int ScorecardModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(lines_.size());
}

int ScorecardModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ScorecardModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
        case Claim:
            return tr("Observation");
        case Machine:
            return tr("Machine");
        case Published:
            return tr("Published");
        case Model:
            return tr("Model");
        case Band:
            return QString::fromStdString(sim::Scorecard::bandTitle(lines_));
        case Verdict:
            return tr("Published figure");
        default:
            return {};
    }
}

QVariant ScorecardModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount) return {};
    const sim::ScoreLine& l = lines_[static_cast<std::size_t>(index.row())];
    const sim::Observation& o = *l.observation;
    const bool done = rowDone(index.row());
    const bool shown = done && l.modelled;
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
            case Claim:
                return text(o.claim);
            case Machine:
                return text(o.machine);
            case Published:
                return text(o.publishedText);
            case Model:
                return shown ? text(sim::Scorecard::format(l.point, o.unit)) : QStringLiteral("-");
            case Band:
                return shown ? tr("%1 - %2").arg(text(sim::Scorecard::format(l.band.p10, o.unit)),
                                                 text(sim::Scorecard::format(l.band.p90, o.unit)))
                             : QStringLiteral("-");
            case Verdict:
                if (!done) return running_ ? tr("running…") : tr("not run yet");
                return (l.hit                                      ? tr("hit: ")
                        : o.bound == sim::Observation::Bound::None ? tr("prediction: ")
                        : l.modelled                               ? tr("miss: ")
                                                                   : QString()) +
                       text(l.verdict);
        }
    }
    if (role == Qt::ToolTipRole)
        return tr("%1\nShape: %2\nAssumptions: %3\nSource: %4")
            .arg(text(o.claim), text(o.topology), text(o.assumptions), text(o.source));
    if (role == Qt::UserRole) {
        switch (index.column()) {
            case Model:
                return shown ? QVariant(l.point) : QVariant();
            case Band:
                return shown ? QVariant(QList<QVariant>{l.band.p10, l.band.p90}) : QVariant();
            case Verdict:
                return done ? QVariant(l.hit) : QVariant();
            case Published:
                return o.published;
            default:
                return {};
        }
    }
    // Hits green, misses red, the unmodelled grey, predictions blue: read from the back of a
    // room.
    if (role == Qt::BackgroundRole && done && index.column() == Verdict)
        return QBrush(!l.modelled                                ? QColor(0xe0, 0xe0, 0xe0)
                      : o.bound == sim::Observation::Bound::None ? QColor(0xd0, 0xe0, 0xf8)
                      : l.hit                                    ? QColor(0xc8, 0xf0, 0xc8)
                                                                 : QColor(0xf8, 0xd0, 0xd0));
    if (role == Qt::ForegroundRole && done && index.column() == Verdict)
        return QBrush(Qt::black);  // legible on the tint in a dark theme too
    return {};
}

}  // namespace immap::views
