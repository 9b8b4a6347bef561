/* SPDX-License-Identifier: GPL-3.0-or-later */

/**
 * SECTION:etl-event-list
 * @title: EtlEventList
 * @short_description: the scrolling list of events
 *
 * A #GtkTreeView in fixed-height mode showing an #EtlEventPage: the rows of
 * the #EtlEventModel that are on screen, never the whole row set.  Its
 * columns come from one table (columns[]): id, title, model column, width,
 * alignment and what the column sorts by; the header, the column chooser,
 * Copy and sorting all read that table, so a new model column is one more
 * line.  Only the rows on screen are formatted, each from one record read,
 * and showing, filtering or sorting a row set costs the rows on screen
 * whatever its size: GTK's own vertical scrolling needs the view to hold a
 * tree node per row of its model, built on the main thread (seconds and
 * ~48 bytes a row on a 16-million-row trace), which is the reason the
 * vertical scrolling here is our own.
 *
 * The vertical scrollbar is the list's: a #GtkScrollbar over its own
 * #GtkAdjustment whose range is the row set's positions (upper = rows, page
 * = rows that fit), drawn as GTK draws a scrolled window's (an overlay
 * indicator, or a classic scrollbar when overlay scrolling is off).  The
 * tree view sits in a #GtkScrolledWindow that scrolls it horizontally only
 * (vertical policy %GTK_POLICY_EXTERNAL).  The list handles what moves
 * vertically: the mouse wheel and touchpad (smooth deltas), Up, Down, Page
 * Up, Page Down, Home, End (Shift extends the selection, Ctrl moves the
 * cursor alone), Ctrl+A, Ctrl+Shift+A, Ctrl+Space, and clicks (Ctrl
 * toggles a row, Shift selects from the anchor, across pages).  The selection is kept as ranges
 * of positions in the row set's display order and written into the tree
 * view's #GtkTreeSelection for the rows on the page, so it looks as GTK
 * draws it; Copy reads the ranges, so rows off screen are copied too (at
 * most 100,000).  A new filter swaps in a new model; the selected trace row
 * stays selected when the filter keeps it.
 *
 * Clicking a header sorts by that column (again: the other way) in a worker
 * (etl_event_sort_async()); the list stays usable meanwhile, and the
 * worker's permutation is swapped into the model (etl_event_model_set_order())
 * when it is done.  A right click opens the context menu: Copy, Filter to /
 * Exclude this provider, process, thread or event
 * (#EtlEventList::filter-request, applied by the window), Show in Timeline,
 * and the column chooser, also on a right click on a header.
 *
 * When the user selects a row, #EtlEventList::row-selected gives its row in
 * the trace's merged sequence (the cursor's row).  etl_event_list_select_row()
 * selects and centres a row for a selection made elsewhere (the timeline)
 * without emitting the signal, so two views following each other do not
 * loop.
 */

#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include <math.h>
#include <string.h>

#include "etl-event-list.h"

#include "etl-event-page.h"
#include "etl-event-sort.h"
#include "etl-worker.h"

/* Seconds the overlay scrollbar stays after the list last scrolled. */
#define INDICATOR_SECONDS 1

/* Rows copied at most by one Copy (each is one record read). */
#define MAX_COPY_ROWS 100000
/* Rows a Copy formats on the main thread; more go to a worker. */
#define SYNC_COPY_ROWS 2000

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

/* Selected positions [start, end) in display order. */
typedef struct
{
  guint64 start;
  guint64 end;
} Range;

/* How a cursor move changes the selection. */
typedef enum
{
  MOVE_SELECT,  /* the row alone */
  MOVE_EXTEND,  /* anchor to row */
  MOVE_TOGGLE,  /* the row flips, others stay */
  MOVE_CURSOR,  /* the cursor alone moves */
} MoveMode;

struct _EtlEventList
{
  GtkBox parent_instance;

  GtkScrolledWindow *scroller;
  GtkWidget *vscrollbar;
  GtkAdjustment *vadj;       /* 0 … rows, page = rows that fit */
  GtkTreeView *tree_view;
  GtkTreeViewColumn *view_columns[G_N_ELEMENTS (columns)];
  EtlEventPage *page;
  EtlEventModel *model;
  EtlTrace *trace;
  EtlRowSet *rows;

  guint64 offset;            /* position of the top row */
  guint page_rows;           /* rows entirely on screen */
  int row_height;            /* pixels */
  double wheel_rows;         /* smooth scrolling below one row */
  gboolean overlay;          /* the scrollbar is an overlay indicator */
  guint indicator_source;
  guint relayout_source;

  GArray *selection;         /* Range, sorted, disjoint, not touching */
  guint64 cursor;            /* position, or ETL_EVENT_LIST_NO_ROW */
  guint64 anchor;            /* where Shift selects from */
  guint64 selected_row;
  gboolean selecting;        /* etl_event_list_select_row(): no signal */
  gboolean syncing;          /* writing the page's GtkTreeSelection */

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

G_DEFINE_TYPE (EtlEventList, etl_event_list, GTK_TYPE_BOX)

static guint64
n_rows (EtlEventList *self)
{
  return self->model != NULL ? etl_event_model_get_n_rows (self->model) : 0;
}

/* Selection (ranges of positions) ----------------------------------------- */

static Range *
range_at (EtlEventList *self, guint i)
{
  return &g_array_index (self->selection, Range, i);
}

static void
sel_clear (EtlEventList *self)
{
  g_array_set_size (self->selection, 0);
}

/* Adds [@start, @end), merging the ranges it touches. */
static void
sel_add (EtlEventList *self, guint64 start, guint64 end)
{
  guint i = 0, j;

  if (start >= end)
    return;
  while (i < self->selection->len && range_at (self, i)->end < start)
    i++;
  j = i;
  while (j < self->selection->len && range_at (self, j)->start <= end)
    {
      start = MIN (start, range_at (self, j)->start);
      end = MAX (end, range_at (self, j)->end);
      j++;
    }
  if (j > i)
    g_array_remove_range (self->selection, i, j - i);
  g_array_insert_val (self->selection, i, ((Range) { start, end }));
}

/* Removes [@start, @end), splitting a range it falls inside. */
static void
sel_remove (EtlEventList *self, guint64 start, guint64 end)
{
  for (guint i = 0; i < self->selection->len && start < end; i++)
    {
      Range r = *range_at (self, i);

      if (r.end <= start || r.start >= end)
        continue;
      g_array_remove_index (self->selection, i);
      if (r.end > end)
        g_array_insert_val (self->selection, i, ((Range) { end, r.end }));
      if (r.start < start)
        {
          g_array_insert_val (self->selection, i, ((Range) { r.start, start }));
          i++;
        }
      i--;
    }
}

static gboolean
sel_contains (EtlEventList *self, guint64 position)
{
  guint lo = 0, hi = self->selection->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      Range *r = range_at (self, mid);

      if (position < r->start)
        hi = mid;
      else if (position >= r->end)
        lo = mid + 1;
      else
        return TRUE;
    }
  return FALSE;
}

