/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test-tdh-system.c: the registry's fallback (etl_schema_registry_set_fallback())
 * and, on Windows, the machine's TDH behind it (etl-tdh-system.c).
 *
 * Everywhere: the fallback's place in the trust order (after the trace's own
 * metadata, before loaded manifests, never for MOF or TraceLogging), one ask
 * per key, misses included, from many threads; on Linux the stub knows
 * nothing.  On Windows (run under Wine by tests/windows/run.sh): the
 * EVENT_RECORD handed to TDH, a TDH that answers ERROR_NOT_FOUND for every
 * event (what the machine's TDH answers for a provider it does not know), a
 * TDH that answers with a TRACE_EVENT_INFO and an EVENT_MAP_INFO laid out
 * with tdh.h's own types, and whether tdh.dll is used (not under Wine, whose
 * tdh.dll raises an exception in TdhGetEventInformation).
 */
#include "config.h"

#include <string.h>

#include "etl-decode.h"
#include "etl-manifest.h"
#include "etl-schema.h"
#include "etl-tdh-system.h"
#include "etl-tdh-system-private.h"

static const EtlGuid known_guid = { 0x5a5a0001, 0x1111, 0x2222, { 1, 2, 3, 4, 5, 6, 7, 8 } };
static const EtlGuid unknown_guid = { 0x5a5a0002, 0x3333, 0x4444, { 9, 9, 9, 9, 9, 9, 9, 9 } };

/* ---- a fake fallback -------------------------------------------------- */

typedef struct
{
  GMutex lock;
  GHashTable *asks; /* "guid/id/version" → number of asks */
  gint n_asks;      /* atomic */
  gint busy;        /* atomic: asks running now */
  gint overlaps;    /* atomic: asks that found another one running */
  guint16 known_below; /* events of known_guid with id below this are known */
  gboolean wrong_key;  /* answer with a schema for another key */
  gulong sleep_us;
} Fake;

static char *
key_string (const EtlSchemaKey *key)
{
  return g_strdup_printf ("%08x/%u/%u/%u", key->guid.data1, key->kind, key->id, key->version);
}

static void
fake_init (Fake *fake)
{
  memset (fake, 0, sizeof *fake);
  g_mutex_init (&fake->lock);
  fake->asks = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  fake->known_below = 10;
}

static void
fake_clear (Fake *fake)
{
  g_hash_table_unref (fake->asks);
  g_mutex_clear (&fake->lock);
}

static guint
fake_asks_for (Fake *fake, const EtlSchemaKey *key)
{
  g_autofree char *s = key_string (key);
  guint n;

  g_mutex_lock (&fake->lock);
  n = GPOINTER_TO_UINT (g_hash_table_lookup (fake->asks, s));
  g_mutex_unlock (&fake->lock);
  return n;
}

/* A schema as the fallback gives it: "Machine<id>", one UInt32 "Value". */
static EtlSchema *
machine_schema (const EtlSchemaKey *key, EtlSchemaSource source, const char *prefix)
{
  EtlSchema *schema = etl_schema_new (key, source);

  schema->event_name = g_strdup_printf ("%s%u", prefix, key->id);
  etl_schema_add_property (schema, "Value", ETL_IN_UINT32, ETL_OUT_NULL);
  return schema;
}

static EtlSchema *
fake_fallback (const EtlRecord *record, const EtlSchemaKey *key, gpointer user_data)
{
  Fake *fake = user_data;
  char *s = key_string (key);
  EtlSchema *answer = NULL;

  g_assert_nonnull (record);
  if (g_atomic_int_add (&fake->busy, 1) != 0)
    g_atomic_int_inc (&fake->overlaps);
  g_mutex_lock (&fake->lock);
  g_hash_table_replace (fake->asks, s, GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (fake->asks, s)) + 1));
  g_mutex_unlock (&fake->lock);
  g_atomic_int_inc (&fake->n_asks);
  if (fake->sleep_us > 0)
    g_usleep (fake->sleep_us);
  if (etl_guid_equal (&key->guid, &known_guid) && key->id < fake->known_below)
    {
      EtlSchemaKey other = *key;

      if (fake->wrong_key)
        other.id++;
      answer = machine_schema (&other, ETL_SCHEMA_SOURCE_SYSTEM_TDH, "Machine");
    }
  g_atomic_int_add (&fake->busy, -1);
  return answer;
}

