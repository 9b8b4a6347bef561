/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define ETL_PDB_ERROR (etl_pdb_error_quark ())

/**
 * EtlPdbError:
 * @ETL_PDB_ERROR_OPEN: the file cannot be opened or mapped (missing, a directory, no permission)
 * @ETL_PDB_ERROR_NOT_PDB: the file does not start with the MSF 7.00 superblock (too short, other
 * magic)
 * @ETL_PDB_ERROR_TRUNCATED: a block, stream or structure lies past the end of the file or of its
 * stream
 * @ETL_PDB_ERROR_CORRUPT: a field is inconsistent: a block index past NumBlocks, a stream directory
 *   that names more blocks than the file has, a record length or count past its substream
 * @ETL_PDB_ERROR_UNSUPPORTED: a valid but unsupported variant (a block size other than 512, 1024,
 *   2048 or 4096; a PDB info or DBI stream version older than VC70)
 * @ETL_PDB_ERROR_MISSING_STREAM: a stream the reader needs (PDB info, DBI) is absent
 *
 * Error codes in the %ETL_PDB_ERROR domain (core/symbols/).  Messages always
 * name the file, the byte offset in the file and the reason; inside a
 * stream they also give the stream's number and the offset in it.
 */
typedef enum
{
  ETL_PDB_ERROR_OPEN,
  ETL_PDB_ERROR_NOT_PDB,
  ETL_PDB_ERROR_TRUNCATED,
  ETL_PDB_ERROR_CORRUPT,
  ETL_PDB_ERROR_UNSUPPORTED,
  ETL_PDB_ERROR_MISSING_STREAM,
} EtlPdbError;

GQuark etl_pdb_error_quark (void);

G_END_DECLS
