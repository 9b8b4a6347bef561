/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * etl-tdh-system.h: on Windows, the layouts of the providers registered on
 * the machine etlscope runs on, asked of TDH (TdhGetEventInformation,
 * TdhGetEventMapInformation) for events the trace does not describe itself.
 * Elsewhere a stub that knows nothing.
 */
#pragma once

#include <glib.h>

#include "etl-schema.h"
#include "etl-types.h"

G_BEGIN_DECLS

gboolean etl_tdh_system_is_available (void);
gboolean etl_tdh_system_attach (EtlSchemaRegistry *registry);
EtlSchema *etl_tdh_system_query (const EtlRecord *record, const EtlSchemaKey *key, gpointer functions);

G_END_DECLS
