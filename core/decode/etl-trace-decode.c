/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * etl-trace-decode.c: what an opened trace needs to decode its records.
 *
 * A few records describe the others: KernelTraceControl MetaData records
 * carry TRACE_EVENT_INFO and EVENT_MAP_INFO blobs (→ the schema registry,
 * etl-tdh), EventSource manifest chunks (event 0xFFFE → the collector,
 * etl-manifest), SysConfig VolumeMapping records (→ the NT-to-DOS path map)
 * and FileIo name records (→ the FileObject → name table of derived fields).
 * The decoder's hook (etl_trace_decode_hook_init(), an #EtlTraceHookClass)
 * names them to the reader's index walk by class, opcode and HookId; the
 * walk fully decodes only these and hands them over in merged time order,
 * during the same walk.  FileIo name records are kept by the reader instead
 * and decoded when a consumer first asks for the fields TraceEvent derives:
 * thousands of rundown records would otherwise cost the open a tenth of its
 * time.
 *
 * The trace's schema registry, volume map and derived fields are this
 * hook's state: etl_trace_get_schema_registry(), etl_trace_decode_record()
 * and the rest find it with etl_trace_get_hook_data().
 */
#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include "etl-trace-decode.h"

#include <string.h>

#include "etl-format-private.h"
#include "etl-mof-kernel.h"
#include "etl-tdh.h"
#include "etl-tdh-system.h"

/* xperf's SysConfig rundown (VolumeMapping = 35). */
static const EtlGuid sysconfig_class
    = { 0x9b79ee91, 0xb5fd, 0x41c0, { 0xa2, 0x43, 0x42, 0x48, 0xe2, 0x66, 0xe9, 0xd0 } };

#define SYSCONFIG_VOLUME_MAPPING 35

/* The hook's provider classes. */
enum
{
  CLASS_NONE,
  CLASS_METADATA,       /* KernelTraceControl MetaData */
  CLASS_SYSCONFIG,      /* SysConfig */
};

/* The hook's kinds of record. */
enum
{
  KIND_NONE,
  KIND_TDH,             /* MetaData EventInfo / EventMapInfo */
  KIND_VOLUME,          /* SysConfig VolumeMapping */
  KIND_EVENTSOURCE,     /* an EventSource manifest chunk (event 0xFFFE) */
  KIND_FILE_NAME,       /* FileIo Name / FileCreate / FileDelete / FileRundown: kept */
  N_KINDS = KIND_FILE_NAME
};

typedef struct
{
  EtlSchemaRegistry *registry;
  EtlVolumeMap *volumes;
  EtlEventSourceCollector *eventsource; /* NULL once the walk is over */
  EtlTrace *trace;                      /* the trace that owns this, once the walk is over */
  EtlKeptRecords *file_name_records;    /* until first used */
  GOnce file_names_once;                /* builds file_names from them */
  EtlMofFileNames *file_names;
} TraceDecoding;

static const EtlTraceHookClass decode_hook_class;

/* ------------------------------------------------------------------------ */
/* Classifying                                                              */

static guint
classify_provider (const EtlGuid *provider)
{
  if (etl_guid_equal (provider, &etl_tdh_metadata_guid))
    return CLASS_METADATA;
  if (etl_guid_equal (provider, &sysconfig_class))
    return CLASS_SYSCONFIG;
  return CLASS_NONE;
}

static guint
classify_opcode (guint cls, guint opcode)
{
  switch (cls)
    {
    case CLASS_METADATA:
      return opcode == ETL_TDH_OPCODE_EVENT_INFO || opcode == ETL_TDH_OPCODE_EVENT_MAP_INFO ? KIND_TDH : KIND_NONE;
    case CLASS_SYSCONFIG:
      return opcode == SYSCONFIG_VOLUME_MAPPING ? KIND_VOLUME : KIND_NONE;
    default:
      return KIND_NONE;
    }
}

/* FileIo_Name: Name 0, FileCreate 32, FileDelete 35, FileRundown 36 (HookId
 * 0x0400, 0x0420, 0x0423, 0x0424). */
static guint
classify_hook (guint16 hook_id)
{
  if (hook_id >> 8 != 0x04)
    return KIND_NONE;
  switch (hook_id & 0xFF)
    {
    case 0:
    case 32:
    case 35:
    case 36:
      return KIND_FILE_NAME;
    default:
      return KIND_NONE;
    }
}

/*
 * MetaData and VolumeMapping by class and opcode; EventSource manifest
 * chunks (EVENT_DESCRIPTOR.Id 0xFFFE, opcode 0xFE) of any provider (@cls 0:
 * the hook's any_provider_opcode) by event id.
 */
