#include "reel_gapless_guard.h"
#include <gst/gst.h>

GST_DEBUG_CATEGORY_STATIC(reel_gapless_guard_debug);
#define GST_CAT_DEFAULT reel_gapless_guard_debug

static gint holds = 0;

// Per pipeline: its live urisourcebins' guards and the drained ones already gone.
struct ReelGaplessWatch {
    GMutex lock;
    GList *guards;  // Guard*, not referenced (each removes itself as it goes)
    gint gone_drained;
};

// One per urisourcebin: its guarded pads, one lock. Reference-counted (an atomic rc box): the
// urisourcebin holds one, each guarded pad one, whichever goes last frees it.
typedef struct {
    GMutex lock;
    GCond cond;
    GList *pads;  // PadGuard*, under lock
    gboolean drained;  // under lock: every pad saw EOS (kept as the pads go with the bin)
    ReelGaplessWatch *watch;  // a reference
} Guard;

typedef struct {
    Guard *guard;   // a reference
    GstPad *ghost;  // the urisourcebin's pad (uridecodebin3's probe is on it); a reference
    gboolean entered;  // under lock: its buffer went on towards uridecodebin3's probe
    gboolean eos;      // under lock: EOS seen since its last SEGMENT
} PadGuard;

ReelGaplessWatch *reel_gapless_watch_new(void) {
    ReelGaplessWatch *w = g_atomic_rc_box_new0(ReelGaplessWatch);
    g_mutex_init(&w->lock);
    return w;
}

static void watch_clear(gpointer data) {
    ReelGaplessWatch *w = data;
    g_mutex_clear(&w->lock);
    g_list_free(w->guards);
}

void reel_gapless_watch_unref(ReelGaplessWatch *watch) {
    if (watch) g_atomic_rc_box_release_full(watch, watch_clear);
}

// Under the guard's lock.
static gboolean guard_drained(Guard *g) {
    if (g->pads == NULL) return FALSE;
    for (GList *l = g->pads; l; l = l->next) {
        if (!((PadGuard *)l->data)->eos) return FALSE;
    }
    return TRUE;
}

int reel_gapless_watch_drained(ReelGaplessWatch *w) {
    if (w == NULL) return 0;
    g_mutex_lock(&w->lock);
    gboolean drained = w->gone_drained > 0;
    for (GList *l = w->guards; l && !drained; l = l->next) {
        Guard *g = l->data;
        g_mutex_lock(&g->lock);
        drained = g->drained;
        g_mutex_unlock(&g->lock);
    }
    g_mutex_unlock(&w->lock);
    return drained;
}

void reel_gapless_watch_reset(ReelGaplessWatch *w) {
    if (w == NULL) return;
    g_mutex_lock(&w->lock);
    w->gone_drained = 0;
    g_mutex_unlock(&w->lock);
}

static void guard_clear(gpointer data) {
    Guard *g = data;
    g_mutex_clear(&g->lock);
    g_cond_clear(&g->cond);
    g_list_free(g->pads);
    reel_gapless_watch_unref(g->watch);
}

static void guard_release(gpointer data) { g_atomic_rc_box_release_full(data, guard_clear); }

// The urisourcebin is going: its guard leaves the watch (a drained one is remembered).
static void guard_leave(gpointer data) {
    Guard *g = data;
    ReelGaplessWatch *w = g->watch;
    g_mutex_lock(&w->lock);
    g_mutex_lock(&g->lock);
    if (g->drained) w->gone_drained++;
    g_mutex_unlock(&g->lock);
    w->guards = g_list_remove(w->guards, g);
    g_mutex_unlock(&w->lock);
    guard_release(g);
}

static void pad_guard_free(gpointer data) {
    PadGuard *p = data;
    g_mutex_lock(&p->guard->lock);
    p->guard->pads = g_list_remove(p->guard->pads, p);
    g_mutex_unlock(&p->guard->lock);
    gst_object_unref(p->ghost);
    guard_release(p->guard);
    g_free(p);
}

// Another stream of this urisourcebin is inside uridecodebin3's probe (or on its way): its
// buffer went on while its pad was blocked, and its pad is still blocked but not idle in the
// block (the probe returned OK: blocking). Under lock.
static gboolean other_inside(Guard *g, PadGuard *self) {
    for (GList *l = g->pads; l; l = l->next) {
        PadGuard *p = l->data;
        if (p == self || !p->entered) continue;
        if (gst_pad_is_blocked(p->ghost) && !gst_pad_is_blocking(p->ghost)) return TRUE;
    }
    return FALSE;
}

// EOS and SEGMENT, as uridecodebin3's own event probe reads them (a pad drained, or not).
static GstPadProbeReturn on_event(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
    (void)pad;
    PadGuard *p = data;
    GstEventType type = GST_EVENT_TYPE(GST_PAD_PROBE_INFO_EVENT(info));
    if (type != GST_EVENT_EOS && type != GST_EVENT_SEGMENT) return GST_PAD_PROBE_OK;
    g_mutex_lock(&p->guard->lock);
    p->eos = type == GST_EVENT_EOS;
    p->guard->drained = guard_drained(p->guard);
    g_mutex_unlock(&p->guard->lock);
    return GST_PAD_PROBE_OK;
}

