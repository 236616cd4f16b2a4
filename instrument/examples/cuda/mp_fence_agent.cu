// Planted bug: the fences are __threadfence() (PTX .gpu), but the producer and
// the consumer run on different GPUs (mp_fence_agent.lit).
#define MP_FENCE __threadfence
#include "mp_fence.cu"
