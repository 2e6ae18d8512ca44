/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Userspace shim: find_next_bit() and friends, bit by bit. Slow and
 * obviously right: a fuzzer must not blame the shim for the core's bugs.
 * As in the kernel, "not found" returns @size.
 */
#ifndef MRC_FUZZ_LINUX_FIND_H
#define MRC_FUZZ_LINUX_FIND_H

#include <linux/bitops.h>

static inline unsigned long find_next_bit(const unsigned long *map,
					  unsigned long size,
					  unsigned long offset)
{
	for (; offset < size; offset++)
		if (test_bit(offset, map))
			return offset;
	return size;
}

static inline unsigned long find_next_zero_bit(const unsigned long *map,
					       unsigned long size,
					       unsigned long offset)
{
	for (; offset < size; offset++)
		if (!test_bit(offset, map))
			return offset;
	return size;
}

static inline unsigned long find_first_bit(const unsigned long *map,
					   unsigned long size)
{
	return find_next_bit(map, size, 0);
}

static inline unsigned long find_first_zero_bit(const unsigned long *map,
						unsigned long size)
{
	return find_next_zero_bit(map, size, 0);
}

#endif
