/* The Vulkan/SPIR-V memory model: a transliteration of alloy/spirv.als
 * (KhronosGroup/Vulkan-MemoryModel, condensed in models.md §6.2).  Racy
 * programs are undefined (dr non-empty), there is no sequential consistency
 * and no dependency relation.
 *
 * The Alloy model has one event per instruction; memsim splits an RMW into a
 * read and a write and a control barrier into arrive and wait.  This file
 * first merges them back into one node each (and drops initial writes and
 * the implicit fences of seq_cst accesses), then evaluates the Alloy
 * relations over the nodes.  Reads of an initial write are Alloy's RFINIT.
 *
 * Mapping of memsim's IR:
 *   scopes   wave = Subgroup, wg = Workgroup, agent = QueueFamily, sys = Device
 *            (thread placement: a GPU index is a queue family);
 *   asmo     memsim's coherence order restricted to mutually ordered atomic
 *            writes; a total co whose restriction is not transitive is not
 *            an Alloy execution (every valid asmo has a total extension);
 *   attrs    instructions that come from a Vulkan source carry them (VK_*);
 *            others get defaults: storage class 0, acquire/release atomics,
 *            fences and barriers with semsc0, release = semav, acquire =
 *            semvis, seq_cst = acq_rel, plain accesses non-private, and a
 *            workgroup barrier is cbar.acq_rel.wg.semsc0.semav.semvis. */
#include "vulkan.h"

#include <string.h>

enum { VS_NONE = 0, VS_SG, VS_WG, VS_QF, VS_DEV };

typedef struct {
    int n;
    int first[REL_MAX];   /* a memsim event of the node (the read half of an RMW, the arrive of a barrier) */
    int wr[REL_MAX];      /* the write half, or -1 */
    int node_of[REL_MAX]; /* memsim event -> node, or -1 */
} vk_nodes;

static int vscope(scope_t s)
{
    switch (s) {
    case SCOPE_WAVE: return VS_SG;
    case SCOPE_WG: return VS_WG;
    case SCOPE_AGENT: return VS_QF;
    case SCOPE_SYS: return VS_DEV;
    default: return VS_NONE;
    }
}

static void build_nodes(const execution *x, vk_nodes *m)
{
    m->n = 0;
    for (int i = 0; i < x->n; i++)
        m->node_of[i] = -1;
    for (int i = 0; i < x->n; i++) {
        const event *e = &x->ev[i];
        if (e->kind == EV_IW || e->implicit || m->node_of[i] >= 0)
            continue;
        int k = m->n++;
        m->first[k] = i;
        m->wr[k] = e->kind == EV_W ? i : -1;
        m->node_of[i] = k;
        if ((e->kind == EV_R || e->kind == EV_W) && e->rmw_partner >= 0) {
            m->node_of[e->rmw_partner] = k;
            if (e->kind == EV_R)
                m->wr[k] = e->rmw_partner;
        }
        if (e->kind == EV_BA && i + 1 < x->n && x->ev[i + 1].kind == EV_BW && x->ev[i + 1].thread == e->thread &&
            x->ev[i + 1].src == e->src)
            m->node_of[i + 1] = k;
    }
}

static rel *from_events(const vk_nodes *m, R r)
{
    rel *o = rel_new();
    int n = rel_n();
    for (int i = 0; i < n; i++) {
        if (m->node_of[i] < 0)
            continue;
        for (int j = set_next(&r->row[i], 0); j >= 0; j = set_next(&r->row[i], j + 1))
            if (m->node_of[j] >= 0 && m->node_of[i] != m->node_of[j])
                rel_add(o, m->node_of[i], m->node_of[j]);
    }
    return o;
}

static int count_pairs(R r)
{
    int c = 0, n = rel_n();
    for (int i = 0; i < n; i++)
        for (int w = 0; w < (n + 63) / 64; w++)
            c += __builtin_popcountll(r->row[i].w[w]);
    return c;
}

/* The whole model; with prune, only the location order of the reads-from
 * decided so far, without asmo (co is not chosen yet), as memsim events. */
