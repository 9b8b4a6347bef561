/* SPDX-License-Identifier: GPL-3.0-or-later */

/**
 * SECTION:etl-event-list
 * @title: EtlEventList
 * @short_description: the scrolling list of events
 *
 * A #GtkScrolledWindow holding a #GtkTreeView in fixed-height mode over an
 * #EtlEventModel.  Its columns come from one table (columns[]): id, title,
 * model column, width, alignment and what the column sorts by; the header,
 * the column chooser, Copy and sorting all read that table, so a new model
 * column is one more line.  Only the rows on screen are formatted, each from
 * one record read, so the list scrolls through millions of rows as through
 * a hundred.  A new filter swaps in a new model; the selected trace row
 * stays selected when the filter keeps it.
 *
 * Clicking a header sorts by that column (again: the other way) in a worker
 * (etl_event_sort_async()); the list stays usable meanwhile.  Several rows
 * can be selected; Copy (Ctrl+C, action list.copy) puts them on the
 * clipboard as tab-separated text under a header line.  A right click opens
 * the context menu: Copy, Filter to / Exclude this provider, process,
 * thread or event (#EtlEventList::filter-request, applied by the window),
 * Show in Timeline, and the column chooser, also on a right click on a
 * header.
 *
 * When the user selects a row, #EtlEventList::row-selected gives its row in
 * the trace's merged sequence (the cursor's row).  etl_event_list_select_row()
 * selects and centres a row for a selection made elsewhere (the timeline)
 * without emitting the signal, so two views following each other do not
 * loop.
 */

#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include <string.h>

#include "etl-event-list.h"

#include "etl-event-sort.h"

/* Rows copied at most by one Copy (each is one record read). */
#define MAX_COPY_ROWS 100000

/**
 * EtlEventListColumn:
 *
 * One column of the list: everything the header, the column chooser, copy
 * and sorting need.  A new model column is one more line in columns[].
 */
typedef struct
{
  const char *id;        /* key in the state file and action names */
  const char *title;
  EtlEventModelColumn model_column;
  int width;
  gboolean numeric;
  gboolean expand;
  EtlSortKey sort_key;
} EtlEventListColumn;

static const EtlEventListColumn columns[] = {
  { "time", "Time", ETL_EVENT_MODEL_COLUMN_TIME, 104, TRUE, FALSE, ETL_SORT_KEY_TIME },
  { "cpu", "CPU", ETL_EVENT_MODEL_COLUMN_CPU, 44, TRUE, FALSE, ETL_SORT_KEY_CPU },
  { "pid", "PID", ETL_EVENT_MODEL_COLUMN_PID, 60, TRUE, FALSE, ETL_SORT_KEY_PID },
  { "tid", "TID", ETL_EVENT_MODEL_COLUMN_TID, 60, TRUE, FALSE, ETL_SORT_KEY_TID },
  { "provider", "Provider", ETL_EVENT_MODEL_COLUMN_PROVIDER, 190, FALSE, FALSE, ETL_SORT_KEY_PROVIDER },
  { "event", "Event", ETL_EVENT_MODEL_COLUMN_NAME, 180, FALSE, FALSE, ETL_SORT_KEY_EVENT },
  { "process", "Process", ETL_EVENT_MODEL_COLUMN_PROCESS, 160, FALSE, FALSE, ETL_SORT_KEY_TEXT },
  { "opcode", "Id / Opcode", ETL_EVENT_MODEL_COLUMN_OPCODE, 96, TRUE, FALSE, ETL_SORT_KEY_OPCODE },
  { "level", "Level", ETL_EVENT_MODEL_COLUMN_LEVEL, 100, FALSE, FALSE, ETL_SORT_KEY_LEVEL },
  { "size", "Size", ETL_EVENT_MODEL_COLUMN_SIZE, 56, TRUE, FALSE, ETL_SORT_KEY_SIZE },
  /* The rest of the width; PerfView's "Rest". */
  { "payload", "Payload", ETL_EVENT_MODEL_COLUMN_PAYLOAD, 300, FALSE, TRUE, ETL_SORT_KEY_TEXT },
};

/* What the context menu filters by; the list names it, the window applies it. */
static const struct
{
  const char *field;
  const char *label;
} filter_fields[] = {
  { "provider", "provider" },
  { "process", "process" },
  { "thread", "thread" },
  { "event", "event" },
};

struct _EtlEventList
{
  GtkScrolledWindow parent_instance;

  GtkTreeView *tree_view;
  GtkTreeViewColumn *view_columns[G_N_ELEMENTS (columns)];
  EtlEventModel *model;
  EtlTrace *trace;
  EtlRowSet *rows;
  guint64 selected_row;
  gboolean selecting;
  guint rescroll_source;

  /* Sorting: a column of columns[] (-1: time order) and its direction. */
  int sort_column;
  gboolean sort_descending;
  GCancellable *sort_cancellable;

