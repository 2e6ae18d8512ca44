// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit tests for the MRC wire format: round trips for every opcode and
 * one test per validation rule.
 */
#include <kunit/test.h>
#include <asm/unaligned.h>

#include "../core/mrc_wire.h"

#define TEST_MTU 4096

/* A valid single-packet message of @opcode with @payload bytes. */
static void mk_pkt(struct mrc_pkt *pkt, u8 opcode, unsigned int payload)
{
	memset(pkt, 0, sizeof(*pkt));
	pkt->opcode = opcode;
	pkt->dqpn = 0x123456;
	pkt->psn = 0xfffffff0;
	pkt->ev = 77;
	pkt->ev_seq = 4242;
	pkt->timestamp = 0xabcdef01;
	pkt->payload_len = payload;

	switch (opcode) {
	case MRC_OP_SEND_IMM:
	case MRC_OP_SEND_INV:
	case MRC_OP_WRITE_IMM:
		pkt->flags |= MRC_FLAG_IMM;
		pkt->dph.imm = 0xdeadbeef;
		fallthrough;
	case MRC_OP_SEND:
	case MRC_OP_WRITE:
	case MRC_OP_READ_RESP:
		pkt->flags |= MRC_FLAG_FIRST | MRC_FLAG_LAST;
		pkt->dph.msn = 9;
		pkt->dph.msg_len = payload;
		break;
	case MRC_OP_SACK:
		pkt->sack.base_psn = 1000;
		pkt->sack.nwords = 2;
		pkt->sack.bitmap[0] = 0x8000000000000001ULL;
		pkt->sack.bitmap[1] = 0x00ff00ff00ff00ffULL;
		break;
	case MRC_OP_NACK:
		pkt->aeth.syndrome = MRC_SYN_TRIMMED;
		break;
	case MRC_OP_CMP_SWP:
	case MRC_OP_FETCH_ADD:
		pkt->atomic.va = 0x7f0000001000ULL;
		pkt->atomic.rkey = 0x55;
		pkt->atomic.swap_add = 0x1122334455667788ULL;
		pkt->atomic.compare = opcode == MRC_OP_CMP_SWP ? 42 : 0;
		break;
	case MRC_OP_UD_SEND_IMM:
		pkt->flags |= MRC_FLAG_IMM | MRC_FLAG_FIRST | MRC_FLAG_LAST;
		pkt->dph.msg_len = payload;
		pkt->dph.imm = 0xfeedf00d;
		fallthrough;
	case MRC_OP_UD_SEND:
		pkt->dqpn = 1;
		pkt->deth.qkey = 0x80010000;
		pkt->deth.src_qpn = 0x42;
		break;
	case MRC_OP_PROBE:
	case MRC_OP_PROBE_REPLY:
		pkt->dqpn = 0;
		pkt->psn = 0;
		pkt->probe_id = 0x31337;
		break;
	}
	if (opcode == MRC_OP_WRITE || opcode == MRC_OP_WRITE_IMM ||
	    opcode == MRC_OP_READ_REQ) {
		pkt->reth.va = 0xffff888012345678ULL;
		pkt->reth.rkey = 0xcafe;
		pkt->reth.len = opcode == MRC_OP_READ_REQ ? 65536 : payload;
	}
	if (mrc_wire_ext_mask(opcode) & MRC_EXT_AETH) {
		pkt->aeth.cum_psn = 0x10;
		pkt->aeth.msn = 3;
		pkt->aeth.ev = 76;
		pkt->aeth.ce_count = 5;
		pkt->aeth.ev_seq = 4241;
		pkt->aeth.timestamp = 0xabcdef00;
		pkt->aeth.window = 256;
	}
	if (opcode == MRC_OP_ATOMIC_RESP)
		pkt->atomic_orig = 0x0102030405060708ULL;
}

static const u8 all_opcodes[] = {
	MRC_OP_SEND, MRC_OP_SEND_IMM, MRC_OP_WRITE, MRC_OP_WRITE_IMM,
	MRC_OP_READ_REQ, MRC_OP_READ_RESP, MRC_OP_CMP_SWP, MRC_OP_FETCH_ADD,
	MRC_OP_ATOMIC_RESP, MRC_OP_ACK, MRC_OP_SACK, MRC_OP_NACK,
	MRC_OP_PROBE, MRC_OP_PROBE_REPLY, MRC_OP_UD_SEND, MRC_OP_UD_SEND_IMM,
	MRC_OP_SEND_INV,
};

static bool has_payload(u8 opcode)
{
	return mrc_wire_ext_mask(opcode) & (MRC_EXT_DPH | MRC_EXT_DETH);
}

/* Encode @in with @payload bytes after the headers into @buf. */
static unsigned int encode(struct kunit *test, const struct mrc_pkt *in,
			   u8 *buf, size_t room)
{
	unsigned int hdr_len = 0;

	KUNIT_ASSERT_EQ(test, mrc_wire_encode(in, TEST_MTU, buf, room,
					      &hdr_len), MRC_WIRE_OK);
	KUNIT_ASSERT_EQ(test, hdr_len, mrc_wire_hdr_len(in));
	memset(buf + hdr_len, 0xa5, in->payload_len);
	return hdr_len + in->payload_len;
}

