/* SPDX-License-Identifier: GPL-3.0-or-later */
/**
 * SECTION:etl-session-panel
 * @title: EtlSessionPanel
 * @short_description: point-and-click EVENT_TRACE_PROPERTIES
 *
 * A form for one ETW session's settings in one column of collapsible
 * sections that fits a pane of about 400 pixels (Session, Buffers, Log file,
 * Flags, Clock, Kernel flags, Diagnostics, Effective values, Bytes, Running
 * session), with live diagnostics from etl_session_check() — an icon on
 * each offending field, the messages under the field and in the
 * Diagnostics list — the effective values ETW will use, and a live hex view
 * of the encoded allocation (x64/x86) whose field under the pointer is
 * highlighted.  The toolbar is one row: the preset ("Custom" when the
 * settings match none, after Load… too), Start, Stop, and a menu with Load,
 * Save and the copies (C code, logman / xperf / tracelog command lines).  Presets, C code
 * and command lines come from core/session/etl-session*.c.
 *
 * On Windows, Start runs the session (StartTraceW), its loss counters are
 * polled every second (ControlTraceW QUERY) and Stop emits
 * #EtlSessionPanel::session-stopped with the log file's path.  Elsewhere
 * Start and Stop are insensitive, with a tooltip saying why.
 */
#define G_LOG_DOMAIN "etl-session-panel"

#include "config.h"

#include "etl-session-panel.h"

#include <string.h>

#include "etl-session-export.h"

#define HEX_BYTES_PER_ROW 16
#define MAX_FLAGS 32

struct _EtlSessionPanel
{
  GtkBox parent_instance;

  EtlSession *session;
  EtlSessionArch arch;
  guint n_cpus;
  gboolean updating;

  GtkWidget *entries[ETL_SESSION_N_FIELDS];
  GtkWidget *icons[ETL_SESSION_N_FIELDS];
  GtkWidget *diag_labels[ETL_SESSION_N_FIELDS]; /* the field's diagnostics, under it */
  GPtrArray *expanders;                           /* GtkExpander, named by "etl-section" */
  GSimpleActionGroup *actions;
  char *invalid[ETL_SESSION_N_FIELDS];
  int severity[ETL_SESSION_N_FIELDS];

  GtkWidget *mode_checks[MAX_FLAGS];
  guint32 mode_values[MAX_FLAGS];
  guint n_mode_checks;
  GtkWidget *flag_checks[MAX_FLAGS];
  guint32 flag_values[MAX_FLAGS];
  guint n_flag_checks;
  GtkWidget *kernel_grid;
  GtkWidget *kernel_hint;
  GtkWidget *clock_radios[4];
  GtkWidget *file_size_unit;

  GtkWidget *rate_spin;
  GtkWidget *seconds_spin;
  GtkWidget *calc_result;

  GtkWidget *preset_combo;
  GtkWidget *start_button;
  GtkWidget *stop_button;
  GtkWidget *status_label;

  GtkWidget *diag_list;
  GtkWidget *diag_summary;
  GtkWidget *effective_label;
  GtkWidget *cpus_spin;
  GtkWidget *layout_area;
  GtkWidget *layout_info;
  GtkWidget *arch_x64;
  GBytes *layout_bytes;
  guint8 *byte_fields; /* the field of each byte of layout_bytes (ETL_SESSION_N_FIELDS = padding) */
  EtlSessionField hover_field;
  double char_width;
  double line_height;

  GtkWidget *counter_labels[6];
  guint64 handle;
  guint poll_id;
  char *running_name;
  char *running_file;
};

enum
{
  SESSION_STOPPED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (EtlSessionPanel, etl_session_panel, GTK_TYPE_BOX)

static void refresh (EtlSessionPanel *self);
static void load_into_widgets (EtlSessionPanel *self);

/* ------------------------------------------------------------------------ */
/* Helpers                                                                   */

/* A collapsible section (open at first) holding @child; remembered by @id. */
static GtkWidget *
add_section (EtlSessionPanel *self, GtkWidget *box, const char *id, const char *title, GtkWidget *child)
{
  GtkWidget *expander = gtk_expander_new (NULL);
  GtkWidget *label = gtk_label_new (NULL);
  g_autofree char *markup = g_markup_printf_escaped ("<b>%s</b>", title);

  gtk_label_set_markup (GTK_LABEL (label), markup);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_expander_set_label_widget (GTK_EXPANDER (expander), label);
  gtk_expander_set_expanded (GTK_EXPANDER (expander), TRUE);
  g_object_set_data_full (G_OBJECT (expander), "etl-section", g_strdup (id), g_free);
  g_object_set (child, "margin-start", 12, "margin-top", 4, "margin-bottom", 8, NULL);
  gtk_container_add (GTK_CONTAINER (expander), child);
  gtk_box_pack_start (GTK_BOX (box), expander, FALSE, FALSE, 0);
  g_ptr_array_add (self->expanders, expander);
  return expander;
}

static GtkWidget *
section (EtlSessionPanel *self, GtkWidget *box, const char *id, const char *title, GtkWidget **grid_out)
{
  GtkWidget *grid = gtk_grid_new ();

  gtk_grid_set_row_spacing (GTK_GRID (grid), 4);
  gtk_grid_set_column_spacing (GTK_GRID (grid), 8);
  *grid_out = grid;
  return add_section (self, box, id, title, grid);
}

/* The diagnostics of @field, shown under it (hidden when there are none). */
static GtkWidget *
field_diag_label (EtlSessionPanel *self, EtlSessionField field)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_line_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 40);
  gtk_widget_set_no_show_all (label, TRUE);
  gtk_style_context_add_class (gtk_widget_get_style_context (label), "field-diagnostic");
  self->diag_labels[field] = label;
  return label;
}

static void
entry_changed_cb (GtkEntry *entry, EtlSessionPanel *self)
{
  EtlSessionField field = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (entry), "etl-field"));
  const EtlSessionFieldInfo *info = etl_session_field_info (field);
  g_autoptr (GError) error = NULL;

  if (self->updating)
    return;
  g_clear_pointer (&self->invalid[field], g_free);
  if (!etl_session_set_field (self->session, info->name, gtk_entry_get_text (entry), &error))
    self->invalid[field] = g_strdup (error->message);
  refresh (self);
}

static void
add_entry_row (EtlSessionPanel *self, GtkWidget *grid, int row, EtlSessionField field, const char *label_text,
               const char *unit, const char *placeholder)
{
  const EtlSessionFieldInfo *info = etl_session_field_info (field);
  GtkWidget *label = gtk_label_new (label_text);
  GtkWidget *entry = gtk_entry_new ();
  g_autofree char *tip = g_strdup_printf ("%s (%s): %s", info->name,
                                          info->kind == ETL_SESSION_FIELD_KIND_STRING ? "UTF-16 string"
                                          : info->kind == ETL_SESSION_FIELD_KIND_GUID ? "GUID"
                                          : info->kind == ETL_SESSION_FIELD_KIND_I32 ? "LONG" : "ULONG",
                                          info->doc);

  gtk_widget_set_halign (label, GTK_ALIGN_START);
  gtk_widget_set_tooltip_text (label, tip);
  gtk_widget_set_tooltip_text (entry, tip);
  gtk_widget_set_hexpand (entry, TRUE);
  if (placeholder)
    gtk_entry_set_placeholder_text (GTK_ENTRY (entry), placeholder);
  if (info->kind != ETL_SESSION_FIELD_KIND_STRING && info->kind != ETL_SESSION_FIELD_KIND_GUID)
    {
      gtk_entry_set_width_chars (GTK_ENTRY (entry), 8);
      gtk_entry_set_alignment (GTK_ENTRY (entry), 1.0);
      gtk_widget_set_hexpand (entry, FALSE);
      gtk_widget_set_halign (entry, GTK_ALIGN_START);
    }
  g_object_set_data (G_OBJECT (entry), "etl-field", GUINT_TO_POINTER (field));
  g_signal_connect (entry, "changed", G_CALLBACK (entry_changed_cb), self);
  /* Each field takes two grid rows: the field, then its diagnostics. */
  gtk_grid_attach (GTK_GRID (grid), label, 0, 2 * row, 1, 1);
  /* text entries take the unit column too; numbers keep a narrow column */
  gtk_grid_attach (GTK_GRID (grid), entry, 1, 2 * row, unit ? 1 : 2, 1);
  gtk_grid_attach (GTK_GRID (grid), field_diag_label (self, field), 0, 2 * row + 1, 3, 1);
  if (unit)
    {
      GtkWidget *u = gtk_label_new (unit);

      gtk_widget_set_halign (u, GTK_ALIGN_START);
      gtk_widget_set_hexpand (u, TRUE);
      gtk_label_set_line_wrap (GTK_LABEL (u), TRUE);
      gtk_label_set_max_width_chars (GTK_LABEL (u), 14);
      gtk_label_set_xalign (GTK_LABEL (u), 0);
      gtk_style_context_add_class (gtk_widget_get_style_context (u), "dim-label");
      gtk_grid_attach (GTK_GRID (grid), u, 2, 2 * row, 1, 1);
      if (field == ETL_SESSION_FIELD_MAXIMUM_FILE_SIZE)
        self->file_size_unit = u;
    }
  self->entries[field] = entry;
}

