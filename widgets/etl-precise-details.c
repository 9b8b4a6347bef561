/* SPDX-License-Identifier: GPL-3.0-or-later */

/**
 * SECTION:etl-precise-details
 * @title: EtlPreciseDetails
 * @short_description: one CPU Usage (Precise) row: its fields and its two stacks
 *
 * The details area below the CPU Usage (Precise) table (#EtlPreciseView).
 * For a switch-in row (#EtlSwitchIn) it shows WPA's columns of the row by
 * name (CPU, New/Readying/Old Process and Thread Id, Switch-In Time, Last
 * Switch-Out Time, Ready, Waits and CPU Usage in µs, New Prev Wait Reason
 * and State, the priorities) in a #GtkGrid, and beside them its two call
 * stacks as frame lists (#GtkTreeView), innermost frame first:
 *
 * - the New Thread Stack: the StackWalk record attached to the CSwitch
 *   that switched the thread in (EtlSwitchIn.record): where the thread had
 *   blocked;
 * - the Ready Thread Stack: the StackWalk attached to the ReadyThread
 *   record that readied it (EtlSwitchIn.ready_record): the readying
 *   thread's stack, or a DPC's when the readying thread is 0.
 *
 * Stacks come from the trace's #EtlStacks (etl_stacks_has_stack(),
 * etl_stacks_dup_symbolized(), as the main window's details pane shows an
 * event's stack); a record without one says "No stack recorded", a row no
 * ReadyThread readied says so instead of a Ready Thread Stack.  For a group
 * row it shows the group's Count and sums; with nothing selected, a hint.
 */

#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include "etl-precise-details.h"

#include <limits.h>
#include <locale.h>
#include <string.h>

#include "etl-cswitch.h"
#include "etl-time-ruler.h"

#define FIELDS_PER_COLUMN ETL_PRECISE_DETAILS_ROWS

typedef struct
{
  GtkLabel *caption;      /* the stack's name, bold */
  GtkLabel *detail;       /* what it is of this row, below */
  char *caption_text;     /* both as one line, for etl_precise_details_get_stack_caption() */
  GtkStack *stack; /* "frames" or "message" */
  GtkTreeView *view;
  GtkListStore *store;
  GtkLabel *message;
} StackPane;

struct _EtlPreciseDetails
{
  GtkBox parent_instance;

  GtkStack *pages; /* "empty" or "shown" */
  GtkLabel *title;
  GtkPaned *split;    /* fields | stacks */
  GtkWidget *left;    /* the title and the fields */
  gboolean split_by_user; /* the user took the split's handle: it stays */
  GtkGrid *grid;
  GHashTable *fields; /* name → its value's GtkLabel (borrowed from the grid) */
  guint n_fields;
  GtkWidget *stacks_box;
  StackPane stacks[2];
};

G_DEFINE_FINAL_TYPE (EtlPreciseDetails, etl_precise_details, GTK_TYPE_BOX)

/* Writes @value's digits before @end, grouped by @grouping (LC_NUMERIC's
 * form: each byte a group size from the right, the last one repeating,
 * CHAR_MAX or 0 ending the grouping) with @sep between groups; returns
 * where they start.  Room before @end: 20 digits and 19 separators of up
 * to 8 bytes. */
static char *
put_grouped (char *end, guint64 value, const char *sep, const char *grouping)
{
  gsize sep_len = MIN (strlen (sep), 8);
  int group = sep_len > 0 && grouping[0] > 0 && grouping[0] != CHAR_MAX ? grouping[0] : 0;
  int in_group = 0;
  char *p = end;

  do
    {
      if (group > 0 && in_group == group)
        {
          p -= sep_len;
          memcpy (p, sep, sep_len);
          in_group = 0;
          if (grouping[1] != '\0')
            {
              grouping++;
              group = *grouping > 0 && *grouping != CHAR_MAX ? *grouping : 0;
            }
        }
      *--p = (char) ('0' + value % 10);
      value /= 10;
      in_group++;
    }
  while (value > 0);
  return p;
}

