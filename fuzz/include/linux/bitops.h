/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Userspace shim: single-bit operations (no atomicity needed here). */
#ifndef MRC_FUZZ_LINUX_BITOPS_H
#define MRC_FUZZ_LINUX_BITOPS_H

#include <linux/bits.h>
#include <linux/types.h>

#define BITS_TO_LONGS(n)	(((n) + BITS_PER_LONG - 1) / BITS_PER_LONG)

static inline void __set_bit(unsigned long nr, unsigned long *map)
{
	map[BIT_WORD(nr)] |= BIT_MASK(nr);
}

static inline void __clear_bit(unsigned long nr, unsigned long *map)
{
	map[BIT_WORD(nr)] &= ~BIT_MASK(nr);
}

#define set_bit __set_bit
#define clear_bit __clear_bit

static inline bool test_bit(unsigned long nr, const unsigned long *map)
{
	return (map[BIT_WORD(nr)] >> (nr % BITS_PER_LONG)) & 1;
}

/* Index of the lowest set bit; undefined for 0, as in the kernel. */
static inline unsigned long __ffs(unsigned long word)
{
	return __builtin_ctzl(word);
}

static inline unsigned int __ffs64(u64 word)
{
	return __builtin_ctzll(word);
}

static inline unsigned int hweight32(u32 w)
{
	return __builtin_popcount(w);
}

static inline int fls(unsigned int x)
{
	return x ? 32 - __builtin_clz(x) : 0;
}

static inline int fls64(u64 x)
{
	return x ? 64 - __builtin_clzll(x) : 0;
}

#endif
