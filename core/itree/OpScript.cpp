#include "OpScript.h"

#include <array>
#include <charconv>

namespace immap::itree {

namespace {

bool isSpace(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

std::string quoted(std::string_view s) {
    constexpr std::size_t kMax = 40;  // a 10 MB token must not become a 10 MB message
    std::string out = "'";
    out += s.substr(0, kMax);
    if (s.size() > kMax) out += "...";
    return out + "'";
}

}  // namespace

bool OpScript::parseNumber(std::string_view token, std::uint64_t& value, std::string& error) {
    int base = 10;
    std::string_view digits = token;
    if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) {
        base = 16;
        digits.remove_prefix(2);
    }
    const char* end = digits.data() + digits.size();
    auto [ptr, ec] = std::from_chars(digits.data(), end, value, base);
    if (ec == std::errc::result_out_of_range) {
        error = "number " + quoted(token) + " does not fit in 64 bits";
        return false;
    }
    if (ec != std::errc{} || ptr != end) {
        error = "bad number " + quoted(token);
        return false;
    }
    return true;
}

bool OpScript::parseLine(std::string_view line, ScriptOp& op, std::string& error) {
    if (auto hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
    std::array<std::string_view, 5> tok;
    std::size_t n = 0;
    for (std::size_t i = 0; i < line.size();) {
        while (i < line.size() && isSpace(line[i]))
            ++i;
        if (i == line.size()) break;
        std::size_t j = i;
        while (j < line.size() && !isSpace(line[j]))
            ++j;
        if (n == tok.size()) {
            error = "too many fields";
            return false;
        }
        tok[n++] = line.substr(i, j - i);
        i = j;
    }
    op = ScriptOp{};
    if (n == 0) return true;

    struct Shape {
        std::string_view name;
        ScriptOp::Kind kind;
        std::size_t args;
        const char* usage;
    };
    static constexpr std::array<Shape, 4> kShapes{{
        {"i", ScriptOp::Kind::Insert, 3, "'i ID START LAST'"},
        {"r", ScriptOp::Kind::Remove, 1, "'r ID'"},
        {"q", ScriptOp::Kind::Query, 2, "'q START LAST'"},
        {"d", ScriptOp::Kind::Dump, 0, "'d'"},
    }};
    const Shape* shape = nullptr;
    for (const Shape& s : kShapes)
        if (s.name == tok[0]) shape = &s;
    if (!shape) {
        error = "unknown op " + quoted(tok[0]) + " (expected i, r, q or d)";
        return false;
    }
    if (n - 1 != shape->args) {
        error = "expected " + std::string(shape->usage) + ", got " + std::to_string(n - 1) +
                " argument" + (n - 1 == 1 ? "" : "s");
        return false;
    }
    std::array<std::uint64_t, 3> v{};
    for (std::size_t k = 0; k < shape->args; ++k)
        if (!parseNumber(tok[k + 1], v[k], error)) return false;

    op.kind = shape->kind;
    switch (op.kind) {
        case ScriptOp::Kind::Insert:
            op.id = v[0];
            op.start = v[1];
            op.last = v[2];
            break;
        case ScriptOp::Kind::Remove:
            op.id = v[0];
            break;
        case ScriptOp::Kind::Query:
            op.start = v[0];
            op.last = v[1];
            break;
        default:
            break;
    }
    if ((op.kind == ScriptOp::Kind::Insert || op.kind == ScriptOp::Kind::Query) &&
        op.start > op.last) {
        error = "START > LAST (" + std::to_string(op.start) + " > " + std::to_string(op.last) + ")";
        return false;
    }
    return true;
}

}  // namespace immap::itree
