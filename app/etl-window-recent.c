/* SPDX-License-Identifier: GPL-3.0-or-later */

/*
 * Recent traces: the header bar's Recent menu and the start page's list,
 * from #GtkRecentManager; a merged set of files is one entry and reopens
 * as a set.
 */

#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include <string.h>

#include "etl-window-private.h"

#define MAX_RECENT 10

/* ------------------------------------------------------------------------ */
/* Recent files                                                             */
/* ------------------------------------------------------------------------ */

static gint
compare_recent (gconstpointer a, gconstpointer b)
{
  GtkRecentInfo *ia = *(GtkRecentInfo **) a;
  GtkRecentInfo *ib = *(GtkRecentInfo **) b;
  time_t ma = gtk_recent_info_get_modified (ia);
  time_t mb = gtk_recent_info_get_modified (ib);

  return ma < mb ? 1 : ma > mb ? -1 : 0;
}

static GPtrArray *
recent_traces (EtlWindow *self)
{
  GPtrArray *items = g_ptr_array_new_with_free_func ((GDestroyNotify) gtk_recent_info_unref);
  GList *all = gtk_recent_manager_get_items (self->recent_manager);

  for (GList *l = all; l != NULL; l = l->next)
    {
      GtkRecentInfo *info = l->data;
      const char *uri = gtk_recent_info_get_uri (info);
      g_autofree char *lower = g_ascii_strdown (uri, -1);

      if (g_str_has_suffix (lower, ".etl") && gtk_recent_info_exists (info))
        g_ptr_array_add (items, gtk_recent_info_ref (info));
    }
  g_list_free_full (all, (GDestroyNotify) gtk_recent_info_unref);
  g_ptr_array_sort (items, compare_recent);
  if (items->len > MAX_RECENT)
    g_ptr_array_set_size (items, MAX_RECENT);
  return items;
}

#define RECENT_SET_TAG "etlscope-set\n"

/* A merged set is one recent entry: its first file's URI, whose description
 * is RECENT_SET_TAG followed by every URI of the set, one a line.  The other
 * files of the set are not added on their own. */
static char **
recent_info_dup_uris (GtkRecentInfo *info)
{
  const char *description = gtk_recent_info_get_description (info);

  if (description != NULL && g_str_has_prefix (description, RECENT_SET_TAG))
    {
      g_auto (GStrv) lines = g_strsplit (description + strlen (RECENT_SET_TAG), "\n", 64);
      GPtrArray *uris = g_ptr_array_new ();

      for (guint i = 0; lines[i] != NULL; i++)
        if (lines[i][0] != '\0')
          g_ptr_array_add (uris, g_strdup (lines[i]));
      g_ptr_array_add (uris, NULL);
      return (char **) g_ptr_array_free (uris, FALSE);
    }
  return g_strdupv ((char *[]) { (char *) gtk_recent_info_get_uri (info), NULL });
}

/* A menu label shows a file name as it is: underscores are mnemonics in a
 * GMenu label, so each is doubled. */
static char *
escape_mnemonics (const char *text)
{
  g_autoptr (GString) out = g_string_new (NULL);

  for (const char *c = text; *c != '\0'; c++)
    {
      if (*c == '_')
        g_string_append_c (out, '_');
      g_string_append_c (out, *c);
    }
  return g_string_free (g_steal_pointer (&out), FALSE);
}

static char *
recent_label (GtkRecentInfo *info, char **uris)
{
  g_autofree char *name = gtk_recent_info_get_short_name (info);
  guint n = g_strv_length (uris);

  if (n > 1)
    return g_strdup_printf ("%s + %u more (merged)", name, n - 1);
  return g_steal_pointer (&name);
}

