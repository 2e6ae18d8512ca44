/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The C test programs' way to a device by name (mrc-ctl-check,
 * mrc-rebind-check, mrc-ev-events).
 */
#ifndef MRC_PROGS_OPEN_DEVICE_H
#define MRC_PROGS_OPEN_DEVICE_H

#include <infiniband/verbs.h>

/* The opened device called name; NULL (errno set) when there is none. */
struct ibv_context *open_device(const char *name);

#endif
