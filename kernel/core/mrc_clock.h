/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The protocol's clock: wire timestamps count units of 1.024 us (2^10
 * ns), so 32 bits span 73 minutes and a shift replaces a division.
 */
#ifndef MRC_CLOCK_H
#define MRC_CLOCK_H

#include <linux/ktime.h>

/* Now, in wire timestamp units. */
static inline u32 mrc_now_ts(void)
{
	return (u32)(ktime_get_ns() >> 10);
}

#endif /* MRC_CLOCK_H */
