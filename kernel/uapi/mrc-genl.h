/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-2-Clause) */
/*
 * Generic netlink family "mrc": the control channel between the mrc
 * driver and mrc-ip / libmrc. Attributes are only ever appended.
 */
#ifndef MRC_GENL_USER_H
#define MRC_GENL_USER_H

#define MRC_GENL_NAME		"mrc"
#define MRC_GENL_VERSION	1

enum mrc_genl_cmd {
	MRC_CMD_UNSPEC,
	/* Read one device (MRC_ATTR_DEV_NAME given) or dump all. */
	MRC_CMD_DEV_GET,

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

	__MRC_ATTR_MAX,
	MRC_ATTR_MAX = __MRC_ATTR_MAX - 1
};

/* Same values as enum ibv_port_state. */
enum mrc_genl_port_state {
	MRC_PORT_STATE_DOWN = 1,
	MRC_PORT_STATE_ACTIVE = 4,
};

#endif /* MRC_GENL_USER_H */