static EtlRecord
event_record (const EtlGuid *provider, guint16 id, const guint8 *data, gsize len)
{
  EtlRecord r;

  memset (&r, 0, sizeof r);
  r.header_type = ETL_HEADER_TYPE_EVENT_HEADER64;
  r.kind = ETL_RECORD_KIND_MANIFEST;
  r.provider = *provider;
  r.event_id = id;
  r.has_pid = 1;
  r.pid = 42;
  r.tid = 43;
  r.user_data = data;
  r.user_data_len = len;
  return r;
}

static void
add_schema (EtlSchemaRegistry *registry, const EtlGuid *guid, guint16 id, EtlSchemaSource source,
            const char *prefix)
{
  EtlSchemaKey key;
  g_autoptr (EtlSchema) schema = NULL;

  etl_schema_key_init_event_id (&key, guid, id, 0);
  schema = machine_schema (&key, source, prefix);
  etl_schema_registry_add (registry, schema);
}

/* The event name and source @record's lookup gives ("" and -1 for none). */
static char *
looked_up (EtlSchemaRegistry *registry, const EtlRecord *record, gint *source)
{
  g_autoptr (EtlSchema) schema = etl_schema_registry_lookup_record (registry, record);

  *source = schema != NULL ? (gint) schema->source : -1;
  return g_strdup (schema != NULL && schema->event_name != NULL ? schema->event_name : "");
}

#define ASSERT_LOOKUP(registry, record, name, src)                      \
  G_STMT_START                                                          \
  {                                                                     \
    gint source_;                                                       \
    g_autofree char *name_ = looked_up ((registry), (record), &source_); \
    g_assert_cmpstr (name_, ==, (name));                                \
    g_assert_cmpint (source_, ==, (gint) (src));                        \
  }                                                                     \
  G_STMT_END

/* ---- the fallback's place in the trust order ---------------------------- */

