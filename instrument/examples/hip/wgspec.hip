// Workgroup-specialized producer/consumer across two GPUs (the shape of Iris's
// GEMM + all-scatter with workgroup specialization), the correct form.
//
// The same kernel runs on each GPU.  Workgroups 0..NPROD-1 produce: every
// thread stores its element of the workgroup's tile into the PEER GPU's
// buffer (peer_tiles), the workgroup synchronizes (__syncthreads), and thread
// 0 releases the tile's flag in the peer's memory (peer_flags) at system
// scope.  Workgroups NPROD..2*NPROD-1 consume: thread 0 spins on an acquire
// load of the local flag of its tile, the workgroup synchronizes, and every
// thread copies its element of the received tile (my_tiles) to out.
// A tile has TILE elements, one per thread (the launch may run fewer threads).
//
// Variants (one file each):
//   wgspec_agent.hip       WG_SCOPE = agent: too narrow across GPUs
//   wgspec_no_sync.hip     WG_NO_SYNC: no __syncthreads before the release
//   wgspec_plain_flag.hip  WG_PLAIN_FLAG: the flag is set with a plain store
#include <hip/hip_runtime.h>

#ifndef WG_SCOPE
#define WG_SCOPE __HIP_MEMORY_SCOPE_SYSTEM
#endif
#define NPROD 1  // producer workgroups (one tile each)
#define TILE 64  // elements per tile

extern "C" __global__ void wgspec(int *peer_tiles, int *peer_flags, int *my_tiles, int *my_flags,
                                  int *out) {
  unsigned tid = threadIdx.x;
  if (blockIdx.x < NPROD) {
    unsigned tile = blockIdx.x;
    peer_tiles[tile * TILE + tid] = 42;  // stands for the GEMM's result
#ifndef WG_NO_SYNC
    __syncthreads();  // every thread's store happens before thread 0's release
#endif
    if (tid == 0) {
#ifdef WG_PLAIN_FLAG
      peer_flags[tile] = 1;  // planted bug: plain store
#else
      __hip_atomic_store(&peer_flags[tile], 1, __ATOMIC_RELEASE, WG_SCOPE);
#endif
    }
  } else {
    unsigned tile = blockIdx.x - NPROD;
    if (tid == 0) {
      while (__hip_atomic_load(&my_flags[tile], __ATOMIC_ACQUIRE, WG_SCOPE) != 1) {
      }
    }
    __syncthreads();  // thread 0's acquire happens before every thread's read
    out[tile * TILE + tid] = my_tiles[tile * TILE + tid];
  }
}
