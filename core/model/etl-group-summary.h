/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "etl-row-set.h"
#include "etl-trace.h"

G_BEGIN_DECLS

/**
 * EtlGroupKey:
 * @ETL_GROUP_BY_PROVIDER: the provider (etl_trace_get_provider_index())
 * @ETL_GROUP_BY_EVENT: the event: provider and event name
 *   (etl_decode_dup_event_name())
 * @ETL_GROUP_BY_PROCESS: the process the record belongs to
 *   (etl_process_table_resolve_record()), by image name and pid: lifetimes
 *   of a reused pid with the same image are one group, as `etlscope-cli
 *   stats` counts
 * @ETL_GROUP_BY_THREAD: the thread id of the record's header
 * @ETL_GROUP_BY_CPU: the processor index
 *
 * One level of a grouped summary (WPA's Generic Events table's grouping
 * columns).
 */
typedef enum
{
  ETL_GROUP_BY_PROVIDER,
  ETL_GROUP_BY_EVENT,
  ETL_GROUP_BY_PROCESS,
  ETL_GROUP_BY_THREAD,
  ETL_GROUP_BY_CPU,
} EtlGroupKey;

/**
 * ETL_GROUP_MAX_KEYS:
 *
 * The longest chain of keys.
 */
#define ETL_GROUP_MAX_KEYS 5

/**
 * ETL_GROUP_NONE:
 *
 * The @id of a group of records without a process, thread or provider.
 */
#define ETL_GROUP_NONE G_MAXUINT32

typedef struct _EtlGroup EtlGroup;

/**
 * EtlGroup:
 * @key: what this level groups by
 * @provider: provider index (provider and event levels), else 0
 * @id: process id, thread id or processor index; #ETL_GROUP_NONE for the
 *   records without one; the process lifetime's index in
 *   etl_process_table_get_processes() is @lifetime
 * @lifetime: process levels: the #EtlProcess index of the first record's
 *   lifetime, or -1 when the process table has none for @id
 * @name: provider levels: the provider's name; event levels: the event name
 *   without the provider; process levels: "image (PID)"; else %NULL
 * @label: what a view shows: "Test.x64.exe (3676)", "CPU 3", "GC/Start"…
 * @count: records in the group
 * @first: FILETIME of its first record
 * @last: FILETIME of its last record
 * @share: @count in percent of the summary's records
 * @parent: (nullable): the enclosing group; %NULL for the root
 * @children: (element-type EtlGroup) (nullable): the subgroups by count,
 *   largest first (ties by label); %NULL at the last level
 *
 * One group of a #EtlGroupSummary.  Read-only.
 */
struct _EtlGroup
{
  EtlGroupKey key;
  guint provider;
  guint32 id;
  gint lifetime;
  char *name;
  char *label;
  guint64 count;
  gint64 first;
  gint64 last;
  double share;
  EtlGroup *parent;
  GPtrArray *children;
};

typedef struct _EtlGroupSummary EtlGroupSummary;

const char *etl_group_key_to_string (EtlGroupKey key);
gboolean etl_group_key_parse_chain (const char *chain, EtlGroupKey *keys, guint *n_keys,
                                    GError **error);

EtlGroupSummary *etl_group_summary_compute (EtlTrace *trace, EtlRowSet *rows, gint64 begin,
                                            gint64 end, const EtlGroupKey *keys, guint n_keys,
                                            EtlProgressFunc progress, gpointer progress_data,
                                            GCancellable *cancellable, GError **error);
EtlGroupSummary *etl_group_summary_ref (EtlGroupSummary *summary);
void etl_group_summary_unref (EtlGroupSummary *summary);

const EtlGroup *etl_group_summary_get_root (EtlGroupSummary *summary);
guint etl_group_summary_get_keys (EtlGroupSummary *summary, const EtlGroupKey **keys);
guint64 etl_group_summary_get_total (EtlGroupSummary *summary);
gint64 etl_group_summary_get_begin (EtlGroupSummary *summary);
gint64 etl_group_summary_get_end (EtlGroupSummary *summary);

typedef struct _EtlGroupMatcher EtlGroupMatcher;

EtlGroupMatcher *etl_group_matcher_new (EtlTrace *trace, const EtlGroup *group);
gboolean etl_group_matcher_matches (EtlGroupMatcher *matcher, guint64 row);
const char *etl_group_matcher_get_description (EtlGroupMatcher *matcher);
void etl_group_matcher_free (EtlGroupMatcher *matcher);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (EtlGroupSummary, etl_group_summary_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (EtlGroupMatcher, etl_group_matcher_free)

G_END_DECLS
