/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * MRC wire format v1 (Documentation/wire-format.rst): header encode and
 * decode with full validation. Works on flat buffers with no ib_core or
 * skb dependency, so KUnit and fuzzers can drive it directly.
 */
#ifndef MRC_WIRE_H
#define MRC_WIRE_H

#include <linux/sizes.h>
#include <linux/types.h>

#define MRC_WIRE_VERSION	1

#define MRC_BTH_LEN		24
/* Where the BTH holds the destination QPN, for a look before decoding. */
#define MRC_BTH_DQPN_OFF	4
#define MRC_DPH_LEN		16
#define MRC_RETH_LEN		16
#define MRC_ATOMIC_ETH_LEN	32
#define MRC_AETH_LEN		24
#define MRC_ATOMIC_ACK_LEN	8
#define MRC_SACKH_BASE_LEN	8
#define MRC_SACK_MAX_WORDS	4
#define MRC_PROBEH_LEN		8
#define MRC_DETH_LEN		8
/*
 * Bytes decode reads at most: the BTH and every extension, which no one
 * packet has all of. A packet's headers lie within its first so many.
 */
#define MRC_WIRE_DECODE_MAX	(MRC_BTH_LEN + MRC_RETH_LEN + MRC_DPH_LEN + \
				 MRC_ATOMIC_ETH_LEN + MRC_AETH_LEN + \
				 MRC_ATOMIC_ACK_LEN + MRC_SACKH_BASE_LEN + \
				 8 * MRC_SACK_MAX_WORDS + MRC_PROBEH_LEN + \
				 MRC_DETH_LEN)
/* Largest header: BTH + AETH + a full SACKH. */
#define MRC_WIRE_MAX_HDR_LEN	(MRC_BTH_LEN + MRC_AETH_LEN + \
				 MRC_SACKH_BASE_LEN + 8 * MRC_SACK_MAX_WORDS)

#define MRC_MAX_MSG_LEN		SZ_1G
#define MRC_QPN_MASK		0x00ffffffU
/* Destination QPN of endpoint probes and their replies: never a QP. */
#define MRC_QPN_ENDPOINT	0x00ffffffU

enum mrc_opcode {
	MRC_OP_SEND		= 0x00,
	MRC_OP_SEND_IMM		= 0x01,
	MRC_OP_WRITE		= 0x02,
	MRC_OP_WRITE_IMM	= 0x03,
	MRC_OP_READ_REQ		= 0x04,
	MRC_OP_READ_RESP	= 0x05,
	MRC_OP_CMP_SWP		= 0x06,
	MRC_OP_FETCH_ADD	= 0x07,
	MRC_OP_ATOMIC_RESP	= 0x08,
	MRC_OP_UD_SEND		= 0x09,
	MRC_OP_UD_SEND_IMM	= 0x0a,
	MRC_OP_SEND_INV		= 0x0b,
	MRC_OP_ACK		= 0x10,
	MRC_OP_SACK		= 0x11,
	MRC_OP_NACK		= 0x12,
	MRC_OP_PROBE		= 0x20,
	MRC_OP_PROBE_REPLY	= 0x21,
};

#define MRC_FLAG_AR	0x0001	/* acknowledge promptly */
#define MRC_FLAG_SE	0x0002	/* solicited event */
#define MRC_FLAG_FIRST	0x0004	/* first packet of a message */
#define MRC_FLAG_LAST	0x0008	/* last packet of a message */
#define MRC_FLAG_RETX	0x0010	/* retransmission: answer at once */
#define MRC_FLAG_IMM	0x0020	/* immediate data in the DPH */
#define MRC_FLAG_TRIM	0x0040	/* payload cut off by a switch */
#define MRC_FLAG_ACK	0x0080	/* request carries an ACK (AETH) */
#define MRC_FLAGS_KNOWN	0x00ff

enum mrc_syndrome {
	MRC_SYN_ACK		= 0,
	MRC_SYN_PSN_SEQ_ERR	= 1,
	MRC_SYN_INVALID_REQ	= 2,
	MRC_SYN_REMOTE_ACCESS	= 3,
	MRC_SYN_REMOTE_OP	= 4,
	MRC_SYN_RNR		= 5,
	MRC_SYN_TRIMMED		= 6,
	MRC_SYN_MAX		= MRC_SYN_TRIMMED,
};

/*
 * An RNR NACK carries the responder's RNR timer code (IB encoding, see
 * mrc_rnr.h) in the AETH word that otherwise holds the MSN.
 */
