// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * MRC wire format v1: header encode/decode and validation.
 */
#include <linux/kernel.h>
#include <linux/string.h>
#include <asm/unaligned.h>

#include "mrc_wire.h"

struct mrc_opcode_info {
	const char *name;
	u8 ext;		/* MRC_EXT_* carried after the BTH */
	bool payload;	/* may carry payload */
	bool imm;	/* carries immediate data */
	bool ack;	/* a request: may carry an ACK (MRC_FLAG_ACK) */
};

static const struct mrc_opcode_info mrc_opcodes[] = {
	[MRC_OP_SEND]	     = { "SEND", MRC_EXT_DPH, true, false, true },
	[MRC_OP_SEND_IMM]    = { "SEND_IMM", MRC_EXT_DPH, true, true, true },
	[MRC_OP_WRITE]	     = { "WRITE", MRC_EXT_RETH | MRC_EXT_DPH, true, false,
				 true },
	[MRC_OP_WRITE_IMM]   = { "WRITE_IMM", MRC_EXT_RETH | MRC_EXT_DPH, true, true,
				 true },
	[MRC_OP_READ_REQ]    = { "READ_REQ", MRC_EXT_RETH, false, false, true },
	[MRC_OP_READ_RESP]   = { "READ_RESP", MRC_EXT_DPH, true, false },
	[MRC_OP_CMP_SWP]     = { "CMP_SWP", MRC_EXT_ATOMIC, false, false, true },
	[MRC_OP_FETCH_ADD]   = { "FETCH_ADD", MRC_EXT_ATOMIC, false, false, true },
	[MRC_OP_ATOMIC_RESP] = { "ATOMIC_RESP", MRC_EXT_AETH | MRC_EXT_ATOMIC_ACK,
				 false, false },
	[MRC_OP_UD_SEND]     = { "UD_SEND", MRC_EXT_DETH, true, false },
	/* The DPH carries the immediate; it describes a one-packet message. */
	[MRC_OP_UD_SEND_IMM] = { "UD_SEND_IMM", MRC_EXT_DPH | MRC_EXT_DETH, true,
				 true },
	/* The DPH's immediate is the R_Key to invalidate (IB's IETH). */
	[MRC_OP_SEND_INV]    = { "SEND_INV", MRC_EXT_DPH, true, true, true },
	[MRC_OP_ACK]	     = { "ACK", MRC_EXT_AETH, false, false },
	[MRC_OP_SACK]	     = { "SACK", MRC_EXT_AETH | MRC_EXT_SACK, false, false },
	[MRC_OP_NACK]	     = { "NACK", MRC_EXT_AETH, false, false },
	[MRC_OP_PROBE]	     = { "PROBE", MRC_EXT_PROBE, false, false },
	[MRC_OP_PROBE_REPLY] = { "PROBE_REPLY", MRC_EXT_PROBE, false, false },
};

static const char * const mrc_wire_err_names[MRC_WIRE_E_COUNT] = {
	[MRC_WIRE_OK]		  = "ok",
	[MRC_WIRE_E_SHORT]	  = "short",
	[MRC_WIRE_E_VERSION]	  = "version",
	[MRC_WIRE_E_OPCODE]	  = "opcode",
	[MRC_WIRE_E_RSVD_FLAGS]	  = "reserved-flags",
	[MRC_WIRE_E_RSVD_QPN]	  = "reserved-qpn",
	[MRC_WIRE_E_HDR_LEN]	  = "header-length",
	[MRC_WIRE_E_PAYLOAD]	  = "unexpected-payload",
	[MRC_WIRE_E_MTU]	  = "payload-over-mtu",
	[MRC_WIRE_E_MSG_LEN]	  = "message-length",
	[MRC_WIRE_E_OFFSET]	  = "offset",
	[MRC_WIRE_E_FIRST_LAST]	  = "first-last",
	[MRC_WIRE_E_IMM]	  = "immediate",
	[MRC_WIRE_E_DMA_LEN]	  = "dma-length",
	[MRC_WIRE_E_ATOMIC_ALIGN] = "atomic-alignment",
	[MRC_WIRE_E_SYNDROME]	  = "syndrome",
	[MRC_WIRE_E_SACK_WORDS]	  = "sack-words",
	[MRC_WIRE_E_TRIM]	  = "trim",
	[MRC_WIRE_E_ACK_FLAG]	  = "ack-flag",
	[MRC_WIRE_E_NOSPACE]	  = "no-space",
};