static guint64
sel_count (EtlEventList *self)
{
  guint64 n = 0;

  for (guint i = 0; i < self->selection->len; i++)
    n += range_at (self, i)->end - range_at (self, i)->start;
  return n;
}

/* The row the user works on: the cursor when it is selected, else the
 * first selected row (a trace row). */
static guint64
current_row (EtlEventList *self)
{
  if (self->cursor != ETL_EVENT_LIST_NO_ROW && sel_contains (self, self->cursor))
    return etl_event_model_get_row (self->model, self->cursor);
  if (self->selection->len > 0)
    return etl_event_model_get_row (self->model, range_at (self, 0)->start);
  return ETL_EVENT_LIST_NO_ROW;
}

/* Emits row-selected when the current row changed by the user's hand. */
static void
selection_changed (EtlEventList *self)
{
  guint64 row = current_row (self);

  if (row == self->selected_row)
    return;
  self->selected_row = row;
  if (!self->selecting && row != ETL_EVENT_LIST_NO_ROW)
    g_signal_emit (self, signals[ROW_SELECTED], 0, row);
}

/* The page --------------------------------------------------------------- */

/* Height of a row in pixels: measured once the view laid a row out, else
 * what a line of text in a cell needs. */
static int
measure_row_height (EtlEventList *self)
{
  g_autoptr (GtkCellRenderer) cell = NULL;
  int height = 0, separator = 0;

  if (etl_event_page_get_n_rows (self->page) > 0 && gtk_widget_get_realized (GTK_WIDGET (self->tree_view)))
    {
      g_autoptr (GtkTreePath) path = gtk_tree_path_new_first ();
      GdkRectangle rect = { 0 };

      gtk_tree_view_get_background_area (self->tree_view, path, NULL, &rect);
      if (rect.height > 0)
        return rect.height;
    }
  cell = g_object_ref_sink (gtk_cell_renderer_text_new ());
  g_object_set (cell, "text", "0", NULL);
  gtk_cell_renderer_get_preferred_height (cell, GTK_WIDGET (self->tree_view), NULL, &height);
  gtk_widget_style_get (GTK_WIDGET (self->tree_view), "vertical-separator", &separator, NULL);
  return MAX (height + separator, 1);
}

/* Shows the rows from self->offset in the page, the selection and the
 * cursor in the tree view's selection and cursor. */
static void
show_page (EtlEventList *self)
{
  GtkTreeSelection *selection = gtk_tree_view_get_selection (self->tree_view);
  guint count;

  if (self->page == NULL)
    return;
  self->syncing = TRUE;
  etl_event_page_set_window (self->page, self->offset, self->page_rows + 1);
  count = etl_event_page_get_n_rows (self->page);
  /* The cursor first: gtk_tree_view_set_cursor() selects its row alone.  A
   * row half on screen is not made the view's cursor (the view would
   * scroll itself to show it whole). */
  if (self->cursor != ETL_EVENT_LIST_NO_ROW && self->cursor >= self->offset
      && self->cursor < self->offset + MIN (count, self->page_rows))
    {
      g_autoptr (GtkTreePath) path = gtk_tree_path_new_from_indices ((int) (self->cursor - self->offset), -1);
      g_autoptr (GtkTreePath) now = NULL;

      gtk_tree_view_get_cursor (self->tree_view, &now, NULL);
      if (now == NULL || gtk_tree_path_compare (now, path) != 0)
        gtk_tree_view_set_cursor (self->tree_view, path, NULL, FALSE);
    }
  else
    {
      g_autoptr (GtkTreePath) now = NULL;

      /* The cursor is off screen: the view must have none, or it would draw
       * the focus on whichever row took its place.  GTK has no call to
       * unset it; a view left without rows has none. */
      gtk_tree_view_get_cursor (self->tree_view, &now, NULL);
      if (now != NULL)
        {
          etl_event_page_set_window (self->page, self->offset, 0);
          etl_event_page_set_window (self->page, self->offset, self->page_rows + 1);
        }
    }
  for (guint i = 0; i < count; i++)
    {
      g_autoptr (GtkTreePath) path = gtk_tree_path_new_from_indices ((int) i, -1);

      if (sel_contains (self, self->offset + i))
        gtk_tree_selection_select_path (selection, path);
      else
        gtk_tree_selection_unselect_path (selection, path);
    }
  self->syncing = FALSE;
}

/* Moves the top row to @offset (clamped): the scrollbar follows.  The page
 * is shown by the caller (show_page()). */
static void
set_offset (EtlEventList *self, guint64 offset)
{
  guint64 n = n_rows (self);
  guint64 last = n > self->page_rows ? n - self->page_rows : 0;

  self->offset = MIN (offset, last);
  if ((guint64) gtk_adjustment_get_value (self->vadj) != self->offset)
    gtk_adjustment_set_value (self->vadj, (double) self->offset);
}

/* Scrolls so @position is entirely on screen, as little as needed. */
static void
make_visible (EtlEventList *self, guint64 position)
{
  guint rows = MAX (self->page_rows, 1);

  if (position < self->offset)
    set_offset (self, position);
  else if (position >= self->offset + rows)
    set_offset (self, position - rows + 1);
}

