/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * fuzz-regions: bytes → etl_regions_file_parse (GMarkup, every element and
 * attribute rule, the bounds) → when the file parses, etl_regions_match
 * against a small trace written once with the writer (one provider,
 * {6a2b7c1d-1111-4222-8333-00000000abcd}, events 1 to 7 with the payload
 * Name (UTF-16) and Key (u32), nested, unpaired and self-nesting Starts
 * and Stops on two threads), its manifest loaded so payload rules decode.
 */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include <glib/gstdio.h>

#include "etl-format-private.h"
#include "etl-regions.h"
#include "etl-trace.h"
#include "etl-writer.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

#define PROVIDER "6a2b7c1d-1111-4222-8333-00000000abcd"

static const char manifest_xml[] =
  "<instrumentationManifest xmlns=\"http://schemas.microsoft.com/win/2004/08/events\">"
  "<instrumentation xmlns:win=\"http://manifests.microsoft.com/win/2004/08/windows/events\">"
  "<events><provider name=\"Regions-Fuzz\" guid=\"{" PROVIDER "}\" symbol=\"RF\"><events>"
  "<event value=\"1\" template=\"T\"/><event value=\"2\" template=\"T\"/><event value=\"3\" template=\"T\"/>"
  "<event value=\"4\" template=\"T\"/><event value=\"5\" template=\"T\"/><event value=\"6\" template=\"T\"/>"
  "<event value=\"7\" template=\"T\"/></events>"
  "<templates><template tid=\"T\"><data name=\"Name\" inType=\"win:UnicodeString\"/>"
  "<data name=\"Key\" inType=\"win:UInt32\"/></template></templates>"
  "</provider></events></instrumentation></instrumentationManifest>";

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

/* An EVENT_HEADER64 record (evntcons.h) of PROVIDER with Name and Key. */
static gsize
event_record (guint8 *p, guint16 id, guint8 opcode, guint32 tid, gint64 ts, const char *name, guint32 key)
{
  EtlGuid g;
  gsize k = ETL_EVENT_HEADER_SIZE;

  etl_guid_parse (PROVIDER, &g);
  memset (p, 0, k);
  p[2] = ETL_HEADER_TYPE_EVENT_HEADER64;
  p[3] = ETL_MARKER_TRACE_HEADER_FLAG | ETL_MARKER_EVENT_TRACE_FLAG;
  put_u32 (p + 8, tid);
  put_u32 (p + 12, 100);
  put_u32 (p + 16, (guint32) ts);
  put_u32 (p + 24, g.data1);
  put_u16 (p + 28, g.data2);
  put_u16 (p + 30, g.data3);
  memcpy (p + 32, g.data4, 8);
  put_u16 (p + 40, id);
  p[45] = opcode;
  p[64] = (guint8) (key & 3); /* ActivityId: four values */
  for (const char *c = name; *c != '\0'; c++, k += 2)
    put_u16 (p + k, (guint8) *c);
  put_u16 (p + k, 0);
  put_u32 (p + k + 2, key);
  k += 6;
  put_u16 (p, (guint16) k);
  return k;
}

static gpointer
make_trace (gpointer data)
{
  static const char *names[] = { "alpha", "beta", "gamma", "" };
  g_autofree char *dir = g_dir_make_tmp ("etlscope-fuzz-regions-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "t.etl", NULL);
  g_autofree char *man = g_build_filename (dir, "t.man", NULL);
  EtlWriterHeader h;
  EtlWriter *w;
  EtlTrace *trace;
  guint8 rec[256];
  guint64 s = 42;

  (void) data;
  etl_writer_header_init (&h);
  h.log_file_name = path;
  w = etl_writer_new (path, &h, NULL);
  g_assert (w != NULL);
  /* 400 events: ids 1–7, two threads, keys 0–3, a deterministic mix. */
  for (guint i = 0; i < 400; i++)
    {
      guint16 id;
      gsize n;

      s = s * 6364136223846793005u + 1442695040888963407u;
      id = (guint16) (1 + (s >> 33) % 7);
      n = event_record (rec, id, (guint8) ((s >> 40) % 3), 1 + (guint32) ((s >> 45) & 1), 1000 + 10 * (gint64) i,
                        names[(s >> 50) % 4], (guint32) ((s >> 55) % 4));
      g_assert (etl_writer_add_record (w, 0, rec, n, 1000 + 10 * (gint64) i, NULL));
    }
  g_assert (etl_writer_close (w, NULL, NULL));
  etl_writer_free (w);
  g_assert (g_file_set_contents (man, manifest_xml, -1, NULL));
  trace = etl_trace_open ((const char *const[]){ path, NULL }, NULL, NULL, NULL, NULL);
  g_assert (trace != NULL);
  g_assert (etl_trace_load_manifest (trace, man, NULL, NULL));
  /* The trace keeps its mapping; the files may go. */
  g_remove (path);
  g_remove (man);
  g_rmdir (dir);
  return trace;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  static GOnce once = G_ONCE_INIT;
  /* Copy into an exactly-sized buffer so any overread is caught. */
  g_autofree char *copy = g_memdup2 (data, size);
  g_autoptr (EtlRegionsFile) f = NULL;
  GError *error = NULL;
  EtlTrace *trace = g_once (&once, make_trace, NULL);

  f = etl_regions_file_parse (size > 0 ? copy : "", (gssize) size, "fuzz.xml", &error);
  if (f == NULL)
    {
      g_assert (error != NULL && error->domain == ETL_REGIONS_FILE_ERROR);
      g_assert (g_str_has_prefix (error->message, "fuzz.xml:"));
      g_clear_error (&error);
      return 0;
    }
  g_assert (f->warnings->len <= ETL_REGIONS_MAX_WARNINGS);
  g_assert (f->regions->len <= ETL_REGIONS_MAX_REGIONS);
  {
    g_autoptr (EtlRegions) rs = etl_regions_match (trace, f, NULL, &error);
    const EtlRegionInstance *in;
    guint n;

    g_assert (rs != NULL && error == NULL);
    in = etl_regions_get_instances (rs, &n);
    for (guint i = 0; i < n; i++)
      {
        g_assert (in[i].stop >= in[i].start);
        g_assert (in[i].region < f->regions->len);
        g_assert (etl_regions_get_string (rs, in[i].name) != NULL);
        if (in[i].parent != ETL_REGION_INSTANCE_NONE)
          {
            g_assert (in[i].parent < n);
            g_assert (in[in[i].parent].start <= in[i].start && in[in[i].parent].stop >= in[i].stop);
            g_assert (in[i].depth == in[in[i].parent].depth + 1);
          }
        else
          g_assert (in[i].depth == 0);
      }
  }
  return 0;
}
