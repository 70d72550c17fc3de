// NumaMapsParser on whole files.
#include <cstdint>
#include <string_view>

#include "procfs/NumaMapsParser.h"
#include "procfs/ParseError.h"

using namespace immap::procfs;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    try {
        for (const NumaMapsEntry& e :
             NumaMapsParser::parse({reinterpret_cast<const char*>(data), size}, "fuzz"))
            (void)e.dominantNode();
    } catch (const ParseError&) {
    }
    return 0;
}
