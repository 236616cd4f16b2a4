// Planted bug: the fences are __threadfence() (agent scope), but the producer
// and the consumer run on different GPUs (mp_fence_agent.lit).
#define MP_FENCE __threadfence
#include "mp_fence.hip"
