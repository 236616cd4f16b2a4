#!/usr/bin/env bash
# Directories given to memsim, check-corpus, hwrun and report are walked
# without following links to directories: two links to a parent once made the
# walk exponential (it never ended).  Each command must finish in 10 s and
# find the one test file exactly once.
# usage: dir_links.sh MEMSIM SOURCE_DIR
set -u
memsim=$1
src=$2
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
mkdir -p "$d/a"
cp "$src/litmus/mp_release_acquire.lit" "$d/a/"
cp "$src/import/fuzz/seeds-alloy/mp.test" "$d/a/"
cp "$src/tests/report/sc-judged-sample.json" "$d/a/"
ln -s .. "$d/a/up"
ln -s .. "$d/a/up2"
ln -s ../a "$d/a/self"
fails=0
run() { # run WHAT EXPECTED-COUNT PATTERN COMMAND...
  local what=$1 want=$2 pat=$3
  shift 3
  timeout 10 "$@" >"$d/out" 2>&1
  local rc=$?
  local got
  got=$(grep -c -- "$pat" "$d/out")
  if [ $rc = 124 ] || [ "$got" != "$want" ]; then
    echo "FAIL: $what: exit $rc, '$pat' $got times (want $want)"
    head -5 "$d/out"
    fails=$((fails + 1))
  fi
}
run "memsim DIR" 1 "MP+rel.sys+acq.sys" "$memsim" -q "$d"
run "memsim check-corpus DIR" 1 ": 1 files:" "$memsim" check-corpus "$d"
run "memsim hwrun --emit-source DIR" 1 "^ \* Test: MP+rel.sys+acq.sys" "$memsim" hwrun --emit-source "$d"
run "memsim report DIR" 1 "memsim report: 1 run," "$memsim" report --no-graphs --format md -o "$d/r" "$d"
exit $((fails > 0))
