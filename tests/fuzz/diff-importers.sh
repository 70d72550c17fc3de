#!/usr/bin/env bash
# Loads every file given (or every file in the directories given) as xml:FILE with `immap
# topology show --json` under both of hwloc's XML importers, libxml2's and the built-in one
# (HWLOC_LIBXML_IMPORT=0), and counts the files whose exit status, standard output and
# standard error differ: a fuzz corpus is a good input. Prints each differing file.
#   tests/fuzz/diff-importers.sh build/app/cli/immap build-fuzz/corpus/fuzz_topology_xml ...
set -uo pipefail
IMMAP=${1:?usage: diff-importers.sh IMMAP FILE_OR_DIR...}
shift
same=0 differ=0 loaded=0
while IFS= read -r -d '' f; do
    a=$(HWLOC_LIBXML_IMPORT=1 timeout 60 "$IMMAP" topology show --json "xml:$f" 2>&1; echo "exit $?")
    b=$(HWLOC_LIBXML_IMPORT=0 timeout 60 "$IMMAP" topology show --json "xml:$f" 2>&1; echo "exit $?")
    if [[ $a == "$b" ]]; then
        ((same++))
        [[ $a == *"exit 0" ]] && ((loaded++))
    else
        ((differ++))
        echo "differs: $f"
    fi
done < <(find "$@" -type f -print0)
echo "$((same + differ)) files: $same the same under both importers ($loaded of them loaded), $differ differ"
((differ == 0))