static const struct mrc_opcode_info *mrc_op(u8 opcode)
{
	if (opcode >= ARRAY_SIZE(mrc_opcodes) || !mrc_opcodes[opcode].name)
		return NULL;
	return &mrc_opcodes[opcode];
}

const char *mrc_wire_err_name(enum mrc_wire_err err)
{
	if ((unsigned int)err >= MRC_WIRE_E_COUNT)
		return "?";
	return mrc_wire_err_names[err];
}

const char *mrc_wire_opcode_name(u8 opcode)
{
	const struct mrc_opcode_info *op = mrc_op(opcode);

	return op ? op->name : "?";
}

unsigned int mrc_wire_ext_mask(u8 opcode)
{
	const struct mrc_opcode_info *op = mrc_op(opcode);

	return op ? op->ext : 0;
}

static unsigned int mrc_ext_len(unsigned int ext, u8 sack_words)
{
	unsigned int len = 0;

	if (ext & MRC_EXT_RETH)
		len += MRC_RETH_LEN;
	if (ext & MRC_EXT_DPH)
		len += MRC_DPH_LEN;
	if (ext & MRC_EXT_ATOMIC)
		len += MRC_ATOMIC_ETH_LEN;
	if (ext & MRC_EXT_AETH)
		len += MRC_AETH_LEN;
	if (ext & MRC_EXT_ATOMIC_ACK)
		len += MRC_ATOMIC_ACK_LEN;
	if (ext & MRC_EXT_SACK)
		len += MRC_SACKH_BASE_LEN + 8 * sack_words;
	if (ext & MRC_EXT_PROBE)
		len += MRC_PROBEH_LEN;
	if (ext & MRC_EXT_DETH)
		len += MRC_DETH_LEN;
	return len;
}

/*
 * The extensions a packet carries: its opcode's, plus an AETH when a
 * request has MRC_FLAG_ACK. On other opcodes the flag adds nothing and
 * fails mrc_check().
 */
static unsigned int mrc_pkt_ext(const struct mrc_opcode_info *op, u16 flags)
{
	if (op->ack && (flags & MRC_FLAG_ACK))
		return op->ext | MRC_EXT_AETH;
	return op->ext;
}

unsigned int mrc_wire_hdr_len(const struct mrc_pkt *pkt)
{
	const struct mrc_opcode_info *op = mrc_op(pkt->opcode);

	if (!op)
		return 0;
	return MRC_BTH_LEN + mrc_ext_len(mrc_pkt_ext(op, pkt->flags),
					 pkt->sack.nwords);
}

static enum mrc_wire_err mrc_check_dph(const struct mrc_pkt *pkt,
				       const struct mrc_opcode_info *op)
{
	bool first, last;

	if (pkt->dph.msg_len > MRC_MAX_MSG_LEN)
		return MRC_WIRE_E_MSG_LEN;
	if (pkt->dph.offset > pkt->dph.msg_len ||
	    pkt->payload_len > pkt->dph.msg_len - pkt->dph.offset)
		return MRC_WIRE_E_OFFSET;
	/*
	 * Only a zero-length message has a packet without payload, unless
	 * a switch trimmed it: an empty packet must not pass for data.
	 */
	if (!pkt->payload_len && pkt->dph.msg_len &&
	    !(pkt->flags & MRC_FLAG_TRIM))
		return MRC_WIRE_E_OFFSET;
	first = pkt->dph.offset == 0;
	last = pkt->dph.offset + pkt->payload_len == pkt->dph.msg_len;

	if (!!(pkt->flags & MRC_FLAG_FIRST) != first)
		return MRC_WIRE_E_FIRST_LAST;
	/* A trimmed packet lost its payload, so its end says nothing. */
	if (!(pkt->flags & MRC_FLAG_TRIM) &&
	    !!(pkt->flags & MRC_FLAG_LAST) != last)
		return MRC_WIRE_E_FIRST_LAST;

	if (!!(pkt->flags & MRC_FLAG_IMM) != op->imm)
		return MRC_WIRE_E_IMM;
	if (!op->imm && pkt->dph.imm)
		return MRC_WIRE_E_IMM;
	return MRC_WIRE_OK;
}

