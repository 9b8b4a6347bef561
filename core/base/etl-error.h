/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define ETL_ERROR (etl_error_quark ())

/**
 * EtlError:
 * @ETL_ERROR_OPEN: the file cannot be opened or mapped (missing, a directory, a FIFO, no permission)
 * @ETL_ERROR_EMPTY: the file is empty or smaller than one WMI_BUFFER_HEADER
 * @ETL_ERROR_NOT_ETL: the first record is not the EventTrace header with a TRACE_LOGFILE_HEADER
 * @ETL_ERROR_TRUNCATED: the file ends inside a buffer; records before that point were kept
 * @ETL_ERROR_CORRUPT: a buffer or record header is inconsistent; the rest of that buffer was skipped
 * @ETL_ERROR_DECOMPRESS: a compressed buffer could not be decompressed to its SavedOffset
 * @ETL_ERROR_UNSUPPORTED: a feature of the file is not supported (unknown compression format)
 *
 * Error codes in the %ETL_ERROR domain.  Messages always name the file, the
 * byte offset and the reason.
 */
typedef enum
{
  ETL_ERROR_OPEN,
  ETL_ERROR_EMPTY,
  ETL_ERROR_NOT_ETL,
  ETL_ERROR_TRUNCATED,
  ETL_ERROR_CORRUPT,
  ETL_ERROR_DECOMPRESS,
  ETL_ERROR_UNSUPPORTED,
} EtlError;

GQuark etl_error_quark (void);

G_END_DECLS
