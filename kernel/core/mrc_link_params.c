// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Link parameters derived from the underlying Ethernet netdev.
 */
#include <linux/kernel.h>
#include <linux/string.h>
#include <asm/byteorder.h>

#include "mrc_link_params.h"

unsigned int mrc_payload_mtu(unsigned int netdev_mtu)
{
	unsigned int room, mtu;

	if (netdev_mtu < MRC_PATH_OVERHEAD + MRC_MIN_PAYLOAD_MTU)
		return 0;

	room = netdev_mtu - MRC_PATH_OVERHEAD;
	for (mtu = MRC_MAX_PAYLOAD_MTU; mtu > MRC_MIN_PAYLOAD_MTU; mtu >>= 1)
		if (mtu <= room)
			break;
	return mtu;
}

unsigned int mrc_link_seg(unsigned int l3_mtu, unsigned int front)
{
	unsigned int seg;

	if (l3_mtu < front + MRC_TRANSPORT_HDR_MAX + MRC_MIN_PAYLOAD_MTU)
		return 0;
	seg = ALIGN_DOWN(l3_mtu - front - MRC_TRANSPORT_HDR_MAX, MRC_SEG_ALIGN);
	return min_t(unsigned int, seg, MRC_SEG_MAX);
}

__be64 mrc_guid_from_mac(const u8 *mac)
{
	u8 eui[8];
	__be64 guid;

	eui[0] = mac[0] ^ 0x02;
	eui[1] = mac[1];
	eui[2] = mac[2];
	eui[3] = 0xff;
	eui[4] = 0xfe;
	eui[5] = mac[3];
	eui[6] = mac[4];
	eui[7] = mac[5];
	memcpy(&guid, eui, sizeof(guid));
	return guid;
}

enum mrc_port_state mrc_port_state_from_netdev(bool admin_up, bool oper_up)
{
	return admin_up && oper_up ? MRC_PORT_ACTIVE : MRC_PORT_DOWN;
}
