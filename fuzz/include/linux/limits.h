/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Userspace shim: the kernel's U*_MAX limits. */
#ifndef MRC_FUZZ_LINUX_LIMITS_H
#define MRC_FUZZ_LINUX_LIMITS_H

#include_next <linux/limits.h>

#define U8_MAX		((u8)~0U)
#define U16_MAX		((u16)~0U)
#define U32_MAX		((u32)~0U)
#define U64_MAX		((u64)~0ULL)
#define S32_MAX		((s32)(U32_MAX >> 1))
#define S32_MIN		((s32)(-S32_MAX - 1))

#endif