  GSimpleActionGroup *actions;
  GtkWidget *popup;
  guint64 popup_row;
};

enum
{
  ROW_SELECTED,
  FILTER_REQUEST,
  SHOW_IN_TIMELINE,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_TYPE (EtlEventList, etl_event_list, GTK_TYPE_SCROLLED_WINDOW)

/* The row the user works on: the cursor when it is selected, else the
 * first selected row. */
static guint64
current_row (EtlEventList *self)
{
  GtkTreeSelection *selection = gtk_tree_view_get_selection (self->tree_view);
  g_autoptr (GtkTreePath) cursor = NULL;
  GtkTreeIter iter;
  guint64 row = ETL_EVENT_LIST_NO_ROW;

  gtk_tree_view_get_cursor (self->tree_view, &cursor, NULL);
  if (cursor != NULL && gtk_tree_selection_path_is_selected (selection, cursor)
      && gtk_tree_model_get_iter (GTK_TREE_MODEL (self->model), &iter, cursor))
    gtk_tree_model_get (GTK_TREE_MODEL (self->model), &iter, ETL_EVENT_MODEL_COLUMN_ROW, &row, -1);
  else if (gtk_tree_selection_count_selected_rows (selection) > 0)
    {
      GList *paths = gtk_tree_selection_get_selected_rows (selection, NULL);

      if (paths != NULL && gtk_tree_model_get_iter (GTK_TREE_MODEL (self->model), &iter, paths->data))
        gtk_tree_model_get (GTK_TREE_MODEL (self->model), &iter, ETL_EVENT_MODEL_COLUMN_ROW, &row, -1);
      g_list_free_full (paths, (GDestroyNotify) gtk_tree_path_free);
    }
  return row;
}

static void
on_selection_changed (GtkTreeSelection *selection, EtlEventList *self)
{
  guint64 row = current_row (self);

  if (row == self->selected_row)
    return;
  self->selected_row = row;
  if (!self->selecting && row != ETL_EVENT_LIST_NO_ROW)
    g_signal_emit (self, signals[ROW_SELECTED], 0, row);
}

/* A row scrolled to before the tree view measured its rows lands a little
 * off (heights were estimates); scroll once more after the next layout. */
static gboolean
rescroll_cb (gpointer user_data)
{
  EtlEventList *self = user_data;
  g_autoptr (GtkTreePath) path = NULL;

  self->rescroll_source = 0;
  gtk_tree_view_get_cursor (self->tree_view, &path, NULL);
  if (path != NULL)
    {
      GtkAdjustment *adj = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (self->tree_view));
      GdkRectangle rect;
      double value, page;

      /* Rows have one height in fixed-height mode: the row's area is exact. */
      gtk_tree_view_get_background_area (self->tree_view, path, NULL, &rect);
      page = gtk_adjustment_get_page_size (adj);
      value = gtk_adjustment_get_value (adj);
      if (rect.height > 0 && (rect.y < 0 || rect.y + rect.height > page))
        gtk_adjustment_set_value (adj, value + rect.y - (page - rect.height) / 2);
    }
  return G_SOURCE_REMOVE;
}

/* Sorting ---------------------------------------------------------------- */

static void
update_sort_indicators (EtlEventList *self)
{
  for (guint i = 0; i < G_N_ELEMENTS (columns); i++)
    {
      gboolean on = (int) i == self->sort_column;

      gtk_tree_view_column_set_sort_indicator (self->view_columns[i], on);
      if (on)
        gtk_tree_view_column_set_sort_order (self->view_columns[i],
                                             self->sort_descending ? GTK_SORT_DESCENDING : GTK_SORT_ASCENDING);
    }
}

/* Swaps in @model, keeping the selected trace row selected. */
static void
swap_model (EtlEventList *self, EtlEventModel *model)
{
  guint64 selected = self->selected_row;

  self->selecting = TRUE;
  g_set_object (&self->model, model);
  gtk_tree_view_set_model (self->tree_view, GTK_TREE_MODEL (self->model));
  self->selected_row = ETL_EVENT_LIST_NO_ROW;
  self->selecting = FALSE;
  /* A new model turns the header's sort arrows off. */
  update_sort_indicators (self);

  if (selected != ETL_EVENT_LIST_NO_ROW)
    {
      guint64 position = etl_event_model_find_row (self->model, selected);

      if (position < etl_event_model_get_n_rows (self->model)
          && etl_event_model_get_row (self->model, position) == selected)
        etl_event_list_select_row (self, selected);
    }
}

