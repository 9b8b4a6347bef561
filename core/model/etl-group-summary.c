/* SPDX-License-Identifier: GPL-3.0-or-later */

/**
 * SECTION:etl-group-summary
 * @title: EtlGroupSummary
 * @short_description: records grouped by a chain of keys (WPA's Generic Events table)
 *
 * An #EtlGroupSummary counts the rows of a trace (all, or those of an
 * #EtlRowSet a filter kept), optionally only those in a time range, in a tree
 * of groups: by provider, then event, say.  Each group has its count, the
 * FILETIMEs of its first and last record and its share of the total.
 *
 * etl_group_summary_compute() visits every row once and is meant to run in a
 * worker (it takes a #GCancellable and reports progress).  Provider and
 * processor come from the trace's in-memory index; the event, process and
 * thread need the record's header, read with etl_trace_get_record() when
 * an event key needs the whole #EtlRecord, else with the cheaper
 * etl_trace_peek_record() and etl_process_resolver_resolve_brief() (no
 * payload is decoded: the event name is looked up once per provider, kind,
 * HookId, event id, opcode, version and task in a small cache; only
 * TraceLogging names, which live in each record's schema item, are read per
 * record).  The process is the one etl_process_table_resolve_record() names
 * — what `etlscope-cli stats` counts — named "image (PID)" from the
 * process table; lifetimes of a reused pid with the same image are one
 * group.
 *
 * An #EtlGroupMatcher tells whether a row belongs to a group, by the same
 * rules, so that a view can filter to a group and keep exactly its count.
 *
 * The tree is built with nested #GHashTables of child groups keyed by a
 * 64-bit value per level.
 */

#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include <string.h>

#include "etl-decode.h"
#include "etl-error.h"
#include "etl-group-summary.h"
#include "etl-names.h"
#include "etl-parallel.h"
#include "etl-process-resolver.h"
#include "etl-process-table.h"
#include "etl-group-summary-private.h"

#define CANCEL_CHECK_MASK 0xFFFF

struct _EtlGroupSummary
{
  gatomicrefcount ref_count;
  EtlGroupKey keys[ETL_GROUP_MAX_KEYS];
  guint n_keys;
  gint64 begin;
  gint64 end;
  EtlGroup *root;
};

static const char *const key_names[] = { "provider", "event", "process", "thread", "cpu" };

/**
 * etl_group_key_to_string:
 * @key: a key
 *
 * Returns: the key's name as etl_group_key_parse_chain() reads it:
 *   "provider", "event", "process", "thread" or "cpu"
 */
const char *
etl_group_key_to_string (EtlGroupKey key)
{
  g_return_val_if_fail ((guint)key < G_N_ELEMENTS (key_names), NULL);
  return key_names[key];
}

/**
 * etl_group_key_parse_chain:
 * @chain: comma-separated key names, e.g. "provider,event" (case ignored,
 *   spaces allowed)
 * @keys: (out caller-allocates) (array fixed-size=5): the keys
 * @n_keys: (out): how many keys @keys holds (1–#ETL_GROUP_MAX_KEYS)
 * @error: #G_OPTION_ERROR_BAD_VALUE for an unknown, repeated or missing key
 *
 * Returns: %TRUE when @chain names one to five different keys
 */
gboolean
etl_group_key_parse_chain (const char *chain, EtlGroupKey *keys, guint *n_keys, GError **error)
{
  g_auto (GStrv) parts = NULL;
  guint n = 0;

  g_return_val_if_fail (chain != NULL && keys != NULL && n_keys != NULL, FALSE);
  parts = g_strsplit (chain, ",", -1);
  for (guint i = 0; parts[i] != NULL; i++)
    {
      char *part = g_strstrip (parts[i]);
      guint k;

      for (k = 0; k < G_N_ELEMENTS (key_names); k++)
        if (g_ascii_strcasecmp (part, key_names[k]) == 0)
          break;
      if (k == G_N_ELEMENTS (key_names))
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       "Unknown grouping key “%s” (provider, event, process, thread, cpu)", part);
          return FALSE;
        }
      for (guint j = 0; j < n; j++)
        if (keys[j] == (EtlGroupKey)k)
          {
            g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                         "Grouping key “%s” given twice", part);
            return FALSE;
          }
      keys[n++] = (EtlGroupKey)k;
    }
  if (n == 0)
    {
      g_set_error_literal (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "No grouping key");
      return FALSE;
    }
  *n_keys = n;
  return TRUE;
}

/* ---- Keys of one row ---------------------------------------------------- */

/* What makes an event name: etl_decode_dup_event_name() looks at the
 * provider, kind, header type, HookId, event id, opcode, version and task. */
typedef struct
{
  guint32 provider;
  guint16 hook_id;
  guint16 event_id;
  guint16 task;
  guint8 kind;
  guint8 header_type;
  guint8 opcode;
  guint8 version;
} EventKey;

static guint
event_key_hash (gconstpointer p)
{
  const EventKey *k = p;

  return (k->provider * 16777619u) ^ ((guint)k->hook_id << 16 | k->event_id) ^ ((guint)k->task * 31u)
         ^ ((guint)k->kind << 24 | (guint)k->header_type << 16 | (guint)k->opcode << 8 | k->version);
}

static gboolean
event_key_equal (gconstpointer a, gconstpointer b)
{
  return memcmp (a, b, sizeof (EventKey)) == 0;
}

typedef struct
{
  EtlTrace *trace;
  EtlSchemaRegistry *registry;
  EtlProcessTable *processes;
  guint n_providers;
  char **provider_names; /* n_providers, filled on first sight */
  GHashTable *events;    /* EventKey* → interned name */
  GHashTable *names;     /* interned event and process names (owned) */
  const char **process_labels; /* per process lifetime: its interned "image (PID)" */
  guint n_processes;
  gboolean need_record;
} Keyer;

static void
keyer_init (Keyer *k, EtlTrace *trace, const EtlGroupKey *keys, guint n_keys)
{
  memset (k, 0, sizeof *k);
  k->trace = trace;
  k->registry = etl_trace_get_schema_registry (trace);
  k->processes = etl_trace_get_process_table (trace);
  k->n_providers = etl_trace_get_n_providers (trace);
  k->provider_names = g_new0 (char *, k->n_providers + 1);
  k->events = g_hash_table_new_full (event_key_hash, event_key_equal, g_free, NULL);
  k->names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  etl_process_table_get_processes (k->processes, &k->n_processes);
  k->process_labels = g_new0 (const char *, k->n_processes + 1);
  for (guint i = 0; i < n_keys; i++)
    if (keys[i] == ETL_GROUP_BY_EVENT || keys[i] == ETL_GROUP_BY_PROCESS || keys[i] == ETL_GROUP_BY_THREAD)
      k->need_record = TRUE;
}

