/* SPDX-License-Identifier: GPL-3.0-or-later */

/* EtlDocument without a display: open (real record counts, signals),
 * filter (row counts taken from etlscope-cli's output, not from the
 * filter), cancel, markers (signals, the markers file), problems of
 * missing and corrupt files, export and selection.  The main loop runs
 * until each job has reported. */

#include "config.h"

#include <string.h>

#include "etl-document.h"
#include "etl-names.h"
#include "etl-test-util.h"

#define NET "net.4.5.2.x64.etl"
#define PRIMITIVE "primitive-types.etl"
/* Records of net.4.5.2.x64.etl (corpus README, an independent reader). */
#define NET_RECORDS 179474
/* Records of primitive-types.etl (corpus README). */
#define PRIMITIVE_RECORDS 7

/* Counts each signal and keeps the last open's outcome. */
typedef struct
{
  EtlDocument *doc;
  guint n_loaded;
  guint n_load_failed;
  guint n_rows_changed;
  guint n_markers_changed;
  guint n_selection_changed;
  guint n_schemas_changed;
  guint n_jobs_finished;
  guint n_filter_jobs_finished;
  guint n_progress_notifies;
  guint n_trace_notifies;
  GError *load_error; /* from load-failed */
  /* The callback of the last job started with start_*(). */
  gboolean done;
  gboolean ok;
  GError *error;
  EtlWriterStats stats;
  EtlManifestInfo info;
  char *dir; /* a temporary folder */
} Fixture;

static void
on_loaded (EtlDocument *doc, Fixture *f)
{
  f->n_loaded++;
}

static void
on_load_failed (EtlDocument *doc, const GError *error, Fixture *f)
{
  f->n_load_failed++;
  g_clear_error (&f->load_error);
  f->load_error = g_error_copy (error);
}

static void
on_rows_changed (EtlDocument *doc, Fixture *f)
{
  f->n_rows_changed++;
}

static void
on_markers_changed (EtlDocument *doc, Fixture *f)
{
  f->n_markers_changed++;
}

static void
on_selection_changed (EtlDocument *doc, Fixture *f)
{
  f->n_selection_changed++;
}

static void
on_schemas_changed (EtlDocument *doc, Fixture *f)
{
  f->n_schemas_changed++;
}

static void
on_job_finished (EtlDocument *doc, const char *job, const GError *error, Fixture *f)
{
  f->n_jobs_finished++;
}

static void
on_filter_job_finished (EtlDocument *doc, const char *job, const GError *error, Fixture *f)
{
  g_assert_cmpstr (job, ==, "filter");
  f->n_filter_jobs_finished++;
}

static void
on_notify_progress (GObject *object, GParamSpec *pspec, Fixture *f)
{
  f->n_progress_notifies++;
}

static void
on_notify_trace (GObject *object, GParamSpec *pspec, Fixture *f)
{
  f->n_trace_notifies++;
}

static void
fixture_setup (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;

  f->doc = etl_document_new ();
  g_signal_connect (f->doc, "loaded", G_CALLBACK (on_loaded), f);
  g_signal_connect (f->doc, "load-failed", G_CALLBACK (on_load_failed), f);
  g_signal_connect (f->doc, "rows-changed", G_CALLBACK (on_rows_changed), f);
  g_signal_connect (f->doc, "markers-changed", G_CALLBACK (on_markers_changed), f);
  g_signal_connect (f->doc, "selection-changed", G_CALLBACK (on_selection_changed), f);
  g_signal_connect (f->doc, "schemas-changed", G_CALLBACK (on_schemas_changed), f);
  g_signal_connect (f->doc, "job-finished", G_CALLBACK (on_job_finished), f);
  g_signal_connect (f->doc, "job-finished::filter", G_CALLBACK (on_filter_job_finished), f);
  g_signal_connect (f->doc, "notify::progress", G_CALLBACK (on_notify_progress), f);
  g_signal_connect (f->doc, "notify::trace", G_CALLBACK (on_notify_trace), f);
  f->dir = g_dir_make_tmp ("etl-document-XXXXXX", &error);
  g_assert_no_error (error);
}

/* A job's tasks hold the document until their worker thread has let go of
 * them, just after their callback ran: only the test's reference left. */
static gboolean
document_alone (gpointer data)
{
  return g_atomic_int_get ((gint *) &G_OBJECT (data)->ref_count) == 1;
}

