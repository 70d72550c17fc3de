#include "sim/Scorecard.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <stdexcept>

#include "sim/LatinHypercube.h"
#include "sim/ParallelRuns.h"
#include "sim/Recipe.h"
#include "sim/RunCache.h"
#include "sim/RunCosts.h"
#include "sim/SimResult.h"
#include "sim/Simulator.h"
#include "topology/Topology.h"

namespace immap::sim {

namespace {

using Metric = Observation::Metric;

// One simulation an observation needs (the same key is run once per parameter set).
struct RunKey {
    std::string topology;
    std::string policy;
    unsigned copies = 0;
    unsigned unlinkBatch = 8;
    bool perCopyExecutable = false;
    auto operator<=>(const RunKey&) const = default;
};

std::vector<RunKey> runsOf(const Observation& o) {
    const auto key = [&](const std::string& policy, unsigned copies, unsigned batch = 8) {
        return RunKey{o.topology, policy, copies, batch, o.perCopyExecutable};
    };
    switch (o.metric) {
        case Metric::RatioOverSingle:
            return {key("single", o.copies), key(o.policy, o.copies)};
        case Metric::SpinShare:
            return {key("single", o.copies)};
        case Metric::PeakCopies:
        case Metric::RateRatio: {
            std::vector<RunKey> out;
            for (unsigned c : o.grid)
                out.push_back(key("single", c));
            return out;
        }
        case Metric::UnlinkBatchGain:
            return {key("single", o.copies, 1), key("single", o.copies, 8)};
        case Metric::NotModelled:
            return {};
    }
    return {};
}

struct RunOut {
    double rate = 0;
    double spinShare = 0;
};

// The observation's figure from its runs' outputs (in runsOf order).
double figure(const Observation& o, const std::vector<RunOut>& r) {
    switch (o.metric) {
        case Metric::RatioOverSingle:
        case Metric::UnlinkBatchGain:
            return r[0].rate > 0 ? r[1].rate / r[0].rate : 0;
        case Metric::SpinShare:
            return 100 * r[0].spinShare;
        case Metric::PeakCopies: {
            std::size_t best = 0;
            for (std::size_t i = 1; i < r.size(); ++i)
                if (r[i].rate > r[best].rate) best = i;
            return o.grid[best];
        }
        case Metric::RateRatio:
            return r[1].rate > 0 ? r[0].rate / r[1].rate : 0;
        case Metric::NotModelled:
            return 0;
    }
    return 0;
}

std::vector<RunKey> allRuns() {
    std::vector<RunKey> keys;
    for (const Observation& o : Observation::all())
        for (const RunKey& k : runsOf(o))
            if (std::find(keys.begin(), keys.end(), k) == keys.end()) keys.push_back(k);
    return keys;
}

const char* boundName(Observation::Bound b) {
    switch (b) {
        case Observation::Bound::About:
            return "about";
        case Observation::Bound::AtLeast:
            return "at_least";
        case Observation::Bound::None:
            return "none";
    }
    return "?";
}

}  // namespace

std::size_t Scorecard::runsPerSet() {
    return allRuns().size();
}

namespace {

// An observation's line from its runs' outputs (out[set][key]): the seeds' mean and figures,
// the band over the drawn sets, the verdict.
ScoreLine lineOf(const Observation& o, const std::vector<RunKey>& keys,
                 const std::vector<std::vector<RunOut>>& out, unsigned seeds, unsigned bands) {
    ScoreLine line;
    line.observation = &o;
    const std::vector<RunKey> mine = runsOf(o);
    line.modelled = !mine.empty();
    if (!line.modelled) {
        line.verdict = "not modelled";
        return line;
    }
    const std::size_t sets = seeds + bands;
    auto outsOf = [&](std::size_t s) {
        std::vector<RunOut> r;
        for (const RunKey& k : mine)
            r.push_back(out[s][static_cast<std::size_t>(std::find(keys.begin(), keys.end(), k) -
                                                        keys.begin())]);
        return r;
    };
    std::vector<RunOut> mean(mine.size());
    for (std::size_t s = 0; s < seeds; ++s) {
        const std::vector<RunOut> r = outsOf(s);
        line.seedValues.push_back(figure(o, r));
        for (std::size_t i = 0; i < r.size(); ++i) {
            mean[i].rate += r[i].rate / seeds;
            mean[i].spinShare += r[i].spinShare / seeds;
        }
    }
    line.point = figure(o, mean);
    std::vector<double> values;
    for (std::size_t s = seeds; s < sets; ++s)
        values.push_back(figure(o, outsOf(s)));
    line.draws = bands;
    line.band = Band::of(values);
    if (!line.band.valid) {
        // No draws: the seeds' spread stands in for the band, and says so (overSeeds).
        line.band = Band::of(line.seedValues);
        line.overSeeds = true;
    }
    const double p = o.published;
    const std::string what = line.overSeeds ? "seeds' spread" : "band";
    if (o.bound == Observation::Bound::None) {
        line.verdict = "nothing published to compare with";
    } else if (o.bound == Observation::Bound::AtLeast) {
        line.hit = line.band.p90 >= p;
        line.verdict = "the " + what + (line.hit ? " reaches it" : " stays below it");
    } else {
        line.hit = line.band.contains(p);
        line.verdict = (line.hit            ? "inside the "
                        : p > line.band.p90 ? "above the "
                                            : "below the ") +
                       what;
    }
    return line;
}

}  // namespace

std::string ScoreUpdate::text() const {
    std::string out = "rows: " + std::to_string(rowsDone) + "/" + std::to_string(rows) +
                      " \u00b7 runs: " + std::to_string(runsDone) + "/" + std::to_string(runs);
    if (runsDone < runs) out += " \u00b7 " + RunCosts::leftText(secondsLeft);
    return out;
}

std::vector<ScoreLine> Scorecard::run(const ScorecardConfig& config,
                                      const std::function<void(std::size_t, std::size_t)>& progress,
                                      const std::atomic<bool>* cancel,
                                      const std::function<void(const ScoreUpdate&)>& row) {
    const std::vector<RunKey> keys = allRuns();
    std::map<std::string, std::unique_ptr<topology::Topology>> topologies;
    for (const RunKey& k : keys)
        if (!topologies.count(k.topology))
            topologies[k.topology] =
                std::make_unique<topology::Topology>(topology::Topology::fromSpec(k.topology));
    // doexec.c's distinct binaries: the executable is each copy's own inode.
    Recipe perCopy = Recipe::builtinDefault();
    for (RecipeFile& f : perCopy.files)
        if (f.execOpen == ExecOpen::Binary) f.perCopy = true;

    const unsigned seeds = std::max(1u, config.seeds);
    const unsigned sets = seeds + config.bands;
    const std::vector<CostParams> draws =
        LatinHypercube::draw(config.params, config.bands, config.seed);
    auto configOf = [&](std::size_t set, const RunKey& k) {
        SimConfig c;
        c.topology = topologies.at(k.topology).get();
        std::string error;
        // Observation::all() names its policies; a misspelt one is a bug to report, not a
        // silent single.
        if (!mapping::Policy::parse(k.policy, c.policy, error))
            throw std::invalid_argument("the scorecard's policy \"" + k.policy + "\": " + error);
        c.copies = k.copies;
        c.durationMs = config.durationMs;
        c.seed = config.seed + set;
        c.params = set < seeds ? config.params : draws[set - seeds];
        c.unlinkBatch = k.unlinkBatch;
        c.recipe = k.perCopyExecutable ? &perCopy : nullptr;
        return c;
    };
    for (const RunKey& k : keys)
        Simulator::checkConfig(configOf(0, k));

    // Each key's index, and the rows that need it.
    const std::vector<Observation>& all = Observation::all();
    std::vector<std::vector<std::size_t>> rowKeys(all.size());
    std::vector<std::vector<std::size_t>> rowsOfKey(keys.size());
    for (std::size_t o = 0; o < all.size(); ++o)
        for (const RunKey& k : runsOf(all[o])) {
            const auto ki =
                static_cast<std::size_t>(std::find(keys.begin(), keys.end(), k) - keys.begin());
            rowKeys[o].push_back(ki);
            rowsOfKey[ki].push_back(o);
        }
    // Rows cheapest first (their runs' copies), so that the first appear soon; a key shared
    // with a row before is run with that row. The phase of a key is its row's rank.
    std::vector<std::size_t> byCost(all.size());
    for (std::size_t o = 0; o < all.size(); ++o)
        byCost[o] = o;
    const auto rowCost = [&](std::size_t o) {
        double c = 0;
        for (std::size_t k : rowKeys[o])
            c += keys[k].copies;
        return c;
    };
    std::stable_sort(byCost.begin(), byCost.end(),
                     [&](std::size_t a, std::size_t b) { return rowCost(a) < rowCost(b); });
    std::vector<unsigned> phase(keys.size(), 0);
    std::vector<bool> placed(keys.size(), false);
    for (std::size_t rank = 0; rank < byCost.size(); ++rank)
        for (std::size_t k : rowKeys[byCost[rank]])
            if (!placed[k]) {
                placed[k] = true;
                phase[k] = static_cast<unsigned>(rank);
            }
    // Jobs: every (set, key); job j is set j / keys, key j % keys.
    std::vector<RunCosts::Run> costs;
    for (std::size_t s = 0; s < sets; ++s)
        for (std::size_t k = 0; k < keys.size(); ++k)
            costs.push_back({phase[k], k, static_cast<double>(keys[k].copies)});
    const std::size_t jobs = costs.size();
    RunCosts order(std::move(costs));

    std::vector<std::vector<RunOut>> out(sets, std::vector<RunOut>(keys.size()));
    std::vector<unsigned> keyDone(keys.size(), 0);
    std::size_t runsDone = 0, rowsDone = 0;
    std::mutex lock;
    // The wall clock orders the runs and estimates the time left; no line depends on it.
    const auto t0 = std::chrono::steady_clock::now();
    const auto clock = [&] {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    };
    std::vector<bool> reported(all.size(), false);
    const auto report = [&](std::size_t o) {
        reported[o] = true;
        ++rowsDone;
        if (!row) return;
        ScoreUpdate u;
        u.index = o;
        u.line = lineOf(all[o], keys, out, seeds, config.bands);
        u.rowsDone = rowsDone;
        u.rows = all.size();
        u.runsDone = runsDone;
        u.runs = jobs;
        u.secondsLeft = order.secondsLeft(clock());
        row(u);
    };
    for (std::size_t o = 0; o < all.size(); ++o)
        if (rowKeys[o].empty()) report(o);
    const bool finished = ParallelRuns::run(
        jobs, config.threads,
        [&](std::size_t) {
            std::size_t j;
            {
                std::lock_guard<std::mutex> hold(lock);
                j = order.take(clock());
            }
            const std::size_t s = j / keys.size(), k = j % keys.size();
            const SimConfig c = configOf(s, keys[k]);
            const SimResult r = config.cache ? config.cache->run(c) : Simulator(c).run();
            std::lock_guard<std::mutex> hold(lock);
            order.finish(j, clock());
            out[s][k] = {r.execsPerSecond, r.spinShare()};
            ++runsDone;
            if (++keyDone[k] < sets) return;
            for (std::size_t o : rowsOfKey[k])
                if (!reported[o] && std::all_of(rowKeys[o].begin(), rowKeys[o].end(),
                                                [&](std::size_t x) { return keyDone[x] == sets; }))
                    report(o);
        },
        progress, cancel);
    if (!finished) return {};

    std::vector<ScoreLine> lines;
    for (const Observation& o : all)
        lines.push_back(lineOf(o, keys, out, seeds, config.bands));
    return lines;
}

std::string Scorecard::format(double value, const std::string& unit) {
    std::ostringstream s;
    s.setf(std::ios::fixed);
    if (unit == "%") {
        s.precision(1);
        s << value << '%';
    } else if (unit == "copies") {
        s.precision(0);
        s << value;
    } else {
        s.precision(value < 10 ? 2 : 1);
        s << value << 'x';
    }
    return s.str();
}

std::string Scorecard::toJson(const std::vector<ScoreLine>& lines, const ScorecardConfig& config) {
    QJsonArray arr;
    for (const ScoreLine& l : lines) {
        const Observation& o = *l.observation;
        QJsonArray grid, seedValues;
        for (unsigned c : o.grid)
            grid.append(static_cast<double>(c));
        for (double v : l.seedValues)
            seedValues.append(v);
        QJsonObject model;
        model["modelled"] = l.modelled;
        if (l.modelled) {
            model["point"] = l.point;
            model["seeds"] = seedValues;
            model["band"] = l.band.toJson();
            model["band_over"] = l.overSeeds ? "seeds" : "parameter sets";
            model["draws"] = static_cast<double>(l.draws);
        }
        arr.append(
            QJsonObject{{"id", QString::fromStdString(o.id)},
                        {"claim", QString::fromStdString(o.claim)},
                        {"machine", QString::fromStdString(o.machine)},
                        {"topology", QString::fromStdString(o.topology)},
                        {"assumptions", QString::fromStdString(o.assumptions)},
                        {"workload", QJsonObject{{"policy", QString::fromStdString(o.policy)},
                                                 {"copies", static_cast<double>(o.copies)},
                                                 {"grid", grid},
                                                 {"per_copy_executable", o.perCopyExecutable},
                                                 {"walkers_per_s", 0.0}}},
                        {"published", QJsonObject{{"value", o.published},
                                                  {"bound", boundName(o.bound)},
                                                  {"text", QString::fromStdString(o.publishedText)},
                                                  {"unit", QString::fromStdString(o.unit)},
                                                  {"source", QString::fromStdString(o.source)}}},
                        {"model", model},
                        {"inside", l.hit},
                        {"verdict", QString::fromStdString(l.verdict)}});
    }
    QJsonObject root{{"format", "immap-scorecard"},
                     {"version", 1},
                     {"bands", static_cast<double>(config.bands)},
                     {"seeds", static_cast<double>(config.seeds)},
                     {"seed", QString::number(config.seed)},
                     {"duration_ms", config.durationMs},
                     {"hits", static_cast<double>(tally(lines).hits)},
                     {"observations", arr}};
    return QJsonDocument(root).toJson(QJsonDocument::Indented).toStdString();
}

ScoreTally Scorecard::tally(const std::vector<ScoreLine>& lines) {
    ScoreTally t;
    for (const ScoreLine& l : lines) {
        t.hits += l.hit ? 1 : 0;
        t.overSeeds = t.overSeeds || (l.modelled && l.overSeeds);
        if (l.observation && l.observation->bound == Observation::Bound::None)
            ++t.predictions;
        else
            (l.modelled ? t.modelled : t.notModelled) += 1;
    }
    return t;
}

std::string ScoreTally::text() const {
    return std::to_string(hits) + " of " + std::to_string(modelled) +
           (overSeeds ? " modelled observations inside the seeds' 10-90% spread at the defaults "
                        "(no parameter sets drawn: the seeds' noise only, not the parameters' "
                        "uncertainty; "
                      : " modelled observations inside the model's 10-90% band (") +
           std::to_string(notModelled) + " not modelled" +
           (predictions
                ? "; " + std::to_string(predictions) +
                      (predictions == 1 ? " prediction" : " predictions") + ", nothing published"
                : std::string()) +
           ")";
}

std::string Scorecard::bandTitle(const std::vector<ScoreLine>& lines) {
    return tally(lines).overSeeds ? "seeds' 10-90% spread" : "10-90% band";
}

std::string Scorecard::toMarkdown(const std::vector<ScoreLine>& lines) {
    std::ostringstream s;
    s << "| observation | machine | published | model (defaults) | " << bandTitle(lines)
      << " | published figure |\n"
         "|---|---|---|---|---|---|\n";
    for (const ScoreLine& l : lines)
        s << markdownRow(l) << '\n';
    return s.str();
}

std::string Scorecard::markdownRow(const ScoreLine& l) {
    const Observation& o = *l.observation;
    std::ostringstream s;
    s << "| " << o.claim << " | " << o.machine << " | " << o.publishedText << " | ";
    if (l.modelled)
        s << format(l.point, o.unit) << " | " << format(l.band.p10, o.unit) << " - "
          << format(l.band.p90, o.unit) << " (median " << format(l.band.median, o.unit) << ") | ";
    else
        s << "- | - | ";
    s << (l.hit                                 ? "**hit**: "
          : o.bound == Observation::Bound::None ? "prediction: "
                                                : "miss: ")
      << l.verdict << " |";
    return s.str();
}

}  // namespace immap::sim
