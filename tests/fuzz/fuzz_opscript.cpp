// Op scripts end to end: OpScript parses, ScriptRunner executes on a real tree and prints.
#include <cstdint>
#include <sstream>
#include <string>

#include "itree/ScriptRunner.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
    std::ostringstream out, err;
    immap::itree::ScriptRunner runner(out);
    runner.run(in, "fuzz", err);
    return 0;
}
