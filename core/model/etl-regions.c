/* SPDX-License-Identifier: GPL-3.0-or-later */
/**
 * SECTION:etl-regions
 * @title: Regions of Interest instances
 * @short_description: a Regions of Interest file's definitions matched against a trace
 *
 * etl_regions_match() reads a trace's records in merged order once and forms
 * the instances of the regions of an #EtlRegionsFile, by the rules of
 * Microsoft's "Creating a Regions of Interest File":
 *
 * - Event matching: a record is a region's Start (or Stop) when its provider
 *   GUID and EVENT_DESCRIPTOR.Id are the Event's, its Version too when the
 *   Event gives one, its Opcode when it gives one, and every
 *   PayloadIdentifier holds on the record's decoded fields (the core's
 *   decoder, etl_trace_decode_record(); the value compared is the field's
 *   formatted value, case-sensitive: IsEqual is equality, DoesNotContain
 *   holds when the value does not contain FieldValue or the field is
 *   absent).
 * - Region matching (Match/Event): a Stop pairs with an open instance of the
 *   region whose Start has the same ThreadId (TID), ProcessId (PID),
 *   ActivityId (AID) and, for each Payload, whose Start's FieldName value
 *   equals the Stop's TargetFieldName value (FieldName when no target).  Of
 *   several such open instances the latest begun is stopped (so that one
 *   region nests in itself on a thread; the page does not say which).  A
 *   field missing from an event counts as a value of its own.  A record
 *   that is both a Stop and a Start (of one region or several) is taken as
 *   the Stops first, the innermost regions' first, then the Starts.
 * - Parents: a region nested in another in the file is its child.  An
 *   instance's parent is, of the parent region's instances open at its
 *   Start and sharing what Match/Parent asks (TID, PID, AID, the child's
 *   FieldName value equal to the parent's TargetFieldName value), the one
 *   begun first (the page: "the parent with the earliest starting time is
 *   chosen"); when that one stops before the child (the page: a parent
 *   starts before and stops after its child), the child has no parent
 *   (counted in #EtlRegionCounts.parent_lost).  Match/SelfNest makes an
 *   instance the child of the instance of its own region open at its Start
 *   with the latest start (the page: "the parent with the starting time
 *   closest to the child starting time"), when that one contains it.
 * - Duration regions (one point a Duration, the other an Event of the same
 *   provider and Id): each event that satisfies both points' conditions is
 *   one instance, ending at the event (Duration at the Start: "the duration
 *   is subtracted from the stopping point") or beginning there (Duration at
 *   the Stop), the field's value × Multiplier nanoseconds long (the field's
 *   number, or its formatted value read as a decimal number; an event
 *   without it is counted in #EtlRegionCounts.no_duration).
 * - Containers (a region with neither point and nested regions) have one
 *   instance, from the first Start to the last Stop of the instances of the
 *   regions directly in them; it encloses those of them without a parent.
 *   RegionRoot has no instance of its own.
 * - Names: PayloadBased takes NameField's value from the Start, else the
 *   Stop (InstanceEndpoint restricts it to one); RegionBased takes
 *   IfRelationTrue when the region RegionGuid has an instance, else
 *   IfRelationFalse; otherwise, and when the field is absent (flagged
 *   %ETL_REGION_INSTANCE_UNNAMED), the region's FriendlyName or Name.
 * - A Start never stopped lasts to the trace's last record (flagged
 *   %ETL_REGION_INSTANCE_OPEN); a Stop without an open instance is counted
 *   per region (#EtlRegionCounts.unmatched_stops).
 *
 * Memory and time: only records of the providers the file names are read
 * (etl_trace_get_provider_index()); each costs O(1) hash look-ups per
 * Event it matches, whatever the number of open instances: open instances
 * wait in a hash table of stacks keyed by what Match/Event compares,
 * candidate parents in queues keyed by what Match/Parent compares (closed
 * ones are dropped when they reach the head).  One #EtlRegionInstance (64
 * bytes) and 8 bytes of links an instance.  The pass runs in the calling
 * thread (meant for a worker) and may be cancelled; the result is read-only
 * and may be shared between threads.
 */
#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include "etl-regions.h"

#include <string.h>

#define NONE            ETL_REGION_INSTANCE_NONE
#define CANCEL_EVERY    65536 /* records between two looks at the cancellable */
#define NAME_MAX_BYTES  256   /* bytes kept of an instance name taken from a payload */

struct _EtlRegions
{
  gatomicrefcount ref_count;
  GArray *instances;       /* EtlRegionInstance */
  EtlRegionCounts *counts; /* one a region */
  guint n_regions;
  EtlRegionsTotals totals;
  GPtrArray *strings; /* owned */
};

