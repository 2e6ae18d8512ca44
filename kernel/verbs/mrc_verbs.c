// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Device-level verbs of the MRC device (device and port queries, user
 * contexts, PDs) and the ops table that names every verb.
 */
#include <linux/random.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_verbs.h>

#include "verbs/mrc_verbs.h"
#include "ctl/mrc_ctl.h"
#include "engine/mrc_dev.h"
#include "engine/mrc_obj.h"
#include "engine/mrc_qp.h"
#include "engine/mrc_stats.h"
#include "net/mrc_net.h"

static bool mrc_udata_in_clear(struct ib_udata *udata)
{
	/* No driver input is defined yet; reserve it by demanding zeros. */
	return !udata || !udata->inlen ||
	       ib_is_udata_cleared(udata, 0, udata->inlen);
}

/*
 * A software device has no IEEE OUI: 0xffffff says "none", as rdma_rxe
 * does. Consumers tell MRC apart by its driver id, not its vendor.
 */
#define MRC_VENDOR_ID		0xffffff
/* No firmware: version 0.0.0, the same in sysfs as in ibv_query_device. */
#define MRC_FW_VER		0

static int mrc_query_device(struct ib_device *ibdev,
			    struct ib_device_attr *attr, struct ib_udata *uhw)
{
	if (uhw && (uhw->inlen || uhw->outlen))
		return -EINVAL;

	memset(attr, 0, sizeof(*attr));
	attr->vendor_id = MRC_VENDOR_ID;
	attr->fw_ver = MRC_FW_VER;
	attr->sys_image_guid = ibdev->node_guid;
	attr->max_mr_size = MRC_MAX_MR_SIZE;
	attr->page_size_cap = PAGE_SIZE;
	attr->max_qp = MRC_MAX_QP;
	attr->max_qp_wr = MRC_MAX_QP_WR;
	/* Port events come from ctl/mrc_port.c. */
	attr->device_cap_flags = IB_DEVICE_RC_RNR_NAK_GEN |
				 IB_DEVICE_MEM_MGT_EXTENSIONS |
				 IB_DEVICE_MEM_WINDOW |
				 IB_DEVICE_MEM_WINDOW_TYPE_2B |
				 IB_DEVICE_SYS_IMAGE_GUID |
				 IB_DEVICE_PORT_ACTIVE_EVENT;
	attr->max_fast_reg_page_list_len = MRC_MAX_FAST_REG_PAGES;
	attr->max_send_sge = MRC_MAX_SGE;
	attr->max_recv_sge = MRC_MAX_SGE;
	attr->max_sge_rd = MRC_MAX_SGE;
	attr->max_cq = MRC_MAX_CQ;
	attr->max_cqe = MRC_MAX_CQE;
	attr->max_mr = MRC_MAX_MR;
	attr->max_mw = MRC_MAX_MW;
	attr->max_pd = MRC_MAX_PD;
	attr->max_qp_rd_atom = MRC_MAX_RD_ATOMIC;
	attr->max_qp_init_rd_atom = MRC_MAX_RD_ATOMIC;
	attr->max_res_rd_atom = MRC_MAX_RD_ATOMIC * MRC_MAX_QP;
	attr->atomic_cap = IB_ATOMIC_HCA;
	attr->max_srq = MRC_MAX_SRQ;
	attr->max_srq_wr = MRC_MAX_QP_WR;
	attr->max_srq_sge = MRC_MAX_SGE;
	attr->max_ah = MRC_MAX_QP;
	attr->max_pkeys = 1;
	attr->local_ca_ack_delay = 15;
	attr->kernel_cap_flags = IBK_ALLOW_USER_UNREG;
	return 0;
}

/* sysfs fw_ver: what ibv_query_device's fw_ver reads as (major.minor.sub). */
static void mrc_get_dev_fw_str(struct ib_device *ibdev, char *str)
{
	u64 fw = MRC_FW_VER;

	snprintf(str, IB_FW_VERSION_NAME_MAX, "%u.%u.%u",
		 (unsigned int)(fw >> 32) & 0xffff,
		 (unsigned int)(fw >> 16) & 0xffff, (unsigned int)fw & 0xffff);
}

static int mrc_query_port(struct ib_device *ibdev, u32 port_num,
			  struct ib_port_attr *attr)
{
	struct mrc_dev *mdev = to_mrc_dev(ibdev);
	unsigned int mtu = mrc_port_active_mtu(mdev);
	bool up = mrc_port_is_up(mdev);

