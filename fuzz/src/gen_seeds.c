// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Write the seed corpus of every harness: real packets made by the
 * project's own encoder (kernel/core/mrc_wire.c), and short scripts that play
 * the exchanges a live QP has (a WRITE stream in and out of order, a
 * loss repaired by SACK, an RNR episode, READ and atomic requests with
 * duplicates, a dead EV probed back). Usage: gen_seeds DIR; writes
 * DIR/<harness>/<name>.
 */
#include <errno.h>
#include <stdarg.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz_util.h"
#include "mrc_wire.h"

#define MTU		1024
#define START_PSN	0x00fffff0U	/* crosses a 2^24 boundary early */
#define DQPN		0x000123
#define SEED_MAX	65536

struct seed {
	u8 b[SEED_MAX];
	size_t n;
};

static const char *out_dir;

static void put8(struct seed *s, u8 v)
{
	FUZZ_CHECK(s->n < SEED_MAX, "seed too long");
	s->b[s->n++] = v;
}

static void put16(struct seed *s, u16 v)
{
	put8(s, v >> 8);
	put8(s, v);
}

static void put32(struct seed *s, u32 v)
{
	put16(s, v >> 16);
	put16(s, v);
}

static void put64(struct seed *s, u64 v)
{
	put32(s, v >> 32);
	put32(s, v);
}

static void save(const char *harness, const char *name, const struct seed *s)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", out_dir, harness);
	FUZZ_CHECK(!mkdir(path, 0755) || errno == EEXIST, "mkdir %s", path);
	snprintf(path, sizeof(path), "%s/%s/%s", out_dir, harness, name);
	f = fopen(path, "wb");
	FUZZ_CHECK(f && fwrite(s->b, 1, s->n, f) == s->n && !fclose(f),
		   "write %s", path);
}

/* Encode @p with @plen bytes of payload; returns the datagram length. */
static size_t encode(struct mrc_pkt *p, unsigned int plen, u8 *buf)
{
	unsigned int hl, i;
	enum mrc_wire_err err;

	p->payload_len = plen;
	err = mrc_wire_encode(p, MTU, buf, MRC_WIRE_MAX_HDR_LEN, &hl);
	FUZZ_CHECK(err == MRC_WIRE_OK, "encode %s: %s",
		   mrc_wire_opcode_name(p->opcode), mrc_wire_err_name(err));
	for (i = 0; i < plen; i++)
		buf[hl + i] = (u8)(p->psn + i);
	return hl + plen;
}

/* A frame in a script: length, then the datagram. */
static void put_pkt(struct seed *s, struct mrc_pkt *p, unsigned int plen)
{
	u8 buf[MRC_WIRE_MAX_HDR_LEN + MTU];
	size_t len = encode(p, plen, buf), i;

	put16(s, len);
	for (i = 0; i < len; i++)
		put8(s, buf[i]);
}

static struct mrc_pkt bth(u8 opcode, u32 psn, u16 flags)
{
	struct mrc_pkt p = {
		.opcode = opcode, .flags = flags, .dqpn = DQPN, .psn = psn,
		.ev = (u16)(psn % 64), .ev_seq = psn / 64,
		.timestamp = 0x1000 + psn,
	};
	return p;
}

/* Packet @k of an @npkts-packet message of @len bytes at @psn0. */
static struct mrc_pkt data_pkt(u8 opcode, u32 psn0, u32 k, u32 len,
			       unsigned int *plen)
{
	u32 off = k * MTU;
	u16 flags = (k == 0 ? MRC_FLAG_FIRST : 0) |
		    (off + MTU >= len ? MRC_FLAG_LAST | MRC_FLAG_AR : 0);
	struct mrc_pkt p;

	if (opcode == MRC_OP_SEND_IMM || opcode == MRC_OP_WRITE_IMM)
		flags |= MRC_FLAG_IMM;
	p = bth(opcode, psn0 + k, flags);
	p.dph.msn = 7;
	p.dph.offset = off;
	p.dph.msg_len = len;
	if (flags & MRC_FLAG_IMM)
		p.dph.imm = 0xdeadbeef;
	if (opcode == MRC_OP_WRITE || opcode == MRC_OP_WRITE_IMM) {
		p.reth.va = 0x7f0000001000ULL;
		p.reth.rkey = 0x00a1b2c3;
		p.reth.len = len;
	}
	*plen = len - off < MTU ? len - off : MTU;
	return p;
}

static struct mrc_pkt ack_pkt(u8 opcode, u32 psn, u32 cum, u8 syndrome)
{
	struct mrc_pkt p = bth(opcode, psn, 0);

