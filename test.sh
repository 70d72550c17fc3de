#!/usr/bin/env bash
# Build immap-lab if needed, then run its CTest suites headless.
# Extra arguments go to ctest, e.g. ./test.sh -R itree
set -euo pipefail

ROOT=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
"$ROOT/scripts/setup.sh"

# No display on CI or most dev shells; Qt's offscreen platform needs none.
export QT_QPA_PLATFORM=offscreen

# Serial by default: some suites are CPU-heavy (benchmarks, simulator sweeps) and the machines
# have 2 cores, so running them side by side makes timings noisy and risks timeouts.
# ctest itself honours CTEST_PARALLEL_LEVEL from the environment, which overrides this.
export CTEST_PARALLEL_LEVEL="${CTEST_PARALLEL_LEVEL:-1}"

# exec: ctest's exit status becomes this script's (and CI's verdict).
# --no-tests=error: a build that silently lost its tests must not pass.
exec ctest --test-dir "$ROOT/build" --output-on-failure --no-tests=error "$@"
