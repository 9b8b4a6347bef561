/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test-broken: broken traces generated from real ones.  Each gives either a
 * clear error (file, offset, reason) or a partial load that keeps the valid
 * records and lists what was skipped — never a crash, a hang or an unbounded
 * allocation (CI runs this under AddressSanitizer and UBSan too).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>
#ifdef G_OS_WIN32
#include <io.h>
#else
#include <unistd.h>
#endif

#include "etl-format-private.h"
#include "etl-test-util.h"
#include "etl-trace.h"

typedef struct
{
  char *dir;
  char *contents;
  gsize len;
} Fixture;

static void
put_u16 (char *p, guint16 v)
{
  p[0] = (char) (v & 0xFF);
  p[1] = (char) (v >> 8);
}

static void
put_u32 (char *p, guint32 v)
{
  for (guint i = 0; i < 4; i++)
    p[i] = (char) ((v >> (8 * i)) & 0xFF);
}

static void
put_u64 (char *p, guint64 v)
{
  for (guint i = 0; i < 8; i++)
    p[i] = (char) ((v >> (8 * i)) & 0xFF);
}

static gboolean
fixture_load (Fixture *fx, const char *name)
{
  g_autofree char *path = etl_test_corpus_path (name);

  if (path == NULL)
    return FALSE;
  g_assert_true (g_file_get_contents (path, &fx->contents, &fx->len, NULL));
  fx->dir = g_dir_make_tmp ("etlscope-broken-XXXXXX", NULL);
  g_assert_nonnull (fx->dir);
  return TRUE;
}

static void
fixture_clear (Fixture *fx)
{
  g_autoptr (GDir) dir = g_dir_open (fx->dir, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (fx->dir, name, NULL);

      g_unlink (path);
    }
  g_rmdir (fx->dir);
  g_free (fx->contents);
  g_free (fx->dir);
}

static char *
fixture_write (Fixture *fx, const char *name, gsize len)
{
  char *path = g_build_filename (fx->dir, name, NULL);

  g_assert_true (g_file_set_contents (path, fx->contents, (gssize) len, NULL));
  return path;
}

/* Opens @path; expects success with at least one problem of @code naming the
 * file.  Returns the number of records kept. */
static guint64
expect_partial (const char *path, gint code, const char *reason_part)
{
  const char *paths[] = { path, NULL };
  g_autoptr (GError) error = NULL;
  g_autoptr (EtlTrace) trace = etl_trace_open (paths, NULL, NULL, NULL, &error);
  const EtlFileInfo *info;
  gboolean seen = FALSE;
  guint64 n;

  g_assert_no_error (error);
  g_assert_nonnull (trace);
  info = etl_trace_get_file_info (trace, 0);
  g_assert_cmpuint (info->problems->len, >=, 1);
  for (guint i = 0; i < info->problems->len; i++)
    {
      const GError *p = g_ptr_array_index (info->problems, i);

      g_assert_true (p->domain == ETL_ERROR);
      g_assert_nonnull (strstr (p->message, path));
      g_assert_nonnull (strstr (p->message, "offset "));
      if (p->code == code && (reason_part == NULL || strstr (p->message, reason_part) != NULL))
        seen = TRUE;
    }
  if (!seen)
    g_error ("expected a problem with code %d and '%s' in %s; first: %s", code, reason_part ? reason_part : "",
             path, ((const GError *) g_ptr_array_index (info->problems, 0))->message);

  /* Whatever was kept is sorted and can be re-read. */
  n = etl_trace_get_n_records (trace);
  for (guint64 i = 0; i < n; i++)
    {
      EtlRecord r;

      if (i > 0)
        g_assert_cmpint (etl_trace_get_filetime (trace, i - 1), <=, etl_trace_get_filetime (trace, i));
      g_assert_true (etl_trace_get_record (trace, i, &r, NULL));
      g_assert_cmpuint (r.size, <=, r.raw_len);
      etl_record_clear (&r);
    }
  return n;
}

