// immap-lab [SOURCE]
// immap-lab --screenshot FILE [--view VIEW] (VIEW one of session::Scenario::viewNames())
// [--size WxH] [SOURCE]
// immap-lab --scenario FILE [--workshop] [--bookmark N] [--screenshot FILE]
#include <QApplication>
#include <QBuffer>
#include <QCommandLineParser>
#include <QCoreApplication>
#include <QImage>
#include <QLabel>
#include <QMessageBox>
#include <QTimer>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <vector>

#include "GuardedApplication.h"
#include "InsertVmaDialog.h"
#include "MainWindow.h"
#include "RecordDialog.h"
#include "SourceArg.h"
#include "ValidationDialog.h"
#include "io/AtomicFile.h"
#include "io/OutputTarget.h"
#include "limits/UserReason.h"
#include "session/DefaultScenario.h"
#include "session/FilesRead.h"
#include "session/Scenario.h"
#include "sim/RunCache.h"
#include "views/ViewExporter.h"

namespace {

// The views by name, from the one list the scenario format and the window use.
QString viewList() {
    QStringList names;
    for (const std::string& n : immap::session::Scenario::viewNames())
        names << QString::fromStdString(n);
    return names.join(QStringLiteral(", "));
}

// --screenshot and the hidden batch saves (--record-trace, --save-scenario) need no display.
bool wantsScreenshot(int argc, char** argv) {
    for (int i = 1; i < argc; ++i)
        for (const char* o : {"--screenshot", "--record-trace", "--save-scenario"})
            if (std::strncmp(argv[i], o, std::strlen(o)) == 0) return true;
    return false;
}

// --help and --version need no window; a QApplication without a display aborts, so these are
// answered first, by a core application.
bool wantsHelpOrVersion(int argc, char** argv) {
    for (int i = 1; i < argc; ++i)
        for (const char* o : {"-h", "-?", "--help", "--help-all", "-v", "--version"})
            if (!std::strcmp(argv[i], o)) return true;
    return false;
}

void setNames() {
    QCoreApplication::setOrganizationName(QStringLiteral("immap-lab"));
    QCoreApplication::setApplicationName(QStringLiteral("immap-lab"));
    QCoreApplication::setApplicationVersion(QStringLiteral(IMMAP_VERSION));
}

void addOptions(QCommandLineParser& p);

int fail(const QString& message) {
    std::cerr << "immap-lab: " << message.toStdString() << '\n';
    return 2;
}

// Prints the usage or version and exits 0 (a bad option: its message, exit 2, as every usage
// error). Returns only when the flag was an option's value, to start the window as usual.
void answerHelpOrVersion(int argc, char** argv) {
    // The usage line names the program as the user knows it, not the path it was run by.
    std::vector<char*> args(argv, argv + argc);
    char name[] = "immap-lab";
    args[0] = name;
    int n = argc;
    QCoreApplication core(n, args.data());
    setNames();
    QCommandLineParser p;
    addOptions(p);
    if (!p.parse(core.arguments())) std::exit(fail(p.errorText()));
    if (p.isSet(QStringLiteral("help"))) p.showHelp(0);
    if (p.isSet(QStringLiteral("version"))) p.showVersion();
}

// --view contention: 30 ms of simulated time from the copies' simultaneous start: long enough at
// 384 copies for the queues to form and every policy to complete execs.
constexpr std::int64_t kContentionShotNs = 30'000'000;

int runApp(QApplication& app);

// Before any work: no output (--screenshot, --record-trace, --save-scenario) may replace a file
// the run reads, whether named here or inside a scenario or beside a trace, nor may two name
// one file. The reason, or empty.
QString refusedOutput(const QCommandLineParser& p) {
    immap::session::FilesRead in;
    if (!p.positionalArguments().isEmpty())
        in.addSpec(immap::gui::classifySource(p.positionalArguments().first()).spec.toStdString());
    in.addSpec(p.value(QStringLiteral("topology")).toStdString());
    if (p.isSet(QStringLiteral("scenario")))
        in.addScenario(p.value(QStringLiteral("scenario")).toStdString());
    if (p.isSet(QStringLiteral("trace")))
        in.addTrace(p.value(QStringLiteral("trace")).toStdString());
    if (p.isSet(QStringLiteral("measured")))
        in.addFile(p.value(QStringLiteral("measured")).toStdString());
    std::vector<std::pair<std::string, std::string>> outs;
    for (const char* o : {"screenshot", "record-trace", "save-scenario"})
        if (p.isSet(QString::fromLatin1(o)))
            outs.emplace_back(std::string("--") + o, p.value(QString::fromLatin1(o)).toStdString());
    return QString::fromStdString(immap::io::OutputTarget::checkAll(outs, in.files()));
}

}  // namespace

