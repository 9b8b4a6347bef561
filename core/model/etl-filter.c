/* SPDX-License-Identifier: GPL-3.0-or-later */

/**
 * SECTION:etl-filter
 * @title: EtlFilter
 * @short_description: which records a view shows
 *
 * An #EtlFilter names a provider (a substring of its name or GUID), a
 * process, a thread and a free text matched against the provider and event
 * names.  etl_filter_apply() walks the trace's merged sequence once and
 * returns the rows that pass as an #EtlRowSet, shared by the event list, the
 * timeline and exports.
 *
 * The walk asks the in-memory index first (process id, provider index) and
 * re-reads a record only when the index cannot answer: the thread id, and
 * event names for the free text.  A provider's name is worked out once per
 * provider index, from the first readable record of that provider, the way
 * `etlscope-cli stats` names providers; so is each provider's match.
 * Event-name matches are cached per (kind, provider, HookId, event id,
 * opcode), which is all the name depends on for every record kind except
 * TraceLogging, whose name is read from the record's own schema.
 *
 * When neither name matches, the free text is also looked for in the
 * record's process ("Test.x64.exe (3676)", matched once per process of the
 * trace's process table) and in its decoded payload as the event list's
 * Payload column shows it ("Count=1 Reason=AllocSmall …", the whole text):
 * that decodes the record, so a text filter costs one decode per record
 * whose names do not match.  It runs in a worker (etl_filter_apply_async()),
 * which splits the rows into contiguous ranges walked on one thread per
 * processor (etl_parallel_ranges()), each with its own caches; the ranges'
 * rows are joined in order, so the result does not depend on the number of
 * threads.
 */

#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include <string.h>

#include "etl-filter.h"
#include "etl-filter-private.h"
#include "etl-names.h"
#include "etl-parallel.h"
#include "etl-process-resolver.h"
#include "etl-worker.h"

#define CANCEL_CHECK_MASK 0x3FFF
#define MIN_ROWS_PER_WORKER 65536

/**
 * etl_filter_new:
 *
 * Returns: (transfer full): a filter that keeps every record
 */
EtlFilter *
etl_filter_new (void)
{
  return g_new0 (EtlFilter, 1);
}

/**
 * etl_filter_copy:
 * @filter: a filter
 *
 * Returns: (transfer full): a deep copy of @filter
 */
EtlFilter *
etl_filter_copy (const EtlFilter *filter)
{
  EtlFilter *copy;

  g_return_val_if_fail (filter != NULL, NULL);
  copy = g_memdup2 (filter, sizeof *filter);
  copy->provider = g_strdup (filter->provider);
  copy->text = g_strdup (filter->text);
  return copy;
}

/**
 * etl_filter_free:
 * @filter: (nullable) (transfer full): a filter
 */
void
etl_filter_free (EtlFilter *filter)
{
  if (filter == NULL)
    return;
  g_free (filter->provider);
  g_free (filter->text);
  g_free (filter);
}

static gboolean
str_empty (const char *s)
{
  return s == NULL || s[0] == '\0';
}

/**
 * etl_filter_is_empty:
 * @filter: (nullable): a filter
 *
 * Returns: %TRUE when @filter keeps every record
 */
gboolean
etl_filter_is_empty (const EtlFilter *filter)
{
  return filter == NULL
         || (str_empty (filter->provider) && !filter->has_pid && !filter->has_tid && str_empty (filter->text));
}

/**
 * etl_filter_equal:
 * @a: (nullable): a filter
 * @b: (nullable): a filter
 *
 * Returns: %TRUE when @a and @b keep the same records (%NULL equals an
 *   empty filter)
 */
gboolean
etl_filter_equal (const EtlFilter *a, const EtlFilter *b)
{
  if (etl_filter_is_empty (a) || etl_filter_is_empty (b))
    return etl_filter_is_empty (a) && etl_filter_is_empty (b);
  return g_strcmp0 (str_empty (a->provider) ? NULL : a->provider, str_empty (b->provider) ? NULL : b->provider) == 0
         && g_strcmp0 (str_empty (a->text) ? NULL : a->text, str_empty (b->text) ? NULL : b->text) == 0
         && a->has_pid == b->has_pid && (!a->has_pid || a->pid == b->pid)
         && a->has_tid == b->has_tid && (!a->has_tid || a->tid == b->tid);
}

