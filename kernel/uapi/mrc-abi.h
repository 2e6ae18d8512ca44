/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-2-Clause) */
/*
 * ABI shared by the mrc kernel driver and its userspace provider
 * (libmrc-rdmav34.so). Every structure here crosses the user/kernel
 * boundary: fixed-width types only, explicit padding, no pointers.
 */
#ifndef MRC_ABI_USER_H
#define MRC_ABI_USER_H

#include <linux/types.h>

/*
 * Out-of-tree drivers have no value in enum rdma_driver_id. This private
 * value ("mrc" in ASCII) sits far above the upstream range; the provider
 * matches on it and falls back to the device name.
 */
#define MRC_DRIVER_ID 0x6d7263

/* Bumped on any incompatible change to the structures below. */
#define MRC_UVERBS_ABI_VERSION 1

/* Default UDP destination port; rxe owns 4791, so MRC can run beside it. */
#define MRC_DEFAULT_UDP_PORT 4792

/* Name prefix the provider accepts when the driver id is not reported. */
#define MRC_DEVICE_NAME_PREFIX "mrc"

#endif /* MRC_ABI_USER_H */