	p.aeth.cum_psn = cum;
	p.aeth.msn = syndrome == MRC_SYN_RNR ? 0 : 3;
	p.aeth.ev = (u16)(psn % 4);
	p.aeth.syndrome = syndrome;
	p.aeth.ev_seq = psn / 4;
	/* Echo of the send time in the requester harness's clock. */
	p.aeth.timestamp = START_PSN + 100;
	p.aeth.window = 512;
	if (syndrome == MRC_SYN_RNR)
		p.aeth.rnr_timer = 14;
	return p;
}

static void wire_one(const char *name, struct mrc_pkt p, unsigned int plen)
{
	struct seed s = {};

	s.n = encode(&p, plen, s.b);
	save("wire", name, &s);
}

static void gen_wire(void)
{
	static const u8 syn[] = { MRC_SYN_PSN_SEQ_ERR, MRC_SYN_INVALID_REQ,
				  MRC_SYN_REMOTE_ACCESS, MRC_SYN_REMOTE_OP,
				  MRC_SYN_RNR, MRC_SYN_TRIMMED };
	unsigned int plen, i;
	struct mrc_pkt p;
	char name[64];

	wire_one("send_only", data_pkt(MRC_OP_SEND, 1, 0, 100, &plen), plen);
	wire_one("send_mid", data_pkt(MRC_OP_SEND, 1, 1, 3000, &plen), plen);
	wire_one("send_imm_last",
		 data_pkt(MRC_OP_SEND_IMM, 1, 2, 3000, &plen), plen);
	wire_one("write_first", data_pkt(MRC_OP_WRITE, 9, 0, 5000, &plen),
		 plen);
	wire_one("write_imm_only",
		 data_pkt(MRC_OP_WRITE_IMM, 9, 0, 64, &plen), plen);
	p = data_pkt(MRC_OP_WRITE, 9, 1, 5000, &plen);
	p.flags |= MRC_FLAG_TRIM;
	wire_one("write_trimmed", p, 0);
	p = data_pkt(MRC_OP_WRITE, 9, 1, 5000, &plen);
	p.flags |= MRC_FLAG_ACK;
	p.aeth = ack_pkt(MRC_OP_ACK, 3, 4, 0).aeth;
	wire_one("write_piggyback_ack", p, plen);
	p = bth(MRC_OP_READ_REQ, 20, MRC_FLAG_FIRST | MRC_FLAG_LAST);
	p.reth.va = 0x10000;
	p.reth.rkey = 0x1234;
	p.reth.len = 8192;
	wire_one("read_req", p, 0);
	wire_one("read_resp", data_pkt(MRC_OP_READ_RESP, 20, 0, 8192, &plen),
		 plen);
	for (i = MRC_OP_CMP_SWP; i <= MRC_OP_FETCH_ADD; i++) {
		p = bth(i, 30, MRC_FLAG_FIRST | MRC_FLAG_LAST);
		p.atomic.va = 0x20008;
		p.atomic.rkey = 0x55;
		p.atomic.swap_add = 5;
		p.atomic.compare = 1;
		wire_one(i == MRC_OP_CMP_SWP ? "cmp_swp" : "fetch_add", p, 0);
	}
	p = ack_pkt(MRC_OP_ATOMIC_RESP, 30, 31, 0);
	p.atomic_orig = 0x1122334455667788ULL;
	wire_one("atomic_resp", p, 0);
	p = bth(MRC_OP_UD_SEND, 0, MRC_FLAG_FIRST | MRC_FLAG_LAST);
	p.deth.qkey = 0x80010000;
	p.deth.src_qpn = 1;
	wire_one("ud_send", p, 256);
	wire_one("ack", ack_pkt(MRC_OP_ACK, 40, 41, 0), 0);
	for (i = 1; i <= MRC_SACK_MAX_WORDS; i++) {
		p = ack_pkt(MRC_OP_SACK, 50, 50, 0);
		p.sack.base_psn = 50;
		p.sack.nwords = i;
		memset(p.sack.bitmap, 0x5a, sizeof(p.sack.bitmap));
		p.sack.bitmap[0] &= ~1ULL;
		snprintf(name, sizeof(name), "sack_%u", i);
		wire_one(name, p, 0);
	}
	for (i = 0; i < sizeof(syn); i++) {
		snprintf(name, sizeof(name), "nack_%u", syn[i]);
		wire_one(name, ack_pkt(MRC_OP_NACK, 60, 60, syn[i]), 0);
	}
	p = bth(MRC_OP_PROBE, 0, 0);
	p.probe_id = 1;
	wire_one("probe", p, 0);
	p.opcode = MRC_OP_PROBE_REPLY;
	wire_one("probe_reply", p, 0);
}

