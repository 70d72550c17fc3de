#pragma once
// Workshop mode enlarges the type of every view: the app sets the application property
// "immapFontScale" (1.6 there, unset otherwise) and the views size the text they paint
// themselves by it, never under kSlideMinPx there (the back row of a room with a 1280x720
// projector). Unset means 1, so nothing changes outside workshop mode.

#include <QCoreApplication>
#include <QFont>
#include <QVariant>
#include <QtMath>
#include <algorithm>

namespace immap::views {

inline double fontScale() {
    const QVariant v = QCoreApplication::instance() ? qApp->property("immapFontScale") : QVariant();
    return v.isValid() && v.toDouble() > 0 ? v.toDouble() : 1.0;
}
inline constexpr int kSlideMinPx = 18;
inline int scaledPx(int px) {
    const double s = fontScale();
    return s == 1.0 ? px : std::max(kSlideMinPx, qRound(px * s));
}
// `base` (for its family) at a pixel size, scaled as above.
inline QFont pxFont(QFont base, int px, bool bold = false) {
    base.setPixelSize(scaledPx(px));
    base.setBold(bold);
    return base;
}

}  // namespace immap::views
