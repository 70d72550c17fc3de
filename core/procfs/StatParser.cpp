#include "StatParser.h"

#include <cstring>

#include "TextScan.h"

namespace immap::procfs {

namespace {

using detail::NumberStatus;
using detail::quote;

constexpr std::size_t kProcessorField = 39;

[[noreturn]] void fail(const std::string& file, std::string reason) {
    throw ParseError(file, 1, std::move(reason));
}

// Fields after comm are all decimal, some signed (priority, nice, tty_pgrp).
bool isInteger(std::string_view s) {
    if (!s.empty() && s.front() == '-') s.remove_prefix(1);
    if (s.empty()) return false;
    for (char c : s)
        if (c < '0' || c > '9') return false;
    return true;
}

}  // namespace

ProcStat StatParser::parse(std::string_view text, const std::string& file) {
    // One line; comm is printed raw and may itself hold a newline, so only the final one goes.
    if (text.ends_with('\n')) text.remove_suffix(1);
    if (text.ends_with('\r')) text.remove_suffix(1);

    ProcStat st;
    const std::size_t open = text.find('(');
    if (open == std::string_view::npos) fail(file, "missing '(' before comm");
    const std::size_t close = text.rfind(')');
    if (close == std::string_view::npos || close < open) fail(file, "missing ')' after comm");

    std::string_view pid = text.substr(0, open);
    while (!pid.empty() && pid.back() == ' ')
        pid.remove_suffix(1);
    if (pid.empty()) fail(file, "missing pid before comm");
    switch (detail::parseNumber(pid, st.pid)) {
        case NumberStatus::Ok:
            if (st.pid >= 0) break;
            [[fallthrough]];
        case NumberStatus::Bad:
            fail(file, "bad pid " + quote(pid));
        case NumberStatus::PastRange:
            fail(file, "number past 63 bits in pid " + quote(pid));
    }

    const std::string_view comm = text.substr(open + 1, close - open - 1);
    if (std::memchr(comm.data(), '\0', comm.size())) fail(file, "NUL byte in comm " + quote(comm));
    st.comm.assign(comm);

    std::string_view rest = text.substr(close + 1);
    if (rest.empty()) fail(file, "missing state after comm");
    if (rest.front() != ' ') fail(file, "expected a space after comm, got " + quote(rest));
    detail::takeField(rest);  // the empty text before the first space: skips the spaces
    if (rest.empty()) fail(file, "missing state after comm");
    const std::string_view state = detail::takeField(rest);
    const char s0 = state[0];
    if (state.size() != 1 || !((s0 >= 'A' && s0 <= 'Z') || (s0 >= 'a' && s0 <= 'z')))
        fail(file, "bad state " + quote(state) + ": expected one letter");
    st.state = s0;

    // Old kernels stop before field 39: processor stays -1, which is not an error.
    for (std::size_t field = 4; !rest.empty(); ++field) {
        const std::string_view value = detail::takeField(rest);
        if (!isInteger(value))
            fail(file, "bad field " + std::to_string(field) + " " + quote(value));
        if (field != kProcessorField) continue;
        switch (detail::parseNumber(value, st.processor)) {
            case NumberStatus::Ok:
                if (st.processor >= 0) break;
                [[fallthrough]];
            case NumberStatus::Bad:
            case NumberStatus::PastRange:
                fail(file, "bad processor (field 39) " + quote(value));
        }
    }
    return st;
}

}  // namespace immap::procfs