/**
 * etl_precise_format_grouped_into:
 * @buf: (out caller-allocates): where the text goes, with its NUL
 * @size: @buf's size, at least %ETL_PRECISE_FORMAT_SIZE
 * @value: a number
 * @tenths: 0 to 9 and shown after a "." as one decimal, or -1 for none
 * @negative: whether a "-" goes first
 * @sep: (nullable): the thousands separator (localeconv()'s thousands_sep),
 *   NULL for the locale's
 * @grouping: (nullable): the group sizes (localeconv()'s grouping: a byte a
 *   group from the right, the last repeating, CHAR_MAX ending), NULL for
 *   the locale's
 *
 * Writes @value grouped as printf's ' flag groups it (the C standard's
 * LC_NUMERIC rules), without an allocation: the table formats its visible
 * rows as it draws them, and printf with ' is several times slower.
 *
 * Returns: @buf
 */
char *
etl_precise_format_grouped_into (char *buf, gsize size, guint64 value, int tenths, gboolean negative,
                                 const char *sep, const char *grouping)
{
  char digits[200];
  char *end = digits + sizeof digits - 3;
  char *start;

  g_return_val_if_fail (size >= ETL_PRECISE_FORMAT_SIZE, buf);
  if (sep == NULL || grouping == NULL)
    {
      const struct lconv *lc = localeconv ();

      sep = sep != NULL ? sep : lc->thousands_sep != NULL ? lc->thousands_sep : "";
      grouping = grouping != NULL ? grouping : lc->grouping != NULL ? lc->grouping : "";
    }
  end[0] = '\0';
  if (tenths >= 0)
    {
      end[0] = '.';
      end[1] = (char) ('0' + tenths % 10);
      end[2] = '\0';
    }
  start = put_grouped (end, value, sep, grouping);
  if (negative)
    *--start = '-';
  g_strlcpy (buf, start, size);
  return buf;
}

/**
 * etl_precise_format_us_into:
 * @buf: (out caller-allocates): where the text goes, with its NUL
 * @size: @buf's size, at least %ETL_PRECISE_FORMAT_SIZE
 * @ticks: a duration, 100-ns units
 *
 * Writes @ticks in µs with one decimal and the locale's thousands
 * separators ("3,000.0", etl_precise_format_grouped_into()).
 *
 * Returns: @buf
 */
char *
etl_precise_format_us_into (char *buf, gsize size, gint64 ticks)
{
  guint64 magnitude = ticks < 0 ? (guint64) (-(ticks + 1)) + 1 : (guint64) ticks;

  return etl_precise_format_grouped_into (buf, size, magnitude / 10, (int) (magnitude % 10), ticks < 0, NULL, NULL);
}

/**
 * etl_precise_format_us:
 * @ticks: a duration, 100-ns units
 *
 * Returns: (transfer full): @ticks in µs with one decimal and the locale's
 *   thousands separators ("3,000.0"), as the table shows them
 *   (etl_precise_format_us_into())
 */
char *
etl_precise_format_us (gint64 ticks)
{
  char buf[ETL_PRECISE_FORMAT_SIZE];

  return g_strdup (etl_precise_format_us_into (buf, sizeof buf, ticks));
}

/**
 * etl_precise_format_count_into:
 * @buf: (out caller-allocates): where the text goes, with its NUL
 * @size: @buf's size, at least %ETL_PRECISE_FORMAT_SIZE
 * @count: a count
 *
 * Writes @count with the locale's thousands separators ("1,042").
 *
 * Returns: @buf
 */
char *
etl_precise_format_count_into (char *buf, gsize size, guint64 count)
{
  return etl_precise_format_grouped_into (buf, size, count, -1, FALSE, NULL, NULL);
}

/**
 * etl_precise_format_process:
 * @table: (nullable): the trace's process table
 * @pid: a process id, %ETL_THREAD_STATES_NO_ID when unknown
 * @tid: the thread's id (with @pid 0: 0 is the idle thread, else System)
 * @filetime: when, FILETIME (process ids are reused)
 *
 * Returns: (transfer full): "name.exe (pid)", "Idle (0)", "System (0)" or
 *   "Unknown"
 */
