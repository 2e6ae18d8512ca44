/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * MRC for Linux: version numbers of the OCP MRC application API.
 *
 * Written for MRC for Linux from the published interface of the OCP MRC API
 * 1.0.1 (opencomputeproject/OCP-Multipath-Reliable-Connection): the macro
 * names and the numbers they expand to are the interface, so they match it;
 * the text is ours.
 *
 * A version is one 32-bit word: major in bits 31..24, minor in bits 23..16,
 * subminor in bits 15..0. A new major breaks compatibility, a new minor adds
 * to the API, a new subminor only fixes.
 *
 * A program may define MRC_API_VER_USED (and MRC_VENDOR_API_VER_USED) before
 * including mrc.h to select the API it was written for; MRC_API_VER_LATEST
 * means "whatever this header provides". The selection controls which
 * declarations the headers expose.
 */
#ifndef MRC_API_VER_H
#define MRC_API_VER_H

#define MRC_API_VER_MAJOR_OFFSET 24
#define MRC_API_VER_MINOR_OFFSET 16
#define MRC_API_VER_SUBMINOR_OFFSET 0

/*
 * Packs a version. The "+ 0u" makes the arithmetic unsigned, so that a
 * major of 0x80 or more is well defined in C and C++; in #if the
 * expression is evaluated the same way and gives the same number.
 */
#define MRC_API_VER(major, minor, subminor)                    \
	((((major) + 0u) << MRC_API_VER_MAJOR_OFFSET) |        \
	 (((minor) + 0u) << MRC_API_VER_MINOR_OFFSET) |        \
	 (((subminor) + 0u) << MRC_API_VER_SUBMINOR_OFFSET))

/* "The newest this header knows": all bits set. */
#define MRC_API_VER_LATEST MRC_API_VER(0xFF, 0xFF, 0xFFFF)

/* The API this header describes, and the oldest one still accepted. */
#define MRC_API_CURRENT_VERSION MRC_API_VER(1, 0, 1)
#define MRC_API_LAST_SUPPORTED_VERSION MRC_API_VER(0, 0, 0)

#if !defined(MRC_API_VER_USED)
#define MRC_API_VER_USED MRC_API_CURRENT_VERSION
#elif MRC_API_VER_USED == MRC_API_VER_LATEST
#undef MRC_API_VER_USED
#define MRC_API_VER_USED MRC_API_CURRENT_VERSION
#endif

#if MRC_API_VER_USED > MRC_API_CURRENT_VERSION
#error "MRC_API_VER_USED asks for a newer MRC API than this mrc_api_ver.h"
#elif MRC_API_VER_USED < MRC_API_LAST_SUPPORTED_VERSION
#error "MRC_API_VER_USED asks for an MRC API older than the oldest supported"
#elif MRC_API_VER_USED == MRC_API_LAST_SUPPORTED_VERSION
#warning "MRC_API_VER_USED selects the oldest supported MRC API, which may be dropped"
#endif

/* The vendor (provider-specific) API is numbered the same way, separately. */
#define MRC_VENDOR_API_CURRENT_VERSION MRC_API_VER(1, 0, 0)
#define MRC_VENDOR_API_LAST_SUPPORTED_VERSION MRC_API_VER(0, 0, 0)

#if !defined(MRC_VENDOR_API_VER_USED)
#define MRC_VENDOR_API_VER_USED MRC_VENDOR_API_CURRENT_VERSION
#elif MRC_VENDOR_API_VER_USED == MRC_API_VER_LATEST
#undef MRC_VENDOR_API_VER_USED
#define MRC_VENDOR_API_VER_USED MRC_VENDOR_API_CURRENT_VERSION
#endif

#if MRC_VENDOR_API_VER_USED > MRC_VENDOR_API_CURRENT_VERSION
#error "MRC_VENDOR_API_VER_USED asks for a newer vendor API than this header"
#elif MRC_VENDOR_API_VER_USED < MRC_VENDOR_API_LAST_SUPPORTED_VERSION
#error "MRC_VENDOR_API_VER_USED asks for a vendor API older than the oldest supported"
#elif MRC_VENDOR_API_VER_USED == MRC_VENDOR_API_LAST_SUPPORTED_VERSION
#warning "MRC_VENDOR_API_VER_USED selects the oldest supported vendor API, which may be dropped"
#endif

#endif /* MRC_API_VER_H */
