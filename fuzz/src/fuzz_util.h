/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Helpers shared by the libFuzzer harnesses: an input reader that never
 * runs past the end (missing bytes read as 0) and a check that aborts,
 * so a broken invariant is a crash libFuzzer saves like any other.
 */
#ifndef MRC_FUZZ_UTIL_H
#define MRC_FUZZ_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <linux/types.h>

struct fin {
	const u8 *p;
	size_t n;
};

static inline u8 fin_u8(struct fin *in)
{
	if (!in->n)
		return 0;
	in->n--;
	return *in->p++;
}

static inline u16 fin_u16(struct fin *in)
{
	u16 hi = fin_u8(in);

	return (u16)(hi << 8 | fin_u8(in));
}

static inline u32 fin_u32(struct fin *in)
{
	u32 hi = fin_u16(in);

	return hi << 16 | fin_u16(in);
}

static inline u64 fin_u64(struct fin *in)
{
	u64 hi = fin_u32(in);

	return hi << 32 | fin_u32(in);
}

/* A frame: a 16-bit length, then that many bytes (fewer at the end). */
static inline size_t fin_frame(struct fin *in, const u8 **p)
{
	size_t len = fin_u16(in);

	if (len > in->n)
		len = in->n;
	*p = in->p;
	in->p += len;
	in->n -= len;
	return len;
}

#define FUZZ_CHECK(cond, ...)						\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "%s:%d: check failed: %s: ",	\
				__FILE__, __LINE__, #cond);		\
			fprintf(stderr, __VA_ARGS__);			\
			fputc('\n', stderr);				\
			abort();					\
		}							\
	} while (0)

#endif