/* A candidate-parent queue: instances in start order, closed ones dropped at the head. */
typedef struct
{
  GArray *items; /* guint32 */
  guint head;
} Queue;

static void
queue_free (gpointer data)
{
  Queue *q = data;

  g_array_unref (q->items);
  g_free (q);
}

typedef enum
{
  T_START,
  T_STOP,
  T_SINGLE, /* a Duration region's one event */
} TriggerKind;

typedef struct
{
  guint region;
  TriggerKind kind;
} Trigger;

typedef struct
{
  EtlGuid provider;
  guint16 id;
} TriggerKey;

static guint
trigger_key_hash (gconstpointer k)
{
  const TriggerKey *t = k;

  return etl_guid_hash (&t->provider) * 31u + t->id;
}

static gboolean
trigger_key_equal (gconstpointer a, gconstpointer b)
{
  const TriggerKey *x = a, *y = b;

  return x->id == y->id && etl_guid_equal (&x->provider, &y->provider);
}

typedef struct
{
  GHashTable *open;          /* key → top open instance + 1 (stack through Pass.key_prev) */
  GHashTable *parent_queues; /* as a child: key → Queue of open instances of the parent region */
  GHashTable *self_stacks;   /* SelfNest: key → GArray of instances (start order) */
  GArray *children;          /* guint: child regions with parent queues */
  guint32 default_name;
} RegionState;

typedef struct
{
  EtlTrace *trace;
  const EtlRegionsFile *file;
  EtlRegions *out;
  RegionState *rs;
  GHashTable *triggers; /* TriggerKey* → GArray of Trigger (stops innermost first, then starts) */
  GArray *key_prev;     /* guint32 an instance: the open instance below it in its stack */
  GArray *alt_parent;   /* guint32 an instance: the region parent when self-nested */
  GHashTable *string_ids;
  GString *key;
} Pass;

/* The event being looked at, its fields decoded on first use. */
typedef struct
{
  Pass *pass;
  const EtlRecord *r;
  guint64 index;
  EtlDecoded *decoded;
  gboolean tried;
} Ev;

static inline const EtlRegionDef *
def_at (const Pass *p, guint i)
{
  return &g_array_index (p->file->regions, EtlRegionDef, i);
}

static inline EtlRegionInstance *
inst_at (const Pass *p, guint32 i)
{
  return &g_array_index (p->out->instances, EtlRegionInstance, i);
}

static guint32
intern (Pass *p, const char *s)
{
  gpointer v = g_hash_table_lookup (p->string_ids, s);
  char *copy;

  if (v != NULL)
    return GPOINTER_TO_UINT (v) - 1;
  copy = g_strdup (s);
  g_ptr_array_add (p->out->strings, copy);
  g_hash_table_insert (p->string_ids, copy, GUINT_TO_POINTER (p->out->strings->len));
  return p->out->strings->len - 1;
}

/* A payload value as a name: at most NAME_MAX_BYTES − 1 bytes, cut at a character. */
static guint32
intern_value (Pass *p, const char *value)
{
  gsize n = strlen (value);
  char buf[NAME_MAX_BYTES];

  if (n < NAME_MAX_BYTES)
    return intern (p, value);
  n = NAME_MAX_BYTES - 1;
  while (n > 0 && ((guchar) value[n] & 0xC0) == 0x80)
    n--;
  memcpy (buf, value, n);
  buf[n] = '\0';
  return intern (p, buf);
}

/* Field @name of the event, NULL when it has none. */
static const EtlField *
ev_find (Ev *ev, const char *name)
{
  if (!ev->tried)
    {
      ev->tried = TRUE;
      ev->decoded = etl_trace_decode_record (ev->pass->trace, ev->r);
      if (ev->decoded == NULL || ev->decoded->schema == NULL)
        ev->pass->out->totals.no_schema++;
    }
  if (ev->decoded == NULL || ev->decoded->fields == NULL)
    return NULL;
  return etl_decoded_find (ev->decoded, name);
}

/* The formatted value of field @name, NULL when the event has none. */
static const char *
ev_field (Ev *ev, const char *name)
{
  const EtlField *f = ev_find (ev, name);

  return f != NULL && f->value != NULL ? f->value : NULL;
}

static gboolean
identifiers_hold (Ev *ev, const EtlRegionEndpoint *e)
{
  for (guint i = 0; i < e->identifiers->len; i++)
    {
      const EtlRegionPayloadIdentifier *id = &g_array_index (e->identifiers, EtlRegionPayloadIdentifier, i);
      const char *v = ev_field (ev, id->field_name);

      if (id->relationship == ETL_REGION_IS_EQUAL)
        {
          if (v == NULL || strcmp (v, id->field_value) != 0)
            return FALSE;
        }
      else if (v != NULL && strstr (v, id->field_value) != NULL)
        return FALSE;
    }
  return TRUE;
}