	/* The core zeroes @attr and validates @port_num before calling. */
	attr->state = up ? IB_PORT_ACTIVE : IB_PORT_DOWN;
	attr->phys_state = up ? IB_PORT_PHYS_STATE_LINK_UP :
				IB_PORT_PHYS_STATE_DISABLED;
	attr->max_vl_num = 1;
	attr->max_mtu = IB_MTU_4096;
	attr->active_mtu = ib_mtu_int_to_enum(mtu);
	attr->gid_tbl_len = MRC_GID_TABLE_LEN;
	attr->pkey_tbl_len = 1;
	attr->max_msg_sz = 1U << 30;
	attr->port_cap_flags = IB_PORT_CM_SUP | IB_PORT_DEVICE_MGMT_SUP;
	/*
	 * The speed is informational: while the netdev is going away the
	 * core can no longer resolve it, and the query must still succeed.
	 */
	if (ib_get_eth_speed(ibdev, port_num, &attr->active_speed,
			     &attr->active_width)) {
		attr->active_speed = IB_SPEED_SDR;
		attr->active_width = IB_WIDTH_1X;
	}
	return 0;
}

static int mrc_get_port_immutable(struct ib_device *ibdev, u32 port_num,
				  struct ib_port_immutable *immutable)
{
	struct ib_port_attr attr = {};
	int err;

	/*
	 * RoCE v2 style: GIDs from the netdev's IP addresses, MADs (for the
	 * connection manager) on QP1 as UD datagrams.
	 */
	immutable->core_cap_flags = RDMA_CORE_PORT_IBA_ROCE_UDP_ENCAP;
	immutable->max_mad_size = IB_MGMT_MAD_SIZE;
	err = ib_query_port(ibdev, port_num, &attr);
	if (err)
		return err;
	immutable->pkey_tbl_len = attr.pkey_tbl_len;
	immutable->gid_tbl_len = attr.gid_tbl_len;
	return 0;
}

static enum rdma_link_layer mrc_get_link_layer(struct ib_device *ibdev,
					       u32 port_num)
{
	return IB_LINK_LAYER_ETHERNET;
}

static int mrc_query_pkey(struct ib_device *ibdev, u32 port_num, u16 index,
			  u16 *pkey)
{
	if (index > 0)
		return -EINVAL;
	*pkey = IB_DEFAULT_PKEY_FULL;
	return 0;
}

static int mrc_alloc_ucontext(struct ib_ucontext *ibuc, struct ib_udata *udata)
{
	return mrc_udata_in_clear(udata) ? 0 : -EINVAL;
}

static void mrc_dealloc_ucontext(struct ib_ucontext *ibuc)
{
}

/*
 * Having this op lets the core remove a device at once, destroying the
 * objects of the programs that use it (our destroy verbs stop each QP's
 * timers and work) instead of waiting for them to close it. Nothing is
 * left to do here: the rings' pages, inserted one by one, stay with the
 * program's mappings until it unmaps them, and no kernel code reaches
 * them any more.
 */
static void mrc_disassociate_ucontext(struct ib_ucontext *ibuc)
{
}

static int mrc_alloc_pd(struct ib_pd *ibpd, struct ib_udata *udata)
{
	if (!mrc_udata_in_clear(udata))
		return -EINVAL;
	return mrc_res_get(to_mrc_dev(ibpd->device), MRC_RES_PD);
}

static int mrc_dealloc_pd(struct ib_pd *ibpd, struct ib_udata *udata)
{
	mrc_res_put(to_mrc_dev(ibpd->device), MRC_RES_PD);
	return 0;
}

/* CQs and SRQs count against the device's limits here, around their verbs. */
static int mrc_create_cq_counted(struct ib_cq *ibcq,
				 const struct ib_cq_init_attr *attr,
				 struct ib_udata *udata)
{
	struct mrc_dev *mdev = to_mrc_dev(ibcq->device);
	int err = mrc_res_get(mdev, MRC_RES_CQ);

	if (err)
		return err;
	err = mrc_create_cq(ibcq, attr, udata);
	if (err)
		mrc_res_put(mdev, MRC_RES_CQ);
	return err;
}

static int mrc_destroy_cq_counted(struct ib_cq *ibcq, struct ib_udata *udata)
{
	mrc_res_put(to_mrc_dev(ibcq->device), MRC_RES_CQ);
	return mrc_destroy_cq(ibcq, udata);
}

static int mrc_create_srq_counted(struct ib_srq *ibsrq,
				  struct ib_srq_init_attr *init,
				  struct ib_udata *udata)
{
	struct mrc_dev *mdev = to_mrc_dev(ibsrq->device);
	int err = mrc_res_get(mdev, MRC_RES_SRQ);

	if (err)
		return err;
	err = mrc_create_srq(ibsrq, init, udata);
	if (err)
		mrc_res_put(mdev, MRC_RES_SRQ);
	return err;
}

