/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "etl-row-set.h"
#include "etl-trace.h"

G_BEGIN_DECLS

/**
 * EtlSortKey:
 * @ETL_SORT_KEY_NONE: the column does not sort
 * @ETL_SORT_KEY_TIME: FILETIME: the merged order itself, no sort needed
 * @ETL_SORT_KEY_CPU: processor index, from the index
 * @ETL_SORT_KEY_PID: process id, from the index (records without one first)
 * @ETL_SORT_KEY_PROVIDER: provider name, ranked once per provider index
 * @ETL_SORT_KEY_TID: thread id, from the record header
 * @ETL_SORT_KEY_EVENT: event name, ranked once per (provider, kind, HookId,
 *   event id, opcode)
 * @ETL_SORT_KEY_OPCODE: HookId, or event id then opcode
 * @ETL_SORT_KEY_LEVEL: level
 * @ETL_SORT_KEY_SIZE: bytes of user data
 * @ETL_SORT_KEY_TEXT: the column's text as the #EtlEventModel formats it
 *   (any column without a compact key; slowest)
 *
 * What a column of the event list sorts by.
 */
typedef enum
{
  ETL_SORT_KEY_NONE,
  ETL_SORT_KEY_TIME,
  ETL_SORT_KEY_CPU,
  ETL_SORT_KEY_PID,
  ETL_SORT_KEY_PROVIDER,
  ETL_SORT_KEY_TID,
  ETL_SORT_KEY_EVENT,
  ETL_SORT_KEY_OPCODE,
  ETL_SORT_KEY_LEVEL,
  ETL_SORT_KEY_SIZE,
  ETL_SORT_KEY_TEXT,
} EtlSortKey;

guint32 *etl_event_sort (EtlTrace *trace,
                         EtlRowSet *rows,
                         EtlSortKey key,
                         int model_column,
                         gboolean descending,
                         GCancellable *cancellable,
                         GError **error);
void etl_event_sort_async (EtlTrace *trace,
                           EtlRowSet *rows,
                           EtlSortKey key,
                           int model_column,
                           gboolean descending,
                           GCancellable *cancellable,
                           GAsyncReadyCallback callback,
                           gpointer user_data);
guint32 *etl_event_sort_finish (GAsyncResult *result, GError **error);

G_END_DECLS
