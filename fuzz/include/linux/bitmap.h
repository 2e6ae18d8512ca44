/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Userspace shim: the bitmap helpers kernel/ uses, bit by bit. */
#ifndef MRC_FUZZ_LINUX_BITMAP_H
#define MRC_FUZZ_LINUX_BITMAP_H

#include <string.h>
#include <linux/bitops.h>
#include <linux/find.h>
#include <linux/slab.h>

static inline unsigned long *bitmap_zalloc(unsigned int nbits, gfp_t gfp)
{
	return kcalloc(BITS_TO_LONGS(nbits), sizeof(unsigned long), gfp);
}

static inline void bitmap_free(const unsigned long *map)
{
	kfree(map);
}

static inline void bitmap_zero(unsigned long *map, unsigned int nbits)
{
	memset(map, 0, BITS_TO_LONGS(nbits) * sizeof(unsigned long));
}

static inline void bitmap_clear(unsigned long *map, unsigned int start,
				unsigned int len)
{
	while (len--)
		__clear_bit(start++, map);
}

static inline void bitmap_set(unsigned long *map, unsigned int start,
			      unsigned int len)
{
	while (len--)
		__set_bit(start++, map);
}

#endif
