/* SPDX-License-Identifier: GPL-3.0-or-later */
/**
 * SECTION:etl-activities
 * @title: Start/Stop activities
 * @short_description: intervals from the Start (opcode 1) and Stop (opcode 2) events of a trace
 *
 * etl_activities_new() reads a trace's EVENT_HEADER records (manifest,
 * EventSource and TraceLogging events; kernel and classic MOF records, whose
 * types 1 and 2 are Start/End of processes and threads, are not activities)
 * in merged order and pairs each Stop with a Start of the same provider and
 * EVENT_DESCRIPTOR.Task:
 *
 * - A Start whose EVENT_HEADER.ActivityId is not zero pairs with the Stop of
 *   the same provider, task, process and ActivityId (the key of TraceEvent's
 *   StartStopActivityComputer).  A Start whose ActivityId is zero pairs with
 *   the next Stop of zero ActivityId of the same provider, task, process and
 *   thread: the last unpaired Start of that key, so that same-named
 *   activities nest on a thread.  A Stop with a non-zero ActivityId never
 *   pairs by thread, nor a zero one by ActivityId.
 * - ActivityId reuse: a Start whose key (provider, task, process,
 *   ActivityId) is already open replaces the open activity, as
 *   StartStopActivityComputer's dictionary does: the earlier one is never
 *   stopped, stays open (it lasts to the trace's end) and is flagged
 *   %ETL_ACTIVITY_ABANDONED; it no longer encloses later Starts on its
 *   thread.  The next Stop of that key stops the new one.
 * - The parent: a Start's RelatedActivityId (the
 *   EVENT_HEADER_EXT_TYPE_RELATEDACTIVITYID extended data item, 16 bytes)
 *   names the open activity of that ActivityId (the latest Start of it), so
 *   work handed to another thread nests under the activity that started it.
 *   Without that item, or when it names no open activity (counted in
 *   @missing_parent), the parent is the innermost activity still open that
 *   started on the same thread of the same process (any provider).
 * - A Start logged twice: a Start of zero ActivityId on a thread whose
 *   innermost open activity is of the same provider and task, began at
 *   most %DUPLICATE_WINDOW earlier with the same EVENT_DESCRIPTOR.Id in
 *   another Version, and is the latest activity started (on any thread),
 *   is that Start again
 *   (counted in @duplicate_starts, not an activity).  The .NET runtime
 *   logs GCStart so, version 1 then version 2 about 5 µs apart with the
 *   same Count, followed by one GCEnd (net.4.5.2.x64.etl: 528 GCStart
 *   records, 264 GCs); pairing both would leave one of each pair open to
 *   the trace's end.
 * - A Start never stopped lasts to the trace's last record and is flagged
 *   %ETL_ACTIVITY_OPEN; a Stop no open Start matches is counted and listed
 *   (etl_activities_get_unmatched_stops()).
 * - The name, as PerfView's StartStop view names activities: the task name
 *   (the schema's, else its event name without a trailing "Start", else
 *   "Task N") followed by "(first field)" when the Start's first payload
 *   field is a string (PerfView: TaskName(ActivityPath,first field); the
 *   path is kept apart here, see etl_activity_id_to_path()).  The first
 *   field is read by the decoder's rules, bounds-checked (an unterminated
 *   string ends with the payload), and cut at 127 bytes
 *   (etl-activity-names.c).
 *
 * Memory and time: one #EtlActivity per Start (80 bytes, and 20 bytes of
 * links while building) and, while it is open, slots in two open-addressing
 * tables (its provider, task, process and ActivityId; its ActivityId alone,
 * the open Starts of one ActivityId doubly linked from there) or a link in a
 * per-key stack (thread keys): every event costs O(1) expected time,
 * whatever the number of unpaired Starts or of Starts sharing an ActivityId.
 * etl_activities_new() (etl-activities-read.c) reads the trace with reader
 * threads and feeds the events in record order to the pairing in the
 * calling thread (meant for a worker); it may be cancelled.  The result is
 * read-only and may be shared between threads.
 */
#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include "etl-activities-private.h"

#include <string.h>

#include "etl-activity-names-private.h"
#include "etl-record.h"

#define OPCODE_START 1
#define OPCODE_STOP  2
#define NONE         ETL_ACTIVITY_NONE

#define MAX_PROVIDERS    65535
/* A second version of the same Start within this (100-ns ticks, 1 ms) is
 * the same Start (see the section overview). */
#define DUPLICATE_WINDOW 10000
#define NAME_CACHE       64 /* a power of two */

/* The ActivityPath check of EventSource IDs (TraceEvent's IsActivityPath):
 * the GUID's four little-endian 32-bit words satisfy w0 + w1 + w2 + this = w3. */
#define ACTIVITY_PATH_CHECKSUM 0x599D99ADu

struct _EtlActivities
{
  gatomicrefcount ref_count;
  EtlActivitiesCounts counts;
  GArray *acts;      /* EtlActivity, in Start order */
  GArray *stops;     /* EtlActivityStop, in record order */
  GPtrArray *strings;  /* interned names, owned */
  GArray *providers; /* EtlGuid */
};

/* ------------------------------------------------------------------------ */
/* Open addressing on activity indexes                                     */

typedef struct
{
  guint32 idx1; /* activity index + 1, 0 = empty */
  guint32 hash;
} Slot;

typedef struct
{
  Slot *slots;
  guint32 mask; /* capacity − 1, a power of two minus one */
  guint32 len;
} Table;

typedef gboolean (*EqualFunc) (const EtlActivity *a, const EtlActivity *probe);

