// Every bad spec, file and matrix gives a TopologyError whose message names the spec (or the
// file) and the reason; nothing is loaded from anywhere else instead.
#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <cstdlib>
#include <fstream>

#include "Suites.h"
#include "topology/Topology.h"
#include "topology/TopologyXml.h"

using namespace immap::topology;

namespace {

const std::string kSamples = IMMAP_SAMPLES "/topologies/";

// Loads SPEC and returns what() of the TopologyError, or "" when it loaded.
std::string failure(const std::string& spec) {
    try {
        Topology::fromSpec(spec);
    } catch (const TopologyError& e) {
        return e.what();
    }
    return {};
}

}  // namespace

class TestTopologyErrors : public QObject {
    Q_OBJECT

    QTemporaryDir tmp;

    std::string write(const char* name, const std::string& text) {
        const std::string path = tmp.filePath(name).toStdString();
        std::ofstream(path, std::ios::binary) << text;
        return path;
    }

private slots:
    void badSpecsNameSpecAndReason_data() {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<QString>("reason");
        const QString pkg = "synthetic:package:2 numa:2 pu:1;";  // 4 nodes in 2 packages
        QTest::newRow("empty") << ""
                               << "expected host, xml:FILE or synthetic:DESC";
        QTest::newRow("unknown kind") << "lstopo:x"
                                      << "expected host, xml:FILE or synthetic:DESC";
        QTest::newRow("host with args") << "host:1"
                                        << "expected host, xml:FILE";
        QTest::newRow("xml without file") << "xml:"
                                          << "xml: needs a FILE";
        QTest::newRow("no description") << "synthetic:"
                                        << "needs an hwloc description";
        QTest::newRow("blank description") << "synthetic:  ;distances=10"
                                           << "needs an hwloc description";
        QTest::newRow("bad description") << "synthetic:package:2 numa:x"
                                         << "'numa:x' in the synthetic description is not "
                                            "TYPE:COUNT or COUNT";
        // Issue 14 (fuzz_topology_spec): hwloc read 26,010 PUs in this, past the 8192 bound,
        // and took 9 s.
        QTest::newRow("level glued to the next") << "synthetic:nu2\xc3\xa9oru:51pu:510"
                                                 << "is not TYPE:COUNT or COUNT";
        QTest::newRow("unknown type") << "synthetic:widget:2 pu:2"
                                      << "hwloc rejected";
        QTest::newRow("too many PUs") << "synthetic:package:1000 core:1000 pu:1000"
                                      << "describes more than 8192 PUs";
        // Issue 8: one level of 7,777 PUs took 9 s in hwloc (fuzzing found it).
        QTest::newRow("too wide a level") << "synthetic:7777"
                                          << "has a level of 7777 children";
        QTest::newRow("unknown option") << "synthetic:pu:2;colour=red"
                                        << "unknown option 'colour=red'";
        QTest::newRow("distances twice") << pkg + "distances=10:12:32;distances=10:12:32"
                                         << "distances= given twice";
        QTest::newRow("empty distances") << pkg + "distances="
                                         << "distances= is empty";
        QTest::newRow("wrong size") << pkg + "distances=10,20,20,10"
                                    << "4 distances for 4 NUMA nodes; need 16";
        QTest::newRow("trailing comma") << "synthetic:numa:2 pu:1;distances=10,20,20,10,"
                                        << "bad number '' in distances";
        QTest::newRow("not a number") << "synthetic:numa:2 pu:1;distances=10,2O,20,10"
                                      << "bad number '2O' in distances";
        QTest::newRow("negative") << "synthetic:numa:2 pu:1;distances=10,-20,20,10"
                                  << "bad number '-20'";
        QTest::newRow("diagonal") << "synthetic:numa:2 pu:1;distances=10,20,20,11"
                                  << "distance[1][1] is 11; the diagonal must be 10";
        QTest::newRow("below 10") << "synthetic:numa:2 pu:1;distances=10,9,20,10"
                                  << "distance[0][1] is 9; SLIT distances are 10..255";
        QTest::newRow("above 255") << "synthetic:numa:2 pu:1;distances=10,20,256,10"
                                   << "distance[1][0] is 256";
        QTest::newRow("shorthand short") << pkg + "distances=10:12"
                                         << "LOCAL:SAMEPKG:REMOTE takes three numbers, got 2";
        QTest::newRow("shorthand mixed") << pkg + "distances=10:12,32"
                                         << "mixes ':' and ','";
        QTest::newRow("shorthand local") << pkg + "distances=20:12:32"
                                         << "distance[0][0] is 20; the diagonal must be 10";
        QTest::newRow("shorthand remote") << pkg + "distances=10:12:5"
                                          << "distance[0][2] is 5; SLIT distances are 10..255";
        QTest::newRow("one node, wrong size") << "synthetic:pu:2;distances=10,20,20,10"
                                              << "4 distances for 1 NUMA node; need 1";
    }
    // Issue 8: hwloc stopped at a NUL, after the bound had checked the whole string (the
    // fuzzer's "282282\0...": 282,282 PUs, a hang).
    void nulInASyntheticDescriptionIsRefused() {
        try {
            Topology::fromSpec(std::string_view("synthetic:282282\0 8gl", 21));
            QFAIL("loaded");
        } catch (const TopologyError& e) {
            QVERIFY2(e.reason().find("contains a NUL byte") != std::string::npos, e.what());
        }
    }
    void badSpecsNameSpecAndReason() {
        QFETCH(QString, spec);
        QFETCH(QString, reason);
        const std::string what = failure(spec.toStdString());
        QVERIFY2(what.starts_with("topology spec '" + spec.toStdString() + "': "), what.c_str());
        QVERIFY2(what.find(reason.toStdString()) != std::string::npos, what.c_str());
    }

