/* SPDX-License-Identifier: GPL-3.0-or-later */

/**
 * SECTION:etl-tdh-system
 * @title: TDH of this machine
 * @short_description: layouts of the providers registered on the machine, for events the trace does not describe
 *
 * On Windows, WPA and PerfView describe an event the trace carries no
 * metadata for by asking TDH, which knows the manifests and MOF classes of
 * the providers registered on the machine they run on.  etlscope does the
 * same as the fallback of a trace's schema registry
 * (etl_schema_registry_set_fallback(), etl_tdh_system_attach()): after the
 * trace's own metadata (TraceLogging, KernelTraceControl MetaData,
 * EventSource manifests) and before the manifests the user loads
 * (%ETL_SCHEMA_SOURCE_SYSTEM_TDH).
 *
 * etl_tdh_system_query() builds an EVENT_RECORD (evntcons.h) from the
 * record and the key: EVENT_HEADER with the provider (or the event class
 * GUID of a classic or kernel event, flagged CLASSIC_HEADER), the
 * EVENT_DESCRIPTOR, the pointer-size flag, process, thread, time and
 * activity id; BufferContext.ProcessorIndex; UserData and UserDataLength; no
 * extended items (TraceLogging events, the ones TDH reads them for, describe
 * themselves and are not asked about).  It asks TdhGetEventInformation for
 * the TRACE_EVENT_INFO, which TDH fills with the same layout as the
 * MetaData records carry: a header and EVENT_PROPERTY_INFO array with no
 * pointers, strings by ULONG offset from the start (the static asserts below
 * pin etl-tdh.c's offsets to tdh.h), so etl_tdh_parse_event_info() reads it;
 * and TdhGetEventMapInformation for each value map or bitmap its properties
 * name, an EVENT_MAP_INFO whose offsets count from its own start, read by
 * etl_tdh_parse_map_info() behind the provider GUID as in a MetaData record.
 *
 * tdh.dll is loaded at run time from the system folder, not imported, so
 * etlscope starts where it is missing.  Under Wine it is not used: Wine's
 * tdh.dll (8.0 to at least 10.x) exports TdhGetEventInformation and
 * TdhGetEventMapInformation as unimplemented stubs that raise an exception
 * when called ("unimplemented function tdh.dll.TdhGetEventInformation called
 * in 64-bit code", seen with Wine 8.0), so a process that called them would
 * end; Wine is recognised by ntdll's wine_get_version export.
 * `ETLSCOPE_SYSTEM_TDH=0` turns the fallback off on Windows as well (the
 * output is then the same as on Linux).  Elsewhere the functions are stubs
 * that know nothing.
 */

#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include <string.h>

#include "etl-tdh-system.h"

#ifdef G_OS_WIN32

#include "etl-tdh-system-private.h"
#include "etl-tdh.h"

/* The offsets etl_tdh_parse_event_info() and etl_tdh_parse_map_info() read,
 * against tdh.h: no pointer inside, the same for 32- and 64-bit processes. */
G_STATIC_ASSERT (G_STRUCT_OFFSET (TRACE_EVENT_INFO, EventDescriptor) == 32);
G_STATIC_ASSERT (G_STRUCT_OFFSET (TRACE_EVENT_INFO, DecodingSource) == 48);
G_STATIC_ASSERT (G_STRUCT_OFFSET (TRACE_EVENT_INFO, ProviderNameOffset) == 52);
G_STATIC_ASSERT (G_STRUCT_OFFSET (TRACE_EVENT_INFO, LevelNameOffset) == 56);
G_STATIC_ASSERT (G_STRUCT_OFFSET (TRACE_EVENT_INFO, KeywordsNameOffset) == 64);
G_STATIC_ASSERT (G_STRUCT_OFFSET (TRACE_EVENT_INFO, TaskNameOffset) == 68);
G_STATIC_ASSERT (G_STRUCT_OFFSET (TRACE_EVENT_INFO, OpcodeNameOffset) == 72);
/* EventNameOffset in newer SDKs (a union with ActivityIDNameOffset). */
G_STATIC_ASSERT (G_STRUCT_OFFSET (TRACE_EVENT_INFO, ActivityIDNameOffset) == 92);
G_STATIC_ASSERT (G_STRUCT_OFFSET (TRACE_EVENT_INFO, PropertyCount) == 100);
G_STATIC_ASSERT (G_STRUCT_OFFSET (TRACE_EVENT_INFO, TopLevelPropertyCount) == 104);
G_STATIC_ASSERT (G_STRUCT_OFFSET (TRACE_EVENT_INFO, EventPropertyInfoArray) == 112);
G_STATIC_ASSERT (sizeof (EVENT_PROPERTY_INFO) == 24);
G_STATIC_ASSERT (G_STRUCT_OFFSET (EVENT_PROPERTY_INFO, NameOffset) == 4);
G_STATIC_ASSERT (G_STRUCT_OFFSET (EVENT_PROPERTY_INFO, nonStructType.InType) == 8);
G_STATIC_ASSERT (G_STRUCT_OFFSET (EVENT_PROPERTY_INFO, nonStructType.MapNameOffset) == 12);
G_STATIC_ASSERT (G_STRUCT_OFFSET (EVENT_PROPERTY_INFO, count) == 16);
G_STATIC_ASSERT (G_STRUCT_OFFSET (EVENT_PROPERTY_INFO, length) == 18);
G_STATIC_ASSERT (G_STRUCT_OFFSET (EVENT_MAP_INFO, MapEntryArray) == 16);
G_STATIC_ASSERT (sizeof (EVENT_MAP_ENTRY) == 8);

