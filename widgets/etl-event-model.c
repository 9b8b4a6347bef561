/* SPDX-License-Identifier: GPL-3.0-or-later */

/**
 * SECTION:etl-event-model
 * @title: EtlEventModel
 * @short_description: a virtual list model over the rows of a trace
 *
 * A flat #GtkTreeModel whose rows are the positions of an #EtlRowSet.  It
 * stores nothing per row: an iterator is the position itself, and a column
 * value is computed on demand by re-reading that one record with
 * etl_trace_get_record() (the way Wireshark's packet list re-reads a packet
 * from its offset, `wiretap/wtap.h`).  The last #CACHE_SIZE formatted rows are
 * kept in a small direct-mapped cache, because a #GtkTreeView asks for every
 * column of a row in turn.  Provider names are cached per provider index,
 * process names ("Test.x64.exe (3676)") per process of the trace's process
 * table.
 *
 * Each row formatted also decodes its record once (etl_trace_decode_record()):
 * the Event column shows the schema's name ("GC/Start"), the Process column
 * the process the record belongs to (a kernel record may name it in its
 * payload), the Payload column the first %ETL_EVENT_MODEL_PAYLOAD_CHARS
 * characters of the fields (etl_decoded_format_payload()).  Only the rows
 * a view asks for are formatted.  After a manifest is loaded,
 * etl_event_model_invalidate() drops the formatted rows so the new names
 * show.
 *
 * A new filter makes a new model; a sort gives the model a new order
 * (etl_event_model_set_order(), a pointer swap).  The event list does not
 * show this model in its #GtkTreeView (gtk_tree_view_set_model() walks every
 * row): an #EtlEventPage shows the window of it that is on screen.
 */

#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include "etl-event-model.h"

#include <string.h>
#include "etl-decode-status.h"
#include "etl-names.h"
#include "etl-time-ruler.h"

#define CACHE_SIZE 512
/* Fields decoded for a row: enough to fill the Payload column. */
#define PAYLOAD_MAX_FIELDS 32

/* One formatted row: the short columns live in @buf (no allocation per
 * column); the provider and process point into the per-provider and
 * per-process caches; only the event name, the payload and error texts are
 * allocated (@owned). */
typedef struct
{
  guint64 row;
  gboolean valid;
  const char *text[ETL_EVENT_MODEL_N_TEXT_COLUMNS];
  char *owned[3];
  char buf[160];
} CachedRow;

struct _EtlEventModel
{
  GObject parent_instance;

  EtlTrace *trace;
  EtlRowSet *rows;
  guint32 *order;          /* display position → position in @rows; NULL: time order */
  int stamp;
  CachedRow *cache;        /* CACHE_SIZE rows */
  char **provider_names;  /* per provider index, filled lazily */
  guint n_providers;
  EtlProcessTable *processes;
  char **process_names;   /* per EtlProcess.index, filled lazily */
  guint n_processes;
  guint n_reads;
};

static void etl_event_model_tree_model_init (GtkTreeModelIface *iface);

G_DEFINE_TYPE_WITH_CODE (EtlEventModel, etl_event_model, G_TYPE_OBJECT,
                         G_IMPLEMENT_INTERFACE (GTK_TYPE_TREE_MODEL, etl_event_model_tree_model_init))

static void
cached_row_clear (CachedRow *c)
{
  for (guint i = 0; i < G_N_ELEMENTS (c->owned); i++)
    g_clear_pointer (&c->owned[i], g_free);
  memset (c->text, 0, sizeof c->text);
  c->valid = FALSE;
}

/* Appends a formatted column to @c->buf; returns it. */
static const char *
row_printf (CachedRow *c, gsize *used, const char *format, ...) G_GNUC_PRINTF (3, 4);

static const char *
row_printf (CachedRow *c, gsize *used, const char *format, ...)
{
  char *at = c->buf + *used;
  gsize room = sizeof c->buf - *used;
  va_list args;
  int n;

  if (room < 2)
    return "";
  va_start (args, format);
  n = g_vsnprintf (at, room, format, args);
  va_end (args);
  *used += MIN ((gsize) n, room - 1) + 1;
  return at;
}

/* Appends @value in decimal to @c->buf; returns it.  The list's numeric
 * columns, without a printf each. */