    void badFilesNameFileAndReason_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("reason");
        const std::string sample = [] {
            std::ifstream in(kSamples + "host-2cpu.xml", std::ios::binary);
            return std::string(std::istreambuf_iterator<char>(in), {});
        }();
        QTest::newRow("empty") << "empty.xml" << QByteArray() << "empty file";
        // Malformed XML is caught by our libxml2 check, with its line, before hwloc sees it.
        QTest::newRow("not xml") << "text.xml" << QByteArray("package:2 pu:2\n")
                                 << ":1: malformed XML (Start tag expected, '<' not found)";
        QTest::newRow("truncated") << "cut.xml" << QByteArray::fromStdString(sample.substr(0, 1500))
                                   << ":25: malformed XML (Premature end of data in tag object";
        // Issue 14: hwloc's built-in importer segfaulted on these two.
        QTest::newRow("open start tag")
            << "open.xml" << QByteArray("<topology version=\"2.0\"") << ":1: malformed XML (";
        QTest::newRow("cut in an attribute")
            << "cut101.xml" << QByteArray::fromStdString(sample.substr(0, 101))
            << ":3: malformed XML (";
        QTest::newRow("binary") << "bin.xml"
                                << QByteArray(
                                       "\x7f"
                                       "ELF\x02\x01\x01\0\0\0",
                                       10)
                                << ":1: malformed XML (";
        QTest::newRow("two roots")
            << "roots.xml" << QByteArray("<topology version=\"2.0\"/><topology/>\n")
            << ":1: malformed XML (Extra content at the end of the document)";
        QTest::newRow("internal subset")
            << "dtd.xml"
            << QByteArray(
                   "<?xml version=\"1.0\"?>\n<!DOCTYPE topology [<!ENTITY a \"aaaa\">]>\n"
                   "<topology version=\"2.0\">&a;</topology>\n")
            << ":2: the DOCTYPE declares entities or elements; a topology XML has none";
        // Well-formed, but not something hwloc builds a topology from: one message whichever
        // importer hwloc uses (they fail at different steps).
        QTest::newRow("other xml")
            << "svg.xml" << QByteArray("<?xml version=\"1.0\"?><svg></svg>\n")
            << "well-formed XML, but hwloc could not build a topology from it";
        QTest::newRow("no objects")
            << "bare.xml" << QByteArray("<?xml version=\"1.0\"?><topology version=\"2.0\"/>\n")
            << "well-formed XML, but hwloc could not build a topology from it";
        // Issue 8: hwloc 2.9 crashed (SIGSEGV) on an object with a cpuset but no complete_cpuset.
        std::string noComplete = sample;
        const std::size_t at = noComplete.find(" complete_cpuset=\"");
        noComplete.erase(at, noComplete.find('"', noComplete.find('"', at) + 1) + 1 - at);
        QTest::newRow("cpuset without complete_cpuset")
            << "nocc.xml" << QByteArray::fromStdString(noComplete)
            << "has a cpuset but no complete_cpuset";
    }
    void badFilesNameFileAndReason() {
        QFETCH(QString, name);
        QFETCH(QByteArray, content);
        QFETCH(QString, reason);
        const std::string path = write(name.toUtf8().constData(), content.toStdString());
        const std::string what = failure("xml:" + path);
        QVERIFY2(what.starts_with(path + ":"), what.c_str());
        QVERIFY2(what.find(reason.toStdString()) != std::string::npos, what.c_str());
        // The same bytes from memory name the given name.
        try {
            Topology::fromXmlString(content.toStdString(), "snap/topology.xml");
            QFAIL("loaded");
        } catch (const TopologyError& e) {
            QCOMPARE(e.where(), std::string("snap/topology.xml"));
        }
    }

    // Every prefix of a real lstopo export is refused with a TopologyError (hwloc's built-in
    // importer crashed on some), whichever importer this process runs (CTest runs this suite
    // under both); the whole file, even without its final newline, loads.
    void everyTruncationIsRefused() {
        std::ifstream in(kSamples + "host-2cpu.xml", std::ios::binary);
        const std::string sample(std::istreambuf_iterator<char>(in), {});
        QVERIFY(sample.size() > 6000);
        const std::size_t end = sample.find_last_not_of(" \t\r\n") + 1;  // then only blanks
        for (std::size_t n = 0; n < end; ++n) {
            try {
                Topology::fromXmlString(sample.substr(0, n), "cut.xml");
                QFAIL(qPrintable(QStringLiteral("a %1-byte prefix loaded").arg(n)));
            } catch (const TopologyError& e) {
                QCOMPARE(e.where(), std::string("cut.xml"));
            }
        }
        QCOMPARE(Topology::fromXmlString(sample.substr(0, end), "whole.xml").pus().size(),
                 std::size_t{2});
    }

    // hwloc reads libxml2's rewrite, not the file: XML that the two importers took differently
    // (a comment, text between elements, single quotes, CDATA in a content element, character
    // references) loads the same under either (CTest runs this suite under both).
    void wellFormedVariantsLoadUnderEitherImporter() {
        std::ifstream in(kSamples + "host-2cpu.xml", std::ios::binary);
        std::string xml(std::istreambuf_iterator<char>(in), {});
        auto replace = [&](const std::string& from, const std::string& to) {
            const std::size_t at = xml.find(from);
            QVERIFY2(at != std::string::npos, from.c_str());
            xml.replace(at, from.size(), to);
        };
        replace("<topology version=\"2.0\">", "<topology version='2.0'><!-- a comment -->");
        replace("<object type=\"Package\"", "stray text <object type=\"Package\"");
        replace("value=\"Linux\"", "value=\"Lin&#x75;x\"");
        const Topology t = Topology::fromXmlString(xml, "odd.xml");
        QCOMPARE(t.pus().size(), std::size_t{2});
        QCOMPARE(t.nodeCount(), std::size_t{1});
    }

    // Issue 14 (fuzz_topology_xml): hwloc's libxml2 plugin gives libxml2 an error handler of its
    // own, inside the plugin, and hwloc unloads the plugin with the last topology; the next
    // malformed XML our check read crashed in libxml2's call to it (leading NULs did it).
    void malformedXmlAfterTheLastTopologyIsGone() {
        std::ifstream in(kSamples + "host-2cpu.xml", std::ios::binary);
        const std::string sample(std::istreambuf_iterator<char>(in), {});
        for (int round = 0; round < 3; ++round) {
            {
                const Topology t = Topology::fromXmlString(sample, "good.xml");
                QVERIFY(!t.toXml().empty());
            }  // the last topology: hwloc unloads its plugins here
            try {
                Topology::fromXmlString(std::string(3, '\0') + sample, "nul.xml");
                QFAIL("loaded");
            } catch (const TopologyError& e) {
                QCOMPARE(e.line(), std::size_t{1});
                QVERIFY2(e.reason().starts_with("malformed XML ("), e.what());
            }
        }
    }

    // Linux numbers CPUs below NR_CPUS (8192) and nodes below MAX_NUMNODES (1024): an XML that
    // names more is refused (an allowed_cpuset bit past 2^32 made a 134 MB export in 52 s).
    void indexesLinuxCannotHaveAreRefused_data() {
        QTest::addColumn<QString>("from");
        QTest::addColumn<QString>("to");
        QTest::addColumn<QString>("reason");
        QTest::newRow("PU index") << "type=\"PU\" os_index=\"1\""
                                  << "type=\"PU\" os_index=\"9000\""
                                  << "reaches index 9000; Linux numbers CPUs below 8192 (NR_CPUS)";
        QTest::newRow("node index") << "type=\"NUMANode\" os_index=\"0\""
                                    << "type=\"NUMANode\" os_index=\"4000\""
                                    << "reaches index 4000; Linux numbers NUMA nodes below 1024";
    }
    void indexesLinuxCannotHaveAreRefused() {
        QFETCH(QString, from);
        QFETCH(QString, to);
        QFETCH(QString, reason);
        std::ifstream in(kSamples + "host-2cpu.xml", std::ios::binary);
        std::string xml(std::istreambuf_iterator<char>(in), {});
        const std::size_t at = xml.find(from.toStdString());
        QVERIFY(at != std::string::npos);
        xml.replace(at, from.size(), to.toStdString());
        try {
            Topology::fromXmlString(xml, "big.xml");
            QFAIL("loaded");
        } catch (const TopologyError& e) {
            QVERIFY2(e.reason().find(reason.toStdString()) != std::string::npos, e.what());
        }
    }

    // The importer is chosen, not inherited: hwloc's libxml2 plugin (libhwloc-plugins, in
    // scripts/setup.sh's list) is what a process uses unless HWLOC_LIBXML_IMPORT=0 forces the
    // built-in one. Fails on a machine that lacks the plugin.
    void xmlImporterIsLibxml2UnlessForced() {
        const char* forced = std::getenv("HWLOC_LIBXML_IMPORT");
        const std::string expected = forced && std::atoi(forced) == 0 ? "built-in" : "libxml2";
        QCOMPARE(hwlocXmlImporter(), expected);
    }

    void missingFileAndDirectory() {
        std::string what = failure("xml:" + tmp.filePath("nope.xml").toStdString());
        QVERIFY2(what.ends_with("nope.xml: no such file"), what.c_str());
        what = failure("xml:" + tmp.path().toStdString());
        QCOMPARE(what, tmp.path().toStdString() + ": not a regular file (a directory)");
    }

    void unreadableFile() {
        const std::string path = write("secret.xml", "<topology/>");
        QFile::setPermissions(QString::fromStdString(path), QFileDevice::Permissions());
        if (std::ifstream(path)) QSKIP("running as root: permissions do not stop reading");
        QCOMPARE(failure("xml:" + path), path + ": cannot open: Permission denied");
    }

    void errorCarriesWhereAndReasonApart() {
        try {
            Topology::fromSpec("synthetic:numa:2 pu:1;distances=10,9,20,10");
            QFAIL("loaded");
        } catch (const TopologyError& e) {
            QCOMPARE(e.where(), std::string("topology spec 'synthetic:numa:2 pu:1;distances=10,9,"
                                            "20,10'"));
            QCOMPARE(e.reason(), std::string("distance[0][1] is 9; SLIT distances are 10..255"));
        }
    }
};

IMMAP_TEST_SUITE(TestTopologyErrors);
#include "TestTopologyErrors.moc"
