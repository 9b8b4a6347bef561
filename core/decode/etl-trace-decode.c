/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * etl-trace-feed: the records that decoding depends on, handed over while a
 * trace is indexed.
 *
 * A few records describe the others: KernelTraceControl MetaData records
 * carry TRACE_EVENT_INFO and EVENT_MAP_INFO blobs (→ the schema registry,
 * etl-tdh), EventSource manifest chunks (event 0xFFFE → the collector,
 * etl-manifest), SysConfig VolumeMapping records (→ the NT-to-DOS path map)
 * and Process/Thread records (→ the process table).  The index walk
 * (etl-trace.c) classifies every record cheaply from what its fast path
 * already read (the provider id's class, the HookId, the opcode) and fully
 * decodes only these, in merged time order, during the same walk.
 *
 * Lifetime records are kept (copied) until the walk ends: a
 * Microsoft-Windows-Kernel-Process event can only be decoded once the
 * trace's metadata, which may come later, is registered.
 */
#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include "etl-trace-decode-private.h"
#include "etl-process-table-private.h"

#include <string.h>

#include "etl-format-private.h"
#include "etl-mof-derived.h"
#include "etl-record-private.h"
#include "etl-tdh.h"

/* Caps on what a hostile trace can make the feed keep. */
#define MAX_LIFETIME_RECORDS (2u * 1024 * 1024)
#define MAX_LIFETIME_BYTES (256u * 1024 * 1024)

/* xperf's SysConfig rundown (VolumeMapping = 35). */
static const EtlGuid sysconfig_class
    = { 0x9b79ee91, 0xb5fd, 0x41c0, { 0xa2, 0x43, 0x42, 0x48, 0xe2, 0x66, 0xe9, 0xd0 } };
/* The kernel's Process and Thread classes, for records relogged with a full header. */
static const EtlGuid process_class
    = { 0x3d6fa8d0, 0xfe05, 0x11d0, { 0x9d, 0xda, 0x00, 0xc0, 0x4f, 0xd7, 0xba, 0x7c } };
static const EtlGuid thread_class
    = { 0x3d6fa8d1, 0xfe05, 0x11d0, { 0x9d, 0xda, 0x00, 0xc0, 0x4f, 0xd7, 0xba, 0x7c } };
/* Microsoft-Windows-Kernel-Process */
static const EtlGuid kernel_process_provider
    = { 0x22fb2cd6, 0x0e7b, 0x422b, { 0xa0, 0xc7, 0x2f, 0xad, 0x1f, 0xd0, 0xe7, 0x16 } };

#define SYSCONFIG_VOLUME_MAPPING 35
#define THREAD_SET_NAME 72

typedef struct
{
  guint file;
  guint cpu;
  gint64 filetime;
  guint64 file_offset;
  GBytes *bytes; /* the whole record */
} KeptRecord;

struct _EtlTraceFeed
{
  EtlSchemaRegistry *registry;
  EtlVolumeMap *volumes;
  EtlProcessTable *processes;
  EtlEventSourceCollector *eventsource;
  GArray *lifetimes; /* KeptRecord */
  gsize lifetime_bytes;
  GArray *file_names; /* KeptRecord: FileIo name records, decoded on first use */
  gsize file_name_bytes;
};

/**
 * etl_trace_feed_classify_provider:
 * @provider: a provider or event class GUID
 *
 * Returns: the #EtlFeedClass of records of @provider (%ETL_FEED_CLASS_NONE
 *   for nearly all)
 */
EtlFeedClass
etl_trace_feed_classify_provider (const EtlGuid *provider)
{
  if (etl_guid_equal (provider, &etl_tdh_metadata_guid))
    return ETL_FEED_CLASS_METADATA;
  if (etl_guid_equal (provider, &sysconfig_class))
    return ETL_FEED_CLASS_SYSCONFIG;
  if (etl_guid_equal (provider, &process_class))
    return ETL_FEED_CLASS_PROCESS;
  if (etl_guid_equal (provider, &thread_class))
    return ETL_FEED_CLASS_THREAD;
  if (etl_guid_equal (provider, &kernel_process_provider))
    return ETL_FEED_CLASS_KERNEL_PROCESS;
  return ETL_FEED_CLASS_NONE;
}

static EtlFeedKind
classify_opcode (guint cls, guint opcode)
{
  switch (cls)
    {
    case ETL_FEED_CLASS_METADATA:
      return opcode == ETL_TDH_OPCODE_EVENT_INFO || opcode == ETL_TDH_OPCODE_EVENT_MAP_INFO
                 ? ETL_FEED_TDH
                 : ETL_FEED_NONE;
    case ETL_FEED_CLASS_SYSCONFIG:
      return opcode == SYSCONFIG_VOLUME_MAPPING ? ETL_FEED_VOLUME : ETL_FEED_NONE;
    case ETL_FEED_CLASS_PROCESS:
      return opcode >= 1 && opcode <= 4 ? ETL_FEED_LIFETIME : ETL_FEED_NONE;
    case ETL_FEED_CLASS_THREAD:
      return (opcode >= 1 && opcode <= 4) || opcode == THREAD_SET_NAME ? ETL_FEED_LIFETIME
                                                                       : ETL_FEED_NONE;
    default:
      return ETL_FEED_NONE;
    }
}

/**
 * etl_trace_feed_classify_hook:
 * @hook_id: a kernel record's HookId (group << 8 | type)
 *
 * Returns: %ETL_FEED_LIFETIME for Process and Thread Start, End, DCStart,
 *   DCEnd (HookId 0x0301–0x0304, 0x0501–0x0504) and Thread SetName
 *   (0x0548), %ETL_FEED_FILE_NAME for FileIo Name, FileCreate, FileDelete
 *   and FileRundown (0x0400, 0x0420, 0x0423, 0x0424), else %ETL_FEED_NONE
 */
EtlFeedKind
etl_trace_feed_classify_hook (guint16 hook_id)
{
  switch (hook_id >> 8)
    {
    case 0x03:
      return classify_opcode (ETL_FEED_CLASS_PROCESS, hook_id & 0xFF);
    case 0x05:
      return classify_opcode (ETL_FEED_CLASS_THREAD, hook_id & 0xFF);
    case 0x04:
      /* FileIo_Name: Name 0, FileCreate 32, FileDelete 35, FileRundown 36. */
      switch (hook_id & 0xFF)
        {
        case 0:
        case 32:
        case 35:
        case 36:
          return ETL_FEED_FILE_NAME;
        default:
          return ETL_FEED_NONE;
        }
    default:
      return ETL_FEED_NONE;
    }
}

/**
 * etl_trace_feed_classify:
 * @cls: the #EtlFeedClass of the record's provider
 * @header_type: its trace header type
 * @opcode: its opcode (Class.Type, EVENT_DESCRIPTOR.Opcode)
 * @record: the record's bytes, as validated by etl_record_peek()
 * @size: the record's Size
 *
 * What a record not found by its HookId feeds: MetaData and VolumeMapping
 * by class and opcode; Microsoft-Windows-Kernel-Process events 1–5 and 15
 * (process and thread start, stop and rundown) and EventSource manifest
 * chunks (EVENT_DESCRIPTOR.Id 0xFFFE, opcode 0xFE) by event id.
 *
 * Returns: an #EtlFeedKind
 */
EtlFeedKind
etl_trace_feed_classify (guint cls, guint8 header_type, guint8 opcode, const guint8 *record,
                         gsize size)
{
  if (header_type == ETL_HEADER_TYPE_EVENT_HEADER32
      || header_type == ETL_HEADER_TYPE_EVENT_HEADER64)
    {
      guint id;

      if (size < ETL_EVENT_HEADER_SIZE)
        return ETL_FEED_NONE;
      /* EVENT_HEADER.EventDescriptor.Id */
      id = etl_read_u16 (record + 40);
      if (opcode == ETL_EVENTSOURCE_MANIFEST_OPCODE && id == ETL_EVENTSOURCE_MANIFEST_EVENT_ID)
        return ETL_FEED_EVENTSOURCE;
      if (cls == ETL_FEED_CLASS_KERNEL_PROCESS && ((id >= 1 && id <= 5) || id == 15))
        return ETL_FEED_LIFETIME;
      /* A classic event logged through EVENT_HEADER keeps its class semantics. */
      if (etl_read_u16 (record + 4) & ETL_EVENT_HEADER_FLAG_CLASSIC_HEADER)
        return classify_opcode (cls, opcode);
      return ETL_FEED_NONE;
    }
  return classify_opcode (cls, opcode);
}

/**
 * etl_trace_feed_new:
 * @registry: where TDH metadata and EventSource manifests are registered
 * @volumes: where VolumeMapping records go
 * @processes: where lifetime records go
 *
 * Returns: (transfer full): a feed; end it with etl_trace_feed_finish()
 */
EtlTraceFeed *
etl_trace_feed_new (EtlSchemaRegistry *registry, EtlVolumeMap *volumes, EtlProcessTable *processes)
{
  EtlTraceFeed *feed = g_new0 (EtlTraceFeed, 1);

  feed->registry = registry;
  feed->volumes = volumes;
  feed->processes = processes;
  feed->eventsource = etl_eventsource_collector_new (registry);
  feed->lifetimes = g_array_new (FALSE, FALSE, sizeof (KeptRecord));
  feed->file_names = g_array_new (FALSE, FALSE, sizeof (KeptRecord));
  return feed;
}

static const char *
field_value (const EtlDecoded *decoded, const char *name)
{
  const EtlField *f = etl_decoded_find (decoded, name);

  return f != NULL ? f->value : NULL;
}

static void
add_volume (EtlTraceFeed *feed, const EtlRecord *record)
{
  g_autoptr (EtlDecoded) decoded = etl_decode_record (feed->registry, NULL, record);
  const char *nt, *dos;

  if (decoded == NULL)
    return;
  nt = field_value (decoded, "NtPath");
  dos = field_value (decoded, "DosPath");
  if (nt != NULL && dos != NULL && *nt != '\0')
    etl_volume_map_add (feed->volumes, nt, dos);
}

/* Whether @kept holds index positions (guint64, etl_trace_feed_keep_by_index())
 * rather than copies (KeptRecord). */
static inline gboolean
kept_by_index (GArray *kept)
{
  return g_array_get_element_size (kept) == sizeof (guint64);
}

/* Copies @record (or keeps its @index) for decoding after the walk, within the caps. */
static void
keep (GArray *kept, gsize *bytes, const EtlRecord *record, guint64 index)
{
  KeptRecord k;

  if (kept->len >= MAX_LIFETIME_RECORDS || *bytes + record->size > MAX_LIFETIME_BYTES
      || record->raw == NULL || record->size > record->raw_len)
    return;
  if (kept_by_index (kept))
    {
      *bytes += record->size;
      g_array_append_val (kept, index);
      return;
    }
  k.file = record->file;
  k.cpu = record->cpu;
  k.filetime = record->filetime;
  k.file_offset = record->file_offset;
  k.bytes = g_bytes_new (record->raw, record->size);
  *bytes += record->size;
  g_array_append_val (kept, k);
}

/* The @i-th kept record, decoded again; clear it with etl_record_clear(). */
static gboolean
kept_decode (GArray *kept, guint i, EtlTraceFeedReader read, gpointer read_data, EtlRecord *r)
{
  const KeptRecord *k;
  gsize len;
  const guint8 *data;

  if (kept_by_index (kept))
    return read != NULL && read (read_data, g_array_index (kept, guint64, i), r);
  k = &g_array_index (kept, KeptRecord, i);
  data = g_bytes_get_data (k->bytes, &len);

  if (!etl_record_decode (data, len, r, NULL))
    return FALSE;
  r->file = k->file;
  r->cpu = k->cpu;
  r->filetime = k->filetime;
  r->file_offset = k->file_offset;
  return TRUE;
}

static void
kept_clear (GArray *kept)
{
  if (kept_by_index (kept))
    {
      g_array_set_size (kept, 0);
      return;
    }
  for (guint i = 0; i < kept->len; i++)
    g_clear_pointer (&g_array_index (kept, KeptRecord, i).bytes, g_bytes_unref);
  g_array_set_size (kept, 0);
}

/**
 * etl_trace_feed_add:
 * @feed: a feed
 * @kind: what etl_trace_feed_classify() or etl_trace_feed_classify_hook()
 *   said of @record
 * @record: the fully decoded record (file, cpu and filetime set); its bytes
 *   are only borrowed
 *
 * Hands @record over: metadata and manifest chunks at once, lifetime
 * records kept for etl_trace_feed_finish().  Problems in the record (a bad
 * blob, a corrupt chunk) leave it out; they never stop the walk.
 */
void
etl_trace_feed_add (EtlTraceFeed *feed, EtlFeedKind kind, const EtlRecord *record)
{
  etl_trace_feed_add_at (feed, kind, record, 0);
}

/**
 * etl_trace_feed_keep_by_index:
 * @feed: a feed nothing was added to yet
 *
 * Makes the feed keep the lifetime and file name records it is given by
 * their position in the trace's merged index (etl_trace_feed_add_at())
 * instead of copies of their bytes: the build functions then read them
 * again with their #EtlTraceFeedReader.  A trace of millions of thread
 * records keeps 8 bytes for each instead of a copy.
 */
void
etl_trace_feed_keep_by_index (EtlTraceFeed *feed)
{
  g_return_if_fail (feed->lifetimes->len == 0 && feed->file_names->len == 0);
  g_array_unref (feed->lifetimes);
  g_array_unref (feed->file_names);
  feed->lifetimes = g_array_new (FALSE, FALSE, sizeof (guint64));
  feed->file_names = g_array_new (FALSE, FALSE, sizeof (guint64));
}

/**
 * etl_trace_feed_keep_indexes:
 * @feed: a feed that keeps records by index (etl_trace_feed_keep_by_index())
 * @kind: %ETL_FEED_LIFETIME or %ETL_FEED_FILE_NAME
 * @indexes: (element-type guint64): index positions of records of @kind, in
 *   merged order
 * @bytes: the sum of their sizes (Size, bytes)
 *
 * Keeps @indexes as etl_trace_feed_add_at() would one by one, when the caps
 * on kept records cannot stop any of them; otherwise keeps nothing.
 *
 * Returns: %TRUE when all were kept, %FALSE when the caller must add them
 *   one by one
 */
gboolean
etl_trace_feed_keep_indexes (EtlTraceFeed *feed, EtlFeedKind kind, GArray *indexes, guint64 bytes)
{
  GArray *kept = kind == ETL_FEED_LIFETIME ? feed->lifetimes : feed->file_names;
  gsize *kept_bytes = kind == ETL_FEED_LIFETIME ? &feed->lifetime_bytes : &feed->file_name_bytes;

  g_return_val_if_fail (kind == ETL_FEED_LIFETIME || kind == ETL_FEED_FILE_NAME, FALSE);
  if (!kept_by_index (kept) || (guint64) kept->len + indexes->len > MAX_LIFETIME_RECORDS
      || (guint64) *kept_bytes + bytes > MAX_LIFETIME_BYTES)
    return FALSE;
  g_array_append_vals (kept, indexes->data, indexes->len);
  *kept_bytes += (gsize) bytes;
  return TRUE;
}

/**
 * etl_trace_feed_add_at:
 * @feed: a feed
 * @kind: what etl_trace_feed_classify() or etl_trace_feed_classify_hook()
 *   said of @record
 * @record: the fully decoded record (file, cpu and filetime set); its bytes
 *   are only borrowed
 * @index: @record's position in the trace's merged index (used after
 *   etl_trace_feed_keep_by_index())
 *
 * etl_trace_feed_add() with the record's index position.
 */
void
etl_trace_feed_add_at (EtlTraceFeed *feed, EtlFeedKind kind, const EtlRecord *record, guint64 index)
{
  switch (kind)
    {
    case ETL_FEED_TDH:
      etl_tdh_register_record (feed->registry, record, NULL);
      break;
    case ETL_FEED_VOLUME:
      add_volume (feed, record);
      break;
    case ETL_FEED_EVENTSOURCE:
      etl_eventsource_collector_add (feed->eventsource, record, NULL);
      break;
    case ETL_FEED_LIFETIME:
      keep (feed->lifetimes, &feed->lifetime_bytes, record, index);
      break;
    case ETL_FEED_FILE_NAME:
      keep (feed->file_names, &feed->file_name_bytes, record, index);
      break;
    case ETL_FEED_NONE:
    default:
      break;
    }
}

/**
 * etl_trace_feed_finish:
 * @feed: a feed
 *
 * Ends the walk: registers the complete EventSource manifests.  The kept
 * lifetime and file name records are taken with
 * etl_trace_feed_steal_lifetimes() and etl_trace_feed_steal_file_names().
 */
void
etl_trace_feed_finish (EtlTraceFeed *feed)
{
  etl_eventsource_collector_finish (feed->eventsource, NULL);
}

/**
 * etl_trace_feed_steal_lifetimes:
 * @feed: a finished feed
 *
 * The Process and Thread records the walk kept, for
 * etl_trace_feed_build_process_table().
 *
 * Returns: (transfer full): the kept records
 */
GArray *
etl_trace_feed_steal_lifetimes (EtlTraceFeed *feed)
{
  GArray *kept = feed->lifetimes;

  feed->lifetimes = g_array_new (FALSE, FALSE, g_array_get_element_size (kept));
  feed->lifetime_bytes = 0;
  return kept;
}

#define KEPT_CHUNK 65536u

typedef struct
{
  GArray *kept;
  guint first;
  EtlTraceFeedReader read;
  gpointer read_data;
} KeptReader;

/* EtlProcessTableReader over a chunk of @kept (thread-safe: @read is). */
static gboolean
kept_read (gpointer data, guint i, EtlRecord *record)
{
  KeptReader *k = data;

  return kept_decode (k->kept, k->first + i, k->read, k->read_data, record);
}

/**
 * etl_trace_feed_build_process_table:
 * @kept: (transfer full): what etl_trace_feed_steal_lifetimes() returned
 * @table: (nullable): the table to fill and finish; %NULL only frees @kept
 * @read: (nullable): reads a record kept by index (etl_trace_feed_keep_by_index())
 * @read_data: closure for @read
 *
 * Decodes the kept lifetime records with the table's schemas (all the
 * trace's, metadata and manifests included) and finishes the table.
 */
void
etl_trace_feed_build_process_table (GArray *kept, EtlProcessTable *table, EtlTraceFeedReader read,
                                    gpointer read_data)
{
  /* In chunks, each read and decoded in parallel and added in order. */
  if (table != NULL && kept->len > 0)
    {
      KeptReader reader = { kept, 0, read, read_data };

      for (reader.first = 0; reader.first < kept->len; reader.first += KEPT_CHUNK)
        etl_process_table_add_read_records (table, MIN (kept->len - reader.first, KEPT_CHUNK), kept_read,
                                            &reader);
    }
  kept_clear (kept);
  g_array_unref (kept);
  if (table != NULL)
    etl_process_table_finish (table);
}

/**
 * etl_trace_feed_steal_file_names:
 * @feed: a finished feed
 *
 * The FileIo name records (Name, FileCreate, FileDelete, FileRundown) the
 * walk kept.  They are decoded only when a consumer first asks for the
 * fields TraceEvent derives (etl_trace_feed_build_file_names()): thousands
 * of rundown records would otherwise cost the open a tenth of its time.
 *
 * Returns: (transfer full): the kept records, for
 *   etl_trace_feed_build_file_names()
 */
GArray *
etl_trace_feed_steal_file_names (EtlTraceFeed *feed)
{
  GArray *kept = feed->file_names;

  feed->file_names = g_array_new (FALSE, FALSE, g_array_get_element_size (kept));
  feed->file_name_bytes = 0;
  return kept;
}

/**
 * etl_trace_feed_build_file_names:
 * @kept: (transfer full): what etl_trace_feed_steal_file_names() returned
 * @registry: (nullable): the trace's schemas; %NULL only frees @kept
 * @volumes: the trace's volume map (names are shown as DOS paths)
 * @read: (nullable): reads a record kept by index (etl_trace_feed_keep_by_index())
 * @read_data: closure for @read
 *
 * Returns: (transfer full) (nullable): the FileObject → file name table
 */
EtlMofFileNames *
etl_trace_feed_build_file_names (GArray *kept, EtlSchemaRegistry *registry,
                                 const EtlVolumeMap *volumes, EtlTraceFeedReader read, gpointer read_data)
{
  EtlMofFileNames *names = registry != NULL ? etl_mof_file_names_new () : NULL;

  for (guint i = 0; names != NULL && i < kept->len; i++)
    {
      EtlRecord r;

      if (kept_decode (kept, i, read, read_data, &r))
        {
          g_autoptr (EtlDecoded) decoded = etl_decode_record (registry, volumes, &r);

          etl_mof_file_names_add (names, decoded);
          etl_record_clear (&r);
        }
    }
  kept_clear (kept);
  g_array_unref (kept);
  return names;
}

/**
 * etl_trace_feed_free:
 * @feed: (transfer full): a feed
 */
void
etl_trace_feed_free (EtlTraceFeed *feed)
{
  if (feed == NULL)
    return;
  kept_clear (feed->lifetimes);
  g_array_unref (feed->lifetimes);
  kept_clear (feed->file_names);
  g_array_unref (feed->file_names);
  etl_eventsource_collector_free (feed->eventsource);
  g_free (feed);
}
