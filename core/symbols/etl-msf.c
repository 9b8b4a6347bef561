/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * etl-msf: the MSF 7.00 ("big MSF") container that holds a PDB's streams.
 *
 * Why the project's own reader: no C library in Debian reads PDB files (the
 * only free reader, LLVM's lib/DebugInfo/MSF and PDB, is C++), and the
 * container is small.  The layout comes from LLVM's "The MSF File Format"
 * page and microsoft/microsoft-pdb's msf.cpp (facts only, no code):
 *
 * - the superblock at offset 0: the 32-byte magic
 *   "Microsoft C/C++ MSF 7.00\r\n\x1a" "DS\0\0\0", then six little-endian
 *   32-bit fields: BlockSize, FreeBlockMapBlock, NumBlocks,
 *   NumDirectoryBytes, Unknown, BlockMapAddr;
 * - the file is NumBlocks blocks of BlockSize bytes; block i starts at byte
 *   i × BlockSize;
 * - block BlockMapAddr holds the indices (u32) of the blocks of the stream
 *   directory, ceil(NumDirectoryBytes / BlockSize) of them;
 * - the stream directory: NumStreams (u32), NumStreams sizes (u32;
 *   0xFFFFFFFF marks a nil stream, which has no blocks), then for each
 *   stream in order its ceil(size / BlockSize) block indices (u32).
 *
 * Every index, count and size from the file is checked before use: the
 * directory may not name more entries than its NumDirectoryBytes hold, no
 * block index may reach NumBlocks, no stream may be larger than the file.
 * The directory is a flat list (no chain to follow), so a block named twice
 * cannot make a reader loop; each stream read allocates at most its size,
 * which is at most the file's size.
 */
#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include <stdarg.h>
#include <string.h>

#include "etl-format-private.h"
#include "etl-msf.h"

/**
 * etl_pdb_error_quark:
 *
 * Returns: the quark of the %ETL_PDB_ERROR domain
 */
GQuark
etl_pdb_error_quark (void)
{
  return g_quark_from_static_string ("etl-pdb-error-quark");
}

static const guint8 msf7_magic[32] = "Microsoft C/C++ MSF 7.00\r\n\x1a"
                                     "DS\0\0\0";
/* The small MSF 2.00 container of VC++ 6 and older PDBs: recognised, not read. */
static const char msf2_magic[] = "Microsoft C/C++ program database 2.00\r\n";

/* Offsets of the superblock's fields. */
#define SB_BLOCK_SIZE 32
#define SB_NUM_BLOCKS 40
#define SB_NUM_DIRECTORY_BYTES 44
#define SB_BLOCK_MAP_ADDR 52

struct _EtlMsf
{
  char *path;
  GMappedFile *mapped; /* NULL for etl_msf_new_from_bytes() */
  GBytes *bytes;       /* the whole file */
  const guint8 *data;
  gsize size;
  guint32 block_size;
  guint32 n_blocks;
  guint32 n_streams;
  guint8 *directory;    /* the stream directory's bytes, assembled */
  const guint8 *sizes;  /* n_streams u32 in @directory */
  const guint8 *blocks; /* every stream's block indices (u32) in @directory */
  guint32 *first_block; /* per stream, its first entry in @blocks */
};

static guint32
n_blocks_for (guint32 size, guint32 block_size)
{
  if (size == ETL_MSF_NIL_STREAM_SIZE)
    return 0;
  return (guint32)(((guint64)size + block_size - 1) / block_size);
}

static guint32
stream_block (const EtlMsf *msf, guint32 stream, guint32 i)
{
  return etl_read_u32 (msf->blocks + 4 * ((gsize)msf->first_block[stream] + i));
}

static void set_file_error (const EtlMsf *msf, GError **error, EtlPdbError code, guint64 offset,
                            const char *format, ...) G_GNUC_PRINTF (5, 6);

/* Where byte @k of the stream directory lies in the file (read_directory()
 * checked the blocks the block map names). */
static guint64
directory_file_offset (const EtlMsf *msf, guint64 k)
{
  guint32 block_map_addr = etl_read_u32 (msf->data + SB_BLOCK_MAP_ADDR);
  const guint8 *map = msf->data + (gsize)block_map_addr * msf->block_size;

  return (guint64)etl_read_u32 (map + 4 * (k / msf->block_size)) * msf->block_size
         + k % msf->block_size;
}