static void roundtrip_every_opcode(struct kunit *test)
{
	u8 *buf = kunit_kzalloc(test, 8192, GFP_KERNEL);
	struct mrc_pkt in, out;
	unsigned int i, len;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	for (i = 0; i < ARRAY_SIZE(all_opcodes); i++) {
		u8 op = all_opcodes[i];

		mk_pkt(&in, op, has_payload(op) ? 1000 : 0);
		len = encode(test, &in, buf, 8192);
		KUNIT_EXPECT_EQ_MSG(test, mrc_wire_decode(buf, len, TEST_MTU, &out),
				    MRC_WIRE_OK, "opcode %s",
				    mrc_wire_opcode_name(op));
		in.hdr_len = out.hdr_len;
		KUNIT_EXPECT_EQ(test, out.hdr_len % 4, 0U);
		KUNIT_EXPECT_EQ_MSG(test, memcmp(&in, &out, sizeof(in)), 0,
				    "opcode %s", mrc_wire_opcode_name(op));
	}
}

static void bth_layout_is_big_endian(struct kunit *test)
{
	u8 buf[64];
	struct mrc_pkt in;
	unsigned int hdr_len;

	mk_pkt(&in, MRC_OP_ACK, 0);
	KUNIT_ASSERT_EQ(test, mrc_wire_encode(&in, TEST_MTU, buf, sizeof(buf),
					      &hdr_len), MRC_WIRE_OK);
	KUNIT_EXPECT_EQ(test, hdr_len, (unsigned int)(MRC_BTH_LEN + MRC_AETH_LEN));
	KUNIT_EXPECT_EQ(test, buf[0], 0x10);
	KUNIT_EXPECT_EQ(test, buf[1], MRC_OP_ACK);
	KUNIT_EXPECT_EQ(test, buf[4], 0x00);
	KUNIT_EXPECT_EQ(test, buf[5], 0x12);
	KUNIT_EXPECT_EQ(test, buf[7], 0x56);
	KUNIT_EXPECT_EQ(test, buf[8], 0xff);
	KUNIT_EXPECT_EQ(test, buf[11], 0xf0);
	KUNIT_EXPECT_EQ(test, buf[13], 77);
	KUNIT_EXPECT_EQ(test, buf[15], hdr_len / 4);
}

/* Decode a valid @op packet after @mutate changed its encoded bytes. */
static enum mrc_wire_err decode_mutated(struct kunit *test, u8 op,
					unsigned int payload,
					void (*mutate)(u8 *buf, unsigned int *len))
{
	u8 *buf = kunit_kzalloc(test, 8192, GFP_KERNEL);
	struct mrc_pkt in, out;
	unsigned int len;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	mk_pkt(&in, op, payload);
	len = encode(test, &in, buf, 8192);
	mutate(buf, &len);
	return mrc_wire_decode(buf, len, TEST_MTU, &out);
}

static void cut_to_20(u8 *b, unsigned int *len)
{
	*len = 20;
}

static void bad_version(u8 *b, unsigned int *len)
{
	b[0] = 0x20;
}

static void rsvd_nibble(u8 *b, unsigned int *len)
{
	b[0] = 0x11;
}

static void bad_opcode(u8 *b, unsigned int *len)
{
	b[1] = 0x0f;
}

static void rsvd_flag(u8 *b, unsigned int *len)
{
	b[2] |= 0x80;
}

static void rsvd_qpn(u8 *b, unsigned int *len)
{
	b[4] = 1;
}

static void hdr_words_small(u8 *b, unsigned int *len)
{
	b[15] -= 1;
}

static void hdr_words_big(u8 *b, unsigned int *len)
{
	b[14] = 0xff;
}

static void drop_last_byte_of_hdr(u8 *b, unsigned int *len)
{
	*len = 47;
}

static void rejects_malformed_bth(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, decode_mutated(test, MRC_OP_ACK, 0, cut_to_20),
			MRC_WIRE_E_SHORT);
	KUNIT_EXPECT_EQ(test, decode_mutated(test, MRC_OP_ACK, 0, bad_version),
			MRC_WIRE_E_VERSION);
	KUNIT_EXPECT_EQ(test, decode_mutated(test, MRC_OP_ACK, 0, rsvd_nibble),
			MRC_WIRE_E_VERSION);
	KUNIT_EXPECT_EQ(test, decode_mutated(test, MRC_OP_ACK, 0, bad_opcode),
			MRC_WIRE_E_OPCODE);
	KUNIT_EXPECT_EQ(test, decode_mutated(test, MRC_OP_ACK, 0, rsvd_flag),
			MRC_WIRE_E_RSVD_FLAGS);
	KUNIT_EXPECT_EQ(test, decode_mutated(test, MRC_OP_ACK, 0, rsvd_qpn),
			MRC_WIRE_E_RSVD_QPN);
	KUNIT_EXPECT_EQ(test, decode_mutated(test, MRC_OP_ACK, 0,
					     hdr_words_small),
			MRC_WIRE_E_HDR_LEN);
	KUNIT_EXPECT_EQ(test, decode_mutated(test, MRC_OP_ACK, 0, hdr_words_big),
			MRC_WIRE_E_HDR_LEN);
	KUNIT_EXPECT_EQ(test, decode_mutated(test, MRC_OP_ACK, 0,
					     drop_last_byte_of_hdr),
			MRC_WIRE_E_HDR_LEN);
}

static void add_payload(u8 *b, unsigned int *len)
{
	*len += 8;
}

