/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/* What the files of EtlDocument share: etl-document.c (the object, its
 * properties, signals, jobs and progress), etl-document-open.c (opening,
 * closing, manifests), etl-document-filter.c (filter, conditions, rows),
 * etl-document-markers.c and etl-document-export.c. */

#include "etl-document.h"

G_BEGIN_DECLS

typedef enum
{
  ETL_DOCUMENT_JOB_KIND_OPEN,
  ETL_DOCUMENT_JOB_KIND_FILTER,
  ETL_DOCUMENT_JOB_KIND_EXPORT,
  ETL_DOCUMENT_JOB_KIND_MANIFEST,
  ETL_DOCUMENT_N_JOB_KINDS
} EtlDocumentJobKind;

/* A job's progress, shared with its worker: the worker sets the fraction
 * and its stage through atomics (and the label under the lock); the
 * document reads them every PROGRESS_POLL_MS on its main context. */
typedef struct
{
  gatomicrefcount ref_count;
  int permille;      /* atomic; -1: unknown */
  const char *stage; /* atomic; static text: the worker's current step */
  GMutex lock;       /* guards label */
  char *label;       /* what the job does: "Loading net.etl…" */
} EtlDocumentProgress;

EtlDocumentProgress *etl_document_progress_new (const char *label, int permille);
EtlDocumentProgress *etl_document_progress_ref (EtlDocumentProgress *p);
void etl_document_progress_unref (EtlDocumentProgress *p);
void etl_document_progress_cb (double fraction, gpointer user_data);
void etl_document_progress_set_stage (EtlDocumentProgress *p, const char *stage);
void etl_document_progress_set_label (EtlDocumentProgress *p, const char *label);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (EtlDocumentProgress, etl_document_progress_unref)

/* A condition from the event list's context menu or the summary: keep
 * only, or leave out, the records sharing a provider, process, thread or
 * event with a chosen record, or a summary group's records.  Reference
 * counted (g_atomic_rc_box): a filter worker holds the conditions it runs
 * with while the document's list moves on. */
typedef struct
{
  char *field;              /* "provider", "process", "thread", "event", "group" */
  gboolean exclude;
  guint provider;           /* provider index (provider, event) */
  guint32 value;            /* process or thread id */
  char *name;               /* event name; for a description: the value's name */
  EtlGroupMatcher *matcher; /* "group": a summary group's rows */
} EtlDocumentCondition;

void etl_document_condition_unref (gpointer condition);

struct _EtlDocument
{
  GObject parent_instance;

  GMainContext *context; /* where jobs report and progress is polled */

  /* What is open, from the last successful open. */
  EtlTrace *trace;
  EtlSummary *summary;
  EtlLossSummary *loss_summary;
  EtlStacks *stacks;
  GArray *top_providers; /* EtlDocumentProvider */
  GPtrArray *problems;   /* char*: files left out, then each file's problems */

  /* Filter */
  EtlFilter *filter;     /* never NULL */
  GPtrArray *conditions; /* EtlDocumentCondition*; replaced, never changed in place */
  EtlRowSet *rows;       /* NULL when nothing is open */

  /* Selection */
  gint64 selected;
  gint64 range_start;
  gint64 range_end;

  GArray *markers; /* EtlDocumentMarker, by time */
  char *markers_file;

  GPtrArray *manifests; /* char*: loaded earlier; later opens use them */

  /* Jobs */
  GCancellable *jobs[ETL_DOCUMENT_N_JOB_KINDS];
  EtlDocumentJobs notified_jobs; /* what busy, loading and filtering last said */
  EtlDocumentProgress *progress; /* the open's or the export's */
  GSource *progress_source;
  double progress_value;
  char *progress_label;
};

typedef struct
{
  gint64 filetime;
  char *name;
} EtlDocumentMarker;

typedef enum
{
  ETL_DOCUMENT_PROP_0,
  ETL_DOCUMENT_PROP_TRACE,
  ETL_DOCUMENT_PROP_N_RECORDS,
  ETL_DOCUMENT_PROP_FILTER,
  ETL_DOCUMENT_PROP_FILTER_TEXT,
  ETL_DOCUMENT_PROP_ROW_SET,
  ETL_DOCUMENT_PROP_SELECTED_RECORD,
  ETL_DOCUMENT_PROP_RANGE_START,
  ETL_DOCUMENT_PROP_RANGE_END,
  ETL_DOCUMENT_PROP_BUSY,
  ETL_DOCUMENT_PROP_LOADING,
  ETL_DOCUMENT_PROP_FILTERING,
  ETL_DOCUMENT_PROP_PROGRESS,
  ETL_DOCUMENT_PROP_PROGRESS_LABEL,
  ETL_DOCUMENT_PROP_MARKERS_FILE,
  ETL_DOCUMENT_N_PROPS
} EtlDocumentProp;

typedef enum
{
  ETL_DOCUMENT_SIGNAL_LOADED,
  ETL_DOCUMENT_SIGNAL_LOAD_FAILED,
  ETL_DOCUMENT_SIGNAL_ROWS_CHANGED,
  ETL_DOCUMENT_SIGNAL_SELECTION_CHANGED,
  ETL_DOCUMENT_SIGNAL_MARKERS_CHANGED,
  ETL_DOCUMENT_SIGNAL_SCHEMAS_CHANGED,
  ETL_DOCUMENT_SIGNAL_JOB_FINISHED,
  ETL_DOCUMENT_N_SIGNALS
} EtlDocumentSignal;

/* etl-document.c */
void etl_document_notify (EtlDocument *self, EtlDocumentProp prop);
void etl_document_emit (EtlDocument *self, EtlDocumentSignal signal);
GCancellable *etl_document_start_job (EtlDocument *self, EtlDocumentJobKind kind);
gboolean etl_document_end_job (EtlDocument *self, EtlDocumentJobKind kind, GCancellable *cancellable);
void etl_document_emit_job_finished (EtlDocument *self, EtlDocumentJobKind kind, const GError *error);
void etl_document_emit_load_failed (EtlDocument *self, const GError *error);
GTask *etl_document_new_outer_task (EtlDocument *self, gpointer source_tag, GAsyncReadyCallback callback,
                                    gpointer user_data);
void etl_document_start_progress (EtlDocument *self, EtlDocumentProgress *p);
void etl_document_stop_progress (EtlDocument *self, EtlDocumentProgress *p);
gboolean etl_document_change_selection (EtlDocument *self, gint64 record, gint64 start, gint64 end);

/* etl-document-filter.c */
void etl_document_apply_filter (EtlDocument *self);
void etl_document_reset_rows (EtlDocument *self);

/* etl-document-markers.c */
gboolean etl_document_read_markers_file (EtlDocument *self);

G_END_DECLS
