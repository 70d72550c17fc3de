#include "measure/ExeclBench.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <sstream>
#include <thread>

namespace immap::measure {

namespace {

std::uint64_t monotonicNs() {
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<std::uint64_t>(ts.tv_sec) * 1'000'000'000ull +
           static_cast<std::uint64_t>(ts.tv_nsec);
}

}  // namespace

double ExeclBench::runOnce(const std::string& helper, unsigned copies, double seconds,
                           double graceSeconds) {
    if (access(helper.c_str(), X_OK) != 0)
        throw MeasureError(helper, 0,
                           std::string("the execl helper is not an executable file (") +
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
    const pid_t self = getpid();
    for (unsigned c = 0; c < copies; ++c) {
        std::string a0 = helper, a2 = "0";
        char* argv[] = {a0.data(), const_cast<char*>(deadlineText.c_str()), a2.data(),
                        const_cast<char*>(fdText.c_str()), nullptr};
        const pid_t pid = fork();
        if (pid == 0) {
            // Only async-signal-safe calls until exec. The copy dies with us (kill -9, SIGINT,
            // SIGTERM), and the flag survives its re-execs; a parent already gone before the
            // prctl is caught by the getppid check.
            prctl(PR_SET_PDEATHSIG, SIGKILL);
            if (getppid() != self) _exit(127);
            execv(argv[0], argv);
            _exit(127);
        }
        if (pid < 0) {
            spawnError = helper + ": cannot start (" + std::strerror(errno) + ")";
            break;
        }
        pids.push_back(pid);
    }
    close(writeFd);
    // Copies report at the deadline and exit; a helper that does not (a wrong program, one
    // that hangs) is killed once the grace period after the deadline is over.
    const std::uint64_t limit = deadline + static_cast<std::uint64_t>(graceSeconds * 1e9);
    bool timedOut = false;
    std::string text;
    char buf[4096];
    for (;;) {
        const std::uint64_t now = monotonicNs();
        if (now >= limit) {
            timedOut = true;
            break;
        }
        pollfd pfd{fds[0], POLLIN, 0};
        const auto waitMs =
            static_cast<int>(std::min<std::uint64_t>((limit - now) / 1'000'000 + 1, 1000));
        const int ready = poll(&pfd, 1, waitMs);
        if (ready < 0 && errno != EINTR) break;
        if (ready <= 0) continue;
        const ssize_t n = read(fds[0], buf, sizeof buf);
        if (n > 0) {
            text.append(buf, static_cast<std::size_t>(n));
        } else if (n == 0 || errno != EINTR) {
            break;
        }
    }
    close(fds[0]);
    if (timedOut)
        for (pid_t pid : pids)
            kill(pid, SIGKILL);
    int failed = 0;
    for (pid_t pid : pids) {
        int status = 0;
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) ++failed;
    }
    if (!spawnError.empty()) throw MeasureError(spawnError);
    if (timedOut) {
        char line[160];
        std::snprintf(
            line, sizeof line,
            "%u of %u copies had not reported %.1f s after the run's end and were "
            "killed; is it the immap-execl helper (DEADLINE_NS COUNT FD)?",
            copies - std::min<unsigned>(
                         static_cast<unsigned>(std::count(text.begin(), text.end(), '\n')), copies),
            copies, graceSeconds);
        throw MeasureError(helper, 0, line);
    }
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
        throw MeasureError(helper, 0,
                           std::to_string(copies - std::min(reports, copies)) + " of " +
                               std::to_string(copies) + " copies did not report (" +
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
    // A helper that does not behave is found in a second, not after the first full run: one
    // copy for 20 ms must report within 5 s.
    runOnce(config.helper, 1, 0.02, 5);
    for (unsigned r = 0; r < config.repeat; ++r)
        for (MeasuredPoint& p : curve.points)
            p.runs.push_back(runOnce(config.helper, p.copies, config.seconds));
    for (MeasuredPoint& p : curve.points)
        meanAndStddev(p.runs, p.execsPerSecond, p.stddev);
    return curve;
}

}  // namespace immap::measure
