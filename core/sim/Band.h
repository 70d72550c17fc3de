#pragma once
// A result's spread over parameter sets (LatinHypercube): its median and its 10-90% band.

#include <QJsonObject>
#include <vector>

namespace immap::sim {

struct Band {
    double p10 = 0;
    double median = 0;
    double p90 = 0;
    bool valid = false;  // false: no values

    // Quantiles by linear interpolation between order statistics (Hyndman and Fan's type 7,
    // what R and NumPy use by default): with 10 values the band is not the extremes.
    static Band of(std::vector<double> values);
    // The q-quantile (0..1) of sorted values (not empty).
    static double quantile(const std::vector<double>& sorted, double q);
    bool contains(double x) const { return valid && x >= p10 && x <= p90; }
    // {"p10", "median", "p90"}: a band as every JSON output writes it.
    QJsonObject toJson() const { return {{"p10", p10}, {"median", median}, {"p90", p90}}; }
};

}  // namespace immap::sim
