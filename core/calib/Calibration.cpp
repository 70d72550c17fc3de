#include "calib/Calibration.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <limits>

#include "sim/Sweep.h"
#include "topology/Topology.h"

namespace immap::calib {

namespace {

constexpr double kMinUnlockedNs = 1e3;
constexpr double kMaxUnlockedNs = 1e9;

using Vec = std::array<double, 2>;

// Nelder-Mead (reflection 1, expansion 2, contraction 0.5, shrink 0.5) in `dims` (1 or 2)
// dimensions. Deterministic; stops when the simplex's values agree within `ftol` or after
// `maxEval` evaluations.
Vec nelderMead(const std::function<double(const Vec&)>& f, Vec x0, Vec step, int dims,
               unsigned maxEval, unsigned& evals, double ftol = 1e-9) {
    std::vector<Vec> s(static_cast<std::size_t>(dims) + 1, x0);
    std::vector<double> fs(s.size());
    for (int i = 0; i < dims; ++i)
        s[static_cast<std::size_t>(i) + 1][static_cast<std::size_t>(i)] +=
            step[static_cast<std::size_t>(i)];
    auto eval = [&](const Vec& x) {
        ++evals;
        return f(x);
    };
    for (std::size_t i = 0; i < s.size(); ++i)
        fs[i] = eval(s[i]);
    auto combine = [&](const Vec& a, const Vec& b, double t) {  // a + t (b - a)
        Vec r = a;
        for (int i = 0; i < dims; ++i)
            r[static_cast<std::size_t>(i)] +=
                t * (b[static_cast<std::size_t>(i)] - a[static_cast<std::size_t>(i)]);
        return r;
    };
    while (evals < maxEval) {
        std::vector<std::size_t> idx(s.size());
        for (std::size_t i = 0; i < idx.size(); ++i)
            idx[i] = i;
        std::stable_sort(idx.begin(), idx.end(), [&](auto a, auto b) { return fs[a] < fs[b]; });
        std::vector<Vec> s2;
        std::vector<double> f2;
        for (std::size_t i : idx) {
            s2.push_back(s[i]);
            f2.push_back(fs[i]);
        }
        s = s2;
        fs = f2;
        if (fs.back() - fs.front() <= ftol * (1 + fs.front())) break;
        Vec centroid{0, 0};
        for (std::size_t i = 0; i + 1 < s.size(); ++i)
            for (int d = 0; d < dims; ++d)
                centroid[static_cast<std::size_t>(d)] +=
                    s[i][static_cast<std::size_t>(d)] / static_cast<double>(dims);
        const Vec& worst = s.back();
        const Vec xr = combine(centroid, worst, -1);
        const double fr = eval(xr);
        if (fr < fs.front()) {
            const Vec xe = combine(centroid, worst, -2);
            const double fe = eval(xe);
            if (fe < fr) {
                s.back() = xe;
                fs.back() = fe;
            } else {
                s.back() = xr;
                fs.back() = fr;
            }
        } else if (fr < fs[fs.size() - 2]) {
            s.back() = xr;
            fs.back() = fr;
        } else {
            const bool outside = fr < fs.back();
            const Vec xc = combine(centroid, outside ? xr : worst, 0.5);
            const double fc = eval(xc);
            if (fc < std::min(fr, fs.back())) {
                s.back() = xc;
                fs.back() = fc;
            } else {
                for (std::size_t i = 1; i < s.size(); ++i) {
                    s[i] = combine(s.front(), s[i], 0.5);
                    fs[i] = eval(s[i]);
                }
            }
        }
    }
    std::size_t best = 0;
    for (std::size_t i = 1; i < s.size(); ++i)
        if (fs[i] < fs[best]) best = i;
    return s[best];
}

double meanSquaredRelError(const std::vector<CalibPoint>& pts, const std::vector<double>& pred) {
    double sum = 0;
    for (std::size_t i = 0; i < pts.size(); ++i) {
        const double e = (pred[i] - pts[i].execsPerSecond) / pts[i].execsPerSecond;
        sum += e * e;
    }
    return sum / static_cast<double>(pts.size());
}

}  // namespace

const std::vector<std::string>& Calibration::scaledParams() {
    static const std::vector<std::string> names{
        "mem_local_ns", "mem_per_distance_ns", "cache_hit_ns",   "cache_l1_hit_ns",
        "tree_op_ns",   "lock_atomic_ns",      "split_store_ns", "anon_vma_lock_ns"};
    return names;
}

sim::CostParams Calibration::apply(const sim::CostParams& base, double unlockedNs, double scale) {
    sim::CostParams p = base;
    p.unlockedNsPerExec = unlockedNs;
    p.memLocalNs = base.memLocalNs * scale;
    p.memPerDistanceNs = base.memPerDistanceNs * scale;
    p.cacheHitNs = base.cacheHitNs * scale;
    p.cacheL1HitNs = base.cacheL1HitNs * scale;
    p.treeOpNs = base.treeOpNs * scale;
    p.lockAtomicNs = base.lockAtomicNs * scale;
    p.splitStoreNs = base.splitStoreNs * scale;  // locked work too, priced by the same misses
    p.anonVmaLockNs = base.anonVmaLockNs * scale;
    // A small scale must not take a cost below its valid range (CostParams::table), or the fit
    // file written from it would be refused when read back.
    for (const std::string& name : scaledParams())
        for (const sim::CostParams::Info& i : sim::CostParams::table())
            if (name == i.name) p.*(i.field) = std::clamp(p.*(i.field), i.min, i.max);
    return p;
}

std::vector<double> Calibration::predict(const CalibrationConfig& config,
                                         const sim::CostParams& params) {
    sim::SweepConfig sc;
    sc.run.topology = config.topology;
    sc.policies = {mapping::Policy{}};
    for (const CalibPoint& p : config.points)
        sc.copies.push_back(p.copies);
    sc.run.durationMs = config.durationMs;
    sc.run.seed = config.seed;
    sc.run.recipe = config.recipe;
    sc.run.params = params;
    sc.threads = std::max(1u, config.threads);
    sc.seeds = kSeeds;
    std::vector<double> out;
    for (const sim::SimResult& r : sim::Sweep::run(sc))
        out.push_back(r.execsPerSecond);  // the seeds' mean
    return out;
}

CalibrationResult Calibration::fit(const CalibrationConfig& config) {
    if (!config.topology) throw CalibError("no topology to simulate on");
    if (config.points.empty()) throw CalibError("no measured points to fit");
    for (std::size_t i = 0; i < config.points.size(); ++i) {
        const CalibPoint& p = config.points[i];
        if (p.copies == 0 || !(p.execsPerSecond > 0) || !std::isfinite(p.execsPerSecond))
            throw CalibError("point " + std::to_string(i) +
                             ": copies and execs/s must be positive");
        for (std::size_t j = 0; j < i; ++j)
            if (config.points[j].copies == p.copies)
                throw CalibError("copies " + std::to_string(p.copies) + " is measured twice");
    }
    CalibrationResult res;
    unsigned evals = 0;

    // L: the locked time of one uncontended exec at k = 1 (one copy, no unlocked work).
    {
        CalibrationConfig one = config;
        one.points = {{1, 1}};
        const double rate = predict(one, apply(config.base, 0, 1)).front();
        res.lockedNsPerExec = rate > 0 ? 1e9 / rate : 0;
    }
    // The anchor: the smallest copy count, each copy on its own CPU while there are enough.
    const CalibPoint anchor = *std::min_element(
        config.points.begin(), config.points.end(),
        [](const CalibPoint& a, const CalibPoint& b) { return a.copies < b.copies; });
    const double pus = static_cast<double>(std::max<std::size_t>(1, config.topology->pus().size()));
    const double perCopyNs =
        std::min(static_cast<double>(anchor.copies), pus) * 1e9 / anchor.execsPerSecond;
    auto anchoredU = [&](double k) {
        return std::clamp(perCopyNs - k * res.lockedNsPerExec, kMinUnlockedNs, kMaxUnlockedNs);
    };
    auto objective = [&](double u, double k) {
        u = std::clamp(u, kMinUnlockedNs, kMaxUnlockedNs);
        k = std::clamp(k, kMinScale, kMaxScale);
        return meanSquaredRelError(config.points, predict(config, apply(config.base, u, k)));
    };

    res.scaleFitted = config.points.size() > 1;
    double u = 0, k = 1;
    if (!res.scaleFitted) {
        const Vec x =
            nelderMead([&](const Vec& v) { return objective(std::exp(v[0]), 1); },
                       {std::log(anchoredU(1)), 0}, {0.05, 0}, 1, config.maxEvaluations, evals);
        u = std::exp(x[0]);
        res.method = "one copy count: lock_cost_scale kept at 1; Nelder-Mead on log U";
    } else {
        // Coarse grid over k from 0.01 to 100 (U tied to the anchor), golden section, then
        // Nelder-Mead on both.
        double bestK = 1, bestF = std::numeric_limits<double>::infinity();
        for (int i = 0; i <= 12; ++i) {
            const double kk = std::pow(10.0, -2.0 + i / 3.0);
            const double f = objective(anchoredU(kk), kk);
            ++evals;
            if (f < bestF) {
                bestF = f;
                bestK = kk;
            }
        }
        // The simulated curve is slightly rough in the parameters (whole execs per window), so
        // a simplex can collapse early: restart from the best point with a smaller simplex
        // while that still improves.
        auto f2 = [&](const Vec& v) { return objective(std::exp(v[0]), std::exp(v[1])); };
        // Golden section on log k between the grid neighbours of the best, U still tied:
        // along that valley the truth of model-made points is exact.
        {
            const double g = (std::sqrt(5.0) - 1) / 2;
            double a = std::log(bestK) - std::log(10.0) / 3,
                   b = std::log(bestK) + std::log(10.0) / 3;
            auto fk = [&](double lk) {
                ++evals;
                return objective(anchoredU(std::exp(lk)), std::exp(lk));
            };
            double c = b - g * (b - a), d = a + g * (b - a);
            double fc = fk(c), fd = fk(d);
            for (int i = 0; i < 20; ++i) {
                if (fc < fd) {
                    b = d;
                    d = c;
                    fd = fc;
                    c = b - g * (b - a);
                    fc = fk(c);
                } else {
                    a = c;
                    c = d;
                    fc = fd;
                    d = a + g * (b - a);
                    fd = fk(d);
                }
            }
            const double lk = fc < fd ? c : d;
            if (std::min(fc, fd) < bestF) bestK = std::exp(lk);
        }
        Vec x{std::log(anchoredU(bestK)), std::log(bestK)};
        Vec step{0.02, 0.05};
        double fx = f2(x);
        ++evals;
        for (int restart = 0; restart < 4 && evals < config.maxEvaluations; ++restart) {
            const Vec y = nelderMead(f2, x, step, 2, config.maxEvaluations, evals);
            const double fy = f2(y);
            ++evals;
            const bool better = fy < fx * (1 - 1e-3);
            if (fy < fx) {
                x = y;
                fx = fy;
            }
            if (!better && restart > 0) break;
            step = {step[0] / 2, step[1] / 2};
        }
        u = std::exp(x[0]);
        k = std::exp(x[1]);
        res.method =
            "least squares on relative error: U tied to the smallest copy count, a log grid of "
            "13 lock_cost_scale values over 0.01-100 and a golden section between the best's "
            "neighbours, then Nelder-Mead on (log U, log k), "
            "restarted from its best point with a halved simplex while that improves";
    }
    res.unlockedNsPerExec = std::clamp(u, kMinUnlockedNs, kMaxUnlockedNs);
    res.lockCostScale = std::clamp(k, kMinScale, kMaxScale);
    res.scaleAtBound = res.scaleFitted && (res.lockCostScale <= kMinScale * 1.0001 ||
                                           res.lockCostScale >= kMaxScale * 0.9999);
    res.unlockedAtBound = res.unlockedNsPerExec <= kMinUnlockedNs * 1.0001 ||
                          res.unlockedNsPerExec >= kMaxUnlockedNs * 0.9999;
    res.params = apply(config.base, res.unlockedNsPerExec, res.lockCostScale);
    res.evaluations = evals;

    const std::vector<double> fitted = predict(config, res.params);
    const std::vector<double> defaults = predict(config, config.base);
    double se = 0, sd = 0;
    for (std::size_t i = 0; i < config.points.size(); ++i) {
        PointFit pf;
        pf.copies = config.points[i].copies;
        pf.measured = config.points[i].execsPerSecond;
        pf.predicted = fitted[i];
        pf.relError = (fitted[i] - pf.measured) / pf.measured;
        pf.defaultPredicted = defaults[i];
        pf.defaultRelError = (defaults[i] - pf.measured) / pf.measured;
        se += pf.relError * pf.relError;
        sd += pf.defaultRelError * pf.defaultRelError;
        res.points.push_back(pf);
    }
    const double n = static_cast<double>(config.points.size());
    res.rmsRelError = std::sqrt(se / n);
    res.defaultRmsRelError = std::sqrt(sd / n);
    return res;
}

}  // namespace immap::calib
