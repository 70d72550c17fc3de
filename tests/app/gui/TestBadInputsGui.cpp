// Every broken input of tests/data/bad opened in the window the way a user would open it (File >
// Open or a drop for sources and topologies, Open trace, Open Scenario; a recipe through a
// scenario naming it; numa_maps/status/stat inside a snapshot directory): each must give an
// error dialog whose text names the file and, where the fault is on one line, the same line
// the CLI reports (tests/app/cli/TestBadInputs.cpp); the window must come back at once and,
// when nothing could be loaded, keep showing exactly what it showed before.
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QMessageBox>
#include <QTemporaryDir>
#include <QTest>
#include <map>

#include "MainWindow.h"
#include "Suites.h"

using namespace immap;

namespace {

// Absolute: the window names a scenario's files as it resolved them.
QString badDir() {
    return QFileInfo(QStringLiteral(IMMAP_TEST_DATA "/bad")).absoluteFilePath();
}

// The line each fault is on (the CLI test's table; scenarios from the files themselves).
const std::map<QString, int>& expectedLines() {
    static const std::map<QString, int> lines = {
        {"maps-binary", 1},
        {"maps-truncated", 3},
        {"maps-nul", 3},
        {"maps-over64", 3},
        {"maps-inode-over64", 3},
        {"maps-reversed", 3},
        {"topology-binary.xml", 1},
        {"topology-truncated.xml", 39},
        {"topology-open-tag.xml", 1},
        {"topology-cut-attribute.xml", 3},
        {"recipe-binary.json", 1},
        {"recipe-truncated.json", 5},
        {"measured-truncated.json", 5},
        {"trace-empty.trace", 1},
        {"trace-binary.trace", 1},
        {"trace-version.trace", 1},
        {"trace-header-copies.trace", 1},
        {"trace-header-duration.trace", 1},
        {"trace-vma-id.trace", 3},
        {"trace-lying.trace", 3},
        {"trace-truncated.trace", 4},
        {"trace-nul.trace", 3},
        {"trace-over64.trace", 3},
        {"trace-reversed.trace", 3},
        {"trace-duplicate.trace", 4},
        {"trace-version1.trace", 1},
        {"trace-no-end.trace", 4},
        {"trace-end-count.trace", 4},
        {"trace-after-end.trace", 4},
        {"trace-negative-cpu.trace", 3},
        {"trace-negative-tree.trace", 3},
        {"trace-walk-backwards.trace", 7},
        {"trace-header-array.trace", 1},
        {"trace-header-seed.trace", 1},
        {"trace-header-walkers.trace", 1},
        {"trace-header-cpus.trace", 1},
        {"scenario-empty.json", 1},
        {"scenario-truncated.json", 4},
        {"scenario-unknown-key.json", 3},
        {"scenario-over64.json", 3},
        {"scenario-version.json", 2},
        {"scenario-recipe-device.json", 3},
        {"numa_maps-binary", 1},
        {"numa_maps-truncated", 1},
        {"numa_maps-over64", 1},
        {"numa_maps-nul", 1},
        {"status-binary", 1},
        {"status-over64", 2},
        {"status-reversed", 3},
        {"stat-binary", 1},
        {"stat-truncated", 1},
        {"stat-over64", 1},
        // Loaded, with the warning that the last line has no newline (issue 15).
        {"maps-cut-field", 3},
        {"numa_maps-cut-field", 1},
        {"status-cut-field", 3},
        {"stat-cut-field", 1},
    };
    return lines;
}

// A scenario naming a broken file beside it: the message must name that inner file and line.
const std::map<QString, std::pair<QString, int>>& innerFiles() {
    static const std::map<QString, std::pair<QString, int>> inner = {
        {"scenario-bad-recipe.json", {"recipe-truncated.json", 5}},
        {"scenario-bad-source.json", {"maps-reversed", 3}},
        {"scenario-bad-topology.json", {"topology-truncated.xml", 39}},
    };
    return inner;
}

struct State {
    std::string source, topology, file;
    std::size_t vmas = 0;
    QString policies, copies;
    const void* trace = nullptr;
    bool operator==(const State&) const = default;
};

State stateOf(gui::MainWindow& w) {
    return {w.session().host().source,
            w.session().topologySpec(),
            w.session().file().name(),
            w.session().trees().liveCount(),
            w.sweepControls()->policies(),
            w.sweepControls()->copies(),
            w.traceCursor()};
}

QStringList dialogTexts(gui::MainWindow& w) {
    QStringList out;
    for (QMessageBox* b : w.findChildren<QMessageBox*>(QStringLiteral("errorDialog")))
        if (b->isVisible()) out << b->text();
    return out;
}

void closeDialogs(gui::MainWindow& w) {
    for (QMessageBox* b : w.findChildren<QMessageBox*>(QStringLiteral("errorDialog")))
        delete b;
}

}  // namespace

class TestBadInputsGui : public QObject {
    Q_OBJECT

private slots:
    void everyBadFileGivesADialog_data() {
        QTest::addColumn<QString>("name");
        const QStringList files =
            QDir(badDir()).entryList(QDir::Files | QDir::NoDotAndDotDot, QDir::Name);
        QVERIFY(files.size() >= 60);
        for (const QString& f : files)
            if (f != "generate.py" && f != "README.md") QTest::newRow(qPrintable(f)) << f;
    }

