/* SPDX-License-Identifier: GPL-3.0-or-later */

/**
 * SECTION:etl-module-id
 * @title: EtlModuleId
 * @short_description: KernelTraceControl ImageID records: which PDB an image needs
 *
 * xperf and PerfView, when they merge a kernel trace, add for each image of
 * the Image rundown and load records a group of KernelTraceControl ImageID
 * records (provider b3e675d7-2554-4f18-830b-2762732560de, classic
 * EVENT_TRACE_HEADER, version 2): ImageID (type 0), FileVersion (64) and the
 * image's debug directory entry, DbgID_RSDS (36) for a native image's PDB,
 * DbgID_ILRSDS (37) for the IL PDB of an NGen image, DbgPPDB (38) for a
 * portable PDB and DbgDeterm (40) for a deterministic build.  Their layouts
 * are TraceEvent's (KernelTraceControl parsers: DbgIDRSDSTraceData,
 * DbgPPDBTraceData, DbgDetermTraceData) and core/decode/etl-mof-config.c's
 * tables:
 *
 * - DbgID_RSDS / DbgID_ILRSDS: ImageBase (pointer), ProcessId (UINT32),
 *   GuidSig (GUID), Age (UINT32), PdbFileName (NUL-terminated ANSI string).
 * - DbgPPDB: ImageBase, ProcessId, TimeDateStamp (UINT32), MajorVersion,
 *   MinorVersion (UINT16).
 * - DbgDeterm: ImageBase, ProcessId.
 *
 * In net.4.5.2.x64.etl (PerfView's merge) the group comes right before the
 * Image DCStart record of the same ImageBase, on the same processor and at
 * the same time; etl-stacks.c attaches it to the Image record next to it.
 * The fields are read in place (bounds-checked): a trace can hold thousands.
 */

#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include <string.h>

#include "etl-module-id.h"

#define TYPE_DBGID_RSDS 36
#define TYPE_DBGID_ILRSDS 37
#define TYPE_DBGPPDB 38
#define TYPE_DBGDETERM 40

static guint32
read_u32 (const guint8 *p)
{
  return (guint32)p[0] | (guint32)p[1] << 8 | (guint32)p[2] << 16 | (guint32)p[3] << 24;
}

/**
 * etl_module_id_kind_to_string:
 * @kind: a kind
 *
 * Returns: (transfer none): the record's name as TraceEvent prints it
 *   ("DbgID_RSDS", "DbgID_ILRSDS", "DbgPPDB", "DbgDeterm")
 */
const char *
etl_module_id_kind_to_string (EtlModuleIdKind kind)
{
  switch (kind)
    {
    case ETL_MODULE_ID_RSDS:
      return "DbgID_RSDS";
    case ETL_MODULE_ID_ILRSDS:
      return "DbgID_ILRSDS";
    case ETL_MODULE_ID_PPDB:
      return "DbgPPDB";
    case ETL_MODULE_ID_DETERM:
    default:
      return "DbgDeterm";
    }
}

/**
 * etl_module_id_read:
 * @record: a record
 * @id: (out caller-allocates): the identity; its @pdb_name is left %NULL
 * @pdb_name: (out) (transfer full) (optional): PdbFileName (RSDS and ILRSDS),
 *   at most %ETL_MODULE_ID_MAX_PDB_NAME bytes, else %NULL
 *
 * Reads a KernelTraceControl DbgID_RSDS, DbgID_ILRSDS, DbgPPDB or
 * DbgDeterm record (see the section description for the layouts), with the
 * record's pointer size (4 or 8 bytes for ImageBase).  Every field is
 * bounds-checked against the payload; an RSDS record whose PdbFileName is
 * not NUL-terminated inside the payload, is empty or longer than
 * %ETL_MODULE_ID_MAX_PDB_NAME is refused.
 *
 * Returns: %TRUE when @record is one of those records and complete
 */
gboolean
etl_module_id_read (const EtlRecord *record, EtlModuleId *id, char **pdb_name)
{
  char guid[ETL_GUID_STRING_LEN + 1];
  const guint8 *d;
  gsize len, ptr, at;

  g_return_val_if_fail (record != NULL && id != NULL, FALSE);

  if (pdb_name != NULL)
    *pdb_name = NULL;
  if (record->kind != ETL_RECORD_KIND_CLASSIC || record->user_data == NULL)
    return FALSE;
  if (record->opcode != TYPE_DBGID_RSDS && record->opcode != TYPE_DBGID_ILRSDS && record->opcode != TYPE_DBGPPDB
      && record->opcode != TYPE_DBGDETERM)
    return FALSE;
  etl_guid_to_string (&record->provider, guid);
  if (g_ascii_strcasecmp (guid, ETL_MODULE_ID_PROVIDER) != 0)
    return FALSE;

  memset (id, 0, sizeof *id);
  d = record->user_data;
  len = record->user_data_len;
  ptr = etl_record_get_pointer_size (record);
  if (len < ptr + 4)
    return FALSE;
  id->image_base = ptr == 4 ? read_u32 (d) : (guint64)read_u32 (d) | (guint64)read_u32 (d + 4) << 32;
  id->process_id = read_u32 (d + ptr);
  at = ptr + 4;
  switch (record->opcode)
    {
    case TYPE_DBGPPDB:
      id->kind = ETL_MODULE_ID_PPDB;
      return TRUE;
    case TYPE_DBGDETERM:
      id->kind = ETL_MODULE_ID_DETERM;
      return TRUE;
    default:
      break;
    }
  id->kind = record->opcode == TYPE_DBGID_RSDS ? ETL_MODULE_ID_RSDS : ETL_MODULE_ID_ILRSDS;
  if (len - at < 16 + 4 + 1)
    return FALSE;
  etl_guid_read (&id->guid, d + at);
  id->age = read_u32 (d + at + 16);
  at += 20;
  {
    const guint8 *nul = memchr (d + at, 0, len - at);
    gsize n = nul != NULL ? (gsize)(nul - (d + at)) : 0;

    if (nul == NULL || n == 0 || n > ETL_MODULE_ID_MAX_PDB_NAME)
      return FALSE;
    if (pdb_name != NULL)
      *pdb_name = g_strndup ((const char *)d + at, n);
  }
  return TRUE;
}