static const char *
row_uint (CachedRow *c, gsize *used, guint64 value)
{
  char digits[24];
  int n = 0;
  char *at = c->buf + *used;

  do
    {
      digits[n++] = (char) ('0' + value % 10);
      value /= 10;
    }
  while (value != 0);
  if (sizeof c->buf - *used < (gsize) n + 1)
    return "";
  for (int i = 0; i < n; i++)
    at[i] = digits[n - 1 - i];
  at[n] = '\0';
  *used += (gsize) n + 1;
  return at;
}

static const char *
provider_name (EtlEventModel *self, guint64 row, const EtlRecord *record)
{
  guint p = etl_trace_get_provider_index (self->trace, row);

  if (p >= self->n_providers)
    return NULL;
  if (self->provider_names[p] == NULL)
    self->provider_names[p] = etl_record_dup_provider_name (record);
  return self->provider_names[p];
}

/* Appends @text to @out (capacity @cap bytes, NUL kept) counting UTF-8
 * characters into @n_chars, at most @max_chars; FALSE once full. */
static gboolean
append_capped (char *out, gsize cap, gsize *len, gsize *n_chars, gsize max_chars, const char *text)
{
  for (const char *p = text; *p != '\0'; p++)
    {
      gboolean starts_char = ((guchar) *p & 0xC0) != 0x80;

      if (starts_char && *n_chars == max_chars)
        return FALSE;
      if (*len + 1 >= cap)
        return FALSE;
      out[(*len)++] = *p;
      if (starts_char)
        (*n_chars)++;
    }
  out[*len] = '\0';
  return TRUE;
}

/* The Payload column: "Name=value" joined by spaces, as
 * etl_decoded_format_payload() writes them, cut to
 * ETL_EVENT_MODEL_PAYLOAD_CHARS characters (the last one "…").  Written here
 * in one pass over a stack buffer: the list formats it for every row shown,
 * and measuring the whole text first (as the general function does) was a
 * fifth of a page's time. */
static char *
format_payload (const EtlDecoded *decoded)
{
  char out[ETL_EVENT_MODEL_PAYLOAD_CHARS * 4 + 8];
  gsize len = 0, n_chars = 0;
  const gsize max_chars = ETL_EVENT_MODEL_PAYLOAD_CHARS - 1; /* room for "…" */
  gboolean full = FALSE;

  out[0] = '\0';
  for (guint i = 0; i < decoded->fields->len && !full; i++)
    {
      const EtlField *f = &g_array_index (decoded->fields, EtlField, i);

      full = (i > 0 && !append_capped (out, sizeof out, &len, &n_chars, max_chars, " "))
             || !append_capped (out, sizeof out, &len, &n_chars, max_chars, f->name)
             || !append_capped (out, sizeof out, &len, &n_chars, max_chars, "=")
             || !append_capped (out, sizeof out, &len, &n_chars, max_chars, f->value);
    }
  if (full || (!decoded->complete && len + 4 <= sizeof out))
    {
      /* One more character would not fit (the 200th is "…"), or decoding
       * stopped before the end of the payload. */
      g_assert (len + 4 <= sizeof out);
      memcpy (out + len, "…", sizeof "…");
    }
  return g_strdup (out);
}

/* "name (PID)" of the process @record belongs to, from the cache; NULL when
 * the record names no process. */
static const char *
process_name (EtlEventModel *self, CachedRow *c, gsize *used, const EtlRecord *record, const EtlDecoded *decoded)
{
  const EtlProcess *process;
  guint32 pid;

  if (self->processes == NULL || !etl_process_table_resolve_record (self->processes, record, decoded, &pid, NULL))
    {
      if (!record->has_pid || record->pid == G_MAXUINT32)
        return NULL;
      pid = record->pid;
    }
  process = self->processes != NULL ? etl_process_table_lookup (self->processes, pid, record->filetime) : NULL;
  if (process == NULL || process->image_name == NULL || process->index >= self->n_processes)
    return row_printf (c, used, "Process(%u)", pid);
  if (self->process_names[process->index] == NULL)
    self->process_names[process->index] = etl_process_format_name (process, pid);
  return self->process_names[process->index];
}

