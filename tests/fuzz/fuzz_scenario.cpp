// Workshop scenarios (JSON) through Scenario::fromJson, and what loads written back and read
// again: it must load and be equal. Relative recipe paths resolve in an empty directory of its
// own, so the input cannot make the harness read files it did not name absolutely (and those
// must be small regular files, which the loader checks).
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <string>

#include "session/Scenario.h"

namespace {
struct EmptyDir {
    std::string path;
    EmptyDir() {
        char tmpl[] = "/tmp/immap-fuzz-scenario-XXXXXX";
        if (!::mkdtemp(tmpl)) std::abort();
        path = tmpl;
    }
    ~EmptyDir() { ::rmdir(path.c_str()); }
};
const std::string& emptyDir() {
    static const EmptyDir dir;
    return dir.path;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using immap::session::Scenario;
    Scenario s;
    try {
        s = Scenario::fromJson(std::string(reinterpret_cast<const char*>(data), size), "fuzz",
                               emptyDir());
    } catch (const immap::session::ScenarioError&) {
        return 0;
    }
    // A scenario that loads must survive its own save format unchanged.
    if (!(Scenario::fromJson(s.toJson(), "again", emptyDir()) == s)) std::abort();
    return 0;
}
