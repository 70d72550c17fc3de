// StatParser on whole files.
#include <cstdint>

#include "procfs/ParseError.h"
#include "procfs/StatParser.h"

using namespace immap::procfs;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    try {
        StatParser::parse({reinterpret_cast<const char*>(data), size}, "fuzz");
    } catch (const ParseError&) {
    }
    return 0;
}