static void
keyer_clear (Keyer *k)
{
  for (guint i = 0; i < k->n_providers; i++)
    g_free (k->provider_names[i]);
  g_free (k->provider_names);
  g_free (k->process_labels);
  g_hash_table_unref (k->events);
  g_hash_table_unref (k->names);
}

static const char *
intern_name (Keyer *k, char *name)
{
  const char *interned = g_hash_table_lookup (k->names, name);

  if (interned != NULL)
    {
      g_free (name);
      return interned;
    }
  g_hash_table_add (k->names, name);
  return name;
}

/* The provider's name as `etlscope-cli stats` shows it; "(other)" for rows
 * without a provider in the index. */
static const char *
provider_name (Keyer *k, guint provider, const EtlRecord *record, guint64 row)
{
  if (provider >= k->n_providers)
    return "(other)";
  if (k->provider_names[provider] == NULL)
    {
      if (record != NULL)
        k->provider_names[provider] = etl_record_dup_provider_name (record);
      else
        {
          EtlRecord r;

          if (etl_trace_get_record (k->trace, row, &r, NULL))
            {
              k->provider_names[provider] = etl_record_dup_provider_name (&r);
              etl_record_clear (&r);
            }
        }
      if (k->provider_names[provider] == NULL)
        {
          char guid[ETL_GUID_STRING_LEN + 1];

          etl_guid_to_string (etl_trace_get_provider (k->trace, provider), guid);
          k->provider_names[provider] = g_strdup (guid);
        }
    }
  return k->provider_names[provider];
}

/* An interned name, valid as long as the keyer. */
static const char *
event_name (Keyer *k, guint provider, const EtlRecord *r)
{
  EventKey key = { 0 };
  const char *name;

  if (r->kind == ETL_RECORD_KIND_TRACELOGGING)
    return intern_name (k, etl_decode_dup_event_name (k->registry, r));
  key.provider = provider;
  key.hook_id = r->hook_id;
  key.event_id = r->event_id;
  key.task = r->task;
  key.kind = (guint8)r->kind;
  key.header_type = (guint8)r->header_type;
  key.opcode = r->opcode;
  key.version = r->version;
  name = g_hash_table_lookup (k->events, &key);
  if (name == NULL)
    {
      name = intern_name (k, etl_decode_dup_event_name (k->registry, r));
      g_hash_table_insert (k->events, g_memdup2 (&key, sizeof key), (gpointer)name);
    }
  return name;
}

/* The process of a row as `etlscope-cli stats` resolves it. */
static void
row_process (Keyer *k, guint64 row, const EtlRecord *r, guint32 *pid, const EtlProcess **process)
{
  gboolean found;

  if (r != NULL)
    found = etl_process_table_resolve_record (k->processes, r, NULL, pid, NULL);
  else
    found = etl_trace_get_pid (k->trace, row, pid);
  if (!found)
    {
      *pid = ETL_GROUP_NONE;
      *process = NULL;
      return;
    }
  *process = etl_process_table_lookup (k->processes, *pid, etl_trace_get_filetime (k->trace, row));
}

/* The values of one row at each level; @names gets the provider or event
 * name (interned) at those levels, else NULL. */
typedef struct
{
  guint64 value;
  guint provider;
  guint32 id;
  gint lifetime;
  const char *name;
} RowKey;

static void
row_keys (Keyer *k, guint64 row, const EtlRecord *r, const EtlGroupKey *keys, guint n_keys, RowKey *out)
{
  guint provider = etl_trace_get_provider_index (k->trace, row);

  for (guint i = 0; i < n_keys; i++)
    {
      RowKey *o = &out[i];

      o->provider = 0;
      o->id = 0;
      o->lifetime = -1;
      o->name = NULL;
      switch (keys[i])
        {
        case ETL_GROUP_BY_PROVIDER:
          o->provider = provider;
          o->value = provider;
          o->name = provider_name (k, provider, r, row);
          break;
        case ETL_GROUP_BY_EVENT:
          o->provider = provider;
          provider_name (k, provider, r, row); /* cached for the label */
          o->name = r != NULL ? event_name (k, provider, r) : "(unreadable)";
          o->value = (guint64)provider << 32 ^ (guint64)GPOINTER_TO_SIZE (o->name);
          break;
        case ETL_GROUP_BY_PROCESS:
          {
            const EtlProcess *process;

            row_process (k, row, r, &o->id, &process);
            o->lifetime = process != NULL ? (gint)process->index : -1;
            /* Lifetimes sharing image and pid are one group, as stats counts. */
            if (o->id == ETL_GROUP_NONE)
              o->name = "(no process)";
            else if (process != NULL && process->index < k->n_processes)
              {
                if (k->process_labels[process->index] == NULL)
                  k->process_labels[process->index] = intern_name (k, etl_process_format_name (process, o->id));
                o->name = k->process_labels[process->index];
              }
            else
              o->name = intern_name (k, etl_process_format_name (NULL, o->id));
            o->value = (guint64)GPOINTER_TO_SIZE (o->name);
          }
          break;
        case ETL_GROUP_BY_THREAD:
          o->id = r != NULL && r->has_pid ? r->tid : ETL_GROUP_NONE;
          o->value = o->id;
          break;
        case ETL_GROUP_BY_CPU:
        default:
          o->id = etl_trace_get_cpu (k->trace, row);
          o->value = o->id;
          break;
        }
    }
}

/* ---- Building the tree -------------------------------------------------- */

static void
group_free (gpointer data)
{
  EtlGroup *g = data;

  if (g == NULL)
    return;
  if (g->children != NULL)
    g_ptr_array_unref (g->children);
  g_free (g->name);
  g_free (g->label);
  g_free (g);
}

typedef struct _Node Node;
struct _Node
{
  EtlGroup *group;
  GHashTable *children; /* guint64* (in Node) → Node* */
  Node **direct;        /* children by value when the next key is an index key */
  guint n_direct;
  guint64 value;
  guint64 first_row; /* the row that created it: its fields are that row's */
  Node *last;        /* the child found last: consecutive rows often share it */
};

