/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Userspace shim: BIT() and GENMASK() families. */
#ifndef MRC_FUZZ_LINUX_BITS_H
#define MRC_FUZZ_LINUX_BITS_H

#define BITS_PER_LONG		64
#define BITS_PER_LONG_LONG	64
#define BIT(n)			(1UL << (n))
#define BIT_ULL(n)		(1ULL << (n))
#define BIT_WORD(n)		((n) / BITS_PER_LONG)
#define BIT_MASK(n)		(1UL << ((n) % BITS_PER_LONG))
#define GENMASK(h, l) \
	((~0UL << (l)) & (~0UL >> (BITS_PER_LONG - 1 - (h))))
#define GENMASK_ULL(h, l) \
	((~0ULL << (l)) & (~0ULL >> (BITS_PER_LONG_LONG - 1 - (h))))

#endif