/* What the model derives from the events alone -- nodes, their sets, the
 * scope and program-order relations, avvisinc, the barrier part of sw and
 * the fixed part of each ithb -- is the same for every candidate of one
 * combination of thread paths: kept per thread under the base's skeleton
 * key (base.h) and derived again only when that changes. */
typedef struct {
    unsigned long skeleton;
    bool deadlock;
    vk_nodes m;
    set Rd, Wr, F, A, ACQ, REL, SC[4], SEMSC[4], SG, WG, QF, DEV, CBAR, AVs, VISs, SEMAV, SEMVIS, AVDEVICE, VISDEVICE;
    set NONPRIV;
    rel po, sthd, ssg, swg, sqf, sloc, sref, inscope, mutord, kbn, sswk, ID, posctosem, posemtosc, avvisinc;
    rel sw5, hb0, acc_pairs, kbo;
    bool mask_used[16];
    set mask_sems[16];
    rel ithb_base[16]; /* sswk | [SC_S|SEMSC_S];po;[REL&SEMSC_S] | [ACQ&SEMSC_S];po;[SC_S|SEMSC_S] */
} vk_static;

static void keep(rel *slot, R r) { memcpy(slot->row, r->row, (size_t)rel_n() * sizeof r->row[0]); }

static const vk_static *vk_static_of(const base *b)
{
    vk_static *st = rel_keep(sizeof *st);
    if (b->skeleton != 0 && st->skeleton == b->skeleton)
        return st;
    int mark = rel_mark();
    const execution *x = b->x;
    const test *t = x->t;
    st->skeleton = b->skeleton;
    /* A cycle through program order and barrier instances is a deadlock: no execution. */
    st->deadlock = !acyclic(U(b->po, b->bar));
    vk_nodes *m = &st->m;
    build_nodes(x, m);
    int n = m->n;

    /* ---- per-node sets ---------------------------------------------------- */
    set Rd = set_empty(), Wr = set_empty(), F = set_empty(), A = set_empty(), ACQ = set_empty(), REL = set_empty();
    /* Storage classes 0 to 3 and their semantics (Dat3M's vulkan.cat lines 14-15; spirv.als has 0 and 1). */
    set SC[4] = {set_empty(), set_empty(), set_empty(), set_empty()};
    set SEMSC[4] = {set_empty(), set_empty(), set_empty(), set_empty()};
    set SG = set_empty(), WG = set_empty(), QF = set_empty(), DEV = set_empty(), CBAR = set_empty();
    set AVs = set_empty(), VISs = set_empty(), SEMAV = set_empty(), SEMVIS = set_empty(), NONPRIV = set_empty();
    set AVDEVICE = set_empty(), VISDEVICE = set_empty();
    for (int k = 0; k < n; k++) {
        const event *e = &x->ev[m->first[k]];
        const inst *in = e->src;
        unsigned vk = in ? in->vk : 0;
        bool given = vk & VK_GIVEN;
        bool isr = e->kind == EV_R, isw = e->kind == EV_W || m->wr[k] >= 0;
        bool acc = isr || isw, bar = e->kind == EV_BA || e->kind == EV_BW;
        order_t o = e->ord;
        bool acq = o == ORD_ACQUIRE || o == ORD_ACQ_REL || o == ORD_SEQ_CST;
        bool rl = o == ORD_RELEASE || o == ORD_ACQ_REL || o == ORD_SEQ_CST;
        int sc = vscope(e->scope);
        if (e->kind == EV_F && (vk & (VK_AVDEVICE | VK_VISDEVICE))) {
            if (vk & VK_AVDEVICE)
                set_add(&AVDEVICE, k);
            if (vk & VK_VISDEVICE)
                set_add(&VISDEVICE, k);
            continue;
        }
        if (bar && !given) {
            /* __syncthreads / bar.sync: OpControlBarrier(Workgroup, AcquireRelease | semantics) */
            acq = rl = true;
            if (sc == VS_NONE)
                sc = VS_WG;
        }
        if (isr)
            set_add(&Rd, k);
        if (isw)
            set_add(&Wr, k);
        if (bar)
            set_add(&CBAR, k);
        bool atomic = acc && o != ORD_PLAIN;
        if (atomic)
            set_add(&A, k);
        bool fence = (e->kind == EV_F || bar) && (acq || rl);
        if (fence)
            set_add(&F, k);
        if ((atomic && isr && acq) || (fence && acq))
            set_add(&ACQ, k);
        if ((atomic && isw && rl) || (fence && rl))
            set_add(&REL, k);
        bool is_acq = set_has(ACQ, k), is_rel = set_has(REL, k);
        if (acc)
            set_add(&SC[given ? VK_STORAGE_CLASS(vk) : 0], k);
        if (given) {
            static const unsigned semsc_bit[4] = {VK_SEMSC0, VK_SEMSC1, VK_SEMSC2, VK_SEMSC3};
            for (int c = 0; c < 4; c++)
                if (vk & semsc_bit[c])
                    set_add(&SEMSC[c], k);
            if ((vk & VK_SEMAV) && is_rel)
                set_add(&SEMAV, k);
            if ((vk & VK_SEMVIS) && is_acq)
                set_add(&SEMVIS, k);
            if (acc && (vk & VK_NONPRIV))
                set_add(&NONPRIV, k);
            if (isw && (vk & VK_AV))
                set_add(&AVs, k);
            if (isr && (vk & VK_VIS))
                set_add(&VISs, k);
        } else {
            if (is_acq || is_rel)
                set_add(&SEMSC[0], k);
            if (is_rel)
                set_add(&SEMAV, k);
            if (is_acq)
                set_add(&SEMVIS, k);
            if (acc)
                set_add(&NONPRIV, k);
        }
        /* Atomics have implicit per-instruction av/vis; av, vis and atomics are non-private. */
        if (atomic && isw)
            set_add(&AVs, k);
        if (atomic && isr)
            set_add(&VISs, k);
        if (acc && (atomic || set_has(AVs, k) || set_has(VISs, k)))
            set_add(&NONPRIV, k);
        if (atomic || fence || bar || set_has(AVs, k) || set_has(VISs, k)) {
            switch (sc) {
            case VS_SG: set_add(&SG, k); break;
            case VS_WG: set_add(&WG, k); break;
            case VS_QF: set_add(&QF, k); break;
            case VS_DEV: set_add(&DEV, k); break;
            default: break;
            }
        }
    }
    set RW = set_or(Rd, Wr);

    /* ---- static relations ---------------------------------------------------- */
    rel *po = rel_new(), *sthd = rel_new(), *ssg = rel_new(), *swg = rel_new(), *sqf = rel_new();
    rel *sloc = rel_new(), *sref = rel_new(), *ssw = rel_new(), *inscope = rel_new(), *mutord = rel_new();
    for (int i = 0; i < n; i++) {
        const event *a = &x->ev[m->first[i]];
        for (int j = 0; j < n; j++) {
            const event *c = &x->ev[m->first[j]];
            bool same_t = a->thread == c->thread;
            bool same_sg = a->gpu == c->gpu && a->wg == c->wg && a->wave == c->wave;
            bool same_wg = a->gpu == c->gpu && a->wg == c->wg;
            bool same_qf = a->gpu == c->gpu;
            if (same_t)
                rel_add(sthd, i, j);
            if (same_sg || same_t)
                rel_add(ssg, i, j);
            if (same_wg || same_t)
                rel_add(swg, i, j);
            if (same_qf || same_t)
                rel_add(sqf, i, j);
            if (i != j && same_t && rel_has(&x->po, m->first[i], m->first[j]))
                rel_add(po, i, j);
            bool mi = set_has(RW, i), mj = set_has(RW, j);
            if (mi && mj && a->cell == c->cell) {
                rel_add(sloc, i, j);
                if (a->src && c->src && a->src->mem.loc == c->src->mem.loc)
                    rel_add(sref, i, j);
            }
            for (int p = 0; p < t->nssw; p++)
                if (t->ssw[p][0] == a->thread && t->ssw[p][1] == c->thread)
                    rel_add(ssw, i, j);
            /* inscope: both Device, or in one group with both scopes at least that group's */
            int si = set_has(DEV, i) ? 4 : set_has(QF, i) ? 3 : set_has(WG, i) ? 2 : set_has(SG, i) ? 1 : 0;
            int sj = set_has(DEV, j) ? 4 : set_has(QF, j) ? 3 : set_has(WG, j) ? 2 : set_has(SG, j) ? 1 : 0;
            int lo = si < sj ? si : sj;
            bool in = lo == 4 || (lo == 3 && (same_qf || same_t)) || (lo == 2 && (same_wg || same_t)) ||
                      (lo == 1 && (same_sg || same_t));
            if (in)
                rel_add(inscope, i, j);
            if (in && i != j && set_has(A, i) && set_has(A, j) && rel_has(sloc, i, j) && rel_has(sref, i, j))
                rel_add(mutord, i, j);
        }
    }
    /* memsim's kernel order (.lit `after`) is an API memory dependency between
     * the kernels: system-synchronizes-with plus device-domain availability
     * and visibility of everything before it (see locord below). */
    R kbn = from_events(m, b->kb);
    R sswk = U(ssw, kbn);
    /* Control barrier instances: memsim's arrive -> wait edges.  Between two
     * barriers that both synchronize they go both ways; from an arrival that
     * does not synchronize (a quorum barrier's, sim/explore.c) there is none,
     * as in Dat3M's syncbar (WmmEncoder.visitSyncBarrier requires sync(e1)
     * only of the edge's source). */
    R scbar = from_events(m, b->bar);

    R ID = id(set_all());
    /* vulkan.cat lines 79-80 */
    R sc2sem = rel_empty(), sem2sc = rel_empty();
    for (int c = 0; c < 4; c++) {
        sc2sem = U(sc2sem, cross(SC[c], SEMSC[c]));
        sem2sc = U(sem2sc, cross(SEMSC[c], SC[c]));
    }
    R posctosem = I(po, sc2sem);
    R posemtosc = I(po, sem2sc);
    /* avvisinc, directed as in models.md §6.2 (and Dat3M's vulkan-common.cat):
     *   (SCi x SEMAV&SEMSCi) | (SEMVIS&SEMSCi x SCi) | (SC x AVDEVICE) | (VISDEVICE x SC)
     *   | sym([AV+VIS] ; (sref & sloc))
     * An availability operation includes the accesses before it, a visibility
     * operation those after it.  (spirv.als at HEAD makes the first part
     * symmetric, which lets a release's semav on x carry x's write through a
     * later release on y: mpinscope3 would then be forbidden.) */
    /* vulkan.cat lines 73-77 (avvisSem over classes 0 to 3) */
    set SCA = set_or(set_or(SC[0], SC[1]), set_or(SC[2], SC[3]));
    R avvisinc = U(U(cross(SCA, AVDEVICE), cross(VISDEVICE, SCA)), sym(S(id(set_or(AVs, VISs)), I(sref, sloc))));
    for (int c = 0; c < 4; c++)
        avvisinc = U(avvisinc, U(cross(SC[c], set_and(SEMAV, SEMSC[c])), cross(set_and(SEMVIS, SEMSC[c]), SC[c])));

    R sw5 = S(S(restr(set_and(REL, F), opt(po), CBAR), D(I(scbar, inscope), ID)),
              restr(CBAR, opt(po), set_and(ACQ, F)));
    /* hb = po | ithbsemsc(SC_S, SEMSC_S) for every non-empty set S of storage classes, SC_S the
     * union of the classes and SEMSC_S the intersection of their semantics (vulkan.cat lines
     * 96-109).  Each contains ssw+; a set with a class that nothing in this execution uses
     * adds nothing more (its semantics' intersection is empty). */
    keep(&st->hb0, U(po, plus(sswk)));
    bool used[4];
    for (int c = 0; c < 4; c++)
        used[c] = !set_is_empty(SC[c]) || !set_is_empty(SEMSC[c]);
    for (int mask = 1; mask < 16; mask++) {
        set SCS = set_empty(), SEMS = set_all();
        bool skip = false;
        for (int c = 0; c < 4; c++)
            if (mask & (1 << c)) {
                skip = skip || !used[c];
                SCS = set_or(SCS, SC[c]);
                SEMS = set_and(SEMS, SEMSC[c]);
            }
        st->mask_used[mask] = !skip;
        if (skip)
            continue;
        st->mask_sems[mask] = SEMS;
        keep(&st->ithb_base[mask], U(sswk, U(restr(set_or(SCS, SEMS), po, set_and(REL, SEMS)),
                                             restr(set_and(ACQ, SEMS), po, set_or(SCS, SEMS)))));
    }
    st->Rd = Rd, st->Wr = Wr, st->F = F, st->A = A, st->ACQ = ACQ, st->REL = REL;
    for (int c = 0; c < 4; c++)
        st->SC[c] = SC[c], st->SEMSC[c] = SEMSC[c];
    st->SG = SG, st->WG = WG, st->QF = QF, st->DEV = DEV, st->CBAR = CBAR, st->AVs = AVs, st->VISs = VISs;
    st->SEMAV = SEMAV, st->SEMVIS = SEMVIS, st->AVDEVICE = AVDEVICE, st->VISDEVICE = VISDEVICE, st->NONPRIV = NONPRIV;
    keep(&st->po, po), keep(&st->sthd, sthd), keep(&st->ssg, ssg), keep(&st->swg, swg), keep(&st->sqf, sqf);
    keep(&st->sloc, sloc), keep(&st->sref, sref), keep(&st->inscope, inscope), keep(&st->mutord, mutord);
    keep(&st->kbn, kbn), keep(&st->sswk, sswk), keep(&st->ID, ID), keep(&st->posctosem, posctosem);
    keep(&st->posemtosc, posemtosc), keep(&st->avvisinc, avvisinc), keep(&st->sw5, sw5);
    keep(&st->acc_pairs, U3(cross(Wr, Wr), cross(Wr, Rd), cross(Rd, Wr)));
    keep(&st->kbo, kernel_ordered(plus(b->po), b->kb));
    rel_release(mark);
    return st;
}

