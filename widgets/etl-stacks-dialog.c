/* SPDX-License-Identifier: GPL-3.0-or-later */

/**
 * SECTION:etl-stacks-dialog
 * @title: EtlStacksDialog
 * @short_description: the top frames and flame graph of the stacks in a time range
 *
 * A dialog over the stacks of a time range, from one of two sources chosen
 * by a linked pair of toggle buttons above the pages:
 *
 * - **CPU samples**: the PerfInfo SampledProfile stacks.  A Top Frames page
 *   over etl_stacks_summarize(): one row per module, .NET JIT method or "?"
 *   with the samples that have it innermost (exclusive) and anywhere in
 *   their stack (inclusive), sortable by each column; the line above says
 *   how many samples the range has, how many have a stack and what share of
 *   their frames resolved.  A Flame Graph page draws the samples' call tree
 *   (#EtlFlameGraph over etl_stack_tree_new()).
 * - **Thread time**: PerfView's Thread Time of the dialog's threads
 *   (etl_stacks_dialog_set_threads(); all threads by default) over the
 *   range: where they spent their time, running or not, from the CSwitch
 *   and ReadyThread records (etl_thread_time_tree_new(): `BLOCKED_TIME`,
 *   `READIED_TIME` and `CPU_TIME` pseudo-frames, the waker's frames marked
 *   `(READIED_BY)`), drawn on the Flame Graph page in milliseconds; the line
 *   above gives the total and its three parts.  The Top Frames table counts
 *   samples only and is hidden meanwhile.  Without CSwitch records the
 *   choice is insensitive, its tooltip saying how to record them.
 *
 * Beside them, PerfView's stack viewer pages for the source shown
 * (#EtlCallViews over etl_call_samples_new_cpu() or
 * etl_thread_time_samples_new()): By Name, Callers/Callees and Call Tree,
 * with the controls bar above the pages (group by module, fold %,
 * include/exclude).  The Flame Graph page draws the same grouped, folded and
 * filtered stacks (etl_call_tree_to_stack_tree()), so that the pages always
 * agree.
 *
 * With a symbol resolver (etl_stacks_dialog_set_resolver()) a Symbols page
 * lists every image: its path, PDB name, GUID and age, status and why it
 * did not resolve (etl_symbol_resolver_dup_statuses()).  Resolution is lazy
 * and in a worker: the samples are named first with `module` for images
 * whose PDB is not loaded (naming them asks the resolver for those
 * modules), then the worker loads the PDBs asked for, names the samples
 * again (the pages turn into function names) and then looks up every other
 * image for the Symbols page.
 *
 * Everything is computed in workers (#GTask, etl_worker_run()): at once the
 * samples' summary and tree, and the trace's thread states
 * (etl_thread_states_get_shared(), which also tells whether it has CSwitch
 * records); the thread-time tree when Thread time is first chosen, again
 * when the threads change.  Closing the dialog cancels them.
 */

#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include <string.h>

#include "etl-stacks-dialog.h"
#include "etl-worker.h"

#include "etl-call-views.h"
#include "etl-symbol-resolver.h"

#include "etl-flame-graph.h"
#include "etl-process-table.h"
#include "etl-thread-states.h"
#include "etl-thread-time.h"
#include "etl-trace.h"

#define N_SOURCES 2
#define MAX_LISTED_TIDS 6

static const char no_cswitch_tooltip[]
    = "This trace has no CSwitch records. Thread time needs the kernel flags CSWITCH and DISPATCHER "
      "(CSwitch and ReadyThread records), with a stack walk on CSwitch and ReadyThread, e.g. "
      "xperf -on PROC_THREAD+LOADER+PROFILE+CSWITCH+DISPATCHER -stackwalk Profile+CSwitch+ReadyThread";
static const char thread_time_tooltip[]
    = "Where the threads spent their time, running or not (PerfView's Thread Time): blocked time under the "
      "stack where the thread blocked and its waker's stack (READIED_BY), from the CSwitch and ReadyThread records";
static const char samples_tooltip[] = "Where the PerfInfo SampledProfile samples landed: time on the processor";

struct _EtlStacksDialog
{
  GtkDialog parent_instance;

  EtlStacks *stacks;
  gint64 from;
  gint64 to;
  char *range_text;
  GArray *tids; /* guint32: the threads of Thread time; empty for all */

  GtkListStore *store;
  GtkLabel *label;
  GtkWidget *source_button[N_SOURCES];
  GtkNotebook *notebook;
  GtkWidget *top_page;
  GtkWidget *flame_page;
  EtlCallViews *views;
  EtlCallSamples *samples[N_SOURCES];   /* once computed */
  EtlStacksDialogSource views_source;   /* whose samples the views show */
  EtlSymbolResolver *resolver;          /* etl_stacks_dialog_set_resolver() */
  guint n_resolved;                     /* the resolver's PDBs loaded when it was given */
  gboolean download;
  char *symbol_path_text;
  gboolean symbols_busy;
  GtkListStore *symbols;
  GtkLabel *symbols_label;
  GtkStack *graphs;
  EtlFlameGraph *graph[N_SOURCES];
  GCancellable *cancellable;             /* every job; cancelled on dispose */
  GCancellable *thread_time_cancellable; /* the thread-time job; also on new threads */
  char *summary_text[N_SOURCES];

  EtlThreadStates *states; /* once the states job has finished */
  EtlStacksDialogSource source;
  guint generation; /* of the threads: a thread-time result for others is dropped */
  gboolean samples_busy;
  gboolean states_busy;
  gboolean thread_time_busy;
  gboolean thread_time_done; /* graph[THREAD_TIME] shows the current threads */
};

G_DEFINE_TYPE (EtlStacksDialog, etl_stacks_dialog, GTK_TYPE_DIALOG)

/* Jobs ------------------------------------------------------------------- */

typedef struct
{
  EtlStacks *stacks;
  EtlThreadStates *states; /* thread time: given; the states job: NULL */
  guint32 *tids;
  guint n_tids;
  gint64 from;
  gint64 to;
} Job;

static void
job_free (gpointer data)
{
  Job *job = data;

  etl_stacks_unref (job->stacks);
  g_clear_pointer (&job->states, etl_thread_states_unref);
  g_free (job->tids);
  g_free (job);
}

typedef struct
{
  EtlStackSummary *sum;
  EtlStackTree *tree; /* thread time: the plain tree, for the summary line */
  EtlCallSamples *samples;
} Result;

