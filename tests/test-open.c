/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test-open: the parallel open (etl_trace_set_open_threads()) gives exactly
 * what a single-threaded open gives: the same `etlscope-cli dump
 * --format=jsonl` and `info` bytes on every corpus file and on a synthetic
 * multi-file merge, the same index through every accessor; and the compact
 * index entry's edge cases: more distinct PIDs than its table holds, records
 * near the end of 16 MiB buffers, a stream out of time order (the serial
 * fallback and the sort), cancellation.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "etl-format-private.h"
#include "etl-synth.h"
#include "etl-test-util.h"
#include "etl-trace.h"
#include "etl-trace-private.h"
#include "etl-writer.h"

/* ------------------------------------------------------------------------ */
/* Helpers                                                                  */

static char *
run_cli (const char *const *args, int *status)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (GSubprocess) proc = NULL;
  g_autoptr (GError) error = NULL;
  const char *cli = g_getenv ("ETLSCOPE_CLI");
  char *out = NULL;
  g_autofree char *err = NULL;

  g_assert_nonnull (cli);
  g_ptr_array_add (argv, (gpointer) cli);
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  proc = etl_test_subprocess_newv ((const char *const *) argv->pdata,
                            G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE, &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (proc, NULL, NULL, &out, &err, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_exited (proc));
  *status = g_subprocess_get_exit_status (proc);
  /* stderr (problems) must match too */
  {
    char *both = g_strconcat (out, "\n--stderr--\n", err, NULL);

    g_free (out);
    return both;
  }
}

/* `etlscope-cli COMMAND [OPTION] --threads N FILES` with 1 and with @threads threads: same bytes. */
static void
assert_cli_same (const char *command, const char *option, const char *const *files, guint threads)
{
  g_autofree char *many = g_strdup_printf ("%u", threads);
  const char *counts[] = { "1", many };
  char *out[2] = { NULL, NULL };
  int status[2];

  for (guint t = 0; t < 2; t++)
    {
      g_autoptr (GPtrArray) args = g_ptr_array_new ();

      g_ptr_array_add (args, (gpointer) command);
      if (option != NULL)
        g_ptr_array_add (args, (gpointer) option);
      g_ptr_array_add (args, (gpointer) "--threads");
      g_ptr_array_add (args, (gpointer) counts[t]);
      for (guint i = 0; files[i] != NULL; i++)
        g_ptr_array_add (args, (gpointer) files[i]);
      g_ptr_array_add (args, NULL);
      out[t] = run_cli ((const char *const *) args->pdata, &status[t]);
    }
  /* Both runs succeed: two runs failing the same way are no agreement. */
  if (status[0] != 0 || status[1] != 0)
    g_test_message ("%s exited %d (1 thread) and %d (%u threads):\n%s", command, status[0], status[1], threads,
                    out[status[0] != 0 ? 0 : 1]);
  g_assert_cmpint (status[0], ==, 0);
  g_assert_cmpint (status[1], ==, 0);
  g_assert_cmpuint (strlen (out[0]), >, 20);
  g_assert_cmpuint (strlen (out[0]), ==, strlen (out[1]));
  g_assert_cmpstr (out[0], ==, out[1]);
  g_free (out[0]);
  g_free (out[1]);
}

