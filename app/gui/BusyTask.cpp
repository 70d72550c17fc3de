#include "BusyTask.h"

#include <QEventLoop>
#include <QMetaObject>
#include <QProgressDialog>
#include <QTimer>
#include <exception>
#include <memory>
#include <thread>

namespace immap::gui {

bool BusyTask::run(QWidget* parent, const QString& label,
                   const std::function<void(const std::atomic<bool>& cancel)>& work,
                   bool showDialog) {
    std::atomic<bool> cancel{false};
    std::exception_ptr failure;
    QEventLoop loop;
    std::unique_ptr<QProgressDialog> dialog;
    if (showDialog) {
        // A busy bar (no known total): the work is a single pass over a file.
        dialog = std::make_unique<QProgressDialog>(label, QObject::tr("Cancel"), 0, 0, parent);
        dialog->setWindowModality(Qt::WindowModal);
        dialog->setMinimumDuration(400);  // quick loads never flash a dialog
        // The button and closing the dialog emit canceled(); Esc and cancel() only mark it
        // cancelled, so that is polled too.
        auto stop = [&] {
            if (cancel.exchange(true)) return;
            dialog->setLabelText(QObject::tr("Stopping..."));
        };
        QObject::connect(dialog.get(), &QProgressDialog::canceled, &loop, stop);
        auto* poll = new QTimer(dialog.get());
        QObject::connect(poll, &QTimer::timeout, &loop, [&, stop] {
            if (dialog->wasCanceled()) stop();
        });
        poll->start(50);
    }
    std::thread worker([&] {
        try {
            work(cancel);
        } catch (...) {
            failure = std::current_exception();
        }
        // Queued to the loop's thread: quit() from here could run before exec() starts.
        QMetaObject::invokeMethod(&loop, "quit", Qt::QueuedConnection);
    });
    // With a dialog, it is window-modal and takes the clicks; without one, no clicks at all,
    // so nothing can start a second load inside this one.
    loop.exec(showDialog ? QEventLoop::AllEvents : QEventLoop::ExcludeUserInputEvents);
    worker.join();
    if (dialog) dialog->reset();
    if (failure) std::rethrow_exception(failure);
    return !cancel;
}

}  // namespace immap::gui