static void
fixture_teardown (Fixture *f, gconstpointer data)
{
  /* Jobs hold the document: let the cancelled ones report. */
  etl_document_cancel (f->doc);
  etl_test_wait_for (document_alone, f->doc, "the document's jobs to end");
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_assert_finalize_object (f->doc);
  g_clear_error (&f->load_error);
  g_clear_error (&f->error);
  etl_manifest_info_clear (&f->info);
  etl_test_rm_rf (f->dir);
  g_free (f->dir);
}

static gboolean
job_done (gpointer data)
{
  return ((Fixture *) data)->done;
}

static void
reset_job (Fixture *f)
{
  f->done = FALSE;
  f->ok = FALSE;
  g_clear_error (&f->error);
}

static void
on_open_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  Fixture *f = user_data;

  f->ok = etl_document_open_finish (ETL_DOCUMENT (source), result, &f->error);
  f->done = TRUE;
}

static void
start_open (Fixture *f, const char *const *paths)
{
  reset_job (f);
  etl_document_open_async (f->doc, paths, NULL, on_open_done, f);
}

/* Opens corpus file @name and waits; FALSE when it is missing (skipped). */
static gboolean
open_corpus (Fixture *f, const char *name)
{
  g_autofree char *path = etl_test_corpus_path (name);

  if (path == NULL)
    return FALSE;
  start_open (f, (const char *const[]) { path, NULL });
  etl_test_wait_for (job_done, f, "the open to end");
  g_assert_no_error (f->error);
  g_assert_true (f->ok);
  return TRUE;
}

static gboolean
rows_changed_once_more (gpointer data)
{
  Fixture *f = data;

  return f->n_rows_changed > 0 && !etl_document_get_filtering (f->doc);
}

/* Sets @text and waits for its rows; returns how many the row set keeps. */
static guint64
filter_by_text (Fixture *f, const char *text)
{
  f->n_rows_changed = 0;
  etl_document_set_filter_text (f->doc, text);
  etl_test_wait_for (rows_changed_once_more, f, "the filter's rows");
  g_assert_cmpuint (f->n_rows_changed, ==, 1);
  return etl_row_set_get_n (etl_document_get_row_set (f->doc));
}

/* Open ------------------------------------------------------------------- */

static void
test_open_primitive (Fixture *f, gconstpointer data)
{
  EtlRowSet *rows;
  guint n_top = 0;
  const EtlDocumentProvider *top;
  g_autoptr (GPtrArray) problems = NULL;

  g_assert_null (etl_document_get_trace (f->doc));
  g_assert_null (etl_document_get_row_set (f->doc));
  g_assert_false (etl_document_get_busy (f->doc));
  if (!open_corpus (f, PRIMITIVE))
    return;

  g_assert_cmpuint (f->n_loaded, ==, 1);
  g_assert_cmpuint (f->n_load_failed, ==, 0);
  g_assert_cmpuint (f->n_trace_notifies, ==, 1);
  g_assert_cmpuint (f->n_jobs_finished, ==, 1);
  /* An open announces itself with loaded, not rows-changed. */
  g_assert_cmpuint (f->n_rows_changed, ==, 0);
  g_assert_nonnull (etl_document_get_trace (f->doc));
  g_assert_cmpuint (etl_document_get_n_records (f->doc), ==, PRIMITIVE_RECORDS);
  rows = etl_document_get_row_set (f->doc);
  g_assert_true (etl_row_set_is_all (rows));
  g_assert_cmpuint (etl_row_set_get_n (rows), ==, PRIMITIVE_RECORDS);
  g_assert_nonnull (etl_document_get_schema_registry (f->doc));
  g_assert_nonnull (etl_document_get_process_table (f->doc));
  g_assert_nonnull (etl_document_get_summary (f->doc));
  g_assert_cmpuint (etl_summary_get_n_records (etl_document_get_summary (f->doc)), ==, PRIMITIVE_RECORDS);
  g_assert_nonnull (etl_document_get_loss_summary (f->doc));
  g_assert_cmpint (etl_document_get_selected_record (f->doc), ==, ETL_DOCUMENT_NO_RECORD);
  g_assert_false (etl_document_get_range (f->doc, NULL, NULL));
  g_assert_false (etl_document_get_busy (f->doc));
  g_assert_false (etl_document_get_loading (f->doc));
  g_assert_cmpfloat (etl_document_get_progress (f->doc), ==, 0.0);
  g_assert_null (etl_document_get_progress_label (f->doc));
  problems = etl_document_dup_problems (f->doc);
  g_assert_cmpuint (problems->len, ==, 0);
  /* The EventTrace header (2 records: header type 2 in the README) and
   * the solar_system TraceLogging provider (5 records, type 19). */
  top = etl_document_get_top_providers (f->doc, &n_top);
  g_assert_cmpuint (n_top, ==, 2);
  g_assert_cmpuint (top[0].count, ==, 5);
  g_assert_cmpuint (top[1].count, ==, 2);
  g_assert_cmpstr (top[1].name, ==, "EventTrace");

  /* Close: nothing open, the filter and signals as documented. */
  etl_document_close (f->doc);
  g_assert_null (etl_document_get_trace (f->doc));
  g_assert_null (etl_document_get_row_set (f->doc));
  g_assert_cmpuint (etl_document_get_n_records (f->doc), ==, 0);
  g_assert_cmpuint (f->n_trace_notifies, ==, 2);
  g_assert_cmpuint (f->n_loaded, ==, 1);
}

