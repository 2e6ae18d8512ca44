/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * mrc-rebind-check: profile ids at the move to INIT (OCP mrc_modify_qp()
 * with MRC_QP_EV_PROFILE_ID and MRC_QP_CC_PROFILE_ID), run against mrc.ko
 * (selftests/vm/tests/api_rebind.sh).
 *
 *   mrc-rebind-check controller --dev DEV --ev ID --cc ID --offline ID
 *   mrc-rebind-check app --dev DEV --gid N --peer-dev DEV --peer-gid N
 *                        --ev ID --cc ID --offline ID
 *   mrc-rebind-check srv6-controller --dev DEV --fmt ID --ev ID
 *                        --usid ADDR [--usid ADDR]...
 *
 * The controller makes, through mrc_ctl.h, and leaves behind when it
 * exits: EV profile --ev, GENERATED over format 0 (UDP), 8 EVs, source
 * ports 0xd000 to 0xd007, ONLINE; CC profile --cc, uet-1.0-nscc, ONLINE;
 * EV profile --offline, the same EVs, OFFLINE.
 *
 * The SRv6 controller makes EV format --fmt, SRV6 with one 128-bit field,
 * and EV profile --ev, EXPLICIT over it with one EV per --usid (a uSID
 * container, the outer destination address with no SRH), both ONLINE,
 * reads the EVs back, and exits (selftests/vm/tests/srv6_ev.sh).
 *
 * The application, run in DEV's network namespace (where the library
 * finds the device), creates a QP on DEV with the default profiles and
 * one on --peer-dev (the other host's device, which the RDMA core shows
 * in every namespace) to write to. DEV's QP, in order:
 *  - RESET->INIT naming an EV profile that does not exist, then the
 *    OFFLINE one: refused with EINVAL, the QP still in RESET;
 *  - RESET->INIT naming both profiles with a P_Key index the driver
 *    refuses: EINVAL, the QP still in RESET and bound back (checked by the
 *    script at "pause rolled-back");
 *  - RESET->INIT naming both: bound to them (the script checks at
 *    "pause bound", and that other users cannot rebind it);
 *  - INIT->INIT naming a profile: EINVAL (only on the way to INIT);
 *  - RTR, RTS, a 64 KiB RDMA WRITE to the peer, verified byte for byte
 *    (the script checks at "pause sent" which EVs carried it, and that
 *    the kernel now refuses to rebind the QP);
 *  - RTS->RTS naming a profile: EINVAL.
 * At each "pause TAG" line the program waits for a line on stdin.
 *
 * Output: "ok N - ..." or "not ok N - ...: error" per step, then "ok" or
 * "FAIL". Exit status 0 when every step passed.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mrc.h"
#include "mrc_ctl.h"
#include "c_prog.h"

enum { NEVS = 8, SPORT0 = 0xd000, LEN = 65536, MAX_USIDS = 8 };

static void pause_at(const char *tag)
{
	char line[64];

	printf("pause %s\n", tag);
	fflush(stdout);
	if (!fgets(line, sizeof(line), stdin))
		exit(2);
}

static struct mrc_context *context_of(struct ibv_context *vctx)
{
	struct mrc_context_attr ca = { .mrc_api_version_used = MRC_API_VER_LATEST };

	return vctx ? mrc_create_context(vctx, &ca) : NULL;
}

/* EV profile id: GENERATED over format 0, ports SPORT0.., in @state. */
static int generated(struct mrc_context *ctx, uint64_t id, enum mrc_ctl_profile_state state)
{
	struct mrc_ctl_ev_field field = {
		.width = 16, .init_val = SPORT0, .min_val = 0, .max_val = NEVS - 1,
		.mask = NEVS - 1,
	};
	struct mrc_ctl_ev_profile_attr ev = {
		.profile_state = MRC_CTL_PROFILE_OFFLINE, .ev_mode = MRC_CTL_EV_MODE_GEN,
		.ev_fmt_profile_id = 0, .ev_min_active = 2,
		.ev_fields_op = { MRC_CTL_EV_FIELDS_OP_MODIFY_FIELDS, &field, 1 },
	};

	if (mrc_ctl_modify_ev_profile(ctx, id, &ev,
				      MRC_CTL_EV_PROFILE_MODE | MRC_CTL_EV_PROFILE_FMT_ID |
					      MRC_CTL_EV_PROFILE_MIN_ACTIVE |
					      MRC_CTL_EV_PROFILE_EV_FIELDS_OP |
					      MRC_CTL_EV_PROFILE_STATE))
		return -1;
	if (state == MRC_CTL_PROFILE_OFFLINE)
		return 0;
	memset(&ev, 0, sizeof(ev));
	ev.profile_state = state;
	return mrc_ctl_modify_ev_profile(ctx, id, &ev, MRC_CTL_EV_PROFILE_STATE);
}