/* The scrollbar's range: the rows, a page of what fits. */
static void
update_adjustment (EtlEventList *self)
{
  guint64 n = n_rows (self);
  double page = (double) MAX (self->page_rows, 1);

  gtk_adjustment_configure (self->vadj, (double) self->offset, 0, (double) MAX (n, 1), 1, MAX (page - 1, 1),
                            MIN (page, (double) MAX (n, 1)));
  set_offset (self, self->offset);
}

/* Fits the page to the tree view's height. */
static void
relayout (EtlEventList *self)
{
  GtkWidget *view = GTK_WIDGET (self->tree_view);
  int x = 0, header = 0, height;
  guint rows;

  if (self->page == NULL || !gtk_widget_get_realized (view))
    return;
  gtk_tree_view_convert_bin_window_to_widget_coords (self->tree_view, 0, 0, &x, &header);
  self->row_height = measure_row_height (self);
  height = gtk_widget_get_allocated_height (view) - header;
  rows = (guint) MAX (height / self->row_height, 1);
  if (rows == self->page_rows)
    return;
  self->page_rows = rows;
  update_adjustment (self);
  show_page (self);
}

static gboolean
relayout_cb (gpointer user_data)
{
  EtlEventList *self = user_data;

  self->relayout_source = 0;
  relayout (self);
  return G_SOURCE_REMOVE;
}

static void
queue_relayout (EtlEventList *self)
{
  if (self->relayout_source == 0)
    self->relayout_source = g_idle_add_full (G_PRIORITY_HIGH_IDLE, relayout_cb, self, NULL);
}

static void
on_view_size_allocate (GtkWidget *widget, GdkRectangle *allocation, EtlEventList *self)
{
  queue_relayout (self);
}

/* The row height is known once the view drew a row: fit the page again
 * when the estimate was off. */
static gboolean
on_view_draw (GtkWidget *widget, cairo_t *cr, EtlEventList *self)
{
  if (self->page != NULL && etl_event_page_get_n_rows (self->page) > 0
      && measure_row_height (self) != self->row_height)
    queue_relayout (self);
  return GDK_EVENT_PROPAGATE;
}

/* The tree view's own vertical adjustment stays at 0: the page is what
 * scrolls.  (GTK scrolls it to show a row half on screen.) */
static void
on_view_vadj_changed (GtkAdjustment *adj, EtlEventList *self)
{
  if (gtk_adjustment_get_value (adj) != 0)
    gtk_adjustment_set_value (adj, 0);
}

/* The overlay scrollbar shows while the list scrolls and under the
 * pointer, as GTK's scrolled windows do. */
static gboolean
indicator_hide_cb (gpointer user_data)
{
  EtlEventList *self = user_data;
  GtkStyleContext *style = gtk_widget_get_style_context (self->vscrollbar);

  self->indicator_source = 0;
  if (gtk_style_context_has_class (style, "hovering") || gtk_style_context_has_class (style, "dragging"))
    return G_SOURCE_REMOVE;
  gtk_widget_set_opacity (self->vscrollbar, 0);
  return G_SOURCE_REMOVE;
}

static void
indicator_show (EtlEventList *self)
{
  if (!self->overlay)
    return;
  gtk_widget_set_opacity (self->vscrollbar, 1);
  g_clear_handle_id (&self->indicator_source, g_source_remove);
  self->indicator_source = g_timeout_add_seconds (INDICATOR_SECONDS, indicator_hide_cb, self);
}

static gboolean
on_scrollbar_crossing (GtkWidget *widget, GdkEventCrossing *event, EtlEventList *self)
{
  GtkStyleContext *style = gtk_widget_get_style_context (self->vscrollbar);

  if (event->type == GDK_ENTER_NOTIFY)
    gtk_style_context_add_class (style, "hovering");
  else if (event->detail != GDK_NOTIFY_INFERIOR)
    gtk_style_context_remove_class (style, "hovering");
  indicator_show (self);
  return GDK_EVENT_PROPAGATE;
}

static gboolean
on_scrollbar_button (GtkWidget *widget, GdkEventButton *event, EtlEventList *self)
{
  GtkStyleContext *style = gtk_widget_get_style_context (self->vscrollbar);

  if (event->type == GDK_BUTTON_PRESS)
    gtk_style_context_add_class (style, "dragging");
  else if (event->type == GDK_BUTTON_RELEASE)
    gtk_style_context_remove_class (style, "dragging");
  indicator_show (self);
  return GDK_EVENT_PROPAGATE;
}

static gboolean
on_view_motion (GtkWidget *widget, GdkEventMotion *event, EtlEventList *self)
{
  indicator_show (self);
  return GDK_EVENT_PROPAGATE;
}

/* The scrollbar moved (dragged, or set_offset()). */
static void
on_vadj_value_changed (GtkAdjustment *adj, EtlEventList *self)
{
  guint64 offset = (guint64) MAX (floor (gtk_adjustment_get_value (adj) + 0.5), 0);

  indicator_show (self);
  if (offset == self->offset)
    return;
  self->offset = offset;
  show_page (self);
}

/* Navigation ------------------------------------------------------------- */

/* Moves the cursor to @position (clamped to the rows), changing the
 * selection as @mode says, scrolls it on screen and tells the window. */
static void
move_cursor (EtlEventList *self, guint64 position, MoveMode mode, gboolean add)
{
  guint64 n = n_rows (self);

  if (n == 0)
    return;
  position = MIN (position, n - 1);
  switch (mode)
    {
    case MOVE_SELECT:
      sel_clear (self);
      sel_add (self, position, position + 1);
      self->anchor = position;
      break;
    case MOVE_EXTEND:
      if (self->anchor == ETL_EVENT_LIST_NO_ROW || self->anchor >= n)
        self->anchor = self->cursor != ETL_EVENT_LIST_NO_ROW && self->cursor < n ? self->cursor : position;
      if (!add)
        sel_clear (self);
      sel_add (self, MIN (self->anchor, position), MAX (self->anchor, position) + 1);
      break;
    case MOVE_TOGGLE:
      if (sel_contains (self, position))
        sel_remove (self, position, position + 1);
      else
        sel_add (self, position, position + 1);
      self->anchor = position;
      break;
    case MOVE_CURSOR:
      break;
    }
  self->cursor = position;
  make_visible (self, position);
  show_page (self);
  selection_changed (self);
}