static void rejects_payload_where_none_belongs(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, decode_mutated(test, MRC_OP_ACK, 0, add_payload),
			MRC_WIRE_E_PAYLOAD);
	KUNIT_EXPECT_EQ(test, decode_mutated(test, MRC_OP_READ_REQ, 0,
					     add_payload),
			MRC_WIRE_E_PAYLOAD);
	KUNIT_EXPECT_EQ(test, decode_mutated(test, MRC_OP_PROBE, 0, add_payload),
			MRC_WIRE_E_PAYLOAD);
}

static void mtu_is_enforced(struct kunit *test)
{
	u8 *buf = kunit_kzalloc(test, 8192, GFP_KERNEL);
	struct mrc_pkt in, out;
	unsigned int len, hdr_len;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	mk_pkt(&in, MRC_OP_SEND, 1024);
	len = encode(test, &in, buf, 8192);
	KUNIT_EXPECT_EQ(test, mrc_wire_decode(buf, len, 1024, &out), MRC_WIRE_OK);
	KUNIT_EXPECT_EQ(test, mrc_wire_decode(buf, len, 512, &out),
			MRC_WIRE_E_MTU);
	KUNIT_EXPECT_EQ(test, mrc_wire_encode(&in, 512, buf, 8192, &hdr_len),
			MRC_WIRE_E_MTU);
}

/* Encode-side checks: a sender cannot build what its peer would drop. */
static enum mrc_wire_err encode_err(struct mrc_pkt *pkt)
{
	u8 buf[MRC_WIRE_MAX_HDR_LEN];
	unsigned int hdr_len;

	return mrc_wire_encode(pkt, TEST_MTU, buf, sizeof(buf), &hdr_len);
}

static void dph_rules(struct kunit *test)
{
	struct mrc_pkt p;

	mk_pkt(&p, MRC_OP_SEND, 100);
	p.dph.msg_len = MRC_MAX_MSG_LEN + 1;
	p.flags &= ~MRC_FLAG_LAST;
	KUNIT_EXPECT_EQ(test, encode_err(&p), MRC_WIRE_E_MSG_LEN);

	mk_pkt(&p, MRC_OP_SEND, 100);
	p.dph.msg_len = 50;
	KUNIT_EXPECT_EQ(test, encode_err(&p), MRC_WIRE_E_OFFSET);

	mk_pkt(&p, MRC_OP_SEND, 100);
	p.dph.msg_len = 1000;
	p.dph.offset = 0xfffffff0;	/* would wrap offset + payload */
	KUNIT_EXPECT_EQ(test, encode_err(&p), MRC_WIRE_E_OFFSET);

	/* A middle packet: neither FIRST nor LAST. */
	mk_pkt(&p, MRC_OP_SEND, 100);
	p.dph.msg_len = 300;
	p.dph.offset = 100;
	p.flags &= ~(MRC_FLAG_FIRST | MRC_FLAG_LAST);
	KUNIT_EXPECT_EQ(test, encode_err(&p), MRC_WIRE_OK);
	p.flags |= MRC_FLAG_FIRST;
	KUNIT_EXPECT_EQ(test, encode_err(&p), MRC_WIRE_E_FIRST_LAST);
	p.flags &= ~MRC_FLAG_FIRST;
	p.flags |= MRC_FLAG_LAST;
	KUNIT_EXPECT_EQ(test, encode_err(&p), MRC_WIRE_E_FIRST_LAST);

	/* First packet without FIRST. */
	mk_pkt(&p, MRC_OP_WRITE, 100);
	p.flags &= ~MRC_FLAG_FIRST;
	KUNIT_EXPECT_EQ(test, encode_err(&p), MRC_WIRE_E_FIRST_LAST);

	/* A zero-length message is one packet, FIRST and LAST. */
	mk_pkt(&p, MRC_OP_SEND, 0);
	KUNIT_EXPECT_EQ(test, encode_err(&p), MRC_WIRE_OK);
}

/*
 * A packet without payload in a message that has bytes is a trimmed one
 * or a forgery: untrimmed, it would be taken as delivered data.
 */
static void empty_packet_of_nonempty_message(struct kunit *test)
{
	static const u8 ops[] = { MRC_OP_SEND, MRC_OP_WRITE, MRC_OP_WRITE_IMM,
				  MRC_OP_READ_RESP };
	struct mrc_pkt p;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ops); i++) {
		/* The last packet of a 3000-byte message, emptied. */
		mk_pkt(&p, ops[i], 0);
		p.dph.msg_len = 3000;
		p.dph.offset = 3000;
		p.reth.len = 3000;
		p.flags &= ~MRC_FLAG_FIRST;
		KUNIT_EXPECT_EQ(test, encode_err(&p), MRC_WIRE_E_OFFSET);
		/* The same with TRIM is what a trimming switch sends. */
		p.flags |= MRC_FLAG_TRIM;
		KUNIT_EXPECT_EQ(test, encode_err(&p), MRC_WIRE_OK);

		/* An empty first packet of a 1-byte message. */
		mk_pkt(&p, ops[i], 0);
		p.dph.msg_len = 1;
		p.reth.len = 1;
		p.flags &= ~MRC_FLAG_LAST;
		KUNIT_EXPECT_EQ(test, encode_err(&p), MRC_WIRE_E_OFFSET);
	}
}

