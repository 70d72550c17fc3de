#include "PlotFile.h"

#include <qcustomplot.h>
#include <QFile>
#include <QTemporaryDir>

#include "io/AtomicFile.h"
#include "io/OutputTarget.h"

namespace immap::views {

namespace {

// QCustomPlot writes by path: it renders into a private temporary directory, and the bytes are
// then saved as every file is. The target is checked first, before the rendering's cost.
template <class Write>
bool saveAtomically(const QString& path, QString& error, Write&& write) {
    if (const std::string why = io::OutputTarget::check(path.toStdString(), {}); !why.empty()) {
        error = QString::fromStdString(why);
        return false;
    }
    QTemporaryDir tmp;
    const QString file = tmp.filePath("plot");
    if (!write(file)) {
        error = path + ": the plot could not be rendered";
        return false;
    }
    QFile in(file);
    if (!in.open(QIODevice::ReadOnly)) {
        error = path + ": " + in.errorString();
        return false;
    }
    return PlotFile::saveText(path, in.readAll().toStdString(), error);
}

}  // namespace

bool PlotFile::savePng(QCustomPlot* plot, const QString& path, int width, int height,
                       QString& error) {
    return saveAtomically(path, error,
                          [&](const QString& f) { return plot->savePng(f, width, height); });
}

bool PlotFile::savePdf(QCustomPlot* plot, const QString& path, int width, int height,
                       QString& error) {
    return saveAtomically(path, error,
                          [&](const QString& f) { return plot->savePdf(f, width, height); });
}

bool PlotFile::saveText(const QString& path, const std::string& text, QString& error) {
    if (const std::string why = io::OutputTarget::check(path.toStdString(), {}); !why.empty()) {
        error = QString::fromStdString(why);
        return false;
    }
    std::string why;
    if (!io::AtomicFile::save(path.toStdString(), text, why)) {
        error = QString::fromStdString(why);
        return false;
    }
    return true;
}

}  // namespace immap::views