char *
etl_precise_format_process (EtlProcessTable *table, guint32 pid, guint32 tid, gint64 filetime)
{
  if (pid == ETL_THREAD_STATES_NO_ID)
    return g_strdup ("Unknown");
  if (pid == 0)
    return g_strdup (tid == 0 ? "Idle (0)" : "System (0)");
  return etl_process_format_name (table != NULL ? etl_process_table_lookup (table, pid, filetime) : NULL, pid);
}

static void
clear_fields (EtlPreciseDetails *self)
{
  GList *children = gtk_container_get_children (GTK_CONTAINER (self->grid));

  for (GList *l = children; l != NULL; l = l->next)
    gtk_widget_destroy (l->data);
  g_list_free (children);
  g_hash_table_remove_all (self->fields);
  self->n_fields = 0;
}

static void
add_field (EtlPreciseDetails *self, const char *name, const char *value)
{
  GtkWidget *key = gtk_label_new (name);
  GtkWidget *val = gtk_label_new (value);
  int column = (int)(self->n_fields / FIELDS_PER_COLUMN) * 2;
  int row = (int)(self->n_fields % FIELDS_PER_COLUMN);

  gtk_label_set_xalign (GTK_LABEL (key), 1.0);
  gtk_style_context_add_class (gtk_widget_get_style_context (key), "dim-label");
  gtk_label_set_xalign (GTK_LABEL (val), 0.0);
  gtk_label_set_selectable (GTK_LABEL (val), TRUE);
  gtk_label_set_ellipsize (GTK_LABEL (val), PANGO_ELLIPSIZE_END);
  gtk_label_set_width_chars (GTK_LABEL (val), 12);
  gtk_label_set_max_width_chars (GTK_LABEL (val), 36);
  gtk_widget_set_can_focus (val, FALSE); /* selectable, but out of the Tab chain */
  gtk_widget_set_tooltip_text (val, value);
  if (column > 0)
    gtk_widget_set_margin_start (key, 18);
  gtk_grid_attach (self->grid, key, column, row, 1, 1);
  gtk_grid_attach (self->grid, val, column + 1, row, 1, 1);
  gtk_widget_show (key);
  gtk_widget_show (val);
  g_hash_table_insert (self->fields, g_strdup (name), val);
  self->n_fields++;
}

static void
add_field_take (EtlPreciseDetails *self, const char *name, char *value)
{
  add_field (self, name, value);
  g_free (value);
}

static char *
format_time (EtlTrace *trace, gint64 filetime)
{
  return etl_time_format_span (filetime - etl_trace_get_origin (trace));
}

/* "WrAlertByThreadId (37), UserMode"; "unknown" for -1. */
static char *
format_wait_reason (gint reason, gint mode)
{
  const char *name = etl_cswitch_wait_reason_name (reason);
  const char *mode_name = mode == 0 ? "KernelMode" : mode == 1 ? "UserMode" : NULL;

  if (reason < 0)
    return g_strdup ("unknown");
  return g_strdup_printf ("%s (%d)%s%s", name != NULL ? name : "Wait Reason", reason, mode_name != NULL ? ", " : "",
                          mode_name != NULL ? mode_name : "");
}

static char *
format_state (gint state)
{
  const char *name = etl_cswitch_thread_state_name (state);

  if (state < 0)
    return g_strdup ("unknown");
  return g_strdup_printf ("%s (%d)", name != NULL ? name : "State", state);
}

static void
set_caption (StackPane *pane, const char *title, const char *detail)
{
  g_autofree char *markup = g_markup_printf_escaped ("<b>%s</b>", title);

  gtk_label_set_markup (pane->caption, markup);
  gtk_label_set_text (pane->detail, detail != NULL ? detail : "");
  gtk_widget_set_tooltip_text (GTK_WIDGET (pane->detail), detail);
  g_free (pane->caption_text);
  pane->caption_text = detail != NULL ? g_strdup_printf ("%s · %s", title, detail) : g_strdup (title);
}

static void
show_message (StackPane *pane, const char *message)
{
  gtk_list_store_clear (pane->store);
  gtk_label_set_text (pane->message, message);
  gtk_stack_set_visible_child_name (pane->stack, "message");
}