static void immediate_rules(struct kunit *test)
{
	struct mrc_pkt p;

	mk_pkt(&p, MRC_OP_SEND_IMM, 10);
	p.flags &= ~MRC_FLAG_IMM;
	KUNIT_EXPECT_EQ(test, encode_err(&p), MRC_WIRE_E_IMM);

	mk_pkt(&p, MRC_OP_SEND, 10);
	p.flags |= MRC_FLAG_IMM;
	KUNIT_EXPECT_EQ(test, encode_err(&p), MRC_WIRE_E_IMM);

	/* SEND_INV's R_Key rides where the immediate does, flagged alike. */
	mk_pkt(&p, MRC_OP_SEND_INV, 10);
	p.flags &= ~MRC_FLAG_IMM;
	KUNIT_EXPECT_EQ(test, encode_err(&p), MRC_WIRE_E_IMM);

	mk_pkt(&p, MRC_OP_WRITE, 10);
	p.dph.imm = 1;
	KUNIT_EXPECT_EQ(test, encode_err(&p), MRC_WIRE_E_IMM);

	mk_pkt(&p, MRC_OP_ACK, 0);
	p.flags |= MRC_FLAG_IMM;
	KUNIT_EXPECT_EQ(test, encode_err(&p), MRC_WIRE_E_IMM);
}

static void reth_and_atomic_rules(struct kunit *test)
{
	struct mrc_pkt p;

	mk_pkt(&p, MRC_OP_READ_REQ, 0);
	p.reth.len = MRC_MAX_MSG_LEN + 1;
	KUNIT_EXPECT_EQ(test, encode_err(&p), MRC_WIRE_E_DMA_LEN);

	mk_pkt(&p, MRC_OP_READ_REQ, 0);
	p.reth.len = MRC_MAX_MSG_LEN;
	KUNIT_EXPECT_EQ(test, encode_err(&p), MRC_WIRE_OK);

	mk_pkt(&p, MRC_OP_WRITE, 100);
	p.reth.len = 101;
	KUNIT_EXPECT_EQ(test, encode_err(&p), MRC_WIRE_E_DMA_LEN);

	mk_pkt(&p, MRC_OP_CMP_SWP, 0);
	p.atomic.va |= 4;
	KUNIT_EXPECT_EQ(test, encode_err(&p), MRC_WIRE_E_ATOMIC_ALIGN);
}

static void syndrome_rules(struct kunit *test)
{
	struct mrc_pkt p;

	mk_pkt(&p, MRC_OP_ACK, 0);
	p.aeth.syndrome = MRC_SYN_RNR;
	KUNIT_EXPECT_EQ(test, encode_err(&p), MRC_WIRE_E_SYNDROME);

	mk_pkt(&p, MRC_OP_NACK, 0);
	p.aeth.syndrome = MRC_SYN_ACK;
	KUNIT_EXPECT_EQ(test, encode_err(&p), MRC_WIRE_E_SYNDROME);

	mk_pkt(&p, MRC_OP_NACK, 0);
	p.aeth.syndrome = MRC_SYN_MAX + 1;
	KUNIT_EXPECT_EQ(test, encode_err(&p), MRC_WIRE_E_SYNDROME);

	mk_pkt(&p, MRC_OP_SACK, 0);
	p.aeth.syndrome = MRC_SYN_TRIMMED;
	KUNIT_EXPECT_EQ(test, encode_err(&p), MRC_WIRE_E_SYNDROME);
}

/* The AETH word after the cumulative PSN: MSN, or the RNR timer code. */
#define AETH_MSN_AT	(MRC_BTH_LEN + 4)

static void rnr_nack_carries_timer(struct kunit *test)
{
	u8 buf[MRC_BTH_LEN + MRC_AETH_LEN];
	struct mrc_pkt in, out;
	unsigned int len;
	static const u8 codes[] = { 0, 1, 14, MRC_AETH_RNR_TIMER_MAX };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(codes); i++) {
		mk_pkt(&in, MRC_OP_NACK, 0);
		in.aeth.syndrome = MRC_SYN_RNR;
		in.aeth.msn = 0;
		in.aeth.rnr_timer = codes[i];
		len = encode(test, &in, buf, sizeof(buf));
		KUNIT_EXPECT_EQ(test, get_unaligned_be32(buf + AETH_MSN_AT),
				(u32)codes[i]);
		KUNIT_ASSERT_EQ(test, mrc_wire_decode(buf, len, TEST_MTU, &out),
				MRC_WIRE_OK);
		KUNIT_EXPECT_EQ(test, out.aeth.rnr_timer, codes[i]);
		KUNIT_EXPECT_EQ(test, out.aeth.msn, 0U);
		in.hdr_len = out.hdr_len;
		KUNIT_EXPECT_EQ(test, memcmp(&in, &out, sizeof(in)), 0);
	}

	/* Other NACKs and ACKs keep their MSN and carry no timer. */
	mk_pkt(&in, MRC_OP_NACK, 0);
	len = encode(test, &in, buf, sizeof(buf));
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(buf + AETH_MSN_AT), 3U);
	KUNIT_ASSERT_EQ(test, mrc_wire_decode(buf, len, TEST_MTU, &out),
			MRC_WIRE_OK);
	KUNIT_EXPECT_EQ(test, out.aeth.msn, 3U);
	KUNIT_EXPECT_EQ(test, out.aeth.rnr_timer, 0);
}

