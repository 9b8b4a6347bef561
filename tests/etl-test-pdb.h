/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A writer of small synthetic PDB files for the tests, the fuzz seeds and
 * the benchmark: an MSF 7.00 container (superblock, free block maps at
 * blocks 1 and 2 of every BlockSize blocks left unused, the block map, the
 * stream directory) holding the streams etl-pdb.c reads, laid out as
 * LLVM's PDB documentation describes them and complete enough for
 * llvm-pdbutil to dump: the PDB info stream (with an empty named stream
 * map), empty TPI and IPI streams, the DBI stream (header, module info,
 * file info without files, optional debug header), the section headers, the module streams
 * (S_GPROC32/S_LPROC32 ... S_END, then an empty global refs substream), the
 * symbol record stream (S_PUB32) and the publics stream (GSI hash records
 * with an empty bucket bitmap, the address map).
 *
 * Fixed stream numbers: 0 old directory (empty), 1 PDB info, 2 TPI, 3 DBI,
 * 4 IPI, 5 section headers, 6 symbol records, 7 publics, 8 + i module i.
 */
#pragma once

#include <glib.h>
#include <string.h>

#include "etl-types.h"

G_BEGIN_DECLS

#define ETL_TEST_PDB_STREAM_SECTIONS 5
#define ETL_TEST_PDB_STREAM_SYMREC 6
#define ETL_TEST_PDB_STREAM_PUBLICS 7
#define ETL_TEST_PDB_STREAM_MODULE0 8

typedef struct
{
  guint32 virtual_address;
  guint32 virtual_size;
  guint32 characteristics; /* IMAGE_SCN_*: 0x60000020 code, 0x40000040 data */
} EtlTestPdbSection;

typedef struct
{
  guint16 kind; /* S_GPROC32 0x1110, S_LPROC32 0x110F, ... */
  guint16 segment;
  guint32 offset;
  guint32 length;
  const char *name;
} EtlTestPdbProc;

typedef struct
{
  guint32 flags; /* 1 code, 2 function */
  guint16 segment;
  guint32 offset;
  const char *name;
} EtlTestPdbPublic;

typedef struct
{
  guint32 block_size;
  gboolean fragment; /* list each stream's blocks in descending order */
  EtlGuid guid;
  guint32 age;
  guint16 machine;
  const EtlTestPdbSection *sections;
  guint n_sections;
  const EtlTestPdbProc *procs;
  guint n_procs;
  guint procs_per_module; /* 0: all in one module */
  guint n_filler;         /* S_FRAMEPROC records (32 bytes) inside each procedure */
  const EtlTestPdbPublic *publics;
  guint n_publics;
} EtlTestPdbSpec;

static inline void
etl_test_put_u16 (GByteArray *a, guint16 v)
{
  guint8 b[2] = { v & 0xFF, v >> 8 };

  g_byte_array_append (a, b, 2);
}

static inline void
etl_test_put_u32 (GByteArray *a, guint32 v)
{
  guint8 b[4] = { v & 0xFF, (v >> 8) & 0xFF, (v >> 16) & 0xFF, v >> 24 };

  g_byte_array_append (a, b, 4);
}

static inline void
etl_test_set_u16 (guint8 *p, guint16 v)
{
  p[0] = v & 0xFF;
  p[1] = v >> 8;
}

static inline void
etl_test_set_u32 (guint8 *p, guint32 v)
{
  p[0] = v & 0xFF;
  p[1] = (v >> 8) & 0xFF;
  p[2] = (v >> 16) & 0xFF;
  p[3] = v >> 24;
}

static inline void
etl_test_put_zeros (GByteArray *a, guint n)
{
  static const guint8 zeros[64] = { 0 };

  while (n > 0)
    {
      guint k = MIN (n, sizeof zeros);

      g_byte_array_append (a, zeros, k);
      n -= k;
    }
}

static inline void
etl_test_put_name_padded (GByteArray *a, guint start, const char *name)
{
  g_byte_array_append (a, (const guint8 *)name, strlen (name) + 1);
  while ((a->len - start) % 4 != 0)
    g_byte_array_append (a, (const guint8 *)"\0", 1);
}

