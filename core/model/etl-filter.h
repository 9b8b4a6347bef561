/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "etl-row-set.h"
#include "etl-trace.h"

G_BEGIN_DECLS

/**
 * EtlFilter:
 * @provider: (nullable): substring of the provider's name or of its GUID
 *   (registry form, no braces), case-insensitive; %NULL or "" for any
 * @has_pid: whether to keep only records of process @pid
 * @pid: process id (records without one are dropped when @has_pid)
 * @has_tid: whether to keep only records of thread @tid
 * @tid: thread id (records without one are dropped when @has_tid)
 * @text: (nullable): substring of the provider name, the event name, the
 *   process ("Test.x64.exe (3676)") or the decoded payload ("Reason=AllocSmall"),
 *   case-insensitive; %NULL or "" for any
 *
 * Which records of a trace a view shows.  All conditions must hold.  Create
 * with etl_filter_new(), free with etl_filter_free().
 */
typedef struct
{
  char *provider;
  gboolean has_pid;
  guint32 pid;
  gboolean has_tid;
  guint32 tid;
  char *text;
} EtlFilter;

EtlFilter *etl_filter_new (void);
EtlFilter *etl_filter_copy (const EtlFilter *filter);
void etl_filter_free (EtlFilter *filter);
gboolean etl_filter_is_empty (const EtlFilter *filter);
gboolean etl_filter_equal (const EtlFilter *a, const EtlFilter *b);

EtlRowSet *etl_filter_apply (EtlTrace *trace,
                             const EtlFilter *filter,
                             GCancellable *cancellable,
                             GError **error);
void etl_filter_apply_async (EtlTrace *trace,
                             const EtlFilter *filter,
                             GCancellable *cancellable,
                             GAsyncReadyCallback callback,
                             gpointer user_data);
EtlRowSet *etl_filter_apply_finish (GAsyncResult *result, GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (EtlFilter, etl_filter_free)

G_END_DECLS