static void
result_free (gpointer data)
{
  Result *r = data;

  g_clear_pointer (&r->sum, etl_stack_summary_free);
  g_clear_pointer (&r->tree, etl_stack_tree_free);
  g_clear_pointer (&r->samples, etl_call_samples_unref);
  g_free (r);
}

static void
summarize_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  Job *job = task_data;
  GError *error = NULL;
  Result *r = g_new0 (Result, 1);

  r->sum = etl_stacks_summarize (job->stacks, job->from, job->to, cancellable, &error);
  if (r->sum != NULL)
    r->samples = etl_call_samples_new_cpu (job->stacks, job->from, job->to, cancellable, &error);
  if (r->sum == NULL || r->samples == NULL)
    {
      result_free (r);
      g_task_return_error (task, error);
    }
  else
    g_task_return_pointer (task, r, result_free);
}

static void
states_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  Job *job = task_data;
  GError *error = NULL;
  EtlThreadStates *states = etl_thread_states_get_shared (etl_stacks_get_trace (job->stacks), cancellable, &error);

  if (states == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, states, (GDestroyNotify) etl_thread_states_unref);
}

static void
thread_time_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  Job *job = task_data;
  GError *error = NULL;
  Result *r = g_new0 (Result, 1);
  g_autoptr (EtlCallTree) plain = NULL;

  r->samples = etl_thread_time_samples_new (job->states, job->stacks, job->tids, job->n_tids, job->from, job->to,
                                            cancellable, &error);
  if (r->samples != NULL)
    plain = etl_call_tree_new (r->samples, NULL, cancellable, &error);
  if (plain == NULL)
    {
      result_free (r);
      g_task_return_error (task, error);
      return;
    }
  r->tree = etl_call_tree_to_stack_tree (plain);
  g_task_return_pointer (task, r, result_free);
}

/* Symbols ------------------------------------------------------------------ */

typedef struct
{
  EtlSymbolResolver *resolver;
  EtlStacks *stacks;
  gint64 from;
  gint64 to;
  guint n_resolved; /* etl_symbol_resolver_get_n_resolved() when the samples were named */
} SymbolsJob;

typedef struct
{
  EtlCallSamples *samples; /* named again: NULL when no PDB of the samples loaded */
  GArray *statuses;        /* EtlSymbolModuleStatus */
  guint loaded;
} SymbolsResult;

static void
symbols_job_free (gpointer data)
{
  SymbolsJob *job = data;

  etl_symbol_resolver_unref (job->resolver);
  etl_stacks_unref (job->stacks);
  g_free (job);
}

static void
symbols_result_free (gpointer data)
{
  SymbolsResult *r = data;

  g_clear_pointer (&r->samples, etl_call_samples_unref);
  g_clear_pointer (&r->statuses, g_array_unref);
  g_free (r);
}

static void
symbols_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  SymbolsJob *job = task_data;
  SymbolsResult *r = g_new0 (SymbolsResult, 1);
  GError *error = NULL;

  /* The modules the samples asked for first, then their names. */
  r->loaded = etl_symbol_resolver_resolve_pending (job->resolver, cancellable, &error);
  /* With those another thread (the window's worker) loaded since. */
  if (error == NULL)
    r->loaded = MAX (r->loaded, etl_symbol_resolver_get_n_resolved (job->resolver) - job->n_resolved);
  if (error == NULL && r->loaded > 0)
    r->samples = etl_call_samples_new_cpu (job->stacks, job->from, job->to, cancellable, &error);
  /* Then every other image, for the Symbols page. */
  if (error == NULL)
    {
      etl_symbol_resolver_request_all (job->resolver);
      etl_symbol_resolver_resolve_pending (job->resolver, cancellable, &error);
    }
  if (error != NULL)
    {
      symbols_result_free (r);
      g_task_return_error (task, error);
      return;
    }
  r->statuses = etl_symbol_resolver_dup_statuses (job->resolver);
  g_task_return_pointer (task, r, symbols_result_free);
}

static void show_samples (EtlStacksDialog *self);
static void start_thread_time (EtlStacksDialog *self);

static void
fill_symbols (EtlStacksDialog *self, GArray *statuses)
{
  gboolean has_server = self->symbol_path_text != NULL && strstr (self->symbol_path_text, "://") != NULL;
  guint resolved = 0;
  g_autofree char *text = NULL;

  gtk_list_store_clear (self->symbols);
  for (guint i = 0; i < statuses->len; i++)
    {
      const EtlSymbolModuleStatus *st = &g_array_index (statuses, EtlSymbolModuleStatus, i);
      g_autofree char *age = st->guid != NULL ? g_strdup_printf ("%u", st->age) : g_strdup ("");
      g_autofree char *reason = NULL;

      if (st->status == ETL_SYMBOL_STATUS_RESOLVED)
        {
          resolved++;
          reason = g_strdup_printf ("resolved from %s", st->file != NULL ? st->file : "?");
        }
      else if (st->status == ETL_SYMBOL_STATUS_NOT_FOUND && has_server && !self->download)
        reason = g_strdup_printf ("%s; downloads from symbol servers are off (Preferences)",
                                  st->reason != NULL ? st->reason : "PDB not found");
      else
        reason = g_strdup (st->reason != NULL ? st->reason : "");
      gtk_list_store_insert_with_values (self->symbols, NULL, -1, 0, st->module, 1, st->pdb != NULL ? st->pdb : "",
                                         2, st->guid != NULL ? st->guid : "", 3, age, 4,
                                         etl_symbol_status_to_string (st->status), 5, reason, -1);
    }
  text = g_strdup_printf ("%u images, %u resolved. Symbol path: %s%s", statuses->len, resolved,
                          self->symbol_path_text != NULL && self->symbol_path_text[0] != '\0'
                              ? self->symbol_path_text
                              : "(empty: set it in Preferences or _NT_SYMBOL_PATH)",
                          self->download ? "; downloads on" : "; downloads off");
  gtk_label_set_text (self->symbols_label, text);
}

