// SnapshotLoader::loadArchive: any bytes as a .tar/.tar.gz (libarchive sniffs the format).
#include <cstdint>

#include "FuzzFile.h"
#include "procfs/ParseError.h"
#include "procfs/SnapshotLoader.h"

using namespace immap::procfs;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static immap::fuzz::FuzzFile file(".tar");
    try {
        SnapshotLoader::loadArchive(file.write(data, size));
    } catch (const ParseError&) {
    }
    return 0;
}
