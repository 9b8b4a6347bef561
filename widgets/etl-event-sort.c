/* SPDX-License-Identifier: GPL-3.0-or-later */

/**
 * SECTION:etl-event-sort
 * @title: Sorting the event list
 * @short_description: a permutation of a row set by one column
 *
 * Sorting never compares formatted rows.  Each row gets a 32-bit key — the
 * CPU, process id or provider index straight from the trace's index, or a
 * field of the record header — and text columns map to ranks worked out once
 * per provider (provider names) or once per event identity (provider,
 * kind, HookId, event id, opcode → event name).  The (key, position) pairs are
 * then sorted by an LSD radix sort on the key bytes that vary.  GLib has no
 * radix sort; a comparison sort of 16 M pairs takes several seconds where
 * this takes a fraction of one, which is the reason for our own.  The sort is
 * stable and starts from the merged (time) order, so rows with equal keys
 * stay in time order, both ascending and descending.
 *
 * The result is an array of positions in the row set, one per row, to give
 * to etl_event_model_set_order() (or etl_event_model_new_sorted()).
 */

#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include "etl-event-sort.h"

#include <stdlib.h>
#include <string.h>

#include "etl-event-model.h"
#include "etl-names.h"
#include "etl-worker.h"

#define CANCEL_CHECK_MASK 0xFFFF

typedef struct
{
  guint32 p;
  guint8 kind;
  guint8 opcode;
  guint16 hook_id;
  guint16 event_id;
} EventIdentity;

static guint
identity_hash (gconstpointer data)
{
  const EventIdentity *e = data;

  return e->p * 31u + e->kind * 7u + e->opcode * 131u + e->hook_id * 65599u + e->event_id * 257u;
}

static gboolean
identity_equal (gconstpointer a, gconstpointer b)
{
  return memcmp (a, b, sizeof (EventIdentity)) == 0;
}

static int
compare_names (gconstpointer a, gconstpointer b)
{
  return g_utf8_collate (*(const char *const *) a, *(const char *const *) b);
}

/* Ranks the distinct @names (indexed by id) by collation; returns rank per
 * id.  Equal names share a rank. */
static guint32 *
rank_names (GPtrArray *names)
{
  g_autofree const char **sorted = g_new (const char *, names->len + 1);
  g_autoptr (GHashTable) rank_of = g_hash_table_new (g_str_hash, g_str_equal);
  guint32 *ranks = g_new0 (guint32, names->len + 1);
  guint32 rank = 0;

  for (guint i = 0; i < names->len; i++)
    sorted[i] = g_ptr_array_index (names, i);
  qsort (sorted, names->len, sizeof (char *), compare_names);
  for (guint i = 0; i < names->len; i++)
    if (!g_hash_table_contains (rank_of, sorted[i]))
      g_hash_table_insert (rank_of, (gpointer) sorted[i], GUINT_TO_POINTER (++rank));
  for (guint i = 0; i < names->len; i++)
    ranks[i] = GPOINTER_TO_UINT (g_hash_table_lookup (rank_of, g_ptr_array_index (names, i)));
  return ranks;
}

/* Keys that need a text rank: ids first, then ranks. */
typedef struct
{
  GHashTable *ids;   /* EventIdentity* or char* → id + 1 */
  GHashTable *text_ids;
  GPtrArray *names;  /* id → name */
  EtlSchemaRegistry *registry; /* decoded event names */
} Ranker;

static void
ranker_init (Ranker *r)
{
  r->ids = g_hash_table_new_full (identity_hash, identity_equal, g_free, NULL);
  r->text_ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  r->names = g_ptr_array_new_with_free_func (g_free);
}

static void
ranker_clear (Ranker *r)
{
  g_hash_table_unref (r->ids);
  g_hash_table_unref (r->text_ids);
  g_ptr_array_unref (r->names);
}

static guint32
ranker_text_id (Ranker *r, const char *text)
{
  gpointer value = g_hash_table_lookup (r->text_ids, text);

  if (value != NULL)
    return GPOINTER_TO_UINT (value) - 1;
  g_ptr_array_add (r->names, g_strdup (text));
  g_hash_table_insert (r->text_ids, g_strdup (text), GUINT_TO_POINTER (r->names->len));
  return r->names->len - 1;
}

static guint32
ranker_event_id (Ranker *r, guint p, const EtlRecord *record)
{
  EventIdentity key;
  gpointer value;

  memset (&key, 0, sizeof key); /* padding too: keys are compared with memcmp */
  key.p = p;
  key.kind = record->kind;
  key.opcode = record->opcode;
  key.hook_id = record->hook_id;
  key.event_id = record->event_id;

  /* TraceLogging names live in each record: rank by the name itself. */
  if (record->kind == ETL_RECORD_KIND_TRACELOGGING)
    {
      g_autofree char *name = etl_record_dup_event_name (record);

      return ranker_text_id (r, name);
    }
  value = g_hash_table_lookup (r->ids, &key);
  if (value != NULL)
    return GPOINTER_TO_UINT (value) - 1;
  g_ptr_array_add (r->names, etl_decode_dup_event_name (r->registry, record));
  g_hash_table_insert (r->ids, g_memdup2 (&key, sizeof key), GUINT_TO_POINTER (r->names->len));
  return r->names->len - 1;
}

