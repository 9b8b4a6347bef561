/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test-record-peek: etl_trace_peek_record() gives, field for field, what
 * etl_trace_get_record() gives, on every record of the corpus and of
 * synthetic traces.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "etl-synth.h"
#include "etl-test-util.h"
#include "etl-trace.h"

static void
check_peek_equal (const char *path, guint64 *n_kernel)
{
  const char *paths[] = { path, NULL };
  g_autoptr (GError) error = NULL;
  g_autoptr (EtlTrace) trace = etl_trace_open (paths, NULL, NULL, NULL, &error);
  guint64 n, n_read = 0;

  g_assert_no_error (error);
  g_assert_nonnull (trace);
  n = etl_trace_get_n_records (trace);
  g_assert_cmpuint (n, >, 0);
  *n_kernel = 0;
  for (guint64 i = 0; i < n; i++)
    {
      g_auto (EtlRecord) r = { 0 };
      EtlRecordBrief b;
      gboolean a = etl_trace_get_record (trace, i, &r, NULL);
      gboolean p = etl_trace_peek_record (trace, i, &b);

      g_assert_cmpint (a, ==, p);
      if (!a)
        {
          g_assert_null (b.user_data);
          continue;
        }
      n_read++;
      g_assert_cmpuint (b.header_type, ==, r.header_type);
      g_assert_cmpuint (b.kind, ==, r.kind);
      g_assert_cmpuint (b.has_pid, ==, r.has_pid);
      g_assert_cmpuint (b.opcode, ==, r.opcode);
      g_assert_cmpuint (b.hook_id, ==, r.hook_id);
      g_assert_cmpuint (b.event_id, ==, r.event_id);
      g_assert_cmpuint (b.version, ==, r.version);
      g_assert_cmpuint (b.pid, ==, r.pid);
      g_assert_cmpuint (b.tid, ==, r.tid);
      g_assert_cmpint (b.filetime, ==, r.filetime);
      g_assert_cmpuint (b.user_data_len, ==, r.user_data_len);
      if (r.user_data_len > 0)
        g_assert_cmpmem (b.user_data, b.user_data_len, r.user_data, r.user_data_len);
      else
        g_assert_null (b.user_data);
      if (r.kind == ETL_RECORD_KIND_KERNEL || r.kind == ETL_RECORD_KIND_PERFINFO)
        (*n_kernel)++;
      etl_record_brief_clear (&b);
      g_assert_null (b.hold);
      g_assert_null (b.user_data);
    }
  g_test_message ("%s: %" G_GUINT64_FORMAT " records, %" G_GUINT64_FORMAT " read, %" G_GUINT64_FORMAT
                  " kernel", path, n, n_read, *n_kernel);
  g_assert_cmpuint (n_read, >, 0);
}

static void
test_corpus (gconstpointer data)
{
  g_autofree char *path = etl_test_corpus_path (data);
  guint64 n_kernel;

  if (path == NULL)
    return;
  check_peek_equal (path, &n_kernel);
}

static void
test_synth (gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("etlscope-peek-XXXXXX", &error);
  g_autofree char *path = NULL;
  EtlSynthParams params;
  guint64 n_kernel;

  g_assert_no_error (error);
  path = g_build_filename (dir, "synth.etl", NULL);
  etl_synth_params_init (&params);
  params.n_cpus = 4;
  params.n_records = 50000;
  params.seed = 5;
  params.schedule = GPOINTER_TO_INT (data);
  params.schedule_ms = 200;
  g_assert_true (etl_synth_write (&params, path, &error));
  g_assert_no_error (error);
  check_peek_equal (path, &n_kernel);
  /* The synthetic traces are mostly kernel records: the fast path ran. */
  g_assert_cmpuint (n_kernel, >, 1000);
  g_unlink (path);
  g_rmdir (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_data_func ("/etl/reader/peek/synth", GINT_TO_POINTER (FALSE), test_synth);
  g_test_add_data_func ("/etl/reader/peek/synth-schedule", GINT_TO_POINTER (TRUE), test_synth);
  {
    static const char *const corpus[] = { "net.4.5.2.x64.etl", "gcevents.etl", "gcrundownevents.etl",
                                           "primitive-types.etl", "lxcore_kernel.etl", "AMSITrace.etl",
                                           "SelfDescribingSingleEvent.etl" };

    for (guint i = 0; i < G_N_ELEMENTS (corpus); i++)
      {
        g_autofree char *name = g_strdup_printf ("/etl/reader/peek/corpus/%s", corpus[i]);

        g_test_add_data_func (name, corpus[i], test_corpus);
      }
  }

  return g_test_run ();
}
