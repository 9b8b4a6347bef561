/* SPDX-License-Identifier: GPL-3.0-or-later */

/**
 * SECTION:etl-filter-bar
 * @title: EtlFilterBar
 * @short_description: the filter entries above the event list
 *
 * Four entries — provider (name or GUID substring), PID, TID and free text
 * (provider or event name) — and an "N of M rows" count.  Typing restarts a
 * short debounce (#EtlFilterBar:debounce-ms, 250 ms); when it runs out the
 * bar emits #EtlFilterBar::changed with the new filter, unless it equals the
 * last one emitted.  Enter applies at once.  A PID or TID that is not a
 * number (decimal or 0x hex) marks its entry with the "error" style class and
 * is ignored.
 */

#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include <stdlib.h>

#include "etl-filter-bar.h"

#define DEFAULT_DEBOUNCE_MS 250

struct _EtlFilterBar
{
  GtkBox parent_instance;

  GtkEntry *provider_entry;
  GtkEntry *pid_entry;
  GtkEntry *tid_entry;
  GtkEntry *text_entry;
  GtkLabel *count_label;
  GtkSpinner *spinner;

  EtlFilter *last;
  guint debounce_ms;
  guint debounce_source;
  gboolean setting;
};

enum
{
  PROP_0,
  PROP_DEBOUNCE_MS,
  N_PROPS
};

enum
{
  CHANGED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

G_DEFINE_TYPE (EtlFilterBar, etl_filter_bar, GTK_TYPE_BOX)

static gboolean
parse_id (GtkEntry *entry, gboolean *has, guint32 *value)
{
  const char *text = gtk_entry_get_text (entry);
  g_autofree char *trimmed = g_strstrip (g_strdup (text));
  GtkStyleContext *style = gtk_widget_get_style_context (GTK_WIDGET (entry));
  char *end = NULL;
  guint64 v;

  *has = FALSE;
  *value = 0;
  gtk_style_context_remove_class (style, "error");
  if (trimmed[0] == '\0')
    return TRUE;
  v = g_ascii_strtoull (trimmed, &end, 0);
  if (end == trimmed || *end != '\0' || v > G_MAXUINT32 || trimmed[0] == '-')
    {
      gtk_style_context_add_class (style, "error");
      return FALSE;
    }
  *has = TRUE;
  *value = (guint32) v;
  return TRUE;
}

/**
 * etl_filter_bar_get_filter:
 * @self: a filter bar
 *
 * Returns: (transfer full): the filter the entries describe now
 */
EtlFilter *
etl_filter_bar_get_filter (EtlFilterBar *self)
{
  EtlFilter *filter;
  g_autofree char *provider = NULL;
  g_autofree char *text = NULL;

  g_return_val_if_fail (ETL_IS_FILTER_BAR (self), NULL);

  filter = etl_filter_new ();
  provider = g_strstrip (g_strdup (gtk_entry_get_text (self->provider_entry)));
  text = g_strstrip (g_strdup (gtk_entry_get_text (self->text_entry)));
  if (provider[0] != '\0')
    filter->provider = g_steal_pointer (&provider);
  if (text[0] != '\0')
    filter->text = g_steal_pointer (&text);
  parse_id (self->pid_entry, &filter->has_pid, &filter->pid);
  parse_id (self->tid_entry, &filter->has_tid, &filter->tid);
  return filter;
}

static void
apply_now (EtlFilterBar *self)
{
  g_autoptr (EtlFilter) filter = etl_filter_bar_get_filter (self);

  g_clear_handle_id (&self->debounce_source, g_source_remove);
  if (self->last != NULL && etl_filter_equal (filter, self->last))
    return;
  etl_filter_free (self->last);
  self->last = etl_filter_copy (filter);
  g_signal_emit (self, signals[CHANGED], 0, filter);
}

static gboolean
debounce_cb (gpointer user_data)
{
  EtlFilterBar *self = user_data;

  self->debounce_source = 0;
  apply_now (self);
  return G_SOURCE_REMOVE;
}

static void
on_entry_changed (GtkEditable *editable, EtlFilterBar *self)
{
  if (self->setting)
    return;
  g_clear_handle_id (&self->debounce_source, g_source_remove);
  self->debounce_source = g_timeout_add (self->debounce_ms, debounce_cb, self);
}

static void
on_entry_activate (GtkEntry *entry, EtlFilterBar *self)
{
  apply_now (self);
}

static GtkEntry *
add_entry (EtlFilterBar *self, const char *placeholder, const char *tooltip, int width_chars, gboolean expand)
{
  GtkEntry *entry = GTK_ENTRY (gtk_search_entry_new ());

  gtk_entry_set_placeholder_text (entry, placeholder);
  gtk_widget_set_tooltip_text (GTK_WIDGET (entry), tooltip);
  gtk_entry_set_width_chars (entry, width_chars);
  /* The bar's own search icon stands for all four: no icon inside each. */
  gtk_entry_set_icon_from_icon_name (entry, GTK_ENTRY_ICON_PRIMARY, NULL);
  gtk_widget_set_hexpand (GTK_WIDGET (entry), expand);
  g_signal_connect_object (entry, "changed", G_CALLBACK (on_entry_changed), self, 0);
  g_signal_connect_object (entry, "activate", G_CALLBACK (on_entry_activate), self, 0);
  gtk_widget_show (GTK_WIDGET (entry));
  gtk_box_pack_start (GTK_BOX (self), GTK_WIDGET (entry), expand, expand, 0);
  return entry;
}

static void
etl_filter_bar_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  EtlFilterBar *self = ETL_FILTER_BAR (object);

