#pragma once
// Which docks each tab shows. A dock a view does not use takes room from its drawing (at
// 1280x720 the VMA list beside the throughput plot halves it), so each dock names the views
// it serves and is hidden elsewhere; what the user shows or hides on a view is remembered for
// that view (and kept in the settings) and wins over the default.

#include <QObject>
#include <QString>
#include <QStringList>
#include <map>
#include <vector>

class QDockWidget;

namespace immap::gui {

class DockPlan : public QObject {
    Q_OBJECT
public:
    explicit DockPlan(QObject* parent = nullptr) : QObject(parent) {}

    // `views`: the view names (Scenario::viewNames()) the dock is shown on by default. Docks
    // tabified together are raised in the order they were added, so the last one added that
    // is shown is in front.
    void add(QDockWidget* dock, const QStringList& views);
    // Shows the view's docks and hides the others; called when the tab changes.
    void apply(const QString& view);
    // The docks (by object name) shown on a view once apply(view) has run.
    QStringList shownOn(const QString& view) const;
    // A slide's choice for a view: exactly these docks (object names), as if the user had
    // chosen them; apply() afterwards to see it.
    void choose(const QString& view, const QStringList& docks);
    // A slide's docks: exactly these (object names) until the tab changes, recorded as no
    // one's choice, so the user's own per-view choices come back on the next tab.
    void showOnly(const QStringList& docks);
    // The views with a choice (user's or slide's) and the docks shown there: kept in the
    // settings so a closed dock stays closed on its view.
    std::map<QString, QStringList> choices() const;

private:
    struct Entry {
        QDockWidget* dock;
        QStringList views;
    };
    bool shows(const Entry& e, const QString& view) const;

    std::vector<Entry> docks_;
    std::map<QString, std::map<QDockWidget*, bool>> chosen_;  // view -> dock -> shown
    QString current_;
    bool applying_ = false;
};

}  // namespace immap::gui
