#pragma once
// Converts a real recording made with samples/traces/record-mappings.bt into a native
// trace: lines "t_ns cpu pid comm event key=value..." (events exec, open, mmap, munmap,
// exit_mmap, lock_wait, lock_acquired), sorted by time because per-CPU buffers interleave them.
// Each process's file descriptors are followed to paths, and its mmap (MAP_FIXED replacement
// included), munmap and exit_mmap calls are applied to its own address space, giving the
// i_mmap lock holds and tree operations they imply (sim::AddressSpace, the same rules as the
// simulator). The mappings the kernel makes inside execve (the executable and ld.so) are not
// in such a recording: they are added from the built-in recipe's layouts and marked inferred.

#include <cstdint>
#include <string>
#include <vector>

namespace immap::trace {

struct ImportSummary {
    std::uint64_t lines = 0;     // event lines read
    std::uint64_t events = 0;    // native events written
    std::uint64_t inferred = 0;  // of which inferred
    std::uint64_t execs = 0;
    std::uint64_t processes = 0;
    std::uint64_t files = 0;
    // "IN:LINE: the last line has no newline; ..." (io::CutLine) when the recording's last
    // line, imported, has no newline.
    std::vector<std::string> warnings;
};

class BpftraceImport {
public:
    // Throws TraceError naming the input file, the line and the reason for a malformed line,
    // or the output file when it cannot be written.
    static ImportSummary run(const std::string& inPath, const std::string& outPath);
};

}  // namespace immap::trace
