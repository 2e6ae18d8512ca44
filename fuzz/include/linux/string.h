/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Userspace shim: memset, memcpy and co. come from libc. */
#include <string.h>
