"""Iris's synchronization patterns as Triton kernels, with the device API of
iris_device.py.  Integer data stand in for the GEMM tiles (memsim tracks
integers; the pattern of who stores, who releases and who acquires is what
is checked).  Each kernel runs one block per tile; `pid` is the tile."""
import triton
import triton.language as tl

import iris_device as iris


# K1 message passing (Iris examples/06_message_passing, load_store variant),
# in its correct form: every thread of the block stores its element of the
# tile to the consumer's heap, tl.debug_barrier() makes those stores precede
# thread 0's release, and the release is a system-scope CAS 0 -> 1 on the
# consumer's flag.
@triton.jit
def mp_producer(src, dst, flag, cur_rank, peer_rank, heap_bases, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    v = iris.load(src + offs, cur_rank, cur_rank, heap_bases)
    iris.store(dst + offs, v, cur_rank, peer_rank, heap_bases)
    tl.debug_barrier()
    iris.atomic_cas(flag + pid, 0, 1, cur_rank, peer_rank, heap_bases, sem="release", scope="sys")


# K1 as shipped (iris-kernels.md 1c): no tl.debug_barrier() before the release.
@triton.jit
def mp_producer_no_barrier(src, dst, flag, cur_rank, peer_rank, heap_bases, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    v = iris.load(src + offs, cur_rank, cur_rank, heap_bases)
    iris.store(dst + offs, v, cur_rank, peer_rank, heap_bases)
    iris.atomic_cas(flag + pid, 0, 1, cur_rank, peer_rank, heap_bases, sem="release", scope="sys")


# The release at gpu scope: too narrow for a consumer on another GPU.
@triton.jit
def mp_producer_gpu_scope(src, dst, flag, cur_rank, peer_rank, heap_bases, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    v = iris.load(src + offs, cur_rank, cur_rank, heap_bases)
    iris.store(dst + offs, v, cur_rank, peer_rank, heap_bases)
    tl.debug_barrier()
    iris.atomic_cas(flag + pid, 0, 1, cur_rank, peer_rank, heap_bases, sem="release", scope="gpu")


# The consumer spins on its own flag with an acquire CAS 1 -> 0 (it consumes
# the flag and exits on success), then doubles its tile in place.
@triton.jit
def mp_consumer(dst, flag, cur_rank, heap_bases, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    done = iris.atomic_cas(flag + pid, 1, 0, cur_rank, cur_rank, heap_bases, sem="acquire", scope="sys")
    while done == 0:
        done = iris.atomic_cas(flag + pid, 1, 0, cur_rank, cur_rank, heap_bases, sem="acquire", scope="sys")
    v = iris.load(dst + offs, cur_rank, cur_rank, heap_bases)
    iris.store(dst + offs, 2 * v, cur_rank, cur_rank, heap_bases)


# K6 one-shot all-reduce (Iris examples/09_gemm_one_shot_all_reduce) over
# WORLD ranks: each rank stores its partial tile locally, tells every peer
# with a release add on the peer's tile_completed[tile], waits until all
# peers told it (acquire CAS WORLD-1 -> 0, which also resets the counter),
# then sums every rank's partial tile through the heap and writes the result.
@triton.jit
def allreduce_one_shot(partial, result, tile_completed, cur_rank, heap_bases,
                       WORLD: tl.constexpr, BLOCK: tl.constexpr, BARRIER: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    c = tl.load(partial + offs) + cur_rank + 1
    iris.store(partial + offs, c, cur_rank, cur_rank, heap_bases)
    if BARRIER:
        tl.debug_barrier()
    for r in tl.static_range(WORLD):
        if r != cur_rank:
            iris.atomic_add(tile_completed + pid, 1, cur_rank, r, heap_bases, sem="release", scope="sys")
    got = iris.atomic_cas(tile_completed + pid, WORLD - 1, 0, cur_rank, cur_rank, heap_bases,
                          sem="acquire", scope="sys")
    while got < WORLD - 1:
        got = iris.atomic_cas(tile_completed + pid, WORLD - 1, 0, cur_rank, cur_rank, heap_bases,
                              sem="acquire", scope="sys")
    acc = tl.zeros([BLOCK], dtype=tl.int32)
    for r in tl.static_range(WORLD):
        acc += iris.load(partial + offs, cur_rank, r, heap_bases)
    tl.store(result + offs, acc, cache_modifier=".wt")
