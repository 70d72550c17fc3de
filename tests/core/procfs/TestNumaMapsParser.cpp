// /proc/PID/numa_maps: policies, details, node page counts, the dominant node, bad lines, and
// the real snapshot read beside its maps files.
#include <QTest>
#include <algorithm>
#include <cstdlib>

#include "Mutator.h"
#include "SampleSnapshot.h"
#include "Suites.h"
#include "procfs/MapsParser.h"
#include "procfs/NumaMapsParser.h"
#include "procfs/ParseError.h"

using namespace immap::procfs;

namespace {

NumaMapsEntry one(std::string_view line) {
    return NumaMapsParser::parseLine(line, "t/numa_maps", 1);
}

QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

std::uint64_t valueAfter(std::string_view line, std::string_view key) {
    const std::size_t at = line.find(key);
    return at == std::string_view::npos
               ? 0
               : std::strtoull(std::string(line.substr(at + key.size())).c_str(), nullptr, 10);
}

}  // namespace

class TestNumaMapsParser : public QObject {
    Q_OBJECT

private slots:
    void parsesKernelLines() {
        // Lines of samples/snapshots/host250/17513/numa_maps.
        const NumaMapsEntry libc = one(
            "7f35a28af000 default file=/usr/lib/x86_64-linux-gnu/libc.so.6 mapped=37 mapmax=302 "
            "N0=37 kernelpagesize_kB=4");
        QCOMPARE(libc.start, std::uint64_t{0x7f35a28af000});
        QCOMPARE(libc.policy, std::string("default"));
        QCOMPARE(libc.file, std::string("/usr/lib/x86_64-linux-gnu/libc.so.6"));
        QCOMPARE(libc.mapped, std::uint64_t{37});
        QCOMPARE(libc.mapmax, std::uint64_t{302});
        QCOMPARE(libc.kernelPageSizeKB, std::uint64_t{4});
        QCOMPARE(libc.anon, std::uint64_t{0});
        QCOMPARE(libc.nodePages, (std::map<int, std::uint64_t>{{0, 37}}));
        QCOMPARE(libc.dominantNode(), 0);
        QVERIFY(!libc.heap && !libc.stack && !libc.huge);

        const NumaMapsEntry heap =
            one("564e5ba7b000 default heap anon=4 dirty=4 active=0 N0=4 kernelpagesize_kB=4");
        QVERIFY(heap.heap);
        QVERIFY(heap.file.empty());
        QCOMPARE(heap.anon, std::uint64_t{4});
        QCOMPARE(heap.dirty, std::uint64_t{4});
        QCOMPARE(heap.active, std::uint64_t{0});

        // Nothing resident: only address and policy (and maybe file=).
        const NumaMapsEntry empty = one("7ffa6a8f6000 default");
        QVERIFY(empty.nodePages.empty());
        QCOMPARE(empty.dominantNode(), -1);
        QCOMPARE(one("00400000 default stack").start, std::uint64_t{0x400000});
        QVERIFY(one("00400000 default stack").stack);
    }

    void everyDetail() {
        const NumaMapsEntry e =
            one("2aaaaac00000 bind:0-1 file=/dev/hugepages/x huge anon=1 dirty=2 mapped=3 mapmax=4 "
                "swapcache=5 active=6 writeback=7 N0=8 N1=9 kernelpagesize_kB=2048");
        QCOMPARE(e.policy, std::string("bind:0-1"));
        QVERIFY(e.huge);
        QCOMPARE(e.anon, std::uint64_t{1});
        QCOMPARE(e.dirty, std::uint64_t{2});
        QCOMPARE(e.mapped, std::uint64_t{3});
        QCOMPARE(e.mapmax, std::uint64_t{4});
        QCOMPARE(e.swapcache, std::uint64_t{5});
        QCOMPARE(e.active, std::uint64_t{6});
        QCOMPARE(e.writeback, std::uint64_t{7});
        QCOMPARE(e.nodePages, (std::map<int, std::uint64_t>{{0, 8}, {1, 9}}));
        QCOMPARE(e.kernelPageSizeKB, std::uint64_t{2048});
        QCOMPARE(e.dominantNode(), 1);
        QCOMPARE(one("1000 default anon=18446744073709551615").anon,
                 std::uint64_t{18446744073709551615ull});
    }

    void policies_data() {
        QTest::addColumn<QString>("policy");
        for (const char* p : {"default", "local", "prefer:1", "bind:0-1", "interleave:0-3,8",
                              "interleave=static:0-3", "bind=relative:1", "weighted interleave:0-3",
                              "prefer (many):0-1", "prefer=balancing:2", "unknown"})
            QTest::newRow(p) << p;
    }

    void policies() {
        QFETCH(QString, policy);
        // The details after a two-word policy must still be read as details.
        const NumaMapsEntry e = one("7f0000000000 " + policy.toStdString() + " anon=3 N2=3");
        QCOMPARE(qs(e.policy), policy);
        QCOMPARE(e.anon, std::uint64_t{3});
        QCOMPARE(e.dominantNode(), 2);
    }