static GtkWidget *
field_icon (EtlSessionPanel *self, EtlSessionField field)
{
  GtkWidget *image = gtk_image_new ();

  self->icons[field] = image;
  return image;
}

static void
flag_toggled_cb (GtkToggleButton *button, EtlSessionPanel *self)
{
  guint32 value = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (button), "etl-value"));
  gboolean enable = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (button), "etl-enable"));
  guint32 *target = enable ? &self->session->enable_flags : &self->session->log_file_mode;

  if (self->updating)
    return;
  if (gtk_toggle_button_get_active (button))
    *target |= value;
  else
    *target &= ~value;
  refresh (self);
}

static GtkWidget *
flag_grid (EtlSessionPanel *self, gboolean enable)
{
  guint n;
  const EtlSessionFlagInfo *t = enable ? etl_session_enable_flags (&n) : etl_session_log_file_modes (&n);
  GtkWidget *grid = gtk_grid_new ();
  guint k = 0;

  gtk_grid_set_column_spacing (GTK_GRID (grid), 12);
  gtk_grid_set_column_homogeneous (GTK_GRID (grid), TRUE);
  for (guint i = 0; i < n; i++)
    {
      const char *short_name;
      GtkWidget *check;
      g_autofree char *tip = NULL;

      if (t[i].value == 0 || t[i].reserved)
        continue;
      short_name = t[i].name + strlen (enable ? "EVENT_TRACE_FLAG_" : "EVENT_TRACE_");
      if (!enable && g_str_has_prefix (short_name, "FILE_MODE_"))
        short_name += strlen ("FILE_MODE_");
      check = gtk_check_button_new_with_label (short_name);
      /* Two columns fit the pane; a long name ends in "…" (the tooltip
       * has it whole). */
      gtk_label_set_ellipsize (GTK_LABEL (gtk_bin_get_child (GTK_BIN (check))), PANGO_ELLIPSIZE_END);
      gtk_label_set_max_width_chars (GTK_LABEL (gtk_bin_get_child (GTK_BIN (check))), 17);
      tip = g_strdup_printf ("%s (0x%08x): %s.\nSince %s.", t[i].name, t[i].value, t[i].meaning,
                             etl_windows_version_name (t[i].min_windows));
      gtk_widget_set_tooltip_text (check, tip);
      g_object_set_data (G_OBJECT (check), "etl-value", GUINT_TO_POINTER (t[i].value));
      g_object_set_data (G_OBJECT (check), "etl-enable", GINT_TO_POINTER (enable));
      g_signal_connect (check, "toggled", G_CALLBACK (flag_toggled_cb), self);
      gtk_grid_attach (GTK_GRID (grid), check, (int) (k % 2), (int) (k / 2), 1, 1);
      if (enable)
        {
          self->flag_checks[self->n_flag_checks] = check;
          self->flag_values[self->n_flag_checks++] = t[i].value;
        }
      else
        {
          self->mode_checks[self->n_mode_checks] = check;
          self->mode_values[self->n_mode_checks++] = t[i].value;
        }
      k++;
    }
  return grid;
}

static void
clock_toggled_cb (GtkToggleButton *button, EtlSessionPanel *self)
{
  if (self->updating || !gtk_toggle_button_get_active (button))
    return;
  self->session->wnode_client_context = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (button), "etl-clock"));
  refresh (self);
}

static char *
format_bytes (guint64 bytes)
{
  return g_format_size_full (bytes, G_FORMAT_SIZE_IEC_UNITS);
}

/* ------------------------------------------------------------------------ */
/* Layout view                                                               */

static void
measure_font (EtlSessionPanel *self, GtkWidget *widget)
{
  PangoLayout *layout = gtk_widget_create_pango_layout (widget, "0");
  PangoFontDescription *desc = pango_font_description_from_string ("Monospace 9");
  int w, h;

  pango_layout_set_font_description (layout, desc);
  pango_layout_get_pixel_size (layout, &w, &h);
  self->char_width = w;
  self->line_height = h + 2;
  pango_font_description_free (desc);
  g_object_unref (layout);
}

static double
byte_x (EtlSessionPanel *self, guint col)
{
  return 4 + self->char_width * (6 + col * 3 + (col >= 8 ? 1 : 0));
}

static void
update_layout_size (EtlSessionPanel *self)
{
  gsize len = self->layout_bytes ? g_bytes_get_size (self->layout_bytes) : 0;
  guint rows = (guint) ((len + HEX_BYTES_PER_ROW - 1) / HEX_BYTES_PER_ROW);

  if (self->char_width == 0)
    measure_font (self, self->layout_area);
  gtk_widget_set_size_request (self->layout_area, (int) byte_x (self, HEX_BYTES_PER_ROW) + 8,
                               (int) (rows * self->line_height) + 8);
}

static gboolean
layout_draw_cb (GtkWidget *widget, cairo_t *cr, EtlSessionPanel *self)
{
  GtkStyleContext *style = gtk_widget_get_style_context (widget);
  PangoLayout *layout;
  PangoFontDescription *desc;
  GdkRGBA fg, sel_bg, sel_fg, band;
  GdkRectangle clip;
  gsize len;
  const guint8 *data;

  if (self->layout_bytes == NULL)
    return FALSE;
  if (self->char_width == 0)
    measure_font (self, widget);
  data = g_bytes_get_data (self->layout_bytes, &len);
  gtk_style_context_get_color (style, gtk_style_context_get_state (style), &fg);
  if (!gtk_style_context_lookup_color (style, "theme_selected_bg_color", &sel_bg))
    gdk_rgba_parse (&sel_bg, "#4a90d9");
  if (!gtk_style_context_lookup_color (style, "theme_selected_fg_color", &sel_fg))
    gdk_rgba_parse (&sel_fg, "#ffffff");
  band = fg;
  band.alpha = 0.07;
  gdk_cairo_get_clip_rectangle (cr, &clip);

  layout = gtk_widget_create_pango_layout (widget, NULL);
  desc = pango_font_description_from_string ("Monospace 9");
  pango_layout_set_font_description (layout, desc);

  for (gsize row = 0; row * HEX_BYTES_PER_ROW < len; row++)
    {
      double y = 4 + row * self->line_height;
      char text[16];

      if (y + self->line_height < clip.y || y > clip.y + clip.height)
        continue;
      g_snprintf (text, sizeof text, "%04zx", row * HEX_BYTES_PER_ROW);
      gdk_cairo_set_source_rgba (cr, &fg);
      cairo_save (cr);
      cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, fg.alpha * 0.55);
      pango_layout_set_text (layout, text, -1);
      cairo_move_to (cr, 4, y);
      pango_cairo_show_layout (cr, layout);
      cairo_restore (cr);

      for (guint col = 0; col < HEX_BYTES_PER_ROW && row * HEX_BYTES_PER_ROW + col < len; col++)
        {
          guint off = (guint) (row * HEX_BYTES_PER_ROW + col);
          EtlSessionField f = self->byte_fields[off];
          double x = byte_x (self, col);

          if (f != ETL_SESSION_N_FIELDS && f == self->hover_field)
            {
              gdk_cairo_set_source_rgba (cr, &sel_bg);
              cairo_rectangle (cr, x - self->char_width / 2, y - 1, self->char_width * 3, self->line_height);
              cairo_fill (cr);
              gdk_cairo_set_source_rgba (cr, &sel_fg);
            }
          else
            {
              if (f != ETL_SESSION_N_FIELDS && (f % 2) == 0)
                {
                  gdk_cairo_set_source_rgba (cr, &band);
                  cairo_rectangle (cr, x - self->char_width / 2, y - 1, self->char_width * 3, self->line_height);
                  cairo_fill (cr);
                }
              if (f == ETL_SESSION_N_FIELDS)
                cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, fg.alpha * 0.35);
              else
                gdk_cairo_set_source_rgba (cr, &fg);
            }
          g_snprintf (text, sizeof text, "%02x", data[off]);
          pango_layout_set_text (layout, text, -1);
          cairo_move_to (cr, x, y);
          pango_cairo_show_layout (cr, layout);
        }
    }
  pango_font_description_free (desc);
  g_object_unref (layout);
  return FALSE;
}

