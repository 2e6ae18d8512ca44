/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * mrc-ev-events: a controller written in C that watches EV events through
 * the OCP MRC controller API's EV event CQ, with a completion channel
 * (selftests/vm/tests/api_ev_events.sh).
 *
 *   mrc-ev-events --dev DEV --seconds S [--profile ID --want-bad N]
 *
 * Creates an EV event CQ on DEV signalling on a completion channel, says
 * "ready", then for S seconds arms the CQ, waits on the channel's fd with
 * poll(2), takes and acknowledges the CQ event and polls every event
 * queued, one line each:
 *
 *   event profile P ev 0xVVVVVVVV port N state good|assumed_bad|... drop D
 *
 * (the EV's first 4 bytes, big-endian: an STEV or UDP EV). With
 * --want-bad it stops once N ASSUMED_BAD events of profile ID came.
 * Last line "ok" (for --want-bad: that many came) or "FAIL: why"; exit
 * status 0 with "ok".
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mrc_ctl.h"

static struct ibv_context *open_device(const char *name)
{
	struct ibv_device **list = ibv_get_device_list(NULL);
	struct ibv_context *vctx = NULL;
	int i;

	for (i = 0; list && list[i]; i++)
		if (strcmp(ibv_get_device_name(list[i]), name) == 0)
			vctx = ibv_open_device(list[i]);
	if (list)
		ibv_free_device_list(list);
	return vctx;
}

static const char *state_name(enum mrc_ctl_ev_state s)
{
	switch (s) {
	case MRC_CTL_EV_GOOD:
		return "good";
	case MRC_CTL_EV_ASSUMED_BAD:
		return "assumed_bad";
	case MRC_CTL_EV_DENIED:
		return "denied";
	default:
		return "unknown";
	}
}

/* The CQ's context, which its CQ events must hand back. */
static int marker;

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

static int fail(const char *what, int err)
{
	printf("FAIL: %s: %s\n", what, strerror(err));
	return 1;
}

/* Prints what the CQ holds; counts ASSUMED_BAD events of profile. */
static int drain(struct mrc_cq *cq, unsigned long long profile, int *bad)
{
	struct mrc_ctl_ev_event ev[8];
	int n, i;

	while ((n = mrc_ctl_poll_ev_event(cq, 8, ev)) > 0) {
		for (i = 0; i < n; i++) {
			const uint8_t *v = ev[i].ev.val;

			printf("event profile %llu ev 0x%02x%02x%02x%02x port %u state %s drop %u\n",
			       (unsigned long long)ev[i].profile_id, v[0], v[1], v[2], v[3],
			       ev[i].ev.port, state_name(ev[i].state), ev[i].drop_count);
			if (ev[i].profile_id == profile && ev[i].state == MRC_CTL_EV_ASSUMED_BAD)
				(*bad)++;
		}
		fflush(stdout);
	}
	return n < 0 ? -n : 0;
}

/* Waits up to the deadline for events and drains them. */
static int watch(struct mrc_cq *cq, struct mrc_comp_channel *ch, int fd, long long deadline,
		 unsigned long long profile, int want, int *bad)
{
	struct mrc_cq *got;
	void *got_ctx;
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	int err;

	while (now_ms() < deadline && !(want && *bad >= want)) {
		err = mrc_req_notify_cq(cq, 0);
		if (err)
			return fail("mrc_req_notify_cq", err);
		/* What came before the arm does not wake the channel. */
		err = drain(cq, profile, bad);
		if (err)
			return fail("mrc_ctl_poll_ev_event", err);
		if (poll(&pfd, 1, (int)(deadline - now_ms())) <= 0)
			continue;
		if (mrc_get_cq_event(ch, &got, &got_ctx))
			return fail("mrc_get_cq_event", errno);
		mrc_ack_cq_events(got, 1);
		if (got != cq || got_ctx != &marker)
			return fail("mrc_get_cq_event named another CQ", EINVAL);
		err = drain(cq, profile, bad);
		if (err)
			return fail("mrc_ctl_poll_ev_event", err);
	}
	return 0;
}

int main(int argc, char **argv)
{
	const char *dev = NULL;
	unsigned long long profile = 0;
	int seconds = 30, want = 0, bad = 0, i, fd, rc;
	struct mrc_context_attr attr = { .mrc_api_version_used = MRC_API_CURRENT_VERSION };
	struct mrc_ctl_device_attr dattr;
	struct ibv_context *vctx;
	struct mrc_context *ctx;
	struct mrc_comp_channel *ch = NULL;
	struct mrc_cq *cq;

	for (i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--dev"))
			dev = argv[i + 1];
		else if (!strcmp(argv[i], "--seconds"))
			seconds = atoi(argv[i + 1]);
		else if (!strcmp(argv[i], "--profile"))
			profile = strtoull(argv[i + 1], NULL, 0);
		else if (!strcmp(argv[i], "--want-bad"))
			want = atoi(argv[i + 1]);
	}
	if (!dev || i != argc) {
		fprintf(stderr, "usage: %s --dev DEV --seconds S [--profile ID --want-bad N]\n",
			argv[0]);
		return 2;
	}
	vctx = open_device(dev);
	if (!vctx)
		return fail("no such device", ENODEV);
	if (mrc_ctl_query_device(vctx, &dattr))
		return fail("mrc_ctl_query_device", errno);
	if (!(dattr.opt_attr & MRC_CTL_OPT_CAP_EV_EVENT))
		return fail("no MRC_CTL_OPT_CAP_EV_EVENT", ENOTSUP);
	ctx = mrc_create_context(vctx, &attr);
	if (!ctx)
		return fail("mrc_create_context", errno);
	rc = mrc_create_comp_channel(ctx, &ch);
	if (rc)
		return fail("mrc_create_comp_channel", rc);
	if (mrc_get_comp_channel_fd(ch, &fd))
		return fail("mrc_get_comp_channel_fd", errno);
	cq = mrc_ctl_create_ev_event_cq(ctx, 256, &marker, ch, 0);
	if (!cq)
		return fail("mrc_ctl_create_ev_event_cq", errno);
	printf("ready\n");
	fflush(stdout);

	rc = watch(cq, ch, fd, now_ms() + seconds * 1000LL, profile, want, &bad);
	if (mrc_destroy_cq(cq))
		return fail("mrc_destroy_cq", errno);
	rc = rc ? rc : mrc_destroy_comp_channel(ch);
	if (rc)
		return fail("mrc_destroy_comp_channel", rc);
	if (mrc_destroy_context(ctx))
		return fail("mrc_destroy_context", errno);
	ibv_close_device(vctx);
	if (want && bad < want) {
		printf("FAIL: %d ASSUMED_BAD events of profile %llu, wanted %d\n", bad, profile,
		       want);
		return 1;
	}
	printf("ok\n");
	return 0;
}