    void dominantNode() {
        QCOMPARE(one("1000 default N0=3 N1=7 N2=7").dominantNode(), 1);  // lowest of the tie
        QCOMPARE(one("1000 default N2=5 N0=5").dominantNode(), 0);
        QCOMPARE(one("1000 default N11=1 N3=0").dominantNode(), 11);
        QCOMPARE(one("1000 default N3=0").dominantNode(), -1);  // nothing resident
        QCOMPARE(one("1000 default N1023=2 N4=1").dominantNode(), 1023);
    }

    void fileEscapes() {
        QCOMPARE(one("1000 default file=/tmp/my\\040file mapped=1").file,
                 std::string("/tmp/my file"));
        QCOMPARE(one("1000 default file=/tmp/a\\075b\\011c\\012d").file,
                 std::string("/tmp/a=b\tc\nd"));
        QCOMPARE(one("1000 default file=/tmp/x\\040(deleted)").file,
                 std::string("/tmp/x (deleted)"));
    }

    void toleratesWhatNewerKernelsAdd() {
        const NumaMapsEntry e = one("1000 default newflag anon=2 future=zz N0=2 other=");
        QCOMPARE(e.anon, std::uint64_t{2});
        QCOMPARE(e.dominantNode(), 0);
        // Key names are exact: "Nx" is not a node, "anonx" is not anon.
        const NumaMapsEntry f = one("1000 default Nx=5 anonx=7 N=1");
        QVERIFY(f.nodePages.empty());
        QCOMPARE(f.anon, std::uint64_t{0});
    }

    void linesAndLineEnds() {
        const auto v = NumaMapsParser::parse("1000 default N0=1\r\n2000 default N1=2\r\n", "n");
        QCOMPARE(v.size(), std::size_t{2});
        QCOMPARE(v[1].dominantNode(), 1);
        QCOMPARE(v[1].nodePages.at(1), std::uint64_t{2});  // not "2\r"
        QCOMPARE(NumaMapsParser::parse("1000 default", "n").size(), std::size_t{1});
        QVERIFY(NumaMapsParser::parse("", "n").empty());
    }

    void rejectsBadLines_data() {
        QTest::addColumn<QByteArray>("line");
        QTest::addColumn<QString>("reason");
        QTest::newRow("bad address") << QByteArray("zz default") << "bad start address 'zz'";
        QTest::newRow("address range")
            << QByteArray("1000-2000 default") << "bad start address '1000-2000'";
        QTest::newRow("address past 64 bits")
            << QByteArray("10000000000000000 default")
            << "number past 64 bits in start address '10000000000000000'";
        QTest::newRow("no policy") << QByteArray("1000") << "missing policy";
        QTest::newRow("no policy, space") << QByteArray("1000 ") << "missing policy";
        QTest::newRow("node for policy")
            << QByteArray("1000 N0=3") << "missing policy before 'N0=3'";
        QTest::newRow("file for policy")
            << QByteArray("1000 file=/x mapped=1") << "missing policy before 'file=/x'";
        QTest::newRow("heap for policy")
            << QByteArray("1000 heap anon=1") << "missing policy before 'heap'";
        QTest::newRow("counter for policy")
            << QByteArray("1000 mapmax=1") << "missing policy before 'mapmax=1'";
        QTest::newRow("capital policy") << QByteArray("1000 Default") << "bad policy 'Default'";
        QTest::newRow("empty nodelist") << QByteArray("1000 bind:") << "bad policy 'bind:'";
        QTest::newRow("bad nodelist") << QByteArray("1000 bind:0-x") << "bad policy 'bind:0-x'";
        QTest::newRow("empty flags")
            << QByteArray("1000 interleave=:0") << "bad policy 'interleave=:0'";
        QTest::newRow("digit policy") << QByteArray("1000 7 N0=1") << "bad policy '7'";
        QTest::newRow("bad count") << QByteArray("1000 default anon=x") << "bad number in 'anon=x'";
        QTest::newRow("empty count") << QByteArray("1000 default anon=") << "bad number in 'anon='";
        QTest::newRow("negative count")
            << QByteArray("1000 default dirty=-1") << "bad number in 'dirty=-1'";
        QTest::newRow("count past 64 bits")
            << QByteArray("1000 default mapped=18446744073709551616")
            << "number past 64 bits in 'mapped=18446744073709551616'";
        QTest::newRow("bad page size") << QByteArray("1000 default kernelpagesize_kB=4k")
                                       << "bad number in 'kernelpagesize_kB=4k'";
        QTest::newRow("node twice")
            << QByteArray("1000 default N0=1 N1=1 N0=2") << "node 0 listed twice";
        QTest::newRow("bad node id")
            << QByteArray("1000 default N0x=1") << "bad node id in 'N0x=1'";
        QTest::newRow("node id too big")
            << QByteArray("1000 default N99999=1") << "node id past 65535 in 'N99999=1'";
        QTest::newRow("node id past int") << QByteArray("1000 default N99999999999=1")
                                          << "node id past 65535 in 'N99999999999=1'";
        QTest::newRow("bad node pages")
            << QByteArray("1000 default N0=abc") << "bad number in 'N0=abc'";
        QTest::newRow("no node pages") << QByteArray("1000 default N0") << "missing value in 'N0'";
        QTest::newRow("counter without value")
            << QByteArray("1000 default anon") << "missing value in 'anon'";
        QTest::newRow("empty key") << QByteArray("1000 default =5") << "empty key in '=5'";
        QTest::newRow("empty file") << QByteArray("1000 default file=") << "empty file= path";
        QTest::newRow("file twice")
            << QByteArray("1000 default file=/a file=/b") << "file= given twice";
        QTest::newRow("counter twice")
            << QByteArray("1000 default anon=1 anon=1") << "anon= given twice";
        QTest::newRow("NUL in file") << QByteArray("1000 default file=/a") + '\0' + "b"
                                     << "NUL byte in file= path '/a\\x00b'";
        QTest::newRow("empty line") << QByteArray() << "empty line";
    }

