/* SPDX-License-Identifier: GPL-3.0-or-later */

/**
 * SECTION:etl-payload
 * @title: TraceLogging payloads as (name, value) pairs
 * @short_description: a thin wrapper over the shared decoder
 *
 * A TraceLogging event carries its own schema in an EVENT_SCHEMA_TL extended
 * item; etl-tracelogging.c turns it into an #EtlSchema and etl-decode.c
 * walks it, as for every other source.  This wrapper returns the result as
 * #EtlPayloadField pairs for the callers that predate #EtlDecoded.
 */

#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include "etl-decode.h"
#include "etl-payload.h"
#include "etl-tracelogging.h"

static void
field_free (gpointer data)
{
  EtlPayloadField *f = data;

  g_free (f->name);
  g_free (f->value);
  g_free (f);
}

/**
 * etl_payload_decode_tracelogging:
 * @record: a TraceLogging record (one with an EVENT_SCHEMA_TL extended item)
 * @complete: (out) (optional): set to %TRUE when every field was decoded and
 *   the user data was used up exactly
 *
 * Decodes the fields of a self-describing event: its metadata made into an
 * #EtlSchema (etl_tracelogging_schema_new()) and walked by
 * etl_decode_with_schema(), the decoder every schema source shares.  Kept
 * for callers that want (name, value) pairs only.
 *
 * Returns: (transfer full) (nullable) (element-type EtlPayloadField): the
 *   fields decoded, possibly none, or %NULL when @record has no schema or
 *   it is malformed
 */
GPtrArray *
etl_payload_decode_tracelogging (const EtlRecord *record, gboolean *complete)
{
  g_autoptr (EtlSchema) schema = NULL;
  g_autoptr (EtlDecoded) decoded = NULL;
  GPtrArray *fields;

  g_return_val_if_fail (record != NULL, NULL);
  if (complete)
    *complete = FALSE;

  schema = etl_tracelogging_schema_new (record, NULL);
  if (schema == NULL)
    return NULL;
  decoded = etl_decode_with_schema (schema, NULL, record);
  fields = g_ptr_array_new_with_free_func (field_free);
  for (guint i = 0; i < decoded->fields->len; i++)
    {
      const EtlField *src = &g_array_index (decoded->fields, EtlField, i);
      EtlPayloadField *f = g_new0 (EtlPayloadField, 1);

      f->name = g_strdup (src->name);
      f->value = g_strdup (src->value);
      g_ptr_array_add (fields, f);
    }
  if (complete)
    *complete = decoded->complete;
  return fields;
}