/* Everything an open found, through the public accessors, as text. */
static char *
trace_fingerprint (EtlTrace *trace)
{
  GString *s = g_string_new (NULL);
  const EtlLoss *losses;
  guint n_losses;

  g_string_append_printf (s, "records %" G_GUINT64_FORMAT " cpus %u first %" G_GINT64_FORMAT " last %" G_GINT64_FORMAT
                          "\n", etl_trace_get_n_records (trace), etl_trace_get_n_cpus (trace),
                          etl_trace_get_first_filetime (trace), etl_trace_get_last_filetime (trace));
  for (guint p = 0; p < etl_trace_get_n_providers (trace); p++)
    {
      const EtlGuid *g = etl_trace_get_provider (trace, p);

      g_string_append_printf (s, "provider %u %08x-%04x-%04x\n", p, g->data1, g->data2, g->data3);
    }
  for (guint f = 0; f < etl_trace_get_n_files (trace); f++)
    {
      const EtlFileInfo *info = etl_trace_get_file_info (trace, f);

      g_string_append_printf (s, "file %u records %" G_GUINT64_FORMAT " skipped %" G_GUINT64_FORMAT " first %"
                              G_GINT64_FORMAT " last %" G_GINT64_FORMAT " dropped %" G_GUINT64_FORMAT "\n", f,
                              info->n_records, info->n_skipped, info->first_filetime, info->last_filetime,
                              info->n_problems_dropped);
      for (guint t = 0; t < ETL_N_HEADER_TYPES; t++)
        g_string_append_printf (s, " %" G_GUINT64_FORMAT, info->records_by_header_type[t]);
      g_string_append_c (s, '\n');
      for (guint i = 0; i < info->problems->len; i++)
        g_string_append_printf (s, "problem %s\n", ((GError *) g_ptr_array_index (info->problems, i))->message);
    }
  {
    guint n_processes, n_threads;

    etl_process_table_get_processes (etl_trace_get_process_table (trace), &n_processes);
    etl_process_table_get_threads (etl_trace_get_process_table (trace), &n_threads);
    g_string_append_printf (s, "processes %u threads %u\n", n_processes, n_threads);
  }
  losses = etl_trace_get_losses (trace, &n_losses);
  for (guint i = 0; i < n_losses; i++)
    g_string_append_printf (s, "loss %" G_GINT64_FORMAT " %u %d %d %" G_GUINT64_FORMAT " %" G_GINT64_FORMAT "\n",
                            losses[i].filetime, losses[i].file, losses[i].cpu, (int) losses[i].kind, losses[i].count,
                            losses[i].sequence);
  for (guint64 i = 0; i < etl_trace_get_n_records (trace); i++)
    {
      guint32 pid = 0;
      gboolean has_pid = etl_trace_get_pid (trace, i, &pid);

      g_string_append_printf (s, "%" G_GINT64_FORMAT " %u %u %d %u %u\n", etl_trace_get_filetime (trace, i),
                              etl_trace_get_cpu (trace, i), etl_trace_get_file (trace, i), has_pid ? (int) pid : -1,
                              etl_trace_get_provider_index (trace, i), etl_trace_get_header_type (trace, i));
    }
  return g_string_free (s, FALSE);
}

static EtlTrace *
open_with_threads (const char *const *paths, guint threads)
{
  g_autoptr (GError) error = NULL;
  EtlTrace *trace;

  etl_trace_set_open_threads (threads);
  trace = etl_trace_open (paths, NULL, NULL, NULL, &error);
  etl_trace_set_open_threads (0);
  g_assert_no_error (error);
  g_assert_nonnull (trace);
  return trace;
}

/* Opens @paths with the serial walk, with 1 and with @threads threads: the
 * same fingerprint; returns the 1-thread trace. */
static EtlTrace *
assert_open_same (const char *const *paths, guint threads)
{
  g_autoptr (EtlTrace) serial = NULL;
  EtlTrace *one;
  g_autoptr (EtlTrace) many = NULL;
  g_autofree char *s = NULL;
  g_autofree char *a = NULL;
  g_autofree char *b = NULL;

  etl_trace_set_serial_open_for_testing (TRUE);
  serial = open_with_threads (paths, 1);
  etl_trace_set_serial_open_for_testing (FALSE);
  one = open_with_threads (paths, 1);
  many = open_with_threads (paths, threads);
  s = trace_fingerprint (serial);
  a = trace_fingerprint (one);
  b = trace_fingerprint (many);
  g_assert_cmpstr (s, ==, a);
  g_assert_cmpstr (a, ==, b);
  return one;
}

static void
put_u16 (guint8 *p, guint16 v)
{
  p[0] = (guint8) v;
  p[1] = (guint8) (v >> 8);
}

static void
put_u32 (guint8 *p, guint32 v)
{
  put_u16 (p, (guint16) v);
  put_u16 (p + 2, (guint16) (v >> 16));
}

static void
put_u64 (guint8 *p, guint64 v)
{
  put_u32 (p, (guint32) v);
  put_u32 (p + 4, (guint32) (v >> 32));
}

