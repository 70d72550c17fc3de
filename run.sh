#!/usr/bin/env bash
# Build immap-lab if needed, then start it on the built-in default scenario.
# Extra arguments go to the program. Relative paths in them are taken from your current
# directory: we do not cd.
set -euo pipefail

ROOT=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
"$ROOT/scripts/setup.sh"

GUI="$ROOT/build/app/gui/immap-lab"
if [[ ! -x $GUI ]]; then
  echo "immap-lab: $GUI was not built; see the build output above." >&2
  exit 1
fi

# Qt would abort with a cryptic "could not connect to display"; say what to do instead.
if [[ -z ${DISPLAY:-} && -z ${WAYLAND_DISPLAY:-} ]]; then
  {
    echo "immap-lab: no display (neither DISPLAY nor WAYLAND_DISPLAY is set). From $ROOT, run it under a virtual X server:"
    echo "xvfb-run -a ./build/app/gui/immap-lab"
    echo "or, headless, write a screenshot: ./build/app/gui/immap-lab --screenshot shot.png"
  } >&2
  exit 1
fi

exec "$GUI" "$@"