/* A change of the tree view's selection the list did not make (GTK's own
 * bindings, tests): the page's rows take the tree view's word. */
static void
on_tree_selection_changed (GtkTreeSelection *selection, EtlEventList *self)
{
  guint count = etl_event_page_get_n_rows (self->page);
  g_autoptr (GtkTreePath) cursor = NULL;

  if (self->syncing || self->page == NULL)
    return;
  sel_remove (self, self->offset, self->offset + count);
  for (guint i = 0; i < count; i++)
    {
      g_autoptr (GtkTreePath) path = gtk_tree_path_new_from_indices ((int) i, -1);

      if (gtk_tree_selection_path_is_selected (selection, path))
        sel_add (self, self->offset + i, self->offset + i + 1);
    }
  gtk_tree_view_get_cursor (self->tree_view, &cursor, NULL);
  if (cursor != NULL && (guint) gtk_tree_path_get_indices (cursor)[0] < count)
    self->cursor = self->offset + (guint64) gtk_tree_path_get_indices (cursor)[0];
  selection_changed (self);
}

/* The cursor's position, or the first row shown when there is none. */
static guint64
cursor_or_top (EtlEventList *self)
{
  return self->cursor != ETL_EVENT_LIST_NO_ROW && self->cursor < n_rows (self) ? self->cursor : self->offset;
}

static gboolean
on_key_press (GtkWidget *widget, GdkEventKey *event, EtlEventList *self)
{
  GdkModifierType mods = event->state & gtk_accelerator_get_default_mod_mask ();
  gboolean shift = (mods & GDK_SHIFT_MASK) != 0;
  gboolean ctrl = (mods & GDK_CONTROL_MASK) != 0;
  guint64 n = n_rows (self), from, page = MAX (self->page_rows, 1);
  MoveMode mode = shift ? MOVE_EXTEND : ctrl ? MOVE_CURSOR : MOVE_SELECT;
  guint64 to;

  if (n == 0 || (mods & ~(GDK_SHIFT_MASK | GDK_CONTROL_MASK)) != 0)
    return GDK_EVENT_PROPAGATE;
  from = cursor_or_top (self);
  switch (event->keyval)
    {
    case GDK_KEY_Up:
    case GDK_KEY_KP_Up:
      to = from > 0 ? from - 1 : 0;
      break;
    case GDK_KEY_Down:
    case GDK_KEY_KP_Down:
      to = from + 1;
      break;
    case GDK_KEY_Page_Up:
    case GDK_KEY_KP_Page_Up:
      /* The cursor and the page move by a page. */
      to = from > page ? from - page : 0;
      set_offset (self, self->offset > page ? self->offset - page : 0);
      break;
    case GDK_KEY_Page_Down:
    case GDK_KEY_KP_Page_Down:
      to = MIN (from + page, n - 1);
      set_offset (self, self->offset + page);
      break;
    case GDK_KEY_Home:
    case GDK_KEY_KP_Home:
      to = 0;
      if (mode == MOVE_CURSOR)
        mode = MOVE_SELECT;
      break;
    case GDK_KEY_End:
    case GDK_KEY_KP_End:
      to = n - 1;
      if (mode == MOVE_CURSOR)
        mode = MOVE_SELECT;
      break;
    case GDK_KEY_space:
    case GDK_KEY_KP_Space:
      to = from;
      mode = ctrl ? MOVE_TOGGLE : MOVE_SELECT;
      break;
    case GDK_KEY_a:
    case GDK_KEY_A:
      if (!ctrl)
        return GDK_EVENT_PROPAGATE;
      /* Ctrl+A selects every row, Ctrl+Shift+A none (GTK's bindings would
       * act on the rows on screen alone). */
      sel_clear (self);
      if (!shift)
        sel_add (self, 0, n);
      show_page (self);
      selection_changed (self);
      return GDK_EVENT_STOP;
    default:
      return GDK_EVENT_PROPAGATE;
    }
  move_cursor (self, to, mode, shift && ctrl);
  gtk_widget_grab_focus (GTK_WIDGET (self->tree_view));
  return GDK_EVENT_STOP;
}

/* Wheel and touchpad: rows as far as GTK would scroll pixels
 * (gtk_scrolled_window's step, the page's height to the power 2/3). */
