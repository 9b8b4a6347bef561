/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "etl-stacks.h"
#include "etl-symbol-path.h"

G_BEGIN_DECLS

/**
 * EtlSymbolStatus:
 * @ETL_SYMBOL_STATUS_PENDING: not looked for yet (no frame asked for it)
 * @ETL_SYMBOL_STATUS_RESOLVED: its PDB is open: frames get function names
 * @ETL_SYMBOL_STATUS_NO_DBGID: the trace has no DbgID_RSDS record for the
 *   image (not merged with KernelTraceControl's rundown)
 * @ETL_SYMBOL_STATUS_UNSUPPORTED: only a DbgID_ILRSDS, DbgPPDB or DbgDeterm
 *   record: recognised, not resolved
 * @ETL_SYMBOL_STATUS_NOT_FOUND: no local folder of the symbol path has the
 *   PDB (the reason lists the files tried)
 * @ETL_SYMBOL_STATUS_MISMATCH: a PDB of that name was found but its GUID or
 *   age is another build's
 * @ETL_SYMBOL_STATUS_UNREADABLE: the PDB found cannot be read (the reason is
 *   the reader's error)
 * @ETL_SYMBOL_STATUS_COMPRESSED: only a compressed `name.pd_` was found;
 *   unpacking cabinets is not supported yet
 *
 * Where a module's symbols stand.
 */
typedef enum
{
  ETL_SYMBOL_STATUS_PENDING,
  ETL_SYMBOL_STATUS_RESOLVED,
  ETL_SYMBOL_STATUS_NO_DBGID,
  ETL_SYMBOL_STATUS_UNSUPPORTED,
  ETL_SYMBOL_STATUS_NOT_FOUND,
  ETL_SYMBOL_STATUS_MISMATCH,
  ETL_SYMBOL_STATUS_UNREADABLE,
  ETL_SYMBOL_STATUS_COMPRESSED,
} EtlSymbolStatus;

/**
 * EtlSymbolModuleStatus:
 * @module: the image's file name ("ntdll.dll")
 * @pdb: (nullable): PdbFileName of its DbgID record
 * @guid: (nullable): the PDB GUID, `{…}` in upper case
 * @age: the PDB age (0 without a DbgID_RSDS / DbgID_ILRSDS record)
 * @status: where its symbols stand
 * @reason: (nullable): why it is not resolved (%NULL when resolved or
 *   pending)
 * @file: (nullable): the PDB file resolved from (or found and refused)
 *
 * One row of etl_symbol_resolver_dup_statuses(): one per distinct image
 * file name and identity.
 */
typedef struct
{
  char *module;
  char *pdb;
  char *guid;
  guint32 age;
  EtlSymbolStatus status;
  char *reason;
  char *file;
} EtlSymbolModuleStatus;

typedef struct _EtlSymbolResolver EtlSymbolResolver;

EtlSymbolResolver *etl_symbol_resolver_new (EtlStacks *stacks, const EtlSymbolPath *path, gboolean on_demand);
EtlSymbolResolver *etl_symbol_resolver_ref (EtlSymbolResolver *resolver);
void etl_symbol_resolver_unref (EtlSymbolResolver *resolver);

void etl_symbol_resolver_attach (EtlSymbolResolver *resolver);
void etl_symbol_resolver_detach (EtlSymbolResolver *resolver);
const char *etl_symbol_resolver_lookup (EtlSymbolResolver *resolver, guint module, guint64 offset,
                                        guint32 *function_offset);
void etl_symbol_resolver_request_all (EtlSymbolResolver *resolver);
guint etl_symbol_resolver_resolve_pending (EtlSymbolResolver *resolver, GCancellable *cancellable, GError **error);
EtlSymbolStatus etl_symbol_resolver_get_module_status (EtlSymbolResolver *resolver, guint module);
GArray *etl_symbol_resolver_dup_statuses (EtlSymbolResolver *resolver);
const char *etl_symbol_status_to_string (EtlSymbolStatus status);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (EtlSymbolResolver, etl_symbol_resolver_unref)

G_END_DECLS