/* The big file: its record count, its most frequent provider (etlscope-cli
 * stats: PerfInfo, 79,530 records), and progress that changes at most once
 * a poll (50 ms) however often the reader reports. */
static void
test_open_net (Fixture *f, gconstpointer data)
{
  const EtlDocumentProvider *top;
  guint n_top = 0;
  gint64 t0 = g_get_monotonic_time ();
  gint64 elapsed_ms;

  if (!open_corpus (f, NET))
    return;
  elapsed_ms = (g_get_monotonic_time () - t0) / 1000;

  g_assert_cmpuint (f->n_loaded, ==, 1);
  g_assert_cmpuint (etl_document_get_n_records (f->doc), ==, NET_RECORDS);
  g_assert_cmpuint (etl_row_set_get_n (etl_document_get_row_set (f->doc)), ==, NET_RECORDS);
  top = etl_document_get_top_providers (f->doc, &n_top);
  g_assert_cmpuint (n_top, ==, ETL_DOCUMENT_MAX_TOP_PROVIDERS);
  g_assert_cmpstr (top[0].name, ==, "PerfInfo");
  g_assert_cmpuint (top[0].count, ==, 79530);
  g_assert_cmpstr (top[1].name, ==, "Microsoft-Windows-DotNETRuntimeRundown");
  g_assert_cmpuint (top[1].count, ==, 33011);
  g_assert_nonnull (etl_document_get_stacks (f->doc));
  /* At the start, once per poll at most, and at the end. */
  g_test_message ("open: %" G_GINT64_FORMAT " ms, %u progress notifications", elapsed_ms, f->n_progress_notifies);
  g_assert_cmpuint (f->n_progress_notifies, <=, elapsed_ms / 50 + 3);
}

/* A file that does not exist, and one that is not an .etl file: the error
 * names the file, load-failed carries it, nothing is loaded, and what was
 * open stays. */
static void
test_open_bad (Fixture *f, gconstpointer data)
{
  g_autofree char *missing = g_build_filename (f->dir, "missing.etl", NULL);
  g_autofree char *corrupt = g_build_filename (f->dir, "corrupt.etl", NULL);
  g_autofree char *garbage = g_malloc (65536);
  g_autoptr (GError) error = NULL;

  if (!open_corpus (f, PRIMITIVE))
    return;

  start_open (f, (const char *const[]) { missing, NULL });
  etl_test_wait_for (job_done, f, "the open of a missing file to end");
  g_assert_false (f->ok);
  g_assert_error (f->error, ETL_ERROR, ETL_ERROR_OPEN);
  g_assert_nonnull (strstr (f->error->message, missing));
  g_assert_cmpuint (f->n_load_failed, ==, 1);
  g_assert_error (f->load_error, ETL_ERROR, ETL_ERROR_OPEN);
  g_assert_cmpstr (f->load_error->message, ==, f->error->message);
  g_assert_cmpuint (f->n_loaded, ==, 1);
  g_assert_cmpuint (etl_document_get_n_records (f->doc), ==, PRIMITIVE_RECORDS);

  /* 64 KiB of a repeating pattern: no WMI_BUFFER_HEADER, no header record. */
  for (guint i = 0; i < 65536; i++)
    garbage[i] = (char) (i * 7 + 3);
  g_file_set_contents (corrupt, garbage, 65536, &error);
  g_assert_no_error (error);
  start_open (f, (const char *const[]) { corrupt, NULL });
  etl_test_wait_for (job_done, f, "the open of a corrupt file to end");
  g_assert_false (f->ok);
  g_assert_error (f->error, ETL_ERROR, ETL_ERROR_NOT_ETL);
  g_assert_nonnull (strstr (f->error->message, corrupt));
  g_assert_cmpuint (f->n_load_failed, ==, 2);
  g_assert_cmpuint (f->n_loaded, ==, 1);
  g_assert_cmpuint (etl_document_get_n_records (f->doc), ==, PRIMITIVE_RECORDS);
  g_assert_false (etl_document_get_busy (f->doc));
}

