#!/bin/sh
# instrument/'s end-to-end test: memsim kernel on HIP kernels compiled by
# clang-22 (kernels.hip) and on Triton's checked-in IR (../triton/gen):
# verdicts, the --emit-lit round trip (the extracted .lit gives the same
# verdicts), kernel source lines in diagnoses, and errors that name the
# instruction, the function and the line.   usage: run.sh MEMSIM
set -u
memsim=$1
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
hip=1
command -v clang-22 >/dev/null 2>&1 && [ -f /usr/include/hip/hip_runtime.h ] || hip=0
[ $hip = 1 ] || echo "note: clang-22 or the HIP headers are missing: HIP cases are skipped"

# verdicts and the round trip
check() { # LAUNCH [-D ...]
    f=$1; shift
    out=$("$memsim" kernel "$dir/$f" --model src11,ptx -q -j 1 "$@" 2>&1); rc=$?
    [ $rc = 0 ] || { fail "$f $*: exit $rc: $out"; return; }
    "$memsim" kernel "$dir/$f" --emit-lit "$@" >"$tmp/x.lit" 2>"$tmp/err" || { fail "$f --emit-lit: $(cat "$tmp/err")"; return; }
    back=$("$memsim" -q --model src11,ptx -j 1 "$tmp/x.lit" 2>&1)
    [ "$back" = "$out" ] || fail "$f $*: the emitted .lit gives '$back', the kernel '$out'"
    echo "ok   $out"
}
dir=$here
for f in triton_mp_gfx942.lit triton_mp_sm90.lit triton_mp_no_barrier_sm90.lit triton_allreduce_gfx942.lit \
         triton_allreduce_sm90.lit endless.lit; do
    check "$f"
done
if [ $hip = 1 ]; then
    check mp.lit  # compiles kernels.hip
    # the other launches read the same kernels compiled once (the suite stays fast)
    clang-22 -x hip --offload-arch=gfx942 --cuda-device-only -nogpulib -D__AMDGCN_WAVEFRONT_SIZE=64 -emit-llvm -S -O1 \
        -g "$here/kernels.hip" -o "$tmp/kernels.ll" || fail "clang-22 kernels.hip"
    for f in mp_agent.lit tile.lit fill.lit scale.lit mp_plain_spin.lit float.lit iterations.lit; do sed 's/"kernels.hip"/"kernels.ll"/' "$here/$f" >"$tmp/$f"; done
    dir=$tmp
    for f in mp_agent.lit tile.lit fill.lit mp_plain_spin.lit float.lit iterations.lit; do check "$f"; done
    out=$("$memsim" kernel "$tmp/tile.lit" -D NOBAR=1 --model src11,ptx -q 2>&1)
    echo "$out" | grep -q "src11: race (MISMATCH)  ptx: fails (MISMATCH)" || fail "tile NOBAR=1: $out"
    # diagnoses name the kernel's source lines
    out=$("$memsim" kernel "$tmp/mp_agent.lit" -j 1 2>&1)
    echo "$out" | grep -q "st.release.agent flag (kernels.hip:19; release, agent scope; gpu0)" || fail "mp_agent race line: $out"
    echo "$out" | grep -q "Diagnosis: scope too narrow: mp_producer_agent_b0_t0's release (kernels.hip:19, agent)" ||
        fail "mp_agent diagnosis: $out"
    # errors: the instruction, the function, the line; the unroll bound
    out=$("$memsim" kernel "$tmp/scale.lit" 2>&1); rc=$?
    [ $rc = 2 ] && echo "$out" | grep -q "kernels.hip:66:26: error: a comparison of floating-point values read from memory" &&
        echo "$out" | grep -q "in function _Z5scalePfPi, instruction: %5 = fcmp" || fail "scale: exit $rc: $out"
    out=$("$memsim" kernel "$tmp/float.lit" 2>&1)
    echo "$out" | grep -q "Abstraction: floating-point arithmetic on values read from memory is abstracted" ||
        fail "float: no abstraction note: $out"
    out=$("$memsim" kernel "$tmp/fill.lit" -D N=40 2>&1); rc=$?
    [ $rc = 2 ] && echo "$out" | grep -q "kernels.hip:59:5: error: a loop runs more than 32 iterations" ||
        fail "fill N=40: exit $rc: $out"
    "$memsim" kernel "$tmp/fill.lit" -D N=40 --unroll 64 -q >/dev/null 2>&1 || fail "fill N=40 --unroll 64"
    echo "ok   HIP diagnoses and errors"