static void
update_hover_info (EtlSessionPanel *self)
{
  g_autofree char *text = NULL;
  guint off, size;

  if (self->hover_field == ETL_SESSION_N_FIELDS
      || !etl_session_field_span (self->session, self->arch, self->hover_field, &off, &size))
    text = g_strdup ("Point at a byte to see its field.");
  else
    {
      const EtlSessionFieldInfo *info = etl_session_field_info (self->hover_field);

      text = g_strdup_printf ("%s — offset %u (0x%x), %u bytes. %s", info->name, off, off, size, info->doc);
    }
  gtk_label_set_text (GTK_LABEL (self->layout_info), text);
}

static gboolean
layout_motion_cb (GtkWidget *widget, GdkEventMotion *event, EtlSessionPanel *self)
{
  EtlSessionField f = ETL_SESSION_N_FIELDS;
  gsize len = self->layout_bytes ? g_bytes_get_size (self->layout_bytes) : 0;

  if (self->char_width > 0)
    {
      int row = (int) ((event->y - 4) / self->line_height);

      for (guint col = 0; col < HEX_BYTES_PER_ROW; col++)
        {
          double x = byte_x (self, col);

          if (event->x >= x - self->char_width / 2 && event->x < x + self->char_width * 2.5 && row >= 0)
            {
              gsize off = (gsize) row * HEX_BYTES_PER_ROW + col;

              if (off < len)
                f = self->byte_fields[off];
              break;
            }
        }
    }
  if (f != self->hover_field)
    {
      self->hover_field = f;
      update_hover_info (self);
      gtk_widget_queue_draw (widget);
    }
  return FALSE;
}

static gboolean
layout_leave_cb (GtkWidget *widget, GdkEventCrossing *event, EtlSessionPanel *self)
{
  self->hover_field = ETL_SESSION_N_FIELDS;
  update_hover_info (self);
  gtk_widget_queue_draw (widget);
  return FALSE;
}

static void
arch_toggled_cb (GtkToggleButton *button, EtlSessionPanel *self)
{
  etl_session_panel_set_arch (self, gtk_toggle_button_get_active (button) ? ETL_SESSION_ARCH_X64
                                                                          : ETL_SESSION_ARCH_X86);
}

/* ------------------------------------------------------------------------ */
/* Refresh                                                                   */

static const char *
severity_icon (int severity)
{
  switch (severity)
    {
    case ETL_SESSION_SEVERITY_ERROR: return "dialog-error-symbolic";
    case ETL_SESSION_SEVERITY_WARNING: return "dialog-warning-symbolic";
    default: return "dialog-information-symbolic";
    }
}

static void
add_diag_row (EtlSessionPanel *self, int severity, const char *field, const char *message)
{
  GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  GtkWidget *icon = gtk_image_new_from_icon_name (severity_icon (severity), GTK_ICON_SIZE_MENU);
  GtkWidget *label = gtk_label_new (NULL);
  g_autofree char *markup = g_markup_printf_escaped ("<b>%s</b>  %s", field, message);

  gtk_label_set_markup (GTK_LABEL (label), markup);
  gtk_label_set_line_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 40);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_set_valign (icon, GTK_ALIGN_START);
  g_object_set (row, "margin", 4, NULL);
  gtk_box_pack_start (GTK_BOX (row), icon, FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (row), label, TRUE, TRUE, 0);
  gtk_widget_show_all (row);
  gtk_list_box_insert (GTK_LIST_BOX (self->diag_list), row, -1);
}

static void
refresh (EtlSessionPanel *self)
{
  g_autoptr (GPtrArray) diags = etl_session_check (self->session, self->n_cpus);
  GString *tips[ETL_SESSION_N_FIELDS] = { NULL };
  GString *under[ETL_SESSION_N_FIELDS] = { NULL }; /* every diagnostic of a field, shown under it */
  guint n_err = 0, n_warn = 0, n_info = 0;
  EtlSessionEffective eff;
  gboolean system;
  GList *children;

  /* diagnostics */
  children = gtk_container_get_children (GTK_CONTAINER (self->diag_list));
  for (GList *l = children; l; l = l->next)
    gtk_widget_destroy (l->data);
  g_list_free (children);
  for (guint f = 0; f < ETL_SESSION_N_FIELDS; f++)
    self->severity[f] = -1;

  for (guint f = 0; f < ETL_SESSION_N_FIELDS; f++)
    if (self->invalid[f])
      {
        self->severity[f] = ETL_SESSION_SEVERITY_ERROR;
        tips[f] = g_string_new (self->invalid[f]);
        add_diag_row (self, ETL_SESSION_SEVERITY_ERROR, etl_session_field_info (f)->name, self->invalid[f]);
        under[f] = g_string_new (NULL);
        g_string_append_printf (under[f], "✖ %s", self->invalid[f]);
        n_err++;
      }
  for (guint i = 0; i < diags->len; i++)
    {
      const EtlSessionDiagnostic *d = g_ptr_array_index (diags, i);

      add_diag_row (self, d->severity, etl_session_field_info (d->field)->name, d->message);
      n_err += d->severity == ETL_SESSION_SEVERITY_ERROR;
      n_warn += d->severity == ETL_SESSION_SEVERITY_WARNING;
      n_info += d->severity == ETL_SESSION_SEVERITY_INFO;
      if (under[d->field] == NULL)
        under[d->field] = g_string_new (NULL);
      else
        g_string_append_c (under[d->field], '\n');
      g_string_append_printf (under[d->field], "%s %s",
                              d->severity == ETL_SESSION_SEVERITY_ERROR     ? "✖"
                              : d->severity == ETL_SESSION_SEVERITY_WARNING ? "⚠"
                                                                            : "ℹ",
                              d->message);
      if (d->severity == ETL_SESSION_SEVERITY_INFO)
        continue;
      if ((int) d->severity > self->severity[d->field])
        self->severity[d->field] = d->severity;
      if (tips[d->field] == NULL)
        tips[d->field] = g_string_new (d->message);
      else
        g_string_append_printf (tips[d->field], "\n%s", d->message);
    }
  {
    g_autofree char *summary = g_strdup_printf ("%u error%s, %u warning%s, %u note%s", n_err, n_err == 1 ? "" : "s",
                                                n_warn, n_warn == 1 ? "" : "s", n_info, n_info == 1 ? "" : "s");
    gtk_label_set_text (GTK_LABEL (self->diag_summary), summary);
  }

  /* icons on the offending fields */
  for (guint f = 0; f < ETL_SESSION_N_FIELDS; f++)
    {
      const char *icon = self->severity[f] >= ETL_SESSION_SEVERITY_WARNING ? severity_icon (self->severity[f]) : NULL;

      if (self->entries[f])
        {
          gtk_entry_set_icon_from_icon_name (GTK_ENTRY (self->entries[f]), GTK_ENTRY_ICON_SECONDARY, icon);
          gtk_entry_set_icon_tooltip_text (GTK_ENTRY (self->entries[f]), GTK_ENTRY_ICON_SECONDARY,
                                           tips[f] ? tips[f]->str : NULL);
        }
      if (self->icons[f])
        {
          gtk_image_set_from_icon_name (GTK_IMAGE (self->icons[f]), icon, GTK_ICON_SIZE_MENU);
          gtk_widget_set_tooltip_text (self->icons[f], tips[f] ? tips[f]->str : NULL);
        }
      if (tips[f])
        g_string_free (tips[f], TRUE);
      if (self->diag_labels[f])
        {
          gtk_label_set_text (GTK_LABEL (self->diag_labels[f]), under[f] ? under[f]->str : "");
          gtk_widget_set_visible (self->diag_labels[f], under[f] != NULL);
        }
      if (under[f])
        g_string_free (under[f], TRUE);
    }

  /* The preset these settings are, or "Custom" (after Load… too). */
  {
    const char *match = "custom";

    for (const char *const *p = etl_session_preset_names (); *p; p++)
      {
        g_autoptr (EtlSession) preset = etl_session_new_preset (*p, NULL);

        if (preset != NULL && etl_session_equal (preset, self->session))
          {
            match = *p;
            break;
          }
      }
    if (g_strcmp0 (gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->preset_combo)), match) != 0)
      {
        gboolean was = self->updating;

        self->updating = TRUE;
        gtk_combo_box_set_active_id (GTK_COMBO_BOX (self->preset_combo), match);
        self->updating = was;
      }
  }

  /* kernel flags only for system loggers; MaximumFileSize unit */
  system = etl_session_is_system_logger (self->session);
  gtk_widget_set_sensitive (self->kernel_grid, system);
  gtk_label_set_text (GTK_LABEL (self->kernel_hint),
                      system ? "System logger: these SystemTraceProvider groups apply."
                             : "Only for system loggers: set SYSTEM_LOGGER_MODE, name the session "
                               "“NT Kernel Logger”, or use SystemTraceControlGuid.");
  gtk_label_set_text (GTK_LABEL (self->file_size_unit),
                      (self->session->log_file_mode & ETL_EVENT_TRACE_USE_KBYTES_FOR_SIZE) ? "KB (0 = no limit)"
                                                                                        : "MB (0 = no limit)");

  /* effective values */
  etl_session_effective (self->session, self->n_cpus, &eff);
  {
    g_autofree char *reserved = format_bytes (eff.reserved_bytes);
    g_autofree char *maximum = format_bytes (eff.maximum_bytes);
    g_autofree char *file = eff.max_file_bytes ? format_bytes (eff.max_file_bytes) : g_strdup ("no limit");
    g_autofree char *flush = NULL;
    g_autofree char *markup = NULL;
    guint n_clocks;
    const EtlSessionClockInfo *clocks = etl_session_clocks (&n_clocks);
    const char *clock = "?";

    for (guint i = 0; i < n_clocks; i++)
      if (clocks[i].value == eff.clock)
        clock = clocks[i].name;
    if (self->session->log_file_mode & ETL_EVENT_TRACE_BUFFERING_MODE)
      flush = g_strdup ("on demand only (buffering mode)");
    else if (eff.flush_timer_s == 0)
      flush = g_strdup ("when a buffer is full");
    else
      flush = g_strdup_printf ("every %u s", eff.flush_timer_s);
    markup = g_markup_printf_escaped (
      "Buffers at start: %u × %u KB = <b>%s</b> reserved\n"
      "Buffers at most: %u × %u KB = <b>%s</b>\n"
      "Flush: %s\n"
      "Log file limit: %s\n"
      "Clock: %s\n"
      "EnableFlags apply: %s",
      eff.minimum_buffers, eff.buffer_size_kb, reserved, eff.maximum_buffers, eff.buffer_size_kb, maximum, flush,
      file, clock, eff.system_logger ? "yes (system logger)" : "no");
    gtk_label_set_markup (GTK_LABEL (self->effective_label), markup);
  }

  /* calculator */
  {
    guint32 n = self->session->buffer_size
                  ? etl_session_buffers_for_rate (gtk_spin_button_get_value (GTK_SPIN_BUTTON (self->rate_spin)),
                                                  gtk_spin_button_get_value (GTK_SPIN_BUTTON (self->seconds_spin)),
                                                  self->session->buffer_size)
                  : 0;
    g_autofree char *text = g_strdup_printf ("= %u buffers of %u KB", n, self->session->buffer_size);

    gtk_label_set_text (GTK_LABEL (self->calc_result), text);
  }

  /* bytes */
  g_clear_pointer (&self->layout_bytes, g_bytes_unref);
  self->layout_bytes = etl_session_encode (self->session, self->arch);
  g_free (self->byte_fields);
  self->byte_fields = g_malloc (MAX (g_bytes_get_size (self->layout_bytes), 1));
  memset (self->byte_fields, ETL_SESSION_N_FIELDS, g_bytes_get_size (self->layout_bytes));
  for (guint f = 0; f < ETL_SESSION_N_FIELDS; f++)
    {
      guint off, size;

      if (etl_session_field_info (f)->alias_of >= 0
          || !etl_session_field_span (self->session, self->arch, f, &off, &size))
        continue;
      for (guint i = off; i < off + size && i < g_bytes_get_size (self->layout_bytes); i++)
        self->byte_fields[i] = (guint8) f;
    }
  update_layout_size (self);
  update_hover_info (self);
  gtk_widget_queue_draw (self->layout_area);
}