static void
set_file_error (const EtlMsf *msf, GError **error, EtlPdbError code, guint64 offset,
                const char *format, ...)
{
  g_autofree char *reason = NULL;
  va_list args;

  va_start (args, format);
  reason = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error (error, ETL_PDB_ERROR, code,
               "%s: offset %" G_GUINT64_FORMAT " (0x%" G_GINT64_MODIFIER "x): %s", msf->path,
               offset, offset, reason);
}

/* Copies @len bytes of the directory from its blocks (listed in block
 * BlockMapAddr) into msf->directory. */
static gboolean
read_directory (EtlMsf *msf, guint32 n_directory_bytes, guint32 block_map_addr, GError **error)
{
  guint32 n_dir_blocks = n_blocks_for (n_directory_bytes, msf->block_size);
  const guint8 *map = msf->data + (gsize)block_map_addr * msf->block_size;

  msf->directory = g_malloc (n_directory_bytes);
  for (guint32 i = 0; i < n_dir_blocks; i++)
    {
      guint32 block = etl_read_u32 (map + 4 * (gsize)i);
      guint32 chunk = MIN (msf->block_size, n_directory_bytes - i * msf->block_size);

      if (block >= msf->n_blocks)
        {
          set_file_error (
              msf, error, ETL_PDB_ERROR_CORRUPT, (guint64)block_map_addr * msf->block_size + 4 * i,
              "stream directory block %u is block %u, past NumBlocks %u", i, block, msf->n_blocks);
          return FALSE;
        }
      memcpy (msf->directory + (gsize)i * msf->block_size,
              msf->data + (gsize)block * msf->block_size, chunk);
    }
  return TRUE;
}

/* Checks the directory's counts and every block index it names. */
static gboolean
parse_directory (EtlMsf *msf, guint32 n_directory_bytes, GError **error)
{
  guint64 n_entries, entry = 0;
  guint64 file_bytes = (guint64)msf->n_blocks * msf->block_size;

  if (n_directory_bytes < 4)
    {
      set_file_error (msf, error, ETL_PDB_ERROR_CORRUPT, SB_NUM_DIRECTORY_BYTES,
                      "NumDirectoryBytes %u is too small for NumStreams", n_directory_bytes);
      return FALSE;
    }
  msf->n_streams = etl_read_u32 (msf->directory);
  if (msf->n_streams > (n_directory_bytes - 4) / 4)
    {
      set_file_error (
          msf, error, ETL_PDB_ERROR_CORRUPT, directory_file_offset (msf, 0),
          "the stream directory (%u bytes) cannot hold the sizes of its NumStreams %u streams",
          n_directory_bytes, msf->n_streams);
      return FALSE;
    }
  msf->sizes = msf->directory + 4;
  msf->blocks = msf->sizes + 4 * (gsize)msf->n_streams;
  n_entries = (n_directory_bytes - 4 - 4 * (guint64)msf->n_streams) / 4;
  msf->first_block = g_new (guint32, msf->n_streams + 1);
  for (guint32 s = 0; s < msf->n_streams; s++)
    {
      guint32 size = etl_read_u32 (msf->sizes + 4 * (gsize)s);
      guint32 n = n_blocks_for (size, msf->block_size);

      if (size != ETL_MSF_NIL_STREAM_SIZE && size > file_bytes)
        {
          set_file_error (
              msf, error, ETL_PDB_ERROR_CORRUPT, directory_file_offset (msf, 4 + 4 * (guint64)s),
              "stream %u: size %u bytes is larger than the file's %" G_GUINT64_FORMAT " bytes", s,
              size, file_bytes);
          return FALSE;
        }
      if (n > n_entries - entry)
        {
          set_file_error (msf, error, ETL_PDB_ERROR_CORRUPT,
                          directory_file_offset (msf, 4 + 4 * (guint64)s),
                          "stream %u: its %u blocks run past the stream directory's %u bytes", s, n,
                          n_directory_bytes);
          return FALSE;
        }
      msf->first_block[s] = (guint32)entry;
      for (guint32 i = 0; i < n; i++)
        {
          guint32 block = etl_read_u32 (msf->blocks + 4 * (entry + i));

          if (block >= msf->n_blocks)
            {
              set_file_error (
                  msf, error, ETL_PDB_ERROR_CORRUPT,
                  directory_file_offset (msf, 4 + 4 * ((guint64)msf->n_streams + entry + i)),
                  "stream %u: block %u is block index %u, past NumBlocks %u", s, i, block,
                  msf->n_blocks);
              return FALSE;
            }
        }
      entry += n;
    }
  msf->first_block[msf->n_streams] = (guint32)entry;
  return TRUE;
}