/* ------------------------------------------------------------------------ */

/* One range's walk: the shared, read-only parts, and its own caches. */
typedef struct
{
  EtlTrace *trace;
  const EtlFilter *filter;
  const char *provider_needle;  /* casefolded, or NULL */
  const char *text_needle;      /* casefolded, or NULL */
  guint n_providers;
  /* Per provider index: -1 no readable record, else 0/1 (provider_prepass()). */
  const gint8 *provider_match;
  const gint8 *provider_text_match;
  EtlSchemaRegistry *registry;
  EtlProcessTable *processes;
  guint n_processes;
  GCancellable *cancellable;
  /* The range's own: */
  GHashTable *event_text_match; /* (kind, provider, hook, id, opcode) → 1 + match */
  gint8 *process_text_match;    /* per EtlProcess.index: -1 not known yet, else 0/1 */
  EtlProcessResolver *resolver; /* etl_process_table_resolve_record() and lookups, remembered */
  GArray *rows;                 /* guint64: the rows kept */
  gboolean cancelled;
} Walk;

/* Whether @haystack contains @needle_folded (casefolded, as
 * g_utf8_casefold() gives it) without regard to case.  An ASCII haystack
 * is searched in place: casefolding every decoded payload (a copy, one
 * character at a time) was a third of a text filter's time over 16 M
 * records.  Only for an ASCII needle, where ASCII case-insensitive
 * equality is what casefolding gives; any other haystack is casefolded as
 * before (non-ASCII characters may fold to ASCII ones, "ß" to "ss").
 * (etl-filter-private.h; test-filter compares it with casefolding.) */
gboolean
etl_filter_contains_folded (const char *haystack, const char *needle_folded)
{
  g_autofree char *folded = NULL;
  gsize n;

  if (haystack == NULL)
    return FALSE;
  n = strlen (needle_folded);
  for (const char *p = needle_folded; *p != '\0'; p++)
    if ((guchar)*p >= 0x80)
      goto fold;
  if (n == 0)
    return TRUE;
  for (const guchar *p = (const guchar *)haystack; *p != '\0'; p++)
    {
      guchar c = *p;

      if (c >= 0x80)
        goto fold; /* a match before it stands, but a later one may need folding: fold once */
      if ((c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c) == (guchar)needle_folded[0]
          && g_ascii_strncasecmp ((const char *)p, needle_folded, n) == 0)
        return TRUE;
    }
  return FALSE;

fold:
  folded = g_utf8_casefold (haystack, -1);
  return strstr (folded, needle_folded) != NULL;
}

/* Works out both provider matches from @record, the first record of
 * provider @p (or any record of an unindexed provider). */
static void
provider_matches (Walk *w, const EtlRecord *record, gboolean *by_provider, gboolean *by_text)
{
  g_autofree char *name = etl_record_dup_provider_name (record);

  *by_provider = TRUE;
  if (w->provider_needle != NULL)
    {
      char guid[ETL_GUID_STRING_LEN + 1];

      etl_guid_to_string (&record->provider, guid);
      *by_provider = etl_filter_contains_folded (name, w->provider_needle)
                     || etl_filter_contains_folded (guid, w->provider_needle);
    }
  *by_text = w->text_needle != NULL && etl_filter_contains_folded (name, w->text_needle);
}

