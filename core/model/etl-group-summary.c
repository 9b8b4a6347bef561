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
 * thread need the record's header, read with etl_trace_get_record() (no
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
#include "etl-process-table.h"

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

/* Frees an unfinished tree: its nodes and their groups. */
static void
node_free_with_groups (Node *n)
{
  if (n->children != NULL)
    {
      GHashTableIter iter;
      gpointer value;

      g_hash_table_iter_init (&iter, n->children);
      while (g_hash_table_iter_next (&iter, NULL, &value))
        {
          Node *child = value;

          group_free (child->group);
          child->group = NULL;
          node_free_with_groups (child);
          g_hash_table_iter_steal (&iter);
        }
    }
  node_free (n);
}

static Node *
node_new (EtlGroup *parent, EtlGroupKey key, const RowKey *rk, gboolean has_children, guint n_direct)
{
  Node *n = g_new0 (Node, 1);

  n->group = g_new0 (EtlGroup, 1);
  n->group->key = key;
  n->group->parent = parent;
  n->group->provider = rk->provider;
  n->group->id = rk->id;
  n->group->lifetime = rk->lifetime;
  n->group->name = g_strdup (rk->name);
  n->group->first = G_MAXINT64;
  n->group->last = G_MININT64;
  n->value = rk->value;
  if (has_children)
    n->children = g_hash_table_new_full (g_int64_hash, g_int64_equal, NULL, node_free);
  if (has_children && n_direct > 0)
    {
      n->n_direct = n_direct;
      n->direct = g_new0 (Node *, n_direct);
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

/**
 * etl_group_summary_compute:
 * @trace: a trace
 * @rows: (nullable): the rows to count (a filter's); %NULL for all
 * @begin: FILETIME of the range's start (inclusive)
 * @end: FILETIME of the range's end (exclusive); @end ≤ @begin means the
 *   whole trace
 * @keys: (array length=n_keys): the chain of keys, outermost first
 * @n_keys: 1–#ETL_GROUP_MAX_KEYS, each key at most once
 * @progress: (nullable) (scope call): called with the fraction of rows done
 * @progress_data: closure for @progress
 * @cancellable: (nullable): checked every 65,536 rows
 * @error: #G_IO_ERROR_CANCELLED when cancelled
 *
 * Groups the rows of @trace (those of @rows, in [@begin, @end)) by @keys:
 * the root group holds all of them, its children one group per value of
 * @keys[0], theirs one per value of @keys[1], and so on.  Call it in a
 * worker: it visits every row and reads the record header when a key needs
 * it (event, process, thread).  The trace's process table must be built
 * (etl_trace_get_process_table()).
 *
 * Returns: (transfer full) (nullable): the summary, or %NULL with @error set
 */
EtlGroupSummary *
etl_group_summary_compute (EtlTrace *trace, EtlRowSet *rows, gint64 begin, gint64 end,
                           const EtlGroupKey *keys, guint n_keys, EtlProgressFunc progress,
                           gpointer progress_data, GCancellable *cancellable, GError **error)
{
  g_autoptr (EtlGroupSummary) summary = NULL;
  g_autoptr (EtlRowSet) all = NULL;
  guint64 lo = 0, hi, span;
  Node *root;
  Keyer k;
  RowKey rk[ETL_GROUP_MAX_KEYS];
  RowKey root_key = { 0 };
  guint direct[ETL_GROUP_MAX_KEYS];

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

  summary = g_new0 (EtlGroupSummary, 1);
  g_atomic_ref_count_init (&summary->ref_count);
  memcpy (summary->keys, keys, n_keys * sizeof *keys);
  summary->n_keys = n_keys;
  summary->begin = begin;
  summary->end = end;

  keyer_init (&k, trace, keys, n_keys);
  root_key.id = ETL_GROUP_NONE;
  root_key.lifetime = -1;
  for (guint i = 0; i < n_keys; i++)
    direct[i] = keys[i] == ETL_GROUP_BY_CPU        ? MIN (etl_trace_get_n_cpus (trace) + 1, MAX_DIRECT)
                : keys[i] == ETL_GROUP_BY_PROVIDER ? MIN (k.n_providers + 1, MAX_DIRECT)
                                                   : 0;
  root = node_new (NULL, keys[0], &root_key, TRUE, direct[0]);
  root->group->label = g_strdup ("All");
  span = hi > lo ? hi - lo : 0;
  for (guint64 pos = lo; pos < hi; pos++)
    {
      guint64 row = etl_row_set_get (rows, pos);
      gint64 t = etl_trace_get_filetime (trace, row);
      EtlRecord r;
      gboolean have_record = FALSE;
      Node *n = root;

      if (((pos - lo) & CANCEL_CHECK_MASK) == 0)
        {
          if (g_cancellable_set_error_if_cancelled (cancellable, error))
            {
              group_free (root->group);
              node_free_with_groups (root);
              keyer_clear (&k);
              return NULL;
            }
          if (progress != NULL)
            progress ((double)(pos - lo) / (double)span, progress_data);
        }
      if (k.need_record)
        have_record = etl_trace_get_record (trace, row, &r, NULL);
      row_keys (&k, row, have_record ? &r : NULL, keys, n_keys, rk);
      if (have_record)
        etl_record_clear (&r);
      count_row (n, t);
      for (guint i = 0; i < n_keys; i++)
        {
          Node *child;

          if (rk[i].value < n->n_direct)
            child = n->direct[rk[i].value];
          else
            child = g_hash_table_lookup (n->children, &rk[i].value);
          if (child == NULL)
            {
              child = node_new (n->group, keys[i], &rk[i], i + 1 < n_keys, i + 1 < n_keys ? direct[i + 1] : 0);
              g_hash_table_insert (n->children, &child->value, child);
              if (rk[i].value < n->n_direct)
                n->direct[rk[i].value] = child;
            }
          n = child;
          count_row (n, t);
        }
    }
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
