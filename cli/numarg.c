#include "numarg.h"

#include <stdlib.h>

bool whole_arg(const char *v, long lo, long hi, long *out)
{
    char *end = NULL;
    long n = v ? strtol(v, &end, 10) : 0;
    if (!v || !*v || *end || n < lo || n > hi)
        return false;
    *out = n;
    return true;
}