/* One symbol record: RecordLen and RecordKind patched around @fill's bytes. */
static inline guint
etl_test_begin_record (GByteArray *a, guint16 kind)
{
  guint start = a->len;

  etl_test_put_u16 (a, 0);
  etl_test_put_u16 (a, kind);
  return start;
}

static inline void
etl_test_end_record (GByteArray *a, guint start)
{
  etl_test_set_u16 (a->data + start, (guint16)(a->len - start - 2));
}

static inline GByteArray *
etl_test_pdb_info_stream (const EtlTestPdbSpec *spec)
{
  GByteArray *a = g_byte_array_new ();

  etl_test_put_u32 (a, 20000404); /* VC70 */
  etl_test_put_u32 (a, 0x5EED1234);
  etl_test_put_u32 (a, spec->age);
  etl_test_put_u32 (a, spec->guid.data1);
  etl_test_put_u16 (a, spec->guid.data2);
  etl_test_put_u16 (a, spec->guid.data3);
  g_byte_array_append (a, spec->guid.data4, 8);
  /* Named stream map: no string bytes; hash table Size 0, Capacity 1, one
   * empty present word, no deleted words. */
  etl_test_put_u32 (a, 0);
  etl_test_put_u32 (a, 0);
  etl_test_put_u32 (a, 1);
  etl_test_put_u32 (a, 1);
  etl_test_put_u32 (a, 0);
  etl_test_put_u32 (a, 0);
  etl_test_put_u32 (a, 20140508); /* feature: VC140 */
  return a;
}

static inline GByteArray *
etl_test_pdb_tpi_stream (void)
{
  GByteArray *a = g_byte_array_new ();

  etl_test_put_u32 (a, 20040203); /* V80 */
  etl_test_put_u32 (a, 56);
  etl_test_put_u32 (a, 0x1000);
  etl_test_put_u32 (a, 0x1000);
  etl_test_put_u32 (a, 0);
  etl_test_put_u16 (a, 0xFFFF);
  etl_test_put_u16 (a, 0xFFFF);
  etl_test_put_u32 (a, 4);
  etl_test_put_u32 (a, 0x3FFFF);
  etl_test_put_zeros (a, 24);
  return a;
}

static inline GByteArray *
etl_test_pdb_module_stream (const EtlTestPdbSpec *spec, guint first, guint n, guint32 *sym_bytes)
{
  GByteArray *a = g_byte_array_new ();

  etl_test_put_u32 (a, 4); /* CV_SIGNATURE_C13 */
  for (guint i = first; i < first + n; i++)
    {
      const EtlTestPdbProc *p = &spec->procs[i];
      guint start = etl_test_begin_record (a, p->kind);
      guint end_field = a->len + 4;

      etl_test_put_u32 (a, 0); /* Parent */
      etl_test_put_u32 (a, 0); /* End: patched below */
      etl_test_put_u32 (a, 0); /* Next */
      etl_test_put_u32 (a, p->length);
      etl_test_put_u32 (a, 0);
      etl_test_put_u32 (a, p->length);
      etl_test_put_u32 (a, 0); /* FunctionType */
      etl_test_put_u32 (a, p->offset);
      etl_test_put_u16 (a, p->segment);
      g_byte_array_append (a, (const guint8 *)"\0", 1); /* Flags */
      etl_test_put_name_padded (a, start, p->name);
      etl_test_end_record (a, start);
      for (guint k = 0; k < spec->n_filler; k++)
        {
          start = etl_test_begin_record (a, 0x1012); /* S_FRAMEPROC */
          etl_test_put_zeros (a, 28);
          etl_test_end_record (a, start);
        }
      etl_test_set_u32 (a->data + end_field, a->len);
      start = etl_test_begin_record (a, 0x0006); /* S_END */
      etl_test_end_record (a, start);
    }
  *sym_bytes = a->len;
  etl_test_put_u32 (a, 0); /* GlobalRefsSize */
  return a;
}

