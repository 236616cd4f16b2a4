/* Orders of commuting read-modify-writes, explored once (issue 12).
 *
 * K6's counters each receive one `atom.add.release 1` from every peer, and
 * every order of those adds is a distinct consistent execution with the same
 * final state, races and verdict: 7!^8 of them at 8 ranks.  Here, per
 * combination of thread paths, such RMWs are grouped, the reads-from search
 * keeps one order of each run of them, and that execution counts for the
 * orders it stands for.
 *
 * A cell is a *chain cell* when every read of it is the read half of an RMW
 * or a hanging await's (which reads the co-last write): with atomicity, a
 * write that some later write follows has at most one reader.  Its
 * *members* are RMWs that
 *   - apply the same function to the value they read (the same operation
 *     with the same constant operand: `add 1`, `exch 5`, ...);
 *   - whose read value nothing else uses (no register, no address, no
 *     branch, no other stored value);
 *   - are atomic, not seq_cst, whose read half is not acquire and whose
 *     thread has no acquire (or stronger) fence after it, and whose thread
 *     has no other access to the cell;
 *   - whose scopes include every other access to the cell;
 *   - that nothing can happen-before but their own thread's earlier events
 *     and what barriers and kernel order tie to them (the static closure
 *     holds no acquire read or fence), and that closure holds no other
 *     member.
 * A *block* is a maximal run of members each of which reads the previous
 * one's write.  Swapping two neighbours of a block changes no value, no
 * happens-before edge, no race and no final state (docs/kernels.md §6 gives
 * the argument under src11), so the block's L! orders are equivalent: the
 * search keeps the one whose members appear in event order (a member that
 * reads a later member's write is cut) and the execution counts L! per block.
 * The argument is made for src11 only: under any other model in the run,
 * or with --no-reduce, nothing is grouped. */
#include "explore_internal.h"

#include <string.h>

/* The models whose verdicts the argument covers (docs/kernels.md §6). */
static bool model_reduces(const model *m) { return strcmp(m->name, "src11") == 0; }

static bool acquire_or_stronger(order_t o) { return o == ORD_ACQUIRE || o == ORD_ACQ_REL || o == ORD_SEQ_CST; }

/* The path event of global event ev. */
static const pevent *path_event(const explorer *e, int ev, const tpath **path)
{
    int th = e->x->ev[ev].thread;
    *path = &e->tp[th].v[e->choice[th]];
    return &(*path)->ev[ev - e->first_ev[th]];
}

/* Whether RMW read r's value is used only by its own write, which applies
 * (op, constant operand) to it; the pair is returned as the effect key. */
static bool unused_read_with_const_effect(const explorer *e, int r, int64_t *op, int64_t *operand)
{
    const execution *x = e->x;
    int th = x->ev[r].thread, w = x->ev[r].rmw_partner;
    const thread_paths *tp = &e->tp[th];
    const tpath *p;
    const pevent *pr = path_event(e, r, &p);
    const pevent *pw = &p->ev[w - e->first_ev[th]];
    uint64_t bit = 1ull << pr->read;
    const symnode *s = &tp->pool[pw->sym];
    if (s->kind != S_RMW || tp->pool[s->a].kind != S_READ || tp->pool[s->a].a != pr->read ||
        tp->pool[s->b].kind != S_CONST || tp->pool[s->b].deps)
        return false;
    *op = s->value;
    *operand = tp->pool[s->b].value;
    for (int k = 0; k < p->nev; k++) {
        const pevent *q = &p->ev[k];
        uint64_t uses = q->addr | q->ctrl | (q == pw ? 0 : q->data);
        if (uses & bit)
            return false;
    }
    for (int c = 0; c < p->ncons; c++)
        if (tp->pool[p->cons[c]].deps & bit)
            return false;
    for (int g = 0; g < tp->nregs; g++)
        if (p->regs[g] >= 0 && tp->pool[p->regs[g]].deps & bit)
            return false;
    return true;
}

/* Adds event ev and its thread's events before it to set s. */
static void add_with_prefix(const explorer *e, set *s, int ev)
{
    int th = e->x->ev[ev].thread;
    for (int i = e->first_ev[th]; i <= ev; i++)
        set_add(s, i);
}

/* Whether what can happen-before member read r, whatever reads-from is
 * chosen, is only the closure of its program-order prefix under barriers
 * and kernel order (no acquire read or fence in it, so no synchronizes-with
 * edge enters), and holds no other member of its cell (is_member marks
 * them). */
static bool static_predecessors_clean(const explorer *e, int r, const bool *is_member)
{
    const execution *x = e->x;
    set s = set_empty();
    add_with_prefix(e, &s, r);
    bool grew = true;
    while (grew) {
        grew = false;
        for (int y = 0; y < x->n; y++) {
            if (!set_has(s, y))
                continue;
            for (int z = 0; z < x->n; z++)
                if (!set_has(s, z) && x->ev[z].kind != EV_IW && (rel_has(&x->bar, z, y) || rel_has(&x->kb, z, y))) {
                    add_with_prefix(e, &s, z);
                    grew = true;
                }
        }
    }
    for (int y = 0; y < x->n; y++) {
        if (!set_has(s, y))
            continue;
        const event *Y = &x->ev[y];
        if ((Y->kind == EV_R || Y->kind == EV_F) && acquire_or_stronger(Y->ord))
            return false;
        if (y != r && is_member[y] && Y->cell == x->ev[r].cell)
            return false;
    }
    return true;
}

/* Whether RMW read r (of a chain cell) may be a member, before the closure
 * test; its effect key in op, operand. */