/* The largest TRACE_EVENT_INFO or EVENT_MAP_INFO taken from TDH (the
 * biggest seen in MetaData records are a few KiB). */
#define MAX_TDH_BUFFER (1024 * 1024)
/* Tries when TDH asks for a bigger buffer than the one it was just given. */
#define MAX_TDH_TRIES 3

static gpointer
load_functions (gpointer data)
{
  static EtlTdhFunctions functions;
  const char *env = g_getenv ("ETLSCOPE_SYSTEM_TDH");
  HMODULE ntdll = GetModuleHandleW (L"ntdll.dll");
  HMODULE tdh;

  (void) data;
  if (env != NULL && strcmp (env, "0") == 0)
    return NULL;
  if (ntdll != NULL && GetProcAddress (ntdll, "wine_get_version") != NULL)
    return NULL;
  tdh = LoadLibraryExW (L"tdh.dll", NULL, LOAD_LIBRARY_SEARCH_SYSTEM32);
  if (tdh == NULL)
    return NULL;
  /* Through a generic function type: FARPROC to the real one is not a
   * compatible cast (-Wcast-function-type). */
  functions.get_event_information
      = (EtlTdhGetEventInformationFunc) (void (*) (void)) GetProcAddress (tdh, "TdhGetEventInformation");
  functions.get_event_map_information
      = (EtlTdhGetEventMapInformationFunc) (void (*) (void)) GetProcAddress (tdh, "TdhGetEventMapInformation");
  if (functions.get_event_information == NULL || functions.get_event_map_information == NULL)
    {
      FreeLibrary (tdh);
      return NULL;
    }
  return &functions;
}

/**
 * etl_tdh_system_get_functions:
 *
 * Returns: (transfer none) (nullable): tdh.dll's TdhGetEventInformation and
 *   TdhGetEventMapInformation, or %NULL when they are not to be called (no
 *   tdh.dll, Wine, `ETLSCOPE_SYSTEM_TDH=0`); loaded once
 */
const EtlTdhFunctions *
etl_tdh_system_get_functions (void)
{
  static GOnce once = G_ONCE_INIT;

  return g_once (&once, load_functions, NULL);
}

static void
guid_to_win32 (const EtlGuid *in, GUID *out)
{
  out->Data1 = in->data1;
  out->Data2 = in->data2;
  out->Data3 = in->data3;
  memcpy (out->Data4, in->data4, 8);
}

/* A GUID as it lies in a file: Data1..3 little-endian, then Data4. */
static void
guid_write_le (const EtlGuid *guid, guint8 *out)
{
  for (guint i = 0; i < 4; i++)
    out[i] = (guid->data1 >> (8 * i)) & 0xFF;
  out[4] = guid->data2 & 0xFF;
  out[5] = guid->data2 >> 8;
  out[6] = guid->data3 & 0xFF;
  out[7] = guid->data3 >> 8;
  memcpy (out + 8, guid->data4, 8);
}

/**
 * etl_tdh_system_fill_event_record:
 * @record: a record
 * @key: its schema key (etl_schema_key_for_record())
 * @event: (out caller-allocates): the EVENT_RECORD to fill
 *
 * Fills @event as ProcessTrace would hand @record to a consumer, for TDH's
 * lookups (evntcons.h): EventHeader.ProviderId is @key's GUID (the provider,
 * or the event class of a classic or kernel event, then flagged
 * EVENT_HEADER_FLAG_CLASSIC_HEADER with the opcode and version of @key);
 * the 32- or 64-bit header flag follows the record's pointer size; the
 * extended-info flag is cleared (no extended items are passed).  UserData
 * points into @record's user data (at most 65,535 bytes, UserDataLength is
 * a USHORT), so @event lives no longer than @record.
 */
