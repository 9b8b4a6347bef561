/* SPDX-License-Identifier: GPL-3.0-or-later */

/*
 * The window's symbol resolver (issue 22: every stack names its native
 * frames).  As soon as a trace's stacks are there, the window makes one
 * #EtlSymbolResolver for them and the Preferences' symbol path
 * (etl-preferences.c: the path, else `_NT_SYMBOL_PATH`; downloads from
 * `srv*` servers only when the Preferences allow them, off by default) and
 * attaches it to the stacks, so that the details pane, the stacks dialog
 * and every other view name frames through it.
 *
 * The resolver is not on demand: naming a frame of a module whose PDB is
 * not loaded answers `module+0xOFFSET` at once and queues the module.  Its
 * queued callback wakes the main loop, which starts one worker
 * (etl_symbol_resolver_resolve_pending()) for whatever is queued; each PDB
 * settled calls the resolver's notify from the worker, which schedules a
 * refresh of the details pane in the main loop (etl_details_refresh_stack():
 * the same record shown again when its frames now read otherwise).  PDBs
 * are never read in the main loop.  The stacks dialog gets the same
 * resolver (one per trace and symbol path) and runs its own worker over
 * the same queue for its Symbols page.
 */

#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include "etl-details.h"
#include "etl-preferences.h"
#include "etl-symbol-path.h"
#include "etl-symbol-server.h"
#include "etl-window-private.h"
#include "etl-worker.h"

#define SYMBOLS_KEY "etl-window-symbols"

/* What the resolver's callbacks reach the window through: owned by the
 * resolver (freed with its memory), by the window's WindowSymbols and by
 * each idle and worker in flight.  Its window is a weak reference: a window
 * closed while a PDB loads is not kept alive. */
typedef struct
{
  gint ref_count;
  GWeakRef window;
  gint start_pending;   /* atomic: a start_idle() is scheduled */
  gint refresh_pending; /* atomic: a refresh_idle() is scheduled */
  GCancellable *cancellable; /* cancelled when the window drops the resolver */
  gboolean busy;        /* main thread: a worker runs */
  gboolean again;       /* main thread: something was queued while it ran */
} SymbolsLink;

typedef struct
{
  EtlStacks *stacks;
  char *text;
  EtlSymbolResolver *resolver;
  SymbolsLink *link;
} WindowSymbols;

static SymbolsLink *
link_ref (SymbolsLink *link)
{
  g_atomic_int_inc (&link->ref_count);
  return link;
}

static void
link_unref (gpointer data)
{
  SymbolsLink *link = data;

  if (!g_atomic_int_dec_and_test (&link->ref_count))
    return;
  g_weak_ref_clear (&link->window);
  g_object_unref (link->cancellable);
  g_free (link);
}

static void
window_symbols_free (gpointer data)
{
  WindowSymbols *ws = data;

  g_cancellable_cancel (ws->link->cancellable);
  etl_symbol_resolver_detach (ws->resolver);
  etl_symbol_resolver_unref (ws->resolver);
  link_unref (ws->link);
  g_free (ws->text);
  g_free (ws);
}

/* The window of @link while @link is still its resolver's (a new trace or
 * symbol path replaces both), with a reference, else %NULL. */
static EtlWindow *
link_window (SymbolsLink *link, WindowSymbols **ws_out)
{
  EtlWindow *self = g_weak_ref_get (&link->window);
  WindowSymbols *ws;

  if (self == NULL)
    return NULL;
  ws = g_object_get_data (G_OBJECT (self), SYMBOLS_KEY);
  if (ws == NULL || ws->link != link)
    {
      g_object_unref (self);
      return NULL;
    }
  if (ws_out != NULL)
    *ws_out = ws;
  return self;
}

static void
resolve_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  GError *error = NULL;

  etl_symbol_resolver_resolve_pending (task_data, cancellable, &error);
  if (error != NULL)
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

static void start_worker (SymbolsLink *link);

