#pragma once
// The real capture in samples/snapshots/host250: 250 processes (perl, sleep, tail) on a host
// with 2 CPUs and one NUMA node, each with maps, numa_maps, status and stat. Read as raw text,
// so tests can count things in it without the parsers.

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

class SampleSnapshot {
public:
    static std::string dir() { return IMMAP_SAMPLES "/snapshots/host250"; }

    // The process directories' names, ascending by pid.
    static std::vector<std::string> pids() {
        std::vector<std::string> out;
        for (const auto& entry : std::filesystem::directory_iterator(dir())) {
            const std::string name = entry.path().filename().string();
            if (entry.is_directory() && name.find_first_not_of("0123456789") == std::string::npos)
                out.push_back(name);
        }
        std::sort(out.begin(), out.end(), [](const std::string& a, const std::string& b) {
            return std::stoll(a) < std::stoll(b);
        });
        return out;
    }

    static std::string path(const std::string& pid, const char* name) {
        return dir() + "/" + pid + "/" + name;
    }

    // The whole file; empty when it cannot be read (the tests then fail on content).
    static std::string read(const std::string& pid, const char* name) {
        std::string text;
        if (FILE* f = std::fopen(path(pid, name).c_str(), "rb")) {
            char buf[1 << 14];
            std::size_t n;
            while ((n = std::fread(buf, 1, sizeof buf, f)) > 0)
                text.append(buf, n);
            std::fclose(f);
        }
        return text;
    }

    // The lines of `text` without their '\n', the plain way, for independent counts.
    static std::vector<std::string_view> lines(std::string_view text) {
        std::vector<std::string_view> out;
        while (!text.empty()) {
            const std::size_t nl = text.find('\n');
            out.push_back(text.substr(0, nl));
            if (nl == std::string_view::npos) break;
            text.remove_prefix(nl + 1);
        }
        return out;
    }
};
