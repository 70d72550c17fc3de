#include "topology/Topology.h"

#include <hwloc.h>
#include <hwloc/distances.h>
#include <hwloc/export.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <climits>
#include <cstring>
#include <optional>

#include "io/InputFile.h"
#include "topology/DistanceSpec.h"
#include "topology/TopologyXml.h"

namespace immap::topology {

namespace {

using Hw = std::shared_ptr<hwloc_topology>;

constexpr const char* kNoteInfo = "immap-lab";
constexpr const char* kLatencyName = "NUMALatency";  // what hwloc calls the SLIT matrix

Hw makeHw() {
    hwloc_topology_t t = nullptr;
    if (hwloc_topology_init(&t) != 0)
        throw TopologyError({}, std::string("hwloc_topology_init failed: ") + std::strerror(errno));
    return Hw(t, hwloc_topology_destroy);
}

void load(const Hw& hw, const char* what) {
    errno = 0;
    if (hwloc_topology_load(hw.get()) != 0)
        throw TopologyError({}, std::string(what) + " (" + std::strerror(errno) + ")");
}

// Large enough for any real machine's export (the 384-CPU sample is well under 1 MiB).
constexpr std::uint64_t kMaxXmlBytes = std::uint64_t{64} << 20;

std::string readFile(const std::string& path) {
    std::string text = io::InputFile::read<TopologyError>(path, kMaxXmlBytes, "a topology XML");
    if (text.empty()) throw TopologyError(path, "empty file");
    return text;
}

int logical(hwloc_obj_t o) {
    return o ? static_cast<int>(o->logical_index) : -1;
}

// A node's package: its ancestor, or else the one whose PUs contain the node's (hwloc may
// attach a node above the packages, e.g. one spanning them); -1 when neither.
int packageOf(hwloc_topology_t t, hwloc_obj_t node) {
    if (hwloc_obj_t p = hwloc_get_ancestor_obj_by_type(t, HWLOC_OBJ_PACKAGE, node))
        return logical(p);
    if (!node->cpuset || hwloc_bitmap_iszero(node->cpuset)) return -1;
    for (hwloc_obj_t p = nullptr; (p = hwloc_get_next_obj_by_type(t, HWLOC_OBJ_PACKAGE, p));)
        if (hwloc_bitmap_isincluded(node->cpuset, p->cpuset)) return logical(p);
    return -1;
}

// The one node a PU belongs to, as the kernel has one node per CPU: the first in logical order
// whose cpuset holds it, preferring plain DRAM nodes over ones hwloc gives a subtype (HBM, NVM,
// GPUMemory), which share their CPUs' locality but are not the CPUs' node.
int nodeOf(hwloc_topology_t t, hwloc_obj_t pu) {
    int fallback = -1;
    for (hwloc_obj_t n = nullptr; (n = hwloc_get_next_obj_by_type(t, HWLOC_OBJ_NUMANODE, n));) {
        if (!n->cpuset || !hwloc_bitmap_isset(n->cpuset, pu->os_index)) continue;
        if (!n->subtype) return logical(n);
        if (fallback < 0) fallback = logical(n);
    }
    return fallback;
}

std::vector<hwloc_obj_t> objects(hwloc_topology_t t, hwloc_obj_type_t type) {
    std::vector<hwloc_obj_t> out;
    for (hwloc_obj_t o = nullptr; (o = hwloc_get_next_obj_by_type(t, type, o));)
        out.push_back(o);
    return out;
}

void addDistances(hwloc_topology_t t, const DistanceSpec& spec) {
    std::vector<hwloc_obj_t> nodes = objects(t, HWLOC_OBJ_NUMANODE);
    std::vector<int> packages;
    for (hwloc_obj_t n : nodes)
        packages.push_back(packageOf(t, n));
    const auto m = spec.matrix(packages);  // validates even when there is one node
    if (nodes.size() < 2) return;          // hwloc stores no 1x1 matrix; [10] is the default
    std::vector<hwloc_uint64_t> values;
    for (const auto& row : m)
        values.insert(values.end(), row.begin(), row.end());
    // FROM_USER: these are the spec's numbers, not the firmware's; exported to XML with the name.
    hwloc_distances_add_handle_t h = hwloc_distances_add_create(
        t, kLatencyName, HWLOC_DISTANCES_KIND_FROM_USER | HWLOC_DISTANCES_KIND_MEANS_LATENCY, 0);
    if (!h ||
        hwloc_distances_add_values(t, h, static_cast<unsigned>(nodes.size()), nodes.data(),
                                   values.data(), 0) != 0 ||
        hwloc_distances_add_commit(t, h, 0) != 0)
        throw TopologyError(
            {}, std::string("hwloc did not accept the distances (") + std::strerror(errno) + ")");
}

struct SyntheticSpec {
    std::string description;
    std::optional<DistanceSpec> distances;
    std::optional<std::string> note;
};

SyntheticSpec parseSynthetic(std::string_view rest) {
    SyntheticSpec s;
    const std::size_t semi = rest.find(';');
    s.description = std::string(rest.substr(0, semi));
    if (s.description.find_first_not_of(" \t") == std::string::npos)
        throw TopologyError({},
                            "synthetic: needs an hwloc description, e.g. "
                            "'synthetic:package:2 numa:6 core:16 pu:2'");
    std::string_view opts = semi == std::string_view::npos ? "" : rest.substr(semi + 1);
    while (semi != std::string_view::npos) {
        const std::size_t next = opts.find(';');
        const std::string_view opt = opts.substr(0, next);
        if (opt.starts_with("distances=")) {
            if (s.distances) throw TopologyError({}, "distances= given twice");
            s.distances = DistanceSpec::parse(opt.substr(10));
        } else if (opt.starts_with("note=")) {
            if (s.note) throw TopologyError({}, "note= given twice");
            s.note = std::string(opt.substr(5));
        } else {
            throw TopologyError(
                {}, "unknown option '" + std::string(opt) + "' (expected distances= or note=)");
        }
        if (next == std::string_view::npos) break;
        opts.remove_prefix(next + 1);
    }
    return s;
}

// hwloc's synthetic loader slows down quadratically with a level's width (64 Ki PUs take
// minutes), so descriptions beyond Linux's largest NR_CPUS (8192, x86-64 MAXSMP) are refused
// first. This only multiplies the level counts for a bound; hwloc does the real parsing.
constexpr unsigned long kMaxSyntheticPus = 8192;
// The widest level refused too: one of 7,777 children took 9 s to load (found by fuzzing);
// at 1,024 the slowest 8,192-PU shape loads in under 2 s.
constexpr unsigned long kMaxSyntheticWidth = 1024;

// The PU count bound, and the widest level's count in `widest`.
unsigned long syntheticPuBound(std::string_view desc, unsigned long& widest) {
    widest = 0;
    unsigned long product = 1;
    int nesting = 0;  // inside "(attributes)" or "[memory children]"
    std::string token;
    auto flush = [&] {
        if (token.empty()) return;
        // Only TYPE:COUNT or COUNT, so that the bound reads the levels as hwloc will: hwloc
        // also splits a level at the end of its number ("nu2?oru:51pu:510" is 26,010 PUs to
        // it, and took 9 s: found by fuzz_topology_spec), which a bound on spaces missed.
        const std::size_t colon = token.rfind(':');
        const bool typed = colon != std::string::npos && colon > 0 &&
                           std::isalpha(static_cast<unsigned char>(token[0])) &&
                           std::all_of(token.begin(), token.begin() + long(colon), [](char c) {
                               return std::isalnum(static_cast<unsigned char>(c));
                           });
        const std::size_t digits = colon == std::string::npos ? 0 : colon + 1;
        if ((colon != std::string::npos && !typed) || digits == token.size() ||
            !std::all_of(token.begin() + long(digits), token.end(),
                         [](char c) { return c >= '0' && c <= '9'; }))
            throw TopologyError({}, "'" + token +
                                        "' in the synthetic description is not TYPE:COUNT or "
                                        "COUNT (hwloc's synthetic syntax, e.g. 'core:16')");
        const std::string_view count =
            std::string_view(token).substr(colon == std::string::npos ? 0 : colon + 1);
        unsigned long n = 0;
        const auto [end, ec] = std::from_chars(count.data(), count.data() + count.size(), n);
        if (!count.empty() && ec == std::errc() && end == count.data() + count.size() && n > 0) {
            widest = std::max(widest, n);
            product = n > kMaxSyntheticPus ? kMaxSyntheticPus + 1
                                           : std::min(product * n, kMaxSyntheticPus + 1);
        }
        token.clear();
    };
    for (const char c : desc) {
        if (c == '(' || c == '[')
            ++nesting;
        else if ((c == ')' || c == ']') && nesting > 0)
            --nesting;
        else if (nesting == 0 && (c == ' ' || c == '\t'))
            flush();
        else if (nesting == 0)
            token += c;
    }
    flush();
    return product;
}

Hw loadSynthetic(std::string_view rest) {
    const SyntheticSpec s = parseSynthetic(rest);
    // hwloc reads the description up to a NUL; the bounds below must see what hwloc sees.
    if (s.description.find('\0') != std::string::npos)
        throw TopologyError({}, "the synthetic description contains a NUL byte");
    unsigned long widest = 0;
    if (syntheticPuBound(s.description, widest) > kMaxSyntheticPus)
        throw TopologyError({}, "'" + s.description + "' describes more than " +
                                    std::to_string(kMaxSyntheticPus) +
                                    " PUs, more than Linux supports (NR_CPUS)");
    if (widest > kMaxSyntheticWidth)
        throw TopologyError({}, "'" + s.description + "' has a level of " + std::to_string(widest) +
                                    " children; at most " + std::to_string(kMaxSyntheticWidth) +
                                    " are accepted");
    Hw hw = makeHw();
    // hwloc explains a bad description only with HWLOC_SYNTHETIC_VERBOSE=1 in the environment.
    if (hwloc_topology_set_synthetic(hw.get(), s.description.c_str()) != 0)
        throw TopologyError({}, "hwloc rejected the synthetic description '" + s.description +
                                    "' (HWLOC_SYNTHETIC_VERBOSE=1 makes hwloc say why)");
    load(hw, "hwloc could not build the synthetic topology");
    if (s.note && hwloc_obj_add_info(hwloc_get_root_obj(hw.get()), kNoteInfo, s.note->c_str()))
        throw TopologyError({}, "hwloc did not accept the note");
    if (s.distances) addDistances(hw.get(), *s.distances);
    return hw;
}

// hwloc 2.9 (Debian 12) dereferences complete_cpuset / complete_nodeset of an object that has a
// cpuset / nodeset without them and crashes (fixed upstream after 2.9). Its exporter always
// writes them together, so an <object> lacking one is refused before hwloc sees it.
void refuseObjectsHwlocCrashesOn(const std::string& text) {
    auto has = [](std::string_view tag, std::string_view attr) {
        for (std::size_t at = tag.find(attr); at != std::string_view::npos;
             at = tag.find(attr, at + 1)) {
            const char before = tag[at - 1];  // tags start with "<object", so at > 0
            const std::size_t after = at + attr.size();
            if ((before == ' ' || before == '\t' || before == '\n' || before == '\r') &&
                after < tag.size() && (tag[after] == '=' || tag[after] == ' '))
                return true;
        }
        return false;
    };
    std::size_t count = 0;
    for (std::size_t at = text.find("<object"); at != std::string::npos;
         at = text.find("<object", at + 1)) {
        ++count;
        const std::size_t end = text.find('>', at);
        const std::string_view tag(text.data() + at,
                                   (end == std::string::npos ? text.size() : end) - at);
        for (const auto& [set, complete] :
             {std::pair{"cpuset", "complete_cpuset"}, std::pair{"nodeset", "complete_nodeset"}})
            if (has(tag, set) && !has(tag, complete))
                throw TopologyError({}, "object " + std::to_string(count) + " has a " + set +
                                            " but no " + complete);
    }
}

// Linux numbers CPUs below NR_CPUS (8192 at most, x86-64 MAXSMP) and nodes below MAX_NUMNODES
// (1024: NODES_SHIFT is at most 10). An XML may name any index and hwloc keeps it; its bitmaps
// then grow with it (an allowed_cpuset bit past 2^32 made `topology show --xml` write 134 MB in
// 52 s: found by fuzz_topology_xml). So no set and no OS index may reach past those.
constexpr int kMaxCpus = 8192;
constexpr int kMaxNodes = 1024;

void refuseIndexesLinuxCannotHave(hwloc_topology_t t) {
    auto check = [](hwloc_const_bitmap_t set, int limit, const std::string& what) {
        if (!set) return;
        const int weight = hwloc_bitmap_weight(set);
        if (weight == 0) return;
        // hwloc_bitmap_last() is an int: an index past INT_MAX comes back as -1 (a fuzzed
        // complete_cpuset with bit 2^32-1 did), and an infinite set has weight -1.
        const int last = hwloc_bitmap_last(set);
        if (weight > 0 && last >= 0 && last < limit) return;
        throw TopologyError({}, what + " reaches " +
                                    (weight < 0 ? std::string("infinity")
                                     : last < 0 ? std::string("past index 2^31")
                                                : "index " + std::to_string(last)) +
                                    "; Linux numbers " +
                                    (limit == kMaxCpus ? "CPUs below 8192 (NR_CPUS)"
                                                       : "NUMA nodes below 1024 (MAX_NUMNODES)"));
    };
    check(hwloc_topology_get_allowed_cpuset(t), kMaxCpus, "the allowed cpuset");
    check(hwloc_topology_get_allowed_nodeset(t), kMaxNodes, "the allowed nodeset");
    std::vector<int> depths;
    for (int d = 0; d < hwloc_topology_get_depth(t); ++d)
        depths.push_back(d);
    depths.push_back(HWLOC_TYPE_DEPTH_NUMANODE);
    for (int d : depths) {
        for (hwloc_obj_t o = nullptr; (o = hwloc_get_next_obj_by_depth(t, d, o));) {
            const std::string name = std::string(hwloc_obj_type_string(o->type)) + " L#" +
                                     std::to_string(o->logical_index);
            check(o->cpuset, kMaxCpus, name + "'s cpuset");
            check(o->complete_cpuset, kMaxCpus, name + "'s complete cpuset");
            check(o->nodeset, kMaxNodes, name + "'s nodeset");
            check(o->complete_nodeset, kMaxNodes, name + "'s complete nodeset");
            if (o->type == HWLOC_OBJ_PU && o->os_index >= unsigned(kMaxCpus))
                throw TopologyError({}, name + " has OS index " + std::to_string(o->os_index) +
                                            "; Linux numbers CPUs below 8192 (NR_CPUS)");
            if (o->type == HWLOC_OBJ_NUMANODE && o->os_index >= unsigned(kMaxNodes))
                throw TopologyError({}, name + " has OS index " + std::to_string(o->os_index) +
                                            "; Linux numbers NUMA nodes below 1024 "
                                            "(MAX_NUMNODES)");
        }
    }
}

Hw loadXml(const std::string& text) {
    if (text.empty()) throw TopologyError({}, "empty XML");
    if (text.size() >= INT_MAX) throw TopologyError({}, "too large for an hwloc XML buffer");
    const std::string xml = canonicalTopologyXml(text);
    if (xml.size() >= INT_MAX) throw TopologyError({}, "too large for an hwloc XML buffer");
    refuseObjectsHwlocCrashesOn(xml);
    Hw hw = makeHw();
    // Files are read into memory first so that open errors are ours and precise; hwloc reads
    // libxml2's rewrite of them (TopologyXml.h). Its two importers fail at different steps and set
    // errno differently, so a failure at either step gets the one message, without errno.
    constexpr const char* kNotHwloc =
        "well-formed XML, but hwloc could not build a topology from it (not an lstopo/hwloc "
        "export?; HWLOC_XML_VERBOSE=1 makes hwloc say why)";
    if (hwloc_topology_set_xmlbuffer(hw.get(), xml.c_str(), static_cast<int>(xml.size() + 1)) ||
        hwloc_topology_load(hw.get()) != 0)
        throw TopologyError({}, kNotHwloc);
    refuseIndexesLinuxCannotHave(hw.get());
    return hw;
}

}  // namespace

Topology Topology::fromSpec(std::string_view spec) {
    Topology topo;
    topo.spec_ = std::string(spec);
    std::string where = "topology spec '" + topo.spec_ + "'";
    try {
        Hw hw;
        if (spec == "host") {
            hw = makeHw();
            load(hw, "hwloc could not read this machine's topology");
        } else if (spec.starts_with("xml:")) {
            if (spec.size() == 4) throw TopologyError({}, "xml: needs a FILE");
            where = std::string(spec.substr(4));
            hw = loadXml(readFile(where));
        } else if (spec.starts_with("synthetic:")) {
            hw = loadSynthetic(spec.substr(10));
        } else {
            throw TopologyError({}, "expected host, xml:FILE or synthetic:DESC");
        }
        topo.hw_ = std::move(hw);
        topo.readFrom(topo.hw_.get());
    } catch (const TopologyError& e) {
        if (!e.where().empty()) throw;
        throw TopologyError(where, e.line(), e.reason());
    }
    return topo;
}

Topology Topology::fromXmlString(const std::string& xml, const std::string& name) {
    Topology topo;
    topo.spec_ = "xml:" + name;
    try {
        topo.hw_ = loadXml(xml);
        topo.readFrom(topo.hw_.get());
    } catch (const TopologyError& e) {
        throw TopologyError(name, e.line(), e.reason());
    }
    return topo;
}

void Topology::readFrom(hwloc_topology* t) {
    if (const char* note = hwloc_obj_get_info_by_name(hwloc_get_root_obj(t), kNoteInfo))
        note_ = note;

    for (hwloc_obj_t o : objects(t, HWLOC_OBJ_PACKAGE))
        packages_.push_back({o->logical_index, o->os_index, {}});
    for (hwloc_obj_t o : objects(t, HWLOC_OBJ_CORE))
        cores_.push_back({o->logical_index, o->os_index, {}});
    for (hwloc_obj_t o : objects(t, HWLOC_OBJ_L3CACHE))
        l3_.push_back({o->logical_index, o->os_index, o->attr->cache.size, {}, {}});
    const std::vector<hwloc_obj_t> numa = objects(t, HWLOC_OBJ_NUMANODE);
    for (hwloc_obj_t o : numa)
        nodes_.push_back(
            {o->logical_index, o->os_index, packageOf(t, o), o->attr->numanode.local_memory, {}});
    if (nodes_.empty()) {
        // hwloc 2 always makes one, but a machine without NUMA is one node holding everything.
        hwloc_obj_t root = hwloc_get_root_obj(t);
        nodes_.push_back({0, 0, packages_.size() == 1 ? 0 : -1, root->total_memory, {}});
    }

    for (hwloc_obj_t o : objects(t, HWLOC_OBJ_PU)) {
        Pu pu{o->logical_index,
              o->os_index,
              logical(hwloc_get_ancestor_obj_by_type(t, HWLOC_OBJ_CORE, o)),
              logical(hwloc_get_ancestor_obj_by_type(t, HWLOC_OBJ_L3CACHE, o)),
              numa.empty() ? 0 : nodeOf(t, o),
              logical(hwloc_get_ancestor_obj_by_type(t, HWLOC_OBJ_PACKAGE, o))};
        puByOs_[pu.osIndex] = pus_.size();
        pus_.push_back(pu);
        if (pu.core >= 0) cores_[pu.core].pus.push_back(pu.osIndex);
        if (pu.l3 >= 0) {
            l3_[pu.l3].pus.push_back(pu.osIndex);
            if (pu.core >= 0) l3_[pu.l3].cores.push_back(static_cast<unsigned>(pu.core));
        }
        if (pu.node >= 0) nodes_[pu.node].pus.push_back(pu.osIndex);
        if (pu.package >= 0) packages_[pu.package].pus.push_back(pu.osIndex);
    }
    if (pus_.empty()) throw TopologyError({}, "the topology has no PUs");
    auto tidy = [](std::vector<unsigned>& v) {
        std::sort(v.begin(), v.end());
        v.erase(std::unique(v.begin(), v.end()), v.end());
    };
    for (auto& o : packages_)
        tidy(o.pus);
    for (auto& o : nodes_)
        tidy(o.pus);
    for (auto& o : cores_)
        tidy(o.pus);
    for (auto& o : l3_) {
        tidy(o.pus);
        tidy(o.cores);
    }

    const std::size_t n = nodes_.size();
    distances_.assign(n, std::vector<unsigned>(n, kRemoteDistance));
    for (std::size_t i = 0; i < n; ++i)
        distances_[i][i] = kLocalDistance;
    distancesDefault_ = true;
    if (numa.size() < 2) return;
    // Prefer the SLIT ("NUMALatency") over any other latency matrix hwloc may hold.
    hwloc_distances_s* found[16];
    unsigned nr = 16;
    if (hwloc_distances_get_by_type(t, HWLOC_OBJ_NUMANODE, &nr, found,
                                    HWLOC_DISTANCES_KIND_MEANS_LATENCY, 0) != 0)
        return;
    nr = std::min(nr, 16u);
    hwloc_distances_s* pick = nr ? found[0] : nullptr;
    for (unsigned k = 0; k < nr; ++k) {
        const char* name = hwloc_distances_get_name(t, found[k]);
        if (name && std::strcmp(name, kLatencyName) == 0) {
            pick = found[k];
            break;
        }
    }
    if (pick) {
        // A matrix may cover only some nodes; the rest keep the kernel default.
        const unsigned m = pick->nbobjs;
        for (unsigned a = 0; a < m; ++a)
            for (unsigned b = 0; b < m; ++b) {
                const unsigned i = pick->objs[a]->logical_index, j = pick->objs[b]->logical_index;
                if (i < n && j < n)
                    distances_[i][j] = static_cast<unsigned>(pick->values[a * m + b]);
            }
        distancesDefault_ = false;
    }
    for (unsigned k = 0; k < nr; ++k)
        hwloc_distances_release(t, found[k]);
}

int Topology::nodeOfPu(unsigned puOsIndex) const {
    const Pu* pu = puByOsIndex(puOsIndex);
    return pu ? pu->node : -1;
}

const Pu* Topology::puByOsIndex(unsigned puOsIndex) const {
    const auto it = puByOs_.find(puOsIndex);
    return it == puByOs_.end() ? nullptr : &pus_[it->second];
}

std::string Topology::toXml() const {
    char* buf = nullptr;
    int len = 0;
    if (!hw_ || hwloc_topology_export_xmlbuffer(hw_.get(), &buf, &len, 0) != 0 || !buf)
        throw TopologyError("topology spec '" + spec_ + "'", "hwloc could not export it as XML");
    std::string xml(buf, len > 0 ? static_cast<std::size_t>(len) - 1 : 0);  // len counts the NUL
    hwloc_free_xmlbuffer(hw_.get(), buf);
    return xml;
}

namespace {

std::string indexes(const std::vector<unsigned>& v) {
    std::string s;
    for (unsigned i : v) {
        if (!s.empty()) s += ',';
        s += std::to_string(i);
    }
    return s;
}

}  // namespace

std::string Topology::canonicalText() const {
    std::string s = "immap-topology 1\n";
    auto os = [](unsigned i) { return i == kUnknownIndex ? std::string("-") : std::to_string(i); };
    for (const Package& p : packages_)
        s += "package L" + std::to_string(p.logicalIndex) + " P" + os(p.osIndex) + " pus " +
             indexes(p.pus) + "\n";
    for (const NumaNode& n : nodes_)
        s += "node L" + std::to_string(n.logicalIndex) + " P" + os(n.osIndex) + " package " +
             std::to_string(n.package) + " memory " + std::to_string(n.memoryBytes) + " pus " +
             indexes(n.pus) + "\n";
    for (const L3Cache& c : l3_)
        s += "l3 L" + std::to_string(c.logicalIndex) + " P" + os(c.osIndex) + " size " +
             std::to_string(c.sizeBytes) + " cores " + indexes(c.cores) + " pus " + indexes(c.pus) +
             "\n";
    for (const Core& c : cores_)
        s += "core L" + std::to_string(c.logicalIndex) + " P" + os(c.osIndex) + " pus " +
             indexes(c.pus) + "\n";
    for (const Pu& p : pus_)
        s += "pu L" + std::to_string(p.logicalIndex) + " P" + os(p.osIndex) + " core " +
             std::to_string(p.core) + " l3 " + std::to_string(p.l3) + " node " +
             std::to_string(p.node) + " package " + std::to_string(p.package) + "\n";
    s += distancesDefault_ ? "distances default\n" : "distances\n";
    for (const auto& row : distances_)
        s += indexes(row) + "\n";
    return s;
}

}  // namespace immap::topology
