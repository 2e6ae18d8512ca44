// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Fuzz the wire decoder (kernel/core/mrc_wire.c) with raw UDP payloads, as
 * mrc_rx.c hands them over, and hold it to what mrc_wire.h promises:
 *
 * - decode reads only the @len bytes it was given (ASan) and names a
 *   verdict that has a name; decoded as trimmed (the trim DSCP), an
 *   accepted packet has TRIM set and no payload;
 * - an accepted packet's lengths add up, its payload fits the MTU;
 * - the encoder accepts every packet the decoder accepted ("applies the
 *   same validation as decode"), writes exactly mrc_wire_hdr_len() bytes
 *   and no byte beyond a buffer that small (ASan), refuses a smaller one,
 *   and decoding what it wrote gives the same headers back;
 * - the other way round ("a sender cannot emit a packet its peer would
 *   drop"): an input whose first byte is not the version byte is also
 *   read as a struct mrc_pkt for the encoder; what the encoder accepts,
 *   the decoder must accept, and encoding the result must give the same
 *   bytes.
 */
#include <string.h>

#include "fuzz_util.h"
#include "mrc_wire.h"

#define FUZZ_MTU	4096	/* MRC_MAX_PAYLOAD_MTU, what mrc_rx.c decodes with */

static void check_accepted(const u8 *data, size_t size,
			   const struct mrc_pkt *pkt)
{
	unsigned int need = mrc_wire_hdr_len(pkt), hl = 0;
	struct mrc_pkt again;
	enum mrc_wire_err err;
	u8 *hdr, *pkt2;

	FUZZ_CHECK(pkt->hdr_len >= MRC_BTH_LEN && pkt->hdr_len <= size &&
		   pkt->hdr_len % 4 == 0, "hdr_len %u of %zu", pkt->hdr_len,
		   size);
	FUZZ_CHECK(pkt->payload_len == size - pkt->hdr_len, "payload_len %u",
		   pkt->payload_len);
	FUZZ_CHECK(pkt->payload_len <= FUZZ_MTU, "payload %u", pkt->payload_len);
	FUZZ_CHECK(need && need <= pkt->hdr_len && need <= MRC_WIRE_MAX_HDR_LEN,
		   "needed %u, hdr_len %u", need, pkt->hdr_len);
	FUZZ_CHECK(strcmp(mrc_wire_opcode_name(pkt->opcode), "?"),
		   "accepted opcode %u has no name", pkt->opcode);

	/* Exactly as much room as the header needs: ASan sees any overrun. */
	hdr = malloc(need);
	err = mrc_wire_encode(pkt, FUZZ_MTU, hdr, need, &hl);
	FUZZ_CHECK(err == MRC_WIRE_OK, "encode refused a decoded packet: %s",
		   mrc_wire_err_name(err));
	FUZZ_CHECK(hl == need, "encode wrote %u, hdr_len says %u", hl, need);
	err = mrc_wire_encode(pkt, FUZZ_MTU, hdr, need - 1, &hl);
	FUZZ_CHECK(err == MRC_WIRE_E_NOSPACE, "short buffer: %s",
		   mrc_wire_err_name(err));

	/* The encoded header with the original payload decodes the same. */
	pkt2 = malloc(need + pkt->payload_len);
	memcpy(pkt2, hdr, need);
	memcpy(pkt2 + need, data + pkt->hdr_len, pkt->payload_len);
	err = mrc_wire_decode(pkt2, need + pkt->payload_len, FUZZ_MTU, &again);
	FUZZ_CHECK(err == MRC_WIRE_OK, "re-decode: %s", mrc_wire_err_name(err));
	FUZZ_CHECK(again.hdr_len == need, "re-decoded hdr_len %u", again.hdr_len);
	/* decode memsets the whole struct, padding included. */
	again.hdr_len = pkt->hdr_len;
	FUZZ_CHECK(!memcmp(&again, pkt, sizeof(again)),
		   "round trip changed the headers of %s",
		   mrc_wire_opcode_name(pkt->opcode));
	free(pkt2);
	free(hdr);
}

/* Headers as the transmit path might fill them in, from the input. */
static void read_pkt(struct fin *in, struct mrc_pkt *p)
{
	unsigned int i;

	memset(p, 0, sizeof(*p));
	p->opcode = fin_u8(in) % (MRC_OP_PROBE_REPLY + 2);
	p->flags = fin_u16(in);
	p->dqpn = fin_u32(in);
	p->psn = fin_u32(in);
	p->ev = fin_u16(in);
	p->ev_seq = fin_u32(in);
	p->timestamp = fin_u32(in);
	p->dph.msn = fin_u32(in);
	p->dph.offset = fin_u32(in);
	p->dph.msg_len = fin_u32(in);
	p->dph.imm = fin_u32(in);
	p->reth.va = fin_u64(in);
	p->reth.rkey = fin_u32(in);
	p->reth.len = fin_u32(in);
	p->atomic.va = fin_u64(in);
	p->atomic.rkey = fin_u32(in);
	p->atomic.swap_add = fin_u64(in);
	p->atomic.compare = fin_u64(in);
	p->aeth.cum_psn = fin_u32(in);
	p->aeth.msn = fin_u32(in);
	p->aeth.ev = fin_u16(in);
	p->aeth.syndrome = fin_u8(in);
	p->aeth.ce_count = fin_u8(in);
	p->aeth.ev_seq = fin_u32(in);
	p->aeth.timestamp = fin_u32(in);
	p->aeth.window = fin_u32(in);
	p->aeth.rnr_timer = fin_u8(in);
	p->atomic_orig = fin_u64(in);
	p->sack.base_psn = fin_u32(in);
	p->sack.nwords = fin_u8(in);
	for (i = 0; i < MRC_SACK_MAX_WORDS; i++)
		p->sack.bitmap[i] = fin_u64(in);
	p->probe_id = fin_u32(in);
	p->deth.qkey = fin_u32(in);
	p->deth.src_qpn = fin_u32(in);
	p->payload_len = fin_u16(in) % (FUZZ_MTU + 2);
}

static void check_encoder(const u8 *data, size_t size)
{
	struct fin in = { data, size };
	unsigned int len, hl = 0, hl2 = 0;
	struct mrc_pkt pkt, back;
	enum mrc_wire_err err;
	u8 *buf, *buf2;

	read_pkt(&in, &pkt);
	len = mrc_wire_hdr_len(&pkt);
	/* Exactly the room the header needs: ASan sees any overrun. */
	buf2 = malloc(len ? len : 1);
	err = mrc_wire_encode(&pkt, FUZZ_MTU, buf2, len, &hl);
	FUZZ_CHECK((unsigned int)err < MRC_WIRE_E_COUNT, "verdict %d", err);
	if (err) {
		free(buf2);
		return;
	}
	FUZZ_CHECK(hl == len && len <= MRC_WIRE_MAX_HDR_LEN, "wrote %u of %u",
		   hl, len);
	buf = malloc(hl + pkt.payload_len);
	memcpy(buf, buf2, hl);
	free(buf2);
	memset(buf + hl, 0x5a, pkt.payload_len);
	err = mrc_wire_decode(buf, hl + pkt.payload_len, FUZZ_MTU, &back);
	FUZZ_CHECK(err == MRC_WIRE_OK, "peer drops our %s: %s",
		   mrc_wire_opcode_name(pkt.opcode), mrc_wire_err_name(err));
	buf2 = malloc(hl);
	err = mrc_wire_encode(&back, FUZZ_MTU, buf2, hl, &hl2);
	FUZZ_CHECK(err == MRC_WIRE_OK && hl2 == hl && !memcmp(buf, buf2, hl),
		   "%s: decoded headers encode differently",
		   mrc_wire_opcode_name(pkt.opcode));
	free(buf2);
	free(buf);
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size);

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	enum mrc_wire_err err;
	struct mrc_pkt pkt;

	/* libFuzzer's @data is a heap block of exactly @size bytes. */
	err = mrc_wire_decode(data, size, FUZZ_MTU, &pkt);
	FUZZ_CHECK((unsigned int)err < MRC_WIRE_E_COUNT &&
		   strcmp(mrc_wire_err_name(err), "?"), "verdict %d", err);
	if (err == MRC_WIRE_OK)
		check_accepted(data, size, &pkt);
	/*
	 * The same bytes as if they came with the trim DSCP: a trimmed
	 * packet, whatever its flags say, and then one the checks hold to.
	 */
	err = mrc_wire_decode_trimmed(data, size, FUZZ_MTU, &pkt);
	FUZZ_CHECK((unsigned int)err < MRC_WIRE_E_COUNT, "verdict %d", err);
	if (err == MRC_WIRE_OK) {
		FUZZ_CHECK((pkt.flags & MRC_FLAG_TRIM) && !pkt.payload_len,
			   "trimmed: flags %#x payload %u", pkt.flags,
			   pkt.payload_len);
		check_accepted(data, size, &pkt);
	}
	if (size && data[0] != MRC_WIRE_VERSION << 4)
		check_encoder(data + 1, size - 1);
	return 0;
}