static void
load_into_widgets (EtlSessionPanel *self)
{
  self->updating = TRUE;
  for (guint f = 0; f < ETL_SESSION_N_FIELDS; f++)
    {
      g_clear_pointer (&self->invalid[f], g_free);
      if (self->entries[f])
        {
          g_autofree char *text = etl_session_get_field (self->session, etl_session_field_info (f)->name);

          gtk_entry_set_text (GTK_ENTRY (self->entries[f]), text);
        }
    }
  for (guint i = 0; i < self->n_mode_checks; i++)
    gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (self->mode_checks[i]),
                                  (self->session->log_file_mode & self->mode_values[i]) == self->mode_values[i]);
  for (guint i = 0; i < self->n_flag_checks; i++)
    gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (self->flag_checks[i]),
                                  (self->session->enable_flags & self->flag_values[i]) == self->flag_values[i]);
  if (self->session->wnode_client_context < G_N_ELEMENTS (self->clock_radios))
    gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (self->clock_radios[self->session->wnode_client_context]), TRUE);
  self->updating = FALSE;
  refresh (self);
}

/* ------------------------------------------------------------------------ */
/* Actions                                                                   */

static void
preset_changed_cb (GtkComboBox *combo, EtlSessionPanel *self)
{
  const char *id = gtk_combo_box_get_active_id (combo);
  g_autoptr (EtlSession) s = NULL;

  if (id == NULL || self->updating || g_str_equal (id, "custom"))
    return;
  s = etl_session_new_preset (id, NULL);
  if (s)
    etl_session_panel_set_session (self, s);
}

static void
set_status (EtlSessionPanel *self, const char *text)
{
  gtk_label_set_text (GTK_LABEL (self->status_label), text ? text : "");
}

static void
copy_text (EtlSessionPanel *self, const char *text, const char *what)
{
  GtkClipboard *cb = gtk_clipboard_get_for_display (gtk_widget_get_display (GTK_WIDGET (self)),
                                                    GDK_SELECTION_CLIPBOARD);
  g_autofree char *status = g_strdup_printf ("%s copied to the clipboard.", what);

  gtk_clipboard_set_text (cb, text, -1);
  set_status (self, status);
}

static void
copy_c_cb (GtkButton *button, EtlSessionPanel *self)
{
  g_autofree char *code = etl_session_export_c (self->session);

  copy_text (self, code, "C code");
}

static void
copy_command (EtlSessionPanel *self, const char *id)
{
  g_autoptr (GPtrArray) notes = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *line = NULL;

  if (g_strcmp0 (id, "xperf") == 0)
    line = etl_session_export_xperf (self->session, notes);
  else if (g_strcmp0 (id, "tracelog") == 0)
    line = etl_session_export_tracelog (self->session, notes);
  else
    line = etl_session_export_logman (self->session, notes);
  copy_text (self, line, "Command line");
  if (notes->len)
    {
      g_ptr_array_add (notes, NULL);
      {
        g_autofree char *joined = g_strjoinv ("; ", (char **) notes->pdata);
        g_autofree char *status = g_strdup_printf ("Command line copied. Note: %s", joined);

        set_status (self, status);
      }
    }
}

static void
save_preset_cb (GtkButton *button, EtlSessionPanel *self)
{
  GtkWidget *toplevel = gtk_widget_get_toplevel (GTK_WIDGET (self));
  g_autoptr (GtkFileChooserNative) chooser =
    gtk_file_chooser_native_new ("Save Session Preset", GTK_IS_WINDOW (toplevel) ? GTK_WINDOW (toplevel) : NULL,
                                 GTK_FILE_CHOOSER_ACTION_SAVE, "_Save", "_Cancel");

  gtk_file_chooser_set_do_overwrite_confirmation (GTK_FILE_CHOOSER (chooser), TRUE);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), "session.ini");
  if (gtk_native_dialog_run (GTK_NATIVE_DIALOG (chooser)) == GTK_RESPONSE_ACCEPT)
    {
      g_autofree char *path = gtk_file_chooser_get_filename (GTK_FILE_CHOOSER (chooser));
      g_autoptr (GError) error = NULL;

      if (!etl_session_save_ini (self->session, path, &error))
        set_status (self, error->message);
      else
        set_status (self, "Preset saved.");
    }
}

static void
load_preset_cb (GtkButton *button, EtlSessionPanel *self)
{
  GtkWidget *toplevel = gtk_widget_get_toplevel (GTK_WIDGET (self));
  g_autoptr (GtkFileChooserNative) chooser =
    gtk_file_chooser_native_new ("Load Session Preset", GTK_IS_WINDOW (toplevel) ? GTK_WINDOW (toplevel) : NULL,
                                 GTK_FILE_CHOOSER_ACTION_OPEN, "_Open", "_Cancel");

  if (gtk_native_dialog_run (GTK_NATIVE_DIALOG (chooser)) == GTK_RESPONSE_ACCEPT)
    {
      g_autofree char *path = gtk_file_chooser_get_filename (GTK_FILE_CHOOSER (chooser));
      g_autoptr (GError) error = NULL;
      g_autoptr (EtlSession) s = etl_session_load_ini (path, &error);

      if (s == NULL)
        set_status (self, error->message);
      else
        etl_session_panel_set_session (self, s);
    }
}

