/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test-process-table: processes and threads keyed by id and lifetime, from
 * hand-made lifetime records and from the corpus's Process/Thread records.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "etl-process-resolver.h"
#include "etl-process-table.h"
#include "etl-synth.h"
#include "etl-test-util.h"
#include "etl-trace.h"

#define MS (G_GINT64_CONSTANT (10000)) /* FILETIME ticks in a millisecond */
#define T0 G_GINT64_CONSTANT (132404548206236167)

static void
add (EtlProcessTable *t, EtlLifetimeEvent event, gint64 when, guint32 pid, guint32 parent,
     const char *image, const char *command_line)
{
  EtlProcessInfo info = { 0 };

  info.pid = pid;
  info.parent_pid = parent;
  info.session_id = 1;
  info.image_name = image;
  info.command_line = command_line;
  etl_process_table_add_process (t, event, when, &info);
}

/* A pid reused: each record finds the lifetime that was running then. */
static void
test_pid_reuse (void)
{
  g_autoptr (EtlProcessTable) t = etl_process_table_new (NULL);
  const EtlProcess *p, *list;
  guint n;
  g_autofree char *name = NULL;
  g_autofree char *short_name = NULL;

  /* Added out of time order on purpose: finish() orders them. */
  add (t, ETL_LIFETIME_START, T0 + 500 * MS, 100, 4,
       "\\Device\\HarddiskVolume2\\Windows\\notepad.exe", "notepad a.txt");
  add (t, ETL_LIFETIME_RUNDOWN_START, T0 + 1 * MS, 100, 8, "cmd.exe", "cmd /c build");
  add (t, ETL_LIFETIME_END, T0 + 200 * MS, 100, 8, "cmd.exe", "cmd /c build");
  add (t, ETL_LIFETIME_END, T0 + 900 * MS, 100, 4, "notepad.exe", NULL);
  add (t, ETL_LIFETIME_RUNDOWN_START, T0 + 2 * MS, 4, 0, "System", NULL);
  etl_process_table_finish (t);

  list = etl_process_table_get_processes (t, &n);
  g_assert_cmpuint (n, ==, 3);
  /* Running at the start first, by pid; then by start time. */
  g_assert_cmpuint (list[0].pid, ==, 4);
  g_assert_cmpuint (list[1].pid, ==, 100);
  g_assert_cmpstr (list[1].image_name, ==, "cmd.exe");
  g_assert_cmpint (list[1].start_time, ==, 0);
  g_assert_cmpint (list[1].end_time, ==, T0 + 200 * MS);
  g_assert_cmpuint (list[2].pid, ==, 100);
  g_assert_cmpstr (list[2].image_name, ==, "notepad.exe");
  g_assert_cmpstr (list[2].command_line, ==, "notepad a.txt");
  g_assert_cmpuint (list[2].parent_pid, ==, 4);
  g_assert_cmpint (list[2].start_time, ==, T0 + 500 * MS);
  g_assert_cmpint (list[2].end_time, ==, T0 + 900 * MS);
  g_assert_cmpuint (list[2].index, ==, 2);

  /* Before its first record, during, after the end, after the reuse. */
  p = etl_process_table_lookup (t, 100, T0 - 50 * MS);
  g_assert_cmpstr (p->image_name, ==, "cmd.exe");
  p = etl_process_table_lookup (t, 100, T0 + 100 * MS);
  g_assert_cmpstr (p->image_name, ==, "cmd.exe");
  p = etl_process_table_lookup (t, 100, T0 + 300 * MS);
  g_assert_cmpstr (p->image_name, ==, "cmd.exe"); /* ended, not yet reused */
  p = etl_process_table_lookup (t, 100, T0 + 500 * MS);
  g_assert_cmpstr (p->image_name, ==, "notepad.exe");
  p = etl_process_table_lookup (t, 100, T0 + 5000 * MS);
  g_assert_cmpstr (p->image_name, ==, "notepad.exe");
  g_assert_null (etl_process_table_lookup (t, 101, T0));

  name = etl_process_format_name (p, p->pid);
  g_assert_cmpstr (name, ==, "notepad.exe (100)");
  short_name = etl_process_dup_short_name (p);
  g_assert_cmpstr (short_name, ==, "notepad");
  g_clear_pointer (&name, g_free);
  name = etl_process_format_name (NULL, 616);
  g_assert_cmpstr (name, ==, "Process(616)");
}

