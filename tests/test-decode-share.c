/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test-decode-share.c: in every file of the corpus (../shared/etl-corpus and
 * real/), opened alone with the CLR manifest loaded as a user would
 * (ClrEtwAll.man: the .NET runtime's events carry no metadata in
 * gcevents.etl and gcrundownevents.etl), at least 99% of the records with
 * user data are named and decoded: decode status "decoded" and a name that
 * is not the Event(N) / Opcode(N) placeholder.  Records that no source
 * describes (decode status no-schema or wpp), or whose version is newer
 * than every source's (newer-version: all of the earlier version's fields
 * decoded, the appended bytes described nowhere), are left out of the share
 * but must say why (a reason naming the provider).  The share per file and per
 * schema source is printed (`meson test -v decode-share`).
 */
#include "config.h"

#include <string.h>

#include "etl-decode-status.h"
#include "etl-decode.h"
#include "etl-test-trace.h"

#define MIN_SHARE 0.99

/* "Event(12)", "Task/Opcode(37)": a name no source gave. */
static gboolean
is_placeholder (const char *name)
{
  const char *p = strrchr (name, '/');
  const char *last = p != NULL ? p + 1 : name;

  return (g_str_has_prefix (last, "Opcode(") || g_str_has_prefix (name, "Event(")) && g_str_has_suffix (name, ")");
}

static void
test_file (gconstpointer data)
{
  const char *name = data;
  g_autoptr (EtlTrace) trace = etl_test_open_corpus (name);
  g_autofree char *manifest = etl_test_corpus_path ("manifests/ClrEtwAll.man");
  g_autoptr (GError) error = NULL;
  guint64 with_data = 0, decoded = 0, undescribed = 0;
  guint64 by_status[ETL_N_DECODE_STATUSES] = { 0 };
  guint64 by_source[ETL_N_SCHEMA_SOURCES + 1] = { 0 };
  g_autoptr (GString) failures = g_string_new (NULL);
  guint n_failures = 0;
  EtlSchemaRegistry *registry;

  if (trace == NULL || manifest == NULL)
    return;
  g_assert_true (etl_trace_load_manifest (trace, manifest, NULL, &error));
  g_assert_no_error (error);
  registry = etl_trace_get_schema_registry (trace);

  for (guint64 i = 0; i < etl_trace_get_n_records (trace); i++)
    {
      g_auto (EtlRecord) r = { 0 };
      g_autoptr (EtlDecoded) d = NULL;
      g_autofree char *event = NULL;
      EtlDecodeStatus status;

      g_assert_true (etl_trace_get_record (trace, i, &r, NULL));
      if (r.user_data_len == 0)
        continue;
      with_data++;
      d = etl_trace_decode_record (trace, &r);
      status = etl_decode_status_of (&r, d);
      by_status[status]++;
      event = etl_decode_dup_event_name (registry, &r);
      if (status == ETL_DECODE_STATUS_NO_SCHEMA || status == ETL_DECODE_STATUS_WPP
          || status == ETL_DECODE_STATUS_NEWER_VERSION)
        {
          g_autofree char *reason = etl_decode_status_dup_reason (status, &r, d);

          /* Left out, but it says why. */
          g_assert_nonnull (reason);
          g_assert_cmpuint (strlen (reason), >, 20);
          undescribed++;
          continue;
        }
      by_source[d->schema != NULL ? d->schema->source : ETL_N_SCHEMA_SOURCES]++;
      if (status == ETL_DECODE_STATUS_DECODED && !is_placeholder (event))
        decoded++;
      else if (n_failures++ < 10)
        g_string_append_printf (failures, "  record %" G_GUINT64_FORMAT ": %s, %s\n", i, event,
                                etl_decode_status_name (status));
    }

  g_test_message ("%s: %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT " records with user data named and decoded "
                  "(%.2f %%), %" G_GUINT64_FORMAT " that no source describes left out",
                  name, decoded, with_data - undescribed,
                  with_data > undescribed ? 100.0 * (double) decoded / (double) (with_data - undescribed) : 100.0,
                  undescribed);
  for (guint s = 0; s <= ETL_N_SCHEMA_SOURCES; s++)
    if (by_source[s] > 0)
      g_test_message ("  source %s: %" G_GUINT64_FORMAT " (%.2f %%)",
                      s < ETL_N_SCHEMA_SOURCES ? etl_schema_source_name (s) : "none", by_source[s],
                      100.0 * (double) by_source[s] / (double) with_data);
  for (guint s = 0; s < ETL_N_DECODE_STATUSES; s++)
    if (by_status[s] > 0)
      g_test_message ("  status %s: %" G_GUINT64_FORMAT, etl_decode_status_name (s), by_status[s]);
  if (failures->len > 0)
    g_test_message ("not decoded (first ten):\n%s", failures->str);

  g_assert_cmpuint (with_data, >, 0);
  g_assert_cmpfloat ((double) decoded, >=, MIN_SHARE * (double) (with_data - undescribed));
}

int
main (int argc, char **argv)
{
  g_autoptr (GPtrArray) files = NULL;

  g_test_init (&argc, &argv, NULL);
  files = etl_test_corpus_list ();
  if (files->len == 0)
    {
      /* No corpus: one test that skips (or, in CI, fails) with the message. */
      g_ptr_array_add (files, g_strdup ("net.4.5.2.x64.etl"));
    }
  for (guint i = 0; i < files->len; i++)
    {
      g_autofree char *test = g_strdup_printf ("/etl/decode-share/%s", (const char *) files->pdata[i]);

      g_test_add_data_func (test, files->pdata[i], test_file);
    }
  return g_test_run ();
}