/* Builds in p->key what @m compares of @ev: ids, then one value per
 * Payload (FieldName's, or TargetFieldName's when @target and given). */
static const char *
make_key (Pass *p, Ev *ev, const EtlRegionMatch *m, gboolean target)
{
  GString *k = p->key;

  g_string_truncate (k, 0);
  if (!m->present)
    return k->str;
  if (m->pid)
    g_string_append_printf (k, "p%u|", ev->r->has_pid ? ev->r->pid : 0);
  if (m->tid)
    g_string_append_printf (k, "t%u|", ev->r->has_pid ? ev->r->tid : 0);
  if (m->aid)
    {
      char guid[ETL_GUID_STRING_LEN + 1];

      etl_guid_to_string (&ev->r->activity_id, guid);
      g_string_append_printf (k, "a%s|", guid);
    }
  for (guint i = 0; i < m->payload->len; i++)
    {
      const EtlRegionPayloadPair *pp = &g_array_index (m->payload, EtlRegionPayloadPair, i);
      const char *name = target && pp->target_field_name != NULL ? pp->target_field_name : pp->field_name;
      const char *v = ev_field (ev, name);

      /* Length-prefixed, so that no value can imitate two; absent: "-|". */
      if (v == NULL)
        g_string_append (k, "-|");
      else
        g_string_append_printf (k, "%" G_GSIZE_FORMAT ":%s|", strlen (v), v);
    }
  return k->str;
}

static Queue *
queue_lookup (GHashTable *table, const char *key, gboolean create)
{
  Queue *q = g_hash_table_lookup (table, key);

  if (q == NULL && create)
    {
      q = g_new0 (Queue, 1);
      q->items = g_array_new (FALSE, FALSE, sizeof (guint32));
      g_hash_table_insert (table, g_strdup (key), q);
    }
  return q;
}

/* The first open instance of @q, NONE when none; closed ones at the head go. */
static guint32
queue_head (Pass *p, Queue *q)
{
  while (q->head < q->items->len)
    {
      guint32 i = g_array_index (q->items, guint32, q->head);

      if (inst_at (p, i)->flags & ETL_REGION_INSTANCE_OPEN)
        return i;
      q->head++;
    }
  if (q->head > 0)
    {
      g_array_set_size (q->items, 0);
      q->head = 0;
    }
  return NONE;
}

static void
queue_push (Pass *p, Queue *q, guint32 idx)
{
  queue_head (p, q);
  if (q->head >= 1024 && q->head * 2 >= q->items->len)
    {
      g_array_remove_range (q->items, 0, q->head);
      q->head = 0;
    }
  g_array_append_val (q->items, idx);
}

/* The latest-begun open instance of a SelfNest stack; closed ones at the top go. */
static guint32
stack_top (Pass *p, GArray *s)
{
  while (s->len > 0)
    {
      guint32 i = g_array_index (s, guint32, s->len - 1);

      if (inst_at (p, i)->flags & ETL_REGION_INSTANCE_OPEN)
        return i;
      g_array_set_size (s, s->len - 1);
    }
  return NONE;
}

/* Begins an instance of region @r at @ev.  @single: a Duration region's
 * instance, [@start, @stop] and closed at once (it joins no table). */