static void
table_init (Table *t)
{
  t->mask = 63;
  t->len = 0;
  t->slots = g_new0 (Slot, t->mask + 1);
}

static void
table_clear (Table *t)
{
  g_clear_pointer (&t->slots, g_free);
}

static void
table_grow (Table *t)
{
  Slot *old = t->slots;
  guint32 old_cap = t->mask + 1;

  t->mask = 2 * old_cap - 1;
  t->slots = g_new0 (Slot, (gsize) t->mask + 1);
  for (guint32 i = 0; i < old_cap; i++)
    if (old[i].idx1 != 0)
      {
        guint32 p = old[i].hash & t->mask;

        while (t->slots[p].idx1 != 0)
          p = (p + 1) & t->mask;
        t->slots[p] = old[i];
      }
  g_free (old);
}

/* The slot holding an activity equal to @probe, or G_MAXUINT32. */
static guint32
table_find (const Table *t, const EtlActivity *acts, guint32 hash, const EtlActivity *probe, EqualFunc equal)
{
  for (guint32 p = hash & t->mask;; p = (p + 1) & t->mask)
    {
      const Slot *s = &t->slots[p];

      if (s->idx1 == 0)
        return G_MAXUINT32;
      if (s->hash == hash && equal (&acts[s->idx1 - 1], probe))
        return p;
    }
}

static void
table_insert (Table *t, guint32 hash, guint32 idx)
{
  guint32 p;

  if (2 * (t->len + 1) > t->mask + 1)
    table_grow (t);
  for (p = hash & t->mask; t->slots[p].idx1 != 0; p = (p + 1) & t->mask)
    ;
  t->slots[p].idx1 = idx + 1;
  t->slots[p].hash = hash;
  t->len++;
}

/* Removes slot @p, shifting back the entries of its probe run (no tombstones). */
static void
table_remove_at (Table *t, guint32 p)
{
  guint32 hole = p;

  for (guint32 q = (p + 1) & t->mask; t->slots[q].idx1 != 0; q = (q + 1) & t->mask)
    {
      guint32 home = t->slots[q].hash & t->mask;

      /* q's entry may move to the hole when its home is not in (hole, q]. */
      if (((q - home) & t->mask) >= ((q - hole) & t->mask))
        {
          t->slots[hole] = t->slots[q];
          hole = q;
        }
    }
  t->slots[hole].idx1 = 0;
  t->len--;
}

static inline guint32
mix64 (guint64 x)
{
  x ^= x >> 33;
  x *= G_GUINT64_CONSTANT (0xFF51AFD7ED558CCD);
  x ^= x >> 33;
  x *= G_GUINT64_CONSTANT (0xC4CEB9FE1A85EC53);
  x ^= x >> 33;
  return (guint32) x;
}

static inline guint64
guid_fold (const EtlGuid *g)
{
  guint64 lo, hi;

  memcpy (&lo, g->data4, 8);
  hi = (guint64) g->data1 << 32 | (guint64) g->data2 << 16 | g->data3;
  return lo * G_GUINT64_CONSTANT (0x9E3779B97F4A7C15) ^ hi;
}

/* Key by ActivityId: provider, task, process, ActivityId. */
static guint32
hash_by_key (const EtlActivity *a)
{
  return mix64 (guid_fold (&a->activity_id) ^ ((guint64) a->provider << 48 | (guint64) a->task << 32 | a->pid));
}

static gboolean
equal_by_id (const EtlActivity *a, const EtlActivity *b)
{
  return a->provider == b->provider && a->task == b->task && a->pid == b->pid
         && etl_guid_equal (&a->activity_id, &b->activity_id);
}

/* Key by thread: provider, task, process, thread. */
static guint32
hash_by_thread (const EtlActivity *a)
{
  return mix64 (((guint64) a->provider << 48 | (guint64) a->task << 32 | a->pid) * 31 + a->tid);
}

static gboolean
equal_by_thread (const EtlActivity *a, const EtlActivity *b)
{
  return a->provider == b->provider && a->task == b->task && a->pid == b->pid && a->tid == b->tid;
}

/* Parent lookup: the ActivityId alone. */
static guint32
hash_guid (const EtlActivity *a)
{
  return mix64 (guid_fold (&a->activity_id));
}

static gboolean
equal_guid (const EtlActivity *a, const EtlActivity *b)
{
  return etl_guid_equal (&a->activity_id, &b->activity_id);
}

/* tid → the innermost activity open on it + 1 (0: none): open addressing
 * on the thread id; a thread's entry stays once made (threads are few). */
typedef struct
{
  guint32 *tids;
  guint32 *heads;
  guint32 mask;
  guint32 len;
} ThreadMap;

static void
thread_map_init (ThreadMap *m)
{
  m->mask = 63;
  m->len = 0;
  m->tids = g_new0 (guint32, m->mask + 1);
  m->heads = g_new0 (guint32, m->mask + 1); /* 0: empty slot, else head + 1 (G_MAXUINT32: made, none open) */
}

static void
thread_map_clear (ThreadMap *m)
{
  g_clear_pointer (&m->tids, g_free);
  g_clear_pointer (&m->heads, g_free);
}

/* The value slot of @tid: head + 1, or G_MAXUINT32 when nothing is open on
 * it; made when @make (else NULL when the thread was never seen). */
