#!/usr/bin/env bash
# Build immap-lab if needed, then run its CTest suites headless.
# Extra arguments go to ctest, e.g. ./test.sh -R itree
set -euo pipefail

ROOT=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
"$ROOT/scripts/setup.sh"

# No display on CI or most dev shells; Qt's offscreen platform needs none.
export QT_QPA_PLATFORM=offscreen

# One test per core (CTEST_PARALLEL_LEVEL overrides it), the longest first (COST in
# tests/CMakeLists.txt). A suite that ever needs the machine to itself says so there (RUN_SERIAL).
export CTEST_PARALLEL_LEVEL="${CTEST_PARALLEL_LEVEL:-$(nproc)}"

# exec: ctest's exit status becomes this script's (and CI's verdict).
# --no-tests=error: a build that silently lost its tests must not pass.
exec ctest --test-dir "$ROOT/build" --output-on-failure --no-tests=error "$@"
