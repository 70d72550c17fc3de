#pragma once
// One field of a CSV row as RFC 4180 writes it, for every CSV the programs write: as it is when
// it is plain, else in double quotes with each quote doubled. Names come from inputs (a policy,
// a lock named after a mapped file such as /opt/a,b/libc.so.6), and a comma, quote or line
// break in one must not move the row's other fields.
#include <string>
#include <string_view>

namespace immap::io {

class CsvField {
public:
    // Quoted when it holds a comma, a double quote or any control character (CR, LF, NUL, tab):
    // RFC 4180 readers take any byte inside quotes.
    static std::string of(std::string_view text);
};

}  // namespace immap::io