/* Responder scripts (fuzz_resp.c): header, then [ctl][frame]... */
static void resp_head(struct seed *s)
{
	s->n = 0;
	put8(s, 3);		/* window: 4 * 128 PSNs */
	put32(s, START_PSN);
	put8(s, 14);		/* RNR timer code */
}

static void resp_data(struct seed *s, u8 ctl, u8 opcode, u32 psn0, u32 k,
		      u32 len)
{
	unsigned int plen;
	struct mrc_pkt p = data_pkt(opcode, psn0, k, len, &plen);

	put8(s, ctl);
	put_pkt(s, &p, plen);
}

static void gen_resp(void)
{
	const u32 len = 20 * MTU;
	struct seed *s = calloc(1, sizeof(*s));
	struct mrc_pkt p;
	u32 k;

	resp_head(s);
	for (k = 0; k < 20; k++)
		resp_data(s, 0, MRC_OP_WRITE, START_PSN, k, len);
	save("resp", "write_in_order", s);

	/* Sprayed: odd PSNs first, then the holes, one twice. */
	resp_head(s);
	for (k = 1; k < 20; k += 2)
		resp_data(s, 0, MRC_OP_WRITE, START_PSN, k, len);
	for (k = 0; k < 20; k += 2)
		resp_data(s, 0, MRC_OP_WRITE, START_PSN, k, len);
	resp_data(s, 0, MRC_OP_WRITE, START_PSN, 4, len);
	save("resp", "write_sprayed", s);

	/* No receive WQE: RNR NACK, later PSNs gated, then the retry. */
	resp_head(s);
	resp_data(s, 1, MRC_OP_SEND, START_PSN, 0, 3 * MTU);
	resp_data(s, 0, MRC_OP_SEND, START_PSN, 1, 3 * MTU);
	resp_data(s, 0, MRC_OP_SEND, START_PSN, 2, 3 * MTU);
	for (k = 0; k < 3; k++)
		resp_data(s, 0, MRC_OP_SEND, START_PSN, k, 3 * MTU);
	resp_data(s, 2, MRC_OP_WRITE_IMM, START_PSN + 3, 0, 8);
	save("resp", "send_rnr", s);

	/* READ of 4 packets, two atomics, each repeated, then a reset. */
	resp_head(s);
	p = bth(MRC_OP_READ_REQ, START_PSN, MRC_FLAG_FIRST | MRC_FLAG_LAST);
	p.reth.va = 0x10000;
	p.reth.rkey = 0x1234;
	p.reth.len = 4 * MTU;
	put8(s, 0);
	put_pkt(s, &p, 0);
	for (k = 0; k < 2; k++) {
		struct mrc_pkt a = bth(MRC_OP_CMP_SWP + k, START_PSN + 4 + k,
				       MRC_FLAG_FIRST | MRC_FLAG_LAST);

		a.atomic.va = 0x20008;
		a.atomic.rkey = 0x55;
		a.atomic.swap_add = 5 + k;
		put8(s, 0);
		put_pkt(s, &a, 0);
		put8(s, 0);
		put_pkt(s, &a, 0);
	}
	put8(s, 0);
	put_pkt(s, &p, 0);
	put8(s, 0xff);
	put32(s, 77);
	resp_data(s, 0, MRC_OP_SEND, 77, 0, 100);
	save("resp", "read_atomic_reset", s);
	free(s);
}

/* Requester scripts (fuzz_req.c): header, then [op][args][time]... */
static void req_head(struct seed *s)
{
	s->n = 0;
	put16(s, 255);		/* send window: 256 PSNs */
	put8(s, 3);		/* 4 EVs */
	put8(s, 2);		/* min_active */
	put32(s, START_PSN);
	put8(s, 3);		/* rnr_retry */
	put8(s, 14);		/* timeout */
	put8(s, 7);		/* retry_cnt */
}

static void req_op(struct seed *s, u8 op, int arg, u16 dt)
{
	put8(s, op);
	if (arg >= 0)
		put8(s, arg);
	put16(s, dt);
}

static void req_rx(struct seed *s, struct mrc_pkt *p, u16 dt)
{
	put8(s, 1);
	put_pkt(s, p, 0);
	put16(s, dt);
}

