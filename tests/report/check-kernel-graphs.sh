#!/usr/bin/env bash
# Every kernel skeleton's witness, under src11 and ptx, must render with
# Graphviz without a complaint. Kernel graphs (clusters of workgroups, many
# rf/co edges between them) made dot fail with "trouble in init_rank" before
# report_dot moved those edges' names to xlabels.
# usage: check-kernel-graphs.sh MEMSIM SOURCE_DIR
set -u
memsim=$1
src=$2
command -v dot >/dev/null || { echo "SKIP: Graphviz's dot is not installed"; exit 77; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
fails=0 n=0
for f in "$src"/litmus/kernels/*.lit; do
  for m in src11 ptx; do
    "$memsim" -j1 --model "$m" --dot "$out/g.dot" "$f" >/dev/null 2>"$out/memsim.err"
    [ $? -le 1 ] || { echo "FAIL: memsim on $f: $(head -1 "$out/memsim.err")"; fails=$((fails + 1)); continue; }
    if ! dot -Tsvg "$out/g.dot" -o "$out/g.svg" 2>"$out/dot.err" || [ -s "$out/dot.err" ]; then
      echo "FAIL: dot on $(basename "$f") ($m): $(head -1 "$out/dot.err")"
      fails=$((fails + 1))
    fi
    n=$((n + 1))
  done
done
[ $n -ge 2 ] || { echo "FAIL: no kernel skeletons found under $src/litmus/kernels"; exit 1; }
[ $fails -eq 0 ] || exit 1
echo "$n kernel graphs rendered without a Graphviz complaint"
