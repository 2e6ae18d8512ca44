/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * libmrc's headers compile as strict ISO C (built as C99 and as C11 with
 * -pedantic-errors), and a C program links libmrc and calls it: the
 * version queries, and an entry point refusing a NULL argument in the
 * form the API promises. Exits non-zero, naming the check, on a failure.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>

#include "mrc_ctl.h"

#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
_Static_assert(sizeof(struct mrc_qp_attr) == 176, "mrc_qp_attr size in C");
_Static_assert(offsetof(struct mrc_qp_init_attr, protocol_version) == 64, "in C");
_Static_assert(sizeof(struct mrc_ctl_ev_event) == 56, "mrc_ctl_ev_event size in C");
_Static_assert(offsetof(struct mrc_ctl_ep_req, op) == 80, "mrc_ctl_ep_req.op in C");
#endif

static int failures;

static void check(int ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "FAIL: %s\n", what);
		failures++;
	}
}

int main(void)
{
	struct mrc_ctl_ev unset = MRC_CTL_EV_UNPOPULATED;
	uint32_t cur = 0, last = 1, vendor = 0, last_vendor = 1;
	struct mrc_context *ctx;
	int i, zero = 1;

	for (i = 0; i < MRC_CTL_EV_MAX_BYTES; i++)
		zero = zero && unset.val[i] == 0;
	check(zero && unset.port == 0, "MRC_CTL_EV_UNPOPULATED is all zero");

	mrc_query_version(&cur, &last, &vendor, &last_vendor);
	check(cur == MRC_API_VER(1, 0, 1), "mrc_query_version current 1.0.1");
	check(last == MRC_API_LAST_SUPPORTED_VERSION, "mrc_query_version oldest");
	check(vendor == MRC_API_VER(1, 0, 0), "mrc_query_version vendor 1.0.0");
	check(last_vendor == MRC_VENDOR_API_LAST_SUPPORTED_VERSION, "vendor oldest");

	mrc_ctl_query_version(&cur, &last, &vendor, &last_vendor);
	check(cur == MRC_CTL_API_VER(1, 0, 1), "mrc_ctl_query_version current 1.0.1");
	check(vendor == MRC_CTL_API_VER(1, 0, 0), "mrc_ctl_query_version vendor 1.0.0");

	errno = 0;
	ctx = mrc_create_context(NULL, NULL);
	check(ctx == NULL && errno == EINVAL, "mrc_create_context(NULL) is NULL/EINVAL");

	if (!failures)
		printf("ok: libmrc from C (C%ld)\n", (long)(__STDC_VERSION__ / 100 % 100));
	return failures ? 1 : 0;
}