static void
test_fallback_order (void)
{
  g_autoptr (EtlSchemaRegistry) registry = etl_schema_registry_new ();
  const guint8 payload[4] = { 0x2A, 0, 0, 0 };
  EtlRecord manifest_known = event_record (&known_guid, 1, payload, sizeof payload);
  EtlRecord trace_known = event_record (&known_guid, 2, payload, sizeof payload);
  EtlRecord nothing = event_record (&unknown_guid, 3, payload, sizeof payload);
  EtlRecord manifest_unknown = event_record (&unknown_guid, 4, payload, sizeof payload);
  EtlRecord mof = event_record (&unknown_guid, 5, payload, sizeof payload);
  EtlRecord later_trace = event_record (&known_guid, 6, payload, sizeof payload);
  EtlRecord later_manifest = event_record (&unknown_guid, 7, payload, sizeof payload);
  EtlRecord tracelogging = event_record (&known_guid, 8, payload, sizeof payload);
  EtlSchemaKey key;
  Fake fake;

  fake_init (&fake);
  add_schema (registry, &known_guid, 1, ETL_SCHEMA_SOURCE_MANIFEST, "Manifest");
  add_schema (registry, &known_guid, 2, ETL_SCHEMA_SOURCE_TDH, "Trace");
  add_schema (registry, &unknown_guid, 4, ETL_SCHEMA_SOURCE_MANIFEST, "Manifest");
  add_schema (registry, &unknown_guid, 5, ETL_SCHEMA_SOURCE_MOF, "Mof");
  tracelogging.kind = ETL_RECORD_KIND_TRACELOGGING;

  /* Without a fallback nothing is asked: the registry answers alone. */
  ASSERT_LOOKUP (registry, &manifest_known, "Manifest1", ETL_SCHEMA_SOURCE_MANIFEST);
  ASSERT_LOOKUP (registry, &nothing, "", -1);

  etl_schema_registry_set_fallback (registry, fake_fallback, &fake);
  for (guint round = 0; round < 3; round++)
    {
      /* The machine's layout wins over a loaded manifest... */
      ASSERT_LOOKUP (registry, &manifest_known, "Machine1", ETL_SCHEMA_SOURCE_SYSTEM_TDH);
      /* ...and loses to the trace's own metadata (not even asked). */
      ASSERT_LOOKUP (registry, &trace_known, "Trace2", ETL_SCHEMA_SOURCE_TDH);
      /* Nobody knows it: no schema, no error. */
      ASSERT_LOOKUP (registry, &nothing, "", -1);
      /* The machine does not know it: the manifest stays. */
      ASSERT_LOOKUP (registry, &manifest_unknown, "Manifest4", ETL_SCHEMA_SOURCE_MANIFEST);
      /* MOF tables and TraceLogging records are not asked about. */
      ASSERT_LOOKUP (registry, &mof, "Mof5", ETL_SCHEMA_SOURCE_MOF);
      ASSERT_LOOKUP (registry, &tracelogging, "", -1);
    }
  g_assert_cmpint (fake.n_asks, ==, 3);
  etl_schema_key_init_event_id (&key, &known_guid, 1, 0);
  g_assert_cmpuint (fake_asks_for (&fake, &key), ==, 1);
  etl_schema_key_init_event_id (&key, &unknown_guid, 3, 0);
  g_assert_cmpuint (fake_asks_for (&fake, &key), ==, 1);
  etl_schema_key_init_event_id (&key, &unknown_guid, 4, 0);
  g_assert_cmpuint (fake_asks_for (&fake, &key), ==, 1);
  g_assert_cmpuint (etl_schema_registry_get_n_schemas (registry, ETL_SCHEMA_SOURCE_SYSTEM_TDH), ==, 1);
  g_assert_cmpuint (etl_schema_registry_get_n_schemas (registry, ETL_SCHEMA_SOURCE_MANIFEST), ==, 1);

  /* The trace's metadata seen after the machine was asked still wins. */
  ASSERT_LOOKUP (registry, &later_trace, "Machine6", ETL_SCHEMA_SOURCE_SYSTEM_TDH);
  add_schema (registry, &known_guid, 6, ETL_SCHEMA_SOURCE_EVENTSOURCE, "Trace");
  ASSERT_LOOKUP (registry, &later_trace, "Trace6", ETL_SCHEMA_SOURCE_EVENTSOURCE);
  /* A manifest loaded after a miss is used, without asking again. */
  ASSERT_LOOKUP (registry, &later_manifest, "", -1);
  add_schema (registry, &unknown_guid, 7, ETL_SCHEMA_SOURCE_MANIFEST, "Manifest");
  ASSERT_LOOKUP (registry, &later_manifest, "Manifest7", ETL_SCHEMA_SOURCE_MANIFEST);
  /* A manifest loaded after a hit does not replace the machine's layout. */
  add_schema (registry, &known_guid, 1, ETL_SCHEMA_SOURCE_MANIFEST, "Manifest");
  ASSERT_LOOKUP (registry, &manifest_known, "Machine1", ETL_SCHEMA_SOURCE_SYSTEM_TDH);
  g_assert_cmpint (fake.n_asks, ==, 5);

  /* The decoder and the event name go through the same lookup. */
  {
    g_autoptr (EtlDecoded) decoded = etl_decode_record (registry, NULL, &manifest_known);
    g_autofree char *name = etl_decode_dup_event_name (registry, &manifest_known);

    g_assert_nonnull (decoded->schema);
    g_assert_cmpint (decoded->schema->source, ==, ETL_SCHEMA_SOURCE_SYSTEM_TDH);
    g_assert_cmpstr (etl_decoded_find (decoded, "Value")->value, ==, "42");
    g_assert_true (decoded->complete);
    g_assert_cmpstr (name, ==, "Machine1");
  }
  {
    g_autoptr (EtlDecoded) decoded = etl_decode_record (registry, NULL, &nothing);

    g_assert_null (decoded->schema);
    g_assert_cmpuint (decoded->fields->len, ==, 0);
  }
  g_assert_cmpint (fake.n_asks, ==, 5);
  fake_clear (&fake);
}

/* A fallback answering with a schema for another key is a miss. */
static void
test_fallback_wrong_key (void)
{
  g_autoptr (EtlSchemaRegistry) registry = etl_schema_registry_new ();
  EtlRecord r = event_record (&known_guid, 1, NULL, 0);
  Fake fake;

  fake_init (&fake);
  fake.wrong_key = TRUE;
  etl_schema_registry_set_fallback (registry, fake_fallback, &fake);
  ASSERT_LOOKUP (registry, &r, "", -1);
  ASSERT_LOOKUP (registry, &r, "", -1);
  g_assert_cmpint (fake.n_asks, ==, 1);
  g_assert_cmpuint (etl_schema_registry_get_n_schemas (registry, ETL_N_SCHEMA_SOURCES), ==, 0);
  fake_clear (&fake);
}

/* ---- many threads: one ask per key ------------------------------------ */

