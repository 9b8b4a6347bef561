/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "etl-record.h"
#include "etl-types.h"

G_BEGIN_DECLS

/**
 * EtlKernelEventInfo:
 * @group_name: kernel group/class name as consumers show it ("Process",
 *   "Thread", "DiskIo", "FileIo", "PerfInfo", "EventTrace", "SysConfig", …)
 * @provider: the class GUID that consumers report as the ProviderId
 *   (ProcessGuid, ThreadGuid, DiskIoGuid, …), never %NULL when found
 * @opcode_name: the event type's name ("Start", "DCStart", "SampleProf", …),
 *   or %NULL when the opcode is not known
 *
 * Names of an NT Kernel Logger event, looked up from its HookId.
 */
typedef struct
{
  const char *group_name;
  const EtlGuid *provider;
  const char *opcode_name;
} EtlKernelEventInfo;

gboolean etl_names_kernel_event (guint16 hook_id, EtlKernelEventInfo *info);
const char *etl_names_classic_opcode (guint opcode);
const char *etl_names_level (guint level);
const char *etl_names_provider (const EtlGuid *provider);
gboolean etl_names_provider_lookup (const char *name, EtlGuid *provider);
guint etl_names_kernel_table_size (void);
guint etl_names_provider_table_size (void);

char *etl_tracelogging_provider_name (const guint8 *traits, gsize traits_len);
char *etl_tracelogging_event_name (const guint8 *schema, gsize schema_len);
char **etl_tracelogging_field_names (const guint8 *schema, gsize schema_len);

char *etl_record_dup_provider_name (const EtlRecord *record);
char *etl_record_dup_event_name (const EtlRecord *record);

G_END_DECLS