static void
on_resolved (GObject *source, GAsyncResult *result, gpointer user_data)
{
  SymbolsLink *link = user_data;

  g_task_propagate_boolean (G_TASK (result), NULL); /* cancelled: the window dropped it */
  link->busy = FALSE;
  if (link->again && !g_cancellable_is_cancelled (link->cancellable))
    {
      link->again = FALSE;
      start_worker (link);
    }
  link_unref (link);
}

/* Main thread: one worker at a time resolves what is queued. */
static void
start_worker (SymbolsLink *link)
{
  g_autoptr (EtlWindow) self = NULL;
  g_autoptr (GTask) task = NULL;
  WindowSymbols *ws = NULL;

  if (link->busy)
    {
      link->again = TRUE;
      return;
    }
  if ((self = link_window (link, &ws)) == NULL)
    return;
  link->busy = TRUE;
  task = g_task_new (NULL, link->cancellable, on_resolved, link_ref (link));
  g_task_set_task_data (task, etl_symbol_resolver_ref (ws->resolver), (GDestroyNotify) etl_symbol_resolver_unref);
  etl_worker_run (task, resolve_thread);
}

static gboolean
start_idle (gpointer data)
{
  SymbolsLink *link = data;

  g_atomic_int_set (&link->start_pending, 0);
  start_worker (link);
  return G_SOURCE_REMOVE;
}

/* The resolver queued a module (any thread, the resolver's lock held). */
static void
on_queued (gpointer resolver, gpointer data)
{
  SymbolsLink *link = data;

  if (g_atomic_int_compare_and_exchange (&link->start_pending, 0, 1))
    g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, start_idle, link_ref (link), link_unref);
}

static gboolean
refresh_idle (gpointer data)
{
  SymbolsLink *link = data;
  g_autoptr (EtlWindow) self = NULL;

  g_atomic_int_set (&link->refresh_pending, 0);
  if ((self = link_window (link, NULL)) != NULL)
    etl_details_refresh_stack (self->details);
  return G_SOURCE_REMOVE;
}

/* The resolver settled a module or a download advanced (the worker's
 * thread). */
static void
on_settled (gpointer resolver, gpointer data)
{
  SymbolsLink *link = data;

  if (g_atomic_int_compare_and_exchange (&link->refresh_pending, 0, 1))
    g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, refresh_idle, link_ref (link), link_unref);
}

/* The process's symbol-server client (windows are made and used on the
 * main thread only; a server that answered 404 is not asked again in the
 * session). */
static EtlSymbolServer *
symbol_server (void)
{
  static EtlSymbolServer *server;

  if (server == NULL)
    server = etl_symbol_server_new ();
  return server;
}

/**
 * etl_window_symbols_update:
 * @self: a window
 * @stacks: (nullable): the trace's stacks, or %NULL (no trace, or no
 *   stacks): the resolver is dropped
 * @text: (nullable): the symbol path as the Preferences give it
 *   (etl_preferences_get_symbol_path()); %NULL: read them
 * @download: whether the path's servers may be asked (ignored with @text
 *   %NULL: the Preferences' switch)
 *
 * The window's resolver for @stacks and @text: kept when both are the
 * same (the download switch is applied to it: turning it on retries the
 * modules not found), else made anew and attached to @stacks (the one
 * before is detached and its worker cancelled).  A path that does not
 * parse resolves nothing (every image: not found).
 *
 * Returns: (transfer none) (nullable): the resolver, %NULL without @stacks
 */
