/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * app/etl-cab.c on LZX cabinets, the compression Microsoft's symbol servers
 * use for many `.pd_` files: cabinets written by tests/cab-test-util.h
 * (LZX uncompressed blocks; no Debian tool writes LZX) holding
 * ../shared/symbols/CppCon.pdb (708,608 bytes: 22 CFDATA blocks / LZX
 * frames) and 100,001 pseudo-random bytes cut in blocks that run over
 * frames, odd ones included.  The same cabinets are unpacked by cabextract
 * and 7-Zip (7z: its own LZX decoder, not libmspack) when installed (CI:
 * required, .ci/deps.sh installs them), byte-identical.  Corrupt cabinets
 * (a stale checksum, a bad LZX block type or size, a cut) give a
 * G_IO_ERROR_INVALID_DATA naming the reason and leave no file behind.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "cab-test-util.h"
#include "etl-cab.h"
#include "etl-test-util.h"

#define RANDOM_SIZE 100001

typedef struct
{
  char *dir;
  char *cab;
} Place;

static void
place_init (Place *p)
{
  g_autoptr (GError) error = NULL;

  p->dir = g_dir_make_tmp ("etlscope-cab-XXXXXX", &error);
  g_assert_no_error (error);
  p->cab = g_build_filename (p->dir, "file.pd_", NULL);
}

static void
place_clear (Place *p)
{
  etl_test_rm_rf (p->dir);
  g_free (p->dir);
  g_free (p->cab);
}

static GBytes *
random_payload (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (22);
  guint8 *data = g_malloc (RANDOM_SIZE);

  for (gsize i = 0; i < RANDOM_SIZE; i++)
    data[i] = (guint8)g_rand_int (rand);
  return g_bytes_new_take (data, RANDOM_SIZE);
}

/* CppCon.pdb, or NULL after etl_test_corpus_missing(). */
static GBytes *
pdb_payload (void)
{
  g_autofree char *path = g_build_filename (etl_test_corpus_dir (), "..", "symbols", "CppCon.pdb", NULL);
  g_autoptr (GMappedFile) map = NULL;

  if (!g_file_test (path, G_FILE_TEST_IS_REGULAR))
    {
      etl_test_corpus_missing ("../symbols/CppCon.pdb");
      return NULL;
    }
  map = g_mapped_file_new (path, FALSE, NULL);
  g_assert_nonnull (map);
  return g_mapped_file_get_bytes (map);
}

static void
write_cab (Place *p, const GByteArray *cab)
{
  g_autoptr (GError) error = NULL;

  g_assert_true (g_file_set_contents (p->cab, (const char *)cab->data, cab->len, &error));
  g_assert_no_error (error);
}

/* etl_cab_extract_pdb() of @p's cabinet into @p's folder "out": the
 * unpacked bytes equal @payload; the file is removed after. */
static void
assert_unpacks (Place *p, const char *name, GBytes *payload)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *out = g_build_filename (p->dir, "out", NULL);
  g_autofree char *tmp = etl_cab_extract_pdb (p->cab, out, name, G_MAXUINT32, &error);
  g_autofree char *got = NULL;
  gsize len;

  g_assert_no_error (error);
  g_assert_nonnull (tmp);
  g_assert_true (g_file_get_contents (tmp, &got, &len, NULL));
  g_assert_cmpmem (got, len, g_bytes_get_data (payload, NULL), g_bytes_get_size (payload));
  g_assert_cmpint (g_remove (tmp), ==, 0);
}

/* etl_cab_extract_pdb() fails with G_IO_ERROR_INVALID_DATA, the message
 * holding @reason_part, and leaves "out" empty. */
static void
assert_refused (Place *p, const char *reason_part)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *out = g_build_filename (p->dir, "out", NULL);
  g_autofree char *tmp = etl_cab_extract_pdb (p->cab, out, "file.bin", G_MAXUINT32, &error);
  g_autoptr (GDir) d = NULL;

  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_assert_null (tmp);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, reason_part));
  g_assert_nonnull (strstr (error->message, p->cab));
  d = g_dir_open (out, 0, NULL);
  g_assert_true (d == NULL || g_dir_read_name (d) == NULL);
}