/* Record @index's stack into @pane; "No stack recorded" without one. */
static void
show_stack (StackPane *pane, EtlStacks *stacks, guint64 index)
{
  g_auto (GStrv) frames = NULL;

  if (stacks != NULL && etl_stacks_has_stack (stacks, index))
    frames = etl_stacks_dup_symbolized (stacks, index);
  if (frames == NULL || frames[0] == NULL)
    {
      show_message (pane, "No stack recorded");
      return;
    }
  gtk_tree_view_set_model (pane->view, NULL);
  gtk_list_store_clear (pane->store);
  for (guint f = 0; frames[f] != NULL && f < ETL_STACKS_MAX_FRAMES; f++)
    {
      char index_text[16];

      g_snprintf (index_text, sizeof index_text, "#%u", f);
      gtk_list_store_insert_with_values (pane->store, NULL, -1, ETL_PRECISE_DETAILS_FRAME_INDEX, index_text,
                                         ETL_PRECISE_DETAILS_FRAME_NAME, frames[f], -1);
    }
  gtk_tree_view_set_model (pane->view, GTK_TREE_MODEL (pane->store));
  gtk_stack_set_visible_child_name (pane->stack, "frames");
}

/**
 * etl_precise_details_clear:
 * @self: a details area
 *
 * Shows the hint "select a switch-in" instead of a row.
 */
void
etl_precise_details_clear (EtlPreciseDetails *self)
{
  g_return_if_fail (ETL_IS_PRECISE_DETAILS (self));
  clear_fields (self);
  gtk_label_set_text (self->title, "");
  for (guint i = 0; i < G_N_ELEMENTS (self->stacks); i++)
    show_message (&self->stacks[i], "");
  gtk_stack_set_visible_child_name (self->pages, "empty");
}

/**
 * etl_precise_details_show_row:
 * @self: a details area
 * @trace: the row's trace (times are shown from its origin, processes
 *   named through its process table)
 * @stacks: (nullable): the trace's stacks (etl_stacks_compute()), %NULL
 *   when it has none
 * @row: the switch-in row (copied from)
 *
 * Shows @row's fields and its New Thread Stack (the StackWalk of record
 * @row->record) and Ready Thread Stack (of @row->ready_record).
 */
