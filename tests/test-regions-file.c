/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Regions of Interest files (etl-regions-file) and their matching against
 * traces (etl-regions): Microsoft's documented example and every documented
 * element, malformed and hostile files, a synthetic trace written here with
 * the writer and described by a manifest, and MSBuild's Target/ExecuteTask
 * events of real/msbuild_PerfViewData.etl against a pairing done here.
 */
#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "etl-format-private.h"
#include "etl-regions-file.h"
#include "etl-regions.h"
#include "etl-test-trace.h"
#include "etl-writer.h"

/* ------------------------------------------------------------------------ */
/* Parsing                                                                  */

/* Microsoft's complete example ("Creating a Regions of Interest File"). */
static const char documented_example[] =
  "<?xml version='1.0' encoding='utf-8' standalone='yes'?>\n"
  "<?Copyright (c) Microsoft Corporation. All rights reserved.?>\n"
  "<InstrumentationManifest>\n"
  "   <Instrumentation>\n"
  "      <Regions>\n"
  "         <RegionRoot Guid=\"{EFA7A927-BAE3-48F6-92E1-000000000000}\"\n"
  "                     Name=\"Sample Region File Root\"\n"
  "                     FriendlyName=\"Root\">\n"
  "            <Region Guid=\"{d8d639a0-cf4c-45fb-976a-000111000100}\"\n"
  "                    Name=\"FastStartup-Suspend-UserSession-Shutdown\"\n"
  "                    FriendlyName=\"User Session Shutdown\">\n"
  "               <Start>\n"
  "                  <Event Provider=\"{dbe9b383-7cf3-4331-91cc-a3cb16a3b538}\" Id=\"301\" Version=\"0\" />\n"
  "               </Start>\n"
  "               <Stop>\n"
  "                  <Event Provider=\"{331c3b3a-2005-44c2-ac5e-77220c37d6b4}\" Id=\"22\" Version=\"0\" />\n"
  "               </Stop>\n"
  "            </Region>\n"
  "         </RegionRoot>\n"
  "      </Regions>\n"
  "   </Instrumentation>\n"
  "</InstrumentationManifest>\n";

static EtlRegionsFile *
parse_ok (const char *xml)
{
  g_autoptr (GError) error = NULL;
  EtlRegionsFile *f = etl_regions_file_parse (xml, -1, "test.xml", &error);

  g_assert_no_error (error);
  g_assert_nonnull (f);
  return f;
}

static const EtlRegionDef *
region (const EtlRegionsFile *f, guint i)
{
  g_assert_cmpuint (i, <, f->regions->len);
  return &g_array_index (f->regions, EtlRegionDef, i);
}

static void
assert_guid (const EtlGuid *g, const char *expected)
{
  char s[ETL_GUID_STRING_LEN + 1];

  etl_guid_to_string (g, s);
  g_assert_cmpstr (s, ==, expected);
}

static void
test_documented_example (void)
{
  g_autoptr (EtlRegionsFile) f = parse_ok (documented_example);
  const EtlRegionRoot *root;
  const EtlRegionDef *r;

  g_assert_cmpuint (f->roots->len, ==, 1);
  root = &g_array_index (f->roots, EtlRegionRoot, 0);
  assert_guid (&root->guid, "efa7a927-bae3-48f6-92e1-000000000000");
  g_assert_cmpstr (root->name, ==, "Sample Region File Root");
  g_assert_cmpstr (root->friendly_name, ==, "Root");
  g_assert_cmpuint (root->line, ==, 6); /* where the tag begins */

  g_assert_cmpuint (f->regions->len, ==, 1);
  r = region (f, 0);
  assert_guid (&r->guid, "d8d639a0-cf4c-45fb-976a-000111000100");
  g_assert_cmpstr (r->name, ==, "FastStartup-Suspend-UserSession-Shutdown");
  g_assert_cmpstr (r->friendly_name, ==, "User Session Shutdown");
  g_assert_cmpstr (etl_region_def_display_name (r), ==, "User Session Shutdown");
  g_assert_cmpuint (r->parent, ==, ETL_REGION_NONE);
  g_assert_cmpuint (r->root, ==, 0);
  g_assert_cmpuint (r->depth, ==, 0);
  g_assert_cmpint (r->start.kind, ==, ETL_REGION_ENDPOINT_EVENT);
  assert_guid (&r->start.provider, "dbe9b383-7cf3-4331-91cc-a3cb16a3b538");
  g_assert_cmpuint (r->start.id, ==, 301);
  g_assert_true (r->start.has_version);
  g_assert_cmpuint (r->start.version, ==, 0);
  g_assert_false (r->start.has_opcode);
  g_assert_cmpuint (r->start.identifiers->len, ==, 0);
  g_assert_cmpint (r->stop.kind, ==, ETL_REGION_ENDPOINT_EVENT);
  assert_guid (&r->stop.provider, "331c3b3a-2005-44c2-ac5e-77220c37d6b4");
  g_assert_cmpuint (r->stop.id, ==, 22);
  g_assert_false (r->match_event.present);
  g_assert_cmpint (r->naming.kind, ==, ETL_REGION_NAMING_NONE);
  g_assert_true (r->matchable);
  g_assert_cmpuint (f->n_warnings, ==, 0);
}

/* Every element of the page in one file: the page's own examples (their
 * GUID typos fixed), plus Opcode, an unknown element and attribute. */