#define N_THREADS 4
#define N_KEYS 40
#define N_LOOKUPS 20000

typedef struct
{
  EtlSchemaRegistry *registry;
  guint seed;
  gint wrong; /* atomic */
} Threads;

static gpointer
lookup_thread (gpointer data)
{
  Threads *t = data;
  GRand *rand = g_rand_new_with_seed (g_atomic_int_add (&t->seed, 1));

  for (guint i = 0; i < N_LOOKUPS; i++)
    {
      guint16 id = (guint16) g_rand_int_range (rand, 0, N_KEYS);
      EtlRecord r = event_record (&known_guid, id, NULL, 0);
      g_autoptr (EtlSchema) schema = etl_schema_registry_lookup_record (t->registry, &r);
      /* Known below 10 (the machine), 10..19 have a manifest, the rest nothing. */
      gboolean right;

      if (id < 10)
        right = schema != NULL && schema->source == ETL_SCHEMA_SOURCE_SYSTEM_TDH;
      else if (id < 20)
        right = schema != NULL && schema->source == ETL_SCHEMA_SOURCE_MANIFEST;
      else
        right = schema == NULL;
      if (!right)
        g_atomic_int_inc (&t->wrong);
    }
  g_rand_free (rand);
  return NULL;
}

static void
test_fallback_threads (void)
{
  g_autoptr (EtlSchemaRegistry) registry = etl_schema_registry_new ();
  GThread *threads[N_THREADS];
  Threads t = { registry, 1, 0 };
  Fake fake;

  fake_init (&fake);
  fake.sleep_us = 500; /* long enough for the threads to meet on one key */
  for (guint16 id = 10; id < 20; id++)
    add_schema (registry, &known_guid, id, ETL_SCHEMA_SOURCE_MANIFEST, "Manifest");
  etl_schema_registry_set_fallback (registry, fake_fallback, &fake);
  for (guint i = 0; i < N_THREADS; i++)
    threads[i] = g_thread_new ("lookup", lookup_thread, &t);
  for (guint i = 0; i < N_THREADS; i++)
    g_thread_join (threads[i]);

  g_assert_cmpint (t.wrong, ==, 0);
  g_assert_cmpint (fake.n_asks, ==, N_KEYS);
  g_assert_cmpint (fake.overlaps, ==, 0);
  for (guint16 id = 0; id < N_KEYS; id++)
    {
      EtlSchemaKey key;

      etl_schema_key_init_event_id (&key, &known_guid, id, 0);
      g_assert_cmpuint (fake_asks_for (&fake, &key), ==, 1);
    }
  g_assert_cmpuint (etl_schema_registry_get_n_schemas (registry, ETL_SCHEMA_SOURCE_SYSTEM_TDH), ==, 10);
  fake_clear (&fake);
}

/* ---- the machine's TDH -------------------------------------------------- */

#ifdef G_OS_WIN32
static gboolean
under_wine (void)
{
  HMODULE ntdll = GetModuleHandleW (L"ntdll.dll");

  return ntdll != NULL && GetProcAddress (ntdll, "wine_get_version") != NULL;
}
#endif

/* Linux: the stub knows nothing.  Windows: tdh.dll is used unless under
 * Wine, whose TdhGetEventInformation would raise an exception. */
static void
test_system_available (void)
{
  g_autoptr (EtlSchemaRegistry) registry = etl_schema_registry_new ();
  EtlRecord r = event_record (&unknown_guid, 1, NULL, 0);
  EtlSchemaKey key;

  g_assert_true (etl_schema_key_for_record (&r, &key));
#ifdef G_OS_WIN32
  if (g_getenv ("ETLSCOPE_SYSTEM_TDH") != NULL)
    {
      g_test_skip ("ETLSCOPE_SYSTEM_TDH is set");
      return;
    }
  g_assert_cmpint (etl_tdh_system_is_available (), ==, !under_wine ());
  g_assert_cmpint (etl_tdh_system_attach (registry), ==, !under_wine ());
  g_assert_cmpint (etl_tdh_system_get_functions () != NULL, ==, !under_wine ());
  if (!under_wine ())
    {
      /* A real machine knows no event of a made-up provider. */
      g_assert_null (etl_tdh_system_query (&r, &key, NULL));
      ASSERT_LOOKUP (registry, &r, "", -1);
    }
#else
  g_assert_false (etl_tdh_system_is_available ());
  g_assert_false (etl_tdh_system_attach (registry));
  g_assert_null (etl_tdh_system_query (&r, &key, NULL));
  ASSERT_LOOKUP (registry, &r, "", -1);
#endif
}

