/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * etl-pdb: a PDB's identity and its function table, for turning a native
 * frame's RVA into `function+0xOFFSET`.
 *
 * Why the project's own reader: no C library in Debian reads PDB files, and
 * the only free reader (LLVM's lib/DebugInfo/PDB) is C++; Windows tools use
 * msdia, which exists only there.  What a stack needs is small: the GUID and
 * age that match a module's DbgID_RSDS record, and (RVA, length, name) of
 * every function.
 *
 * The layouts come from LLVM's PDB documentation ("The PDB Info Stream",
 * "The DBI Stream", "The Module Information Stream", "The Public Symbol
 * Stream", "CodeView Symbol Records") and microsoft/microsoft-pdb
 * (langapi/include/cvinfo.h, PDB/dbi/dbi.h, gsi.h); facts only, no code:
 *
 * - stream 1, the PDB info stream: Version, Signature, Age (u32 each), then
 *   the GUID (16 bytes);
 * - stream 3, the DBI stream: a 64-byte header (below), then its substreams
 *   in order: module info, section contributions, section map, file info,
 *   type server map, EC, and the optional debug header (u16 stream numbers;
 *   entry 5 is the section header stream, IMAGE_SECTION_HEADERs of 40 bytes);
 * - a module info entry: 64 fixed bytes (ModuleSymStream u16 at 34,
 *   SymByteSize u32 at 36), the module and object names (NUL-terminated),
 *   padded to 4 bytes;
 * - a module stream: the CodeView signature (u32, 4 = C13), then symbol
 *   records up to SymByteSize; a record is RecordLen (u16, the bytes after
 *   it), RecordKind (u16), data;
 * - S_LPROC32 0x110F, S_GPROC32 0x1110, S_LPROC32_ID 0x1146, S_GPROC32_ID
 *   0x1147, S_LPROC32_DPC 0x1155, S_LPROC32_DPC_ID 0x1156: Parent, End, Next,
 *   CodeSize, DbgStart, DbgEnd, FunctionType, CodeOffset (u32 each), Segment
 *   (u16), Flags (u8), Name (NUL-terminated);
 * - the publics stream (the DBI header's PublicStreamIndex): a 28-byte
 *   header (SymHash, AddrMap, ...), SymHash bytes of hash table, then
 *   AddrMap bytes of u32 offsets into the symbol record stream
 *   (SymRecordStream), one per public, sorted by address;
 * - S_PUB32 0x110E: Flags (u32; 1 code, 2 function), Offset (u32), Segment
 *   (u16), Name.
 *
 * A symbol's RVA is its section's VirtualAddress + its offset (Segment is
 * 1-based).  The table keeps procedures with their CodeSize and publics of
 * code (flag code or function, or in an executable section); where both
 * name one RVA, the procedure wins (its name is the undecorated one), and a
 * public inside a procedure is dropped.  A public's length runs to the next
 * function or its section's end; a procedure that runs into the next
 * (only in a broken file) is cut there.  OMAP (the address maps of
 * post-link-optimised Windows binaries) is not applied.
 *
 * Every count, size and record length is checked against its stream or
 * substream; a PDB that breaks one gives a GError (ETL_PDB_ERROR) naming
 * the file, the offset and the reason, and no table.  A module stream named
 * by several module entries, or an S_PUB32 record by several address map
 * entries, is read once, so the work and the memory stay proportional to
 * the file's size.
 */
#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include <stdlib.h>
#include <string.h>

#include "etl-format-private.h"
#include "etl-msf.h"
#include "etl-pdb.h"

/* Fixed streams. */
#define PDB_STREAM_INFO 1
#define PDB_STREAM_DBI 3
#define PDB_INFO_VC70 20000404u
#define PDB_INFO_SIZE 28 /* Version, Signature, Age, GUID */

/* The DBI stream header (64 bytes). */
#define DBI_HEADER_SIZE 64
#define DBI_VERSION_SIGNATURE 0
#define DBI_PUBLIC_STREAM_INDEX 16
#define DBI_SYM_RECORD_STREAM 20
#define DBI_MOD_INFO_SIZE                                                                          \
  24 /* then SectionContributionSize, SectionMapSize, SourceInfoSize, TypeServerMapSize */
#define DBI_OPTIONAL_DBG_HEADER_SIZE 48
#define DBI_EC_SUBSTREAM_SIZE 52
#define DBI_MACHINE 58
#define DBI_DBG_SECTION_HDR 5 /* entry of the optional debug header */

#define MODI_FIXED_SIZE 64
#define MODI_SYM_STREAM 34
#define MODI_SYM_BYTE_SIZE 36

#define SECTION_HEADER_SIZE 40
#define SECTION_VIRTUAL_SIZE 8
#define SECTION_VIRTUAL_ADDRESS 12
#define SECTION_CHARACTERISTICS 36
#define IMAGE_SCN_CNT_CODE 0x00000020u
#define IMAGE_SCN_MEM_EXECUTE 0x20000000u

#define PUBLICS_HEADER_SIZE 28

#define S_PUB32 0x110E
#define S_LPROC32 0x110F
#define S_GPROC32 0x1110
#define S_LPROC32_ID 0x1146
#define S_GPROC32_ID 0x1147
#define S_LPROC32_DPC 0x1155
#define S_LPROC32_DPC_ID 0x1156
#define PROC_FIXED_SIZE 35 /* Parent .. Flags, after RecordKind */
#define PROC_CODE_SIZE 12
#define PROC_CODE_OFFSET 28
#define PROC_SEGMENT 32
#define PUB_FIXED_SIZE 10
#define PUB_FLAGS_CODE 1u
#define PUB_FLAGS_FUNCTION 2u

#define NO_STREAM 0xFFFF

typedef struct
{
  guint32 virtual_address;
  guint32 virtual_size;
  gboolean code;
} PdbSection;

/* A function before sorting: @seq keeps equal RVAs in reading order. */
typedef struct
{
  EtlPdbFunction f;
  guint32 seq;
  guint16 section; /* 0-based */
} PdbEntry;

struct _EtlPdb
{
  gatomicrefcount ref;
  EtlGuid guid;
  guint32 age;
  guint16 machine;
  GStringChunk *names;
  EtlPdbFunction *functions;
  guint32 *starts; /* functions[i].rva */
  guint n_functions;
  guint n_procedures;
  guint n_publics;
};

typedef struct
{
  const EtlMsf *msf;
  EtlPdb *pdb;
  PdbSection *sections;
  guint n_sections;
  GArray *entries;      /* PdbEntry */
  guint8 *streams_read; /* a bit per MSF stream: module streams walked */
} PdbLoad;

/* Whether bit @i of @bits was set; sets it.  A hostile file may name one
 * module stream from many module entries, or one S_PUB32 record from many
 * address map entries: each is read once, so the work stays bounded by the
 * file's size. */
static gboolean
test_and_set (guint8 *bits, gsize i)
{
  gboolean was = (bits[i / 8] >> (i % 8)) & 1;

  bits[i / 8] |= (guint8)(1u << (i % 8));
  return was;
}

static const guint8 *
stream_data (GBytes *bytes, gsize *size)
{
  return g_bytes_get_data (bytes, size);
}

/* The NUL-terminated name at @p, at most @room bytes long with its NUL. */
static gboolean
read_name (const guint8 *p, gsize room, const char **name)
{
  const guint8 *nul = room ? memchr (p, 0, room) : NULL;

  if (nul == NULL)
    return FALSE;
  *name = (const char *)p;
  return TRUE;
}

static gboolean
read_info (PdbLoad *load, GError **error)
{
  g_autoptr (GBytes) bytes = etl_msf_read_stream (load->msf, PDB_STREAM_INFO, error);
  const guint8 *p;
  gsize size;
  guint32 version;

  if (bytes == NULL)
    return FALSE;
  p = stream_data (bytes, &size);
  if (size < PDB_INFO_SIZE)
    {
      etl_msf_set_stream_error (
          load->msf, error, ETL_PDB_ERROR_TRUNCATED, PDB_STREAM_INFO, (guint32)size,
          "the PDB info stream has %" G_GSIZE_FORMAT " bytes, fewer than the %u of Version, "
          "Signature, Age and GUID",
          size, PDB_INFO_SIZE);
      return FALSE;
    }
  version = etl_read_u32 (p);
  if (version < PDB_INFO_VC70)
    {
      etl_msf_set_stream_error (load->msf, error, ETL_PDB_ERROR_UNSUPPORTED, PDB_STREAM_INFO, 0,
                                "PDB info Version %u is older than VC70 (20000404): no GUID",
                                version);
      return FALSE;
    }
  load->pdb->age = etl_read_u32 (p + 8);
  etl_guid_read (&load->pdb->guid, p + 12);
  return TRUE;
}

static gboolean
read_sections (PdbLoad *load, guint32 stream, guint32 entry_offset, GError **error)
{
  g_autoptr (GBytes) bytes = NULL;
  const guint8 *p;
  gsize size;

  if (stream == NO_STREAM || !etl_msf_has_stream (load->msf, stream))
    {
      etl_msf_set_stream_error (
          load->msf, error, ETL_PDB_ERROR_MISSING_STREAM, PDB_STREAM_DBI, entry_offset,
          "the DBI stream's optional debug header names no section header stream (%u)", stream);
      return FALSE;
    }
  bytes = etl_msf_read_stream (load->msf, stream, error);
  if (bytes == NULL)
    return FALSE;
  p = stream_data (bytes, &size);
  if (size % SECTION_HEADER_SIZE != 0)
    {
      etl_msf_set_stream_error (load->msf, error, ETL_PDB_ERROR_CORRUPT, stream, 0,
                                "the section header stream's %" G_GSIZE_FORMAT
                                " bytes are not a whole number of "
                                "40-byte IMAGE_SECTION_HEADERs",
                                size);
      return FALSE;
    }
  /* At most the stream's size / 40, and Segment is a u16. */
  load->n_sections = (guint)MIN (size / SECTION_HEADER_SIZE, G_MAXUINT16);
  load->sections = g_new (PdbSection, load->n_sections + 1);
  for (guint i = 0; i < load->n_sections; i++)
    {
      const guint8 *h = p + (gsize)i * SECTION_HEADER_SIZE;
      guint32 characteristics = etl_read_u32 (h + SECTION_CHARACTERISTICS);

      load->sections[i].virtual_size = etl_read_u32 (h + SECTION_VIRTUAL_SIZE);
      load->sections[i].virtual_address = etl_read_u32 (h + SECTION_VIRTUAL_ADDRESS);
      load->sections[i].code
          = (characteristics & (IMAGE_SCN_CNT_CODE | IMAGE_SCN_MEM_EXECUTE)) != 0;
    }
  return TRUE;
}

/* Adds a function at @segment:@offset unless the segment is not a section
 * or the RVA does not fit 32 bits (absolute and bogus symbols). */
static gboolean
add_entry (PdbLoad *load, guint16 segment, guint32 offset, guint32 length, const char *name,
           EtlPdbFunctionKind kind)
{
  PdbEntry e;
  guint64 rva;

  if (segment == 0 || segment > load->n_sections)
    return FALSE;
  rva = (guint64)load->sections[segment - 1].virtual_address + offset;
  if (rva > G_MAXUINT32)
    return FALSE;
  e.f.rva = (guint32)rva;
  /* No function runs past the 32-bit address space (a bogus CodeSize). */
  e.f.length = (guint32)MIN ((guint64)length, G_MAXUINT32 - rva + 1);
  e.f.name = g_string_chunk_insert (load->pdb->names, name);
  e.f.kind = kind;
  e.seq = load->entries->len;
  e.section = segment - 1;
  g_array_append_val (load->entries, e);
  return TRUE;
}

/* Walks the symbol records of one module stream, from byte 4 (after the
 * CodeView signature) to @sym_bytes, and adds its procedures. */
static gboolean
read_module_symbols (PdbLoad *load, guint32 stream, guint32 sym_bytes, GError **error)
{
  g_autoptr (GBytes) bytes = etl_msf_read_stream (load->msf, stream, error);
  const guint8 *p;
  gsize size, off = 4;

  if (bytes == NULL)
    return FALSE;
  p = stream_data (bytes, &size);
  if (sym_bytes > size)
    {
      etl_msf_set_stream_error (
          load->msf, error, ETL_PDB_ERROR_TRUNCATED, stream, (guint32)size,
          "SymByteSize %u is past the module stream's %" G_GSIZE_FORMAT " bytes", sym_bytes, size);
      return FALSE;
    }
  while (off + 4 <= sym_bytes)
    {
      guint16 len = etl_read_u16 (p + off);
      guint16 kind = etl_read_u16 (p + off + 2);
      const char *name;

      if (len < 2 || off + 2 + len > sym_bytes)
        {
          etl_msf_set_stream_error (
              load->msf, error, ETL_PDB_ERROR_CORRUPT, stream, (guint32)off,
              "symbol record length %u %s (SymByteSize %u)", len,
              len < 2 ? "is shorter than its kind" : "runs past the module's symbols", sym_bytes);
          return FALSE;
        }
      switch (kind)
        {
        case S_LPROC32:
        case S_GPROC32:
        case S_LPROC32_ID:
        case S_GPROC32_ID:
        case S_LPROC32_DPC:
        case S_LPROC32_DPC_ID:
          if (len - 2 < PROC_FIXED_SIZE
              || !read_name (p + off + 4 + PROC_FIXED_SIZE, len - 2 - PROC_FIXED_SIZE, &name))
            {
              etl_msf_set_stream_error (
                  load->msf, error, ETL_PDB_ERROR_CORRUPT, stream, (guint32)off,
                  "procedure record 0x%04x of %u bytes has no room for its fields and "
                  "NUL-terminated name",
                  kind, len);
              return FALSE;
            }
          if (add_entry (load, etl_read_u16 (p + off + 4 + PROC_SEGMENT),
                         etl_read_u32 (p + off + 4 + PROC_CODE_OFFSET),
                         etl_read_u32 (p + off + 4 + PROC_CODE_SIZE), name,
                         ETL_PDB_FUNCTION_PROCEDURE))
            load->pdb->n_procedures++;
          break;
        default:
          break;
        }
      off += 2 + (gsize)len;
    }
  return TRUE;
}

/* The module info substream: each module's symbols. */
static gboolean
read_modules (PdbLoad *load, const guint8 *dbi, guint32 start, guint32 end, GError **error)
{
  guint32 off = start;

  while (off < end)
    {
      const guint8 *m = dbi + off;
      const char *module_name, *obj_name;
      guint16 stream;
      guint32 sym_bytes;
      gsize rest;

      if (end - off < MODI_FIXED_SIZE
          || !read_name (m + MODI_FIXED_SIZE, end - off - MODI_FIXED_SIZE, &module_name))
        {
          etl_msf_set_stream_error (
              load->msf, error, ETL_PDB_ERROR_CORRUPT, PDB_STREAM_DBI, off,
              "a module info entry runs past the module info substream (it ends at 0x%x)", end);
          return FALSE;
        }
      rest = off + MODI_FIXED_SIZE + strlen (module_name) + 1;
      if (!read_name (dbi + rest, end - rest, &obj_name))
        {
          etl_msf_set_stream_error (
              load->msf, error, ETL_PDB_ERROR_CORRUPT, PDB_STREAM_DBI, off,
              "module info entry '%s': its object name runs past the module info substream",
              module_name);
          return FALSE;
        }
      stream = etl_read_u16 (m + MODI_SYM_STREAM);
      sym_bytes = etl_read_u32 (m + MODI_SYM_BYTE_SIZE);
      if (stream != NO_STREAM && sym_bytes > 4 && stream < etl_msf_get_n_streams (load->msf)
          && !test_and_set (load->streams_read, stream)
          && !read_module_symbols (load, stream, sym_bytes, error))
        return FALSE;
      rest += strlen (obj_name) + 1;
      off = (guint32)MIN ((rest + 3) & ~(gsize)3, end);
    }
  return TRUE;
}

/* The publics stream's address map: every S_PUB32 of code. */
static gboolean
read_publics (PdbLoad *load, guint32 publics_stream, guint32 symrec_stream, GError **error)
{
  g_autoptr (GBytes) publics = NULL;
  g_autoptr (GBytes) symrec = NULL;
  g_autofree guint8 *seen = NULL; /* a bit per byte of the symbol record stream */
  const guint8 *p, *s;
  gsize size, sym_size;
  guint64 map_start, map_size;

  if (publics_stream == NO_STREAM || !etl_msf_has_stream (load->msf, publics_stream))
    return TRUE; /* a PDB without publics: procedures only */
  publics = etl_msf_read_stream (load->msf, publics_stream, error);
  if (publics == NULL)
    return FALSE;
  p = stream_data (publics, &size);
  if (size < PUBLICS_HEADER_SIZE)
    {
      etl_msf_set_stream_error (
          load->msf, error, ETL_PDB_ERROR_TRUNCATED, publics_stream, (guint32)size,
          "the publics stream has %" G_GSIZE_FORMAT " bytes, fewer than its 28-byte header", size);
      return FALSE;
    }
  map_start = PUBLICS_HEADER_SIZE + (guint64)etl_read_u32 (p);
  map_size = etl_read_u32 (p + 4);
  if (map_start + map_size > size || map_size % 4 != 0)
    {
      etl_msf_set_stream_error (load->msf, error, ETL_PDB_ERROR_CORRUPT, publics_stream, 0,
                                "SymHash %u + AddrMap %" G_GUINT64_FORMAT
                                " bytes do not fit the publics stream's %" G_GSIZE_FORMAT
                                " bytes in whole u32 entries",
                                etl_read_u32 (p), map_size, size);
      return FALSE;
    }
  if (map_size == 0)
    return TRUE;
  symrec = etl_msf_read_stream (load->msf, symrec_stream, error);
  if (symrec == NULL)
    return FALSE;
  s = stream_data (symrec, &sym_size);
  seen = g_malloc0 (sym_size / 8 + 1);
  for (guint64 i = 0; i < map_size / 4; i++)
    {
      guint32 off = etl_read_u32 (p + map_start + 4 * i);
      guint16 len, kind;
      guint32 flags;
      guint16 segment;
      const char *name;

      if (off > sym_size || sym_size - off < 4 || (len = etl_read_u16 (s + off)) < 2
          || len > sym_size - off - 2)
        {
          etl_msf_set_stream_error (
              load->msf, error, ETL_PDB_ERROR_CORRUPT, publics_stream, (guint32)(map_start + 4 * i),
              "address map entry %" G_GUINT64_FORMAT ": the record at 0x%x runs past the "
              "symbol record stream's %" G_GSIZE_FORMAT " bytes",
              i, off, sym_size);
          return FALSE;
        }
      kind = etl_read_u16 (s + off + 2);
      if (kind != S_PUB32 || test_and_set (seen, off))
        continue;
      if (len - 2 < PUB_FIXED_SIZE
          || !read_name (s + off + 4 + PUB_FIXED_SIZE, len - 2 - PUB_FIXED_SIZE, &name))
        {
          etl_msf_set_stream_error (
              load->msf, error, ETL_PDB_ERROR_CORRUPT, symrec_stream, off,
              "S_PUB32 record of %u bytes has no room for its fields and NUL-terminated name", len);
          return FALSE;
        }
      flags = etl_read_u32 (s + off + 4);
      segment = etl_read_u16 (s + off + 12);
      if ((flags & (PUB_FLAGS_CODE | PUB_FLAGS_FUNCTION)) == 0
          && (segment == 0 || segment > load->n_sections || !load->sections[segment - 1].code))
        continue;
      if (add_entry (load, segment, etl_read_u32 (s + off + 8), 0, name, ETL_PDB_FUNCTION_PUBLIC))
        load->pdb->n_publics++;
    }
  return TRUE;
}

static gboolean
read_dbi (PdbLoad *load, GError **error)
{
  g_autoptr (GBytes) bytes = NULL;
  const guint8 *p;
  gsize size;
  guint64 off = DBI_HEADER_SIZE, dbg_start = 0, dbg_size = 0;
  guint32 mod_start = 0, mod_end = 0;
  guint16 section_stream;

  if (!etl_msf_has_stream (load->msf, PDB_STREAM_DBI))
    {
      etl_msf_set_stream_error (load->msf, error, ETL_PDB_ERROR_MISSING_STREAM, PDB_STREAM_DBI, 0,
                                "no DBI stream (a PDB without debug information)");
      return FALSE;
    }
  bytes = etl_msf_read_stream (load->msf, PDB_STREAM_DBI, error);
  if (bytes == NULL)
    return FALSE;
  p = stream_data (bytes, &size);
  if (size < DBI_HEADER_SIZE)
    {
      etl_msf_set_stream_error (
          load->msf, error, ETL_PDB_ERROR_TRUNCATED, PDB_STREAM_DBI, (guint32)size,
          "the DBI stream has %" G_GSIZE_FORMAT " bytes, fewer than its 64-byte header", size);
      return FALSE;
    }
  if (etl_read_u32 (p + DBI_VERSION_SIGNATURE) != 0xFFFFFFFFu)
    {
      etl_msf_set_stream_error (load->msf, error, ETL_PDB_ERROR_UNSUPPORTED, PDB_STREAM_DBI, 0,
                                "DBI VersionSignature 0x%08x is not -1 (an old DBI header)",
                                etl_read_u32 (p + DBI_VERSION_SIGNATURE));
      return FALSE;
    }
  load->pdb->machine = etl_read_u16 (p + DBI_MACHINE);

  /* The substreams' sizes: six i32 from ModInfoSize (the seventh field,
   * MFCTypeServerIndex, is not a size), then the EC substream's. */
  for (guint i = 0; i < 7; i++)
    {
      guint pos = i < 5    ? DBI_MOD_INFO_SIZE + 4 * i
                  : i == 5 ? DBI_EC_SUBSTREAM_SIZE
                           : DBI_OPTIONAL_DBG_HEADER_SIZE;
      guint32 n = etl_read_u32 (p + pos);

      if (n > G_MAXINT32 || off + n > size)
        {
          etl_msf_set_stream_error (
              load->msf, error, n > G_MAXINT32 ? ETL_PDB_ERROR_CORRUPT : ETL_PDB_ERROR_TRUNCATED,
              PDB_STREAM_DBI, pos,
              "DBI substream size %d at header offset %u runs past the stream's %" G_GSIZE_FORMAT
              " bytes",
              (gint32)n, pos, size);
          return FALSE;
        }
      if (i == 0)
        {
          mod_start = (guint32)off;
          mod_end = (guint32)(off + n);
        }
      if (i == 6)
        {
          dbg_start = off;
          dbg_size = n;
        }
      off += n;
    }

  section_stream = dbg_size >= 2 * (DBI_DBG_SECTION_HDR + 1)
                       ? etl_read_u16 (p + dbg_start + 2 * DBI_DBG_SECTION_HDR)
                       : NO_STREAM;
  return read_sections (load, section_stream, (guint32)(dbg_start + 2 * DBI_DBG_SECTION_HDR), error)
         && read_modules (load, p, mod_start, mod_end, error)
         && read_publics (load, etl_read_u16 (p + DBI_PUBLIC_STREAM_INDEX),
                          etl_read_u16 (p + DBI_SYM_RECORD_STREAM), error);
}

static int
compare_entries (const void *a, const void *b)
{
  const PdbEntry *x = a, *y = b;

  if (x->f.rva != y->f.rva)
    return x->f.rva < y->f.rva ? -1 : 1;
  if (x->f.kind != y->f.kind)
    return x->f.kind == ETL_PDB_FUNCTION_PROCEDURE ? -1 : 1;
  return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static gboolean
entries_sorted (const PdbEntry *e, guint n)
{
  for (guint i = 1; i < n; i++)
    if (compare_entries (&e[i - 1], &e[i]) > 0)
      return FALSE;
  return TRUE;
}

/* The entries in table order: the procedures (read first, @n_procedures of
 * them) and the publics sorted apart, each only when it is not in order
 * already (module streams list their procedures by address, the address
 * map its publics), then merged.  (transfer full) */
static PdbEntry *
sort_entries (PdbEntry *e, guint n, guint n_procedures)
{
  PdbEntry *procs, *pubs, *out = g_new (PdbEntry, MAX (n, 1));
  guint n_pubs = n - n_procedures, i = 0, j = 0, k = 0;

  if (n == 0)
    return out; /* @e is NULL */
  procs = e;
  pubs = e + n_procedures;
  if (!entries_sorted (procs, n_procedures))
    qsort (procs, n_procedures, sizeof *e, compare_entries);
  if (!entries_sorted (pubs, n_pubs))
    qsort (pubs, n_pubs, sizeof *e, compare_entries);
  while (i < n_procedures && j < n_pubs)
    out[k++] = compare_entries (&procs[i], &pubs[j]) <= 0 ? procs[i++] : pubs[j++];
  while (i < n_procedures)
    out[k++] = procs[i++];
  while (j < n_pubs)
    out[k++] = pubs[j++];
  return out;
}

/* Sorts the entries into the table: one function per RVA (a procedure
 * before a public, else the first read), no public inside a procedure,
 * each public's length up to the next function or its section's end, and
 * no two functions overlapping. */
static void
build_table (PdbLoad *load)
{
  guint n = load->entries->len, kept = 0;
  g_autofree PdbEntry *e
      = sort_entries ((PdbEntry *)(void *)load->entries->data, n, load->pdb->n_procedures);
  guint64 covered_end = 0; /* end of the last procedure kept */

  load->pdb->functions = g_new (EtlPdbFunction, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    {
      if (kept > 0 && e[i].f.rva == load->pdb->functions[kept - 1].rva)
        continue;
      if (e[i].f.kind == ETL_PDB_FUNCTION_PUBLIC && e[i].f.rva < covered_end)
        continue;
      if (e[i].f.kind == ETL_PDB_FUNCTION_PROCEDURE)
        covered_end = MAX (covered_end, (guint64)e[i].f.rva + e[i].f.length);
      else
        {
          const PdbSection *s = &load->sections[e[i].section];
          /* Within the section and the 32-bit address space. */
          guint64 end
              = MIN ((guint64)s->virtual_address + s->virtual_size, (guint64)G_MAXUINT32 + 1);

          /* Up to the next entry with a higher RVA (the next kept function). */
          for (guint j = i + 1; j < n; j++)
            if (e[j].f.rva != e[i].f.rva)
              {
                end = MIN (end, e[j].f.rva);
                break;
              }
          e[i].f.length = end > e[i].f.rva ? (guint32)MIN (end - e[i].f.rva, G_MAXUINT32) : 0;
        }
      load->pdb->functions[kept++] = e[i].f;
    }
  /* Procedures overlap only in broken files: the earlier one ends where the
   * next starts, so that a lookup's bisection finds the one entry. */
  for (guint i = 0; i + 1 < kept; i++)
    {
      EtlPdbFunction *f = &load->pdb->functions[i];

      if ((guint64)f->rva + f->length > f[1].rva)
        f->length = f[1].rva - f->rva;
    }
  load->pdb->n_functions = kept;
  /* The starts alone, for a lookup's bisection: 4 bytes an entry in cache. */
  load->pdb->starts = g_new (guint32, MAX (kept, 1));
  for (guint i = 0; i < kept; i++)
    load->pdb->starts[i] = load->pdb->functions[i].rva;
}

/**
 * etl_pdb_new_from_bytes:
 * @bytes: a whole PDB file
 * @path: the name used in error messages
 * @error: return location for a #GError in %ETL_PDB_ERROR
 *
 * Reads a PDB's identity (PDB info stream: GUID, Age) and its function
 * table: the procedures of every module stream and the code publics of the
 * publics stream, placed by the section headers (see the file's comment;
 * LLVM's PDB documentation, microsoft-pdb's cvinfo.h).
 *
 * Returns: (transfer full) (nullable): the PDB, or %NULL with a code of
 *   %ETL_PDB_ERROR (etl_msf_new_from_bytes()'s, _MISSING_STREAM when the
 *   PDB info stream, the DBI stream or the section headers are absent,
 *   _UNSUPPORTED for a pre-VC70 info or DBI stream, _TRUNCATED or _CORRUPT
 *   for a structure that does not fit)
 */
EtlPdb *
etl_pdb_new_from_bytes (GBytes *bytes, const char *path, GError **error)
{
  g_autoptr (EtlMsf) msf = NULL;

  g_return_val_if_fail (bytes != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  msf = etl_msf_new_from_bytes (bytes, path, error);
  if (msf == NULL)
    return NULL;
  return etl_pdb_new_from_msf (msf, error);
}

/**
 * etl_pdb_open:
 * @path: a PDB file
 * @error: return location for a #GError in %ETL_PDB_ERROR
 *
 * Maps @path (etl_msf_open()) and reads it as etl_pdb_new_from_bytes()
 * does; the mapping is released before returning.
 *
 * Returns: (transfer full) (nullable): the PDB, or %NULL with
 *   %ETL_PDB_ERROR_OPEN or a code of etl_pdb_new_from_bytes()
 */
EtlPdb *
etl_pdb_open (const char *path, GError **error)
{
  g_autoptr (EtlMsf) msf = NULL;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  msf = etl_msf_open (path, error);
  if (msf == NULL)
    return NULL;
  return etl_pdb_new_from_msf (msf, error);
}

/**
 * etl_pdb_new_from_msf:
 * @msf: an MSF container
 * @error: return location for a #GError in %ETL_PDB_ERROR
 *
 * The common part of etl_pdb_open() and etl_pdb_new_from_bytes().  The
 * PDB copies what it keeps: @msf may be freed afterwards.
 *
 * Returns: (transfer full) (nullable): the PDB, or %NULL (see
 *   etl_pdb_new_from_bytes())
 */
EtlPdb *
etl_pdb_new_from_msf (const EtlMsf *msf, GError **error)
{
  g_autoptr (EtlPdb) pdb = g_new0 (EtlPdb, 1);
  PdbLoad load = { msf, pdb, NULL, 0, NULL, NULL };
  gboolean ok;

  g_return_val_if_fail (msf != NULL, NULL);

  g_atomic_ref_count_init (&pdb->ref);
  pdb->names = g_string_chunk_new (64 * 1024);
  load.entries = g_array_new (FALSE, FALSE, sizeof (PdbEntry));
  load.streams_read = g_malloc0 (etl_msf_get_n_streams (msf) / 8 + 1);
  ok = read_info (&load, error) && read_dbi (&load, error);
  if (ok)
    build_table (&load);
  g_array_unref (load.entries);
  g_free (load.streams_read);
  g_free (load.sections);
  return ok ? g_steal_pointer (&pdb) : NULL;
}

/**
 * etl_pdb_ref:
 * @pdb: a PDB
 *
 * Returns: (transfer full): @pdb, one more reference (thread-safe)
 */
EtlPdb *
etl_pdb_ref (EtlPdb *pdb)
{
  g_return_val_if_fail (pdb != NULL, NULL);
  g_atomic_ref_count_inc (&pdb->ref);
  return pdb;
}

/**
 * etl_pdb_unref:
 * @pdb: (transfer full) (nullable): a PDB
 *
 * Drops a reference; the last frees the table and its names.
 */
void
etl_pdb_unref (EtlPdb *pdb)
{
  if (pdb == NULL || !g_atomic_ref_count_dec (&pdb->ref))
    return;
  g_free (pdb->functions);
  g_free (pdb->starts);
  if (pdb->names)
    g_string_chunk_free (pdb->names);
  g_free (pdb);
}

/**
 * etl_pdb_get_guid:
 * @pdb: a PDB
 *
 * Returns: (transfer none): the PDB info stream's GUID, which a module's
 *   DbgID_RSDS record names
 */
const EtlGuid *
etl_pdb_get_guid (const EtlPdb *pdb)
{
  return &pdb->guid;
}

/**
 * etl_pdb_get_age:
 * @pdb: a PDB
 *
 * Returns: the PDB info stream's Age (a DbgID_RSDS record's Age matches it)
 */
guint32
etl_pdb_get_age (const EtlPdb *pdb)
{
  return pdb->age;
}

/**
 * etl_pdb_get_machine:
 * @pdb: a PDB
 *
 * Returns: the DBI header's Machine (IMAGE_FILE_MACHINE_*: 0x14C x86,
 *   0x8664 x64, 0xAA64 ARM64), 0 when unknown
 */
guint16
etl_pdb_get_machine (const EtlPdb *pdb)
{
  return pdb->machine;
}

/**
 * etl_pdb_format_guid:
 * @guid: a GUID
 * @out: (out caller-allocates): 39 bytes
 *
 * Formats @guid as Windows prints a PDB's GUID (and llvm-pdbutil does):
 * upper case in braces, e.g. "{12DC0A4F-BD7D-4F2A-A9BE-263BACAEB467}".
 */
void
etl_pdb_format_guid (const EtlGuid *guid, char out[ETL_PDB_GUID_STRING_LEN + 1])
{
  char lower[ETL_GUID_STRING_LEN + 1];

  etl_guid_to_string (guid, lower);
  out[0] = '{';
  for (guint i = 0; i < ETL_GUID_STRING_LEN; i++)
    out[i + 1] = g_ascii_toupper (lower[i]);
  out[ETL_GUID_STRING_LEN + 1] = '}';
  out[ETL_GUID_STRING_LEN + 2] = '\0';
}

/**
 * etl_pdb_get_functions:
 * @pdb: a PDB
 * @n_functions: (out): the number of entries
 *
 * The function table: sorted by RVA, one entry per RVA, none overlapping
 * the next (see the file's comment for the rules).
 *
 * Returns: (transfer none) (array length=n_functions): the table, valid as
 *   long as @pdb
 */
const EtlPdbFunction *
etl_pdb_get_functions (const EtlPdb *pdb, guint *n_functions)
{
  *n_functions = pdb->n_functions;
  return pdb->functions;
}

/**
 * etl_pdb_get_n_procedures:
 * @pdb: a PDB
 *
 * Returns: how many procedure records the module streams held in a section
 *   (before one was kept per RVA)
 */
guint
etl_pdb_get_n_procedures (const EtlPdb *pdb)
{
  return pdb->n_procedures;
}

/**
 * etl_pdb_get_n_publics:
 * @pdb: a PDB
 *
 * Returns: how many code publics the publics stream held in a section
 *   (before the table kept one function per RVA)
 */
guint
etl_pdb_get_n_publics (const EtlPdb *pdb)
{
  return pdb->n_publics;
}

/**
 * etl_pdb_lookup:
 * @pdb: a PDB
 * @rva: a relative virtual address in the module the PDB describes
 * @offset: (out) (optional): @rva minus the function's start
 *
 * The function that holds @rva (bisection of the sorted table): the entry
 * with the highest start at or below @rva, when @rva lies within its
 * length.
 *
 * Returns: (transfer none) (nullable): the function, or %NULL when @rva is
 *   in none
 */
const EtlPdbFunction *
etl_pdb_lookup (const EtlPdb *pdb, guint32 rva, guint32 *offset)
{
  guint lo = 0, hi;
  const EtlPdbFunction *f;

  g_return_val_if_fail (pdb != NULL, NULL);

  hi = pdb->n_functions;
  /* The first entry whose start is above @rva. */
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (pdb->starts[mid] <= rva)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo == 0)
    return NULL;
  f = &pdb->functions[lo - 1];
  if (rva - f->rva >= f->length)
    return NULL;
  if (offset)
    *offset = rva - f->rva;
  return f;
}