static void
calc_apply_cb (GtkButton *button, EtlSessionPanel *self)
{
  guint32 n;
  g_autofree char *text = NULL;

  if (self->session->buffer_size == 0)
    return;
  n = etl_session_buffers_for_rate (gtk_spin_button_get_value (GTK_SPIN_BUTTON (self->rate_spin)),
                                    gtk_spin_button_get_value (GTK_SPIN_BUTTON (self->seconds_spin)),
                                    self->session->buffer_size);
  text = g_strdup_printf ("%u", n);
  gtk_entry_set_text (GTK_ENTRY (self->entries[ETL_SESSION_FIELD_MINIMUM_BUFFERS]), text);
}

static void
calc_changed_cb (GtkSpinButton *spin, EtlSessionPanel *self)
{
  refresh (self);
}

static void
cpus_changed_cb (GtkSpinButton *spin, EtlSessionPanel *self)
{
  etl_session_panel_set_n_cpus (self, (guint) gtk_spin_button_get_value_as_int (spin));
}

static void
show_counters (EtlSessionPanel *self, const EtlSession *q)
{
  guint32 values[6] = { 0 };

  if (q)
    {
      values[0] = q->events_lost;
      values[1] = q->log_buffers_lost;
      values[2] = q->real_time_buffers_lost;
      values[3] = q->buffers_written;
      values[4] = q->free_buffers;
      values[5] = q->number_of_buffers;
    }
  for (guint i = 0; i < G_N_ELEMENTS (self->counter_labels); i++)
    {
      g_autofree char *text = q ? g_strdup_printf ("%u", values[i]) : g_strdup ("—");

      gtk_label_set_text (GTK_LABEL (self->counter_labels[i]), text);
    }
}

static gboolean
poll_cb (gpointer data)
{
  EtlSessionPanel *self = data;
  g_autoptr (GError) error = NULL;
  g_autoptr (EtlSession) q = etl_session_control (self->handle, self->running_name,
                                                  ETL_EVENT_TRACE_CONTROL_QUERY, &error);

  if (q == NULL)
    {
      set_status (self, error->message);
      return G_SOURCE_CONTINUE;
    }
  show_counters (self, q);
  if (q->log_file_name[0])
    {
      g_free (self->running_file);
      self->running_file = g_strdup (q->log_file_name);
    }
  return G_SOURCE_CONTINUE;
}

static void
update_run_buttons (EtlSessionPanel *self)
{
  gboolean supported = etl_session_control_supported ();
  gboolean running = self->poll_id != 0;

  gtk_widget_set_sensitive (self->start_button, supported && !running);
  gtk_widget_set_sensitive (self->stop_button, supported && running);
  if (!supported)
    {
      const char *why = "Starting and stopping ETW sessions needs Windows (StartTraceW/ControlTraceW); "
                        "this build runs elsewhere. Export C code or a command line instead.";
      gtk_widget_set_tooltip_text (self->start_button, why);
      gtk_widget_set_tooltip_text (self->stop_button, why);
    }
  else
    {
      gtk_widget_set_tooltip_text (self->start_button, "Start the session with StartTraceW (needs administrator rights)");
      gtk_widget_set_tooltip_text (self->stop_button, "Stop the session with ControlTraceW and open its log file");
    }
}

static void
start_cb (GtkButton *button, EtlSessionPanel *self)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) diags = etl_session_check (self->session, self->n_cpus);

  if (etl_session_diagnostics_have_errors (diags))
    {
      set_status (self, "Fix the errors first.");
      return;
    }
  if (!etl_session_start (self->session, &self->handle, &error))
    {
      set_status (self, error->message);
      return;
    }
  g_free (self->running_name);
  self->running_name = g_strdup (self->session->logger_name);
  g_free (self->running_file);
  self->running_file = g_strdup (self->session->log_file_name);
  self->poll_id = g_timeout_add_seconds (1, poll_cb, self);
  set_status (self, "Session running.");
  update_run_buttons (self);
}

static void
stop_cb (GtkButton *button, EtlSessionPanel *self)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (EtlSession) q = etl_session_control (self->handle, self->running_name,
                                                  ETL_EVENT_TRACE_CONTROL_STOP, &error);
  g_autofree char *path = NULL;

  g_clear_handle_id (&self->poll_id, g_source_remove);
  update_run_buttons (self);
  if (q == NULL)
    {
      set_status (self, error->message);
      return;
    }
  show_counters (self, q);
  path = g_strdup (q->log_file_name[0] ? q->log_file_name : self->running_file);
  set_status (self, "Session stopped.");
  if (path && path[0])
    g_signal_emit (self, signals[SESSION_STOPPED], 0, path);
}

/* ------------------------------------------------------------------------ */
/* Construction                                                              */

static GtkWidget *
build_form (EtlSessionPanel *self, GtkWidget *box)
{
  GtkWidget *grid, *w, *hbox, *vbox, *clock_grid;
  guint n;
  const EtlSessionClockInfo *clocks = etl_session_clocks (&n);
  GSList *group = NULL;

  section (self, box, "session", "Session", &grid);
  add_entry_row (self, grid, 0, ETL_SESSION_FIELD_LOGGER_NAME, "Session name", NULL, "descriptive, not a GUID");
  add_entry_row (self, grid, 1, ETL_SESSION_FIELD_WNODE_GUID, "Session GUID", NULL,
                 "empty: ETW creates one");
  gtk_grid_attach (GTK_GRID (grid), field_icon (self, ETL_SESSION_FIELD_WNODE_FLAGS), 2, 2, 1, 1);
  gtk_grid_attach (GTK_GRID (grid), field_diag_label (self, ETL_SESSION_FIELD_WNODE_FLAGS), 0, 4, 3, 1);

  section (self, box, "buffers", "Buffers", &grid);
  add_entry_row (self, grid, 0, ETL_SESSION_FIELD_BUFFER_SIZE, "Buffer size", "KB a buffer (4–16384)", NULL);
  add_entry_row (self, grid, 1, ETL_SESSION_FIELD_MINIMUM_BUFFERS, "Minimum buffers", "buffers", NULL);
  add_entry_row (self, grid, 2, ETL_SESSION_FIELD_MAXIMUM_BUFFERS, "Maximum buffers", "buffers", NULL);
  add_entry_row (self, grid, 3, ETL_SESSION_FIELD_FLUSH_TIMER, "Flush timer", "s (0 = when full)", NULL);
  add_entry_row (self, grid, 4, ETL_SESSION_FIELD_AGE_LIMIT, "Age limit", "minutes (unused)", NULL);
  /* The in-memory budget calculator, on two lines. */
  vbox = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  w = gtk_label_new ("In-memory budget (buffering mode):");
  gtk_label_set_xalign (GTK_LABEL (w), 0);
  gtk_widget_set_tooltip_text (w, "Calculator for buffering mode: MinimumBuffers = rate × seconds ÷ BufferSize");
  gtk_box_pack_start (GTK_BOX (vbox), w, FALSE, FALSE, 0);
  hbox = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  self->rate_spin = gtk_spin_button_new_with_range (0, 10000000, 1);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (self->rate_spin), 16);
  gtk_entry_set_width_chars (GTK_ENTRY (self->rate_spin), 5);
  self->seconds_spin = gtk_spin_button_new_with_range (0, 86400, 1);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (self->seconds_spin), 60);
  gtk_entry_set_width_chars (GTK_ENTRY (self->seconds_spin), 4);
  gtk_box_pack_start (GTK_BOX (hbox), self->rate_spin, FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (hbox), gtk_label_new ("KB/s ×"), FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (hbox), self->seconds_spin, FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (hbox), gtk_label_new ("s"), FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (vbox), hbox, FALSE, FALSE, 0);
  hbox = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  self->calc_result = gtk_label_new (NULL);
  gtk_box_pack_start (GTK_BOX (hbox), self->calc_result, FALSE, FALSE, 0);
  w = gtk_button_new_with_label ("Use as minimum");
  gtk_widget_set_tooltip_text (w, "In buffering (in-memory circular) mode MinimumBuffers is the whole memory "
                                  "budget: rate × seconds ÷ BufferSize.");
  g_signal_connect (w, "clicked", G_CALLBACK (calc_apply_cb), self);
  gtk_box_pack_start (GTK_BOX (hbox), w, FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (vbox), hbox, FALSE, FALSE, 0);
  g_signal_connect (self->rate_spin, "value-changed", G_CALLBACK (calc_changed_cb), self);
  g_signal_connect (self->seconds_spin, "value-changed", G_CALLBACK (calc_changed_cb), self);
  gtk_grid_attach (GTK_GRID (grid), vbox, 0, 20, 3, 1);

  section (self, box, "log-file", "Log file", &grid);
  add_entry_row (self, grid, 0, ETL_SESSION_FIELD_LOG_FILE_NAME, "File name", NULL, "empty: no log file");
  add_entry_row (self, grid, 1, ETL_SESSION_FIELD_MAXIMUM_FILE_SIZE, "Maximum size", "MB (0 = no limit)", NULL);

  section (self, box, "flags", "Flags (LogFileMode)", &grid);
  gtk_grid_attach (GTK_GRID (grid), flag_grid (self, FALSE), 0, 0, 1, 1);
  gtk_grid_attach (GTK_GRID (grid), field_icon (self, ETL_SESSION_FIELD_LOG_FILE_MODE), 1, 0, 1, 1);
  gtk_widget_set_valign (self->icons[ETL_SESSION_FIELD_LOG_FILE_MODE], GTK_ALIGN_START);
  gtk_grid_attach (GTK_GRID (grid), field_diag_label (self, ETL_SESSION_FIELD_LOG_FILE_MODE), 0, 1, 2, 1);

  section (self, box, "clock", "Clock (Wnode.ClientContext)", &grid);
  clock_grid = gtk_grid_new ();
  gtk_grid_set_column_spacing (GTK_GRID (clock_grid), 12);
  self->clock_radios[0] = gtk_radio_button_new_with_label (NULL, "Default (0: QPC)");
  gtk_widget_set_tooltip_text (self->clock_radios[0], "0 lets ETW choose: QPC since Windows Vista");
  g_object_set_data (G_OBJECT (self->clock_radios[0]), "etl-clock", GUINT_TO_POINTER (0));
  group = gtk_radio_button_get_group (GTK_RADIO_BUTTON (self->clock_radios[0]));
  gtk_grid_attach (GTK_GRID (clock_grid), self->clock_radios[0], 0, 0, 1, 1);
  for (guint i = 0; i < n && i < 3; i++)
    {
      g_autofree char *label = g_strdup_printf ("%s (%u)", clocks[i].name, clocks[i].value);

      w = gtk_radio_button_new_with_label (group, label);
      group = gtk_radio_button_get_group (GTK_RADIO_BUTTON (w));
      gtk_widget_set_tooltip_text (w, clocks[i].meaning);
      g_object_set_data (G_OBJECT (w), "etl-clock", GUINT_TO_POINTER (clocks[i].value));
      self->clock_radios[clocks[i].value] = w;
      gtk_grid_attach (GTK_GRID (clock_grid), w, (int) ((i + 1) % 2), (int) ((i + 1) / 2), 1, 1);
    }
  for (guint i = 0; i < G_N_ELEMENTS (self->clock_radios); i++)
    g_signal_connect (self->clock_radios[i], "toggled", G_CALLBACK (clock_toggled_cb), self);
  gtk_grid_attach (GTK_GRID (grid), clock_grid, 0, 0, 1, 1);
  gtk_grid_attach (GTK_GRID (grid), field_icon (self, ETL_SESSION_FIELD_WNODE_CLIENT_CONTEXT), 1, 0, 1, 1);
  gtk_grid_attach (GTK_GRID (grid), field_diag_label (self, ETL_SESSION_FIELD_WNODE_CLIENT_CONTEXT), 0, 1, 2, 1);

  section (self, box, "kernel-flags", "Kernel flags (EnableFlags)", &grid);
  self->kernel_hint = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (self->kernel_hint), 0);
  gtk_label_set_line_wrap (GTK_LABEL (self->kernel_hint), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (self->kernel_hint), 40);
  gtk_style_context_add_class (gtk_widget_get_style_context (self->kernel_hint), "dim-label");
  gtk_grid_attach (GTK_GRID (grid), self->kernel_hint, 0, 0, 2, 1);
  self->kernel_grid = flag_grid (self, TRUE);
  gtk_grid_attach (GTK_GRID (grid), self->kernel_grid, 0, 1, 1, 1);
  gtk_grid_attach (GTK_GRID (grid), field_icon (self, ETL_SESSION_FIELD_ENABLE_FLAGS), 1, 1, 1, 1);
  gtk_widget_set_valign (self->icons[ETL_SESSION_FIELD_ENABLE_FLAGS], GTK_ALIGN_START);
  gtk_grid_attach (GTK_GRID (grid), field_diag_label (self, ETL_SESSION_FIELD_ENABLE_FLAGS), 0, 2, 2, 1);

  return box;
}