static enum mrc_wire_err mrc_check_aeth(const struct mrc_pkt *pkt)
{
	u8 syn = pkt->aeth.syndrome;
	bool is_nack = pkt->opcode == MRC_OP_NACK;
	bool is_error = syn != MRC_SYN_ACK;

	if (syn > MRC_SYN_MAX)
		return MRC_WIRE_E_SYNDROME;
	if (is_nack != is_error)
		return MRC_WIRE_E_SYNDROME;
	/* The MSN word holds the RNR timer code in an RNR NACK. */
	if (syn == MRC_SYN_RNR) {
		if (pkt->aeth.msn || pkt->aeth.rnr_timer > MRC_AETH_RNR_TIMER_MAX)
			return MRC_WIRE_E_SYNDROME;
	} else if (pkt->aeth.rnr_timer) {
		return MRC_WIRE_E_SYNDROME;
	}
	return MRC_WIRE_OK;
}

/* The semantic rules, shared by encode and decode. */
static enum mrc_wire_err mrc_check(const struct mrc_pkt *pkt,
				   const struct mrc_opcode_info *op,
				   unsigned int mtu)
{
	unsigned int ext = mrc_pkt_ext(op, pkt->flags);
	enum mrc_wire_err err;

	if (pkt->flags & ~MRC_FLAGS_KNOWN)
		return MRC_WIRE_E_RSVD_FLAGS;
	if ((pkt->flags & MRC_FLAG_ACK) && !op->ack)
		return MRC_WIRE_E_ACK_FLAG;
	if (pkt->dqpn & ~MRC_QPN_MASK)
		return MRC_WIRE_E_RSVD_QPN;
	if (!op->payload && pkt->payload_len)
		return MRC_WIRE_E_PAYLOAD;
	if (pkt->payload_len > mtu)
		return MRC_WIRE_E_MTU;
	if ((pkt->flags & MRC_FLAG_TRIM) &&
	    (!(op->ext & MRC_EXT_DPH) || pkt->payload_len))
		return MRC_WIRE_E_TRIM;
	if (!(op->ext & MRC_EXT_DPH) && (pkt->flags & MRC_FLAG_IMM))
		return MRC_WIRE_E_IMM;

	if (op->ext & MRC_EXT_DPH) {
		err = mrc_check_dph(pkt, op);
		if (err)
			return err;
	}
	/* A datagram is a whole message of one packet, unnumbered. */
	if ((op->ext & MRC_EXT_DETH) && (op->ext & MRC_EXT_DPH) &&
	    (pkt->dph.offset || pkt->dph.msn ||
	     pkt->dph.msg_len != pkt->payload_len))
		return MRC_WIRE_E_OFFSET;
	if (op->ext & MRC_EXT_RETH) {
		if (pkt->reth.len > MRC_MAX_MSG_LEN)
			return MRC_WIRE_E_DMA_LEN;
		if ((op->ext & MRC_EXT_DPH) && pkt->reth.len != pkt->dph.msg_len)
			return MRC_WIRE_E_DMA_LEN;
	}
	if ((op->ext & MRC_EXT_ATOMIC) && (pkt->atomic.va & 7))
		return MRC_WIRE_E_ATOMIC_ALIGN;
	if (ext & MRC_EXT_AETH) {
		err = mrc_check_aeth(pkt);
		if (err)
			return err;
	}
	if ((op->ext & MRC_EXT_DETH) && (pkt->deth.src_qpn & ~MRC_QPN_MASK))
		return MRC_WIRE_E_RSVD_QPN;
	if ((op->ext & MRC_EXT_SACK) &&
	    (pkt->sack.nwords < 1 || pkt->sack.nwords > MRC_SACK_MAX_WORDS))
		return MRC_WIRE_E_SACK_WORDS;
	return MRC_WIRE_OK;
}