static void
expect_error (const char *path, gint code)
{
  const char *paths[] = { path, NULL };
  g_autoptr (GError) error = NULL;
  EtlTrace *trace = etl_trace_open (paths, NULL, NULL, NULL, &error);

  g_assert_null (trace);
  g_assert_error (error, ETL_ERROR, code);
  g_assert_nonnull (strstr (error->message, path));
  g_assert_nonnull (strstr (error->message, "offset "));
}

/* gcevents.etl: five 64 KiB buffers, 71 records. */
static void
test_truncated_everywhere (void)
{
  Fixture fx = { 0 };
  guint64 previous = 0;

  if (!fixture_load (&fx, "gcevents.etl"))
    return;
  /* At every buffer boundary, inside each WMI_BUFFER_HEADER, and at every
   * 8-byte step of the second buffer's records (mid-record cuts). */
  for (gsize cut = 0x10000; cut < fx.len; cut += 0x10000)
    {
      g_autofree char *p1 = fixture_write (&fx, "cut-boundary.etl", cut);
      g_autofree char *p2 = fixture_write (&fx, "cut-header.etl", cut + 0x20);
      const char *paths[] = { p1, NULL };
      g_autoptr (GError) error = NULL;
      g_autoptr (EtlTrace) trace = etl_trace_open (paths, NULL, NULL, NULL, &error);

      g_assert_no_error (error);
      g_assert_cmpuint (etl_trace_get_n_records (trace), >=, previous);
      previous = etl_trace_get_n_records (trace);
      expect_partial (p2, ETL_ERROR_TRUNCATED, "WMI_BUFFER_HEADER");
    }
  for (gsize cut = 0x10000 + 0x48; cut < 0x10000 + 1224; cut += 8)
    {
      g_autofree char *p = fixture_write (&fx, "cut-record.etl", cut);
      guint64 kept = expect_partial (p, ETL_ERROR_TRUNCATED, "file ends inside a buffer");

      g_assert_cmpuint (kept, >=, 2);
      g_assert_cmpuint (kept, <, 71);
    }
  fixture_clear (&fx);
}

static void
test_saved_offset_beyond (void)
{
  Fixture fx = { 0 };
  g_autofree char *p = NULL;

  if (!fixture_load (&fx, "gcevents.etl"))
    return;
  put_u32 (fx.contents + 0x10000 + ETL_WBH_SAVED_OFFSET, 0x00FFFFFF);
  p = fixture_write (&fx, "saved-offset.etl", fx.len);
  /* The 0xFF filler after the last record still ends the buffer. */
  g_assert_cmpuint (expect_partial (p, ETL_ERROR_CORRUPT, "SavedOffset"), ==, 71);
  fixture_clear (&fx);
}

static void
test_buffer_size_small_and_large (void)
{
  Fixture fx = { 0 };
  g_autofree char *small = NULL;
  g_autofree char *large = NULL;

  if (!fixture_load (&fx, "gcevents.etl"))
    return;
  put_u32 (fx.contents + 0x20000 + ETL_WBH_BUFFER_SIZE, 0x10);
  small = fixture_write (&fx, "buffer-small.etl", fx.len);
  /* Buffers before the bad one are kept. */
  g_assert_cmpuint (expect_partial (small, ETL_ERROR_CORRUPT, "BufferSize 16"), >=, 2);

  put_u32 (fx.contents + 0x20000 + ETL_WBH_BUFFER_SIZE, 0x00F00000);
  large = fixture_write (&fx, "buffer-large.etl", fx.len);
  expect_partial (large, ETL_ERROR_TRUNCATED, "file ends inside a buffer");

  put_u32 (fx.contents + 0x20000 + ETL_WBH_BUFFER_SIZE, 0xFFFFFFF0u);
  g_free (large);
  large = fixture_write (&fx, "buffer-huge.etl", fx.len);
  expect_partial (large, ETL_ERROR_CORRUPT, "outside");
  fixture_clear (&fx);
}

/* primitive-types.etl: the second buffer (0x2000) holds five EVENT_HEADER64
 * records starting at 0x2048. */
