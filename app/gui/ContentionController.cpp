#include "ContentionController.h"
#include "limits/UserReason.h"

#include <QMetaObject>
#include <chrono>

using namespace immap;
using Clock = std::chrono::steady_clock;

ContentionController::ContentionController(QObject* parent) : QObject(parent) {
    qRegisterMetaType<LiveSnapshotPtr>("LiveSnapshotPtr");
}

ContentionController::~ContentionController() {
    cancel();
}

bool ContentionController::start(const topology::Topology& topology,
                                 std::shared_ptr<const sim::Recipe> recipe, live::LiveConfig config,
                                 double slowdown, QString& error) {
    cancel();
    if (config.policies.empty() || config.run.copies == 0) {
        error = tr("a live run needs a policy and at least one copy");
        return false;
    }
    auto topo = std::make_shared<topology::Topology>(topology);
    config.run.topology = topo.get();
    ++generation_;
    stop_ = false;
    paused_ = false;
    steps_ = 0;
    inFlight_ = 0;
    slowdown_ = slowdown;
    running_ = true;
    latest_.reset();
    worker_ = std::thread([this, topo, recipe = std::move(recipe), config] {
        std::unique_ptr<live::LiveDriver> driver;
        std::uint64_t frame = 0;
        double wallRunning = 0;  // the effective slow-down: the simulation may not keep up
        double simRunning = 0;
        try {
            // Built here: setting up two runs (every process's mappings, the trees) takes a
            // moment the GUI thread should not wait for.
            driver = std::make_unique<live::LiveDriver>(config);
            auto last = Clock::now();
            while (!stop_) {
                const auto frameStart = Clock::now();
                driver->setSlowdown(slowdown_);
                if (paused_ && !driver->paused()) driver->pause();
                if (!paused_ && driver->paused()) driver->resume();
                bool changed = false;
                for (int n = steps_.exchange(0); n > 0; --n)
                    changed = driver->stepVisible() || changed;
                const double wall = std::chrono::duration<double>(frameStart - last).count();
                last = frameStart;
                const auto deadline = frameStart + std::chrono::milliseconds(kBudgetMs);
                // A frame's worth of simulated time, cut short when the budget runs out (the
                // clock then falls behind the wall: the status shows the effective slow-down).
                const sim::Time moved =
                    driver->tick(wall, [&] { return !stop_ && Clock::now() < deadline; });
                if (!driver->paused()) {
                    wallRunning += wall;
                    simRunning += moved;
                }
                // Skip a frame while the GUI thread has not taken the last one.
                if (inFlight_ == 0 || changed) {
                    // The trees cost most to draw: every third frame (about 10 Hz) is enough.
                    live::LiveSnapshot s = driver->snapshot(frame % 3 == 0 || changed);
                    s.effectiveSlowdown = simRunning > 0 ? wallRunning * 1e9 / simRunning : 0;
                    publish(std::make_shared<const live::LiveSnapshot>(std::move(s)));
                }
                ++frame;
                if (driver->finished()) break;
                // Short naps, so that cancel never waits for a whole frame.
                const auto next = frameStart + std::chrono::milliseconds(kFrameMs);
                while (!stop_ && Clock::now() < next)
                    std::this_thread::sleep_for(std::min<Clock::duration>(
                        next - Clock::now(), std::chrono::milliseconds(4)));
            }
            if (!stop_) {
                publish(std::make_shared<const live::LiveSnapshot>(driver->snapshot(true)));
                QMetaObject::invokeMethod(
                    this,
                    [this, gen = generation_.load()] {
                        if (gen != generation_) return;
                        running_ = false;
                        emit finished();
                    },
                    Qt::QueuedConnection);
            }
        } catch (...) {
            const QString reason = QString::fromStdString(
                limits::UserReason::of(std::current_exception(), "running the live simulation"));
            QMetaObject::invokeMethod(
                this,
                [this, reason, gen = generation_.load()] {
                    if (gen != generation_) return;
                    running_ = false;
                    emit failed(reason);
                },
                Qt::QueuedConnection);
        }
    });
    return true;
}

void ContentionController::publish(LiveSnapshotPtr s) {
    ++inFlight_;
    QMetaObject::invokeMethod(
        this,
        [this, s = std::move(s), gen = generation_.load()] {
            --inFlight_;
            if (gen != generation_ || stop_) return;  // a frame from a cancelled run
            latest_ = s;
            emit snapshotReady(s);
        },
        Qt::QueuedConnection);
}

void ContentionController::pause() {
    paused_ = true;
}

void ContentionController::resume() {
    paused_ = false;
}

void ContentionController::togglePause() {
    paused_ = !paused_;
}

void ContentionController::step() {
    paused_ = true;
    ++steps_;
}

void ContentionController::setSlowdown(double factor) {
    slowdown_ = factor;
}

void ContentionController::cancel() {
    stop_ = true;
    if (worker_.joinable()) worker_.join();
    running_ = false;
}