/* Children of provider and CPU levels are found by index, not hashed: the
 * values are small (provider index, processor index). */
#define MAX_DIRECT 4096

static void
node_free (gpointer data)
{
  Node *n = data;

  if (n->children != NULL)
    g_hash_table_unref (n->children);
  g_free (n->direct);
  g_free (n);
}

/* A worker's tree is freed as soon as it is merged: its nodes, their groups
 * and direct arrays come from blocks freed at once, and only its hash
 * tables are freed one by one.  On Process ▸ Thread over 16 M records
 * (1.4 M thread nodes per worker) freeing them node by node took 370 ms
 * of the main merge; malloc per node also slowed the workers. */
#define POOL_BLOCK (1024 * 1024)

typedef struct
{
  GPtrArray *blocks; /* g_free */
  GPtrArray *tables; /* GHashTable*, without a value destroy function */
  guint8 *cur;
  gsize left;
} NodePool;

static NodePool *
node_pool_new (void)
{
  NodePool *pool = g_new0 (NodePool, 1);

  pool->blocks = g_ptr_array_new_with_free_func (g_free);
  pool->tables = g_ptr_array_new_with_free_func ((GDestroyNotify)g_hash_table_unref);
  return pool;
}

static void
node_pool_free (NodePool *pool)
{
  if (pool == NULL)
    return;
  g_ptr_array_unref (pool->tables);
  g_ptr_array_unref (pool->blocks);
  g_free (pool);
}

/* @size zeroed bytes, aligned for any member. */
static gpointer
node_pool_alloc0 (NodePool *pool, gsize size)
{
  gpointer p;

  size = (size + 15) & ~(gsize)15;
  if (size > POOL_BLOCK / 4)
    {
      p = g_malloc0 (size);
      g_ptr_array_add (pool->blocks, p);
      return p;
    }
  if (pool->left < size)
    {
      pool->cur = g_malloc0 (POOL_BLOCK);
      pool->left = POOL_BLOCK;
      g_ptr_array_add (pool->blocks, pool->cur);
    }
  p = pool->cur;
  pool->cur += size;
  pool->left -= size;
  return p;
}

/* A node of the final tree (@pool %NULL: freed with node_free()) or of a
 * worker's tree (freed with its @pool). */
static Node *
node_new (NodePool *pool, EtlGroup *parent, EtlGroupKey key, const RowKey *rk, gboolean has_children,
          guint n_direct)
{
  Node *n = pool != NULL ? node_pool_alloc0 (pool, sizeof (Node)) : g_new0 (Node, 1);

  n->group = pool != NULL ? node_pool_alloc0 (pool, sizeof (EtlGroup)) : g_new0 (EtlGroup, 1);
  n->group->key = key;
  n->group->parent = parent;
  n->group->provider = rk->provider;
  n->group->id = rk->id;
  n->group->lifetime = rk->lifetime;
  g_assert (pool == NULL || rk->name == NULL);
  n->group->name = g_strdup (rk->name);
  n->group->first = G_MAXINT64;
  n->group->last = G_MININT64;
  n->value = rk->value;
  if (has_children && pool != NULL)
    {
      n->children = g_hash_table_new (g_int64_hash, g_int64_equal);
      g_ptr_array_add (pool->tables, n->children);
    }
  else if (has_children)
    n->children = g_hash_table_new_full (g_int64_hash, g_int64_equal, NULL, node_free);
  if (has_children && n_direct > 0)
    {
      n->n_direct = n_direct;
      n->direct = pool != NULL ? node_pool_alloc0 (pool, n_direct * sizeof (Node *)) : g_new0 (Node *, n_direct);
    }
  return n;
}

static gboolean
has_ancestor_key (const EtlGroup *g, EtlGroupKey key)
{
  for (const EtlGroup *p = g->parent; p != NULL && p->parent != NULL; p = p->parent)
    if (p->key == key)
      return TRUE;
  return FALSE;
}

static void
label_group (Keyer *k, EtlGroup *g)
{
  switch (g->key)
    {
    case ETL_GROUP_BY_PROVIDER:
      g->label = g_strdup (g->name);
      break;
    case ETL_GROUP_BY_EVENT:
      if (has_ancestor_key (g, ETL_GROUP_BY_PROVIDER))
        g->label = g_strdup (g->name);
      else
        g->label = g_strdup_printf ("%s (%s)", g->name, provider_name (k, g->provider, NULL, 0));
      break;
    case ETL_GROUP_BY_PROCESS:
      g->label = g_strdup (g->name);
      break;
    case ETL_GROUP_BY_THREAD:
      if (g->id == ETL_GROUP_NONE)
        g->label = g_strdup ("(no thread)");
      else
        {
          const EtlThread *t = etl_process_table_lookup_thread (k->processes, g->id, g->first);

          if (t != NULL && t->name != NULL && *t->name != '\0')
            g->label = g_strdup_printf ("Thread %u (%s)", g->id, t->name);
          else
            g->label = g_strdup_printf ("Thread %u", g->id);
        }
      break;
    case ETL_GROUP_BY_CPU:
    default:
      g->label = g_strdup_printf ("CPU %u", g->id);
      break;
    }
}

static gint
compare_groups (gconstpointer a, gconstpointer b)
{
  const EtlGroup *ga = *(EtlGroup *const *)a;
  const EtlGroup *gb = *(EtlGroup *const *)b;

  if (ga->count != gb->count)
    return ga->count > gb->count ? -1 : 1;
  return g_strcmp0 (ga->label, gb->label);
}

/* Turns the hash tables into sorted arrays of groups, bottom up. */
static void
finish_node (Keyer *k, Node *n, guint64 total)
{
  EtlGroup *g = n->group;

  g->share = total > 0 ? 100.0 * (double)g->count / (double)total : 0.0;
  if (g->parent != NULL)
    label_group (k, g);
  if (n->children == NULL)
    return;
  g->children = g_ptr_array_new_full (g_hash_table_size (n->children), group_free);
  {
    GHashTableIter iter;
    gpointer value;

    g_hash_table_iter_init (&iter, n->children);
    while (g_hash_table_iter_next (&iter, NULL, &value))
      {
        Node *child = value;

        finish_node (k, child, total);
        g_ptr_array_add (g->children, child->group);
      }
  }
  g_ptr_array_sort (g->children, compare_groups);
}