#ifdef G_OS_WIN32

static gboolean
guid_is (const GUID *g, const EtlGuid *e)
{
  return g->Data1 == e->data1 && g->Data2 == e->data2 && g->Data3 == e->data3
         && memcmp (g->Data4, e->data4, 8) == 0;
}

static void
test_event_record (void)
{
  const guint8 payload[6] = { 1, 2, 3, 4, 5, 6 };
  EtlRecord r = event_record (&known_guid, 0x1234, payload, sizeof payload);
  EtlSchemaKey key;
  EVENT_RECORD e;

  r.version = 3;
  r.channel = 16;
  r.level = 4;
  r.opcode = 1;
  r.task = 0x55;
  r.keyword = 0x8000000000000001ull;
  r.flags = ETL_EVENT_HEADER_FLAG_EXTENDED_INFO | ETL_EVENT_HEADER_FLAG_64_BIT_HEADER
            | ETL_EVENT_HEADER_FLAG_STRING_ONLY;
  r.event_property = 1;
  r.cpu = 3;
  r.filetime = 133000000000000000;
  r.size = 90;
  g_assert_true (etl_schema_key_for_record (&r, &key));
  etl_tdh_system_fill_event_record (&r, &key, &e);
  g_assert_true (guid_is (&e.EventHeader.ProviderId, &known_guid));
  g_assert_cmpuint (e.EventHeader.EventDescriptor.Id, ==, 0x1234);
  g_assert_cmpuint (e.EventHeader.EventDescriptor.Version, ==, 3);
  g_assert_cmpuint (e.EventHeader.EventDescriptor.Channel, ==, 16);
  g_assert_cmpuint (e.EventHeader.EventDescriptor.Level, ==, 4);
  g_assert_cmpuint (e.EventHeader.EventDescriptor.Opcode, ==, 1);
  g_assert_cmpuint (e.EventHeader.EventDescriptor.Task, ==, 0x55);
  g_assert_cmpuint (e.EventHeader.EventDescriptor.Keyword, ==, 0x8000000000000001ull);
  /* No extended items are passed; the pointer size and STRING_ONLY stay. */
  g_assert_cmpuint (e.EventHeader.Flags, ==, EVENT_HEADER_FLAG_64_BIT_HEADER | EVENT_HEADER_FLAG_STRING_ONLY);
  g_assert_cmpuint (e.EventHeader.EventProperty, ==, 1);
  g_assert_cmpuint (e.EventHeader.ProcessId, ==, 42);
  g_assert_cmpuint (e.EventHeader.ThreadId, ==, 43);
  g_assert_cmpint (e.EventHeader.TimeStamp.QuadPart, ==, 133000000000000000);
  g_assert_cmpuint (e.EventHeader.Size, ==, 90);
  g_assert_cmpuint (e.BufferContext.ProcessorIndex, ==, 3);
  g_assert_cmpuint (e.ExtendedDataCount, ==, 0);
  g_assert_null (e.ExtendedData);
  g_assert_true (e.UserData == (PVOID) payload);
  g_assert_cmpuint (e.UserDataLength, ==, 6);

  /* A classic 32-bit event: the event class GUID, opcode and version. */
  memset (&r, 0, sizeof r);
  r.header_type = ETL_HEADER_TYPE_FULL_HEADER32;
  r.kind = ETL_RECORD_KIND_CLASSIC;
  r.provider = unknown_guid;
  r.opcode = 36;
  r.version = 2;
  g_assert_true (etl_schema_key_for_record (&r, &key));
  etl_tdh_system_fill_event_record (&r, &key, &e);
  g_assert_true (guid_is (&e.EventHeader.ProviderId, &unknown_guid));
  g_assert_cmpuint (e.EventHeader.Flags, ==, EVENT_HEADER_FLAG_CLASSIC_HEADER | EVENT_HEADER_FLAG_32_BIT_HEADER);
  g_assert_cmpuint (e.EventHeader.EventDescriptor.Opcode, ==, 36);
  g_assert_cmpuint (e.EventHeader.EventDescriptor.Version, ==, 2);
  g_assert_cmpuint (e.EventHeader.EventDescriptor.Id, ==, 0);
  g_assert_null (e.UserData);
  g_assert_cmpuint (e.UserDataLength, ==, 0);
}