/* Sorts @pairs (key << 32 | position) by key, stably; @tmp has room for @n. */
static guint64 *
radix_sort (guint64 *pairs, guint64 *tmp, gsize n)
{
  for (guint shift = 32; shift < 64; shift += 8)
    {
      gsize count[257] = { 0 };
      gboolean constant = FALSE;

      for (gsize i = 0; i < n; i++)
        count[((pairs[i] >> shift) & 0xFF) + 1]++;
      for (guint b = 1; b <= 256; b++)
        if (count[b] == n)
          constant = TRUE;
      if (constant)
        continue;
      for (guint b = 1; b <= 256; b++)
        count[b] += count[b - 1];
      for (gsize i = 0; i < n; i++)
        tmp[count[(pairs[i] >> shift) & 0xFF]++] = pairs[i];
      {
        guint64 *swap = pairs;

        pairs = tmp;
        tmp = swap;
      }
    }
  return pairs;
}

/**
 * etl_event_sort:
 * @trace: the trace
 * @rows: the rows to order (a filter's result, or every row)
 * @key: what to sort by
 * @model_column: the #EtlEventModel column, for %ETL_SORT_KEY_TEXT
 * @descending: largest first
 * @cancellable: (nullable): checked every 65,536 rows
 * @error: return location for a #GError: %G_IO_ERROR_CANCELLED, or
 *   %G_IO_ERROR_NOT_SUPPORTED for more than 2^32 − 1 rows
 *
 * Orders @rows by @key.  Rows with equal keys keep their time order.
 * Blocks: call from a worker (etl_event_sort_async()).
 *
 * Returns: (transfer full): etl_row_set_get_n() positions in @rows, in
 *   display order (g_free())
 */
