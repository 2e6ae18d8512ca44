/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Userspace shim: the kernel's fixed-width types on top of the UAPI
 * <linux/types.h> (which has __u8.., __be64). Only what kernel/ core
 * files use; see fuzz/README in Documentation/testing.rst.
 */
#ifndef MRC_FUZZ_LINUX_TYPES_H
#define MRC_FUZZ_LINUX_TYPES_H

#include_next <linux/types.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef __u8 u8;
typedef __u16 u16;
typedef __u32 u32;
typedef __u64 u64;
typedef __s8 s8;
typedef __s16 s16;
typedef __s32 s32;
typedef __s64 s64;

typedef unsigned int gfp_t;

#endif
