#include "model.h"

#include <string.h>

const model *const all_models[] = {&model_src11, &model_ptx, &model_sc, NULL};

const model *model_find(const char *name)
{
    for (int i = 0; all_models[i]; i++)
        if (strcmp(all_models[i]->name, name) == 0)
            return all_models[i];
    return NULL;
}

void verdict_add_race(model_verdict *v, int a, int b, const char *why)
{
    for (int i = 0; i < v->nraces; i++)
        if ((v->races[i].a == a && v->races[i].b == b) || (v->races[i].a == b && v->races[i].b == a))
            return;
    if (v->nraces < MAX_RACES_PER_EXEC)
        v->races[v->nraces++] = (race_pair){a, b, why};
}

R kernel_ordered(R hb, R kb)
{
    R through = S(S(opt(hb), kb), opt(hb));
    return sym(through);
}
