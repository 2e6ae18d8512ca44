/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What the C test programs share (mrc-ctl-check, mrc-rebind-check,
 * mrc-ev-events): a device by name, and TAP steps.
 */
#ifndef MRC_PROGS_C_PROG_H
#define MRC_PROGS_C_PROG_H

#include <infiniband/verbs.h>

/* The opened device called name; NULL (errno set) when there is none. */
struct ibv_context *open_device(const char *name);

/* Steps taken and failed so far by step(). */
extern int steps, failed;

/* One TAP step: passes when cond holds; says errno when it does not. */
void step(int cond, const char *what);

#endif