/* Formats row @row into @c: one record read, one decode. */
static void
format_row (EtlEventModel *self, guint64 row, CachedRow *c)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (EtlDecoded) decoded = NULL;
  EtlRecord r;
  const char *level;
  gsize used = 0;

  cached_row_clear (c);
  c->row = row;
  c->valid = TRUE;
  self->n_reads++;

  {
    g_autofree char *time = etl_time_format_span (etl_trace_get_filetime (self->trace, row)
                                                  - etl_trace_get_origin (self->trace));

    c->text[ETL_EVENT_MODEL_COLUMN_TIME] = row_printf (c, &used, "%s", time);
  }
  c->text[ETL_EVENT_MODEL_COLUMN_CPU] = row_uint (c, &used, etl_trace_get_cpu (self->trace, row));

  if (!etl_trace_get_record (self->trace, row, &r, &error))
    {
      c->text[ETL_EVENT_MODEL_COLUMN_NAME] = c->owned[0] = g_strdup_printf ("(unreadable: %s)", error->message);
      return;
    }

  if (r.has_pid)
    {
      c->text[ETL_EVENT_MODEL_COLUMN_PID] = row_uint (c, &used, r.pid);
      c->text[ETL_EVENT_MODEL_COLUMN_TID] = row_uint (c, &used, r.tid);
    }
  {
    const char *name = provider_name (self, row, &r);

    if (name == NULL)
      name = c->owned[1] = etl_record_dup_provider_name (&r);
    c->text[ETL_EVENT_MODEL_COLUMN_PROVIDER] = name;
  }
  /* The Payload column shows ~200 characters: the first fields are enough
   * (a CLR rundown record can carry a hundred). */
  decoded = etl_trace_decode_record_prefix (self->trace, &r, PAYLOAD_MAX_FIELDS);
  /* The schema's name ("GC/Start"); TraceLogging records carry their own. */
  if (decoded->schema != NULL && r.kind != ETL_RECORD_KIND_TRACELOGGING)
    c->owned[0] = etl_schema_dup_display_name (decoded->schema);
  else
    c->owned[0] = etl_record_dup_event_name (&r);
  c->text[ETL_EVENT_MODEL_COLUMN_NAME] = c->owned[0];
  /* A preview stopped at its field cap still counts as decoded (EtlDecoded.capped). */
  c->text[ETL_EVENT_MODEL_COLUMN_DECODE] = etl_decode_status_label (etl_decode_status_of (&r, decoded));
  c->text[ETL_EVENT_MODEL_COLUMN_PROCESS] = process_name (self, c, &used, &r, decoded);
  if (decoded->fields->len > 0)
    c->text[ETL_EVENT_MODEL_COLUMN_PAYLOAD] = c->owned[2] =
        format_payload (decoded);
  switch (r.kind)
    {
    case ETL_RECORD_KIND_KERNEL:
    case ETL_RECORD_KIND_PERFINFO:
      c->text[ETL_EVENT_MODEL_COLUMN_OPCODE] = row_printf (c, &used, "0x%04X", r.hook_id);
      break;
    case ETL_RECORD_KIND_MANIFEST:
    case ETL_RECORD_KIND_TRACELOGGING:
    case ETL_RECORD_KIND_WPP:
      c->text[ETL_EVENT_MODEL_COLUMN_OPCODE] = row_printf (c, &used, "%u / %u", r.event_id, r.opcode);
      break;
    default:
      c->text[ETL_EVENT_MODEL_COLUMN_OPCODE] = row_printf (c, &used, "– / %u", r.opcode);
      break;
    }
  level = etl_names_level (r.level);
  c->text[ETL_EVENT_MODEL_COLUMN_LEVEL] = level != NULL ? level : row_printf (c, &used, "%u", r.level);
  c->text[ETL_EVENT_MODEL_COLUMN_SIZE] = row_uint (c, &used, r.user_data_len);
  etl_record_clear (&r);
}

static CachedRow *
lookup (EtlEventModel *self, guint64 row)
{
  CachedRow *c = &self->cache[row % CACHE_SIZE];

  if (!c->valid || c->row != row)
    format_row (self, row, c);
  return c;
}

/* GtkTreeModel ----------------------------------------------------------- */

static GtkTreeModelFlags
model_get_flags (GtkTreeModel *model)
{
  return GTK_TREE_MODEL_LIST_ONLY | GTK_TREE_MODEL_ITERS_PERSIST;
}

static int
model_get_n_columns (GtkTreeModel *model)
{
  return ETL_EVENT_MODEL_N_COLUMNS;
}

static GType
model_get_column_type (GtkTreeModel *model, int column)
{
  g_return_val_if_fail (column >= 0 && column < ETL_EVENT_MODEL_N_COLUMNS, G_TYPE_INVALID);
  return column == ETL_EVENT_MODEL_COLUMN_ROW ? G_TYPE_UINT64 : G_TYPE_STRING;
}

