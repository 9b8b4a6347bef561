/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "etl-stacks.h"
#include "etl-trace.h"

G_BEGIN_DECLS

/**
 * EtlDumpFormat:
 * @ETL_DUMP_JSONL: one JSON object a line (JSON Lines)
 * @ETL_DUMP_CSV: a header line, then one comma-separated line a record
 *   (RFC 4180 quoting)
 *
 * The text forms etl_dump_write() produces.
 */
typedef enum
{
  ETL_DUMP_JSONL,
  ETL_DUMP_CSV,
} EtlDumpFormat;

/**
 * EtlDumpFlags:
 * @ETL_DUMP_NONE: the header columns, names and process only
 * @ETL_DUMP_FIELDS: add each record's decoded payload fields (and the
 *   fields TraceEvent derives for kernel events)
 *
 * What each line holds besides the record header.
 */
typedef enum
{
  ETL_DUMP_NONE = 0,
  ETL_DUMP_FIELDS = 1 << 0,
} EtlDumpFlags;

/**
 * EtlDumpWriteFunc:
 * @data: the next bytes of the output, whole lines
 * @len: their length in bytes
 * @user_data: the closure given to etl_dump_write()
 * @error: return location for the writer's error
 *
 * Receives the output in order, from the thread that called
 * etl_dump_write().
 *
 * Returns: %FALSE (with @error set) to stop
 */
typedef gboolean (*EtlDumpWriteFunc) (const char *data, gsize len, gpointer user_data, GError **error);

/**
 * EtlDumpProblemFunc:
 * @index: the record (merged order) that could not be read
 * @problem: why (%ETL_ERROR_DECOMPRESS, %ETL_ERROR_CORRUPT)
 * @user_data: the closure given to etl_dump_write()
 *
 * Told of each record left out, in record order, from the thread that
 * called etl_dump_write().
 */
typedef void (*EtlDumpProblemFunc) (guint64 index, const GError *problem, gpointer user_data);

const char *const *etl_dump_csv_columns (void);
void etl_dump_append_json_string (GString *out, const char *str, gssize len);
gboolean etl_dump_append_record (GString *out, EtlTrace *trace, EtlStacks *stacks, EtlDumpFormat format,
                                 EtlDumpFlags flags, guint64 index, GError **error);
gboolean etl_dump_write (EtlTrace *trace, EtlStacks *stacks, EtlDumpFormat format, EtlDumpFlags flags,
                         guint64 n_records, guint n_threads, EtlDumpWriteFunc write, EtlDumpProblemFunc problem,
                         gpointer user_data, guint64 *n_problems, GError **error);

G_END_DECLS