static void
test_lzx_pdb (void)
{
  g_autoptr (GBytes) pdb = NULL;
  g_autoptr (GByteArray) cab = NULL;
  Place p;

  if (!etl_cab_available ())
    {
      g_test_skip ("not built with libmspack");
      return;
    }
  pdb = pdb_payload ();
  if (pdb == NULL)
    return;
  g_assert_cmpuint (g_bytes_get_size (pdb), ==, 708608);
  cab = cab_test_lzx_cabinet (g_bytes_get_data (pdb, NULL), g_bytes_get_size (pdb), "CppCon.pdb", 21, 32768);
  /* CFFOLDER: 22 CFDATA blocks, typeCompress 0x1503. */
  g_assert_cmpuint (cab->data[40] | cab->data[41] << 8, ==, 22);
  g_assert_cmpuint (cab->data[42] | cab->data[43] << 8, ==, 0x1503);
  place_init (&p);
  write_cab (&p, cab);
  assert_unpacks (&p, "CppCon.pdb", pdb);
  /* Found by name, whatever the case. */
  assert_unpacks (&p, "cppcon.PDB", pdb);
  place_clear (&p);
}

/* Blocks of several sizes against frames of 32 KiB, windows 2^15 and 2^21. */
static void
test_lzx_blocks (void)
{
  const gsize sizes[] = { 32768, 12345, 65536, 100001, (1u << 24) - 1, 99999 };
  g_autoptr (GBytes) payload = random_payload ();
  Place p;

  if (!etl_cab_available ())
    {
      g_test_skip ("not built with libmspack");
      return;
    }
  place_init (&p);
  for (guint window = 15; window <= 21; window += 6)
    for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
      {
        g_autoptr (GByteArray) cab = cab_test_lzx_cabinet (g_bytes_get_data (payload, NULL), RANDOM_SIZE,
                                                           "file.bin", window, sizes[i]);

        g_test_message ("window 2^%u, blocks of %" G_GSIZE_FORMAT " bytes: %u bytes", window, sizes[i], cab->len);
        g_assert_cmpuint (cab->data[42] | cab->data[43] << 8, ==, 3 | window << 8);
        write_cab (&p, cab);
        assert_unpacks (&p, "file.bin", payload);
      }
  place_clear (&p);
}

/* @tool (cabextract or 7z) unpacks @p's cabinet into "by-TOOL": @name there
 * equals @payload.  FALSE after a skip. */
static gboolean
other_tool_unpacks (Place *p, const char *tool, const char *name, GBytes *payload)
{
  g_autofree char *exe = g_find_program_in_path (tool);
  g_autofree char *out = g_strdup_printf ("%s/by-%s", p->dir, tool);
  g_autofree char *file = g_build_filename (out, name, NULL);
  g_autofree char *got = NULL;
  g_autofree char *out_arg = NULL;
  g_autoptr (GSubprocess) proc = NULL;
  g_autoptr (GError) error = NULL;
  gsize len;

  if (exe == NULL)
    {
      g_autofree char *msg = g_strdup_printf ("%s is not installed (.ci/deps.sh installs it)", tool);

      if (etl_test_in_ci ())
        g_error ("%s", msg);
      g_test_skip (msg);
      return FALSE;
    }
  if (strcmp (tool, "7z") == 0)
    {
      out_arg = g_strconcat ("-o", out, NULL);
      proc = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE, &error, exe, "x", "-y", out_arg, p->cab, NULL);
    }
  else
    {
      g_assert_cmpint (g_mkdir_with_parents (out, 0755), ==, 0);
      proc = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE, &error, exe, "-q", "-d", out, p->cab, NULL);
    }
  g_assert_no_error (error);
  g_assert_true (g_subprocess_wait_check (proc, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (file, &got, &len, NULL));
  g_assert_cmpmem (got, len, g_bytes_get_data (payload, NULL), g_bytes_get_size (payload));
  return TRUE;
}

/* The writer's cabinets are valid for unpackers other than etlscope's:
 * cabextract (libmspack too) and 7-Zip (its own cabinet and LZX code). */
static void
check_other_tool (const char *tool)
{
  g_autoptr (GBytes) payload = random_payload ();
  g_autoptr (GBytes) pdb = NULL;
  g_autoptr (GByteArray) cab = NULL;
  Place p;

  place_init (&p);
  cab = cab_test_lzx_cabinet (g_bytes_get_data (payload, NULL), RANDOM_SIZE, "file.bin", 21, 12345);
  write_cab (&p, cab);
  if (other_tool_unpacks (&p, tool, "file.bin", payload))
    {
      pdb = pdb_payload ();
      if (pdb != NULL)
        {
          g_clear_pointer (&cab, g_byte_array_unref);
          cab = cab_test_lzx_cabinet (g_bytes_get_data (pdb, NULL), g_bytes_get_size (pdb), "CppCon.pdb", 21,
                                      32768);
          write_cab (&p, cab);
          other_tool_unpacks (&p, tool, "CppCon.pdb", pdb);
        }
    }
  place_clear (&p);
}

