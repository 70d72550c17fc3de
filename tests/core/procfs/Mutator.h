#pragma once
// Seeded random damage to real /proc text: byte flips, NULs, 0xff bytes, deleted and duplicated
// spans, truncation, doubled newlines, huge digit runs. Parsers must answer every variant with
// a value or a ParseError, nothing else.

#include <cstdint>
#include <random>
#include <string>

class Mutator {
public:
    explicit Mutator(std::uint32_t seed) : rng_(seed) {}

    std::string mutate(const std::string& original) {
        std::string s = original;
        const int edits = 1 + static_cast<int>(pick(4));
        for (int i = 0; i < edits && !s.empty(); ++i) {
            const std::size_t at = pick(s.size());
            switch (pick(9)) {
                case 0:
                    s[at] = static_cast<char>(pick(256));
                    break;
                case 1:
                    s[at] = '\0';
                    break;
                case 2:
                    s.insert(at, 1, static_cast<char>(0xff));
                    break;
                case 3:
                    s.erase(at, pick(40));
                    break;
                case 4:
                    s.resize(at);
                    break;
                case 5:
                    s.insert(at, 1, '\n');
                    break;
                case 6:
                    s.insert(at, std::string(1 + pick(40), '9'));
                    break;
                case 7:
                    s.insert(at, s.substr(pick(s.size()), pick(30)));
                    break;
                default:
                    s[at] = "- :()=,\r\\"[pick(9)];
                    break;
            }
        }
        return s;
    }

private:
    std::size_t pick(std::size_t n) {
        return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng_);
    }

    std::mt19937 rng_;
};
