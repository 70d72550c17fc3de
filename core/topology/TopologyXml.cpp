#include "topology/TopologyXml.h"

#include <hwloc.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <link.h>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>

#include "topology/TopologyError.h"

namespace immap::topology {

namespace {

void escapeInto(std::string& out, const xmlChar* text, bool attribute) {
    for (const char* c = reinterpret_cast<const char*>(text); c && *c; ++c) {
        switch (*c) {
            case '&':
                out += "&amp;";
                break;
            case '<':
                out += "&lt;";
                break;
            case '>':
                out += "&gt;";
                break;
            case '"':
                out += attribute ? "&quot;" : "\"";
                break;
            default:
                out += *c;
        }
    }
}

// Only text (no element) below `node`: the content elements of hwloc's format.
bool holdsOnlyText(const xmlNode* node) {
    bool text = false;
    for (const xmlNode* c = node->children; c; c = c->next) {
        if (c->type == XML_ELEMENT_NODE) return false;
        text = text || c->type == XML_TEXT_NODE || c->type == XML_CDATA_SECTION_NODE;
    }
    return text;
}

void writeElement(std::string& out, const xmlNode* node, int depth) {
    out.append(2 * depth, ' ').append("<").append(reinterpret_cast<const char*>(node->name));
    for (const xmlAttr* a = node->properties; a; a = a->next) {
        out.append(" ").append(reinterpret_cast<const char*>(a->name)).append("=\"");
        for (const xmlNode* v = a->children; v; v = v->next)
            if (v->type == XML_TEXT_NODE) escapeInto(out, v->content, true);
        out += '"';
    }
    if (holdsOnlyText(node)) {
        out += '>';
        for (const xmlNode* c = node->children; c; c = c->next)
            escapeInto(out, c->content, false);
        out.append("</").append(reinterpret_cast<const char*>(node->name)).append(">\n");
        return;
    }
    bool children = false;
    for (const xmlNode* c = node->children; c; c = c->next) {
        if (c->type != XML_ELEMENT_NODE) continue;  // text between elements, comments, PIs
        if (!children) out += ">\n";
        children = true;
        writeElement(out, c, depth + 1);
    }
    if (!children) {
        out += "/>\n";
        return;
    }
    out.append(2 * depth, ' ').append("</").append(reinterpret_cast<const char*>(node->name));
    out += ">\n";
}

std::size_t lineOf(const std::string& text, std::size_t at) {
    if (at == std::string::npos) return 0;
    return 1 + static_cast<std::size_t>(std::count(text.begin(), text.begin() + at, '\n'));
}

void silentGeneric(void*, const char*, ...) {}
void silentStructured(void*, xmlErrorPtr) {}

}  // namespace

std::string canonicalTopologyXml(const std::string& text) {
    static std::once_flag initialised;
    std::call_once(initialised, [] { xmlInitParser(); });
    // hwloc's libxml2 plugin installs its own generic error handler, a function inside the
    // plugin, and hwloc unloads the plugin with the last topology: libxml2 (one copy in the
    // process, shared with us) is then left calling into unmapped code on its next error
    // (found by fuzz_topology_xml). The handlers are per thread, so they are set here, before
    // every parse, to functions of ours; errors are read from the context instead.
    xmlSetGenericErrorFunc(nullptr, silentGeneric);
    xmlSetStructuredErrorFunc(nullptr, silentStructured);
    if (text.size() > INT_MAX) throw TopologyError({}, "too large to read as XML");
    std::unique_ptr<xmlParserCtxt, void (*)(xmlParserCtxtPtr)> ctxt(xmlNewParserCtxt(),
                                                                    xmlFreeParserCtxt);
    if (!ctxt) throw TopologyError({}, "out of memory while reading the XML");
    // No DTD loading, no entity substitution, no network: only the bytes given are read. libxml2
    // keeps its default limits on depth and sizes (no XML_PARSE_HUGE). CDATA becomes text.
    constexpr int kOptions =
        XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING | XML_PARSE_NOCDATA;
    std::unique_ptr<xmlDoc, void (*)(xmlDocPtr)> doc(
        xmlCtxtReadMemory(ctxt.get(), text.data(), static_cast<int>(text.size()), nullptr, nullptr,
                          kOptions),
        xmlFreeDoc);
    if (!doc || !ctxt->wellFormed) {
        const xmlError* e = xmlCtxtGetLastError(ctxt.get());
        std::string why = e && e->message ? e->message : "not well-formed";
        while (!why.empty() && (why.back() == '\n' || why.back() == ' '))
            why.pop_back();
        const int line = e ? e->line : 0;
        throw TopologyError({}, line > 0 ? static_cast<std::size_t>(line) : 0,
                            "malformed XML (" + why + ")");
    }
    const xmlDtd* dtd = xmlGetIntSubset(doc.get());
    // An internal subset can declare entities (expansion bombs, external files); hwloc's
    // exports never have one.
    if (dtd && dtd->children)
        throw TopologyError({}, lineOf(text, text.find("<!DOCTYPE")),
                            "the DOCTYPE declares entities or elements; a topology XML has none");
    const xmlNode* root = xmlDocGetRootElement(doc.get());
    std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    if (dtd && dtd->name && dtd->SystemID) {
        out.append("<!DOCTYPE ").append(reinterpret_cast<const char*>(dtd->name));
        out.append(" SYSTEM \"");
        escapeInto(out, dtd->SystemID, true);
        out += "\">\n";
    }
    writeElement(out, root, 0);
    return out;
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
