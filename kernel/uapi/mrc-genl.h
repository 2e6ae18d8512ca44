/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-2-Clause) */
/*
 * Generic netlink family "mrc": the control channel between the mrc
 * driver and mrc-ip / libmrc. Attributes are only ever appended.
 */
#ifndef MRC_GENL_USER_H
#define MRC_GENL_USER_H

#define MRC_GENL_NAME		"mrc"
/* 2: profiles, statistics, events, probes (issue 19). */
#define MRC_GENL_VERSION	2

/* Multicast group of EV state-change events (MRC_CMD_EV_EVENT). */
#define MRC_GENL_MCGRP_EVENTS	"events"

/* OCP MRC controller API version implemented, in OCP's encoding. */
#define MRC_CTL_API_VERSION	0x01000001	/* 1.0.1 */

/*
 * A QP's PSN ranges (OCP's MPR) count in units of 128 PSNs; the driver's
 * windows hold 1024 PSNs, so MRC_QP_MPR_MAX units at most.
 */
#define MRC_QP_MPR_UNIT		128
#define MRC_QP_MPR_MAX		8

enum mrc_genl_cmd {
	MRC_CMD_UNSPEC,
	/* Read one device (MRC_ATTR_DEV_NAME given) or dump all. */
	MRC_CMD_DEV_GET,
	/*
	 * Change a device (admin): MRC_ATTR_DEV_DEFAULT_EVPROF,
	 * MRC_ATTR_DEV_DEFAULT_CCPROF (must be ONLINE), MRC_ATTR_PORT_ADMIN.
	 */
	MRC_CMD_DEV_SET,

	/*
	 * EV format profiles. GET: doit needs MRC_ATTR_PROF_ID, dump may be
	 * filtered by device. NEW: MRC_ATTR_PROF_ID optional (kernel picks
	 * the lowest free id >= 1 and replies with the object); an
	 * MRC_ATTR_EVFMT nest may configure it (state then OFFLINE). SET:
	 * MRC_ATTR_EVFMT and/or MRC_ATTR_PROF_STATE, all or nothing, state
	 * change last. DEL: refused (EBUSY) while an EV profile refers to it.
	 */
	MRC_CMD_EVFMT_GET,
	MRC_CMD_EVFMT_NEW,
	MRC_CMD_EVFMT_DEL,
	MRC_CMD_EVFMT_SET,

	/*
	 * EV profiles, same pattern with MRC_ATTR_EVPROF. GET never carries
	 * the EV array (see EVPROF_EV_GET); it carries MRC_ATTR_PROF_NUSERS
	 * and MRC_ATTR_PROF_USERS. DEL and ONLINE->OFFLINE: EBUSY while QPs
	 * use it or it is a device default.
	 */
	MRC_CMD_EVPROF_GET,
	MRC_CMD_EVPROF_NEW,
	MRC_CMD_EVPROF_DEL,
	MRC_CMD_EVPROF_SET,
	/*
	 * Dump only: one profile's EVs (device + MRC_ATTR_PROF_ID required),
	 * MRC_ATTR_EV_FIRST in each message; MRC_ATTR_STATS per EV when the
	 * request has MRC_ATTR_WANT_STATS.
	 */
	MRC_CMD_EVPROF_EV_GET,
	/*
	 * Admin, a batch of MRC_ATTR_EV_OP on MRC_ATTR_EVS entries, applied
	 * in order; on failure extack points at the entry and the cookie
	 * (u64) holds the count applied.
	 */
	MRC_CMD_EVPROF_EV_SET,

	/* CC profiles, same pattern with MRC_ATTR_CCPROF. */
	MRC_CMD_CCPROF_GET,
	MRC_CMD_CCPROF_NEW,
	MRC_CMD_CCPROF_DEL,
	MRC_CMD_CCPROF_SET,

