/* Which class a count falls in, under one model: allowed or forbidden by it,
 * seen or not; racy when the model gives the program no semantics; and the
 * buckets no model produces (other states, timed-out awaits). */
#include <string.h>

#include "report_model.h"

static const char *const css[CL_COUNT] = {"as", "an", "fs", "fn", "racy", "hang", "caveat", "unj", "none", "unk"};
static const char *const titles[CL_COUNT] = {
    "allowed, seen", "allowed, not seen", "FORBIDDEN, SEEN", "forbidden, not seen", "racy (undefined)",
    "hang (allowed)", "platform caveat (not judged)", "timed out (not judged)", "none", "unknown class"};

const char *rp_class_css(rp_class c) { return (unsigned)c < CL_COUNT ? css[c] : "unk"; }
const char *rp_class_title(rp_class c) { return (unsigned)c < CL_COUNT ? titles[c] : "unknown class"; }

const char *rp_letter(const hr_outcome *o, const char *model)
{
    for (int m = 0; m < o->nm; m++)
        if (model && strcmp(o->mname[m], model) == 0)
            return o->letter[m];
    return "";
}

static bool verdict_is(const hr_test *t, const char *model, const char *v)
{
    for (int m = 0; m < t->nverd; m++)
        if (model && strcmp(t->vmodel[m], model) == 0)
            return strcmp(t->verdict[m], v) == 0;
    return false;
}

/* The buckets no model's letter covers. */
static rp_class bucket_class(const hr_test *t, const hr_outcome *o, const char *model)
{
    if (o->kind == HR_TIMEOUT)
        return o->count == 0 ? CL_NONE : o->can_hang ? CL_HANG : CL_UNJUDGED;
    if (o->count == 0)
        return CL_NONE;
    /* A translation that leaves the heap is the model's "error" verdict when it foresaw it. */
    if (o->kind == HR_OUT_OF_HEAP)
        return verdict_is(t, model, "error") ? CL_ALLOWED_SEEN : CL_FORBIDDEN_SEEN;
    if (o->kind == HR_OTHER) {
        if (t->caveat)
            return CL_CAVEAT;
        if (verdict_is(t, model, "race"))
            return CL_RACY;
        return CL_FORBIDDEN_SEEN;
    }
    return CL_UNKNOWN;
}

rp_class rp_class_model(const hr_test *t, const hr_outcome *o, const char *model)
{
    if (o->kind != HR_STATE)
        return bucket_class(t, o, model);
    const char *l = rp_letter(o, model);
    bool seen = o->count > 0;
    if (strcmp(l, "A") == 0)
        return seen ? CL_ALLOWED_SEEN : CL_ALLOWED_UNSEEN;
    if (strcmp(l, "F") == 0 || strcmp(l, "-") == 0) {
        if (seen && t->caveat)
            return CL_CAVEAT;
        return seen ? CL_FORBIDDEN_SEEN : CL_FORBIDDEN_UNSEEN;
    }
    if (strcmp(l, "UB") == 0)
        return CL_RACY;
    if (strcmp(l, "hang") == 0)
        return CL_HANG;
    return CL_UNKNOWN;
}

static bool starts(const char *s, const char *p) { return strncmp(s, p, strlen(p)) == 0; }

rp_class rp_class_judged(const hr_test *t, const hr_outcome *o)
{
    const char *c = o->cls;
    if (!c)
        return rp_class_model(t, o, t->judge);
    /* hwrun's classes (hwrun/report.c outcome_class), most specific first. */
    if (strstr(c, "PLATFORM"))
        return CL_CAVEAT;
    if (strstr(c, "racy"))
        return CL_RACY;
    if (starts(c, "allowed, seen"))
        return CL_ALLOWED_SEEN;
    if (starts(c, "allowed, not seen"))
        return CL_ALLOWED_UNSEEN;
    if (starts(c, "FORBIDDEN, SEEN"))
        return CL_FORBIDDEN_SEEN;
    if (starts(c, "forbidden, not seen"))
        return CL_FORBIDDEN_UNSEEN;
    if (starts(c, "hang"))
        return CL_HANG;
    if (starts(c, "await timed out"))
        return CL_UNJUDGED;
    if (strcmp(c, "none") == 0 || strcmp(c, "no timeouts") == 0)
        return CL_NONE;
    return CL_UNKNOWN;
}

const char *rp_verdict_css(const char *v)
{
    static const char *const known[] = {"allowed", "forbidden", "race", "holds", "fails", "hang", "error", NULL};
    for (int i = 0; v && known[i]; i++)
        if (strcmp(v, known[i]) == 0)
            return known[i];
    return "unknown";
}