static void
on_sort_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr (EtlEventList) self = user_data;
  g_autoptr (GError) error = NULL;
  guint32 *order = etl_event_sort_finish (result, &error);
  g_autoptr (EtlEventModel) model = NULL;

  if (order == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_warning ("Sorting the event list: %s", error->message);
      if (g_task_get_cancellable (G_TASK (result)) == self->sort_cancellable)
        g_clear_object (&self->sort_cancellable);
      return;
    }
  if (g_task_get_cancellable (G_TASK (result)) != self->sort_cancellable || self->trace == NULL)
    {
      g_free (order);
      return;
    }
  g_clear_object (&self->sort_cancellable);
  gtk_widget_set_sensitive (GTK_WIDGET (self->tree_view), TRUE);
  model = etl_event_model_new_sorted (self->trace, self->rows, order);
  swap_model (self, model);
}

/* Orders the rows shown by the current sort column, in a worker. */
static void
start_sort (EtlEventList *self)
{
  if (self->sort_cancellable != NULL)
    g_cancellable_cancel (self->sort_cancellable);
  g_clear_object (&self->sort_cancellable);
  update_sort_indicators (self);
  if (self->trace == NULL || self->rows == NULL)
    return;

  /* Time order, ascending, is the merged order itself. */
  if (self->sort_column < 0 || (columns[self->sort_column].sort_key == ETL_SORT_KEY_TIME && !self->sort_descending))
    {
      if (etl_event_model_get_sorted (self->model))
        {
          g_autoptr (EtlEventModel) model = etl_event_model_new (self->trace, self->rows);

          swap_model (self, model);
        }
      return;
    }
  self->sort_cancellable = g_cancellable_new ();
  etl_event_sort_async (self->trace, self->rows, columns[self->sort_column].sort_key,
                        columns[self->sort_column].model_column, self->sort_descending, self->sort_cancellable,
                        on_sort_done, g_object_ref (self));
}

static void
on_column_clicked (GtkTreeViewColumn *column, EtlEventList *self)
{
  for (guint i = 0; i < G_N_ELEMENTS (columns); i++)
    if (self->view_columns[i] == column)
      {
        etl_event_list_sort (self, (int) i, (int) i == self->sort_column ? !self->sort_descending : FALSE);
        return;
      }
}

/* Copy ------------------------------------------------------------------- */

static void
append_row_text (EtlEventList *self, GString *text, GtkTreeIter *iter)
{
  gboolean first = TRUE;

  for (guint i = 0; i < G_N_ELEMENTS (columns); i++)
    {
      g_autofree char *value = NULL;

      if (!gtk_tree_view_column_get_visible (self->view_columns[i]))
        continue;
      gtk_tree_model_get (GTK_TREE_MODEL (self->model), iter, columns[i].model_column, &value, -1);
      if (!first)
        g_string_append_c (text, '\t');
      /* Tabs and line breaks inside a value would break the table. */
      for (const char *c = value != NULL ? value : ""; *c != '\0'; c++)
        g_string_append_c (text, *c == '\t' || *c == '\n' || *c == '\r' ? ' ' : *c);
      first = FALSE;
    }
  g_string_append_c (text, '\n');
}

/**
 * etl_event_list_dup_selection_text:
 * @self: a list
 *
 * The selected rows as tab-separated text: a header line with the titles of
 * the visible columns, then one line per selected row (at most 100,000) in
 * the order shown.
 *
 * Returns: (transfer full): the text; only the header line when nothing is
 *   selected
 */
char *
etl_event_list_dup_selection_text (EtlEventList *self)
{
  GtkTreeSelection *selection;
  g_autoptr (GString) text = g_string_new (NULL);
  GList *paths;
  gboolean first = TRUE;
  guint n = 0;

  g_return_val_if_fail (ETL_IS_EVENT_LIST (self), NULL);

  for (guint i = 0; i < G_N_ELEMENTS (columns); i++)
    if (gtk_tree_view_column_get_visible (self->view_columns[i]))
      {
        g_string_append_printf (text, "%s%s", first ? "" : "\t", columns[i].title);
        first = FALSE;
      }
  g_string_append_c (text, '\n');

  selection = gtk_tree_view_get_selection (self->tree_view);
  paths = gtk_tree_selection_get_selected_rows (selection, NULL);
  for (GList *l = paths; l != NULL && n < MAX_COPY_ROWS; l = l->next, n++)
    {
      GtkTreeIter iter;

      if (gtk_tree_model_get_iter (GTK_TREE_MODEL (self->model), &iter, l->data))
        append_row_text (self, text, &iter);
    }
  g_list_free_full (paths, (GDestroyNotify) gtk_tree_path_free);
  return g_string_free (g_steal_pointer (&text), FALSE);
}

/**
 * etl_event_list_copy:
 * @self: a list
 *
 * Puts etl_event_list_dup_selection_text() on the clipboard (Ctrl+C).
 */
void
etl_event_list_copy (EtlEventList *self)
{
  g_autofree char *text = NULL;

  g_return_if_fail (ETL_IS_EVENT_LIST (self));
  text = etl_event_list_dup_selection_text (self);
  gtk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (self), GDK_SELECTION_CLIPBOARD), text, -1);
}

