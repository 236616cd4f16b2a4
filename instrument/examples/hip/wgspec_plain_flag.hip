// Planted bug: the producer sets the flag with a plain store (wgspec_plain_flag.lit).
#define WG_PLAIN_FLAG 1
#include "wgspec.hip"