static gboolean
event_text_matches (Walk *w, guint p, const EtlRecord *record)
{
  g_autofree char *name = NULL;
  gboolean cacheable = record->kind != ETL_RECORD_KIND_TRACELOGGING && p < w->n_providers;
  guint64 key = 0;
  gboolean match;

  if (cacheable)
    {
      gpointer value;

      key = ((guint64) (record->kind & 0x7) << 56) | ((guint64) (p & 0xFFFF) << 40)
            | ((guint64) record->hook_id << 24) | ((guint64) record->event_id << 8) | record->opcode;
      value = g_hash_table_lookup (w->event_text_match, &key);
      if (value != NULL)
        return GPOINTER_TO_INT (value) - 1;
    }
  name = etl_decode_dup_event_name (w->registry, record);
  match = etl_filter_contains_folded (name, w->text_needle);
  if (cacheable)
    g_hash_table_insert (w->event_text_match, g_memdup2 (&key, sizeof key), GINT_TO_POINTER (match + 1));
  return match;
}

/* The free text in @record's process name or decoded payload. */
static gboolean
content_text_matches (Walk *w, const EtlRecord *record)
{
  g_autoptr (EtlDecoded) decoded = etl_trace_decode_record (w->trace, record);
  const EtlProcess *process = NULL;
  guint32 pid = 0;
  gboolean have_pid;

  have_pid = w->resolver != NULL && etl_process_resolver_resolve (w->resolver, record, &pid, NULL);
  if (!have_pid && record->has_pid && record->pid != G_MAXUINT32)
    {
      pid = record->pid;
      have_pid = TRUE;
    }
  if (have_pid)
    {
      if (w->resolver != NULL)
        process = etl_process_resolver_lookup (w->resolver, pid, record->filetime);
      if (process != NULL && process->index < w->n_processes)
        {
          if (w->process_text_match[process->index] < 0)
            {
              g_autofree char *name = etl_process_format_name (process, pid);

              w->process_text_match[process->index] = etl_filter_contains_folded (name, w->text_needle);
            }
          if (w->process_text_match[process->index])
            return TRUE;
        }
      else
        {
          g_autofree char *name = etl_process_format_name (NULL, pid);

          if (etl_filter_contains_folded (name, w->text_needle))
            return TRUE;
        }
    }
  if (decoded->fields->len > 0)
    {
      g_autofree char *payload = etl_decoded_format_payload (decoded, 0);

      return etl_filter_contains_folded (payload, w->text_needle);
    }
  return FALSE;
}

/* Decides row @i.  Reads the record only when the index cannot answer. */
static gboolean
row_matches (Walk *w, guint64 i)
{
  const EtlFilter *f = w->filter;
  guint p = etl_trace_get_provider_index (w->trace, i);
  gboolean indexed = p < w->n_providers;
  gboolean need_record, by_provider = TRUE, by_text = FALSE;
  EtlRecord r;
  gboolean match = TRUE;

  if (f->has_pid)
    {
      guint32 pid;

      if (!etl_trace_get_pid (w->trace, i, &pid) || pid != f->pid)
        return FALSE;
    }

  if (indexed && w->provider_needle != NULL && w->provider_match[p] == 0)
    return FALSE;

  need_record = f->has_tid || !indexed
                || ((w->provider_needle != NULL || w->text_needle != NULL) && w->provider_match[p] < 0)
                || (w->text_needle != NULL && w->provider_text_match[p] != 1);
  if (!need_record)
    return TRUE;

  if (!etl_trace_get_record (w->trace, i, &r, NULL))
    return FALSE;

  if (!indexed || w->provider_match[p] < 0)
    provider_matches (w, &r, &by_provider, &by_text);
  else
    {
      by_provider = w->provider_match[p];
      by_text = w->provider_text_match[p];
    }

  if (!by_provider)
    match = FALSE;
  else if (f->has_tid && (!r.has_pid || r.tid != f->tid))
    match = FALSE;
  else if (w->text_needle != NULL && !by_text)
    match = event_text_matches (w, p, &r) || content_text_matches (w, &r);

  etl_record_clear (&r);
  return match;
}

/* Works out each provider's matches from its first readable record, before
 * the ranges are walked, so that every range uses the same ones.  Reads the
 * index until every provider has one (the first few thousand rows of a
 * usual trace).  %FALSE when cancelled. */