/* Actions and the context menu -------------------------------------------- */

static void
copy_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  etl_event_list_copy (ETL_EVENT_LIST (user_data));
}

static guint64
action_row (EtlEventList *self)
{
  return self->popup_row != ETL_EVENT_LIST_NO_ROW ? self->popup_row : self->selected_row;
}

static void
filter_to_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  EtlEventList *self = user_data;
  guint64 row = action_row (self);

  if (row != ETL_EVENT_LIST_NO_ROW)
    g_signal_emit (self, signals[FILTER_REQUEST], 0, g_variant_get_string (param, NULL), FALSE, row);
}

static void
exclude_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  EtlEventList *self = user_data;
  guint64 row = action_row (self);

  if (row != ETL_EVENT_LIST_NO_ROW)
    g_signal_emit (self, signals[FILTER_REQUEST], 0, g_variant_get_string (param, NULL), TRUE, row);
}

static void
show_in_timeline_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  EtlEventList *self = user_data;
  guint64 row = action_row (self);

  if (row != ETL_EVENT_LIST_NO_ROW)
    g_signal_emit (self, signals[SHOW_IN_TIMELINE], 0, row);
}

static void
column_change_state (GSimpleAction *action, GVariant *state, gpointer user_data)
{
  EtlEventList *self = user_data;
  const char *name = g_action_get_name (G_ACTION (action)) + strlen ("column-");

  for (guint i = 0; i < G_N_ELEMENTS (columns); i++)
    if (g_str_equal (columns[i].id, name))
      gtk_tree_view_column_set_visible (self->view_columns[i], g_variant_get_boolean (state));
  g_simple_action_set_state (action, state);
}

static GMenuModel *
build_menu (void)
{
  GMenu *menu = g_menu_new ();
  g_autoptr (GMenu) copy = g_menu_new ();
  g_autoptr (GMenu) filter_to = g_menu_new ();
  g_autoptr (GMenu) exclude = g_menu_new ();
  g_autoptr (GMenu) view = g_menu_new ();
  g_autoptr (GMenu) chooser = g_menu_new ();

  g_menu_append (copy, "Copy", "list.copy");
  g_menu_append_section (menu, NULL, G_MENU_MODEL (copy));
  for (guint i = 0; i < G_N_ELEMENTS (filter_fields); i++)
    {
      g_autofree char *to = g_strdup_printf ("Filter to This %c%s", g_ascii_toupper (filter_fields[i].label[0]),
                                             filter_fields[i].label + 1);
      g_autofree char *ex = g_strdup_printf ("Exclude This %c%s", g_ascii_toupper (filter_fields[i].label[0]),
                                             filter_fields[i].label + 1);
      g_autofree char *to_action = g_strdup_printf ("list.filter-to::%s", filter_fields[i].field);
      g_autofree char *ex_action = g_strdup_printf ("list.exclude::%s", filter_fields[i].field);

      g_menu_append (filter_to, to, to_action);
      g_menu_append (exclude, ex, ex_action);
    }
  g_menu_append_section (menu, NULL, G_MENU_MODEL (filter_to));
  g_menu_append_section (menu, NULL, G_MENU_MODEL (exclude));
  g_menu_append (view, "Show in Timeline", "list.show-in-timeline");
  for (guint i = 0; i < G_N_ELEMENTS (columns); i++)
    {
      g_autofree char *action = g_strdup_printf ("list.column-%s", columns[i].id);

      g_menu_append (chooser, columns[i].title, action);
    }
  g_menu_append_submenu (view, "Columns", G_MENU_MODEL (chooser));
  g_menu_append_section (menu, NULL, G_MENU_MODEL (view));
  return G_MENU_MODEL (menu);
}

/**
 * etl_event_list_popup_menu:
 * @self: a list
 * @row: the trace row the menu acts on, or %ETL_EVENT_LIST_NO_ROW for the
 *   selected row
 * @event: (nullable): the button event that asked for it
 *
 * Shows the context menu: Copy; Filter to / Exclude this provider, process,
 * thread, event; Show in Timeline; Columns.
 */
void
etl_event_list_popup_menu (EtlEventList *self, guint64 row, const GdkEvent *event)
{
  g_return_if_fail (ETL_IS_EVENT_LIST (self));

  self->popup_row = row;
  if (event != NULL)
    gtk_menu_popup_at_pointer (GTK_MENU (self->popup), event);
  else
    gtk_menu_popup_at_widget (GTK_MENU (self->popup), GTK_WIDGET (self->tree_view), GDK_GRAVITY_CENTER,
                              GDK_GRAVITY_NORTH_WEST, NULL);
}