static guint32 *
thread_map_at (ThreadMap *m, guint32 tid, gboolean make)
{
  guint32 p;

  for (p = mix64 (tid) & m->mask; m->heads[p] != 0; p = (p + 1) & m->mask)
    if (m->tids[p] == tid)
      return &m->heads[p];
  if (!make)
    return NULL;
  if (2 * (m->len + 1) > m->mask + 1)
    {
      guint32 *tids = m->tids, *heads = m->heads, cap = m->mask + 1;

      m->mask = 2 * cap - 1;
      m->tids = g_new0 (guint32, (gsize) m->mask + 1);
      m->heads = g_new0 (guint32, (gsize) m->mask + 1);
      for (guint32 k = 0; k < cap; k++)
        if (heads[k] != 0)
          {
            guint32 q;

            for (q = mix64 (tids[k]) & m->mask; m->heads[q] != 0; q = (q + 1) & m->mask)
              ;
            m->tids[q] = tids[k];
            m->heads[q] = heads[k];
          }
      g_free (tids);
      g_free (heads);
      for (p = mix64 (tid) & m->mask; m->heads[p] != 0; p = (p + 1) & m->mask)
        ;
    }
  m->tids[p] = tid;
  m->heads[p] = G_MAXUINT32;
  m->len++;
  return &m->heads[p];
}

/* ------------------------------------------------------------------------ */
/* The builder                                                              */

typedef struct
{
  guint32 key_prev; /* by-thread key: the Start of the same key open before it */
  guint32 id_prev;  /* ActivityId: the open Start of the same ActivityId before it (older) */
  guint32 id_next;  /* and after it (newer): the chain from by_id's head, newest first */
  guint32 thr_prev; /* the activity open on the same thread before it (its enclosing one there) */
  guint32 thr_next; /* the one opened after it on that thread */
} Link;

struct _EtlActivitiesBuilder
{
  EtlActivitiesCounts counts;
  GArray *acts;   /* EtlActivity */
  GArray *links;  /* Link, one an activity */
  GArray *descs;  /* guint32, one an activity: its Start's Id << 8 | Version */
  GArray *stops;  /* EtlActivityStop */
  Table by_key;    /* the open Start of each (provider, task, process, ActivityId) */
  Table by_id;     /* the latest open Start of each ActivityId (parents); the others of that ID chain from it */
  Table by_thread; /* top of each by-thread key's stack of open Starts */
  ThreadMap threads;     /* tid → innermost open activity */
  GHashTable *string_ids; /* string → index + 1 (keys owned by strings) */
  GPtrArray *strings;
  GHashTable *provider_ids; /* EtlGuid* (in providers) → index + 1 */
  GArray *providers;        /* EtlGuid */
  GString *scratch;         /* a name being composed */
  /* The names met last, by a cheap hash, so that a run of Starts of one
   * name interns without hashing it (pointers into strings). */
  struct
  {
    const char *s;
    gsize len;
    guint32 id;
  } task_cache[NAME_CACHE];
  struct
  {
    const char *first; /* in the interned "Task(first)" */
    gsize len;
    guint32 task, id;
  } name_cache[NAME_CACHE];
  guint32 last_provider;    /* the last provider_id() answer, G_MAXUINT32 none */
};

EtlActivitiesBuilder *
etl_activities_builder_new (void)
{
  EtlActivitiesBuilder *b = g_new0 (EtlActivitiesBuilder, 1);

  b->acts = g_array_new (FALSE, FALSE, sizeof (EtlActivity));
  b->links = g_array_new (FALSE, FALSE, sizeof (Link));
  b->descs = g_array_new (FALSE, FALSE, sizeof (guint32));
  b->stops = g_array_new (FALSE, FALSE, sizeof (EtlActivityStop));
  table_init (&b->by_key);
  table_init (&b->by_id);
  table_init (&b->by_thread);
  thread_map_init (&b->threads);
  b->string_ids = g_hash_table_new (g_str_hash, g_str_equal);
  b->strings = g_ptr_array_new_with_free_func (g_free);
  b->provider_ids = g_hash_table_new_full (etl_guid_hash, etl_guid_equal_func, g_free, NULL);
  b->providers = g_array_new (FALSE, FALSE, sizeof (EtlGuid));
  b->scratch = g_string_new (NULL);
  b->last_provider = G_MAXUINT32;
  return b;
}

static guint32
intern (GHashTable *ids, GPtrArray *strings, const char *s)
{
  gpointer v = g_hash_table_lookup (ids, s);
  char *copy;

  if (v != NULL)
    return GPOINTER_TO_UINT (v) - 1;
  copy = g_strdup (s);
  g_ptr_array_add (strings, copy);
  g_hash_table_insert (ids, copy, GUINT_TO_POINTER (strings->len));
  return strings->len - 1;
}

/* The provider's index, G_MAXUINT32 past MAX_PROVIDERS. */
static guint32
provider_id (EtlActivitiesBuilder *b, const EtlGuid *provider)
{
  gpointer v;

  /* Events of one provider come in runs: the last one answers most. */
  if (b->last_provider != G_MAXUINT32
      && etl_guid_equal (&g_array_index (b->providers, EtlGuid, b->last_provider), provider))
    return b->last_provider;
  v = g_hash_table_lookup (b->provider_ids, provider);
  if (v != NULL)
    return b->last_provider = GPOINTER_TO_UINT (v) - 1;
  if (b->providers->len >= MAX_PROVIDERS)
    return G_MAXUINT32;
  g_array_append_val (b->providers, *provider);
  g_hash_table_insert (b->provider_ids, g_memdup2 (provider, sizeof *provider), GUINT_TO_POINTER (b->providers->len));
  return b->last_provider = b->providers->len - 1;
}

static inline guint
cheap_hash (const char *s, gsize len)
{
  return (guint) len * 131u + (guchar) s[0] + (len > 0 ? (guchar) s[len - 1] * 7u : 0);
}

