/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-2-Clause) */
/*
 * ABI shared by the mrc kernel driver and its userspace provider
 * (libmrc-rdmav34.so). Every structure here crosses the user/kernel
 * boundary: fixed-width types only, explicit padding, no pointers.
 */
#ifndef MRC_ABI_USER_H
#define MRC_ABI_USER_H

#include <linux/types.h>

/*
 * Out-of-tree drivers have no value in enum rdma_driver_id. This private
 * value ("mrc" in ASCII) sits far above the upstream range; the provider
 * claims a device on it alone (never on its name, which any driver may use).
 */
#define MRC_DRIVER_ID 0x6d7263

/* Bumped on any incompatible change to the structures below. */
#define MRC_UVERBS_ABI_VERSION 1

/* Default UDP destination port; rxe owns 4791, so MRC can run beside it. */
#define MRC_DEFAULT_UDP_PORT 4792

/*
 * Queues (SQ, RQ, SRQ, CQ) are rings of fixed-size slots in memory shared
 * by the kernel and the provider through mmap() of the uverbs file at
 * mrc_ring_info.mmap_offset. The mapping starts with struct mrc_ring_ctrl;
 * slot i of the ring lies at MRC_RING_SLOTS_OFFSET + i * slot_size.
 *
 * Indices are free-running 32-bit counters; slot = index & (num_slots - 1).
 * The producer writes a slot, then publishes it with a release store of
 * prod; the consumer reads prod with an acquire load, reads the slot, then
 * releases it by storing cons. The kernel treats everything the provider
 * writes as untrusted: it copies each slot once and validates it.
 *
 * Producers: provider for SQ, RQ and SRQ; kernel for CQ.
 *
 * flags belongs to the kernel: it sets MRC_RING_F_CQ_OVERFLOW in a CQ's
 * ring (with a release store, after the last completion it produced) when
 * a completion found the CQ full. The CQ is then in the error state for
 * good: nothing more is produced, the completions queued stay valid, and
 * the kernel raises IB_EVENT_CQ_ERR. The provider's poll_cq returns those
 * queued completions, then -EOVERFLOW.
 *
 * The kernel sets MRC_RING_F_CQ_GONE in a CQ's ring when it destroys the
 * CQ. A program sees it only when the kernel destroyed the CQ under it:
 * its device went away (rdma link delete, netdev or namespace deletion)
 * and the core tore down the program's objects. Its mapping of the ring
 * stays; the provider's poll_cq returns what is queued, then -EIO.
 */
struct mrc_ring_ctrl {
	__u32 prod;
	__u32 flags;		/* MRC_RING_F_*, kernel-written */
	__u32 reserved0[14];	/* prod and cons on separate cache lines */
	__u32 cons;
	__u32 reserved1[15];
};

#define MRC_RING_F_CQ_OVERFLOW	0x1
#define MRC_RING_F_CQ_GONE	0x2

#define MRC_RING_SLOTS_OFFSET	128

/*
 * Where a ring lives; part of the create responses. A queue's slots are
 * sized for what create granted and reported in ib_qp_cap / ib_srq_attr
 * (max_send_sge, max_inline_data, max_recv_sge, max_sge): the kernel
 * fails a slot that exceeds those caps, so the provider refuses such a
 * work request with EINVAL before publishing it.
 */
struct mrc_ring_info {
	__aligned_u64 mmap_offset;
	__u32 mmap_size;
	__u32 num_slots;	/* a power of two */
	__u32 slot_size;	/* bytes, a multiple of 64 */
	__u32 flags;		/* MRC_RING_INFO_F_* */
};

/* A resize reply describing a ring that is prepared, not yet in use. */
#define MRC_RING_INFO_F_PREPARED	0x1

struct mrc_sge {
	__aligned_u64 addr;
	__u32 length;
	__u32 lkey;
};

/*
 * SQ slot: a send work request. Values are those of libibverbs. Reserved
 * fields must be zero and send_flags may hold only MRC_SEND_FLAGS_KNOWN;
 * the kernel completes any other slot with IBV_WC_LOC_QP_OP_ERR (and the
 * QP goes to the error state), so that these bits can be given a meaning
 * later. IBV_WR_SEND_WITH_INV and IBV_WR_LOCAL_INV carry the key to
 * invalidate in imm_data (host byte order, as ibv_send_wr's
 * invalidate_rkey), with no SGE for LOCAL_INV. IBV_WR_BIND_MW (RC only)
 * has no SGE either: imm_data is the window's current R_Key, rkey the one
 * it takes, remote_addr and compare_add the range's address and length,
 * and swap the MR's L_Key in its high 32 bits over the IBV_ACCESS_REMOTE_*
 * flags in its low 32 (a length of 0 unbinds a type 1 window, L_Key 0).
 */
#define MRC_SEND_FLAGS_KNOWN	0xf	/* FENCE, SIGNALED, SOLICITED, INLINE */

struct mrc_send_wqe {
	__aligned_u64 wr_id;
	__u32 opcode;		/* enum ibv_wr_opcode */
	__u32 send_flags;	/* enum ibv_send_flags */
	__u32 imm_data;		/* as in ibv_send_wr (immediate: network order) */
	__u32 num_sge;		/* 0 when IBV_SEND_INLINE */
	__u32 inline_len;	/* bytes of inline data after the header, else 0 */
	__u32 reserved0;
	__aligned_u64 remote_addr;
	__u32 rkey;
	__u32 reserved1;
	__aligned_u64 compare_add;
	__aligned_u64 swap;
	/* followed by num_sge struct mrc_sge, or inline_len bytes */
};