/* ---- a fake tdh.dll ----------------------------------------------------- */

/* What the fake TDH answers, and what it was asked (one test at a time). */
static struct
{
  gboolean found;
  guint n_event_calls;
  guint n_map_calls;
  GHashTable *event_keys; /* "provider/id/version" → calls */
  guint8 *event_info;
  ULONG event_info_size;
  guint8 *map_info;
  ULONG map_info_size;
} fake_tdh;

static ULONG
answer (const guint8 *data, ULONG data_size, gpointer buffer, PULONG size)
{
  if (buffer == NULL || *size < data_size)
    {
      *size = data_size;
      return ERROR_INSUFFICIENT_BUFFER;
    }
  memcpy (buffer, data, data_size);
  *size = data_size;
  return ERROR_SUCCESS;
}

static ULONG WINAPI
fake_get_event_information (PEVENT_RECORD event, ULONG n_context, PTDH_CONTEXT context, PTRACE_EVENT_INFO buffer,
                            PULONG size)
{
  g_autofree char *k = g_strdup_printf ("%08lx/%u/%u", event->EventHeader.ProviderId.Data1,
                                        event->EventHeader.EventDescriptor.Id,
                                        event->EventHeader.EventDescriptor.Version);

  g_assert_cmpuint (n_context, ==, 0);
  g_assert_null (context);
  fake_tdh.n_event_calls++;
  if (buffer == NULL)
    g_hash_table_replace (fake_tdh.event_keys, g_strdup (k),
                          GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (fake_tdh.event_keys, k)) + 1));
  if (!fake_tdh.found)
    return ERROR_NOT_FOUND;
  return answer (fake_tdh.event_info, fake_tdh.event_info_size, buffer, size);
}

static ULONG WINAPI
fake_get_event_map_information (PEVENT_RECORD event, LPWSTR map_name, PEVENT_MAP_INFO buffer, PULONG size)
{
  g_autofree char *name = g_utf16_to_utf8 ((const gunichar2 *) map_name, -1, NULL, NULL, NULL);

  g_assert_nonnull (event);
  fake_tdh.n_map_calls++;
  if (!fake_tdh.found || g_strcmp0 (name, "StateMap") != 0)
    return ERROR_NOT_FOUND;
  return answer (fake_tdh.map_info, fake_tdh.map_info_size, buffer, size);
}

static const EtlTdhFunctions fake_functions = { fake_get_event_information, fake_get_event_map_information };

static void
fake_tdh_reset (gboolean found)
{
  g_clear_pointer (&fake_tdh.event_keys, g_hash_table_unref);
  g_clear_pointer (&fake_tdh.event_info, g_free);
  g_clear_pointer (&fake_tdh.map_info, g_free);
  memset (&fake_tdh, 0, sizeof fake_tdh);
  fake_tdh.found = found;
  fake_tdh.event_keys = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
}

#define PROVIDER_GUID_TEXT "5a5a0001-1111-2222-0102-030405060708"

/* A manifest for known_guid: event 1, one UInt32 "Count". */
static const char manifest_xml[]
    = "<instrumentationManifest xmlns=\"http://schemas.microsoft.com/win/2004/08/events\">"
      "<instrumentation xmlns:win=\"http://manifests.microsoft.com/win/2004/08/windows/events\">"
      "<events><provider name=\"Test-Loaded\" guid=\"{" PROVIDER_GUID_TEXT "}\" symbol=\"T\">"
      "<events><event value=\"1\" template=\"T1\" symbol=\"FromManifest\"/></events>"
      "<templates><template tid=\"T1\"><data name=\"Count\" inType=\"win:UInt32\"/></template></templates>"
      "</provider></events></instrumentation></instrumentationManifest>";

/*
 * What the machine's TDH answers for a provider it does not know: every
 * event ERROR_NOT_FOUND (1168).  Decoding goes on with the other sources;
 * each key is asked once however many records it has.
 */