void
etl_precise_details_show_row (EtlPreciseDetails *self, EtlTrace *trace, EtlStacks *stacks, const EtlSwitchIn *row)
{
  EtlProcessTable *table;
  StackPane *ready = &self->stacks[ETL_PRECISE_STACK_READY];
  g_autofree char *title = NULL;
  g_autofree char *new_process = NULL;
  g_autofree char *when = NULL;

  g_return_if_fail (ETL_IS_PRECISE_DETAILS (self));
  g_return_if_fail (trace != NULL && row != NULL);

  table = etl_trace_get_process_table (trace);
  new_process = etl_precise_format_process (table, row->new_pid, row->new_tid, row->switch_in);
  when = format_time (trace, row->switch_in);
  title = g_strdup_printf ("Thread %u of %s switched in on CPU %u at %s", row->new_tid, new_process, row->cpu, when);
  gtk_label_set_text (self->title, title);

  clear_fields (self);
  add_field_take (self, "CPU", g_strdup_printf ("%u", row->cpu));
  add_field_take (self, "Switch-In Time", format_time (trace, row->switch_in));
  add_field_take (self, "Last Switch-Out Time",
                  row->last_switch_out != 0 ? format_time (trace, row->last_switch_out)
                                            : g_strdup ("— (first seen)"));
  add_field_take (self, "Ready (µs)", etl_precise_format_us (row->ready));
  add_field_take (self, "Waits (µs)", etl_precise_format_us (row->waits));
  add_field_take (self, "CPU Usage (µs)", etl_precise_format_us (row->cpu_usage));
  add_field_take (self, "New Prev Wait Reason",
                  format_wait_reason (row->new_prev_wait_reason, row->new_prev_wait_mode));
  add_field_take (self, "New Prev State", format_state (row->new_prev_state));
  add_field (self, "New Process", new_process);
  add_field_take (self, "New Thread Id", g_strdup_printf ("%u", row->new_tid));
  if (row->readying_tid == ETL_THREAD_STATES_NO_ID)
    {
      add_field (self, "Readying Process", "—");
      add_field (self, "Readying Thread Id", "— (no ReadyThread)");
    }
  else if (row->readying_tid == 0)
    {
      add_field (self, "Readying Process", "DPC / Idle (0)");
      add_field (self, "Readying Thread Id", "0 (a DPC or idle)");
    }
  else
    {
      add_field_take (self, "Readying Process",
                      etl_precise_format_process (table, row->readying_pid, row->readying_tid, row->ready_time));
      add_field_take (self, "Readying Thread Id", g_strdup_printf ("%u", row->readying_tid));
    }
  add_field_take (self, "Old Process", etl_precise_format_process (table, row->old_pid, row->old_tid, row->switch_in));
  add_field_take (self, "Old Thread Id", g_strdup_printf ("%u", row->old_tid));
  add_field_take (self, "New Priority", g_strdup_printf ("%d", row->new_priority));
  add_field_take (self, "Old Priority", g_strdup_printf ("%d", row->old_priority));

  set_caption (&self->stacks[ETL_PRECISE_STACK_NEW], "New Thread Stack",
               "the CSwitch's: where the thread had blocked");
  show_stack (&self->stacks[ETL_PRECISE_STACK_NEW], stacks, row->record);
  if (row->readying_tid == ETL_THREAD_STATES_NO_ID || row->ready_record == G_MAXUINT64)
    {
      set_caption (ready, "Ready Thread Stack", "no ReadyThread");
      show_message (ready, "Not readied by a ReadyThread record since its last switch-out "
                           "(first seen, preempted, or no ReadyThread records): no Ready Thread Stack");
    }
  else
    {
      g_autofree char *detail = NULL;

      if (row->readying_tid == 0)
        detail = g_strdup ("readied from a DPC or idle (thread 0)");
      else
        {
          g_autofree char *process
              = etl_precise_format_process (table, row->readying_pid, row->readying_tid, row->ready_time);

          detail = g_strdup_printf ("readied by thread %u of %s", row->readying_tid, process);
        }
      set_caption (ready, "Ready Thread Stack", detail);
      show_stack (ready, stacks, row->ready_record);
    }
  gtk_widget_show (self->stacks_box);
  gtk_stack_set_visible_child_name (self->pages, "shown");
  /* The fields their natural width, the stacks the rest (the split keeps
   * them their minimum): until the user moves the handle. */
  if (!self->split_by_user)
    {
      int natural = 0;

      gtk_widget_get_preferred_width (self->left, NULL, &natural);
      gtk_paned_set_position (self->split, natural);
    }
}

/**
 * etl_precise_details_show_group:
 * @self: a details area
 * @path: the group's labels from the top, " ▸ "-separated
 * @count: its switch-ins
 * @ready: their Ready, summed, 100-ns units
 * @waits: their Waits, summed, 100-ns units
 * @cpu_usage: their CPU Usage, summed, 100-ns units
 *
 * Shows a group row's sums; a group has no stack.
 */
void
etl_precise_details_show_group (EtlPreciseDetails *self, const char *path, guint64 count, gint64 ready,
                                gint64 waits, gint64 cpu_usage)
{
  g_return_if_fail (ETL_IS_PRECISE_DETAILS (self));
  g_return_if_fail (path != NULL);

  gtk_label_set_text (self->title, path);
  clear_fields (self);
  add_field_take (self, "Count", g_strdup_printf ("%'" G_GUINT64_FORMAT, count));
  add_field_take (self, "Ready (µs)", etl_precise_format_us (ready));
  add_field_take (self, "Waits (µs)", etl_precise_format_us (waits));
  add_field_take (self, "CPU Usage (µs)", etl_precise_format_us (cpu_usage));
  for (guint i = 0; i < G_N_ELEMENTS (self->stacks); i++)
    show_message (&self->stacks[i], "");
  gtk_widget_hide (self->stacks_box);
  gtk_stack_set_visible_child_name (self->pages, "shown");
}