static void
count_row (Node *n, gint64 t)
{
  EtlGroup *g = n->group;

  g->count++;
  if (t < g->first)
    g->first = t;
  if (t > g->last)
    g->last = t;
}

/* ---- Computing in parallel ---------------------------------------------- */

/* Each worker counts its range of positions into a tree of its own whose
 * values are worker-independent where they can be (provider, processor,
 * thread, process lifetime or pid) and local event ids where the name is
 * only known at the merge (the name of an event key is that of its first
 * record over all ranges); the trees are then merged in range order into
 * the final one, whose values are the serial pass's. */

#define NO_ROW G_MAXUINT64
#define UNREADABLE_EVENT G_MAXUINT32
#define PROCESS_LIFETIME (G_GUINT64_CONSTANT (1) << 40)
#define PROCESS_PID (G_GUINT64_CONSTANT (2) << 40)
#define PROCESS_NONE (G_GUINT64_CONSTANT (3) << 40)
#define MIN_ROWS_PER_WORKER 65536

/* An event of one worker: a cached key (name known at the merge) or a
 * TraceLogging name (known from the record). */
typedef struct
{
  EventKey key;
  guint64 first_row;
  char *tl_name; /* TraceLogging: the name; else NULL */
} LocalEvent;

/* What a TraceLogging event's name depends on (etl_record_dup_event_name()):
 * its EVENT_SCHEMA_TL item, else its event id and opcode. */
typedef struct
{
  guint16 event_id;
  guint8 opcode;
  guint8 has_item;
  guint32 len;
  guint8 *data;
} TlKey;

static guint
tl_key_hash (gconstpointer p)
{
  const TlKey *k = p;
  guint h = (guint)k->event_id << 16 ^ (guint)k->opcode << 8 ^ k->has_item ^ k->len * 31u;

  for (guint32 i = 0; i < k->len; i++)
    h = h * 33u + k->data[i];
  return h;
}

static gboolean
tl_key_equal (gconstpointer a, gconstpointer b)
{
  const TlKey *x = a, *y = b;

  return x->event_id == y->event_id && x->opcode == y->opcode && x->has_item == y->has_item && x->len == y->len
         && (x->len == 0 || memcmp (x->data, y->data, x->len) == 0);
}

static void
tl_key_free (gpointer p)
{
  TlKey *k = p;

  g_free (k->data);
  g_free (k);
}

typedef struct
{
  NodePool *pool; /* the tree's nodes */
  Node *root;
  GHashTable *events;    /* EventKey* (in LocalEvent) → id + 1 */
  GHashTable *tl_events; /* TlKey* → id + 1 */
  GArray *local_events;  /* LocalEvent */
  guint64 *provider_first;
  EtlProcessResolver *resolver;
  gboolean cancelled;
} Worker;

typedef struct
{
  EtlTrace *trace;
  EtlRowSet *rows;
  const EtlGroupKey *keys;
  guint n_keys;
  guint n_providers;
  guint n_processes;
  const guint *direct;
  gboolean need_record;
  gboolean need_full;    /* an event key: the whole EtlRecord, else its brief */
  EtlSchemaRegistry *registry;
  EtlProcessTable *processes;
  EtlProgressFunc progress;
  gpointer progress_data;
  GCancellable *cancellable;
  Worker *workers;
} Job;

static guint32
worker_event (Job *job, Worker *w, guint provider, const EtlRecord *r, guint64 row)
{
  gpointer slot;
  LocalEvent ev = { { 0 }, row, NULL };

  if (r->kind == ETL_RECORD_KIND_TRACELOGGING)
    {
      TlKey key = { r->event_id, r->opcode, 0, 0, NULL };
      const guint8 *data = NULL;
      gsize len = 0;

      if (etl_record_find_ext_item (r, ETL_EXT_TYPE_EVENT_SCHEMA_TL, &data, &len) && len <= G_MAXUINT32)
        {
          key.has_item = 1;
          key.len = (guint32)len;
          key.data = (guint8 *)data;
        }
      slot = g_hash_table_lookup (w->tl_events, &key);
      if (slot != NULL)
        return GPOINTER_TO_UINT (slot) - 1;
      ev.tl_name = etl_decode_dup_event_name (job->registry, r);
      g_array_append_val (w->local_events, ev);
      {
        TlKey *owned = g_new (TlKey, 1);

        *owned = key;
        owned->data = key.len > 0 ? g_memdup2 (key.data, key.len) : NULL;
        g_hash_table_insert (w->tl_events, owned, GUINT_TO_POINTER (w->local_events->len));
      }
      return w->local_events->len - 1;
    }
  ev.key.provider = provider;
  ev.key.hook_id = r->hook_id;
  ev.key.event_id = r->event_id;
  ev.key.task = r->task;
  ev.key.kind = (guint8)r->kind;
  ev.key.header_type = (guint8)r->header_type;
  ev.key.opcode = r->opcode;
  ev.key.version = r->version;
  slot = g_hash_table_lookup (w->events, &ev.key);
  if (slot != NULL)
    return GPOINTER_TO_UINT (slot) - 1;
  g_array_append_val (w->local_events, ev);
  g_hash_table_insert (w->events, g_memdup2 (&ev.key, sizeof ev.key), GUINT_TO_POINTER (w->local_events->len));
  return w->local_events->len - 1;
}