/* The whole model; with prune, only the location order of the reads-from
 * decided so far, without asmo (co is not chosen yet), as memsim events. */
static R vk_eval(const base *b, bool chains, bool prune, bool dat3m, vulkan_facts *f, model_verdict *v)
{
    const execution *x = b->x;
    memset(f, 0, sizeof *f);
    f->valid = true;
    const vk_static *st = vk_static_of(b);
    if (st->deadlock) {
        f->valid = false;
        f->failed = "barrier deadlock";
        return NULL;
    }
    const vk_nodes *m = &st->m;
    int n = m->n;
    set Rd = st->Rd, Wr = st->Wr, F = st->F, A = st->A, ACQ = st->ACQ, REL = st->REL, CBAR = st->CBAR;
    set SG = st->SG, WG = st->WG, QF = st->QF, DEV = st->DEV, AVs = st->AVs, VISs = st->VISs;
    set SEMAV = st->SEMAV, SEMVIS = st->SEMVIS, AVDEVICE = st->AVDEVICE, VISDEVICE = st->VISDEVICE;
    (void)SG, (void)CBAR;
    set RW = set_or(Rd, Wr);
    set PRIV = set_minus(RW, st->NONPRIV);
    set RMW = set_and(Rd, Wr);
    set AW = set_and(A, Wr), AR = set_and(A, Rd);
    R po = &st->po, sthd = &st->sthd, ssg = &st->ssg, swg = &st->swg, sqf = &st->sqf, sloc = &st->sloc;
    R sref = &st->sref, inscope = &st->inscope, mutord = &st->mutord, kbn = &st->kbn, sswk = &st->sswk;
    R ID = &st->ID, posctosem = &st->posctosem, posemtosc = &st->posemtosc, avvisinc = &st->avvisinc;
    set RFINIT = set_empty();

    /* ---- the execution: rf, RFINIT, asmo ------------------------------------------ */
    rel *rf = rel_new();
    for (int w = 0; w < x->n; w++)
        for (int r = set_next(&x->rf.row[w], 0); r >= 0; r = set_next(&x->rf.row[w], r + 1)) {
            if (x->ev[w].kind == EV_IW)
                set_add(&RFINIT, m->node_of[r]);
            else if (m->node_of[w] >= 0 && m->node_of[r] >= 0)
                rel_add(rf, m->node_of[w], m->node_of[r]);
        }
    R asmo = prune ? rel_empty() : I(I(from_events(m, &x->co), cross(AW, AW)), mutord);
    if (!subset(S(asmo, asmo), asmo)) {
        f->valid = false;
        f->failed = "asmo (not a partial order)";
        return NULL;
    }

    /* rs = [REL&A] ; (imm(asmo) ; [R&W])*     hypors = [W&A] ; (imm(asmo) ; [R&W])* */
    R imm_asmo = D(asmo, S(asmo, plus(asmo)));
    R rsstep = star(S(imm_asmo, id(RMW)));
    R rs = S(id(set_and(REL, A)), rsstep);
    R hypors = S(id(AW), rsstep);

    /* ---- synchronizes-with, happens-before --------------------------------------- */
    R rfmo = I(rf, mutord);
    set RELA = set_and(REL, A), RELF = set_and(REL, F), ACQA = set_and(ACQ, A), ACQF = set_and(ACQ, F);
    R sw1 = S(S(id(RELA), rs), restr(set_all(), rfmo, ACQA));
    R fence_rel = S(S(restr(RELF, posemtosc, AW), hypors), rfmo);         /* [REL&F];posemtosc;[A&W];hypors;rfmo */
    R sw2 = S(fence_rel, id(ACQA));
    R acq_fence = restr(AR, posctosem, ACQF);                              /* [A&R];posctosem;[ACQ&F] */
    R sw3 = S(S(S(id(RELA), rs), rfmo), acq_fence);
    R sw4 = S(fence_rel, acq_fence);
    R sw5 = &st->sw5;
    R sw = I(inscope, U(U3(sw1, sw2, sw3), U(sw4, sw5)));
    R hb = &st->hb0;
    for (int mask = 1; mask < 16; mask++)
        if (st->mask_used[mask])
            hb = U(hb, plus(U(&st->ithb_base[mask], restr(st->mask_sems[mask], sw, st->mask_sems[mask]))));

    /* ---- availability and visibility chains --------------------------------------- */
    set AVSG = set_or(AVs, SEMAV), VISSG = set_or(VISs, SEMVIS);
    set WGUP = set_or(set_or(DEV, QF), WG), QFUP = set_or(DEV, QF);
    set AVWG = set_and(AVSG, WGUP), VISWG = set_and(VISSG, WGUP);
    set AVQF = set_and(AVSG, QFUP), VISQF = set_and(VISSG, QFUP);
    set AVSH = set_and(AVSG, DEV), VISSH = set_and(VISSG, DEV);
    R CH = chains ? cross(set_all(), set_all()) : ID;
    R hsg = I(I(hb, ssg), avvisinc), hwg = I(I(hb, swg), avvisinc), hqf = I(I(hb, sqf), avvisinc);
    R avsg = id(AVSG);
    R avwg = S(I(CH, opt(S(avsg, hsg))), id(AVWG));
    R avqf = S(I(CH, S(opt(S(avsg, hsg)), opt(S(avwg, hwg)))), id(AVQF));
    R avsh = S(I(CH, S(S(opt(S(avsg, hsg)), opt(S(avwg, hwg))), opt(S(avqf, hqf)))), id(AVSH));
    R avdv = id(AVDEVICE);
    R vissg = id(VISSG);
    R viswg = S(id(VISWG), I(CH, opt(S(hsg, vissg))));
    R visqf = S(id(VISQF), I(CH, S(opt(S(hwg, viswg)), opt(S(hsg, vissg)))));
    R vissh = S(id(VISSH), I(CH, S(S(opt(S(hqf, visqf)), opt(S(hwg, viswg))), opt(S(hsg, vissg)))));
    R visdv = id(VISDEVICE);

    /* ---- location order ---------------------------------------------------------------- */
    set WNP = set_minus(Wr, PRIV), RNP = set_minus(Rd, PRIV), RWNP = set_minus(RW, PRIV);
    R poa = I(opt(po), avvisinc);
    R lo = U3(I(I(hb, sthd), sref), restr(RNP, hb, RWNP), restr(Rd, plus(sswk), RW));
    R avs[4] = {avsg, avwg, avqf, avsh};
    R viss[4] = {vissg, viswg, visqf, vissh};
    R hbd[4] = {I(hb, ssg), I(hb, swg), I(hb, sqf), hb};
    for (int d = 0; d < 4; d++) {
        R head = S(S(restr(WNP, poa, set_all()), avs[d]), hbd[d]); /* [W-PRIV];(po?&avvisinc);av_D;(hb&same_D) */
        R waw = I(sref, restr(set_all(), head, WNP));
        R raw = I(sref, restr(set_all(), S(S(head, viss[d]), poa), RNP));
        lo = U3(lo, waw, raw);
    }
    R hbav = I(hb, avvisinc);
    R dev_head = S(S(restr(Wr, hbav, set_all()), avdv), hb);
    lo = U3(lo, restr(set_all(), dev_head, Wr), restr(set_all(), S(S(dev_head, visdv), hbav), Rd));
    lo = U(lo, restr(Wr, kbn, RW)); /* kernel boundary: device-domain av/vis (memsim's addition) */
    R locord = I(restr(RW, lo, RW), sloc);
    if (prune) {
        rel *o = rel_new();
        for (int i = 0; i < x->n; i++)
            for (int j = 0; j < x->n; j++)
                if (m->node_of[i] >= 0 && m->node_of[j] >= 0 && rel_has(locord, m->node_of[i], m->node_of[j]))
                    rel_add(o, i, j);
        return o;
    }
    /* fr = (rf^-1 ; ((W x W) & locord)) + (rf^-1 ; asmo) + ([RFINIT] ; sloc ; [W]) - iden  (models.md §6.2) */
    /* Dat3M's vulkan.cat line 150 relaxes the first term to (rf & locord)^-1 ; ((W x W) & locord)
     * ("the original Vulkan model is too restrictive and forbids CoWW-RR"): a read that no
     * location order places after its write is not from-read before later writes.  The
     * repository's Alloy test noncohcoww.test (NOSOLUTION) needs the original: `vulkan` keeps
     * it, `vulkan-dat3m` takes Dat3M's (import/DISAGREEMENTS.md). */
    R rf_fr = dat3m ? I(rf, locord) : rf;
    R fr = D(U3(S(inv(rf_fr), restr(Wr, locord, Wr)), S(inv(rf), asmo), restr(RFINIT, sloc, Wr)), ID);

    /* ---- data races and consistency ----------------------------------------------------- */
    R acc_pairs = &st->acc_pairs;
    R dr = I(sloc, D(D(D(acc_pairs, mutord), I(sthd, sref)), sym(locord)));
    /* Alloy has no final state; memsim takes it from co, so co must agree
     * with the location order of writes (racy writes stay free). */
    f->co_follows_locord = is_empty(I(restr(Wr, locord, Wr), inv(from_events(m, &x->co))));
    f->ndr = count_pairs(dr);
    f->nrs = count_pairs(rs);
    f->consistent = true;
    if (!acyclic(U(U(locord, rf), U(fr, asmo)))) {
        f->consistent = false;
        f->failed = "acyclic(locord | rf | fr | asmo)";
    } else {
        /* A non-atomic read does not read a write that another write shadows:
         * rf;[R\A] & ([W];locord);([W];locord)+ is empty (models.md §6.2; the
         * model at the tests' commit; Dat3M's spirv.cat).  Later spirv.als
         * revisions ask for more, rf;[R\A] in imm([W];locord), which would
         * make the racy executions of test16 and mpinscope3 inconsistent. */
        R wl = restr(Wr, locord, set_all());
        if (!is_empty(I(restr(set_all(), rf, set_minus(Rd, A)), S(wl, plus(wl))))) {
            f->consistent = false;
            f->failed = "a non-atomic read of a shadowed write";
        }
    }
    if (!v || !f->consistent)
        return NULL;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            if (!rel_has(dr, i, j) && !rel_has(dr, j, i))
                continue;
            int a = set_has(Wr, i) && m->wr[i] >= 0 ? m->wr[i] : m->first[i];
            int c = set_has(Wr, j) && m->wr[j] >= 0 ? m->wr[j] : m->first[j];
            bool atomics = set_has(A, i) && set_has(A, j);
            verdict_add_race(v, a, c,
                             atomics ? "atomics that are not mutually ordered (scope, storage or reference), "
                                       "unordered by location order"
                                     : "a non-atomic access, unordered by location order (no availability/"
                                       "visibility chain or happens-before reaches it)");
        }
    /* Coarse-grained memory across GPUs (memsim's granularity rule, as for the
     * other models): only kernel boundaries order it (docs/vulkan.md §4). */
    R kbo = &st->kbo;
    for (int i = 0; i < x->n; i++)
        for (int j = i + 1; j < x->n; j++)
            if (rel_has(b->conflict, i, j) && rel_has(b->cxg, i, j) && !rel_has(kbo, i, j))
                verdict_add_race(v, i, j, "coarse-grained memory accessed from two GPUs inside one kernel pair "
                                          "(only kernel boundaries make it coherent)");
    return NULL;
}