/* intern() of a task name, through the cache. */
static guint32
intern_task (EtlActivitiesBuilder *b, const char *s)
{
  gsize len = strlen (s);
  guint k = cheap_hash (s, len) & (NAME_CACHE - 1);

  if (b->task_cache[k].s == NULL || b->task_cache[k].len != len || memcmp (b->task_cache[k].s, s, len) != 0)
    {
      guint32 id = intern (b->string_ids, b->strings, s);

      b->task_cache[k].s = g_ptr_array_index (b->strings, id);
      b->task_cache[k].len = len;
      b->task_cache[k].id = id;
    }
  return b->task_cache[k].id;
}

/* intern() of "task_name(first)", through the cache. */
static guint32
intern_name (EtlActivitiesBuilder *b, guint32 task, const char *task_name, const char *first)
{
  gsize len = strlen (first);
  guint k = (task * 2654435761u + cheap_hash (first, len)) & (NAME_CACHE - 1);

  if (b->name_cache[k].first == NULL || b->name_cache[k].task != task || b->name_cache[k].len != len
      || memcmp (b->name_cache[k].first, first, len) != 0)
    {
      guint32 id;

      g_string_assign (b->scratch, task_name);
      g_string_append_c (b->scratch, '(');
      g_string_append_len (b->scratch, first, (gssize) len);
      g_string_append_c (b->scratch, ')');
      id = intern (b->string_ids, b->strings, b->scratch->str);
      b->name_cache[k].first = (const char *) g_ptr_array_index (b->strings, id) + strlen (task_name) + 1;
      b->name_cache[k].len = len;
      b->name_cache[k].task = task;
      b->name_cache[k].id = id;
    }
  return b->name_cache[k].id;
}

static inline EtlActivity *
act_at (EtlActivitiesBuilder *b, guint32 i)
{
  return &g_array_index (b->acts, EtlActivity, i);
}

static inline Link *
link_at (EtlActivitiesBuilder *b, guint32 i)
{
  return &g_array_index (b->links, Link, i);
}

/* The innermost activity open on @tid of process @pid, NONE when none. */
static guint32
thread_top (EtlActivitiesBuilder *b, guint32 pid, guint32 tid)
{
  const guint32 *head = thread_map_at (&b->threads, tid, FALSE);

  if (head == NULL || *head == G_MAXUINT32)
    return NONE;
  /* A thread id reused by another process: not its enclosing activity. */
  return act_at (b, *head - 1)->pid == pid ? *head - 1 : NONE;
}

static void
thread_push (EtlActivitiesBuilder *b, guint32 idx)
{
  guint32 *head = thread_map_at (&b->threads, act_at (b, idx)->tid, TRUE);
  guint32 top = *head == G_MAXUINT32 ? NONE : *head - 1;

  link_at (b, idx)->thr_prev = top;
  link_at (b, idx)->thr_next = NONE;
  if (top != NONE)
    link_at (b, top)->thr_next = idx;
  *head = idx + 1;
}

/* Takes @idx out of its thread's list of open activities (any place). */
static void
thread_unlink (EtlActivitiesBuilder *b, guint32 idx)
{
  Link *l = link_at (b, idx);
  guint32 prev = l->thr_prev, next = l->thr_next;

  if (next != NONE)
    link_at (b, next)->thr_prev = prev;
  else
    *thread_map_at (&b->threads, act_at (b, idx)->tid, TRUE) = prev != NONE ? prev + 1 : G_MAXUINT32;
  if (prev != NONE)
    link_at (b, prev)->thr_next = next;
  l->thr_prev = l->thr_next = NONE;
}

/* The by_id slot of ActivityId @id, G_MAXUINT32 when no Start of it is open. */
static guint32
id_slot (EtlActivitiesBuilder *b, const EtlGuid *id)
{
  EtlActivity probe;

  probe.activity_id = *id;
  return table_find (&b->by_id, (const EtlActivity *) (gpointer) b->acts->data, hash_guid (&probe), &probe,
                     equal_guid);
}

/* The by_key slot of @probe's provider, task, process and ActivityId. */
static guint32
key_slot (EtlActivitiesBuilder *b, const EtlActivity *probe)
{
  return table_find (&b->by_key, (const EtlActivity *) (gpointer) b->acts->data, hash_by_key (probe), probe,
                     equal_by_id);
}

/* Puts @idx, just started, at the head of its ActivityId's chain. */
static void
id_push (EtlActivitiesBuilder *b, guint32 idx)
{
  guint32 p = id_slot (b, &act_at (b, idx)->activity_id);

  link_at (b, idx)->id_next = NONE;
  if (p != G_MAXUINT32)
    {
      guint32 head = b->by_id.slots[p].idx1 - 1;

      link_at (b, idx)->id_prev = head;
      link_at (b, head)->id_next = idx;
      b->by_id.slots[p].idx1 = idx + 1; /* same ActivityId, same hash */
    }
  else
    {
      link_at (b, idx)->id_prev = NONE;
      table_insert (&b->by_id, hash_guid (act_at (b, idx)), idx);
    }
}

/* Takes @idx out of its ActivityId's chain (doubly linked: O(1)). */
static void
id_unlink (EtlActivitiesBuilder *b, guint32 idx)
{
  Link *l = link_at (b, idx);
  guint32 prev = l->id_prev, next = l->id_next;

  if (next != NONE)
    link_at (b, next)->id_prev = prev;
  else
    {
      /* The head: its slot goes to the one below, or away. */
      guint32 p = id_slot (b, &act_at (b, idx)->activity_id);

      g_assert (p != G_MAXUINT32 && b->by_id.slots[p].idx1 == idx + 1);
      if (prev != NONE)
        b->by_id.slots[p].idx1 = prev + 1;
      else
        table_remove_at (&b->by_id, p);
    }
  if (prev != NONE)
    link_at (b, prev)->id_next = next;
  l->id_prev = l->id_next = NONE;
}

