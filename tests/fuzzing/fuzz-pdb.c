/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * fuzz-pdb: arbitrary bytes → the PDB reader (core/symbols/).  The input is
 * a whole PDB file: etl_msf_new_from_bytes() and every stream read back
 * (contiguous slices and copies of scattered blocks), then
 * etl_pdb_new_from_bytes() (PDB info, DBI header and substreams, section
 * headers, module symbol records, publics address map, S_PUB32 records).
 * Checks: either a table or an ETL_PDB_ERROR; a stream read is exactly its
 * size; the table is sorted, without overlaps, within 32 bits, and a lookup
 * of each function's first and last byte finds it.
 */
#include "config.h"

#include <glib.h>
#include <stdint.h>

#include "etl-msf.h"
#include "etl-pdb.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  GBytes *bytes = g_bytes_new_static (data, size);
  GError *error = NULL;
  EtlMsf *msf = etl_msf_new_from_bytes (bytes, "fuzz.pdb", &error);
  EtlPdb *pdb;

  if (msf)
    {
      for (guint32 s = 0; s < etl_msf_get_n_streams (msf) && s < 4096; s++)
        {
          GBytes *stream = etl_msf_read_stream (msf, s, &error);

          if (stream)
            {
              g_assert_cmpuint (g_bytes_get_size (stream), ==, etl_msf_get_stream_size (msf, s));
              g_bytes_unref (stream);
            }
          else
            {
              g_assert_false (etl_msf_has_stream (msf, s));
              g_assert_error (error, ETL_PDB_ERROR, ETL_PDB_ERROR_MISSING_STREAM);
              g_clear_error (&error);
            }
          (void)etl_msf_get_file_offset (msf, s, 0);
        }
      etl_msf_free (msf);
    }
  else
    {
      g_assert_true (error != NULL && error->domain == ETL_PDB_ERROR);
      g_clear_error (&error);
    }

  pdb = etl_pdb_new_from_bytes (bytes, "fuzz.pdb", &error);
  if (pdb)
    {
      guint n;
      const EtlPdbFunction *f = etl_pdb_get_functions (pdb, &n);
      guint32 offset;

      for (guint i = 0; i < n; i++)
        {
          g_assert_nonnull (f[i].name);
          g_assert_cmpuint ((guint64)f[i].rva + f[i].length, <=, (guint64)G_MAXUINT32 + 1);
          if (i + 1 < n)
            g_assert_cmpuint ((guint64)f[i].rva + f[i].length, <=, f[i + 1].rva);
          if (f[i].length > 0)
            {
              g_assert_true (etl_pdb_lookup (pdb, f[i].rva, &offset) == &f[i]);
              g_assert_true (etl_pdb_lookup (pdb, f[i].rva + f[i].length - 1, &offset) == &f[i]);
              g_assert_cmpuint (offset, ==, f[i].length - 1);
            }
        }
      (void)etl_pdb_lookup (pdb, 0, NULL);
      (void)etl_pdb_lookup (pdb, G_MAXUINT32, NULL);
      etl_pdb_unref (pdb);
    }
  else
    {
      g_assert_true (error != NULL && error->domain == ETL_PDB_ERROR);
      g_clear_error (&error);
    }
  g_bytes_unref (bytes);
  return 0;
}