static inline gint
etl_test_pdb_compare_publics (gconstpointer a, gconstpointer b, gpointer user_data)
{
  const EtlTestPdbSpec *spec = user_data;
  const EtlTestPdbPublic *x = &spec->publics[*(const guint *)a];
  const EtlTestPdbPublic *y = &spec->publics[*(const guint *)b];

  if (x->segment != y->segment)
    return x->segment < y->segment ? -1 : 1;
  if (x->offset != y->offset)
    return x->offset < y->offset ? -1 : 1;
  return strcmp (x->name, y->name);
}

/* The symbol record stream and the publics stream. */
static inline void
etl_test_pdb_publics_streams (const EtlTestPdbSpec *spec, GByteArray **symrec_out,
                              GByteArray **publics_out)
{
  GByteArray *symrec = g_byte_array_new ();
  GByteArray *publics = g_byte_array_new ();
  guint32 *offsets = g_new (guint32, spec->n_publics + 1);
  guint *order = g_new (guint, spec->n_publics + 1);
  const guint bitmap_words = (4096 + 32) / 32;

  for (guint i = 0; i < spec->n_publics; i++)
    {
      const EtlTestPdbPublic *p = &spec->publics[i];
      guint start = etl_test_begin_record (symrec, 0x110E);

      offsets[i] = start;
      order[i] = i;
      etl_test_put_u32 (symrec, p->flags);
      etl_test_put_u32 (symrec, p->offset);
      etl_test_put_u16 (symrec, p->segment);
      etl_test_put_name_padded (symrec, start, p->name);
      etl_test_end_record (symrec, start);
    }
  g_qsort_with_data (order, spec->n_publics, sizeof *order, etl_test_pdb_compare_publics,
                     (gpointer)spec);

  etl_test_put_u32 (publics, 16 + 8 * spec->n_publics + 4 * bitmap_words); /* SymHash */
  etl_test_put_u32 (publics, 4 * spec->n_publics);                         /* AddrMap */
  etl_test_put_zeros (publics, 20); /* NumThunks .. NumSections */
  etl_test_put_u32 (publics, 0xFFFFFFFF);
  etl_test_put_u32 (publics, 0xEFFE0000 + 19990810);
  etl_test_put_u32 (publics, 8 * spec->n_publics);
  etl_test_put_u32 (publics, 4 * bitmap_words);
  for (guint i = 0; i < spec->n_publics; i++)
    {
      etl_test_put_u32 (publics, offsets[i] + 1);
      etl_test_put_u32 (publics, 1);
    }
  etl_test_put_zeros (publics, 4 * bitmap_words);
  for (guint i = 0; i < spec->n_publics; i++)
    etl_test_put_u32 (publics, offsets[order[i]]);
  g_free (offsets);
  g_free (order);
  *symrec_out = symrec;
  *publics_out = publics;
}

