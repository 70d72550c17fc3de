#include "NumaMapsParser.h"

#include <cstring>
#include <iterator>

#include "TextScan.h"

namespace immap::procfs {

namespace {

using detail::NumberStatus;
using detail::quote;

[[noreturn]] void fail(const std::string& file, std::size_t lineNo, std::string reason) {
    throw ParseError(file, lineNo, std::move(reason));
}

bool isLower(char c) {
    return c >= 'a' && c <= 'z';
}
bool isDigit(char c) {
    return c >= '0' && c <= '9';
}

// mpol_to_str(): MODE[=FLAGS][:NODELIST], MODE lowercase words (two modes hold a space, joined
// before this), FLAGS lowercase words joined by '|' or ',', NODELIST like "0-3,8".
bool validPolicy(std::string_view policy) {
    const std::size_t colon = policy.find(':');
    const std::string_view nodes =
        colon == std::string_view::npos ? std::string_view{} : policy.substr(colon + 1);
    std::string_view head = policy.substr(0, colon);
    const std::size_t eq = head.find('=');
    const std::string_view flags =
        eq == std::string_view::npos ? std::string_view{} : head.substr(eq + 1);
    const std::string_view mode = head.substr(0, eq);
    if (mode.empty() || !isLower(mode.front())) return false;
    for (char c : mode)
        if (!isLower(c) && c != ' ' && c != '-' && c != '_' && c != '(' && c != ')') return false;
    if (eq != std::string_view::npos) {
        if (flags.empty()) return false;
        for (char c : flags)
            if (!isLower(c) && c != '|' && c != ',') return false;
    }
    if (colon != std::string_view::npos) {
        if (nodes.empty()) return false;
        for (char c : nodes)
            if (!isDigit(c) && c != ',' && c != '-') return false;
    }
    return true;
}

// The counters of the header, in the order the kernel prints them.
struct Counter {
    std::string_view key;
    std::uint64_t NumaMapsEntry::*member;
};
constexpr Counter kCounters[] = {
    {"anon", &NumaMapsEntry::anon},
    {"dirty", &NumaMapsEntry::dirty},
    {"mapped", &NumaMapsEntry::mapped},
    {"mapmax", &NumaMapsEntry::mapmax},
    {"swapcache", &NumaMapsEntry::swapcache},
    {"active", &NumaMapsEntry::active},
    {"writeback", &NumaMapsEntry::writeback},
    {"kernelpagesize_kB", &NumaMapsEntry::kernelPageSizeKB},
};
constexpr std::size_t kFileBit = std::size(kCounters);  // bit of file= in the `seen` mask

// A detail where the policy should be: the policy was left out, rather than malformed.
bool looksLikeDetail(std::string_view token) {
    const std::string_view key = token.substr(0, token.find('='));
    if (key == "heap" || key == "stack" || key == "huge" || key == "file") return true;
    if (key.size() > 1 && key[0] == 'N' && isDigit(key[1])) return true;
    for (const Counter& c : kCounters)
        if (key == c.key) return true;
    return false;
}

// The value of a counter or node detail; `token` is the whole detail, for the message.
std::uint64_t parseCount(std::string_view value, std::string_view token, const std::string& file,
                         std::size_t lineNo) {
    std::uint64_t n = 0;
    switch (detail::parseNumber(value, n)) {
        case NumberStatus::Ok:
            return n;
        case NumberStatus::PastRange:
            fail(file, lineNo, "number past 64 bits in " + quote(token));
        case NumberStatus::Bad:
            break;
    }
    fail(file, lineNo, "bad number in " + quote(token));
}

}  // namespace

int NumaMapsEntry::dominantNode() const {
    int best = -1;
    std::uint64_t bestPages = 0;
    for (const auto& [node, pages] : nodePages) {  // ascending ids: '>' keeps the lowest on a tie
        if (pages > bestPages) {
            best = node;
            bestPages = pages;
        }
    }
    return best;
}

NumaMapsEntry NumaMapsParser::parseLine(std::string_view line, const std::string& file,
                                        std::size_t lineNo) {
    NumaMapsEntry e;
    std::string_view rest = line;

    const std::string_view address = detail::takeField(rest);
    switch (detail::parseNumber(address, e.start, 16)) {
        case NumberStatus::Ok:
            break;
        case NumberStatus::PastRange:
            fail(file, lineNo, "number past 64 bits in start address " + quote(address));
        case NumberStatus::Bad:
            fail(file, lineNo, "bad start address " + quote(address));
    }

    if (rest.empty()) fail(file, lineNo, "missing policy");
    const std::string_view first = detail::takeField(rest);
    e.policy.assign(first);
    // "weighted interleave" and "prefer (many)" are the two modes whose names hold a space.
    if ((first == "weighted" && rest.starts_with("interleave")) ||
        (first == "prefer" && rest.starts_with("(many)")))
        e.policy.append(" ").append(detail::takeField(rest));
    if (looksLikeDetail(first)) fail(file, lineNo, "missing policy before " + quote(first));
    if (!validPolicy(e.policy)) fail(file, lineNo, "bad policy " + quote(e.policy));

    unsigned seen = 0;  // known keys already given, to reject repeats
    while (!rest.empty()) {
        const std::string_view token = detail::takeField(rest);
        const std::size_t eq = token.find('=');
        if (eq == std::string_view::npos) {
            if (token == "heap")
                e.heap = true;
            else if (token == "stack")
                e.stack = true;
            else if (token == "huge")
                e.huge = true;
            else if (looksLikeDetail(token))
                fail(file, lineNo, "missing value in " + quote(token));
            // Any other bare word is a flag from a newer kernel: tolerated.
            continue;
        }
        if (eq == 0) fail(file, lineNo, "empty key in " + quote(token));
        const std::string_view key = token.substr(0, eq);
        const std::string_view value = token.substr(eq + 1);

        if (key == "file") {
            if (seen & (1u << kFileBit)) fail(file, lineNo, "file= given twice");
            seen |= 1u << kFileBit;
            if (value.empty()) fail(file, lineNo, "empty file= path");
            if (std::memchr(value.data(), '\0', value.size()))
                fail(file, lineNo, "NUL byte in file= path " + quote(value));
            e.file = detail::decodeOctalEscapes(value);
            continue;
        }
        if (key[0] == 'N' && key.size() > 1 && isDigit(key[1])) {
            int node = 0;
            // MAX_NUMNODES is at most 1024 (NODES_SHIFT <= 10); anything far past it is junk.
            constexpr int kMaxNode = 65535;
            switch (detail::parseNumber(key.substr(1), node)) {
                case NumberStatus::Ok:
                    if (node <= kMaxNode) break;
                    [[fallthrough]];
                case NumberStatus::PastRange:
                    fail(file, lineNo,
                         "node id past " + std::to_string(kMaxNode) + " in " + quote(token));
                case NumberStatus::Bad:
                    fail(file, lineNo, "bad node id in " + quote(token));
            }
            const std::uint64_t pages = parseCount(value, token, file, lineNo);
            if (!e.nodePages.emplace(node, pages).second)
                fail(file, lineNo, "node " + std::to_string(node) + " listed twice");
            continue;
        }
        for (std::size_t i = 0; i < std::size(kCounters); ++i) {
            if (key != kCounters[i].key) continue;
            if (seen & (1u << i)) fail(file, lineNo, std::string(key) + "= given twice");
            seen |= 1u << i;
            e.*kCounters[i].member = parseCount(value, token, file, lineNo);
            break;
        }
        // An unknown key=value is from a newer kernel: tolerated.
    }
    return e;
}

std::vector<NumaMapsEntry> NumaMapsParser::parse(std::string_view text, const std::string& file) {
    std::vector<NumaMapsEntry> entries;
    detail::forEachLine(text, file, [&](std::string_view line, std::size_t lineNo) {
        entries.push_back(parseLine(line, file, lineNo));
    });
    return entries;
}

}  // namespace immap::procfs
