"""The few Iris device functions our Triton examples use, written as Iris writes
them (iris/mem/triton/ops.py and context.py, upstream main @ 9459a5e; see
../shared/research/iris-kernels.md section 1a/1b): a symmetric heap whose
per-rank base addresses sit in a device table `heap_bases`, and every remote
access is translated by base-table arithmetic, unchecked."""
import triton
import triton.language as tl


@triton.jit
def translate(ptr, from_rank, to_rank, heap_bases):
    # Iris's __translate: plain loads of the base table, u64 offset arithmetic.
    from_base = tl.load(heap_bases + from_rank)
    to_base = tl.load(heap_bases + to_rank)
    offset = tl.cast(ptr, tl.uint64) - from_base
    to_base_byte = tl.cast(to_base, tl.pointer_type(tl.int8))
    return tl.cast(to_base_byte + offset, ptr.dtype)


@triton.jit
def load(ptr, to_rank, from_rank, heap_bases, mask=None):
    # Iris's naming: to_rank is the current rank, from_rank the rank read from.
    return tl.load(translate(ptr, to_rank, from_rank, heap_bases), mask=mask)


@triton.jit
def store(ptr, value, from_rank, to_rank, heap_bases, mask=None):
    tl.store(translate(ptr, from_rank, to_rank, heap_bases), value, mask=mask)


@triton.jit
def atomic_cas(ptr, cmp, val, from_rank, to_rank, heap_bases, sem: tl.constexpr, scope: tl.constexpr):
    return tl.atomic_cas(translate(ptr, from_rank, to_rank, heap_bases), cmp, val, sem=sem, scope=scope)


@triton.jit
def atomic_add(ptr, val, from_rank, to_rank, heap_bases, sem: tl.constexpr, scope: tl.constexpr):
    return tl.atomic_add(translate(ptr, from_rank, to_rank, heap_bases), val, sem=sem, scope=scope)