static gboolean
provider_prepass (Walk *w, gint8 *provider_match, gint8 *provider_text_match, guint64 n)
{
  guint left = w->n_providers;

  memset (provider_match, -1, w->n_providers + 1);
  memset (provider_text_match, -1, w->n_providers + 1);
  for (guint64 i = 0; i < n && left > 0; i++)
    {
      guint p = etl_trace_get_provider_index (w->trace, i);
      EtlRecord r;
      gboolean by_provider, by_text;

      if ((i & CANCEL_CHECK_MASK) == 0 && g_cancellable_is_cancelled (w->cancellable))
        return FALSE;
      if (p >= w->n_providers || provider_match[p] >= 0 || !etl_trace_get_record (w->trace, i, &r, NULL))
        continue;
      provider_matches (w, &r, &by_provider, &by_text);
      provider_match[p] = by_provider;
      provider_text_match[p] = by_text;
      etl_record_clear (&r);
      left--;
    }
  return TRUE;
}

static void
walk_range (guint worker, guint64 first, guint64 last, gpointer data)
{
  Walk *w = &((Walk *)data)[worker];

  w->rows = g_array_new (FALSE, FALSE, sizeof (guint64));
  w->event_text_match = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  w->process_text_match = g_new (gint8, w->n_processes + 1);
  memset (w->process_text_match, -1, w->n_processes + 1);
  w->resolver = w->processes != NULL ? etl_process_resolver_new (w->processes) : NULL;
  for (guint64 i = first; i < last; i++)
    {
      if (((i - first) & CANCEL_CHECK_MASK) == 0 && g_cancellable_is_cancelled (w->cancellable))
        {
          w->cancelled = TRUE;
          return;
        }
      if (row_matches (w, i))
        g_array_append_val (w->rows, i);
    }
}

/* etl_filter_apply() on @n_workers threads (0: one per processor); the
 * result does not depend on @n_workers (etl-filter-private.h). */
EtlRowSet *
etl_filter_apply_with_workers (EtlTrace *trace, const EtlFilter *filter, guint n_workers,
                               GCancellable *cancellable, GError **error)
{
  guint64 n, total = 0;
  g_autofree char *provider_needle = NULL;
  g_autofree char *text_needle = NULL;
  g_autofree gint8 *provider_match = NULL;
  g_autofree gint8 *provider_text_match = NULL;
  g_autofree Walk *walks = NULL;
  Walk w = { 0 };
  gboolean cancelled = FALSE;
  EtlRowSet *set = NULL;

  g_return_val_if_fail (trace != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  n = etl_trace_get_n_records (trace);
  if (etl_filter_is_empty (filter))
    return etl_row_set_new_all (n);

  provider_needle = str_empty (filter->provider) ? NULL : g_utf8_casefold (filter->provider, -1);
  text_needle = str_empty (filter->text) ? NULL : g_utf8_casefold (filter->text, -1);
  w.trace = trace;
  w.filter = filter;
  w.provider_needle = provider_needle;
  w.text_needle = text_needle;
  w.n_providers = etl_trace_get_n_providers (trace);
  w.registry = etl_trace_get_schema_registry (trace);
  w.processes = etl_trace_get_process_table (trace);
  if (w.processes != NULL)
    etl_process_table_get_processes (w.processes, &w.n_processes);
  w.cancellable = cancellable;
  provider_match = g_new (gint8, w.n_providers + 1);
  provider_text_match = g_new (gint8, w.n_providers + 1);
  w.provider_match = provider_match;
  w.provider_text_match = provider_text_match;
  if (provider_needle != NULL || text_needle != NULL)
    cancelled = !provider_prepass (&w, provider_match, provider_text_match, n);
  else
    {
      memset (provider_match, 1, w.n_providers + 1);
      memset (provider_text_match, 0, w.n_providers + 1);
    }

  if (n_workers == 0)
    n_workers = etl_parallel_n_workers (n, MIN_ROWS_PER_WORKER);
  walks = g_new0 (Walk, n_workers);
  for (guint i = 0; i < n_workers; i++)
    walks[i] = w;
  if (!cancelled)
    etl_parallel_ranges (n_workers, 0, n, walk_range, walks);

  for (guint i = 0; i < n_workers; i++)
    {
      cancelled |= walks[i].cancelled;
      total += walks[i].rows != NULL ? walks[i].rows->len : 0;
    }
  if (cancelled || g_cancellable_is_cancelled (cancellable))
    {
      if (!g_cancellable_set_error_if_cancelled (cancellable, error))
        g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, "Cancelled");
    }
  else
    {
      /* The ranges' rows, joined in order. */
      guint64 *data = g_new (guint64, MAX (total, 1));
      guint64 at = 0;

      for (guint i = 0; i < n_workers; i++)
        {
          if (walks[i].rows->len > 0)
            memcpy (data + at, walks[i].rows->data, walks[i].rows->len * sizeof (guint64));
          at += walks[i].rows->len;
        }
      set = etl_row_set_new_take (data, total);
    }
  for (guint i = 0; i < n_workers; i++)
    {
      g_clear_pointer (&walks[i].rows, g_array_unref);
      g_clear_pointer (&walks[i].event_text_match, g_hash_table_unref);
      g_clear_pointer (&walks[i].process_text_match, g_free);
      g_clear_pointer (&walks[i].resolver, etl_process_resolver_free);
    }
  return set;
}

