// Planted bug: both sides use agent scope, but the producer and consumer workgroups of a tile run on different GPUs (wgspec_agent.lit).
#define WG_SCOPE __HIP_MEMORY_SCOPE_AGENT
#include "wgspec.hip"
