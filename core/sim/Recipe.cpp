#include "sim/Recipe.h"

#include "io/TextPosition.h"
#include "limits/InputLimits.h"

#include <QByteArray>
#include <QCryptographicHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonValue>
#include <cmath>
#include <set>

#include "io/InputFile.h"
#include "io/JsonKeys.h"

namespace immap::sim {

const char* stepOpName(StepOp op) {
    switch (op) {
        case StepOp::Work:
            return "work";
        case StepOp::ExitMmap:
            return "exit_mmap";
        case StepOp::Mmap:
            return "mmap";
        case StepOp::Munmap:
            return "munmap";
        case StepOp::Mprotect:
            return "mprotect";
    }
    return "?";
}

double Recipe::totalWeight() const {
    double sum = 0;
    for (const RecipeStep& s : steps)
        if (s.op == StepOp::Work) sum += s.weight;
    return sum;
}

int Recipe::fileIndex(std::string_view name) const {
    for (std::size_t i = 0; i < files.size(); ++i)
        if (files[i].name == name) return static_cast<int>(i);
    return -1;
}

namespace {

// QJsonDocument keeps no positions, so messages about one step find its line here: the line
// where each element of the top-level array `key` starts. A small scanner that knows strings
// and nesting, enough for a document QJsonDocument has already accepted.
std::vector<int> elementLines(const std::string& text, const std::string& key) {
    std::vector<int> lines;
    int depth = 0;
    int line = 1;
    bool inTarget = false;
    bool expectElement = false;
    std::string lastString;
    bool lastWasKey = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '\n') {
            ++line;
            continue;
        }
        if (c == ' ' || c == '\t' || c == '\r') continue;
        if (inTarget && expectElement && depth == 2) {
            lines.push_back(line);
            expectElement = false;
        }
        if (c == '"') {
            std::string s;
            for (++i; i < text.size() && text[i] != '"'; ++i) {
                if (text[i] == '\\')
                    ++i;
                else
                    s += text[i];
            }
            lastString = s;
            lastWasKey = true;
            continue;
        }
        if (c == ':') continue;
        if (c == '[' || c == '{') {
            if (c == '[' && depth == 1 && lastWasKey && lastString == key) {
                inTarget = true;
                expectElement = true;
            }
            ++depth;
        } else if (c == ']' || c == '}') {
            --depth;
            if (depth == 1) inTarget = false;
        } else if (c == ',' && inTarget && depth == 2) {
            expectElement = true;
        }
        lastWasKey = false;
    }
    return lines;
}

struct Context {
    const std::string& file;
    int line;
    [[noreturn]] void fail(const std::string& reason) const {
        throw RecipeError(file, line, reason);
    }
};

std::uint64_t pagesField(const QJsonObject& o, const char* name, const Context& ctx, bool required,
                         std::uint64_t fallback = 0) {
    const QJsonValue v = o.value(QLatin1String(name));
    if (v.isUndefined()) {
        if (required) ctx.fail(std::string("missing \"") + name + "\"");
        return fallback;
    }
    if (v.isString()) {  // "0x1e2" reads better next to a trace's hex
        bool ok = false;
        const qulonglong n = v.toString().toULongLong(&ok, 0);
        if (!ok)
            ctx.fail(std::string("\"") + name +
                     "\" is not a number: " + v.toString().toStdString());
        return n;
    }
    if (!v.isDouble()) ctx.fail(std::string("\"") + name + "\" must be a number of pages");
    const double d = v.toDouble();
    if (!(d >= 0) || d != std::floor(d) || d > 9007199254740992.0)
        ctx.fail(std::string("\"") + name + "\" must be a whole number of pages from 0 to 2^53");
    return static_cast<std::uint64_t>(d);
}