/* A set with a missing file: the rest opens, the missing one is the first
 * problem. */
static void
test_open_set (Fixture *f, gconstpointer data)
{
  g_autofree char *path = etl_test_corpus_path (PRIMITIVE);
  g_autofree char *missing = g_build_filename (f->dir, "gone.etl", NULL);
  g_autoptr (GPtrArray) problems = NULL;

  if (path == NULL)
    return;
  start_open (f, (const char *const[]) { path, missing, NULL });
  etl_test_wait_for (job_done, f, "the open of a set to end");
  g_assert_no_error (f->error);
  g_assert_cmpuint (f->n_loaded, ==, 1);
  g_assert_cmpuint (f->n_load_failed, ==, 0);
  g_assert_cmpuint (etl_document_get_n_records (f->doc), ==, PRIMITIVE_RECORDS);
  g_assert_cmpuint (etl_trace_get_n_files (etl_document_get_trace (f->doc)), ==, 1);
  problems = etl_document_dup_problems (f->doc);
  g_assert_cmpuint (problems->len, ==, 1);
  g_assert_nonnull (strstr (g_ptr_array_index (problems, 0), missing));
}

/* Cancel ------------------------------------------------------------------ */

/* The big file's open cancelled at once: cancelled, no loaded, busy off at
 * once; the document then opens another file, and a cancelled open leaves
 * that one open. */
