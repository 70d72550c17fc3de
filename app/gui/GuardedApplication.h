#pragma once
// The app's QApplication, with a last guard around every event: Qt cannot carry an exception
// through its event loop (it would abort with the exception's C++ name), so one that escapes
// a slot or handler is caught here and shown as a plain reason in a dialog (on stderr when
// headless); the window stays open.

#include <QApplication>
#include <QString>

namespace immap::gui {

class GuardedApplication : public QApplication {
public:
    GuardedApplication(int& argc, char** argv) : QApplication(argc, argv) {}
    bool notify(QObject* receiver, QEvent* event) override;
    // Shows the reason for the exception being handled: a dialog, or stderr when headless.
    static void report(const QString& doing, bool headless);
    void setHeadless(bool headless) { headless_ = headless; }

private:
    bool headless_ = false;
};

}  // namespace immap::gui