static gboolean
on_scroll (GtkWidget *widget, GdkEventScroll *event, EtlEventList *self)
{
  double dx = 0, dy = 0, step, rows;
  GtkAdjustment *hadj;

  switch (event->direction)
    {
    case GDK_SCROLL_UP:
      dy = -1;
      break;
    case GDK_SCROLL_DOWN:
      dy = 1;
      break;
    case GDK_SCROLL_SMOOTH:
      gdk_event_get_scroll_deltas ((GdkEvent *) event, &dx, &dy);
      break;
    default:
      return GDK_EVENT_PROPAGATE; /* left / right: the scrolled window's */
    }
  if ((event->state & GDK_SHIFT_MASK) != 0 && event->direction != GDK_SCROLL_SMOOTH)
    return GDK_EVENT_PROPAGATE; /* Shift+wheel scrolls sideways */
  hadj = gtk_scrolled_window_get_hadjustment (self->scroller);
  if (dx != 0)
    {
      double hpage = gtk_adjustment_get_page_size (hadj);

      gtk_adjustment_set_value (hadj, gtk_adjustment_get_value (hadj) + dx * pow (MAX (hpage, 1), 2.0 / 3.0));
    }
  if (dy == 0)
    return GDK_EVENT_STOP;
  step = pow (MAX ((double) self->page_rows * self->row_height, 1), 2.0 / 3.0) / MAX (self->row_height, 1);
  self->wheel_rows += dy * step;
  rows = trunc (self->wheel_rows);
  self->wheel_rows -= rows;
  if (rows < 0)
    set_offset (self, self->offset > (guint64) -rows ? self->offset - (guint64) -rows : 0);
  else if (rows > 0)
    set_offset (self, self->offset + (guint64) rows);
  show_page (self);
  return GDK_EVENT_STOP;
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

/* After the rows or their order changed: @row (a trace row) alone is
 * selected and scrolled to when it is shown, else nothing is selected and
 * the list shows its top. */
static void
reselect (EtlEventList *self, guint64 row)
{
  sel_clear (self);
  self->cursor = ETL_EVENT_LIST_NO_ROW;
  self->anchor = ETL_EVENT_LIST_NO_ROW;
  self->selected_row = ETL_EVENT_LIST_NO_ROW;
  self->offset = 0;
  update_adjustment (self);
  if (row != ETL_EVENT_LIST_NO_ROW)
    {
      guint64 position = etl_event_model_find_row (self->model, row);

      if (position < n_rows (self) && etl_event_model_get_row (self->model, position) == row)
        {
          etl_event_list_select_row (self, row);
          return;
        }
    }
  show_page (self);
}

/* Shows @model (new rows), keeping the selected trace row selected. */
static void
swap_model (EtlEventList *self, EtlEventModel *model)
{
  guint64 selected = self->selected_row;

  g_set_object (&self->model, model);
  self->syncing = TRUE;
  etl_event_page_set_model (self->page, model);
  self->syncing = FALSE;
  reselect (self, selected);
  /* A new model turns the header's sort arrows off. */
  update_sort_indicators (self);
}

/* Shows the rows in @order (transfer full; NULL: time order): a pointer
 * swap, whatever the number of rows, and a page redrawn. */
static void
apply_order (EtlEventList *self, guint32 *order)
{
  guint64 selected = self->selected_row;

  etl_event_model_set_order (self->model, order);
  self->syncing = TRUE;
  etl_event_page_refresh (self->page);
  self->syncing = FALSE;
  reselect (self, selected);
  update_sort_indicators (self);
}

static void
on_sort_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr (EtlEventList) self = user_data;
  g_autoptr (GError) error = NULL;
  guint32 *order = etl_event_sort_finish (result, &error);

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
  apply_order (self, order);
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
        apply_order (self, NULL);
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

/* Model columns of the visible columns, in order; returns how many. */
static guint
visible_columns (EtlEventList *self, int *model_columns)
{
  guint n = 0;

  for (guint i = 0; i < G_N_ELEMENTS (columns); i++)
    if (gtk_tree_view_column_get_visible (self->view_columns[i]))
      model_columns[n++] = (int) columns[i].model_column;
  return n;
}

/* The header line: titles of the visible columns. */
static void
append_header (EtlEventList *self, GString *text)
{
  gboolean first = TRUE;

  for (guint i = 0; i < G_N_ELEMENTS (columns); i++)
    if (gtk_tree_view_column_get_visible (self->view_columns[i]))
      {
        g_string_append_printf (text, "%s%s", first ? "" : "\t", columns[i].title);
        first = FALSE;
      }
  g_string_append_c (text, '\n');
}

/* One line: @model_columns of @position of @model, tab-separated. */
static void
append_row_text (EtlEventModel *model, const int *model_columns, guint n_columns, GString *text, guint64 position)
{
  for (guint i = 0; i < n_columns; i++)
    {
      GValue value = G_VALUE_INIT;
      const char *s;

      etl_event_model_get_value_at (model, position, model_columns[i], &value);
      s = g_value_get_string (&value);
      if (i > 0)
        g_string_append_c (text, '\t');
      /* Tabs and line breaks inside a value would break the table. */
      for (const char *c = s != NULL ? s : ""; *c != '\0'; c++)
        g_string_append_c (text, *c == '\t' || *c == '\n' || *c == '\r' ? ' ' : *c);
      g_value_unset (&value);
    }
  g_string_append_c (text, '\n');
}

/**
 * etl_event_list_dup_selection_text:
 * @self: a list
 *
 * The selected rows as tab-separated text: a header line with the titles of
 * the visible columns, then one line per selected row (at most 100,000) in
 * the order shown, on screen or not.  Formats every row on the calling
 * thread; etl_event_list_copy() formats many rows in a worker.
 *
 * Returns: (transfer full): the text; only the header line when nothing is
 *   selected
 */
char *
etl_event_list_dup_selection_text (EtlEventList *self)
{
  g_autoptr (GString) text = g_string_new (NULL);
  int model_columns[G_N_ELEMENTS (columns)];
  guint n_columns, n = 0;

  g_return_val_if_fail (ETL_IS_EVENT_LIST (self), NULL);

  append_header (self, text);
  n_columns = visible_columns (self, model_columns);
  for (guint r = 0; r < self->selection->len && n < MAX_COPY_ROWS; r++)
    for (guint64 p = range_at (self, r)->start; p < range_at (self, r)->end && n < MAX_COPY_ROWS; p++, n++)
      append_row_text (self->model, model_columns, n_columns, text, p);
  return g_string_free (g_steal_pointer (&text), FALSE);
}

/* A Copy of many rows, formatted in a worker. */
typedef struct
{
  EtlTrace *trace;
  GArray *rows;                          /* guint64 trace rows */
  int model_columns[G_N_ELEMENTS (columns)];
  guint n_columns;
  GString *text;                         /* the header line, then the rows */
} CopyJob;

static void
copy_job_free (CopyJob *job)
{
  etl_trace_unref (job->trace);
  g_array_unref (job->rows);
  if (job->text != NULL)
    g_string_free (job->text, TRUE);
  g_free (job);
}

static void
copy_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  CopyJob *job = data;
  /* Its own model (the list's is the main thread's): over every row, so a
   * position is a trace row. */
  g_autoptr (EtlEventModel) model = etl_event_model_new (job->trace, NULL);

  for (guint i = 0; i < job->rows->len; i++)
    append_row_text (model, job->model_columns, job->n_columns, job->text, g_array_index (job->rows, guint64, i));
  g_task_return_pointer (task, g_string_free (g_steal_pointer (&job->text), FALSE), g_free);
}