static void
do_start (Pass *p, Ev *ev, guint r, gboolean single, gint64 start, gint64 stop)
{
  const EtlRegionDef *def = def_at (p, r);
  RegionState *rs = &p->rs[r];
  EtlRegionInstance inst = { 0 };
  guint32 idx = p->out->instances->len, self_parent = NONE, region_parent = NONE, none = NONE;
  gpointer top;
  const char *key;

  if (idx >= G_MAXUINT32 - 1)
    {
      p->out->totals.dropped++;
      return;
    }
  inst.start = single ? start : ev->r->filetime;
  inst.stop = single ? stop : inst.start;
  inst.start_record = ev->index;
  inst.stop_record = single ? ev->index : ETL_REGION_NO_RECORD;
  inst.pid = ev->r->has_pid ? ev->r->pid : 0;
  inst.tid = ev->r->has_pid ? ev->r->tid : 0;
  inst.region = r;
  inst.name = rs->default_name;
  inst.flags = single ? 0 : ETL_REGION_INSTANCE_OPEN;
  inst.activity_id = ev->r->activity_id;
  if (def->naming.kind == ETL_REGION_NAMING_PAYLOAD)
    {
      /* A Duration instance has one event: both endpoints. */
      const char *v = def->naming.instance_endpoint != ETL_REGION_INSTANCE_ENDPOINT_STOP || single
                        ? ev_field (ev, def->naming.name_field)
                        : NULL;

      if (v != NULL)
        inst.name = intern_value (p, v);
      else
        inst.flags |= ETL_REGION_INSTANCE_UNNAMED;
    }

  /* Candidate parents, before this instance joins any table. */
  if (def->self_nest.present)
    {
      GArray *s = g_hash_table_lookup (rs->self_stacks, make_key (p, ev, &def->self_nest, FALSE));

      if (s != NULL)
        self_parent = stack_top (p, s);
    }
  if (rs->parent_queues != NULL)
    {
      Queue *q = queue_lookup (rs->parent_queues, make_key (p, ev, &def->match_parent, FALSE), FALSE);

      if (q != NULL)
        region_parent = queue_head (p, q);
    }
  if (self_parent != NONE)
    {
      inst.parent = self_parent;
      inst.flags |= ETL_REGION_INSTANCE_SELF_NESTED;
    }
  else
    inst.parent = region_parent;
  g_array_append_val (p->out->instances, inst);
  g_array_append_val (p->alt_parent, region_parent);
  p->out->counts[r].instances++;
  p->out->totals.starts++;
  if (single)
    {
      g_array_append_val (p->key_prev, none);
      return;
    }

  /* Its stack for the Stop. */
  key = make_key (p, ev, &def->match_event, FALSE);
  top = g_hash_table_lookup (rs->open, key);
  if (top != NULL)
    {
      guint32 below = GPOINTER_TO_UINT (top) - 1;

      g_array_append_val (p->key_prev, below);
    }
  else
    g_array_append_val (p->key_prev, none);
  g_hash_table_insert (rs->open, g_strdup (key), GUINT_TO_POINTER (idx + 1));

  /* A candidate parent of later instances: of its own region (SelfNest) … */
  if (def->self_nest.present)
    {
      const char *skey = make_key (p, ev, &def->self_nest, TRUE);
      GArray *s = g_hash_table_lookup (rs->self_stacks, skey);

      if (s == NULL)
        {
          s = g_array_new (FALSE, FALSE, sizeof (guint32));
          g_hash_table_insert (rs->self_stacks, g_strdup (skey), s);
        }
      stack_top (p, s);
      g_array_append_val (s, idx);
    }
  /* … and of its child regions. */
  for (guint c = 0; rs->children != NULL && c < rs->children->len; c++)
    {
      guint child = g_array_index (rs->children, guint, c);
      const EtlRegionDef *cdef = def_at (p, child);

      queue_push (p, queue_lookup (p->rs[child].parent_queues, make_key (p, ev, &cdef->match_parent, TRUE), TRUE),
                  idx);
    }
}

/* A Duration region's event: the instance ends (Duration at the Start) or
 * begins (Duration at the Stop) at the event, the field's value × Multiplier
 * nanoseconds away. */
static void
do_single (Pass *p, Ev *ev, guint r)
{
  const EtlRegionDef *def = def_at (p, r);
  gboolean at_start = def->start.kind == ETL_REGION_ENDPOINT_DURATION;
  const EtlRegionEndpoint *d = at_start ? &def->start : &def->stop;
  const EtlField *f = ev_find (ev, d->duration_field);
  double value, ticks;
  gint64 t = ev->r->filetime;
  char *end = NULL;

  if (f == NULL)
    {
      p->out->counts[r].no_duration++;
      return;
    }
  if (f->has_number)
    value = (double) f->number;
  else if (f->value != NULL && (value = g_ascii_strtod (f->value, &end), end != f->value && *end == '\0'))
    ;
  else
    {
      p->out->counts[r].no_duration++;
      return;
    }
  /* Nanoseconds to FILETIME ticks (100 ns), kept within a century. */
  ticks = value * (double) d->multiplier / 100.0;
  if (!(ticks >= 0))
    ticks = 0;
  ticks = MIN (ticks, (double) G_GINT64_CONSTANT (31557600000000000));
  /* Saturating: a hostile trace's times may lie anywhere. */
  if (at_start)
    do_start (p, ev, r, TRUE, t < G_MININT64 + (gint64) ticks ? G_MININT64 : t - (gint64) ticks, t);
  else
    do_start (p, ev, r, TRUE, t, t > G_MAXINT64 - (gint64) ticks ? G_MAXINT64 : t + (gint64) ticks);
}