void
rebuild_recent (EtlWindow *self)
{
  g_autoptr (GPtrArray) items = recent_traces (self);
  g_autoptr (GList) children = gtk_container_get_children (GTK_CONTAINER (self->recent_list));

  for (GList *l = children; l != NULL; l = l->next)
    gtk_widget_destroy (l->data);
  g_menu_remove_all (self->recent_menu);

  for (guint i = 0; i < items->len; i++)
    {
      GtkRecentInfo *info = g_ptr_array_index (items, i);
      g_auto (GStrv) uris = recent_info_dup_uris (info);
      g_autofree char *name = recent_label (info, uris);
      g_autofree char *where = gtk_recent_info_get_uri_display (info);
      g_autofree char *escaped = escape_mnemonics (name);
      GtkWidget *row, *box, *title, *subtitle;

      row = gtk_list_box_row_new ();
      g_object_set_data_full (G_OBJECT (row), "uris", g_strdupv (uris), (GDestroyNotify) g_strfreev);
      box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
      g_object_set (box, "margin", 8, NULL);
      title = gtk_label_new (name);
      gtk_label_set_xalign (GTK_LABEL (title), 0);
      subtitle = gtk_label_new (where);
      gtk_label_set_xalign (GTK_LABEL (subtitle), 0);
      gtk_label_set_ellipsize (GTK_LABEL (subtitle), PANGO_ELLIPSIZE_MIDDLE);
      gtk_style_context_add_class (gtk_widget_get_style_context (subtitle), "dim-label");
      gtk_container_add (GTK_CONTAINER (box), title);
      gtk_container_add (GTK_CONTAINER (box), subtitle);
      gtk_container_add (GTK_CONTAINER (row), box);
      gtk_widget_show_all (row);
      gtk_container_add (GTK_CONTAINER (self->recent_list), row);

      {
        g_autoptr (GMenuItem) item = g_menu_item_new (escaped, NULL);

        g_menu_item_set_action_and_target_value (item, "win.open-recent",
                                                 g_variant_new_strv ((const char *const *) uris, -1));
        g_menu_append_item (self->recent_menu, item);
      }
    }

  gtk_widget_set_visible (GTK_WIDGET (self->recent_list), items->len > 0);
  gtk_widget_set_visible (GTK_WIDGET (self->recent_title), items->len > 0);
  gtk_widget_set_sensitive (GTK_WIDGET (self->recent_button), items->len > 0);
}

/* Adds the files of @trace to the recent list: one entry for one file, one
 * entry for a merged set. */
void
add_recent (EtlWindow *self, EtlTrace *trace)
{
  guint n_files = etl_trace_get_n_files (trace);
  g_autoptr (GString) description = g_string_new (RECENT_SET_TAG);
  g_autofree char *first = NULL;
  GtkRecentData data = { 0 };

  for (guint f = 0; f < n_files; f++)
    {
      g_autoptr (GFile) file = g_file_new_for_path (etl_trace_get_file_info (trace, f)->path);
      g_autofree char *uri = g_file_get_uri (file);

      g_string_append_printf (description, "%s\n", uri);
      if (f == 0)
        first = g_steal_pointer (&uri);
    }
  if (first == NULL)
    return;
  /* An empty description turns a former set entry back into one file. */
  data.description = n_files > 1 ? description->str : (char *) "";
  data.mime_type = (char *) "application/octet-stream";
  data.app_name = (char *) "etlscope";
  data.app_exec = (char *) "etlscope %u";
  gtk_recent_manager_add_full (self->recent_manager, first, &data);
}

void
open_uris (EtlWindow *self, const char *const *uris)
{
  g_autoptr (GPtrArray) files = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; uris[i] != NULL; i++)
    if (uris[i][0] != '\0')
      g_ptr_array_add (files, g_file_new_for_commandline_arg (uris[i]));
  if (files->len > 0)
    etl_window_open_files (self, (GFile **) files->pdata, files->len);
}

void
on_recent_row_activated (GtkListBox *list, GtkListBoxRow *row, EtlWindow *self)
{
  const char *const *uris = g_object_get_data (G_OBJECT (row), "uris");

  if (uris != NULL)
    open_uris (self, uris);
}