static void
on_symbols (GObject *source, GAsyncResult *result, gpointer user_data)
{
  EtlStacksDialog *self = ETL_STACKS_DIALOG (source);
  g_autoptr (GError) error = NULL;
  SymbolsResult *r = g_task_propagate_pointer (G_TASK (result), &error);

  if (r == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          self->symbols_busy = FALSE;
          gtk_label_set_text (self->symbols_label, error->message);
        }
      return;
    }
  self->symbols_busy = FALSE;
  if (self->store == NULL)
    {
      symbols_result_free (r);
      return;
    }
  if (r->samples != NULL)
    {
      g_clear_pointer (&self->samples[ETL_STACKS_DIALOG_SOURCE_SAMPLES], etl_call_samples_unref);
      self->samples[ETL_STACKS_DIALOG_SOURCE_SAMPLES] = g_steal_pointer (&r->samples);
      if (self->source == ETL_STACKS_DIALOG_SOURCE_SAMPLES)
        show_samples (self);
    }
  if (r->loaded > 0 && self->thread_time_done)
    {
      /* Thread time is named again when next shown (now, if shown). */
      self->thread_time_done = FALSE;
      if (self->source == ETL_STACKS_DIALOG_SOURCE_THREAD_TIME)
        start_thread_time (self);
    }
  fill_symbols (self, r->statuses);
  symbols_result_free (r);
}

static void
start_symbols (EtlStacksDialog *self)
{
  g_autoptr (GTask) task = NULL;
  SymbolsJob *job;

  if (self->resolver == NULL || self->symbols_busy)
    return;
  job = g_new0 (SymbolsJob, 1);
  job->resolver = etl_symbol_resolver_ref (self->resolver);
  job->stacks = etl_stacks_ref (self->stacks);
  job->from = self->from;
  job->to = self->to;
  job->n_resolved = self->n_resolved;
  self->symbols_busy = TRUE;
  gtk_label_set_text (self->symbols_label, "Looking for the images' PDBs…");
  task = g_task_new (self, self->cancellable, on_symbols, NULL);
  g_task_set_task_data (task, job, symbols_job_free);
  etl_worker_run (task, symbols_thread);
}

/* The call-tree pages show the samples of the source shown (empty until
 * computed). */
static void
show_samples (EtlStacksDialog *self)
{
  self->views_source = self->source;
  etl_call_views_set_samples (self->views, self->samples[self->source],
                              etl_trace_get_first_filetime (etl_stacks_get_trace (self->stacks)));
}

/* New views: the flame graph of their source draws the same stacks. */
static void
on_views_changed (EtlCallViews *views, gpointer user_data)
{
  EtlStacksDialog *self = ETL_STACKS_DIALOG (user_data);

  etl_flame_graph_set_tree (self->graph[self->views_source], etl_call_views_take_stack_tree (views));
}

/* The line above the pages for the source shown. */
static void
show_summary (EtlStacksDialog *self)
{
  const char *text = self->summary_text[self->source];

  if (text == NULL)
    text = self->source == ETL_STACKS_DIALOG_SOURCE_SAMPLES ? "Counting the samples' stacks…"
           : self->states_busy                               ? "Reading the CSwitch and ReadyThread records…"
                                                             : "Computing the thread time…";
  gtk_label_set_text (self->label, text);
}

/* A job failed: %FALSE when it was cancelled (the dialog may be gone),
 * else the error is shown and %TRUE returned. */
static gboolean
job_failed (EtlStacksDialog *self, GError *error, EtlStacksDialogSource source)
{
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) || self->store == NULL)
    return FALSE;
  g_free (self->summary_text[source]);
  self->summary_text[source] = g_strdup_printf ("Failed: %s", error->message);
  show_summary (self);
  return TRUE;
}

static void
on_summary (GObject *source, GAsyncResult *result, gpointer user_data)
{
  EtlStacksDialog *self = ETL_STACKS_DIALOG (source);
  g_autoptr (GError) error = NULL;
  Result *r = g_task_propagate_pointer (G_TASK (result), &error);
  EtlStackSummary *sum;

  if (r == NULL)
    {
      if (job_failed (self, error, ETL_STACKS_DIALOG_SOURCE_SAMPLES))
        self->samples_busy = FALSE;
      return;
    }
  self->samples_busy = FALSE;
  if (self->store == NULL) /* finished as the dialog went away */
    {
      result_free (r);
      return;
    }
  sum = r->sum;
  self->samples[ETL_STACKS_DIALOG_SOURCE_SAMPLES] = g_steal_pointer (&r->samples);
  if (self->source == ETL_STACKS_DIALOG_SOURCE_SAMPLES)
    show_samples (self);
  start_symbols (self);
  for (guint k = 0; k < sum->rows->len; k++)
    {
      const EtlStackFrameCount *row = &g_array_index (sum->rows, EtlStackFrameCount, k);

      gtk_list_store_insert_with_values (
          self->store, NULL, -1, ETL_STACKS_DIALOG_COLUMN_FRAME, row->name, ETL_STACKS_DIALOG_COLUMN_EXCLUSIVE,
          row->exclusive, ETL_STACKS_DIALOG_COLUMN_INCLUSIVE, row->inclusive, ETL_STACKS_DIALOG_COLUMN_PERCENT,
          sum->n_with_stack > 0 ? 100.0 * (double)row->inclusive / (double)sum->n_with_stack : 0.0, -1);
    }
  g_free (self->summary_text[ETL_STACKS_DIALOG_SOURCE_SAMPLES]);
  self->summary_text[ETL_STACKS_DIALOG_SOURCE_SAMPLES] = g_strdup_printf (
      "%" G_GUINT64_FORMAT " samples, %" G_GUINT64_FORMAT " with a stack; %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT
      " frames resolved (%.1f %%)",
      sum->n_samples, sum->n_with_stack, sum->n_resolved, sum->n_frames,
      sum->n_frames > 0 ? 100.0 * (double)sum->n_resolved / (double)sum->n_frames : 0.0);
  show_summary (self);
  result_free (r);
}

/* "TID 1004 of alpha.exe (1000)", "TIDs 1004, 3004" or "all threads (4 with
 * time in the range)". */
