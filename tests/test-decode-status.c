/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test-decode-status.c: every record gets one decode status
 * (etl-decode-status.h), each value checked on real records of the corpus:
 * decoded (GC/Start of net.4.5.2.x64.etl, also as a capped preview),
 * partial (PerfView's ClrEnableParameters there: 16 bytes, its schema
 * covers fewer), no-schema (gcevents.etl's CLR events without the CLR
 * manifest, decoded once ClrEtwAll.man is loaded), unknown-class (a kernel
 * EventTrace record and a classic SysConfig record decoded with an empty
 * registry, so no MOF table knows them whatever tables etlscope gains), and
 * no-data (msbuild's Build/Start, and RundownComplete), newer-version
 * (gcevents.etl's AllocationTick v4 with the CLR manifest, which knows v3).  The corpus holds no
 * WPP record: wpp is checked on records built in the test (a MESSAGE header
 * and an EVENT_HEADER with TRACE_MESSAGE), as is no-data without a schema.
 */
#include "config.h"

#include <string.h>

#include "etl-decode-status.h"
#include "etl-names.h"
#include "etl-test-trace.h"
#include "etl-trace.h"

typedef gboolean (*Match) (const EtlRecord *r, gconstpointer data);

/* The first record of @trace @match accepts, into @r; FALSE when none. */
static gboolean
find_record (EtlTrace *trace, Match match, gconstpointer data, EtlRecord *r)
{
  for (guint64 i = 0; i < etl_trace_get_n_records (trace); i++)
    {
      g_assert_true (etl_trace_get_record (trace, i, r, NULL));
      if (match (r, data))
        return TRUE;
      etl_record_clear (r);
    }
  return FALSE;
}

typedef struct
{
  const char *provider; /* GUID */
  guint event_id;
  guint8 kind;
  guint8 opcode;
  gsize data_len; /* G_MAXSIZE: any */
} Want;

static gboolean
match_want (const EtlRecord *r, gconstpointer data)
{
  const Want *w = data;
  char guid[ETL_GUID_STRING_LEN + 1];

  etl_guid_to_string (&r->provider, guid);
  return strcmp (guid, w->provider) == 0 && r->kind == w->kind && r->event_id == w->event_id
         && r->opcode == w->opcode && (w->data_len == G_MAXSIZE || r->user_data_len == w->data_len);
}

static EtlDecodeStatus
status_of (EtlTrace *trace, const EtlRecord *r, char **reason)
{
  g_autoptr (EtlDecoded) d = etl_trace_decode_record (trace, r);
  EtlDecodeStatus status = etl_decode_status_of (r, d);

  *reason = etl_decode_status_dup_reason (status, r, d);
  return status;
}

static void
test_names (void)
{
  g_assert_cmpstr (etl_decode_status_name (ETL_DECODE_STATUS_DECODED), ==, "decoded");
  g_assert_cmpstr (etl_decode_status_name (ETL_DECODE_STATUS_PARTIAL), ==, "partial");
  g_assert_cmpstr (etl_decode_status_name (ETL_DECODE_STATUS_NO_SCHEMA), ==, "no-schema");
  g_assert_cmpstr (etl_decode_status_name (ETL_DECODE_STATUS_WPP), ==, "wpp");
  g_assert_cmpstr (etl_decode_status_name (ETL_DECODE_STATUS_UNKNOWN_CLASS), ==, "unknown-class");
  g_assert_cmpstr (etl_decode_status_name (ETL_DECODE_STATUS_NO_DATA), ==, "no-data");
  g_assert_null (etl_decode_status_label (ETL_DECODE_STATUS_DECODED));
  g_assert_null (etl_decode_status_label (ETL_DECODE_STATUS_NO_DATA));
  g_assert_cmpstr (etl_decode_status_label (ETL_DECODE_STATUS_NO_SCHEMA), ==, "no metadata");
  g_assert_cmpstr (etl_decode_status_label (ETL_DECODE_STATUS_PARTIAL), ==, "partly decoded");
  g_assert_cmpstr (etl_decode_status_label (ETL_DECODE_STATUS_WPP), ==, "WPP, needs TMF");
  g_assert_cmpstr (etl_decode_status_label (ETL_DECODE_STATUS_UNKNOWN_CLASS), ==, "no layout");
}

/* GC/Start v1 of net.4.5.2.x64.etl (in-trace TDH metadata): decoded; a
 * one-field preview stops at its cap and still counts as decoded. */
static void
test_decoded (void)
{
  static const Want gc_start = { "e13c0d23-ccbc-4e12-931b-d9cc2eee27e4", 1, ETL_RECORD_KIND_MANIFEST, 1, G_MAXSIZE };
  g_autoptr (EtlTrace) trace = etl_test_open_corpus ("net.4.5.2.x64.etl");
  g_auto (EtlRecord) r = { 0 };
  g_autofree char *reason = NULL;

  if (trace == NULL)
    return;
  g_assert_true (find_record (trace, match_want, &gc_start, &r));
  g_assert_cmpint (status_of (trace, &r, &reason), ==, ETL_DECODE_STATUS_DECODED);
  g_assert_cmpstr (reason, ==, "Decoded: the TDH schema covers all 18 bytes of user data.");
  {
    g_autoptr (EtlDecoded) preview = etl_trace_decode_record_prefix (trace, &r, 1);

    g_assert_false (preview->complete);
    g_assert_true (preview->capped);
    g_assert_cmpint (etl_decode_status_of (&r, preview), ==, ETL_DECODE_STATUS_DECODED);
  }
  /* A schema that meets fewer bytes than it expects: partial. */
  {
    EtlRecord cut = r;
    g_autoptr (EtlDecoded) d = NULL;

    cut.user_data_len = 10;
    d = etl_trace_decode_record (trace, &cut);
    g_assert_cmpint (etl_decode_status_of (&cut, d), ==, ETL_DECODE_STATUS_PARTIAL);
    cut.user_data_len = 0;
    cut.user_data = NULL;
    g_clear_pointer (&d, etl_decoded_free);
    d = etl_trace_decode_record (trace, &cut);
    g_assert_cmpint (etl_decode_status_of (&cut, d), ==, ETL_DECODE_STATUS_PARTIAL);
  }
}

/* PerfView's ClrEnableParameters (event 13): 16 bytes, of which its
 * EventSource manifest's schema covers 12. */
static void
test_partial (void)
{
  static const Want clr_enable = { "a8a71ac1-040f-54a2-07ca-00a89b5ab761", 13, ETL_RECORD_KIND_MANIFEST, 0, 16 };
  g_autoptr (EtlTrace) trace = etl_test_open_corpus ("net.4.5.2.x64.etl");
  g_auto (EtlRecord) r = { 0 };
  g_autofree char *reason = NULL;

  if (trace == NULL)
    return;
  g_assert_true (find_record (trace, match_want, &clr_enable, &r));
  g_assert_cmpint (status_of (trace, &r, &reason), ==, ETL_DECODE_STATUS_PARTIAL);
  g_assert_cmpstr (reason, ==,
                   "Partly decoded: the EventSource schema covers 12 of 16 bytes — the payload does not match it "
                   "(a newer event version, or damaged data); the rest is in the hex dump.");
}

/* gcevents.etl's CLR events carry no metadata: no-schema until the CLR's
 * manifest is loaded. */
static void
test_no_schema (void)
{
  static const Want gc_start = { "e13c0d23-ccbc-4e12-931b-d9cc2eee27e4", 1, ETL_RECORD_KIND_MANIFEST, 1, G_MAXSIZE };
  g_autoptr (EtlTrace) trace = etl_test_open_corpus ("gcevents.etl");
  g_autofree char *manifest = etl_test_corpus_path ("manifests/ClrEtwAll.man");
  g_autoptr (GError) error = NULL;
  g_auto (EtlRecord) r = { 0 };
  g_autofree char *reason = NULL;
  g_autofree char *after = NULL;
  guint n_no_schema = 0;

  if (trace == NULL || manifest == NULL)
    return;
  for (guint64 i = 0; i < etl_trace_get_n_records (trace); i++)
    {
      g_auto (EtlRecord) each = { 0 };
      g_autofree char *why = NULL;

      g_assert_true (etl_trace_get_record (trace, i, &each, NULL));
      if (each.kind == ETL_RECORD_KIND_MANIFEST)
        {
          g_assert_cmpint (status_of (trace, &each, &why), ==, ETL_DECODE_STATUS_NO_SCHEMA);
          n_no_schema++;
        }
    }
  g_assert_cmpuint (n_no_schema, ==, 69);
  g_assert_true (find_record (trace, match_want, &gc_start, &r));
  g_assert_cmpint (status_of (trace, &r, &reason), ==, ETL_DECODE_STATUS_NO_SCHEMA);
  g_assert_cmpstr (reason, ==,
                   "Microsoft-Windows-DotNETRuntime: no metadata in the trace — load its manifest "
                   "(File ▸ Load Manifest…).");
  g_assert_true (etl_trace_load_manifest (trace, manifest, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpint (status_of (trace, &r, &after), ==, ETL_DECODE_STATUS_DECODED);
}

/* Real kernel and classic records no layout describes: decoded with an
 * empty registry (no MOF tables), whatever tables etlscope has. */
static void
test_unknown_class (void)
{
  static const Want partition = { "68fdd900-4a3e-11d1-84f4-0000f80464e3", 0, ETL_RECORD_KIND_KERNEL, 80, 48 };
  static const Want sysconfig = { "9b79ee91-b5fd-41c0-a243-4248e266e9d0", 0, ETL_RECORD_KIND_CLASSIC, 37, G_MAXSIZE };
  g_autoptr (EtlTrace) trace = etl_test_open_corpus ("gcevents.etl");
  g_autoptr (EtlTrace) self = etl_test_open_corpus ("SelfDescribingSingleEvent.etl");
  g_autoptr (EtlSchemaRegistry) empty = etl_schema_registry_new ();
  g_auto (EtlRecord) k = { 0 };
  g_auto (EtlRecord) c = { 0 };
  g_autoptr (EtlDecoded) dk = NULL;
  g_autoptr (EtlDecoded) dc = NULL;
  g_autofree char *reason_k = NULL;
  g_autofree char *reason_c = NULL;
  g_autofree char *expected_k = NULL;

  if (trace == NULL || self == NULL)
    return;
  g_assert_true (find_record (trace, match_want, &partition, &k));
  g_assert_cmpuint (k.user_data_len, >, 0);
  dk = etl_decode_record (empty, NULL, &k);
  g_assert_cmpint (etl_decode_status_of (&k, dk), ==, ETL_DECODE_STATUS_UNKNOWN_CLASS);
  reason_k = etl_decode_status_dup_reason (ETL_DECODE_STATUS_UNKNOWN_CLASS, &k, dk);
  expected_k = g_strdup_printf ("No layout for kernel class 68fdd900-4a3e-11d1-84f4-0000f80464e3 (EventTrace), "
                                "version %u, opcode 80 (HookId 0x%04x): etlscope has no MOF table for it; its %"
                                G_GSIZE_FORMAT " bytes are in the hex dump.",
                                k.version, k.hook_id, k.user_data_len);
  g_assert_cmpstr (reason_k, ==, expected_k);

  g_assert_true (find_record (self, match_want, &sysconfig, &c));
  dc = etl_decode_record (empty, NULL, &c);
  g_assert_cmpint (etl_decode_status_of (&c, dc), ==, ETL_DECODE_STATUS_UNKNOWN_CLASS);
  reason_c = etl_decode_status_dup_reason (ETL_DECODE_STATUS_UNKNOWN_CLASS, &c, dc);
  g_assert_true (g_str_has_prefix (reason_c, "No layout for class 9b79ee91-b5fd-41c0-a243-4248e266e9d0 (SysConfig), "
                                             "version 0, opcode 37: "));
}

/* No user data: msbuild's Build/Start (its schema has no fields) and the
 * kernel's RundownComplete. */
static void
test_no_data (void)
{
  static const Want build_start = { "d44a2098-821f-5808-4cea-1e24e982ca37", 3, ETL_RECORD_KIND_MANIFEST, 1, 0 };
  g_autoptr (EtlTrace) trace = etl_test_open_corpus ("real/msbuild_PerfViewData.etl");
  g_autoptr (EtlTrace) net = etl_test_open_corpus ("net.4.5.2.x64.etl");
  g_auto (EtlRecord) r = { 0 };
  g_autofree char *reason = NULL;
  guint n_rundown = 0;

  if (trace == NULL || net == NULL)
    return;
  if (!find_record (trace, match_want, &build_start, &r))
    g_error ("no Build/Start record");
  g_assert_cmpint (status_of (trace, &r, &reason), ==, ETL_DECODE_STATUS_NO_DATA);
  g_assert_cmpstr (reason, ==, "No user data: the event is its header alone, nothing to decode.");

  for (guint64 i = 0; i < etl_trace_get_n_records (net); i++)
    {
      g_auto (EtlRecord) each = { 0 };
      g_autofree char *name = NULL;
      g_autofree char *why = NULL;

      g_assert_true (etl_trace_get_record (net, i, &each, NULL));
      if (each.kind != ETL_RECORD_KIND_PERFINFO || each.user_data_len != 0)
        continue;
      name = etl_record_dup_event_name (&each);
      g_assert_cmpstr (name, ==, "EventTrace/RundownComplete");
      g_assert_cmpint (status_of (net, &each, &why), ==, ETL_DECODE_STATUS_NO_DATA);
      n_rundown++;
    }
  g_assert_cmpuint (n_rundown, ==, 2);
}

/* Synthetic records (none in the corpus): WPP as a MESSAGE header and as an
 * EVENT_HEADER with TRACE_MESSAGE; an EVENT_HEADER record without data or
 * schema; a WPP message without arguments is still wpp. */
/* gcevents.etl's GC/AllocationTick records are version 4; the 2019 CLR
 * manifest stops at version 3 (GCAllocationTick_V3), so they decode with
 * v3's fields and the 8 bytes v4 appends (ObjectSize in TraceEvent's
 * baseline) stay over: newer-version, not partial. */
static void
test_newer_version (void)
{
  static const Want tick = { "e13c0d23-ccbc-4e12-931b-d9cc2eee27e4", 10, ETL_RECORD_KIND_MANIFEST, 11, G_MAXSIZE };
  g_autoptr (EtlTrace) trace = etl_test_open_corpus ("gcevents.etl");
  g_autofree char *manifest = etl_test_corpus_path ("manifests/ClrEtwAll.man");
  g_autoptr (GError) error = NULL;
  g_auto (EtlRecord) r = { 0 };
  g_autofree char *reason = NULL;

  if (trace == NULL || manifest == NULL)
    return;
  g_assert_true (etl_trace_load_manifest (trace, manifest, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (find_record (trace, match_want, &tick, &r));
  g_assert_cmpuint (r.version, ==, 4);
  g_assert_cmpint (status_of (trace, &r, &reason), ==, ETL_DECODE_STATUS_NEWER_VERSION);
  g_assert_cmpstr (etl_decode_status_name (ETL_DECODE_STATUS_NEWER_VERSION), ==, "newer-version");
  g_assert_nonnull (strstr (reason, "version 4 of this event is newer than any source knows"));
  g_assert_nonnull (strstr (reason, "schema of version 3"));
  g_assert_nonnull (strstr (reason, "cover 66 of 74 bytes"));
}

static void
test_synthetic (void)
{
  static const guint8 args[] = { 1, 0, 0, 0, 'h', 0, 'i', 0, 0, 0 };
  EtlRecord r = { 0 };
  g_autofree char *reason = NULL;

  g_assert_true (etl_guid_parse ("12345678-9abc-def0-1234-56789abcdef0", &r.provider));
  r.header_type = ETL_HEADER_TYPE_MESSAGE;
  r.kind = ETL_RECORD_KIND_WPP;
  r.event_id = 12;
  r.user_data = args;
  r.user_data_len = sizeof args;
  g_assert_cmpint (etl_decode_status_of (&r, NULL), ==, ETL_DECODE_STATUS_WPP);
  {
    g_autoptr (EtlDecoded) d = etl_decode_record (NULL, NULL, &r);

    g_assert_cmpint (etl_decode_status_of (&r, d), ==, ETL_DECODE_STATUS_WPP);
    reason = etl_decode_status_dup_reason (ETL_DECODE_STATUS_WPP, &r, d);
  }
  g_assert_cmpstr (reason, ==,
                   "WPP software trace: message GUID 12345678-9abc-def0-1234-56789abcdef0, message 12 — needs "
                   "the provider's TMF/PDB.");
  r.user_data = NULL;
  r.user_data_len = 0;
  g_assert_cmpint (etl_decode_status_of (&r, NULL), ==, ETL_DECODE_STATUS_WPP);

  /* EVENT_HEADER with EVENT_HEADER_FLAG_TRACE_MESSAGE. */
  r.header_type = ETL_HEADER_TYPE_EVENT_HEADER64;
  r.kind = ETL_RECORD_KIND_MANIFEST;
  r.flags = ETL_EVENT_HEADER_FLAG_TRACE_MESSAGE | ETL_EVENT_HEADER_FLAG_64_BIT_HEADER;
  r.user_data = args;
  r.user_data_len = sizeof args;
  g_assert_cmpint (etl_decode_status_of (&r, NULL), ==, ETL_DECODE_STATUS_WPP);

  /* The same without the flag: a manifest event with no metadata. */
  r.flags = ETL_EVENT_HEADER_FLAG_64_BIT_HEADER;
  g_assert_cmpint (etl_decode_status_of (&r, NULL), ==, ETL_DECODE_STATUS_NO_SCHEMA);
  /* …and without data either. */
  r.user_data = NULL;
  r.user_data_len = 0;
  g_assert_cmpint (etl_decode_status_of (&r, NULL), ==, ETL_DECODE_STATUS_NO_DATA);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/etl/decode-status/names", test_names);
  g_test_add_func ("/etl/decode-status/decoded", test_decoded);
  g_test_add_func ("/etl/decode-status/partial", test_partial);
  g_test_add_func ("/etl/decode-status/no-schema", test_no_schema);
  g_test_add_func ("/etl/decode-status/unknown-class", test_unknown_class);
  g_test_add_func ("/etl/decode-status/no-data", test_no_data);
  g_test_add_func ("/etl/decode-status/newer-version", test_newer_version);
  g_test_add_func ("/etl/decode-status/synthetic", test_synthetic);
  return g_test_run ();
}