	/* Dump only: one QP's EV table (device + MRC_ATTR_QPN), with stats. */
	MRC_CMD_QP_EV_GET,
	/* Dump only: per-EV counters of one EV profile, over its QPs. */
	MRC_CMD_STATS_GET,
	/*
	 * Admin doit, sleeps up to MRC_ATTR_PROBE_TIMEOUT_NS: endpoint
	 * probes (MRC_ATTR_PROBES, 1..64 entries); reply: the same list with
	 * MRC_ATTR_PROBE_RTT_NS or MRC_ATTR_PROBE_TIMED_OUT per entry.
	 */
	MRC_CMD_PROBE,
	/* Sent by the kernel only, on MRC_GENL_MCGRP_EVENTS. */
	MRC_CMD_EV_EVENT,
	/*
	 * Doit, on a user QP (device + MRC_ATTR_QPN), by its owner (by uid)
	 * or CAP_NET_ADMIN; what the OCP API sets that verbs cannot carry:
	 * either the ONLINE profiles MRC_ATTR_QP_EVPROF and/or
	 * MRC_ATTR_QP_CCPROF, with the checks of create, in RESET or INIT;
	 * or its PSN ranges (OCP's MPR), MRC_ATTR_QP_MPR_DEST in RESET or
	 * INIT and/or MRC_ATTR_QP_MPR also in RTR. Reply: the QPN, both
	 * profile ids now and before (_PREV), both PSN ranges now.
	 */
	MRC_CMD_QP_BIND,

	__MRC_CMD_MAX,
	MRC_CMD_MAX = __MRC_CMD_MAX - 1
};

enum mrc_genl_attr {
	MRC_ATTR_UNSPEC,
	MRC_ATTR_DEV_NAME,		/* string: RDMA device name */
	MRC_ATTR_DEV_INDEX,		/* u32: RDMA device index */
	MRC_ATTR_NETDEV_NAME,		/* string: underlying netdev */
	MRC_ATTR_NETDEV_IFINDEX,	/* u32 */
	MRC_ATTR_UDP_PORT,		/* u16: UDP port MRC listens on */
	MRC_ATTR_PORT_STATE,		/* u8: enum mrc_genl_port_state */
	MRC_ATTR_ACTIVE_MTU,		/* u32: payload MTU in bytes */
	MRC_ATTR_PAD,			/* padding for 64-bit attributes */

	/* Device (DEV_GET replies; the last three also DEV_SET requests). */
	MRC_ATTR_CTL_API_VERSION,	/* u32: MRC_CTL_API_VERSION */
	MRC_ATTR_DEV_LIMITS,		/* nest: enum mrc_genl_limit_attr */
	MRC_ATTR_DEV_CAPS,		/* u32: MRC_CAP_* (OCP opt_attr bits) */
	MRC_ATTR_DEV_FMT_MODES,		/* u32: BIT(enum mrc_genl_fmt_mode) */
	MRC_ATTR_DEV_EV_MODES,		/* u32: BIT(enum mrc_genl_ev_mode) */
	MRC_ATTR_DEV_CC_ALGS,		/* nest of MRC_ATTR_CC_ALG_ENTRY */
	/* nest: MRC_ATTR_CCPROF (MRC_CCPROF_ALG), MRC_ATTR_CC_ALG_RUNNABLE */
	MRC_ATTR_CC_ALG_ENTRY,
	MRC_ATTR_CC_ALG_RUNNABLE,	/* flag: QPs can run it today */
	MRC_ATTR_DEV_DEFAULT_EVPROF,	/* u64: profile id, must be ONLINE */
	MRC_ATTR_DEV_DEFAULT_CCPROF,	/* u64: profile id, must be ONLINE */
	MRC_ATTR_PORT_ADMIN,		/* u8: enum mrc_genl_port_admin, max 1 */

	/* Any profile. */
	MRC_ATTR_PROF_ID,		/* u64: id, any value */
	MRC_ATTR_PROF_STATE,		/* u8: enum mrc_genl_prof_state, max 2 */
	MRC_ATTR_PROF_NUSERS,		/* u32: QPs (EV/CC) or EV profiles (fmt) */
	MRC_ATTR_PROF_USERS,		/* nest of MRC_ATTR_QPN (<= 64), reply */
	MRC_ATTR_PROF_USERS_MORE,	/* flag: more users than listed */
	MRC_ATTR_QPN,			/* u32: QP number, 1..0xfffffe */

