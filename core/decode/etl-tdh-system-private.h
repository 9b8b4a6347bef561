/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * etl-tdh-system-private.h: what the tests reach of etl-tdh-system.c on
 * Windows: the EVENT_RECORD built from a record, and the TDH entry points
 * as a table a test can replace (Wine's tdh.dll does not implement them).
 */
#pragma once

#include <glib.h>

#ifdef G_OS_WIN32
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#include <windows.h>
#include <evntcons.h>
#include <tdh.h>

#include "etl-schema.h"
#include "etl-types.h"

G_BEGIN_DECLS

typedef ULONG (WINAPI *EtlTdhGetEventInformationFunc) (PEVENT_RECORD event, ULONG n_context,
                                                       PTDH_CONTEXT context, PTRACE_EVENT_INFO buffer,
                                                       PULONG buffer_size);
typedef ULONG (WINAPI *EtlTdhGetEventMapInformationFunc) (PEVENT_RECORD event, LPWSTR map_name,
                                                          PEVENT_MAP_INFO buffer, PULONG buffer_size);

/**
 * EtlTdhFunctions:
 * @get_event_information: TdhGetEventInformation (tdh.h)
 * @get_event_map_information: TdhGetEventMapInformation (tdh.h)
 *
 * The TDH entry points etl_tdh_system_query() calls.
 */
typedef struct
{
  EtlTdhGetEventInformationFunc get_event_information;
  EtlTdhGetEventMapInformationFunc get_event_map_information;
} EtlTdhFunctions;

const EtlTdhFunctions *etl_tdh_system_get_functions (void);
void etl_tdh_system_fill_event_record (const EtlRecord *record, const EtlSchemaKey *key,
                                       EVENT_RECORD *event);

G_END_DECLS
#endif /* G_OS_WIN32 */