static gboolean
set_iter (EtlEventModel *self, GtkTreeIter *iter, guint64 position)
{
  if (position >= etl_row_set_get_n (self->rows))
    {
      iter->stamp = 0;
      return FALSE;
    }
  iter->stamp = self->stamp;
  iter->user_data = GSIZE_TO_POINTER ((gsize) position);
  iter->user_data2 = NULL;
  iter->user_data3 = NULL;
  return TRUE;
}

static guint64
iter_position (EtlEventModel *self, GtkTreeIter *iter)
{
  g_assert (iter->stamp == self->stamp);
  return (guint64) GPOINTER_TO_SIZE (iter->user_data);
}

static gboolean
model_get_iter (GtkTreeModel *model, GtkTreeIter *iter, GtkTreePath *path)
{
  EtlEventModel *self = ETL_EVENT_MODEL (model);
  int depth = 0;
  int *indices = gtk_tree_path_get_indices_with_depth (path, &depth);

  if (depth != 1 || indices[0] < 0)
    {
      iter->stamp = 0;
      return FALSE;
    }
  return set_iter (self, iter, (guint64) indices[0]);
}

static GtkTreePath *
model_get_path (GtkTreeModel *model, GtkTreeIter *iter)
{
  EtlEventModel *self = ETL_EVENT_MODEL (model);

  g_return_val_if_fail (iter->stamp == self->stamp, NULL);
  return gtk_tree_path_new_from_indices ((int) iter_position (self, iter), -1);
}

static void
model_get_value (GtkTreeModel *model, GtkTreeIter *iter, int column, GValue *value)
{
  EtlEventModel *self = ETL_EVENT_MODEL (model);

  g_return_if_fail (iter->stamp == self->stamp);
  etl_event_model_get_value_at (self, iter_position (self, iter), column, value);
}

static gboolean
model_iter_next (GtkTreeModel *model, GtkTreeIter *iter)
{
  EtlEventModel *self = ETL_EVENT_MODEL (model);

  g_return_val_if_fail (iter->stamp == self->stamp, FALSE);
  return set_iter (self, iter, iter_position (self, iter) + 1);
}

static gboolean
model_iter_previous (GtkTreeModel *model, GtkTreeIter *iter)
{
  EtlEventModel *self = ETL_EVENT_MODEL (model);
  guint64 position;

  g_return_val_if_fail (iter->stamp == self->stamp, FALSE);
  position = iter_position (self, iter);
  if (position == 0)
    {
      iter->stamp = 0;
      return FALSE;
    }
  return set_iter (self, iter, position - 1);
}

static gboolean
model_iter_children (GtkTreeModel *model, GtkTreeIter *iter, GtkTreeIter *parent)
{
  if (parent != NULL)
    {
      iter->stamp = 0;
      return FALSE;
    }
  return set_iter (ETL_EVENT_MODEL (model), iter, 0);
}

static gboolean
model_iter_has_child (GtkTreeModel *model, GtkTreeIter *iter)
{
  return FALSE;
}

static int
model_iter_n_children (GtkTreeModel *model, GtkTreeIter *iter)
{
  EtlEventModel *self = ETL_EVENT_MODEL (model);

  if (iter != NULL)
    return 0;
  return (int) MIN (etl_row_set_get_n (self->rows), (guint64) G_MAXINT);
}

static gboolean
model_iter_nth_child (GtkTreeModel *model, GtkTreeIter *iter, GtkTreeIter *parent, int n)
{
  if (parent != NULL || n < 0)
    {
      iter->stamp = 0;
      return FALSE;
    }
  return set_iter (ETL_EVENT_MODEL (model), iter, (guint64) n);
}

static gboolean
model_iter_parent (GtkTreeModel *model, GtkTreeIter *iter, GtkTreeIter *child)
{
  iter->stamp = 0;
  return FALSE;
}

static void
etl_event_model_tree_model_init (GtkTreeModelIface *iface)
{
  iface->get_flags = model_get_flags;
  iface->get_n_columns = model_get_n_columns;
  iface->get_column_type = model_get_column_type;
  iface->get_iter = model_get_iter;
  iface->get_path = model_get_path;
  iface->get_value = model_get_value;
  iface->iter_next = model_iter_next;
  iface->iter_previous = model_iter_previous;
  iface->iter_children = model_iter_children;
  iface->iter_has_child = model_iter_has_child;
  iface->iter_n_children = model_iter_n_children;
  iface->iter_nth_child = model_iter_nth_child;
  iface->iter_parent = model_iter_parent;
}