/**
 * etl_precise_details_get_wanted_height:
 * @self: a details area
 *
 * Returns: the height, in pixels, that shows a switch-in's fields without
 *   scrolling (%ETL_PRECISE_DETAILS_ROWS lines of text under the title),
 *   in the widget's font
 */
int
etl_precise_details_get_wanted_height (EtlPreciseDetails *self)
{
  g_autoptr (PangoLayout) layout = NULL;
  int line = 0;

  g_return_val_if_fail (ETL_IS_PRECISE_DETAILS (self), 0);
  layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), "Ag");
  pango_layout_get_pixel_size (layout, NULL, &line);
  /* The rows and the title, the box's spacing, the margins, the pane's
   * frame. */
  return (ETL_PRECISE_DETAILS_ROWS + 1) * (line + 1) + 6 + 6 + 6;
}

/**
 * etl_precise_details_is_empty:
 * @self: a details area
 *
 * Returns: %TRUE when no row is shown (the hint is)
 */
gboolean
etl_precise_details_is_empty (EtlPreciseDetails *self)
{
  g_return_val_if_fail (ETL_IS_PRECISE_DETAILS (self), TRUE);
  return g_strcmp0 (gtk_stack_get_visible_child_name (self->pages), "empty") == 0;
}

/**
 * etl_precise_details_get_title:
 * @self: a details area
 *
 * Returns: (transfer none): the line above the fields ("" when empty)
 */
const char *
etl_precise_details_get_title (EtlPreciseDetails *self)
{
  g_return_val_if_fail (ETL_IS_PRECISE_DETAILS (self), NULL);
  return gtk_label_get_text (self->title);
}

/**
 * etl_precise_details_get_field:
 * @self: a details area
 * @name: a field's name as shown ("Waits (µs)", "Readying Thread Id", …)
 *
 * Returns: (transfer none) (nullable): its value as shown, %NULL when the
 *   field is not shown
 */
const char *
etl_precise_details_get_field (EtlPreciseDetails *self, const char *name)
{
  GtkLabel *label;

  g_return_val_if_fail (ETL_IS_PRECISE_DETAILS (self), NULL);
  label = g_hash_table_lookup (self->fields, name);
  return label != NULL ? gtk_label_get_text (label) : NULL;
}

/**
 * etl_precise_details_get_stack_caption:
 * @self: a details area
 * @which: the stack
 *
 * Returns: (transfer none): the lines above the stack as one line of plain
 *   text ("Ready Thread Stack · readied from a DPC or idle (thread 0)"),
 *   "" before a row is shown
 */
const char *
etl_precise_details_get_stack_caption (EtlPreciseDetails *self, EtlPreciseStack which)
{
  g_return_val_if_fail (ETL_IS_PRECISE_DETAILS (self) && which <= ETL_PRECISE_STACK_READY, NULL);
  return self->stacks[which].caption_text != NULL ? self->stacks[which].caption_text : "";
}

/**
 * etl_precise_details_get_stack_message:
 * @self: a details area
 * @which: the stack
 *
 * Returns: (transfer none) (nullable): the message shown instead of the
 *   frames ("No stack recorded", …), %NULL while frames are shown
 */
const char *
etl_precise_details_get_stack_message (EtlPreciseDetails *self, EtlPreciseStack which)
{
  StackPane *pane;

  g_return_val_if_fail (ETL_IS_PRECISE_DETAILS (self) && which <= ETL_PRECISE_STACK_READY, NULL);
  pane = &self->stacks[which];
  if (g_strcmp0 (gtk_stack_get_visible_child_name (pane->stack), "message") != 0)
    return NULL;
  return gtk_label_get_text (pane->message);
}

/**
 * etl_precise_details_get_stack_view:
 * @self: a details area
 * @which: the stack
 *
 * Returns: (transfer none): the stack's frame list (a #GtkListStore of
 *   #EtlPreciseDetailsFrameColumn, empty when a message shows)
 */
GtkTreeView *
etl_precise_details_get_stack_view (EtlPreciseDetails *self, EtlPreciseStack which)
{
  g_return_val_if_fail (ETL_IS_PRECISE_DETAILS (self) && which <= ETL_PRECISE_STACK_READY, NULL);
  return self->stacks[which].view;
}

