#include "ParamsPanel.h"

#include <QDoubleSpinBox>
#include <QGridLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QToolButton>
#include <QVBoxLayout>

namespace immap::views {

ParamsPanel::ParamsPanel(QWidget* parent) : QWidget(parent) {
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    auto* inner = new QWidget(scroll);
    auto* grid = new QGridLayout(inner);
    const auto& table = sim::CostParams::table();
    int row = 0;
    for (const sim::CostParams::Info& info : table) {
        const QString tip =
            QStringLiteral("<p><b>%1</b> (%2; default %3)</p><p>%4</p><p><i>Source:</i> %5</p>")
                .arg(QString::fromLatin1(info.name), QString::fromUtf8(info.unit))
                .arg(info.defaultValue)
                .arg(QString::fromUtf8(info.meaning).toHtmlEscaped(),
                     QString::fromUtf8(info.source).toHtmlEscaped());
        auto* name = new QLabel(QString::fromLatin1(info.name), inner);
        name->setToolTip(tip);
        auto* edit = new QDoubleSpinBox(inner);
        edit->setObjectName(QString::fromLatin1(info.name));
        edit->setRange(info.min, info.max);
        edit->setDecimals(info.defaultValue == static_cast<long long>(info.defaultValue) ? 0 : 2);
        edit->setToolTip(tip);
        edit->setKeyboardTracking(false);
        auto* unit = new QLabel(QString::fromUtf8(info.unit), inner);
        auto* reset = new QToolButton(inner);
        reset->setText(tr("Reset"));
        reset->setToolTip(tr("Back to the default, %1 %2")
                              .arg(info.defaultValue)
                              .arg(QString::fromUtf8(info.unit)));
        grid->addWidget(name, row, 0);
        grid->addWidget(edit, row, 1);
        grid->addWidget(unit, row, 2);
        grid->addWidget(reset, row, 3);
        const std::size_t index = editors_.size();
        editors_.push_back(edit);
        resets_.push_back(reset);
        connect(edit, qOverload<double>(&QDoubleSpinBox::valueChanged), this,
                [this, index](double v) {
                    if (quiet_) return;
                    std::string error;
                    if (params_.set(sim::CostParams::table()[index].name, v, error))
                        emit paramsChanged(params_);
                });
        connect(reset, &QToolButton::clicked, this, [this, index] {
            const auto& i = sim::CostParams::table()[index];
            std::string error;
            params_.set(i.name, i.defaultValue, error);
            showValues();
            emit paramsChanged(params_);
        });
        ++row;
    }
    auto* all = new QPushButton(tr("Reset all"), inner);
    grid->addWidget(all, row, 0, 1, 4);
    grid->setRowStretch(row + 1, 1);
    connect(all, &QPushButton::clicked, this, [this] {
        params_ = sim::CostParams{};
        showValues();
        emit paramsChanged(params_);
    });
    scroll->setWidget(inner);
    outer->addWidget(scroll);
    showValues();
}

void ParamsPanel::setParams(const sim::CostParams& p) {
    params_ = p;
    showValues();
}

void ParamsPanel::showValues() {
    quiet_ = true;
    const auto& table = sim::CostParams::table();
    for (std::size_t i = 0; i < table.size(); ++i)
        editors_[i]->setValue(params_.*(table[i].field));
    quiet_ = false;
}

QDoubleSpinBox* ParamsPanel::editor(const QString& name) const {
    const auto& table = sim::CostParams::table();
    for (std::size_t i = 0; i < table.size(); ++i)
        if (name == QLatin1String(table[i].name)) return editors_[i];
    return nullptr;
}

QToolButton* ParamsPanel::resetButton(const QString& name) const {
    const auto& table = sim::CostParams::table();
    for (std::size_t i = 0; i < table.size(); ++i)
        if (name == QLatin1String(table[i].name)) return resets_[i];
    return nullptr;
}

}  // namespace immap::views