static void
test_not_found (void)
{
  g_autoptr (EtlSchemaRegistry) registry = etl_schema_registry_new ();
  g_autoptr (GError) error = NULL;
  const guint8 payload[4] = { 7, 0, 0, 0 };
  EtlRecord loaded = event_record (&known_guid, 1, payload, sizeof payload);
  EtlRecord bare = event_record (&unknown_guid, 9, payload, sizeof payload);

  fake_tdh_reset (FALSE);
  g_assert_true (etl_manifest_load_data (registry, manifest_xml, -1, ETL_SCHEMA_SOURCE_MANIFEST, 0, 0, "test.man",
                                         NULL, &error));
  g_assert_no_error (error);
  etl_schema_registry_set_fallback (registry, etl_tdh_system_query, (gpointer) &fake_functions);

  for (guint i = 0; i < 1000; i++)
    {
      g_autoptr (EtlDecoded) from_manifest = etl_decode_record (registry, NULL, &loaded);
      g_autoptr (EtlDecoded) undecoded = etl_decode_record (registry, NULL, &bare);

      g_assert_nonnull (from_manifest->schema);
      g_assert_cmpint (from_manifest->schema->source, ==, ETL_SCHEMA_SOURCE_MANIFEST);
      g_assert_cmpstr (etl_decoded_find (from_manifest, "Count")->value, ==, "7");
      g_assert_true (from_manifest->complete);
      g_assert_null (undecoded->schema);
      g_assert_cmpuint (undecoded->fields->len, ==, 0);
    }
  /* Once per key: ERROR_NOT_FOUND answers the first call, no second one. */
  g_assert_cmpuint (fake_tdh.n_event_calls, ==, 2);
  g_assert_cmpuint (g_hash_table_size (fake_tdh.event_keys), ==, 2);
  g_assert_cmpuint (GPOINTER_TO_UINT (g_hash_table_lookup (fake_tdh.event_keys, "5a5a0001/1/0")), ==, 1);
  g_assert_cmpuint (GPOINTER_TO_UINT (g_hash_table_lookup (fake_tdh.event_keys, "5a5a0002/9/0")), ==, 1);
  g_assert_cmpuint (fake_tdh.n_map_calls, ==, 0);
  g_assert_cmpuint (etl_schema_registry_get_n_schemas (registry, ETL_SCHEMA_SOURCE_SYSTEM_TDH), ==, 0);
  fake_tdh_reset (FALSE);
}

/* Appends @s as NUL-terminated UTF-16LE at the end of @b; its offset. */
static ULONG
append_wide (GByteArray *b, const char *s)
{
  ULONG at = b->len;
  glong n = 0;
  g_autofree gunichar2 *w = g_utf8_to_utf16 (s, -1, NULL, &n, NULL);

  g_byte_array_append (b, (const guint8 *) w, (guint) (2 * (n + 1)));
  return at;
}

/*
 * The machine knows the event: TRACE_EVENT_INFO and EVENT_MAP_INFO built
 * with tdh.h's structures, handed over in TDH's two calls (size, then data),
 * become a schema that beats the loaded manifest.
 */