static u64 get_be64_at(const u8 *p)
{
	return ((u64)get_unaligned_be32(p) << 32) | get_unaligned_be32(p + 4);
}

static void put_be64_at(u64 v, u8 *p)
{
	put_unaligned_be32(upper_32_bits(v), p);
	put_unaligned_be32(lower_32_bits(v), p + 4);
}

/* Extension parsers: each reads its header at @p and returns its length. */
static unsigned int mrc_get_reth(struct mrc_pkt *pkt, const u8 *p)
{
	pkt->reth.va = get_be64_at(p);
	pkt->reth.rkey = get_unaligned_be32(p + 8);
	pkt->reth.len = get_unaligned_be32(p + 12);
	return MRC_RETH_LEN;
}

static unsigned int mrc_get_dph(struct mrc_pkt *pkt, const u8 *p)
{
	pkt->dph.msn = get_unaligned_be32(p);
	pkt->dph.offset = get_unaligned_be32(p + 4);
	pkt->dph.msg_len = get_unaligned_be32(p + 8);
	pkt->dph.imm = get_unaligned_be32(p + 12);
	return MRC_DPH_LEN;
}

static unsigned int mrc_get_atomic(struct mrc_pkt *pkt, const u8 *p)
{
	pkt->atomic.va = get_be64_at(p);
	pkt->atomic.rkey = get_unaligned_be32(p + 8);
	pkt->atomic.swap_add = get_be64_at(p + 16);
	pkt->atomic.compare = get_be64_at(p + 24);
	return MRC_ATOMIC_ETH_LEN;
}

static unsigned int mrc_get_aeth(struct mrc_pkt *pkt, const u8 *p)
{
	pkt->aeth.cum_psn = get_unaligned_be32(p);
	pkt->aeth.msn = get_unaligned_be32(p + 4);
	pkt->aeth.ev = get_unaligned_be16(p + 8);
	pkt->aeth.syndrome = p[10];
	pkt->aeth.ce_count = p[11];
	pkt->aeth.ev_seq = get_unaligned_be32(p + 12);
	pkt->aeth.timestamp = get_unaligned_be32(p + 16);
	pkt->aeth.svc_time = get_unaligned_be16(p + 20);
	pkt->aeth.window = get_unaligned_be16(p + 22);
	if (pkt->opcode == MRC_OP_NACK && pkt->aeth.syndrome == MRC_SYN_RNR) {
		u32 code = pkt->aeth.msn;

		/* Out of range: keep a value that fails the check. */
		pkt->aeth.rnr_timer = min_t(u32, code, U8_MAX);
		pkt->aeth.msn = 0;
	}
	return MRC_AETH_LEN;
}

static unsigned int mrc_get_sack(struct mrc_pkt *pkt, const u8 *p)
{
	unsigned int i;

	pkt->sack.base_psn = get_unaligned_be32(p);
	/* nwords was read and range-checked before the length check. */
	for (i = 0; i < pkt->sack.nwords; i++)
		pkt->sack.bitmap[i] = get_be64_at(p + MRC_SACKH_BASE_LEN + 8 * i);
	return MRC_SACKH_BASE_LEN + 8 * pkt->sack.nwords;
}

static enum mrc_wire_err mrc_wire_decode_flags(const void *buf, size_t len,
					       unsigned int mtu, u16 add_flags,
					       struct mrc_pkt *pkt)
{
	const struct mrc_opcode_info *op;
	unsigned int need, hdr_len, ext;
	const u8 *b = buf;
	const u8 *p;