static void
count_range (guint worker, guint64 first, guint64 last, gpointer data)
{
  Job *job = data;
  Worker *w = &job->workers[worker];
  EtlTrace *trace = job->trace;
  RowKey rk[ETL_GROUP_MAX_KEYS];

  for (guint64 pos = first; pos < last; pos++)
    {
      guint64 row = etl_row_set_get (job->rows, pos);
      gint64 t = etl_trace_get_filetime (trace, row);
      guint provider = etl_trace_get_provider_index (trace, row);
      EtlRecord r;
      EtlRecordBrief b;
      gboolean have_record = FALSE, have_brief = FALSE;
      Node *n = w->root;

      if (((pos - first) & CANCEL_CHECK_MASK) == 0)
        {
          if (g_cancellable_is_cancelled (job->cancellable))
            {
              w->cancelled = TRUE;
              return;
            }
          if (worker == 0 && job->progress != NULL)
            job->progress ((double)(pos - first) / (double)(last - first), job->progress_data);
        }
      if (w->provider_first[MIN (provider, job->n_providers)] == NO_ROW)
        w->provider_first[MIN (provider, job->n_providers)] = row;
      if (job->need_full)
        have_record = etl_trace_get_record (trace, row, &r, NULL);
      else if (job->need_record)
        have_brief = etl_trace_peek_record (trace, row, &b);
      for (guint i = 0; i < job->n_keys; i++)
        {
          RowKey *o = &rk[i];

          o->provider = 0;
          o->id = 0;
          o->lifetime = -1;
          o->name = NULL;
          switch (job->keys[i])
            {
            case ETL_GROUP_BY_PROVIDER:
              o->provider = provider;
              o->value = provider;
              break;
            case ETL_GROUP_BY_EVENT:
              o->provider = provider;
              o->value = have_record ? worker_event (job, w, provider, &r, row) : UNREADABLE_EVENT;
              break;
            case ETL_GROUP_BY_PROCESS:
              {
                const EtlProcess *process = NULL;
                guint32 pid;
                gboolean found = have_record  ? etl_process_resolver_resolve (w->resolver, &r, &pid, NULL)
                                 : have_brief ? etl_process_resolver_resolve_brief (w->resolver, trace, row, &b, &pid, NULL)
                                              : etl_trace_get_pid (trace, row, &pid);

                if (!found)
                  {
                    o->id = ETL_GROUP_NONE;
                    o->value = PROCESS_NONE;
                    break;
                  }
                o->id = pid;
                process = etl_process_resolver_lookup (w->resolver, pid, t);
                o->lifetime = process != NULL ? (gint)process->index : -1;
                if (process != NULL && process->index < job->n_processes)
                  o->value = PROCESS_LIFETIME | process->index;
                else
                  o->value = PROCESS_PID | pid;
              }
              break;
            case ETL_GROUP_BY_THREAD:
              o->id = have_record && r.has_pid ? r.tid : have_brief && b.has_pid ? b.tid : ETL_GROUP_NONE;
              o->value = o->id;
              break;
            case ETL_GROUP_BY_CPU:
            default:
              o->id = etl_trace_get_cpu (trace, row);
              o->value = o->id;
              break;
            }
        }
      if (have_record)
        etl_record_clear (&r);
      if (have_brief)
        etl_record_brief_clear (&b);
      count_row (n, t);
      for (guint i = 0; i < job->n_keys; i++)
        {
          Node *child;

          if (rk[i].value < n->n_direct)
            child = n->direct[rk[i].value];
          else if (n->last != NULL && n->last->value == rk[i].value)
            child = n->last;
          else
            child = g_hash_table_lookup (n->children, &rk[i].value);
          if (child == NULL)
            {
              child = node_new (w->pool, n->group, job->keys[i], &rk[i], i + 1 < job->n_keys,
                                i + 1 < job->n_keys ? job->direct[i + 1] : 0);
              child->first_row = row;
              g_hash_table_insert (n->children, &child->value, child);
              if (rk[i].value < n->n_direct)
                n->direct[rk[i].value] = child;
            }
          n->last = child;
          n = child;
          count_row (n, t);
        }
    }
}

/* The merge's view of every worker's local values. */
typedef struct
{
  Keyer *k;
  Job *job;
  guint64 *provider_first;       /* over all workers */
  const char ***event_names;     /* per worker, per local event: the interned name */
} Merge;

/* The final tree's key of a worker's child @src at @level. */
static void
merge_key (Merge *m, guint worker, const Node *src, EtlGroupKey key, RowKey *o)
{
  const EtlGroup *g = src->group;

  o->provider = g->provider;
  o->id = g->id;
  o->lifetime = g->lifetime;
  o->name = NULL;
  o->value = src->value;
  switch (key)
    {
    case ETL_GROUP_BY_PROVIDER:
      o->name = provider_name (m->k, g->provider, NULL, m->provider_first[MIN (g->provider, m->job->n_providers)]);
      break;
    case ETL_GROUP_BY_EVENT:
      provider_name (m->k, g->provider, NULL, m->provider_first[MIN (g->provider, m->job->n_providers)]);
      o->name = src->value == UNREADABLE_EVENT ? "(unreadable)" : m->event_names[worker][src->value];
      o->value = (guint64)g->provider << 32 ^ (guint64)GPOINTER_TO_SIZE (o->name);
      break;
    case ETL_GROUP_BY_PROCESS:
      if ((src->value & ~G_GUINT64_CONSTANT (0xFFFFFFFFFF)) == PROCESS_NONE)
        o->name = "(no process)";
      else if ((src->value & ~G_GUINT64_CONSTANT (0xFFFFFFFFFF)) == PROCESS_LIFETIME)
        {
          guint index = (guint)(src->value & 0xFFFFFFFFu);

          if (m->k->process_labels[index] == NULL)
            {
              guint n;
              const EtlProcess *processes = etl_process_table_get_processes (m->k->processes, &n);

              m->k->process_labels[index] = intern_name (m->k, etl_process_format_name (&processes[index], g->id));
            }
          o->name = m->k->process_labels[index];
        }
      else
        o->name = intern_name (m->k, etl_process_format_name (NULL, g->id));
      o->value = (guint64)GPOINTER_TO_SIZE (o->name);
      break;
    case ETL_GROUP_BY_THREAD:
    case ETL_GROUP_BY_CPU:
    default:
      break;
    }
}

static void
merge_children (Merge *m, guint worker, Node *dst, Node *src, guint level)
{
  GHashTableIter iter;
  gpointer value;
  const EtlGroupKey *keys = m->job->keys;
  guint n_keys = m->job->n_keys;

  if (src->children == NULL)
    return;
  g_hash_table_iter_init (&iter, src->children);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      Node *s = value;
      Node *d;
      RowKey rk;

      merge_key (m, worker, s, keys[level], &rk);
      if (rk.value < dst->n_direct)
        d = dst->direct[rk.value];
      else
        d = g_hash_table_lookup (dst->children, &rk.value);
      if (d == NULL)
        {
          d = node_new (NULL, dst->group, keys[level], &rk, level + 1 < n_keys,
                        level + 1 < n_keys ? m->job->direct[level + 1] : 0);
          d->first_row = s->first_row;
          g_hash_table_insert (dst->children, &d->value, d);
          if (rk.value < dst->n_direct)
            dst->direct[rk.value] = d;
        }
      else if (s->first_row < d->first_row)
        {
          /* The earliest row's fields, as the serial pass keeps them. */
          d->first_row = s->first_row;
          d->group->provider = rk.provider;
          d->group->id = rk.id;
          d->group->lifetime = rk.lifetime;
        }
      d->group->count += s->group->count;
      d->group->first = MIN (d->group->first, s->group->first);
      d->group->last = MAX (d->group->last, s->group->last);
      merge_children (m, worker, d, s, level + 1);
    }
}