	/* Object nests, each with its own attribute space below. */
	MRC_ATTR_EVFMT,			/* nest: enum mrc_genl_evfmt_attr */
	MRC_ATTR_EVPROF,		/* nest: enum mrc_genl_evprof_attr */
	MRC_ATTR_CCPROF,		/* nest: enum mrc_genl_ccprof_attr */

	/* EV lists (EVPROF_EV_GET/SET, QP_EV_GET, STATS_GET, events). */
	MRC_ATTR_EVS,			/* nest of MRC_ATTR_EV_ENTRY, <= 4096 */
	MRC_ATTR_EV_ENTRY,		/* nest: enum mrc_genl_ev_attr */
	MRC_ATTR_EV_FIRST,		/* u32: index of the first entry here */
	MRC_ATTR_EV_OP,			/* u8: enum mrc_genl_ev_op, max 1 */
	MRC_ATTR_WANT_STATS,		/* flag: add MRC_ATTR_STATS per EV */

	/* Events (MRC_CMD_EV_EVENT): device attrs, QPN, PROF_ID, EV_ENTRY. */
	MRC_ATTR_EV_OLD_STATE,		/* u8: enum mrc_genl_ev_state */
	MRC_ATTR_EV_REASON,		/* u8: enum mrc_genl_ev_reason */
	MRC_ATTR_EV_TIME,		/* u64: CLOCK_REALTIME ns of the change */
	MRC_ATTR_EV_DROPPED,		/* u32: events lost since the last one */

	/* Probes (MRC_CMD_PROBE). */
	MRC_ATTR_PROBE_TIMEOUT_NS,	/* u64: 1000..10000000000, default 1 s */
	MRC_ATTR_PROBE_TCLASS,		/* u8: traffic class (DSCP << 2) */
	MRC_ATTR_PROBES,		/* nest of MRC_ATTR_PROBE_ENTRY, 1..64 */
	MRC_ATTR_PROBE_ENTRY,		/* nest: enum mrc_genl_probe_attr */

	/* Counters (nest: enum mrc_genl_stat, every member u64). */
	MRC_ATTR_STATS,

	/* Who may create QPs on an EV or CC profile (*PROF_NEW, _SET, _GET). */
	MRC_ATTR_PROF_ACCESS,		/* u8: enum mrc_genl_prof_access, max 3 */
	MRC_ATTR_PROF_ACCESS_GID,	/* u32: the group of ACCESS_GROUP */

	/* QP_EV_GET's first message: the QP's congestion control state. */
	MRC_ATTR_QP_CC,			/* nest: enum mrc_genl_qp_cc_attr */

	/* QP_BIND: a QP's profiles, asked for and bound; _PREV: before it. */
	MRC_ATTR_QP_EVPROF,		/* u64: EV profile id */
	MRC_ATTR_QP_CCPROF,		/* u64: CC profile id */
	MRC_ATTR_QP_EVPROF_PREV,	/* u64, reply */
	MRC_ATTR_QP_CCPROF_PREV,	/* u64, reply */
	/* QP_BIND: PSN ranges, in units of MRC_QP_MPR_UNIT PSNs, 1..MAX. */
	MRC_ATTR_QP_MPR,		/* u8: as requester, sent unacked */
	MRC_ATTR_QP_MPR_DEST,		/* u8: as responder, accepted ahead */

	__MRC_ATTR_MAX,
	MRC_ATTR_MAX = __MRC_ATTR_MAX - 1
};

/* Same values as enum ibv_port_state. */
enum mrc_genl_port_state {
	MRC_PORT_STATE_DOWN = 1,
	MRC_PORT_STATE_ACTIVE = 4,
};

/* OCP mrc_ctl_port_admin_state values. A disabled port reads DOWN. */
enum mrc_genl_port_admin {
	MRC_PORT_ADMIN_DISABLED = 0,
	MRC_PORT_ADMIN_ENABLED = 1,
};

/* OCP mrc_ctl_profile_state values; moves are one step at a time. */
enum mrc_genl_prof_state {
	MRC_PROF_INIT = 0,
	MRC_PROF_OFFLINE = 1,
	MRC_PROF_ONLINE = 2,
};