static guint
classify_record (guint cls, guint8 header_type, guint8 opcode, const guint8 *record, gsize size)
{
  if (header_type == ETL_HEADER_TYPE_EVENT_HEADER32 || header_type == ETL_HEADER_TYPE_EVENT_HEADER64)
    {
      guint id;

      if (size < ETL_EVENT_HEADER_SIZE)
        return KIND_NONE;
      /* EVENT_HEADER.EventDescriptor.Id */
      id = etl_read_u16 (record + 40);
      if (opcode == ETL_EVENTSOURCE_MANIFEST_OPCODE && id == ETL_EVENTSOURCE_MANIFEST_EVENT_ID)
        return KIND_EVENTSOURCE;
      /* A classic event logged through EVENT_HEADER keeps its class semantics. */
      if (etl_read_u16 (record + 4) & ETL_EVENT_HEADER_FLAG_CLASSIC_HEADER)
        return classify_opcode (cls, opcode);
      return KIND_NONE;
    }
  return classify_opcode (cls, opcode);
}

/* ------------------------------------------------------------------------ */
/* Handing over                                                             */

static const char *
field_value (const EtlDecoded *decoded, const char *name)
{
  const EtlField *f = etl_decoded_find (decoded, name);

  return f != NULL ? f->value : NULL;
}

static void
add_volume (TraceDecoding *d, const EtlRecord *record)
{
  g_autoptr (EtlDecoded) decoded = etl_decode_record (d->registry, NULL, record);
  const char *nt, *dos;

  if (decoded == NULL)
    return;
  nt = field_value (decoded, "NtPath");
  dos = field_value (decoded, "DosPath");
  if (nt != NULL && dos != NULL && *nt != '\0')
    etl_volume_map_add (d->volumes, nt, dos);
}

/* Metadata, volumes and manifest chunks, in merged order.  Problems in the
 * record (a bad blob, a corrupt chunk) leave it out; they never stop the walk. */
static void
hook_add (gpointer data, guint kind, const EtlRecord *record)
{
  TraceDecoding *d = data;

  switch (kind)
    {
    case KIND_TDH:
      etl_tdh_register_record (d->registry, record, NULL);
      break;
    case KIND_VOLUME:
      add_volume (d, record);
      break;
    case KIND_EVENTSOURCE:
      etl_eventsource_collector_add (d->eventsource, record, NULL);
      break;
    default:
      break;
    }
}

/* The walk is over: the complete EventSource manifests are registered, the
 * FileIo name records taken for later. */
static void
hook_finish (gpointer data, EtlTrace *trace)
{
  TraceDecoding *d = data;

  etl_eventsource_collector_finish (d->eventsource, NULL);
  g_clear_pointer (&d->eventsource, etl_eventsource_collector_free);
  d->file_name_records = etl_trace_steal_kept_records (trace, &decode_hook_class, KIND_FILE_NAME);
  d->trace = trace;
}

static void
trace_decoding_free (gpointer data)
{
  TraceDecoding *d = data;

  g_clear_pointer (&d->eventsource, etl_eventsource_collector_free);
  g_clear_pointer (&d->file_names, etl_mof_file_names_free);
  g_clear_pointer (&d->file_name_records, etl_kept_records_free);
  g_clear_pointer (&d->volumes, etl_volume_map_free);
  g_clear_pointer (&d->registry, etl_schema_registry_unref);
  g_free (d);
}

static const EtlTraceHookClass decode_hook_class = {
  .n_kinds = N_KINDS,
  .kept_kinds = 1u << KIND_FILE_NAME,
  .any_provider_opcode = ETL_EVENTSOURCE_MANIFEST_OPCODE,
  .classify_provider = classify_provider,
  .classify_hook = classify_hook,
  .classify_record = classify_record,
  .add = hook_add,
  .finish = hook_finish,
  .free = trace_decoding_free,
};

/* The schemas every trace starts with, registered once per process: the
 * kernel's MOF classes and the manifests in the user's folder
 * ($XDG_DATA_HOME/etlscope/manifests/, read at the first open).
 * (TraceLogging events describe themselves.) */
static gpointer
build_base_registry (gpointer data)
{
  EtlSchemaRegistry *base = etl_schema_registry_new ();

  etl_mof_register_kernel (base);
  etl_manifest_load_user_dir (base, NULL, NULL);
  return base;
}

