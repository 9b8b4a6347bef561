/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "etl-types.h"

G_BEGIN_DECLS

/**
 * EtlModuleIdKind:
 * @ETL_MODULE_ID_RSDS: DbgID_RSDS (type 36): a native image's CodeView
 *   record (PDB GUID, age and file name); resolvable
 * @ETL_MODULE_ID_ILRSDS: DbgID_ILRSDS (type 37): the PDB of a managed (IL)
 *   image (an assembly, or the IL side of an NGen image); recognised, not resolved
 * @ETL_MODULE_ID_PPDB: DbgPPDB (type 38): a portable PDB; recognised, not
 *   resolved
 * @ETL_MODULE_ID_DETERM: DbgDeterm (type 40): a deterministic build;
 *   recognised, not resolved
 *
 * Which KernelTraceControl ImageID record identified an image.
 */
typedef enum
{
  ETL_MODULE_ID_RSDS,
  ETL_MODULE_ID_ILRSDS,
  ETL_MODULE_ID_PPDB,
  ETL_MODULE_ID_DETERM,
} EtlModuleIdKind;

/**
 * EtlModuleId:
 * @kind: the record it came from
 * @image_base: ImageBase, the image's load address
 * @process_id: ProcessId as the record gives it (0 for the images of the
 *   kernel rundown, also for user images of process 4)
 * @guid: GuidSig (RSDS and ILRSDS only; zero otherwise)
 * @age: Age (RSDS and ILRSDS only)
 * @pdb_name: (nullable): PdbFileName, ANSI, as the image's CodeView record
 *   gives it (a bare name or a build machine's path); %NULL for the kinds
 *   without one
 *
 * The identity of an image's debug information.
 */
typedef struct
{
  EtlModuleIdKind kind;
  guint64 image_base;
  guint32 process_id;
  EtlGuid guid;
  guint32 age;
  const char *pdb_name;
} EtlModuleId;

#define ETL_MODULE_ID_PROVIDER "b3e675d7-2554-4f18-830b-2762732560de"
#define ETL_MODULE_ID_MAX_PDB_NAME 1024

const char *etl_module_id_kind_to_string (EtlModuleIdKind kind);
gboolean etl_module_id_read (const EtlRecord *record, EtlModuleId *id, char **pdb_name);

G_END_DECLS