static const char all_features[] =
  "<InstrumentationManifest xmlns:xsd=\"http://www.w3.org/2001/XMLSchema\">\n"                          /* 1 */
  "<Instrumentation><Regions>\n"                                                                        /* 2 */
  "<RegionRoot Guid=\"{EFA7A927-BAE3-48F6-92E1-000000000000}\" Name=\"Root\">\n"                        /* 3 */
  "<Region Guid=\"{AB719FB1-D863-4305-AE8E-F21281899A85}\" Name=\"ConsoleSessionDisconnect\">\n"         /* 4 */
  " <Start>\n"                                                                                          /* 5 */
  "  <Event Provider=\"{dbe9b383-7cf3-4331-91cc-a3cb16a3b538}\" Id=\"801\" Version=\"0\" Opcode=\"1\" Name=\"X\"/>\n" /* 6 */
  "  <PayloadIdentifier FieldName=\"Event\" FieldValue=\"8\"/>\n"                                       /* 7 */
  "  <PayloadIdentifier FieldName=\"Key\" FieldValue=\"00000\"/>\n"                                     /* 8 */
  " </Start>\n"                                                                                         /* 9 */
  " <Stop>\n"                                                                                           /* 10 */
  "  <Event Provider=\"{dbe9b383-7cf3-4331-91cc-a3cb16a3b538}\" Id=\"802\"/>\n"                         /* 11 */
  "  <PayloadIdentifier FieldName=\"Event\" FieldValue=\"20\" FieldValueRelationship=\"DoesNotContain\"/>\n" /* 12 */
  " </Stop>\n"                                                                                          /* 13 */
  " <Match>\n"                                                                                          /* 14 */
  "  <Event TID=\"true\" AID=\"false\"><Payload FieldName=\"SubscriberName\" TargetFieldName=\"Client\"/></Event>\n" /* 15 */
  "  <Parent PID=\"true\"><Payload FieldName=\"Session\"/></Parent>\n"                                  /* 16 */
  "  <SelfNest TID=\"true\" AID=\"true\"><Payload FieldName=\"SubscriberName\"/></SelfNest>\n"          /* 17 */
  " </Match>\n"                                                                                         /* 18 */
  " <Naming><PayloadBased NameField=\"SubscriberName\" InstanceEndpoint=\"Start\" Type=\"Device\"/></Naming>\n" /* 19 */
  " <Metadata><FAS.TestNode>yes</FAS.TestNode></Metadata>\n"                                            /* 20 */
  " <Filter><Event ProviderId=\"{dbe9b383-7cf3-4331-91cc-a3cb16a3b538}\" Id=\"5\" Type=\"Out\"/></Filter>\n" /* 21 */
  " <Extra/>\n"                                                                                         /* 22 */
  "</Region>\n"                                                                                         /* 23 */
  "<Region Guid=\"{A75D8F5D-E8F8-40b8-B453-5CC70DEAC06F}\" Name=\"Subscribers\" FriendlyName=\"Subscribers for Create Session\">\n" /* 24 */
  " <Region Guid=\"{93783B2C-A67F-49cb-89BC-BF305D7E2CEA}\" Name=\"Child\">\n"                          /* 25 */
  "  <Start><Region RegionGuid=\"{5E81D74C-0CCC-43f9-8119-953F827BCD12}\"/></Start>\n"                  /* 26 */
  "  <Stop><Region RegionGuid=\"{7D6BA3F6-BC04-4776-8A7F-93CF7F4E2B6D}\" Endpoint=\"Stop\"/></Stop>\n"  /* 27 */
  " </Region>\n"                                                                                        /* 28 */
  " <Region Guid=\"{93783B2C-A67F-49cb-89BC-BF305D7E2CEB}\" Name=\"HiberFile\">\n"                      /* 29 */
  "  <Start><Duration Provider=\"{331c3b3a-2005-44c2-ac53-77220c37d6b4}\" Id=\"117\" Version=\"0\" Duration=\"HiberHiberFileTime\" Multiplier=\"1000000\"/></Start>\n" /* 30 */
  "  <Stop><Region RegionGuid=\"{EC1BB2D9-4AA8-4d82-84AA-6042FF4CFBE3}\"/></Stop>\n"                    /* 31 */
  " </Region>\n"                                                                                        /* 32 */
  "</Region>\n"                                                                                         /* 33 */
  "<Region Guid=\"{C99EFA90-F645-4A24-9576-740351171BD0}\" Name=\"WinStoreAppActivationDuration\" FriendlyName=\"Launch\">\n" /* 34 */
  " <Start><Event Provider=\"{315a8872-923e-4ea2-9889-33cd4754bf64}\" Id=\"5901\" Version=\"0\"/></Start>\n" /* 35 */
  " <Stop><Event Provider=\"{315a8872-923e-4ea2-9889-33cd4754bf64}\" Id=\"5902\" Version=\"0\"/></Stop>\n" /* 36 */
  " <Naming><RegionBased RegionGuid=\"{1539A93E-129C-4602-A011-431E7F73A353}\" Relation=\"IsPresent\" IfRelationTrue=\"Warm\" IfRelationFalse=\"Cold\"/></Naming>\n" /* 37 */
  "</Region>\n"                                                                                         /* 38 */
  "</RegionRoot></Regions></Instrumentation></InstrumentationManifest>\n";

static gboolean
has_warning (const EtlRegionsFile *f, const char *prefix, const char *part)
{
  for (guint i = 0; i < f->warnings->len; i++)
    {
      const char *w = g_ptr_array_index (f->warnings, i);

      if (g_str_has_prefix (w, prefix) && strstr (w, part) != NULL)
        return TRUE;
    }
  return FALSE;
}

static void
test_all_features (void)
{
  g_autoptr (EtlRegionsFile) f = parse_ok (all_features);
  const EtlRegionDef *r;
  const EtlRegionPayloadIdentifier *id;
  const EtlRegionPayloadPair *pp;

  g_assert_cmpuint (f->regions->len, ==, 5);

  r = region (f, 0);
  g_assert_cmpuint (r->line, ==, 4);
  g_assert_true (r->start.has_opcode);
  g_assert_cmpuint (r->start.opcode, ==, 1);
  g_assert_cmpuint (r->start.id, ==, 801);
  g_assert_cmpuint (r->start.identifiers->len, ==, 2);
  id = &g_array_index (r->start.identifiers, EtlRegionPayloadIdentifier, 1);
  g_assert_cmpstr (id->field_name, ==, "Key");
  g_assert_cmpstr (id->field_value, ==, "00000");
  g_assert_cmpint (id->relationship, ==, ETL_REGION_IS_EQUAL);
  g_assert_cmpuint (id->line, ==, 8);
  g_assert_false (r->stop.has_version);
  id = &g_array_index (r->stop.identifiers, EtlRegionPayloadIdentifier, 0);
  g_assert_cmpint (id->relationship, ==, ETL_REGION_DOES_NOT_CONTAIN);
  g_assert_cmpstr (id->field_value, ==, "20");
  g_assert_true (r->match_event.present);
  g_assert_true (r->match_event.tid);
  g_assert_false (r->match_event.pid);
  g_assert_false (r->match_event.aid);
  g_assert_cmpuint (r->match_event.payload->len, ==, 1);
  pp = &g_array_index (r->match_event.payload, EtlRegionPayloadPair, 0);
  g_assert_cmpstr (pp->field_name, ==, "SubscriberName");
  g_assert_cmpstr (pp->target_field_name, ==, "Client");
  g_assert_true (r->match_parent.present && r->match_parent.pid && !r->match_parent.tid);
  pp = &g_array_index (r->match_parent.payload, EtlRegionPayloadPair, 0);
  g_assert_cmpstr (pp->field_name, ==, "Session");
  g_assert_null (pp->target_field_name);
  g_assert_true (r->self_nest.present && r->self_nest.tid && r->self_nest.aid);
  g_assert_cmpint (r->naming.kind, ==, ETL_REGION_NAMING_PAYLOAD);
  g_assert_cmpstr (r->naming.name_field, ==, "SubscriberName");
  g_assert_cmpint (r->naming.instance_endpoint, ==, ETL_REGION_INSTANCE_ENDPOINT_START);
  g_assert_cmpstr (r->naming.type, ==, "Device");
  g_assert_true (r->has_filter);
  g_assert_true (r->matchable);

  /* The container and its two children (other-region and duration points). */
  r = region (f, 1);
  g_assert_true (r->has_children);
  g_assert_true (r->matchable);
  g_assert_cmpint (r->start.kind, ==, ETL_REGION_ENDPOINT_NONE);
  r = region (f, 2);
  g_assert_cmpuint (r->parent, ==, 1);
  g_assert_cmpuint (r->depth, ==, 1);
  g_assert_cmpint (r->start.kind, ==, ETL_REGION_ENDPOINT_REGION);
  g_assert_false (r->start.endpoint_start); /* a start at the other's stop by default */
  g_assert_false (r->stop.endpoint_start);  /* Endpoint="Stop" */
  assert_guid (&r->stop.region_guid, "7d6ba3f6-bc04-4776-8a7f-93cf7f4e2b6d");
  g_assert_false (r->matchable);
  r = region (f, 3);
  g_assert_cmpint (r->start.kind, ==, ETL_REGION_ENDPOINT_DURATION);
  g_assert_cmpstr (r->start.duration_field, ==, "HiberHiberFileTime");
  g_assert_cmpuint (r->start.multiplier, ==, 1000000);
  g_assert_cmpuint (r->start.id, ==, 117);
  g_assert_false (r->matchable);

  r = region (f, 4);
  g_assert_cmpint (r->naming.kind, ==, ETL_REGION_NAMING_REGION);
  g_assert_cmpstr (r->naming.if_true, ==, "Warm");
  g_assert_cmpstr (r->naming.if_false, ==, "Cold");
  assert_guid (&r->naming.region_guid, "1539a93e-129c-4602-a011-431e7f73a353");

  /* What is tolerated or left out, each with its line. */
  g_assert_true (has_warning (f, "test.xml:6: ", "unknown attribute Name"));
  g_assert_true (has_warning (f, "test.xml:19: ", "Type Device is not applied"));
  g_assert_true (has_warning (f, "test.xml:21: ", "Filter: not applied"));
  g_assert_true (has_warning (f, "test.xml:22: ", "Extra: unknown element inside Region"));
  g_assert_true (has_warning (f, "test.xml:28: ", "other regions are not matched"));
  g_assert_true (has_warning (f, "test.xml:32: ", "a Duration point is matched only with an Event"));
  g_assert_true (has_warning (f, "test.xml:37: ", "names no region of the file"));
  g_assert_false (has_warning (f, "test.xml:20: ", "")); /* Metadata: silently */
  g_assert_cmpuint (f->n_warnings, ==, 7);
}