/*
 * Who may create a QP on an EV or CC profile, checked at create_qp (EPERM
 * when refused). CAP_NET_ADMIN over the device's network namespace
 * passes every rule; QPs the kernel creates are not checked.
 */
enum mrc_genl_prof_access {
	MRC_PROF_ACCESS_IF_DEFAULT = 0,	/* OPEN while the device default, else ADMIN */
	MRC_PROF_ACCESS_OPEN = 1,	/* every user of the device */
	MRC_PROF_ACCESS_ADMIN = 2,	/* CAP_NET_ADMIN only */
	MRC_PROF_ACCESS_GROUP = 3,	/* members of MRC_ATTR_PROF_ACCESS_GID */
};

/* Capabilities: the bit numbers of OCP's mrc_ctl_attr_opt. */
#define MRC_CAP_EV_PROFILE_MODIFY_ONLINE	0x1	/* not set */
#define MRC_CAP_CC_PROFILE_MODIFY_ONLINE	0x2	/* not set */
#define MRC_CAP_EV_EVENT			0x4
#define MRC_CAP_EV_EXPLICIT_RANGE		0x8	/* not set */
#define MRC_CAP_EV_EVENT_PRECISE_DROP_CNT	0x10
#define MRC_CAP_EP_OP_EV_PROBE			0x20

/*
 * Enum values below are bit numbers; OCP's values are 1 << value, so the
 * OCP library converts with BIT() and ffs().
 */
enum mrc_genl_fmt_mode {
	MRC_FMT_STEV = 0,	/* flow label + UDP source port, <= 32 bits */
	MRC_FMT_SRV6 = 1,	/* SRv6 address (+ SRH segment), <= 256 bits */
	MRC_FMT_UDP = 2,	/* UDP source port, <= 16 bits */
};

enum mrc_genl_ev_mode {
	MRC_EV_MODE_AUTO = 0,	/* kernel-chosen ports (built-in profile 0) */
	MRC_EV_MODE_EXPLICIT = 1,
	MRC_EV_MODE_GENERATED = 2,
};

enum mrc_genl_ev_state {
	MRC_GENL_EV_GOOD = 0,
	MRC_GENL_EV_ASSUMED_BAD = 1,
	MRC_GENL_EV_DENIED = 2,
	MRC_GENL_EV_UNKNOWN = 31,	/* profile EV with no user QP */
};

/* Why an EV changed state (MRC_ATTR_EV_REASON). */
enum mrc_genl_ev_reason {
	MRC_EV_REASON_LOSS_GAP,		/* per-EV sequence gap */
	MRC_EV_REASON_LOSS_SACK,	/* SACK holes past the reorder window */
	MRC_EV_REASON_LOSS_READ,	/* READ response gap */
	MRC_EV_REASON_LOSS_TIMEOUT,	/* retransmission timer */
	MRC_EV_REASON_PROBE_OK,		/* enough probe replies in a row */
	MRC_EV_REASON_READMIT,		/* readmitted to keep min_active */
	MRC_EV_REASON_ADMIN_DENY,
	MRC_EV_REASON_ADMIN_UNDENY,
	MRC_EV_REASON_LOSS_UNDONE,	/* the loss was spurious: GOOD again */
	MRC_EV_REASON_LOSS_PROBE,	/* a tail loss probe answered, not the original */
};

enum mrc_genl_ev_op {
	MRC_EV_OP_REPLACE = 0,		/* EV_VALUE/INDEX -> EV_NEW_VALUE */
	/* EV_VALUE/INDEX -> EV_STATE: DENIED, or GOOD to un-deny */
	MRC_EV_OP_SET_STATE = 1,
};

