/* Each helper claims the next step from a shared counter, so one long step
 * (a thread with many paths) does not hold up the others' share. */
#include "parallel.h"

#include <pthread.h>

typedef struct {
    int n, next;
    void (*step)(void *ctx, int i);
    void *ctx;
} steps;

static void *run_steps(void *arg)
{
    steps *s = arg;
    for (int i; (i = __atomic_fetch_add(&s->next, 1, __ATOMIC_RELAXED)) < s->n;)
        s->step(s->ctx, i);
    return NULL;
}

void parallel_steps(int n, int jobs, void (*step)(void *ctx, int i), void *ctx)
{
    steps s = {n, 0, step, ctx};
    enum { MAX_HELPERS = 255 };
    pthread_t helper[MAX_HELPERS];
    int nhelpers = 0;
    int want = (jobs < n ? jobs : n) - 1;
    while (nhelpers < want && nhelpers < MAX_HELPERS && pthread_create(&helper[nhelpers], NULL, run_steps, &s) == 0)
        nhelpers++;
    run_steps(&s); /* the caller works too, and alone if no thread could start */
    for (int h = 0; h < nhelpers; h++)
        pthread_join(helper[h], NULL);
}
