/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Userspace shim: min/max/clamp. Like the kernel's, both sides must have
 * the same type (checked at compile time), and each argument is
 * evaluated once.
 */
#ifndef MRC_FUZZ_LINUX_MINMAX_H
#define MRC_FUZZ_LINUX_MINMAX_H

#define __mrc_same_type(a, b) \
	_Static_assert(__builtin_types_compatible_p(__typeof__(a), \
						    __typeof__(b)), \
		       "min/max of different types")

#define min(a, b) ({ __auto_type _a = (a); __auto_type _b = (b); \
	__mrc_same_type(_a, _b); _a < _b ? _a : _b; })
#define max(a, b) ({ __auto_type _a = (a); __auto_type _b = (b); \
	__mrc_same_type(_a, _b); _a > _b ? _a : _b; })
#define min_t(t, a, b) ({ t _a = (a); t _b = (b); _a < _b ? _a : _b; })
#define max_t(t, a, b) ({ t _a = (a); t _b = (b); _a > _b ? _a : _b; })
#define clamp(v, lo, hi) min(max(v, lo), hi)
#define clamp_t(t, v, lo, hi) min_t(t, max_t(t, v, lo), hi)

#endif