/* Inside MRC_ATTR_DEV_LIMITS; all u32 (OCP mrc_ctl_device_attr). */
enum mrc_genl_limit_attr {
	MRC_LIMIT_UNSPEC,
	MRC_LIMIT_FMT_PROFILES,		/* ev_max_fmt_profiles (64) */
	MRC_LIMIT_EV_PROFILES,		/* ev_max_profiles (256) */
	/* not reported: MRC has no device-wide EV limit */
	MRC_LIMIT_EV_COUNT,		/* ev_max_count */
	MRC_LIMIT_EV_FREE,		/* ev_free_count */
	MRC_LIMIT_EV_PER_PROFILE,	/* ev_max_count_profile (4096) */
	MRC_LIMIT_EV_COUNT_ALIGN,	/* ev_count_align (1) */
	MRC_LIMIT_EV_WIDTH,		/* ev_max_width (32) */
	MRC_LIMIT_EV_OP_ENTRIES,	/* ev_op_max_entries (4096) */
	MRC_LIMIT_CC_PROFILES,		/* cc_max_profiles (64) */
	MRC_LIMIT_PORT_MASK,		/* phy_port_mask (0x1) */
	__MRC_LIMIT_MAX,
	MRC_LIMIT_MAX = __MRC_LIMIT_MAX - 1
};

/* Inside MRC_ATTR_EVFMT. */
enum mrc_genl_evfmt_attr {
	MRC_EVFMT_UNSPEC,
	MRC_EVFMT_MODE,			/* u8: enum mrc_genl_fmt_mode, max 2 */
	MRC_EVFMT_FIELDS,		/* nest of MRC_EVFMT_FIELD_WIDTH, 1..16 */
	MRC_EVFMT_FIELD_WIDTH,		/* u8: 1..128 bits; sum vs mode: code */
	__MRC_EVFMT_MAX,
	MRC_EVFMT_MAX = __MRC_EVFMT_MAX - 1
};

/* Inside MRC_ATTR_EVPROF. */
enum mrc_genl_evprof_attr {
	MRC_EVPROF_UNSPEC,
	/* u8: enum mrc_genl_ev_mode; 1..2 in requests (AUTO is built in) */
	MRC_EVPROF_MODE,
	MRC_EVPROF_FMT_ID,		/* u64: an ONLINE EV format profile */
	MRC_EVPROF_COUNT,		/* u32: 0..4096 (0 = generated product) */
	MRC_EVPROF_MIN_ACTIVE,		/* u32: 0..4096, <= count: code */
	/* u32: BIT(GOOD) | BIT(ASSUMED_BAD) of enum mrc_genl_ev_state */
	MRC_EVPROF_EVENT_MASK,
	MRC_EVPROF_FIELDS,		/* nest of MRC_EVPROF_FIELD, 1..16 */
	MRC_EVPROF_FIELD,		/* nest: enum mrc_genl_evfield_attr */
	MRC_EVPROF_NDENIED,		/* u32, reply: EVs DENIED */
	MRC_EVPROF_NBAD,		/* u32, reply: EVs ASSUMED_BAD on any QP */
	__MRC_EVPROF_MAX,
	MRC_EVPROF_MAX = __MRC_EVPROF_MAX - 1
};

/* Inside MRC_EVPROF_FIELD; all u32 (OCP mrc_ctl_ev_field). */
enum mrc_genl_evfield_attr {
	MRC_EVFIELD_UNSPEC,
	MRC_EVFIELD_WIDTH,		/* 1..32; <= format field width: code */
	MRC_EVFIELD_INIT,		/* < 2^width: code */
	MRC_EVFIELD_MIN,		/* <= max: code */
	MRC_EVFIELD_MAX,		/* < 2^popcount(mask): code */
	MRC_EVFIELD_MASK,		/* inside width: code */
	__MRC_EVFIELD_MAX,
	MRC_EVFIELD_MAX_ATTR = __MRC_EVFIELD_MAX - 1
};