static void rnr_code_32(u8 *b, unsigned int *len)
{
	put_unaligned_be32(MRC_AETH_RNR_TIMER_MAX + 1, b + AETH_MSN_AT);
}

static void rnr_code_huge(u8 *b, unsigned int *len)
{
	put_unaligned_be32(0x01000001, b + AETH_MSN_AT);
}

static void rnr_code_31(u8 *b, unsigned int *len)
{
	put_unaligned_be32(MRC_AETH_RNR_TIMER_MAX, b + AETH_MSN_AT);
}

static void rnr_timer_rules(struct kunit *test)
{
	struct mrc_pkt p;

	mk_pkt(&p, MRC_OP_NACK, 0);
	p.aeth.syndrome = MRC_SYN_RNR;
	p.aeth.msn = 0;
	p.aeth.rnr_timer = MRC_AETH_RNR_TIMER_MAX + 1;
	KUNIT_EXPECT_EQ(test, encode_err(&p), MRC_WIRE_E_SYNDROME);
	p.aeth.rnr_timer = MRC_AETH_RNR_TIMER_MAX;
	KUNIT_EXPECT_EQ(test, encode_err(&p), MRC_WIRE_OK);
	/* The MSN has no room in an RNR NACK. */
	p.aeth.msn = 1;
	KUNIT_EXPECT_EQ(test, encode_err(&p), MRC_WIRE_E_SYNDROME);

	/* A timer on anything but an RNR NACK. */
	mk_pkt(&p, MRC_OP_NACK, 0);
	p.aeth.rnr_timer = 1;
	KUNIT_EXPECT_EQ(test, encode_err(&p), MRC_WIRE_E_SYNDROME);
	mk_pkt(&p, MRC_OP_ACK, 0);
	p.aeth.rnr_timer = 1;
	KUNIT_EXPECT_EQ(test, encode_err(&p), MRC_WIRE_E_SYNDROME);
	mk_pkt(&p, MRC_OP_ATOMIC_RESP, 0);
	p.aeth.rnr_timer = 1;
	KUNIT_EXPECT_EQ(test, encode_err(&p), MRC_WIRE_E_SYNDROME);
}

/* Decode an RNR NACK whose timer word @mutate rewrote. */
static enum mrc_wire_err decode_rnr(struct kunit *test,
				    void (*mutate)(u8 *buf, unsigned int *len))
{
	u8 buf[MRC_BTH_LEN + MRC_AETH_LEN];
	struct mrc_pkt in, out;
	unsigned int len;

	mk_pkt(&in, MRC_OP_NACK, 0);
	in.aeth.syndrome = MRC_SYN_RNR;
	in.aeth.msn = 0;
	in.aeth.rnr_timer = 5;
	len = encode(test, &in, buf, sizeof(buf));
	mutate(buf, &len);
	return mrc_wire_decode(buf, len, TEST_MTU, &out);
}

static void rnr_timer_decode_validation(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, decode_rnr(test, rnr_code_31), MRC_WIRE_OK);
	KUNIT_EXPECT_EQ(test, decode_rnr(test, rnr_code_32),
			MRC_WIRE_E_SYNDROME);
	KUNIT_EXPECT_EQ(test, decode_rnr(test, rnr_code_huge),
			MRC_WIRE_E_SYNDROME);
	/* The same word in a TRIMMED NACK is an MSN: any value goes. */
	KUNIT_EXPECT_EQ(test, decode_mutated(test, MRC_OP_NACK, 0, rnr_code_huge),
			MRC_WIRE_OK);
}

static void sack_zero_words(u8 *b, unsigned int *len)
{
	b[52] = 0;
}

static void sack_five_words(u8 *b, unsigned int *len)
{
	b[52] = 5;
}

static void sack_cut_bitmap(u8 *b, unsigned int *len)
{
	*len -= 4;
}

static void sack_rules(struct kunit *test)
{
	struct mrc_pkt p;

	KUNIT_EXPECT_EQ(test, decode_mutated(test, MRC_OP_SACK, 0,
					     sack_zero_words),
			MRC_WIRE_E_SACK_WORDS);
	KUNIT_EXPECT_EQ(test, decode_mutated(test, MRC_OP_SACK, 0,
					     sack_five_words),
			MRC_WIRE_E_SACK_WORDS);
	KUNIT_EXPECT_EQ(test, decode_mutated(test, MRC_OP_SACK, 0,
					     sack_cut_bitmap),
			MRC_WIRE_E_HDR_LEN);

	mk_pkt(&p, MRC_OP_SACK, 0);
	p.sack.nwords = MRC_SACK_MAX_WORDS;
	KUNIT_EXPECT_EQ(test, encode_err(&p), MRC_WIRE_OK);
	KUNIT_EXPECT_EQ(test, mrc_wire_hdr_len(&p),
			(unsigned int)MRC_WIRE_MAX_HDR_LEN);
	p.sack.nwords = 0;
	KUNIT_EXPECT_EQ(test, encode_err(&p), MRC_WIRE_E_SACK_WORDS);
}