#define MRC_AETH_RNR_TIMER_MAX	31
/*
 * AETH service time: the responder's time from a request's arrival to
 * its ACK, in the timestamp's 1.024 us units; this value or more means
 * too long to measure (the sender takes no RTT sample from it).
 */
#define MRC_SVC_TIME_OVER	0xffff

/* Extension headers, as a mask in the opcode table. */
#define MRC_EXT_DPH		0x01
#define MRC_EXT_RETH		0x02
#define MRC_EXT_ATOMIC		0x04
#define MRC_EXT_AETH		0x08
#define MRC_EXT_ATOMIC_ACK	0x10
#define MRC_EXT_SACK		0x20
#define MRC_EXT_PROBE		0x40
#define MRC_EXT_DETH		0x80

/**
 * struct mrc_pkt - a packet's headers in host byte order
 * @opcode: MRC_OP_*
 * @flags: MRC_FLAG_*
 * @dqpn: destination QP number
 * @psn: packet sequence number
 * @ev: the entropy value (path) the sender chose
 * @ev_seq: the packet's sequence number on @ev, echoed in ACKs
 * @timestamp: send time in 1.024 us units (mrc_clock.h), echoed in ACKs
 * @dph: SEND and WRITE data placement: message sequence number, byte
 *	offset in the message, message length, immediate data
 * @reth: RDMA address, R_Key and length of a WRITE or READ
 * @atomic: address, R_Key and operands of an atomic request
 * @aeth: acknowledgment: cumulative PSN, MSN (in an RNR NACK, @rnr_timer
 *	instead), echoed EV, sequence and timestamp, syndrome, CE marks
 *	counted, the responder's service time, receive window
 * @atomic_orig: the original value an atomic response returns
 * @sack: selective acknowledgment: @nwords 64-bit words of received PSNs
 *	from @base_psn on
 * @probe_id: identifies a path probe and its reply
 * @deth: Q_Key and source QP of a UD datagram
 * @hdr_len: decode's output: bytes of headers before the payload
 * @payload_len: payload bytes; decode's output, encode's input
 * @rx_sport: not a header field: the UDP source port (the EV) the packet
 *	came with, recorded on receive so answers go back on it
 * @rx_ts: not a header field: when a held answer's wait began
 *	(mrc_now_ts()), 0 for a packet answered at once; its ACK reports the
 *	time since as service time
 *
 * Only the extensions of @opcode are meaningful; the rest are zero after
 * mrc_wire_decode(). Encode computes the header length itself and checks
 * @payload_len.
 */
struct mrc_pkt {
	u8 opcode;
	u16 flags;
	u32 dqpn;
	u32 psn;
	u16 ev;
	u32 ev_seq;
	u32 timestamp;

	struct {
		u32 msn;
		u32 offset;
		u32 msg_len;
		u32 imm;
	} dph;
	struct {
		u64 va;
		u32 rkey;
		u32 len;
	} reth;
	struct {
		u64 va;
		u32 rkey;
		u64 swap_add;
		u64 compare;
	} atomic;
	struct {
		u32 cum_psn;
		u32 msn;	/* zero in an RNR NACK */
		u16 ev;
		u8 syndrome;
		u8 ce_count;
		u32 ev_seq;
		u32 timestamp;
		u16 svc_time;	/* 1.024 us units; MRC_SVC_TIME_OVER: too long */
		u16 window;
		u8 rnr_timer;	/* RNR NACK only: timer code, 0..31 */
	} aeth;
	u64 atomic_orig;
	struct {
		u32 base_psn;
		u8 nwords;
		u64 bitmap[MRC_SACK_MAX_WORDS];
	} sack;
	u32 probe_id;
	struct {
		u32 qkey;
		u32 src_qpn;
	} deth;

	unsigned int hdr_len;
	unsigned int payload_len;
	u16 rx_sport;
	u32 rx_ts;
};

/**
 * mrc_pkt_is_trim_nack() - a NACK for a packet a switch trimmed
 * @pkt: a decoded packet
 *
 * Return: true for a NACK with syndrome MRC_SYN_TRIMMED.
 */
static inline bool mrc_pkt_is_trim_nack(const struct mrc_pkt *pkt)
{
	return pkt->opcode == MRC_OP_NACK &&
	       pkt->aeth.syndrome == MRC_SYN_TRIMMED;
}

