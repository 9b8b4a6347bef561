/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "etl-process-table.h"

G_BEGIN_DECLS

/* Payload fields that name a kernel record's subject, in the order
 * etl_process_table_resolve_record() tries them (NULL-terminated). */
extern const char *const etl_process_subject_pid_names[];
extern const char *const etl_process_subject_tid_names[];

gboolean etl_process_table_is_finished (EtlProcessTable *table);
void etl_process_table_add_records (EtlProcessTable *table, const EtlRecord *records, guint n_records);
EtlSchemaRegistry *etl_process_table_get_registry (EtlProcessTable *table);
const EtlProcess *etl_process_table_lookup_span (EtlProcessTable *table, guint32 pid, gint64 filetime,
                                                 gint64 *from, gint64 *to);
const EtlThread *etl_process_table_lookup_thread_span (EtlProcessTable *table, guint32 tid, gint64 filetime,
                                                       gint64 *from, gint64 *to);

G_END_DECLS
