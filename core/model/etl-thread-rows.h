/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "etl-row-set.h"
#include "etl-stack-tree.h"
#include "etl-trace.h"

G_BEGIN_DECLS

/**
 * ETL_THREAD_ROWS_NO_THREAD:
 *
 * etl_thread_rows_record_thread()'s answer for a record attributed to no
 * thread (the ThreadId "-1" of a header too).
 */
#define ETL_THREAD_ROWS_NO_THREAD G_MAXUINT32

guint32 etl_thread_rows_record_thread (const EtlRecordBrief *brief);
EtlRowSet *etl_thread_rows_new (EtlTrace *trace, const EtlStackTreeSpan *spans, guint n_spans,
                                GCancellable *cancellable, GError **error);

G_END_DECLS
