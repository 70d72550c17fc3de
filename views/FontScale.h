#pragma once
// Workshop mode enlarges the type of every view: the app sets the application property
// "immapFontScale" (1.6 there, unset otherwise) and the views size the text they paint
// themselves by it. Unset means 1, so nothing changes outside workshop mode.

#include <QCoreApplication>
#include <QVariant>
#include <QtMath>

namespace immap::views {

inline double fontScale() {
    const QVariant v = QCoreApplication::instance() ? qApp->property("immapFontScale") : QVariant();
    return v.isValid() && v.toDouble() > 0 ? v.toDouble() : 1.0;
}
inline int scaledPx(int px) {
    return qRound(px * fontScale());
}

}  // namespace immap::views
