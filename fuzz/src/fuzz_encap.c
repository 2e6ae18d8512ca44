// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Fuzz the check of a decapsulated packet's outer headers
 * (kernel/core/mrc_encap_check.c) with the bytes mrc_net_rx_encap_ok()
 * hands it: the first input byte picks the inner IP version (its low
 * bit: 4 or 6), the rest are the outer headers. Beyond reading only what
 * it was given (ASan), the check must hold to what it promises:
 *
 * - NONE exactly when there is nothing, or no IPv6 header, to judge;
 * - an accepted chain ends exactly where the inner packet starts, so one
 *   byte more or one byte less is refused;
 * - an accepted chain names the inner protocol, so the other version is
 *   refused.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz_util.h"
#include "mrc_encap_check.h"

static enum mrc_encap_verdict check_copy(const u8 *p, size_t len, u8 ver)
{
	enum mrc_encap_verdict v;
	u8 *copy = malloc(len ? len : 1);

	/* Exactly @len bytes on the heap: ASan sees any read past them. */
	memcpy(copy, p, len);
	v = mrc_encap_check(copy, len, ver);
	free(copy);
	return v;
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size);

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	enum mrc_encap_verdict v;
	const u8 *p = data + 1;
	size_t len;
	u8 ver, more[4096 + 1];

	if (!size || size > sizeof(more))
		return 0;
	ver = data[0] & 1 ? 4 : 6;
	len = size - 1;
	v = check_copy(p, len, ver);
	FUZZ_CHECK(v == MRC_ENCAP_NONE || v == MRC_ENCAP_OK ||
		   v == MRC_ENCAP_BAD, "verdict %d", v);
	FUZZ_CHECK((v == MRC_ENCAP_NONE) == (!len || (p[0] >> 4) != 6),
		   "verdict %d with %zu bytes, first %#x", v, len,
		   len ? p[0] : 0);
	if (v != MRC_ENCAP_OK)
		return 0;
	FUZZ_CHECK(check_copy(p, len - 1, ver) != MRC_ENCAP_OK,
		   "accepted with its last byte cut (%zu bytes)", len);
	memcpy(more, p, len);
	more[len] = 0;
	FUZZ_CHECK(check_copy(more, len + 1, ver) == MRC_ENCAP_BAD,
		   "accepted with a byte more (%zu bytes)", len);
	FUZZ_CHECK(check_copy(p, len, ver == 4 ? 6 : 4) == MRC_ENCAP_BAD,
		   "accepted for both inner versions");
	return 0;
}
