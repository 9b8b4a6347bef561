/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "etl-types.h"

G_BEGIN_DECLS

/**
 * EtlSymbolPathKind:
 * @ETL_SYMBOL_PATH_FOLDER: a plain folder: `DIR\name.pdb`, or a symbol
 *   store's layout below it (`DIR\name.pdb\KEY\name.pdb`)
 * @ETL_SYMBOL_PATH_CACHE: `cache*DIR`: a local store that caches what the
 *   elements to its right find
 * @ETL_SYMBOL_PATH_SERVER: `srv*[DIR*…]URL` (or `symsrv*symsrv.dll*…`): a
 *   symbol server, with the local stores it fills, nearest first
 *
 * What one element of a symbol path names.  The syntax is that of
 * `_NT_SYMBOL_PATH` as Microsoft's debuggers document it ("Symbol path for
 * Windows debuggers"): elements separated by `;`, `srv*` and `cache*`
 * elements made of `*`-separated parts.
 */
typedef enum
{
  ETL_SYMBOL_PATH_FOLDER,
  ETL_SYMBOL_PATH_CACHE,
  ETL_SYMBOL_PATH_SERVER,
} EtlSymbolPathKind;

/**
 * EtlSymbolPathElement:
 * @kind: what the element names
 * @stores: (array zero-terminated=1): the local folders, in the element's
 *   order: the folder itself (%ETL_SYMBOL_PATH_FOLDER), the cache folder
 *   (%ETL_SYMBOL_PATH_CACHE; empty: the default cache) or a server's
 *   downstream stores (%ETL_SYMBOL_PATH_SERVER; none: the default cache)
 * @url: (nullable): the server's URL (%ETL_SYMBOL_PATH_SERVER only)
 *
 * One element of a symbol path.
 */
typedef struct
{
  EtlSymbolPathKind kind;
  char **stores;
  char *url;
} EtlSymbolPathElement;

typedef struct _EtlSymbolPath EtlSymbolPath;

/**
 * EtlSymbolLookup:
 * @ETL_SYMBOL_LOOKUP_FOUND: @path is the PDB
 * @ETL_SYMBOL_LOOKUP_COMPRESSED: @path is the PDB as a cabinet (`name.pd_`)
 *   that must be unpacked first
 * @ETL_SYMBOL_LOOKUP_NOT_FOUND: no local folder of the path has it
 *
 * The outcome of etl_symbol_path_find_local().
 */
typedef enum
{
  ETL_SYMBOL_LOOKUP_FOUND,
  ETL_SYMBOL_LOOKUP_COMPRESSED,
  ETL_SYMBOL_LOOKUP_NOT_FOUND,
} EtlSymbolLookup;

#define ETL_SYMBOL_PATH_MAX_ELEMENTS 256

EtlSymbolPath *etl_symbol_path_parse (const char *text, GError **error);
void etl_symbol_path_free (EtlSymbolPath *path);
guint etl_symbol_path_get_n_elements (const EtlSymbolPath *path);
const EtlSymbolPathElement *etl_symbol_path_get_element (const EtlSymbolPath *path, guint index);
char *etl_symbol_path_to_string (const EtlSymbolPath *path);

char *etl_symbol_store_key (const EtlGuid *guid, guint32 age);
char *etl_symbol_pdb_basename (const char *pdb_path);
char *etl_symbol_store_dir (const char *store, const char *name, const char *key);
EtlSymbolLookup etl_symbol_path_find_local (const EtlSymbolPath *path, const char *pdb_name, const EtlGuid *guid,
                                            guint32 age, char **found, GPtrArray *tried);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (EtlSymbolPath, etl_symbol_path_free)

G_END_DECLS