static void gen_req(void)
{
	struct seed *s = calloc(1, sizeof(*s));
	struct mrc_pkt p;
	unsigned int plen;
	u32 k;

	/* 32 sent, acknowledged in two halves. */
	req_head(s);
	req_op(s, 0, 31, 100);
	p = ack_pkt(MRC_OP_ACK, START_PSN + 15, START_PSN + 16, 0);
	req_rx(s, &p, 10);
	p = ack_pkt(MRC_OP_ACK, START_PSN + 31, START_PSN + 32, 0);
	req_rx(s, &p, 10);
	save("req", "ack_stream", s);

	/* The first PSN lost: SACKs of the rest, ~10 ms later, prove it. */
	req_head(s);
	req_op(s, 0, 0, 10000);
	req_op(s, 0, 30, 100);
	p = ack_pkt(MRC_OP_SACK, START_PSN + 31, START_PSN, 0);
	p.sack.base_psn = START_PSN;
	p.sack.nwords = 1;
	p.sack.bitmap[0] = 0xfffffffeULL;
	req_rx(s, &p, 10);
	req_op(s, 3, -1, 10);
	req_op(s, 6, -1, 0);	/* probe interval in the next 2 bytes */
	put16(s, 1000);
	for (k = 0; k < 3; k++) {
		p = bth(MRC_OP_PROBE_REPLY, 0, 0);
		p.ev = 0;
		p.probe_id = 1 + k;
		req_rx(s, &p, 10);
		req_op(s, 6, -1, 0);
		put16(s, 1000);
	}
	p = ack_pkt(MRC_OP_ACK, START_PSN, START_PSN + 31, 0);
	req_rx(s, &p, 10);
	save("req", "sack_loss_probe", s);

	/* RNR NACK of the first PSN, the wait, the resend. */
	req_head(s);
	req_op(s, 0, 7, 50);
	p = ack_pkt(MRC_OP_NACK, START_PSN, START_PSN, MRC_SYN_RNR);
	req_rx(s, &p, 700);
	req_op(s, 5, -1, 1);
	req_op(s, 3, -1, 100);
	p = ack_pkt(MRC_OP_NACK, START_PSN + 2, START_PSN + 2, MRC_SYN_TRIMMED);
	req_rx(s, &p, 10);
	p = ack_pkt(MRC_OP_NACK, START_PSN + 3, START_PSN + 2,
		    MRC_SYN_PSN_SEQ_ERR);
	req_rx(s, &p, 10);
	p = ack_pkt(MRC_OP_ATOMIC_RESP, START_PSN + 7, START_PSN + 8, 0);
	p.atomic_orig = 9;
	req_rx(s, &p, 10);
	save("req", "nack_rnr_trim", s);

	/* READ responses out of order, then timeouts. */
	req_head(s);
	req_op(s, 0, 7, 50);
	for (k = 8; k-- > 0;) {
		p = data_pkt(MRC_OP_READ_RESP, START_PSN, k, 8 * MTU, &plen);
		put8(s, 1);
		put_pkt(s, &p, plen);
		put16(s, 5);
	}
	req_op(s, 0, 15, 50);
	req_op(s, 4, -1, 20000);
	req_op(s, 4, -1, 20000);
	req_op(s, 3, -1, 10);
	save("req", "read_resp_timeout", s);
	free(s);
}