void
etl_tdh_system_fill_event_record (const EtlRecord *record, const EtlSchemaKey *key, EVENT_RECORD *event)
{
  EVENT_HEADER *h = &event->EventHeader;
  EVENT_DESCRIPTOR *d = &h->EventDescriptor;
  USHORT flags = 0;

  g_return_if_fail (record != NULL && key != NULL && event != NULL);

  memset (event, 0, sizeof *event);
  if (record->kind == ETL_RECORD_KIND_MANIFEST || record->kind == ETL_RECORD_KIND_TRACELOGGING)
    flags = record->flags
            & ~(EVENT_HEADER_FLAG_EXTENDED_INFO | EVENT_HEADER_FLAG_32_BIT_HEADER | EVENT_HEADER_FLAG_64_BIT_HEADER);
  if (key->kind == ETL_SCHEMA_KEY_OPCODE)
    flags |= EVENT_HEADER_FLAG_CLASSIC_HEADER;
  flags |= etl_record_get_pointer_size (record) == 4 ? EVENT_HEADER_FLAG_32_BIT_HEADER
                                                      : EVENT_HEADER_FLAG_64_BIT_HEADER;
  h->Size = (USHORT) MIN (record->size, (guint32) G_MAXUINT16);
  h->Flags = flags;
  h->EventProperty = record->event_property;
  h->ThreadId = record->tid;
  h->ProcessId = record->has_pid ? record->pid : 0;
  h->TimeStamp.QuadPart = record->filetime;
  guid_to_win32 (&key->guid, &h->ProviderId);
  d->Version = key->version;
  d->Channel = record->channel;
  d->Level = record->level;
  d->Task = record->task;
  d->Keyword = record->keyword;
  if (key->kind == ETL_SCHEMA_KEY_OPCODE)
    d->Opcode = (UCHAR) key->id;
  else
    {
      d->Id = key->id;
      d->Opcode = record->opcode;
    }
  h->KernelTime = record->kernel_time;
  h->UserTime = record->user_time;
  guid_to_win32 (&record->activity_id, &h->ActivityId);
  event->BufferContext.ProcessorIndex = (USHORT) MIN (record->cpu, (guint) G_MAXUINT16);
  if (record->user_data != NULL && record->user_data_len > 0)
    {
      /* TDH takes a PVOID but only reads. */
      event->UserData = (PVOID) (guintptr) record->user_data;
      event->UserDataLength = (USHORT) MIN (record->user_data_len, (gsize) G_MAXUINT16);
    }
}

/* One TDH call in the usual two steps: the size, then the data.  Returns:
 * (transfer full) (nullable): the buffer, its size in *len. */
typedef ULONG (*TdhCall) (const EtlTdhFunctions *f, EVENT_RECORD *event, gconstpointer arg, gpointer buffer,
                          ULONG *size);

static guint8 *
tdh_buffer (const EtlTdhFunctions *f, TdhCall call, EVENT_RECORD *event, gconstpointer arg, gsize *len)
{
  g_autofree guint8 *buffer = NULL;
  ULONG allocated = 0;

  for (guint i = 0; i < MAX_TDH_TRIES; i++)
    {
      ULONG size = allocated;
      ULONG status = call (f, event, arg, buffer, &size);

      if (status == ERROR_SUCCESS && buffer != NULL)
        {
          *len = MIN (size, allocated);
          return g_steal_pointer (&buffer);
        }
      if (status != ERROR_INSUFFICIENT_BUFFER || size <= allocated || size > MAX_TDH_BUFFER)
        return NULL;
      g_free (buffer);
      buffer = g_malloc0 (size);
      allocated = size;
    }
  return NULL;
}

static ULONG
call_event_information (const EtlTdhFunctions *f, EVENT_RECORD *event, gconstpointer arg, gpointer buffer,
                        ULONG *size)
{
  (void) arg;
  return f->get_event_information (event, 0, NULL, buffer, size);
}

static ULONG
call_event_map_information (const EtlTdhFunctions *f, EVENT_RECORD *event, gconstpointer arg, gpointer buffer,
                            ULONG *size)
{
  return f->get_event_map_information (event, (LPWSTR) (guintptr) arg, buffer, size);
}