/* Inside MRC_ATTR_EV_ENTRY. */
enum mrc_genl_ev_attr {
	MRC_EV_UNSPEC,
	MRC_EV_INDEX,			/* u32: 0..4095 */
	/*
	 * binary: STEV, UDP: the compact EV, big-endian, 4 bytes; SRV6: the
	 * route, a uSID container (16 bytes) or a segment list of two (32)
	 */
	MRC_EV_VALUE,
	MRC_EV_PORT,			/* u8: 1 (the only port) */
	MRC_EV_NEW_VALUE,		/* binary, as MRC_EV_VALUE (REPLACE) */
	MRC_EV_NEW_PORT,		/* u8: 1 */
	MRC_EV_STATE,			/* u8: enum mrc_genl_ev_state */
	MRC_EV_FLAGS,			/* u32: MRC_EV_F_* mask */
	MRC_EV_WIRE_SPORT,		/* u16, reply: UDP source port sent */
	MRC_EV_WIRE_FLOW_LABEL,		/* u32, reply: IPv6 flow label sent */
	MRC_EV_BAD_QPS,			/* u32, reply: user QPs holding it BAD */
	MRC_EV_STATE_TIME,		/* u64, reply: last change, REALTIME ns */
	MRC_EV_SRTT_NS,			/* u64, reply */
	MRC_EV_MIN_RTT_NS,		/* u64, reply */
	MRC_EV_WIRE_IFINDEX,		/* u32, reply: SRV6 uplink (the plane) */
	__MRC_EV_MAX,
	MRC_EV_MAX = __MRC_EV_MAX - 1
};

#define MRC_EV_F_ALL_COPIES	0x1	/* REPLACE every copy */

/* Inside MRC_ATTR_CCPROF. */
enum mrc_genl_ccprof_attr {
	MRC_CCPROF_UNSPEC,
	/* string, at most 31 bytes: "mrc-window" or "uet-1.0-nscc" */
	MRC_CCPROF_ALG,
	MRC_CCPROF_PARAMS,		/* nest: enum mrc_genl_cc_param */
	__MRC_CCPROF_MAX,
	MRC_CCPROF_MAX = __MRC_CCPROF_MAX - 1
};

/*
 * CC parameters. Units in the names; Q16 means unsigned 16.16 fixed
 * point (value * 65536). NSCC names follow OCP's mrc_ctl_cc_nscc_cfg;
 * ranges are ours (OCP gives none). A parameter of another algorithm is
 * EINVAL with extack naming it.
 */
enum mrc_genl_cc_param {
	MRC_CC_UNSPEC,
	/* uet-1.0-nscc */
	MRC_CC_NSCC_DISABLE_QA,		/* u8: 0..1 */
	MRC_CC_NSCC_ADJUST_BYTES,	/* u32: 1..2^31 bytes */
	MRC_CC_NSCC_ADJUST_PERIOD_NS,	/* u32: 1..u32 max */
	MRC_CC_NSCC_BASE_RTT_NS,	/* u32: 1..u32 max */
	MRC_CC_NSCC_ETA_Q16,		/* u32: 1..2^31-1 */
	MRC_CC_NSCC_FI_Q16,		/* u32: 1..2^31-1 */
	MRC_CC_NSCC_FI_SCALE_Q16,	/* u32: 1..2^31-1 */
	MRC_CC_NSCC_GAMMA_Q16,		/* u32: 1..65536 (0 < gamma <= 1) */
	MRC_CC_NSCC_MAX_MD_JUMP_Q16,	/* u32: 1..65536 */
	MRC_CC_NSCC_MAX_CWND,		/* u32: 4096..2^31 bytes */
	MRC_CC_NSCC_QA_GATE,		/* u8: 0..31 (a shift) */
	MRC_CC_NSCC_QA_THRESHOLD_NS,	/* u32: 1..u32 max */
	MRC_CC_NSCC_TARGET_DELAY_NS,	/* u32: 1..u32 max */
	/* mrc-window (today's algorithm, core/mrc_cwnd.h) */
	MRC_CC_WIN_INIT_PKTS,		/* u32: 1..65536, default 32 */
	MRC_CC_WIN_MIN_PKTS,		/* u32: 1..65536 <= init, default 8 */
	MRC_CC_WIN_QDELAY_TARGET_NS,	/* u32: 1000..1000000000, ~8 ms */
	__MRC_CC_MAX,
	MRC_CC_MAX = __MRC_CC_MAX - 1
};