static gboolean
on_button_press (GtkWidget *widget, GdkEventButton *event, EtlEventList *self)
{
  g_autoptr (GtkTreePath) path = NULL;
  GtkTreeSelection *selection;
  GtkTreeIter iter;
  guint64 row = ETL_EVENT_LIST_NO_ROW;

  if (!gdk_event_triggers_context_menu ((GdkEvent *) event) || event->window != gtk_tree_view_get_bin_window (self->tree_view))
    return GDK_EVENT_PROPAGATE;
  if (!gtk_tree_view_get_path_at_pos (self->tree_view, (int) event->x, (int) event->y, &path, NULL, NULL, NULL))
    return GDK_EVENT_PROPAGATE;
  /* A right click outside the selection selects the row first. */
  selection = gtk_tree_view_get_selection (self->tree_view);
  if (!gtk_tree_selection_path_is_selected (selection, path))
    gtk_tree_view_set_cursor (self->tree_view, path, NULL, FALSE);
  if (gtk_tree_model_get_iter (GTK_TREE_MODEL (self->model), &iter, path))
    gtk_tree_model_get (GTK_TREE_MODEL (self->model), &iter, ETL_EVENT_MODEL_COLUMN_ROW, &row, -1);
  etl_event_list_popup_menu (self, row, (GdkEvent *) event);
  return GDK_EVENT_STOP;
}

static gboolean
on_popup_menu (GtkWidget *widget, EtlEventList *self)
{
  etl_event_list_popup_menu (self, ETL_EVENT_LIST_NO_ROW, NULL);
  return TRUE;
}

static gboolean
on_header_button_press (GtkWidget *button, GdkEventButton *event, EtlEventList *self)
{
  g_autoptr (GMenu) menu = NULL;
  g_autoptr (GMenu) chooser = NULL;
  GtkWidget *popup;

  if (!gdk_event_triggers_context_menu ((GdkEvent *) event))
    return GDK_EVENT_PROPAGATE;
  /* The header's menu: the column chooser alone. */
  chooser = g_menu_new ();
  for (guint i = 0; i < G_N_ELEMENTS (columns); i++)
    {
      g_autofree char *action = g_strdup_printf ("list.column-%s", columns[i].id);

      g_menu_append (chooser, columns[i].title, action);
    }
  popup = gtk_menu_new_from_model (G_MENU_MODEL (chooser));
  gtk_menu_attach_to_widget (GTK_MENU (popup), GTK_WIDGET (self), NULL);
  g_signal_connect (popup, "deactivate", G_CALLBACK (gtk_widget_destroy), NULL);
  gtk_menu_popup_at_pointer (GTK_MENU (popup), (GdkEvent *) event);
  return GDK_EVENT_STOP;
}

static void
add_column (EtlEventList *self, guint i)
{
  const EtlEventListColumn *c = &columns[i];
  GtkCellRenderer *cell = gtk_cell_renderer_text_new ();
  GtkTreeViewColumn *col;
  GtkWidget *button;

  g_object_set (cell, "ellipsize", c->numeric ? PANGO_ELLIPSIZE_NONE : PANGO_ELLIPSIZE_END, "xalign",
                c->numeric ? 1.0 : 0.0, "single-paragraph-mode", TRUE, NULL);
  col = gtk_tree_view_column_new_with_attributes (c->title, cell, "text", c->model_column, NULL);
  gtk_tree_view_column_set_sizing (col, GTK_TREE_VIEW_COLUMN_FIXED);
  gtk_tree_view_column_set_fixed_width (col, c->width);
  gtk_tree_view_column_set_resizable (col, TRUE);
  gtk_tree_view_column_set_expand (col, c->expand);
  gtk_tree_view_column_set_reorderable (col, TRUE);
  if (c->numeric)
    gtk_tree_view_column_set_alignment (col, 1.0);
  if (c->sort_key != ETL_SORT_KEY_NONE)
    {
      gtk_tree_view_column_set_clickable (col, TRUE);
      g_signal_connect_object (col, "clicked", G_CALLBACK (on_column_clicked), self, 0);
    }
  gtk_tree_view_append_column (self->tree_view, col);
  self->view_columns[i] = col;
  button = gtk_tree_view_column_get_button (col);
  if (button != NULL)
    g_signal_connect_object (button, "button-press-event", G_CALLBACK (on_header_button_press), self, 0);
  {
    g_autofree char *name = g_strdup_printf ("column-%s", c->id);
    g_autoptr (GSimpleAction) action = g_simple_action_new_stateful (name, NULL, g_variant_new_boolean (TRUE));

    g_signal_connect_object (action, "change-state", G_CALLBACK (column_change_state), self, 0);
    g_action_map_add_action (G_ACTION_MAP (self->actions), G_ACTION (action));
  }
}