static void
load_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  load_preset_cb (NULL, user_data);
}

static void
save_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  save_preset_cb (NULL, user_data);
}

static void
copy_c_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  copy_c_cb (NULL, user_data);
}

static void
copy_command_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  copy_command (user_data, g_variant_get_string (param, NULL));
}

/* One row that fits a narrow pane: the preset, Start / Stop, and the rest
 * (load, save, copy as C or as a command line) in a menu button. */
static GtkWidget *
build_toolbar (EtlSessionPanel *self)
{
  static const GActionEntry entries[] = {
    { "load", load_action },
    { "save", save_action },
    { "copy-c", copy_c_action },
    { "copy-command", copy_command_action, "s" },
  };
  GtkWidget *bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *menu_button = gtk_menu_button_new ();
  g_autoptr (GMenu) menu = g_menu_new ();
  g_autoptr (GMenu) presets = g_menu_new ();
  g_autoptr (GMenu) exports = g_menu_new ();

  g_object_set (bar, "margin", 6, NULL);
  self->actions = g_simple_action_group_new ();
  g_action_map_add_action_entries (G_ACTION_MAP (self->actions), entries, G_N_ELEMENTS (entries), self);
  gtk_widget_insert_action_group (GTK_WIDGET (self), "session", G_ACTION_GROUP (self->actions));

  self->preset_combo = gtk_combo_box_text_new ();
  for (const char *const *p = etl_session_preset_names (); *p; p++)
    gtk_combo_box_text_append (GTK_COMBO_BOX_TEXT (self->preset_combo), *p, *p);
  gtk_combo_box_text_append (GTK_COMBO_BOX_TEXT (self->preset_combo), "custom", "Custom");
  gtk_widget_set_tooltip_text (self->preset_combo, "Built-in presets; “Custom” when the settings match none");
  gtk_widget_set_hexpand (self->preset_combo, TRUE);
  g_signal_connect (self->preset_combo, "changed", G_CALLBACK (preset_changed_cb), self);
  gtk_box_pack_start (GTK_BOX (bar), gtk_label_new ("Preset"), FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (bar), self->preset_combo, TRUE, TRUE, 0);

  self->start_button = gtk_button_new_with_mnemonic ("_Start");
  gtk_style_context_add_class (gtk_widget_get_style_context (self->start_button), "suggested-action");
  g_signal_connect (self->start_button, "clicked", G_CALLBACK (start_cb), self);
  gtk_box_pack_start (GTK_BOX (bar), self->start_button, FALSE, FALSE, 0);
  self->stop_button = gtk_button_new_with_mnemonic ("S_top");
  g_signal_connect (self->stop_button, "clicked", G_CALLBACK (stop_cb), self);
  gtk_box_pack_start (GTK_BOX (bar), self->stop_button, FALSE, FALSE, 0);

  g_menu_append (presets, "_Load Preset…", "session.load");
  g_menu_append (presets, "_Save Preset…", "session.save");
  g_menu_append_section (menu, NULL, G_MENU_MODEL (presets));
  g_menu_append (exports, "Copy as _C Code", "session.copy-c");
  g_menu_append (exports, "Copy _logman Command", "session.copy-command::logman");
  g_menu_append (exports, "Copy _xperf Command", "session.copy-command::xperf");
  g_menu_append (exports, "Copy _tracelog Command", "session.copy-command::tracelog");
  g_menu_append_section (menu, NULL, G_MENU_MODEL (exports));
  /* A menu, not a popover: a popover cannot follow its button inside an
   * offscreen window (the tests draw the panel in one). */
  gtk_menu_button_set_use_popover (GTK_MENU_BUTTON (menu_button), FALSE);
  gtk_menu_button_set_menu_model (GTK_MENU_BUTTON (menu_button), G_MENU_MODEL (menu));
  gtk_button_set_image (GTK_BUTTON (menu_button), gtk_image_new_from_icon_name ("view-more-symbolic",
                                                                                GTK_ICON_SIZE_BUTTON));
  gtk_widget_set_tooltip_text (menu_button, "Load or save a preset; copy as C code or a command line");
  gtk_box_pack_start (GTK_BOX (bar), menu_button, FALSE, FALSE, 0);
  return bar;
}