/*
 * etl_activities_builder_prefetch: (private)
 * @b: a builder
 * @e: an event to come
 *
 * Starts loading the table slots the event will look at (when it has an
 * ActivityId): the pass calls it a few events ahead, so that the random
 * access to tables of millions of open activities overlaps the work on the
 * events before.
 */
void
etl_activities_builder_prefetch (EtlActivitiesBuilder *b, const EtlActivityEvent *e)
{
#if defined(__GNUC__)
  EtlActivity probe;
  guint32 provider;

  if (etl_guid_is_zero (&e->activity_id) || (provider = provider_id (b, &e->provider)) == G_MAXUINT32)
    return;
  probe.activity_id = e->activity_id;
  probe.provider = (guint16) provider;
  probe.task = e->task;
  probe.pid = e->pid;
  __builtin_prefetch (&b->by_key.slots[hash_by_key (&probe) & b->by_key.mask]);
  __builtin_prefetch (&b->by_id.slots[hash_guid (&probe) & b->by_id.mask]);
#else
  (void) b;
  (void) e;
#endif
}

/* Whether @e, a Start of zero ActivityId, repeats the innermost activity
 * open on its thread in another version of the same event (the section's
 * rule). */
static gboolean
is_duplicate (EtlActivitiesBuilder *b, const EtlActivityEvent *e, guint32 provider)
{
  guint32 top = thread_top (b, e->pid, e->tid), desc;
  const EtlActivity *t;

  if (top == NONE)
    return FALSE;
  t = act_at (b, top);
  desc = g_array_index (b->descs, guint32, top);
  return t->provider == provider && t->task == e->task && (t->flags & ETL_ACTIVITY_OPEN)
         && (t->flags & ETL_ACTIVITY_BY_THREAD) && e->filetime >= t->start
         && e->filetime - t->start <= DUPLICATE_WINDOW && top == b->acts->len - 1 && desc >> 8 == e->event_id
         && (desc & 0xff) != e->version;
}

static void
add_start (EtlActivitiesBuilder *b, const EtlActivityEvent *e, guint32 provider)
{
  EtlActivity a = { 0 };
  Link l = { NONE, NONE, NONE, NONE, NONE };
  guint32 idx = b->acts->len, parent = NONE, p;
  gboolean has_id = !etl_guid_is_zero (&e->activity_id);
  const char *task_name = e->task_name;
  char fallback[32];

  if (idx >= G_MAXUINT32 - 1 || provider == G_MAXUINT32)
    {
      b->counts.dropped++;
      return;
    }
  a.start = a.stop = e->filetime;
  a.start_record = e->record;
  a.stop_record = ETL_ACTIVITY_NO_RECORD;
  a.pid = e->pid;
  a.tid = e->tid;
  a.provider = (guint16) provider;
  a.task = e->task;
  a.flags = ETL_ACTIVITY_OPEN | (has_id ? 0 : ETL_ACTIVITY_BY_THREAD);
  a.activity_id = e->activity_id;
  if (task_name == NULL || task_name[0] == '\0')
    {
      g_snprintf (fallback, sizeof fallback, "Task %u", e->task);
      task_name = fallback;
    }
  a.task_name = intern_task (b, task_name);
  if (e->first_string != NULL && e->first_string[0] != '\0')
    a.name = intern_name (b, a.task_name, task_name, e->first_string);
  else
    a.name = a.task_name;

  b->counts.starts++;
  if (!has_id && is_duplicate (b, e, provider))
    {
      b->counts.duplicate_starts++;
      return;
    }
  if (has_id)
    {
      p = key_slot (b, &a);
      if (p != G_MAXUINT32)
        {
          /* Reuse: the open one is abandoned, this one takes its slot. */
          guint32 old = b->by_key.slots[p].idx1 - 1;

          act_at (b, old)->flags |= ETL_ACTIVITY_ABANDONED;
          b->counts.abandoned++;
          thread_unlink (b, old);
          id_unlink (b, old);
          b->by_key.slots[p].idx1 = idx + 1; /* same key, same hash */
        }
      else
        table_insert (&b->by_key, hash_by_key (&a), idx);
    }
  else
    {
      guint32 h = hash_by_thread (&a);

      p = table_find (&b->by_thread, (const EtlActivity *) (gpointer) b->acts->data, h, &a, equal_by_thread);
      if (p != G_MAXUINT32)
        {
          l.key_prev = b->by_thread.slots[p].idx1 - 1;
          b->by_thread.slots[p].idx1 = idx + 1;
        }
      else
        table_insert (&b->by_thread, h, idx);
    }
  /* The parent: named by RelatedActivityId, else the thread's innermost. */
  if (e->related_state == 2)
    b->counts.bad_related_id++;
  if (e->related_state == 1 && !etl_guid_is_zero (&e->related))
    {
      p = id_slot (b, &e->related);
      if (p != G_MAXUINT32)
        {
          parent = b->by_id.slots[p].idx1 - 1;
          a.flags |= ETL_ACTIVITY_BY_RELATED_ID;
        }
      else
        b->counts.missing_parent++;
    }
  if (parent == NONE)
    parent = thread_top (b, e->pid, e->tid);
  a.parent = parent;
  a.depth = parent != NONE ? act_at (b, parent)->depth + 1 : 0;

  g_array_append_val (b->acts, a);
  g_array_append_val (b->links, l);
  {
    guint32 desc = (guint32) e->event_id << 8 | e->version;

    g_array_append_val (b->descs, desc);
  }
  if (has_id)
    id_push (b, idx);
  thread_push (b, idx);
}