/* The kernel's Process/Start and Microsoft-Windows-Kernel-Process
 * ProcessStart of one creation merge; so do a DCStart and its DCEnd. */
static void
test_merge (void)
{
  g_autoptr (EtlProcessTable) t = etl_process_table_new (NULL);
  EtlProcessInfo info = { 0 };
  const EtlProcess *list;
  guint n;

  info.pid = 3676;
  info.parent_pid = 3508;
  info.session_id = 1;
  info.create_time = T0 + 2733 * MS - 5;
  info.image_name = "\\Device\\Mup\\clrmain\\Test.x64.exe";
  etl_process_table_add_process (t, ETL_LIFETIME_START, T0 + 2733 * MS, &info);
  info.create_time = 0;
  info.image_name = "Test.x64.exe";
  info.command_line = "Test.x64.exe";
  info.unique_process_key = G_GUINT64_CONSTANT (0xfffffa8300cfb380);
  etl_process_table_add_process (t, ETL_LIFETIME_START, T0 + 2733 * MS + 10, &info);
  info.exit_status = 0;
  etl_process_table_add_process (t, ETL_LIFETIME_END, T0 + 8202 * MS, &info);
  etl_process_table_add_process (t, ETL_LIFETIME_END, T0 + 8202 * MS + 10, &info);

  memset (&info, 0, sizeof info);
  info.pid = 456;
  info.session_id = G_MAXUINT32;
  info.image_name = "smss.exe";
  etl_process_table_add_process (t, ETL_LIFETIME_RUNDOWN_START, T0 + 28 * MS, &info);
  info.command_line = "\\SystemRoot\\System32\\smss.exe";
  etl_process_table_add_process (t, ETL_LIFETIME_RUNDOWN_END, T0 + 9975 * MS, &info);
  etl_process_table_finish (t);
  etl_process_table_finish (t); /* a second call does nothing */

  list = etl_process_table_get_processes (t, &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpuint (list[0].pid, ==, 456);
  g_assert_cmpint (list[0].start_time, ==, 0);
  g_assert_cmpint (list[0].end_time, ==, 0);
  g_assert_cmpstr (list[0].command_line, ==, "\\SystemRoot\\System32\\smss.exe");
  g_assert_cmpuint (list[0].session_id, ==, G_MAXUINT32);
  g_assert_cmpint (list[0].first_seen, ==, T0 + 28 * MS);
  g_assert_cmpint (list[0].last_seen, ==, T0 + 9975 * MS);
  g_assert_cmpuint (list[1].pid, ==, 3676);
  g_assert_cmpstr (list[1].image_name, ==, "Test.x64.exe");
  g_assert_cmpstr (list[1].command_line, ==, "Test.x64.exe");
  g_assert_cmpint (list[1].start_time, ==, T0 + 2733 * MS - 5); /* CreateTime */
  g_assert_cmpint (list[1].end_time, ==, T0 + 8202 * MS);
  g_assert_cmpuint (list[1].parent_pid, ==, 3508);
  g_assert_cmpuint (list[1].session_id, ==, 1);
  g_assert_cmpuint (list[1].unique_process_key, ==, G_GUINT64_CONSTANT (0xfffffa8300cfb380));
}

/* Threads: owner by time, names, reuse; records resolved through them. */
static void
test_threads (void)
{
  g_autoptr (EtlProcessTable) t = etl_process_table_new (NULL);
  const EtlThread *th, *threads;
  const EtlProcess *p;
  EtlRecord r = { 0 };
  guint32 pid, tid;
  guint n;

  add (t, ETL_LIFETIME_RUNDOWN_START, T0, 4, 0, "System", NULL);
  add (t, ETL_LIFETIME_START, T0 + 10 * MS, 3676, 3508, "Test.x64.exe", NULL);
  etl_process_table_add_thread (t, ETL_LIFETIME_RUNDOWN_START, T0, 4, 44, NULL);
  etl_process_table_add_thread (t, ETL_LIFETIME_START, T0 + 11 * MS, 3676, 3680, NULL);
  etl_process_table_add_thread (t, ETL_LIFETIME_INFO, T0 + 12 * MS, G_MAXUINT32, 3680, "Main");
  etl_process_table_add_thread (t, ETL_LIFETIME_END, T0 + 20 * MS, 3676, 3680, NULL);
  etl_process_table_add_thread (t, ETL_LIFETIME_START, T0 + 30 * MS, 4, 3680, NULL);
  etl_process_table_finish (t);

  threads = etl_process_table_get_threads (t, &n);
  g_assert_cmpuint (n, ==, 3);
  g_assert_cmpuint (threads[0].tid, ==, 44);
  th = etl_process_table_lookup_thread (t, 3680, T0 + 15 * MS);
  g_assert_nonnull (th);
  g_assert_cmpuint (th->pid, ==, 3676);
  g_assert_cmpstr (th->name, ==, "Main");
  g_assert_cmpint (th->end_time, ==, T0 + 20 * MS);
  g_assert_nonnull (th->process);
  g_assert_cmpstr (th->process->image_name, ==, "Test.x64.exe");
  th = etl_process_table_lookup_thread (t, 3680, T0 + 31 * MS);
  g_assert_cmpuint (th->pid, ==, 4);
  g_assert_null (th->name);

  /* A PERFINFO record has no pid in its header: only its thread tells. */
  r.kind = ETL_RECORD_KIND_PERFINFO;
  r.filetime = T0 + 15 * MS;
  g_assert_false (etl_process_table_resolve_record (t, &r, NULL, &pid, &tid));
  /* A manifest record's header names its process. */
  r.kind = ETL_RECORD_KIND_MANIFEST;
  r.has_pid = TRUE;
  r.pid = 3676;
  r.tid = 3680;
  g_assert_true (etl_process_table_resolve_record (t, &r, NULL, &pid, &tid));
  g_assert_cmpuint (pid, ==, 3676);
  g_assert_cmpuint (tid, ==, 3680);
  p = etl_process_table_lookup_record (t, &r, NULL);
  g_assert_nonnull (p);
  g_assert_cmpstr (p->image_name, ==, "Test.x64.exe");
  /* A kernel record whose header pid is -1 falls back to its thread. */
  r.kind = ETL_RECORD_KIND_KERNEL;
  r.pid = G_MAXUINT32;
  r.tid = 44;
  p = etl_process_table_lookup_record (t, &r, NULL);
  g_assert_nonnull (p);
  g_assert_cmpuint (p->pid, ==, 4);
}

/* The corpus: every process of net.4.5.2.x64 that TraceEvent names. */
static void
test_corpus (void)
{
  g_autofree char *path = etl_test_corpus_path ("net.4.5.2.x64.etl");
  const char *paths[2] = { NULL, NULL };
  g_autoptr (EtlTrace) trace = NULL;
  g_autoptr (GError) error = NULL;
  EtlProcessTable *table;
  const EtlProcess *p;
  const EtlThread *th;
  guint n, n_threads;
  gint64 origin;

  if (path == NULL)
    return;
  paths[0] = path;
  trace = etl_trace_open (paths, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  table = etl_trace_get_process_table (trace);
  origin = etl_trace_get_origin (trace);
  etl_process_table_get_processes (table, &n);
  etl_process_table_get_threads (table, &n_threads);
  g_test_message ("net.4.5.2.x64: %u processes, %u threads", n, n_threads);
  /* 32 running at the start (DCStart), Test.x64.exe started during it. */
  g_assert_cmpuint (n, ==, 33);
  g_assert_cmpuint (n_threads, >=, 670);

  p = etl_process_table_lookup (table, 3676, origin + 5000 * MS);
  g_assert_nonnull (p);
  g_assert_cmpstr (p->image_name, ==, "Test.x64.exe");
  g_assert_cmpstr (p->command_line, ==, "Test.x64.exe");
  g_assert_cmpuint (p->parent_pid, ==, 3508);
  g_assert_cmpuint (p->session_id, ==, 1);
  /* Kernel-Process ProcessStart's CreateTime, a little before the records (2,733.175 ms). */
  g_assert_cmpint (p->start_time, >, origin + 2732 * MS);
  g_assert_cmpint (p->start_time, <, origin + 2734 * MS);
  g_assert_cmpint (p->end_time, >, origin + 8202 * MS);
  g_assert_cmpint (p->end_time, <, origin + 8203 * MS);
  g_assert_cmpuint (p->exit_status, ==, 0);
  p = etl_process_table_lookup (table, 3508, origin + 5000 * MS);
  g_assert_nonnull (p);
  g_assert_cmpstr (p->image_name, ==, "cmd.exe");
  p = etl_process_table_lookup (table, 0, origin);
  g_assert_cmpstr (p->image_name, ==, "Idle");
  p = etl_process_table_lookup (table, 4, origin);
  g_assert_cmpstr (p->image_name, ==, "System");

  /* Thread 3680 is Test.x64.exe's first thread (Thread/Start at 2,733.245 ms). */
  th = etl_process_table_lookup_thread (table, 3680, origin + 3000 * MS);
  g_assert_nonnull (th);
  g_assert_cmpuint (th->pid, ==, 3676);
  g_assert_nonnull (th->process);
  g_assert_cmpstr (th->process->image_name, ==, "Test.x64.exe");
}

/* The trace's table (its Thread records read in place, in parallel) equals
 * one built record by record with etl_process_table_add_record(), which
 * decodes every payload. */
static void
check_table_equal (EtlTrace *trace)
{
  g_autoptr (EtlProcessTable) slow = etl_process_table_new (etl_trace_get_schema_registry (trace));
  EtlProcessTable *table = etl_trace_get_process_table (trace);
  const EtlProcess *pa, *pb;
  const EtlThread *ta, *tb;
  guint npa, npb, nta, ntb;
  guint64 n = etl_trace_get_n_records (trace);

  for (guint64 i = 0; i < n; i++)
    {
      g_auto (EtlRecord) r = { 0 };

      if (etl_trace_get_record (trace, i, &r, NULL) && etl_process_table_is_lifetime_record (&r))
        etl_process_table_add_record (slow, &r);
    }
  etl_process_table_finish (slow);
  pa = etl_process_table_get_processes (table, &npa);
  pb = etl_process_table_get_processes (slow, &npb);
  ta = etl_process_table_get_threads (table, &nta);
  tb = etl_process_table_get_threads (slow, &ntb);
  g_test_message ("%u processes, %u threads", npa, nta);
  g_assert_cmpuint (npa, ==, npb);
  g_assert_cmpuint (nta, ==, ntb);
  for (guint i = 0; i < npa; i++)
    {
      g_assert_cmpuint (pa[i].pid, ==, pb[i].pid);
      g_assert_cmpuint (pa[i].parent_pid, ==, pb[i].parent_pid);
      g_assert_cmpuint (pa[i].session_id, ==, pb[i].session_id);
      g_assert_cmpuint (pa[i].exit_status, ==, pb[i].exit_status);
      g_assert_cmpint (pa[i].start_time, ==, pb[i].start_time);
      g_assert_cmpint (pa[i].end_time, ==, pb[i].end_time);
      g_assert_cmpint (pa[i].first_seen, ==, pb[i].first_seen);
      g_assert_cmpint (pa[i].last_seen, ==, pb[i].last_seen);
      g_assert_cmpuint (pa[i].unique_process_key, ==, pb[i].unique_process_key);
      g_assert_cmpstr (pa[i].image_name, ==, pb[i].image_name);
      g_assert_cmpstr (pa[i].command_line, ==, pb[i].command_line);
    }
  for (guint i = 0; i < nta; i++)
    {
      g_assert_cmpuint (ta[i].tid, ==, tb[i].tid);
      g_assert_cmpuint (ta[i].pid, ==, tb[i].pid);
      g_assert_cmpint (ta[i].start_time, ==, tb[i].start_time);
      g_assert_cmpint (ta[i].end_time, ==, tb[i].end_time);
      g_assert_cmpstr (ta[i].name, ==, tb[i].name);
      g_assert_true ((ta[i].process == NULL) == (tb[i].process == NULL));
      if (ta[i].process != NULL)
        g_assert_cmpuint (ta[i].process->index, ==, tb[i].process->index);
    }
}

/* The resolver gives what etl_process_table_resolve_record() gives, record
 * by record; the table is what a record-by-record build gives. */
static void
check_resolver_equal (const char *path)
{
  const char *paths[] = { path, NULL };
  g_autoptr (GError) error = NULL;
  g_autoptr (EtlTrace) trace = etl_trace_open (paths, NULL, NULL, NULL, &error);
  g_autoptr (EtlProcessResolver) resolver = NULL;
  g_autoptr (EtlProcessResolver) brief_resolver = NULL;
  EtlProcessTable *table;
  guint64 n, n_found = 0, n_payload = 0;

  g_assert_no_error (error);
  g_assert_nonnull (trace);
  check_table_equal (trace);
  table = etl_trace_get_process_table (trace);
  resolver = etl_process_resolver_new (table);
  brief_resolver = etl_process_resolver_new (table);
  n = etl_trace_get_n_records (trace);
  g_assert_cmpuint (n, >, 0);
  for (guint64 i = 0; i < n; i++)
    {
      g_auto (EtlRecord) r = { 0 };
      guint32 pid_a = 1, tid_a = 1, pid_b = 2, tid_b = 2, pid_c = 3, tid_c = 3;
      gboolean a, b, c;
      EtlRecordBrief brief;

      if (!etl_trace_get_record (trace, i, &r, NULL))
        continue;
      a = etl_process_table_resolve_record (table, &r, NULL, &pid_a, &tid_a);
      b = etl_process_resolver_resolve (resolver, &r, &pid_b, &tid_b);
      g_assert_cmpint (a, ==, b);
      g_assert_cmpuint (pid_a, ==, pid_b);
      g_assert_cmpuint (tid_a, ==, tid_b);
      /* The same from the brief, by a resolver that never saw an EtlRecord. */
      g_assert_true (etl_trace_peek_record (trace, i, &brief));
      c = etl_process_resolver_resolve_brief (brief_resolver, trace, i, &brief, &pid_c, &tid_c);
      etl_record_brief_clear (&brief);
      g_assert_cmpint (a, ==, c);
      g_assert_cmpuint (pid_a, ==, pid_c);
      g_assert_cmpuint (tid_a, ==, tid_c);
      n_found += a;
      if (a)
        g_assert_true (etl_process_resolver_lookup (resolver, pid_b, r.filetime)
                       == etl_process_table_lookup (table, pid_a, r.filetime));
      if (tid_a != G_MAXUINT32)
        g_assert_true (etl_process_resolver_lookup_thread (resolver, tid_b, r.filetime)
                       == etl_process_table_lookup_thread (table, tid_a, r.filetime));
      if (a && (!r.has_pid || r.pid != pid_a))
        n_payload++;
    }
  g_test_message ("%s: %" G_GUINT64_FORMAT " records, %" G_GUINT64_FORMAT " with a process, %"
                  G_GUINT64_FORMAT " of them from the payload", path, n, n_found, n_payload);
  g_assert_cmpuint (n_found, >, 0);
}

static void
test_resolver_corpus (gconstpointer data)
{
  g_autofree char *path = etl_test_corpus_path (data);

  if (path == NULL)
    return;
  check_resolver_equal (path);
}

static void
test_resolver_synth (gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("etlscope-resolver-XXXXXX", &error);
  g_autofree char *path = NULL;
  EtlSynthParams params;

  g_assert_no_error (error);
  path = g_build_filename (dir, "synth.etl", NULL);
  etl_synth_params_init (&params);
  params.n_cpus = 4;
  params.n_records = 60000;
  params.seed = 11;
  params.schedule = GPOINTER_TO_INT (data);
  params.schedule_ms = 200;
  g_assert_true (etl_synth_write (&params, path, &error));
  g_assert_no_error (error);
  check_resolver_equal (path);
  g_unlink (path);
  g_rmdir (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/etl/process-table/pid-reuse", test_pid_reuse);
  g_test_add_func ("/etl/process-table/merge", test_merge);
  g_test_add_func ("/etl/process-table/threads", test_threads);
  g_test_add_func ("/etl/process-table/corpus", test_corpus);
  g_test_add_data_func ("/etl/process-table/resolver/synth", GINT_TO_POINTER (FALSE), test_resolver_synth);
  g_test_add_data_func ("/etl/process-table/resolver/synth-schedule", GINT_TO_POINTER (TRUE), test_resolver_synth);
  {
    static const char *const corpus[] = { "net.4.5.2.x64.etl", "gcevents.etl", "gcrundownevents.etl",
                                           "primitive-types.etl", "lxcore_kernel.etl", "AMSITrace.etl",
                                           "SelfDescribingSingleEvent.etl" };

    for (guint i = 0; i < G_N_ELEMENTS (corpus); i++)
      {
        g_autofree char *name = g_strdup_printf ("/etl/process-table/resolver/corpus/%s", corpus[i]);

        g_test_add_data_func (name, corpus[i], test_resolver_corpus);
      }
  }

  return g_test_run ();
}
