/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "etl-filter.h"
#include "etl-group-summary.h"
#include "etl-row-set.h"
#include "etl-stacks.h"
#include "etl-summary.h"
#include "etl-synth.h"
#include "etl-trace.h"
#include "etl-writer.h"

G_BEGIN_DECLS

#define ETL_TYPE_DOCUMENT (etl_document_get_type ())

G_DECLARE_FINAL_TYPE (EtlDocument, etl_document, ETL, DOCUMENT, GObject)

/**
 * ETL_DOCUMENT_NO_RECORD:
 *
 * The #EtlDocument:selected-record when no record is selected.
 */
#define ETL_DOCUMENT_NO_RECORD (-1)

/**
 * EtlDocumentJobs:
 * @ETL_DOCUMENT_JOB_OPEN: opening files (or generating the demo trace first)
 * @ETL_DOCUMENT_JOB_FILTER: the filter's row set
 * @ETL_DOCUMENT_JOB_EXPORT: writing an .etl slice
 * @ETL_DOCUMENT_JOB_MANIFEST: registering a manifest with the open trace
 * @ETL_DOCUMENT_JOB_ALL: every job
 *
 * The kinds of job a document runs in workers, one of each kind at a time;
 * a set of them for etl_document_cancel_jobs().  #EtlDocument::job-finished
 * names them "open", "filter", "export" and "manifest".
 */
typedef enum
{
  ETL_DOCUMENT_JOB_OPEN = 1 << 0,
  ETL_DOCUMENT_JOB_FILTER = 1 << 1,
  ETL_DOCUMENT_JOB_EXPORT = 1 << 2,
  ETL_DOCUMENT_JOB_MANIFEST = 1 << 3,
  ETL_DOCUMENT_JOB_ALL = 0xF,
} EtlDocumentJobs;

/**
 * EtlDocumentProvider:
 * @provider: provider index (etl_trace_get_provider_index())
 * @count: records of the provider
 * @name: the provider's name, from its first record
 *
 * One of the most frequent providers of a trace (the timeline's colour
 * legend), etl_document_get_top_providers().
 */
typedef struct
{
  guint provider;
  guint64 count;
  char *name;
} EtlDocumentProvider;

/**
 * ETL_DOCUMENT_MAX_TOP_PROVIDERS:
 *
 * How many providers etl_document_get_top_providers() lists at most.
 */
#define ETL_DOCUMENT_MAX_TOP_PROVIDERS 12

EtlDocument *etl_document_new (void);

/* What is open */
EtlTrace *etl_document_get_trace (EtlDocument *self);
guint64 etl_document_get_n_records (EtlDocument *self);
EtlSchemaRegistry *etl_document_get_schema_registry (EtlDocument *self);
EtlProcessTable *etl_document_get_process_table (EtlDocument *self);
EtlSummary *etl_document_get_summary (EtlDocument *self);
EtlLossSummary *etl_document_get_loss_summary (EtlDocument *self);
EtlStacks *etl_document_get_stacks (EtlDocument *self);
const EtlDocumentProvider *etl_document_get_top_providers (EtlDocument *self, guint *n_providers);
GPtrArray *etl_document_dup_problems (EtlDocument *self);

/* Opening and closing */
void etl_document_open_async (EtlDocument *self,
                              const char *const *paths,
                              const char *const *manifests,
                              GAsyncReadyCallback callback,
                              gpointer user_data);
void etl_document_open_demo_async (EtlDocument *self,
                                   const char *path,
                                   const EtlSynthParams *params,
                                   GAsyncReadyCallback callback,
                                   gpointer user_data);
gboolean etl_document_open_finish (EtlDocument *self, GAsyncResult *result, GError **error);
void etl_document_close (EtlDocument *self);

/* Jobs */
void etl_document_cancel (EtlDocument *self);
void etl_document_cancel_jobs (EtlDocument *self, EtlDocumentJobs jobs);
EtlDocumentJobs etl_document_get_jobs (EtlDocument *self);
gboolean etl_document_get_busy (EtlDocument *self);
gboolean etl_document_get_loading (EtlDocument *self);
gboolean etl_document_get_filtering (EtlDocument *self);
double etl_document_get_progress (EtlDocument *self);
const char *etl_document_get_progress_label (EtlDocument *self);

/* Manifests */
void etl_document_add_manifest (EtlDocument *self, const char *path);
char **etl_document_dup_manifests (EtlDocument *self);
void etl_document_load_manifest_async (EtlDocument *self,
                                       const char *path,
                                       GAsyncReadyCallback callback,
                                       gpointer user_data);
gboolean etl_document_load_manifest_finish (EtlDocument *self,
                                            GAsyncResult *result,
                                            EtlManifestInfo *info,
                                            GError **error);

/* Filter and rows */
const EtlFilter *etl_document_get_filter (EtlDocument *self);
void etl_document_set_filter (EtlDocument *self, const EtlFilter *filter);
const char *etl_document_get_filter_text (EtlDocument *self);
void etl_document_set_filter_text (EtlDocument *self, const char *text);
gboolean etl_document_add_condition (EtlDocument *self,
                                     const char *field,
                                     gboolean exclude,
                                     guint64 record,
                                     GError **error);
gboolean etl_document_add_group_condition (EtlDocument *self, const EtlGroup *group);
void etl_document_clear_conditions (EtlDocument *self);
guint etl_document_get_n_conditions (EtlDocument *self);
const char *etl_document_get_condition (EtlDocument *self, guint i, gboolean *exclude, const char **name);
EtlRowSet *etl_document_get_row_set (EtlDocument *self);
gboolean etl_document_is_shown (EtlDocument *self, guint64 record);

/* Selection */
gint64 etl_document_get_selected_record (EtlDocument *self);
void etl_document_set_selected_record (EtlDocument *self, gint64 record);
gboolean etl_document_get_range (EtlDocument *self, gint64 *start, gint64 *end);
void etl_document_set_range (EtlDocument *self, gint64 start, gint64 end);

/* Markers */
guint etl_document_get_n_markers (EtlDocument *self);
const char *etl_document_get_marker (EtlDocument *self, guint i, gint64 *filetime);
gboolean etl_document_add_marker (EtlDocument *self, gint64 filetime, const char *name, GError **error);
gboolean etl_document_remove_marker (EtlDocument *self, guint i, GError **error);
gboolean etl_document_clear_markers (EtlDocument *self, GError **error);
const char *etl_document_get_markers_file (EtlDocument *self);
void etl_document_set_markers_file (EtlDocument *self, const char *path);
char *etl_document_dup_markers_group (EtlDocument *self);
guint etl_document_load_markers (EtlDocument *self, GKeyFile *key_file);
void etl_document_save_markers (EtlDocument *self, GKeyFile *key_file);

/* Export */
void etl_document_export_async (EtlDocument *self,
                                const char *path,
                                gint64 from,
                                gint64 to,
                                GAsyncReadyCallback callback,
                                gpointer user_data);
gboolean etl_document_export_finish (EtlDocument *self,
                                     GAsyncResult *result,
                                     EtlWriterStats *stats,
                                     GError **error);

G_END_DECLS