/* Inside MRC_ATTR_PROBE_ENTRY. */
enum mrc_genl_probe_attr {
	MRC_PROBE_UNSPEC,
	MRC_PROBE_REQ_ID,		/* u16: caller's id, unique per call */
	MRC_PROBE_SGID_INDEX,		/* u32: 0..127; default: first of DGID's kind */
	MRC_PROBE_DGID,			/* binary: exactly 16 bytes */
	MRC_PROBE_FMT_MODE,		/* u8: enum mrc_genl_fmt_mode */
	/* binary: STEV/UDP 4 (expanded EV, wire value); SRV6 16 or 32 */
	MRC_PROBE_EV_VALUE,
	MRC_PROBE_PROF_ID,		/* u64: instead of the value: a profile */
	MRC_PROBE_EV_INDEX,		/*  u32: and its EV index */
	MRC_PROBE_RTT_NS,		/* u64, reply */
	MRC_PROBE_PORT,			/* u8, reply: port it came back on */
	MRC_PROBE_TIMED_OUT,		/* flag, reply */
	__MRC_PROBE_MAX,
	MRC_PROBE_MAX = __MRC_PROBE_MAX - 1
};

/*
 * Inside MRC_ATTR_QP_CC, a snapshot. Both algorithms report the window;
 * NSCC also its delays and the bytes acknowledged with and without CE.
 */
enum mrc_genl_qp_cc_attr {
	MRC_QP_CC_UNSPEC,
	MRC_QP_CC_PAD,
	MRC_QP_CC_ALG,			/* string: MRC_CCPROF_ALG's names */
	MRC_QP_CC_PROFILE,		/* u64: the CC profile's id */
	MRC_QP_CC_CWND_PKTS,		/* u32: window, packets */
	MRC_QP_CC_CWND_BYTES,		/* u32: window, bytes */
	MRC_QP_CC_SRTT_NS,		/* u64: smoothed RTT of the timer */
	MRC_QP_CC_BASE_RTT_NS,		/* u32, NSCC: lowest RTT seen */
	MRC_QP_CC_DELAY_NS,		/* u32, NSCC: last queueing delay */
	MRC_QP_CC_AVG_DELAY_NS,		/* u32, NSCC: its moving average */
	MRC_QP_CC_ACKED_BYTES,		/* u64, NSCC: acknowledged, all time */
	MRC_QP_CC_ECN_BYTES,		/* u64, NSCC: of them, CE-marked */
	MRC_QP_CC_QA_CUTS,		/* u32, NSCC: QuickAdapt cuts */
	MRC_QP_CC_MD_CUTS,		/* u32, NSCC: multiplicative decreases */
	__MRC_QP_CC_MAX,
	MRC_QP_CC_MAX = __MRC_QP_CC_MAX - 1
};

/* Inside MRC_ATTR_STATS; every member u64 (nla_put_u64_64bit). */
enum mrc_genl_stat {
	MRC_STAT_A_UNSPEC,
	MRC_STAT_A_PAD,
	MRC_STAT_A_TX_PKTS,		/* every packet sent on the EV */
	MRC_STAT_A_TX_BYTES,		/* IP bytes (IP + UDP + MRC + payload) */
	MRC_STAT_A_TX_DATA_BYTES,	/* payload of first transmissions */
	MRC_STAT_A_RETX_PKTS,
	MRC_STAT_A_RETX_BYTES,
	MRC_STAT_A_TX_ACKS,		/* ACK/SACK/NACK sent on the EV */
	MRC_STAT_A_TX_PROBES,
	MRC_STAT_A_PROBE_REPLIES,
	MRC_STAT_A_RX_PKTS,		/* received carrying this EV index */
	MRC_STAT_A_RX_BYTES,
	MRC_STAT_A_DELIVERED_PKTS,	/* acknowledgments crediting it */
	MRC_STAT_A_LOSS_GAP,
	MRC_STAT_A_LOSS_SACK,
	MRC_STAT_A_LOSS_READ,
	MRC_STAT_A_LOSS_TIMEOUT,
	MRC_STAT_A_ECN_MARKS,
	MRC_STAT_A_TRIMS,		/* trim NACKs for packets sent on it */
	MRC_STAT_A_QDELAY_PENALTIES,
	MRC_STAT_A_STATE_CHANGES,
	MRC_STAT_A_LOSS_PROBE,		/* losses a tail loss probe's answer found */
	__MRC_STAT_A_MAX,
	MRC_STAT_A_MAX = __MRC_STAT_A_MAX - 1
};

#endif /* MRC_GENL_USER_H */