static gboolean
parse_superblock (EtlMsf *msf, GError **error)
{
  guint32 n_directory_bytes, block_map_addr, n_dir_blocks;

  if (msf->size >= sizeof msf2_magic - 1
      && memcmp (msf->data, msf2_magic, sizeof msf2_magic - 1) == 0)
    {
      set_file_error (msf, error, ETL_PDB_ERROR_UNSUPPORTED, 0,
                      "a PDB 2.00 file (the small MSF of Visual C++ 6 and older), not MSF 7.00");
      return FALSE;
    }
  if (msf->size < ETL_MSF_SUPERBLOCK_SIZE || memcmp (msf->data, msf7_magic, sizeof msf7_magic) != 0)
    {
      set_file_error (msf, error, ETL_PDB_ERROR_NOT_PDB, 0,
                      "not a PDB file: no MSF 7.00 superblock (%" G_GSIZE_FORMAT " bytes)",
                      msf->size);
      return FALSE;
    }
  msf->block_size = etl_read_u32 (msf->data + SB_BLOCK_SIZE);
  msf->n_blocks = etl_read_u32 (msf->data + SB_NUM_BLOCKS);
  n_directory_bytes = etl_read_u32 (msf->data + SB_NUM_DIRECTORY_BYTES);
  block_map_addr = etl_read_u32 (msf->data + SB_BLOCK_MAP_ADDR);

  if (msf->block_size < ETL_MSF_MIN_BLOCK_SIZE || msf->block_size > ETL_MSF_MAX_BLOCK_SIZE
      || (msf->block_size & (msf->block_size - 1)) != 0)
    {
      set_file_error (msf, error, ETL_PDB_ERROR_UNSUPPORTED, SB_BLOCK_SIZE,
                      "BlockSize %u is not a power of two from 512 to 32768", msf->block_size);
      return FALSE;
    }
  if (msf->n_blocks == 0 || (guint64)msf->n_blocks * msf->block_size > msf->size)
    {
      set_file_error (
          msf, error, msf->n_blocks == 0 ? ETL_PDB_ERROR_CORRUPT : ETL_PDB_ERROR_TRUNCATED,
          SB_NUM_BLOCKS, "NumBlocks %u of %u bytes do not fit the file's %" G_GSIZE_FORMAT " bytes",
          msf->n_blocks, msf->block_size, msf->size);
      return FALSE;
    }
  n_dir_blocks = n_blocks_for (n_directory_bytes, msf->block_size);
  if (n_directory_bytes == 0 || (guint64)n_dir_blocks * 4 > msf->block_size
      || n_directory_bytes > (guint64)msf->n_blocks * msf->block_size)
    {
      set_file_error (
          msf, error, ETL_PDB_ERROR_CORRUPT, SB_NUM_DIRECTORY_BYTES,
          "NumDirectoryBytes %u: 0, larger than the file, or %u directory blocks, more than one "
          "block of indices holds",
          n_directory_bytes, n_dir_blocks);
      return FALSE;
    }
  if (block_map_addr == 0 || block_map_addr >= msf->n_blocks)
    {
      set_file_error (msf, error, ETL_PDB_ERROR_CORRUPT, SB_BLOCK_MAP_ADDR,
                      "BlockMapAddr %u is not a block after the superblock and before NumBlocks %u",
                      block_map_addr, msf->n_blocks);
      return FALSE;
    }
  return read_directory (msf, n_directory_bytes, block_map_addr, error)
         && parse_directory (msf, n_directory_bytes, error);
}

/**
 * etl_msf_new_from_bytes:
 * @bytes: the whole file
 * @path: the name used in error messages (a path, or e.g. "<memory>")
 * @error: return location for a #GError in %ETL_PDB_ERROR
 *
 * Reads the superblock and the stream directory of an MSF 7.00 file held in
 * @bytes, checking every block index and stream size (see the file's
 * comment for the layout; LLVM's "The MSF File Format").
 *
 * Returns: (transfer full) (nullable): the container (it keeps a reference
 *   to @bytes), or %NULL with %ETL_PDB_ERROR_NOT_PDB, _UNSUPPORTED,
 *   _TRUNCATED or _CORRUPT
 */