	memset(pkt, 0, sizeof(*pkt));
	if (len < MRC_BTH_LEN)
		return MRC_WIRE_E_SHORT;
	if (b[0] != MRC_WIRE_VERSION << 4)
		return MRC_WIRE_E_VERSION;
	pkt->opcode = b[1];
	op = mrc_op(pkt->opcode);
	if (!op)
		return MRC_WIRE_E_OPCODE;

	pkt->flags = get_unaligned_be16(b + 2) | add_flags;
	pkt->dqpn = get_unaligned_be32(b + MRC_BTH_DQPN_OFF);
	pkt->psn = get_unaligned_be32(b + 8);
	pkt->ev = get_unaligned_be16(b + 12);
	hdr_len = 4 * (unsigned int)get_unaligned_be16(b + 14);
	pkt->ev_seq = get_unaligned_be32(b + 16);
	pkt->timestamp = get_unaligned_be32(b + 20);
	ext = mrc_pkt_ext(op, pkt->flags);

	p = b + MRC_BTH_LEN;
	if (ext & MRC_EXT_SACK) {
		unsigned int at = MRC_BTH_LEN + MRC_AETH_LEN + 4;

		if (len < at + 1)
			return MRC_WIRE_E_SHORT;
		pkt->sack.nwords = b[at];
		if (pkt->sack.nwords < 1 || pkt->sack.nwords > MRC_SACK_MAX_WORDS)
			return MRC_WIRE_E_SACK_WORDS;
	}
	need = MRC_BTH_LEN + mrc_ext_len(ext, pkt->sack.nwords);
	if (hdr_len < need || hdr_len > len)
		return MRC_WIRE_E_HDR_LEN;
	pkt->hdr_len = hdr_len;
	pkt->payload_len = len - hdr_len;

	/* Extensions appear in the order of the wire-format table. */
	if (ext & MRC_EXT_RETH)
		p += mrc_get_reth(pkt, p);
	if (ext & MRC_EXT_DPH)
		p += mrc_get_dph(pkt, p);
	if (ext & MRC_EXT_ATOMIC)
		p += mrc_get_atomic(pkt, p);
	if (ext & MRC_EXT_AETH)
		p += mrc_get_aeth(pkt, p);
	if (ext & MRC_EXT_ATOMIC_ACK) {
		pkt->atomic_orig = get_be64_at(p);
		p += MRC_ATOMIC_ACK_LEN;
	}
	if (ext & MRC_EXT_SACK)
		p += mrc_get_sack(pkt, p);
	if (ext & MRC_EXT_PROBE) {
		pkt->probe_id = get_unaligned_be32(p);
		p += MRC_PROBEH_LEN;
	}
	if (ext & MRC_EXT_DETH) {
		pkt->deth.qkey = get_unaligned_be32(p);
		pkt->deth.src_qpn = get_unaligned_be32(p + 4);
	}

	return mrc_check(pkt, op, mtu);
}

enum mrc_wire_err mrc_wire_decode(const void *buf, size_t len,
				  unsigned int mtu, struct mrc_pkt *pkt)
{
	return mrc_wire_decode_flags(buf, len, mtu, 0, pkt);
}

enum mrc_wire_err mrc_wire_decode_trimmed(const void *buf, size_t len,
					  unsigned int mtu, struct mrc_pkt *pkt)
{
	return mrc_wire_decode_flags(buf, len, mtu, MRC_FLAG_TRIM, pkt);
}