static char *
describe_threads (EtlStacksDialog *self, EtlStackTree *tree)
{
  EtlTrace *trace = etl_stacks_get_trace (self->stacks);
  EtlProcessTable *table = etl_trace_get_process_table (trace);
  gint64 at = MAX (self->from, etl_trace_get_first_filetime (trace));
  GString *s;

  if (self->tids->len == 0)
    {
      const EtlStackTreeNode *nodes;
      guint n, n_threads = 0;

      nodes = etl_stack_tree_get_nodes (tree, &n);
      for (guint k = 0; k < n; k++)
        n_threads += nodes[k].depth == 2;
      return g_strdup_printf ("all threads (%u with time in the range)", n_threads);
    }
  if (self->tids->len == 1)
    {
      guint32 tid = g_array_index (self->tids, guint32, 0);
      const EtlThread *th = etl_process_table_lookup_thread (table, tid, at);
      const EtlProcess *process;
      g_autofree char *name = NULL;

      if (th == NULL)
        return g_strdup_printf ("TID %u", tid);
      process = th->process != NULL ? th->process : etl_process_table_lookup (table, th->pid, at);
      name = etl_process_format_name (process, th->pid);
      return g_strdup_printf ("TID %u of %s", tid, name);
    }
  s = g_string_new ("TIDs ");
  for (guint i = 0; i < self->tids->len && i < MAX_LISTED_TIDS; i++)
    g_string_append_printf (s, "%s%u", i > 0 ? ", " : "", g_array_index (self->tids, guint32, i));
  if (self->tids->len > MAX_LISTED_TIDS)
    g_string_append_printf (s, " and %u more", self->tids->len - MAX_LISTED_TIDS);
  return g_string_free (s, FALSE);
}

static char *
thread_time_text (EtlStacksDialog *self, EtlStackTree *tree)
{
  static const char *const leaves[] = { ETL_THREAD_TIME_BLOCKED, ETL_THREAD_TIME_READIED, ETL_THREAD_TIME_CPU };
  g_autofree char *who = describe_threads (self, tree);
  g_autofree char *total = NULL;
  const EtlStackTreeNode *nodes;
  GString *s;
  guint n;

  nodes = etl_stack_tree_get_nodes (tree, &n);
  if (nodes[0].total == 0)
    return g_strdup_printf ("Thread time of %s: none in this range (no CSwitch or ReadyThread record covers it)",
                            who);
  total = etl_flame_graph_format_weight (ETL_STACK_TREE_UNIT_TICKS, nodes[0].total);
  s = g_string_new (NULL);
  g_string_append_printf (s, "Thread time of %s: %s, of it", who, total);
  for (guint i = 0; i < G_N_ELEMENTS (leaves); i++)
    {
      g_autofree char *part = etl_flame_graph_format_weight (ETL_STACK_TREE_UNIT_TICKS, etl_thread_time_tree_sum (tree, leaves[i]));

      g_string_append_printf (s, "%s %s %s", i > 0 ? "," : "", leaves[i], part);
    }
  g_string_append (s, ".");
  if (!etl_thread_states_has_ready_thread (self->states))
    g_string_append (s, " No ReadyThread records (DISPATCHER flag): ready time counts as BLOCKED_TIME, no waker.");
  if (etl_stack_tree_get_max_depth (tree) <= 3) /* process, thread, pseudo-frame */
    g_string_append (s, " No CSwitch stacks: record a stack walk on CSwitch and ReadyThread.");
  g_string_append (s, " Top Frames counts CPU samples only.");
  return g_string_free (s, FALSE);
}

static void
on_thread_time (GObject *source, GAsyncResult *result, gpointer user_data)
{
  EtlStacksDialog *self = ETL_STACKS_DIALOG (source);
  g_autoptr (GError) error = NULL;
  Result *r = g_task_propagate_pointer (G_TASK (result), &error);
  EtlStackTree *tree;

  if (r == NULL)
    {
      if (GPOINTER_TO_UINT (user_data) == self->generation
          && job_failed (self, error, ETL_STACKS_DIALOG_SOURCE_THREAD_TIME))
        self->thread_time_busy = FALSE;
      return;
    }
  if (self->store == NULL || GPOINTER_TO_UINT (user_data) != self->generation)
    {
      result_free (r); /* the dialog is gone, or the threads changed */
      return;
    }
  self->thread_time_busy = FALSE;
  self->thread_time_done = TRUE;
  tree = r->tree;
  g_free (self->summary_text[ETL_STACKS_DIALOG_SOURCE_THREAD_TIME]);
  self->summary_text[ETL_STACKS_DIALOG_SOURCE_THREAD_TIME] = thread_time_text (self, tree);
  g_clear_pointer (&self->samples[ETL_STACKS_DIALOG_SOURCE_THREAD_TIME], etl_call_samples_unref);
  self->samples[ETL_STACKS_DIALOG_SOURCE_THREAD_TIME] = g_steal_pointer (&r->samples);
  result_free (r);
  if (self->source == ETL_STACKS_DIALOG_SOURCE_THREAD_TIME)
    show_samples (self);
  show_summary (self);
}

static void
start_thread_time (EtlStacksDialog *self)
{
  g_autoptr (GTask) task = NULL;
  Job *job;

  if (self->states == NULL || self->thread_time_busy || self->thread_time_done)
    return;
  job = g_new0 (Job, 1);
  job->stacks = etl_stacks_ref (self->stacks);
  job->states = etl_thread_states_ref (self->states);
  job->tids = g_memdup2 (self->tids->data, self->tids->len * sizeof (guint32));
  job->n_tids = self->tids->len;
  job->from = self->from;
  job->to = self->to;
  self->thread_time_busy = TRUE;
  g_clear_object (&self->thread_time_cancellable);
  self->thread_time_cancellable = g_cancellable_new ();
  task = g_task_new (self, self->thread_time_cancellable, on_thread_time, GUINT_TO_POINTER (self->generation));
  g_task_set_task_data (task, job, job_free);
  etl_worker_run (task, thread_time_thread);
}

static void
on_states (GObject *source, GAsyncResult *result, gpointer user_data)
{
  EtlStacksDialog *self = ETL_STACKS_DIALOG (source);
  g_autoptr (GError) error = NULL;
  EtlThreadStates *states = g_task_propagate_pointer (G_TASK (result), &error);
  GtkWidget *button = self->source_button[ETL_STACKS_DIALOG_SOURCE_THREAD_TIME];
  gboolean has_cswitch;

  if (states == NULL)
    {
      if (job_failed (self, error, ETL_STACKS_DIALOG_SOURCE_THREAD_TIME))
        {
          self->states_busy = FALSE;
          gtk_widget_set_tooltip_text (button, self->summary_text[ETL_STACKS_DIALOG_SOURCE_THREAD_TIME]);
        }
      return;
    }
  if (self->store == NULL)
    {
      etl_thread_states_unref (states);
      return;
    }
  self->states_busy = FALSE;
  self->states = states;
  has_cswitch = etl_thread_states_get_counts (states)->cswitch > 0;
  gtk_widget_set_sensitive (button, has_cswitch);
  gtk_widget_set_tooltip_text (button, has_cswitch ? thread_time_tooltip : no_cswitch_tooltip);
  if (self->source == ETL_STACKS_DIALOG_SOURCE_THREAD_TIME)
    start_thread_time (self);
  show_summary (self);
}