static int controller(struct mrc_context *ctx, uint64_t ev_id, uint64_t cc_id,
		      uint64_t offline_id)
{
	struct mrc_ctl_cc_profile_attr cc = {
		.profile_state = MRC_CTL_PROFILE_ONLINE, .algorithm = "uet-1.0-nscc",
	};

	step(generated(ctx, ev_id, MRC_CTL_PROFILE_ONLINE) == 0,
	     "EV profile: GENERATED over format 0, 8 ports from 0xd000, ONLINE");
	step(mrc_ctl_modify_cc_profile(ctx, cc_id, &cc,
				       MRC_CTL_CC_PROFILE_ALGORITHM | MRC_CTL_CC_PROFILE_STATE) == 0,
	     "CC profile: uet-1.0-nscc with its defaults, ONLINE");
	step(generated(ctx, offline_id, MRC_CTL_PROFILE_OFFLINE) == 0,
	     "a second EV profile, the same EVs, left OFFLINE");
	return 0;
}

/*
 * EV format fmt_id: SRV6, one 128-bit field; EV profile ev_id: EXPLICIT over
 * it, one EV per address in usids; both ONLINE.
 */
static void srv6_controller(struct mrc_context *ctx, uint64_t fmt_id, uint64_t ev_id,
			    char **usids, int n)
{
	struct mrc_ctl_ev_fmt_field width = { 128 };
	struct mrc_ctl_ev_fmt_profile_attr fmt = {
		.profile_state = MRC_CTL_PROFILE_ONLINE, .ev_fmt_mode = MRC_CTL_EV_FMT_MODE_SRV6,
		.ev_fmt_op = { MRC_CTL_EV_FMT_OP_MODIFY_FIELDS, &width, 1 },
	};
	struct mrc_ctl_ev_op_entry add[MAX_USIDS], out[MAX_USIDS];
	struct mrc_ctl_ev_profile_attr ev = {
		.profile_state = MRC_CTL_PROFILE_OFFLINE, .ev_mode = MRC_CTL_EV_MODE_EXP,
		.ev_fmt_profile_id = fmt_id, .ev_count = (uint32_t)n,
	};
	int i, same = 0;

	step(mrc_ctl_modify_ev_fmt_profile(ctx, fmt_id, &fmt,
					   MRC_CTL_EV_FMT_PROFILE_MODE | MRC_CTL_EV_FMT_PROFILE_OP |
						   MRC_CTL_EV_FMT_PROFILE_STATE) == 0,
	     "mrc_ctl_modify_ev_fmt_profile: SRV6, one 128-bit field, ONLINE");
	step(mrc_ctl_modify_ev_profile(ctx, ev_id, &ev,
				       MRC_CTL_EV_PROFILE_MODE | MRC_CTL_EV_PROFILE_FMT_ID |
					       MRC_CTL_EV_PROFILE_COUNT | MRC_CTL_EV_PROFILE_STATE) == 0,
	     "mrc_ctl_modify_ev_profile: EXPLICIT over the SRV6 format, OFFLINE");
	memset(add, 0, sizeof(add));
	for (i = 0; i < n; i++) {
		add[i].ev_new.port = 1;
		if (inet_pton(AF_INET6, usids[i], add[i].ev_new.val) != 1) {
			errno = EINVAL;
			step(0, "an SRv6 EV: an IPv6 address");
			return;
		}
	}
	ev.profile_state = MRC_CTL_PROFILE_ONLINE;
	ev.ev_min_active = 1;
	ev.ev_op.op = MRC_CTL_EV_OP_REPLACE_EV;
	ev.ev_op.entries = add;
	ev.ev_op.entry_count = n;
	step(mrc_ctl_modify_ev_profile(ctx, ev_id, &ev,
				       MRC_CTL_EV_PROFILE_EV_OP | MRC_CTL_EV_PROFILE_MIN_ACTIVE |
					       MRC_CTL_EV_PROFILE_STATE) == 0,
	     "REPLACE_EV adds one uSID container per address, ONLINE");

	memset(&ev, 0, sizeof(ev));
	ev.ev_op.op = MRC_CTL_EV_OP_QUERY_EV_ARRAY;
	ev.ev_op.entries = out;
	ev.ev_op.entry_count = MAX_USIDS;
	if (mrc_ctl_query_ev_profile(ctx, ev_id, &ev,
				     MRC_CTL_EV_PROFILE_EV_OP | MRC_CTL_EV_PROFILE_CUR_STATE) == 0 &&
	    ev.ev_op.entry_count == n)
		for (i = 0; i < n; i++)
			same += memcmp(out[i].ev.val, add[i].ev_new.val, MRC_CTL_EV_MAX_BYTES) == 0;
	step(ev.cur_profile_state == MRC_CTL_PROFILE_ONLINE && same == n,
	     "QUERY_EV_ARRAY: ONLINE, each container back as given (16 bytes, no SRH)");
}

