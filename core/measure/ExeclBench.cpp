#include "measure/ExeclBench.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ctime>
#include <sstream>
#include <thread>

extern char** environ;

namespace immap::measure {

namespace {

std::uint64_t monotonicNs() {
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<std::uint64_t>(ts.tv_sec) * 1'000'000'000ull +
           static_cast<std::uint64_t>(ts.tv_nsec);
}

}  // namespace

double ExeclBench::runOnce(const std::string& helper, unsigned copies, double seconds) {
    if (access(helper.c_str(), X_OK) != 0)
        throw MeasureError(helper + ": the execl helper is not an executable file (" +
                           std::strerror(errno) + ")");
    int fds[2];
    // The read end must not leak into the copies (their EOF would never come); the write end is
    // what they report on.
    if (pipe2(fds, O_CLOEXEC) != 0)
        throw MeasureError(std::string("pipe: ") + std::strerror(errno));
    const int writeFd = fcntl(fds[1], F_DUPFD, 3);  // without FD_CLOEXEC, inherited
    close(fds[1]);
    if (writeFd < 0) {
        close(fds[0]);
        throw MeasureError(std::string("fcntl: ") + std::strerror(errno));
    }
    const std::uint64_t start = monotonicNs();
    const std::uint64_t deadline = start + static_cast<std::uint64_t>(seconds * 1e9);
    const std::string deadlineText = std::to_string(deadline);
    const std::string fdText = std::to_string(writeFd);
    std::vector<pid_t> pids;
    std::string spawnError;
    for (unsigned c = 0; c < copies; ++c) {
        std::string a0 = helper, a2 = "0";
        char* argv[] = {a0.data(), const_cast<char*>(deadlineText.c_str()), a2.data(),
                        const_cast<char*>(fdText.c_str()), nullptr};
        pid_t pid = 0;
        const int rc = posix_spawn(&pid, helper.c_str(), nullptr, nullptr, argv, environ);
        if (rc != 0) {
            spawnError = helper + ": cannot start (" + std::strerror(rc) + ")";
            break;
        }
        pids.push_back(pid);
    }
    close(writeFd);
    std::string text;
    char buf[4096];
    for (;;) {
        const ssize_t n = read(fds[0], buf, sizeof buf);
        if (n > 0) {
            text.append(buf, static_cast<std::size_t>(n));
        } else if (n == 0 || errno != EINTR) {
            break;
        }
    }
    close(fds[0]);
    int failed = 0;
    for (pid_t pid : pids) {
        int status = 0;
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) ++failed;
    }
    if (!spawnError.empty()) throw MeasureError(spawnError);
    // Each copy's rate over its own run: from the common start to its last exec.
    double total = 0;
    unsigned reports = 0;
    std::istringstream in(text);
    unsigned long long count = 0, end = 0;
    while (in >> count >> end) {
        ++reports;
        if (end > start)
            total += static_cast<double>(count) * 1e9 / static_cast<double>(end - start);
    }
    if (failed > 0 || reports != copies)
        throw MeasureError(helper + ": " + std::to_string(copies - std::min(reports, copies)) +
                           " of " + std::to_string(copies) + " copies did not report (" +
                           std::to_string(failed) + " exited with an error)");
    return total;
}

MeasuredCurve ExeclBench::run(const ExeclBenchConfig& config) {
    MeasuredCurve curve;
    curve.kind = "execl";
    curve.host = hostName();
    curve.kernel = kernelRelease();
    curve.topology = "host";
    curve.pus = std::thread::hardware_concurrency();
    curve.loadAverage = loadAverage1();
    curve.seconds = config.seconds;
    curve.repeat = config.repeat;
    curve.helper = config.helper;
    curve.points.resize(config.copies.size());
    for (std::size_t i = 0; i < config.copies.size(); ++i)
        curve.points[i].copies = config.copies[i];
    for (unsigned r = 0; r < config.repeat; ++r)
        for (MeasuredPoint& p : curve.points)
            p.runs.push_back(runOnce(config.helper, p.copies, config.seconds));
    for (MeasuredPoint& p : curve.points)
        meanAndStddev(p.runs, p.execsPerSecond, p.stddev);
    return curve;
}

}  // namespace immap::measure
