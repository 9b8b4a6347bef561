/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "etl-row-set.h"
#include "etl-trace.h"

G_BEGIN_DECLS

/**
 * EtlEventModelColumn:
 * @ETL_EVENT_MODEL_COLUMN_TIME: time since the trace's origin, in the unit that suits it (etl_time_format_span()) (string)
 * @ETL_EVENT_MODEL_COLUMN_CPU: processor index (string)
 * @ETL_EVENT_MODEL_COLUMN_PID: process id, empty when the record has none (string)
 * @ETL_EVENT_MODEL_COLUMN_TID: thread id, empty when the record has none (string)
 * @ETL_EVENT_MODEL_COLUMN_PROVIDER: provider name (string)
 * @ETL_EVENT_MODEL_COLUMN_NAME: the decoded event name ("GC/Start", from the
 *   event's schema; etl_record_dup_event_name() without one) (string)
 * @ETL_EVENT_MODEL_COLUMN_OPCODE: event id / opcode, or the HookId of kernel records (string)
 * @ETL_EVENT_MODEL_COLUMN_LEVEL: level name or number (string)
 * @ETL_EVENT_MODEL_COLUMN_SIZE: bytes of user data (string)
 * @ETL_EVENT_MODEL_COLUMN_PROCESS: the record's process as "name (PID)"
 *   from the trace's process table, "Process(PID)" when the table has no
 *   name, empty when the record names no process (string)
 * @ETL_EVENT_MODEL_COLUMN_PAYLOAD: the decoded fields as PerfView's "Rest"
 *   column shows them ("Count=1 Reason=AllocSmall …"), at most
 *   %ETL_EVENT_MODEL_PAYLOAD_CHARS characters (string)
 * @ETL_EVENT_MODEL_COLUMN_DECODE: why the record's user data is not all
 *   shown as fields, in a few words (etl_decode_status_label(): "no
 *   metadata", "partly decoded", "WPP, needs TMF", "no layout"); %NULL
 *   when it is, or when there is none (string)
 * @ETL_EVENT_MODEL_COLUMN_ROW: the row in the trace's merged sequence (guint64)
 *
 * Columns of an #EtlEventModel.
 */
typedef enum
{
  ETL_EVENT_MODEL_COLUMN_TIME,
  ETL_EVENT_MODEL_COLUMN_CPU,
  ETL_EVENT_MODEL_COLUMN_PID,
  ETL_EVENT_MODEL_COLUMN_TID,
  ETL_EVENT_MODEL_COLUMN_PROVIDER,
  ETL_EVENT_MODEL_COLUMN_NAME,
  ETL_EVENT_MODEL_COLUMN_OPCODE,
  ETL_EVENT_MODEL_COLUMN_LEVEL,
  ETL_EVENT_MODEL_COLUMN_SIZE,
  ETL_EVENT_MODEL_COLUMN_PROCESS,
  ETL_EVENT_MODEL_COLUMN_PAYLOAD,
  ETL_EVENT_MODEL_COLUMN_DECODE,
  ETL_EVENT_MODEL_COLUMN_ROW,
  ETL_EVENT_MODEL_N_COLUMNS
} EtlEventModelColumn;

#define ETL_EVENT_MODEL_N_TEXT_COLUMNS ETL_EVENT_MODEL_COLUMN_ROW

/* Characters of the Payload column (PerfView's "Rest" shows about as many). */
#define ETL_EVENT_MODEL_PAYLOAD_CHARS 200

#define ETL_TYPE_EVENT_MODEL (etl_event_model_get_type ())

G_DECLARE_FINAL_TYPE (EtlEventModel, etl_event_model, ETL, EVENT_MODEL, GObject)

EtlEventModel *etl_event_model_new (EtlTrace *trace, EtlRowSet *rows);
EtlEventModel *etl_event_model_new_sorted (EtlTrace *trace, EtlRowSet *rows, guint32 *order);
void etl_event_model_set_order (EtlEventModel *self, guint32 *order);
gboolean etl_event_model_get_sorted (EtlEventModel *self);
EtlTrace *etl_event_model_get_trace (EtlEventModel *self);
EtlRowSet *etl_event_model_get_rows (EtlEventModel *self);
guint64 etl_event_model_get_n_rows (EtlEventModel *self);
guint64 etl_event_model_get_row (EtlEventModel *self, guint64 position);
guint64 etl_event_model_find_row (EtlEventModel *self, guint64 row);
void etl_event_model_get_value_at (EtlEventModel *self, guint64 position, int column, GValue *value);
guint etl_event_model_get_n_reads (EtlEventModel *self);
void etl_event_model_invalidate (EtlEventModel *self);

G_END_DECLS
