#pragma once
// Runs long work (reading a large trace, building its timeline) on a worker thread while the
// window stays live: a local event loop keeps painting, and a progress dialog with Cancel
// appears if the work takes longer than a moment. The caller waits for the result as if the
// call were synchronous, so the open paths keep their simple bool API and tests stay direct.

#include <QString>
#include <atomic>
#include <functional>

class QWidget;

namespace immap::gui {

class BusyTask {
public:
    // Work receives a flag it should poll to stop early; it runs to its end either way, and
    // anything it throws is rethrown here, on the calling thread. Returns false if the user
    // cancelled (the work's results should then be dropped). showDialog false: no dialog
    // (--screenshot and headless runs), the loop still spins.
    static bool run(QWidget* parent, const QString& label,
                    const std::function<void(const std::atomic<bool>& cancel)>& work,
                    bool showDialog = true);
};

}  // namespace immap::gui