static void
do_stop (Pass *p, Ev *ev, guint r)
{
  const EtlRegionDef *def = def_at (p, r);
  RegionState *rs = &p->rs[r];
  const char *key = make_key (p, ev, &def->match_event, TRUE);
  gpointer orig_key, top;
  guint32 idx, below;
  EtlRegionInstance *inst;

  if (!g_hash_table_lookup_extended (rs->open, key, &orig_key, &top))
    {
      p->out->counts[r].unmatched_stops++;
      p->out->totals.unmatched_stops++;
      return;
    }
  idx = GPOINTER_TO_UINT (top) - 1;
  below = g_array_index (p->key_prev, guint32, idx);
  if (below != NONE)
    g_hash_table_insert (rs->open, g_strdup (key), GUINT_TO_POINTER (below + 1));
  else
    g_hash_table_remove (rs->open, key);
  inst = inst_at (p, idx);
  inst->flags &= ~(guint32) ETL_REGION_INSTANCE_OPEN;
  inst->stop = MAX (ev->r->filetime, inst->start);
  inst->stop_record = ev->index;
  if (def->naming.kind == ETL_REGION_NAMING_PAYLOAD
      && (def->naming.instance_endpoint == ETL_REGION_INSTANCE_ENDPOINT_STOP
          || (def->naming.instance_endpoint == ETL_REGION_INSTANCE_ENDPOINT_ANY
              && (inst->flags & ETL_REGION_INSTANCE_UNNAMED))))
    {
      const char *v = ev_field (ev, def->naming.name_field);

      if (v != NULL)
        {
          inst = inst_at (p, idx);
          inst->name = intern_value (p, v);
          inst->flags &= ~(guint32) ETL_REGION_INSTANCE_UNNAMED;
        }
    }
  p->out->totals.stops++;
}

static void
on_record (Pass *p, const EtlRecord *r, guint64 index, const GArray *triggers)
{
  Ev ev = { p, r, index, NULL, FALSE };

  p->out->totals.records_read++;
  for (guint t = 0; t < triggers->len; t++)
    {
      const Trigger *tr = &g_array_index (triggers, Trigger, t);
      const EtlRegionDef *def = def_at (p, tr->region);
      const EtlRegionEndpoint *e = tr->kind == T_STOP ? &def->stop : &def->start;

      if ((e->has_version && e->version != r->version) || (e->has_opcode && e->opcode != r->opcode)
          || !identifiers_hold (&ev, e))
        continue;
      if (tr->kind == T_SINGLE)
        {
          /* Both points' conditions hold on the one event. */
          e = &def->stop;
          if ((e->has_version && e->version != r->version) || (e->has_opcode && e->opcode != r->opcode)
              || !identifiers_hold (&ev, e))
            continue;
          do_single (p, &ev, tr->region);
        }
      else if (tr->kind == T_STOP)
        do_stop (p, &ev, tr->region);
      else
        do_start (p, &ev, tr->region, FALSE, 0, 0);
    }
  g_clear_pointer (&ev.decoded, etl_decoded_free);
}

/* ------------------------------------------------------------------------ */
/* Set-up and the end of the pass                                           */

/* A region of events (a Duration one included), not a container. */
static gboolean
is_event_region (const EtlRegionDef *d)
{
  return d->matchable && d->start.kind != ETL_REGION_ENDPOINT_NONE;
}

static gboolean
is_duration_region (const EtlRegionDef *d)
{
  return d->matchable
         && (d->start.kind == ETL_REGION_ENDPOINT_DURATION || d->stop.kind == ETL_REGION_ENDPOINT_DURATION);
}

static void
add_trigger (Pass *p, const EtlRegionEndpoint *e, guint region, TriggerKind kind)
{
  TriggerKey k = { e->provider, e->id };
  GArray *list = g_hash_table_lookup (p->triggers, &k);
  Trigger t = { region, kind };

  if (list == NULL)
    {
      list = g_array_new (FALSE, FALSE, sizeof (Trigger));
      g_hash_table_insert (p->triggers, g_memdup2 (&k, sizeof k), list);
    }
  g_array_append_val (list, t);
}