/* GObject ---------------------------------------------------------------- */

static void
etl_event_model_finalize (GObject *object)
{
  EtlEventModel *self = ETL_EVENT_MODEL (object);

  for (guint i = 0; i < CACHE_SIZE; i++)
    cached_row_clear (&self->cache[i]);
  g_free (self->cache);
  for (guint i = 0; i < self->n_providers; i++)
    g_free (self->provider_names[i]);
  g_free (self->provider_names);
  for (guint i = 0; i < self->n_processes; i++)
    g_free (self->process_names[i]);
  g_free (self->process_names);
  g_clear_pointer (&self->processes, etl_process_table_unref);
  g_clear_pointer (&self->rows, etl_row_set_unref);
  g_clear_pointer (&self->trace, etl_trace_unref);
  g_free (self->order);

  G_OBJECT_CLASS (etl_event_model_parent_class)->finalize (object);
}

static void
etl_event_model_class_init (EtlEventModelClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = etl_event_model_finalize;
}

static void
etl_event_model_init (EtlEventModel *self)
{
  self->cache = g_new0 (CachedRow, CACHE_SIZE);
  do
    self->stamp = g_random_int ();
  while (self->stamp == 0);
}

/**
 * etl_event_model_new:
 * @trace: (nullable): a trace; %NULL for an empty model
 * @rows: (nullable): the rows to show; %NULL for every row of @trace
 *
 * Returns: (transfer full): a new model holding references on @trace and @rows
 */
EtlEventModel *
etl_event_model_new (EtlTrace *trace, EtlRowSet *rows)
{
  EtlEventModel *self = g_object_new (ETL_TYPE_EVENT_MODEL, NULL);

  if (trace != NULL)
    {
      self->trace = etl_trace_ref (trace);
      self->n_providers = etl_trace_get_n_providers (trace);
      self->provider_names = g_new0 (char *, self->n_providers + 1);
      self->processes = etl_trace_get_process_table (trace);
      if (self->processes != NULL)
        {
          etl_process_table_ref (self->processes);
          etl_process_table_get_processes (self->processes, &self->n_processes);
        }
      self->process_names = g_new0 (char *, self->n_processes + 1);
    }
  if (rows != NULL && trace != NULL)
    self->rows = etl_row_set_ref (rows);
  else
    self->rows = etl_row_set_new_all (trace != NULL ? etl_trace_get_n_records (trace) : 0);
  return self;
}

/**
 * etl_event_model_new_sorted:
 * @trace: a trace
 * @rows: the rows to show
 * @order: (transfer full) (array): etl_row_set_get_n() positions in @rows,
 *   the display order (etl_event_sort())
 *
 * Returns: (transfer full): a model showing @rows in @order
 */
EtlEventModel *
etl_event_model_new_sorted (EtlTrace *trace, EtlRowSet *rows, guint32 *order)
{
  EtlEventModel *self;

  g_return_val_if_fail (trace != NULL && rows != NULL, NULL);
  self = etl_event_model_new (trace, rows);
  self->order = order;
  return self;
}

/**
 * etl_event_model_set_order:
 * @self: a model
 * @order: (transfer full) (array) (nullable): etl_row_set_get_n() positions
 *   in the model's rows, the display order (etl_event_sort()); %NULL for time
 *   order
 *
 * Shows the rows in @order: the array replaces the former one (freed), in
 * constant time whatever the number of rows.  Formatted rows stay cached
 * (the cache is keyed by trace row).  The model emits no signal: a view
 * showing it must be told (etl_event_page_refresh()).
 */
void
etl_event_model_set_order (EtlEventModel *self, guint32 *order)
{
  g_return_if_fail (ETL_IS_EVENT_MODEL (self));
  g_return_if_fail (order == NULL || self->trace != NULL);

  g_free (self->order);
  self->order = order;
}

/**
 * etl_event_model_get_value_at:
 * @self: a model
 * @position: a position in the model (display order), below
 *   etl_event_model_get_n_rows()
 * @column: an #EtlEventModelColumn
 * @value: (out caller-allocates): an unset #GValue, initialised to the
 *   column's type (string; guint64 for %ETL_EVENT_MODEL_COLUMN_ROW)
 *
 * The value gtk_tree_model_get_value() gives for the row at @position,
 * without a #GtkTreeIter (whose index is an int): the row is formatted once
 * and cached.
 */