static void
etl_event_list_dispose (GObject *object)
{
  EtlEventList *self = ETL_EVENT_LIST (object);

  g_clear_handle_id (&self->rescroll_source, g_source_remove);
  if (self->sort_cancellable != NULL)
    g_cancellable_cancel (self->sort_cancellable);
  g_clear_object (&self->sort_cancellable);
  g_clear_object (&self->model);
  g_clear_object (&self->actions);
  g_clear_pointer (&self->trace, etl_trace_unref);
  g_clear_pointer (&self->rows, etl_row_set_unref);

  G_OBJECT_CLASS (etl_event_list_parent_class)->dispose (object);
}

static void
etl_event_list_class_init (EtlEventListClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = etl_event_list_dispose;

  /**
   * EtlEventList::row-selected:
   * @self: the list
   * @row: the selected row, a position in the trace's merged sequence
   *
   * The user selected a row (click or keyboard).  Not emitted for
   * etl_event_list_select_row().
   */
  signals[ROW_SELECTED] = g_signal_new ("row-selected", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                                        NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT64);

  /**
   * EtlEventList::filter-request:
   * @self: the list
   * @field: "provider", "process", "thread" or "event"
   * @exclude: %TRUE to leave out rows with @row's value, %FALSE to keep only them
   * @row: the row whose value to use, a position in the trace's merged sequence
   *
   * The context menu asked to filter to (or exclude) a row's provider,
   * process, thread or event.  The window owns the filter and applies it.
   */
  signals[FILTER_REQUEST] = g_signal_new ("filter-request", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                                          NULL, NULL, G_TYPE_NONE, 3, G_TYPE_STRING, G_TYPE_BOOLEAN, G_TYPE_UINT64);

  /**
   * EtlEventList::show-in-timeline:
   * @self: the list
   * @row: the row, a position in the trace's merged sequence
   *
   * The context menu asked to show @row in the timeline.
   */
  signals[SHOW_IN_TIMELINE] = g_signal_new ("show-in-timeline", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                            NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT64);

  gtk_widget_class_set_css_name (GTK_WIDGET_CLASS (klass), "etleventlist");
}

static void
etl_event_list_init (EtlEventList *self)
{
  static const GActionEntry entries[] = {
    { "copy", copy_action },
    { "filter-to", filter_to_action, "s" },
    { "exclude", exclude_action, "s" },
    { "show-in-timeline", show_in_timeline_action },
  };
  GtkTreeSelection *selection;
  g_autoptr (GMenuModel) menu = NULL;

  self->selected_row = ETL_EVENT_LIST_NO_ROW;
  self->popup_row = ETL_EVENT_LIST_NO_ROW;
  self->sort_column = -1;
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (self), GTK_POLICY_AUTOMATIC, GTK_POLICY_ALWAYS);
  gtk_scrolled_window_set_shadow_type (GTK_SCROLLED_WINDOW (self), GTK_SHADOW_NONE);

  self->actions = g_simple_action_group_new ();
  g_action_map_add_action_entries (G_ACTION_MAP (self->actions), entries, G_N_ELEMENTS (entries), self);
  gtk_widget_insert_action_group (GTK_WIDGET (self), "list", G_ACTION_GROUP (self->actions));

  self->tree_view = GTK_TREE_VIEW (gtk_tree_view_new ());
  gtk_tree_view_set_fixed_height_mode (self->tree_view, TRUE);
  gtk_tree_view_set_enable_search (self->tree_view, FALSE);
  gtk_tree_view_set_headers_visible (self->tree_view, TRUE);
  gtk_tree_view_set_grid_lines (self->tree_view, GTK_TREE_VIEW_GRID_LINES_VERTICAL);
  gtk_style_context_add_class (gtk_widget_get_style_context (GTK_WIDGET (self->tree_view)), "event-list");

  for (guint i = 0; i < G_N_ELEMENTS (columns); i++)
    add_column (self, i);

  selection = gtk_tree_view_get_selection (self->tree_view);
  gtk_tree_selection_set_mode (selection, GTK_SELECTION_MULTIPLE);
  g_signal_connect_object (selection, "changed", G_CALLBACK (on_selection_changed), self, 0);
  g_signal_connect_object (self->tree_view, "button-press-event", G_CALLBACK (on_button_press), self, 0);
  g_signal_connect_object (self->tree_view, "popup-menu", G_CALLBACK (on_popup_menu), self, 0);

  menu = build_menu ();
  self->popup = gtk_menu_new_from_model (menu);
  gtk_menu_attach_to_widget (GTK_MENU (self->popup), GTK_WIDGET (self), NULL);

  self->model = etl_event_model_new (NULL, NULL);
  gtk_tree_view_set_model (self->tree_view, GTK_TREE_MODEL (self->model));

  gtk_widget_show (GTK_WIDGET (self->tree_view));
  gtk_container_add (GTK_CONTAINER (self), GTK_WIDGET (self->tree_view));
}

/**
 * etl_event_list_new:
 *
 * Returns: (transfer floating): a new, empty event list
 */
GtkWidget *
etl_event_list_new (void)
{
  return g_object_new (ETL_TYPE_EVENT_LIST, NULL);
}