  switch (prop_id)
    {
    case PROP_DEBOUNCE_MS:
      g_value_set_uint (value, self->debounce_ms);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
etl_filter_bar_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  EtlFilterBar *self = ETL_FILTER_BAR (object);

  switch (prop_id)
    {
    case PROP_DEBOUNCE_MS:
      etl_filter_bar_set_debounce_ms (self, g_value_get_uint (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
etl_filter_bar_dispose (GObject *object)
{
  EtlFilterBar *self = ETL_FILTER_BAR (object);

  g_clear_handle_id (&self->debounce_source, g_source_remove);
  g_clear_pointer (&self->last, etl_filter_free);

  G_OBJECT_CLASS (etl_filter_bar_parent_class)->dispose (object);
}

static void
etl_filter_bar_class_init (EtlFilterBarClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->get_property = etl_filter_bar_get_property;
  object_class->set_property = etl_filter_bar_set_property;
  object_class->dispose = etl_filter_bar_dispose;

  /**
   * EtlFilterBar:debounce-ms:
   *
   * Milliseconds of quiet typing before the filter applies.
   */
  properties[PROP_DEBOUNCE_MS] = g_param_spec_uint ("debounce-ms", "Debounce", "Quiet time before applying, ms", 0,
                                                    10000, DEFAULT_DEBOUNCE_MS,
                                                    G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY
                                                        | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * EtlFilterBar::changed:
   * @self: the bar
   * @filter: (type gpointer): the new #EtlFilter (transfer none; copy it to keep it)
   *
   * The filter changed: after the debounce, on Enter, or from
   * etl_filter_bar_set_filter().
   */
  signals[CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                   G_TYPE_NONE, 1, G_TYPE_POINTER);

  gtk_widget_class_set_css_name (GTK_WIDGET_CLASS (klass), "etlfilterbar");
}

static void
etl_filter_bar_init (EtlFilterBar *self)
{
  GtkWidget *icon;

  self->debounce_ms = DEFAULT_DEBOUNCE_MS;
  gtk_orientable_set_orientation (GTK_ORIENTABLE (self), GTK_ORIENTATION_HORIZONTAL);
  gtk_box_set_spacing (GTK_BOX (self), 6);

  icon = gtk_image_new_from_icon_name ("edit-find-symbolic", GTK_ICON_SIZE_BUTTON);
  gtk_widget_set_tooltip_text (icon, "Filter the events (Ctrl+F)");
  gtk_widget_show (icon);
  gtk_box_pack_start (GTK_BOX (self), icon, FALSE, FALSE, 0);

  /* Narrow enough for the list's pane at a 1024 px window beside the
   * session panel (issue 18); the free-text entry takes what is left. */
  self->provider_entry = add_entry (self, "Provider", "Provider name or GUID, any part of it", 12, FALSE);
  self->pid_entry = add_entry (self, "PID", "Process id (decimal or 0x hex)", 6, FALSE);
  self->tid_entry = add_entry (self, "TID", "Thread id (decimal or 0x hex)", 6, FALSE);
  self->text_entry = add_entry (self, "Search provider, event, process and payload",
                                "Text in the provider, event or process name or in the decoded payload "
                                "(Reason=AllocSmall)",
                                10, TRUE);

  self->spinner = GTK_SPINNER (gtk_spinner_new ());
  gtk_box_pack_start (GTK_BOX (self), GTK_WIDGET (self->spinner), FALSE, FALSE, 0);

  self->count_label = GTK_LABEL (gtk_label_new (""));
  /* "179,474 of 179,474 rows" in full where there is room. */
  gtk_label_set_width_chars (self->count_label, 8);
  gtk_label_set_max_width_chars (self->count_label, 26);
  gtk_label_set_ellipsize (self->count_label, PANGO_ELLIPSIZE_START);
  gtk_label_set_xalign (self->count_label, 1.0);
  gtk_style_context_add_class (gtk_widget_get_style_context (GTK_WIDGET (self->count_label)), "dim-label");
  gtk_widget_show (GTK_WIDGET (self->count_label));
  gtk_box_pack_end (GTK_BOX (self), GTK_WIDGET (self->count_label), FALSE, FALSE, 0);
}

/**
 * etl_filter_bar_new:
 *
 * Returns: (transfer floating): a new filter bar with empty entries
 */
GtkWidget *
etl_filter_bar_new (void)
{
  return g_object_new (ETL_TYPE_FILTER_BAR, NULL);
}

/**
 * etl_filter_bar_set_filter:
 * @self: a filter bar
 * @filter: (nullable): the filter to show; %NULL clears the entries
 *
 * Fills the entries from @filter and emits #EtlFilterBar::changed at once
 * (no debounce) when the filter differs from the last one emitted.
 */
void
etl_filter_bar_set_filter (EtlFilterBar *self, const EtlFilter *filter)
{
  g_autofree char *pid = NULL;
  g_autofree char *tid = NULL;

  g_return_if_fail (ETL_IS_FILTER_BAR (self));

  if (filter != NULL && filter->has_pid)
    pid = g_strdup_printf ("%u", filter->pid);
  if (filter != NULL && filter->has_tid)
    tid = g_strdup_printf ("%u", filter->tid);
  self->setting = TRUE;
  gtk_entry_set_text (self->provider_entry, filter != NULL && filter->provider != NULL ? filter->provider : "");
  gtk_entry_set_text (self->pid_entry, pid != NULL ? pid : "");
  gtk_entry_set_text (self->tid_entry, tid != NULL ? tid : "");
  gtk_entry_set_text (self->text_entry, filter != NULL && filter->text != NULL ? filter->text : "");
  self->setting = FALSE;
  apply_now (self);
}

/**
 * etl_filter_bar_set_counts:
 * @self: a filter bar
 * @n_shown: rows the filter keeps
 * @n_total: rows in the trace
 *
 * Shows "N of M rows" (or "M rows" when nothing is filtered out).
 */
void
etl_filter_bar_set_counts (EtlFilterBar *self, guint64 n_shown, guint64 n_total)
{
  g_autofree char *text = NULL;

  g_return_if_fail (ETL_IS_FILTER_BAR (self));
  if (n_shown == n_total)
    text = g_strdup_printf ("%'" G_GUINT64_FORMAT " rows", n_total);
  else
    text = g_strdup_printf ("%'" G_GUINT64_FORMAT " of %'" G_GUINT64_FORMAT " rows", n_shown, n_total);
  gtk_label_set_text (self->count_label, text);
}

/**
 * etl_filter_bar_set_busy:
 * @self: a filter bar
 * @busy: whether a filter is being applied
 *
 * Shows a spinner while the filter runs.
 */
void
etl_filter_bar_set_busy (EtlFilterBar *self, gboolean busy)
{
  g_return_if_fail (ETL_IS_FILTER_BAR (self));
  gtk_widget_set_visible (GTK_WIDGET (self->spinner), busy);
  if (busy)
    gtk_spinner_start (self->spinner);
  else
    gtk_spinner_stop (self->spinner);
}

/**
 * etl_filter_bar_get_count_text:
 * @self: a filter bar
 *
 * Returns: (transfer none): the "N of M rows" text
 */
const char *
etl_filter_bar_get_count_text (EtlFilterBar *self)
{
  g_return_val_if_fail (ETL_IS_FILTER_BAR (self), NULL);
  return gtk_label_get_text (self->count_label);
}

/**
 * etl_filter_bar_get_debounce_ms:
 * @self: a filter bar
 *
 * Returns: the debounce, milliseconds
 */
guint
etl_filter_bar_get_debounce_ms (EtlFilterBar *self)
{
  g_return_val_if_fail (ETL_IS_FILTER_BAR (self), 0);
  return self->debounce_ms;
}

/**
 * etl_filter_bar_set_debounce_ms:
 * @self: a filter bar
 * @ms: quiet time before the filter applies, milliseconds
 */
void
etl_filter_bar_set_debounce_ms (EtlFilterBar *self, guint ms)
{
  g_return_if_fail (ETL_IS_FILTER_BAR (self));
  if (self->debounce_ms == ms)
    return;
  self->debounce_ms = ms;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DEBOUNCE_MS]);
}

/**
 * etl_filter_bar_focus:
 * @self: a filter bar
 *
 * Moves the keyboard focus to the text entry.
 */
void
etl_filter_bar_focus (EtlFilterBar *self)
{
  g_return_if_fail (ETL_IS_FILTER_BAR (self));
  gtk_widget_grab_focus (GTK_WIDGET (self->text_entry));
}
