/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "etl-activities.h"

G_BEGIN_DECLS

/* The pairing of etl_activities_new() fed by hand (tests of the rules):
 * begin, add the Start and Stop events in the order a trace gives them,
 * finish at the trace's last time. */
typedef struct
{
  guint64 record;
  gint64 filetime;
  guint32 pid;
  guint32 tid;
  EtlGuid provider;
  guint16 task;
  guint8 opcode;         /* 1 Start, 2 Stop; others are ignored */
  guint8 related_state;  /* 0 no RelatedActivityId item, 1 @related is it, 2 an item of the wrong size */
  EtlGuid activity_id;   /* zero when none */
  EtlGuid related;
  const char *task_name; /* (nullable): "Task N" when NULL or empty (Starts); Stops may leave it NULL */
  const char *first_string; /* (nullable): the Start's first payload field when a string */
  guint16 event_id;      /* EVENT_DESCRIPTOR.Id and .Version: a Start logged twice in two versions */
  guint8 version;
} EtlActivityEvent;

typedef struct _EtlActivitiesBuilder EtlActivitiesBuilder;

EtlActivitiesBuilder *etl_activities_builder_new (void);
void etl_activities_builder_add (EtlActivitiesBuilder *b, const EtlActivityEvent *e);
EtlActivities *etl_activities_builder_finish (EtlActivitiesBuilder *b, gint64 last_filetime);
void etl_activities_builder_prefetch (EtlActivitiesBuilder *b, const EtlActivityEvent *e);
void etl_activities_name_stops (EtlActivities *acts, EtlTrace *trace);

G_END_DECLS
