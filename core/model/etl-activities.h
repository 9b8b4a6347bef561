/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "etl-interval-stats.h"
#include "etl-trace.h"

G_BEGIN_DECLS

/* "None" values of the index fields below. */
#define ETL_ACTIVITY_NONE G_MAXUINT32
#define ETL_ACTIVITY_NO_RECORD G_MAXUINT64

/**
 * EtlActivityFlags:
 * @ETL_ACTIVITY_OPEN: no Stop paired with the Start: the activity lasts to
 *   the trace's last record
 * @ETL_ACTIVITY_ABANDONED: (with @ETL_ACTIVITY_OPEN) a later Start of the
 *   same provider, task, process and ActivityId replaced it while it was
 *   open (see the section overview)
 * @ETL_ACTIVITY_BY_RELATED_ID: the parent is the open activity whose
 *   ActivityId the Start's RelatedActivityId names (else it is the
 *   innermost activity open on the Start's thread, or none)
 * @ETL_ACTIVITY_BY_THREAD: the Start's ActivityId is zero: it was paired by
 *   process, thread, provider and task
 *
 * What is known of an activity's pairing.
 */
typedef enum
{
  ETL_ACTIVITY_OPEN = 1 << 0,
  ETL_ACTIVITY_ABANDONED = 1 << 1,
  ETL_ACTIVITY_BY_RELATED_ID = 1 << 2,
  ETL_ACTIVITY_BY_THREAD = 1 << 3,
} EtlActivityFlags;

/**
 * EtlActivity:
 * @start: FILETIME of the Start record
 * @stop: FILETIME of the Stop record, or of the trace's last record when
 *   open; @stop ≥ @start
 * @start_record: the Start record's index in the trace
 * @stop_record: the Stop record's index, %ETL_ACTIVITY_NO_RECORD when open
 * @pid: the Start's ProcessId
 * @tid: the Start's ThreadId
 * @parent: index of the enclosing activity, %ETL_ACTIVITY_NONE at the top
 * @depth: 0 at the top, the parent's depth + 1 below it
 * @name: the activity's name (etl_activities_get_string()): the task name,
 *   plus "(first field)" when the Start's first payload field is a string
 * @task_name: the task name alone (etl_activities_get_string())
 * @provider: the provider (etl_activities_get_provider())
 * @task: EVENT_DESCRIPTOR.Task
 * @flags: #EtlActivityFlags
 * @activity_id: the Start's EVENT_HEADER.ActivityId (zero when none)
 *
 * One Start/Stop pair: an interval of work, in the order of the Starts.
 */
typedef struct
{
  gint64 start;
  gint64 stop;
  guint64 start_record;
  guint64 stop_record;
  guint32 pid;
  guint32 tid;
  guint32 parent;
  guint32 depth;
  guint32 name;
  guint32 task_name;
  guint16 provider;
  guint16 task;
  guint32 flags;
  EtlGuid activity_id;
} EtlActivity;

/**
 * EtlActivityStop:
 * @time: FILETIME of the Stop record
 * @record: its index in the trace
 * @pid: its ProcessId
 * @tid: its ThreadId
 * @name: its task name (etl_activities_get_string())
 * @provider: the provider (etl_activities_get_provider())
 * @task: EVENT_DESCRIPTOR.Task
 * @activity_id: its ActivityId (zero when none)
 *
 * A Stop no open Start paired with.
 */
typedef struct
{
  gint64 time;
  guint64 record;
  guint32 pid;
  guint32 tid;
  guint32 name;
  guint16 provider;
  guint16 task;
  EtlGuid activity_id;
} EtlActivityStop;

/**
 * EtlActivitiesCounts:
 * @starts: Start records (opcode 1) read
 * @stops: Stop records (opcode 2) read
 * @paired: Starts paired with a Stop
 * @open: activities without a Stop (abandoned ones included)
 * @abandoned: open activities a Start with the same ActivityId replaced
 * @unmatched_stops: Stops without an open Start (listed)
 * @missing_parent: Starts whose RelatedActivityId named no open activity
 *   (their parent is then found on the thread)
 * @bad_related_id: RelatedActivityId extended items whose size is not 16
 *   bytes (ignored)
 * @dropped: Starts past %G_MAXUINT32 − 1 activities or the 65535th
 *   provider (not kept)
 * @out_of_order: Stops timed before their Start (@stop clamped to @start)
 * @duplicate_starts: Starts that repeat the Start just made on their
 *   thread in another version of the same event (see the section
 *   overview): not activities of their own
 *
 * What the pass met.
 */
typedef struct
{
  guint64 starts;
  guint64 stops;
  guint64 paired;
  guint64 open;
  guint64 abandoned;
  guint64 unmatched_stops;
  guint64 missing_parent;
  guint64 bad_related_id;
  guint64 dropped;
  guint64 out_of_order;
  guint64 duplicate_starts;
} EtlActivitiesCounts;

/**
 * EtlActivityGroup:
 * @ETL_ACTIVITY_GROUP_NAME: one group per #EtlActivity.name
 * @ETL_ACTIVITY_GROUP_TASK: one group per #EtlActivity.task_name
 *
 * How etl_activities_compute_stats() groups the activities.
 */
typedef enum
{
  ETL_ACTIVITY_GROUP_NAME,
  ETL_ACTIVITY_GROUP_TASK,
} EtlActivityGroup;

/**
 * EtlActivityNameStats:
 * @name: the group's name (etl_activities_get_string())
 * @task_name: its task name (the same as @name when grouped by task)
 * @stats: its statistics (the durations of its stopped activities; see
 *   #EtlIntervalStats)
 *
 * One row of etl_activities_compute_stats().
 */
typedef struct
{
  guint32 name;
  guint32 task_name;
  EtlIntervalStats stats;
} EtlActivityNameStats;

/* etl_activity_id_to_path(): room for the longest path and the NUL. */
#define ETL_ACTIVITY_PATH_MAX 128

typedef struct _EtlActivities EtlActivities;

EtlActivities *etl_activities_new (EtlTrace *trace, GCancellable *cancellable, GError **error);
EtlActivities *etl_activities_ref (EtlActivities *activities);
void etl_activities_unref (EtlActivities *activities);
const EtlActivitiesCounts *etl_activities_get_counts (EtlActivities *activities);
const EtlActivity *etl_activities_get (EtlActivities *activities, guint *n_activities);
const EtlActivityStop *etl_activities_get_unmatched_stops (EtlActivities *activities, guint *n_stops);
const char *etl_activities_get_string (EtlActivities *activities, guint32 string);
const EtlGuid *etl_activities_get_provider (EtlActivities *activities, guint16 provider);
GArray *etl_activities_compute_stats (EtlActivities *activities, EtlActivityGroup group);
gboolean etl_activity_id_to_path (const EtlGuid *activity_id, char out[ETL_ACTIVITY_PATH_MAX]);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (EtlActivities, etl_activities_unref)

G_END_DECLS