static GtkWidget *
build_side (EtlSessionPanel *self, GtkWidget *box)
{
  GtkWidget *scroll, *hbox, *grid, *inner;
  static const char *const counter_names[] = {
    "EventsLost", "LogBuffersLost", "RealTimeBuffersLost", "BuffersWritten", "FreeBuffers", "NumberOfBuffers",
  };

  inner = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  self->diag_summary = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (self->diag_summary), 0);
  gtk_style_context_add_class (gtk_widget_get_style_context (self->diag_summary), "dim-label");
  gtk_box_pack_start (GTK_BOX (inner), self->diag_summary, FALSE, FALSE, 0);
  self->diag_list = gtk_list_box_new ();
  gtk_list_box_set_selection_mode (GTK_LIST_BOX (self->diag_list), GTK_SELECTION_NONE);
  gtk_box_pack_start (GTK_BOX (inner), self->diag_list, FALSE, FALSE, 0);
  add_section (self, box, "diagnostics", "Diagnostics", inner);

  inner = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  hbox = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  self->cpus_spin = gtk_spin_button_new_with_range (1, 2048, 1);
  gtk_widget_set_tooltip_text (self->cpus_spin, "Logical processors of the machine that will run the session");
  g_signal_connect (self->cpus_spin, "value-changed", G_CALLBACK (cpus_changed_cb), self);
  gtk_box_pack_start (GTK_BOX (hbox), gtk_label_new ("For"), FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (hbox), self->cpus_spin, FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (hbox), gtk_label_new ("logical processors"), FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (inner), hbox, FALSE, FALSE, 0);
  self->effective_label = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (self->effective_label), 0);
  gtk_label_set_selectable (GTK_LABEL (self->effective_label), TRUE);
  gtk_label_set_line_wrap (GTK_LABEL (self->effective_label), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (self->effective_label), 40);
  gtk_box_pack_start (GTK_BOX (inner), self->effective_label, FALSE, FALSE, 0);
  add_section (self, box, "effective", "Effective values", inner);

  inner = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  hbox = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  {
    GtkWidget *x86;

    self->arch_x64 = gtk_radio_button_new_with_label (NULL, "x64");
    x86 = gtk_radio_button_new_with_label_from_widget (GTK_RADIO_BUTTON (self->arch_x64), "x86");
    gtk_widget_set_tooltip_text (self->arch_x64, "64-bit process: HANDLE LoggerThreadId is 8 bytes");
    gtk_widget_set_tooltip_text (x86, "32-bit process: HANDLE LoggerThreadId is 4 bytes; the offsets move by 4");
    g_signal_connect (self->arch_x64, "toggled", G_CALLBACK (arch_toggled_cb), self);
    gtk_box_pack_start (GTK_BOX (hbox), gtk_label_new ("Layout of"), FALSE, FALSE, 0);
    gtk_box_pack_start (GTK_BOX (hbox), self->arch_x64, FALSE, FALSE, 0);
    gtk_box_pack_start (GTK_BOX (hbox), x86, FALSE, FALSE, 0);
  }
  gtk_box_pack_start (GTK_BOX (inner), hbox, FALSE, FALSE, 0);
  self->layout_area = gtk_drawing_area_new ();
  gtk_widget_add_events (self->layout_area, GDK_POINTER_MOTION_MASK | GDK_LEAVE_NOTIFY_MASK);
  g_signal_connect (self->layout_area, "draw", G_CALLBACK (layout_draw_cb), self);
  g_signal_connect (self->layout_area, "motion-notify-event", G_CALLBACK (layout_motion_cb), self);
  g_signal_connect (self->layout_area, "leave-notify-event", G_CALLBACK (layout_leave_cb), self);
  /* 16 bytes a row fit the column; the rows scroll. */
  scroll = gtk_scrolled_window_new (NULL, NULL);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroll), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_shadow_type (GTK_SCROLLED_WINDOW (scroll), GTK_SHADOW_IN);
  gtk_scrolled_window_set_min_content_height (GTK_SCROLLED_WINDOW (scroll), 160);
  gtk_container_add (GTK_CONTAINER (scroll), self->layout_area);
  gtk_box_pack_start (GTK_BOX (inner), scroll, FALSE, FALSE, 0);
  self->layout_info = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (self->layout_info), 0);
  gtk_label_set_line_wrap (GTK_LABEL (self->layout_info), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (self->layout_info), 40);
  gtk_label_set_lines (GTK_LABEL (self->layout_info), 3);
  gtk_label_set_ellipsize (GTK_LABEL (self->layout_info), PANGO_ELLIPSIZE_END);
  gtk_box_pack_start (GTK_BOX (inner), self->layout_info, FALSE, FALSE, 0);
  add_section (self, box, "bytes", "Bytes passed to StartTrace", inner);

  grid = gtk_grid_new ();
  gtk_grid_set_column_spacing (GTK_GRID (grid), 12);
  for (guint i = 0; i < G_N_ELEMENTS (counter_names); i++)
    {
      GtkWidget *name = gtk_label_new (counter_names[i]);
      const EtlSessionFieldInfo *info = etl_session_field_lookup (counter_names[i]);

      gtk_widget_set_tooltip_text (name, info->doc);
      gtk_style_context_add_class (gtk_widget_get_style_context (name), "dim-label");
      self->counter_labels[i] = gtk_label_new ("—");
      gtk_grid_attach (GTK_GRID (grid), name, (int) (i % 2) * 2, (int) (i / 2), 1, 1);
      gtk_grid_attach (GTK_GRID (grid), self->counter_labels[i], (int) (i % 2) * 2 + 1, (int) (i / 2), 1, 1);
      gtk_label_set_xalign (GTK_LABEL (name), 1);
      gtk_label_set_xalign (GTK_LABEL (self->counter_labels[i]), 0);
    }
  add_section (self, box, "running", "Running session (ControlTrace QUERY)", grid);
  return box;
}

static void
etl_session_panel_dispose (GObject *object)
{
  EtlSessionPanel *self = ETL_SESSION_PANEL (object);

  g_clear_handle_id (&self->poll_id, g_source_remove);
  g_clear_object (&self->actions);
  G_OBJECT_CLASS (etl_session_panel_parent_class)->dispose (object);
}

static void
etl_session_panel_finalize (GObject *object)
{
  EtlSessionPanel *self = ETL_SESSION_PANEL (object);

  etl_session_free (self->session);
  g_clear_pointer (&self->layout_bytes, g_bytes_unref);
  g_free (self->byte_fields);
  for (guint f = 0; f < ETL_SESSION_N_FIELDS; f++)
    g_free (self->invalid[f]);
  g_free (self->running_name);
  g_free (self->running_file);
  g_clear_pointer (&self->expanders, g_ptr_array_unref);
  G_OBJECT_CLASS (etl_session_panel_parent_class)->finalize (object);
}

static void
etl_session_panel_class_init (EtlSessionPanelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = etl_session_panel_dispose;
  object_class->finalize = etl_session_panel_finalize;

  /**
   * EtlSessionPanel::session-stopped:
   * @self: the panel
   * @path: the log file of the session that Stop ended (the name ETW
   *   reports, with any number it appended)
   *
   * Emitted after Stop ended a session that wrote a log file; the window
   * opens @path.
   */
  signals[SESSION_STOPPED] = g_signal_new ("session-stopped", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                                           NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
  gtk_widget_class_set_css_name (GTK_WIDGET_CLASS (klass), "etlsessionpanel");
}

static void
etl_session_panel_init (EtlSessionPanel *self)
{
  GtkWidget *column, *scroll;

  self->session = etl_session_new_preset ("low-overhead-file", NULL);
  self->arch = ETL_SESSION_ARCH_X64;
  self->n_cpus = MAX (g_get_num_processors (), 1);
  self->hover_field = ETL_SESSION_N_FIELDS;

  gtk_orientable_set_orientation (GTK_ORIENTABLE (self), GTK_ORIENTATION_VERTICAL);
  self->expanders = g_ptr_array_new ();
  gtk_box_pack_start (GTK_BOX (self), build_toolbar (self), FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (self), gtk_separator_new (GTK_ORIENTATION_HORIZONTAL), FALSE, FALSE, 0);

  /* One column of collapsible sections that fits a pane of about 400 px:
   * the form, then the diagnostics, the effective values and the bytes. */
  column = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  g_object_set (column, "margin", 8, NULL);
  build_form (self, column);
  build_side (self, column);
  scroll = gtk_scrolled_window_new (NULL, NULL);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroll), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_container_add (GTK_CONTAINER (scroll), column);
  gtk_box_pack_start (GTK_BOX (self), scroll, TRUE, TRUE, 0);

  self->status_label = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (self->status_label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (self->status_label), PANGO_ELLIPSIZE_END);
  g_object_set (self->status_label, "margin", 6, NULL);
  gtk_box_pack_end (GTK_BOX (self), self->status_label, FALSE, FALSE, 0);

  self->updating = TRUE;
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (self->cpus_spin), self->n_cpus);
  gtk_combo_box_set_active_id (GTK_COMBO_BOX (self->preset_combo), "low-overhead-file");
  self->updating = FALSE;
  update_run_buttons (self);
  show_counters (self, NULL);
  load_into_widgets (self);
}

/* ------------------------------------------------------------------------ */
/* Public API                                                                */