guint32 *
etl_event_sort (EtlTrace *trace, EtlRowSet *rows, EtlSortKey key, int model_column, gboolean descending,
                GCancellable *cancellable, GError **error)
{
  guint64 n = etl_row_set_get_n (rows);
  guint n_providers = etl_trace_get_n_providers (trace);
  g_autofree guint64 *pairs = NULL;
  g_autofree guint64 *tmp = NULL;
  g_autofree guint32 *provider_rank = NULL;
  g_autoptr (EtlEventModel) model = NULL;
  guint32 *order;
  guint64 *sorted;
  Ranker ranker;
  gboolean ranked = FALSE;

  if (n >= G_MAXUINT32)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, "Cannot sort %" G_GUINT64_FORMAT " rows", n);
      return NULL;
    }
  order = g_new (guint32, MAX (n, 1));
  if (key == ETL_SORT_KEY_TIME || key == ETL_SORT_KEY_NONE)
    {
      for (guint64 i = 0; i < n; i++)
        order[i] = (guint32) (descending && key == ETL_SORT_KEY_TIME ? n - 1 - i : i);
      return order;
    }

  if (key == ETL_SORT_KEY_PROVIDER)
    {
      /* Provider names, one record read per provider. */
      g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
      guint n_named = 0;

      g_ptr_array_set_size (names, n_providers);
      for (guint64 i = 0; i < n && n_named < n_providers; i++)
        {
          guint64 row = etl_row_set_get (rows, i);
          guint p = etl_trace_get_provider_index (trace, row);
          EtlRecord record;

          if (p >= n_providers || g_ptr_array_index (names, p) != NULL)
            continue;
          if (!etl_trace_get_record (trace, row, &record, NULL))
            continue;
          g_ptr_array_index (names, p) = etl_record_dup_provider_name (&record);
          etl_record_clear (&record);
          n_named++;
          if ((i & CANCEL_CHECK_MASK) == 0 && g_cancellable_set_error_if_cancelled (cancellable, error))
            {
              g_free (order);
              return NULL;
            }
        }
      for (guint p = 0; p < n_providers; p++)
        if (g_ptr_array_index (names, p) == NULL)
          g_ptr_array_index (names, p) = g_strdup ("");
      provider_rank = rank_names (names);
    }

  ranker_init (&ranker);
  ranker.registry = etl_trace_get_schema_registry (trace);
  pairs = g_new (guint64, MAX (n, 1));
  if (key == ETL_SORT_KEY_TEXT)
    model = etl_event_model_new (trace, NULL);
  for (guint64 i = 0; i < n; i++)
    {
      guint64 row = etl_row_set_get (rows, i);
      guint32 k = 0;

      if ((i & CANCEL_CHECK_MASK) == 0 && g_cancellable_set_error_if_cancelled (cancellable, error))
        {
          ranker_clear (&ranker);
          g_free (order);
          return NULL;
        }
      switch (key)
        {
        case ETL_SORT_KEY_CPU:
          k = etl_trace_get_cpu (trace, row);
          break;
        case ETL_SORT_KEY_PID:
          {
            guint32 pid;

            k = etl_trace_get_pid (trace, row, &pid) ? MIN (pid, G_MAXUINT32 - 1) + 1 : 0;
          }
          break;
        case ETL_SORT_KEY_PROVIDER:
          {
            guint p = etl_trace_get_provider_index (trace, row);

            k = p < n_providers ? provider_rank[p] : G_MAXUINT32;
          }
          break;
        case ETL_SORT_KEY_TEXT:
          {
            GtkTreeIter iter;
            g_autofree char *text = NULL;

            /* Position @row of the unfiltered model is trace row @row. */
            if (gtk_tree_model_iter_nth_child (GTK_TREE_MODEL (model), &iter, NULL, (int) MIN (row, G_MAXINT)))
              gtk_tree_model_get (GTK_TREE_MODEL (model), &iter, model_column, &text, -1);
            k = ranker_text_id (&ranker, text != NULL ? text : "");
            ranked = TRUE;
          }
          break;
        default:
          {
            EtlRecord record;

            if (!etl_trace_get_record (trace, row, &record, NULL))
              {
                k = G_MAXUINT32;
                break;
              }
            switch (key)
              {
              case ETL_SORT_KEY_TID:
                k = record.has_pid ? MIN (record.tid, G_MAXUINT32 - 1) + 1 : 0;
                break;
              case ETL_SORT_KEY_EVENT:
                k = ranker_event_id (&ranker, etl_trace_get_provider_index (trace, row), &record);
                ranked = TRUE;
                break;
              case ETL_SORT_KEY_OPCODE:
                if (record.kind == ETL_RECORD_KIND_KERNEL || record.kind == ETL_RECORD_KIND_PERFINFO)
                  k = record.hook_id;
                else
                  k = ((guint32) record.event_id << 8 | record.opcode);
                break;
              case ETL_SORT_KEY_LEVEL:
                k = record.level;
                break;
              case ETL_SORT_KEY_SIZE:
                k = (guint32) MIN (record.user_data_len, (gsize) G_MAXUINT32);
                break;
              default:
                break;
              }
            etl_record_clear (&record);
          }
          break;
        }
      pairs[i] = (guint64) k << 32 | i;
    }

  if (ranked)
    {
      g_autofree guint32 *ranks = rank_names (ranker.names);

      for (guint64 i = 0; i < n; i++)
        pairs[i] = (guint64) ranks[pairs[i] >> 32] << 32 | (pairs[i] & G_MAXUINT32);
    }
  ranker_clear (&ranker);
  if (descending)
    for (guint64 i = 0; i < n; i++)
      pairs[i] = (guint64) (G_MAXUINT32 - (guint32) (pairs[i] >> 32)) << 32 | (pairs[i] & G_MAXUINT32);

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    {
      g_free (order);
      return NULL;
    }
  tmp = g_new (guint64, MAX (n, 1));
  sorted = radix_sort (pairs, tmp, n);
  for (guint64 i = 0; i < n; i++)
    order[i] = (guint32) (sorted[i] & G_MAXUINT32);
  return order;
}

typedef struct
{
  EtlTrace *trace;
  EtlRowSet *rows;
  EtlSortKey key;
  int model_column;
  gboolean descending;
} SortData;

static void
sort_data_free (gpointer data)
{
  SortData *sd = data;

  etl_trace_unref (sd->trace);
  etl_row_set_unref (sd->rows);
  g_free (sd);
}

static void
sort_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  SortData *sd = task_data;
  GError *error = NULL;
  guint32 *order = etl_event_sort (sd->trace, sd->rows, sd->key, sd->model_column, sd->descending, cancellable,
                                   &error);

  if (order == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, order, g_free);
}

/**
 * etl_event_sort_async:
 * @trace: the trace
 * @rows: the rows to order
 * @key: what to sort by
 * @model_column: the #EtlEventModel column, for %ETL_SORT_KEY_TEXT
 * @descending: largest first
 * @cancellable: (nullable): a #GCancellable
 * @callback: called in the calling thread's main context when done
 * @user_data: closure for @callback
 *
 * Runs etl_event_sort() in a worker (#GTask); the main loop stays free.
 */
void
etl_event_sort_async (EtlTrace *trace, EtlRowSet *rows, EtlSortKey key, int model_column, gboolean descending,
                      GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data)
{
  g_autoptr (GTask) task = NULL;
  SortData *sd;

  g_return_if_fail (trace != NULL && rows != NULL);

  sd = g_new0 (SortData, 1);
  sd->trace = etl_trace_ref (trace);
  sd->rows = etl_row_set_ref (rows);
  sd->key = key;
  sd->model_column = model_column;
  sd->descending = descending;
  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, etl_event_sort_async);
  g_task_set_task_data (task, sd, sort_data_free);
  etl_worker_run (task, sort_thread);
}

/**
 * etl_event_sort_finish:
 * @result: the #GAsyncResult
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): the positions, as etl_event_sort()
 */
guint32 *
etl_event_sort_finish (GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}
