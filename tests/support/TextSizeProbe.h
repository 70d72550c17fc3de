#pragma once
// Records every text a widget paints (through QWidget::render into this paint device): the
// string, its font's pixel height as painted (the painter's scale included) and where. For
// "no text on a slide under 18 px": QPainter hands each text run to the engine's drawTextItem,
// whichever widget or view drew it. Text painted into an image first (QCustomPlot's buffer)
// arrives as pixels and is not seen; those views are checked through their fonts.

#include <QPaintDevice>
#include <QPaintEngine>
#include <QPointF>
#include <QSize>
#include <QString>
#include <memory>
#include <vector>

class TextSizeProbe : public QPaintDevice {
public:
    struct Text {
        QString text;
        double px = 0;
        QPointF at;
    };
    explicit TextSizeProbe(QSize size);
    ~TextSizeProbe() override;

    QPaintEngine* paintEngine() const override;
    const std::vector<Text>& texts() const;
    void clear();

protected:
    int metric(PaintDeviceMetric m) const override;

private:
    class Engine;
    QSize size_;
    std::unique_ptr<Engine> engine_;
};