/* Why a packet was rejected; one name per value for tracing. */
enum mrc_wire_err {
	MRC_WIRE_OK,
	MRC_WIRE_E_SHORT,
	MRC_WIRE_E_VERSION,
	MRC_WIRE_E_OPCODE,
	MRC_WIRE_E_RSVD_FLAGS,
	MRC_WIRE_E_RSVD_QPN,
	MRC_WIRE_E_HDR_LEN,
	MRC_WIRE_E_PAYLOAD,
	MRC_WIRE_E_MTU,
	MRC_WIRE_E_MSG_LEN,
	MRC_WIRE_E_OFFSET,
	MRC_WIRE_E_FIRST_LAST,
	MRC_WIRE_E_IMM,
	MRC_WIRE_E_DMA_LEN,
	MRC_WIRE_E_ATOMIC_ALIGN,
	MRC_WIRE_E_SYNDROME,
	MRC_WIRE_E_SACK_WORDS,
	MRC_WIRE_E_TRIM,
	MRC_WIRE_E_ACK_FLAG,
	MRC_WIRE_E_NOSPACE,
	MRC_WIRE_E_COUNT
};

/**
 * mrc_wire_err_name() - short name of a decode/encode verdict
 * @err: the verdict
 *
 * Return: a static string, "?" for values out of range.
 */
const char *mrc_wire_err_name(enum mrc_wire_err err);

/**
 * mrc_wire_opcode_name() - name of an opcode, for tracing
 * @opcode: wire opcode
 *
 * Return: a static string, "?" for unknown opcodes.
 */
const char *mrc_wire_opcode_name(u8 opcode);

/**
 * mrc_wire_ext_mask() - extension headers an opcode carries
 * @opcode: wire opcode
 *
 * Return: MRC_EXT_* bits, or 0 for unknown opcodes (and for PROBE-less
 * opcodes that carry none). An AETH that %MRC_FLAG_ACK adds is not
 * included.
 */
unsigned int mrc_wire_ext_mask(u8 opcode);

/**
 * mrc_wire_hdr_len() - header length for a packet's opcode, flags and SACK size
 * @pkt: opcode, flags (%MRC_FLAG_ACK adds an AETH) and, for SACK,
 *       sack.nwords
 *
 * Return: bytes of BTH plus extensions, or 0 if the opcode is unknown.
 */
unsigned int mrc_wire_hdr_len(const struct mrc_pkt *pkt);

/**
 * mrc_wire_decode() - parse and validate the MRC headers of a datagram
 * @buf: UDP payload
 * @len: its length in bytes
 * @mtu: largest payload accepted, in bytes
 * @pkt: filled in on success; undefined on failure
 *
 * Every rule of the "Validation" section of the wire-format document is
 * checked here. Memory-region checks (R_Key, bounds) are the responder's.
 * Only the headers are read, none past @buf + MRC_WIRE_DECODE_MAX: @buf
 * may hold just those bytes of a longer datagram.
 *
 * Return: MRC_WIRE_OK, or the first rule the packet breaks.
 */
enum mrc_wire_err mrc_wire_decode(const void *buf, size_t len,
				  unsigned int mtu, struct mrc_pkt *pkt);

/**
 * mrc_wire_decode_trimmed() - decode a packet a switch trimmed
 * @buf: UDP payload
 * @len: its length in bytes
 * @mtu: largest payload accepted
 * @pkt: filled in on success; undefined on failure
 *
 * For a packet that came with the trim DSCP: a switch cut its payload
 * and left its headers, the TRIM flag unset. It is decoded as if the
 * flag were set, so the rules for trimmed packets apply (a data packet,
 * no payload left).
 *
 * Return: as mrc_wire_decode().
 */
enum mrc_wire_err mrc_wire_decode_trimmed(const void *buf, size_t len,
					  unsigned int mtu, struct mrc_pkt *pkt);

/**
 * mrc_wire_encode() - write the MRC headers of a packet
 * @pkt: headers to write; @pkt->payload_len is the payload that will follow
 * @mtu: largest payload allowed
 * @buf: destination
 * @buflen: room at @buf
 * @hdr_len: set to the number of bytes written on success
 *
 * Applies the same validation as decode, so a sender cannot emit a
 * packet its peer would drop.
 *
 * Return: MRC_WIRE_OK or the rule @pkt breaks (MRC_WIRE_E_NOSPACE when
 * @buflen is too small).
 */
enum mrc_wire_err mrc_wire_encode(const struct mrc_pkt *pkt, unsigned int mtu,
				  void *buf, size_t buflen,
				  unsigned int *hdr_len);

#endif /* MRC_WIRE_H */
