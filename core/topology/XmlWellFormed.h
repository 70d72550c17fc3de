#pragma once
// The XML check every topology file passes before hwloc sees it. hwloc 2.9 has two XML
// importers: libxml2's (the libhwloc-plugins package) and a minimal built-in one, used when the
// plugin is missing or HWLOC_LIBXML_IMPORT=0. The built-in one reads past the end of a
// truncated document and crashes (a file cut inside an attribute segfaults it), and the two
// word their failures differently. Parsing with libxml2 ourselves first means hwloc only ever
// sees well-formed XML, whichever importer it uses, and a malformed file gets one message with
// its line.

#include <string>

namespace immap::topology {

// Throws TopologyError (no file, the line of the first error) unless `text` is a well-formed
// XML document. No DTD, external entity or network access: the check reads `text` alone.
void checkWellFormedXml(const std::string& text);

// Which importer hwloc uses for XML in this process: "libxml2" when hwloc loaded its libxml2
// plugin and HWLOC_LIBXML_IMPORT / HWLOC_LIBXML do not turn it off, else "built-in".
std::string hwlocXmlImporter();

}  // namespace immap::topology
