#include "CliOutput.h"

#include <cstdio>

#include "io/AtomicFile.h"

namespace immap::cli {

bool CliOutput::writeAtomically(const QString& path, const std::string& text, std::string& error) {
    return io::AtomicFile::save(path.toStdString(), text, error);
}

std::string CliOutput::fixed(double v, int decimals) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

std::string CliOutput::grouped(double v, int decimals) {
    const std::string s = fixed(v, decimals);
    const std::size_t sign = s[0] == '-' ? 1 : 0;
    std::size_t dot = s.find('.');
    if (dot == std::string::npos) dot = s.size();
    std::string out = s.substr(0, sign);
    for (std::size_t i = sign; i < dot; ++i) {
        out += s[i];
        const std::size_t left = dot - i - 1;
        if (left > 0 && left % 3 == 0) out += ',';
    }
    return out + s.substr(dot);
}

std::string CliOutput::duration(double ns) {
    if (ns >= 1e6) return grouped(ns / 1e6, 2) + " ms";
    if (ns >= 1e3) return grouped(ns / 1e3, 1) + ' ' + kMicroseconds;
    return grouped(ns, 0) + " ns";
}

}  // namespace immap::cli
