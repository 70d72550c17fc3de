#include "DockPlan.h"

#include <QAction>
#include <QDockWidget>

namespace immap::gui {

void DockPlan::add(QDockWidget* dock, const QStringList& views) {
    docks_.push_back({dock, views});
    // toggled follows explicit show and hide only (not a tab raised over it, nor the window
    // being minimised): outside apply() it is the user's choice, from the View menu or the
    // dock's close button.
    connect(dock->toggleViewAction(), &QAction::toggled, this, [this, dock](bool on) {
        if (!applying_ && !current_.isEmpty()) chosen_[current_][dock] = on;
    });
}

bool DockPlan::shows(const Entry& e, const QString& view) const {
    if (auto v = chosen_.find(view); v != chosen_.end())
        if (auto d = v->second.find(e.dock); d != v->second.end()) return d->second;
    return e.views.contains(view);
}

void DockPlan::apply(const QString& view) {
    current_ = view;
    applying_ = true;
    for (const Entry& e : docks_) {
        const bool on = shows(e, view);
        e.dock->setVisible(on);
        // Before the window is first shown no Hide event reaches the dock, so its View-menu
        // entry would stay checked over a hidden dock.
        e.dock->toggleViewAction()->setChecked(on);
    }
    for (const Entry& e : docks_)
        if (shows(e, view)) e.dock->raise();
    applying_ = false;
}

void DockPlan::showOnly(const QStringList& docks) {
    applying_ = true;
    for (const Entry& e : docks_) {
        const bool on = docks.contains(e.dock->objectName());
        e.dock->setVisible(on);
        e.dock->toggleViewAction()->setChecked(on);
    }
    applying_ = false;
}

QStringList DockPlan::shownOn(const QString& view) const {
    QStringList names;
    for (const Entry& e : docks_)
        if (shows(e, view)) names << e.dock->objectName();
    return names;
}

std::map<QString, QStringList> DockPlan::choices() const {
    std::map<QString, QStringList> out;
    for (const auto& [view, docks] : chosen_)
        out[view] = shownOn(view);
    return out;
}

void DockPlan::choose(const QString& view, const QStringList& docks) {
    for (const Entry& e : docks_)
        chosen_[view][e.dock] = docks.contains(e.dock->objectName());
}

}  // namespace immap::gui
