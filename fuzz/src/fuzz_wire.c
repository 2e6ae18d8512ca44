// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Fuzz the wire decoder (kernel/mrc_wire.c) with raw UDP payloads, as
 * mrc_rx.c hands them over, and hold it to what mrc_wire.h promises:
 *
 * - decode reads only the @len bytes it was given (ASan) and names a
 *   verdict that has a name;
 * - an accepted packet's lengths add up, its payload fits the MTU;
 * - the encoder accepts every packet the decoder accepted ("applies the
 *   same validation as decode"), writes exactly mrc_wire_hdr_len() bytes
 *   and no byte beyond a buffer that small (ASan), refuses a smaller one,
 *   and decoding what it wrote gives the same headers back.
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
	return 0;
}
