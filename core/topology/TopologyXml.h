#pragma once
// What hwloc is given to read: a topology XML that libxml2 has parsed and written again, in
// one plain form. hwloc 2.9 has two XML importers: libxml2's (the libhwloc-plugins package) and
// a minimal built-in one, used when the plugin is missing or HWLOC_LIBXML_IMPORT=0. The built-in
// one reads past the end of a truncated document and crashes (a file cut inside an attribute
// segfaults it), and the two accept different XML (text between elements, comments, quoting)
// and word their failures differently. Parsing with libxml2 ourselves and handing hwloc only
// our rewrite means a malformed file gets one message with its line, and both importers read
// the same simple bytes, the form hwloc's own exporter writes.

#include <string>

namespace immap::topology {

// Parses `text` with libxml2 and writes it again: elements and attributes in order, attribute
// values double-quoted and escaped, text kept only in elements that hold nothing but text
// (hwloc's <indexes>, <u64values>, <userdata>), whitespace, comments and processing
// instructions dropped, the DOCTYPE's system id kept. Throws TopologyError (no file; the line of
// the first error) unless `text` is a well-formed document without a DTD internal subset. No
// DTD, external entity or network access: only the bytes given are read.
std::string canonicalTopologyXml(const std::string& text);

// Which importer hwloc uses for XML in this process: "libxml2" when hwloc loaded its libxml2
// plugin and HWLOC_LIBXML_IMPORT / HWLOC_LIBXML do not turn it off, else "built-in".
std::string hwlocXmlImporter();

}  // namespace immap::topology