static void
worker_clear (Worker *w)
{
  w->root = NULL;
  node_pool_free (w->pool);
  for (guint i = 0; i < w->local_events->len; i++)
    g_free (g_array_index (w->local_events, LocalEvent, i).tl_name);
  g_array_unref (w->local_events);
  g_hash_table_unref (w->events);
  g_hash_table_unref (w->tl_events);
  g_free (w->provider_first);
  etl_process_resolver_free (w->resolver);
}

/* etl_group_summary_compute() with @n_workers workers (0: one per
 * processor); the result does not depend on @n_workers
 * (etl-group-summary-private.h). */
EtlGroupSummary *
etl_group_summary_compute_with_workers (EtlTrace *trace, EtlRowSet *rows, gint64 begin, gint64 end,
                                        const EtlGroupKey *keys, guint n_keys, guint n_workers,
                                        EtlProgressFunc progress, gpointer progress_data,
                                        GCancellable *cancellable, GError **error)
{
  g_autoptr (EtlGroupSummary) summary = NULL;
  g_autoptr (EtlRowSet) all = NULL;
  g_autofree guint64 *provider_first = NULL;
  g_autofree const char ***event_names = NULL;
  guint64 lo = 0, hi;
  Node *root;
  Keyer k;
  Job job;
  Merge m;
  RowKey root_key = { 0 };
  guint direct[ETL_GROUP_MAX_KEYS];
  gboolean cancelled = FALSE;

  g_return_val_if_fail (trace != NULL, NULL);
  g_return_val_if_fail (keys != NULL && n_keys >= 1 && n_keys <= ETL_GROUP_MAX_KEYS, NULL);
  for (guint i = 0; i < n_keys; i++)
    g_return_val_if_fail ((guint)keys[i] < G_N_ELEMENTS (key_names), NULL);

  if (rows == NULL)
    rows = all = etl_row_set_new_all (etl_trace_get_n_records (trace));
  hi = etl_row_set_get_n (rows);
  if (end > begin)
    {
      lo = etl_row_set_find (rows, etl_trace_lower_bound (trace, begin));
      hi = etl_row_set_find (rows, etl_trace_lower_bound (trace, end));
    }
  else
    begin = end = 0;
  hi = MAX (hi, lo);

  summary = g_new0 (EtlGroupSummary, 1);
  g_atomic_ref_count_init (&summary->ref_count);
  memcpy (summary->keys, keys, n_keys * sizeof *keys);
  summary->n_keys = n_keys;
  summary->begin = begin;
  summary->end = end;

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;

  keyer_init (&k, trace, keys, n_keys);
  for (guint i = 0; i < n_keys; i++)
    direct[i] = keys[i] == ETL_GROUP_BY_CPU        ? MIN (etl_trace_get_n_cpus (trace) + 1, MAX_DIRECT)
                : keys[i] == ETL_GROUP_BY_PROVIDER ? MIN (k.n_providers + 1, MAX_DIRECT)
                                                   : 0;
  if (n_workers == 0)
    n_workers = etl_parallel_n_workers (hi - lo, MIN_ROWS_PER_WORKER);

  memset (&job, 0, sizeof job);
  job.trace = trace;
  job.rows = rows;
  job.keys = keys;
  job.n_keys = n_keys;
  job.n_providers = k.n_providers;
  job.n_processes = k.n_processes;
  job.direct = direct;
  job.need_record = k.need_record;
  for (guint i = 0; i < n_keys; i++)
    if (keys[i] == ETL_GROUP_BY_EVENT)
      job.need_full = TRUE;
  job.registry = k.registry;
  job.processes = k.processes;
  job.progress = progress;
  job.progress_data = progress_data;
  job.cancellable = cancellable;
  job.workers = g_new0 (Worker, n_workers);
  root_key.id = ETL_GROUP_NONE;
  root_key.lifetime = -1;
  for (guint w = 0; w < n_workers; w++)
    {
      Worker *wk = &job.workers[w];

      wk->pool = node_pool_new ();
      wk->root = node_new (wk->pool, NULL, keys[0], &root_key, TRUE, direct[0]);
      wk->events = g_hash_table_new_full (event_key_hash, event_key_equal, g_free, NULL);
      wk->tl_events = g_hash_table_new_full (tl_key_hash, tl_key_equal, tl_key_free, NULL);
      wk->local_events = g_array_new (FALSE, FALSE, sizeof (LocalEvent));
      wk->provider_first = g_new (guint64, k.n_providers + 1);
      for (guint p = 0; p <= k.n_providers; p++)
        wk->provider_first[p] = NO_ROW;
      wk->resolver = etl_process_resolver_new (k.processes);
    }

  etl_parallel_ranges (n_workers, lo, hi, count_range, &job);

  /* Cancelled while the ranges were counted: a worker may have finished
   * its range before it saw it. */
  cancelled = g_cancellable_is_cancelled (cancellable);
  for (guint w = 0; w < n_workers; w++)
    cancelled |= job.workers[w].cancelled;
  if (cancelled)
    {
      for (guint w = 0; w < n_workers; w++)
        worker_clear (&job.workers[w]);
      g_free (job.workers);
      keyer_clear (&k);
      if (!g_cancellable_set_error_if_cancelled (cancellable, error))
        g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, "Cancelled");
      return NULL;
    }

  /* Providers and event keys are named from their first row over all ranges. */
  provider_first = g_new (guint64, k.n_providers + 1);
  for (guint p = 0; p <= k.n_providers; p++)
    {
      provider_first[p] = NO_ROW;
      for (guint w = 0; w < n_workers; w++)
        provider_first[p] = MIN (provider_first[p], job.workers[w].provider_first[p]);
    }
  event_names = g_new0 (const char **, n_workers);
  {
    /* EventKey* (in a worker's LocalEvent) → first row over all workers */
    g_autoptr (GHashTable) first_rows = g_hash_table_new (event_key_hash, event_key_equal);
    g_autoptr (GHashTable) key_names_ = g_hash_table_new (event_key_hash, event_key_equal);

    for (guint w = 0; w < n_workers; w++)
      for (guint i = 0; i < job.workers[w].local_events->len; i++)
        {
          LocalEvent *ev = &g_array_index (job.workers[w].local_events, LocalEvent, i);
          gpointer old;

          if (ev->tl_name != NULL)
            continue;
          old = g_hash_table_lookup (first_rows, &ev->key);
          if (old == NULL || (guint64)GPOINTER_TO_SIZE (old) - 1 > ev->first_row)
            g_hash_table_insert (first_rows, &ev->key, GSIZE_TO_POINTER ((gsize)ev->first_row + 1));
        }
    for (guint w = 0; w < n_workers; w++)
      {
        GArray *evs = job.workers[w].local_events;

        event_names[w] = g_new0 (const char *, evs->len + 1);
        for (guint i = 0; i < evs->len; i++)
          {
            LocalEvent *ev = &g_array_index (evs, LocalEvent, i);
            const char *name;

            if (ev->tl_name != NULL)
              {
                event_names[w][i] = intern_name (&k, g_strdup (ev->tl_name));
                continue;
              }
            name = g_hash_table_lookup (key_names_, &ev->key);
            if (name == NULL)
              {
                guint64 row = (guint64)GPOINTER_TO_SIZE (g_hash_table_lookup (first_rows, &ev->key)) - 1;
                EtlRecord r;

                if (etl_trace_get_record (trace, row, &r, NULL))
                  {
                    name = intern_name (&k, etl_decode_dup_event_name (k.registry, &r));
                    etl_record_clear (&r);
                  }
                else
                  name = "(unreadable)";
                g_hash_table_insert (key_names_, &ev->key, (gpointer)name);
              }
            event_names[w][i] = name;
          }
      }
  }

  root = node_new (NULL, NULL, keys[0], &root_key, TRUE, direct[0]);
  root->group->label = g_strdup ("All");
  m.k = &k;
  m.job = &job;
  m.provider_first = provider_first;
  m.event_names = event_names;
  for (guint w = 0; w < n_workers; w++)
    {
      Worker *wk = &job.workers[w];

      root->group->count += wk->root->group->count;
      root->group->first = MIN (root->group->first, wk->root->group->first);
      root->group->last = MAX (root->group->last, wk->root->group->last);
      merge_children (&m, w, root, wk->root, 0);
      worker_clear (wk);
      g_free (event_names[w]);
    }
  g_free (job.workers);

  if (root->group->count == 0)
    root->group->first = root->group->last = 0;
  finish_node (&k, root, root->group->count);
  summary->root = root->group;
  node_free (root);
  keyer_clear (&k);
  if (progress != NULL)
    progress (1.0, progress_data);
  return g_steal_pointer (&summary);
}

