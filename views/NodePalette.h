#pragma once
// The colours every view uses: red and black node fills, and one colour per NUMA node (the ring
// around a node and the table's node column), chosen to stay apart from red, black and each
// other.

#include <QColor>

namespace immap::views {

class NodePalette {
public:
    static QColor red() { return QColor(0xd0, 0x21, 0x2e); }
    static QColor black() { return QColor(0x1c, 0x1c, 0x1c); }
    static QColor edge() { return QColor(0x9a, 0xa0, 0xa6); }
    static QColor background() { return QColor(0xfb, 0xfb, 0xfa); }
    static QColor path() { return QColor(0xff, 0xa6, 0x00); }     // descent path
    static QColor focus() { return QColor(0x00, 0x9d, 0xe0); }    // the step's nodes
    static QColor flash() { return QColor(0xff, 0xe0, 0x3d); }    // subtree_last written
    static QColor recolor() { return QColor(0xb0, 0x3a, 0xd0); }  // colour just changed
    static QColor match() { return QColor(0x2c, 0xa0, 0x2c); }    // rmap walk found it
    // A distinct colour per NUMA node (cycles after 16).
    static QColor home(int node);
};

}  // namespace immap::views
