/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Instrumentation manifests (etl-manifest.c): the CLR's public manifest
 * (ClrEtwAll.man in ../shared/etl-corpus/manifests), hand-written and
 * hostile manifests, and EventSource manifest chunks (synthetic and the
 * ones net.4.5.2.x64.etl carries).
 */
#include "config.h"

#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "etl-decode.h"
#include "etl-error.h"
#include "etl-manifest.h"
#include "etl-schema.h"
#include "etl-test-util.h"
#include "etl-trace.h"

#define DOTNET_RUNTIME "e13c0d23-ccbc-4e12-931b-d9cc2eee27e4"
#define DOTNET_RUNDOWN "a669021c-c450-4609-a035-5af59af4df18"
#define TEST_PROVIDER "11111111-2222-3333-4444-555555555555"

static char *
clr_manifest_path (void)
{
  return etl_test_corpus_path ("manifests/ClrEtwAll.man");
}

static EtlSchema *
lookup (EtlSchemaRegistry *registry, const char *guid_str, guint16 id, guint8 version)
{
  EtlGuid guid;
  EtlSchemaKey key;

  g_assert_true (etl_guid_parse (guid_str, &guid));
  etl_schema_key_init_event_id (&key, &guid, id, version);
  return etl_schema_registry_lookup (registry, &key, 0, 1234);
}

static EtlSchemaRegistry *
load_clr (void)
{
  g_autofree char *path = clr_manifest_path ();
  EtlSchemaRegistry *registry;
  g_autoptr (GError) error = NULL;

  if (path == NULL)
    return NULL;
  registry = etl_schema_registry_new ();
  g_assert_true (etl_manifest_load_file (registry, path, NULL, &error));
  g_assert_no_error (error);
  return registry;
}

/* Loads @xml from a string and returns the registry; @info is filled. */
static EtlSchemaRegistry *
load_string (const char *xml, EtlManifestInfo *info, GError **error)
{
  EtlSchemaRegistry *registry = etl_schema_registry_new ();

  etl_manifest_load_data (registry, xml, -1, ETL_SCHEMA_SOURCE_MANIFEST, 0, 0, "test.man", info, error);
  return registry;
}

static gboolean
has_warning (const EtlManifestInfo *info, const char *needle)
{
  for (guint i = 0; i < info->warnings->len; i++)
    if (strstr (g_ptr_array_index (info->warnings, i), needle) != NULL)
      return TRUE;
  return FALSE;
}

/* ---- ClrEtwAll.man ------------------------------------------------ */

