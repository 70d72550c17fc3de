#include "topology/XmlWellFormed.h"

#include <hwloc.h>
#include <libxml/parser.h>
#include <link.h>

#include <climits>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>

#include "topology/TopologyError.h"

namespace immap::topology {

void checkWellFormedXml(const std::string& text) {
    static std::once_flag initialised;
    std::call_once(initialised, [] { xmlInitParser(); });
    if (text.size() > INT_MAX) throw TopologyError({}, "too large to read as XML");
    std::unique_ptr<xmlParserCtxt, void (*)(xmlParserCtxtPtr)> ctxt(xmlNewParserCtxt(),
                                                                    xmlFreeParserCtxt);
    if (!ctxt) throw TopologyError({}, "out of memory while reading the XML");
    // No DTD loading, no entity substitution, no network: only the bytes given are read. libxml2
    // keeps its default limits on depth and entity expansion (no XML_PARSE_HUGE).
    constexpr int kOptions = XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING;
    xmlDocPtr doc = xmlCtxtReadMemory(ctxt.get(), text.data(), static_cast<int>(text.size()),
                                      nullptr, nullptr, kOptions);
    const bool ok = doc && ctxt->wellFormed;
    if (doc) xmlFreeDoc(doc);
    if (ok) return;
    const xmlError* e = xmlCtxtGetLastError(ctxt.get());
    std::string why = e && e->message ? e->message : "not well-formed";
    while (!why.empty() && (why.back() == '\n' || why.back() == ' '))
        why.pop_back();
    const int line = e ? e->line : 0;
    throw TopologyError({}, line > 0 ? static_cast<std::size_t>(line) : 0,
                        "malformed XML (" + why + ")");
}

namespace {

// hwloc's own rule (topology-xml.c, hwloc_nolibxml_import): HWLOC_LIBXML, else
// HWLOC_LIBXML_IMPORT, decides; a value whose atoi() is 0 selects the built-in importer.
bool libxmlImportTurnedOff() {
    const char* env = std::getenv("HWLOC_LIBXML");
    if (!env) env = std::getenv("HWLOC_LIBXML_IMPORT");
    return env && std::atoi(env) == 0;
}

}  // namespace

std::string hwlocXmlImporter() {
    if (libxmlImportTurnedOff()) return "built-in";
    // hwloc loads its plugins while a topology exists (and unloads them with the last one), so
    // the plugin is looked for among the loaded objects while one is alive.
    hwloc_topology_t t = nullptr;
    if (hwloc_topology_init(&t) != 0) return "built-in";
    bool plugin = false;
    dl_iterate_phdr(
        [](dl_phdr_info* info, std::size_t, void* found) {
            if (info->dlpi_name && std::strstr(info->dlpi_name, "hwloc_xml_libxml"))
                *static_cast<bool*>(found) = true;
            return 0;
        },
        &plugin);
    hwloc_topology_destroy(t);
    return plugin ? "libxml2" : "built-in";
}

}  // namespace immap::topology