static void
add_stop (EtlActivitiesBuilder *b, const EtlActivityEvent *e, guint32 provider)
{
  EtlActivity probe = { 0 };
  guint32 idx = NONE, p;
  EtlActivity *a;

  b->counts.stops++;
  probe.pid = e->pid;
  probe.tid = e->tid;
  probe.provider = (guint16) provider;
  probe.task = e->task;
  probe.activity_id = e->activity_id;
  if (provider == G_MAXUINT32)
    ;
  else if (!etl_guid_is_zero (&e->activity_id))
    {
      p = key_slot (b, &probe);
      if (p != G_MAXUINT32)
        {
          idx = b->by_key.slots[p].idx1 - 1;
          table_remove_at (&b->by_key, p);
          id_unlink (b, idx);
        }
    }
  else
    {
      p = table_find (&b->by_thread, (const EtlActivity *) (gpointer) b->acts->data, hash_by_thread (&probe),
                      &probe, equal_by_thread);
      if (p != G_MAXUINT32)
        {
          guint32 below;

          idx = b->by_thread.slots[p].idx1 - 1;
          below = link_at (b, idx)->key_prev;
          if (below != NONE)
            b->by_thread.slots[p].idx1 = below + 1; /* same key, same hash */
          else
            table_remove_at (&b->by_thread, p);
        }
    }
  if (idx == NONE)
    {
      EtlActivityStop s = { 0 };

      s.time = e->filetime;
      s.record = e->record;
      s.pid = e->pid;
      s.tid = e->tid;
      s.name = e->task_name != NULL && e->task_name[0] != '\0' ? intern (b->string_ids, b->strings, e->task_name)
                                                               : NONE;
      s.provider = provider == G_MAXUINT32 ? G_MAXUINT16 : (guint16) provider;
      s.task = e->task;
      s.activity_id = e->activity_id;
      g_array_append_val (b->stops, s);
      b->counts.unmatched_stops++;
      return;
    }
  thread_unlink (b, idx);
  a = act_at (b, idx);
  a->flags &= ~(guint32) ETL_ACTIVITY_OPEN;
  a->stop_record = e->record;
  a->stop = e->filetime;
  if (a->stop < a->start)
    {
      a->stop = a->start;
      b->counts.out_of_order++;
    }
  b->counts.paired++;
}

/*
 * etl_activities_builder_add: (private, etl-activities-private.h)
 * @b: a builder
 * @e: a Start (opcode 1) or Stop (opcode 2) event; others are ignored
 *
 * Applies the section's rules to one event; events come in record order.
 */
void
etl_activities_builder_add (EtlActivitiesBuilder *b, const EtlActivityEvent *e)
{
  guint32 provider;

  g_return_if_fail (b != NULL && e != NULL);
  if (e->opcode != OPCODE_START && e->opcode != OPCODE_STOP)
    return;
  provider = provider_id (b, &e->provider);
  if (e->opcode == OPCODE_START)
    add_start (b, e, provider);
  else
    add_stop (b, e, provider);
}

/*
 * etl_activities_builder_finish: (private)
 * @b: (transfer full): a builder
 * @last_filetime: the trace's last record's time: where open activities end
 *
 * Returns: (transfer full): the activities
 */
EtlActivities *
etl_activities_builder_finish (EtlActivitiesBuilder *b, gint64 last_filetime)
{
  EtlActivities *acts = g_new0 (EtlActivities, 1);

  g_atomic_ref_count_init (&acts->ref_count);
  for (guint i = 0; i < b->acts->len; i++)
    {
      EtlActivity *a = act_at (b, i);

      if (a->flags & ETL_ACTIVITY_OPEN)
        {
          a->stop = MAX (a->start, last_filetime);
          b->counts.open++;
        }
    }
  acts->counts = b->counts;
  acts->acts = b->acts;
  acts->stops = b->stops;
  acts->strings = b->strings;
  acts->providers = b->providers;
  g_array_unref (b->links);
  g_array_unref (b->descs);
  table_clear (&b->by_key);
  table_clear (&b->by_id);
  table_clear (&b->by_thread);
  thread_map_clear (&b->threads);
  g_hash_table_unref (b->string_ids);
  g_hash_table_unref (b->provider_ids);
  g_string_free (b->scratch, TRUE);
  g_free (b);
  return acts;
}

/*
 * etl_activities_name_stops: (private, etl-activities-private.h)
 * @acts: activities just built, not yet shared
 * @trace: their trace
 *
 * Names the unmatched Stops the builder got without a task name (their
 * records are decoded only now: they are few).
 */
void
etl_activities_name_stops (EtlActivities *acts, EtlTrace *trace)
{
  g_autoptr (GHashTable) ids = g_hash_table_new (g_str_hash, g_str_equal);
  EtlActivityNames *names = etl_activity_names_new (trace);

  for (guint k = 0; k < acts->strings->len; k++)
    g_hash_table_insert (ids, g_ptr_array_index (acts->strings, k), GUINT_TO_POINTER (k + 1));
  for (guint k = 0; k < acts->stops->len; k++)
    {
      EtlActivityStop *s = &g_array_index (acts->stops, EtlActivityStop, k);
      g_auto (EtlRecord) r = { 0 };
      char name[ETL_ACTIVITY_TASK_NAME_MAX] = "";

      if (s->name != NONE)
        continue;
      if (etl_trace_get_record (trace, s->record, &r, NULL))
        etl_activity_names_read (names, &r, name, NULL);
      if (name[0] == '\0')
        g_snprintf (name, sizeof name, "Task %u", s->task);
      s->name = intern (ids, acts->strings, name);
    }
  etl_activity_names_free (names);
}

