#!/usr/bin/env bash
# Build immap-lab if needed, then start it on the built-in default scenario.
# Extra arguments go to the program. Relative paths in them are taken from your current
# directory: we do not cd.
set -euo pipefail

ROOT=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
"$ROOT/scripts/setup.sh"

GUI="$ROOT/build/app/gui/immap-lab"
CLI="$ROOT/build/app/cli/immap"

# Until the GUI target exists, the CLI's default summary is the closest thing to "the app".
if [[ ! -x $GUI ]]; then
  echo "immap-lab: the GUI arrives later; this is the CLI summary of the default scenario (build/app/cli/immap)." >&2
  exec "$CLI" "$@"
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