static void
test_clr_load (void)
{
  g_autofree char *path = clr_manifest_path ();
  g_autoptr (EtlSchemaRegistry) registry = NULL;
  g_autoptr (GError) error = NULL;
  EtlManifestInfo info = ETL_MANIFEST_INFO_INIT;

  if (path == NULL)
    return;
  registry = etl_schema_registry_new ();
  g_assert_true (etl_manifest_load_file (registry, path, &info, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (info.n_providers, ==, 4);
  g_assert_cmpuint (info.n_events, ==, 403);
  g_assert_cmpuint (info.n_maps, ==, 38);
  g_assert_cmpuint (info.n_properties, ==, 1517);
  g_assert_cmpuint (info.n_skipped, ==, 0);
  g_assert_cmpuint (info.n_warnings, ==, 0);
  g_assert_cmpuint (info.warnings->len, ==, 0);
  g_assert_cmpuint (info.provider_names->len, ==, 4);
  g_assert_cmpstr (g_ptr_array_index (info.provider_names, 0), ==, "Microsoft-Windows-DotNETRuntime");
  g_assert_cmpstr (g_ptr_array_index (info.provider_names, 1), ==, "Microsoft-Windows-DotNETRuntimeRundown");
  g_assert_cmpstr (g_ptr_array_index (info.provider_names, 2), ==, "Microsoft-Windows-DotNETRuntimeStress");
  g_assert_cmpstr (g_ptr_array_index (info.provider_names, 3), ==, "Microsoft-Windows-DotNETRuntimePrivate");
  g_assert_cmpuint (etl_schema_registry_get_n_schemas (registry, ETL_SCHEMA_SOURCE_MANIFEST), ==, 403);
  etl_manifest_info_clear (&info);
}

typedef struct
{
  const char *name;
  guint16 in_type;
  guint16 out_type;
  const char *map;
} ExpectedProp;

static void
assert_props (const EtlSchema *schema, const ExpectedProp *expected, guint n)
{
  g_assert_cmpuint (schema->n_properties, ==, n);
  g_assert_cmpuint (schema->n_top_level, ==, n);
  for (guint i = 0; i < n; i++)
    {
      const EtlProperty *p = &schema->properties[i];

      g_assert_cmpstr (p->name, ==, expected[i].name);
      g_assert_cmpuint (p->in_type, ==, expected[i].in_type);
      g_assert_cmpuint (p->out_type, ==, expected[i].out_type);
      g_assert_cmpuint (p->flags, ==, 0);
      g_assert_cmpuint (p->count, ==, 1);
      g_assert_cmpstr (p->map_name, ==, expected[i].map);
      if (expected[i].map != NULL)
        {
          g_assert_nonnull (p->map);
          g_assert_cmpstr (p->map->name, ==, expected[i].map);
        }
      else
        g_assert_null (p->map);
    }
}

static void
test_clr_gc_start (void)
{
  g_autoptr (EtlSchemaRegistry) registry = load_clr ();
  g_autoptr (EtlSchema) v0 = NULL;
  g_autoptr (EtlSchema) v1 = NULL;
  g_autoptr (EtlSchema) v2 = NULL;
  g_autoptr (EtlSchema) v3 = NULL;
  g_autofree char *display = NULL;
  const ExpectedProp p0[] = {
    { "Count", ETL_IN_UINT32, ETL_OUT_UNSIGNEDINT, NULL },
    { "Reason", ETL_IN_UINT32, ETL_OUT_NULL, "GCReasonMap" },
  };
  const ExpectedProp p1[] = {
    { "Count", ETL_IN_UINT32, ETL_OUT_UNSIGNEDINT, NULL },
    { "Depth", ETL_IN_UINT32, ETL_OUT_UNSIGNEDINT, NULL },
    { "Reason", ETL_IN_UINT32, ETL_OUT_NULL, "GCReasonMap" },
    { "Type", ETL_IN_UINT32, ETL_OUT_NULL, "GCTypeMap" },
    { "ClrInstanceID", ETL_IN_UINT16, ETL_OUT_NULL, NULL },
  };
  const ExpectedProp p2[] = {
    { "Count", ETL_IN_UINT32, ETL_OUT_UNSIGNEDINT, NULL },
    { "Depth", ETL_IN_UINT32, ETL_OUT_UNSIGNEDINT, NULL },
    { "Reason", ETL_IN_UINT32, ETL_OUT_NULL, "GCReasonMap" },
    { "Type", ETL_IN_UINT32, ETL_OUT_NULL, "GCTypeMap" },
    { "ClrInstanceID", ETL_IN_UINT16, ETL_OUT_NULL, NULL },
    { "ClientSequenceNumber", ETL_IN_UINT64, ETL_OUT_NULL, NULL },
  };

  if (registry == NULL)
    return;
  v0 = lookup (registry, DOTNET_RUNTIME, 1, 0);
  v1 = lookup (registry, DOTNET_RUNTIME, 1, 1);
  v2 = lookup (registry, DOTNET_RUNTIME, 1, 2);
  v3 = lookup (registry, DOTNET_RUNTIME, 1, 3);
  g_assert_nonnull (v0);
  g_assert_nonnull (v1);
  g_assert_nonnull (v2);
  g_assert_null (v3);

  assert_props (v0, p0, G_N_ELEMENTS (p0));
  assert_props (v1, p1, G_N_ELEMENTS (p1));
  assert_props (v2, p2, G_N_ELEMENTS (p2));

  g_assert_cmpint (v1->source, ==, ETL_SCHEMA_SOURCE_MANIFEST);
  g_assert_cmpuint (v1->key.kind, ==, ETL_SCHEMA_KEY_EVENT_ID);
  g_assert_cmpuint (v1->key.id, ==, 1);
  g_assert_cmpuint (v1->key.version, ==, 1);
  g_assert_cmpstr (v1->provider_name, ==, "Microsoft-Windows-DotNETRuntime");
  g_assert_cmpstr (v1->event_name, ==, "GCStart_V1");
  g_assert_cmpstr (v1->task_name, ==, "GC");
  g_assert_cmpuint (v1->task, ==, 1);
  g_assert_cmpstr (v1->opcode_name, ==, "Start");
  g_assert_cmpuint (v1->opcode, ==, 1);
  g_assert_cmpstr (v1->level_name, ==, "Informational");
  g_assert_cmpuint (v1->level, ==, 4);
  g_assert_cmphex (v1->keyword, ==, 0x1);
  g_assert_nonnull (v1->keyword_names);
  g_assert_cmpstr (v1->keyword_names[0], ==, "GCKeyword");
  g_assert_null (v1->keyword_names[1]);

  /* As gcevents.baseline.txt names it: Microsoft-Windows-DotNETRuntime/GC/Start */
  display = etl_schema_dup_display_name (v2);
  g_assert_cmpstr (display, ==, "GC/Start");
}

static void
test_clr_names (void)
{
  g_autoptr (EtlSchemaRegistry) registry = load_clr ();
  struct
  {
    const char *provider;
    guint16 id;
    guint8 version;
    const char *display;
  } cases[] = {
    /* The names gcevents / gcrundownevents.baseline.txt give these events. */
    { DOTNET_RUNTIME, 2, 1, "GC/Stop" },
    { DOTNET_RUNTIME, 10, 3, "GC/AllocationTick" },
    { DOTNET_RUNTIME, 5, 1, "GC/CreateSegment" },
    { DOTNET_RUNTIME, 9, 0, "GC/SuspendEEStart" },
    { DOTNET_RUNTIME, 13, 0, "GC/FinalizersStop" },
    { DOTNET_RUNTIME, 35, 0, "GC/Triggered" },
    { DOTNET_RUNTIME, 187, 0, "Runtime/Start" },
    { DOTNET_RUNDOWN, 146, 1, "Method/DCStopComplete" },
    { DOTNET_RUNDOWN, 148, 1, "Method/DCStopInit" },
    { DOTNET_RUNDOWN, 152, 1, "Loader/DomainModuleDCStop" },
    { DOTNET_RUNDOWN, 154, 2, "Loader/ModuleDCStop" },
    { DOTNET_RUNDOWN, 156, 1, "Loader/AssemblyDCStop" },
    { DOTNET_RUNDOWN, 158, 1, "Loader/AppDomainDCStop" },
  };

  if (registry == NULL)
    return;
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (EtlSchema) schema = lookup (registry, cases[i].provider, cases[i].id, cases[i].version);
      g_autofree char *display = NULL;

      g_assert_nonnull (schema);
      display = etl_schema_dup_display_name (schema);
      g_assert_cmpstr (display, ==, cases[i].display);
    }
}

static void
test_clr_maps (void)
{
  g_autoptr (EtlSchemaRegistry) registry = load_clr ();
  g_autoptr (EtlSchema) gc_start = NULL;
  g_autoptr (EtlSchema) root_edge = NULL;
  const EtlMap *reason;
  const EtlMap *flags = NULL;
  g_autofree char *s1 = NULL, *s2 = NULL, *s3 = NULL, *s4 = NULL;

  if (registry == NULL)
    return;
  gc_start = lookup (registry, DOTNET_RUNTIME, 1, 2);
  g_assert_nonnull (gc_start);
  reason = gc_start->properties[2].map;
  g_assert_nonnull (reason);
  g_assert_false (reason->is_bitmap);
  g_assert_cmpuint (reason->n_entries, ==, 10);
  /* $(string.RuntimePublisher.GCReason.*MapMessage) resolved */
  g_assert_cmpuint (reason->entries[0].value, ==, 0);
  g_assert_cmpstr (reason->entries[0].name, ==, "AllocSmall");
  g_assert_cmpuint (reason->entries[1].value, ==, 1);
  g_assert_cmpstr (reason->entries[1].name, ==, "Induced");
  s1 = etl_map_format (reason, 1);
  g_assert_cmpstr (s1, ==, "Induced");

  /* GCBulkRootEdge (event 16): Values struct member GCRootFlag → GCRootFlagsMap */
  root_edge = lookup (registry, DOTNET_RUNTIME, 16, 0);
  g_assert_nonnull (root_edge);
  for (guint i = 0; i < root_edge->n_properties; i++)
    if (g_strcmp0 (root_edge->properties[i].map_name, "GCRootFlagsMap") == 0)
      flags = root_edge->properties[i].map;
  g_assert_nonnull (flags);
  g_assert_true (flags->is_bitmap);
  g_assert_cmpuint (flags->n_entries, ==, 4);
  g_assert_cmpuint (flags->entries[0].value, ==, 0x1);
  g_assert_cmpstr (flags->entries[0].name, ==, "Pinning");
  g_assert_cmpuint (flags->entries[3].value, ==, 0x8);
  g_assert_cmpstr (flags->entries[3].name, ==, "RefCounted");
  s2 = etl_map_format (flags, 0x5);
  g_assert_cmpstr (s2, ==, "Pinning|Interior");
  s3 = etl_map_format (flags, 0x2);
  g_assert_cmpstr (s3, ==, "WeakRef");
  s4 = etl_map_format (reason, 0x1);
  g_assert_cmpstr (s4, ==, "Induced");
}

static void
test_clr_strings (void)
{
  g_autoptr (EtlSchemaRegistry) registry = load_clr ();
  g_autoptr (EtlSchema) create_segment = NULL;

  if (registry == NULL)
    return;
  /* task message $(string.RuntimePublisher.GarbageCollectionTaskMessage)
   * = "GC"; opcode GCCreateSegment's message = "CreateSegment" */
  create_segment = lookup (registry, DOTNET_RUNTIME, 5, 1);
  g_assert_nonnull (create_segment);
  g_assert_cmpstr (create_segment->task_name, ==, "GC");
  g_assert_cmpstr (create_segment->opcode_name, ==, "CreateSegment");
  g_assert_cmpuint (create_segment->opcode, ==, 134);
  g_assert_cmpstr (create_segment->properties[2].name, ==, "Type");
  g_assert_cmpstr (create_segment->properties[2].map->entries[0].name, ==, "SmallObjectHeap");
}

static void
test_clr_param_length (void)
{
  g_autoptr (EtlSchemaRegistry) registry = load_clr ();
  g_autoptr (EtlSchema) dynamic = NULL;
  const EtlProperty *data;

  if (registry == NULL)
    return;
  /* GCDynamicEvent (39): Name, DataSize, Data length="DataSize", ClrInstanceID */
  dynamic = lookup (registry, DOTNET_RUNTIME, 39, 0);
  g_assert_nonnull (dynamic);
  g_assert_cmpuint (dynamic->n_properties, ==, 4);
  data = &dynamic->properties[2];
  g_assert_cmpstr (data->name, ==, "Data");
  g_assert_cmpuint (data->in_type, ==, ETL_IN_BINARY);
  g_assert_cmphex (data->flags, ==, ETL_PROPERTY_PARAM_LENGTH);
  g_assert_cmpuint (data->length, ==, 1);
  g_assert_cmpstr (dynamic->properties[data->length].name, ==, "DataSize");
  g_assert_cmpuint (dynamic->properties[3].in_type, ==, ETL_IN_UINT16);
}

static void
test_clr_struct (void)
{
  g_autoptr (EtlSchemaRegistry) registry = load_clr ();
  g_autoptr (EtlSchema) bulk = NULL;
  g_autoptr (EtlSchema) history = NULL;
  const EtlProperty *values, *params;
  const char *const members[] = { "TypeID", "ModuleID", "TypeNameID", "Flags", "CorElementType",
                                  "Name", "TypeParameterCount", "TypeParameters" };

  if (registry == NULL)
    return;
  /* BulkType (15): Count, ClrInstanceID, struct Values count="Count" of 8
   * members, whose TypeParameters count="TypeParameterCount" (a member). */
  bulk = lookup (registry, DOTNET_RUNTIME, 15, 0);
  g_assert_nonnull (bulk);
  g_assert_cmpuint (bulk->n_top_level, ==, 3);
  g_assert_cmpuint (bulk->n_properties, ==, 11);
  values = &bulk->properties[2];
  g_assert_cmpstr (values->name, ==, "Values");
  g_assert_cmphex (values->flags, ==, ETL_PROPERTY_STRUCT | ETL_PROPERTY_PARAM_COUNT);
  g_assert_cmpuint (values->count, ==, 0);
  g_assert_cmpstr (bulk->properties[values->count].name, ==, "Count");
  g_assert_cmpuint (values->struct_start, ==, 3);
  g_assert_cmpuint (values->n_struct_members, ==, 8);
  for (guint i = 0; i < G_N_ELEMENTS (members); i++)
    g_assert_cmpstr (bulk->properties[3 + i].name, ==, members[i]);
  g_assert_cmpuint (bulk->properties[3].in_type, ==, ETL_IN_UINT64);
  g_assert_cmpuint (bulk->properties[3].out_type, ==, ETL_OUT_HEXINT64);
  g_assert_cmpuint (bulk->properties[8].in_type, ==, ETL_IN_UNICODESTRING);
  params = &bulk->properties[10];
  g_assert_cmphex (params->flags, ==, ETL_PROPERTY_PARAM_COUNT);
  g_assert_cmpuint (params->count, ==, 9);
  g_assert_cmpstr (bulk->properties[params->count].name, ==, "TypeParameterCount");

  /* GCPerHeapHistory_V3 (204 v3): 15 top-level, Values struct of 10 pointers */
  history = lookup (registry, DOTNET_RUNTIME, 204, 3);
  g_assert_nonnull (history);
  g_assert_cmpuint (history->n_top_level, ==, 16);
  g_assert_cmpuint (history->n_properties, ==, 26);
  g_assert_cmphex (history->properties[15].flags, ==, ETL_PROPERTY_STRUCT | ETL_PROPERTY_PARAM_COUNT);
  g_assert_cmpuint (history->properties[15].count, ==, 14);
  g_assert_cmpuint (history->properties[15].struct_start, ==, 16);
  g_assert_cmpuint (history->properties[15].n_struct_members, ==, 10);
  g_assert_cmpstr (history->properties[25].name, ==, "NewAllocation");
  g_assert_cmpuint (history->properties[25].in_type, ==, ETL_IN_POINTER);
}

/* ---- hand-written manifests --------------------------------------- */

#define HEAD \
  "<instrumentationManifest xmlns=\"http://schemas.microsoft.com/win/2004/08/events\">" \
  "<instrumentation xmlns:win=\"http://manifests.microsoft.com/win/2004/08/windows/events\">" \
  "<events><provider name=\"Test-Provider\" guid=\"{" TEST_PROVIDER "}\" symbol=\"TEST\">"
#define TAIL "</provider></events></instrumentation></instrumentationManifest>"

static void
test_small (void)
{
  /* EventSource order: events before templates, strings at the end;
   * French strings first, en-US preferred. */
  const char *xml = HEAD
    "<tasks><task name=\"Work\" value=\"7\" message=\"$(string.task_Work)\">"
    "  <opcodes><opcode name=\"Poke\" value=\"11\" message=\"$(string.op_Poke)\"/></opcodes></task></tasks>"
    "<opcodes><opcode name=\"Shared\" value=\"12\"/></opcodes>"
    "<levels><level name=\"Chatty\" value=\"17\" message=\"$(string.level_Chatty)\"/></levels>"
    "<keywords><keyword name=\"Alpha\" mask=\"0x2\"/><keyword name=\"Beta\" mask=\"0x100000000\"/></keywords>"
    "<events>"
    "  <event value=\"1\" task=\"Work\" opcode=\"Poke\" level=\"Chatty\" keywords=\"Alpha  Beta win:ResponseTime\" template=\"T1\" name=\"Poked\" symbol=\"POKE\"/>"
    "  <event value=\"1\" version=\"3\" task=\"Work\" opcode=\"win:DC_Stop\" level=\"win:Warning\" template=\"T1\"/>"
    "  <event value=\"2\" task=\"Work\" opcode=\"Shared\" symbol=\"SharedSym\"/>"
    "  <event value=\"3\" task=\"Work\" opcode=\"win:Info\"/>"
    "</events>"
    "<maps><bitMap name=\"Bits\"><map value=\"1\" message=\"$(string.bit_One)\"/><map value=\"0x4\" message=\" Four \"/></bitMap></maps>"
    "<templates><template tid=\"T1\">"
    "  <data name=\"Len\" inType=\"win:UInt16\"/>"
    "  <data name=\"Blob\" inType=\"win:Binary\" length=\"Len\"/>"
    "  <data name=\"Fixed\" inType=\"win:UnicodeString\" length=\"8\"/>"
    "  <data name=\"Pair\" inType=\"win:UInt32\" count=\"2\" outType=\"win:HexInt32\"/>"
    "  <data name=\"Mask\" inType=\"win:UInt32\" map=\"Bits\"/>"
    "  <data name=\"Addr\" inType=\"win:Binary\" outType=\"win:SocketAddress\" length=\"16\"/>"
    "  <data name=\"Err\" inType=\"win:UInt32\" outType=\"win:HRESULT\"/>"
    "  <UserData><T1 xmlns=\"myNs\"><Len>%1</Len></T1></UserData>"
    "</template></templates>"
    "</provider></events>"
    "<localization>"
    "<resources culture=\"fr-FR\"><stringTable><string id=\"task_Work\" value=\"Travail\"/></stringTable></resources>"
    "<resources culture=\"en-US\"><stringTable>"
    "  <string id=\"task_Work\" value=\"WorkTask\"/><string id=\"op_Poke\" value=\"Poke&amp;Prod\"/>"
    "  <string id=\"level_Chatty\" value=\"Chatty level\"/><string id=\"bit_One\" value=\"One\"/>"
    "</stringTable></resources></localization>"
    "</instrumentation></instrumentationManifest>";
  EtlManifestInfo info = ETL_MANIFEST_INFO_INIT;
  g_autoptr (GError) error = NULL;
  g_autoptr (EtlSchemaRegistry) registry = load_string (xml, &info, &error);
  g_autoptr (EtlSchema) e1 = NULL;
  g_autoptr (EtlSchema) e1v3 = NULL;
  g_autoptr (EtlSchema) e2 = NULL;
  g_autoptr (EtlSchema) e3 = NULL;
  g_autofree char *bits = NULL;
  g_autofree char *d3 = NULL;

  g_assert_no_error (error);
  g_assert_cmpuint (info.n_warnings, ==, 0);
  g_assert_cmpuint (info.n_events, ==, 4);
  g_assert_cmpuint (info.n_maps, ==, 1);

  e1 = lookup (registry, TEST_PROVIDER, 1, 0);
  g_assert_nonnull (e1);
  g_assert_cmpstr (e1->provider_name, ==, "Test-Provider");
  g_assert_cmpstr (e1->event_name, ==, "Poked");
  g_assert_cmpstr (e1->task_name, ==, "WorkTask");
  g_assert_cmpuint (e1->task, ==, 7);
  g_assert_cmpstr (e1->opcode_name, ==, "Poke&Prod");
  g_assert_cmpuint (e1->opcode, ==, 11);
  g_assert_cmpstr (e1->level_name, ==, "Chatty level");
  g_assert_cmpuint (e1->level, ==, 17);
  g_assert_cmphex (e1->keyword, ==, G_GUINT64_CONSTANT (0x0001000100000002));
  g_assert_cmpuint (g_strv_length (e1->keyword_names), ==, 3);
  g_assert_cmpstr (e1->keyword_names[0], ==, "Alpha");
  g_assert_cmpstr (e1->keyword_names[1], ==, "Beta");
  g_assert_cmpstr (e1->keyword_names[2], ==, "ResponseTime");

  g_assert_cmpuint (e1->n_properties, ==, 7);
  g_assert_cmphex (e1->properties[1].flags, ==, ETL_PROPERTY_PARAM_LENGTH);
  g_assert_cmpuint (e1->properties[1].length, ==, 0);
  g_assert_cmphex (e1->properties[2].flags, ==, ETL_PROPERTY_PARAM_FIXED_LENGTH);
  g_assert_cmpuint (e1->properties[2].length, ==, 8);
  g_assert_cmphex (e1->properties[3].flags, ==, ETL_PROPERTY_PARAM_FIXED_COUNT);
  g_assert_cmpuint (e1->properties[3].count, ==, 2);
  g_assert_cmpuint (e1->properties[3].out_type, ==, ETL_OUT_HEXINT32);
  g_assert_cmpuint (e1->properties[5].out_type, ==, ETL_OUT_SOCKETADDRESS);
  g_assert_cmpuint (e1->properties[6].out_type, ==, ETL_OUT_HRESULT);
  g_assert_nonnull (e1->properties[4].map);
  g_assert_true (e1->properties[4].map->is_bitmap);
  bits = etl_map_format (e1->properties[4].map, 5);
  g_assert_cmpstr (bits, ==, "One|Four");

  e1v3 = lookup (registry, TEST_PROVIDER, 1, 3);
  g_assert_nonnull (e1v3);
  g_assert_null (e1v3->event_name);
  g_assert_cmpstr (e1v3->opcode_name, ==, "DCStop");
  g_assert_cmpuint (e1v3->opcode, ==, 4);
  g_assert_cmpstr (e1v3->level_name, ==, "Warning");
  g_assert_cmpuint (e1v3->level, ==, 3);
  g_assert_null (e1v3->keyword_names);

  e2 = lookup (registry, TEST_PROVIDER, 2, 0);
  g_assert_nonnull (e2);
  g_assert_cmpstr (e2->opcode_name, ==, "Shared");
  g_assert_cmpuint (e2->opcode, ==, 12);
  g_assert_cmpstr (e2->event_name, ==, "SharedSym");
  g_assert_cmpuint (e2->n_properties, ==, 0);

  e3 = lookup (registry, TEST_PROVIDER, 3, 0);
  g_assert_nonnull (e3);
  g_assert_cmpstr (e3->opcode_name, ==, "Info");
  g_assert_cmpuint (e3->opcode, ==, 0);
  d3 = etl_schema_dup_display_name (e3);
  g_assert_cmpstr (d3, ==, "WorkTask");
  etl_manifest_info_clear (&info);
}

static void
test_culture_fallback (void)
{
  const char *xml = HEAD
    "<tasks><task name=\"Work\" value=\"7\" message=\"$(string.t)\"/></tasks>"
    "<events><event value=\"1\" task=\"Work\"/><event value=\"2\" task=\"Missing\"/></events>"
    TAIL;
  g_autofree char *full = g_strconcat (xml,
                                       "<!-- trailing comment -->", NULL);
  /* The localization sits outside the instrumentation element. */
  g_autofree char *doc = NULL;
  EtlManifestInfo info = ETL_MANIFEST_INFO_INIT;
  g_autoptr (GError) error = NULL;
  g_autoptr (EtlSchemaRegistry) registry = NULL;
  g_autoptr (EtlSchema) e1 = NULL;
  g_autoptr (EtlSchema) e2 = NULL;

  doc = g_strdup_printf ("%.*s<localization><resources culture=\"de-DE\"><stringTable>"
                         "<string id=\"t\" value=\"Arbeit\"/></stringTable></resources></localization>"
                         "</instrumentationManifest>",
                         (int) (strlen (xml) - strlen ("</instrumentationManifest>")), xml);
  registry = load_string (doc, &info, &error);
  g_assert_no_error (error);
  e1 = lookup (registry, TEST_PROVIDER, 1, 0);
  g_assert_nonnull (e1);
  g_assert_cmpstr (e1->task_name, ==, "Arbeit");
  /* A dangling task keeps the event, with a warning. */
  e2 = lookup (registry, TEST_PROVIDER, 2, 0);
  g_assert_nonnull (e2);
  g_assert_null (e2->task_name);
  g_assert_true (has_warning (&info, "no task named Missing"));
  g_assert_cmpuint (strlen (full), >, 0);
  etl_manifest_info_clear (&info);
}

static void
test_utf16 (void)
{
  const char *xml = HEAD "<events><event value=\"9\" symbol=\"Wide\"/></events>" TAIL;
  g_autofree gunichar2 *wide = NULL;
  glong n_wide = 0;
  g_autofree guint8 *bytes = NULL;
  g_autoptr (EtlSchemaRegistry) registry = etl_schema_registry_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (EtlSchema) e9 = NULL;
  g_autofree char *bom8 = g_strconcat ("\xEF\xBB\xBF", xml, NULL);

  wide = g_utf8_to_utf16 (xml, -1, NULL, &n_wide, NULL);
  bytes = g_malloc (2 + 2 * n_wide);
  bytes[0] = 0xFF;
  bytes[1] = 0xFE;
  for (glong i = 0; i < n_wide; i++)
    {
      bytes[2 + 2 * i] = wide[i] & 0xFF;
      bytes[3 + 2 * i] = wide[i] >> 8;
    }
  g_assert_true (etl_manifest_load_data (registry, (const char *) bytes, 2 + 2 * n_wide, ETL_SCHEMA_SOURCE_MANIFEST,
                                         0, 0, "wide.man", NULL, &error));
  g_assert_no_error (error);
  e9 = lookup (registry, TEST_PROVIDER, 9, 0);
  g_assert_nonnull (e9);
  g_assert_cmpstr (e9->event_name, ==, "Wide");

  g_assert_true (etl_manifest_load_data (registry, bom8, -1, ETL_SCHEMA_SOURCE_MANIFEST, 0, 0, "bom.man", NULL,
                                         &error));
  g_assert_no_error (error);
}

static void
test_types (void)
{
  guint16 t = 0;

  g_assert_true (etl_manifest_parse_in_type ("win:UnicodeString", &t));
  g_assert_cmpuint (t, ==, ETL_IN_UNICODESTRING);
  g_assert_true (etl_manifest_parse_in_type ("win:CountedUnicodeString", &t));
  g_assert_cmpuint (t, ==, ETL_IN_COUNTEDSTRING);
  g_assert_true (etl_manifest_parse_in_type ("win:SYSTEMTIME", &t));
  g_assert_cmpuint (t, ==, ETL_IN_SYSTEMTIME);
  g_assert_true (etl_manifest_parse_in_type ("win:HexInt64", &t));
  g_assert_cmpuint (t, ==, ETL_IN_HEXINT64);
  g_assert_true (etl_manifest_parse_in_type ("win:Pointer", &t));
  g_assert_cmpuint (t, ==, ETL_IN_POINTER);
  g_assert_false (etl_manifest_parse_in_type ("win:Int128", &t));
  g_assert_false (etl_manifest_parse_in_type (NULL, &t));

  g_assert_true (etl_manifest_parse_out_type ("xs:unsignedInt", &t));
  g_assert_cmpuint (t, ==, ETL_OUT_UNSIGNEDINT);
  g_assert_true (etl_manifest_parse_out_type ("xs:GUID", &t));
  g_assert_cmpuint (t, ==, ETL_OUT_GUID);
  g_assert_true (etl_manifest_parse_out_type ("win:Win32Error", &t));
  g_assert_cmpuint (t, ==, ETL_OUT_WIN32ERROR);
  g_assert_true (etl_manifest_parse_out_type ("win:NTSTATUS", &t));
  g_assert_cmpuint (t, ==, ETL_OUT_NTSTATUS);
  g_assert_true (etl_manifest_parse_out_type ("win:HRESULT", &t));
  g_assert_cmpuint (t, ==, ETL_OUT_HRESULT);
  g_assert_true (etl_manifest_parse_out_type ("win:Utf8", &t));
  g_assert_cmpuint (t, ==, ETL_OUT_UTF8);
  g_assert_true (etl_manifest_parse_out_type ("win:CodePointer", &t));
  g_assert_cmpuint (t, ==, ETL_OUT_CODE_POINTER);
  g_assert_true (etl_manifest_parse_out_type ("win:ETWTIME", &t));
  g_assert_cmpuint (t, ==, ETL_OUT_ETWTIME);
  g_assert_true (etl_manifest_parse_out_type ("win:IPv6", &t));
  g_assert_cmpuint (t, ==, ETL_OUT_IPV6);
  g_assert_false (etl_manifest_parse_out_type ("xs:duration", &t));
}

/* ---- hostile manifests -------------------------------------------- */

static void
test_hostile_truncated (void)
{
  const char *full = HEAD "<events><event value=\"1\"/></events>" TAIL;
  g_autofree char *cut = g_strndup (full, strlen (full) - 30);
  EtlManifestInfo info = ETL_MANIFEST_INFO_INIT;
  g_autoptr (GError) error = NULL;
  g_autoptr (EtlSchemaRegistry) registry = load_string (cut, &info, &error);

  g_assert_error (error, ETL_ERROR, ETL_ERROR_CORRUPT);
  g_assert_true (g_str_has_prefix (error->message, "test.man:1:"));
  g_assert_cmpuint (etl_schema_registry_get_n_schemas (registry, ETL_SCHEMA_SOURCE_MANIFEST), ==, 0);
  etl_manifest_info_clear (&info);
}

static void
test_hostile_malformed (void)
{
  const struct
  {
    const char *xml;
    const char *position;
  } cases[] = {
    { "<a>\n<b>\n</a>", "test.man:3:" },
    { "not xml at all", "test.man:1:" },
    { "<a x=\"1\" x=\"2\"><b></a>", "test.man:1:" },
    { "<a>&bogus;</a>", "test.man:1:" },
    { "<a>\xff\xfe\xfd</a>", "test.man:1:" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (EtlSchemaRegistry) registry = load_string (cases[i].xml, NULL, &error);

      g_assert_error (error, ETL_ERROR, ETL_ERROR_CORRUPT);
      g_assert_true (g_str_has_prefix (error->message, cases[i].position));
    }
  {
    g_autoptr (GError) error = NULL;
    g_autoptr (EtlSchemaRegistry) registry = load_string ("", NULL, &error);

    g_assert_error (error, ETL_ERROR, ETL_ERROR_EMPTY);
  }
}

static void
test_hostile_deep (void)
{
  GString *xml = g_string_new (HEAD);
  g_autoptr (GError) error = NULL;
  g_autoptr (EtlSchemaRegistry) registry = NULL;

  for (guint i = 0; i < 100000; i++)
    g_string_append (xml, "<x>");
  registry = load_string (xml->str, NULL, &error);
  g_assert_error (error, ETL_ERROR, ETL_ERROR_CORRUPT);
  g_assert_nonnull (strstr (error->message, "nested deeper than 64"));
  g_string_free (xml, TRUE);
}

static void
test_hostile_fields (void)
{
  const char *xml = HEAD
    "<unknownThing a=\"b\"><event value=\"77\"/></unknownThing>"
    "<templates>"
    "<template tid=\"Later\"><data name=\"Arr\" inType=\"win:UInt32\" count=\"N\"/><data name=\"N\" inType=\"win:UInt32\"/><data name=\"After\" inType=\"win:UInt8\"/></template>"
    "<template tid=\"Missing\"><data name=\"Arr\" inType=\"win:UInt32\" count=\"Nope\"/></template>"
    "<template tid=\"Absurd\"><data name=\"A\" inType=\"win:UInt8\" count=\"4000000000\"/></template>"
    "<template tid=\"NotInt\"><data name=\"S\" inType=\"win:UnicodeString\"/><data name=\"B\" inType=\"win:Binary\" length=\"S\"/></template>"
    "<template tid=\"Unknown\"><data name=\"U\" inType=\"win:Quux\" outType=\"xs:nothing\"/><data name=\"M\" inType=\"win:UInt8\" map=\"NoMap\"/></template>"
    "<template tid=\"Nested\"><struct name=\"S\"><struct name=\"Inner\"><data name=\"x\" inType=\"win:UInt8\"/></struct><data name=\"y\" inType=\"win:UInt8\"/></struct></template>"
    "<template tid=\"Empty\"><struct name=\"S\" count=\"2\"/></template>"
    "<template tid=\"Later\"><data name=\"Dup\" inType=\"win:UInt8\"/></template>"
    "</templates>"
    "<events>"
    "<event value=\"1\" template=\"Later\"/>"
    "<event value=\"2\" template=\"Missing\"/>"
    "<event value=\"3\" template=\"Absurd\"/>"
    "<event value=\"4\" template=\"NotInt\"/>"
    "<event value=\"5\" template=\"Unknown\"/>"
    "<event value=\"6\" template=\"Nested\"/>"
    "<event value=\"7\" template=\"Empty\"/>"
    "<event value=\"8\" template=\"Dangling\"/>"
    "<event value=\"70000\"/>"
    "<event value=\"9\" version=\"300\"/>"
    "<event value=\"1\"/>"
    "<event value=\"x\"/>"
    "<event/>"
    "<event value=\"10\" opcode=\"NoOp\" level=\"NoLevel\" keywords=\"NoKeyword\"/>"
    "</events>"
    TAIL;
  EtlManifestInfo info = ETL_MANIFEST_INFO_INIT;
  g_autoptr (GError) error = NULL;
  g_autoptr (EtlSchemaRegistry) registry = load_string (xml, &info, &error);
  EtlSchema *s;

  g_assert_no_error (error);
  g_assert_cmpuint (info.n_events, ==, 8);
  g_assert_cmpuint (info.n_skipped, ==, 6);

  /* count naming a later field: kept, undecodable; fields after it kept */
  s = lookup (registry, TEST_PROVIDER, 1, 0);
  g_assert_nonnull (s);
  g_assert_cmpuint (s->n_properties, ==, 3);
  g_assert_cmpuint (s->properties[0].in_type, ==, ETL_IN_NULL);
  g_assert_cmphex (s->properties[0].flags, ==, 0);
  g_assert_cmpuint (s->properties[2].in_type, ==, ETL_IN_UINT8);
  g_assert_true (has_warning (&info, "field Arr: count names N, which is not an earlier field"));
  etl_schema_unref (s);

  s = lookup (registry, TEST_PROVIDER, 2, 0);
  g_assert_cmpuint (s->properties[0].in_type, ==, ETL_IN_NULL);
  g_assert_true (has_warning (&info, "count names Nope"));
  etl_schema_unref (s);

  s = lookup (registry, TEST_PROVIDER, 3, 0);
  g_assert_cmpuint (s->properties[0].in_type, ==, ETL_IN_NULL);
  g_assert_true (has_warning (&info, "count 4000000000 is too large"));
  etl_schema_unref (s);

  s = lookup (registry, TEST_PROVIDER, 4, 0);
  g_assert_cmpuint (s->properties[1].in_type, ==, ETL_IN_NULL);
  g_assert_true (has_warning (&info, "length names S, which is not an integer"));
  etl_schema_unref (s);

  s = lookup (registry, TEST_PROVIDER, 5, 0);
  g_assert_cmpuint (s->properties[0].in_type, ==, ETL_IN_NULL);
  g_assert_cmpuint (s->properties[1].in_type, ==, ETL_IN_UINT8);
  g_assert_null (s->properties[1].map_name);
  g_assert_true (has_warning (&info, "unknown inType win:Quux"));
  g_assert_true (has_warning (&info, "unknown outType xs:nothing"));
  g_assert_true (has_warning (&info, "no map named NoMap"));
  etl_schema_unref (s);

  s = lookup (registry, TEST_PROVIDER, 6, 0);
  g_assert_cmpuint (s->n_top_level, ==, 1);
  g_assert_cmpuint (s->n_properties, ==, 3);
  g_assert_cmphex (s->properties[0].flags, ==, ETL_PROPERTY_STRUCT);
  g_assert_cmpuint (s->properties[1].in_type, ==, ETL_IN_NULL);
  g_assert_cmpuint (s->properties[2].in_type, ==, ETL_IN_UINT8);
  g_assert_true (has_warning (&info, "struct Inner inside struct S"));
  etl_schema_unref (s);

  s = lookup (registry, TEST_PROVIDER, 7, 0);
  g_assert_cmpuint (s->properties[0].in_type, ==, ETL_IN_NULL);
  g_assert_cmphex (s->properties[0].flags, ==, 0);
  etl_schema_unref (s);

  g_assert_null (lookup (registry, TEST_PROVIDER, 8, 0));
  g_assert_true (has_warning (&info, "skipped: no template Dangling"));
  g_assert_true (has_warning (&info, "value 70000 is not a number up to 65535"));
  g_assert_true (has_warning (&info, "version 300 is not a number up to 255"));
  g_assert_true (has_warning (&info, "a second event 1 v0 ignored"));
  g_assert_true (has_warning (&info, "a second template Later ignored"));
  g_assert_true (has_warning (&info, "value (none)"));
  g_assert_null (lookup (registry, TEST_PROVIDER, 77, 0));

  s = lookup (registry, TEST_PROVIDER, 10, 0);
  g_assert_nonnull (s);
  g_assert_null (s->opcode_name);
  g_assert_null (s->level_name);
  g_assert_null (s->keyword_names);
  g_assert_true (has_warning (&info, "no opcode named NoOp"));
  g_assert_true (has_warning (&info, "no level named NoLevel"));
  g_assert_true (has_warning (&info, "no keyword named NoKeyword"));
  etl_schema_unref (s);

  /* Each warning names the origin, line and column. */
  g_assert_true (g_str_has_prefix (g_ptr_array_index (info.warnings, 0), "test.man:1:"));
  etl_manifest_info_clear (&info);
}

static void
test_hostile_caps (void)
{
  GString *xml = g_string_new (HEAD "<templates><template tid=\"Huge\">");
  EtlManifestInfo info = ETL_MANIFEST_INFO_INIT;
  g_autoptr (GError) error = NULL;
  g_autoptr (EtlSchemaRegistry) registry = NULL;
  g_autoptr (EtlSchemaRegistry) registry2 = NULL;
  g_autoptr (EtlSchemaRegistry) registry3 = NULL;
  g_autofree char *long_name = NULL;
  g_autofree char *long_doc = NULL;

  for (guint i = 0; i < ETL_MANIFEST_MAX_PROPERTIES + 5; i++)
    g_string_append_printf (xml, "<data name=\"f%u\" inType=\"win:UInt8\"/>", i);
  g_string_append (xml, "</template></templates><events><event value=\"1\" template=\"Huge\"/>"
                        "<event value=\"2\"/></events>" TAIL);
  registry = load_string (xml->str, &info, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (info.n_events, ==, 1);
  g_assert_true (has_warning (&info, "more than 1024 fields"));
  g_assert_null (lookup (registry, TEST_PROVIDER, 1, 0));
  etl_manifest_info_clear (&info);
  g_string_free (xml, TRUE);

  /* A big template copied into many events: capped in all. */
  xml = g_string_new (HEAD "<templates><template tid=\"Big\">");
  for (guint i = 0; i < ETL_MANIFEST_MAX_PROPERTIES; i++)
    g_string_append_printf (xml, "<data name=\"f%u\" inType=\"win:UInt8\"/>", i);
  g_string_append (xml, "</template></templates><events>");
  for (guint i = 0; i < 300; i++)
    g_string_append_printf (xml, "<event value=\"%u\" template=\"Big\"/>", i);
  g_string_append (xml, "</events>" TAIL);
  {
    g_autoptr (EtlSchemaRegistry) r = load_string (xml->str, &info, &error);

    g_assert_no_error (error);
    g_assert_cmpuint (info.n_events, ==, ETL_MANIFEST_MAX_SCHEMA_PROPERTIES / ETL_MANIFEST_MAX_PROPERTIES);
    g_assert_cmpuint (info.n_properties, ==, ETL_MANIFEST_MAX_SCHEMA_PROPERTIES);
    g_assert_cmpuint (info.n_skipped, ==, 300 - ETL_MANIFEST_MAX_SCHEMA_PROPERTIES / ETL_MANIFEST_MAX_PROPERTIES);
    g_assert_true (has_warning (&info, "more than 262144 properties in all"));
  }
  etl_manifest_info_clear (&info);
  g_string_free (xml, TRUE);

  /* Too many events: an error, nothing registered. */
  xml = g_string_new (HEAD "<events>");
  for (guint i = 0; i <= ETL_MANIFEST_MAX_EVENTS; i++)
    g_string_append_printf (xml, "<event value=\"%u\" version=\"%u\"/>", i & 0xFFFF, i >> 16);
  g_string_append (xml, "</events>" TAIL);
  registry2 = load_string (xml->str, &info, &error);
  g_assert_error (error, ETL_ERROR, ETL_ERROR_CORRUPT);
  g_assert_nonnull (strstr (error->message, "more than 65536 events"));
  g_assert_cmpuint (etl_schema_registry_get_n_schemas (registry2, ETL_SCHEMA_SOURCE_MANIFEST), ==, 0);
  g_clear_error (&error);
  etl_manifest_info_clear (&info);
  g_string_free (xml, TRUE);

  /* An over-long attribute skips its element. */
  long_name = g_strnfill (ETL_MANIFEST_MAX_NAME + 1, 'n');
  long_doc = g_strdup_printf (HEAD "<events><event value=\"1\" symbol=\"%s\"/><event value=\"2\"/></events>" TAIL,
                              long_name);
  registry3 = load_string (long_doc, &info, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (info.n_events, ==, 1);
  g_assert_true (has_warning (&info, "attribute symbol is longer than 1024 bytes"));
  etl_manifest_info_clear (&info);

  /* Too large a document. */
  {
    gsize big = ETL_MANIFEST_MAX_BYTES + 1;
    g_autofree char *huge = g_malloc0 (big);
    g_autoptr (EtlSchemaRegistry) r = etl_schema_registry_new ();

    memset (huge, ' ', big);
    g_assert_false (etl_manifest_load_data (r, huge, (gssize) big, ETL_SCHEMA_SOURCE_MANIFEST, 0, 0, "big.man",
                                            NULL, &error));
    g_assert_error (error, ETL_ERROR, ETL_ERROR_CORRUPT);
    g_assert_true (g_str_has_prefix (error->message, "big.man: "));
  }
}

static void
test_many_names (void)
{
  /* 20,000 tasks, opcodes and events, each event naming its own task and
   * opcode: names are looked up by hash, not by a scan per event. */
  GString *xml = g_string_new (HEAD "<tasks>");
  EtlManifestInfo info = ETL_MANIFEST_INFO_INIT;
  g_autoptr (GError) error = NULL;
  g_autoptr (EtlSchemaRegistry) registry = NULL;
  g_autoptr (EtlSchema) last = NULL;
  const guint n = 20000;

  for (guint i = 0; i < n; i++)
    g_string_append_printf (xml, "<task name=\"t%u\" value=\"%u\"/>", i, i);
  g_string_append (xml, "</tasks><opcodes>");
  for (guint i = 0; i < n; i++)
    g_string_append_printf (xml, "<opcode name=\"o%u\" value=\"%u\"/>", i, 11 + i % 200);
  g_string_append (xml, "</opcodes><events>");
  for (guint i = 0; i < n; i++)
    g_string_append_printf (xml, "<event value=\"%u\" task=\"t%u\" opcode=\"o%u\"/>", i, i, i);
  g_string_append (xml, "</events>" TAIL);
  registry = load_string (xml->str, &info, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (info.n_events, ==, n);
  g_assert_cmpuint (info.n_warnings, ==, 0);
  last = lookup (registry, TEST_PROVIDER, n - 1, 0);
  g_assert_nonnull (last);
  g_assert_cmpstr (last->task_name, ==, "t19999");
  g_assert_cmpuint (last->task, ==, 19999);
  g_assert_cmpstr (last->opcode_name, ==, "o19999");
  g_assert_cmpuint (last->opcode, ==, 11 + 19999 % 200);
  etl_manifest_info_clear (&info);
  g_string_free (xml, TRUE);
}

/* ---- files and folders -------------------------------------------- */

static void
test_files (void)
{
  g_autoptr (EtlSchemaRegistry) registry = etl_schema_registry_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) errors = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) warnings = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *dir = etl_manifest_dup_user_dir ();
  g_autofree char *good = g_build_filename (dir, "good.man", NULL);
  g_autofree char *good2 = g_build_filename (dir, "Second.XML", NULL);
  g_autofree char *bad = g_build_filename (dir, "bad.man", NULL);
  g_autofree char *other = g_build_filename (dir, "readme.txt", NULL);
  g_autofree char *missing = g_build_filename (dir, "missing.man", NULL);
  g_autoptr (EtlSchema) e1 = NULL;
  g_autoptr (EtlSchema) e2 = NULL;

  /* main() points $XDG_DATA_HOME at a fresh temporary folder. */
  g_assert_true (g_str_has_suffix (dir, "etlscope" G_DIR_SEPARATOR_S "manifests"));
  g_assert_cmpuint (etl_manifest_load_user_dir (registry, errors, warnings), ==, 0);
  g_assert_cmpuint (errors->len, ==, 0);

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  g_assert_true (g_file_set_contents (good, HEAD "<events><event value=\"1\" task=\"Nope\"/></events>" TAIL, -1, NULL));
  g_assert_true (g_file_set_contents (good2, HEAD "<events><event value=\"2\"/></events>" TAIL, -1, NULL));
  g_assert_true (g_file_set_contents (bad, "<instrumentationManifest><oops>", -1, NULL));
  g_assert_true (g_file_set_contents (other, "<not a manifest", -1, NULL));

  g_assert_cmpuint (etl_manifest_load_user_dir (registry, errors, warnings), ==, 2);
  g_assert_cmpuint (errors->len, ==, 1);
  g_assert_true (g_str_has_prefix (g_ptr_array_index (errors, 0), bad));
  g_assert_cmpuint (warnings->len, ==, 1);
  g_assert_true (g_str_has_prefix (g_ptr_array_index (warnings, 0), good));
  e1 = lookup (registry, TEST_PROVIDER, 1, 0);
  e2 = lookup (registry, TEST_PROVIDER, 2, 0);
  g_assert_nonnull (e1);
  g_assert_nonnull (e2);

  g_assert_false (etl_manifest_load_file (registry, missing, NULL, &error));
  g_assert_error (error, ETL_ERROR, ETL_ERROR_OPEN);
  g_assert_true (g_str_has_prefix (error->message, missing));
  g_clear_error (&error);
  g_assert_false (etl_manifest_load_file (registry, dir, NULL, &error));
  g_assert_error (error, ETL_ERROR, ETL_ERROR_OPEN);
  g_clear_error (&error);

  g_remove (good);
  g_remove (good2);
  g_remove (bad);
  g_remove (other);
}

/* ---- decoding gcevents / gcrundownevents with ClrEtwAll.man -------- */

/* An integer as TraceEvent prints it (decimal with commas, negative, or
 * 0x hex), as its 64-bit two's-complement pattern: TraceEvent shows a
 * UInt64 as a C# long, and a HexInt64 in hex, so -1 and 0xffffffffffffffff
 * are the same value. */
static gboolean
parse_number (const char *text, guint64 *value)
{
  GString *plain = g_string_new (NULL);
  gboolean ok;

  for (const char *c = text; *c; c++)
    if (*c != ',')
      g_string_append_c (plain, *c);
  if (g_str_has_prefix (plain->str, "0x"))
    ok = plain->len > 2 && g_ascii_string_to_unsigned (plain->str + 2, 16, 0, G_MAXUINT64, value, NULL);
  else if (plain->str[0] == '-')
    {
      gint64 v = 0;

      ok = g_ascii_string_to_signed (plain->str, 10, G_MININT64, -1, &v, NULL);
      *value = (guint64) v;
    }
  else
    ok = g_ascii_string_to_unsigned (plain->str, 10, 0, G_MAXUINT64, value, NULL);
  g_string_free (plain, TRUE);
  return ok;
}

/* A baseline value against the decoded text: equal as text, as a number
 * (TraceEvent groups digits with commas and shows some hex out-types in
 * decimal), as a bitmap (TraceEvent joins names with ", ", etlscope with
 * "|"), or as a string TraceEvent cut after 20 characters with "...". */
static gboolean
baseline_value_equal (const char *expected, const char *actual)
{
  gsize n = strlen (expected);
  guint64 a, b;
  g_autofree char *joined = NULL;

  if (g_strcmp0 (expected, actual) == 0)
    return TRUE;
  if (n > 3 && g_str_has_suffix (expected, "..."))
    return strncmp (expected, actual, n - 3) == 0;
  if (parse_number (expected, &a) && parse_number (actual, &b))
    return a == b;
  if (strstr (expected, ", ") != NULL)
    {
      g_auto (GStrv) names = g_strsplit (expected, ", ", -1);

      joined = g_strjoinv ("|", names);
      return strcmp (joined, actual) == 0;
    }
  return FALSE;
}

typedef struct
{
  guint n_events;
  guint n_no_schema;
  guint n_names_equal;
  guint n_fields; /* of events the manifest describes */
  guint n_fields_equal;
  guint n_fields_unknown; /* of events newer than the manifest */
} DecodeTally;

/* Pairs each CLR EVENT line of the baseline with its record (CPU, DataLen,
 * time within 0.0015 ms, PID/TID) and compares the decoded event name and
 * each Name=value field. */
static void
compare_with_baseline (const char *name, EtlSchemaRegistry *registry, EtlTrace *trace,
                       const char *const *providers, EtlSchemaSource source, DecodeTally *tally,
                       GHashTable *checked)
{
  g_autofree char *base_name = g_strconcat (name, ".baseline.txt", NULL);
  g_autofree char *base = etl_test_corpus_path (base_name);
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;
  g_autofree guint8 *used = NULL;

  if (base == NULL)
    return;
  used = g_malloc0 (etl_trace_get_n_records (trace));
  g_assert_true (g_file_get_contents (base, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *line = lines[i];
      const char *colon, *space;
      g_autofree char *event_name = NULL;
      g_auto (GStrv) parts = NULL;
      double ms;
      guint cpu = 0;
      guint64 data_len = 0;
      guint32 pid = 0, tid = 0;
      gboolean found = FALSE;

      gboolean wanted = FALSE;

      if (!g_str_has_prefix (line, "EVENT "))
        continue;
      colon = strstr (line, ": ");
      for (guint k = 0; colon != NULL && providers[k] != NULL; k++)
        if (g_str_has_prefix (colon + 2, providers[k]))
          wanted = TRUE;
      if (!wanted)
        continue;
      {
        g_autofree char *num = g_strndup (line + 6, colon - (line + 6));
        GString *plain = g_string_new (NULL);

        for (const char *c = num; *c; c++)
          if (*c != ',')
            g_string_append_c (plain, *c);
        ms = g_ascii_strtod (plain->str, NULL);
        g_string_free (plain, TRUE);
      }
      space = strchr (colon + 2, ' ');
      event_name = g_strndup (colon + 2, space - (colon + 2));
      parts = g_strsplit (space + 1, "; ", -1);
      for (guint k = 0; parts[k] != NULL; k++)
        {
          if (g_str_has_prefix (parts[k], "PID="))
            pid = (guint32) g_ascii_strtoull (parts[k] + 4, NULL, 10);
          else if (g_str_has_prefix (parts[k], "TID="))
            tid = (guint32) g_ascii_strtoull (parts[k] + 4, NULL, 10);
          else if (g_str_has_prefix (parts[k], "ProceNum="))
            cpu = (guint) g_ascii_strtoull (parts[k] + 9, NULL, 10);
          else if (g_str_has_prefix (parts[k], "DataLen="))
            data_len = g_ascii_strtoull (parts[k] + 8, NULL, 10);
        }

      for (guint64 r = etl_trace_lower_bound (trace, etl_trace_get_origin (trace) + (gint64) floor ((ms - 0.0015) * 10000.0));
           r < etl_trace_get_n_records (trace) && !found; r++)
        {
          EtlRecord rec;
          double rms = etl_trace_filetime_to_ms (trace, etl_trace_get_filetime (trace, r));
          g_autoptr (EtlDecoded) decoded = NULL;
          g_autofree char *display = NULL;
          g_autofree char *full_name = NULL;

          if (rms > ms + 0.0015)
            break;
          g_assert_true (etl_trace_get_record (trace, r, &rec, NULL));
          if (used[r] || rec.cpu != cpu || rec.user_data_len != data_len || rec.pid != pid || rec.tid != tid
              || fabs (rms - ms) > 0.0015)
            {
              etl_record_clear (&rec);
              continue;
            }
          found = TRUE;
          used[r] = 1;
          decoded = etl_decode_record (registry, NULL, &rec);
          g_assert_nonnull (decoded);
          tally->n_events++;
          if (decoded->schema == NULL)
            {
              /* An event newer than the manifest (dotnet/coreclr, 2019). */
              g_test_message ("%s %.3f: no schema for %s (event %u v%u)", name, ms, event_name, rec.event_id,
                              rec.version);
              tally->n_no_schema++;
              for (guint k = 0; parts[k] != NULL; k++)
                if (strchr (parts[k], '=') != NULL && !g_str_has_prefix (parts[k], "PID=")
                    && !g_str_has_prefix (parts[k], "TID=") && !g_str_has_prefix (parts[k], "PName=")
                    && !g_str_has_prefix (parts[k], "ProceNum=") && !g_str_has_prefix (parts[k], "DataLen="))
                  tally->n_fields_unknown++;
              etl_record_clear (&rec);
              continue;
            }
          g_assert_cmpint (decoded->schema->source, ==, source);
          display = etl_schema_dup_display_name (decoded->schema);
          full_name = g_strconcat (decoded->schema->provider_name != NULL ? decoded->schema->provider_name : "(none)",
                                   "/", display, NULL);
          if (strcmp (full_name, event_name) == 0)
            tally->n_names_equal++;
          else
            g_test_message ("%s %.3f: name %s, baseline %s", name, ms, full_name, event_name);

          for (guint k = 0; parts[k] != NULL; k++)
            {
              const char *eq = strchr (parts[k], '=');
              g_autofree char *field = NULL;
              const EtlField *f;

              if (eq == NULL || g_str_has_prefix (parts[k], "PID=") || g_str_has_prefix (parts[k], "TID=")
                  || g_str_has_prefix (parts[k], "PName=") || g_str_has_prefix (parts[k], "ProceNum=")
                  || g_str_has_prefix (parts[k], "DataLen="))
                continue;
              field = g_strndup (parts[k], eq - parts[k]);
              g_strchomp ((char *) eq);
              f = etl_decoded_find (decoded, field);
              tally->n_fields++;
              if (f != NULL && baseline_value_equal (eq + 1, f->value))
                {
                  tally->n_fields_equal++;
                  if (checked != NULL)
                    {
                      g_autofree char *key = g_strdup_printf ("%s %s=%s", event_name, field, eq + 1);

                      g_hash_table_add (checked, g_steal_pointer (&key));
                    }
                }
              else
                g_test_message ("%s %.3f %s: %s=%s, decoded %s", name, ms, event_name, field, eq + 1,
                                f != NULL ? f->value : "(missing)");
            }
          etl_record_clear (&rec);
        }
      g_assert_true (found);
    }
}

/* ---- EventSource manifests ---------------------------------------- */

typedef struct
{
  EtlRecord record;
  guint8 *data;
} FakeRecord;

static void
fake_record (FakeRecord *f, guint file, guint32 pid, const char *provider, guint format, guint magic,
             guint total, guint number, const char *body, gsize body_len)
{
  memset (f, 0, sizeof *f);
  f->data = g_malloc (8 + body_len);
  f->data[0] = (guint8) format;
  f->data[1] = 1;
  f->data[2] = 0;
  f->data[3] = (guint8) magic;
  f->data[4] = total & 0xFF;
  f->data[5] = total >> 8;
  f->data[6] = number & 0xFF;
  f->data[7] = number >> 8;
  memcpy (f->data + 8, body, body_len);
  f->record.file = file;
  f->record.header_type = ETL_HEADER_TYPE_EVENT_HEADER64;
  f->record.kind = ETL_RECORD_KIND_MANIFEST;
  f->record.has_pid = TRUE;
  f->record.pid = pid;
  f->record.tid = pid + 1;
  g_assert_true (etl_guid_parse (provider, &f->record.provider));
  f->record.event_id = 0xFFFE;
  f->record.opcode = 0xFE;
  f->record.task = 0xFFFE;
  f->record.version = 1;
  f->record.user_data = f->data;
  f->record.user_data_len = 8 + body_len;
  f->record.file_offset = 4096;
}

static void
fake_clear (FakeRecord *f)
{
  g_free (f->data);
}

#define ES_MANIFEST HEAD "<tasks><task name=\"Job\" value=\"3\"/></tasks>" \
  "<events><event value=\"8\" task=\"Job\" opcode=\"win:Start\" template=\"A\"/></events>" \
  "<templates><template tid=\"A\"><data name=\"Id\" inType=\"win:Int32\"/></template></templates>" TAIL

static EtlSchema *
scoped_lookup (EtlSchemaRegistry *registry, guint file, guint32 pid)
{
  EtlGuid guid;
  EtlSchemaKey key;

  etl_guid_parse (TEST_PROVIDER, &guid);
  etl_schema_key_init_event_id (&key, &guid, 8, 0);
  return etl_schema_registry_lookup (registry, &key, file, pid);
}

/* Splits ES_MANIFEST into @n chunks and feeds @n_order of them, in @order. */
static void
feed_chunks (EtlEventSourceCollector *c, guint file, guint32 pid, guint n, const guint *order, guint n_order)
{
  gsize len = strlen (ES_MANIFEST);

  for (guint i = 0; i < n_order; i++)
    {
      guint k = order[i];
      gsize start = len * k / n, end = len * (k + 1) / n;
      FakeRecord f;
      g_autoptr (GError) error = NULL;

      fake_record (&f, file, pid, TEST_PROVIDER, 1, 0x5B, n, k, ES_MANIFEST + start, end - start);
      g_assert_true (etl_eventsource_collector_add (c, &f.record, &error));
      g_assert_no_error (error);
      fake_clear (&f);
    }
}

static void
test_eventsource_chunks (void)
{
  g_autoptr (EtlSchemaRegistry) registry = etl_schema_registry_new ();
  g_autoptr (EtlEventSourceCollector) c = etl_eventsource_collector_new (registry);
  g_autoptr (GPtrArray) problems = g_ptr_array_new_with_free_func (g_free);
  const guint in_order[] = { 0, 1, 2 };
  const guint shuffled[] = { 3, 0, 4, 2, 1 };
  const guint missing[] = { 0, 2 };
  guint n_incomplete;
  EtlSchema *s;

  /* In order, in file 0 / PID 100: registered for that process only. */
  feed_chunks (c, 0, 100, 3, in_order, 3);
  g_assert_cmpuint (etl_eventsource_collector_get_n_manifests (c), ==, 1);
  g_assert_cmpuint (etl_eventsource_collector_get_n_events (c), ==, 1);
  s = scoped_lookup (registry, 0, 100);
  g_assert_nonnull (s);
  g_assert_cmpint (s->source, ==, ETL_SCHEMA_SOURCE_EVENTSOURCE);
  g_assert_cmpstr (s->task_name, ==, "Job");
  g_assert_cmpstr (s->opcode_name, ==, "Start");
  g_assert_cmpuint (s->n_properties, ==, 1);
  g_assert_cmpuint (s->properties[0].in_type, ==, ETL_IN_INT32);
  etl_schema_unref (s);
  g_assert_null (scoped_lookup (registry, 0, 101));
  g_assert_null (scoped_lookup (registry, 1, 100));
  {
    /* The chunk records themselves: "ManifestData" with the envelope. */
    EtlGuid guid;
    EtlSchemaKey key;
    g_autofree char *display = NULL;

    etl_guid_parse (TEST_PROVIDER, &guid);
    etl_schema_key_init_event_id (&key, &guid, 0xFFFE, 1);
    s = etl_schema_registry_lookup (registry, &key, 0, 100);
    g_assert_nonnull (s);
    display = etl_schema_dup_display_name (s);
    g_assert_cmpstr (display, ==, "ManifestData");
    g_assert_cmpstr (s->provider_name, ==, "Test-Provider");
    g_assert_cmpuint (s->n_properties, ==, 7);
    g_assert_cmpstr (s->properties[3].name, ==, "Magic");
    g_assert_cmpstr (s->properties[5].name, ==, "ChunkNumber");
    g_assert_cmpuint (s->properties[5].in_type, ==, ETL_IN_UINT16);
    /* Then the chunk's manifest text, to the end of the user data. */
    g_assert_cmpstr (s->properties[6].name, ==, "ManifestText");
    g_assert_cmpuint (s->properties[6].in_type, ==, ETL_IN_NONNULLTERMINATEDANSISTRING);
    etl_schema_unref (s);
    /* Nothing for a process that sent no chunk. */
    s = etl_schema_registry_lookup (registry, &key, 1, 300);
    g_assert_null (s);
  }

  /* The same manifest again (rundown): not parsed twice. */
  feed_chunks (c, 0, 100, 3, in_order, 3);
  g_assert_cmpuint (etl_eventsource_collector_get_n_manifests (c), ==, 1);

  /* Out of order, another process. */
  feed_chunks (c, 0, 200, 5, shuffled, 5);
  g_assert_cmpuint (etl_eventsource_collector_get_n_manifests (c), ==, 2);
  s = scoped_lookup (registry, 0, 200);
  g_assert_nonnull (s);
  etl_schema_unref (s);

  /* A missing chunk: never registered, reported by finish(). */
  feed_chunks (c, 1, 300, 3, missing, 2);
  g_assert_null (scoped_lookup (registry, 1, 300));
  {
    EtlGuid guid;
    EtlSchemaKey key;

    etl_guid_parse (TEST_PROVIDER, &guid);
    etl_schema_key_init_event_id (&key, &guid, 0xFFFE, 1);
    s = etl_schema_registry_lookup (registry, &key, 1, 300);
    g_assert_nonnull (s);
    g_assert_null (s->provider_name);
    g_assert_cmpstr (s->event_name, ==, "ManifestData");
    etl_schema_unref (s);
  }
  /* A second try that restarts at chunk 0 drops the first one. */
  feed_chunks (c, 2, 400, 3, missing, 2);
  feed_chunks (c, 2, 400, 3, missing, 2);
  n_incomplete = etl_eventsource_collector_finish (c, problems);
  for (guint i = 0; i < problems->len; i++)
    g_test_message ("%s", (char *) g_ptr_array_index (problems, i));
  g_assert_cmpuint (n_incomplete, ==, 3);
  g_assert_cmpuint (problems->len, ==, 3);
  g_assert_nonnull (strstr (g_ptr_array_index (problems, 0), "2 of 3 chunks arrived"));
  g_assert_nonnull (strstr (g_ptr_array_index (problems, 0), "PID 400"));
  g_assert_cmpuint (etl_eventsource_collector_get_n_manifests (c), ==, 2);
  g_assert_cmpuint (etl_eventsource_collector_get_warnings (c)->len, ==, 0);
}

static void
test_eventsource_bad (void)
{
  g_autoptr (EtlSchemaRegistry) registry = etl_schema_registry_new ();
  g_autoptr (EtlEventSourceCollector) c = etl_eventsource_collector_new (registry);
  FakeRecord f;
  g_autoptr (GError) error = NULL;
  gsize big_len = ETL_MANIFEST_MAX_BYTES / 2 + 1;
  g_autofree char *big = g_malloc0 (big_len);

  /* Not a manifest record: ignored. */
  fake_record (&f, 0, 1, TEST_PROVIDER, 1, 0x5B, 1, 0, "x", 1);
  f.record.event_id = 8;
  g_assert_true (etl_eventsource_collector_add (c, &f.record, &error));
  g_assert_no_error (error);
  fake_clear (&f);

  fake_record (&f, 0, 1, TEST_PROVIDER, 1, 0x5A, 1, 0, "x", 1);
  g_assert_false (etl_eventsource_collector_add (c, &f.record, &error));
  g_assert_error (error, ETL_ERROR, ETL_ERROR_CORRUPT);
  g_assert_nonnull (strstr (error->message, "magic 0x5a"));
  g_assert_true (g_str_has_prefix (error->message, "file 0, offset 4096: EventSource manifest of provider " TEST_PROVIDER));
  g_clear_error (&error);
  fake_clear (&f);

  fake_record (&f, 0, 1, TEST_PROVIDER, 2, 0x5B, 1, 0, "x", 1);
  g_assert_false (etl_eventsource_collector_add (c, &f.record, &error));
  g_assert_error (error, ETL_ERROR, ETL_ERROR_UNSUPPORTED);
  g_clear_error (&error);
  fake_clear (&f);

  fake_record (&f, 0, 1, TEST_PROVIDER, 1, 0x5B, 2, 2, "x", 1);
  g_assert_false (etl_eventsource_collector_add (c, &f.record, &error));
  g_assert_error (error, ETL_ERROR, ETL_ERROR_CORRUPT);
  g_clear_error (&error);
  fake_clear (&f);

  fake_record (&f, 0, 1, TEST_PROVIDER, 1, 0x5B, 0, 0, "x", 1);
  g_assert_false (etl_eventsource_collector_add (c, &f.record, &error));
  g_clear_error (&error);
  f.record.user_data_len = 7;
  g_assert_false (etl_eventsource_collector_add (c, &f.record, &error));
  g_assert_nonnull (strstr (error->message, "shorter than the 8-byte envelope"));
  g_clear_error (&error);
  fake_clear (&f);

  /* Malformed XML once complete. */
  fake_record (&f, 0, 1, TEST_PROVIDER, 1, 0x5B, 1, 0, "<a><b></a>", 10);
  g_assert_false (etl_eventsource_collector_add (c, &f.record, &error));
  g_assert_error (error, ETL_ERROR, ETL_ERROR_CORRUPT);
  g_assert_true (g_str_has_prefix (error->message, "EventSource manifest of provider " TEST_PROVIDER " (file 0, PID 1):1:"));
  g_clear_error (&error);
  fake_clear (&f);

  /* Oversized: chunks adding up to more than ETL_MANIFEST_MAX_BYTES. */
  memset (big, ' ', big_len);
  fake_record (&f, 0, 5, TEST_PROVIDER, 1, 0x5B, 3, 0, big, big_len);
  g_assert_true (etl_eventsource_collector_add (c, &f.record, &error));
  g_assert_no_error (error);
  fake_clear (&f);
  fake_record (&f, 0, 5, TEST_PROVIDER, 1, 0x5B, 3, 1, big, big_len);
  g_assert_false (etl_eventsource_collector_add (c, &f.record, &error));
  g_assert_error (error, ETL_ERROR, ETL_ERROR_CORRUPT);
  g_assert_nonnull (strstr (error->message, "more than 16777216 bytes"));
  g_clear_error (&error);
  fake_clear (&f);
  g_assert_cmpuint (etl_eventsource_collector_finish (c, NULL), ==, 1);
  g_assert_cmpuint (etl_eventsource_collector_get_n_manifests (c), ==, 0);

  /* Many processes each starting a manifest of 4096 chunks: capped. */
  for (guint pid = 0; pid <= ETL_EVENTSOURCE_MAX_PENDING; pid++)
    {
      gboolean ok;

      fake_record (&f, 3, 1000 + pid, TEST_PROVIDER, 1, 0x5B, 4096, 0, "<", 1);
      ok = etl_eventsource_collector_add (c, &f.record, &error);
      fake_clear (&f);
      if (pid < ETL_EVENTSOURCE_MAX_PENDING)
        {
          g_assert_no_error (error);
          g_assert_true (ok);
        }
      else
        {
          g_assert_false (ok);
          g_assert_error (error, ETL_ERROR, ETL_ERROR_CORRUPT);
          g_assert_nonnull (strstr (error->message, "1024 other manifests are incomplete"));
          g_clear_error (&error);
        }
    }
  g_assert_cmpuint (etl_eventsource_collector_finish (c, NULL), ==, 1 + ETL_EVENTSOURCE_MAX_PENDING + 1);
}

static void
test_eventsource_corpus (void)
{
  g_autofree char *path = etl_test_corpus_path ("net.4.5.2.x64.etl");
  const char *paths[] = { path, NULL };
  g_autoptr (EtlTrace) trace = NULL;
  g_autoptr (EtlSchemaRegistry) registry = NULL;
  g_autoptr (EtlEventSourceCollector) c = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) problems = g_ptr_array_new_with_free_func (g_free);
  guint n_chunks = 0;
  EtlSchema *s;
  EtlSchemaKey key;
  EtlGuid tpl;

  if (path == NULL)
    return;
  trace = etl_trace_open (paths, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  registry = etl_schema_registry_new ();
  c = etl_eventsource_collector_new (registry);
  for (guint64 i = 0; i < etl_trace_get_n_records (trace); i++)
    {
      EtlRecord r;

      g_assert_true (etl_trace_get_record (trace, i, &r, NULL));
      if (etl_eventsource_record_is_manifest (&r))
        n_chunks++;
      g_assert_true (etl_eventsource_collector_add (c, &r, &error));
      g_assert_no_error (error);
      etl_record_clear (&r);
    }
  g_assert_cmpuint (etl_eventsource_collector_finish (c, problems), ==, 0);
  /* PerfView (twice, the same text), TplEventSource and
   * FrameworkEventSource, all from PID 3988, each in one chunk. */
  g_assert_cmpuint (n_chunks, ==, 4);
  g_assert_cmpuint (etl_eventsource_collector_get_n_manifests (c), ==, 3);
  g_assert_cmpuint (etl_eventsource_collector_get_n_events (c), ==, 23 + 12 + 128);
  g_assert_cmpuint (etl_eventsource_collector_get_warnings (c)->len, ==, 0);
  /* 163 events, and the three providers' ManifestData (0xFFFE) records */
  g_assert_cmpuint (etl_schema_registry_get_n_schemas (registry, ETL_SCHEMA_SOURCE_EVENTSOURCE), ==, 163 + 3);

  /* TplEventSource event 8 v0: baseline's "TplEventSource/TaskExecute/Start" */
  g_assert_true (etl_guid_parse ("2e5dba47-a3d2-4d16-8ee0-6671ffdcd7b5", &tpl));
  etl_schema_key_init_event_id (&key, &tpl, 8, 0);
  s = etl_schema_registry_lookup (registry, &key, 0, 3988);
  g_assert_nonnull (s);
  {
    g_autofree char *display = etl_schema_dup_display_name (s);

    g_assert_cmpstr (display, ==, "TaskExecute/Start");
  }
  g_assert_cmpstr (s->provider_name, ==, "System.Threading.Tasks.TplEventSource");
  g_assert_cmpuint (s->n_properties, ==, 3);
  g_assert_cmpstr (s->properties[0].name, ==, "OriginatingTaskSchedulerID");
  g_assert_cmpstr (s->properties[2].name, ==, "TaskID");
  g_assert_cmpuint (s->properties[0].in_type, ==, ETL_IN_INT32);
  etl_schema_unref (s);
  g_assert_null (etl_schema_registry_lookup (registry, &key, 0, 4000));

  /* Every event of those providers decodes as TraceEvent shows it. */
  {
    const char *const providers[] = { "PerfView/", "System.Threading.Tasks.TplEventSource/",
                                      "System.Diagnostics.Eventing.FrameworkEventSource/", NULL };
    const char *expected[] = {
      "System.Threading.Tasks.TplEventSource/TaskExecute/Start TaskID=6",
      "System.Threading.Tasks.TplEventSource/TaskScheduled/Send TaskCreationOptions=8,192",
      "System.Threading.Tasks.TplEventSource/TaskExecute/Stop IsExceptional=False",
      "System.Diagnostics.Eventing.FrameworkEventSource/ThreadPoolEnqueueWork workID=278,775,272",
      "PerfView/SessionParameters sessionName=NT Kernel Logger",
      "PerfView/ManifestData Magic=91",
      "PerfView/ManifestData TotalChunks=1",
    };
    DecodeTally t = { 0 };
    g_autoptr (GHashTable) checked = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

    compare_with_baseline ("net.4.5.2.x64", registry, trace, providers, ETL_SCHEMA_SOURCE_EVENTSOURCE, &t, checked);
    g_test_message ("net.4.5.2.x64 EventSource events: %u, %u without a schema, %u names equal; %u of %u fields equal",
                    t.n_events, t.n_no_schema, t.n_names_equal, t.n_fields_equal, t.n_fields);
    for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
      if (!g_hash_table_contains (checked, expected[i]))
        g_error ("net.4.5.2.x64: %s not decoded as the baseline says", expected[i]);
    g_assert_cmpuint (t.n_events, ==, 42);
    g_assert_cmpuint (t.n_no_schema, ==, 0);
    g_assert_cmpuint (t.n_names_equal, ==, t.n_events);
    /* Only ManifestData's PayloadLength (TraceEvent's own, not in the
     * payload) is missing. */
    g_assert_cmpuint (t.n_fields_equal, >=, t.n_fields - 4);
  }
}


static void
test_decode_gcevents (void)
{
  DecodeTally t = { 0 };
  g_autoptr (GHashTable) checked = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  const char *expected[] = {
    "Microsoft-Windows-DotNETRuntime/GC/Start Count=1",
    "Microsoft-Windows-DotNETRuntime/GC/Start Reason=Induced",
    "Microsoft-Windows-DotNETRuntime/GC/Start Depth=1",
    "Microsoft-Windows-DotNETRuntime/GC/Start Type=NonConcurrentGC",
    "Microsoft-Windows-DotNETRuntime/GC/Start ClientSequenceNumber=0",
    "Microsoft-Windows-DotNETRuntime/GC/CreateSegment Type=SmallObjectHeap",
    "Microsoft-Windows-DotNETRuntime/GC/SuspendEEStart Reason=SuspendForGC",
    "Microsoft-Windows-DotNETRuntime/GC/PinObjectAtGCTime TypeName=System.Object",
  };

  g_autofree char *path = etl_test_corpus_path ("gcevents.etl");
  const char *paths[] = { path, NULL };
  const char *const providers[] = { "Microsoft-Windows-DotNETRuntime", NULL };
  g_autoptr (EtlSchemaRegistry) registry = NULL;
  g_autoptr (EtlTrace) trace = NULL;
  g_autoptr (GError) error = NULL;

  if (path == NULL || (registry = load_clr ()) == NULL)
    return;
  trace = etl_trace_open (paths, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  compare_with_baseline ("gcevents", registry, trace, providers, ETL_SCHEMA_SOURCE_MANIFEST, &t, checked);
  if (t.n_events == 0)
    return;
  g_test_message ("gcevents: %u CLR events, %u without a schema, %u names equal; %u of %u fields equal "
                  "(%u more in events without a schema)",
                  t.n_events, t.n_no_schema, t.n_names_equal, t.n_fields_equal, t.n_fields, t.n_fields_unknown);
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    if (!g_hash_table_contains (checked, expected[i]))
      g_error ("gcevents: %s not decoded as the baseline says", expected[i]);
  /* ClrEtwAll.man is from 2019; the trace is from .NET 8: AllocationTick
   * v4, HeapStats v2, GlobalHeapHistory v4 decode with the newest earlier
   * version the manifest has (etl_decode_record()); FitBucketInfo and
   * LOHCompact are newer than it, and it names opcode GCMarkWithType "Mark". */
  g_assert_cmpuint (t.n_events, ==, 51);
  g_assert_cmpuint (t.n_no_schema, ==, 2);
  g_assert_cmpuint (t.n_names_equal, ==, t.n_events - t.n_no_schema - 5);
  /* Events decoded with an earlier version lack the later fields (counted here as unequal). */
  g_assert_cmpuint (t.n_fields_equal * 100, >=, t.n_fields * 80);
}

static void
test_decode_gcrundown (void)
{
  DecodeTally t = { 0 };
  g_autoptr (GHashTable) checked = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  const char *expected[] = {
    "Microsoft-Windows-DotNETRuntimeRundown/Runtime/Start Sku=CoreClr",
    "Microsoft-Windows-DotNETRuntimeRundown/Loader/AppDomainDCStop AppDomainFlags=Default, Executable",
    "Microsoft-Windows-DotNETRuntimeRundown/Method/DCStopComplete ClrInstanceID=8",
  };

  g_autofree char *path = etl_test_corpus_path ("gcrundownevents.etl");
  const char *paths[] = { path, NULL };
  const char *const providers[] = { "Microsoft-Windows-DotNETRuntime", NULL };
  g_autoptr (EtlSchemaRegistry) registry = NULL;
  g_autoptr (EtlTrace) trace = NULL;
  g_autoptr (GError) error = NULL;

  if (path == NULL || (registry = load_clr ()) == NULL)
    return;
  trace = etl_trace_open (paths, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  compare_with_baseline ("gcrundownevents", registry, trace, providers, ETL_SCHEMA_SOURCE_MANIFEST, &t, checked);
  if (t.n_events == 0)
    return;
  g_test_message ("gcrundownevents: %u CLR events, %u without a schema, %u names equal; %u of %u fields equal "
                  "(%u more in events without a schema)",
                  t.n_events, t.n_no_schema, t.n_names_equal, t.n_fields_equal, t.n_fields, t.n_fields_unknown);
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    if (!g_hash_table_contains (checked, expected[i]))
      g_error ("gcrundownevents: %s not decoded as the baseline says", expected[i]);
  /* SettingsRundown and TieredCompilation SettingsDCStart are newer than
   * the manifest, and so are ModuleILFileName and the ReadyToRun flags. */
  g_assert_cmpuint (t.n_events, ==, 24);
  g_assert_cmpuint (t.n_no_schema, ==, 2);
  g_assert_cmpuint (t.n_names_equal, ==, t.n_events - t.n_no_schema);
  g_assert_cmpuint (t.n_fields_equal * 100, >=, t.n_fields * 85);
}

static void
test_decode_private (void)
{
  /* Microsoft-Windows-DotNETRuntimePrivate has no metadata in
   * net.4.5.2.x64.etl: only the manifest describes it. */
  DecodeTally t = { 0 };
  g_autoptr (GHashTable) checked = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autofree char *path = etl_test_corpus_path ("net.4.5.2.x64.etl");
  const char *paths[] = { path, NULL };
  const char *const providers[] = { "Microsoft-Windows-DotNETRuntimePrivate/", NULL };
  const char *expected[] = {
    "Microsoft-Windows-DotNETRuntimePrivate/GC/Settings SegmentSize=16,777,216",
    "Microsoft-Windows-DotNETRuntimePrivate/GC/Settings ServerGC=False",
    "Microsoft-Windows-DotNETRuntimePrivate/Binding/FusionMessage Prepend=False",
    "Microsoft-Windows-DotNETRuntimePrivate/Binding/FusionMessage Message=BEGIN : IL image bin...",
    "Microsoft-Windows-DotNETRuntimePrivate/NgenBinder/NgenBind BindingID=8,164,512",
  };
  g_autoptr (EtlSchemaRegistry) registry = NULL;
  g_autoptr (EtlTrace) trace = NULL;
  g_autoptr (GError) error = NULL;

  if (path == NULL || (registry = load_clr ()) == NULL)
    return;
  trace = etl_trace_open (paths, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  compare_with_baseline ("net.4.5.2.x64", registry, trace, providers, ETL_SCHEMA_SOURCE_MANIFEST, &t, checked);
  g_test_message ("net.4.5.2.x64 DotNETRuntimePrivate: %u events, %u without a schema, %u names equal; "
                  "%u of %u fields equal",
                  t.n_events, t.n_no_schema, t.n_names_equal, t.n_fields_equal, t.n_fields);
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    if (!g_hash_table_contains (checked, expected[i]))
      g_error ("net.4.5.2.x64: %s not decoded as the baseline says", expected[i]);
  g_assert_cmpuint (t.n_events, ==, 58);
  g_assert_cmpuint (t.n_no_schema, ==, 0);
  g_assert_cmpuint (t.n_names_equal, ==, t.n_events);
  /* The manifest declares GC/PerHeapHistory and GlobalHeapHistory of this
   * provider with empty or shorter templates than TraceEvent's own
   * parsers, and NgenBind's ReasonCode without a map: 230 of 352. */
  g_assert_cmpuint (t.n_fields_equal * 100, >=, t.n_fields * 60);
}

int
main (int argc, char **argv)
{
  g_autofree char *data_home = g_dir_make_tmp ("etlscope-manifest-XXXXXX", NULL);
  g_autofree char *etlscope_dir = NULL;
  g_autofree char *manifest_dir = NULL;
  int status;

  /* Before anything asks g_get_user_data_dir(), which caches it (GLib's
   * G_TEST_OPTION_ISOLATE_DIRS does the same but leaks under LSan). */
  g_assert_nonnull (data_home);
  g_setenv ("XDG_DATA_HOME", data_home, TRUE);
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/etl/manifest/clr/load", test_clr_load);
  g_test_add_func ("/etl/manifest/clr/gc-start", test_clr_gc_start);
  g_test_add_func ("/etl/manifest/clr/names", test_clr_names);
  g_test_add_func ("/etl/manifest/clr/maps", test_clr_maps);
  g_test_add_func ("/etl/manifest/clr/strings", test_clr_strings);
  g_test_add_func ("/etl/manifest/clr/param-length", test_clr_param_length);
  g_test_add_func ("/etl/manifest/clr/struct", test_clr_struct);
  g_test_add_func ("/etl/manifest/small", test_small);
  g_test_add_func ("/etl/manifest/culture-fallback", test_culture_fallback);
  g_test_add_func ("/etl/manifest/utf16", test_utf16);
  g_test_add_func ("/etl/manifest/types", test_types);
  g_test_add_func ("/etl/manifest/hostile/truncated", test_hostile_truncated);
  g_test_add_func ("/etl/manifest/hostile/malformed", test_hostile_malformed);
  g_test_add_func ("/etl/manifest/hostile/deep", test_hostile_deep);
  g_test_add_func ("/etl/manifest/hostile/fields", test_hostile_fields);
  g_test_add_func ("/etl/manifest/hostile/caps", test_hostile_caps);
  g_test_add_func ("/etl/manifest/hostile/many-names", test_many_names);
  g_test_add_func ("/etl/manifest/files", test_files);
  g_test_add_func ("/etl/eventsource/chunks", test_eventsource_chunks);
  g_test_add_func ("/etl/eventsource/bad", test_eventsource_bad);
  g_test_add_func ("/etl/eventsource/corpus", test_eventsource_corpus);
  g_test_add_func ("/etl/manifest/decode/gcevents", test_decode_gcevents);
  g_test_add_func ("/etl/manifest/decode/gcrundownevents", test_decode_gcrundown);
  g_test_add_func ("/etl/manifest/decode/net-private", test_decode_private);
  status = g_test_run ();

  etlscope_dir = g_build_filename (data_home, "etlscope", NULL);
  manifest_dir = g_build_filename (etlscope_dir, "manifests", NULL);
  g_rmdir (manifest_dir);
  g_rmdir (etlscope_dir);
  g_rmdir (data_home);
  return status;
}
