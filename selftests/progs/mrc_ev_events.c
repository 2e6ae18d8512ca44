/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * mrc-ev-events: a controller written in C that watches EV events through
 * the OCP MRC controller API's EV event CQ, with a completion channel
 * (selftests/vm/tests/api_ev_events.sh).
 *
 *   mrc-ev-events --dev DEV --seconds S [--profile ID --want-bad EV,EV...]
 *
 * Creates an EV event CQ on DEV signalling on a completion channel, says
 * "ready", then for S seconds arms the CQ, waits on the channel's fd with
 * poll(2), takes and acknowledges the CQ event and polls every event
 * queued, one line each:
 *
 *   event profile P ev 0xVVVVVVVV port N state good|assumed_bad|... drop D
 *
 * (the EV's first 4 bytes, big-endian: an STEV or UDP EV). With
 * --want-bad it stops once each EV listed (first 4 bytes, as printed)
 * had an ASSUMED_BAD event of profile ID; other EVs' events are printed
 * as they come. Last line "ok" (for --want-bad: each listed EV went bad)
 * or "FAIL: why"; exit status 0 with "ok".
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mrc_ctl.h"
#include "c_prog.h"

#define MAX_WANT 64

/* The EVs --want-bad lists, and which of them went bad so far. */
struct wanted {
	uint32_t ev[MAX_WANT];
	int seen[MAX_WANT];
	int n;
	int bad;
};

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

/* Notes that EV went bad, if it is one of those wanted. */
static void saw_bad(struct wanted *w, uint32_t ev)
{
	int i;

	for (i = 0; i < w->n; i++)
		if (w->ev[i] == ev && !w->seen[i]) {
			w->seen[i] = 1;
			w->bad++;
		}
}

/* Reads --want-bad's list of EVs; -1 (said on stderr) when it is bad. */
static int parse_wanted(char *list, struct wanted *w)
{
	unsigned long v;
	char *tok, *end;

	for (tok = strtok(list, ", "); tok; tok = strtok(NULL, ", ")) {
		errno = 0;
		v = strtoul(tok, &end, 0);
		if (errno || *end || v > UINT32_MAX || w->n == MAX_WANT) {
			fprintf(stderr, "--want-bad: not an EV, or too many: %s\n", tok);
			return -1;
		}
		w->ev[w->n++] = (uint32_t)v;
	}
	return 0;
}

/* Prints what the CQ holds; notes the wanted EVs of profile gone bad. */
static int drain(struct mrc_cq *cq, unsigned long long profile, struct wanted *w)
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
				saw_bad(w, (uint32_t)v[0] << 24 | (uint32_t)v[1] << 16 |
					   (uint32_t)v[2] << 8 | v[3]);
		}
		fflush(stdout);
	}
	return n < 0 ? -n : 0;
}

/* Waits up to the deadline for events and drains them. */
static int watch(struct mrc_cq *cq, struct mrc_comp_channel *ch, int fd, long long deadline,
		 unsigned long long profile, struct wanted *w)
{
	struct mrc_cq *got;
	void *got_ctx;
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	int err;

	while (now_ms() < deadline && !(w->n && w->bad == w->n)) {
		err = mrc_req_notify_cq(cq, 0);
		if (err)
			return fail("mrc_req_notify_cq", err);
		/* What came before the arm does not wake the channel. */
		err = drain(cq, profile, w);
		if (err)
			return fail("mrc_ctl_poll_ev_event", err);
		if (poll(&pfd, 1, (int)(deadline - now_ms())) <= 0)
			continue;
		if (mrc_get_cq_event(ch, &got, &got_ctx))
			return fail("mrc_get_cq_event", errno);
		mrc_ack_cq_events(got, 1);
		if (got != cq || got_ctx != &marker)
			return fail("mrc_get_cq_event named another CQ", EINVAL);
		err = drain(cq, profile, w);
		if (err)
			return fail("mrc_ctl_poll_ev_event", err);
	}
	return 0;
}

int main(int argc, char **argv)
{
	const char *dev = NULL;
	unsigned long long profile = 0;
	static struct wanted want;
	int seconds = 30, i, fd, rc;
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
		else if (!strcmp(argv[i], "--want-bad") && parse_wanted(argv[i + 1], &want))
			return 2;
	}
	if (!dev || i != argc) {
		fprintf(stderr,
			"usage: %s --dev DEV --seconds S [--profile ID --want-bad EV,EV...]\n",
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

	rc = watch(cq, ch, fd, now_ms() + seconds * 1000LL, profile, &want);
	if (mrc_destroy_cq(cq))
		return fail("mrc_destroy_cq", errno);
	rc = rc ? rc : mrc_destroy_comp_channel(ch);
	if (rc)
		return fail("mrc_destroy_comp_channel", rc);
	if (mrc_destroy_context(ctx))
		return fail("mrc_destroy_context", errno);
	ibv_close_device(vctx);
	for (i = 0; i < want.n; i++)
		if (!want.seen[i]) {
			printf("FAIL: no ASSUMED_BAD event of profile %llu for EV 0x%08x\n",
			       profile, want.ev[i]);
			rc = 1;
		}
	if (rc)
		return 1;
	printf("ok\n");
	return 0;
}