/**
 * etl_group_summary_compute:
 * @trace: a trace
 * @rows: (nullable): the rows to count (a filter's); %NULL for all
 * @begin: FILETIME of the range's start (inclusive)
 * @end: FILETIME of the range's end (exclusive); @end ≤ @begin means the
 *   whole trace
 * @keys: (array length=n_keys): the chain of keys, outermost first
 * @n_keys: 1–#ETL_GROUP_MAX_KEYS, each key at most once
 * @progress: (nullable) (scope call): called from the calling thread with
 *   the fraction of its share of the rows done
 * @progress_data: closure for @progress
 * @cancellable: (nullable): checked every 65,536 rows and once all are
 *   counted
 * @error: #G_IO_ERROR_CANCELLED when cancelled
 *
 * Groups the rows of @trace (those of @rows, in [@begin, @end)) by @keys:
 * the root group holds all of them, its children one group per value of
 * @keys[0], theirs one per value of @keys[1], and so on.  Call it in a
 * worker: it visits every row and reads the record header when a key needs
 * it (event, process, thread).  The rows are split into contiguous ranges,
 * one per processor, counted in parallel (the calling thread takes the
 * first) and merged so that the result is that of one pass in row order:
 * an event key's name and a group's fields are those of its first row.
 * The trace's process table must be built (etl_trace_get_process_table()).
 *
 * Returns: (transfer full) (nullable): the summary, or %NULL with @error set
 */
EtlGroupSummary *
etl_group_summary_compute (EtlTrace *trace, EtlRowSet *rows, gint64 begin, gint64 end,
                           const EtlGroupKey *keys, guint n_keys, EtlProgressFunc progress,
                           gpointer progress_data, GCancellable *cancellable, GError **error)
{
  return etl_group_summary_compute_with_workers (trace, rows, begin, end, keys, n_keys, 0, progress,
                                                 progress_data, cancellable, error);
}

/**
 * etl_group_summary_ref:
 * @summary: a summary
 *
 * Returns: (transfer full): @summary
 */
EtlGroupSummary *
etl_group_summary_ref (EtlGroupSummary *summary)
{
  g_return_val_if_fail (summary != NULL, NULL);
  g_atomic_ref_count_inc (&summary->ref_count);
  return summary;
}

/**
 * etl_group_summary_unref:
 * @summary: (transfer full): a summary
 */
void
etl_group_summary_unref (EtlGroupSummary *summary)
{
  g_return_if_fail (summary != NULL);
  if (!g_atomic_ref_count_dec (&summary->ref_count))
    return;
  group_free (summary->root);
  g_free (summary);
}

/**
 * etl_group_summary_get_root:
 * @summary: a summary
 *
 * Returns: (transfer none): the group of all counted rows; its children are
 *   the first level
 */
const EtlGroup *
etl_group_summary_get_root (EtlGroupSummary *summary)
{
  g_return_val_if_fail (summary != NULL, NULL);
  return summary->root;
}

/**
 * etl_group_summary_get_keys:
 * @summary: a summary
 * @keys: (out) (transfer none) (array length=return): the chain
 *
 * Returns: the number of keys
 */
guint
etl_group_summary_get_keys (EtlGroupSummary *summary, const EtlGroupKey **keys)
{
  g_return_val_if_fail (summary != NULL, 0);
  if (keys != NULL)
    *keys = summary->keys;
  return summary->n_keys;
}