/**
 * etl_activities_ref:
 * @activities: activities
 *
 * Returns: (transfer full): @activities
 */
EtlActivities *
etl_activities_ref (EtlActivities *activities)
{
  g_return_val_if_fail (activities != NULL, NULL);
  g_atomic_ref_count_inc (&activities->ref_count);
  return activities;
}

/**
 * etl_activities_unref:
 * @activities: (transfer full): activities
 */
void
etl_activities_unref (EtlActivities *activities)
{
  g_return_if_fail (activities != NULL);
  if (!g_atomic_ref_count_dec (&activities->ref_count))
    return;
  g_array_unref (activities->acts);
  g_array_unref (activities->stops);
  g_ptr_array_unref (activities->strings);
  g_array_unref (activities->providers);
  g_free (activities);
}

/**
 * etl_activities_get_counts:
 * @activities: activities
 *
 * Returns: (transfer none): what the pass met
 */
const EtlActivitiesCounts *
etl_activities_get_counts (EtlActivities *activities)
{
  g_return_val_if_fail (activities != NULL, NULL);
  return &activities->counts;
}

/**
 * etl_activities_get:
 * @activities: activities
 * @n_activities: (out): how many
 *
 * Returns: (transfer none) (array length=n_activities): the activities, in
 *   the order of their Starts
 */
const EtlActivity *
etl_activities_get (EtlActivities *activities, guint *n_activities)
{
  g_return_val_if_fail (activities != NULL && n_activities != NULL, NULL);
  *n_activities = activities->acts->len;
  return (const EtlActivity *) (gpointer) activities->acts->data;
}

/**
 * etl_activities_get_unmatched_stops:
 * @activities: activities
 * @n_stops: (out): how many
 *
 * Returns: (transfer none) (array length=n_stops): the Stops no Start
 *   paired with, in record order
 */
const EtlActivityStop *
etl_activities_get_unmatched_stops (EtlActivities *activities, guint *n_stops)
{
  g_return_val_if_fail (activities != NULL && n_stops != NULL, NULL);
  *n_stops = activities->stops->len;
  return (const EtlActivityStop *) (gpointer) activities->stops->data;
}

/**
 * etl_activities_get_string:
 * @activities: activities
 * @string: a name index (#EtlActivity.name, .task_name, #EtlActivityStop.name)
 *
 * Returns: (transfer none): the name, "" for an unknown index
 */
const char *
etl_activities_get_string (EtlActivities *activities, guint32 string)
{
  g_return_val_if_fail (activities != NULL, "");
  return string < activities->strings->len ? g_ptr_array_index (activities->strings, string) : "";
}

/**
 * etl_activities_get_provider:
 * @activities: activities
 * @provider: #EtlActivity.provider or #EtlActivityStop.provider
 *
 * Returns: (transfer none) (nullable): the provider's GUID, %NULL for an
 *   unknown index
 */
const EtlGuid *
etl_activities_get_provider (EtlActivities *activities, guint16 provider)
{
  g_return_val_if_fail (activities != NULL, NULL);
  return provider < activities->providers->len ? &g_array_index (activities->providers, EtlGuid, provider) : NULL;
}

/**
 * etl_activities_compute_stats:
 * @activities: activities
 * @group: by full name or by task name
 *
 * The statistics of each group (etl_interval_stats_compute() over the
 * durations of its stopped activities, Stop − Start in 100-ns units), with
 * the group's open activities and the unmatched Stops of its task name
 * (under %ETL_ACTIVITY_GROUP_NAME a Stop's task name may differ from every
 * activity's name: it then has a group of its own).
 *
 * Returns: (transfer full) (element-type EtlActivityNameStats): one row a
 *   group, in the order the groups first occur (Starts, then unmatched Stops)
 */
