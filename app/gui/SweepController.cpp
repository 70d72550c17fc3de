#include "SweepController.h"
#include "limits/UserReason.h"
#include "sim/RunCache.h"

#include <QMetaObject>

using namespace immap;

SweepController::SweepController(QObject* parent) : QObject(parent) {
    qRegisterMetaType<std::vector<sim::SimResult>>("std::vector<immap::sim::SimResult>");
    qRegisterMetaType<sim::SweepUpdate>("immap::sim::SweepUpdate");
}

SweepController::~SweepController() {
    cancel();
    if (worker_.joinable()) worker_.join();
}

bool SweepController::start(const topology::Topology& topology, session::SimSettings settings,
                            unsigned threads) {
    if (running_) return false;
    if (worker_.joinable()) worker_.join();
    running_ = true;
    cancel_ = false;
    worker_ = std::thread([this, topo = topology, settings = std::move(settings), threads] {
        try {
            sim::SweepConfig config = settings.sweep(topo, threads);
            config.cache = sim::RunCache::process();
            auto runs = sim::Sweep::run(
                config,
                [this](std::size_t done, std::size_t total) {
                    QMetaObject::invokeMethod(
                        this,
                        [this, done, total] {
                            emit progress(static_cast<int>(done), static_cast<int>(total));
                        },
                        Qt::QueuedConnection);
                },
                &cancel_,
                [this](const sim::SweepUpdate& u) {
                    QMetaObject::invokeMethod(
                        this, [this, u] { emit pointDone(u); }, Qt::QueuedConnection);
                });
            QMetaObject::invokeMethod(
                this,
                [this, runs = std::move(runs)] {
                    running_ = false;
                    if (cancel_ || runs.empty())
                        emit cancelled();
                    else
                        emit finished(runs);
                },
                Qt::QueuedConnection);
        } catch (...) {
            const QString reason = QString::fromStdString(
                limits::UserReason::of(std::current_exception(), "running the sweep"));
            QMetaObject::invokeMethod(
                this,
                [this, reason] {
                    running_ = false;
                    emit failed(reason);
                },
                Qt::QueuedConnection);
        }
    });
    return true;
}

void SweepController::cancel() {
    cancel_ = true;
}

void SweepController::wait() {
    if (worker_.joinable()) worker_.join();
}