/* A SYSTEM64 kernel record (DiskIo Read, HookId 0x0A0A) of @size bytes. */
static void
system_record (guint8 *p, gsize size, guint32 pid, gint64 ts)
{
  memset (p, 0, size);
  put_u16 (p, 2);
  p[2] = ETL_HEADER_TYPE_SYSTEM64;
  p[3] = ETL_MARKER_TRACE_HEADER_FLAG | ETL_MARKER_EVENT_TRACE_FLAG;
  put_u16 (p + 4, (guint16) size);
  put_u16 (p + 6, 0x0A0A);
  put_u32 (p + 8, pid + 1);
  put_u32 (p + 12, pid);
  put_u64 (p + 16, (guint64) ts);
}

static EtlWriter *
writer_new (const char *path, guint32 buffer_size)
{
  EtlWriterHeader h;
  g_autoptr (GError) error = NULL;
  EtlWriter *w;

  etl_writer_header_init (&h);
  h.buffer_size = buffer_size;
  w = etl_writer_new (path, &h, &error);
  g_assert_no_error (error);
  return w;
}

static void
writer_close (EtlWriter *w)
{
  g_autoptr (GError) error = NULL;

  g_assert_true (etl_writer_close (w, NULL, &error));
  g_assert_no_error (error);
  etl_writer_free (w);
}

/* ------------------------------------------------------------------------ */
/* Tests                                                                    */

/* Every corpus file (top level and real/): dump --format=jsonl and info
 * exit 0 and print the same bytes with 1 thread and with 3; the open's
 * fingerprint is the same serial, with 1 and with 2 threads. */
static void
test_corpus (void)
{
  g_autoptr (GPtrArray) names = etl_test_corpus_list ();

  if (names->len == 0)
    {
      etl_test_corpus_missing (etl_test_corpus_dir ());
      return;
    }
  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *path = etl_test_corpus_path (g_ptr_array_index (names, i));
      const char *files[] = { path, NULL };
      g_autoptr (EtlTrace) trace = NULL;

      g_test_message ("%s", files[0]);
      assert_cli_same ("dump", "--format=jsonl", files, 3);
      assert_cli_same ("info", NULL, files, 3);
      trace = assert_open_same (files, 2);
    }
}