static bool member_candidate(const explorer *e, int r, int64_t *op, int64_t *operand)
{
    const execution *x = e->x;
    const event *R0 = &x->ev[r];
    int w = R0->rmw_partner, th = R0->thread, c = R0->cell;
    if (R0->ord == ORD_PLAIN || acquire_or_stronger(R0->ord) || x->ev[w].ord == ORD_SEQ_CST)
        return false;
    for (int i = e->first_ev[th]; i < e->first_ev[th] + e->nev_of[th]; i++) {
        if (i != r && i != w && x->ev[i].cell == c && (x->ev[i].kind == EV_R || x->ev[i].kind == EV_W))
            return false;
        if (i > r && x->ev[i].kind == EV_F && acquire_or_stronger(x->ev[i].ord))
            return false;
    }
    for (int y = 0; y < x->n; y++) {
        if (x->ev[y].kind == EV_IW || x->ev[y].cell != c || y == r || y == w ||
            (x->ev[y].kind != EV_R && x->ev[y].kind != EV_W))
            continue;
        if (!rel_has(e->sbase.incl, r, y) || !rel_has(e->sbase.incl, w, y))
            return false;
    }
    return unused_read_with_const_effect(e, r, op, operand);
}

void commute_setup(explorer *e)
{
    const execution *x = e->x;
    e->reduce = false;
    e->ngroups = 0;
    for (int i = 0; i < x->n; i++) {
        e->commute_group[i] = -1;
        e->chain_read[i] = false;
    }
    bool models_reduce = !e->o->no_reduce && !e->t->uses_proxies;
    for (int m = 0; m < e->o->nmodels; m++)
        models_reduce = models_reduce && model_reduces(e->o->models[m]);
    if (!models_reduce)
        return;
    bool is_member[REL_MAX] = {0};
    int64_t op[REL_MAX], operand[REL_MAX];
    for (int k = 0; k < e->ncells_w; k++) {
        int c = e->wcell[k];
        bool chain = true;
        for (int i = 0; i < x->n && chain; i++)
            if (x->ev[i].kind == EV_R && x->ev[i].cell == c)
                chain = x->ev[i].rmw_partner >= 0 || x->ev[i].await_hang;
        if (!chain)
            continue;
        for (int i = 0; i < x->n; i++)
            if (x->ev[i].kind == EV_R && x->ev[i].cell == c && !x->ev[i].await_hang) {
                e->chain_read[i] = true;
                is_member[i] = member_candidate(e, i, &op[i], &operand[i]);
            }
    }
    /* Members whose static predecessors could receive synchronization, then
     * those with another member among them, drop out (in event order, so the
     * rest have none in theirs). */
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < x->n; i++)
            if (is_member[i]) {
                bool none[REL_MAX] = {0};
                if (!static_predecessors_clean(e, i, pass == 0 ? none : is_member))
                    is_member[i] = false;
            }
    /* Groups: members of one cell with one effect. */
    for (int i = 0; i < x->n; i++) {
        if (!is_member[i] || e->commute_group[i] >= 0)
            continue;
        int g = e->ngroups, n = 0;
        for (int j = i; j < x->n; j++)
            if (is_member[j] && e->commute_group[j] < 0 && x->ev[j].cell == x->ev[i].cell && op[j] == op[i] &&
                operand[j] == operand[i]) {
                e->commute_group[j] = g;
                n++;
            }
        if (n < 2) {
            e->commute_group[i] = -1;
            continue;
        }
        e->ngroups++;
        e->reduce = true;
    }
}

bool commute_canonical(explorer *e, int r)
{
    if (!e->reduce)
        return true;
    const execution *x = e->x;
    int ev = e->read_ev[r];
    if (!e->chain_read[ev])
        return true;
    int w = e->rf_of[ev];
    /* Two RMWs of a chain cell reading one write break atomicity under
     * src11 (whichever writes later, its read is fr-before the other's
     * write): cut here rather than at the leaf. */
    for (int q = 0; q < r; q++) {
        int ev2 = e->read_ev[q];
        if (e->rf_of[ev2] == w && e->chain_read[ev2])
            return false;
    }
    /* A member that reads the write of a later member of its group is out
     * of order within its block. */
    int g = e->commute_group[ev];
    if (g >= 0 && x->ev[w].kind == EV_W) {
        int src = x->ev[w].rmw_partner;
        if (src > ev && e->commute_group[src] == g)
            return false;
    }
    return true;
}

bool commute_weight(explorer *e)
{
    e->weight = count_of(1);
    if (!e->reduce)
        return true;
    const execution *x = e->x;
    int reader_of[REL_MAX];
    for (int i = 0; i < x->n; i++)
        reader_of[i] = -1;
    for (int q = 0; q < e->nreads; q++)
        reader_of[e->rf_of[e->read_ev[q]]] = e->read_ev[q];
    for (int q = 0; q < e->nreads; q++) {
        int m = e->read_ev[q], g = e->commute_group[m];
        if (g < 0)
            continue;
        int src = x->ev[e->rf_of[m]].rmw_partner;
        if (x->ev[e->rf_of[m]].kind == EV_W && src >= 0 && e->commute_group[src] == g)
            continue; /* not the first of its block */
        int len = 1;
        for (int cur = m; reader_of[x->ev[cur].rmw_partner] >= 0 &&
                          e->commute_group[reader_of[x->ev[cur].rmw_partner]] == g;
             cur = reader_of[x->ev[cur].rmw_partner])
            len++;
        count_t f;
        if (len > 1 && (!count_factorial(len, &f) || !count_mul(&e->weight, f))) {
            budget_fail(e->sh, "%s: error: more than 2^%d executions: memsim's counts would not be exact", e->t->file,
                        64 * COUNT_WORDS);
            return false;
        }
    }
    return true;
}