static GstPadProbeReturn on_data(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
    PadGuard *p = data;
    // uridecodebin3 holds buffers, buffer lists and gaps; every other event passes its probe.
    if ((GST_PAD_PROBE_INFO_TYPE(info) & GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM) &&
        GST_EVENT_TYPE(GST_PAD_PROBE_INFO_EVENT(info)) != GST_EVENT_GAP) return GST_PAD_PROBE_OK;
    if (!gst_pad_is_blocked(p->ghost)) return GST_PAD_PROBE_REMOVE;  // current item, or switched
    Guard *g = p->guard;
    gint64 deadline = g_get_monotonic_time() + 10 * G_TIME_SPAN_SECOND;
    gboolean held = FALSE, flushing = FALSE;
    g_mutex_lock(&g->lock);
    while (gst_pad_is_blocked(p->ghost) && other_inside(g, p)) {
        if (GST_PAD_IS_FLUSHING(pad) || GST_PAD_IS_FLUSHING(p->ghost)) { flushing = TRUE; break; }
        if (!held) {
            held = TRUE;
            g_atomic_int_inc(&holds);
            GST_DEBUG_OBJECT(p->ghost, "held: another stream is in uridecodebin3's block probe");
        }
        gint64 now = g_get_monotonic_time();
        if (now >= deadline) { GST_WARNING_OBJECT(p->ghost, "held 10 s: going on"); break; }
        // Nothing signals a lifted block: a short wait, then look again.
        g_cond_wait_until(&g->cond, &g->lock, MIN(deadline, now + 5 * G_TIME_SPAN_MILLISECOND));
    }
    gboolean blocked = gst_pad_is_blocked(p->ghost);
    if (!flushing && blocked) p->entered = TRUE;
    g_mutex_unlock(&g->lock);
    if (held) GST_DEBUG_OBJECT(p->ghost, "released (%s)", flushing ? "flushing" : blocked ? "its turn" : "switched");
    if (flushing) return GST_PAD_PROBE_DROP;  // a flush discards it anyway; never into the probe now
    return blocked ? GST_PAD_PROBE_OK : GST_PAD_PROBE_REMOVE;
}

static void on_pad_added(GstElement *bin, GstPad *ghost, gpointer data) {
    (void)bin;
    Guard *g = data;
    if (GST_PAD_DIRECTION(ghost) != GST_PAD_SRC || !GST_IS_GHOST_PAD(ghost)) return;
    GstPad *target = gst_ghost_pad_get_target(GST_GHOST_PAD(ghost));
    if (target == NULL) return;
    PadGuard *p = g_new0(PadGuard, 1);
    p->guard = g_atomic_rc_box_acquire(g);
    p->ghost = gst_object_ref(ghost);
    g_mutex_lock(&g->lock);
    g->pads = g_list_prepend(g->pads, p);
    g_mutex_unlock(&g->lock);
    // On the target: its probes run before the buffer reaches the ghost pad's (uridecodebin3's).
    // The event probe stays for the pad's life (and owns `p`); the data probe goes after the
    // first buffer that finds the pad unblocked.
    gst_pad_add_probe(target, GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, on_event, p, pad_guard_free);
    gst_pad_add_probe(target, GST_PAD_PROBE_TYPE_BUFFER | GST_PAD_PROBE_TYPE_BUFFER_LIST | GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM,
                      on_data, p, NULL);
    gst_object_unref(target);
}

void reel_gapless_guard_attach(void *element, ReelGaplessWatch *watch) {
    static gsize once = 0;
    if (g_once_init_enter(&once)) {
        GST_DEBUG_CATEGORY_INIT(reel_gapless_guard_debug, "reelgaplessguard", 0, "Reel: uridecodebin3's next-item switch, one stream at a time");
        g_once_init_leave(&once, 1);
    }
    GstElement *e = GST_ELEMENT(element);
    GstElementFactory *factory = gst_element_get_factory(e);
    if (watch == NULL || factory == NULL || g_strcmp0(GST_OBJECT_NAME(factory), "urisourcebin") != 0) return;
    if (g_object_get_data(G_OBJECT(e), "reel-gapless-guard") != NULL) return;
    Guard *g = g_atomic_rc_box_new0(Guard);
    g_mutex_init(&g->lock);
    g_cond_init(&g->cond);
    g->watch = g_atomic_rc_box_acquire(watch);
    g_mutex_lock(&watch->lock);
    watch->guards = g_list_prepend(watch->guards, g);
    g_mutex_unlock(&watch->lock);
    g_object_set_data_full(G_OBJECT(e), "reel-gapless-guard", g, guard_leave);
    g_signal_connect(e, "pad-added", G_CALLBACK(on_pad_added), g);
}

unsigned reel_gapless_guard_holds(void) { return (unsigned)g_atomic_int_get(&holds); }
