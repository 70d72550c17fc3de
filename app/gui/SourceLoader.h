#pragma once
// Opening what the window shows: a source (maps file, snapshot, live host, synthetic host), a
// topology, or a path of either kind, each loaded off the GUI thread with progress and Cancel
// (Session::stage, then commit), errors shown through the PageHost as file, line and reason,
// a snapshot's skipped processes and warnings reported, and the recent-files menu kept.

#include <QObject>
#include <QString>
#include <functional>
#include <string>

class QMenu;
class QWidget;

namespace immap::session {
class Session;
}

namespace immap::gui {

class PageHost;

class SourceLoader : public QObject {
    Q_OBJECT
public:
    // window: the parent of the progress and file dialogs.
    SourceLoader(session::Session& session, PageHost& host, QWidget* window);

    // Each returns false after showing an error (file, line, reason) on bad input, or on a
    // cancel (the session unchanged).
    bool openSource(const QString& spec, const QString& topology = {}, const QString& file = {});
    bool openTopology(const QString& spec);  // the current source on another machine
    bool openPath(const QString& path);      // a snapshot dir/archive, maps file or topology XML
    void loadDefault();
    void openDialog();
    bool loadInBackground(const QString& what, const std::string& source,
                          const std::string& topology, const std::string& file);

    // The File menu's "Open recent": filled from the settings, one entry per source opened.
    void setRecentMenu(QMenu* menu);

signals:
    // A new host is in the session (before its skipped processes are reported).
    void loaded();

private:
    bool guarded(const QString& what, const std::function<void()>& load);
    void reportSkipped(const QString& spec);
    void addRecent(const QString& entry);
    void rebuildRecentMenu();

    session::Session& session_;
    PageHost& host_;
    QWidget* window_;
    QMenu* recentMenu_ = nullptr;
};

}  // namespace immap::gui