static void trim_rules(struct kunit *test)
{
	struct mrc_pkt p;

	/* A trimmed middle-of-message packet: header only, LAST not implied. */
	mk_pkt(&p, MRC_OP_WRITE, 0);
	p.dph.msg_len = 4096;
	p.reth.len = 4096;
	p.dph.offset = 1024;
	p.flags = MRC_FLAG_TRIM;
	KUNIT_EXPECT_EQ(test, encode_err(&p), MRC_WIRE_OK);

	p.payload_len = 8;
	KUNIT_EXPECT_EQ(test, encode_err(&p), MRC_WIRE_E_TRIM);

	mk_pkt(&p, MRC_OP_ACK, 0);
	p.flags = MRC_FLAG_TRIM;
	KUNIT_EXPECT_EQ(test, encode_err(&p), MRC_WIRE_E_TRIM);
}

/*
 * A switch that trims leaves the headers and sets its DSCP, not the TRIM
 * flag: read with mrc_wire_decode_trimmed(), the headers alone decode
 * as a trimmed packet; with payload left, or not a data packet, they do
 * not.
 */
static void decoded_as_trimmed(struct kunit *test)
{
	u8 *buf = kunit_kzalloc(test, 8192, GFP_KERNEL);
	struct mrc_pkt in, out;
	unsigned int len, hdr;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	mk_pkt(&in, MRC_OP_WRITE, 1024);
	in.dph.msg_len = 4096;
	in.reth.len = 4096;
	in.dph.offset = 1024;
	in.flags = 0;
	len = encode(test, &in, buf, 8192);
	hdr = mrc_wire_hdr_len(&in);
	KUNIT_EXPECT_NE(test, mrc_wire_decode(buf, hdr, TEST_MTU, &out),
			MRC_WIRE_OK);
	KUNIT_EXPECT_EQ(test, mrc_wire_decode_trimmed(buf, hdr, TEST_MTU, &out),
			MRC_WIRE_OK);
	KUNIT_EXPECT_TRUE(test, out.flags & MRC_FLAG_TRIM);
	KUNIT_EXPECT_EQ(test, out.payload_len, 0U);
	KUNIT_EXPECT_EQ(test, out.psn, in.psn);
	KUNIT_EXPECT_EQ(test, mrc_wire_decode_trimmed(buf, len, TEST_MTU, &out),
			MRC_WIRE_E_TRIM);

	mk_pkt(&in, MRC_OP_ACK, 0);
	len = encode(test, &in, buf, 8192);
	KUNIT_EXPECT_EQ(test, mrc_wire_decode_trimmed(buf, len, TEST_MTU, &out),
			MRC_WIRE_E_TRIM);
}

static void ud_send_rules(struct kunit *test)
{
	struct mrc_pkt p;

	mk_pkt(&p, MRC_OP_UD_SEND, 256);
	KUNIT_EXPECT_EQ(test, encode_err(&p), MRC_WIRE_OK);
	KUNIT_EXPECT_EQ(test, mrc_wire_hdr_len(&p),
			(unsigned int)(MRC_BTH_LEN + MRC_DETH_LEN));
	p.deth.src_qpn = 0x1000000;
	KUNIT_EXPECT_EQ(test, encode_err(&p), MRC_WIRE_E_RSVD_QPN);
	mk_pkt(&p, MRC_OP_UD_SEND, 0);
	p.flags = MRC_FLAG_TRIM;
	KUNIT_EXPECT_EQ(test, encode_err(&p), MRC_WIRE_E_TRIM);

	/* With immediate data: a DPH of one whole packet, then the DETH. */
	mk_pkt(&p, MRC_OP_UD_SEND_IMM, 256);
	KUNIT_EXPECT_EQ(test, encode_err(&p), MRC_WIRE_OK);
	KUNIT_EXPECT_EQ(test, mrc_wire_hdr_len(&p),
			(unsigned int)(MRC_BTH_LEN + MRC_DPH_LEN + MRC_DETH_LEN));
	p.flags &= ~MRC_FLAG_IMM;
	KUNIT_EXPECT_EQ(test, encode_err(&p), MRC_WIRE_E_IMM);
	mk_pkt(&p, MRC_OP_UD_SEND_IMM, 256);
	p.dph.offset = 1;
	p.dph.msg_len = 257;
	p.flags &= ~MRC_FLAG_FIRST;
	KUNIT_EXPECT_EQ(test, encode_err(&p), MRC_WIRE_E_OFFSET);
	mk_pkt(&p, MRC_OP_UD_SEND_IMM, 256);
	p.dph.msn = 1;
	KUNIT_EXPECT_EQ(test, encode_err(&p), MRC_WIRE_E_OFFSET);
	mk_pkt(&p, MRC_OP_UD_SEND, 256);
	p.flags |= MRC_FLAG_IMM;
	KUNIT_EXPECT_EQ(test, encode_err(&p), MRC_WIRE_E_IMM);
}

static void encode_needs_room(struct kunit *test)
{
	struct mrc_pkt p;
	u8 buf[MRC_WIRE_MAX_HDR_LEN];
	unsigned int hdr_len;

	mk_pkt(&p, MRC_OP_WRITE, 100);
	KUNIT_EXPECT_EQ(test, mrc_wire_encode(&p, TEST_MTU, buf,
					      mrc_wire_hdr_len(&p) - 1, &hdr_len),
			MRC_WIRE_E_NOSPACE);
	p.opcode = 0x7e;
	KUNIT_EXPECT_EQ(test, encode_err(&p), MRC_WIRE_E_OPCODE);
}

