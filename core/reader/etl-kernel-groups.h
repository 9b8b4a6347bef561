/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "etl-types.h"

G_BEGIN_DECLS

/* The NT Kernel Logger's HookId groups, EVENT_TRACE_GROUP_HEADER (0x00) to
 * EVENT_TRACE_GROUP_HYPERVISORX (0x1E) in ntwmi.h. */
#define ETL_KERNEL_N_GROUPS 31

const EtlGuid *etl_kernel_group_class (guint group);
const EtlGuid *etl_kernel_hook_class (guint16 hook_id);

G_END_DECLS
