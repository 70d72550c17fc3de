// Topology read through hwloc: synthetic shapes (every expectation computed from the shape, not
// read back from hwloc), distances in both spellings, the shipped samples, this host, and the
// XML export loading back to the same machine.
#include <sched.h>

#include <QTemporaryDir>
#include <QTest>
#include <fstream>
#include <optional>
#include <thread>

#include "Suites.h"
#include "topology/Topology.h"

using namespace immap::topology;

namespace {

const std::string kSamples = IMMAP_SAMPLES "/topologies/";
const std::string kHygon = "synthetic:package:2 numa:6 core:16 pu:2";

// 10 on the diagonal, SAME within a package of PER nodes, REMOTE across.
std::vector<std::vector<unsigned>> shaped(std::size_t n, std::size_t per, unsigned same,
                                          unsigned remote) {
    std::vector<std::vector<unsigned>> m(n, std::vector<unsigned>(n));
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j)
            m[i][j] = i == j ? 10 : i / per == j / per ? same : remote;
    return m;
}

std::vector<unsigned> range(unsigned first, unsigned count) {
    std::vector<unsigned> v(count);
    for (unsigned i = 0; i < count; ++i)
        v[i] = first + i;
    return v;
}

// The Hygon-shaped machine: 2 packages x 6 nodes x 16 cores x 2 PUs, OS index = logical.
void checkHygonShape(const Topology& t) {
    QCOMPARE(t.packages().size(), std::size_t(2));
    QCOMPARE(t.nodeCount(), std::size_t(12));
    QCOMPARE(t.cores().size(), std::size_t(192));
    QCOMPARE(t.pus().size(), std::size_t(384));
    for (unsigned i = 0; i < 12; ++i) {
        const NumaNode& n = t.nodes()[i];
        QCOMPARE(n.logicalIndex, i);
        QCOMPARE(n.osIndex, i);
        QCOMPARE(n.package, int(i / 6));
        QVERIFY(n.memoryBytes > 0);
        QCOMPARE(n.pus, range(32 * i, 32));
    }
    for (unsigned p = 0; p < 2; ++p)
        QCOMPARE(t.packages()[p].pus, range(192 * p, 192));
    for (unsigned pu : {0u, 1u, 31u, 32u, 63u, 100u, 191u, 192u, 250u, 383u}) {
        QCOMPARE(t.nodeOfPu(pu), int(pu / 32));
        const Pu* p = t.puByOsIndex(pu);
        QVERIFY(p);
        QCOMPARE(p->core, int(pu / 2));
        QCOMPARE(p->package, int(pu / 192));
        QCOMPARE(p->l3, -1);
        QCOMPARE(t.cores()[pu / 2].pus, range(pu / 2 * 2, 2));
    }
    QCOMPARE(t.nodeOfPu(384), -1);
    QVERIFY(t.l3Caches().empty());
}

std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

std::size_t allowedCpus() {
    cpu_set_t set;
    CPU_ZERO(&set);
    return sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 0;
}

}  // namespace

class TestTopology : public QObject {
    Q_OBJECT

private slots:
    void syntheticWithoutDistancesUsesKernelDefault() {
        const Topology t = Topology::fromSpec(kHygon);
        checkHygonShape(t);
        QCOMPARE(t.spec(), kHygon);
        QVERIFY(t.distancesAreDefault());
        QCOMPARE(t.distances(), shaped(12, 1, 20, 20));
        QVERIFY(t.note().empty());
    }

    void shorthandDistancesFollowPackages() {
        const Topology t = Topology::fromSpec(kHygon + ";distances=10:12:32");
        checkHygonShape(t);
        QVERIFY(!t.distancesAreDefault());
        QCOMPARE(t.distances(), shaped(12, 6, 12, 32));
    }

    void fullMatrixIsRowMajorAndMayBeAsymmetric() {
        const Topology t = Topology::fromSpec(
            "synthetic:package:2 numa:2 core:2 pu:1;"
            "distances=10,11,21,22, 12,10,23,24, 31,33,10,25, 32,34,26,10");
        QCOMPARE(t.nodeCount(), std::size_t(4));
        const std::vector<std::vector<unsigned>> want{
            {10, 11, 21, 22}, {12, 10, 23, 24}, {31, 33, 10, 25}, {32, 34, 26, 10}};
        QCOMPARE(t.distances(), want);
        QVERIFY(!t.distancesAreDefault());
        QCOMPARE(t.nodes()[3].pus, range(6, 2));
        QCOMPARE(t.nodeOfPu(5), 2);
    }

    void l3CachesGroupCores() {
        // No numa level: hwloc 2 still makes one node holding every PU.
        const Topology t = Topology::fromSpec("synthetic:package:2 l3:2 core:4 pu:2");
        QCOMPARE(t.nodeCount(), std::size_t(1));
        QCOMPARE(t.nodes()[0].pus, range(0, 32));
        QCOMPARE(t.distances(), shaped(1, 1, 0, 0));
        QVERIFY(t.distancesAreDefault());
        QCOMPARE(t.l3Caches().size(), std::size_t(4));
        for (unsigned c = 0; c < 4; ++c) {
            QCOMPARE(t.l3Caches()[c].cores, range(4 * c, 4));
            QCOMPARE(t.l3Caches()[c].pus, range(8 * c, 8));
        }
        for (const Pu& p : t.pus()) {
            QCOMPARE(p.l3, int(p.osIndex / 8));
            QCOMPARE(p.node, 0);
        }
    }