static void names_cover_every_value(struct kunit *test)
{
	unsigned int i;

	for (i = 0; i < MRC_WIRE_E_COUNT; i++)
		KUNIT_EXPECT_STRNEQ(test, mrc_wire_err_name(i), "?");
	KUNIT_EXPECT_STREQ(test, mrc_wire_err_name(MRC_WIRE_E_COUNT), "?");
	for (i = 0; i < ARRAY_SIZE(all_opcodes); i++)
		KUNIT_EXPECT_STRNEQ(test, mrc_wire_opcode_name(all_opcodes[i]),
				    "?");
	KUNIT_EXPECT_STREQ(test, mrc_wire_opcode_name(0xff), "?");
}

/* Every truncation of every valid packet must be rejected, never misread. */
static void every_truncation_is_rejected(struct kunit *test)
{
	u8 *buf = kunit_kzalloc(test, 8192, GFP_KERNEL);
	struct mrc_pkt in, out;
	unsigned int i, len, cut;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	for (i = 0; i < ARRAY_SIZE(all_opcodes); i++) {
		u8 op = all_opcodes[i];

		mk_pkt(&in, op, 0);
		len = encode(test, &in, buf, 8192);
		for (cut = 0; cut < len; cut++)
			KUNIT_EXPECT_NE_MSG(test,
					    mrc_wire_decode(buf, cut, TEST_MTU, &out),
					    MRC_WIRE_OK, "%s cut to %u",
					    mrc_wire_opcode_name(op), cut);
	}
}

static const u8 request_opcodes[] = {
	MRC_OP_SEND, MRC_OP_SEND_IMM, MRC_OP_WRITE, MRC_OP_WRITE_IMM,
	MRC_OP_READ_REQ, MRC_OP_CMP_SWP, MRC_OP_FETCH_ADD, MRC_OP_SEND_INV,
};

/* A request of @op carrying an ACK for the other direction. */
static void mk_carrier(struct mrc_pkt *pkt, u8 op, unsigned int payload)
{
	mk_pkt(pkt, op, payload);
	pkt->flags |= MRC_FLAG_ACK;
	pkt->aeth.cum_psn = 0x20;
	pkt->aeth.msn = 7;
	pkt->aeth.ev = 3;
	pkt->aeth.ce_count = 1;
	pkt->aeth.ev_seq = 99;
	pkt->aeth.timestamp = 0x1234;
	pkt->aeth.svc_time = 0x77;
	pkt->aeth.window = 512;
}

static void ack_rides_on_every_request(struct kunit *test)
{
	u8 *buf = kunit_kzalloc(test, 8192, GFP_KERNEL);
	struct mrc_pkt in, out, plain;
	unsigned int i, len, cut;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	for (i = 0; i < ARRAY_SIZE(request_opcodes); i++) {
		u8 op = request_opcodes[i];
		unsigned int at;

		mk_pkt(&plain, op, 0);
		mk_carrier(&in, op, has_payload(op) ? 1000 : 0);
		KUNIT_EXPECT_EQ(test, mrc_wire_hdr_len(&in),
				mrc_wire_hdr_len(&plain) + MRC_AETH_LEN);
		len = encode(test, &in, buf, 8192);
		/* The AETH follows the opcode's own extensions. */
		at = mrc_wire_hdr_len(&plain);
		KUNIT_EXPECT_EQ(test, get_unaligned_be32(buf + at), 0x20U);
		KUNIT_EXPECT_EQ(test, get_unaligned_be16(buf + at + 20), 0x77U);
		KUNIT_EXPECT_EQ(test, get_unaligned_be16(buf + at + 22), 512U);
		KUNIT_EXPECT_EQ_MSG(test, mrc_wire_decode(buf, len, TEST_MTU, &out),
				    MRC_WIRE_OK, "%s", mrc_wire_opcode_name(op));
		in.hdr_len = out.hdr_len;
		KUNIT_EXPECT_EQ_MSG(test, memcmp(&in, &out, sizeof(in)), 0,
				    "%s", mrc_wire_opcode_name(op));

		mk_carrier(&in, op, 0);
		len = encode(test, &in, buf, 8192);
		for (cut = 0; cut < len; cut++)
			KUNIT_EXPECT_NE_MSG(test,
					    mrc_wire_decode(buf, cut, TEST_MTU, &out),
					    MRC_WIRE_OK, "%s+ACK cut to %u",
					    mrc_wire_opcode_name(op), cut);
	}
}

/*
 * The receive path decodes from a copy of the first MRC_WIRE_DECODE_MAX
 * bytes when the headers sit in page fragments: decode must read none
 * past them. Bytes past the bound are changed; the result must not be.
 */
