#include "ViewExporter.h"

#include <QBuffer>
#include <QFileInfo>
#include <QImage>
#include <QPainter>
#include <QPdfWriter>
#include <QSvgGenerator>
#include <QWidget>

#include "io/AtomicFile.h"
#include "io/OutputTarget.h"

namespace immap::views {

QString ViewExporter::filters() {
    return QObject::tr("PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)");
}

QString ViewExporter::save(QWidget* widget, const QString& path,
                           const std::vector<std::string>& inputs) {
    // First: replacing an input or a device is the worse mistake, whatever the suffix says.
    if (const std::string why = io::OutputTarget::check(path.toStdString(), inputs); !why.empty())
        return QString::fromStdString(why);
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix != QLatin1String("png") && suffix != QLatin1String("svg") &&
        suffix != QLatin1String("pdf"))
        return QObject::tr("%1: unknown format '%2' (expected .png, .svg or .pdf)")
            .arg(path, suffix);
    // Rendered in memory, then saved as every file is (io::AtomicFile).
    QBuffer out;
    out.open(QIODevice::WriteOnly);
    const QSize size = widget->size();
    bool ok = true;
    if (suffix == QLatin1String("png")) {
        const QImage image = widget->grab().toImage();
        ok = image.save(&out, "PNG");
    } else if (suffix == QLatin1String("svg")) {
        QSvgGenerator svg;
        svg.setOutputDevice(&out);
        svg.setSize(size);
        svg.setViewBox(QRect(QPoint(0, 0), size));
        svg.setTitle(widget->windowTitle());
        svg.setDescription(QStringLiteral("immap-lab view export"));
        QPainter p(&svg);
        widget->render(&p, QPoint(), QRegion(), QWidget::DrawChildren);
        ok = p.end();
    } else {
        QPdfWriter pdf(&out);
        pdf.setResolution(96);
        pdf.setPageSize(QPageSize(QSizeF(size), QPageSize::Point));
        pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
        pdf.setCreator(QStringLiteral("immap-lab"));
        QPainter p(&pdf);
        // Fit the widget's pixels onto the page.
        const double s = std::min(p.viewport().width() / double(size.width()),
                                  p.viewport().height() / double(size.height()));
        p.scale(s, s);
        widget->render(&p, QPoint(), QRegion(), QWidget::DrawChildren);
        ok = p.end();
    }
    if (!ok) return QObject::tr("%1: could not render the view").arg(path);
    out.close();
    std::string why;
    if (!io::AtomicFile::save(path.toStdString(), out.data().toStdString(), why))
        return QString::fromStdString(why);
    return {};
}

}  // namespace immap::views
