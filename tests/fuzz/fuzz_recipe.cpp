// Exec recipes (JSON) through Recipe::fromJson.
#include <cstdint>
#include <stdexcept>
#include <string>

#include "sim/Recipe.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    try {
        immap::sim::Recipe::fromJson(std::string(reinterpret_cast<const char*>(data), size),
                                     "fuzz");
    } catch (const immap::sim::RecipeError&) {
    }
    return 0;
}