typedef struct
{
  const char *name;
  const char *xml;
  EtlRegionsFileError code;
  const char *where; /* "test.xml:LINE:" */
  const char *reason;
} Malformed;

#define HEAD "<InstrumentationManifest>\n<Instrumentation>\n<Regions>\n<RegionRoot Guid=\"{EFA7A927-BAE3-48F6-92E1-000000000000}\">\n"
#define TAIL "</RegionRoot>\n</Regions>\n</Instrumentation>\n</InstrumentationManifest>\n"
#define EV   "<Event Provider=\"{dbe9b383-7cf3-4331-91cc-a3cb16a3b538}\" Id=\"1\"/>"

static const Malformed malformed[] = {
  { "unclosed-tag", HEAD "<Region Guid=\"{d8d639a0-cf4c-45fb-976a-000111000100}\" Name=\"R\">\n<Start>" EV "\n</Region>\n" TAIL,
    ETL_REGIONS_FILE_ERROR_SYNTAX, "test.xml:7:", "not well-formed XML" },
  { "bad-guid", HEAD "<Region Guid=\"{d8d639a0-cf4c-45fb-976a-00011100010}\" Name=\"R\"/>\n" TAIL,
    ETL_REGIONS_FILE_ERROR_BAD_VALUE, "test.xml:5:", "is not a GUID" },
  /* The page's Match example, verbatim: its Guid has 13 digits in the last group. */
  { "page-typo-guid", HEAD "<Region Guid=\"{A75D8F5D-E8F8-40b8-B453-5CCC70DEAC06F}\"\n"
                      "        Name=\"FastStartup-Suspend-Winlogon-CreateSession-Subscribers\"/>\n" TAIL,
    ETL_REGIONS_FILE_ERROR_BAD_VALUE, "test.xml:5:", "Guid \"{A75D8F5D-E8F8-40b8-B453-5CCC70DEAC06F}\" is not a GUID" },
  { "missing-name", HEAD "<Region Guid=\"{d8d639a0-cf4c-45fb-976a-000111000100}\"/>\n" TAIL,
    ETL_REGIONS_FILE_ERROR_MISSING_ATTRIBUTE, "test.xml:5:", "Region: the Name attribute is missing" },
  { "missing-provider", HEAD "<Region Guid=\"{d8d639a0-cf4c-45fb-976a-000111000100}\" Name=\"R\">\n<Start>\n<Event Id=\"1\"/>\n</Start></Region>\n" TAIL,
    ETL_REGIONS_FILE_ERROR_MISSING_ATTRIBUTE, "test.xml:7:", "Event: the Provider attribute is missing" },
  { "id-not-a-number", HEAD "<Region Guid=\"{d8d639a0-cf4c-45fb-976a-000111000100}\" Name=\"R\">\n<Start>\n"
                       "<Event Provider=\"{dbe9b383-7cf3-4331-91cc-a3cb16a3b538}\" Id=\"three\"/>\n</Start></Region>\n" TAIL,
    ETL_REGIONS_FILE_ERROR_BAD_VALUE, "test.xml:7:", "Id \"three\" is not a number from 0 to 65535" },
  /* A tag in the middle of a line: its own line and column. */
  { "id-mid-line", HEAD "<Region Guid=\"{d8d639a0-cf4c-45fb-976a-000111000100}\" Name=\"R\">\n"
                   "  <Start><Event Provider=\"{dbe9b383-7cf3-4331-91cc-a3cb16a3b538}\" Id=\"x\"/></Start></Region>\n" TAIL,
    ETL_REGIONS_FILE_ERROR_BAD_VALUE, "test.xml:6:10:", "Id \"x\"" },
  { "bad-guid-before-tag", HEAD "  <Region Guid=\"{d8d639a0}\" Name=\"R\"><Start>" EV "</Start></Region>\n" TAIL,
    ETL_REGIONS_FILE_ERROR_BAD_VALUE, "test.xml:5:3:", "Region: Guid \"{d8d639a0}\" is not a GUID" },
  { "id-too-large", HEAD "<Region Guid=\"{d8d639a0-cf4c-45fb-976a-000111000100}\" Name=\"R\">\n<Start>\n"
                    "<Event Provider=\"{dbe9b383-7cf3-4331-91cc-a3cb16a3b538}\" Id=\"65536\"/>\n</Start></Region>\n" TAIL,
    ETL_REGIONS_FILE_ERROR_BAD_VALUE, "test.xml:7:", "Id \"65536\"" },
  { "version-too-large", HEAD "<Region Guid=\"{d8d639a0-cf4c-45fb-976a-000111000100}\" Name=\"R\">\n<Start>\n"
                         "<Event Provider=\"{dbe9b383-7cf3-4331-91cc-a3cb16a3b538}\" Id=\"1\" Version=\"256\"/>\n</Start></Region>\n" TAIL,
    ETL_REGIONS_FILE_ERROR_BAD_VALUE, "test.xml:7:", "Version \"256\" is not a number from 0 to 255" },
  { "wrong-root", "<?xml version='1.0'?>\n<instrumentationManifest>\n</instrumentationManifest>\n",
    ETL_REGIONS_FILE_ERROR_ROOT, "test.xml:2:", "not InstrumentationManifest" },
  { "empty", "", ETL_REGIONS_FILE_ERROR_SYNTAX, "test.xml:1:", "not well-formed XML" },
  { "event-in-region", HEAD "<Region Guid=\"{d8d639a0-cf4c-45fb-976a-000111000100}\" Name=\"R\">\n" EV "\n</Region>\n" TAIL,
    ETL_REGIONS_FILE_ERROR_INVALID, "test.xml:6:", "Event: not allowed directly inside Region" },
  { "two-events", HEAD "<Region Guid=\"{d8d639a0-cf4c-45fb-976a-000111000100}\" Name=\"R\">\n<Start>" EV "\n" EV "</Start></Region>\n" TAIL,
    ETL_REGIONS_FILE_ERROR_INVALID, "test.xml:7:", "a second Event, Duration or Region in one Start" },
  { "duplicate-guid", HEAD "<Region Guid=\"{d8d639a0-cf4c-45fb-976a-000111000100}\" Name=\"R\"/>\n"
                      "<Region Guid=\"{D8D639A0-CF4C-45FB-976A-000111000100}\" Name=\"S\"/>\n" TAIL,
    ETL_REGIONS_FILE_ERROR_INVALID, "test.xml:6:", "already the Guid of the region on line 5" },
  { "bad-relationship", HEAD "<Region Guid=\"{d8d639a0-cf4c-45fb-976a-000111000100}\" Name=\"R\">\n<Start>" EV "\n"
                        "<PayloadIdentifier FieldName=\"A\" FieldValue=\"1\" FieldValueRelationship=\"IsLess\"/>\n</Start></Region>\n" TAIL,
    ETL_REGIONS_FILE_ERROR_BAD_VALUE, "test.xml:7:", "neither IsEqual nor DoesNotContain" },
  { "bad-bool", HEAD "<Region Guid=\"{d8d639a0-cf4c-45fb-976a-000111000100}\" Name=\"R\">\n<Match>\n<Event TID=\"yes\"/>\n</Match></Region>\n" TAIL,
    ETL_REGIONS_FILE_ERROR_BAD_VALUE, "test.xml:7:", "TID \"yes\" is neither true nor false" },
};

