/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * fuzz-open: file bytes → etl_trace_open → every record re-read, named,
 * decoded (fields, derived fields, process) → losses, the process table.
 * The whole reader path: buffer walk, decompression, header decode, merge,
 * and what the walk hands to decoding (metadata, manifests, volumes,
 * lifetimes, file names), and the Start/Stop pairing of etl-activities.c.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <stdint.h>
#include <unistd.h>

#include "etl-activities.h"
#include "etl-names.h"
#include "etl-trace.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static char *
fuzz_temp_path (void)
{
  static char *path;

  if (path == NULL)
    {
      const char *dir = g_file_test ("/dev/shm", G_FILE_TEST_IS_DIR) ? "/dev/shm" : g_get_tmp_dir ();

      path = g_strdup_printf ("%s/etlscope-fuzz-open-%d.etl", dir, (int) getpid ());
    }
  return path;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  const char *path = fuzz_temp_path ();
  const char *paths[] = { path, path, NULL };
  g_autoptr (EtlTrace) trace = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (EtlActivities) activities = NULL;
  guint n_losses;

  if (!g_file_set_contents (path, (const char *) data, (gssize) size, NULL))
    return 0;
  /* The same bytes twice: two files merged, as users open them. */
  trace = etl_trace_open (paths, NULL, NULL, NULL, &error);
  if (trace != NULL)
    {
      guint64 n = etl_trace_get_n_records (trace);

      for (guint64 i = 0; i < n; i++)
        {
          EtlRecord r;

          guint8 opcode;

          (void) etl_trace_get_opcode (trace, i, &opcode);
          if (etl_trace_get_record (trace, i, &r, NULL))
            {
              EtlDecoded *decoded;
              GArray *derived;

              g_free (etl_record_dup_provider_name (&r));
              g_free (etl_record_dup_event_name (&r));
              decoded = etl_trace_decode_record (trace, &r);
              derived = etl_trace_get_derived_fields (trace, &r, decoded);
              (void) etl_trace_get_record_process (trace, &r, decoded);
              g_clear_pointer (&derived, g_array_unref);
              etl_decoded_free (decoded);
              etl_record_clear (&r);
            }
          if (i > 0)
            g_assert (etl_trace_get_filetime (trace, i - 1) <= etl_trace_get_filetime (trace, i));
        }
      etl_trace_get_losses (trace, &n_losses);
      {
        guint n_processes;

        etl_process_table_get_processes (etl_trace_get_process_table (trace), &n_processes);
      }
      /* The Start/Stop pairing: payload strings, extended items, ActivityIds. */
      g_clear_pointer (&activities, etl_activities_unref);
      activities = etl_activities_new (trace, NULL, NULL);
    }
  g_unlink (path);
  return 0;
}