/**
 * etl_filter_apply:
 * @trace: a trace
 * @filter: (nullable): which records to keep; %NULL keeps all
 * @cancellable: (nullable): checked every 16 Ki rows
 * @error: return location for a #GError
 *
 * Walks @trace's merged sequence and keeps the rows @filter passes, on one
 * thread per processor (see the section overview).  A record that cannot be
 * re-read is dropped when the filter needs it (thread or text), kept
 * otherwise.  Thread-safe: it may run in a worker while the main thread
 * reads the same trace.
 *
 * Returns: (transfer full) (nullable): the rows kept, every row
 *   (etl_row_set_new_all()) when @filter is empty, or %NULL with
 *   %G_IO_ERROR_CANCELLED
 */
EtlRowSet *
etl_filter_apply (EtlTrace *trace, const EtlFilter *filter, GCancellable *cancellable, GError **error)
{
  return etl_filter_apply_with_workers (trace, filter, 0, cancellable, error);
}

typedef struct
{
  EtlTrace *trace;
  EtlFilter *filter;
} ApplyData;

static void
apply_data_free (gpointer data)
{
  ApplyData *ad = data;

  etl_trace_unref (ad->trace);
  etl_filter_free (ad->filter);
  g_free (ad);
}

static void
apply_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  ApplyData *ad = task_data;
  GError *error = NULL;
  EtlRowSet *set = etl_filter_apply (ad->trace, ad->filter, cancellable, &error);

  if (set == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, set, (GDestroyNotify) etl_row_set_unref);
}

/**
 * etl_filter_apply_async:
 * @trace: a trace (a reference is held until the task completes)
 * @filter: (nullable): which records to keep (copied)
 * @cancellable: (nullable): a #GCancellable
 * @callback: called in the thread-default main context when done
 * @user_data: closure for @callback
 *
 * Runs etl_filter_apply() in a worker thread (#GTask).
 */
void
etl_filter_apply_async (EtlTrace *trace,
                        const EtlFilter *filter,
                        GCancellable *cancellable,
                        GAsyncReadyCallback callback,
                        gpointer user_data)
{
  g_autoptr (GTask) task = NULL;
  ApplyData *ad;

  g_return_if_fail (trace != NULL);

  ad = g_new0 (ApplyData, 1);
  ad->trace = etl_trace_ref (trace);
  ad->filter = filter != NULL ? etl_filter_copy (filter) : NULL;

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, etl_filter_apply_async);
  g_task_set_task_data (task, ad, apply_data_free);
  etl_worker_run (task, apply_thread);
}

/**
 * etl_filter_apply_finish:
 * @result: the #GAsyncResult given to the callback
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): the rows kept, or %NULL with @error
 *   set (%G_IO_ERROR_CANCELLED)
 */
EtlRowSet *
etl_filter_apply_finish (GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}
