#include "topology/DistanceSpec.h"

#include <charconv>
#include <string>

#include "topology/Topology.h"
#include "topology/TopologyError.h"

namespace immap::topology {

namespace {

constexpr unsigned kMaxDistance = 255;  // SLIT entries are one byte

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
        s.remove_suffix(1);
    return s;
}

unsigned long parseNumber(std::string_view text) {
    const std::string_view s = trim(text);
    unsigned long v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (s.empty() || ec != std::errc() || end != s.data() + s.size())
        throw TopologyError({}, "bad number '" + std::string(text) + "' in distances");
    return v;
}

std::vector<unsigned long> split(std::string_view text, char sep) {
    std::vector<unsigned long> out;
    for (;;) {
        const std::size_t at = text.find(sep);
        out.push_back(parseNumber(text.substr(0, at)));
        if (at == std::string_view::npos) return out;
        text.remove_prefix(at + 1);
    }
}

std::string entry(std::size_t i, std::size_t j) {
    return "distance[" + std::to_string(i) + "][" + std::to_string(j) + "]";
}

}  // namespace

DistanceSpec DistanceSpec::parse(std::string_view text) {
    if (trim(text).empty()) throw TopologyError({}, "distances= is empty");
    DistanceSpec d;
    d.shorthand_ = text.find(':') != std::string_view::npos;
    if (d.shorthand_ && text.find(',') != std::string_view::npos)
        throw TopologyError({},
                            "distances= mixes ':' and ','; give LOCAL:SAMEPKG:REMOTE or "
                            "the full comma-separated matrix");
    d.values_ = split(text, d.shorthand_ ? ':' : ',');
    if (d.shorthand_ && d.values_.size() != 3)
        throw TopologyError({}, "distances=LOCAL:SAMEPKG:REMOTE takes three numbers, got " +
                                    std::to_string(d.values_.size()));
    return d;
}

std::vector<std::vector<unsigned>> DistanceSpec::matrix(const std::vector<int>& nodePackage) const {
    const std::size_t n = nodePackage.size();
    if (!shorthand_ && values_.size() != n * n)
        throw TopologyError({}, std::to_string(values_.size()) + " distances for " +
                                    std::to_string(n) + (n == 1 ? " NUMA node" : " NUMA nodes") +
                                    "; need " + std::to_string(n * n) + " (N x N, row-major)");
    std::vector<std::vector<unsigned>> m(n, std::vector<unsigned>(n));
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j) {
            const unsigned long v = shorthand_ ? values_[i == j                             ? 0
                                                         : nodePackage[i] == nodePackage[j] ? 1
                                                                                            : 2]
                                               : values_[i * n + j];
            if (i == j && v != kLocalDistance)
                throw TopologyError({}, entry(i, j) + " is " + std::to_string(v) +
                                            "; the diagonal must be 10 (SLIT local distance)");
            if (v < kLocalDistance || v > kMaxDistance)
                throw TopologyError(
                    {}, entry(i, j) + " is " + std::to_string(v) + "; SLIT distances are 10..255");
            m[i][j] = static_cast<unsigned>(v);
        }
    return m;
}

}  // namespace immap::topology
