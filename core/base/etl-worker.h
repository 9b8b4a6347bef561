/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

void etl_worker_lower_priority (void);
void etl_worker_run (GTask *task, GTaskThreadFunc task_func);
void etl_worker_free (gpointer data, GDestroyNotify free_func);
void etl_worker_release_memory (void);

G_END_DECLS
