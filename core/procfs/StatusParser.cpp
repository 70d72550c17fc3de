#include "StatusParser.h"

#include <cstring>

#include "TextScan.h"

namespace immap::procfs {

namespace {

using detail::NumberStatus;
using detail::quote;

// Far past any kernel's NR_CPUS (8192) or MAX_NUMNODES (1024): it bounds what a hostile list
// can make us allocate, together with the rule that items ascend without overlap.
constexpr int kMaxListId = 65535;

[[noreturn]] void fail(const std::string& file, std::size_t lineNo, std::string reason) {
    throw ParseError(file, lineNo, std::move(reason));
}

std::string_view trimmed(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
        s.remove_suffix(1);
    return s;
}

// The kernel prints Name with seq_escape_str(..., "\n\\"): a newline as \n and a backslash as
// \\; everything else is as is.
std::string unescapeName(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '\\' && i + 1 < s.size() && (s[i + 1] == 'n' || s[i + 1] == '\\')) {
            out += s[i + 1] == 'n' ? '\n' : '\\';
            ++i;
        } else {
            out += s[i];
        }
    }
    return out;
}

int parseListId(std::string_view text, std::string_view list, const std::string& file,
                std::size_t lineNo) {
    int id = 0;
    switch (detail::parseNumber(text, id)) {
        case NumberStatus::Ok:
            if (id >= 0 && id <= kMaxListId) return id;
            [[fallthrough]];
        case NumberStatus::PastRange:
            fail(file, lineNo, "id past " + std::to_string(kMaxListId) + " in list " + quote(list));
        case NumberStatus::Bad:
            break;
    }
    fail(file, lineNo, "bad number " + quote(text) + " in list " + quote(list));
}

}  // namespace

std::vector<int> StatusParser::parseList(std::string_view list, const std::string& file,
                                         std::size_t lineNo) {
    if (list.empty()) fail(file, lineNo, "empty list");
    std::vector<int> ids;
    int previous = -1;  // the last id added: items must go strictly up
    std::string_view rest = list;
    for (;;) {
        const std::size_t comma = rest.find(',');
        const std::string_view item = rest.substr(0, comma);
        if (item.empty()) fail(file, lineNo, "empty item in list " + quote(list));
        const std::size_t dash = item.find('-');
        const int lo = parseListId(item.substr(0, dash), list, file, lineNo);
        const int hi = dash == std::string_view::npos
                           ? lo
                           : parseListId(item.substr(dash + 1), list, file, lineNo);
        if (hi < lo)
            fail(file, lineNo, "reversed range " + quote(item) + " in list " + quote(list));
        if (lo <= previous)
            fail(file, lineNo, "list not ascending at " + quote(item) + " in " + quote(list));
        for (int id = lo; id <= hi; ++id)
            ids.push_back(id);
        previous = hi;
        if (comma == std::string_view::npos) break;
        rest.remove_prefix(comma + 1);
    }
    return ids;
}

ProcStatus StatusParser::parse(std::string_view text, const std::string& file) {
    ProcStatus st;
    detail::forEachLine(text, file, [&](std::string_view line, std::size_t lineNo) {
        const std::size_t colon = line.find(':');
        if (colon == std::string_view::npos || colon == 0)
            fail(file, lineNo, "expected 'Key: value', got " + quote(line));
        const std::string_view key = line.substr(0, colon);
        std::string_view value = line.substr(colon + 1);
        if (key == "Name") {
            // Only the separator goes: a name may start or end with a space.
            if (!value.empty() && value.front() == '\t') value.remove_prefix(1);
            if (std::memchr(value.data(), '\0', value.size()))
                fail(file, lineNo, "NUL byte in Name " + quote(value));
            st.name = unescapeName(value);
        } else if (key == "Tgid") {
            value = trimmed(value);
            switch (detail::parseNumber(value, st.tgid)) {
                case NumberStatus::Ok:
                    if (st.tgid >= 0) break;
                    [[fallthrough]];
                case NumberStatus::Bad:
                    fail(file, lineNo, "bad Tgid " + quote(value));
                case NumberStatus::PastRange:
                    fail(file, lineNo, "number past 63 bits in Tgid " + quote(value));
            }
        } else if (key == "Cpus_allowed_list" || key == "Mems_allowed_list") {
            value = trimmed(value);
            if (value.empty()) fail(file, lineNo, "empty " + std::string(key));
            (key[0] == 'C' ? st.cpusAllowed : st.memsAllowed) = parseList(value, file, lineNo);
        }
    });
    return st;
}

}  // namespace immap::procfs
