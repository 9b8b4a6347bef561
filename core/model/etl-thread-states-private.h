/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "etl-process-table.h"
#include "etl-thread-states.h"

G_BEGIN_DECLS

/* The pass of etl_thread_states_new() fed by hand (tests of bad input):
 * begin, add records in the order a trace gives them, finish at the
 * trace's last time.  @table may be NULL (every pid unknown). */
typedef struct _EtlThreadStatesBuilder EtlThreadStatesBuilder;

EtlThreadStatesBuilder *etl_thread_states_builder_new (EtlProcessTable *table);
void etl_thread_states_builder_add_cswitch (EtlThreadStatesBuilder *b, guint64 record, gint64 filetime, guint cpu,
                                            const guint8 *payload, gsize len);
void etl_thread_states_builder_add_ready_thread (EtlThreadStatesBuilder *b, guint64 record, gint64 filetime,
                                                 guint cpu, guint32 header_tid, guint32 header_pid,
                                                 const guint8 *payload, gsize len);
EtlThreadStates *etl_thread_states_builder_finish (EtlThreadStatesBuilder *b, gint64 last_filetime);

G_END_DECLS
