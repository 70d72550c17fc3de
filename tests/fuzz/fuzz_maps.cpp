// MapsParser: whole files through both entry points (fresh result, and a reused buffer with a
// shared interner, as the loader does), then every line on its own.
#include <cstdint>
#include <string_view>

#include "procfs/MapsParser.h"

using namespace immap::procfs;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    try {
        const auto entries = MapsParser::parse(text, "fuzz");
        for (const MapsEntry& e : entries)
            (void)e.perms(), (void)e.pages();
    } catch (const ParseError&) {
    }
    static PathInterner paths;
    static std::vector<MapsEntry> reused;
    try {
        MapsParser::parse(text, "fuzz", reused, paths);
    } catch (const ParseError&) {
    }
    std::size_t lineNo = 0;
    for (std::size_t pos = 0; pos < text.size();) {
        std::size_t end = text.find('\n', pos);
        if (end == std::string_view::npos) end = text.size();
        try {
            MapsParser::parseLine(text.substr(pos, end - pos), "fuzz", ++lineNo);
        } catch (const ParseError&) {
        }
        pos = end + 1;
    }
    return 0;
}
