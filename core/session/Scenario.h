#pragma once
// A workshop scenario (samples/workshops/*.json, format in docs/gui.md): what to load (topology,
// source, file), what to sweep (policies, copies, recipe, walkers and whether the sweep shows
// each policy without them too, the cost parameters that
// differ from the defaults), which view to open, and bookmarks with captions that walk an
// audience through it. Read with errors naming file, line and reason; saved atomically.

#include <cstdint>
#include <exception>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "io/InputError.h"
#include "session/ScenarioResults.h"

namespace immap::session {

// Bad scenario: "FILE:LINE: reason" (line 0 when it concerns the whole file).
// A bad scenario, located as every reader's errors are.
class ScenarioError : public io::InputError {
public:
    using io::InputError::InputError;
};

// A sweep point a slide's caption quotes: a policy at a copy count, on its walker-free curve or
// (walkers) on its curve with the sweep's whole-file walkers, where the figure also gives the
// walks' mean latency.
struct ScenarioPoint {
    std::string policy;
    unsigned copies = 0;
    bool walkers = false;
    bool operator==(const ScenarioPoint&) const = default;
};

struct ScenarioBookmark {
    std::string caption;
    std::string view;                    // the tab to show ("" = stay)
    std::optional<std::uint64_t> event;  // a trace event index, when a trace is open
    std::optional<double> timeMs;        // or a simulated time
    // The docks the slide shows (Scenario::dockNames()); none when absent, in workshop mode.
    std::optional<std::vector<std::string>> docks;
    // Sweep points the slide's caption quotes ({"policy": "single", "copies": 32}, and
    // "walkers": true for the curve with walkers): the plot writes their figures beside them,
    // so that what the caption says is on screen.
    std::vector<ScenarioPoint> points;
    // The trees' magnification over fit-to-window, about each tree's root (1 to 64): a slide
    // on the top levels of a big tree. Absent: fitted.
    std::optional<double> zoom;
    bool operator==(const ScenarioBookmark&) const = default;
};

struct Scenario {
    static constexpr int kVersion = 1;

    std::string title;
    std::string topology;  // a topology spec; "xml:FILE" relative to the scenario file
    std::string source;    // a source spec; maps:/snapshot: paths relative to the scenario file
    std::string file;      // the mapped file to show ("" = the default choice)
    std::vector<std::string> policies;  // names as Policy::parse takes them
    std::vector<unsigned> copies;
    double durationMs = 0;  // simulated time per sweep run (0 = the app's default)
    // Whole-file walkers per second; none: SimSettings::kDefaultWalkersPerSecond. A rate of 0
    // is written, since it is not the default.
    std::optional<double> walkersPerSecond;
    // The sweep shows each policy without walkers beside the walkersPerSecond curve
    // (SimSettings::walkersSideBySide); written only when false.
    bool walkersSideBySide = true;
    std::uint64_t seed = 1;  // the simulator's random seed
    // Parameter sets per sweep point drawn over the plausible ranges (SimSettings::bands); 0,
    // the value when absent: no bands.
    unsigned bands = 0;
    std::string recipePath;  // relative to the scenario file, or
    std::string recipeJson;  // an embedded recipe (compact JSON); both empty = built-in
    std::map<std::string, double> params;  // by --list-params name; only those not default
    std::string view;
    std::vector<ScenarioBookmark> bookmarks;
    // The runs its slides need, by run key (ScenarioResults; `immap sweep --scenario FILE
    // --bake` writes them): opening it serves them while their keys still match.
    std::map<std::string, ScenarioResults::Run> results;

    bool operator==(const Scenario&) const = default;

    // Throws ScenarioError naming `fileName`, the line and the reason: invalid JSON, an unknown
    // key, a wrong type, an unknown policy or parameter, a value out of range, a wrong version,
    // a recipe that does not load. `baseDir` resolves relative paths for the recipe check.
    static Scenario fromJson(const std::string& json, const std::string& fileName,
                             const std::string& baseDir = ".");
    static Scenario load(const std::string& path);
    // The docks a bookmark may name: "files", "vmas", "steps", "parameters".
    static const std::vector<std::string>& dockNames();
    std::string toJson() const;
    // Atomic (io::AtomicFile): a failed or interrupted save leaves the old file as it was.
    void save(const std::string& path) const;

    // The recipe's JSON and the name its messages use: the file (resolved against `baseDir`,
    // which must be a small regular file; std::runtime_error otherwise) or the embedded text.
    // Empty text: the built-in recipe.
    std::pair<std::string, std::string> recipeText(const std::string& baseDir,
                                                   const std::string& scenarioFile) const;

    // What it loads, with relative paths resolved against `baseDir` (the scenario's directory):
    // its source, else the default one; its topology, else none when it names a source (whose
    // own topology is used), else the default one.
    std::string sourceSpec(const std::string& baseDir) const;
    std::string topologySpec(const std::string& baseDir) const;

    // Specs with relative file paths resolved against `baseDir` (the scenario's directory).
    static std::string resolveSpec(const std::string& spec, const std::string& baseDir);
    static std::string resolvePath(const std::string& path, const std::string& baseDir);

    // The views a scenario or bookmark may name.
    static const std::vector<std::string>& viewNames();
};

}  // namespace immap::session
