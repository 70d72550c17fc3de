#include "ViewExporter.h"

#include <QBuffer>
#include <QFileInfo>
#include <QImage>
#include <QPainter>
#include <QPdfWriter>
#include <QSvgGenerator>
#include <QWidget>
#include <algorithm>

#include "io/AtomicFile.h"
#include "io/OutputTarget.h"

namespace immap::views {

namespace {

// The parts resized for the export and put back afterwards, so the window is as it was.
class Resized {
public:
    Resized(const QList<QWidget*>& parts, QSize size) {
        if (!size.isValid()) return;
        int total = 0;
        for (QWidget* w : parts)
            total += w->height();
        int y = 0;
        for (int i = 0; i < parts.size(); ++i) {
            QWidget* w = parts[i];
            saved_.push_back({w, w->size()});
            const int h = i + 1 == parts.size()
                              ? size.height() - y
                              : static_cast<int>(static_cast<double>(size.height()) * w->height() /
                                                 std::max(1, total));
            y += h;
            w->resize(size.width(), std::max(1, h));
        }
    }
    ~Resized() {
        for (const auto& [w, s] : saved_)
            w->resize(s);
    }

private:
    std::vector<std::pair<QWidget*, QSize>> saved_;
};

void paintParts(QPainter& p, const QList<QWidget*>& parts) {
    int y = 0;
    for (QWidget* w : parts) {
        w->render(&p, QPoint(0, y), QRegion(),
                  QWidget::DrawWindowBackground | QWidget::DrawChildren);
        y += w->height();
    }
}

}  // namespace

QSize ViewExporter::figureSize(const QList<QWidget*>& parts) {
    QSize s(0, 0);
    for (QWidget* w : parts)
        s = QSize(std::max(s.width(), w->width()), s.height() + w->height());
    return s;
}

qint64 ViewExporter::pngBytes(QSize logical, double scale) {
    // QSize * qreal rounds each side, as the image below is sized.
    const QSize px = logical * scale;
    return qint64{px.width()} * px.height() * 4;
}

QString ViewExporter::filters() {
    return QObject::tr("PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)");
}

QString ViewExporter::save(QWidget* widget, const QString& path,
                           const std::vector<std::string>& inputs) {
    return saveFigure({widget}, path, inputs);
}

QString ViewExporter::saveFigure(const QList<QWidget*>& parts, const QString& path,
                                 const std::vector<std::string>& inputs, QSize size, double scale,
                                 qint64 maxPngBytes) {
    // First: replacing an input or a device is the worse mistake, whatever the suffix says.
    if (const std::string why = io::OutputTarget::check(path.toStdString(), inputs); !why.empty())
        return QString::fromStdString(why);
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix != QLatin1String("png") && suffix != QLatin1String("svg") &&
        suffix != QLatin1String("pdf"))
        return QObject::tr("%1: unknown format '%2' (expected .png, .svg or .pdf)")
            .arg(path, suffix);
    if (parts.isEmpty()) return QObject::tr("%1: this view has no drawing to export").arg(path);
    if (!(scale >= 1 && scale <= 8))
        return QObject::tr("%1: scale %2 is outside 1 to 8").arg(path).arg(scale);
    if (size.isValid() && (size.width() < 100 || size.height() < 100 || size.width() > 10000 ||
                           size.height() > 10000))
        return QObject::tr("%1: size %2x%3 is outside 100x100 to 10000x10000")
            .arg(path)
            .arg(size.width())
            .arg(size.height());
    const Resized resized(parts, size);
    const QSize logical = figureSize(parts);
    if (suffix == QLatin1String("png") && pngBytes(logical, scale) > maxPngBytes) {
        const QSize px = logical * scale;
        return QObject::tr(
                   "%1: a %2x%3 PNG (%4x%5 at scale %6) takes %7 bytes, over the limit of "
                   "%8 bytes (%9 pixels) for a PNG figure; choose a smaller size or "
                   "scale, or SVG or PDF")
            .arg(path)
            .arg(px.width())
            .arg(px.height())
            .arg(logical.width())
            .arg(logical.height())
            .arg(scale)
            .arg(pngBytes(logical, scale))
            .arg(maxPngBytes)
            .arg(maxPngBytes / 4);
    }
    // Rendered in memory, then saved as every file is (io::AtomicFile).
    QBuffer out;
    out.open(QIODevice::WriteOnly);
    bool ok = true;
    if (suffix == QLatin1String("png")) {
        QImage image(logical * scale, QImage::Format_ARGB32_Premultiplied);
        image.setDevicePixelRatio(scale);
        image.fill(parts.front()->palette().window().color());
        QPainter p(&image);
        paintParts(p, parts);
        p.end();
        image.setDevicePixelRatio(1);  // the file's pixels, without a DPI hint
        ok = image.save(&out, "PNG");
    } else if (suffix == QLatin1String("svg")) {
        QSvgGenerator svg;
        svg.setOutputDevice(&out);
        svg.setSize(logical * scale);
        svg.setViewBox(QRect(QPoint(0, 0), logical));
        svg.setTitle(parts.front()->window()->windowTitle());
        svg.setDescription(QStringLiteral("immap-lab view export"));
        QPainter p(&svg);
        paintParts(p, parts);
        ok = p.end();
    } else {
        QPdfWriter pdf(&out);
        pdf.setResolution(96);
        pdf.setPageSize(QPageSize(QSizeF(logical * scale), QPageSize::Point));
        pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
        pdf.setCreator(QStringLiteral("immap-lab"));
        QPainter p(&pdf);
        // Fit the widgets' pixels onto the page.
        const double s = std::min(p.viewport().width() / double(logical.width()),
                                  p.viewport().height() / double(logical.height()));
        p.scale(s, s);
        paintParts(p, parts);
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
