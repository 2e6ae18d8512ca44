/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * mrc-ctl-check: a controller written in C against the OCP MRC controller
 * API (libmrc's mrc_ctl.h), run against mrc.ko (selftests/vm/tests/api_ctl.sh).
 *
 *   mrc-ctl-check --dev DEV --peer ADDR   configure and probe, as root
 *   mrc-ctl-check --dev DEV --unprivileged   without CAP_NET_ADMIN:
 *                                        reads work, changes are EPERM
 *   mrc-ctl-check --dev DEV --peer ADDR --probe-ports P,P...
 *                                        one batch of UDP EV probes
 *
 * As root it queries the device and its port, disables and enables the
 * port, and leaves behind, for the script to compare with mrc-ip:
 *  - CC profile 7: uet-1.0-nscc, gamma 0.8, ONLINE;
 *  - EV format profile 3: STEV, fields 16,16, ONLINE;
 *  - EV profile 4: EXPLICIT over format 3, EVs 0x0001c001, 0x0002c002 and
 *    0x0003c003 added by REPLACE_EV, ONLINE, the second one DENIED.
 * and probes two UDP EVs to ADDR (an IPv6 address or ::ffff:IPv4, whose
 * host runs MRC), then one to ADDR and one to a host that does not exist.
 *
 * With --probe-ports it only probes ADDR over each UDP source port, in one
 * batch with a 0.5 s timeout, and prints "probe PORT rtt NS" for each
 * answer and "probe PORT timeout" for each request without one
 * (selftests/vm/tests/api_ev_events.sh, which blackholes a router).
 *
 * Output: "ok N - ..." or "not ok N - ...: error" per step, then "ok" or
 * "FAIL". Exit status 0 when every step passed.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mrc_ctl.h"
#include "c_prog.h"

enum { CC_ID = 7, FMT_ID = 3, EV_ID = 4, NEVS = 3, MAX_PROBES = 64 };

/* An STEV EV: its compact value, big-endian in the first 4 bytes, port 1. */
static struct mrc_ctl_ev stev(uint32_t v)
{
	struct mrc_ctl_ev ev = MRC_CTL_EV_UNPOPULATED;

	ev.val[0] = v >> 24;
	ev.val[1] = v >> 16;
	ev.val[2] = v >> 8;
	ev.val[3] = v;
	ev.port = 1;
	return ev;
}

static void device_and_port(struct ibv_context *vctx, struct mrc_context *ctx)
{
	struct mrc_ctl_device_attr dev;
	struct mrc_ctl_port_attr port = { MRC_CTL_PORT_ADMIN_DISABLED };
	struct ibv_port_attr vport;
	int supported = 0, nscc = 0, i;

	step(mrc_ctl_query_device_ex(vctx, ctx, &dev, &supported) == 0 && supported &&
		     dev.mrc_ctl_protocol_version == MRC_CTL_PROTOCOL_VERSION_1,
	     "mrc_ctl_query_device_ex: an MRC device, control protocol 1");
	for (i = 0; dev.cc.algorithms && dev.cc.algorithms[i]; i++)
		nscc |= strcmp(dev.cc.algorithms[i], "uet-1.0-nscc") == 0;
	step(nscc && dev.ev.ev_max_profiles == 256 && dev.cc.cc_max_profiles == 64 &&
		     dev.phy_port_mask == 1 && (dev.opt_attr & MRC_CTL_OPT_CAP_EV_EVENT),
	     "the limits, port 1, EV events and uet-1.0-nscc");
	step(mrc_ctl_query_port(ctx, 1, &port, MRC_CTL_PORT_ADMIN_STATE) == 0 &&
		     port.port_admin_state == MRC_CTL_PORT_ADMIN_ENABLED,
	     "mrc_ctl_query_port: port 1 enabled");
	port.port_admin_state = MRC_CTL_PORT_ADMIN_DISABLED;
	step(mrc_ctl_modify_port(ctx, 1, &port, MRC_CTL_PORT_ADMIN_STATE) == 0 &&
		     ibv_query_port(vctx, 1, &vport) == 0 && vport.state == IBV_PORT_DOWN,
	     "mrc_ctl_modify_port: disabled, ibv_query_port reads DOWN");
	port.port_admin_state = MRC_CTL_PORT_ADMIN_ENABLED;
	step(mrc_ctl_modify_port(ctx, 1, &port, MRC_CTL_PORT_ADMIN_STATE) == 0 &&
		     mrc_ctl_query_port(ctx, 1, &port, MRC_CTL_PORT_ADMIN_STATE) == 0 &&
		     port.port_admin_state == MRC_CTL_PORT_ADMIN_ENABLED,
	     "mrc_ctl_modify_port: enabled again");
}

static void cc_profile(struct mrc_context *ctx)
{
	struct mrc_ctl_cc_nscc_cfg cfg = {
		.adjust_bytes_threshold = 32768, .adjust_period_threshold = 20000,
		.base_rtt = 20000, .eta = 600.0f, .fi = 4000.0f, .fi_scale = 0.25f,
		.gamma = 0.8f, .max_md_jump = 0.5f, .max_cwnd = 1 << 20, .qa_gate = 3,
		.qa_threshold = 80000, .target_delay = 20000,
	};
	struct mrc_ctl_cc_nscc_cfg got;
	struct mrc_ctl_cc_profile_attr cc = {
		.profile_state = MRC_CTL_PROFILE_ONLINE, .algorithm = "uet-1.0-nscc",
		.cc_config = &cfg,
	};

	step(mrc_ctl_modify_cc_profile(ctx, CC_ID, &cc,
				       MRC_CTL_CC_PROFILE_ALGORITHM | MRC_CTL_CC_PROFILE_CONFIG |
					       MRC_CTL_CC_PROFILE_STATE) == 0,
	     "mrc_ctl_modify_cc_profile: uet-1.0-nscc configured and ONLINE in one call");
	memset(&cc, 0, sizeof(cc));
	cc.cc_config = &got;
	step(mrc_ctl_query_cc_profile(ctx, CC_ID, &cc,
				      MRC_CTL_CC_PROFILE_CUR_STATE | MRC_CTL_CC_PROFILE_CONFIG) == 0 &&
		     cc.cur_profile_state == MRC_CTL_PROFILE_ONLINE && cc.algorithm &&
		     strcmp(cc.algorithm, "uet-1.0-nscc") == 0 && got.gamma > 0.79f &&
		     got.gamma < 0.81f && got.base_rtt == 20000 && got.qa_gate == 3,
	     "mrc_ctl_query_cc_profile: ONLINE, uet-1.0-nscc, the configuration back");
	cc.profile_state = MRC_CTL_PROFILE_OFFLINE;
	step(mrc_ctl_modify_cc_profile(ctx, 99, &cc, MRC_CTL_CC_PROFILE_STATE) == -1 &&
		     errno == EINVAL,
	     "OFFLINE without an algorithm: EINVAL from the kernel");
}

static void ev_profiles(struct mrc_context *ctx)
{
	struct mrc_ctl_ev_fmt_field widths[2] = { { 16 }, { 16 } };
	struct mrc_ctl_ev_fmt_profile_attr fmt = {
		.profile_state = MRC_CTL_PROFILE_ONLINE, .ev_fmt_mode = MRC_CTL_EV_FMT_MODE_STEV,
		.ev_fmt_op = { MRC_CTL_EV_FMT_OP_MODIFY_FIELDS, widths, 2 },
	};
	struct mrc_ctl_ev_op_entry add[NEVS], out[NEVS + 1];
	struct mrc_ctl_ev_profile_attr ev = {
		.profile_state = MRC_CTL_PROFILE_OFFLINE, .ev_mode = MRC_CTL_EV_MODE_EXP,
		.ev_fmt_profile_id = FMT_ID, .ev_count = NEVS,
	};
	int i;

	step(mrc_ctl_modify_ev_fmt_profile(ctx, FMT_ID, &fmt,
					   MRC_CTL_EV_FMT_PROFILE_MODE | MRC_CTL_EV_FMT_PROFILE_OP |
						   MRC_CTL_EV_FMT_PROFILE_STATE) == 0,
	     "mrc_ctl_modify_ev_fmt_profile: STEV 16,16 ONLINE");
	memset(widths, 0, sizeof(widths));
	fmt.ev_fmt_op.op = MRC_CTL_EV_FMT_OP_QUERY_FIELDS;
	step(mrc_ctl_query_ev_fmt_profile(ctx, FMT_ID, &fmt, MRC_CTL_EV_FMT_PROFILE_OP) == 0 &&
		     fmt.ev_fmt_mode == MRC_CTL_EV_FMT_MODE_STEV &&
		     fmt.ev_fmt_op.fmt_field_count == 2 && widths[0].width == 16,
	     "mrc_ctl_query_ev_fmt_profile: STEV, 2 fields");

	step(mrc_ctl_modify_ev_profile(ctx, EV_ID, &ev,
				       MRC_CTL_EV_PROFILE_MODE | MRC_CTL_EV_PROFILE_FMT_ID |
					       MRC_CTL_EV_PROFILE_COUNT | MRC_CTL_EV_PROFILE_STATE) == 0,
	     "mrc_ctl_modify_ev_profile: EXPLICIT over format 3, OFFLINE");
	for (i = 0; i < NEVS; i++) {
		memset(&add[i], 0, sizeof(add[i]));
		add[i].ev_new = stev((uint32_t)(i + 1) << 16 | 0xc000 | (i + 1));
	}
	ev.profile_state = MRC_CTL_PROFILE_ONLINE;
	ev.ev_min_active = 1;
	ev.ev_event_mask = MRC_CTL_EV_GOOD | MRC_CTL_EV_ASSUMED_BAD;
	ev.ev_op.op = MRC_CTL_EV_OP_REPLACE_EV;
	ev.ev_op.entries = add;
	ev.ev_op.entry_count = NEVS;
	step(mrc_ctl_modify_ev_profile(ctx, EV_ID, &ev,
				       MRC_CTL_EV_PROFILE_EV_OP | MRC_CTL_EV_PROFILE_MIN_ACTIVE |
					       MRC_CTL_EV_PROFILE_EVENT_MASK |
					       MRC_CTL_EV_PROFILE_STATE) == 0,
	     "REPLACE_EV fills 3 unpopulated EVs, ONLINE in the same call");

	add[0].ev = add[1].ev_new;
	add[0].state = MRC_CTL_EV_DENIED;
	ev.ev_op.op = MRC_CTL_EV_OP_MODIFY_EV_STATE;
	ev.ev_op.entry_count = 1;
	step(mrc_ctl_modify_ev_profile(ctx, EV_ID, &ev, MRC_CTL_EV_PROFILE_EV_OP) == 0,
	     "MODIFY_EV_STATE denies EV 0x0002c002");

	memset(&ev, 0, sizeof(ev));
	ev.ev_op.op = MRC_CTL_EV_OP_QUERY_EV_ARRAY;
	ev.ev_op.entries = out;
	ev.ev_op.entry_count = NEVS + 1;
	step(mrc_ctl_query_ev_profile(ctx, EV_ID, &ev,
				      MRC_CTL_EV_PROFILE_EV_OP | MRC_CTL_EV_PROFILE_CUR_STATE) == 0 &&
		     ev.cur_profile_state == MRC_CTL_PROFILE_ONLINE &&
		     ev.ev_mode == MRC_CTL_EV_MODE_EXP && ev.ev_count == NEVS &&
		     ev.ev_op.entry_count == NEVS && out[2].ev.val[1] == 3 &&
		     out[2].ev.port == 1 && out[1].state == MRC_CTL_EV_DENIED,
	     "QUERY_EV_ARRAY: ONLINE, EXPLICIT, the 3 EVs, the second DENIED");
}

/* An EV probe request to addr over the UDP source port sport. */
static struct mrc_ctl_ep_req udp_probe(uint16_t id, const char *addr, uint16_t sport)
{
	struct mrc_ctl_ep_req r;

	memset(&r, 0, sizeof(r));
	r.req_id = id;
	inet_pton(AF_INET6, addr, r.dgid.raw);
	r.ev_fmt_mode = MRC_CTL_EV_FMT_MODE_UDP;
	r.req_ev.val[0] = sport >> 8; /* UDP's 16 bits, first byte first */
	r.req_ev.val[1] = sport & 0xff;
	r.req_ev.port = 1;
	return r;
}

static void probes(struct mrc_context *ctx, const char *peer, const char *nobody)
{
	struct mrc_ctl_ep_req req[2] = { udp_probe(1, peer, 0xc001), udp_probe(2, peer, 0xc002) };
	struct mrc_ctl_ep_rsp rsp[2];
	const uint32_t timeout = 300000000; /* 0.3 s */
	int n = -1;

	step(mrc_ctl_ep_batch_send_wait(ctx, 0, MRC_CTL_EP_OP_EV_PROBE, req, 2, timeout, rsp,
					&n) == 0 &&
		     n == 2 && rsp[0].rtt > 0 && rsp[0].rtt <= rsp[1].rtt && rsp[0].port == 1 &&
		     rsp[0].req_id != rsp[1].req_id,
	     "mrc_ctl_ep_batch_send_wait: two EV probes answered, in RTT order");
	req[1] = udp_probe(2, nobody, 0xc002);
	step(mrc_ctl_ep_batch_send_wait(ctx, 0, MRC_CTL_EP_OP_EV_PROBE, req, 2, timeout, rsp,
					&n) == -1 &&
		     errno == ETIMEDOUT && n == 1 && rsp[0].req_id == 1,
	     "a probe to a host that is not there: the other answered, ETIMEDOUT");
}

/* One batch to peer over each port of the comma-separated list ports. */
static void probe_ports(struct mrc_context *ctx, const char *peer, const char *ports)
{
	struct mrc_ctl_ep_req req[MAX_PROBES];
	struct mrc_ctl_ep_rsp rsp[MAX_PROBES];
	int answered[MAX_PROBES] = { 0 };
	int nreq = 0, n = -1, ret, i, j;
	const char *p = ports;
	char *end;
	unsigned long port;

	while (*p && nreq < MAX_PROBES) {
		port = strtoul(p, &end, 0);
		if (end == p || port > 0xffff)
			break;
		req[nreq] = udp_probe((uint16_t)(nreq + 1), peer, (uint16_t)port);
		nreq++;
		p = *end == ',' ? end + 1 : end;
	}
	ret = mrc_ctl_ep_batch_send_wait(ctx, 0, MRC_CTL_EP_OP_EV_PROBE, req, nreq,
					 500000000, rsp, &n);
	step((ret == 0 || errno == ETIMEDOUT) && n >= 0 && n <= nreq,
	     "mrc_ctl_ep_batch_send_wait: the batch sent, the answers counted");
	for (j = 0; j < n && j < nreq; j++) {
		i = rsp[j].req_id - 1;
		if (i < 0 || i >= nreq)
			continue;
		answered[i] = 1;
		printf("probe %u rtt %u\n", (unsigned int)(req[i].req_ev.val[0] << 8 |
						       req[i].req_ev.val[1]), rsp[j].rtt);
	}
	for (i = 0; i < nreq; i++)
		if (!answered[i])
			printf("probe %u timeout\n",
			       (unsigned int)(req[i].req_ev.val[0] << 8 | req[i].req_ev.val[1]));
	step(ret == 0 || (ret == -1 && errno == ETIMEDOUT),
	     "ETIMEDOUT exactly when some request went unanswered");
}

/* Without CAP_NET_ADMIN: profiles read, changes refused by the kernel. */
static void unprivileged(struct mrc_context *ctx)
{
	struct mrc_ctl_cc_profile_attr cc = { .profile_state = MRC_CTL_PROFILE_OFFLINE };
	struct mrc_ctl_port_attr port = { MRC_CTL_PORT_ADMIN_DISABLED };

	step(mrc_ctl_query_cc_profile(ctx, CC_ID, &cc, MRC_CTL_CC_PROFILE_CUR_STATE) == 0 &&
		     cc.cur_profile_state == MRC_CTL_PROFILE_ONLINE,
	     "unprivileged: mrc_ctl_query_cc_profile reads CC profile 7 ONLINE");
	step(mrc_ctl_modify_cc_profile(ctx, CC_ID, &cc, MRC_CTL_CC_PROFILE_STATE) == -1 &&
		     errno == EPERM,
	     "unprivileged: mrc_ctl_modify_cc_profile refused with EPERM");
	step(mrc_ctl_modify_port(ctx, 1, &port, MRC_CTL_PORT_ADMIN_STATE) == -1 && errno == EPERM,
	     "unprivileged: mrc_ctl_modify_port refused with EPERM");
}

int main(int argc, char **argv)
{
	const char *dev = NULL, *peer = NULL;
	const char *ports = NULL;
	int unpriv = 0, i;
	struct ibv_context *vctx;
	struct mrc_context *ctx;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--dev") == 0 && i + 1 < argc)
			dev = argv[++i];
		else if (strcmp(argv[i], "--peer") == 0 && i + 1 < argc)
			peer = argv[++i];
		else if (strcmp(argv[i], "--unprivileged") == 0)
			unpriv = 1;
		else if (strcmp(argv[i], "--probe-ports") == 0 && i + 1 < argc)
			ports = argv[++i];
	}
	if (!dev || (!peer && !unpriv)) {
		fprintf(stderr,
			"usage: %s --dev DEV { --peer ADDR [--probe-ports P,P...] | --unprivileged }\n",
			argv[0]);
		return 2;
	}
	vctx = open_device(dev);
	ctx = vctx ? mrc_create_context(vctx, NULL) : NULL;
	if (!ctx) {
		printf("FAIL: cannot open %s: %s\n", dev, strerror(errno));
		return 1;
	}
	if (unpriv) {
		unprivileged(ctx);
	} else if (ports) {
		probe_ports(ctx, peer, ports);
	} else {
		device_and_port(vctx, ctx);
		cc_profile(ctx);
		ev_profiles(ctx);
		probes(ctx, peer, "::ffff:10.0.0.3");
	}
	mrc_destroy_context(ctx);
	ibv_close_device(vctx);
	printf(failed ? "FAIL\n" : "ok\n");
	return failed ? 1 : 0;
}