/* One end of the connection: a QP on a device, its CQ and memory. */
struct end {
	struct ibv_context *vctx;
	struct mrc_context *ctx;
	struct ibv_pd *pd;
	struct ibv_mr *mr;
	struct mrc_cq *cq;
	struct mrc_qp *qp;
	uint8_t *buf;
	uint32_t qpn;
	union ibv_gid gid;
	int gid_index;
};

static int open_end(struct end *e, const char *dev, int gid_index)
{
	struct mrc_qp_init_attr qa = { 0 };

	e->gid_index = gid_index;
	e->vctx = open_device(dev);
	e->ctx = context_of(e->vctx);
	if (!e->ctx || ibv_query_gid(e->vctx, 1, gid_index, &e->gid))
		return -1;
	e->pd = ibv_alloc_pd(e->vctx);
	e->buf = calloc(1, LEN);
	if (!e->pd || !e->buf)
		return -1;
	e->mr = ibv_reg_mr(e->pd, e->buf, LEN, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
	e->cq = mrc_create_cq(e->ctx, 16, NULL, NULL, 0);
	if (!e->mr || !e->cq)
		return -1;
	qa.send_cq = e->cq;
	qa.recv_cq = e->cq;
	qa.cap.max_send_wr = 4;
	qa.cap.max_recv_wr = 4;
	qa.cap.max_send_sge = 1;
	qa.cap.max_recv_sge = 1;
	qa.pd = e->pd;
	e->qp = mrc_create_qp(e->ctx, &qa);
	return e->qp ? mrc_get_qpn(e->qp, &e->qpn) : -1;
}

static void close_end(struct end *e)
{
	if (e->qp)
		mrc_destroy_qp(e->qp);
	if (e->cq)
		mrc_destroy_cq(e->cq);
	if (e->mr)
		ibv_dereg_mr(e->mr);
	if (e->pd)
		ibv_dealloc_pd(e->pd);
	if (e->ctx)
		mrc_destroy_context(e->ctx);
	if (e->vctx)
		ibv_close_device(e->vctx);
	free(e->buf);
}

static enum ibv_qp_state state_of(struct mrc_qp *qp)
{
	struct ibv_qp_attr va;
	struct mrc_qp_init_attr init;

	if (mrc_query_qp(qp, &va, IBV_QP_STATE, NULL, 0, &init))
		return (enum ibv_qp_state)-1;
	return va.qp_state;
}

/*
 * RESET->INIT naming EV profile @ev and CC profile @cc, with P_Key index
 * @pkey: 0, or the errno value mrc_modify_qp() returned.
 */
static int to_init(struct mrc_qp *qp, uint64_t ev, uint64_t cc, uint16_t pkey)
{
	struct ibv_qp_attr va = { .qp_state = IBV_QPS_INIT, .pkey_index = pkey };
	struct mrc_qp_attr ma = { .profile = { ev, cc } };

	return mrc_modify_qp(qp, &va, IBV_QP_STATE | IBV_QP_PKEY_INDEX, &ma,
			     MRC_QP_EV_PROFILE_ID | MRC_QP_CC_PROFILE_ID);
}

static int to_rtr_rts(struct end *e, const struct end *peer)
{
	struct ibv_qp_attr va = {
		.qp_state = IBV_QPS_RTR, .path_mtu = IBV_MTU_1024, .dest_qp_num = peer->qpn,
		.rq_psn = 0,
	};
	struct mrc_qp_attr ma = { .timeout = 16, .retry = { 7, 0 } };

	va.ah_attr.is_global = 1;
	va.ah_attr.grh.dgid = peer->gid;
	va.ah_attr.grh.sgid_index = (uint8_t)e->gid_index;
	va.ah_attr.grh.hop_limit = 64;
	va.ah_attr.port_num = 1;
	if (mrc_modify_qp(e->qp, &va,
			  IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |
				  IBV_QP_RQ_PSN,
			  NULL, 0))
		return -1;
	memset(&va, 0, sizeof(va));
	va.qp_state = IBV_QPS_RTS;
	va.sq_psn = 0;
	return mrc_modify_qp(e->qp, &va, IBV_QP_STATE | IBV_QP_SQ_PSN, &ma,
			     MRC_QP_TIMEOUT | MRC_QP_RETRY_CNT) ? -1 : 0;
}

/* A WRITE of LEN bytes from @e to @peer, completed and verified. */
static int write_verified(struct end *e, struct end *peer)
{
	struct ibv_sge sge = { (uintptr_t)e->buf, LEN, e->mr->lkey };
	struct ibv_send_wr wr = {
		.sg_list = &sge, .num_sge = 1, .opcode = IBV_WR_RDMA_WRITE,
		.send_flags = IBV_SEND_SIGNALED,
	}, *bad;
	struct ibv_wc wc;
	int i, n = 0;

	for (i = 0; i < LEN; i++)
		e->buf[i] = (uint8_t)(i * 7 + 3);
	wr.wr.rdma.remote_addr = (uintptr_t)peer->buf;
	wr.wr.rdma.rkey = peer->mr->rkey;
	if (mrc_post_send(e->qp, &wr, &bad))
		return -1;
	for (i = 0; i < 20000000 && n == 0; i++)
		n = mrc_poll_cq(e->cq, 1, &wc);
	if (n != 1 || wc.status != IBV_WC_SUCCESS) {
		errno = n == 1 ? EIO : ETIMEDOUT;
		return -1;
	}
	if (memcmp(e->buf, peer->buf, LEN)) {
		errno = EILSEQ;
		return -1;
	}
	return 0;
}

static int app(const char *dev, int gid, const char *peer_dev, int peer_gid, uint64_t ev_id,
	       uint64_t cc_id, uint64_t offline_id)
{
	struct end e = { 0 }, peer = { 0 };
	struct ibv_qp_attr va = { .qp_state = IBV_QPS_INIT };
	struct mrc_qp_attr ma = { .profile = { ev_id, cc_id } };
	struct mrc_qp_init_attr init;
	int err;

	step(open_end(&e, dev, gid) == 0 && open_end(&peer, peer_dev, peer_gid) == 0,
	     "a QP on each device, default profiles");
	if (failed)
		return 1;
	printf("# qpn %u\n", e.qpn);

	err = to_init(e.qp, 999999, cc_id, 0);
	step(err == EINVAL && state_of(e.qp) == IBV_QPS_RESET,
	     "RESET->INIT naming an EV profile that does not exist: EINVAL, still RESET");
	err = to_init(e.qp, offline_id, cc_id, 0);
	step(err == EINVAL && state_of(e.qp) == IBV_QPS_RESET,
	     "RESET->INIT naming an OFFLINE EV profile: EINVAL, still RESET");
	err = to_init(e.qp, ev_id, cc_id, 1);
	step(err == EINVAL && state_of(e.qp) == IBV_QPS_RESET,
	     "a transition the driver refuses (P_Key index 1): EINVAL, still RESET");
	pause_at("rolled-back");

	err = to_init(e.qp, ev_id, cc_id, 0);
	memset(&ma, 0, sizeof(ma));
	step(err == 0 && state_of(e.qp) == IBV_QPS_INIT &&
		     mrc_query_qp(e.qp, NULL, 0, &ma, MRC_QP_EV_PROFILE_ID | MRC_QP_CC_PROFILE_ID,
				  &init) == 0 &&
		     ma.profile.ev_profile_id == ev_id && ma.profile.cc_profile_id == cc_id,
	     "RESET->INIT naming both profiles: INIT, mrc_query_qp reads the ids");
	pause_at("bound");

	ma.profile.ev_profile_id = 0;
	err = mrc_modify_qp(e.qp, &va, IBV_QP_STATE, &ma, MRC_QP_EV_PROFILE_ID);
	step(err == EINVAL, "INIT->INIT naming a profile: EINVAL");
	/* Not in this namespace: the library could not name its device. */
	step(mrc_modify_qp(peer.qp, &va, IBV_QP_STATE, NULL, 0) == 0,
	     "the peer's QP: RESET->INIT with its default profiles");
	step(to_rtr_rts(&e, &peer) == 0 && to_rtr_rts(&peer, &e) == 0, "both QPs RTR, RTS");
	step(write_verified(&e, &peer) == 0, "RDMA WRITE of 64 KiB, every byte verified");
	pause_at("sent");

	va.qp_state = IBV_QPS_RTS;
	err = mrc_modify_qp(e.qp, &va, IBV_QP_STATE, &ma, MRC_QP_CC_PROFILE_ID);
	step(err == EINVAL, "RTS->RTS naming a profile: EINVAL");
	close_end(&e);
	close_end(&peer);
	return 0;
}

static int usage(void)
{
	fprintf(stderr,
		"usage: mrc-rebind-check controller --dev DEV --ev ID --cc ID --offline ID\n"
		"       mrc-rebind-check app --dev DEV --gid N --peer-dev DEV --peer-gid N\n"
		"                            --ev ID --cc ID --offline ID\n"
		"       mrc-rebind-check srv6-controller --dev DEV --fmt ID --ev ID\n"
		"                            --usid ADDR [--usid ADDR]...\n");
	return 2;
}

int main(int argc, char **argv)
{
	const char *dev = NULL, *peer_dev = NULL;
	unsigned long long ev = 0, cc = 0, off = 0, fmt = 0;
	int gid = -1, peer_gid = -1, i, rc, nusids = 0;
	char *usids[MAX_USIDS];
	struct ibv_context *vctx;
	struct mrc_context *ctx;

	if (argc < 2)
		return usage();
	for (i = 2; i + 1 < argc; i += 2) {
		if (strcmp(argv[i], "--dev") == 0)
			dev = argv[i + 1];
		else if (strcmp(argv[i], "--peer-dev") == 0)
			peer_dev = argv[i + 1];
		else if (strcmp(argv[i], "--gid") == 0)
			gid = atoi(argv[i + 1]);
		else if (strcmp(argv[i], "--peer-gid") == 0)
			peer_gid = atoi(argv[i + 1]);
		else if (strcmp(argv[i], "--ev") == 0)
			ev = strtoull(argv[i + 1], NULL, 0);
		else if (strcmp(argv[i], "--cc") == 0)
			cc = strtoull(argv[i + 1], NULL, 0);
		else if (strcmp(argv[i], "--offline") == 0)
			off = strtoull(argv[i + 1], NULL, 0);
		else if (strcmp(argv[i], "--fmt") == 0)
			fmt = strtoull(argv[i + 1], NULL, 0);
		else if (strcmp(argv[i], "--usid") == 0 && nusids < MAX_USIDS)
			usids[nusids++] = argv[i + 1];
		else
			return usage();
	}
	if (i != argc || !dev || !ev)
		return usage();
	if (strcmp(argv[1], "srv6-controller") == 0) {
		if (!fmt || !nusids)
			return usage();
		vctx = open_device(dev);
		ctx = context_of(vctx);
		step(ctx != NULL, "mrc_create_context");
		if (ctx) {
			srv6_controller(ctx, fmt, ev, usids, nusids);
			mrc_destroy_context(ctx);
		}
		if (vctx)
			ibv_close_device(vctx);
	} else if (!cc || !off) {
		return usage();
	} else if (strcmp(argv[1], "controller") == 0) {
		vctx = open_device(dev);
		ctx = context_of(vctx);
		step(ctx != NULL, "mrc_create_context");
		if (ctx) {
			controller(ctx, ev, cc, off);
			mrc_destroy_context(ctx);
		}
		if (vctx)
			ibv_close_device(vctx);
	} else if (strcmp(argv[1], "app") == 0) {
		if (!peer_dev || gid < 0 || peer_gid < 0)
			return usage();
		app(dev, gid, peer_dev, peer_gid, ev, cc, off);
	} else {
		return usage();
	}
	rc = failed ? 1 : 0;
	printf("%s\n", rc ? "FAIL" : "ok");
	return rc;
}
