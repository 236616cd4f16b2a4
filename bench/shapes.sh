#!/usr/bin/env bash
# Writes the scaling shapes of issue 12 as .lit files (and, for herd7, as
# C11 .litmus files, locations zero-initialized by herd's default) into a
# directory:
#
#   bench/shapes.sh DIR
#
#   sb_fence_N    SB ring of N threads, fence.sc between each write and read
#   sb_relaxed_N  the same ring without fences
#   iriw_K        IRIW: 2 writers, K observers with fence.sc between loads
#   writers_N     N threads writing distinct values to one location
set -euo pipefail
out="${1:?usage: bench/shapes.sh DIR}"
mkdir -p "$out"

# sb NAME N FENCE(0|1): thread i writes x_i and reads x_{i+1}.
sb() {
    local name="$1" n="$2" fence="$3" f="$out/$1.lit" c="$out/$1.litmus" i
    {
        echo "test $name"
        echo "memory {"
        for ((i = 0; i < n; i++)); do echo "  x$i: i32 = 0 @gpu0 fine"; done
        echo "}"
        for ((i = 0; i < n; i++)); do
            echo "thread P$i @gpu0.wg$i {"
            echo "  st.relaxed.agent x$i, 1"
            [ "$fence" = 1 ] && echo "  fence.sc.agent"
            echo "  r0 = ld.relaxed.agent x$(((i + 1) % n))"
            echo "}"
        done
        printf 'exists ('
        for ((i = 0; i < n; i++)); do printf '%sP%d:r0 == 0' "$([ $i -gt 0 ] && echo ' && ')" "$i"; done
        echo ")"
        [ "$fence" = 1 ] && echo "expect src11: forbidden" || echo "expect src11: allowed"
    } >"$f"
    {
        echo "C $name"
        echo '{}'
        for ((i = 0; i < n; i++)); do
            printf 'P%d (atomic_int* x%d, atomic_int* x%d) {\n' "$i" "$i" "$(((i + 1) % n))"
            printf '  atomic_store_explicit(x%d, 1, memory_order_relaxed);\n' "$i"
            [ "$fence" = 1 ] && printf '  atomic_thread_fence(memory_order_seq_cst);\n'
            printf '  int r0 = atomic_load_explicit(x%d, memory_order_relaxed);\n}\n' "$(((i + 1) % n))"
        done
        printf 'exists ('
        for ((i = 0; i < n; i++)); do printf '%s%d:r0=0' "$([ $i -gt 0 ] && echo ' /\ ')" "$i"; done
        echo ")"
    } >"$c"
}

iriw() {
    local k="$1" name="iriw_$1" f="$out/iriw_$1.lit" c="$out/iriw_$1.litmus" i
    {
        echo "test $name"
        echo "memory {"
        echo "  x: i32 = 0 @gpu0 fine"
        echo "  y: i32 = 0 @gpu0 fine"
        echo "}"
        echo "thread W0 @gpu0.wg0 {"; echo "  st.relaxed.agent x, 1"; echo "}"
        echo "thread W1 @gpu0.wg1 {"; echo "  st.relaxed.agent y, 1"; echo "}"
        for ((i = 0; i < k; i++)); do
            local a=x b=y
            [ $((i % 2)) = 1 ] && a=y b=x
            echo "thread P$i @gpu0.wg$((i + 2)) {"
            echo "  r0 = ld.relaxed.agent $a"
            echo "  fence.sc.agent"
            echo "  r1 = ld.relaxed.agent $b"
            echo "}"
        done
        echo "exists (P0:r0 == 1 && P0:r1 == 0 && P1:r0 == 1 && P1:r1 == 0)"
        echo "expect src11: forbidden"
    } >"$f"
    {
        echo "C $name"
        echo '{}'
        echo 'P0 (atomic_int* x) { atomic_store_explicit(x, 1, memory_order_relaxed); }'
        echo 'P1 (atomic_int* y) { atomic_store_explicit(y, 1, memory_order_relaxed); }'
        for ((i = 0; i < k; i++)); do
            local a=x b=y
            [ $((i % 2)) = 1 ] && a=y b=x
            printf 'P%d (atomic_int* x, atomic_int* y) {\n' $((i + 2))
            printf '  int r0 = atomic_load_explicit(%s, memory_order_relaxed);\n' $a
            printf '  atomic_thread_fence(memory_order_seq_cst);\n'
            printf '  int r1 = atomic_load_explicit(%s, memory_order_relaxed);\n}\n' $b
        done
        echo 'exists (2:r0=1 /\ 2:r1=0 /\ 3:r0=1 /\ 3:r1=0)'
    } >"$c"
}

writers() {
    local n="$1" name="writers_$1" f="$out/writers_$1.lit" c="$out/writers_$1.litmus" i
    {
        echo "test $name"
        echo "memory {"
        echo "  x: i32 = 0 @gpu0 fine"
        echo "}"
        for ((i = 0; i < n; i++)); do
            echo "thread P$i @gpu0.wg$i {"; echo "  st.relaxed.agent x, $((i + 1))"; echo "}"
        done
        echo "exists (x == 1)"
        echo "expect src11: allowed"
    } >"$f"
    {
        echo "C $name"
        echo '{}'
        for ((i = 0; i < n; i++)); do
            printf 'P%d (atomic_int* x) { atomic_store_explicit(x, %d, memory_order_relaxed); }\n' "$i" $((i + 1))
        done
        echo 'exists (x=1)'
    } >"$c"
}

for n in 12 16 20; do sb "sb_fence_$n" "$n" 1; done
for n in 8 12 16; do sb "sb_relaxed_$n" "$n" 0; done
iriw 6
writers 8
