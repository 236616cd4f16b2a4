// Planted bug: the producer sets the flag with a plain store (mp_plain_flag.lit).
#define MP_PLAIN_FLAG 1
#include "mp.cu"