GArray *
etl_activities_compute_stats (EtlActivities *activities, EtlActivityGroup group)
{
  g_autoptr (GHashTable) rows = g_hash_table_new (NULL, NULL); /* string → row + 1 */
  g_autoptr (GPtrArray) durations = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  g_autofree guint64 *opens = NULL;
  g_autofree guint64 *unmatched = NULL;
  GArray *out = g_array_new (FALSE, TRUE, sizeof (EtlActivityNameStats));
  guint n_rows;

  g_return_val_if_fail (activities != NULL, out);

  /* The rows, and each one's durations. */
  for (guint pass = 0; pass < 2; pass++)
    {
      guint n = pass == 0 ? activities->acts->len : activities->stops->len;

      for (guint i = 0; i < n; i++)
        {
          guint32 key, task;
          guint row;

          if (pass == 0)
            {
              const EtlActivity *a = &g_array_index (activities->acts, EtlActivity, i);

              key = group == ETL_ACTIVITY_GROUP_TASK ? a->task_name : a->name;
              task = a->task_name;
            }
          else
            key = task = g_array_index (activities->stops, EtlActivityStop, i).name;
          row = GPOINTER_TO_UINT (g_hash_table_lookup (rows, GUINT_TO_POINTER (key + 1)));
          if (row == 0)
            {
              EtlActivityNameStats s = { 0 };

              s.name = key;
              s.task_name = task;
              g_array_append_val (out, s);
              g_ptr_array_add (durations, g_array_new (FALSE, FALSE, sizeof (gint64)));
              row = out->len;
              g_hash_table_insert (rows, GUINT_TO_POINTER (key + 1), GUINT_TO_POINTER (row));
            }
          if (pass == 0)
            {
              const EtlActivity *a = &g_array_index (activities->acts, EtlActivity, i);

              if (!(a->flags & ETL_ACTIVITY_OPEN))
                {
                  gint64 d = a->stop - a->start;

                  g_array_append_val (g_ptr_array_index (durations, row - 1), d);
                }
              else
                g_array_index (out, EtlActivityNameStats, row - 1).stats.open++;
            }
          else
            g_array_index (out, EtlActivityNameStats, row - 1).stats.unmatched_stops++;
        }
    }
  n_rows = out->len;
  opens = g_new (guint64, MAX (n_rows, 1));
  unmatched = g_new (guint64, MAX (n_rows, 1));
  for (guint r = 0; r < n_rows; r++)
    {
      EtlActivityNameStats *s = &g_array_index (out, EtlActivityNameStats, r);
      GArray *d = g_ptr_array_index (durations, r);

      opens[r] = s->stats.open;
      unmatched[r] = s->stats.unmatched_stops;
      etl_interval_stats_compute ((gint64 *) (gpointer) d->data, d->len, &s->stats);
      s->stats.open = opens[r];
      s->stats.unmatched_stops = unmatched[r];
      s->stats.count += opens[r];
    }
  return out;
}

/**
 * etl_activity_id_to_path:
 * @activity_id: an ActivityId
 * @out: (out caller-allocates): the path, NUL-terminated
 *
 * Writes an EventSource activity ID as its path, "//1/2/5/": the numbers
 * of the activity and its creators, outermost first.  An EventSource ID
 * passes TraceEvent's check (its four little-endian 32-bit words: w0 + w1 +
 * w2 + 0x599D99AD = w3) and holds, in its first 12 bytes, a list of numbers
 * coded in nibbles, high nibble first (System.Diagnostics.Tracing's
 * ActivityTracker, as TraceEvent's ActivityPathString reads it): 0 ends the
 * list; 1–10 is the number itself; 12–15 (MultiByte1–4) says 1–4 bytes
 * follow, little-endian, and when the code is a high nibble its low nibble
 * holds the number's higher bits; 11 (PrefixCode) followed by a MultiByte
 * code marks an overflow ID, written with "$" instead of "/".  Every read
 * stays inside the 12 bytes: a number cut by their end ends the path.
 *
 * Returns: %FALSE (and @out empty) when @activity_id is not an EventSource
 *   path (or uses a code this reading does not know)
 */
gboolean
etl_activity_id_to_path (const EtlGuid *activity_id, char out[ETL_ACTIVITY_PATH_MAX])
{
  guint8 b[16];
  guint32 w[4];
  gsize pos = 0, len = 0;
  gboolean high = TRUE;

  g_return_val_if_fail (activity_id != NULL && out != NULL, FALSE);
  out[0] = '\0';
  /* The GUID's bytes as they lie in memory and in the file. */
  b[0] = (guint8) activity_id->data1;
  b[1] = (guint8) (activity_id->data1 >> 8);
  b[2] = (guint8) (activity_id->data1 >> 16);
  b[3] = (guint8) (activity_id->data1 >> 24);
  b[4] = (guint8) activity_id->data2;
  b[5] = (guint8) (activity_id->data2 >> 8);
  b[6] = (guint8) activity_id->data3;
  b[7] = (guint8) (activity_id->data3 >> 8);
  memcpy (b + 8, activity_id->data4, 8);
  for (guint k = 0; k < 4; k++)
    w[k] = (guint32) b[4 * k] | (guint32) b[4 * k + 1] << 8 | (guint32) b[4 * k + 2] << 16 | (guint32) b[4 * k + 3] << 24;
  if ((guint32) (w[0] + w[1] + w[2] + ACTIVITY_PATH_CHECKSUM) != w[3])
    return FALSE;

  out[len++] = '/';
  while (pos < 12)
    {
      guint nibble = high ? b[pos] >> 4 : b[pos] & 0xF;
      char sep = '/';
      guint32 value = 0;
      guint n_bytes;

      if (nibble == 0)
        break;
      if (nibble <= 10)
        {
          len += (gsize) g_snprintf (out + len, ETL_ACTIVITY_PATH_MAX - len, "/%u", nibble);
          if (high)
            high = FALSE;
          else
            {
              high = TRUE;
              pos++;
            }
          continue;
        }
      if (nibble == 11)
        {
          /* PrefixCode: the next nibble is the MultiByte code. */
          if (high)
            high = FALSE;
          else
            {
              high = TRUE;
              pos++;
            }
          if (pos >= 12)
            break;
          nibble = high ? b[pos] >> 4 : b[pos] & 0xF;
          if (nibble < 12)
            {
              out[0] = '\0';
              return FALSE;
            }
          sep = '$';
        }
      n_bytes = nibble - 12 + 1;
      if (high)
        value = b[pos] & 0xF; /* the code's low nibble: the number's higher bits */
      pos++;
      high = TRUE;
      if (pos + n_bytes > 12)
        break;
      for (guint k = n_bytes; k-- > 0;)
        value = value << 8 | b[pos + k];
      pos += n_bytes;
      len += (gsize) g_snprintf (out + len, ETL_ACTIVITY_PATH_MAX - len, "%c%u", sep, value);
    }
  out[len++] = '/';
  out[len] = '\0';
  return TRUE;
}
