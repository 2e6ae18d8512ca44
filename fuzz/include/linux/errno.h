/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Userspace shim: the UAPI errno values are the kernel's. */
#include_next <linux/errno.h>
