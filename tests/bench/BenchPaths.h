#pragma once
// The checkout's samples/ for a benchmark, found from the executable's own directory: the build
// gives IMMAP_SAMPLES relative to it (tests/CMakeLists.txt, immap_test_paths), so a benchmark
// runs from any directory and its object does not depend on where the checkout lies (the
// compiler cache shares it between checkouts).
#include <filesystem>
#include <string>

namespace immap::bench {

inline std::string samplesDir() {
    std::error_code ec;
    const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (ec) return IMMAP_SAMPLES;  // from the current directory: right when run where CTest does
    return (exe.parent_path() / IMMAP_SAMPLES).lexically_normal().string();
}

}  // namespace immap::bench