/*
 * On a UD QP a SEND slot names its destination where an RC slot has its
 * remote address and R_Key: struct mrc_ud_dest lies at the offset of
 * remote_addr, and compare_add and swap must be zero. ah_num is the
 * number create_ah returned (struct mrc_create_ah_resp) for an AH of the
 * QP's PD; a slot naming any other completes with IBV_WC_LOC_QP_OP_ERR.
 * A remote_qkey with its high bit set sends with the QP's own Q_Key.
 */
struct mrc_ud_dest {
	__u32 ah_num;
	__u32 remote_qpn;
	__u32 remote_qkey;
	__u32 reserved;
};

/*
 * RQ and SRQ slot: a receive work request; reserved must be zero. The
 * kernel fails a slot with more SGEs than the queue's max_recv_sge (SRQ:
 * max_sge) or a non-zero reserved field: an RQ slot is flushed with the
 * QP in the error state, an SRQ slot completes with IBV_WC_LOC_QP_OP_ERR
 * on the QP that took it, which then goes to the error state.
 */
struct mrc_recv_wqe {
	__aligned_u64 wr_id;
	__u32 num_sge;
	__u32 reserved;
	/* followed by num_sge struct mrc_sge */
};

/* wc_flags bit of a receive that invalidated a key (IBV_WC_WITH_INV). */
#define MRC_WC_WITH_INV		0x8

/* CQ slot: a work completion. Values are those of libibverbs. */
struct mrc_cqe {
	__aligned_u64 wr_id;
	__u32 status;		/* enum ibv_wc_status */
	__u32 opcode;		/* enum ibv_wc_opcode */
	__u32 vendor_err;
	__u32 byte_len;
	__u32 imm_data;		/* network byte order */
	__u32 qp_num;
	__u32 src_qp;
	__u32 wc_flags;		/* enum ibv_wc_flags */
	__u16 pkey_index;
	__u16 slid;
	__u8 sl;
	__u8 dlid_path_bits;
	__u8 network_hdr_type;	/* UD: enum rdma_network_type */
	__u8 reserved;
};

/*
 * Driver data of the create commands. create_cq and create_srq carry
 * none: the kernel fails one whose driver input is not all zero with
 * EINVAL. create_qp may carry struct mrc_qp_profile_cmd (a kernel older
 * than it refuses a non-zero one the same way). modify_qp carries none:
 * driver input not all zero fails it with EOPNOTSUPP.
 */

#define MRC_QP_F_EV_PROFILE	0x1	/* ev_profile_id is set */
#define MRC_QP_F_CC_PROFILE	0x2	/* cc_profile_id is set */
#define MRC_QP_F_ALL		(MRC_QP_F_EV_PROFILE | MRC_QP_F_CC_PROFILE)

/*
 * The profiles a new QP uses (OCP's MRC_QP_EV_PROFILE_ID and
 * MRC_QP_CC_PROFILE_ID, control-plane.rst); without a flag the device's
 * default applies. The profile must exist and be ONLINE; unknown flags,
 * a non-zero reserved field or such a profile fail create_qp with EINVAL.
 * A profile whose access rule refuses the caller, named or the default,
 * fails it with EPERM (enum mrc_genl_prof_access).
 */
struct mrc_qp_profile_cmd {
	__u32 flags;		/* MRC_QP_F_* */
	__u32 reserved;
	__aligned_u64 ev_profile_id;
	__aligned_u64 cc_profile_id;
};

/*
 * Driver data of ibv_resize_cq commands, optional. Without it (or with
 * flags 0) the kernel moves the CQ to its new ring at once, so a provider
 * whose mmap of that ring then fails has lost the CQ. In two steps that
 * cannot happen: MRC_RESIZE_CQ_PREPARE allocates the new ring and
 * describes it (ring.flags has MRC_RING_INFO_F_PREPARED; an older kernel,
 * which ignores the command, leaves it clear and has already switched);
 * the provider maps it and sends MRC_RESIZE_CQ_COMMIT with the same cqe,
 * which moves the queued completions and switches. If the mmap fails, the
 * provider does not commit and the CQ keeps its old ring; a prepared ring
 * is freed by the next prepare or by destroy.
 */
struct mrc_resize_cq_cmd {
	__u32 flags;		/* one of MRC_RESIZE_CQ_* */
	__u32 reserved;
};

#define MRC_RESIZE_CQ_PREPARE	0x1
#define MRC_RESIZE_CQ_COMMIT	0x2
#define MRC_RESIZE_CQ_FLAGS	(MRC_RESIZE_CQ_PREPARE | MRC_RESIZE_CQ_COMMIT)

/* Driver data of ibv_create_cq / ibv_resize_cq responses. */
struct mrc_create_cq_resp {
	struct mrc_ring_info ring;
};

/* Driver data of ibv_create_qp responses; rq is zero with an SRQ. */
struct mrc_create_qp_resp {
	struct mrc_ring_info sq;
	struct mrc_ring_info rq;
};

/* Driver data of ibv_create_ah responses: the number UD slots name it by. */
struct mrc_create_ah_resp {
	__u32 ah_num;
	__u32 reserved;
};

/* Driver data of ibv_create_srq responses. */
struct mrc_create_srq_resp {
	struct mrc_ring_info ring;
};

#endif /* MRC_ABI_USER_H */
