/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Userspace shim: the SZ_* constants kernel/ uses. */
#ifndef MRC_FUZZ_LINUX_SIZES_H
#define MRC_FUZZ_LINUX_SIZES_H

#define SZ_1K	0x00000400
#define SZ_4K	0x00001000
#define SZ_64K	0x00010000
#define SZ_1M	0x00100000
#define SZ_1G	0x40000000

#endif
