#pragma once
// What a tab page asks of the window around it, given to each page explicitly: an error shown
// (a dialog, or stderr when headless), a status-bar message, whether it may show a progress
// dialog, the files the window has read (which no page may write over), whether settings may be
// written, and bringing a page to the front, or a tab by its view name
// (session::Scenario::viewNames()).

#include <QString>
#include <QWidget>
#include <string>
#include <vector>

namespace immap::gui {

class PageHost {
public:
    virtual ~PageHost() = default;
    virtual void showError(const QString& title, const QString& text) = 0;
    virtual void showStatus(const QString& text, int timeoutMs) = 0;
    virtual bool interactive() const = 0;  // false headless: no progress dialogs
    virtual std::vector<std::string> windowInputs() const = 0;
    virtual bool persists() const = 0;  // may write QSettings (off for --screenshot and tests)
    virtual void showPage(QWidget* page) = 0;       // bring a tab to the front
    virtual bool setView(const QString& name) = 0;  // false for a name that is no view
    virtual QString currentViewName() const = 0;
    // A slide's docks, by Scenario::dockNames(), until the tab changes.
    virtual void showSlideDocks(const std::vector<std::string>& names) = 0;
    virtual void restoreDocks() = 0;  // the tab's own docks again
    // The tree tabs' zoom over fit-to-window, about the roots (a slide's "zoom").
    virtual void showTreeZoom(double factor) = 0;

protected:
    PageHost() = default;
};

}  // namespace immap::gui