int main(int argc, char** argv) {
    if (wantsHelpOrVersion(argc, argv)) answerHelpOrVersion(argc, argv);
    // A screenshot needs no display: render offscreen unless the user chose a platform.
    const bool headless = wantsScreenshot(argc, argv);
    if (headless && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    immap::gui::GuardedApplication app(argc, argv);
    app.setHeadless(headless);
    // What escapes the start-up (outside any event) ends here: a plain reason, exit status 2.
    try {
        return runApp(app);
    } catch (...) {
        const std::string reason =
            immap::limits::UserReason::of(std::current_exception(), "starting immap-lab");
        std::cerr << "immap-lab: " << reason << '\n';
        if (!headless)
            QMessageBox::critical(nullptr, QStringLiteral("immap-lab"),
                                  QString::fromStdString(reason));
        return 2;
    }
}

namespace {

void addOptions(QCommandLineParser& p) {
    p.setApplicationDescription(QStringLiteral(
        "The Linux kernel's i_mmap interval tree, as one tree and split per NUMA node.\n"
        "With no SOURCE: 1,200 processes mapping libc on the assumed 12-node, 384-CPU shape."));
    p.addHelpOption();
    p.addVersionOption();
    p.addOption({"screenshot", "Render the window offscreen to FILE (PNG) and exit.", "FILE"});
    p.addOption({"view",
                 "The view: " + viewList() +
                     " (default split; throughput runs a sweep first, contention runs both "
                     "policies live first).",
                 "VIEW", "split"});
    p.addOption(
        {"trace",
         "Open a native trace in the Replay tab (immap simulate --trace, immap trace import).",
         "FILE"});
    p.addOption({"trace-event", "With --trace: show the state after this many events.", "N"});
    p.addOption({"size",
                 "Window size for --screenshot (200x150 to 10000x10000, default 1600x1000).", "WxH",
                 "1600x1000"});
    p.addOption({"figure-only",
                 "With --screenshot: write the view's drawing only (no fields, buttons or "
                 "progress), as File > Export figure does, laid out at --size if given; FILE "
                 "may end in .png, .svg or .pdf."});
    p.addOption({"scale",
                 QStringLiteral("With --figure-only: pixels per logical pixel of a PNG (1-8), "
                                "with W x H x N^2 at most %1 pixels (%2 bytes): 10000x10000 up "
                                "to 1.6384, 1920x1080 up to 8. SVG and PDF take any.")
                     .arg(immap::views::ViewExporter::kMaxPngBytes / 4)
                     .arg(immap::views::ViewExporter::kMaxPngBytes),
                 "N", "1"});
    p.addOption({"topology", "Topology spec: host, xml:FILE, synthetic:DESC.", "SPEC"});
    p.addOption({"file", "The mapped file to show (default libc.so.6).", "NAME"});
    p.addOption({"split",
                 "The tree tabs' split policy: split-trees (default), sharded:K, or a B-tree "
                 "one: btree (the single tree as the B-tree index), btree+split-trees (per-node "
                 "B-trees).",
                 "POLICY"});
    p.addOption({"exec-steps",
                 "Run exec (a new process maps libc) and show it N steps in, paused: for "
                 "screenshots of the step animation.",
                 "N"});
    p.addOption({"walk",
                 "Start an rmap walk of file pages FIRST[-LAST] (hex with 0x, or decimal) and "
                 "show it N steps in (--walk-steps, default: all).",
                 "PAGES"});
    p.addOption({"walk-steps", "With --walk: how many walk steps to show.", "N"});
    p.addOption({"scenario",
                 "Open a workshop scenario (samples/workshops/*.json): topology, source, file, "
                 "parameters, sweep, view and bookmarks.",
                 "FILE"});
    p.addOption({"bands",
                 QStringLiteral("Parameter sets per sweep point for the throughput view's "
                                "10-90% bands (0-1000, default %1; a scenario's own value wins "
                                "unless this is given).")
                     .arg(immap::session::SimSettings::kAppBands),
                 "N"});
    p.addOption({"validation",
                 "Open Help > Validation and run the scorecard (with --screenshot: the dialog "
                 "is rendered once it has run)."});
    p.addOption({"workshop", "Start in workshop mode (full screen, large type, captions)."});
    p.addOption({"bookmark", "With --scenario: show bookmark N (from 1).", "N"});
    p.addOption({"measured",
                 "Measured execs/s (immap bench execl --json FILE) over the throughput plot.",
                 "FILE"});
    p.addOption({"no-cache",
                 "Simulate every run, neither reading nor writing the run cache (each run's "
                 "result kept under $XDG_CACHE_HOME/immap-lab/runs or $IMMAP_CACHE_DIR, at most "
                 "256 MiB or $IMMAP_CACHE_MAX_MB, least recently used runs removed past it; "
                 "IMMAP_NO_CACHE=1 does the same; docs/cache.md)."});
    p.addOption({"no-precompute",
                 "With --scenario: do not start its sweep as it opens (a scenario with a "
                 "throughput slide starts it in the background by default)."});
    // Hidden: the window's own saves run headless, for the tests that kill them mid-save.
    QCommandLineOption recordOpt("record-trace", "Record a simulation to FILE and exit.", "FILE");
    QCommandLineOption recordCopies("record-copies", "Copies for --record-trace.", "N", "384");
    QCommandLineOption recordMs("record-ms", "Simulated ms for --record-trace.", "MS", "20");
    QCommandLineOption saveOpt("save-scenario", "Save the window's state as a scenario and exit.",
                               "FILE");
    for (QCommandLineOption* o : {&recordOpt, &recordCopies, &recordMs, &saveOpt}) {
        o->setFlags(QCommandLineOption::HiddenFromHelp);
        p.addOption(*o);
    }
    p.addPositionalArgument("source",
                            "maps:FILE, snapshot:DIR|ARCHIVE, live, synthetic:libc?..., or a "
                            "path (directory, .tar.gz, maps file, topology .xml).",
                            "[SOURCE]");
}

int runApp(QApplication& app) {
    setNames();
    QCommandLineParser p;
    addOptions(p);
    // A usage error exits 2, as the CLI's do (process() would exit 1).
    if (!p.parse(app.arguments())) return fail(p.errorText());
    const QString recordOpt = QStringLiteral("record-trace"),
                  recordCopies = QStringLiteral("record-copies"),
                  recordMs = QStringLiteral("record-ms"), saveOpt = QStringLiteral("save-scenario");
    if (p.positionalArguments().size() > 1) return fail("at most one SOURCE");
    if (const QString why = refusedOutput(p); !why.isEmpty()) return fail(why);

    // Sweeps, the scorecard and scenarios' results go through it (RunCache::process()).
    const std::unique_ptr<immap::sim::RunCache> cache =
        p.isSet("no-cache") ? nullptr : immap::sim::RunCache::openDefault();
    immap::sim::RunCache::setProcess(cache.get());
    struct Unset {
        ~Unset() { immap::sim::RunCache::setProcess(nullptr); }
    } unset;

    const bool batch = p.isSet(recordOpt) || p.isSet(saveOpt);
    const bool shot = p.isSet("screenshot") || batch;
    QSize size(1600, 1000);
    {
        const QStringList wh = p.value("size").split(QLatin1Char('x'));
        bool okW = false, okH = false;
        if (wh.size() == 2) size = QSize(wh[0].toInt(&okW), wh[1].toInt(&okH));
        if (!okW || !okH || size.width() < 200 || size.height() < 150 || size.width() > 10000 ||
            size.height() > 10000)
            return fail("--size takes WxH, e.g. 1600x1000 (200x150 to 10000x10000)");
    }

    // The hidden --record-copies / --record-ms, checked as the record dialog's fields are
    // (before the window loads anything): "abc" was 0, then silently 1 copy.
    bool okC = false, okM = false;
    const int copies = p.value(recordCopies).toInt(&okC);
    const int ms = p.value(recordMs).toInt(&okM);
    if (!okC || copies < 1 || copies > immap::gui::RecordRequest::kMaxCopies)
        return fail(QStringLiteral("--record-copies takes a whole number from 1 to %1")
                        .arg(immap::gui::RecordRequest::kMaxCopies));
    if (!okM || ms < 1 || ms > immap::gui::RecordRequest::kMaxDurationMs)
        return fail(QStringLiteral("--record-ms takes a whole number of milliseconds from 1 to %1")
                        .arg(immap::gui::RecordRequest::kMaxDurationMs));

    immap::gui::MainWindow w(!shot);
    w.setHeadless(shot);
    if (!w.setView(p.value("view"))) return fail("--view takes " + viewList());

    // Load: the default, or the given source (a topology XML alone goes on the default host).
    bool ok = true;
    const QString topology = p.value("topology");
    const QString file = p.value("file");
    if (p.positionalArguments().isEmpty()) {
        if (topology.isEmpty() && file.isEmpty()) {
            w.loadDefault();
        } else {
            // The default host, on another topology or showing another file.
            ok = w.openSource(QString::fromLatin1(immap::session::kDefaultSource),
                              topology.isEmpty()
                                  ? QString::fromLatin1(immap::session::kDefaultTopology)
                                  : topology,
                              file);
            if (!ok && !shot) w.loadDefault();
        }
    } else {
        const immap::gui::SourceArg a = immap::gui::classifySource(p.positionalArguments().first());
        if (a.kind == immap::gui::SourceArg::Kind::Topology) {
            w.loadDefault();
            ok = w.openTopology(a.spec);
        } else {
            ok = w.openSource(a.spec, topology, file);
            // The window still opens on something useful behind the error dialog.
            if (!ok && !shot) w.loadDefault();
        }
    }
    if (shot && !ok) return 1;
    if (p.isSet("scenario")) {
        // A screenshot runs the sweep itself, when its view shows one (below).
        w.workshop()->setPrecompute(!shot && !p.isSet("no-precompute"));
        if (!w.openScenario(p.value("scenario")) && shot) return 1;
        if (p.isSet("view")) w.setView(p.value("view"));  // the command line wins
        if (p.isSet("bookmark")) {
            bool okN = false;
            const int n = p.value("bookmark").toInt(&okN);
            if (!okN || n < 1) return fail("--bookmark takes a bookmark number from 1");
            w.showBookmark(n - 1);
        }
    }
    if (p.isSet("bands")) {
        bool okN = false;
        const uint n = p.value("bands").toUInt(&okN);
        if (!okN || n > 1000) return fail("--bands takes a count from 0 to 1000");
        w.sweepControls()->setBands(static_cast<int>(n));
    }
    if (p.isSet("workshop")) w.setWorkshopMode(true);
    if (p.isSet(recordOpt))
        return w.recordTrace(p.value(recordOpt), QStringLiteral("single"), copies, ms) ? 0 : 1;
    if (p.isSet(saveOpt)) return w.saveScenario(p.value(saveOpt)) ? 0 : 1;
    if (p.isSet("split")) {
        immap::mapping::Policy policy;
        std::string error;
        if (!immap::mapping::Policy::parse(p.value("split").toStdString(), policy, error))
            return fail("--split: " + QString::fromStdString(error));
        w.treePages()->setSplitPolicy(p.value("split"));
    }
    if (p.isSet("exec-steps")) {
        bool okN = false;
        const int n = p.value("exec-steps").toInt(&okN);
        if (!okN || n < 0) return fail("--exec-steps takes a step count");
        w.setAutoplay(false);
        w.execProcess();
        w.animation()->seek(n);
    }
    if (p.isSet("walk")) {
        const QStringList parts = p.value("walk").split(QLatin1Char('-'));
        std::uint64_t first = 0, last = 0;
        if (parts.size() > 2 || !immap::gui::InsertVmaDialog::parsePage(parts[0], first) ||
            !immap::gui::InsertVmaDialog::parsePage(parts.value(1, parts[0]), last) || last < first)
            return fail("--walk takes FIRST[-LAST] pages, e.g. 0x100 or 0x100-0x120");
        w.setAutoplay(false);
        w.walkPages(first, last);
        bool okN = true;
        const int n = p.isSet("walk-steps") ? p.value("walk-steps").toInt(&okN) : 1 << 30;
        if (!okN || n < 0) return fail("--walk-steps takes a step count");
        w.animation()->seek(n);
    }

    if (p.isSet("trace")) {
        if (!w.openTrace(p.value("trace")) && shot) return 1;
        if (p.isSet("trace-event")) {
            bool okN = false;
            const qlonglong n = p.value("trace-event").toLongLong(&okN);
            if (!okN || n < 0) return fail("--trace-event takes an event count");
            w.replaySeek(n);
        }
    }
    if (!shot) {
        if (p.isSet("measured")) w.openMeasurements(p.value("measured"));
        w.show();
        if (p.isSet("validation")) w.showValidation();
        return app.exec();
    }
    // The contention view shows both runs a fixed simulated time in (the lanes' history is
    // that time in 240 snapshots), computed here so the picture does not depend on the machine.
    if (p.value("view") == QLatin1String("contention") &&
        !w.runContentionFor(kContentionShotNs, 240))
        return 1;
    // The throughput view shows a sweep, and so does a scenario's topology slide (its heat):
    // run the tab's default one, or the scenario's, then render.
    const bool heatSlide = p.isSet("scenario") && w.currentView() == w.topologyView() &&
                           immap::gui::Workshop::slideShowsSweep(w.scenario(), w.currentBookmark());
    if (w.currentView() == w.throughputView()->parentWidget() || heatSlide) {
        if (!w.startSweep()) return fail("the sweep did not start");
        w.sweeps()->wait();
        QApplication::processEvents();
        if (p.isSet("measured") && !w.openMeasurements(p.value("measured"))) return 1;
        if (!w.sweepSummary()->text().isEmpty())
            std::cout << w.sweepSummary()->text().toStdString() << '\n';
    }
    w.setAttribute(Qt::WA_DontShowOnScreen);
    w.resize(size);
    w.show();
    QApplication::processEvents();
    w.resize(size);  // the offscreen platform may clamp the first size to its screen
    QApplication::processEvents();
    // With a step or walk shown, say which: the caption names the kernel step.
    if (const immap::session::Playback* pb = w.animation()->player())
        std::cout << "step " << pb->position() << "/" << pb->count() << ": " << pb->caption()
                  << '\n';
    if (w.currentBookmark() >= 0)
        std::cout << "bookmark " << w.currentBookmark() + 1 << "/" << w.scenario().bookmarks.size()
                  << ": " << w.scenario().bookmarks[std::size_t(w.currentBookmark())].caption
                  << '\n';
    if (p.isSet("figure-only")) {
        bool okS = false;
        const double scale = p.value("scale").toDouble(&okS);
        if (!okS || scale < 1 || scale > 8) return fail("--scale takes a number from 1 to 8");
        const QString error = immap::views::ViewExporter::saveFigure(
            w.currentFigure(), p.value("screenshot"), w.windowInputs(),
            p.isSet("size") ? size : QSize(), scale);
        if (!error.isEmpty()) return fail(error);
        return 0;
    }
    QImage image;
    if (p.isSet("validation")) {
        // The scorecard's dialog instead of the window, once its run is over.
        immap::gui::ValidationDialog* d = w.showValidation();
        d->wait();
        QApplication::processEvents();
        d->resize(size);
        QApplication::processEvents();
        image = d->grab().toImage();
    } else {
        image = w.grab().toImage();
    }
    if (const std::string why =
            immap::io::OutputTarget::check(p.value("screenshot").toStdString(), w.windowInputs());
        !why.empty())
        return fail(QString::fromStdString(why));
    QBuffer png;
    png.open(QIODevice::WriteOnly);
    if (!image.save(&png, "PNG")) return fail(p.value("screenshot") + ": cannot encode the PNG");
    std::string why;
    if (!immap::io::AtomicFile::save(p.value("screenshot").toStdString(), png.data().toStdString(),
                                     why))
        return fail(QString::fromStdString(why));
    return 0;
}

}  // namespace
