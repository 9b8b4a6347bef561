/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "etl-regions-file.h"
#include "etl-trace.h"

G_BEGIN_DECLS

/* "None" values of the index fields below (the same as etl-activities.h's). */
#define ETL_REGION_INSTANCE_NONE G_MAXUINT32
#define ETL_REGION_NO_RECORD     G_MAXUINT64

/**
 * EtlRegionInstanceFlags:
 * @ETL_REGION_INSTANCE_OPEN: no Stop matched the Start: the instance lasts
 *   to the trace's last record
 * @ETL_REGION_INSTANCE_CONTAINER: the instance of a container region: from
 *   the first Start to the last Stop of the regions nested in it (no
 *   records of its own)
 * @ETL_REGION_INSTANCE_SELF_NESTED: the parent is an instance of the same
 *   region (Match/SelfNest)
 * @ETL_REGION_INSTANCE_UNNAMED: PayloadBased naming found the field in
 *   neither event: the instance has the region's name
 *
 * What is known of an instance.
 */
typedef enum
{
  ETL_REGION_INSTANCE_OPEN = 1 << 0,
  ETL_REGION_INSTANCE_CONTAINER = 1 << 1,
  ETL_REGION_INSTANCE_SELF_NESTED = 1 << 2,
  ETL_REGION_INSTANCE_UNNAMED = 1 << 3,
} EtlRegionInstanceFlags;

/**
 * EtlRegionInstance:
 * @start: FILETIME of the Start record
 * @stop: FILETIME of the Stop record, or of the trace's last record when
 *   open; @stop ≥ @start
 * @start_record: the Start record's index in the trace
 *   (%ETL_REGION_NO_RECORD for a container)
 * @stop_record: the Stop record's index, %ETL_REGION_NO_RECORD when open
 *   or a container
 * @pid: the Start's ProcessId (0 for a container)
 * @tid: the Start's ThreadId (0 for a container)
 * @parent: index of the enclosing instance, %ETL_REGION_INSTANCE_NONE at
 *   the top
 * @depth: 0 at the top, the parent's depth + 1 below it
 * @name: the instance's name (etl_regions_get_string()): the PayloadBased
 *   field's value, the RegionBased name, else the region's FriendlyName
 *   or Name
 * @region: the region's index in #EtlRegionsFile.regions
 * @flags: #EtlRegionInstanceFlags
 * @activity_id: the Start's EVENT_HEADER.ActivityId (zero when none)
 *
 * One region instance, in the order of the Starts (a Duration region's
 * at its event; container instances, made at the end, after them).  The first nine members are those of
 * #EtlActivity (etl-activities.h), in the same order and of the same types.
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
  guint32 region;
  guint32 flags;
  EtlGuid activity_id;
} EtlRegionInstance;

/**
 * EtlRegionCounts:
 * @instances: instances of the region (open ones included)
 * @open: instances without a Stop
 * @unmatched_stops: Stop events that found no open instance to stop
 * @parent_lost: instances whose candidate parent (open at the Start)
 *   stopped before them: they are at the top (the page's rule: a parent
 *   starts before and stops after its child)
 * @no_duration: events of a Duration region without a numeric Duration
 *   field (no instance)
 *
 * What matching found for one region.
 */
typedef struct
{
  guint64 instances;
  guint64 open;
  guint64 unmatched_stops;
  guint64 parent_lost;
  guint64 no_duration;
} EtlRegionCounts;

/**
 * EtlRegionsTotals:
 * @records_read: records of the providers the file names that were read
 * @starts: Start events matched (instances begun)
 * @stops: Stop events paired with an instance
 * @unmatched_stops: Stop events without an open instance, all regions
 * @open: instances without a Stop
 * @no_schema: events of a region's Event whose payload the trace does not
 *   describe while the region needed a field of it
 * @dropped: Starts past %G_MAXUINT32 − 1 instances (not kept)
 *
 * What the pass met.
 */
typedef struct
{
  guint64 records_read;
  guint64 starts;
  guint64 stops;
  guint64 unmatched_stops;
  guint64 open;
  guint64 no_schema;
  guint64 dropped;
} EtlRegionsTotals;

typedef struct _EtlRegions EtlRegions;

EtlRegions *etl_regions_match (EtlTrace *trace, const EtlRegionsFile *file, GCancellable *cancellable,
                               GError **error);
EtlRegions *etl_regions_ref (EtlRegions *regions);
void etl_regions_unref (EtlRegions *regions);
const EtlRegionInstance *etl_regions_get_instances (EtlRegions *regions, guint *n_instances);
const EtlRegionCounts *etl_regions_get_counts (EtlRegions *regions, guint region);
const EtlRegionsTotals *etl_regions_get_totals (EtlRegions *regions);
const char *etl_regions_get_string (EtlRegions *regions, guint32 string);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (EtlRegions, etl_regions_unref)

G_END_DECLS
