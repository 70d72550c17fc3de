#pragma once
// /proc/PID/status: `Key:\tvalue` lines. We need Name, Tgid, Cpus_allowed_list and
// Mems_allowed_list (list format "0-3,8,10-11"); other keys are ignored.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace immap::procfs {

struct ProcStatus {
    std::string name;
    std::int64_t tgid = -1;        // -1 when absent
    std::vector<int> cpusAllowed;  // expanded, ascending; empty when absent
    std::vector<int> memsAllowed;
};

class StatusParser {
public:
    static ProcStatus parse(std::string_view text, const std::string& file);
    // "0-3,8" -> {0,1,2,3,8}; throws ParseError(file, line, reason) when malformed.
    static std::vector<int> parseList(std::string_view list, const std::string& file,
                                      std::size_t lineNo);
};

}  // namespace immap::procfs