static int mrc_destroy_srq_counted(struct ib_srq *ibsrq, struct ib_udata *udata)
{
	mrc_res_put(to_mrc_dev(ibsrq->device), MRC_RES_SRQ);
	return mrc_destroy_srq(ibsrq, udata);
}

static int mrc_enable_driver(struct ib_device *ibdev)
{
	struct mrc_dev *mdev = to_mrc_dev(ibdev);

	mdev->port_active = mrc_port_is_up(mdev);
	mrc_dev_list_add(mdev);
	dev_info(&ibdev->dev, "added on %s, UDP port %u\n",
		 netdev_name(mdev->ndev), mdev->udp_port);
	return 0;
}

/* Also reached from ib_dealloc_device() after a failed registration. */
static void mrc_dealloc_driver(struct ib_device *ibdev)
{
	struct mrc_dev *mdev = to_mrc_dev(ibdev);

	mrc_dev_list_del(mdev);
	mrc_ctl_dev_free(mdev);
	mrc_stats_free(&mdev->stats);
	if (mdev->net) {
		mrc_net_put(mdev->net);
		mdev->net = NULL;
	}
	if (mdev->ndev) {
		netdev_put(mdev->ndev, &mdev->ndev_tracker);
		mdev->ndev = NULL;
	}
}

const struct ib_device_ops mrc_verbs_ops = {
	.owner = THIS_MODULE,
	.driver_id = (enum rdma_driver_id)MRC_DRIVER_ID,
	.uverbs_abi_ver = MRC_UVERBS_ABI_VERSION,

	.alloc_hw_port_stats = mrc_alloc_hw_port_stats,
	.alloc_mr = mrc_alloc_mr,
	.alloc_mw = mrc_alloc_mw,
	.alloc_pd = mrc_alloc_pd,
	.create_ah = mrc_create_ah,
	.create_user_ah = mrc_create_ah,
	.alloc_ucontext = mrc_alloc_ucontext,
	.create_cq = mrc_create_cq_counted,
	.create_qp = mrc_create_qp,
	.create_srq = mrc_create_srq_counted,
	.dealloc_driver = mrc_dealloc_driver,
	.dealloc_mw = mrc_dealloc_mw,
	.dealloc_pd = mrc_dealloc_pd,
	.destroy_ah = mrc_destroy_ah,
	.dealloc_ucontext = mrc_dealloc_ucontext,
	.dereg_mr = mrc_dereg_mr,
	.destroy_cq = mrc_destroy_cq_counted,
	.destroy_qp = mrc_destroy_qp,
	.destroy_srq = mrc_destroy_srq_counted,
	.disassociate_ucontext = mrc_disassociate_ucontext,
	.enable_driver = mrc_enable_driver,
	.fill_res_qp_entry = mrc_mp_fill_res_qp,
	.get_dev_fw_str = mrc_get_dev_fw_str,
	.get_dma_mr = mrc_get_dma_mr,
	.get_hw_stats = mrc_get_hw_stats,
	.get_link_layer = mrc_get_link_layer,
	.get_port_immutable = mrc_get_port_immutable,
	.map_mr_sg = mrc_map_mr_sg,
	.mmap = mrc_mmap,
	.mmap_free = mrc_mmap_free,
	.modify_qp = mrc_modify_qp,
	.modify_srq = mrc_modify_srq,
	.poll_cq = mrc_poll_cq,
	.post_recv = mrc_post_recv,
	.post_send = mrc_post_send,
	.post_srq_recv = mrc_post_srq_recv,
	.query_device = mrc_query_device,
	.query_pkey = mrc_query_pkey,
	.query_port = mrc_query_port,
	.query_qp = mrc_query_qp,
	.query_srq = mrc_query_srq,
	.reg_user_mr = mrc_reg_user_mr,
	.req_notify_cq = mrc_req_notify_cq,
	.resize_cq = mrc_resize_cq,

	INIT_RDMA_OBJ_SIZE(ib_ah, mrc_ah, ibah),
	INIT_RDMA_OBJ_SIZE(ib_cq, mrc_cq, ibcq),
	INIT_RDMA_OBJ_SIZE(ib_mw, mrc_mw, ibmw),
	INIT_RDMA_OBJ_SIZE(ib_pd, mrc_pd, ibpd),
	INIT_RDMA_OBJ_SIZE(ib_qp, mrc_qp, ibqp),
	INIT_RDMA_OBJ_SIZE(ib_srq, mrc_srq, ibsrq),
	INIT_RDMA_OBJ_SIZE(ib_ucontext, mrc_ucontext, ibuc),
};