std::uint8_t protField(const QJsonObject& o, const Context& ctx) {
    const QJsonValue v = o.value(QLatin1String("prot"));
    if (!v.isString()) ctx.fail("missing \"prot\" (a string of r, w, x, e.g. \"rx\")");
    std::uint8_t prot = 0;
    for (QChar c : v.toString()) {
        if (c == 'r')
            prot |= kProtRead;
        else if (c == 'w')
            prot |= kProtWrite;
        else if (c == 'x')
            prot |= kProtExec;
        else if (c != '-')
            ctx.fail("\"prot\" may only hold r, w, x and -: " + v.toString().toStdString());
    }
    return prot;
}

}  // namespace

Recipe Recipe::fromJson(const std::string& json, const std::string& fileName) {
    QJsonParseError err{};
    const QJsonDocument doc =
        QJsonDocument::fromJson(QByteArray(json.data(), static_cast<qsizetype>(json.size())), &err);
    if (err.error != QJsonParseError::NoError)
        throw RecipeError(fileName,
                          io::TextPosition::lineOf(json, static_cast<std::size_t>(err.offset)),
                          "not valid JSON: " + err.errorString().toStdString());
    io::JsonKeys::refuse<RecipeError>(json, fileName);
    if (!doc.isObject()) throw RecipeError(fileName, 1, "a recipe is a JSON object");
    const QJsonObject root = doc.object();
    const Context top{fileName, 1};
    if (root.value("format").toString() != "immap-recipe")
        top.fail("not an immap recipe (\"format\" must be \"immap-recipe\")");
    if (root.value("version").toInt(-1) != 1)
        top.fail("unsupported recipe version " +
                 QString::number(root.value("version").toDouble()).toStdString() +
                 " (this build reads version 1)");

    Recipe r;
    r.sourceFile = fileName;
    r.name = root.value("name").toString().toStdString();
    r.source = root.value("source").toString().toStdString();

    const std::vector<int> fileLines = elementLines(json, "files");
    const QJsonArray files = root.value("files").toArray();
    if (files.isEmpty()) top.fail("\"files\" must list at least one file");
    std::set<std::string> names;
    for (qsizetype i = 0; i < files.size(); ++i) {
        const Context ctx{fileName,
                          i < static_cast<qsizetype>(fileLines.size()) ? fileLines[i] : 1};
        const QJsonObject f = files[i].toObject();
        RecipeFile rf;
        rf.name = f.value("name").toString().toStdString();
        if (rf.name.empty()) ctx.fail("a file needs a \"name\"");
        if (!names.insert(rf.name).second) ctx.fail("file \"" + rf.name + "\" is listed twice");
        rf.role = f.value("role").toString().toStdString();
        rf.background = f.value("background").toBool(false);
        const QJsonValue perCopy = f.value("per_copy");
        if (!perCopy.isUndefined() && !perCopy.isBool())
            ctx.fail("file \"" + rf.name + "\": \"per_copy\" must be true or false");
        rf.perCopy = perCopy.toBool(false);
        if (rf.perCopy && rf.background)
            ctx.fail("file \"" + rf.name +
                     "\": \"per_copy\" and \"background\" exclude each other (a file each copy "
                     "maps for itself is mapped by no other process)");
        const QJsonValue execOpen = f.value("exec_open");
        if (!execOpen.isUndefined()) {
            const QString v = execOpen.toString();
            if (v == "binary")
                rf.execOpen = ExecOpen::Binary;
            else if (v == "interpreter")
                rf.execOpen = ExecOpen::Interpreter;
            else
                ctx.fail("file \"" + rf.name +
                         "\": \"exec_open\" must be \"binary\" or \"interpreter\"");
        }
        rf.mappedPages = pagesField(f, "mapped_pages", ctx, false, 0);
        // Pages of the file one exec maps, so no more than its region of the address space
        // (2^32 pages, as every step's range); each costs atomics per exec (SharedLines).
        if (rf.mappedPages > (std::uint64_t{1} << 32))
            ctx.fail("file \"" + rf.name +
                     "\": \"mapped_pages\" must be from 0 to 2^32 pages (no more than the "
                     "file's region an exec can map)");
        const QJsonValue exclude = f.value("rmap_exclude");
        if (!exclude.isUndefined() && !exclude.isBool())
            ctx.fail("file \"" + rf.name + "\": \"rmap_exclude\" must be true or false");
        rf.rmapExclude = exclude.toBool(false);
        r.files.push_back(std::move(rf));
    }

    const std::vector<int> stepLines = elementLines(json, "steps");
    const QJsonArray steps = root.value("steps").toArray();
    if (steps.isEmpty()) top.fail("\"steps\" must list at least one step");
    for (qsizetype i = 0; i < steps.size(); ++i) {
        const Context ctx{fileName,
                          i < static_cast<qsizetype>(stepLines.size()) ? stepLines[i] : 1};
        if (!steps[i].isObject()) ctx.fail("a step is a JSON object");
        const QJsonObject s = steps[i].toObject();
        RecipeStep step;
        step.line = ctx.line;
        step.note = s.value("note").toString().toStdString();
        const std::string op = s.value("op").toString().toStdString();
        if (op == "work") {
            step.op = StepOp::Work;
            const QJsonValue w = s.value("weight");
            if (!w.isDouble() || !(w.toDouble() >= 0) || !std::isfinite(w.toDouble()))
                ctx.fail("a work step needs a \"weight\" >= 0 (its share of the unlocked time)");
            step.weight = w.toDouble();
            // Weights are shares, divided by their sum: a tiny one alone gives an infinite
            // scale, huge ones an infinite sum. Either way the step's time overflows the clock.
            std::string range;
            if (step.weight != 0 &&
                !limits::InputLimits::check("recipe_weight", step.weight, range, "\"weight\""))
                ctx.fail(range + ", or 0");
        } else if (op == "exit_mmap") {
            step.op = StepOp::ExitMmap;
        } else if (op == "mmap" || op == "munmap" || op == "mprotect") {
            step.op = op == "mmap"     ? StepOp::Mmap
                      : op == "munmap" ? StepOp::Munmap
                                       : StepOp::Mprotect;
            const std::string file = s.value("file").toString().toStdString();
            step.file = r.fileIndex(file);
            if (step.file < 0)
                ctx.fail(file.empty() ? "\"" + op + "\" needs a \"file\""
                                      : "unknown file \"" + file + "\" (not in \"files\")");
            step.at = pagesField(s, "at", ctx, true);
            step.pages = pagesField(s, "pages", ctx, true);
            if (step.pages == 0) ctx.fail("\"pages\" must be at least 1");
            if (step.at + step.pages > (std::uint64_t{1} << 32))
                ctx.fail("the range ends past 2^32 pages of the file's address region");
            step.anon = s.value("anon").toBool(false);
            if (step.op == StepOp::Mmap && !step.anon) {
                step.pgoff = pagesField(s, "pgoff", ctx, true);
                step.prot = protField(s, ctx);
            } else if (step.op == StepOp::Mprotect) {
                step.prot = protField(s, ctx);
            }
        } else {
            ctx.fail(op.empty()
                         ? "a step needs an \"op\""
                         : "unknown op \"" + op + "\" (work, exit_mmap, mmap, munmap, mprotect)");
        }
        r.steps.push_back(std::move(step));
    }
    if (!(r.totalWeight() > 0)) top.fail("no work step has a positive weight");

    const QString walker = root.value("walker_file").toString();
    r.walkerFile = walker.isEmpty() ? 0 : r.fileIndex(walker.toStdString());
    if (r.walkerFile < 0)
        top.fail("\"walker_file\" names no file in \"files\": " + walker.toStdString());
    r.sha256 =
        QCryptographicHash::hash(QByteArrayView(json.data(), static_cast<qsizetype>(json.size())),
                                 QCryptographicHash::Sha256)
            .toHex()
            .toStdString();
    return r;
}

Recipe Recipe::fromFile(const std::string& path) {
    // The default recipe is 20 KiB; 16 MiB is far beyond any real exec's steps.
    constexpr std::uint64_t kMaxRecipeBytes = std::uint64_t{16} << 20;
    return fromJson(io::InputFile::read<RecipeError>(path, kMaxRecipeBytes, "a recipe"), path);
}

}  // namespace immap::sim