void vulkan_eval(const base *b, bool chains, vulkan_facts *f, model_verdict *v) { vk_eval(b, chains, false, false, f, v); }

/* For the explorer's pruning (model.h): the location order only grows with
 * rf, and a consistent completion never reads against it (a cycle with rf
 * or fr, or a shadowed non-atomic read) and orders co by it. */
static R vulkan_prune_order(const base *b)
{
    vulkan_facts f;
    R o = vk_eval(b, true, true, false, &f, NULL);
    return o ? o : rel_empty();
}

static void vulkan_check(const base *b, model_verdict *v)
{
    vulkan_facts f;
    vulkan_eval(b, true, &f, v);
    v->consistent = f.valid && f.consistent && f.co_follows_locord && final_state_coherent(b);
    if (!v->consistent)
        v->failed = f.failed ? f.failed : "co against the location order (final state)";
}

const model model_vulkan = {
    .name = "vulkan",
    .title = "Vulkan/SPIR-V (spirv.als): availability/visibility, private memory; races are undefined behaviour",
    .races_are_ub = true,
    .check = vulkan_check,
    .prune_order = vulkan_prune_order,
};

/* Dat3M's cat/vulkan.cat: the same model with its from-read (line 150); what Dat3M's
 * VULKAN litmus expectations were computed with.  Not in `--model all`. */
static void vulkan_dat3m_check(const base *b, model_verdict *v)
{
    vulkan_facts f;
    vk_eval(b, true, false, true, &f, v);
    v->consistent = f.valid && f.consistent && f.co_follows_locord && final_state_coherent(b);
    if (!v->consistent)
        v->failed = f.failed ? f.failed : "co against the location order (final state)";
}

const model model_vulkan_dat3m = {
    .name = "vulkan-dat3m",
    .title = "Vulkan as Dat3M's vulkan.cat: the vulkan model with from-read through location-ordered reads only",
    .races_are_ub = true,
    .check = vulkan_dat3m_check,
    .prune_order = vulkan_prune_order,
};