static void
pass_init (Pass *p, EtlTrace *trace, const EtlRegionsFile *file)
{
  guint n = file->regions->len;

  p->trace = trace;
  p->file = file;
  p->out = g_new0 (EtlRegions, 1);
  g_atomic_ref_count_init (&p->out->ref_count);
  p->out->instances = g_array_new (FALSE, FALSE, sizeof (EtlRegionInstance));
  p->out->n_regions = n;
  p->out->counts = g_new0 (EtlRegionCounts, MAX (n, 1));
  p->out->strings = g_ptr_array_new_with_free_func (g_free);
  p->string_ids = g_hash_table_new (g_str_hash, g_str_equal);
  p->key = g_string_new (NULL);
  p->key_prev = g_array_new (FALSE, FALSE, sizeof (guint32));
  p->alt_parent = g_array_new (FALSE, FALSE, sizeof (guint32));
  p->triggers = g_hash_table_new_full (trigger_key_hash, trigger_key_equal, g_free, (GDestroyNotify) g_array_unref);
  p->rs = g_new0 (RegionState, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    {
      const EtlRegionDef *d = def_at (p, i);
      RegionState *rs = &p->rs[i];

      rs->default_name = intern (p, etl_region_def_display_name (d));
      if (!is_event_region (d))
        continue;
      rs->open = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      if (d->self_nest.present)
        rs->self_stacks = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_array_unref);
      if (d->parent != ETL_REGION_NONE && is_event_region (def_at (p, d->parent)))
        {
          RegionState *ps = &p->rs[d->parent];

          rs->parent_queues = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, queue_free);
          if (ps->children == NULL)
            ps->children = g_array_new (FALSE, FALSE, sizeof (guint));
          g_array_append_val (ps->children, i);
        }
    }
  /* Stops, innermost regions first (children follow parents in the file),
   * then Starts in file order. */
  for (guint i = n; i-- > 0;)
    if (is_event_region (def_at (p, i)) && !is_duration_region (def_at (p, i)))
      add_trigger (p, &def_at (p, i)->stop, i, T_STOP);
  for (guint i = 0; i < n; i++)
    if (is_event_region (def_at (p, i)))
      add_trigger (p, &def_at (p, i)->start, i, is_duration_region (def_at (p, i)) ? T_SINGLE : T_START);
}

static void
pass_clear (Pass *p)
{
  for (guint i = 0; i < p->file->regions->len; i++)
    {
      RegionState *rs = &p->rs[i];

      g_clear_pointer (&rs->open, g_hash_table_unref);
      g_clear_pointer (&rs->parent_queues, g_hash_table_unref);
      g_clear_pointer (&rs->self_stacks, g_hash_table_unref);
      g_clear_pointer (&rs->children, g_array_unref);
    }
  g_free (p->rs);
  g_hash_table_unref (p->triggers);
  g_array_unref (p->key_prev);
  g_array_unref (p->alt_parent);
  g_hash_table_unref (p->string_ids);
  g_string_free (p->key, TRUE);
}

static inline gboolean
contains (const EtlRegionInstance *parent, const EtlRegionInstance *child)
{
  return parent->start <= child->start && parent->stop >= child->stop;
}

/* Open instances end with the trace; parents that do not contain their
 * child (stopped before it, or began after a Duration instance's start)
 * are no parents. */
static void
close_and_check_parents (Pass *p, gint64 last_filetime)
{
  GArray *insts = p->out->instances;

  for (guint32 i = 0; i < insts->len; i++)
    {
      EtlRegionInstance *a = inst_at (p, i);

      if (a->flags & ETL_REGION_INSTANCE_OPEN)
        {
          a->stop = MAX (a->start, last_filetime);
          p->out->counts[a->region].open++;
          p->out->totals.open++;
        }
    }
  for (guint32 i = 0; i < insts->len; i++)
    {
      EtlRegionInstance *a = inst_at (p, i);

      if (a->parent != NONE && !contains (inst_at (p, a->parent), a))
        {
          if (a->flags & ETL_REGION_INSTANCE_SELF_NESTED)
            {
              guint32 alt = g_array_index (p->alt_parent, guint32, i);

              a->flags &= ~(guint32) ETL_REGION_INSTANCE_SELF_NESTED;
              a->parent = alt != NONE && contains (inst_at (p, alt), a) ? alt : NONE;
            }
          else
            a->parent = NONE;
          if (a->parent == NONE)
            p->out->counts[a->region].parent_lost++;
        }
    }
}

