// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Addressing: RoCE v2 style GIDs (IPv6, or IPv4-mapped) to the IP
 * addresses MRC packets travel between; address handles for UD and GSI.
 */
#include <linux/random.h>
#include <rdma/ib_addr.h>
#include <rdma/ib_cache.h>

#include "verbs/mrc_verbs.h"
#include "engine/mrc_qp.h"

/**
 * mrc_path_from_ah() - resolve an AH attribute to a packet path
 * @path: filled in (sport is left for the caller)
 * @ah: attribute with a GRH and the source GID's attribute
 *
 * Return: 0, or -EINVAL when the AH is not a RoCE v2 one or mixes IPv4
 * and IPv6.
 */
int mrc_path_from_ah(struct mrc_path *path, const struct rdma_ah_attr *ah)
{
	const struct ib_global_route *grh = rdma_ah_read_grh(ah);
	const struct ib_gid_attr *sgid_attr = grh->sgid_attr;
	union {
		struct sockaddr_in v4;
		struct sockaddr_in6 v6;
	} dst, src;

	if (!(rdma_ah_get_ah_flags(ah) & IB_AH_GRH) || !sgid_attr)
		return -EINVAL;
	if (sgid_attr->gid_type != IB_GID_TYPE_ROCE_UDP_ENCAP)
		return -EINVAL;

	rdma_gid2ip((struct sockaddr *)&dst, &grh->dgid);
	rdma_gid2ip((struct sockaddr *)&src, &sgid_attr->gid);
	if (dst.v4.sin_family != src.v4.sin_family)
		return -EINVAL;

	path->v4 = dst.v4.sin_family == AF_INET;
	if (path->v4) {
		ipv6_addr_set_v4mapped(dst.v4.sin_addr.s_addr, &path->daddr);
		ipv6_addr_set_v4mapped(src.v4.sin_addr.s_addr, &path->saddr);
	} else {
		path->daddr = dst.v6.sin6_addr;
		path->saddr = src.v6.sin6_addr;
	}
	path->tclass = grh->traffic_class;
	path->hop_limit = grh->hop_limit ? grh->hop_limit : 64;
	path->flow_label = grh->flow_label;
	return 0;
}

/*
 * A user AH gets a number its UD sends name it by (struct mrc_ud_dest):
 * the SQ slot is the program's memory, where a pointer could not be
 * trusted. The engine finds it under the xarray's lock and checks its PD.
 */
static int mrc_ah_number(struct mrc_dev *mdev, struct mrc_ah *ah,
			 struct ib_udata *udata)
{
	struct mrc_create_ah_resp resp = {};
	int err;

	if (udata->outlen < sizeof(resp))
		return -EINVAL;
	err = xa_alloc_bh(&mdev->ah_xa, &ah->num, ah,
			  XA_LIMIT(1, MRC_MAX_QP), GFP_KERNEL_ACCOUNT);
	if (err)
		return err == -EBUSY ? -ENOMEM : err;
	resp.ah_num = ah->num;
	err = ib_copy_to_udata(udata, &resp, sizeof(resp));
	if (err) {
		xa_erase_bh(&mdev->ah_xa, ah->num);
		ah->num = 0;
	}
	return err;
}

/**
 * mrc_create_ah() - ib_device_ops.create_ah
 * @ibah: core-allocated AH
 * @init: the attribute
 * @udata: user data: the response carries the AH's number
 *
 * Return: 0, -EINVAL for an attribute that is not RoCE v2 (a GRH and
 * a source GID of that type, both of one IP family) or a response too
 * short, -ENOMEM when the device holds max_ah user AHs.
 */
int mrc_create_ah(struct ib_ah *ibah, struct rdma_ah_init_attr *init,
		  struct ib_udata *udata)
{
	struct mrc_ah *ah = container_of(ibah, struct mrc_ah, ibah);
	int err;

	err = mrc_path_from_ah(&ah->path, init->ah_attr);
	if (err)
		return err;
	/* Any port in the RoCE v2 entropy range: datagrams need no order. */
	ah->path.sport = cpu_to_be16(IB_ROCE_UDP_ENCAP_VALID_PORT_MIN |
				     (get_random_u32() & 0x3fff));
	if (udata)
		return mrc_ah_number(to_mrc_dev(ibah->device), ah, udata);
	return 0;
}

/**
 * mrc_destroy_ah() - ib_device_ops.destroy_ah
 * @ibah: the AH
 * @flags: RDMA_DESTROY_AH_*
 *
 * A send that looked the AH up copied its path under the xarray's lock:
 * once the number is erased nothing refers to the AH.
 *
 * Return: 0.
 */
int mrc_destroy_ah(struct ib_ah *ibah, u32 flags)
{
	struct mrc_ah *ah = container_of(ibah, struct mrc_ah, ibah);

	if (ah->num)
		xa_erase_bh(&to_mrc_dev(ibah->device)->ah_xa, ah->num);
	return 0;
}
