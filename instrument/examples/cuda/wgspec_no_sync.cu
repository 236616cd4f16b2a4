// Planted bug: no __syncthreads between the producer's tile stores and thread 0's flag release (wgspec_no_sync.lit).
#define WG_NO_SYNC 1
#include "wgspec.cu"
