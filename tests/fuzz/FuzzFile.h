#pragma once
// Loaders that take a path (archives, traces, recordings) get the fuzz input through a file:
// one per fuzzing process, rewritten for every input, removed at exit.

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <string>

namespace immap::fuzz {

class FuzzFile {
public:
    explicit FuzzFile(const char* suffix)
        : path_(std::string("/tmp/immap-fuzz-") + std::to_string(::getpid()) + suffix) {}
    ~FuzzFile() { std::remove(path_.c_str()); }
    FuzzFile(const FuzzFile&) = delete;
    FuzzFile& operator=(const FuzzFile&) = delete;

    const std::string& write(const std::uint8_t* data, std::size_t size) {
        std::FILE* f = std::fopen(path_.c_str(), "wb");
        if (!f) std::abort();  // the harness, not the input, is broken
        if (size && std::fwrite(data, 1, size, f) != size) std::abort();
        std::fclose(f);
        return path_;
    }
    const std::string& path() const { return path_; }

private:
    std::string path_;
};

}  // namespace immap::fuzz
