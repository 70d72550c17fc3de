#pragma once
// A SimResult as JSON and back, bit for bit: every field the CLI and the app read, including
// what SimResult::toJson leaves out (each lock's line transfers and full statistics, each
// CPU's spinning, the shared lines' raw counts). What RunCache stores and a scenario carries
// (docs/cache.md). A field added to SimResult or its parts stops ResultCodec.cpp compiling
// until it is written and read here.

#include <QJsonObject>
#include <string>
#include <string_view>

#include "sim/SimResult.h"

namespace immap::sim {

class ResultCodec {
public:
    static QJsonObject toJson(const SimResult& result);
    // False with the reason (the field at fault) when `json` is not a result this codec wrote.
    static bool fromJson(const QJsonObject& json, SimResult& out, std::string& error);

    // The same as compact JSON text.
    static std::string encode(const SimResult& result);
    static bool decode(std::string_view text, SimResult& out, std::string& error);
};

}  // namespace immap::sim