/* One instance a container region that has instances below it. */
static void
make_containers (Pass *p)
{
  guint n = p->file->regions->len;
  guint n_event = p->out->instances->len;
  g_autofree guint32 *first = g_new (guint32, n + 1);
  g_autofree guint32 *order = NULL;
  g_autofree guint32 *container_of = g_new (guint32, n);
  gboolean any = FALSE;

  for (guint r = 0; r < n; r++)
    {
      const EtlRegionDef *d = def_at (p, r);

      container_of[r] = NONE;
      if (d->matchable && d->start.kind == ETL_REGION_ENDPOINT_NONE)
        any = TRUE;
    }
  if (!any)
    return;
  /* Instances bucketed by region (counting sort). */
  memset (first, 0, sizeof (guint32) * (n + 1));
  for (guint32 i = 0; i < n_event; i++)
    first[inst_at (p, i)->region + 1]++;
  for (guint r = 0; r < n; r++)
    first[r + 1] += first[r];
  order = g_new (guint32, MAX (n_event, 1));
  {
    g_autofree guint32 *fill = g_memdup2 (first, sizeof (guint32) * (n + 1));

    for (guint32 i = 0; i < n_event; i++)
      order[fill[inst_at (p, i)->region]++] = i;
  }
  /* Innermost first: a nested container comes later in the file. */
  for (guint r = n; r-- > 0;)
    {
      const EtlRegionDef *d = def_at (p, r);
      EtlRegionInstance c = { 0 };
      gboolean found = FALSE;
      guint32 idx = p->out->instances->len;

      if (!d->matchable || d->start.kind != ETL_REGION_ENDPOINT_NONE)
        continue;
      c.start = G_MAXINT64;
      c.stop = G_MININT64;
      for (guint k = r + 1; k < n; k++)
        {
          const EtlRegionDef *cd = def_at (p, k);

          if (cd->parent != r)
            continue;
          for (guint32 j = first[k]; j < first[k + 1]; j++)
            {
              const EtlRegionInstance *a = inst_at (p, order[j]);

              c.start = MIN (c.start, a->start);
              c.stop = MAX (c.stop, a->stop);
              c.flags |= a->flags & ETL_REGION_INSTANCE_OPEN;
              found = TRUE;
            }
          if (container_of[k] != NONE)
            {
              const EtlRegionInstance *a = inst_at (p, container_of[k]);

              c.start = MIN (c.start, a->start);
              c.stop = MAX (c.stop, a->stop);
              c.flags |= a->flags & ETL_REGION_INSTANCE_OPEN;
              found = TRUE;
            }
        }
      if (!found || idx >= G_MAXUINT32 - 1)
        continue;
      c.start_record = c.stop_record = ETL_REGION_NO_RECORD;
      c.parent = NONE;
      c.region = r;
      c.name = p->rs[r].default_name;
      c.flags |= ETL_REGION_INSTANCE_CONTAINER;
      g_array_append_val (p->out->instances, c);
      container_of[r] = idx;
      p->out->counts[r].instances++;
      if (c.flags & ETL_REGION_INSTANCE_OPEN)
        p->out->counts[r].open++;
      for (guint k = r + 1; k < n; k++)
        {
          if (def_at (p, k)->parent != r)
            continue;
          for (guint32 j = first[k]; j < first[k + 1]; j++)
            if (inst_at (p, order[j])->parent == NONE)
              inst_at (p, order[j])->parent = idx;
          if (container_of[k] != NONE)
            inst_at (p, container_of[k])->parent = idx;
        }
    }
}

static void
name_by_region (Pass *p)
{
  guint n = p->file->regions->len;
  g_autofree guint32 *names = g_new (guint32, MAX (n, 1));
  gboolean any = FALSE;

  /* Each RegionBased region's name, once. */
  for (guint r = 0; r < n; r++)
    {
      const EtlRegionDef *d = def_at (p, r);
      guint other;

      names[r] = NONE;
      if (d->naming.kind != ETL_REGION_NAMING_REGION)
        continue;
      any = TRUE;
      if (etl_regions_file_find (p->file, &d->naming.region_guid, &other) != NULL
          && p->out->counts[other].instances > 0)
        names[r] = intern (p, d->naming.if_true);
      else
        names[r] = intern (p, d->naming.if_false);
    }
  for (guint32 i = 0; any && i < p->out->instances->len; i++)
    {
      EtlRegionInstance *a = inst_at (p, i);

      if (names[a->region] != NONE)
        a->name = names[a->region];
    }
}

/* Depths: container instances (their parents are later containers) from the
 * last, then the others in order (their parents come before them or are
 * containers). */
static void
set_depths (Pass *p)
{
  GArray *insts = p->out->instances;

  for (guint32 i = insts->len; i-- > 0;)
    {
      EtlRegionInstance *a = inst_at (p, i);

      if (a->flags & ETL_REGION_INSTANCE_CONTAINER)
        a->depth = a->parent == NONE ? 0 : inst_at (p, a->parent)->depth + 1;
    }
  for (guint32 i = 0; i < insts->len; i++)
    {
      EtlRegionInstance *a = inst_at (p, i);

      if (!(a->flags & ETL_REGION_INSTANCE_CONTAINER))
        a->depth = a->parent == NONE ? 0 : inst_at (p, a->parent)->depth + 1;
    }
}

/**
 * etl_regions_match:
 * @trace: a trace (opened with the decoder's hook for PayloadIdentifier,
 *   Payload and PayloadBased rules: etl_trace_open())
 * @file: the region definitions (etl_regions_file_parse())
 * @cancellable: (nullable): checked every 65,536 records
 * @error: return location for a #GError
 *
 * Forms the instances of @file's regions in @trace (see the section
 * overview for the rules, from Microsoft's "Creating a Regions of Interest
 * File").  Runs in the calling thread; meant for a worker.
 *
 * Returns: (transfer full) (nullable): the instances; %NULL with
 *   %G_IO_ERROR_CANCELLED when @cancellable was cancelled
 */
