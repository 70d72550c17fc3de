// Hosts into i_mmap contents: the captured host, synthetic hosts, the evidence for each VMA's
// home node, the trees under each policy, their memory cost, and DOT export.
#include <QTest>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/graphviz.hpp>
#include <set>

#include "Suites.h"
#include "itree/InvariantChecker.h"
#include "mapping/FileMapping.h"
#include "mapping/HostLoader.h"
#include "mapping/TreeDot.h"
#include "procfs/ParseError.h"
#include "synth/SyntheticHost.h"

using namespace immap;
using namespace immap::mapping;

namespace {

const std::string kHost = "snapshot:" IMMAP_SAMPLES "/snapshots/host250";
const std::string kNuma12 = "xml:" IMMAP_SAMPLES "/topologies/numa12-384cpu.xml";

procfs::MapsEntry fileVma(std::uint64_t start, std::uint64_t pages, std::uint64_t inode) {
    procfs::MapsEntry e;
    e.start = start;
    e.end = start + pages * procfs::kPageSize;
    e.read = true;
    e.inode = inode;
    e.devMajor = 8;
    e.path = procfs::Path("/lib/f" + std::to_string(inode));
    e.kind = procfs::MapsEntry::Kind::File;
    return e;
}

}  // namespace

class TestHostMappings : public QObject {
    Q_OBJECT

private slots:
    void capturedHostLibcAndLd() {
        const LoadedHost h = HostLoader::load(kHost);
        QCOMPARE(h.topologyOrigin, std::string("the snapshot's topology.xml"));
        QCOMPARE(h.topology->nodeCount(), std::size_t{1});
        for (const char* name : {"libc.so.6", "ld-linux-x86-64.so.2"}) {
            const MappedFile* f = h.mappings.findFile(name);
            QVERIFY2(f, name);
            QCOMPARE(f->vmas.size(), std::size_t{1250});
            QCOMPARE(f->processes, std::size_t{250});
            QCOMPARE(f->device(), std::string("fe:00"));
            std::set<std::int64_t> pids;
            for (const Vma& v : f->vmas) {
                pids.insert(v.pid);
                QCOMPARE(v.homeNode, 0);
            }
            QCOMPARE(pids.size(), std::size_t{250});
        }
        // libc and ld are the most mapped files; files are sorted by VMA count.
        const auto& files = h.mappings.files();
        for (std::size_t i = 1; i < files.size(); ++i)
            QVERIFY(files[i - 1].vmas.size() >= files[i].vmas.size());
        QCOMPARE(files.front().vmas.size(), std::size_t{1250});
        // The capture has numa_maps: resident VMAs are homed by page counts.
        const MappedFile* libc = h.mappings.findFile("libc.so.6");
        QVERIFY(std::all_of(libc->vmas.begin(), libc->vmas.end(),
                            [](const Vma& v) { return v.evidence == Evidence::NumaMaps; }));
        // libc's r-xp segment: pgoff 0x26, 0x156 pages.
        QVERIFY(std::any_of(libc->vmas.begin(), libc->vmas.end(), [](const Vma& v) {
            return v.pgoff == 0x26 && v.last() == 0x26 + 0x156 - 1 &&
                   std::string(v.perms) == "r-xp";
        }));
    }

    void syntheticHostHasFiveVmasPerProcessPerLibrary() {
        const LoadedHost h =
            HostLoader::load("synthetic:libc?processes=1200&nodes=12&seed=3", kNuma12);
        QCOMPARE(h.topology->nodeCount(), std::size_t{12});
        for (const char* name : {"libc.so.6", "ld-linux-x86-64.so.2"}) {
            const MappedFile* f = h.mappings.findFile(name);
            QVERIFY(f);
            QCOMPARE(f->vmas.size(), std::size_t{1200 * 5});
            QCOMPARE(f->processes, std::size_t{1200});
            // Copies spread evenly: 100 processes, 500 VMAs on each node, homed by their CPU.
            std::map<int, int> perNode;
            for (const Vma& v : f->vmas) {
                ++perNode[v.homeNode];
                QCOMPARE(v.evidence, Evidence::LastCpu);
                QCOMPARE(h.topology->nodeOfPu(static_cast<unsigned>(v.cpu)), v.homeNode);
            }
            QCOMPARE(perNode.size(), std::size_t{12});
            for (const auto& [node, n] : perNode)
                QCOMPARE(n, 500);
        }
    }

