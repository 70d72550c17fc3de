#include "calib/FitFile.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include "io/InputFile.h"
#include "io/JsonKeys.h"
#include "io/TextPosition.h"

namespace immap::calib {

std::string FitFile::toJson(const CalibrationResult& fit, const FitSource& source) {
    QJsonObject o;
    o["format"] = "immap-fit";
    o["version"] = 1;
    o["topology"] = QString::fromStdString(source.topology);
    o["measured"] = QString::fromStdString(source.measured);
    o["host"] = QString::fromStdString(source.host);
    o["duration_ms"] = source.durationMs;
    o["seed"] = QString::number(source.seed);
    o["method"] = QString::fromStdString(fit.method);
    QJsonObject fitted;
    fitted["unlocked_ns_per_exec"] = fit.unlockedNsPerExec;
    fitted["lock_cost_scale"] = fit.lockCostScale;
    o["fitted"] = fitted;
    o["lock_cost_scale_fitted"] = fit.scaleFitted;
    o["lock_cost_scale_at_bound"] = fit.scaleAtBound;
    o["unlocked_ns_per_exec_at_bound"] = fit.unlockedAtBound;
    QJsonArray scaled;
    for (const std::string& n : Calibration::scaledParams())
        scaled.append(QString::fromStdString(n));
    o["lock_cost_scale_applies_to"] = scaled;
    o["locked_ns_per_exec_at_scale_1"] = fit.lockedNsPerExec;
    QJsonObject params;
    for (const sim::CostParams::Info& i : sim::CostParams::table())
        params[i.name] = fit.params.*(i.field);
    o["params"] = params;
    QJsonArray pts;
    for (const PointFit& p : fit.points) {
        QJsonObject j;
        j["copies"] = static_cast<double>(p.copies);
        j["measured_execs_per_s"] = p.measured;
        j["predicted_execs_per_s"] = p.predicted;
        j["rel_error"] = p.relError;
        j["default_execs_per_s"] = p.defaultPredicted;
        j["default_rel_error"] = p.defaultRelError;
        pts.append(j);
    }
    o["points"] = pts;
    o["rms_rel_error"] = fit.rmsRelError;
    o["default_rms_rel_error"] = fit.defaultRmsRelError;
    o["evaluations"] = static_cast<double>(fit.evaluations);
    return QJsonDocument(o).toJson(QJsonDocument::Indented).toStdString();
}

sim::CostParams FitFile::paramsFromJson(const std::string& json, const std::string& name) {
    QJsonParseError e{};
    const QJsonDocument d = QJsonDocument::fromJson(QByteArray::fromStdString(json), &e);
    if (e.error != QJsonParseError::NoError)
        throw CalibError(
            name, io::TextPosition::lineOf(json, static_cast<std::size_t>(std::max(0, e.offset))),
            "not valid JSON: " + e.errorString().toStdString());
    io::JsonKeys::refuse<CalibError>(json, name);
    const QJsonObject o = d.object();
    if (o["format"].toString() != "immap-fit" || o["version"].toInt() != 1)
        throw CalibError(name, 0, "not an immap-fit version 1 file");
    const QJsonObject params = o["params"].toObject();
    if (params.isEmpty()) throw CalibError(name, 0, "\"params\" is missing or empty");
    sim::CostParams p;
    for (auto it = params.begin(); it != params.end(); ++it) {
        std::string error;
        if (!it.value().isDouble())
            throw CalibError(name, 0, "params." + it.key().toStdString() + " is not a number");
        if (!p.set(it.key().toStdString(), it.value().toDouble(), error))
            throw CalibError(name, 0, error);
    }
    return p;
}

sim::CostParams FitFile::paramsFromFile(const std::string& path) {
    // A fit is a few hundred bytes of JSON.
    return paramsFromJson(
        io::InputFile::read<CalibError>(path, std::uint64_t{16} << 20, "a fit file"), path);
}

}  // namespace immap::calib
