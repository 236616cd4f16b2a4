#!/usr/bin/env bash
# Runs `memsim kernel` on a launch file of this folder and passes its exit
# status on (0: every `expect` line holds).
#   run-kernel.sh MEMSIM LAUNCH.lit source   as written: memsim compiles the .hip/.cu
#   run-kernel.sh MEMSIM LAUNCH.lit ir       the same launch on the checked-in IR:
#       each "NAME.hip" / "NAME.cu" becomes "gen/NAME.ll" next to it (what gen.sh made)
set -euo pipefail
memsim=$1 launch=$2 mode=$3
shift 3
case $mode in
  source) exec "$memsim" kernel -q --model src11,ptx,sc "$@" "$launch" ;;
  ir)
    dir=$(cd "$(dirname "$launch")" && pwd)
    tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
    sed -E "s#\"([A-Za-z0-9_]+)\\.(hip|cu)\"#\"$dir/gen/\\1.ll\"#g" "$launch" > "$tmp/$(basename "$launch")"
    if ! grep -q '/gen/.*\.ll"' "$tmp/$(basename "$launch")"; then
      echo "run-kernel.sh: $launch names no .hip or .cu source" >&2; exit 2
    fi
    "$memsim" kernel -q --model src11,ptx,sc "$@" "$tmp/$(basename "$launch")" ;;
  *) echo "run-kernel.sh: mode is source or ir, not '$mode'" >&2; exit 2 ;;
esac
