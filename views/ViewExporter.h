#pragma once
// Exports what is on screen: PNG, SVG (QSvgGenerator) or PDF (QPdfWriter), chosen by the file's
// suffix. Saved through io::AtomicFile, so a failed export never leaves half a file.
//  - save: one widget as it looks now, controls and all (File > Export view);
//  - saveFigure: a view's drawing only (File > Export figure, immap-lab --figure-only): the
//    widgets that draw, stacked top to bottom, optionally laid out afresh at another size
//    (their heights shared in proportion) and rendered at a scale (2 gives a 2x PNG; SVG and
//    PDF are vector, the scale only sets their nominal size).

#include <QList>
#include <QSize>
#include <QString>
#include <string>
#include <vector>

class QWidget;

namespace immap::views {

class ViewExporter {
public:
    // Returns an empty string on success, else the reason (naming the file). `inputs` are the
    // files the window has read: the export may replace none of them.
    static QString save(QWidget* widget, const QString& path,
                        const std::vector<std::string>& inputs = {});
    // size: the figure's size in logical pixels (empty: as shown); scale: 1 to 8.
    static QString saveFigure(const QList<QWidget*>& parts, const QString& path,
                              const std::vector<std::string>& inputs = {}, QSize size = {},
                              double scale = 1);
    static QString filters();  // for QFileDialog
    // The parts stacked top to bottom, as saveFigure lays them out: widest by summed heights.
    static QSize figureSize(const QList<QWidget*>& parts);
};

}  // namespace immap::views
