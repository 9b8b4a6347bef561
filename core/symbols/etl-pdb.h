/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "etl-msf.h"
#include "etl-pdb-error.h"
#include "etl-types.h"

G_BEGIN_DECLS

/**
 * EtlPdbFunctionKind:
 * @ETL_PDB_FUNCTION_PROCEDURE: from a module's S_GPROC32/S_LPROC32 (or _ID)
 *   record: the length is the record's CodeSize
 * @ETL_PDB_FUNCTION_PUBLIC: from the publics stream's S_PUB32 record of a
 *   function or code symbol (no procedure at that RVA): the length runs to
 *   the next function or the end of the section
 */
typedef enum
{
  ETL_PDB_FUNCTION_PROCEDURE,
  ETL_PDB_FUNCTION_PUBLIC,
} EtlPdbFunctionKind;

/**
 * EtlPdbFunction:
 * @rva: relative virtual address of the first byte (section's
 *   VirtualAddress + the record's offset)
 * @length: bytes of code
 * @name: the name as the PDB spells it (procedures: undecorated, e.g.
 *   `Foo::bar`; publics: decorated, e.g. `?bar@Foo@@QAEXXZ`, `_main`)
 * @kind: where it came from
 *
 * One entry of a PDB's function table (etl_pdb_get_functions()).
 */
typedef struct
{
  guint32 rva;
  guint32 length;
  const char *name;
  EtlPdbFunctionKind kind;
} EtlPdbFunction;

#define ETL_PDB_GUID_STRING_LEN 38

typedef struct _EtlPdb EtlPdb;

EtlPdb *etl_pdb_open (const char *path, GError **error);
EtlPdb *etl_pdb_new_from_bytes (GBytes *bytes, const char *path, GError **error);
EtlPdb *etl_pdb_new_from_msf (const EtlMsf *msf, GError **error);
EtlPdb *etl_pdb_ref (EtlPdb *pdb);
void etl_pdb_unref (EtlPdb *pdb);

const EtlGuid *etl_pdb_get_guid (const EtlPdb *pdb);
guint32 etl_pdb_get_age (const EtlPdb *pdb);
void etl_pdb_format_guid (const EtlGuid *guid, char out[ETL_PDB_GUID_STRING_LEN + 1]);
guint16 etl_pdb_get_machine (const EtlPdb *pdb);
const EtlPdbFunction *etl_pdb_get_functions (const EtlPdb *pdb, guint *n_functions);
guint etl_pdb_get_n_procedures (const EtlPdb *pdb);
guint etl_pdb_get_n_publics (const EtlPdb *pdb);
const EtlPdbFunction *etl_pdb_lookup (const EtlPdb *pdb, guint32 rva, guint32 *offset);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (EtlPdb, etl_pdb_unref)

G_END_DECLS
