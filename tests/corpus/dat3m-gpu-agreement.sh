#!/bin/bash
# Agreement with Dat3M on its whole public GPU suites, folder by folder (import/README.md's table).
#   tests/corpus/dat3m-gpu-agreement.sh MEMSIM DAT3M_CHECKOUT [OUTDIR]
# DAT3M_CHECKOUT is a checkout of hernanponcedeleon/Dat3M: litmus/PTX, litmus/VULKAN and the csv
# files of dartagnan/src/test/resources.  One check-corpus run per (folder, expectations, model);
# the last line of each is its summary.  CADP has only liveness expectations: its tests are read and
# explored (at loop bound 2) and counted as "no expectation".
set -u
memsim=$1 root=$2 out=${3:-/tmp/dat3m-agreement}
res=$root/dartagnan/src/test/resources
mkdir -p "$out"
# check-corpus resolves csv paths against the csv's directory: Dat3M's are relative to the root.
for c in PTXv6_0 PTXv7_5 VULKAN VULKAN-DR; do cp "$res/$c-expected.csv" "$root/$c-expected.csv"; done
run() { # name folder csv model [extra]
    local name=$1 dir=$2 csv=$3 model=$4; shift 4
    "$memsim" check-corpus "$root/litmus/$dir" --expected "$root/$csv-expected.csv" --model "$model" -v "$@" \
        > "$out/$name.txt" 2>&1
    printf '%-28s %s\n' "$name" "$(grep '^check-corpus' "$out/$name.txt" | sed 's/.*files: //')"
}
for d in Barrier Manual Memalloy Nvidia; do run "PTX-$d-v7.5" PTX/$d PTXv7_5 ptx; done
# ptx75 (Dat3M's ptx-v7.5.cat with proxies): every test, the proxy tests included.
for d in Barrier Manual Memalloy Nvidia; do run "PTX-$d-v7.5-ptx75" PTX/$d PTXv7_5 ptx75; done
for d in Barrier Manual Memalloy Nvidia; do run "PTX-$d-v6.0" PTX/$d PTXv6_0 ptx; done
run PTX-CADP PTX/CADP PTXv7_5 ptx --loop-bound 2
for d in Barrier Kronos-Group Manual; do run "VULKAN-$d" VULKAN/$d VULKAN vulkan-dat3m; done
# Race freedom (Dat3M's VULKAN-DR-expected.csv, property CAT_SPEC): check-corpus --races.
for d in Barrier Data-Race Manual; do run "VULKAN-$d-DR" VULKAN/$d VULKAN-DR vulkan-dat3m --races; done
run VULKAN-CADP VULKAN/CADP VULKAN vulkan-dat3m --loop-bound 2
# Liveness (Dat3M's *-Liveness-*.csv): 1 when memsim finds no hang.
cp "$res/PTXv7_5-Liveness-expected.csv" "$res/VULKAN-Liveness-Fair-expected.csv" "$root/"
for d in Barrier Manual; do run "PTX-$d-liveness" PTX/$d PTXv7_5-Liveness ptx --liveness; done
run PTX-Manual-liveness-ptx75 PTX/Manual PTXv7_5-Liveness ptx75 --liveness
run PTX-CADP-liveness PTX/CADP PTXv7_5-Liveness ptx --liveness --loop-bound 2
run VULKAN-Barrier-liveness VULKAN/Barrier VULKAN-Liveness-Fair vulkan-dat3m --liveness
run VULKAN-CADP-liveness VULKAN/CADP VULKAN-Liveness-Fair vulkan-dat3m --liveness --loop-bound 2
# Livelocks that need three iterations (import/README.md, Liveness): about 5 minutes for VULKAN/CADP on
# the 2-core machine, so only with BOUND3=1.
if [ "${BOUND3:-0}" = 1 ]; then
    run PTX-CADP-liveness-3 PTX/CADP PTXv7_5-Liveness ptx --liveness --loop-bound 3
    run VULKAN-CADP-liveness-3 VULKAN/CADP VULKAN-Liveness-Fair vulkan-dat3m --liveness --loop-bound 3
fi