static inline GByteArray *
etl_test_pdb_dbi_stream (const EtlTestPdbSpec *spec, guint n_modules, const guint32 *sym_bytes)
{
  GByteArray *a = g_byte_array_new ();
  guint mod_start, mod_size, file_info_size;

  etl_test_put_u32 (a, 0xFFFFFFFF);
  etl_test_put_u32 (a, 19990903); /* V70 */
  etl_test_put_u32 (a, spec->age);
  etl_test_put_u16 (a, 0xFFFF); /* GlobalStreamIndex */
  etl_test_put_u16 (a, 0x8E00); /* BuildNumber: new format, 14.0 */
  etl_test_put_u16 (a, ETL_TEST_PDB_STREAM_PUBLICS);
  etl_test_put_u16 (a, 0);
  etl_test_put_u16 (a, ETL_TEST_PDB_STREAM_SYMREC);
  etl_test_put_u16 (a, 0);
  etl_test_put_zeros (a, 24); /* ModInfoSize .. MFCTypeServerIndex: patched below */
  etl_test_put_u32 (a, 0);    /* OptionalDbgHeaderSize: patched below */
  etl_test_put_u32 (a, 0);    /* ECSubstreamSize */
  etl_test_put_u16 (a, 0);    /* Flags */
  etl_test_put_u16 (a, spec->machine);
  etl_test_put_u32 (a, 0);
  g_assert (a->len == 64);

  mod_start = a->len;
  for (guint m = 0; m < n_modules; m++)
    {
      guint start = a->len;
      char name[32];

      g_snprintf (name, sizeof name, "mod%u.obj", m);
      etl_test_put_zeros (a, 34);
      etl_test_put_u16 (a, (guint16)(ETL_TEST_PDB_STREAM_MODULE0 + m));
      etl_test_put_u32 (a, sym_bytes[m]);
      etl_test_put_zeros (a, 24);
      g_byte_array_append (a, (const guint8 *)name, strlen (name) + 1);
      etl_test_put_name_padded (a, start, name);
    }
  mod_size = a->len - mod_start;
  /* The file info substream: NumModules, NumSourceFiles, each module's
   * first file and file count (none), padded to 4. */
  etl_test_put_u16 (a, (guint16)n_modules);
  etl_test_put_u16 (a, 0);
  etl_test_put_zeros (a, 4 * n_modules);
  if (a->len % 4 != 0)
    etl_test_put_u16 (a, 0);
  file_info_size = a->len - mod_start - mod_size;
  /* Optional debug header: 11 stream numbers, the section headers at 5. */
  for (guint i = 0; i < 11; i++)
    etl_test_put_u16 (a, i == 5 ? ETL_TEST_PDB_STREAM_SECTIONS : 0xFFFF);
  etl_test_set_u32 (a->data + 24, mod_size);
  etl_test_set_u32 (a->data + 36, file_info_size);
  etl_test_set_u32 (a->data + 48, 22);
  return a;
}

static inline GByteArray *
etl_test_pdb_sections_stream (const EtlTestPdbSpec *spec)
{
  GByteArray *a = g_byte_array_new ();

  for (guint i = 0; i < spec->n_sections; i++)
    {
      char name[8] = { 0 };

      g_snprintf (name, sizeof name, ".s%u", i + 1);
      g_byte_array_append (a, (const guint8 *)name, 8);
      etl_test_put_u32 (a, spec->sections[i].virtual_size);
      etl_test_put_u32 (a, spec->sections[i].virtual_address);
      etl_test_put_zeros (a, 20);
      etl_test_put_u32 (a, spec->sections[i].characteristics);
    }
  return a;
}

/* The next block for data: blocks 1 and 2 of every BlockSize blocks hold
 * the free block maps. */
static inline guint32
etl_test_msf_next_block (guint32 *next, guint32 block_size)
{
  while (*next % block_size == 1 || *next % block_size == 2)
    (*next)++;
  return (*next)++;
}

