#include "TextSizeProbe.h"

#include <QFontInfo>
#include <QPainterPath>
#include <QTextItem>
#include <QTransform>
#include <cmath>

class TextSizeProbe::Engine : public QPaintEngine {
public:
    Engine() : QPaintEngine(QPaintEngine::AllFeatures) {}
    bool begin(QPaintDevice*) override { return true; }
    bool end() override { return true; }
    void updateState(const QPaintEngineState& s) override {
        if (s.state() & QPaintEngine::DirtyTransform) transform_ = s.transform();
    }
    // Everything but text is dropped (QPaintEngine's defaults call each other in a loop).
    void drawPixmap(const QRectF&, const QPixmap&, const QRectF&) override {}
    void drawPolygon(const QPointF*, int, PolygonDrawMode) override {}
    void drawPolygon(const QPoint*, int, PolygonDrawMode) override {}
    void drawPath(const QPainterPath&) override {}
    void drawImage(const QRectF&, const QImage&, const QRectF&, Qt::ImageConversionFlags) override {
    }
    void drawRects(const QRectF*, int) override {}
    void drawRects(const QRect*, int) override {}
    void drawLines(const QLineF*, int) override {}
    void drawLines(const QLine*, int) override {}
    void drawEllipse(const QRectF&) override {}
    void drawEllipse(const QRect&) override {}
    void drawPoints(const QPointF*, int) override {}
    void drawPoints(const QPoint*, int) override {}
    void drawTiledPixmap(const QRectF&, const QPixmap&, const QPointF&) override {}
    void drawTextItem(const QPointF& p, const QTextItem& ti) override {
        const QFont f = ti.font();
        // A point size means 96 dpi here (metric() says so), as on the offscreen screen.
        const double px = f.pixelSize() > 0 ? f.pixelSize() : f.pointSizeF() * 96.0 / 72.0;
        const double scale = std::sqrt(std::abs(transform_.determinant()));
        if (!ti.text().trimmed().isEmpty())
            texts.push_back({ti.text(), px * scale, transform_.map(p)});
    }
    Type type() const override { return QPaintEngine::User; }
    std::vector<Text> texts;

private:
    QTransform transform_;
};

TextSizeProbe::TextSizeProbe(QSize size) : size_(size), engine_(std::make_unique<Engine>()) {}
TextSizeProbe::~TextSizeProbe() = default;

QPaintEngine* TextSizeProbe::paintEngine() const {
    return engine_.get();
}

const std::vector<TextSizeProbe::Text>& TextSizeProbe::texts() const {
    return engine_->texts;
}

void TextSizeProbe::clear() {
    engine_->texts.clear();
}

int TextSizeProbe::metric(PaintDeviceMetric m) const {
    switch (m) {
        case PdmWidth:
            return size_.width();
        case PdmHeight:
            return size_.height();
        case PdmWidthMM:
            return qRound(size_.width() * 25.4 / 96);
        case PdmHeightMM:
            return qRound(size_.height() * 25.4 / 96);
        case PdmNumColors:
            return 0x7fffffff;
        case PdmDepth:
            return 32;
        case PdmDpiX:
        case PdmDpiY:
        case PdmPhysicalDpiX:
        case PdmPhysicalDpiY:
            return 96;
        case PdmDevicePixelRatio:
            return 1;
        case PdmDevicePixelRatioScaled:
            return static_cast<int>(QPaintDevice::devicePixelRatioFScale());
    }
    return 0;
}