/**
 * etl_event_list_set_rows:
 * @self: a list
 * @trace: (nullable): the trace; %NULL empties the list
 * @rows: (nullable): the rows to show (a filter's result); %NULL for all
 *
 * Shows @rows of @trace.  The selected row stays selected (without
 * #EtlEventList::row-selected) when @rows keeps it.
 */
void
etl_event_list_set_rows (EtlEventList *self, EtlTrace *trace, EtlRowSet *rows)
{
  g_autoptr (EtlEventModel) model = NULL;

  g_return_if_fail (ETL_IS_EVENT_LIST (self));

  if (self->trace != trace)
    self->selected_row = ETL_EVENT_LIST_NO_ROW;
  g_clear_pointer (&self->trace, etl_trace_unref);
  g_clear_pointer (&self->rows, etl_row_set_unref);
  if (trace != NULL)
    {
      self->trace = etl_trace_ref (trace);
      self->rows = rows != NULL ? etl_row_set_ref (rows) : etl_row_set_new_all (etl_trace_get_n_records (trace));
    }
  model = etl_event_model_new (trace, self->rows);
  swap_model (self, model);
  /* The new rows in the current sort order, when there is one. */
  start_sort (self);
}

/**
 * etl_event_list_refresh:
 * @self: a list
 *
 * Formats the rows shown again (etl_event_model_invalidate()), after the
 * trace's schemas changed (File ▸ Load Manifest…): event names, processes
 * and payloads may read differently.  A list sorted by a text column is
 * sorted again in a worker.
 */
void
etl_event_list_refresh (EtlEventList *self)
{
  g_return_if_fail (ETL_IS_EVENT_LIST (self));

  etl_event_model_invalidate (self->model);
  gtk_widget_queue_draw (GTK_WIDGET (self->tree_view));
  if (self->sort_column >= 0
      && (columns[self->sort_column].sort_key == ETL_SORT_KEY_EVENT
          || columns[self->sort_column].sort_key == ETL_SORT_KEY_TEXT))
    start_sort (self);
}

/**
 * etl_event_list_sort:
 * @self: a list
 * @column: a column, by its place among the list's columns (0 = Time), or
 *   -1 for time order
 * @descending: largest first
 *
 * Orders the rows by @column in a worker (the list stays usable and shows
 * the rows in their former order until the sort is done; see
 * etl_event_list_get_sorting()).  Clicking a column header does this.
 */
void
etl_event_list_sort (EtlEventList *self, int column, gboolean descending)
{
  g_return_if_fail (ETL_IS_EVENT_LIST (self));
  g_return_if_fail (column < (int) G_N_ELEMENTS (columns));

  self->sort_column = column;
  self->sort_descending = descending;
  start_sort (self);
}

/**
 * etl_event_list_get_sorting:
 * @self: a list
 *
 * Returns: whether a sort is running
 */
gboolean
etl_event_list_get_sorting (EtlEventList *self)
{
  g_return_val_if_fail (ETL_IS_EVENT_LIST (self), FALSE);
  return self->sort_cancellable != NULL;
}

/**
 * etl_event_list_get_sort_column:
 * @self: a list
 * @descending: (out) (optional): largest first
 *
 * Returns: the sort column (its place among the columns), -1 for time order
 */
int
etl_event_list_get_sort_column (EtlEventList *self, gboolean *descending)
{
  g_return_val_if_fail (ETL_IS_EVENT_LIST (self), -1);
  if (descending != NULL)
    *descending = self->sort_descending;
  return self->sort_column;
}

/**
 * etl_event_list_get_n_columns:
 * @self: a list
 *
 * Returns: columns the list has (shown or hidden)
 */
guint
etl_event_list_get_n_columns (EtlEventList *self)
{
  return G_N_ELEMENTS (columns);
}

/**
 * etl_event_list_get_column_id:
 * @self: a list
 * @column: a column, by its place
 *
 * Returns: (transfer none): the column's id ("time", "cpu", "pid", …), used
 *   in the state file
 */
const char *
etl_event_list_get_column_id (EtlEventList *self, guint column)
{
  g_return_val_if_fail (column < G_N_ELEMENTS (columns), NULL);
  return columns[column].id;
}

/**
 * etl_event_list_dup_hidden_columns:
 * @self: a list
 *
 * Returns: (transfer full): ids of the hidden columns (g_strfreev())
 */
char **
etl_event_list_dup_hidden_columns (EtlEventList *self)
{
  GPtrArray *ids = g_ptr_array_new ();

  g_return_val_if_fail (ETL_IS_EVENT_LIST (self), NULL);
  for (guint i = 0; i < G_N_ELEMENTS (columns); i++)
    if (!gtk_tree_view_column_get_visible (self->view_columns[i]))
      g_ptr_array_add (ids, g_strdup (columns[i].id));
  g_ptr_array_add (ids, NULL);
  return (char **) g_ptr_array_free (ids, FALSE);
}