static void
test_malformed (gconstpointer data)
{
  const Malformed *m = data;
  g_autoptr (GError) error = NULL;
  g_autoptr (EtlRegionsFile) f = etl_regions_file_parse (m->xml, -1, "test.xml", &error);

  g_assert_null (f);
  g_assert_error (error, ETL_REGIONS_FILE_ERROR, (gint) m->code);
  g_test_message ("%s", error->message);
  g_assert_true (g_str_has_prefix (error->message, m->where));
  g_assert_nonnull (strstr (error->message, m->reason));
}

/* Nesting and counts stop at their bounds, in time and memory. */
static void
test_hostile (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GString) xml = g_string_new (HEAD);
  g_autoptr (EtlRegionsFile) f = NULL;
  gint64 t0;

  /* 100,000 nested Regions. */
  for (guint i = 0; i < 100000; i++)
    g_string_append_printf (xml, "<Region Guid=\"{00000000-0000-0000-0000-%012x}\" Name=\"R%u\">", i, i);
  t0 = g_get_monotonic_time ();
  f = etl_regions_file_parse (xml->str, (gssize) xml->len, "deep.xml", &error);
  g_assert_null (f);
  g_assert_error (error, ETL_REGIONS_FILE_ERROR, ETL_REGIONS_FILE_ERROR_LIMIT);
  g_assert_nonnull (strstr (error->message, "nested deeper than 32"));
  g_clear_error (&error);

  /* 100,000 sibling Regions: refused at the 4,096th. */
  g_string_assign (xml, HEAD);
  for (guint i = 0; i < 100000; i++)
    g_string_append_printf (xml, "<Region Guid=\"{00000000-0000-0000-0000-%012x}\" Name=\"R\"/>\n", i);
  g_string_append (xml, TAIL);
  f = etl_regions_file_parse (xml->str, (gssize) xml->len, "wide.xml", &error);
  g_assert_null (f);
  g_assert_error (error, ETL_REGIONS_FILE_ERROR, ETL_REGIONS_FILE_ERROR_LIMIT);
  g_test_message ("%s", error->message);
  g_assert_true (g_str_has_prefix (error->message, "wide.xml:4100:"));
  g_assert_nonnull (strstr (error->message, "more than 4096 regions"));
  g_clear_error (&error);

  /* A 17 MiB file: refused before parsing. */
  g_string_set_size (xml, ETL_REGIONS_MAX_BYTES + 1);
  f = etl_regions_file_parse (xml->str, (gssize) xml->len, "big.xml", &error);
  g_assert_null (f);
  g_assert_error (error, ETL_REGIONS_FILE_ERROR, ETL_REGIONS_FILE_ERROR_LIMIT);
  g_clear_error (&error);
  g_assert_cmpint (g_get_monotonic_time () - t0, <, 10 * G_USEC_PER_SEC);

  /* Unknown subtrees deeper than the bound are refused too. */
  g_string_assign (xml, HEAD "<Region Guid=\"{d8d639a0-cf4c-45fb-976a-000111000100}\" Name=\"R\"><Metadata>");
  for (guint i = 0; i < 40; i++)
    g_string_append (xml, "<x>");
  f = etl_regions_file_parse (xml->str, (gssize) xml->len, "meta.xml", &error);
  g_assert_null (f);
  g_assert_error (error, ETL_REGIONS_FILE_ERROR, ETL_REGIONS_FILE_ERROR_LIMIT);
}