    void rejectsBadLines() {
        QFETCH(QByteArray, line);
        QFETCH(QString, reason);
        const std::string good = "7f35a28af000 default file=/lib/a.so mapped=1 N0=1";
        const std::string text = good + "\n" + good + "\n" + line.toStdString() + "\n" + good;
        try {
            NumaMapsParser::parse(text, "17513/numa_maps");
            QFAIL("no ParseError");
        } catch (const ParseError& e) {
            QCOMPARE(qs(e.reason()), reason);
            QCOMPARE(e.line(), std::size_t{3});
            QCOMPARE(qs(e.what()), "17513/numa_maps:3: " + reason);
        }
    }

    void damagedRealFilesFailCleanly() {
        const std::string original = SampleSnapshot::read("17513", "numa_maps");
        QVERIFY(!original.empty());
        Mutator mutator(99);
        int failures = 0;
        for (int i = 0; i < 20000; ++i) {
            try {
                for (const NumaMapsEntry& e : NumaMapsParser::parse(mutator.mutate(original), "n"))
                    QVERIFY(e.file.find('\0') == std::string::npos);
            } catch (const ParseError& e) {
                ++failures;
                QVERIFY2(e.reason().size() < 200, e.what());
            } catch (...) {
                QFAIL("an exception other than ParseError");
            }
        }
        QVERIFY(failures > 1000);
    }

    void realSnapshotAgreesWithMaps() {
        // numa_maps lists the same VMAs as maps, in the same order, except the gate VMA
        // [vsyscall] (not in the mm's VMA tree); file= names the same file.
        std::size_t entries = 0, n0Lines = 0, onNode0 = 0, heaps = 0, stacks = 0;
        std::uint64_t mappedByText = 0, mappedParsed = 0;
        for (const std::string& pid : SampleSnapshot::pids()) {
            const std::string text = SampleSnapshot::read(pid, "numa_maps");
            const auto numa = NumaMapsParser::parse(text, pid + "/numa_maps");
            const auto maps = MapsParser::parse(SampleSnapshot::read(pid, "maps"), pid + "/maps");
            QCOMPARE(numa.size(), std::size_t(std::count(text.begin(), text.end(), '\n')));
            QCOMPARE(numa.size() + 1, maps.size());
            std::size_t m = 0;
            for (const NumaMapsEntry& e : numa) {
                if (maps[m].kind == MapsEntry::Kind::Vsyscall) ++m;
                QCOMPARE(e.start, maps[m].start);
                if (maps[m].kind == MapsEntry::Kind::File) QCOMPARE(e.file, maps[m].path);
                QCOMPARE(e.heap, maps[m].kind == MapsEntry::Kind::Heap);
                QCOMPARE(e.stack, maps[m].kind == MapsEntry::Kind::Stack);
                onNode0 += e.dominantNode() == 0;
                heaps += e.heap;
                stacks += e.stack;
                mappedParsed += e.mapped;
                ++m;
            }
            for (std::string_view line : SampleSnapshot::lines(text)) {
                n0Lines += line.find(" N0=") != std::string_view::npos;
                mappedByText += valueAfter(line, " mapped=");
            }
            entries += numa.size();
        }
        QCOMPARE(entries, std::size_t{9480});
        QCOMPARE(n0Lines, std::size_t{8650});
        QCOMPARE(onNode0, n0Lines);  // a one-node host: node 0 or nothing
        QCOMPARE(heaps, std::size_t{250});
        QCOMPARE(stacks, std::size_t{250});
        QCOMPARE(mappedParsed, mappedByText);
        QVERIFY(mappedByText > 0);
    }
};

IMMAP_TEST_SUITE(TestNumaMapsParser);
#include "TestNumaMapsParser.moc"