/**
 * etl_session_panel_new:
 *
 * Creates the session configuration panel, starting from the
 * "low-overhead-file" preset and this machine's processor count.
 *
 * Returns: (transfer floating): a new #EtlSessionPanel
 */
GtkWidget *
etl_session_panel_new (void)
{
  return g_object_new (ETL_TYPE_SESSION_PANEL, NULL);
}

/**
 * etl_session_panel_get_session:
 * @self: an #EtlSessionPanel
 *
 * Returns: (transfer none): the settings the form shows
 */
const EtlSession *
etl_session_panel_get_session (EtlSessionPanel *self)
{
  g_return_val_if_fail (ETL_IS_SESSION_PANEL (self), NULL);
  return self->session;
}

/**
 * etl_session_panel_set_session:
 * @self: an #EtlSessionPanel
 * @session: settings to show (copied)
 *
 * Replaces the form's settings and refreshes diagnostics and bytes.
 */
void
etl_session_panel_set_session (EtlSessionPanel *self, const EtlSession *session)
{
  EtlSession *copy;

  g_return_if_fail (ETL_IS_SESSION_PANEL (self));
  g_return_if_fail (session != NULL);
  copy = etl_session_copy (session);
  etl_session_free (self->session);
  self->session = copy;
  load_into_widgets (self);
}

/**
 * etl_session_panel_set_arch:
 * @self: an #EtlSessionPanel
 * @arch: the layout the byte view shows
 */
void
etl_session_panel_set_arch (EtlSessionPanel *self, EtlSessionArch arch)
{
  g_return_if_fail (ETL_IS_SESSION_PANEL (self));
  if (self->arch == arch)
    return;
  self->arch = arch;
  self->updating = TRUE;
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (self->arch_x64), arch == ETL_SESSION_ARCH_X64);
  self->updating = FALSE;
  refresh (self);
}

/**
 * etl_session_panel_get_arch:
 * @self: an #EtlSessionPanel
 *
 * Returns: the layout the byte view shows
 */
EtlSessionArch
etl_session_panel_get_arch (EtlSessionPanel *self)
{
  g_return_val_if_fail (ETL_IS_SESSION_PANEL (self), ETL_SESSION_ARCH_X64);
  return self->arch;
}

/**
 * etl_session_panel_set_n_cpus:
 * @self: an #EtlSessionPanel
 * @n_cpus: logical processors used for the effective values (≥ 1)
 */
void
etl_session_panel_set_n_cpus (EtlSessionPanel *self, guint n_cpus)
{
  g_return_if_fail (ETL_IS_SESSION_PANEL (self));
  n_cpus = MAX (n_cpus, 1);
  if (self->n_cpus == n_cpus)
    return;
  self->n_cpus = n_cpus;
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (self->cpus_spin), n_cpus);
  refresh (self);
}

/**
 * etl_session_panel_get_field_widget:
 * @self: an #EtlSessionPanel
 * @field: a Windows field name ("MaximumFileSize")
 *
 * Returns: (transfer none) (nullable): the #GtkEntry editing @field, or
 *   %NULL when the field has none (flags, clock, computed fields)
 */
GtkWidget *
etl_session_panel_get_field_widget (EtlSessionPanel *self, const char *field)
{
  const EtlSessionFieldInfo *info;

  g_return_val_if_fail (ETL_IS_SESSION_PANEL (self), NULL);
  info = etl_session_field_lookup (field);
  return info ? self->entries[info->field] : NULL;
}

/**
 * etl_session_panel_get_flag_button:
 * @self: an #EtlSessionPanel
 * @field: "LogFileMode" or "EnableFlags"
 * @value: the flag's value (e.g. %ETL_EVENT_TRACE_FILE_MODE_CIRCULAR)
 *
 * Returns: (transfer none) (nullable): the #GtkCheckButton of that flag
 */
GtkWidget *
etl_session_panel_get_flag_button (EtlSessionPanel *self, const char *field, guint32 value)
{
  gboolean enable;

  g_return_val_if_fail (ETL_IS_SESSION_PANEL (self), NULL);
  enable = g_ascii_strcasecmp (field, "EnableFlags") == 0;
  for (guint i = 0; i < (enable ? self->n_flag_checks : self->n_mode_checks); i++)
    if ((enable ? self->flag_values[i] : self->mode_values[i]) == value)
      return enable ? self->flag_checks[i] : self->mode_checks[i];
  return NULL;
}

/**
 * etl_session_panel_get_field_severity:
 * @self: an #EtlSessionPanel
 * @field: a Windows field name
 *
 * Returns: the worst #EtlSessionSeverity reported on @field, or -1 for none
 */
int
etl_session_panel_get_field_severity (EtlSessionPanel *self, const char *field)
{
  const EtlSessionFieldInfo *info;

  g_return_val_if_fail (ETL_IS_SESSION_PANEL (self), -1);
  info = etl_session_field_lookup (field);
  return info ? self->severity[info->field] : -1;
}

/**
 * etl_session_panel_highlight_field:
 * @self: an #EtlSessionPanel
 * @field: a Windows field name, or %NULL for none
 *
 * Highlights @field in the byte-layout view, as pointing at one of its
 * bytes does, and describes it below the view.
 */
void
etl_session_panel_highlight_field (EtlSessionPanel *self, const char *field)
{
  const EtlSessionFieldInfo *info;

  g_return_if_fail (ETL_IS_SESSION_PANEL (self));
  info = field ? etl_session_field_lookup (field) : NULL;
  self->hover_field = info ? info->field : ETL_SESSION_N_FIELDS;
  update_hover_info (self);
  gtk_widget_queue_draw (self->layout_area);
}

/**
 * etl_session_panel_dup_collapsed_sections:
 * @self: an #EtlSessionPanel
 *
 * Returns: (transfer full): ids of the closed sections ("session",
 *   "buffers", "log-file", "flags", "clock", "kernel-flags", "diagnostics",
 *   "effective", "bytes", "running"); g_strfreev()
 */
char **
etl_session_panel_dup_collapsed_sections (EtlSessionPanel *self)
{
  GPtrArray *ids = g_ptr_array_new ();

  g_return_val_if_fail (ETL_IS_SESSION_PANEL (self), NULL);
  for (guint i = 0; i < self->expanders->len; i++)
    {
      GtkExpander *e = g_ptr_array_index (self->expanders, i);

      if (!gtk_expander_get_expanded (e))
        g_ptr_array_add (ids, g_strdup (g_object_get_data (G_OBJECT (e), "etl-section")));
    }
  g_ptr_array_add (ids, NULL);
  return (char **) g_ptr_array_free (ids, FALSE);
}

/**
 * etl_session_panel_set_section_expanded:
 * @self: an #EtlSessionPanel
 * @id: a section id (etl_session_panel_dup_collapsed_sections()); unknown
 *   ids are ignored
 * @expanded: open or close it
 */
void
etl_session_panel_set_section_expanded (EtlSessionPanel *self, const char *id, gboolean expanded)
{
  g_return_if_fail (ETL_IS_SESSION_PANEL (self));
  for (guint i = 0; i < self->expanders->len; i++)
    {
      GtkExpander *e = g_ptr_array_index (self->expanders, i);

      if (g_strcmp0 (g_object_get_data (G_OBJECT (e), "etl-section"), id) == 0)
        gtk_expander_set_expanded (e, expanded);
    }
}

/**
 * etl_session_panel_get_preset:
 * @self: an #EtlSessionPanel
 *
 * Returns: (transfer none): the preset the settings match, or "custom"
 */
const char *
etl_session_panel_get_preset (EtlSessionPanel *self)
{
  g_return_val_if_fail (ETL_IS_SESSION_PANEL (self), NULL);
  return gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->preset_combo));
}

/**
 * etl_session_panel_get_field_diagnostic:
 * @self: an #EtlSessionPanel
 * @field: a Windows field name
 *
 * Returns: (transfer none) (nullable): the diagnostics shown under @field,
 *   %NULL when none are shown
 */
const char *
etl_session_panel_get_field_diagnostic (EtlSessionPanel *self, const char *field)
{
  const EtlSessionFieldInfo *info;

  g_return_val_if_fail (ETL_IS_SESSION_PANEL (self), NULL);
  info = etl_session_field_lookup (field);
  if (info == NULL || self->diag_labels[info->field] == NULL || !gtk_widget_get_visible (self->diag_labels[info->field]))
    return NULL;
  return gtk_label_get_text (GTK_LABEL (self->diag_labels[info->field]));
}

/**
 * etl_session_panel_get_layout_bytes:
 * @self: an #EtlSessionPanel
 *
 * Returns: (transfer none): the bytes the layout view shows
 */
GBytes *
etl_session_panel_get_layout_bytes (EtlSessionPanel *self)
{
  g_return_val_if_fail (ETL_IS_SESSION_PANEL (self), NULL);
  return self->layout_bytes;
}