/* The pages --------------------------------------------------------------- */

static void
percent_cell (GtkTreeViewColumn *column, GtkCellRenderer *cell, GtkTreeModel *model, GtkTreeIter *iter,
              gpointer data)
{
  double v;
  char text[32];

  gtk_tree_model_get (model, iter, ETL_STACKS_DIALOG_COLUMN_PERCENT, &v, -1);
  g_snprintf (text, sizeof text, "%.1f %%", v);
  g_object_set (cell, "text", text, NULL);
}

static void
add_column (GtkTreeView *view, const char *title, int column, gboolean numeric)
{
  GtkCellRenderer *cell = gtk_cell_renderer_text_new ();
  GtkTreeViewColumn *col;

  if (numeric)
    g_object_set (cell, "xalign", 1.0, NULL);
  else /* long JIT names must not push the counts out of view */
    g_object_set (cell, "ellipsize", PANGO_ELLIPSIZE_END, NULL);
  if (column == ETL_STACKS_DIALOG_COLUMN_PERCENT)
    {
      col = gtk_tree_view_column_new ();
      gtk_tree_view_column_set_title (col, title);
      gtk_tree_view_column_pack_start (col, cell, TRUE);
      gtk_tree_view_column_set_cell_data_func (col, cell, percent_cell, NULL, NULL);
    }
  else
    col = gtk_tree_view_column_new_with_attributes (title, cell, "text", column, NULL);
  gtk_tree_view_column_set_sort_column_id (col, column);
  gtk_tree_view_column_set_resizable (col, TRUE);
  gtk_tree_view_column_set_expand (col, !numeric);
  gtk_tree_view_append_column (view, col);
}

static void
update_title (EtlStacksDialog *self)
{
  g_autofree char *title
      = g_strdup_printf ("%s%s%s", self->source == ETL_STACKS_DIALOG_SOURCE_SAMPLES ? "Stacks of Samples" : "Thread Time",
                         self->range_text != NULL ? ": " : "", self->range_text != NULL ? self->range_text : "");

  gtk_window_set_title (GTK_WINDOW (self), title);
}

/* Shows the pages of the source whose button is active. */
static void
on_source_toggled (GtkToggleButton *button, gpointer user_data)
{
  EtlStacksDialog *self = ETL_STACKS_DIALOG (user_data);
  EtlStacksDialogSource source;

  if (!gtk_toggle_button_get_active (button))
    return; /* the other button's "toggled" follows */
  source = GTK_WIDGET (button) == self->source_button[ETL_STACKS_DIALOG_SOURCE_THREAD_TIME]
               ? ETL_STACKS_DIALOG_SOURCE_THREAD_TIME
               : ETL_STACKS_DIALOG_SOURCE_SAMPLES;
  self->source = source;
  gtk_stack_set_visible_child (self->graphs, GTK_WIDGET (self->graph[source]));
  show_samples (self);
  /* Top Frames counts samples: hidden (its tab too) for thread time. */
  gtk_widget_set_visible (self->top_page, source == ETL_STACKS_DIALOG_SOURCE_SAMPLES);
  if (source == ETL_STACKS_DIALOG_SOURCE_THREAD_TIME)
    {
      if (gtk_notebook_get_nth_page (self->notebook, gtk_notebook_get_current_page (self->notebook)) == self->top_page)
        gtk_notebook_set_current_page (self->notebook, gtk_notebook_page_num (self->notebook, self->flame_page));
      start_thread_time (self);
    }
  update_title (self);
  show_summary (self);
}

static void
etl_stacks_dialog_dispose (GObject *object)
{
  EtlStacksDialog *self = ETL_STACKS_DIALOG (object);

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  if (self->thread_time_cancellable != NULL)
    g_cancellable_cancel (self->thread_time_cancellable);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->thread_time_cancellable);
  g_clear_object (&self->store);
  g_clear_object (&self->symbols);
  g_clear_pointer (&self->resolver, etl_symbol_resolver_unref);
  g_clear_pointer (&self->states, etl_thread_states_unref);
  for (guint i = 0; i < N_SOURCES; i++)
    g_clear_pointer (&self->samples[i], etl_call_samples_unref);
  g_clear_pointer (&self->stacks, etl_stacks_unref);
  G_OBJECT_CLASS (etl_stacks_dialog_parent_class)->dispose (object);
}

static void
etl_stacks_dialog_finalize (GObject *object)
{
  EtlStacksDialog *self = ETL_STACKS_DIALOG (object);

  for (guint i = 0; i < N_SOURCES; i++)
    g_free (self->summary_text[i]);
  g_free (self->range_text);
  g_free (self->symbol_path_text);
  g_array_unref (self->tids);
  G_OBJECT_CLASS (etl_stacks_dialog_parent_class)->finalize (object);
}

static void
etl_stacks_dialog_class_init (EtlStacksDialogClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = etl_stacks_dialog_dispose;
  G_OBJECT_CLASS (klass)->finalize = etl_stacks_dialog_finalize;
}

