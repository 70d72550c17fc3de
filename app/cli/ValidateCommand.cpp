#include "ValidateCommand.h"

#include <chrono>
#include <iostream>

#include "CacheOption.h"
#include "CliCommand.h"
#include "CliOutput.h"
#include "InputErrors.h"
#include "sim/Scorecard.h"

namespace immap::cli {

int validateCommand(const QStringList& args) {
    const sim::ScorecardConfig defaults;
    CliCommand p("validate",
                 "Run the model against every published measurement (docs/validation.md): each "
                 "on its machine's shape, at the default parameters over seeds and over "
                 "parameter sets drawn across the plausible ranges; a published figure inside "
                 "the model's 10-90% band is a hit. Every core by default. Each row is "
                 "printed on stderr as soon as its runs finish, with how many are left and "
                 "the time left; the table on stdout comes at the end, in its usual order.");
    p.addOption({"bands",
                 "Parameter sets drawn per observation (Latin hypercube). 0 draws none: the "
                 "band is then the seeds' 10-90% spread at the default parameters (run-to-run "
                 "noise only), labelled so, and a published figure is judged against that "
                 "spread by the same rules.",
                 "N", QString::number(defaults.bands)});
    p.addOption({"seeds", "Runs at the default parameters (seed, seed + 1, ...).", "N",
                 QString::number(defaults.seeds)});
    p.addOption({"seed", "First seed; the draws are seeded with it too.", "S",
                 QString::number(defaults.seed)});
    p.addOption({"threads", "Worker threads (default: every core).", "T",
                 QString::number(defaults.threads)});
    p.addOption({"param",
                 "Hold a cost-model parameter at VALUE (it is then not drawn); "
                 "repeatable.",
                 "NAME=VALUE"});
    p.addOption({"json", "Print the scorecard as JSON (every field, hits and misses)."});
    p.addOption({"output", "Also write the JSON to FILE (atomically).", "FILE"});
    CacheOption::add(p);
    if (auto rc = p.parse(args)) return *rc;
    sim::ScorecardConfig c;
    std::uint64_t v = 0;
    if (!CliCommand::parseInteger(p.value("bands"), v) || v > 1000)
        return p.usageError("--bands must be from 0 to 1000");
    c.bands = static_cast<unsigned>(v);
    if (!CliCommand::parseInteger(p.value("seeds"), v) || v < 1 || v > 100)
        return p.usageError("--seeds must be from 1 to 100");
    c.seeds = static_cast<unsigned>(v);
    if (!CliCommand::parseInteger(p.value("seed"), v))
        return p.usageError("--seed must be a number");
    c.seed = v;
    if (!CliCommand::parseInteger(p.value("threads"), v) || v < 1 || v > 256)
        return p.usageError("--threads must be from 1 to 256");
    c.threads = static_cast<unsigned>(v);
    for (const QString& a : p.values("param")) {
        std::string error;
        if (!c.params.setFromText(a.toStdString(), error)) return p.usageError(error);
    }
    if (p.isSet("output"))
        if (auto rc = refuseOutput(p.value("output"), {})) return *rc;
    return reportingBadInput([&]() -> int {
        const std::unique_ptr<sim::RunCache> cache = CacheOption::open(p);
        c.cache = cache.get();
        const auto start = std::chrono::steady_clock::now();
        // Each row on stderr as soon as its runs finish (rows finish out of order), with the
        // progress; stdout keeps the complete table in its usual order.
        const std::vector<sim::ScoreLine> lines =
            sim::Scorecard::run(c, {}, nullptr, [](const sim::ScoreUpdate& u) {
                std::cerr << "immap validate: " << u.text() << ": "
                          << sim::Scorecard::markdownRow(u.line) << std::endl;
            });
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        const std::string json = sim::Scorecard::toJson(lines, c);
        if (p.isSet("output")) {
            std::string error;
            if (!CliOutput::writeAtomically(p.value("output"), json, error)) {
                std::cerr << "immap validate: cannot write " << error << '\n';
                return 1;
            }
        }
        if (p.isSet("json")) {
            std::cout << json;
            return 0;
        }
        std::cout << sim::Scorecard::toMarkdown(lines) << '\n'
                  << sim::Scorecard::tally(lines).text() << "; " << c.bands
                  << " parameter sets per observation, " << c.seeds << " seeds at the defaults, "
                  << sim::Scorecard::runsPerSet() * (c.bands + c.seeds) << " runs in "
                  << CliOutput::fixed(seconds, 1) << " s" << CacheOption::servedText(cache.get())
                  << ".\n"
                  << "Machines, assumptions and sources: immap validate --json, and "
                     "docs/validation.md.\n";
        return 0;
    });
}

}  // namespace immap::cli