static gboolean
on_split_pressed (GtkWidget *split, GdkEventButton *event, EtlPreciseDetails *self)
{
  if (event->window == gtk_paned_get_handle_window (GTK_PANED (split)))
    self->split_by_user = TRUE;
  return GDK_EVENT_PROPAGATE;
}

static GtkWidget *
stack_pane_new (StackPane *pane)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  GtkWidget *scrolled = gtk_scrolled_window_new (NULL, NULL);
  GtkCellRenderer *cell;
  GtkTreeViewColumn *column;

  pane->caption = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (pane->caption, 0.0);
  gtk_label_set_ellipsize (pane->caption, PANGO_ELLIPSIZE_END);
  pane->detail = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (pane->detail, 0.0);
  gtk_label_set_ellipsize (pane->detail, PANGO_ELLIPSIZE_END);
  gtk_style_context_add_class (gtk_widget_get_style_context (GTK_WIDGET (pane->detail)), "dim-label");
  pane->store = gtk_list_store_new (ETL_PRECISE_DETAILS_FRAME_N_COLUMNS, G_TYPE_STRING, G_TYPE_STRING);
  pane->view = GTK_TREE_VIEW (gtk_tree_view_new_with_model (GTK_TREE_MODEL (pane->store)));
  gtk_tree_view_set_headers_visible (pane->view, FALSE);
  gtk_tree_view_set_enable_search (pane->view, TRUE);
  gtk_tree_view_set_search_column (pane->view, ETL_PRECISE_DETAILS_FRAME_NAME);
  gtk_tree_view_set_tooltip_column (pane->view, ETL_PRECISE_DETAILS_FRAME_NAME);
  cell = gtk_cell_renderer_text_new ();
  g_object_set (cell, "xalign", 1.0, NULL);
  gtk_style_context_add_class (gtk_widget_get_style_context (GTK_WIDGET (pane->view)), "monospace");
  column = gtk_tree_view_column_new_with_attributes ("#", cell, "text", ETL_PRECISE_DETAILS_FRAME_INDEX, NULL);
  gtk_tree_view_append_column (pane->view, column);
  cell = gtk_cell_renderer_text_new ();
  g_object_set (cell, "ellipsize", PANGO_ELLIPSIZE_MIDDLE, NULL);
  column = gtk_tree_view_column_new_with_attributes ("Frame", cell, "text", ETL_PRECISE_DETAILS_FRAME_NAME, NULL);
  gtk_tree_view_column_set_expand (column, TRUE);
  gtk_tree_view_append_column (pane->view, column);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_shadow_type (GTK_SCROLLED_WINDOW (scrolled), GTK_SHADOW_IN);
  gtk_container_add (GTK_CONTAINER (scrolled), GTK_WIDGET (pane->view));

  pane->message = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_line_wrap (pane->message, TRUE);
  gtk_label_set_max_width_chars (pane->message, 40);
  gtk_label_set_xalign (pane->message, 0.0);
  gtk_label_set_yalign (pane->message, 0.0);
  gtk_style_context_add_class (gtk_widget_get_style_context (GTK_WIDGET (pane->message)), "dim-label");
  pane->stack = GTK_STACK (gtk_stack_new ());
  gtk_stack_add_named (pane->stack, scrolled, "frames");
  gtk_stack_add_named (pane->stack, GTK_WIDGET (pane->message), "message");
  gtk_widget_set_vexpand (GTK_WIDGET (pane->stack), TRUE);
  gtk_box_pack_start (GTK_BOX (box), GTK_WIDGET (pane->caption), FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (box), GTK_WIDGET (pane->detail), FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (box), GTK_WIDGET (pane->stack), TRUE, TRUE, 0);
  gtk_widget_show_all (box);
  gtk_stack_set_visible_child_name (pane->stack, "message");
  return box;
}