    void syntheticSpecErrors_data() {
        QTest::addColumn<QString>("spec");
        QTest::newRow("kind") << "synthetic:glibc";
        QTest::newRow("key") << "synthetic:libc?cpus=4";
        QTest::newRow("number") << "synthetic:libc?processes=lots";
        QTest::newRow("zero") << "synthetic:libc?processes=0";
        QTest::newRow("pair") << "synthetic:libc?processes";
        QTest::newRow("unknown source") << "procfs:/proc";
    }
    void syntheticSpecErrors() {
        QFETCH(QString, spec);
        QVERIFY_THROWS_EXCEPTION(procfs::ParseError, HostLoader::load(spec.toStdString()));
    }

    void nodesMustMatchTheTopology() {
        QVERIFY_THROWS_EXCEPTION(procfs::ParseError,
                                 HostLoader::load("synthetic:libc?processes=10&nodes=4", kNuma12));
    }

    // Evidence best first, each kind exercised on a hand-made two-node host.
    void evidenceOrder() {
        const auto topo = topology::Topology::fromSpec("synthetic:numa:2 core:2 pu:1");
        procfs::Snapshot s;
        s.processes.reserve(8);  // proc() hands out references into the vector
        auto proc = [&](std::int64_t pid) -> procfs::ProcessSnapshot& {
            s.processes.push_back({});
            s.processes.back().pid = pid;
            s.processes.back().maps.push_back(fileVma(0x1000, 4, 77));
            return s.processes.back();
        };
        procfs::ProcessSnapshot& a = proc(1);  // numa_maps says node 1, stat says CPU 0 (node 0)
        procfs::NumaMapsEntry n;
        n.start = 0x1000;
        n.nodePages = {{0, 1}, {1, 3}};
        a.numaMaps.push_back(n);
        a.stat = procfs::ProcStat{1, "a", 'S', 0};
        procfs::ProcessSnapshot& b = proc(2);  // stat: CPU 3 -> node 1
        b.stat = procfs::ProcStat{2, "b", 'S', 3};
        procfs::ProcessSnapshot& c = proc(3);  // only Mems_allowed 1
        c.status = procfs::ProcStatus{"c", 3, {0, 1, 2, 3}, {1}};
        proc(4);  // nothing: round-robin by process index 3 -> node 1
        proc(5);  // index 4 -> node 0
        const HostMappings m = HostMappings::build(s, topo);
        const MappedFile& f = m.files().front();
        QCOMPARE(f.vmas.size(), std::size_t{5});
        const Evidence want[] = {Evidence::NumaMaps, Evidence::LastCpu, Evidence::MemsAllowed,
                                 Evidence::RoundRobin, Evidence::RoundRobin};
        const int node[] = {1, 1, 1, 1, 0};
        for (int i = 0; i < 5; ++i) {
            QCOMPARE(f.vmas[i].evidence, want[i]);
            QCOMPARE(f.vmas[i].homeNode, node[i]);
        }
    }

    void splitTreesHoldEachNodesVmas() {
        const LoadedHost h = HostLoader::load("synthetic:libc?processes=1200&seed=1", kNuma12);
        const MappedFile& libc = *h.mappings.findFile("libc.so.6");
        const FileMapping single(libc, *h.topology, Policy{});
        QCOMPARE(single.treeCount(), std::size_t{1});
        QCOMPARE(single.tree(0).size(), std::size_t{6000});
        QVERIFY(itree::InvariantChecker::check(single.tree(0)).ok);
        for (auto kind : {Policy::Kind::SplitTrees, Policy::Kind::SplitLocks}) {
            const FileMapping split(libc, *h.topology, Policy{kind, 0});
            QCOMPARE(split.treeCount(), std::size_t{12});
            std::size_t total = 0;
            for (std::size_t t = 0; t < 12; ++t) {
                const auto& tree = split.tree(t);
                QVERIFY(itree::InvariantChecker::check(tree).ok);
                total += tree.size();
                for (auto* n = tree.leftmost(); n; n = itree::IntervalTree::next(n))
                    QCOMPARE(static_cast<std::size_t>(FileMapping::vmaOf(n).homeNode), t);
                QVERIFY(split.stats(t).height < single.stats(0).height);
            }
            QCOMPARE(total, std::size_t{6000});
        }
        const FileMapping sharded(libc, *h.topology, Policy{Policy::Kind::Sharded, 32});
        QCOMPARE(sharded.treeCount(), std::size_t{12});  // 384 CPUs / 32
    }

