#include "NodePalette.h"

#include <array>

namespace immap::views {

QColor NodePalette::home(int node) {
    // Hues spread round the wheel, skipping red; saturated enough to read as a thin ring.
    static const std::array<QColor, 16> kColors{{
        QColor(0x1f, 0x77, 0xb4),  // blue
        QColor(0xff, 0x7f, 0x0e),  // orange
        QColor(0x2c, 0xa0, 0x2c),  // green
        QColor(0x94, 0x67, 0xbd),  // purple
        QColor(0x17, 0xbe, 0xcf),  // cyan
        QColor(0xbc, 0xbd, 0x22),  // olive
        QColor(0xe3, 0x77, 0xc2),  // pink
        QColor(0x8c, 0x56, 0x4b),  // brown
        QColor(0x39, 0x3b, 0x79),  // navy
        QColor(0x6b, 0xd6, 0x6b),  // light green
        QColor(0xe7, 0xba, 0x52),  // gold
        QColor(0x7f, 0x7f, 0x7f),  // grey
        QColor(0x00, 0x80, 0x80),  // teal
        QColor(0xa5, 0x51, 0x94),  // plum
        QColor(0x63, 0x79, 0x39),  // moss
        QColor(0x9e, 0xda, 0xe5),  // pale blue
    }};
    return kColors[static_cast<std::size_t>(node < 0 ? 0 : node) % kColors.size()];
}

}  // namespace immap::views