    void everyBadFileGivesADialog() {
        QFETCH(QString, name);
        const QString path = badDir() + "/" + name;
        QTemporaryDir tmp;
        gui::MainWindow w(false);
        w.setHeadless(false);
        w.setAutoplay(false);
        w.show();
        w.loadDefault();
        QVERIFY(dialogTexts(w).isEmpty());
        const State before = stateOf(w);

        // Which open path a user takes for this kind of file, and the file the message must name.
        QString named = path;
        bool ok = false;
        QElapsedTimer clock;
        clock.start();
        if (name.startsWith("scenario-")) {
            ok = w.openScenario(path);
        } else if (name.startsWith("trace-")) {
            ok = w.openTrace(path);
        } else if (name.startsWith("measured-")) {
            ok = w.openMeasurements(path);
        } else if (name.startsWith("recipe-")) {
            const QString scenario = tmp.filePath("uses-recipe.json");
            QFile f(scenario);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(("{\"version\": 1, \"recipe\": \"" + path + "\"}").toUtf8());
            f.close();
            ok = w.openScenario(scenario);
        } else if (name.startsWith("numa_maps-") || name.startsWith("status-") ||
                   name.startsWith("stat-")) {
            // One broken process beside a good one: the good one loads, the dialog says why the
            // other was left out. A file cut inside its last field still parses: both load, and
            // the dialog warns that it may be cut.
            const QString kind = name.section('-', 0, 0);
            QDir d(tmp.path());
            QVERIFY(d.mkpath("100") && d.mkpath("101"));
            const QByteArray maps =
                "7f0000000000-7f0000002000 r--p 00000000 fe:00 1234 /usr/lib/libc.so.6\n";
            for (const char* pid : {"100/maps", "101/maps"}) {
                QFile m(d.filePath(pid));
                QVERIFY(m.open(QIODevice::WriteOnly));
                m.write(maps);
            }
            named = d.filePath("100/" + kind);
            QVERIFY(QFile::copy(path, named));
            ok = w.openPath(tmp.path());
            QVERIFY2(ok, qPrintable(w.lastError()));
            QCOMPARE(w.session().host().mappings.processes().size(),
                     std::size_t{name.contains("-cut-field") ? 2u : 1u});
        } else {
            // Sources and topologies, as File > Open and a drop take them; op scripts and
            // bpftrace recordings have no reader in the app (they are `immap tree run` and
            // `immap trace import` inputs), so a user dropping one gets it read as a maps file.
            ok = w.openPath(path);
        }
        QVERIFY2(clock.elapsed() < 30000, "took more than 30 s");

        if (name == "maps-utf8-path") {  // valid: Linux paths are bytes
            QVERIFY2(ok, qPrintable(w.lastError()));
            QVERIFY(dialogTexts(w).isEmpty());
            return;
        }
        const QStringList texts = dialogTexts(w);
        QVERIFY2(!texts.isEmpty(), "no error dialog");
        const QString all = texts.join("\n---\n");
        QVERIFY2(all == w.lastError() || texts.contains(w.lastError()), qPrintable(all));

        int line = 0;
        if (auto it = expectedLines().find(name); it != expectedLines().end()) line = it->second;
        if (auto it = innerFiles().find(name); it != innerFiles().end()) {
            named = badDir() + "/" + it->second.first;
            line = it->second.second;
        }
        QVERIFY2(all.contains(named), qPrintable("does not name " + named + ":\n" + all));
        if (line > 0) {
            const bool hasLine = all.contains(named + ":" + QString::number(line) + ":") ||
                                 all.contains("Line: " + QString::number(line) + "\n");
            QVERIFY2(hasLine, qPrintable("no line " + QString::number(line) + ":\n" + all));
        }
        if (!ok) {
            // Nothing loaded: the window shows what it showed.
            QVERIFY(stateOf(w) == before);
        }
        closeDialogs(w);
        QVERIFY(dialogTexts(w).isEmpty());
    }

    // A count the machine cannot hold (issue 15: the app showed "Reason: std::bad_alloc"):
    // refused at once with the estimate, in a dialog, the window still on what it showed.
    void absurdSyntheticHostGivesAPlainDialog() {
        gui::MainWindow w(false);
        w.setHeadless(false);
        w.setAutoplay(false);
        w.show();
        w.loadDefault();
        const State before = stateOf(w);
        QVERIFY(!w.openSource(QStringLiteral("synthetic:libc?processes=100000000"), {}, {}));
        const QString all = dialogTexts(w).join("\n");
        QVERIFY2(all.contains("100,000,000 processes need about"), qPrintable(all));
        QVERIFY2(all.contains("this machine has"), qPrintable(all));
        QVERIFY2(!all.contains("::"), qPrintable(all));
        QVERIFY(stateOf(w) == before);
        closeDialogs(w);
    }
};

IMMAP_TEST_SUITE(TestBadInputsGui);
#include "TestBadInputsGui.moc"