/* Three synthetic files (different clocks, processors, losses) merged. */
static void
test_synth_merge (void)
{
  g_autofree char *dir = g_dir_make_tmp ("etl-open-XXXXXX", NULL);
  char *paths[4] = { NULL, NULL, NULL, NULL };
  const EtlClockType clocks[] = { ETL_CLOCK_QPC, ETL_CLOCK_SYSTEM_TIME, ETL_CLOCK_CPU_CYCLE };
  g_autoptr (EtlTrace) trace = NULL;

  g_assert_nonnull (dir);
  for (guint i = 0; i < 3; i++)
    {
      EtlSynthParams params;
      g_autoptr (GError) error = NULL;
      g_autofree char *name = g_strdup_printf ("synth%u.etl", i);

      etl_synth_params_init (&params);
      params.n_cpus = 2 + i;
      params.n_records = i == 0 ? 150000 : 20000;
      params.buffer_kb = i == 0 ? 16 : 64;
      params.clock = clocks[i];
      params.loss_rate = i == 1 ? 0.1 : 0.0;
      params.seed = 7 + i;
      paths[i] = g_build_filename (dir, name, NULL);
      g_assert_true (etl_synth_write (&params, paths[i], &error));
      g_assert_no_error (error);
    }
  /* 8 threads: the 150,000-record file's streams are cut into several segments. */
  trace = assert_open_same ((const char *const *) paths, 8);
  g_assert_cmpuint (etl_trace_get_n_records (trace), >, 190000);
  g_assert_cmpuint (etl_trace_get_n_files (trace), ==, 3);
  assert_cli_same ("dump", "--format=jsonl", (const char *const *) paths, 4);
  assert_cli_same ("info", NULL, (const char *const *) paths, 4);
  assert_cli_same ("losses", NULL, (const char *const *) paths, 4);
  assert_cli_same ("processes", NULL, (const char *const *) paths, 4);
  /* Windows keeps a mapped file until it is unmapped: close it first. */
  g_clear_pointer (&trace, etl_trace_unref);
  for (guint i = 0; i < 3; i++)
    {
      g_assert_cmpint (g_remove (paths[i]), ==, 0);
      g_free (paths[i]);
    }
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

/* 70,000 distinct PIDs: more than the index's PID table holds (65,534);
 * the rest are read again from the record header, and all are right. */
static void
test_many_pids (void)
{
  g_autofree char *dir = g_dir_make_tmp ("etl-open-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "pids.etl", NULL);
  const char *paths[] = { path, NULL };
  const guint n = 70000;
  EtlWriter *w = writer_new (path, 64 * 1024);
  guint8 rec[32];
  g_autoptr (EtlTrace) trace = NULL;
  guint64 first;
  guint n_checked = 0;

  for (guint i = 0; i < n; i++)
    {
      g_autoptr (GError) error = NULL;

      system_record (rec, sizeof rec, 1000 + 4 * i, 100 + i);
      g_assert_true (etl_writer_add_record (w, i % 2, rec, sizeof rec, 100 + i, &error));
    }
  writer_close (w);

  trace = assert_open_same (paths, 2);
  /* the EventTrace header record comes first */
  first = etl_trace_get_n_records (trace) - n;
  g_assert_cmpuint (etl_trace_get_n_records (trace), >=, n);
  for (guint64 i = first; i < etl_trace_get_n_records (trace); i++)
    {
      guint32 pid = 0;
      EtlRecord r;

      g_assert_true (etl_trace_get_pid (trace, i, &pid));
      g_assert_true (etl_trace_get_record (trace, i, &r, NULL));
      g_assert_cmpuint (pid, ==, r.pid);
      g_assert_cmpuint (pid, ==, 1000 + 4 * (guint32) (i - first));
      etl_record_clear (&r);
      n_checked++;
    }
  g_assert_cmpuint (n_checked, ==, n);
  g_clear_pointer (&trace, etl_trace_unref); /* Windows keeps a mapped file */
  g_assert_cmpint (g_remove (path), ==, 0);
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

/* 16 MiB buffers (BufferSize 16384 KB, the largest): records up to the end of
 * the buffer, whose offsets need all 22 bits of the entry's offset / 8. */
static void
test_large_buffers (void)
{
  g_autofree char *dir = g_dir_make_tmp ("etl-open-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "large.etl", NULL);
  const char *paths[] = { path, NULL };
  const guint32 buffer_size = 16 * 1024 * 1024;
  const gsize size = 4096;
  const guint n = 2 * (buffer_size / size);
  EtlWriter *w = writer_new (path, buffer_size);
  g_autofree guint8 *rec = g_malloc (size);
  g_autoptr (EtlTrace) trace = NULL;
  guint64 max_offset = 0, first;

  for (guint i = 0; i < n; i++)
    {
      g_autoptr (GError) error = NULL;

      system_record (rec, size, 4, 1000 + i);
      g_assert_true (etl_writer_add_record (w, 0, rec, size, 1000 + i, &error));
    }
  writer_close (w);

  trace = assert_open_same (paths, 2);
  first = etl_trace_get_n_records (trace) - n;
  for (guint64 i = first; i < etl_trace_get_n_records (trace); i++)
    {
      EtlRecord r;
      guint64 in_buffer;

      g_assert_true (etl_trace_get_record (trace, i, &r, NULL));
      g_assert_cmpuint (r.size, ==, size);
      g_assert_cmpint (r.ts_raw, ==, 1000 + (gint64) (i - first));
      g_assert_cmpint (r.filetime, ==, etl_trace_get_filetime (trace, i));
      in_buffer = r.file_offset % buffer_size;
      max_offset = MAX (max_offset, in_buffer);
      etl_record_clear (&r);
    }
  /* the last record of a full buffer starts 4096 bytes before its end, or less */
  g_assert_cmpuint (max_offset, >=, buffer_size - 2 * size);
  g_assert_cmpuint (max_offset, <, buffer_size);
  g_clear_pointer (&trace, etl_trace_unref); /* Windows keeps a mapped file */
  g_assert_cmpint (g_remove (path), ==, 0);
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

/* A processor's stream out of time order: the open falls back to the serial
 * merge and sorts; the result is sorted and the same with any thread count. */
static void
test_out_of_order (void)
{
  g_autofree char *dir = g_dir_make_tmp ("etl-open-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "skew.etl", NULL);
  const char *paths[] = { path, NULL };
  const guint n = 30000;
  EtlWriter *w = writer_new (path, 4096);
  guint8 rec[32];
  g_autoptr (EtlTrace) trace = NULL;

  for (guint i = 0; i < n; i++)
    {
      g_autoptr (GError) error = NULL;
      /* CPU 1 runs backwards; CPU 0 forwards, interleaved with it */
      gint64 ts = i % 2 ? 10 * (gint64) (n - i) : 10 * (gint64) i + 5;

      system_record (rec, sizeof rec, i % 300, ts);
      g_assert_true (etl_writer_add_record (w, i % 2, rec, sizeof rec, ts, &error));
    }
  writer_close (w);

  trace = assert_open_same (paths, 3);
  g_assert_cmpuint (etl_trace_get_n_records (trace), >=, n);
  for (guint64 i = 1; i < etl_trace_get_n_records (trace); i++)
    g_assert_cmpint (etl_trace_get_filetime (trace, i - 1), <=, etl_trace_get_filetime (trace, i));
  assert_cli_same ("dump", "--format=jsonl", paths, 3);
  g_clear_pointer (&trace, etl_trace_unref); /* Windows keeps a mapped file */
  g_assert_cmpint (g_remove (path), ==, 0);
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

/* A cancelled open returns G_IO_ERROR_CANCELLED with any thread count. */
static void
test_cancelled (void)
{
  g_autofree char *dir = g_dir_make_tmp ("etl-open-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "c.etl", NULL);
  const char *paths[] = { path, NULL };
  EtlSynthParams params;
  g_autoptr (GError) error = NULL;
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();

  etl_synth_params_init (&params);
  params.n_cpus = 4;
  params.n_records = 20000;
  g_assert_true (etl_synth_write (&params, path, &error));
  g_cancellable_cancel (cancellable);
  for (guint threads = 1; threads <= 4; threads += 3)
    {
      g_autoptr (GError) e = NULL;
      EtlTrace *trace;

      etl_trace_set_open_threads (threads);
      trace = etl_trace_open (paths, NULL, NULL, cancellable, &e);
      etl_trace_set_open_threads (0);
      g_assert_null (trace);
      g_assert_error (e, G_IO_ERROR, G_IO_ERROR_CANCELLED);
    }
  g_assert_cmpint (g_remove (path), ==, 0);
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

/* The thread count: set, automatic (ETLSCOPE_THREADS, else the processors), capped. */
static void
test_thread_setting (void)
{
  etl_trace_set_open_threads (5);
  g_assert_cmpuint (etl_trace_get_open_threads (), ==, 5);
  etl_trace_set_open_threads (1000);
  g_assert_cmpuint (etl_trace_get_open_threads (), ==, 64);
  etl_trace_set_open_threads (0);
  g_setenv ("ETLSCOPE_THREADS", "3", TRUE);
  g_assert_cmpuint (etl_trace_get_open_threads (), ==, 3);
  g_setenv ("ETLSCOPE_THREADS", "nonsense", TRUE);
  g_assert_cmpuint (etl_trace_get_open_threads (), ==, MIN (MAX (g_get_num_processors (), 1), 64));
  g_unsetenv ("ETLSCOPE_THREADS");
  g_assert_cmpuint (etl_trace_get_open_threads (), ==, MIN (MAX (g_get_num_processors (), 1), 64));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/etl/open/thread-setting", test_thread_setting);
  g_test_add_func ("/etl/open/corpus-1-vs-n-threads", test_corpus);
  g_test_add_func ("/etl/open/synth-multi-file", test_synth_merge);
  g_test_add_func ("/etl/open/pid-table-overflow", test_many_pids);
  g_test_add_func ("/etl/open/16mib-buffers", test_large_buffers);
  g_test_add_func ("/etl/open/out-of-order-stream", test_out_of_order);
  g_test_add_func ("/etl/open/cancelled", test_cancelled);
  return g_test_run ();
}
