/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Userspace shim: kernel allocators on top of malloc, so ASan sees every
 * object's bounds and lifetime. GFP flags are ignored. Like the kernel's
 * (through its own includes) it brings min()/max() and memset().
 */
#ifndef MRC_FUZZ_LINUX_SLAB_H
#define MRC_FUZZ_LINUX_SLAB_H

#include <stdlib.h>
#include <string.h>
#include <linux/minmax.h>
#include <linux/types.h>

#define GFP_KERNEL		0U
#define GFP_ATOMIC		1U
#define GFP_KERNEL_ACCOUNT	2U
#define __GFP_ZERO		4U

/* calloc(0, n) may return NULL, which the kernel's kcalloc never does. */
static inline void *kcalloc(size_t n, size_t size, gfp_t gfp)
{
	(void)gfp;
	return calloc(n ? n : 1, size ? size : 1);
}

static inline void *kzalloc(size_t size, gfp_t gfp)
{
	return kcalloc(1, size, gfp);
}

static inline void *kmalloc(size_t size, gfp_t gfp)
{
	(void)gfp;
	return malloc(size ? size : 1);
}

static inline void kfree(const void *p)
{
	free((void *)p);
}

#define kvcalloc	kcalloc
#define kvzalloc	kzalloc
#define kvmalloc	kmalloc
#define kvfree		kfree

#endif
