/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Userspace shim: power-of-two helpers. */
#ifndef MRC_FUZZ_LINUX_LOG2_H
#define MRC_FUZZ_LINUX_LOG2_H

#include <linux/bitops.h>

static inline bool is_power_of_2(unsigned long n)
{
	return n && !(n & (n - 1));
}

/* Undefined for 0 and above 2^63, as the kernel's. */
static inline unsigned long roundup_pow_of_two(unsigned long n)
{
	return n <= 1 ? 1 : 1UL << (64 - __builtin_clzl(n - 1));
}

static inline unsigned long rounddown_pow_of_two(unsigned long n)
{
	return 1UL << (63 - __builtin_clzl(n));
}

#endif