fi
# the HIP and CUDA examples (../examples) on the IR checked in beside them (no compiler needed)
ex=$here/../examples
for lang in hip cuda; do
    [ -d "$ex/$lang/gen" ] || continue
    mkdir -p "$tmp/$lang"
    for f in "$ex/$lang"/*.lit; do
        b=$(basename "$f")
        sed -E "s#from \"([a-z_]+)\.(hip|cu)\"#from \"$ex/$lang/gen/\1.ll\"#" "$f" >"$tmp/$lang/$b"
    done
    dir=$tmp/$lang
    for f in "$tmp/$lang"/*.lit; do check "$(basename "$f")"; done
done
# several launches in host order: the consumer launched after the producer needs no flag at all
if [ -f "$tmp/hip/mp_plain_flag.lit" ]; then
    sed -E 's/^(kernel consumer .*)$/\1 after producer/; s/^expect .*//' "$tmp/hip/mp_plain_flag.lit" >"$tmp/hip/after.lit"
    echo "expect holds" >>"$tmp/hip/after.lit"
    dir=$tmp/hip
    check after.lit
fi
# an inline PTX operand number past 32 bits is an error, not a wrapped $1
mkdir -p "$tmp/gen"
cp "$here/../triton/gen/mp_consumer.sm90.ll" "$tmp/gen/"
sed '19s/\[ \$1 + 0 \]/[ $4294967297 + 0 ]/' "$here/../triton/gen/mp_producer.sm90.ll" >"$tmp/gen/mp_producer.sm90.ll"
sed 's#\.\./triton/gen/#gen/#' "$here/triton_mp_sm90.lit" >"$tmp/asm_operand.lit"
out=$("$memsim" kernel "$tmp/asm_operand.lit" 2>&1); rc=$?
[ $rc = 2 ] && echo "$out" | grep -q "kernels.py:20:50: error: inline PTX operand '\$4294967297' is out of range" ||
    fail "inline PTX operand out of range: exit $rc: $(echo "$out" | head -c 300)"

# launch-file errors
printf 'test bad\nmemory { x: i32 }\nkernel k from "k.ll" @gpu0 grid 0 block 1 args (x)\nforall (x == 0)\n' >"$tmp/bad.lit"
out=$("$memsim" kernel "$tmp/bad.lit" 2>&1); rc=$?
[ $rc = 2 ] && echo "$out" | grep -q "bad.lit:3:33: error: grid must be from 1 to 64" || fail "bad launch: exit $rc: $out"
printf 'test missing\nmemory { x: i32 }\nkernel k from "nothere.cu" @gpu0 grid 1 block 1 args (x)\nforall (x == 0)\n' >"$tmp/m.lit"
out=$("$memsim" kernel "$tmp/m.lit" 2>&1); rc=$?
[ $rc = 2 ] && echo "$out" | grep -q "nothere.cu: error" || fail "missing file: exit $rc: $out"
printf 'test big\nconst N = 9223372036854775807\nmemory { x: i32 }\nkernel k from "k.ll" @gpu0 grid 1 block N + 1 args (x)\nforall (x == 0)\n' >"$tmp/big.lit"
out=$("$memsim" kernel "$tmp/big.lit" 2>&1); rc=$?
[ $rc = 2 ] && echo "$out" | grep -q "big.lit:4:43: error: constant expression overflows 64 bits" || fail "overflow: exit $rc: $out"
# a number past 64 bits was saturated by strtoll: silently another number
printf 'test huge\nmemory { x: i32 }\nkernel k from "k.ll" @gpu0 grid 1 block 1 args (99999999999999999999)\nforall (x == 0)\n' >"$tmp/huge.lit"
out=$("$memsim" kernel "$tmp/huge.lit" 2>&1); rc=$?
[ $rc = 2 ] && echo "$out" | grep -q "huge.lit:3:49: error: the number does not fit 64 bits" || fail "huge number: exit $rc: $out"
python3 -c "print('test deep\\nconst N = ' + '('*50000 + '1' + ')'*50000 + '\\nmemory { x: i32 }\\nkernel k from \\"k.ll\\" @gpu0 grid 1 block N args (x)\\nforall (x == 0)')" >"$tmp/deep.lit"
out=$("$memsim" kernel "$tmp/deep.lit" 2>&1); rc=$?
[ $rc = 2 ] && echo "$out" | grep -q "deep.lit:2:211: error: parentheses nested more than 200 deep" || fail "deep nesting: exit $rc: $(echo "$out" | head -c 300)"
[ $fails = 0 ] && echo "instrument: all passed" && exit 0
echo "instrument: $fails failed"
exit 1
