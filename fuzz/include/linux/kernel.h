/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Userspace shim: the grab-bag of <linux/kernel.h> that kernel/ uses. */
#ifndef MRC_FUZZ_LINUX_KERNEL_H
#define MRC_FUZZ_LINUX_KERNEL_H

#include <linux/types.h>
#include <linux/limits.h>
#include <linux/minmax.h>
#include <linux/bitops.h>
#include <linux/log2.h>

#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#define DIV_ROUND_UP(n, d)	(((n) + (d) - 1) / (d))
#define upper_32_bits(n)	((u32)(((n) >> 16) >> 16))
#define lower_32_bits(n)	((u32)((n) & 0xffffffff))

#endif
