// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "c_prog.h"

int steps, failed;

void step(int cond, const char *what)
{
	steps++;
	if (cond) {
		printf("ok %d - %s\n", steps, what);
	} else {
		printf("not ok %d - %s: %s\n", steps, what, strerror(errno));
		failed++;
	}
	fflush(stdout);
}

struct ibv_context *open_device(const char *name)
{
	struct ibv_device **list = ibv_get_device_list(NULL);
	struct ibv_context *vctx = NULL;
	int i, err = ENODEV;

	/* No device at all is a NULL list, which must not be freed. */
	if (!list)
		return NULL;
	for (i = 0; list[i]; i++)
		if (strcmp(ibv_get_device_name(list[i]), name) == 0) {
			vctx = ibv_open_device(list[i]);
			err = errno;
			break;
		}
	ibv_free_device_list(list);
	if (!vctx)
		errno = err;
	return vctx;
}
