/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "etl-process-table.h"

G_BEGIN_DECLS

/* Payload fields that name a kernel record's subject, in the order
 * etl_process_table_resolve_record() tries them (NULL-terminated). */
extern const char *const etl_process_subject_pid_names[];
extern const char *const etl_process_subject_tid_names[];

gboolean etl_process_table_is_finished (EtlProcessTable *table);
/* Reads record @i (0 ≤ i < n_records) into @record (to clear with
 * etl_record_clear()); called from several threads at once. */
typedef gboolean (*EtlProcessTableReader) (gpointer data, guint i, EtlRecord *record);

void etl_process_table_add_read_records (EtlProcessTable *table, guint n_records, EtlProcessTableReader read,
                                         gpointer read_data);
EtlSchemaRegistry *etl_process_table_get_registry (EtlProcessTable *table);
const EtlProcess *etl_process_table_lookup_span (EtlProcessTable *table, guint32 pid, gint64 filetime,
                                                 gint64 *from, gint64 *to);
const EtlThread *etl_process_table_lookup_thread_span (EtlProcessTable *table, guint32 tid, gint64 filetime,
                                                       gint64 *from, gint64 *to);

G_END_DECLS