static void
test_load (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("etlscope-regions-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "example.regions.xml", NULL);
  g_autofree char *missing = g_build_filename (dir, "missing.xml", NULL);
  g_autoptr (EtlRegionsFile) f = NULL;

  g_assert_no_error (error);
  g_assert_true (g_file_set_contents (path, documented_example, -1, &error));
  f = etl_regions_file_load (path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (f->regions->len, ==, 1);
  g_assert_cmpstr (f->origin, ==, path);
  g_assert_null (etl_regions_file_load (missing, &error));
  g_assert_error (error, ETL_REGIONS_FILE_ERROR, ETL_REGIONS_FILE_ERROR_READ);
  g_clear_error (&error);
  g_assert_null (etl_regions_file_load (dir, &error));
  g_assert_error (error, ETL_REGIONS_FILE_ERROR, ETL_REGIONS_FILE_ERROR_READ);
  g_remove (path);
  g_rmdir (dir);
}

/* ------------------------------------------------------------------------ */
/* Matching: a synthetic trace                                              */

#define PROVIDER "6a2b7c1d-1111-4222-8333-00000000abcd"

static const char manifest_xml[] =
  "<instrumentationManifest xmlns=\"http://schemas.microsoft.com/win/2004/08/events\">"
  "<instrumentation xmlns:win=\"http://manifests.microsoft.com/win/2004/08/windows/events\">"
  "<events><provider name=\"Regions-Test\" guid=\"{" PROVIDER "}\" symbol=\"RT\">"
  "<events>"
  "<event value=\"1\" template=\"T\" symbol=\"RequestBegin\"/>"
  "<event value=\"2\" template=\"T\" symbol=\"RequestEnd\"/>"
  "<event value=\"3\" template=\"T\" symbol=\"StepBegin\"/>"
  "<event value=\"4\" template=\"T\" symbol=\"StepEnd\"/>"
  "<event value=\"5\" template=\"T\" symbol=\"Tick\"/>"
  "<event value=\"6\" template=\"T\" symbol=\"NestBegin\"/>"
  "<event value=\"7\" template=\"T\" symbol=\"NestEnd\"/>"
  "<event value=\"8\" template=\"T\" symbol=\"Took\"/>"
  "</events>"
  "<templates><template tid=\"T\">"
  "<data name=\"Name\" inType=\"win:UnicodeString\"/>"
  "<data name=\"Key\" inType=\"win:UInt32\"/>"
  "</template></templates>"
  "</provider></events></instrumentation></instrumentationManifest>";

/*
 * Request (A): Id 1 → Id 2 of one process and one Key, named by Name.
 *   Step (B), nested in it: Id 3 → Id 4 of one thread; its parent is the
 *   Request of the same Key (Match/Parent Payload).
 * Beta (C): Id 1 whose Name is "beta" → Id 2 whose Name does not contain "zzz".
 * Outer (E), a container of Nest (D): Id 6 → Id 7 of one thread, self-nesting.
 * Launch (G): Id 6 → Id 7, named Warm when Beta has an instance, else Cold.
 * Never (H): Id 1 whose Name is "nobody" → Id 2: no instance, so Cold for I.
 * Tick (I): Id 5 → Id 5, named by whether Never has an instance.
 * Took (J): Id 8, ending there, Key µs long (Duration at the Start);
 *   After (K): Id 8, beginning there, Key × 100 ns long (at the Stop);
 *   NoField (L): Id 8 with a Duration field it does not have.
 */
static const char synthetic_regions[] =
  "<InstrumentationManifest><Instrumentation><Regions>\n"
  "<RegionRoot Guid=\"{10000000-0000-0000-0000-000000000000}\" Name=\"Test\">\n"
  "<Region Guid=\"{10000000-0000-0000-0000-00000000000a}\" Name=\"Request\">\n"
  " <Start><Event Provider=\"{" PROVIDER "}\" Id=\"1\" Version=\"0\"/></Start>\n"
  " <Stop><Event Provider=\"{" PROVIDER "}\" Id=\"2\" Version=\"0\"/></Stop>\n"
  " <Match><Event PID=\"true\"><Payload FieldName=\"Key\"/></Event></Match>\n"
  " <Naming><PayloadBased NameField=\"Name\"/></Naming>\n"
  " <Region Guid=\"{10000000-0000-0000-0000-00000000000b}\" Name=\"Step\">\n"
  "  <Start><Event Provider=\"{" PROVIDER "}\" Id=\"3\"/></Start>\n"
  "  <Stop><Event Provider=\"{" PROVIDER "}\" Id=\"4\"/></Stop>\n"
  "  <Match><Event TID=\"true\"/><Parent PID=\"true\"><Payload FieldName=\"Key\" TargetFieldName=\"Key\"/></Parent></Match>\n"
  " </Region>\n"
  "</Region>\n"
  "<Region Guid=\"{10000000-0000-0000-0000-00000000000c}\" Name=\"Beta\">\n"
  " <Start><Event Provider=\"{" PROVIDER "}\" Id=\"1\"/><PayloadIdentifier FieldName=\"Name\" FieldValue=\"beta\"/></Start>\n"
  " <Stop><Event Provider=\"{" PROVIDER "}\" Id=\"2\"/>"
  "<PayloadIdentifier FieldName=\"Name\" FieldValue=\"zzz\" FieldValueRelationship=\"DoesNotContain\"/></Stop>\n"
  " <Match><Event PID=\"true\"/></Match>\n"
  "</Region>\n"
  "<Region Guid=\"{10000000-0000-0000-0000-00000000000e}\" Name=\"Outer\">\n"
  " <Region Guid=\"{10000000-0000-0000-0000-00000000000d}\" Name=\"Nest\">\n"
  "  <Start><Event Provider=\"{" PROVIDER "}\" Id=\"6\"/></Start>\n"
  "  <Stop><Event Provider=\"{" PROVIDER "}\" Id=\"7\"/></Stop>\n"
  "  <Match><Event TID=\"true\"/><SelfNest TID=\"true\"/></Match>\n"
  " </Region>\n"
  "</Region>\n"
  "<Region Guid=\"{10000000-0000-0000-0000-000000000010}\" Name=\"Launch\">\n"
  " <Start><Event Provider=\"{" PROVIDER "}\" Id=\"6\"/></Start>\n"
  " <Stop><Event Provider=\"{" PROVIDER "}\" Id=\"7\" Opcode=\"0\"/></Stop>\n"
  " <Naming><RegionBased RegionGuid=\"{10000000-0000-0000-0000-00000000000c}\" Relation=\"IsPresent\" IfRelationTrue=\"Warm\" IfRelationFalse=\"Cold\"/></Naming>\n"
  "</Region>\n"
  "<Region Guid=\"{10000000-0000-0000-0000-000000000011}\" Name=\"Never\">\n"
  " <Start><Event Provider=\"{" PROVIDER "}\" Id=\"1\"/><PayloadIdentifier FieldName=\"Name\" FieldValue=\"nobody\"/></Start>\n"
  " <Stop><Event Provider=\"{" PROVIDER "}\" Id=\"2\" Version=\"1\"/></Stop>\n"
  "</Region>\n"
  "<Region Guid=\"{10000000-0000-0000-0000-000000000012}\" Name=\"Tick\">\n"
  " <Start><Event Provider=\"{" PROVIDER "}\" Id=\"5\" Opcode=\"9\"/></Start>\n"
  " <Stop><Event Provider=\"{" PROVIDER "}\" Id=\"5\"/></Stop>\n"
  " <Naming><RegionBased RegionGuid=\"{10000000-0000-0000-0000-000000000011}\" Relation=\"IsPresent\" IfRelationTrue=\"Warm\" IfRelationFalse=\"Cold\"/></Naming>\n"
  "</Region>\n"
  "<Region Guid=\"{10000000-0000-0000-0000-000000000013}\" Name=\"Took\">\n"
  " <Start><Duration Provider=\"{" PROVIDER "}\" Id=\"8\" Version=\"0\" Duration=\"Key\" Multiplier=\"1000\"/></Start>\n"
  " <Stop><Event Provider=\"{" PROVIDER "}\" Id=\"8\" Version=\"0\"/></Stop>\n"
  " <Naming><PayloadBased NameField=\"Name\"/></Naming>\n"
  "</Region>\n"
  "<Region Guid=\"{10000000-0000-0000-0000-000000000014}\" Name=\"After\">\n"
  " <Start><Event Provider=\"{" PROVIDER "}\" Id=\"8\"/></Start>\n"
  " <Stop><Duration Provider=\"{" PROVIDER "}\" Id=\"8\" Duration=\"Key\" Multiplier=\"100\"/>"
  "<PayloadIdentifier FieldName=\"Name\" FieldValue=\"took\"/></Stop>\n"
  "</Region>\n"
  "<Region Guid=\"{10000000-0000-0000-0000-000000000015}\" Name=\"NoField\">\n"
  " <Start><Duration Provider=\"{" PROVIDER "}\" Id=\"8\" Duration=\"Elapsed\"/></Start>\n"
  " <Stop><Event Provider=\"{" PROVIDER "}\" Id=\"8\"/></Stop>\n"
  "</Region>\n"
  "</RegionRoot></Regions></Instrumentation></InstrumentationManifest>\n";

enum { R_REQUEST, R_STEP, R_BETA, R_OUTER, R_NEST, R_LAUNCH, R_NEVER, R_TICK, R_TOOK, R_AFTER, R_NO_FIELD };

static void
put_u16 (guint8 *p, guint16 v)
{
  p[0] = (guint8) v;
  p[1] = (guint8) (v >> 8);
}

static void
put_u32 (guint8 *p, guint32 v)
{
  put_u16 (p, (guint16) v);
  put_u16 (p + 2, (guint16) (v >> 16));
}

static void
put_u64 (guint8 *p, guint64 v)
{
  put_u32 (p, (guint32) v);
  put_u32 (p + 4, (guint32) (v >> 32));
}

/* An EVENT_HEADER64 record of PROVIDER (evntcons.h layout: Size, HeaderType,
 * MarkerFlags, Flags, EventProperty, ThreadId, ProcessId, TimeStamp,
 * ProviderId, EVENT_DESCRIPTOR at 40, KernelTime, UserTime, ActivityId at
 * 64), its payload the template T: Name (UTF-16, NUL-terminated), Key. */
static gsize
event_record (guint8 *p, guint16 id, guint8 opcode, guint32 pid, guint32 tid, gint64 ts, const char *name,
              guint32 key)
{
  EtlGuid provider;
  gsize k = ETL_EVENT_HEADER_SIZE;

  g_assert_true (etl_guid_parse (PROVIDER, &provider));
  memset (p, 0, ETL_EVENT_HEADER_SIZE);
  p[2] = ETL_HEADER_TYPE_EVENT_HEADER64;
  p[3] = ETL_MARKER_TRACE_HEADER_FLAG | ETL_MARKER_EVENT_TRACE_FLAG;
  put_u32 (p + 8, tid);
  put_u32 (p + 12, pid);
  put_u64 (p + 16, (guint64) ts);
  put_u32 (p + 24, provider.data1);
  put_u16 (p + 28, provider.data2);
  put_u16 (p + 30, provider.data3);
  memcpy (p + 32, provider.data4, 8);
  put_u16 (p + 40, id);
  p[44] = 4;
  p[45] = opcode;
  for (const char *c = name; *c != '\0'; c++, k += 2)
    put_u16 (p + k, (guint8) *c);
  put_u16 (p + k, 0);
  k += 2;
  put_u32 (p + k, key);
  k += 4;
  put_u16 (p, (guint16) k);
  return k;
}

typedef struct
{
  gint64 ts;
  guint16 id;
  guint8 opcode;
  guint32 tid;
  const char *name;
  guint32 key;
} Ev;

#define PID 100

/* Times in 100-ns units from the start (QPC at 10 MHz: FILETIME steps). */
static const Ev synthetic_events[] = {
  { 1000, 1, 0, 1, "alpha", 7 }, /* Request alpha (7) */
  { 1100, 1, 0, 2, "beta", 8 },  /* Request beta (8), Beta */
  { 1200, 3, 0, 1, "", 8 },      /* Step under beta */
  { 1300, 4, 0, 1, "", 8 },      /* its Stop (thread 1) */
  { 1400, 2, 0, 2, "end", 7 },   /* stops alpha (Key 7, other thread) and Beta */
  { 1500, 2, 0, 1, "end", 9 },   /* Key 9: no Request open (Beta's is stopped) */
  { 1600, 3, 0, 1, "", 8 },      /* Step under beta, stopped after it */
  { 1700, 2, 0, 2, "end", 8 },   /* stops beta */
  { 1800, 1, 0, 1, "gamma", 5 }, /* Request gamma: never stopped */
  { 3000, 6, 0, 3, "", 0 },      /* Nest x, Launch */
  { 3100, 6, 0, 3, "", 0 },      /* Nest y in x, Launch */
  { 3200, 7, 0, 3, "", 0 },      /* stops y */
  { 3300, 7, 0, 3, "", 0 },      /* stops x */
  { 3400, 5, 9, 4, "", 0 },      /* Tick */
  { 3500, 5, 0, 4, "", 0 },      /* its Stop */
  { 3900, 8, 0, 5, "took", 50 }, /* Took: 50 µs (500 ticks) before; After: 50 ticks after */
  { 4000, 4, 0, 1, "", 8 },      /* stops the second Step: the last record */
};

static char *
write_synthetic (const char *dir, const Ev *events, gsize n_events)
{
  g_autoptr (GError) error = NULL;
  char *path = g_build_filename (dir, "regions.etl", NULL);
  g_autoptr (EtlWriter) w = NULL;
  EtlWriterHeader h;
  guint8 rec[512];

  etl_writer_header_init (&h);
  h.number_of_processors = 1;
  h.log_file_name = path;
  w = etl_writer_new (path, &h, &error);
  g_assert_no_error (error);
  for (gsize i = 0; i < n_events; i++)
    {
      const Ev *e = &events[i];
      gsize n = event_record (rec, e->id, e->opcode, PID, e->tid, e->ts, e->name, e->key);

      g_assert_true (etl_writer_add_record (w, 0, rec, n, e->ts, &error));
    }
  g_assert_true (etl_writer_close (w, NULL, &error));
  g_assert_no_error (error);
  return path;
}

static EtlTrace *
open_with_manifest (const char *dir, const char *path)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *man = g_build_filename (dir, "regions-test.man", NULL);
  EtlTrace *trace;

  g_assert_true (g_file_set_contents (man, manifest_xml, -1, &error));
  trace = etl_trace_open ((const char *const[]){ path, NULL }, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (etl_trace_load_manifest (trace, man, NULL, &error));
  g_assert_no_error (error);
  g_remove (man);
  return trace;
}

/* The index of the record at @ts (records are written at distinct times). */
static guint64
record_at (EtlTrace *trace, gint64 ts0, gint64 ts)
{
  guint64 i = etl_trace_lower_bound (trace, ts0 + ts);

  g_assert_cmpint (etl_trace_get_filetime (trace, i), ==, ts0 + ts);
  return i;
}

static void
assert_instance (EtlRegions *rs, const EtlRegionInstance *a, guint region, const char *name, gint64 start,
                 gint64 stop, guint32 parent, guint32 depth, guint32 flags)
{
  g_assert_cmpuint (a->region, ==, region);
  g_assert_cmpstr (etl_regions_get_string (rs, a->name), ==, name);
  g_assert_cmpint (a->start, ==, start);
  g_assert_cmpint (a->stop, ==, stop);
  g_assert_cmpuint (a->parent, ==, parent);
  g_assert_cmpuint (a->depth, ==, depth);
  g_assert_cmphex (a->flags, ==, flags);
}

static void
test_match_synthetic (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("etlscope-regions-XXXXXX", &error);
  g_autofree char *path = write_synthetic (dir, synthetic_events, G_N_ELEMENTS (synthetic_events));
  g_autoptr (EtlTrace) trace = open_with_manifest (dir, path);
  g_autoptr (EtlRegionsFile) f = parse_ok (synthetic_regions);
  g_autoptr (EtlRegions) rs = NULL;
  const EtlRegionInstance *in;
  const EtlRegionsTotals *t;
  guint n;
  gint64 t0;
  const guint32 N = ETL_REGION_INSTANCE_NONE;

  g_assert_cmpuint (f->regions->len, ==, 11);
  g_assert_cmpuint (f->n_warnings, ==, 0);
  rs = etl_regions_match (trace, f, NULL, &error);
  g_assert_no_error (error);
  in = etl_regions_get_instances (rs, &n);

  /* Times from the first event's record. */
  t0 = etl_trace_get_filetime (trace, etl_trace_get_n_records (trace) - G_N_ELEMENTS (synthetic_events)) - 1000;
  g_assert_cmpint (etl_trace_get_last_filetime (trace), ==, t0 + 4000);

  g_assert_cmpuint (n, ==, 14);
  /* In the order of the Starts; Request before Beta at 1100 (file order). */
  assert_instance (rs, &in[0], R_REQUEST, "alpha", t0 + 1000, t0 + 1400, N, 0, 0);
  assert_instance (rs, &in[1], R_REQUEST, "beta", t0 + 1100, t0 + 1700, N, 0, 0);
  assert_instance (rs, &in[2], R_BETA, "Beta", t0 + 1100, t0 + 1400, N, 0, 0);
  assert_instance (rs, &in[3], R_STEP, "Step", t0 + 1200, t0 + 1300, 1, 1, 0);
  /* Its candidate parent (beta) stopped at 1700, before it: no parent. */
  assert_instance (rs, &in[4], R_STEP, "Step", t0 + 1600, t0 + 4000, N, 0, 0);
  /* Never stopped: to the trace's end. */
  assert_instance (rs, &in[5], R_REQUEST, "gamma", t0 + 1800, t0 + 4000, N, 0, ETL_REGION_INSTANCE_OPEN);
  assert_instance (rs, &in[6], R_NEST, "Nest", t0 + 3000, t0 + 3300, 13, 1, 0);
  assert_instance (rs, &in[7], R_LAUNCH, "Warm", t0 + 3000, t0 + 3300, N, 0, 0);
  assert_instance (rs, &in[8], R_NEST, "Nest", t0 + 3100, t0 + 3200, 6, 2, ETL_REGION_INSTANCE_SELF_NESTED);
  assert_instance (rs, &in[9], R_LAUNCH, "Warm", t0 + 3100, t0 + 3200, N, 0, 0);
  assert_instance (rs, &in[10], R_TICK, "Cold", t0 + 3400, t0 + 3500, N, 0, 0);
  /* Duration regions: one instance from the one event. */
  assert_instance (rs, &in[11], R_TOOK, "took", t0 + 3400, t0 + 3900, N, 0, 0);
  assert_instance (rs, &in[12], R_AFTER, "After", t0 + 3900, t0 + 3950, N, 0, 0);
  /* The container: from its first child's Start to its last Stop. */
  assert_instance (rs, &in[13], R_OUTER, "Outer", t0 + 3000, t0 + 3300, N, 0, ETL_REGION_INSTANCE_CONTAINER);

  g_assert_cmpuint (in[0].start_record, ==, record_at (trace, t0, 1000));
  g_assert_cmpuint (in[0].stop_record, ==, record_at (trace, t0, 1400));
  g_assert_cmpuint (in[5].stop_record, ==, ETL_REGION_NO_RECORD);
  g_assert_cmpuint (in[13].start_record, ==, ETL_REGION_NO_RECORD);
  g_assert_cmpuint (in[11].start_record, ==, record_at (trace, t0, 3900));
  g_assert_cmpuint (in[11].stop_record, ==, in[11].start_record);
  g_assert_cmpuint (in[0].pid, ==, PID);
  g_assert_cmpuint (in[0].tid, ==, 1);
  g_assert_cmpuint (in[1].tid, ==, 2);

  /* Stops: 1500 (Key 9) unmatched for Request; Beta's later Id 2 (1500
   * and 1700) found no open Beta; Step's 4000 paired. */
  g_assert_cmpuint (etl_regions_get_counts (rs, R_REQUEST)->instances, ==, 3);
  g_assert_cmpuint (etl_regions_get_counts (rs, R_REQUEST)->open, ==, 1);
  g_assert_cmpuint (etl_regions_get_counts (rs, R_REQUEST)->unmatched_stops, ==, 1);
  g_assert_cmpuint (etl_regions_get_counts (rs, R_BETA)->unmatched_stops, ==, 2);
  g_assert_cmpuint (etl_regions_get_counts (rs, R_STEP)->parent_lost, ==, 1);
  g_assert_cmpuint (etl_regions_get_counts (rs, R_STEP)->unmatched_stops, ==, 0);
  /* Tick's Stop (Id 5, any opcode) comes before its Start (Id 5, opcode 9)
   * in the same record: Stops first, so 3400 is an unmatched Stop too. */
  g_assert_cmpuint (etl_regions_get_counts (rs, R_TICK)->unmatched_stops, ==, 1);
  g_assert_cmpuint (etl_regions_get_counts (rs, R_NEVER)->instances, ==, 0);
  /* Never's Stop wants Version 1: the Id 2 records (Version 0) are not its. */
  g_assert_cmpuint (etl_regions_get_counts (rs, R_NEVER)->unmatched_stops, ==, 0);
  g_assert_cmpuint (etl_regions_get_counts (rs, R_OUTER)->instances, ==, 1);
  g_assert_cmpuint (etl_regions_get_counts (rs, R_NO_FIELD)->instances, ==, 0);
  g_assert_cmpuint (etl_regions_get_counts (rs, R_NO_FIELD)->no_duration, ==, 1);
  g_assert_cmpuint (etl_regions_get_counts (rs, R_TOOK)->no_duration, ==, 0);
  g_assert_null (etl_regions_get_counts (rs, 11));
  t = etl_regions_get_totals (rs);
  g_assert_cmpuint (t->starts, ==, 13);
  g_assert_cmpuint (t->stops, ==, 10);
  g_assert_cmpuint (t->unmatched_stops, ==, 4);
  g_assert_cmpuint (t->open, ==, 1);
  g_assert_cmpuint (t->records_read, ==, G_N_ELEMENTS (synthetic_events));
  g_assert_cmpuint (t->no_schema, ==, 0);

  g_remove (path);
  g_rmdir (dir);
}

/* Without the manifest the payload rules cannot hold: PayloadIdentifier
 * regions get nothing, payload keys are all "absent", names fall back. */
static void
test_match_without_schema (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("etlscope-regions-XXXXXX", &error);
  g_autofree char *path = write_synthetic (dir, synthetic_events, G_N_ELEMENTS (synthetic_events));
  g_autoptr (EtlTrace) trace = etl_trace_open ((const char *const[]){ path, NULL }, NULL, NULL, NULL, &error);
  g_autoptr (EtlRegionsFile) f = parse_ok (synthetic_regions);
  g_autoptr (EtlRegions) rs = NULL;
  const EtlRegionInstance *in;
  guint n;

  g_assert_no_error (error);
  rs = etl_regions_match (trace, f, NULL, &error);
  g_assert_no_error (error);
  in = etl_regions_get_instances (rs, &n);
  g_assert_cmpuint (etl_regions_get_counts (rs, R_BETA)->instances, ==, 0);
  g_assert_cmpuint (etl_regions_get_counts (rs, R_REQUEST)->instances, ==, 3);
  g_assert_cmphex (in[0].flags, ==, ETL_REGION_INSTANCE_UNNAMED);
  g_assert_cmpstr (etl_regions_get_string (rs, in[0].name), ==, "Request");
  g_assert_cmpuint (etl_regions_get_totals (rs)->no_schema, >, 0);
  g_remove (path);
  g_rmdir (dir);
}

/* 200,000 Starts never stopped, each of its own Key, and a cancelled pass. */
static void
test_match_unpaired_starts (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("etlscope-regions-XXXXXX", &error);
  const guint n_starts = 200000;
  g_autofree Ev *events = g_new0 (Ev, n_starts);
  g_autofree char *path = NULL;
  g_autoptr (EtlTrace) trace = NULL;
  g_autoptr (EtlRegionsFile) f = parse_ok (synthetic_regions);
  g_autoptr (EtlRegions) rs = NULL;
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  gint64 t0;
  guint n;

  for (guint i = 0; i < n_starts; i++)
    events[i] = (Ev){ 1000 + (gint64) i * 10, 1, 0, 1 + i % 7, "open", i };
  path = write_synthetic (dir, events, n_starts);
  trace = open_with_manifest (dir, path);
  t0 = g_get_monotonic_time ();
  rs = etl_regions_match (trace, f, NULL, &error);
  g_test_message ("%u unpaired Starts matched in %.0f ms", n_starts, (g_get_monotonic_time () - t0) / 1000.0);
  g_assert_no_error (error);
  etl_regions_get_instances (rs, &n);
  g_assert_cmpuint (n, ==, n_starts);
  g_assert_cmpuint (etl_regions_get_counts (rs, R_REQUEST)->open, ==, n_starts);
  g_assert_cmpint (g_get_monotonic_time () - t0, <, 30 * G_USEC_PER_SEC);

  g_cancellable_cancel (cancellable);
  g_assert_null (etl_regions_match (trace, f, cancellable, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_remove (path);
  g_rmdir (dir);
}

/* ------------------------------------------------------------------------ */
/* Matching: MSBuild's events in a real trace                               */

#define MSBUILD "{d44a2098-821f-5808-4cea-1e24e982ca37}"

static const char msbuild_regions[] =
  "<InstrumentationManifest><Instrumentation><Regions>\n"
  "<RegionRoot Guid=\"{20000000-0000-0000-0000-000000000000}\" Name=\"MSBuild\">\n"
  "<Region Guid=\"{20000000-0000-0000-0000-000000000001}\" Name=\"MSBuild-Target\" FriendlyName=\"Target\">\n"
  " <Start><Event Provider=\"" MSBUILD "\" Id=\"43\" Version=\"0\"/></Start>\n"
  " <Stop><Event Provider=\"" MSBUILD "\" Id=\"44\" Version=\"0\"/></Stop>\n"
  " <Match><Event PID=\"true\" TID=\"true\"><Payload FieldName=\"targetName\"/></Event></Match>\n"
  " <Naming><PayloadBased NameField=\"targetName\"/></Naming>\n"
  " <Region Guid=\"{20000000-0000-0000-0000-000000000002}\" Name=\"MSBuild-Target-Task\" FriendlyName=\"Task\">\n"
  "  <Start><Event Provider=\"" MSBUILD "\" Id=\"47\" Version=\"0\"/></Start>\n"
  "  <Stop><Event Provider=\"" MSBUILD "\" Id=\"48\" Version=\"0\"/></Stop>\n"
  "  <Match><Event PID=\"true\" TID=\"true\"><Payload FieldName=\"taskID\"/></Event>"
  "<Parent PID=\"true\" TID=\"true\"/></Match>\n"
  "  <Naming><PayloadBased NameField=\"taskName\"/></Naming>\n"
  " </Region>\n"
  "</Region>\n"
  "</RegionRoot></Regions></Instrumentation></InstrumentationManifest>\n";

typedef struct
{
  gint64 start, stop;
  guint32 pid, tid;
  char *name;
  gboolean open;
} Interval;

static void
interval_clear (gpointer p)
{
  g_free (((Interval *) p)->name);
}

/* MSBuild's Start (@start_id) / Stop pairs, paired here: by process, thread
 * and the value of @key_field, the last open Start first; names from
 * @name_field.  Read from the records and the decoder's fields directly. */
static GArray *
pair_msbuild (EtlTrace *trace, guint16 start_id, const char *key_field, const char *name_field,
              guint64 *unmatched)
{
  GArray *out = g_array_new (FALSE, TRUE, sizeof (Interval));
  g_autoptr (GHashTable) open = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_array_unref);
  EtlGuid provider;

  g_array_set_clear_func (out, interval_clear);
  g_assert_true (etl_guid_parse (MSBUILD, &provider));
  *unmatched = 0;
  for (guint64 i = 0; i < etl_trace_get_n_records (trace); i++)
    {
      g_auto (EtlRecord) r = { 0 };
      g_autoptr (EtlDecoded) d = NULL;
      const EtlField *k, *nf;
      g_autofree char *key = NULL;
      GArray *stack;

      g_assert_true (etl_trace_get_record (trace, i, &r, NULL));
      if (!etl_guid_equal (&r.provider, &provider) || (r.event_id != start_id && r.event_id != start_id + 1))
        continue;
      d = etl_trace_decode_record (trace, &r);
      k = etl_decoded_find (d, key_field);
      nf = etl_decoded_find (d, name_field);
      g_assert_nonnull (k);
      g_assert_nonnull (nf);
      key = g_strdup_printf ("%u/%u/%s", r.pid, r.tid, k->value);
      stack = g_hash_table_lookup (open, key);
      if (r.event_id == start_id)
        {
          Interval in = { r.filetime, 0, r.pid, r.tid, g_strdup (nf->value), TRUE };

          if (stack == NULL)
            {
              stack = g_array_new (FALSE, FALSE, sizeof (guint));
              g_hash_table_insert (open, g_strdup (key), stack);
            }
          g_array_append_val (stack, out->len);
          g_array_append_val (out, in);
        }
      else if (stack == NULL || stack->len == 0)
        (*unmatched)++;
      else
        {
          Interval *in = &g_array_index (out, Interval, g_array_index (stack, guint, stack->len - 1));

          g_array_set_size (stack, stack->len - 1);
          in->stop = r.filetime;
          in->open = FALSE;
        }
    }
  for (guint i = 0; i < out->len; i++)
    if (g_array_index (out, Interval, i).open)
      g_array_index (out, Interval, i).stop = etl_trace_get_last_filetime (trace);
  return out;
}

/* Per name: count and total duration. */
static GHashTable *
sum_by_name (const GArray *intervals)
{
  GHashTable *sums = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);

  for (guint i = 0; i < intervals->len; i++)
    {
      const Interval *in = &g_array_index (intervals, Interval, i);
      gint64 *s = g_hash_table_lookup (sums, in->name);

      if (s == NULL)
        {
          s = g_new0 (gint64, 2);
          g_hash_table_insert (sums, in->name, s);
        }
      s[0]++;
      s[1] += in->stop - in->start;
    }
  return sums;
}

static void
test_match_msbuild (void)
{
  g_autoptr (EtlTrace) trace = etl_test_open_corpus ("real/msbuild_PerfViewData.etl");
  g_autoptr (GError) error = NULL;
  g_autoptr (EtlRegionsFile) f = NULL;
  g_autoptr (EtlRegions) rs = NULL;
  g_autoptr (GArray) targets = NULL;
  g_autoptr (GArray) tasks = NULL;
  g_autoptr (GHashTable) want = NULL;
  g_autoptr (GHashTable) got = NULL;
  g_autoptr (GArray) mine = g_array_new (FALSE, TRUE, sizeof (Interval));
  const EtlRegionInstance *in;
  guint n, n_targets = 0, n_tasks = 0, n_parented = 0, want_parented = 0;
  guint64 unmatched_targets, unmatched_tasks;
  GHashTableIter it;
  gpointer key, value;

  if (trace == NULL)
    return;
  f = parse_ok (msbuild_regions);
  rs = etl_regions_match (trace, f, NULL, &error);
  g_assert_no_error (error);
  in = etl_regions_get_instances (rs, &n);
  targets = pair_msbuild (trace, 43, "targetName", "targetName", &unmatched_targets);
  tasks = pair_msbuild (trace, 47, "taskID", "taskName", &unmatched_tasks);
  g_test_message ("msbuild: %u Targets, %u Tasks, %u instances", targets->len, tasks->len, n);
  g_assert_cmpuint (targets->len, ==, 393); /* the dump's Target/Start count */
  g_assert_cmpuint (tasks->len, ==, 678);   /* ExecuteTask/Start */

  for (guint i = 0; i < n; i++)
    {
      Interval m = { in[i].start, in[i].stop, in[i].pid, in[i].tid,
                     (char *) etl_regions_get_string (rs, in[i].name), (in[i].flags & ETL_REGION_INSTANCE_OPEN) != 0 };

      if (in[i].region == 0)
        {
          g_array_append_val (mine, m);
          n_targets++;
          g_assert_cmpuint (in[i].depth, ==, 0);
        }
      else
        {
          n_tasks++;
          if (in[i].parent != ETL_REGION_INSTANCE_NONE)
            {
              const EtlRegionInstance *p = &in[in[i].parent];

              n_parented++;
              g_assert_cmpuint (p->region, ==, 0);
              g_assert_cmpuint (p->tid, ==, in[i].tid);
              g_assert_cmpint (p->start, <=, in[i].start);
              g_assert_cmpint (p->stop, >=, in[i].stop);
              g_assert_cmpuint (in[i].depth, ==, 1);
            }
        }
    }
  g_assert_cmpuint (n_targets, ==, targets->len);
  g_assert_cmpuint (n_tasks, ==, tasks->len);
  g_assert_cmpuint (etl_regions_get_counts (rs, 0)->unmatched_stops, ==, unmatched_targets);
  g_assert_cmpuint (etl_regions_get_counts (rs, 1)->unmatched_stops, ==, unmatched_tasks);

  /* Every Target name: the same count and the same total time. */
  want = sum_by_name (targets);
  got = sum_by_name (mine);
  g_assert_cmpuint (g_hash_table_size (got), ==, g_hash_table_size (want));
  g_hash_table_iter_init (&it, want);
  while (g_hash_table_iter_next (&it, &key, &value))
    {
      const gint64 *w = value, *g = g_hash_table_lookup (got, key);

      g_assert_nonnull (g);
      g_assert_cmpint (g[0], ==, w[0]);
      g_assert_cmpint (g[1], ==, w[1]);
    }

  /* Parents: each Task inside the first-begun Target of its thread that
   * contains it (the page's rule), found here by a scan. */
  for (guint i = 0; i < tasks->len; i++)
    {
      const Interval *t = &g_array_index (tasks, Interval, i);

      for (guint j = 0; j < targets->len; j++)
        {
          const Interval *p = &g_array_index (targets, Interval, j);

          if (p->pid == t->pid && p->tid == t->tid && p->start <= t->start && p->stop >= t->stop)
            {
              want_parented++;
              break;
            }
        }
    }
  g_test_message ("msbuild: %u of %u Tasks inside a Target (%u expected)", n_parented, n_tasks, want_parented);
  g_assert_cmpuint (n_parented, ==, want_parented);
  g_assert_cmpuint (n_parented, >, 0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/regions-file/documented-example", test_documented_example);
  g_test_add_func ("/regions-file/all-features", test_all_features);
  for (guint i = 0; i < G_N_ELEMENTS (malformed); i++)
    {
      g_autofree char *name = g_strdup_printf ("/regions-file/malformed/%s", malformed[i].name);

      g_test_add_data_func (name, &malformed[i], test_malformed);
    }
  g_test_add_func ("/regions-file/hostile", test_hostile);
  g_test_add_func ("/regions-file/load", test_load);
  g_test_add_func ("/regions/synthetic", test_match_synthetic);
  g_test_add_func ("/regions/without-schema", test_match_without_schema);
  g_test_add_func ("/regions/unpaired-starts", test_match_unpaired_starts);
  g_test_add_func ("/regions/msbuild", test_match_msbuild);
  return g_test_run ();
}