EtlMsf *
etl_msf_new_from_bytes (GBytes *bytes, const char *path, GError **error)
{
  g_autoptr (EtlMsf) msf = g_new0 (EtlMsf, 1);

  g_return_val_if_fail (bytes != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  msf->path = g_strdup (path ? path : "<memory>");
  msf->bytes = g_bytes_ref (bytes);
  msf->data = g_bytes_get_data (bytes, &msf->size);
  if (!parse_superblock (msf, error))
    return NULL;
  return g_steal_pointer (&msf);
}

/**
 * etl_msf_open:
 * @path: a PDB file
 * @error: return location for a #GError in %ETL_PDB_ERROR
 *
 * Maps @path read-only (GMappedFile) and reads its MSF 7.00 superblock and
 * stream directory, as etl_msf_new_from_bytes().
 *
 * Returns: (transfer full) (nullable): the container, or %NULL with
 *   %ETL_PDB_ERROR_OPEN or a code of etl_msf_new_from_bytes()
 */
EtlMsf *
etl_msf_open (const char *path, GError **error)
{
  g_autoptr (GError) local_error = NULL;
  g_autoptr (GBytes) bytes = NULL;
  GMappedFile *mapped;
  EtlMsf *msf;

  g_return_val_if_fail (path != NULL, NULL);

  if (g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      g_set_error (error, ETL_PDB_ERROR, ETL_PDB_ERROR_OPEN,
                   "%s: offset 0 (0x0): cannot open: a directory", path);
      return NULL;
    }
  mapped = g_mapped_file_new (path, FALSE, &local_error);
  if (mapped == NULL)
    {
      g_set_error (error, ETL_PDB_ERROR, ETL_PDB_ERROR_OPEN, "%s: offset 0 (0x0): cannot open: %s",
                   path, local_error->message);
      return NULL;
    }
  bytes = g_mapped_file_get_bytes (mapped);
  msf = etl_msf_new_from_bytes (bytes, path, error);
  if (msf)
    msf->mapped = mapped;
  else
    g_mapped_file_unref (mapped);
  return msf;
}

/**
 * etl_msf_free:
 * @msf: (transfer full) (nullable): a container
 *
 * Frees @msf and unmaps its file.  Streams read from it
 * (etl_msf_read_stream()) stay valid: they hold their own references.
 */
void
etl_msf_free (EtlMsf *msf)
{
  if (msf == NULL)
    return;
  g_free (msf->first_block);
  g_free (msf->directory);
  g_bytes_unref (msf->bytes);
  g_clear_pointer (&msf->mapped, g_mapped_file_unref);
  g_free (msf->path);
  g_free (msf);
}

/**
 * etl_msf_get_path:
 * @msf: a container
 *
 * Returns: the path (or name) given when @msf was opened
 */
const char *
etl_msf_get_path (const EtlMsf *msf)
{
  return msf->path;
}

/**
 * etl_msf_get_block_size:
 * @msf: a container
 *
 * Returns: the superblock's BlockSize, bytes
 */
guint32
etl_msf_get_block_size (const EtlMsf *msf)
{
  return msf->block_size;
}

/**
 * etl_msf_get_n_blocks:
 * @msf: a container
 *
 * Returns: the superblock's NumBlocks
 */
guint32
etl_msf_get_n_blocks (const EtlMsf *msf)
{
  return msf->n_blocks;
}

/**
 * etl_msf_get_n_streams:
 * @msf: a container
 *
 * Returns: NumStreams of the stream directory (nil streams included)
 */
guint32
etl_msf_get_n_streams (const EtlMsf *msf)
{
  return msf->n_streams;
}

/**
 * etl_msf_has_stream:
 * @msf: a container
 * @stream: a stream number
 *
 * Returns: whether the directory lists @stream and it is not a nil stream
 *   (size 0xFFFFFFFF)
 */
gboolean
etl_msf_has_stream (const EtlMsf *msf, guint32 stream)
{
  return stream < msf->n_streams
         && etl_read_u32 (msf->sizes + 4 * (gsize)stream) != ETL_MSF_NIL_STREAM_SIZE;
}

/**
 * etl_msf_get_stream_size:
 * @msf: a container
 * @stream: a stream number
 *
 * Returns: the size of @stream in bytes; 0 for a nil or unlisted stream
 */
guint32
etl_msf_get_stream_size (const EtlMsf *msf, guint32 stream)
{
  return etl_msf_has_stream (msf, stream) ? etl_read_u32 (msf->sizes + 4 * (gsize)stream) : 0;
}

/**
 * etl_msf_get_file_offset:
 * @msf: a container
 * @stream: a stream number
 * @offset: a byte offset in @stream
 *
 * Where byte @offset of @stream lies in the file, for error messages.  An
 * offset at or past the stream's end maps to the end of its last block.
 *
 * Returns: the byte offset in the file; for a stream without blocks (empty
 *   or nil), that of its size in the stream directory, and for one past
 *   NumStreams, that of NumStreams
 */
guint64
etl_msf_get_file_offset (const EtlMsf *msf, guint32 stream, guint32 offset)
{
  guint32 size = etl_msf_get_stream_size (msf, stream);
  guint32 n = n_blocks_for (size, msf->block_size);

  if (n == 0)
    return directory_file_offset (msf, stream < msf->n_streams ? 4 + 4 * (guint64)stream : 0);
  if (offset >= size)
    return (guint64)stream_block (msf, stream, n - 1) * msf->block_size
           + (size - 1) % msf->block_size + 1;
  return (guint64)stream_block (msf, stream, offset / msf->block_size) * msf->block_size
         + offset % msf->block_size;
}

/**
 * etl_msf_read_stream:
 * @msf: a container
 * @stream: a stream number
 * @error: return location for a #GError in %ETL_PDB_ERROR
 *
 * The bytes of @stream, in order.  A stream whose blocks follow each other
 * in the file is a slice of the mapping; any other is copied (at most its
 * size, which etl_msf_new_from_bytes() checked against the file's).
 *
 * Returns: (transfer full) (nullable): the stream's bytes, empty for a
 *   stream of size 0, or %NULL with %ETL_PDB_ERROR_MISSING_STREAM when
 *   @stream is nil or past NumStreams
 */
GBytes *
etl_msf_read_stream (const EtlMsf *msf, guint32 stream, GError **error)
{
  guint32 size, n, first;
  gboolean contiguous = TRUE;
  guint8 *copy;

  g_return_val_if_fail (msf != NULL, NULL);

  if (!etl_msf_has_stream (msf, stream))
    {
      set_file_error (msf, error, ETL_PDB_ERROR_MISSING_STREAM,
                      etl_msf_get_file_offset (msf, stream, 0), "stream %u is %s", stream,
                      stream < msf->n_streams ? "a nil stream" : "not in the directory");
      return NULL;
    }
  size = etl_msf_get_stream_size (msf, stream);
  n = n_blocks_for (size, msf->block_size);
  if (n == 0)
    return g_bytes_new (NULL, 0);
  first = stream_block (msf, stream, 0);
  for (guint32 i = 1; i < n && contiguous; i++)
    contiguous = stream_block (msf, stream, i) == first + i;
  /* parse_directory() checked every index against NumBlocks, and NumBlocks
   * against the file's size. */
  if (contiguous && (guint64)first * msf->block_size + size <= msf->size)
    return g_bytes_new_from_bytes (msf->bytes, (gsize)first * msf->block_size, size);

  copy = g_malloc (size);
  for (guint32 i = 0; i < n; i++)
    {
      guint32 block = stream_block (msf, stream, i);
      guint32 chunk = MIN (msf->block_size, size - i * msf->block_size);

      g_assert ((guint64)block * msf->block_size + chunk <= msf->size);
      memcpy (copy + (gsize)i * msf->block_size, msf->data + (gsize)block * msf->block_size, chunk);
    }
  return g_bytes_new_take (copy, size);
}

/**
 * etl_msf_set_stream_error:
 * @msf: a container
 * @error: return location for a #GError
 * @code: the %ETL_PDB_ERROR code
 * @stream: the stream the bad bytes are in
 * @offset: their offset in @stream
 * @format: printf() format of the reason
 * @...: its arguments
 *
 * Sets @error to "PATH: offset FILEOFFSET (0xHEX): stream S + 0xOFFSET:
 * REASON", the file offset from etl_msf_get_file_offset().
 */
void
etl_msf_set_stream_error (const EtlMsf *msf, GError **error, EtlPdbError code, guint32 stream,
                          guint32 offset, const char *format, ...)
{
  g_autofree char *reason = NULL;
  guint64 file_offset = etl_msf_get_file_offset (msf, stream, offset);
  va_list args;

  va_start (args, format);
  reason = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error (error, ETL_PDB_ERROR, code,
               "%s: offset %" G_GUINT64_FORMAT " (0x%" G_GINT64_MODIFIER "x): stream %u + 0x%x: %s",
               msf->path, file_offset, file_offset, stream, offset, reason);
}
