// StatusParser on whole files, and its list syntax ("0-3,8") on its own.
#include <cstdint>
#include <string_view>

#include "procfs/ParseError.h"
#include "procfs/StatusParser.h"

using namespace immap::procfs;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    try {
        StatusParser::parse(text, "fuzz");
    } catch (const ParseError&) {
    }
    try {
        StatusParser::parseList(text, "fuzz", 1);
    } catch (const ParseError&) {
    }
    return 0;
}
