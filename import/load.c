/* Loading a test by its file name: .litmus (Dat3M/herd GPU litmus) and .test
 * (Vulkan Alloy tests) go to the importers, everything else to .lit. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "../lit/parse.h"
#include "import.h"

bool has_suffix(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

bool is_identifier(const char *s, size_t n)
{
    bool ok = n > 0 && (isalpha((unsigned char)s[0]) || s[0] == '_');
    for (size_t i = 1; i < n && ok; i++)
        ok = isalnum((unsigned char)s[i]) || s[i] == '_';
    return ok;
}

bool import_unsupported(const diag *d) { return d->msg && strstr(d->msg, "error: unsupported:") != NULL; }

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