/**
 * etl_trace_decode_hook_init:
 * @hook: (out caller-allocates): the decoder's hook, for
 *   etl_trace_open_with_hooks() (which takes its data)
 * @manifests: (array zero-terminated=1) (nullable): instrumentation manifest
 *   files (XML) to describe events with, as etl_trace_load_manifest()
 * @error: return location for the manifest parser's #GError
 *
 * Makes the hook that gathers, during a trace's index walk, what decoding
 * needs (see etl_trace_get_schema_registry()): it starts from the kernel's
 * MOF layouts and the user's manifests ($XDG_DATA_HOME/etlscope/manifests/,
 * read once per process, at the first open) and @manifests, then takes the
 * KernelTraceControl MetaData (TDH) records and EventSource manifests of
 * every file opened together, the SysConfig volume mapping and the FileIo
 * name records.  On Windows the registry also asks the machine's TDH about
 * events the trace's own metadata does not describe
 * (etl_tdh_system_attach()).
 *
 * Returns: %TRUE; %FALSE with @error set (and @hook untouched) when a
 *   manifest in @manifests cannot be read (etl_manifest_load_file())
 */
gboolean
etl_trace_decode_hook_init (EtlTraceHook *hook, const char *const *manifests, GError **error)
{
  static GOnce base_once = G_ONCE_INIT;
  TraceDecoding *d;

  g_return_val_if_fail (hook != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  d = g_new0 (TraceDecoding, 1);
  d->registry = etl_schema_registry_new ();
  /* On Windows, events the trace does not describe ask the machine's TDH. */
  etl_tdh_system_attach (d->registry);
  d->volumes = etl_volume_map_new ();
  etl_schema_registry_add_all (d->registry, g_once (&base_once, build_base_registry, NULL));
  for (guint i = 0; manifests != NULL && manifests[i] != NULL; i++)
    if (!etl_manifest_load_file (d->registry, manifests[i], NULL, error))
      {
        trace_decoding_free (d);
        return FALSE;
      }
  d->eventsource = etl_eventsource_collector_new (d->registry);
  d->file_names_once = (GOnce) G_ONCE_INIT;
  hook->klass = &decode_hook_class;
  hook->data = d;
  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* The trace's decoding                                                     */

static TraceDecoding *
trace_decoding (EtlTrace *trace)
{
  return etl_trace_get_hook_data (trace, &decode_hook_class);
}

/**
 * etl_trace_get_schema_registry:
 * @trace: a trace
 *
 * The schemas that describe this trace's events: the kernel's MOF layouts,
 * the user's manifests, every file's KernelTraceControl MetaData and
 * EventSource manifests, and manifests loaded with etl_trace_load_manifest().
 *
 * Returns: (transfer none) (nullable): the registry (thread-safe), or %NULL
 *   for a trace opened without the decoder's hook
 */
EtlSchemaRegistry *
etl_trace_get_schema_registry (EtlTrace *trace)
{
  TraceDecoding *d;

  g_return_val_if_fail (trace != NULL, NULL);
  d = trace_decoding (trace);
  return d != NULL ? d->registry : NULL;
}

/**
 * etl_trace_get_volume_map:
 * @trace: a trace
 *
 * Returns: (transfer none) (nullable): NT device paths to DOS paths, from the
 *   trace's SysConfig VolumeMapping records (read-only), or %NULL for a
 *   trace opened without the decoder's hook
 */
const EtlVolumeMap *
etl_trace_get_volume_map (EtlTrace *trace)
{
  TraceDecoding *d;

  g_return_val_if_fail (trace != NULL, NULL);
  d = trace_decoding (trace);
  return d != NULL ? d->volumes : NULL;
}

/**
 * etl_trace_load_manifest:
 * @trace: a trace
 * @path: an instrumentation manifest (.man / .xml) file
 * @info: (out caller-allocates) (optional): what was registered; see
 *   etl_manifest_load_file()
 * @error: return location for the manifest parser's #GError (file, line,
 *   reason)
 *
 * Registers the events a manifest describes, for File ▸ Load Manifest… after
 * the trace is open.  Decoding done afterwards uses them; the process table
 * built at open is kept.  Thread-safe against decoding in other threads.
 *
 * Returns: %TRUE when the manifest was read
 */
gboolean
etl_trace_load_manifest (EtlTrace *trace, const char *path, EtlManifestInfo *info, GError **error)
{
  TraceDecoding *d;

  g_return_val_if_fail (trace != NULL && path != NULL, FALSE);
  d = trace_decoding (trace);
  g_return_val_if_fail (d != NULL, FALSE);
  return etl_manifest_load_file (d->registry, path, info, error);
}

/**
 * etl_trace_decode_record:
 * @trace: a trace
 * @record: one of its records (etl_trace_get_record())
 *
 * etl_decode_record() with the trace's schemas and volume map.
 *
 * Returns: (transfer full): the decoded fields; free with etl_decoded_free()
 */
EtlDecoded *
etl_trace_decode_record (EtlTrace *trace, const EtlRecord *record)
{
  TraceDecoding *d;

  g_return_val_if_fail (trace != NULL && record != NULL, NULL);
  d = trace_decoding (trace);
  g_return_val_if_fail (d != NULL, NULL);
  return etl_decode_record (d->registry, d->volumes, record);
}

/**
 * etl_trace_decode_record_prefix:
 * @trace: a trace
 * @record: one of its records (etl_trace_get_record())
 * @max_fields: decode at most this many fields
 *
 * etl_decode_record_prefix() with the trace's schemas and volume map: the
 * first @max_fields fields, for previews (the event list's Payload column).
 *
 * Returns: (transfer full): the decoded fields; free with etl_decoded_free()
 */
EtlDecoded *
etl_trace_decode_record_prefix (EtlTrace *trace, const EtlRecord *record, guint max_fields)
{
  TraceDecoding *d;

  g_return_val_if_fail (trace != NULL && record != NULL, NULL);
  d = trace_decoding (trace);
  g_return_val_if_fail (d != NULL, NULL);
  return etl_decode_record_prefix (d->registry, d->volumes, record, max_fields);
}

/* The FileObject → name table for derived FileName fields, built on first
 * use from the FileIo name records the walk kept. */
static gpointer
build_file_names (gpointer data)
{
  TraceDecoding *d = data;
  g_autoptr (EtlKeptRecords) kept = g_steal_pointer (&d->file_name_records);
  guint n = kept != NULL ? etl_kept_records_get_n (kept) : 0;

  d->file_names = etl_mof_file_names_new ();
  for (guint i = 0; i < n; i++)
    {
      EtlRecord r;

      if (etl_kept_records_read (kept, d->trace, i, &r))
        {
          g_autoptr (EtlDecoded) decoded = etl_decode_record (d->registry, d->volumes, &r);

          etl_mof_file_names_add (d->file_names, decoded);
          etl_record_clear (&r);
        }
    }
  return d->file_names;
}

/**
 * etl_trace_get_derived_fields:
 * @trace: a trace
 * @record: one of its records
 * @decoded: @record's fields (etl_trace_decode_record())
 *
 * The fields TraceEvent computes for kernel events from their payload and
 * header (etl_mof_derived_fields(): BuildTime, ElapsedTimeMSec, a sample's
 * processor and priority, a thread's creator, the FileName of a FileKey
 * from the trace's FileIo name records — decoded at the first call — …),
 * with the clock of
 * @record's file: PerfFreq for QPC, 10,000,000 for system time,
 * CpuSpeedInMHz × 10^6 for CPU cycles.
 *
 * Returns: (transfer full) (nullable) (element-type EtlField): the derived
 *   fields, or %NULL when none apply; free with g_array_unref()
 */
GArray *
etl_trace_get_derived_fields (EtlTrace *trace, const EtlRecord *record, const EtlDecoded *decoded)
{
  TraceDecoding *d;
  const EtlFileInfo *info;
  gint64 freq = 0;

  g_return_val_if_fail (trace != NULL && record != NULL && decoded != NULL, NULL);
  d = trace_decoding (trace);
  if (d == NULL || decoded->schema == NULL || decoded->schema->source != ETL_SCHEMA_SOURCE_MOF
      || record->file >= etl_trace_get_n_files (trace))
    return NULL;
  info = etl_trace_get_file_info (trace, record->file);
  switch (info->clock_type)
    {
    case ETL_CLOCK_QPC: freq = info->perf_freq; break;
    case ETL_CLOCK_SYSTEM_TIME: freq = 10000000; break;
    case ETL_CLOCK_CPU_CYCLE: freq = (gint64) info->cpu_speed_mhz * 1000000; break;
    default: break;
    }
  return etl_mof_derived_fields (decoded, record, freq, g_once (&d->file_names_once, build_file_names, d));
}

/**
 * etl_trace_lookup_file_name:
 * @trace: a trace
 * @file_key: a kernel file key (FileIo's FileObject or FileKey, DiskIo's
 *   FileObject)
 *
 * The name the trace's FileIo Name, FileCreate and FileRundown records give
 * @file_key (the table of the derived FileName fields, decoded at the first
 * call; see etl_trace_get_derived_fields()).
 *
 * Returns: (transfer none) (nullable): the file name, valid as long as
 *   @trace, or %NULL when no record names @file_key
 */
const char *
etl_trace_lookup_file_name (EtlTrace *trace, guint64 file_key)
{
  TraceDecoding *d;

  g_return_val_if_fail (trace != NULL, NULL);
  d = trace_decoding (trace);
  if (d == NULL)
    return NULL;
  return etl_mof_file_names_lookup (g_once (&d->file_names_once, build_file_names, d), file_key);
}