/* Operation scripts of the state harnesses. */
static void gen_state(void)
{
	struct seed s = {};
	int k;

	/* rxwin: 256 PSNs, a burst forward, one backward, SACK, reset. */
	put8(&s, 1);
	put32(&s, 0xfffffff0U);
	put8(&s, 2), put16(&s, 40), put8(&s, 20);
	put8(&s, 6), put8(&s, 4);
	put8(&s, 1), put16(&s, 0), put8(&s, 39);
	put8(&s, 5), put8(&s, 4), put16(&s, (u16)-8);
	put8(&s, 0), put16(&s, 300);
	put8(&s, 7), put32(&s, 5);
	put8(&s, 1), put16(&s, 1), put8(&s, 200);
	put8(&s, 6), put8(&s, 5);
	save("rxwin", "bursts", &s);

	/* txwin: 100 sent, SACKs with a hole, losses, retransmit, ACK. */
	s.n = 0;
	put16(&s, 127);
	put32(&s, 0xffffffc0U);
	put32(&s, 1000);
	put8(&s, 0), put8(&s, 99);
	for (k = 0; k < 100; k++)
		put8(&s, k % 4);
	put8(&s, 0);
	put8(&s, 2), put8(&s, 2), put16(&s, 0);
	put64(&s, ~0xfULL), put64(&s, 0xffff), put8(&s, 5);
	put8(&s, 6), put8(&s, 3), put8(&s, 1), put16(&s, 2), put8(&s, 1);
	put8(&s, 7), put8(&s, 2), put8(&s, 1);
	put8(&s, 8), put8(&s, 3), put8(&s, 1);
	put8(&s, 1), put16(&s, 80), put8(&s, 1);
	put8(&s, 4), put8(&s, 1);
	put8(&s, 5), put8(&s, 1);
	save("txwin", "sack_retx", &s);

	/* ev: 8 EVs, sends, two losses, probes answered three times. */
	s.n = 0;
	put16(&s, 7);
	put8(&s, 4);
	put16(&s, 99);
	for (k = 0; k < 8; k++)
		put8(&s, 0), put16(&s, 10);
	put8(&s, 4), put16(&s, 1), put16(&s, 5);
	put8(&s, 10), put16(&s, 2), put16(&s, 5);
	put8(&s, 3), put16(&s, 3), put8(&s, 0), put32(&s, 40), put16(&s, 1);
	for (k = 0; k < 3; k++) {
		put8(&s, 6), put16(&s, 100), put16(&s, 200);
		put8(&s, 7), put8(&s, 0), put16(&s, 1);
	}
	put8(&s, 8), put16(&s, 5), put8(&s, 1), put16(&s, 1);
	put8(&s, 1), put16(&s, 1);
	put8(&s, 9), put16(&s, 1);
	save("ev", "loss_probe", &s);
}

/*
 * Outer headers for fuzz_encap: the inner version byte (bit 3: the inner
 * source follows), then the chain.
 */
static void put_ipv6_hdr(struct seed *s, u8 nh)
{
	int i;

	put32(s, 0x60000000);
	put16(s, 0);
	put8(s, nh);
	put8(s, 64);
	for (i = 0; i < 32; i++)
		put8(s, 0xfc);
}

static void put_srh(struct seed *s, u8 nh, u8 segs, bool pad)
{
	int i;

	put8(s, nh);
	put8(s, 2 * segs + pad);
	put8(s, 4);
	put8(s, 0);
	put8(s, segs - 1);
	put8(s, 0);
	put16(s, 0);
	for (i = 0; i < 16 * segs; i++)
		put8(s, 0xfc);
	if (pad) {
		put8(s, 0);	/* Pad1, then PadN over the rest */
		put8(s, 4);
		put8(s, 5);
		for (i = 0; i < 5; i++)
			put8(s, 0);
	}
}

/* The first byte and inner source of a fuzz_encap seed that checks it. */
static void put_inner_src(struct seed *s, u8 ver, u8 fill)
{
	int i;

	put8(s, ver | 8);
	for (i = 0; i < 16; i++)
		put8(s, fill);
}

static void gen_encap(void)
{
	struct seed s;

	s.n = 0;
	put8(&s, 6);
	put_ipv6_hdr(&s, 41);
	save("encap", "container", &s);
	s.n = 0;
	put8(&s, 6);
	put_ipv6_hdr(&s, 43);
	put_srh(&s, 41, 2, false);
	save("encap", "srh_two_segments", &s);
	s.n = 0;
	put8(&s, 7);
	put_ipv6_hdr(&s, 0);
	put8(&s, 43);	/* Hop-by-Hop options, 8 bytes of padding */
	put8(&s, 0);
	put8(&s, 1);
	put8(&s, 4);
	put32(&s, 0);
	put_srh(&s, 4, 1, true);
	save("encap", "hbh_srh_tlv_ipv4", &s);
	s.n = 0;
	put8(&s, 6);
	put_ipv6_hdr(&s, 41);
	put_ipv6_hdr(&s, 43);
	put_srh(&s, 41, 1, false);
	save("encap", "nested", &s);
	s.n = 0;
	put_inner_src(&s, 6, 0xfc);	/* put_ipv6_hdr's source */
	put_ipv6_hdr(&s, 43);
	put_srh(&s, 41, 2, false);
	save("encap", "srh_same_source", &s);
	s.n = 0;
	put_inner_src(&s, 6, 0xfd);
	put_ipv6_hdr(&s, 41);
	save("encap", "container_other_source", &s);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s DIR\n", argv[0]);
		return 2;
	}
	out_dir = argv[1];
	FUZZ_CHECK(!mkdir(out_dir, 0755) || errno == EEXIST, "mkdir %s",
		   out_dir);
	gen_wire();
	gen_resp();
	gen_req();
	gen_state();
	gen_encap();
	return 0;
}