static void
test_found (void)
{
  g_autoptr (EtlSchemaRegistry) registry = etl_schema_registry_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (GByteArray) tei = g_byte_array_new ();
  g_autoptr (GByteArray) emi = g_byte_array_new ();
  const guint8 payload[8] = { 2, 0, 0, 0, 0x10, 0x20, 0, 0 };
  EtlRecord r = event_record (&known_guid, 1, payload, sizeof payload);
  TRACE_EVENT_INFO *info;
  EVENT_PROPERTY_INFO *p;
  EVENT_MAP_INFO *map;
  ULONG name_off[6];

  fake_tdh_reset (TRUE);
  g_assert_true (etl_manifest_load_data (registry, manifest_xml, -1, ETL_SCHEMA_SOURCE_MANIFEST, 0, 0, "test.man",
                                         NULL, &error));
  g_assert_no_error (error);

  /* TRACE_EVENT_INFO: two properties, strings after the array. */
  g_byte_array_set_size (tei, G_STRUCT_OFFSET (TRACE_EVENT_INFO, EventPropertyInfoArray) + 2 * sizeof (EVENT_PROPERTY_INFO));
  memset (tei->data, 0, tei->len);
  name_off[0] = append_wide (tei, "Test-Machine");
  name_off[1] = append_wide (tei, "Work");
  name_off[2] = append_wide (tei, "State");
  name_off[3] = append_wide (tei, "StateMap");
  name_off[4] = append_wide (tei, "Flags");
  name_off[5] = append_wide (tei, "FromMachine");
  info = (TRACE_EVENT_INFO *) tei->data;
  memcpy (&info->ProviderGuid, &known_guid, sizeof (GUID));
  info->EventDescriptor.Id = 1;
  info->EventDescriptor.Task = 3;
  info->DecodingSource = DecodingSourceXMLFile;
  info->ProviderNameOffset = name_off[0];
  info->TaskNameOffset = name_off[1];
  info->ActivityIDNameOffset = name_off[5]; /* EventNameOffset in newer SDKs */
  info->PropertyCount = 2;
  info->TopLevelPropertyCount = 2;
  /* In- and out-types by number (TDH_INTYPE_UINT32 = 8 and so on): the
   * TDH_IN_TYPE and TDH_OUT_TYPE enums are not in mingw-w64's tdh.h. */
  p = &info->EventPropertyInfoArray[0];
  p[0].NameOffset = name_off[2];
  p[0].nonStructType.InType = ETL_IN_UINT32;
  p[0].nonStructType.MapNameOffset = name_off[3];
  p[0].count = 1;
  p[1].NameOffset = name_off[4];
  p[1].nonStructType.InType = ETL_IN_UINT32;
  p[1].nonStructType.OutType = ETL_OUT_HEXINT32;
  p[1].count = 1;
  fake_tdh.event_info_size = tei->len;
  fake_tdh.event_info = g_memdup2 (tei->data, tei->len);

  /* EVENT_MAP_INFO: a value map 1 Idle, 2 Running. */
  g_byte_array_set_size (emi, G_STRUCT_OFFSET (EVENT_MAP_INFO, MapEntryArray) + 2 * sizeof (EVENT_MAP_ENTRY));
  memset (emi->data, 0, emi->len);
  name_off[0] = append_wide (emi, "StateMap");
  name_off[1] = append_wide (emi, "Idle");
  name_off[2] = append_wide (emi, "Running");
  map = (EVENT_MAP_INFO *) emi->data;
  map->NameOffset = name_off[0];
  map->Flag = EVENTMAP_INFO_FLAG_MANIFEST_VALUEMAP;
  map->EntryCount = 2;
  map->MapEntryValueType = EVENTMAP_ENTRY_VALUETYPE_ULONG;
  map->MapEntryArray[0].OutputOffset = name_off[1];
  map->MapEntryArray[0].Value = 1;
  map->MapEntryArray[1].OutputOffset = name_off[2];
  map->MapEntryArray[1].Value = 2;
  fake_tdh.map_info_size = emi->len;
  fake_tdh.map_info = g_memdup2 (emi->data, emi->len);

  etl_schema_registry_set_fallback (registry, etl_tdh_system_query, (gpointer) &fake_functions);
  for (guint i = 0; i < 100; i++)
    {
      g_autoptr (EtlDecoded) d = etl_decode_record (registry, NULL, &r);

      g_assert_nonnull (d->schema);
      g_assert_cmpint (d->schema->source, ==, ETL_SCHEMA_SOURCE_SYSTEM_TDH);
      g_assert_cmpstr (d->schema->provider_name, ==, "Test-Machine");
      g_assert_cmpstr (d->schema->event_name, ==, "FromMachine");
      g_assert_cmpstr (d->schema->task_name, ==, "Work");
      g_assert_cmpuint (d->fields->len, ==, 2);
      g_assert_cmpstr (etl_decoded_find (d, "State")->value, ==, "Running");
      g_assert_cmpstr (etl_decoded_find (d, "Flags")->value, ==, "0x00002010");
      g_assert_null (etl_decoded_find (d, "Count"));
      g_assert_true (d->complete);
    }
  /* Two calls (size, data) for the event, two for its map, once. */
  g_assert_cmpuint (fake_tdh.n_event_calls, ==, 2);
  g_assert_cmpuint (fake_tdh.n_map_calls, ==, 2);
  g_assert_cmpuint (etl_schema_registry_get_n_schemas (registry, ETL_SCHEMA_SOURCE_SYSTEM_TDH), ==, 1);
  fake_tdh_reset (FALSE);
}

#endif /* G_OS_WIN32 */

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/etl/tdh-system/fallback-order", test_fallback_order);
  g_test_add_func ("/etl/tdh-system/fallback-wrong-key", test_fallback_wrong_key);
  g_test_add_func ("/etl/tdh-system/fallback-threads", test_fallback_threads);
  g_test_add_func ("/etl/tdh-system/available", test_system_available);
#ifdef G_OS_WIN32
  g_test_add_func ("/etl/tdh-system/event-record", test_event_record);
  g_test_add_func ("/etl/tdh-system/not-found", test_not_found);
  g_test_add_func ("/etl/tdh-system/found", test_found);
#endif
  return g_test_run ();
}
