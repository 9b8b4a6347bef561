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
 * @ETL_SYMBOL_STATUS_COMPRESSED: only a compressed `name.pd_` was found and
 *   no unpacker is installed (etl_symbol_resolver_set_fetcher()), or it
 *   could not unpack it (the reason says why)
 * @ETL_SYMBOL_STATUS_DOWNLOADING: its PDB is being downloaded from a symbol
 *   server (the row's @received and @total say how far)
 * @ETL_SYMBOL_STATUS_DOWNLOAD_FAILED: a symbol server was asked and the
 *   download failed: network error, an answer that is no PDB or too big,
 *   no symbol-server support in this build (the reason says which)
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
  ETL_SYMBOL_STATUS_DOWNLOADING,
  ETL_SYMBOL_STATUS_DOWNLOAD_FAILED,
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
 * @received: bytes downloaded so far (%ETL_SYMBOL_STATUS_DOWNLOADING), or
 *   of the last download
 * @total: the download's size when the server said it (Content-Length),
 *   else 0
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
  guint64 received;
  guint64 total;
} EtlSymbolModuleStatus;

/**
 * EtlSymbolFetchResult:
 * @ETL_SYMBOL_FETCH_DONE: the PDB (unpacked when the server gave a
 *   `.pd_`) is in the temporary file returned
 * @ETL_SYMBOL_FETCH_NOT_ON_SERVER: the server answered 404 for every name
 *   it was asked (`name.pdb`, `name.pd_`, `file.ptr`)
 * @ETL_SYMBOL_FETCH_FAILED: anything else (the reason says what)
 * @ETL_SYMBOL_FETCH_CANCELLED: the cancellable was triggered; nothing is
 *   left on disk
 *
 * The outcome of an #EtlSymbolFetchFunc.
 */
typedef enum
{
  ETL_SYMBOL_FETCH_DONE,
  ETL_SYMBOL_FETCH_NOT_ON_SERVER,
  ETL_SYMBOL_FETCH_FAILED,
  ETL_SYMBOL_FETCH_CANCELLED,
} EtlSymbolFetchResult;

/**
 * EtlSymbolFetchProgress:
 * @progress_data: the request's @progress_data
 * @received: bytes received so far
 * @total: the answer's Content-Length, 0 when unknown
 *
 * Called by a fetcher, from the thread it runs in, as bytes arrive.
 */
typedef void (*EtlSymbolFetchProgress) (gpointer progress_data, guint64 received, guint64 total);

/**
 * EtlSymbolFetchRequest:
 * @url: the symbol server's URL, as the `srv*` element gives it
 * @pdb_name: the PDB's file name (`CppCon.pdb`)
 * @key: its symbol-store key (etl_symbol_store_key())
 * @dest: where the resolver will put the PDB once it has checked it: the
 *   KEY folder of the element's local store (etl_symbol_store_dir(); it may
 *   not exist yet) and @pdb_name.  A fetcher writes its temporary file in
 *   that folder (so that the rename is atomic), creating it.
 * @progress: reports bytes received
 * @progress_data: for @progress
 *
 * One PDB a resolver asks a symbol server for.
 */
typedef struct
{
  const char *url;
  const char *pdb_name;
  const char *key;
  const char *dest;
  EtlSymbolFetchProgress progress;
  gpointer progress_data;
} EtlSymbolFetchRequest;

/**
 * EtlSymbolFetchFunc:
 * @data: the fetcher's data
 * @request: what to fetch
 * @cancellable: (nullable): cancels the download
 * @file: (out) (transfer full): with %ETL_SYMBOL_FETCH_DONE, the temporary
 *   file holding the PDB (the resolver renames or removes it)
 * @reason: (out) (transfer full): otherwise why not, one sentence
 *
 * Downloads a PDB from a symbol server (the SymSrv HTTP protocol).  Runs in
 * the resolver's worker (or, on demand, in the thread naming a frame).
 *
 * Returns: the outcome
 */
typedef EtlSymbolFetchResult (*EtlSymbolFetchFunc) (gpointer data, const EtlSymbolFetchRequest *request,
                                                     GCancellable *cancellable, char **file, char **reason);

/**
 * EtlSymbolUnpackFunc:
 * @data: the fetcher's data
 * @cabinet: a local `name.pd_` (a cabinet holding the PDB)
 * @file: (out) (transfer full): a temporary file next to @cabinet holding
 *   the PDB unpacked (the resolver renames or removes it)
 * @error: return location for why not
 *
 * Unpacks a compressed PDB found in a local store.
 *
 * Returns: %TRUE when unpacked
 */
typedef gboolean (*EtlSymbolUnpackFunc) (gpointer data, const char *cabinet, char **file, GError **error);

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
void etl_symbol_resolver_set_fetcher (EtlSymbolResolver *resolver, EtlSymbolFetchFunc fetch, EtlSymbolUnpackFunc unpack,
                                      gpointer data, GDestroyNotify destroy);
void etl_symbol_resolver_set_downloads (EtlSymbolResolver *resolver, gboolean enabled);
gboolean etl_symbol_resolver_get_downloads (EtlSymbolResolver *resolver);
guint etl_symbol_resolver_retry (EtlSymbolResolver *resolver);
void etl_symbol_resolver_set_notify (EtlSymbolResolver *resolver, GFunc notify, gpointer data);
void etl_symbol_resolver_set_notify_full (EtlSymbolResolver *resolver, GFunc notify, GFunc queued, gpointer data,
                                          GDestroyNotify destroy);
guint etl_symbol_resolver_get_n_resolved (EtlSymbolResolver *resolver);
const char *etl_symbol_status_to_string (EtlSymbolStatus status);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (EtlSymbolResolver, etl_symbol_resolver_unref)

G_END_DECLS