EtlRegions *
etl_regions_match (EtlTrace *trace, const EtlRegionsFile *file, GCancellable *cancellable, GError **error)
{
  Pass p = { 0 };
  guint64 n_records;
  guint n_providers;
  g_autofree guint8 *wanted = NULL;

  g_return_val_if_fail (trace != NULL && file != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  pass_init (&p, trace, file);
  n_records = etl_trace_get_n_records (trace);
  n_providers = etl_trace_get_n_providers (trace);
  wanted = g_new0 (guint8, n_providers + 1);
  {
    g_autoptr (GHashTable) named = g_hash_table_new (etl_guid_hash, etl_guid_equal_func);
    GHashTableIter it;
    gpointer k;

    /* The providers the file names (keys point into p.triggers). */
    g_hash_table_iter_init (&it, p.triggers);
    while (g_hash_table_iter_next (&it, &k, NULL))
      g_hash_table_add (named, &((TriggerKey *) k)->provider);
    for (guint i = 0; i < n_providers; i++)
      {
        const EtlGuid *g = etl_trace_get_provider (trace, i);

        wanted[i] = g != NULL && g_hash_table_contains (named, g);
      }
  }
  for (guint64 i = 0; i < n_records && g_hash_table_size (p.triggers) > 0; i++)
    {
      g_auto (EtlRecord) r = { 0 };
      guint pi;
      TriggerKey key;
      const GArray *triggers;

      if (i % CANCEL_EVERY == 0 && g_cancellable_set_error_if_cancelled (cancellable, error))
        {
          pass_clear (&p);
          etl_regions_unref (p.out);
          return NULL;
        }
      pi = etl_trace_get_provider_index (trace, i);
      if (pi < n_providers && !wanted[pi])
        continue;
      if (!etl_trace_get_record (trace, i, &r, NULL))
        continue;
      key.provider = r.provider;
      key.id = r.event_id;
      triggers = g_hash_table_lookup (p.triggers, &key);
      if (triggers != NULL)
        on_record (&p, &r, i, triggers);
    }
  close_and_check_parents (&p, etl_trace_get_last_filetime (trace));
  make_containers (&p);
  name_by_region (&p);
  set_depths (&p);
  pass_clear (&p);
  return p.out;
}

/**
 * etl_regions_ref:
 * @regions: matched regions
 *
 * Returns: (transfer full): @regions
 */
EtlRegions *
etl_regions_ref (EtlRegions *regions)
{
  g_return_val_if_fail (regions != NULL, NULL);
  g_atomic_ref_count_inc (&regions->ref_count);
  return regions;
}

/**
 * etl_regions_unref:
 * @regions: (transfer full) (nullable): matched regions
 */
void
etl_regions_unref (EtlRegions *regions)
{
  if (regions == NULL || !g_atomic_ref_count_dec (&regions->ref_count))
    return;
  g_array_unref (regions->instances);
  g_free (regions->counts);
  g_ptr_array_unref (regions->strings);
  g_free (regions);
}

/**
 * etl_regions_get_instances:
 * @regions: matched regions
 * @n_instances: (out): how many
 *
 * Returns: (transfer none) (array length=n_instances): the instances
 */
const EtlRegionInstance *
etl_regions_get_instances (EtlRegions *regions, guint *n_instances)
{
  g_return_val_if_fail (regions != NULL && n_instances != NULL, NULL);
  *n_instances = regions->instances->len;
  return (const EtlRegionInstance *) (gpointer) regions->instances->data;
}

/**
 * etl_regions_get_counts:
 * @regions: matched regions
 * @region: a region's index in the file's regions
 *
 * Returns: (transfer none) (nullable): what matching found for that region,
 *   %NULL when @region is out of range
 */
const EtlRegionCounts *
etl_regions_get_counts (EtlRegions *regions, guint region)
{
  g_return_val_if_fail (regions != NULL, NULL);
  return region < regions->n_regions ? &regions->counts[region] : NULL;
}

/**
 * etl_regions_get_totals:
 * @regions: matched regions
 *
 * Returns: (transfer none): what the pass met
 */
const EtlRegionsTotals *
etl_regions_get_totals (EtlRegions *regions)
{
  g_return_val_if_fail (regions != NULL, NULL);
  return &regions->totals;
}

/**
 * etl_regions_get_string:
 * @regions: matched regions
 * @string: an #EtlRegionInstance.name
 *
 * Returns: (transfer none) (nullable): the string, %NULL when out of range
 */
const char *
etl_regions_get_string (EtlRegions *regions, guint32 string)
{
  g_return_val_if_fail (regions != NULL, NULL);
  return string < regions->strings->len ? g_ptr_array_index (regions->strings, string) : NULL;
}