static void
on_copy_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  EtlEventList *self = ETL_EVENT_LIST (source);
  g_autofree char *text = g_task_propagate_pointer (G_TASK (result), NULL);

  if (text != NULL && gtk_widget_get_realized (GTK_WIDGET (self)))
    gtk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (self), GDK_SELECTION_CLIPBOARD), text, -1);
}

/**
 * etl_event_list_copy:
 * @self: a list
 *
 * Puts etl_event_list_dup_selection_text() on the clipboard (Ctrl+C).  More
 * than 2,000 rows (up to 100,000) are formatted in a worker and the
 * clipboard is set when it is done, so the window never waits for them.
 */
void
etl_event_list_copy (EtlEventList *self)
{
  g_autoptr (GTask) task = NULL;
  CopyJob *job;
  guint n = 0;

  g_return_if_fail (ETL_IS_EVENT_LIST (self));
  if (self->trace == NULL || sel_count (self) <= SYNC_COPY_ROWS)
    {
      g_autofree char *text = etl_event_list_dup_selection_text (self);

      gtk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (self), GDK_SELECTION_CLIPBOARD), text, -1);
      return;
    }
  job = g_new0 (CopyJob, 1);
  job->trace = etl_trace_ref (self->trace);
  job->rows = g_array_sized_new (FALSE, FALSE, sizeof (guint64), (guint) MIN (sel_count (self), MAX_COPY_ROWS));
  job->n_columns = visible_columns (self, job->model_columns);
  job->text = g_string_new (NULL);
  append_header (self, job->text);
  for (guint r = 0; r < self->selection->len && n < MAX_COPY_ROWS; r++)
    for (guint64 p = range_at (self, r)->start; p < range_at (self, r)->end && n < MAX_COPY_ROWS; p++, n++)
      {
        guint64 row = etl_event_model_get_row (self->model, p);

        g_array_append_val (job->rows, row);
      }
  task = g_task_new (self, NULL, on_copy_done, NULL);
  g_task_set_source_tag (task, etl_event_list_copy);
  g_task_set_task_data (task, job, (GDestroyNotify) copy_job_free);
  etl_worker_run (task, copy_thread);
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

/* Clicks on rows: the list selects (Ctrl toggles, Shift extends from the
 * anchor, on screen or not); a right click opens the context menu. */