/**
 * etl_event_list_set_column_visible:
 * @self: a list
 * @id: a column id (etl_event_list_get_column_id()); unknown ids are ignored
 * @visible: show or hide it
 *
 * What the column chooser (Columns in the context menu, or a right click on
 * a header) does.
 */
void
etl_event_list_set_column_visible (EtlEventList *self, const char *id, gboolean visible)
{
  g_autofree char *name = NULL;

  g_return_if_fail (ETL_IS_EVENT_LIST (self));
  name = g_strdup_printf ("column-%s", id);
  if (g_action_map_lookup_action (G_ACTION_MAP (self->actions), name) != NULL)
    g_action_group_change_action_state (G_ACTION_GROUP (self->actions), name, g_variant_new_boolean (visible));
}

/**
 * etl_event_list_get_selected_rows:
 * @self: a list
 *
 * Returns: (transfer full) (element-type guint64): the selected trace rows,
 *   in the order shown (g_array_unref())
 */
GArray *
etl_event_list_get_selected_rows (EtlEventList *self)
{
  GArray *rows = g_array_new (FALSE, FALSE, sizeof (guint64));
  GList *paths;

  g_return_val_if_fail (ETL_IS_EVENT_LIST (self), rows);
  paths = gtk_tree_selection_get_selected_rows (gtk_tree_view_get_selection (self->tree_view), NULL);
  for (GList *l = paths; l != NULL; l = l->next)
    {
      guint64 row = etl_event_model_get_row (self->model, (guint64) gtk_tree_path_get_indices (l->data)[0]);

      g_array_append_val (rows, row);
    }
  g_list_free_full (paths, (GDestroyNotify) gtk_tree_path_free);
  return rows;
}

/**
 * etl_event_list_get_popup:
 * @self: a list
 *
 * Returns: (transfer none): the context menu (tests, screenshots)
 */
GtkWidget *
etl_event_list_get_popup (EtlEventList *self)
{
  g_return_val_if_fail (ETL_IS_EVENT_LIST (self), NULL);
  return self->popup;
}

/**
 * etl_event_list_get_model:
 * @self: a list
 *
 * Returns: (transfer none): the model shown
 */
EtlEventModel *
etl_event_list_get_model (EtlEventList *self)
{
  g_return_val_if_fail (ETL_IS_EVENT_LIST (self), NULL);
  return self->model;
}

/**
 * etl_event_list_get_tree_view:
 * @self: a list
 *
 * Returns: (transfer none): the tree view inside
 */
GtkTreeView *
etl_event_list_get_tree_view (EtlEventList *self)
{
  g_return_val_if_fail (ETL_IS_EVENT_LIST (self), NULL);
  return self->tree_view;
}

/**
 * etl_event_list_get_n_rows:
 * @self: a list
 *
 * Returns: rows in the list
 */
guint64
etl_event_list_get_n_rows (EtlEventList *self)
{
  g_return_val_if_fail (ETL_IS_EVENT_LIST (self), 0);
  return etl_event_model_get_n_rows (self->model);
}

/**
 * etl_event_list_select_row:
 * @self: a list
 * @row: a position in the trace's merged sequence
 *
 * Selects @row and scrolls it to the middle of the list.  When the filter
 * left @row out, the nearest following row shown is selected instead (the
 * last one past the end).  Does not emit #EtlEventList::row-selected.
 */
void
etl_event_list_select_row (EtlEventList *self, guint64 row)
{
  guint64 n, position;
  g_autoptr (GtkTreePath) path = NULL;

  g_return_if_fail (ETL_IS_EVENT_LIST (self));

  n = etl_event_model_get_n_rows (self->model);
  if (n == 0)
    return;
  position = MIN (etl_event_model_find_row (self->model, row), n - 1);
  gtk_tree_selection_unselect_all (gtk_tree_view_get_selection (self->tree_view));
  if (position > (guint64) G_MAXINT)
    return;
  path = gtk_tree_path_new_from_indices ((int) position, -1);

  self->selecting = TRUE;
  gtk_tree_view_set_cursor (self->tree_view, path, NULL, FALSE);
  gtk_tree_view_scroll_to_cell (self->tree_view, path, NULL, TRUE, 0.5, 0.0);
  self->selecting = FALSE;
  if (self->rescroll_source == 0)
    self->rescroll_source = g_timeout_add (50, rescroll_cb, self);
}

/**
 * etl_event_list_get_selected_row:
 * @self: a list
 *
 * Returns: the selected row (a position in the trace's merged sequence), or
 *   %ETL_EVENT_LIST_NO_ROW
 */
guint64
etl_event_list_get_selected_row (EtlEventList *self)
{
  g_return_val_if_fail (ETL_IS_EVENT_LIST (self), ETL_EVENT_LIST_NO_ROW);
  return self->selected_row;
}