static void
test_lzx_cabextract (void)
{
  check_other_tool ("cabextract");
}

static void
test_lzx_7z (void)
{
  check_other_tool ("7z");
}

/* A corrupt LZX cabinet: a clear error, no file left, no crash. */
static void
test_lzx_corrupt (void)
{
  g_autoptr (GBytes) payload = random_payload ();
  g_autoptr (GByteArray) good = NULL;
  gsize lzx;
  Place p;

  if (!etl_cab_available ())
    {
      g_test_skip ("not built with libmspack");
      return;
    }
  good = cab_test_lzx_cabinet (g_bytes_get_data (payload, NULL), RANDOM_SIZE, "file.bin", 21, 32768);
  lzx = cab_test_first_data (good);
  place_init (&p);

  /* A raw byte of the second frame changed, the checksum stale. */
  {
    g_autoptr (GByteArray) cab = g_byte_array_sized_new (good->len);

    g_byte_array_append (cab, good->data, good->len);
    cab->data[lzx + 16 + 32768 + 8 + 16 + 100] ^= 0x01;
    write_cab (&p, cab);
    assert_refused (&p, "LZX, window 2^21): a CFDATA block's checksum does not match");
  }
  /* The first block's type (the first word's bits 14-12, after the E8
   * bit: the second byte's bits 6-4) 7, no such type; checksums right. */
  {
    g_autoptr (GByteArray) cab = g_byte_array_sized_new (good->len);

    g_byte_array_append (cab, good->data, good->len);
    g_assert_cmpuint (cab->data[lzx + 1] & 0x70, ==, 0x30);
    cab->data[lzx + 1] |= 0x70;
    cab_test_seal (cab);
    write_cab (&p, cab);
    assert_refused (&p, "the compressed data is corrupt");
  }
  /* The first block's size 32768 -> 32770: it runs 2 bytes into the next
   * frame, whose block header is then read 2 bytes late (type 0). */
  {
    g_autoptr (GByteArray) cab = g_byte_array_sized_new (good->len);

    g_byte_array_append (cab, good->data, good->len);
    /* The second word: the size's bits 11-0, then 4 pad bits. */
    g_assert_cmpuint (cab->data[lzx + 2] | cab->data[lzx + 3], ==, 0);
    cab->data[lzx + 2] |= 0x20;
    cab_test_seal (cab);
    write_cab (&p, cab);
    assert_refused (&p, "the compressed data is corrupt");
  }
  /* Cut in the third frame's data. */
  {
    g_autoptr (GByteArray) cab = g_byte_array_sized_new (good->len);

    g_byte_array_append (cab, good->data, good->len);
    g_byte_array_set_size (cab, (guint)(lzx + 2 * (32768 + 16 + 8) + 1000));
    write_cab (&p, cab);
    assert_refused (&p, "cannot unpack file.bin from the cabinet");
  }
  /* A raw byte changed and the checksums made right: unpacked, but not the
   * payload (the tests' byte comparison is what catches this). */
  {
    g_autoptr (GByteArray) cab = g_byte_array_sized_new (good->len);
    g_autoptr (GError) error = NULL;
    g_autofree char *out = g_build_filename (p.dir, "out", NULL);
    g_autofree char *tmp = NULL;
    g_autofree char *got = NULL;
    gsize len;

    g_byte_array_append (cab, good->data, good->len);
    cab->data[lzx + 16 + 5] ^= 0x01;
    cab_test_seal (cab);
    write_cab (&p, cab);
    tmp = etl_cab_extract_pdb (p.cab, out, "file.bin", G_MAXUINT32, &error);
    g_assert_no_error (error);
    g_assert_true (g_file_get_contents (tmp, &got, &len, NULL));
    g_assert_cmpuint (len, ==, RANDOM_SIZE);
    g_assert_cmpint (memcmp (got, g_bytes_get_data (payload, NULL), len), !=, 0);
    g_assert_cmpuint ((guint8)got[5], ==, ((const guint8 *)g_bytes_get_data (payload, NULL))[5] ^ 0x01);
    g_remove (tmp);
  }
  place_clear (&p);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/cab/lzx/pdb", test_lzx_pdb);
  g_test_add_func ("/cab/lzx/blocks", test_lzx_blocks);
  g_test_add_func ("/cab/lzx/cabextract", test_lzx_cabextract);
  g_test_add_func ("/cab/lzx/7z", test_lzx_7z);
  g_test_add_func ("/cab/lzx/corrupt", test_lzx_corrupt);
  return g_test_run ();
}
