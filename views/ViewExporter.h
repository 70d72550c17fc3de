#pragma once
// Exports a widget as it looks now: PNG, SVG (QSvgGenerator) or PDF (QPdfWriter), chosen by the
// file's suffix. Saved through io::AtomicFile, so a failed export never leaves half a file.

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
    static QString filters();  // for QFileDialog
};

}  // namespace immap::views