static void
test_record_sizes (void)
{
  const guint16 sizes[] = { 0, 1, 7, 0x4F, 0x1FFF, 0xFFFF };

  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    {
      Fixture fx = { 0 };
      g_autofree char *p = NULL;
      const char *paths[2] = { NULL, NULL };
      g_autoptr (GError) error = NULL;
      g_autoptr (EtlTrace) trace = NULL;

      if (!fixture_load (&fx, "primitive-types.etl"))
        return;
      put_u16 (fx.contents + 0x2048, sizes[i]);
      p = fixture_write (&fx, "record-size.etl", fx.len);
      paths[0] = p;
      trace = etl_trace_open (paths, NULL, NULL, NULL, &error);
      g_assert_no_error (error);
      /* Size 0x4F is odd but big enough for the header: the next record is
       * then looked for at the 8-aligned offset 0x50, inside the payload. */
      if (sizes[i] < 80 || sizes[i] > 0x2000 - 0x48)
        g_assert_cmpuint (expect_partial (p, ETL_ERROR_CORRUPT, "size"), ==, 2);
      fixture_clear (&fx);
    }
}

static void
test_unknown_header_type (void)
{
  Fixture fx = { 0 };
  g_autofree char *p = NULL;
  const char *paths[2] = { NULL, NULL };
  g_autoptr (GError) error = NULL;
  g_autoptr (EtlTrace) trace = NULL;
  const EtlFileInfo *info;

  if (!fixture_load (&fx, "primitive-types.etl"))
    return;
  fx.contents[0x2048 + 2] = 0x1F; /* header type 31: not defined */
  p = fixture_write (&fx, "unknown-type.etl", fx.len);
  paths[0] = p;
  trace = etl_trace_open (paths, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  info = etl_trace_get_file_info (trace, 0);
  g_assert_cmpuint (info->n_records, ==, 7);
  g_assert_cmpuint (info->n_skipped, ==, 1);
  g_assert_cmpuint (info->records_by_header_type[31], ==, 1);
  g_assert_cmpuint (etl_trace_get_n_records (trace), ==, 6);
  g_assert_cmpuint (info->problems->len, ==, 0);
  fixture_clear (&fx);
}

#define TLH (ETL_WMI_BUFFER_HEADER_SIZE + ETL_SYSTEM_HEADER_SIZE)

static void
test_header_fields (void)
{
  Fixture fx = { 0 };
  /* primitive-types: PointerSize 8, so BootTime is at TLH + 0xF8. */
  const gsize perf_freq = TLH + 0xF8 + 8, reserved_flags = TLH + 0xF8 + 24;

  if (!fixture_load (&fx, "primitive-types.etl"))
    return;

  {
    g_autofree char *p = NULL;

    put_u32 (fx.contents + TLH + ETL_TLH_POINTER_SIZE, 5);
    p = fixture_write (&fx, "pointer-size.etl", fx.len);
    g_assert_cmpuint (expect_partial (p, ETL_ERROR_CORRUPT, "PointerSize 5"), ==, 7);
    put_u32 (fx.contents + TLH + ETL_TLH_POINTER_SIZE, 8);
  }
  {
    g_autofree char *p = NULL;

    put_u64 (fx.contents + perf_freq, 0);
    p = fixture_write (&fx, "perf-freq.etl", fx.len);
    g_assert_cmpuint (expect_partial (p, ETL_ERROR_CORRUPT, "PerfFreq"), ==, 7);
    put_u64 (fx.contents + perf_freq, 10000000);
  }
  {
    g_autofree char *p = NULL;

    put_u32 (fx.contents + reserved_flags, ETL_CLOCK_CPU_CYCLE);
    put_u32 (fx.contents + TLH + ETL_TLH_CPU_SPEED_IN_MHZ, 0);
    p = fixture_write (&fx, "cpu-speed.etl", fx.len);
    g_assert_cmpuint (expect_partial (p, ETL_ERROR_CORRUPT, "CpuSpeedInMHz"), ==, 7);
    put_u32 (fx.contents + reserved_flags, ETL_CLOCK_QPC);
  }
  {
    g_autofree char *p = NULL;

    put_u64 (fx.contents + TLH + ETL_TLH_END_TIME, 1);
    p = fixture_write (&fx, "end-time.etl", fx.len);
    g_assert_cmpuint (expect_partial (p, ETL_ERROR_CORRUPT, "EndTime"), ==, 7);
  }
  {
    g_autofree char *p = NULL;

    /* Not the EventTrace header at all: a fatal, clear error. */
    put_u16 (fx.contents + ETL_WMI_BUFFER_HEADER_SIZE + 6, 0x0301);
    p = fixture_write (&fx, "not-header.etl", fx.len);
    expect_error (p, ETL_ERROR_NOT_ETL);
  }
  fixture_clear (&fx);
}

/* net.4.5.2.x64.etl: the buffer at 0x200 is XPRESS-compressed. */
static void
test_compressed_garbage (void)
{
  Fixture fx = { 0 };
  g_autofree char *garbage = NULL;
  g_autofree char *wrong_size = NULL;
  guint32 disk_size;
  guint64 kept;

  if (!fixture_load (&fx, "net.4.5.2.x64.etl"))
    return;
  g_assert_cmphex (etl_read_u16 ((const guint8 *) fx.contents + 0x200 + ETL_WBH_BUFFER_FLAG)
                     & ETL_BUFFER_FLAG_COMPRESSED, ==, ETL_BUFFER_FLAG_COMPRESSED);
  disk_size = etl_read_u32 ((const guint8 *) fx.contents + 0x200);
  {
    g_autofree char *saved = g_memdup2 (fx.contents + 0x200 + 0x48, disk_size - 0x48);

    for (guint32 i = 0x48; i < disk_size; i++)
      fx.contents[0x200 + i] = (char) (i * 131 + 7);
    garbage = fixture_write (&fx, "compressed-garbage.etl", fx.len);
    memcpy (fx.contents + 0x200 + 0x48, saved, disk_size - 0x48);
  }
  kept = expect_partial (garbage, ETL_ERROR_DECOMPRESS, "compressed");
  g_assert_cmpuint (kept, >, 170000);
  g_assert_cmpuint (kept, <, 179474);

  /* SavedOffset says the payload is 4 KB shorter than it decompresses to. */
  put_u32 (fx.contents + 0x200 + ETL_WBH_SAVED_OFFSET,
           etl_read_u32 ((const guint8 *) fx.contents + 0x200 + ETL_WBH_SAVED_OFFSET) - 4096);
  wrong_size = fixture_write (&fx, "compressed-wrong-size.etl", fx.len);
  kept = expect_partial (wrong_size, ETL_ERROR_DECOMPRESS, "expected");
  g_assert_cmpuint (kept, <, 179474);
  fixture_clear (&fx);
}

#ifndef O_BINARY
#define O_BINARY 0 /* POSIX has no text mode */
#endif

/* pwrite(), or a seek and a write on Windows (which has no pwrite). */
static gssize
write_at (int fd, const void *data, gsize len, guint64 offset)
{
#ifdef G_OS_WIN32
  if (_lseeki64 (fd, (__int64) offset, SEEK_SET) < 0)
    return -1;
  return _write (fd, data, (unsigned int) len);
#else
  return pwrite (fd, data, len, (off_t) offset);
#endif
}

/* A sparse file over 4 GiB: 257 empty 16 MiB buffers, then the real records. */
static void
test_sparse_over_4gib (void)
{
  Fixture fx = { 0 };
  g_autofree char *path = NULL;
  const guint32 filler = 16u * 1024 * 1024;
  const guint n_fillers = 257;
  char header[ETL_WMI_BUFFER_HEADER_SIZE];
  const char *paths[2] = { NULL, NULL };
  g_autoptr (GError) error = NULL;
  g_autoptr (EtlTrace) trace = NULL;
  EtlRecord r;
  guint64 data_at;
  int fd;

  if (!fixture_load (&fx, "primitive-types.etl"))
    return;
  path = g_build_filename (fx.dir, "sparse.etl", NULL);
  fd = g_open (path, O_WRONLY | O_CREAT | O_TRUNC | O_BINARY, 0644);
  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (write_at (fd, fx.contents, 0x2000, 0), ==, 0x2000);
  memset (header, 0, sizeof header);
  put_u32 (header + ETL_WBH_BUFFER_SIZE, filler);
  put_u32 (header + ETL_WBH_SAVED_OFFSET, ETL_WMI_BUFFER_HEADER_SIZE);
  for (guint i = 0; i < n_fillers; i++)
    {
      put_u64 (header + ETL_WBH_SEQUENCE_NUMBER, 1 + i);
      g_assert_cmpint (write_at (fd, header, sizeof header, 0x2000 + (guint64) i * filler), ==, sizeof header);
    }
  data_at = 0x2000 + (guint64) n_fillers * filler;
  /* The real data buffer comes last in the file and in SequenceNumber. */
  put_u64 (fx.contents + 0x2000 + ETL_WBH_SEQUENCE_NUMBER, 1 + n_fillers);
  if (write_at (fd, fx.contents + 0x2000, 0x2000, data_at) != 0x2000)
    {
      int saved_errno = errno;
      g_autofree char *msg = g_strdup_printf ("cannot write a sparse file over 4 GiB here: %s",
                                              g_strerror (saved_errno));

      g_close (fd, NULL);
      g_test_skip (msg);
      fixture_clear (&fx);
      return;
    }
  g_assert_true (g_close (fd, NULL));
  g_assert_cmpuint (data_at, >, G_GUINT64_CONSTANT (0x100000000));

  paths[0] = path;
  trace = etl_trace_open (paths, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (etl_trace_get_file_info (trace, 0)->n_buffers, ==, 2 + n_fillers);
  g_assert_cmpuint (etl_trace_get_n_records (trace), ==, 7);
  g_assert_cmpuint (etl_trace_get_file_info (trace, 0)->problems->len, ==, 0);
  g_assert_true (etl_trace_get_record (trace, 6, &r, NULL));
  g_assert_cmpuint (r.file_offset, >, data_at);
  g_assert_cmpuint (r.pid, ==, 33984);
  etl_record_clear (&r);
  g_unlink (path);
  fixture_clear (&fx);
}

static void
test_directory (void)
{
  g_autofree char *dir = g_dir_make_tmp ("etlscope-special-XXXXXX", NULL);

  expect_error (dir, ETL_ERROR_OPEN);
  g_rmdir (dir);
}

static void
test_fifo (void)
{
#ifdef G_OS_WIN32
  g_test_skip ("Windows has no FIFOs in the file system");
#else
  g_autofree char *dir = g_dir_make_tmp ("etlscope-special-XXXXXX", NULL);
  g_autofree char *fifo = g_build_filename (dir, "pipe.etl", NULL);

  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  /* Opening must not block waiting for a writer. */
  expect_error (fifo, ETL_ERROR_OPEN);
  g_unlink (fifo);
  g_rmdir (dir);
#endif
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/etl/broken/truncated-everywhere", test_truncated_everywhere);
  g_test_add_func ("/etl/broken/saved-offset-beyond-buffer", test_saved_offset_beyond);
  g_test_add_func ("/etl/broken/buffer-size", test_buffer_size_small_and_large);
  g_test_add_func ("/etl/broken/record-sizes", test_record_sizes);
  g_test_add_func ("/etl/broken/unknown-header-type", test_unknown_header_type);
  g_test_add_func ("/etl/broken/header-fields", test_header_fields);
  g_test_add_func ("/etl/broken/compressed-garbage", test_compressed_garbage);
  g_test_add_func ("/etl/broken/sparse-over-4gib", test_sparse_over_4gib);
  g_test_add_func ("/etl/broken/directory", test_directory);
  g_test_add_func ("/etl/broken/fifo", test_fifo);

  return g_test_run ();
}