/**
 * etl_group_summary_get_total:
 * @summary: a summary
 *
 * Returns: the number of rows counted (the root's count)
 */
guint64
etl_group_summary_get_total (EtlGroupSummary *summary)
{
  g_return_val_if_fail (summary != NULL, 0);
  return summary->root->count;
}

/**
 * etl_group_summary_get_begin:
 * @summary: a summary
 *
 * Returns: the range's start FILETIME, or 0 for the whole trace
 */
gint64
etl_group_summary_get_begin (EtlGroupSummary *summary)
{
  g_return_val_if_fail (summary != NULL, 0);
  return summary->begin;
}

/**
 * etl_group_summary_get_end:
 * @summary: a summary
 *
 * Returns: the range's end FILETIME (exclusive), or 0 for the whole trace
 */
gint64
etl_group_summary_get_end (EtlGroupSummary *summary)
{
  g_return_val_if_fail (summary != NULL, 0);
  return summary->end;
}

/* ---- Matching a group --------------------------------------------------- */

struct _EtlGroupMatcher
{
  EtlTrace *trace;
  GMutex lock; /* the keyer's caches; a matcher may be shared by workers */
  Keyer keyer;
  guint n_keys;
  EtlGroupKey keys[ETL_GROUP_MAX_KEYS];
  RowKey want[ETL_GROUP_MAX_KEYS];
  char *names[ETL_GROUP_MAX_KEYS];
  char *description;
};

/**
 * etl_group_matcher_new:
 * @trace: the trace the group's summary was computed over
 * @group: a group of a summary of @trace, not the root
 *
 * A test for "does this row belong to @group": the row's values at every
 * level from the first down to @group's must equal the group's path.  The
 * time range and row set of the summary are not part of it.  It may be used
 * from several threads (a lock guards its name caches).
 *
 * Returns: (transfer full): the matcher; free with etl_group_matcher_free()
 */
EtlGroupMatcher *
etl_group_matcher_new (EtlTrace *trace, const EtlGroup *group)
{
  EtlGroupMatcher *m;
  const EtlGroup *path[ETL_GROUP_MAX_KEYS];
  guint n = 0;
  g_autoptr (GString) description = g_string_new (NULL);

  g_return_val_if_fail (trace != NULL && group != NULL && group->parent != NULL, NULL);
  for (const EtlGroup *g = group; g->parent != NULL && n < ETL_GROUP_MAX_KEYS; g = g->parent)
    path[n++] = g;
  m = g_new0 (EtlGroupMatcher, 1);
  m->trace = etl_trace_ref (trace);
  g_mutex_init (&m->lock);
  m->n_keys = n;
  for (guint i = 0; i < n; i++)
    {
      const EtlGroup *g = path[n - 1 - i];

      m->keys[i] = g->key;
      m->want[i].provider = g->provider;
      m->want[i].id = g->id;
      m->want[i].lifetime = g->lifetime;
      m->names[i] = g_strdup (g->name);
      if (i > 0)
        g_string_append (description, " ▸ ");
      g_string_append (description, g->label != NULL ? g->label : "");
    }
  m->description = g_string_free (g_steal_pointer (&description), FALSE);
  keyer_init (&m->keyer, trace, m->keys, m->n_keys);
  return m;
}

/**
 * etl_group_matcher_matches:
 * @matcher: a matcher
 * @row: a row of the trace
 *
 * Returns: %TRUE when @row belongs to the matcher's group
 */
gboolean
etl_group_matcher_matches (EtlGroupMatcher *matcher, guint64 row)
{
  RowKey rk[ETL_GROUP_MAX_KEYS];
  EtlRecord r;
  gboolean have_record = FALSE;
  gboolean match = TRUE;

  g_return_val_if_fail (matcher != NULL, FALSE);
  if (row >= etl_trace_get_n_records (matcher->trace))
    return FALSE;
  /* The index alone rules out most rows. */
  for (guint i = 0; i < matcher->n_keys; i++)
    if (((matcher->keys[i] == ETL_GROUP_BY_PROVIDER || matcher->keys[i] == ETL_GROUP_BY_EVENT)
         && etl_trace_get_provider_index (matcher->trace, row) != matcher->want[i].provider)
        || (matcher->keys[i] == ETL_GROUP_BY_CPU && etl_trace_get_cpu (matcher->trace, row) != matcher->want[i].id))
      return FALSE;
  if (matcher->keyer.need_record)
    have_record = etl_trace_get_record (matcher->trace, row, &r, NULL);
  g_mutex_lock (&matcher->lock);
  row_keys (&matcher->keyer, row, have_record ? &r : NULL, matcher->keys, matcher->n_keys, rk);
  if (have_record)
    etl_record_clear (&r);
  for (guint i = 0; i < matcher->n_keys && match; i++)
    switch (matcher->keys[i])
      {
      case ETL_GROUP_BY_EVENT:
        match = g_strcmp0 (rk[i].name, matcher->names[i]) == 0;
        break;
      case ETL_GROUP_BY_PROCESS:
        match = rk[i].id == matcher->want[i].id && g_strcmp0 (rk[i].name, matcher->names[i]) == 0;
        break;
      case ETL_GROUP_BY_THREAD:
        match = rk[i].id == matcher->want[i].id;
        break;
      case ETL_GROUP_BY_PROVIDER:
      case ETL_GROUP_BY_CPU:
      default:
        break; /* checked above */
      }
  g_mutex_unlock (&matcher->lock);
  return match;
}

/**
 * etl_group_matcher_get_description:
 * @matcher: a matcher
 *
 * Returns: (transfer none): the group's path for a status line:
 *   "Provider ▸ Event"
 */
const char *
etl_group_matcher_get_description (EtlGroupMatcher *matcher)
{
  g_return_val_if_fail (matcher != NULL, NULL);
  return matcher->description;
}

/**
 * etl_group_matcher_free:
 * @matcher: (transfer full) (nullable): a matcher
 */
void
etl_group_matcher_free (EtlGroupMatcher *matcher)
{
  if (matcher == NULL)
    return;
  keyer_clear (&matcher->keyer);
  g_mutex_clear (&matcher->lock);
  for (guint i = 0; i < matcher->n_keys; i++)
    g_free (matcher->names[i]);
  g_free (matcher->description);
  etl_trace_unref (matcher->trace);
  g_free (matcher);
}
