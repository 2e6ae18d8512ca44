/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * MRC for Linux: version numbers of the OCP MRC controller API.
 *
 * Written for MRC for Linux from the published interface of the OCP MRC controller API
 * 1.0.1 (opencomputeproject/OCP-Multipath-Reliable-Connection): the macro
 * names and the numbers they expand to are the interface, so they match it;
 * the text is ours.
 *
 * A version is one 32-bit word: major in bits 31..24, minor in bits 23..16,
 * subminor in bits 15..0. A new major breaks compatibility, a new minor adds
 * to the API, a new subminor only fixes.
 *
 * A program may define MRC_CTL_API_VER_USED (and MRC_CTL_VENDOR_API_VER_USED) before
 * including mrc_ctl.h to select the API it was written for; MRC_CTL_API_VER_LATEST
 * means "whatever this header provides". The selection controls which
 * declarations the headers expose.
 */
#ifndef MRC_CTL_API_VER_H
#define MRC_CTL_API_VER_H

#define MRC_CTL_API_VER_MAJOR_OFFSET 24
#define MRC_CTL_API_VER_MINOR_OFFSET 16
#define MRC_CTL_API_VER_SUBMINOR_OFFSET 0

/*
 * Packs a version. The "+ 0u" makes the arithmetic unsigned, so that a
 * major of 0x80 or more is well defined in C and C++; in #if the
 * expression is evaluated the same way and gives the same number.
 */
#define MRC_CTL_API_VER(major, minor, subminor)                    \
	((((major) + 0u) << MRC_CTL_API_VER_MAJOR_OFFSET) |        \
	 (((minor) + 0u) << MRC_CTL_API_VER_MINOR_OFFSET) |        \
	 (((subminor) + 0u) << MRC_CTL_API_VER_SUBMINOR_OFFSET))

/* "The newest this header knows": all bits set. */
#define MRC_CTL_API_VER_LATEST MRC_CTL_API_VER(0xFF, 0xFF, 0xFFFF)

/* The API this header describes, and the oldest one still accepted. */
#define MRC_CTL_API_CURRENT_VERSION MRC_CTL_API_VER(1, 0, 1)
#define MRC_CTL_API_LAST_SUPPORTED_VERSION MRC_CTL_API_VER(0, 0, 0)

#if !defined(MRC_CTL_API_VER_USED)
#define MRC_CTL_API_VER_USED MRC_CTL_API_CURRENT_VERSION
#elif MRC_CTL_API_VER_USED == MRC_CTL_API_VER_LATEST
#undef MRC_CTL_API_VER_USED
#define MRC_CTL_API_VER_USED MRC_CTL_API_CURRENT_VERSION
#endif

#if MRC_CTL_API_VER_USED > MRC_CTL_API_CURRENT_VERSION
#error "MRC_CTL_API_VER_USED asks for a newer MRC controller API than this mrc_ctl_api_ver.h"
#elif MRC_CTL_API_VER_USED < MRC_CTL_API_LAST_SUPPORTED_VERSION
#error "MRC_CTL_API_VER_USED asks for an MRC controller API older than the oldest supported"
#elif MRC_CTL_API_VER_USED == MRC_CTL_API_LAST_SUPPORTED_VERSION
#warning "MRC_CTL_API_VER_USED selects the oldest supported MRC controller API, which may be dropped"
#endif

/* The vendor (provider-specific) API is numbered the same way, separately. */
#define MRC_CTL_VENDOR_API_CURRENT_VERSION MRC_CTL_API_VER(1, 0, 0)
#define MRC_CTL_VENDOR_API_LAST_SUPPORTED_VERSION MRC_CTL_API_VER(0, 0, 0)

#if !defined(MRC_CTL_VENDOR_API_VER_USED)
#define MRC_CTL_VENDOR_API_VER_USED MRC_CTL_VENDOR_API_CURRENT_VERSION
#elif MRC_CTL_VENDOR_API_VER_USED == MRC_CTL_API_VER_LATEST
#undef MRC_CTL_VENDOR_API_VER_USED
#define MRC_CTL_VENDOR_API_VER_USED MRC_CTL_VENDOR_API_CURRENT_VERSION
#endif

#if MRC_CTL_VENDOR_API_VER_USED > MRC_CTL_VENDOR_API_CURRENT_VERSION
#error "MRC_CTL_VENDOR_API_VER_USED asks for a newer vendor controller API than this header"
#elif MRC_CTL_VENDOR_API_VER_USED < MRC_CTL_VENDOR_API_LAST_SUPPORTED_VERSION
#error "MRC_CTL_VENDOR_API_VER_USED asks for a vendor controller API older than the oldest supported"
#elif MRC_CTL_VENDOR_API_VER_USED == MRC_CTL_VENDOR_API_LAST_SUPPORTED_VERSION
#warning "MRC_CTL_VENDOR_API_VER_USED selects the oldest supported vendor controller API, which may be dropped"
#endif

#endif /* MRC_CTL_API_VER_H */
