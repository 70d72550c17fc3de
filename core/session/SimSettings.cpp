#include "session/SimSettings.h"

#include <QFileInfo>
#include <optional>

#include "session/Scenario.h"
#include "topology/Topology.h"

namespace immap::session {

std::vector<mapping::Policy> SimSettings::defaultPolicies() {
    using K = mapping::Policy::Kind;
    return {{K::Single, 0}, {K::SplitTrees, 0}, {K::SplitLocks, 0}};
}

sim::SimConfig SimSettings::config(const topology::Topology& topology,
                                   const mapping::Policy& policy, unsigned n) const {
    sim::SimConfig c;
    c.topology = &topology;
    c.policy = policy;
    c.copies = n;
    c.durationMs = durationMs;
    c.seed = seed;
    c.recipe = recipe.get();
    c.walkersPerSecond = walkersPerSecond;
    c.params = params;
    return c;
}

std::vector<unsigned> SimSettings::copiesOn(const topology::Topology& topology) const {
    if (!copies.empty()) return copies;
    return sim::Sweep::defaultCopies(static_cast<unsigned>(topology.pus().size()));
}

std::vector<double> SimSettings::walkerRates() const {
    if (walkersSideBySide && walkersPerSecond > 0) return {0, walkersPerSecond};
    return {walkersPerSecond};
}

sim::SweepConfig SimSettings::sweep(const topology::Topology& topology, unsigned threads) const {
    sim::SweepConfig s;
    s.run = config(topology, {}, 1);
    s.walkerRates = walkerRates();
    s.policies = policies;
    s.copies = copiesOn(topology);
    s.seeds = seeds;
    s.bands = bands;
    s.threads = threads;
    return s;
}

SimSettings SimSettings::fromScenario(const Scenario& s, const std::string& scenarioPath) {
    SimSettings out;
    const std::string dir =
        QFileInfo(QString::fromStdString(scenarioPath)).absolutePath().toStdString();
    if (!s.policies.empty()) {
        out.policies.clear();
        for (const std::string& name : s.policies) {
            mapping::Policy p;
            std::string why;
            if (!mapping::Policy::parse(name, p, why))  // Scenario::fromJson checked them
                throw ScenarioError(scenarioPath, 0, "unknown policy \"" + name + "\": " + why);
            out.policies.push_back(p);
        }
    }
    out.copies = s.copies;
    if (s.durationMs > 0) out.durationMs = s.durationMs;
    out.seed = s.seed;
    out.bands = s.bands;
    // A scenario without walkersPerSecond runs at the default rate, as one without a parameter
    // runs at its default.
    out.walkersPerSecond = s.walkersPerSecond.value_or(kDefaultWalkersPerSecond);
    out.walkersSideBySide = s.walkersSideBySide;
    for (const auto& [name, value] : s.params) {
        std::string why;
        if (!out.params.set(name, value, why)) throw ScenarioError(scenarioPath, 0, why);
    }
    if (!s.recipePath.empty() || !s.recipeJson.empty()) {
        const auto [text, name] = s.recipeText(dir, scenarioPath);
        out.recipe = std::make_shared<const sim::Recipe>(sim::Recipe::fromJson(text, name));
        // Absolute, so that it stays valid wherever the scenario is saved next.
        if (!s.recipePath.empty()) out.recipePath = Scenario::resolvePath(s.recipePath, dir);
        out.recipeJson = s.recipeJson;
    }
    return out;
}

void SimSettings::toScenario(Scenario& s) const {
    s.policies.clear();
    for (const mapping::Policy& p : policies)
        s.policies.push_back(p.name());
    s.copies = copies;
    s.durationMs = durationMs;
    s.seed = seed;
    s.bands = bands;
    // Only a rate off the default is written (as with the parameters), so that a scenario saved
    // at the default follows it when the default is revised.
    s.walkersPerSecond = walkersPerSecond != kDefaultWalkersPerSecond
                             ? std::optional<double>(walkersPerSecond)
                             : std::nullopt;
    s.walkersSideBySide = walkersSideBySide;
    s.recipePath = recipePath;
    s.recipeJson = recipePath.empty() ? recipeJson : std::string();
    s.params.clear();
    const sim::CostParams defaults;
    for (const sim::CostParams::Info& info : sim::CostParams::table())
        if (params.*(info.field) != defaults.*(info.field))
            s.params[info.name] = params.*(info.field);
}

void SimSettings::useRecipeFile(const std::string& path) {
    recipe = std::make_shared<const sim::Recipe>(sim::Recipe::fromFile(path));
    recipePath = QFileInfo(QString::fromStdString(path)).absoluteFilePath().toStdString();
    recipeJson.clear();
}

std::string SimSettings::policiesText() const {
    std::string out;
    for (const mapping::Policy& p : policies) {
        if (!out.empty()) out += ',';
        out += p.name();
    }
    return out;
}

std::string SimSettings::copiesText() const {
    std::string out;
    for (unsigned c : copies) {
        if (!out.empty()) out += ',';
        out += std::to_string(c);
    }
    return out;
}

}  // namespace immap::session
