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
#include <QtGlobal>
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
    // The largest PNG a figure may be, in bytes at 4 a pixel: 2^30 (2^28 pixels: 10000x10000 up
    // to scale 1.6384, 1920x1080 up to 8). Past 2^31 bytes the raster engine's int offsets
    // overflow: 10000x10000 at scale 3 (3.6 GB) crashed in QPainter::drawImage, scale 2.3
    // (2.1 GB) still rendered. Half that leaves room for the views' own buffers; at the bound
    // the split view renders in 16 s at 1.5 GB resident (docs/gui.md).
    static constexpr qint64 kMaxPngBytes = qint64{1} << 30;
    // The bytes of a PNG figure of `logical` pixels at `scale`, as QImage would hold them.
    static qint64 pngBytes(QSize logical, double scale);
    // size: the figure's size in logical pixels (empty: as shown); scale: 1 to 8. A PNG over
    // `maxPngBytes` is refused before anything is drawn (tests pass a smaller bound).
    static QString saveFigure(const QList<QWidget*>& parts, const QString& path,
                              const std::vector<std::string>& inputs = {}, QSize size = {},
                              double scale = 1, qint64 maxPngBytes = kMaxPngBytes);
    static QString filters();  // for QFileDialog
    // The parts stacked top to bottom, as saveFigure lays them out: widest by summed heights.
    static QSize figureSize(const QList<QWidget*>& parts);
};

}  // namespace immap::views
