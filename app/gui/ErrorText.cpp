#include "ErrorText.h"

#include <QCoreApplication>

#include "io/InputError.h"

namespace immap::gui {

QString ErrorText::of(const io::InputError& e) {
    const QString reason = QCoreApplication::translate("ErrorText", "Reason: %1")
                               .arg(QString::fromStdString(e.reason()));
    if (e.file().empty()) return reason;
    return QCoreApplication::translate("ErrorText", "File: %1\nLine: %2\n%3")
        .arg(QString::fromStdString(e.file()),
             e.line() ? QString::number(e.line())
                      : QCoreApplication::translate("ErrorText", "(whole file)"),
             reason);
}

}  // namespace immap::gui