static void
etl_stacks_dialog_init (EtlStacksDialog *self)
{
  static const char *const source_names[N_SOURCES] = { "CPU samples", "Thread time" };
  GtkWidget *area = gtk_dialog_get_content_area (GTK_DIALOG (self));
  GtkWidget *scroller = gtk_scrolled_window_new (NULL, NULL);
  GtkWidget *switcher = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  GtkWidget *flame_scroller;
  GtkTreeView *view;

  self->tids = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->store = gtk_list_store_new (ETL_STACKS_DIALOG_N_COLUMNS, G_TYPE_STRING, G_TYPE_UINT64, G_TYPE_UINT64,
                                    G_TYPE_DOUBLE);

  /* The source: a linked pair of toggles, as a GtkStackSwitcher looks. */
  gtk_style_context_add_class (gtk_widget_get_style_context (switcher), GTK_STYLE_CLASS_LINKED);
  gtk_widget_set_halign (switcher, GTK_ALIGN_START);
  gtk_widget_set_margin_start (switcher, 6);
  gtk_widget_set_margin_top (switcher, 6);
  for (guint i = 0; i < N_SOURCES; i++)
    {
      self->source_button[i] = i == 0 ? gtk_radio_button_new_with_label (NULL, source_names[i])
                                      : gtk_radio_button_new_with_label_from_widget (
                                            GTK_RADIO_BUTTON (self->source_button[0]), source_names[i]);
      gtk_toggle_button_set_mode (GTK_TOGGLE_BUTTON (self->source_button[i]), FALSE);
      gtk_container_add (GTK_CONTAINER (switcher), self->source_button[i]);
      g_signal_connect (self->source_button[i], "toggled", G_CALLBACK (on_source_toggled), self);
    }
  gtk_widget_set_tooltip_text (self->source_button[ETL_STACKS_DIALOG_SOURCE_SAMPLES], samples_tooltip);
  /* Until the states job has told whether the trace has CSwitch records. */
  gtk_widget_set_sensitive (self->source_button[ETL_STACKS_DIALOG_SOURCE_THREAD_TIME], FALSE);
  gtk_widget_set_tooltip_text (self->source_button[ETL_STACKS_DIALOG_SOURCE_THREAD_TIME],
                               "Reading the CSwitch and ReadyThread records…");
  gtk_container_add (GTK_CONTAINER (area), switcher);

  self->label = GTK_LABEL (gtk_label_new ("Counting the samples' stacks…"));
  gtk_label_set_xalign (self->label, 0.0);
  gtk_label_set_line_wrap (self->label, TRUE);
  gtk_label_set_selectable (self->label, TRUE);
  gtk_widget_set_can_focus (GTK_WIDGET (self->label), FALSE);
  gtk_widget_set_margin_start (GTK_WIDGET (self->label), 6);
  gtk_widget_set_margin_end (GTK_WIDGET (self->label), 6);
  gtk_widget_set_margin_top (GTK_WIDGET (self->label), 6);
  gtk_widget_set_margin_bottom (GTK_WIDGET (self->label), 6);
  gtk_container_add (GTK_CONTAINER (area), GTK_WIDGET (self->label));

  view = GTK_TREE_VIEW (gtk_tree_view_new_with_model (GTK_TREE_MODEL (self->store)));
  add_column (view, "Frame", ETL_STACKS_DIALOG_COLUMN_FRAME, FALSE);
  add_column (view, "Exclusive", ETL_STACKS_DIALOG_COLUMN_EXCLUSIVE, TRUE);
  add_column (view, "Inclusive", ETL_STACKS_DIALOG_COLUMN_INCLUSIVE, TRUE);
  add_column (view, "Inclusive %", ETL_STACKS_DIALOG_COLUMN_PERCENT, TRUE);
  gtk_container_add (GTK_CONTAINER (scroller), GTK_WIDGET (view));
  gtk_widget_set_vexpand (scroller, TRUE);
  self->top_page = scroller;
  self->notebook = GTK_NOTEBOOK (gtk_notebook_new ());
  gtk_notebook_append_page (self->notebook, scroller, gtk_label_new ("Top Frames"));

  /* PerfView's stack viewer tabs: By Name, Callers/Callees, Call Tree, then
   * the flame graph; their controls bar above the pages. */
  self->views = ETL_CALL_VIEWS (etl_call_views_new ());
  g_signal_connect (self->views, "changed", G_CALLBACK (on_views_changed), self);
  gtk_container_add (GTK_CONTAINER (area), GTK_WIDGET (self->views));
  gtk_notebook_append_page (self->notebook, etl_call_views_get_page (self->views, ETL_CALL_VIEWS_PAGE_BY_NAME),
                            gtk_label_new ("By Name"));
  gtk_notebook_append_page (self->notebook,
                            etl_call_views_get_page (self->views, ETL_CALL_VIEWS_PAGE_CALLERS_CALLEES),
                            gtk_label_new ("Callers/Callees"));
  gtk_notebook_append_page (self->notebook, etl_call_views_get_page (self->views, ETL_CALL_VIEWS_PAGE_CALL_TREE),
                            gtk_label_new ("Call Tree"));

  /* One graph per source, so that switching back keeps each tree. */
  self->graphs = GTK_STACK (gtk_stack_new ());
  for (guint i = 0; i < N_SOURCES; i++)
    {
      self->graph[i] = ETL_FLAME_GRAPH (etl_flame_graph_new ());
      gtk_stack_add_named (self->graphs, GTK_WIDGET (self->graph[i]), i == 0 ? "samples" : "thread-time");
    }
  gtk_stack_set_vhomogeneous (self->graphs, FALSE);
  flame_scroller = gtk_scrolled_window_new (NULL, NULL);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (flame_scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_container_add (GTK_CONTAINER (flame_scroller), GTK_WIDGET (self->graphs));
  self->flame_page = flame_scroller;
  gtk_notebook_append_page (self->notebook, flame_scroller, gtk_label_new ("Flame Graph"));
  {
    static const char *const titles[] = { "Module", "PDB", "GUID", "Age", "Status", "Reason" };
    GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
    GtkWidget *symbols_scroller = gtk_scrolled_window_new (NULL, NULL);
    GtkWidget *symbols_view;

    self->symbols = gtk_list_store_new (6, G_TYPE_STRING, G_TYPE_STRING, G_TYPE_STRING, G_TYPE_STRING, G_TYPE_STRING,
                                        G_TYPE_STRING);
    symbols_view = gtk_tree_view_new_with_model (GTK_TREE_MODEL (self->symbols));
    for (guint i = 0; i < G_N_ELEMENTS (titles); i++)
      {
        GtkCellRenderer *cell = gtk_cell_renderer_text_new ();
        GtkTreeViewColumn *col = gtk_tree_view_column_new_with_attributes (titles[i], cell, "text", i, NULL);

        if (i == 1 || i == 5)
          g_object_set (cell, "ellipsize", PANGO_ELLIPSIZE_MIDDLE, NULL);
        gtk_tree_view_column_set_resizable (col, TRUE);
        gtk_tree_view_column_set_sort_column_id (col, (int) i);
        gtk_tree_view_column_set_expand (col, i == 5);
        if (i == 1)
          gtk_tree_view_column_set_fixed_width (col, 200);
        gtk_tree_view_append_column (GTK_TREE_VIEW (symbols_view), col);
      }
    gtk_widget_set_has_tooltip (symbols_view, TRUE);
    gtk_tree_view_set_tooltip_column (GTK_TREE_VIEW (symbols_view), 5);
    self->symbols_label = GTK_LABEL (gtk_label_new ("No symbol resolver: frames are named by module."));
    gtk_label_set_xalign (self->symbols_label, 0.0);
    gtk_label_set_ellipsize (self->symbols_label, PANGO_ELLIPSIZE_END);
    gtk_widget_set_margin_start (GTK_WIDGET (self->symbols_label), 6);
    gtk_widget_set_margin_top (GTK_WIDGET (self->symbols_label), 4);
    gtk_widget_set_margin_bottom (GTK_WIDGET (self->symbols_label), 4);
    gtk_container_add (GTK_CONTAINER (symbols_scroller), symbols_view);
    gtk_widget_set_vexpand (symbols_scroller, TRUE);
    gtk_container_add (GTK_CONTAINER (box), GTK_WIDGET (self->symbols_label));
    gtk_container_add (GTK_CONTAINER (box), symbols_scroller);
    gtk_notebook_append_page (self->notebook, box, gtk_label_new ("Symbols"));
  }
  gtk_widget_set_vexpand (GTK_WIDGET (self->notebook), TRUE);
  gtk_container_add (GTK_CONTAINER (area), GTK_WIDGET (self->notebook));
  gtk_window_set_default_size (GTK_WINDOW (self), 800, 560);
  gtk_widget_show_all (area);
}

/**
 * etl_stacks_dialog_new:
 * @parent: (nullable): the window it belongs to
 * @stacks: (transfer none): the trace's stacks (its trace,
 *   etl_stacks_get_trace(), gives the CSwitch and ReadyThread records)
 * @from_filetime: start of the range, FILETIME
 * @to_filetime: end of the range (exclusive), FILETIME
 * @range_text: (nullable): the range as shown in the title, e.g. "1.2 s – 3.4 s"
 *
 * Creates the dialog, showing CPU samples of every thread, and starts the
 * samples' summary and the trace's thread states in workers.
 *
 * Returns: (transfer floating): the dialog (not shown)
 */
GtkWidget *
etl_stacks_dialog_new (GtkWindow *parent, EtlStacks *stacks, gint64 from_filetime, gint64 to_filetime,
                       const char *range_text)
{
  EtlStacksDialog *self;
  g_autoptr (GTask) task = NULL;
  g_autoptr (GTask) states_task = NULL;
  Job *job, *states_job;

  g_return_val_if_fail (stacks != NULL, NULL);
  self = g_object_new (ETL_TYPE_STACKS_DIALOG, "transient-for", parent, "use-header-bar", TRUE,
                       "destroy-with-parent", TRUE, NULL);
  self->stacks = etl_stacks_ref (stacks);
  self->from = from_filetime;
  self->to = to_filetime;
  self->range_text = g_strdup (range_text);
  update_title (self);
  if (parent != NULL) /* most of the window: a flame graph needs the width */
    gtk_window_set_default_size (GTK_WINDOW (self),
                                 MAX (800, gtk_widget_get_allocated_width (GTK_WIDGET (parent)) * 17 / 20),
                                 MAX (560, gtk_widget_get_allocated_height (GTK_WIDGET (parent)) * 17 / 20));
  self->cancellable = g_cancellable_new ();

  job = g_new0 (Job, 1);
  job->stacks = etl_stacks_ref (stacks);
  job->from = from_filetime;
  job->to = to_filetime;
  self->samples_busy = TRUE;
  task = g_task_new (self, self->cancellable, on_summary, NULL);
  g_task_set_task_data (task, job, job_free);
  etl_worker_run (task, summarize_thread);

  states_job = g_new0 (Job, 1);
  states_job->stacks = etl_stacks_ref (stacks);
  self->states_busy = TRUE;
  states_task = g_task_new (self, self->cancellable, on_states, NULL);
  g_task_set_task_data (states_task, states_job, job_free);
  etl_worker_run (states_task, states_thread);
  return GTK_WIDGET (self);
}

/**
 * etl_stacks_dialog_set_threads:
 * @self: a dialog
 * @tids: (array length=n_tids) (nullable): thread ids, each once
 * @n_tids: the number of @tids; 0 for every thread
 *
 * Sets the threads whose thread time the Thread time source shows (the CPU
 * samples stay those of every thread); a thread-time tree already computed
 * or under way for other threads is dropped, and computed again when Thread
 * time is shown.
 */
void
etl_stacks_dialog_set_threads (EtlStacksDialog *self, const guint32 *tids, guint n_tids)
{
  g_return_if_fail (ETL_IS_STACKS_DIALOG (self));
  g_return_if_fail (tids != NULL || n_tids == 0);

  if (n_tids == self->tids->len && (n_tids == 0 || memcmp (tids, self->tids->data, n_tids * sizeof *tids) == 0))
    return;
  g_array_set_size (self->tids, 0);
  g_array_append_vals (self->tids, tids, n_tids);
  self->generation++;
  if (self->thread_time_cancellable != NULL)
    g_cancellable_cancel (self->thread_time_cancellable);
  self->thread_time_busy = FALSE;
  self->thread_time_done = FALSE;
  g_clear_pointer (&self->summary_text[ETL_STACKS_DIALOG_SOURCE_THREAD_TIME], g_free);
  etl_flame_graph_set_tree (self->graph[ETL_STACKS_DIALOG_SOURCE_THREAD_TIME], NULL);
  g_clear_pointer (&self->samples[ETL_STACKS_DIALOG_SOURCE_THREAD_TIME], etl_call_samples_unref);
  if (self->source == ETL_STACKS_DIALOG_SOURCE_THREAD_TIME)
    {
      show_samples (self);
      start_thread_time (self);
      show_summary (self);
    }
}

/**
 * etl_stacks_dialog_get_threads:
 * @self: a dialog
 * @n_tids: (out): the number of thread ids; 0 for every thread
 *
 * Returns: (array length=n_tids) (transfer none) (nullable): the threads of
 *   Thread time (etl_stacks_dialog_set_threads())
 */
const guint32 *
etl_stacks_dialog_get_threads (EtlStacksDialog *self, guint *n_tids)
{
  g_return_val_if_fail (ETL_IS_STACKS_DIALOG (self), NULL);
  g_return_val_if_fail (n_tids != NULL, NULL);
  *n_tids = self->tids->len;
  return self->tids->len > 0 ? (const guint32 *) self->tids->data : NULL;
}

/**
 * etl_stacks_dialog_set_source:
 * @self: a dialog
 * @source: what to show
 *
 * Chooses the source as a click on its button does, and only when the
 * button is sensitive: Thread time is not while the thread states are
 * being read, nor in a trace without CSwitch records.
 */
void
etl_stacks_dialog_set_source (EtlStacksDialog *self, EtlStacksDialogSource source)
{
  g_return_if_fail (ETL_IS_STACKS_DIALOG (self));
  g_return_if_fail (source < N_SOURCES);

  if (gtk_widget_is_sensitive (self->source_button[source]))
    gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (self->source_button[source]), TRUE);
}