    void oneNodeAcceptsTheOneByOneMatrix() {
        const Topology t = Topology::fromSpec("synthetic:core:2 pu:1;distances=10");
        QCOMPARE(t.distances(), shaped(1, 1, 0, 0));
    }

    void hostSample() {
        const Topology t = Topology::fromSpec("xml:" + kSamples + "host-2cpu.xml");
        QCOMPARE(t.packages().size(), std::size_t(1));
        QCOMPARE(t.nodeCount(), std::size_t(1));
        QCOMPARE(t.cores().size(), std::size_t(2));
        QCOMPARE(t.pus().size(), std::size_t(2));
        QCOMPARE(t.l3Caches().size(), std::size_t(1));
        QCOMPARE(t.l3Caches()[0].cores, range(0, 2));
        QCOMPARE(t.l3Caches()[0].sizeBytes, std::uint64_t(272629760));
        QCOMPARE(t.nodes()[0].memoryBytes, std::uint64_t(5194854400));
        QCOMPARE(t.nodes()[0].pus, range(0, 2));
        QCOMPARE(t.nodeOfPu(1), 0);
        QCOMPARE(t.pus()[1].l3, 0);
        QVERIFY(t.distancesAreDefault());
    }

    void numa12Sample() {
        const Topology t = Topology::fromSpec("xml:" + kSamples + "numa12-384cpu.xml");
        checkHygonShape(t);
        QVERIFY(!t.distancesAreDefault());
        QCOMPARE(t.distances(), shaped(12, 6, 12, 32));
        QVERIFY2(t.note().starts_with("assumed shape"), t.note().c_str());
    }

    void thisHost() {
        const Topology t = Topology::fromSpec("host");
        QVERIFY(t.nodeCount() >= 1);
        const std::size_t pus = t.pus().size();
        // hwloc drops PUs outside our cpuset, as a container's cgroup may impose.
        QVERIFY2(pus == std::thread::hardware_concurrency() || pus == allowedCpus(),
                 std::to_string(pus).c_str());
        std::size_t inNodes = 0;
        for (const NumaNode& n : t.nodes())
            inNodes += n.pus.size();
        QCOMPARE(inNodes, pus);
        for (const Pu& p : t.pus()) {
            QVERIFY(p.node >= 0 && p.node < int(t.nodeCount()));
            QCOMPARE(t.nodeOfPu(p.osIndex), p.node);
        }
        QCOMPARE(t.distances().size(), t.nodeCount());
    }

    void xmlExportLoadsBackTheSameMachine() {
        const Topology t =
            Topology::fromSpec(kHygon + ";distances=10:12:32;note=assumed shape: test");
        const std::string xml = t.toXml();
        QVERIFY(xml.starts_with("<?xml"));
        const Topology back = Topology::fromXmlString(xml, "export.xml");
        checkHygonShape(back);
        QCOMPARE(back.spec(), std::string("xml:export.xml"));
        QCOMPARE(back.distances(), t.distances());
        QVERIFY(!back.distancesAreDefault());
        QCOMPARE(back.note(), std::string("assumed shape: test"));

        QTemporaryDir dir;
        const std::string path = dir.filePath("t.xml").toStdString();
        std::ofstream(path) << xml;
        const Topology file = Topology::fromSpec("xml:" + path);
        QCOMPARE(file.distances(), t.distances());
        QCOMPARE(file.toXml().size() > 0, true);
    }

    void hostExportLoadsBack() {
        const Topology t = Topology::fromSpec("host");
        const Topology back = Topology::fromXmlString(t.toXml(), "host.xml");
        QCOMPARE(back.pus().size(), t.pus().size());
        QCOMPARE(back.nodeCount(), t.nodeCount());
        QCOMPARE(back.cores().size(), t.cores().size());
        QCOMPARE(back.distances(), t.distances());
        for (const Pu& p : t.pus())
            QCOMPARE(back.nodeOfPu(p.osIndex), p.node);
    }

    void sampleXmlIsWhatTheGeneratorWrites() {
        // The sample must stay loadable by hwloc after a round trip through our own export.
        const std::string xml = slurp(kSamples + "numa12-384cpu.xml");
        QVERIFY(!xml.empty());
        const Topology t = Topology::fromXmlString(xml, "numa12-384cpu.xml");
        const Topology again = Topology::fromXmlString(t.toXml(), "again.xml");
        QCOMPARE(again.distances(), shaped(12, 6, 12, 32));
        QCOMPARE(again.note(), t.note());
    }

    void copiesShareTheLoadedTopology() {
        std::optional<Topology> original = Topology::fromSpec("synthetic:numa:2 pu:2");
        const Topology copy = *original;
        original.reset();
        QVERIFY(copy.toXml().find("NUMANode") != std::string::npos);
        QCOMPARE(copy.nodeCount(), std::size_t(2));
    }
};

IMMAP_TEST_SUITE(TestTopology);
#include "TestTopology.moc"