EtlSymbolResolver *
etl_window_symbols_update (EtlWindow *self, EtlStacks *stacks, const char *text, gboolean download)
{
  WindowSymbols *ws = g_object_get_data (G_OBJECT (self), SYMBOLS_KEY);
  g_autofree char *prefs_text = NULL;
  g_autoptr (EtlSymbolPath) path = NULL;

  if (stacks == NULL)
    {
      g_object_set_data (G_OBJECT (self), SYMBOLS_KEY, NULL);
      return NULL;
    }
  if (text == NULL)
    {
      text = prefs_text = etl_preferences_get_symbol_path ();
      download = etl_preferences_get_download_symbols ();
    }
  if (ws != NULL && ws->stacks == stacks && g_strcmp0 (ws->text, text) == 0)
    {
      if (download && !etl_symbol_resolver_get_downloads (ws->resolver))
        {
          etl_symbol_resolver_set_downloads (ws->resolver, TRUE);
          etl_symbol_resolver_retry (ws->resolver);
        }
      else if (!download)
        etl_symbol_resolver_set_downloads (ws->resolver, FALSE);
      return ws->resolver;
    }
  g_object_set_data (G_OBJECT (self), SYMBOLS_KEY, NULL); /* detaches the old one */
  path = etl_symbol_path_parse (text, NULL);
  ws = g_new0 (WindowSymbols, 1);
  ws->stacks = stacks;
  ws->text = g_strdup (text);
  ws->resolver = etl_symbol_resolver_new (stacks, path, FALSE);
  ws->link = g_new0 (SymbolsLink, 1);
  ws->link->ref_count = 1;
  g_weak_ref_init (&ws->link->window, self);
  ws->link->cancellable = g_cancellable_new ();
  etl_symbol_resolver_set_notify_full (ws->resolver, on_settled, on_queued, link_ref (ws->link), link_unref);
  etl_symbol_server_install (symbol_server (), ws->resolver);
  etl_symbol_resolver_set_downloads (ws->resolver, download);
  etl_symbol_resolver_attach (ws->resolver);
  g_object_set_data_full (G_OBJECT (self), SYMBOLS_KEY, ws, window_symbols_free);
  return ws->resolver;
}

/**
 * etl_window_symbols_preferences_changed:
 * @self: a window
 *
 * Applies the Preferences as saved: a new symbol path gets a new resolver
 * (the details pane shows the selected stack again through it: its frames
 * are named as the new path's PDBs load), the download switch is applied
 * to the resolver kept (turned on, the modules not found are asked for
 * again as the selected stack names them).
 */
void
etl_window_symbols_preferences_changed (EtlWindow *self)
{
  WindowSymbols *ws;
  g_autofree char *text = NULL;

  g_return_if_fail (ETL_IS_WINDOW (self));
  ws = g_object_get_data (G_OBJECT (self), SYMBOLS_KEY);
  if (ws == NULL)
    return; /* no stacks shown */
  text = etl_preferences_get_symbol_path ();
  etl_window_symbols_update (self, ws->stacks, text, etl_preferences_get_download_symbols ());
  /* Named again: through the new resolver, or, with downloads just turned
   * on, asking again for the modules not found. */
  etl_details_refresh_stack (self->details);
}

/**
 * etl_window_get_symbol_resolver:
 * @self: a window
 *
 * Returns: (transfer none) (nullable): the resolver attached to the shown
 *   trace's stacks (etl_window_symbols_update()), %NULL when none
 */
EtlSymbolResolver *
etl_window_get_symbol_resolver (EtlWindow *self)
{
  WindowSymbols *ws;

  g_return_val_if_fail (ETL_IS_WINDOW (self), NULL);
  ws = g_object_get_data (G_OBJECT (self), SYMBOLS_KEY);
  return ws != NULL ? ws->resolver : NULL;
}

/**
 * etl_window_get_symbols_busy:
 * @self: a window
 *
 * Returns: whether the window's worker is loading PDBs, or is about to
 */
gboolean
etl_window_get_symbols_busy (EtlWindow *self)
{
  WindowSymbols *ws;

  g_return_val_if_fail (ETL_IS_WINDOW (self), FALSE);
  ws = g_object_get_data (G_OBJECT (self), SYMBOLS_KEY);
  return ws != NULL
         && (ws->link->busy || g_atomic_int_get (&ws->link->start_pending) != 0
             || g_atomic_int_get (&ws->link->refresh_pending) != 0);
}