static void decode_reads_within_its_bound(struct kunit *test)
{
	u8 *a = kunit_kzalloc(test, 8192, GFP_KERNEL);
	u8 *b = kunit_kzalloc(test, 8192, GFP_KERNEL);
	struct mrc_pkt in, out_a, out_b;
	unsigned int i, carry, len;

	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_ASSERT_NOT_NULL(test, b);
	for (i = 0; i < ARRAY_SIZE(all_opcodes); i++) {
		u8 op = all_opcodes[i];

		for (carry = 0; carry < 2; carry++) {
			unsigned int payload = has_payload(op) ? 1000 : 0;

			if (carry && !memchr(request_opcodes, op,
					     sizeof(request_opcodes)))
				continue;
			if (carry)
				mk_carrier(&in, op, payload);
			else
				mk_pkt(&in, op, payload);
			if (op == MRC_OP_SACK)
				in.sack.nwords = MRC_SACK_MAX_WORDS;
			KUNIT_EXPECT_LE(test, mrc_wire_hdr_len(&in),
					MRC_WIRE_DECODE_MAX);
			len = encode(test, &in, a, 8192);
			memcpy(b, a, len);
			if (len > MRC_WIRE_DECODE_MAX)
				memset(b + MRC_WIRE_DECODE_MAX, 0x5a,
				       len - MRC_WIRE_DECODE_MAX);
			KUNIT_EXPECT_EQ_MSG(test,
					    mrc_wire_decode(a, len, TEST_MTU, &out_a),
					    MRC_WIRE_OK, "%s", mrc_wire_opcode_name(op));
			KUNIT_EXPECT_EQ(test, mrc_wire_decode(b, len, TEST_MTU, &out_b),
					MRC_WIRE_OK);
			KUNIT_EXPECT_EQ_MSG(test, memcmp(&out_a, &out_b, sizeof(out_a)),
					    0, "%s%s", mrc_wire_opcode_name(op),
					    carry ? "+ACK" : "");
		}
	}
}

/* Set the ACK flag on an encoded packet that has no AETH for it. */
static void set_ack_flag(u8 *b, unsigned int *len)
{
	b[3] |= MRC_FLAG_ACK;
}

static void ack_flag_rules(struct kunit *test)
{
	static const u8 answers[] = {
		MRC_OP_READ_RESP, MRC_OP_ATOMIC_RESP, MRC_OP_ACK, MRC_OP_SACK,
		MRC_OP_NACK, MRC_OP_PROBE, MRC_OP_PROBE_REPLY, MRC_OP_UD_SEND,
		MRC_OP_UD_SEND_IMM,
	};
	struct mrc_pkt p;
	unsigned int i;

	/* Only requests carry an ACK; answers have their own or none. */
	for (i = 0; i < ARRAY_SIZE(answers); i++) {
		mk_pkt(&p, answers[i], 0);
		p.flags |= MRC_FLAG_ACK;
		KUNIT_EXPECT_EQ_MSG(test, encode_err(&p), MRC_WIRE_E_ACK_FLAG,
				    "%s", mrc_wire_opcode_name(answers[i]));
		KUNIT_EXPECT_EQ_MSG(test,
				    decode_mutated(test, answers[i], 0,
						   set_ack_flag),
				    MRC_WIRE_E_ACK_FLAG, "%s",
				    mrc_wire_opcode_name(answers[i]));
	}

	/* A carried ACK is a plain one: no NACK, no RNR timer. */
	mk_carrier(&p, MRC_OP_WRITE, 8);
	p.aeth.syndrome = MRC_SYN_RNR;
	KUNIT_EXPECT_EQ(test, encode_err(&p), MRC_WIRE_E_SYNDROME);
	mk_carrier(&p, MRC_OP_SEND, 8);
	p.aeth.syndrome = MRC_SYN_MAX + 1;
	KUNIT_EXPECT_EQ(test, encode_err(&p), MRC_WIRE_E_SYNDROME);
	mk_carrier(&p, MRC_OP_READ_REQ, 0);
	p.aeth.rnr_timer = 1;
	KUNIT_EXPECT_EQ(test, encode_err(&p), MRC_WIRE_E_SYNDROME);

	/* The flag without the header room it needs. */
	KUNIT_EXPECT_EQ(test, decode_mutated(test, MRC_OP_WRITE, 8, set_ack_flag),
			MRC_WIRE_E_HDR_LEN);
	KUNIT_EXPECT_EQ(test, decode_mutated(test, MRC_OP_FETCH_ADD, 0,
					     set_ack_flag),
			MRC_WIRE_E_HDR_LEN);
}

static struct kunit_case mrc_wire_cases[] = {
	KUNIT_CASE(roundtrip_every_opcode),
	KUNIT_CASE(bth_layout_is_big_endian),
	KUNIT_CASE(rejects_malformed_bth),
	KUNIT_CASE(rejects_payload_where_none_belongs),
	KUNIT_CASE(mtu_is_enforced),
	KUNIT_CASE(dph_rules),
	KUNIT_CASE(empty_packet_of_nonempty_message),
	KUNIT_CASE(immediate_rules),
	KUNIT_CASE(reth_and_atomic_rules),
	KUNIT_CASE(syndrome_rules),
	KUNIT_CASE(rnr_nack_carries_timer),
	KUNIT_CASE(rnr_timer_rules),
	KUNIT_CASE(rnr_timer_decode_validation),
	KUNIT_CASE(sack_rules),
	KUNIT_CASE(trim_rules),
	KUNIT_CASE(decoded_as_trimmed),
	KUNIT_CASE(ud_send_rules),
	KUNIT_CASE(encode_needs_room),
	KUNIT_CASE(decode_reads_within_its_bound),
	KUNIT_CASE(names_cover_every_value),
	KUNIT_CASE(every_truncation_is_rejected),
	KUNIT_CASE(ack_rides_on_every_request),
	KUNIT_CASE(ack_flag_rules),
	{}
};

static struct kunit_suite mrc_wire_suite = {
	.name = "mrc_wire",
	.test_cases = mrc_wire_cases,
};

kunit_test_suite(mrc_wire_suite);

MODULE_LICENSE("Dual BSD/GPL");
