#pragma once
// The cost model's parameters, one row each: name, value, unit, a reset button; the tooltip
// gives the meaning and where the default comes from (core/sim/CostParams's table, the same
// as docs/simulator.md). Emits the edited parameters; the caller decides what runs with them.

#include <QWidget>
#include <vector>

#include "sim/CostParams.h"

class QDoubleSpinBox;
class QToolButton;

namespace immap::views {

class ParamsPanel : public QWidget {
    Q_OBJECT
public:
    explicit ParamsPanel(QWidget* parent = nullptr);

    const sim::CostParams& params() const { return params_; }
    void setParams(const sim::CostParams& p);
    QDoubleSpinBox* editor(const QString& name) const;
    QToolButton* resetButton(const QString& name) const;

signals:
    void paramsChanged(const immap::sim::CostParams& params);

private:
    void showValues();

    sim::CostParams params_;
    std::vector<QDoubleSpinBox*> editors_;
    std::vector<QToolButton*> resets_;
    bool quiet_ = false;
};

}  // namespace immap::views
