/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test-untouched: input files are never modified.  Size, mtime and SHA-256
 * of each corpus file (top level and real/) are the same before and after opening it (core and
 * every etlscope-cli command) and closing it.
 */
#include "config.h"

#include <gio/gio.h>
#include <glib/gstdio.h>

#include "etl-test-util.h"
#include "etl-trace.h"

typedef struct
{
  goffset size;
  gint64 mtime_usec;
  char *sha256;
} Stamp;

static void
stamp_take (Stamp *s, const char *path)
{
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (GFileInfo) info = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GMappedFile) map = NULL;

  info = g_file_query_info (file, G_FILE_ATTRIBUTE_STANDARD_SIZE "," G_FILE_ATTRIBUTE_TIME_MODIFIED ","
                            G_FILE_ATTRIBUTE_TIME_MODIFIED_USEC, G_FILE_QUERY_INFO_NONE, NULL, &error);
  g_assert_no_error (error);
  s->size = g_file_info_get_size (info);
  s->mtime_usec = (gint64) g_file_info_get_attribute_uint64 (info, G_FILE_ATTRIBUTE_TIME_MODIFIED) * G_USEC_PER_SEC
                  + g_file_info_get_attribute_uint32 (info, G_FILE_ATTRIBUTE_TIME_MODIFIED_USEC);
  map = g_mapped_file_new (path, FALSE, &error);
  g_assert_no_error (error);
  s->sha256 = g_compute_checksum_for_data (G_CHECKSUM_SHA256, (const guchar *) g_mapped_file_get_contents (map),
                                           g_mapped_file_get_length (map));
}

static void
stamp_assert_same (Stamp *before, const char *path)
{
  Stamp after = { 0 };

  stamp_take (&after, path);
  g_assert_cmpint (after.size, ==, before->size);
  g_assert_cmpint (after.mtime_usec, ==, before->mtime_usec);
  g_assert_cmpstr (after.sha256, ==, before->sha256);
  g_free (after.sha256);
}

static void
run_cli (const char *command, const char *path)
{
  /* The whole file is read either way; formatting every decoded field
   * would only slow the sanitizer build. */
  gboolean dump = g_str_equal (command, "dump");
  const char *argv[] = { g_getenv ("ETLSCOPE_CLI"), command, dump ? "--no-fields" : path,
                         dump ? path : NULL, NULL };
  g_autoptr (GSubprocess) proc = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *err_text = NULL;

  g_assert_nonnull (argv[0]);
  /* stderr is kept: when the command fails, the test log says why. */
  proc = etl_test_subprocess_newv (argv, G_SUBPROCESS_FLAGS_STDOUT_SILENCE | G_SUBPROCESS_FLAGS_STDERR_PIPE, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_communicate_utf8 (proc, NULL, NULL, NULL, &err_text, &error));
  g_assert_no_error (error);
  if (!g_subprocess_get_successful (proc))
    g_test_message ("etlscope-cli %s %s failed (wait status %d); stderr: %s", command, path,
                    g_subprocess_get_status (proc), err_text != NULL ? err_text : "");
  g_assert_true (g_subprocess_get_successful (proc));
}

static void
test_untouched (gconstpointer data)
{
  const char *name = data;
  g_autofree char *path = etl_test_corpus_path (name);
  const char *commands[] = { "info", "dump", "stats", "losses" };
  Stamp before = { 0 };

  if (path == NULL)
    return;
  stamp_take (&before, path);
  {
    const char *paths[] = { path, NULL };
    g_autoptr (GError) error = NULL;
    EtlTrace *trace = etl_trace_open (paths, NULL, NULL, NULL, &error);

    g_assert_no_error (error);
    for (guint64 i = 0; i < etl_trace_get_n_records (trace); i++)
      {
        EtlRecord r;

        g_assert_true (etl_trace_get_record (trace, i, &r, NULL));
        etl_record_clear (&r);
      }
    etl_trace_unref (trace);
  }
  stamp_assert_same (&before, path);
  for (guint c = 0; c < G_N_ELEMENTS (commands); c++)
    {
      run_cli (commands[c], path);
      stamp_assert_same (&before, path);
    }
  g_free (before.sha256);
}

/* No corpus: one test that says so (a skip, or in CI a failure). */
static void
test_corpus_absent (void)
{
  etl_test_corpus_missing (etl_test_corpus_dir ());
}

int
main (int argc, char **argv)
{
  g_autoptr (GPtrArray) names = etl_test_corpus_list ();

  g_test_init (&argc, &argv, NULL);
  /* One test a corpus trace, top level and real/. */
  for (guint k = 0; k < names->len; k++)
    {
      g_autofree char *test = g_strdup_printf ("/etl/untouched/%s", (const char *) g_ptr_array_index (names, k));

      g_test_add_data_func (test, g_ptr_array_index (names, k), test_untouched);
    }
  if (names->len == 0)
    g_test_add_func ("/etl/untouched/corpus", test_corpus_absent);
  return g_test_run ();
}
