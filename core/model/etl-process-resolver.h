/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "etl-process-table.h"
#include "etl-schema.h"
#include "etl-trace.h"

G_BEGIN_DECLS

typedef struct _EtlProcessResolver EtlProcessResolver;

EtlProcessResolver *etl_process_resolver_new (EtlProcessTable *table);
void etl_process_resolver_free (EtlProcessResolver *resolver);
gboolean etl_process_resolver_resolve (EtlProcessResolver *resolver, const EtlRecord *record,
                                       guint32 *pid, guint32 *tid);
gboolean etl_process_resolver_resolve_brief (EtlProcessResolver *resolver, EtlTrace *trace, guint64 index,
                                             const EtlRecordBrief *brief, guint32 *pid, guint32 *tid);
const EtlThread *etl_process_resolver_lookup_thread (EtlProcessResolver *resolver, guint32 tid,
                                                     gint64 filetime);
const EtlProcess *etl_process_resolver_lookup (EtlProcessResolver *resolver, guint32 pid, gint64 filetime);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (EtlProcessResolver, etl_process_resolver_free)

G_END_DECLS