    // Overlap queries agree across policies: the same VMAs map a page, whichever trees hold them.
    void everyPolicyFindsTheSameVmas() {
        const LoadedHost h = HostLoader::load("synthetic:libc?processes=300&seed=2", kNuma12);
        const MappedFile& libc = *h.mappings.findFile("libc.so.6");
        for (itree::Index page : {0x0, 0x25, 0x26, 0x100, 0x1d4, 0x1d5}) {
            std::size_t expected = 0;
            for (const Vma& v : libc.vmas)
                expected += v.first() <= page && page <= v.last();
            for (const char* p : {"single", "split-trees", "split-locks", "sharded:16"}) {
                Policy policy;
                std::string err;
                QVERIFY(Policy::parse(p, policy, err));
                const FileMapping m(libc, *h.topology, policy);
                std::size_t found = 0;
                for (std::size_t t = 0; t < m.treeCount(); ++t)
                    for (auto* n = m.tree(t).iterFirst(page, page); n;
                         n = itree::IntervalTree::iterNext(n, page, page))
                        ++found;
                QCOMPARE(found, expected);
            }
        }
    }

    void memoryPerInode() {
        // The proposal thread's estimates: about 0.3 KB (v1) and 0.9 KB (v2) at 12 nodes.
        QCOMPARE(Policy{}.memoryPerInodeBytes(1), std::size_t{0});
        QCOMPARE((Policy{Policy::Kind::SplitTrees, 0}.memoryPerInodeBytes(12)),
                 std::size_t{12 * 16 + 13 * 8});
        QCOMPARE((Policy{Policy::Kind::SplitLocks, 0}.memoryPerInodeBytes(12)),
                 std::size_t{12 * 64 + 13 * 8});
        // v2 on a non-NUMA 384-CPU build: 384 trees, about 25 KB + a 3 KB array.
        QCOMPARE((Policy{Policy::Kind::SplitLocks, 0}.memoryPerInodeBytes(384)),
                 std::size_t{384 * 64 + 385 * 8});
    }

    void policyNames() {
        Policy p;
        std::string e;
        QVERIFY(Policy::parse("sharded:32", p, e));
        QCOMPARE(p.name(), std::string("sharded:32"));
        QVERIFY(!Policy::parse("sharded:0", p, e));
        QVERIFY(!Policy::parse("split", p, e));
        QVERIFY2(e.find("unknown policy") != std::string::npos, e.c_str());
    }

    // The DOT parses back with Boost's reader: one vertex per VMA plus one per tree, one edge
    // into every VMA, and the colours of the tree.
    void dotParsesBack() {
        const LoadedHost h = HostLoader::load("synthetic:libc?processes=40&seed=5", kNuma12);
        const MappedFile& libc = *h.mappings.findFile("libc.so.6");
        const FileMapping m(libc, *h.topology, Policy{Policy::Kind::SplitTrees, 0});
        const std::string dot = TreeDot::write(m);
        using G = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS,
                                        boost::property<boost::vertex_name_t, std::string>>;
        G g;
        boost::dynamic_properties dp(boost::ignore_other_properties);
        dp.property("node_id", boost::get(boost::vertex_name, g));
        QVERIFY(boost::read_graphviz(dot, g, dp));
        QCOMPARE(boost::num_vertices(g), libc.vmas.size() + m.treeCount());
        QCOMPARE(boost::num_edges(g), libc.vmas.size());
        std::size_t red = 0;
        for (std::size_t t = 0; t < m.treeCount(); ++t)
            for (auto* n = m.tree(t).leftmost(); n; n = itree::IntervalTree::next(n))
                red += n->isRed();
        std::size_t redInDot = 0;
        for (std::size_t at = dot.find("fillcolor=red"); at != std::string::npos;
             at = dot.find("fillcolor=red", at + 1))
            ++redInDot;
        QCOMPARE(redInDot, red);
    }
};

IMMAP_TEST_SUITE(TestHostMappings);
#include "TestHostMappings.moc"
