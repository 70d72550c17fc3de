#include "sim/RunKey.h"

#include "sim/ModelVersion.h"
#include "topology/Topology.h"

#include <QCryptographicHash>
#include <charconv>

namespace immap::sim {

namespace {

// Every double in its shortest form that reads back to the same bits.
std::string exact(double v) {
    char buf[64];
    const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
    return ec == std::errc() ? std::string(buf, end) : std::string("?");
}

class Writer {
public:
    template <typename T>
    void add(const char* name, const T& value) {
        text_ += name;
        text_ += '=';
        if constexpr (std::is_same_v<T, std::string>)
            text_ += escaped(value);
        else if constexpr (std::is_same_v<T, bool>)
            text_ += value ? "1" : "0";
        else if constexpr (std::is_floating_point_v<T>)
            text_ += exact(value);
        else if constexpr (std::is_enum_v<T>)
            text_ += std::to_string(static_cast<long long>(value));
        else
            text_ += std::to_string(value);
        text_ += '\n';
    }
    std::string take() { return std::move(text_); }

private:
    // Strings on one line, so that no value can forge the next "name=".
    static std::string escaped(const std::string& s) {
        std::string out;
        for (char c : s) {
            if (c == '\\')
                out += "\\\\";
            else if (c == '\n')
                out += "\\n";
            else
                out += c;
        }
        return out;
    }
    std::string text_;
};

}  // namespace

static_assert(sizeof(CostParams) % sizeof(double) == 0,
              "CostParams holds doubles only: RunKey names them through CostParams::table()");

std::string RunKey::canonicalText(const SimConfig& config, int modelVersion) {
    // The structured bindings list every field: one added to these structs is a compile error
    // here until it is keyed (or said to be left out, and why).
    const auto& [topology, policy, copies, durationMs, seed, recipe, walkersPerSecond, params,
                 unlinkBatch, extraSharedLines, observer] = config;
    (void)observer;  // sees events, decides nothing (RunCache does not serve observed runs)
    Writer w;
    w.add("format", std::string("immap-run-key 1"));
    w.add("model_version", modelVersion);
    // The machine by its content only: its spec names where it was read from (an xml: path
    // differs between two clones of the repository), and RunCache::run stamps the asking
    // config's spec on what it serves.
    w.add("topology.machine", topology ? topology->canonicalText() : std::string());
    const auto& [kind, cpusPerShard, structure] = policy;
    w.add("policy.kind", kind);
    w.add("policy.cpus_per_shard", cpusPerShard);
    w.add("policy.structure", structure);
    w.add("copies", copies);
    w.add("duration_ms", durationMs);
    w.add("seed", seed);
    w.add("walkers_per_s", walkersPerSecond);
    w.add("unlink_batch", unlinkBatch);
    for (const ExtraSharedLine& e : extraSharedLines) {
        const auto& [lineKind, step, touches] = e;
        const auto& [kname, scope, file, lines, alike, privateTo, loop] = lineKind;
        w.add("extra_line.name", kname);
        w.add("extra_line.scope", scope);
        w.add("extra_line.file", file);
        w.add("extra_line.lines", lines);
        w.add("extra_line.alike", alike);
        w.add("extra_line.private", privateTo);
        w.add("extra_line.loop", loop);
        w.add("extra_line.step", step);
        w.add("extra_line.touches", touches);
    }
    for (const CostParams::Info& i : CostParams::table())
        w.add((std::string("param.") + i.name).c_str(), params.*(i.field));

    const Recipe& r = recipe ? *recipe : Recipe::builtinDefault();
    // sourceFile and sha256 say where the text came from; the content below is what runs.
    const auto& [name, source, sourceFile, files, steps, walkerFile, sha256] = r;
    (void)sourceFile;
    (void)sha256;
    w.add("recipe.name", name);
    w.add("recipe.source", source);
    w.add("recipe.walker_file", walkerFile);
    for (const RecipeFile& f : files) {
        const auto& [fname, role, background, perCopy, execOpen, mappedPages, rmapExclude] = f;
        w.add("file.name", fname);
        w.add("file.role", role);
        w.add("file.background", background);
        w.add("file.per_copy", perCopy);
        w.add("file.exec_open", execOpen);
        w.add("file.mapped_pages", mappedPages);
        w.add("file.rmap_exclude", rmapExclude);
    }
    for (const RecipeStep& s : steps) {
        const auto& [op, file, at, pages, pgoff, prot, anon, weight, note, line] = s;
        (void)line;  // where the step was written, for messages
        w.add("step.op", op);
        w.add("step.file", file);
        w.add("step.at", at);
        w.add("step.pages", pages);
        w.add("step.pgoff", pgoff);
        w.add("step.prot", static_cast<unsigned>(prot));
        w.add("step.anon", anon);
        w.add("step.weight", weight);
        w.add("step.note", note);
    }
    return w.take();
}

std::string RunKey::of(const SimConfig& config, int modelVersion) {
    return QCryptographicHash::hash(QByteArray::fromStdString(canonicalText(config, modelVersion)),
                                    QCryptographicHash::Sha256)
        .toHex()
        .toStdString();
}

bool RunKey::wellFormed(const std::string& text) {
    if (text.size() != 64) return false;
    for (char c : text)
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
    return true;
}

}  // namespace immap::sim