/* Writes @streams (GByteArray *, NULL for a nil stream) as an MSF 7.00 file. */
static inline GBytes *
etl_test_msf_build (GPtrArray *streams, guint32 block_size, gboolean fragment)
{
  GByteArray *dir = g_byte_array_new ();
  GByteArray *file = g_byte_array_new ();
  GArray *blocks = g_array_new (FALSE, FALSE, sizeof (guint32)); /* every stream's, in order */
  guint32 next = 3, block_map, n_dir_blocks, *dir_blocks;

  for (guint s = 0; s < streams->len; s++)
    {
      GByteArray *st = g_ptr_array_index (streams, s);
      guint n = st ? (st->len + block_size - 1) / block_size : 0;
      guint first = blocks->len;

      for (guint i = 0; i < n; i++)
        {
          guint32 b = etl_test_msf_next_block (&next, block_size);

          g_array_append_val (blocks, b);
        }
      if (fragment)
        for (guint i = 0; i < n / 2; i++)
          {
            guint32 t = g_array_index (blocks, guint32, first + i);

            g_array_index (blocks, guint32, first + i)
                = g_array_index (blocks, guint32, first + n - 1 - i);
            g_array_index (blocks, guint32, first + n - 1 - i) = t;
          }
    }
  etl_test_put_u32 (dir, streams->len);
  for (guint s = 0; s < streams->len; s++)
    {
      GByteArray *st = g_ptr_array_index (streams, s);

      etl_test_put_u32 (dir, st ? st->len : 0xFFFFFFFF);
    }
  for (guint i = 0; i < blocks->len; i++)
    etl_test_put_u32 (dir, g_array_index (blocks, guint32, i));
  n_dir_blocks = (dir->len + block_size - 1) / block_size;
  g_assert (n_dir_blocks * 4 <= block_size);
  dir_blocks = g_new (guint32, n_dir_blocks);
  for (guint i = 0; i < n_dir_blocks; i++)
    dir_blocks[i] = etl_test_msf_next_block (&next, block_size);
  block_map = etl_test_msf_next_block (&next, block_size);

  g_byte_array_set_size (file, (guint)((gsize)next * block_size));
  memset (file->data, 0, file->len);
  memcpy (file->data,
          "Microsoft C/C++ MSF 7.00\r\n\x1a"
          "DS\0\0\0",
          32);
  etl_test_set_u32 (file->data + 32, block_size);
  etl_test_set_u32 (file->data + 36, 1);
  etl_test_set_u32 (file->data + 40, next);
  etl_test_set_u32 (file->data + 44, dir->len);
  etl_test_set_u32 (file->data + 52, block_map);
  for (guint i = 0; i < n_dir_blocks; i++)
    {
      guint chunk = MIN (block_size, dir->len - i * block_size);

      etl_test_set_u32 (file->data + (gsize)block_map * block_size + 4 * i, dir_blocks[i]);
      memcpy (file->data + (gsize)dir_blocks[i] * block_size, dir->data + (gsize)i * block_size,
              chunk);
    }
  for (guint s = 0, b = 0; s < streams->len; s++)
    {
      GByteArray *st = g_ptr_array_index (streams, s);
      guint n = st ? (st->len + block_size - 1) / block_size : 0;

      for (guint i = 0; i < n; i++, b++)
        {
          guint chunk = MIN (block_size, st->len - i * block_size);

          memcpy (file->data + (gsize)g_array_index (blocks, guint32, b) * block_size,
                  st->data + (gsize)i * block_size, chunk);
        }
    }
  g_free (dir_blocks);
  g_array_unref (blocks);
  g_byte_array_unref (dir);
  return g_byte_array_free_to_bytes (file);
}

/* The whole PDB of @spec. */
static inline GBytes *
etl_test_pdb_build (const EtlTestPdbSpec *spec)
{
  GPtrArray *streams = g_ptr_array_new_with_free_func ((GDestroyNotify)g_byte_array_unref);
  guint per = spec->procs_per_module ? spec->procs_per_module : MAX (spec->n_procs, 1);
  guint n_modules = (spec->n_procs + per - 1) / per;
  guint32 *sym_bytes = g_new0 (guint32, n_modules + 1);
  GByteArray *symrec, *publics;
  GPtrArray *modules = g_ptr_array_new ();
  GBytes *bytes;

  if (n_modules == 0)
    n_modules = 1;
  for (guint m = 0; m < n_modules; m++)
    {
      guint first = m * per;

      g_ptr_array_add (modules, etl_test_pdb_module_stream (
                                    spec, first,
                                    first < spec->n_procs ? MIN (per, spec->n_procs - first) : 0,
                                    &sym_bytes[m]));
    }
  etl_test_pdb_publics_streams (spec, &symrec, &publics);
  g_ptr_array_add (streams, g_byte_array_new ());
  g_ptr_array_add (streams, etl_test_pdb_info_stream (spec));
  g_ptr_array_add (streams, etl_test_pdb_tpi_stream ());
  g_ptr_array_add (streams, etl_test_pdb_dbi_stream (spec, n_modules, sym_bytes));
  g_ptr_array_add (streams, etl_test_pdb_tpi_stream ());
  g_ptr_array_add (streams, etl_test_pdb_sections_stream (spec));
  g_ptr_array_add (streams, symrec);
  g_ptr_array_add (streams, publics);
  for (guint m = 0; m < n_modules; m++)
    g_ptr_array_add (streams, g_ptr_array_index (modules, m));
  bytes = etl_test_msf_build (streams, spec->block_size, spec->fragment);
  g_ptr_array_unref (modules);
  g_ptr_array_unref (streams);
  g_free (sym_bytes);
  return bytes;
}

G_END_DECLS