/**
 * etl_stacks_dialog_get_source:
 * @self: a dialog
 *
 * Returns: what the dialog shows
 */
EtlStacksDialogSource
etl_stacks_dialog_get_source (EtlStacksDialog *self)
{
  g_return_val_if_fail (ETL_IS_STACKS_DIALOG (self), ETL_STACKS_DIALOG_SOURCE_SAMPLES);
  return self->source;
}

/**
 * etl_stacks_dialog_get_source_button:
 * @self: a dialog
 * @source: a source
 *
 * Returns: (transfer none): the toggle button that chooses @source (its
 *   sensitivity and tooltip say whether the trace allows it)
 */
GtkWidget *
etl_stacks_dialog_get_source_button (EtlStacksDialog *self, EtlStacksDialogSource source)
{
  g_return_val_if_fail (ETL_IS_STACKS_DIALOG (self), NULL);
  g_return_val_if_fail (source < N_SOURCES, NULL);
  return self->source_button[source];
}

/**
 * etl_stacks_dialog_get_busy:
 * @self: a dialog
 *
 * Returns: whether a worker is still computing: the samples' summary, the
 *   thread states, a thread-time tree, or the call-tree views (and with
 *   them the flame graph's tree)
 */
gboolean
etl_stacks_dialog_get_busy (EtlStacksDialog *self)
{
  g_return_val_if_fail (ETL_IS_STACKS_DIALOG (self), FALSE);
  return self->samples_busy || self->states_busy || self->thread_time_busy || self->symbols_busy
         || etl_call_views_get_busy (self->views);
}

