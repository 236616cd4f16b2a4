// Planted bug: both sides use device scope (thread_scope_device, PTX .gpu),
// but the producer and the consumer run on different GPUs (mp_agent.lit).
#define MP_SCOPE cuda::thread_scope_device
#include "mp.cu"