static gboolean
on_button_press (GtkWidget *widget, GdkEventButton *event, EtlEventList *self)
{
  g_autoptr (GtkTreePath) path = NULL;
  GdkModifierType mods = event->state & gtk_accelerator_get_default_mod_mask ();
  guint64 position;

  if (event->window != gtk_tree_view_get_bin_window (self->tree_view))
    return GDK_EVENT_PROPAGATE;
  if (!gtk_widget_has_focus (GTK_WIDGET (self->tree_view)))
    gtk_widget_grab_focus (GTK_WIDGET (self->tree_view));
  if (!gtk_tree_view_get_path_at_pos (self->tree_view, (int) event->x, (int) event->y, &path, NULL, NULL, NULL))
    return GDK_EVENT_STOP;
  position = self->offset + (guint64) gtk_tree_path_get_indices (path)[0];
  if (position >= n_rows (self))
    return GDK_EVENT_STOP;
  if (gdk_event_triggers_context_menu ((GdkEvent *) event))
    {
      /* A right click outside the selection selects the row first. */
      if (!sel_contains (self, position))
        move_cursor (self, position, MOVE_SELECT, FALSE);
      etl_event_list_popup_menu (self, etl_event_model_get_row (self->model, position), (GdkEvent *) event);
      return GDK_EVENT_STOP;
    }
  if (event->button != GDK_BUTTON_PRIMARY)
    return GDK_EVENT_PROPAGATE;
  if (event->type != GDK_BUTTON_PRESS)
    return GDK_EVENT_STOP;
  if ((mods & GDK_SHIFT_MASK) != 0)
    move_cursor (self, position, MOVE_EXTEND, (mods & GDK_CONTROL_MASK) != 0);
  else if ((mods & GDK_CONTROL_MASK) != 0)
    move_cursor (self, position, MOVE_TOGGLE, FALSE);
  else
    move_cursor (self, position, MOVE_SELECT, FALSE);
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

/* The Event column: the name, then why the record is not decoded, dimmed
 * ("Event(5) — no metadata"; etl_decode_status_label()). */
static void
event_cell_data (GtkTreeViewColumn *col, GtkCellRenderer *cell, GtkTreeModel *model, GtkTreeIter *iter,
                 gpointer data)
{
  g_autofree char *name = NULL;
  g_autofree char *decode = NULL;

  gtk_tree_model_get (model, iter, ETL_EVENT_MODEL_COLUMN_NAME, &name, ETL_EVENT_MODEL_COLUMN_DECODE, &decode, -1);
  if (decode == NULL)
    g_object_set (cell, "text", name, NULL);
  else
    {
      g_autofree char *markup = g_markup_printf_escaped ("%s <span alpha=\"55%%\">— %s</span>",
                                                         name != NULL ? name : "", decode);

      g_object_set (cell, "markup", markup, NULL);
    }
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
  if (c->model_column == ETL_EVENT_MODEL_COLUMN_NAME)
    {
      col = gtk_tree_view_column_new ();
      gtk_tree_view_column_set_title (col, c->title);
      gtk_tree_view_column_pack_start (col, cell, TRUE);
      gtk_tree_view_column_set_cell_data_func (col, cell, event_cell_data, NULL, NULL);
    }
  else
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

  /* Children going away change the selection: nothing to follow now. */
  self->syncing = TRUE;
  g_clear_handle_id (&self->relayout_source, g_source_remove);
  g_clear_handle_id (&self->indicator_source, g_source_remove);
  if (self->sort_cancellable != NULL)
    g_cancellable_cancel (self->sort_cancellable);
  g_clear_object (&self->sort_cancellable);
  g_clear_object (&self->actions);
  g_clear_pointer (&self->trace, etl_trace_unref);
  g_clear_pointer (&self->rows, etl_row_set_unref);

  G_OBJECT_CLASS (etl_event_list_parent_class)->dispose (object);
  g_clear_object (&self->page);
  g_clear_object (&self->model);
  g_clear_object (&self->vadj);
}

static void
etl_event_list_finalize (GObject *object)
{
  EtlEventList *self = ETL_EVENT_LIST (object);

  g_array_unref (self->selection);
  G_OBJECT_CLASS (etl_event_list_parent_class)->finalize (object);
}

static void
etl_event_list_class_init (EtlEventListClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = etl_event_list_dispose;
  object_class->finalize = etl_event_list_finalize;

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

/* Whether GTK draws scrollbars as overlay indicators here (what a
 * GtkScrolledWindow decides: its setting, and GTK_OVERLAY_SCROLLING). */
static gboolean
use_overlay_scrolling (void)
{
  GtkSettings *settings = gtk_settings_get_default ();
  const char *env = g_getenv ("GTK_OVERLAY_SCROLLING");
  gboolean on = TRUE;

  if (env != NULL && strcmp (env, "0") == 0)
    return FALSE;
  if (settings != NULL && g_object_class_find_property (G_OBJECT_GET_CLASS (settings), "gtk-overlay-scrolling") != NULL)
    g_object_get (settings, "gtk-overlay-scrolling", &on, NULL);
  return on;
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

  self->selection = g_array_new (FALSE, FALSE, sizeof (Range));
  self->cursor = ETL_EVENT_LIST_NO_ROW;
  self->anchor = ETL_EVENT_LIST_NO_ROW;
  self->selected_row = ETL_EVENT_LIST_NO_ROW;
  self->popup_row = ETL_EVENT_LIST_NO_ROW;
  self->sort_column = -1;
  self->page_rows = 1;
  self->row_height = 20;
  gtk_orientable_set_orientation (GTK_ORIENTABLE (self), GTK_ORIENTATION_HORIZONTAL);

  self->actions = g_simple_action_group_new ();
  g_action_map_add_action_entries (G_ACTION_MAP (self->actions), entries, G_N_ELEMENTS (entries), self);
  gtk_widget_insert_action_group (GTK_WIDGET (self), "list", G_ACTION_GROUP (self->actions));

  self->tree_view = GTK_TREE_VIEW (gtk_tree_view_new ());
  gtk_tree_view_set_fixed_height_mode (self->tree_view, TRUE);
  gtk_tree_view_set_enable_search (self->tree_view, FALSE);
  gtk_tree_view_set_headers_visible (self->tree_view, TRUE);
  gtk_tree_view_set_grid_lines (self->tree_view, GTK_TREE_VIEW_GRID_LINES_VERTICAL);
  gtk_style_context_add_class (gtk_widget_get_style_context (GTK_WIDGET (self->tree_view)), "event-list");
  gtk_widget_add_events (GTK_WIDGET (self->tree_view), GDK_SCROLL_MASK | GDK_SMOOTH_SCROLL_MASK | GDK_POINTER_MOTION_MASK);

  for (guint i = 0; i < G_N_ELEMENTS (columns); i++)
    add_column (self, i);

  selection = gtk_tree_view_get_selection (self->tree_view);
  gtk_tree_selection_set_mode (selection, GTK_SELECTION_MULTIPLE);
  g_signal_connect_object (selection, "changed", G_CALLBACK (on_tree_selection_changed), self, 0);
  g_signal_connect_object (self->tree_view, "button-press-event", G_CALLBACK (on_button_press), self, 0);
  g_signal_connect_object (self->tree_view, "key-press-event", G_CALLBACK (on_key_press), self, 0);
  g_signal_connect_object (self->tree_view, "scroll-event", G_CALLBACK (on_scroll), self, 0);
  g_signal_connect_object (self->tree_view, "motion-notify-event", G_CALLBACK (on_view_motion), self, 0);
  g_signal_connect_object (self->tree_view, "popup-menu", G_CALLBACK (on_popup_menu), self, 0);
  g_signal_connect_object (self->tree_view, "size-allocate", G_CALLBACK (on_view_size_allocate), self,
                           G_CONNECT_AFTER);
  g_signal_connect_object (self->tree_view, "draw", G_CALLBACK (on_view_draw), self, G_CONNECT_AFTER);

  menu = build_menu ();
  self->popup = gtk_menu_new_from_model (menu);
  gtk_menu_attach_to_widget (GTK_MENU (self->popup), GTK_WIDGET (self), NULL);

  self->model = etl_event_model_new (NULL, NULL);
  self->page = etl_event_page_new ();
  etl_event_page_set_model (self->page, self->model);
  gtk_tree_view_set_model (self->tree_view, GTK_TREE_MODEL (self->page));

  /* The tree view scrolls sideways in a scrolled window; up and down is
   * the list's own scrollbar. */
  self->scroller = GTK_SCROLLED_WINDOW (gtk_scrolled_window_new (NULL, NULL));
  gtk_scrolled_window_set_policy (self->scroller, GTK_POLICY_AUTOMATIC, GTK_POLICY_EXTERNAL);
  gtk_scrolled_window_set_shadow_type (self->scroller, GTK_SHADOW_NONE);
  gtk_widget_set_hexpand (GTK_WIDGET (self->scroller), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (self->scroller), TRUE);
  gtk_container_add (GTK_CONTAINER (self->scroller), GTK_WIDGET (self->tree_view));
  g_signal_connect_object (gtk_scrolled_window_get_vadjustment (self->scroller), "value-changed",
                           G_CALLBACK (on_view_vadj_changed), self, 0);

  self->vadj = g_object_ref_sink (gtk_adjustment_new (0, 0, 1, 1, 1, 1));
  g_signal_connect_object (self->vadj, "value-changed", G_CALLBACK (on_vadj_value_changed), self, 0);
  self->vscrollbar = gtk_scrollbar_new (GTK_ORIENTATION_VERTICAL, self->vadj);
  self->overlay = use_overlay_scrolling ();
  if (self->overlay)
    {
      GtkWidget *overlay = gtk_overlay_new ();

      gtk_style_context_add_class (gtk_widget_get_style_context (self->vscrollbar), "overlay-indicator");
      gtk_widget_set_halign (self->vscrollbar, GTK_ALIGN_END);
      gtk_widget_set_valign (self->vscrollbar, GTK_ALIGN_FILL);
      gtk_widget_set_opacity (self->vscrollbar, 0);
      gtk_widget_add_events (self->vscrollbar, GDK_ENTER_NOTIFY_MASK | GDK_LEAVE_NOTIFY_MASK
                                                   | GDK_BUTTON_PRESS_MASK | GDK_BUTTON_RELEASE_MASK);
      g_signal_connect_object (self->vscrollbar, "enter-notify-event", G_CALLBACK (on_scrollbar_crossing), self, 0);
      g_signal_connect_object (self->vscrollbar, "leave-notify-event", G_CALLBACK (on_scrollbar_crossing), self, 0);
      g_signal_connect_object (self->vscrollbar, "button-press-event", G_CALLBACK (on_scrollbar_button), self, 0);
      g_signal_connect_object (self->vscrollbar, "button-release-event", G_CALLBACK (on_scrollbar_button), self, 0);
      gtk_container_add (GTK_CONTAINER (overlay), GTK_WIDGET (self->scroller));
      gtk_overlay_add_overlay (GTK_OVERLAY (overlay), self->vscrollbar);
      gtk_widget_show_all (overlay);
      gtk_box_pack_start (GTK_BOX (self), overlay, TRUE, TRUE, 0);
    }
  else
    {
      gtk_widget_show_all (GTK_WIDGET (self->scroller));
      gtk_widget_show (self->vscrollbar);
      gtk_box_pack_start (GTK_BOX (self), GTK_WIDGET (self->scroller), TRUE, TRUE, 0);
      gtk_box_pack_start (GTK_BOX (self), self->vscrollbar, FALSE, FALSE, 0);
    }
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
 * #EtlEventList::row-selected) when @rows keeps it.  Costs the rows on
 * screen, whatever the number of @rows (a list sorted by a column sorts the
 * new rows in a worker).
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
 *   in the order shown, on screen or not (g_array_unref())
 */
GArray *
etl_event_list_get_selected_rows (EtlEventList *self)
{
  GArray *rows = g_array_new (FALSE, FALSE, sizeof (guint64));

  g_return_val_if_fail (ETL_IS_EVENT_LIST (self), rows);
  g_array_set_size (rows, 0);
  for (guint r = 0; r < self->selection->len; r++)
    for (guint64 p = range_at (self, r)->start; p < range_at (self, r)->end; p++)
      {
        guint64 row = etl_event_model_get_row (self->model, p);

        g_array_append_val (rows, row);
      }
  return rows;
}

/**
 * etl_event_list_get_n_selected:
 * @self: a list
 *
 * Returns: rows selected, on screen or not
 */
guint64
etl_event_list_get_n_selected (EtlEventList *self)
{
  g_return_val_if_fail (ETL_IS_EVENT_LIST (self), 0);
  return sel_count (self);
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
 * etl_event_list_get_page:
 * @self: a list
 *
 * Returns: (transfer none): the model the tree view shows: the rows on
 *   screen (tests count its calls)
 */
EtlEventPage *
etl_event_list_get_page (EtlEventList *self)
{
  g_return_val_if_fail (ETL_IS_EVENT_LIST (self), NULL);
  return self->page;
}

/**
 * etl_event_list_get_vadjustment:
 * @self: a list
 *
 * Returns: (transfer none): the vertical scrollbar's adjustment: value is
 *   the position of the top row, upper the number of rows, page size the
 *   rows that fit
 */
GtkAdjustment *
etl_event_list_get_vadjustment (EtlEventList *self)
{
  g_return_val_if_fail (ETL_IS_EVENT_LIST (self), NULL);
  return self->vadj;
}

/**
 * etl_event_list_get_visible_range:
 * @self: a list
 * @first: (out) (optional): position (display order) of the top row
 * @last: (out) (optional): position of the last row entirely on screen
 *
 * Returns: %FALSE when the list shows no row
 */
gboolean
etl_event_list_get_visible_range (EtlEventList *self, guint64 *first, guint64 *last)
{
  guint count;

  g_return_val_if_fail (ETL_IS_EVENT_LIST (self), FALSE);
  count = MIN (etl_event_page_get_n_rows (self->page), MAX (self->page_rows, 1));
  if (count == 0)
    return FALSE;
  if (first != NULL)
    *first = self->offset;
  if (last != NULL)
    *last = self->offset + count - 1;
  return TRUE;
}

/**
 * etl_event_list_get_cursor:
 * @self: a list
 *
 * Returns: the cursor's position in the list (display order, 0 = top of the
 *   rows, not the screen), or %ETL_EVENT_LIST_NO_ROW
 */
guint64
etl_event_list_get_cursor (EtlEventList *self)
{
  g_return_val_if_fail (ETL_IS_EVENT_LIST (self), ETL_EVENT_LIST_NO_ROW);
  return self->cursor;
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
  return n_rows (self);
}

/**
 * etl_event_list_select_row:
 * @self: a list
 * @row: a position in the trace's merged sequence
 *
 * Selects @row alone, makes it the cursor and scrolls it to the middle of
 * the list.  When the filter left @row out, the nearest following row shown
 * is selected instead (the last one past the end).  Does not emit
 * #EtlEventList::row-selected.
 */
void
etl_event_list_select_row (EtlEventList *self, guint64 row)
{
  guint64 n, position;
  guint half;

  g_return_if_fail (ETL_IS_EVENT_LIST (self));

  n = n_rows (self);
  if (n == 0)
    return;
  position = MIN (etl_event_model_find_row (self->model, row), n - 1);
  sel_clear (self);
  sel_add (self, position, position + 1);
  self->cursor = position;
  self->anchor = position;
  half = self->page_rows / 2;
  set_offset (self, position > half ? position - half : 0);
  show_page (self);
  self->selecting = TRUE;
  selection_changed (self);
  self->selecting = FALSE;
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
