#pragma once
// /proc/PID/stat: one line, `pid (comm) state ppid ...`. comm may hold spaces and parentheses,
// so it runs to the LAST ')'. Field 39, `processor`, is the CPU the task last ran on.

#include <cstdint>
#include <string>
#include <string_view>

namespace immap::procfs {

struct ProcStat {
    std::int64_t pid = -1;
    std::string comm;
    char state = '?';
    int processor = -1;  // field 39; -1 when the line is too short to have it (old kernels)
};

class StatParser {
public:
    static ProcStat parse(std::string_view text, const std::string& file);
};

}  // namespace immap::procfs
