/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "etl-process-table.h"
#include "etl-schema.h"

G_BEGIN_DECLS

typedef struct _EtlProcessResolver EtlProcessResolver;

EtlProcessResolver *etl_process_resolver_new (EtlProcessTable *table);
void etl_process_resolver_free (EtlProcessResolver *resolver);
gboolean etl_process_resolver_resolve (EtlProcessResolver *resolver, const EtlRecord *record,
                                       guint32 *pid, guint32 *tid);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (EtlProcessResolver, etl_process_resolver_free)

G_END_DECLS