static void
test_cancel (Fixture *f, gconstpointer data)
{
  g_autofree char *net = etl_test_corpus_path (NET);

  if (net == NULL)
    return;
  start_open (f, (const char *const[]) { net, NULL });
  g_assert_true (etl_document_get_busy (f->doc));
  g_assert_true (etl_document_get_loading (f->doc));
  g_assert_cmpstr (etl_document_get_progress_label (f->doc), ==, "Loading " NET "…");
  etl_document_cancel (f->doc);
  g_assert_false (etl_document_get_busy (f->doc));
  g_assert_false (etl_document_get_loading (f->doc));
  g_assert_null (etl_document_get_progress_label (f->doc));
  etl_test_wait_for (job_done, f, "the cancelled open to report");
  g_assert_false (f->ok);
  g_assert_error (f->error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpuint (f->n_loaded, ==, 0);
  g_assert_cmpuint (f->n_load_failed, ==, 0);
  g_assert_cmpuint (f->n_jobs_finished, ==, 1);
  g_assert_null (etl_document_get_trace (f->doc));

  /* Usable afterwards. */
  if (!open_corpus (f, PRIMITIVE))
    return;
  g_assert_cmpuint (f->n_loaded, ==, 1);
  g_assert_cmpuint (etl_document_get_n_records (f->doc), ==, PRIMITIVE_RECORDS);

  /* A second open replaces the first (cancelled), and a cancelled open
   * keeps what is open. */
  start_open (f, (const char *const[]) { net, NULL });
  etl_document_cancel_jobs (f->doc, ETL_DOCUMENT_JOB_OPEN);
  etl_test_wait_for (job_done, f, "the cancelled open to report");
  g_assert_error (f->error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpuint (f->n_loaded, ==, 1);
  g_assert_cmpuint (etl_document_get_n_records (f->doc), ==, PRIMITIVE_RECORDS);
}

/* Filter ------------------------------------------------------------------ */

/* Figures from `etlscope-cli stats` and `etlscope-cli dump` on
 * net.4.5.2.x64.etl, counted with a script over its JSON lines, not with
 * EtlFilter: records_by_provider TcpIp = 490; DotNETRuntime matches
 * Microsoft-Windows-DotNETRuntime (32,730), -DotNETRuntimeRundown (33,011)
 * and -DotNETRuntimePrivate (1,627) = 67,368; "DiskIO/Read" is in the
 * event name of 2,416 records and nowhere else; "TcpIp" is in the provider
 * name of those 490 and in the payload of 58 more (tcpip.sys loads and
 * file names: 548). */
static void
test_filter (Fixture *f, gconstpointer data)
{
  g_autoptr (EtlFilter) filter = etl_filter_new ();
  EtlRowSet *rows;

  if (!open_corpus (f, NET))
    return;

  filter->provider = g_strdup ("TcpIp");
  f->n_rows_changed = 0;
  etl_document_set_filter (f->doc, filter);
  g_assert_true (etl_document_get_filtering (f->doc));
  g_assert_true (etl_document_get_busy (f->doc));
  etl_test_wait_for (rows_changed_once_more, f, "the provider filter's rows");
  rows = etl_document_get_row_set (f->doc);
  g_assert_false (etl_row_set_is_all (rows));
  g_assert_cmpuint (etl_row_set_get_n (rows), ==, 490);
  g_assert_false (etl_document_get_filtering (f->doc));
  g_assert_cmpuint (f->n_filter_jobs_finished, ==, 1);

  g_free (filter->provider);
  filter->provider = g_strdup ("DotNETRuntime");
  f->n_rows_changed = 0;
  etl_document_set_filter (f->doc, filter);
  etl_test_wait_for (rows_changed_once_more, f, "the provider filter's rows");
  g_assert_cmpuint (etl_row_set_get_n (etl_document_get_row_set (f->doc)), ==, 67368);
  /* The same filter again runs nothing. */
  etl_document_set_filter (f->doc, filter);
  g_assert_false (etl_document_get_filtering (f->doc));

  /* Free text, with the provider filter dropped. */
  etl_document_set_filter (f->doc, NULL);
  g_assert_cmpuint (etl_row_set_get_n (etl_document_get_row_set (f->doc)), ==, NET_RECORDS);
  g_assert_cmpuint (filter_by_text (f, "DiskIO/Read"), ==, 2416);
  g_assert_cmpstr (etl_document_get_filter_text (f->doc), ==, "DiskIO/Read");
  g_assert_cmpuint (filter_by_text (f, "TcpIp"), ==, 548);

  /* A filter replaced before it ends: only the last one's rows arrive,
   * the first job ends cancelled. */
  f->n_rows_changed = 0;
  f->n_filter_jobs_finished = 0;
  etl_document_set_filter_text (f->doc, "DiskIO/Read");
  etl_document_set_filter_text (f->doc, "udpip");
  etl_test_wait_for (rows_changed_once_more, f, "the second filter's rows");
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_assert_cmpuint (f->n_rows_changed, ==, 1);
  g_assert_cmpuint (f->n_filter_jobs_finished, ==, 2);
  g_assert_cmpuint (etl_row_set_get_n (etl_document_get_row_set (f->doc)), ==, 45);

  /* No filter: every row at once, no job. */
  f->n_rows_changed = 0;
  g_object_set (f->doc, "filter-text", "", NULL);
  g_assert_false (etl_document_get_filtering (f->doc));
  g_assert_cmpuint (f->n_rows_changed, ==, 1);
  g_assert_true (etl_row_set_is_all (etl_document_get_row_set (f->doc)));
}

/* The context menu's conditions: keep only a record's provider, then leave
 * out its event (etlscope-cli dump: the first TcpIp record is a
 * TcpIp/SendIPV6, 240 of the provider's 490; 250 are TcpIp/RecvIPV6);
 * then only record 0's process, counted directly from the index. */
static void
test_conditions (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  EtlTrace *trace;
  guint64 tcp = G_MAXUINT64, expected = 0;
  const char *name = NULL;
  gboolean exclude = TRUE;
  guint32 pid = 0;

  if (!open_corpus (f, NET))
    return;
  trace = etl_document_get_trace (f->doc);
  for (guint64 i = 0; i < etl_trace_get_n_records (trace) && tcp == G_MAXUINT64; i++)
    {
      EtlRecord r;

      g_assert_true (etl_trace_get_record (trace, i, &r, NULL));
      {
        g_autofree char *provider = etl_record_dup_provider_name (&r);

        if (g_strcmp0 (provider, "TcpIp") == 0)
          tcp = i;
      }
      etl_record_clear (&r);
    }
  g_assert_cmpuint (tcp, ==, 2751);

  g_assert_true (etl_document_add_condition (f->doc, "provider", FALSE, tcp, &error));
  g_assert_no_error (error);
  etl_test_wait_for (rows_changed_once_more, f, "the condition's rows");
  g_assert_cmpuint (etl_row_set_get_n (etl_document_get_row_set (f->doc)), ==, 490);
  g_assert_cmpuint (etl_document_get_n_conditions (f->doc), ==, 1);
  g_assert_cmpstr (etl_document_get_condition (f->doc, 0, &exclude, &name), ==, "provider");
  g_assert_false (exclude);
  g_assert_cmpstr (name, ==, "TcpIp");

  f->n_rows_changed = 0;
  g_assert_true (etl_document_add_condition (f->doc, "event", TRUE, tcp, &error));
  g_assert_no_error (error);
  etl_test_wait_for (rows_changed_once_more, f, "the conditions' rows");
  g_assert_cmpuint (etl_row_set_get_n (etl_document_get_row_set (f->doc)), ==, 250);
  g_assert_cmpstr (etl_document_get_condition (f->doc, 1, &exclude, &name), ==, "event");
  g_assert_true (exclude);
  g_assert_cmpstr (name, ==, "TcpIp/SendIPV6");

  /* Errors: nothing added.  A TcpIp record (PERFINFO) has no process id. */
  g_assert_false (etl_document_add_condition (f->doc, "colour", FALSE, tcp, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_false (etl_document_add_condition (f->doc, "provider", FALSE, NET_RECORDS, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_false (etl_document_add_condition (f->doc, "process", FALSE, tcp, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_clear_error (&error);
  g_assert_cmpuint (etl_document_get_n_conditions (f->doc), ==, 2);

  /* Cleared: every row again, at once. */
  f->n_rows_changed = 0;
  etl_document_clear_conditions (f->doc);
  g_assert_cmpuint (f->n_rows_changed, ==, 1);
  g_assert_true (etl_row_set_is_all (etl_document_get_row_set (f->doc)));
  g_assert_cmpuint (etl_document_get_n_conditions (f->doc), ==, 0);

  /* Only record 0's process (PerfView.exe, 3988). */
  g_assert_true (etl_trace_get_pid (trace, 0, &pid));
  g_assert_cmpuint (pid, ==, 3988);
  for (guint64 i = 0; i < etl_trace_get_n_records (trace); i++)
    {
      guint32 p;

      if (etl_trace_get_pid (trace, i, &p) && p == pid)
        expected++;
    }
  f->n_rows_changed = 0;
  g_assert_true (etl_document_add_condition (f->doc, "process", FALSE, 0, &error));
  g_assert_no_error (error);
  etl_test_wait_for (rows_changed_once_more, f, "the process condition's rows");
  g_assert_cmpuint (etl_row_set_get_n (etl_document_get_row_set (f->doc)), ==, expected);
  g_assert_cmpuint (expected, >, 0);
}

/* Selection ---------------------------------------------------------------- */

static void
test_selection (Fixture *f, gconstpointer data)
{
  gint64 start = 0, end = 0;

  if (!open_corpus (f, NET))
    return;
  etl_document_set_selected_record (f->doc, 5);
  g_assert_cmpint (etl_document_get_selected_record (f->doc), ==, 5);
  g_assert_cmpuint (f->n_selection_changed, ==, 1);
  etl_document_set_selected_record (f->doc, 5);
  g_assert_cmpuint (f->n_selection_changed, ==, 1);
  etl_document_set_selected_record (f->doc, NET_RECORDS);
  g_assert_cmpint (etl_document_get_selected_record (f->doc), ==, ETL_DOCUMENT_NO_RECORD);
  g_assert_cmpuint (f->n_selection_changed, ==, 2);

  etl_document_set_range (f->doc, 1000, 2000);
  g_assert_true (etl_document_get_range (f->doc, &start, &end));
  g_assert_cmpint (start, ==, 1000);
  g_assert_cmpint (end, ==, 2000);
  g_assert_cmpuint (f->n_selection_changed, ==, 3);
  etl_document_set_range (f->doc, 5, 5);
  g_assert_false (etl_document_get_range (f->doc, NULL, NULL));
  g_assert_cmpuint (f->n_selection_changed, ==, 4);

  /* Record 0 is the EventTrace header: a TcpIp filter hides it, and it is
   * no longer selected. */
  etl_document_set_selected_record (f->doc, 0);
  g_assert_cmpuint (f->n_selection_changed, ==, 5);
  filter_by_text (f, "TcpIp");
  g_assert_cmpint (etl_document_get_selected_record (f->doc), ==, ETL_DOCUMENT_NO_RECORD);
  g_assert_cmpuint (f->n_selection_changed, ==, 6);
}

/* Markers ------------------------------------------------------------------ */

static void
test_markers (Fixture *f, gconstpointer data)
{
  g_autofree char *file = g_build_filename (f->dir, "sub", "markers.ini", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (GKeyFile) kf = g_key_file_new ();
  g_autofree char *group = NULL;
  g_autoptr (EtlDocument) other = NULL;
  gint64 t = 0;
  gint64 first;

  etl_document_set_markers_file (f->doc, file);
  if (!open_corpus (f, PRIMITIVE))
    return;
  g_assert_cmpuint (f->n_markers_changed, ==, 0);
  g_assert_cmpuint (etl_document_get_n_markers (f->doc), ==, 0);
  first = etl_trace_get_first_filetime (etl_document_get_trace (f->doc));

  g_assert_true (etl_document_add_marker (f->doc, first + 300, "third", &error));
  g_assert_no_error (error);
  g_assert_true (etl_document_add_marker (f->doc, first + 100, "first", &error));
  g_assert_true (etl_document_add_marker (f->doc, first + 200, "second", &error));
  g_assert_cmpuint (f->n_markers_changed, ==, 3);
  g_assert_cmpuint (etl_document_get_n_markers (f->doc), ==, 3);
  g_assert_cmpstr (etl_document_get_marker (f->doc, 0, &t), ==, "first");
  g_assert_cmpint (t, ==, first + 100);
  g_assert_cmpstr (etl_document_get_marker (f->doc, 2, &t), ==, "third");
  g_assert_null (etl_document_get_marker (f->doc, 3, NULL));

  g_assert_true (etl_document_remove_marker (f->doc, 1, &error));
  g_assert_cmpuint (f->n_markers_changed, ==, 4);
  g_assert_cmpuint (etl_document_get_n_markers (f->doc), ==, 2);
  g_assert_cmpstr (etl_document_get_marker (f->doc, 1, NULL), ==, "third");

  /* The file holds them under the trace's group. */
  g_assert_true (g_key_file_load_from_file (kf, file, G_KEY_FILE_NONE, &error));
  g_assert_no_error (error);
  group = etl_document_dup_markers_group (f->doc);
  g_assert_cmpuint (strlen (group), ==, 64);
  {
    g_auto (GStrv) names = g_key_file_get_string_list (kf, group, "names", NULL, &error);

    g_assert_no_error (error);
    g_assert_cmpuint (g_strv_length (names), ==, 2);
    g_assert_cmpstr (names[0], ==, "first");
    g_assert_cmpstr (names[1], ==, "third");
  }

  /* Another document opening the same file reads them: markers-changed
   * follows loaded. */
  other = etl_document_new ();
  g_object_set (other, "markers-file", file, NULL);
  {
    Fixture o = { .doc = other };

    g_signal_connect (other, "markers-changed", G_CALLBACK (on_markers_changed), &o);
    g_signal_connect (other, "loaded", G_CALLBACK (on_loaded), &o);
    g_assert_true (open_corpus (&o, PRIMITIVE));
    g_assert_cmpuint (o.n_loaded, ==, 1);
    g_assert_cmpuint (o.n_markers_changed, ==, 1);
    g_assert_cmpuint (etl_document_get_n_markers (other), ==, 2);
    g_assert_cmpstr (etl_document_get_marker (other, 0, NULL), ==, "first");

    /* Cleared, written, read back as none. */
    g_assert_true (etl_document_clear_markers (other, &error));
    g_assert_cmpuint (o.n_markers_changed, ==, 2);
    g_assert_true (etl_document_clear_markers (other, &error));
    g_assert_cmpuint (o.n_markers_changed, ==, 2);
    g_assert_true (g_key_file_load_from_file (kf, file, G_KEY_FILE_NONE, &error));
    g_assert_false (g_key_file_has_group (kf, group));
    g_signal_handlers_disconnect_by_data (other, &o);
    g_clear_error (&o.error);
  }
  etl_test_wait_for (document_alone, other, "the other document's jobs to end");
  g_assert_finalize_object (g_steal_pointer (&other));

  /* (De)serialisation without a file. */
  g_key_file_set_string_list (kf, group, "filetimes", (const char *const[]) { "7", "3" }, 2);
  g_key_file_set_string_list (kf, group, "names", (const char *const[]) { "b", "a" }, 2);
  f->n_markers_changed = 0;
  g_assert_cmpuint (etl_document_load_markers (f->doc, kf), ==, 2);
  g_assert_cmpuint (f->n_markers_changed, ==, 1);
  g_assert_cmpstr (etl_document_get_marker (f->doc, 0, &t), ==, "a");
  g_assert_cmpint (t, ==, 3);
  g_key_file_remove_group (kf, group, NULL);
  etl_document_save_markers (f->doc, kf);
  {
    g_autofree char *times = g_key_file_get_string (kf, group, "filetimes", NULL);
    g_autofree char *names = g_key_file_get_string (kf, group, "names", NULL);

    g_assert_cmpstr (times, ==, "3;7;");
    g_assert_cmpstr (names, ==, "a;b;");
  }
}

/* Export ------------------------------------------------------------------- */

static void
on_export_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  Fixture *f = user_data;

  f->ok = etl_document_export_finish (ETL_DOCUMENT (source), result, &f->stats, &f->error);
  f->done = TRUE;
}

/* The TcpIp provider's 490 records, exported and read back. */
static void
test_export (Fixture *f, gconstpointer data)
{
  g_autofree char *out = g_build_filename (f->dir, "tcpip.etl", NULL);
  g_autoptr (EtlFilter) filter = etl_filter_new ();
  g_autoptr (EtlTrace) back = NULL;
  g_autoptr (GError) error = NULL;

  if (!open_corpus (f, NET))
    return;
  filter->provider = g_strdup ("TcpIp");
  f->n_rows_changed = 0;
  etl_document_set_filter (f->doc, filter);
  etl_test_wait_for (rows_changed_once_more, f, "the provider filter's rows");

  reset_job (f);
  etl_document_export_async (f->doc, out, G_MININT64, G_MAXINT64, on_export_done, f);
  g_assert_cmpstr (etl_document_get_progress_label (f->doc), ==, "Exporting tcpip.etl…");
  etl_test_wait_for (job_done, f, "the export to end");
  g_assert_no_error (f->error);
  g_assert_true (f->ok);
  g_assert_cmpuint (f->stats.n_records, ==, 490);
  g_assert_null (etl_document_get_progress_label (f->doc));

  back = etl_trace_open ((const char *const[]) { out, NULL }, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  /* The 490 records and the EventTrace header record. */
  g_assert_cmpuint (etl_trace_get_n_records (back), ==, 491);
}

/* Manifest ----------------------------------------------------------------- */

static void
on_manifest_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  Fixture *f = user_data;

  f->ok = etl_document_load_manifest_finish (ETL_DOCUMENT (source), result, &f->info, &f->error);
  f->done = TRUE;
}

static void
test_manifest (Fixture *f, gconstpointer data)
{
  g_autofree char *man = etl_test_corpus_path ("manifests/ClrEtwAll.man");
  g_auto (GStrv) manifests = NULL;

  if (man == NULL || !open_corpus (f, PRIMITIVE))
    return;
  reset_job (f);
  etl_document_load_manifest_async (f->doc, man, on_manifest_done, f);
  g_assert_true (etl_document_get_busy (f->doc));
  etl_test_wait_for (job_done, f, "the manifest to load");
  g_assert_no_error (f->error);
  g_assert_true (f->ok);
  g_assert_cmpuint (f->info.n_providers, >, 0);
  g_assert_cmpuint (f->info.n_events, >, 0);
  g_assert_cmpuint (f->n_schemas_changed, ==, 1);
  manifests = etl_document_dup_manifests (f->doc);
  g_assert_cmpuint (g_strv_length (manifests), ==, 1);
  g_assert_cmpstr (manifests[0], ==, man);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add ("/etl/document/open/primitive-types", Fixture, NULL, fixture_setup, test_open_primitive,
              fixture_teardown);
  g_test_add ("/etl/document/open/net", Fixture, NULL, fixture_setup, test_open_net, fixture_teardown);
  g_test_add ("/etl/document/open/bad-files", Fixture, NULL, fixture_setup, test_open_bad, fixture_teardown);
  g_test_add ("/etl/document/open/set-with-missing-file", Fixture, NULL, fixture_setup, test_open_set,
              fixture_teardown);
  g_test_add ("/etl/document/cancel", Fixture, NULL, fixture_setup, test_cancel, fixture_teardown);
  g_test_add ("/etl/document/filter", Fixture, NULL, fixture_setup, test_filter, fixture_teardown);
  g_test_add ("/etl/document/conditions", Fixture, NULL, fixture_setup, test_conditions, fixture_teardown);
  g_test_add ("/etl/document/selection", Fixture, NULL, fixture_setup, test_selection, fixture_teardown);
  g_test_add ("/etl/document/markers", Fixture, NULL, fixture_setup, test_markers, fixture_teardown);
  g_test_add ("/etl/document/export", Fixture, NULL, fixture_setup, test_export, fixture_teardown);
  g_test_add ("/etl/document/manifest", Fixture, NULL, fixture_setup, test_manifest, fixture_teardown);

  return g_test_run ();
}
