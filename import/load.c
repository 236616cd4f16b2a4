/* Loading a test by its file name: .litmus (Dat3M/herd GPU litmus) and .test
 * (Vulkan Alloy tests) go to the importers, everything else to .lit. */
#include <stdlib.h>
#include <string.h>

#include "../sim/parse.h"
#include "import.h"

bool has_suffix(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

bool import_unsupported(const diag *d) { return d->msg && strstr(d->msg, "error: unsupported:") != NULL; }

char *read_text_file(const char *path, diag *d)
{
    d->file = path;
    d->source = "";
    FILE *f = fopen(path, "rb");
    if (!f) {
        diag_error(d, 0, 0, "cannot open the file");
        return NULL;
    }
    size_t cap = 4096, n = 0, got;
    char *buf = malloc(cap);
    while ((got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
        n += got;
        if (n + 1 >= cap) {
            if (cap > (64u << 20)) {
                fclose(f);
                free(buf);
                diag_error(d, 0, 0, "file too large");
                return NULL;
            }
            cap *= 2;
            buf = realloc(buf, cap);
        }
    }
    fclose(f);
    buf[n] = 0;
    if (memchr(buf, 0, n)) {
        free(buf);
        diag_error(d, 1, 1, "the file contains a NUL byte: not a text file");
        return NULL;
    }
    return buf;
}

test *load_test_file(const char *path, diag *d, const lit_options *o)
{
    bool litmus = has_suffix(path, ".litmus"), alloy = has_suffix(path, ".test");
    if (!litmus && !alloy)
        return o ? lit_parse_file_opts(path, d, o) : lit_parse_file(path, d);
    char *text = read_text_file(path, d);
    if (!text)
        return NULL;
    test *t;
    if (litmus) {
        t = litmus_parse(path, text, d, NULL);
    } else {
        alloy_expects ex = {0};
        t = alloy_parse(path, text, d, &ex);
        alloy_expects_free(&ex);
    }
    free(text);
    d->source = "";
    return t;
}
