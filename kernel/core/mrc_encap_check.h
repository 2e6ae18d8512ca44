/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Checks of the outer headers a received packet came in, once the kernel
 * has stripped them (SRv6 decapsulation): their structure and their
 * source. Pure logic on a byte range, tested by KUnit and fuzzed.
 */
#ifndef MRC_ENCAP_CHECK_H
#define MRC_ENCAP_CHECK_H

#include <linux/types.h>

/* At most this many headers before the inner packet (nested outers). */
#define MRC_ENCAP_MAX_HDRS	8

enum mrc_encap_verdict {
	MRC_ENCAP_NONE,		/* no IPv6 outer header: nothing to judge */
	MRC_ENCAP_OK,		/* IPv6 outers, each SRH well formed, at its end */
	MRC_ENCAP_BAD,		/* malformed: drop the inner packet */
	MRC_ENCAP_WRONG_SRC,	/* well formed, an outer source not the inner's */
};

bool mrc_encap_srh_ok(const u8 *srh, unsigned int len);
int mrc_encap_tclass(const u8 *p, unsigned int len);
enum mrc_encap_verdict mrc_encap_check(const u8 *p, unsigned int len,
				       u8 inner_version, const u8 *inner_src);

#endif /* MRC_ENCAP_CHECK_H */
