/* libFuzzer target for `memsim convert`: a litmus (or Alloy) test that parses
 * and that a writer accepts must come out as text its parser reads back: .lit
 * through lit_parse, PTX litmus through litmus_parse.  A writer may refuse
 * what its format cannot say, with a message; it may not write what does not
 * parse (names litmus allows and .lit does not, a value cut to 32 bits, a
 * test name that starts a comment: each of these was found here). */
#define _GNU_SOURCE /* open_memstream */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../lit/parse.h"
#include "../../tests/fuzz/fuzz_input.h"
#include "../import.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char *written(int (*w)(FILE *, const test *, char *, size_t), const test *t, int *rc, char *err, size_t n)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        abort();
    *rc = w(f, t, err, n);
    fclose(f);
    if (*rc != 0 && !err[0])
        abort(); /* a refusal must say why */
    if (*rc != 0 && strncmp(err, "internal:", 9) == 0) {
        fprintf(stderr, "%s\n", err);
        abort(); /* the writers parse their text back: a failure other than too deep a nesting is a writer bug */
    }
    return buf;
}

static void reads_back(const char *what, const char *text, test *(*parse)(const char *, diag *))
{
    diag d = {0};
    test *t = parse(text, &d);
    if (!t) {
        fprintf(stderr, "%s written does not parse back: %s\n--- written:\n%s\n", what, d.msg ? d.msg : "?", text);
        abort();
    }
    test_free(t);
    diag_free(&d);
}

static test *parse_lit(const char *text, diag *d) { return lit_parse("rt.lit", text, d); }
static test *parse_litmus(const char *text, diag *d) { return litmus_parse("rt.litmus", text, d, NULL); }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    if (!text)
        return 0;
    diag d = {0};
    alloy_expects ex = {0};
    bool litmus = strncmp(text, "PTX", 3) == 0 || strncmp(text, "VULKAN", 6) == 0;
    test *t = litmus ? litmus_parse("fuzz.litmus", text, &d, NULL) : alloy_parse("fuzz.test", text, &d, &ex);
    if (t) {
        char err[512] = "";
        int rc;
        char *lit = written(write_lit, t, &rc, err, sizeof err);
        if (rc == 0)
            reads_back(".lit", lit, parse_lit);
        free(lit);
        err[0] = 0;
        char *ptx = written(write_ptx_litmus, t, &rc, err, sizeof err);
        if (rc == 0)
            reads_back("PTX litmus", ptx, parse_litmus);
        free(ptx);
        test_free(t);
    }
    alloy_expects_free(&ex);
    diag_free(&d);
    free(text);
    return 0;
}