static void
etl_precise_details_finalize (GObject *object)
{
  EtlPreciseDetails *self = ETL_PRECISE_DETAILS (object);

  g_hash_table_unref (self->fields);
  for (guint i = 0; i < G_N_ELEMENTS (self->stacks); i++)
    {
      g_clear_object (&self->stacks[i].store);
      g_clear_pointer (&self->stacks[i].caption_text, g_free);
    }
  G_OBJECT_CLASS (etl_precise_details_parent_class)->finalize (object);
}

static void
etl_precise_details_class_init (EtlPreciseDetailsClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = etl_precise_details_finalize;
  gtk_widget_class_set_css_name (GTK_WIDGET_CLASS (klass), "etlprecisedetails");
}

static void
etl_precise_details_init (EtlPreciseDetails *self)
{
  GtkWidget *hint = gtk_label_new ("Select a switch-in (a row with a Switch-In Time) to see its fields, its New "
                                   "Thread Stack and its Ready Thread Stack; a group shows its sums");
  GtkWidget *shown = gtk_paned_new (GTK_ORIENTATION_HORIZONTAL);
  GtkWidget *left = self->left = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *scrolled = gtk_scrolled_window_new (NULL, NULL);

  self->fields = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  gtk_orientable_set_orientation (GTK_ORIENTABLE (self), GTK_ORIENTATION_VERTICAL);
  g_object_set (self, "margin-start", 8, "margin-end", 8, "margin-top", 4, "margin-bottom", 2, NULL);

  gtk_label_set_line_wrap (GTK_LABEL (hint), TRUE);
  gtk_style_context_add_class (gtk_widget_get_style_context (hint), "dim-label");

  self->title = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->title, 0.0);
  gtk_label_set_ellipsize (self->title, PANGO_ELLIPSIZE_END);
  gtk_label_set_selectable (self->title, TRUE);
  gtk_widget_set_can_focus (GTK_WIDGET (self->title), FALSE);
  gtk_style_context_add_class (gtk_widget_get_style_context (GTK_WIDGET (self->title)), "heading");
  self->grid = GTK_GRID (gtk_grid_new ());
  gtk_grid_set_column_spacing (self->grid, 8);
  gtk_grid_set_row_spacing (self->grid, 0);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_AUTOMATIC, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_propagate_natural_width (GTK_SCROLLED_WINDOW (scrolled), TRUE);
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (scrolled), TRUE);
  gtk_container_add (GTK_CONTAINER (scrolled), GTK_WIDGET (self->grid));
  gtk_widget_set_vexpand (scrolled, TRUE);
  gtk_box_pack_start (GTK_BOX (left), GTK_WIDGET (self->title), FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (left), scrolled, TRUE, TRUE, 0);

  self->stacks_box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  gtk_box_set_homogeneous (GTK_BOX (self->stacks_box), TRUE);
  for (guint i = 0; i < G_N_ELEMENTS (self->stacks); i++)
    gtk_box_pack_start (GTK_BOX (self->stacks_box), stack_pane_new (&self->stacks[i]), TRUE, TRUE, 0);
  gtk_widget_set_size_request (self->stacks_box, 360, -1);
  gtk_widget_set_margin_start (self->stacks_box, 8);

  /* Fields and stacks side by side, resizable: the fields get their width
   * when there is room, the stacks the rest (at least 360 px). */
  self->split = GTK_PANED (shown);
  gtk_paned_pack1 (self->split, left, FALSE, TRUE);
  gtk_paned_pack2 (self->split, self->stacks_box, TRUE, FALSE);
  g_signal_connect (shown, "button-press-event", G_CALLBACK (on_split_pressed), self);

  self->pages = GTK_STACK (gtk_stack_new ());
  gtk_stack_add_named (self->pages, hint, "empty");
  gtk_stack_add_named (self->pages, shown, "shown");
  gtk_box_pack_start (GTK_BOX (self), GTK_WIDGET (self->pages), TRUE, TRUE, 0);
  gtk_widget_show_all (GTK_WIDGET (self));
  gtk_stack_set_visible_child_name (self->pages, "empty");
}

/**
 * etl_precise_details_new:
 *
 * Returns: (transfer floating): a new details area showing the hint
 */
GtkWidget *
etl_precise_details_new (void)
{
  return g_object_new (ETL_TYPE_PRECISE_DETAILS, NULL);
}