void
etl_event_model_get_value_at (EtlEventModel *self, guint64 position, int column, GValue *value)
{
  guint64 row;

  g_return_if_fail (ETL_IS_EVENT_MODEL (self));
  g_return_if_fail (column >= 0 && column < ETL_EVENT_MODEL_N_COLUMNS);

  g_value_init (value, column == ETL_EVENT_MODEL_COLUMN_ROW ? G_TYPE_UINT64 : G_TYPE_STRING);
  if (self->trace == NULL || position >= etl_row_set_get_n (self->rows))
    return;
  row = etl_event_model_get_row (self, position);
  if (column == ETL_EVENT_MODEL_COLUMN_ROW)
    g_value_set_uint64 (value, row);
  else
    g_value_set_string (value, lookup (self, row)->text[column]);
}

/**
 * etl_event_model_get_sorted:
 * @self: a model
 *
 * Returns: whether rows are shown in an order other than time
 */
gboolean
etl_event_model_get_sorted (EtlEventModel *self)
{
  g_return_val_if_fail (ETL_IS_EVENT_MODEL (self), FALSE);
  return self->order != NULL;
}

/**
 * etl_event_model_get_trace:
 * @self: a model
 *
 * Returns: (transfer none) (nullable): the trace
 */
EtlTrace *
etl_event_model_get_trace (EtlEventModel *self)
{
  g_return_val_if_fail (ETL_IS_EVENT_MODEL (self), NULL);
  return self->trace;
}

/**
 * etl_event_model_get_rows:
 * @self: a model
 *
 * Returns: (transfer none): the rows shown
 */
EtlRowSet *
etl_event_model_get_rows (EtlEventModel *self)
{
  g_return_val_if_fail (ETL_IS_EVENT_MODEL (self), NULL);
  return self->rows;
}

/**
 * etl_event_model_get_n_rows:
 * @self: a model
 *
 * Returns: rows in the model
 */
guint64
etl_event_model_get_n_rows (EtlEventModel *self)
{
  g_return_val_if_fail (ETL_IS_EVENT_MODEL (self), 0);
  return etl_row_set_get_n (self->rows);
}

/**
 * etl_event_model_get_row:
 * @self: a model
 * @position: a position in the model
 *
 * Returns: the trace row shown at @position
 */
guint64
etl_event_model_get_row (EtlEventModel *self, guint64 position)
{
  g_return_val_if_fail (ETL_IS_EVENT_MODEL (self), 0);
  if (self->order != NULL)
    return position < etl_row_set_get_n (self->rows) ? etl_row_set_get (self->rows, self->order[position]) : 0;
  return etl_row_set_get (self->rows, position);
}

/**
 * etl_event_model_find_row:
 * @self: a model
 * @row: a row of the trace
 *
 * Returns: the position of the first row ≥ @row (in a sorted model: the
 *   position where that row is shown), or the number of rows
 */
guint64
etl_event_model_find_row (EtlEventModel *self, guint64 row)
{
  guint64 n, at;

  g_return_val_if_fail (ETL_IS_EVENT_MODEL (self), 0);
  at = etl_row_set_find (self->rows, row);
  if (self->order == NULL)
    return at;
  n = etl_row_set_get_n (self->rows);
  if (at >= n)
    return n;
  /* One pass over the order: a few milliseconds on 16 M rows. */
  for (guint64 i = 0; i < n; i++)
    if (self->order[i] == at)
      return i;
  return n;
}

/**
 * etl_event_model_get_n_reads:
 * @self: a model
 *
 * Returns: records read so far (cache misses), for tests and benchmarks
 */
guint
etl_event_model_get_n_reads (EtlEventModel *self)
{
  g_return_val_if_fail (ETL_IS_EVENT_MODEL (self), 0);
  return self->n_reads;
}

/**
 * etl_event_model_invalidate:
 * @self: a model
 *
 * Drops every formatted row, so the next read formats it again: after a
 * manifest was loaded (etl_trace_load_manifest()), event names and payloads
 * change.  The view must redraw (gtk_widget_queue_draw()) to ask again.
 */
void
etl_event_model_invalidate (EtlEventModel *self)
{
  g_return_if_fail (ETL_IS_EVENT_MODEL (self));
  for (guint i = 0; i < CACHE_SIZE; i++)
    cached_row_clear (&self->cache[i]);
}