/**
 * etl_stacks_dialog_get_model:
 * @self: a dialog
 *
 * Returns: (transfer none): the Top Frames rows of the CPU samples
 *   (#EtlStacksDialogColumn), empty while busy
 */
GtkTreeModel *
etl_stacks_dialog_get_model (EtlStacksDialog *self)
{
  g_return_val_if_fail (ETL_IS_STACKS_DIALOG (self), NULL);
  return GTK_TREE_MODEL (self->store);
}

/**
 * etl_stacks_dialog_get_summary_text:
 * @self: a dialog
 *
 * Returns: (nullable): the line above the pages for the source shown once
 *   computed, else %NULL
 */
const char *
etl_stacks_dialog_get_summary_text (EtlStacksDialog *self)
{
  g_return_val_if_fail (ETL_IS_STACKS_DIALOG (self), NULL);
  return self->summary_text[self->source];
}

/**
 * etl_stacks_dialog_get_flame_graph:
 * @self: a dialog
 *
 * Returns: (transfer none): the flame graph of the source shown (no tree
 *   while busy)
 */
EtlFlameGraph *
etl_stacks_dialog_get_flame_graph (EtlStacksDialog *self)
{
  g_return_val_if_fail (ETL_IS_STACKS_DIALOG (self), NULL);
  return self->graph[self->source];
}

/**
 * etl_stacks_dialog_get_call_views:
 * @self: a dialog
 *
 * Returns: (transfer none): the By Name, Callers/Callees and Call Tree pages
 *   and their controls, over the source shown
 */
EtlCallViews *
etl_stacks_dialog_get_call_views (EtlStacksDialog *self)
{
  g_return_val_if_fail (ETL_IS_STACKS_DIALOG (self), NULL);
  return self->views;
}

/**
 * etl_stacks_dialog_set_resolver:
 * @self: a dialog
 * @resolver: (transfer none) (nullable): the resolver attached to the
 *   dialog's stacks (etl_symbol_resolver_attach(), made with on_demand
 *   %FALSE so that naming a frame never reads a PDB in the main loop)
 * @symbol_path_text: (nullable): its symbol path as the user wrote it, for
 *   the Symbols page
 * @download: whether downloads from symbol servers are allowed (the
 *   Preferences' switch), for the reasons of the Symbols page
 *
 * Gives the dialog the symbols of its stacks: the PDBs of the images its
 * samples touch are loaded in a worker once the samples are counted, the
 * pages are named again, then every image's status is shown (see the
 * section description).  Call it right after etl_stacks_dialog_new().
 */
void
etl_stacks_dialog_set_resolver (EtlStacksDialog *self, EtlSymbolResolver *resolver, const char *symbol_path_text,
                                gboolean download)
{
  g_return_if_fail (ETL_IS_STACKS_DIALOG (self));

  if (resolver != NULL)
    etl_symbol_resolver_ref (resolver);
  g_clear_pointer (&self->resolver, etl_symbol_resolver_unref);
  self->resolver = resolver;
  self->n_resolved = resolver != NULL ? etl_symbol_resolver_get_n_resolved (resolver) : 0;
  g_free (self->symbol_path_text);
  self->symbol_path_text = g_strdup (symbol_path_text);
  self->download = download;
  if (!self->samples_busy)
    start_symbols (self);
}

/**
 * etl_stacks_dialog_get_symbols_model:
 * @self: a dialog
 *
 * Returns: (transfer none): the Symbols page's rows: module, PDB, GUID, age,
 *   status (etl_symbol_status_to_string()) and reason, all strings
 */
GtkTreeModel *
etl_stacks_dialog_get_symbols_model (EtlStacksDialog *self)
{
  g_return_val_if_fail (ETL_IS_STACKS_DIALOG (self), NULL);
  return GTK_TREE_MODEL (self->symbols);
}
