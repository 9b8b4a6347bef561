/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "etl-trace.h"

G_BEGIN_DECLS

#define ETL_ACTIVITY_TASK_NAME_MAX    64  /* bytes kept of a task name, NUL included */
#define ETL_ACTIVITY_FIRST_STRING_MAX 128 /* bytes kept of a Start's first string field, NUL included */

/* One reader thread's cache of the schemas of Start and Stop events (see
 * etl-activity-names.c); not thread-safe, one per thread. */
typedef struct _EtlActivityNames EtlActivityNames;

EtlActivityNames *etl_activity_names_new (EtlTrace *trace);
void etl_activity_names_free (EtlActivityNames *names);
void etl_activity_names_read (EtlActivityNames *names, const EtlRecord *r, char task_name[ETL_ACTIVITY_TASK_NAME_MAX],
                              char first_string[ETL_ACTIVITY_FIRST_STRING_MAX]);
guint64 etl_activity_names_get_hits (EtlActivityNames *names, guint64 *misses);

G_END_DECLS