static u8 *mrc_put_ext(const struct mrc_pkt *pkt, unsigned int ext, u8 *p)
{
	unsigned int i;

	if (ext & MRC_EXT_RETH) {
		put_be64_at(pkt->reth.va, p);
		put_unaligned_be32(pkt->reth.rkey, p + 8);
		put_unaligned_be32(pkt->reth.len, p + 12);
		p += MRC_RETH_LEN;
	}
	if (ext & MRC_EXT_DPH) {
		put_unaligned_be32(pkt->dph.msn, p);
		put_unaligned_be32(pkt->dph.offset, p + 4);
		put_unaligned_be32(pkt->dph.msg_len, p + 8);
		put_unaligned_be32(pkt->dph.imm, p + 12);
		p += MRC_DPH_LEN;
	}
	if (ext & MRC_EXT_ATOMIC) {
		put_be64_at(pkt->atomic.va, p);
		put_unaligned_be32(pkt->atomic.rkey, p + 8);
		put_unaligned_be32(0, p + 12);
		put_be64_at(pkt->atomic.swap_add, p + 16);
		put_be64_at(pkt->atomic.compare, p + 24);
		p += MRC_ATOMIC_ETH_LEN;
	}
	if (ext & MRC_EXT_AETH) {
		put_unaligned_be32(pkt->aeth.cum_psn, p);
		/* mrc_check_aeth() let at most one of the two be non-zero. */
		put_unaligned_be32(pkt->aeth.msn | pkt->aeth.rnr_timer, p + 4);
		put_unaligned_be16(pkt->aeth.ev, p + 8);
		p[10] = pkt->aeth.syndrome;
		p[11] = pkt->aeth.ce_count;
		put_unaligned_be32(pkt->aeth.ev_seq, p + 12);
		put_unaligned_be32(pkt->aeth.timestamp, p + 16);
		put_unaligned_be16(pkt->aeth.svc_time, p + 20);
		put_unaligned_be16(pkt->aeth.window, p + 22);
		p += MRC_AETH_LEN;
	}
	if (ext & MRC_EXT_ATOMIC_ACK) {
		put_be64_at(pkt->atomic_orig, p);
		p += MRC_ATOMIC_ACK_LEN;
	}
	if (ext & MRC_EXT_SACK) {
		put_unaligned_be32(pkt->sack.base_psn, p);
		put_unaligned_be32((u32)pkt->sack.nwords << 24, p + 4);
		for (i = 0; i < pkt->sack.nwords; i++)
			put_be64_at(pkt->sack.bitmap[i],
				    p + MRC_SACKH_BASE_LEN + 8 * i);
		p += MRC_SACKH_BASE_LEN + 8 * pkt->sack.nwords;
	}
	if (ext & MRC_EXT_PROBE) {
		put_unaligned_be32(pkt->probe_id, p);
		put_unaligned_be32(0, p + 4);
		p += MRC_PROBEH_LEN;
	}
	if (ext & MRC_EXT_DETH) {
		put_unaligned_be32(pkt->deth.qkey, p);
		put_unaligned_be32(pkt->deth.src_qpn, p + 4);
		p += MRC_DETH_LEN;
	}
	return p;
}

enum mrc_wire_err mrc_wire_encode(const struct mrc_pkt *pkt, unsigned int mtu,
				  void *buf, size_t buflen,
				  unsigned int *hdr_len)
{
	const struct mrc_opcode_info *op = mrc_op(pkt->opcode);
	enum mrc_wire_err err;
	unsigned int len;
	u8 *b = buf;

	if (!op)
		return MRC_WIRE_E_OPCODE;
	err = mrc_check(pkt, op, mtu);
	if (err)
		return err;
	len = mrc_wire_hdr_len(pkt);
	if (buflen < len)
		return MRC_WIRE_E_NOSPACE;

	b[0] = MRC_WIRE_VERSION << 4;
	b[1] = pkt->opcode;
	put_unaligned_be16(pkt->flags, b + 2);
	put_unaligned_be32(pkt->dqpn, b + MRC_BTH_DQPN_OFF);
	put_unaligned_be32(pkt->psn, b + 8);
	put_unaligned_be16(pkt->ev, b + 12);
	put_unaligned_be16(len / 4, b + 14);
	put_unaligned_be32(pkt->ev_seq, b + 16);
	put_unaligned_be32(pkt->timestamp, b + 20);
	mrc_put_ext(pkt, mrc_pkt_ext(op, pkt->flags), b + MRC_BTH_LEN);

	*hdr_len = len;
	return MRC_WIRE_OK;
}
