/* UnixBench's execl loop, for `immap bench execl` (docs/measurements.md):
 *   immap-execl DEADLINE_NS COUNT FD
 * Re-execs itself (argv[0], an absolute path) with COUNT + 1 until CLOCK_MONOTONIC reaches
 * DEADLINE_NS, then writes "COUNT END_NS\n" to the inherited pipe FD and exits. One short write
 * is atomic on a pipe, so N copies can share one. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char** argv) {
    if (argc != 4) {
        fputs("usage: immap-execl DEADLINE_NS COUNT FD\n", stderr);
        return 2;
    }
    const unsigned long long deadline = strtoull(argv[1], NULL, 10);
    const unsigned long long count = strtoull(argv[2], NULL, 10);
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    const unsigned long long now =
        (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec;
    if (now >= deadline) {
        char line[64];
        const int n = snprintf(line, sizeof line, "%llu %llu\n", count, now);
        return write(atoi(argv[3]), line, (size_t)n) == n ? 0 : 1;
    }
    char next[24];
    snprintf(next, sizeof next, "%llu", count + 1);
    execl(argv[0], argv[0], argv[1], next, argv[3], (char*)NULL);
    perror("immap-execl: execl");
    return 1;
}