/* The map TDH knows by @name for @event's provider, or NULL. */
static EtlMap *
query_map (const EtlTdhFunctions *f, EVENT_RECORD *event, const EtlGuid *provider, const char *name)
{
  g_autofree gunichar2 *wide = g_utf8_to_utf16 (name, -1, NULL, NULL, NULL);
  g_autofree guint8 *info = NULL;
  g_autofree guint8 *blob = NULL;
  gsize len = 0;
  EtlGuid ignored;

  if (wide == NULL)
    return NULL;
  info = tdh_buffer (f, call_event_map_information, event, wide, &len);
  if (info == NULL)
    return NULL;
  /* As a MetaData EventMapInfo record: the provider GUID, then the
   * EVENT_MAP_INFO (etl_tdh_parse_map_info() reads offsets from byte 16). */
  blob = g_malloc (16 + len);
  guid_write_le (provider, blob);
  memcpy (blob + 16, info, len);
  return etl_tdh_parse_map_info (blob, 16 + len, &ignored, NULL);
}

#endif /* G_OS_WIN32 */

/**
 * etl_tdh_system_is_available:
 *
 * Returns: %TRUE on Windows (not Wine) when tdh.dll loaded and
 *   `ETLSCOPE_SYSTEM_TDH` is not "0"; %FALSE elsewhere
 */
gboolean
etl_tdh_system_is_available (void)
{
#ifdef G_OS_WIN32
  return etl_tdh_system_get_functions () != NULL;
#else
  return FALSE;
#endif
}

/**
 * etl_tdh_system_attach:
 * @registry: a trace's registry, not yet shared with other threads
 *
 * Makes the machine's TDH the fallback of @registry
 * (etl_schema_registry_set_fallback() with etl_tdh_system_query()) when
 * etl_tdh_system_is_available().
 *
 * Returns: whether it did
 */
gboolean
etl_tdh_system_attach (EtlSchemaRegistry *registry)
{
  g_return_val_if_fail (registry != NULL, FALSE);

#ifdef G_OS_WIN32
  {
    const EtlTdhFunctions *f = etl_tdh_system_get_functions ();

    if (f == NULL)
      return FALSE;
    etl_schema_registry_set_fallback (registry, etl_tdh_system_query, (gpointer) f);
    return TRUE;
  }
#else
  return FALSE;
#endif
}

/**
 * etl_tdh_system_query:
 * @record: a record
 * @key: its key (etl_schema_key_for_record())
 * @functions: (nullable): on Windows an #EtlTdhFunctions
 *   (etl-tdh-system-private.h), %NULL for tdh.dll's; ignored elsewhere
 *
 * An #EtlSchemaFallbackFunc: asks TDH (TdhGetEventInformation) for the
 * TRACE_EVENT_INFO of @record, builds a schema from it with
 * etl_tdh_parse_event_info(), filed under @key with source
 * %ETL_SCHEMA_SOURCE_SYSTEM_TDH, and resolves the value maps and bitmaps
 * its properties name with TdhGetEventMapInformation (a map TDH does not
 * give stays to be resolved by the registry).  Any TDH status but
 * ERROR_SUCCESS (ERROR_NOT_FOUND for an event no provider registered here
 * describes), a buffer above 1 MiB or a TRACE_EVENT_INFO the parser refuses
 * is a miss.
 *
 * Returns: (transfer full) (nullable): the schema, or %NULL (always
 *   elsewhere than Windows, and when @functions is %NULL and
 *   etl_tdh_system_is_available() is %FALSE)
 */
EtlSchema *
etl_tdh_system_query (const EtlRecord *record, const EtlSchemaKey *key, gpointer functions)
{
  g_return_val_if_fail (record != NULL && key != NULL, NULL);

#ifdef G_OS_WIN32
  {
    const EtlTdhFunctions *f = functions != NULL ? functions : etl_tdh_system_get_functions ();
    g_autofree guint8 *info = NULL;
    g_autoptr (EtlSchema) schema = NULL;
    EVENT_RECORD event;
    gsize len = 0;

    if (f == NULL)
      return NULL;
    etl_tdh_system_fill_event_record (record, key, &event);
    info = tdh_buffer (f, call_event_information, &event, NULL, &len);
    if (info == NULL)
      return NULL;
    schema = etl_tdh_parse_event_info (info, len, NULL);
    if (schema == NULL)
      return NULL;
    schema->key = *key;
    schema->source = ETL_SCHEMA_SOURCE_SYSTEM_TDH;
    for (guint i = 0; i < schema->n_properties; i++)
      {
        EtlProperty *p = &schema->properties[i];

        if (p->map_name == NULL || p->map != NULL)
          continue;
        /* One query per map name: later properties share the answer. */
        for (guint j = 0; j < i; j++)
          if (schema->properties[j].map != NULL && g_strcmp0 (schema->properties[j].map_name, p->map_name) == 0)
            {
              p->map = etl_map_ref (schema->properties[j].map);
              break;
            }
        if (p->map == NULL)
          p->map = query_map (f, &event, &key->guid, p->map_name);
      }
    return g_steal_pointer (&schema);
  }
#else
  (void) functions;
  return NULL;
#endif
}
