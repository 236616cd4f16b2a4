// Planted bug: both sides use device scope, but the producer and consumer workgroups of a tile run on different GPUs (wgspec_agent.lit).
#define WG_SCOPE cuda::thread_scope_device
#include "wgspec.cu"
