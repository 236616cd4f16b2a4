// Planted bug: both sides of the message passing use agent (device) scope,
// but the producer and the consumer run on different GPUs (mp_agent.lit).
#define MP_SCOPE __HIP_MEMORY_SCOPE_AGENT
#include "mp.hip"
