#pragma once
// A QCustomPlot, or a plot's data, written to a file as every file is: the target checked
// (io::OutputTarget) and saved atomically (io::AtomicFile), so a failed write leaves the old
// file. False with the reason, naming the file, in `error`.

#include <QString>
#include <string>

class QCustomPlot;

namespace immap::views {

class PlotFile {
public:
    static bool savePng(QCustomPlot* plot, const QString& path, int width, int height,
                        QString& error);
    static bool savePdf(QCustomPlot* plot, const QString& path, int width, int height,
                        QString& error);
    static bool saveText(const QString& path, const std::string& text, QString& error);
};

}  // namespace immap::views
