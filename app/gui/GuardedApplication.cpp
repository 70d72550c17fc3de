#include "GuardedApplication.h"

#include <QMessageBox>
#include <iostream>

#include "limits/UserReason.h"

namespace immap::gui {

bool GuardedApplication::notify(QObject* receiver, QEvent* event) {
    try {
        return QApplication::notify(receiver, event);
    } catch (...) {
        report(QStringLiteral("the last action"), headless_);
        return true;  // handled: the event is not delivered again
    }
}

void GuardedApplication::report(const QString& doing, bool headless) {
    const QString reason = QString::fromStdString(
        limits::UserReason::of(std::current_exception(), doing.toStdString()));
    if (headless) {
        std::cerr << "immap-lab: " << reason.toStdString() << '\n';
        return;
    }
    auto* box = new QMessageBox(QMessageBox::Critical, QStringLiteral("immap-lab"),
                                QStringLiteral("Something went wrong.\n\nReason: %1").arg(reason),
                                QMessageBox::Ok);
    box->setObjectName(QStringLiteral("errorDialog"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

}  // namespace immap::gui
