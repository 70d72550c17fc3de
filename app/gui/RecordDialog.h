#pragma once
// File > Record a simulation, in one dialog: policy, copies, measured window, seed, walkers and
// the file to write. It opens on what the Throughput tab would simulate (the session's grid,
// window, seed and walkers; its largest copy count) and checks its fields before it closes.

#include <QComboBox>
#include <QDialog>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QSpinBox>

#include "session/SimSettings.h"

namespace immap::gui {

struct RecordRequest {
    // What the dialog's fields and the hidden --record-copies / --record-ms accept.
    static constexpr int kMaxCopies = 100000;
    static constexpr int kMaxDurationMs = 10000;
    QString path;
    QString policy;
    int copies = 1;
    double durationMs = 20;  // the measured window's floor
    quint64 seed = 1;
    double walkersPerSecond = session::SimSettings::kDefaultWalkersPerSecond;
};

class RecordDialog : public QDialog {
    Q_OBJECT
public:
    // `policies`: offered first (the sweep's); the dialog adds the other known ones.
    RecordDialog(const QStringList& policies, const RecordRequest& defaults,
                 QWidget* parent = nullptr);
    // Valid after accept().
    RecordRequest request() const { return request_; }

    void accept() override;

private:
    void browse();

    QComboBox* policy_;
    QSpinBox* copies_;
    QDoubleSpinBox* duration_;
    QSpinBox* seed_;
    QDoubleSpinBox* walkers_;
    QLineEdit* path_;
    RecordRequest request_;
};

}  // namespace immap::gui
