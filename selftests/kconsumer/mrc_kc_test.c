// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mrc_kc_test: a test-only kernel consumer that does on purpose what a
 * buggy or hostile one might, on an MRC device (module parameters dev and
 * gid, the GID index of an address the host routes to itself):
 *
 *  1. asks for a fast-registration MR longer than
 *     max_fast_reg_page_list_len, and maps more pages than an MR holds;
 *  2. registers an MR with IB_WR_REG_MR, lets a peer QP WRITE to it,
 *     invalidates it with IB_WR_LOCAL_INV and has the peer WRITE again.
 *
 * The second WRITE must fail with a remote access error and change no
 * byte. Two RC QPs of one device are connected to each other, over the
 * host's loopback. Results are TAP lines in the kernel log, "mrc_kc_test:
 * ok N - ..." or "not ok N - ...", then a "done: P passed, F failed"
 * line; loading fails with -EIO when a case failed, -ENODEV when the
 * device is missing. Built for the VM's stage only, never installed.
 */
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/module.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_verbs.h>

static char *dev_name_param = "mrc0";
module_param_named(dev, dev_name_param, charp, 0444);
MODULE_PARM_DESC(dev, "RDMA device to test (mrc0)");
static int gid_index;
module_param_named(gid, gid_index, int, 0444);
MODULE_PARM_DESC(gid, "GID index of a local address (0)");

#define KC_PAGES	4	/* pages of the MR the WRITEs target */
#define KC_POLL_MS	5000

struct kc {
	struct ib_device *dev;
	struct ib_pd *pd;
	struct ib_cq *cq;
	struct ib_qp *a, *b;	/* a WRITEs to b's MR */
	struct ib_mr *mr;	/* b's fast-registration MR */
	struct page *dst[KC_PAGES];
	struct scatterlist sg[KC_PAGES];
	int nsg;
	void *src;
	u64 src_dma;
	unsigned int passed, failed;
};

static void kc_result(struct kc *t, bool ok, const char *what)
{
	if (ok)
		t->passed++;
	else
		t->failed++;
	pr_info("mrc_kc_test: %sok %u - %s\n", ok ? "" : "not ",
		t->passed + t->failed, what);
}

/* The next completion, polled; -ETIMEDOUT after KC_POLL_MS. */
static int kc_poll(struct kc *t, struct ib_wc *wc)
{
	unsigned long end = jiffies + msecs_to_jiffies(KC_POLL_MS);

	do {
		int n = ib_poll_cq(t->cq, 1, wc);

		if (n)
			return n < 0 ? n : 0;
		usleep_range(100, 200);
	} while (time_before(jiffies, end));
	return -ETIMEDOUT;
}

/* Post @wr on @qp and return its completion's status (or -errno). */
static int kc_run(struct kc *t, struct ib_qp *qp, struct ib_send_wr *wr)
{
	struct ib_wc wc;
	int ret;

	wr->send_flags |= IB_SEND_SIGNALED;
	ret = ib_post_send(qp, wr, NULL);
	if (ret)
		return ret;
	ret = kc_poll(t, &wc);
	if (ret)
		return ret;
	if (wc.wr_id != wr->wr_id)
		return -EPROTO;
	return wc.status;
}

/* RESET -> INIT -> RTR -> RTS towards @peer, over GID @gid_index. */
static int kc_connect(struct kc *t, struct ib_qp *qp, u32 peer)
{
	struct ib_qp_attr attr = {};
	union ib_gid gid;
	int ret;

	attr.qp_state = IB_QPS_INIT;
	attr.port_num = 1;
	attr.qp_access_flags = IB_ACCESS_REMOTE_WRITE;
	ret = ib_modify_qp(qp, &attr, IB_QP_STATE | IB_QP_PKEY_INDEX |
			IB_QP_PORT | IB_QP_ACCESS_FLAGS);
	if (ret)
		return ret;

	ret = rdma_query_gid(t->dev, 1, gid_index, &gid);
	if (ret)
		return ret;
	memset(&attr, 0, sizeof(attr));
	attr.qp_state = IB_QPS_RTR;
	attr.path_mtu = IB_MTU_1024;
	attr.dest_qp_num = peer;
	attr.max_dest_rd_atomic = 1;
	attr.min_rnr_timer = 12;
	attr.ah_attr.type = RDMA_AH_ATTR_TYPE_ROCE;
	rdma_ah_set_port_num(&attr.ah_attr, 1);
	/* The peer is on this host: its GID is ours. */
	rdma_ah_set_grh(&attr.ah_attr, &gid, 0, gid_index, 64, 0);
	ret = ib_modify_qp(qp, &attr, IB_QP_STATE | IB_QP_AV | IB_QP_PATH_MTU |
			IB_QP_DEST_QPN | IB_QP_RQ_PSN |
			IB_QP_MAX_DEST_RD_ATOMIC | IB_QP_MIN_RNR_TIMER);
	if (ret)
		return ret;

	memset(&attr, 0, sizeof(attr));
	attr.qp_state = IB_QPS_RTS;
	attr.timeout = 14;
	attr.retry_cnt = 7;
	attr.rnr_retry = 7;
	attr.max_rd_atomic = 1;
	return ib_modify_qp(qp, &attr, IB_QP_STATE | IB_QP_TIMEOUT |
			 IB_QP_RETRY_CNT | IB_QP_RNR_RETRY | IB_QP_SQ_PSN |
			 IB_QP_MAX_QP_RD_ATOMIC);
}

static struct ib_qp *kc_qp(struct kc *t)
{
	struct ib_qp_init_attr init = {
		.send_cq = t->cq,
		.recv_cq = t->cq,
		.qp_type = IB_QPT_RC,
		.sq_sig_type = IB_SIGNAL_REQ_WR,
		.cap = { .max_send_wr = 8, .max_recv_wr = 1,
			 .max_send_sge = 1, .max_recv_sge = 1 },
	};

	return ib_create_qp(t->pd, &init);
}

/* Case 1: more pages than max_fast_reg_page_list_len, both ways. */
static void kc_too_long(struct kc *t)
{
	u32 max = t->dev->attrs.max_fast_reg_page_list_len;
	struct scatterlist *sg;
	struct ib_mr *mr;
	struct page *pg;
	unsigned int i;
	int n, mapped;

	mr = ib_alloc_mr(t->pd, IB_MR_TYPE_MEM_REG, max + 1);
	kc_result(t, IS_ERR(mr) && PTR_ERR(mr) == -EINVAL,
		  "alloc_mr of max_fast_reg_page_list_len + 1 pages: EINVAL");
	if (!IS_ERR(mr))
		ib_dereg_mr(mr);

	mr = ib_alloc_mr(t->pd, IB_MR_TYPE_MEM_REG, max);
	kc_result(t, !IS_ERR(mr), "alloc_mr of max_fast_reg_page_list_len pages");
	if (IS_ERR(mr))
		return;
	/* One page, max + 1 times: each its own SG entry. */
	pg = alloc_page(GFP_KERNEL);
	sg = kcalloc(max + 1, sizeof(*sg), GFP_KERNEL);
	if (!pg || !sg) {
		kc_result(t, false, "memory for the page list");
		goto out;
	}
	sg_init_table(sg, max + 1);
	for (i = 0; i <= max; i++)
		sg_set_page(&sg[i], pg, PAGE_SIZE, 0);
	n = ib_dma_map_sg(t->dev, sg, max + 1, DMA_BIDIRECTIONAL);
	mapped = n ? ib_map_mr_sg(mr, sg, n, NULL, PAGE_SIZE) : -ENOMEM;
	kc_result(t, mapped == (int)max,
		  "map_mr_sg of max + 1 pages maps max, no more");
	if (n)
		ib_dma_unmap_sg(t->dev, sg, max + 1, DMA_BIDIRECTIONAL);
out:
	kfree(sg);
	if (pg)
		__free_page(pg);
	ib_dereg_mr(mr);
}

/* What the WRITEs target: KC_PAGES pages of @fill each. */
static bool kc_dst_is(struct kc *t, u8 fill)
{
	unsigned int i, j;

	for (i = 0; i < KC_PAGES; i++) {
		const u8 *p = page_address(t->dst[i]);

		for (j = 0; j < PAGE_SIZE; j++)
			if (p[j] != fill)
				return false;
	}
	return true;
}

static void kc_dst_fill(struct kc *t, u8 fill)
{
	unsigned int i;

	for (i = 0; i < KC_PAGES; i++)
		memset(page_address(t->dst[i]), fill, PAGE_SIZE);
}

static int kc_write(struct kc *t)
{
	struct ib_sge sge = {
		.addr = t->src_dma,
		.length = KC_PAGES * PAGE_SIZE,
		.lkey = t->pd->local_dma_lkey,
	};
	struct ib_rdma_wr wr = {
		.wr = { .wr_id = 3, .opcode = IB_WR_RDMA_WRITE,
			.sg_list = &sge, .num_sge = 1 },
		.remote_addr = t->mr->iova,
		.rkey = t->mr->rkey,
	};

	return kc_run(t, t->a, &wr.wr);
}

/* Case 2: a WRITE to a registered MR lands; after LOCAL_INV it cannot. */
static void kc_invalidated(struct kc *t)
{
	struct ib_reg_wr reg = {
		.wr = { .wr_id = 1, .opcode = IB_WR_REG_MR },
		.access = IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE,
	};
	struct ib_send_wr inv = { .wr_id = 2, .opcode = IB_WR_LOCAL_INV };
	int n, ret;

	n = ib_map_mr_sg(t->mr, t->sg, t->nsg, NULL, PAGE_SIZE);
	kc_result(t, n == t->nsg, "map_mr_sg of the target's pages");
	if (n != t->nsg)
		return;
	ib_update_fast_reg_key(t->mr, ib_inc_rkey(t->mr->rkey));
	reg.mr = t->mr;
	reg.key = t->mr->rkey;
	ret = kc_run(t, t->b, &reg.wr);
	kc_result(t, ret == IB_WC_SUCCESS, "IB_WR_REG_MR completes");
	if (ret)
		return;

	kc_dst_fill(t, 0xaa);
	ret = kc_write(t);
	kc_result(t, ret == IB_WC_SUCCESS && kc_dst_is(t, 0x55),
		  "a WRITE to the registered MR lands, every byte");

	kc_dst_fill(t, 0xaa);
	inv.ex.invalidate_rkey = t->mr->rkey;
	ret = kc_run(t, t->b, &inv);
	kc_result(t, ret == IB_WC_SUCCESS, "IB_WR_LOCAL_INV completes");
	ret = kc_write(t);
	kc_result(t, ret == IB_WC_REM_ACCESS_ERR,
		  "a WRITE to the invalidated MR: IB_WC_REM_ACCESS_ERR");
	kc_result(t, kc_dst_is(t, 0xaa),
		  "and not one byte of the invalidated MR changed");
}

static int kc_setup(struct kc *t)
{
	unsigned int i;

	t->pd = ib_alloc_pd(t->dev, 0);
	if (IS_ERR(t->pd))
		return PTR_ERR(t->pd);
	t->cq = ib_alloc_cq(t->dev, NULL, 32, 0, IB_POLL_DIRECT);
	if (IS_ERR(t->cq))
		return PTR_ERR(t->cq);
	t->a = kc_qp(t);
	if (IS_ERR(t->a))
		return PTR_ERR(t->a);
	t->b = kc_qp(t);
	if (IS_ERR(t->b))
		return PTR_ERR(t->b);
	t->mr = ib_alloc_mr(t->pd, IB_MR_TYPE_MEM_REG, KC_PAGES);
	if (IS_ERR(t->mr))
		return PTR_ERR(t->mr);
	sg_init_table(t->sg, KC_PAGES);
	for (i = 0; i < KC_PAGES; i++) {
		t->dst[i] = alloc_page(GFP_KERNEL);
		if (!t->dst[i])
			return -ENOMEM;
		sg_set_page(&t->sg[i], t->dst[i], PAGE_SIZE, 0);
	}
	t->nsg = ib_dma_map_sg(t->dev, t->sg, KC_PAGES, DMA_BIDIRECTIONAL);
	if (!t->nsg)
		return -ENOMEM;
	t->src = kmalloc(KC_PAGES * PAGE_SIZE, GFP_KERNEL);
	if (!t->src)
		return -ENOMEM;
	memset(t->src, 0x55, KC_PAGES * PAGE_SIZE);
	t->src_dma = ib_dma_map_single(t->dev, t->src, KC_PAGES * PAGE_SIZE,
				       DMA_TO_DEVICE);
	if (ib_dma_mapping_error(t->dev, t->src_dma)) {
		t->src_dma = 0;
		return -ENOMEM;
	}
	if (kc_connect(t, t->a, t->b->qp_num) ||
	    kc_connect(t, t->b, t->a->qp_num))
		return -EIO;
	return 0;
}

static void kc_teardown(struct kc *t)
{
	unsigned int i;

	if (t->src_dma)
		ib_dma_unmap_single(t->dev, t->src_dma, KC_PAGES * PAGE_SIZE,
				    DMA_TO_DEVICE);
	kfree(t->src);
	if (t->nsg)
		ib_dma_unmap_sg(t->dev, t->sg, KC_PAGES, DMA_BIDIRECTIONAL);
	for (i = 0; i < KC_PAGES; i++)
		if (t->dst[i])
			__free_page(t->dst[i]);
	if (!IS_ERR_OR_NULL(t->mr))
		ib_dereg_mr(t->mr);
	if (!IS_ERR_OR_NULL(t->b))
		ib_destroy_qp(t->b);
	if (!IS_ERR_OR_NULL(t->a))
		ib_destroy_qp(t->a);
	if (!IS_ERR_OR_NULL(t->cq))
		ib_free_cq(t->cq);
	if (!IS_ERR_OR_NULL(t->pd))
		ib_dealloc_pd(t->pd);
}

static int __init mrc_kc_test_init(void)
{
	struct kc *t;
	int ret;

	t = kzalloc(sizeof(*t), GFP_KERNEL);
	if (!t)
		return -ENOMEM;
	t->dev = ib_device_get_by_name(dev_name_param, RDMA_DRIVER_UNKNOWN);
	if (!t->dev) {
		pr_err("mrc_kc_test: no RDMA device '%s'\n", dev_name_param);
		kfree(t);
		return -ENODEV;
	}
	ret = kc_setup(t);
	kc_result(t, !ret, "PD, CQ, two RC QPs connected to each other, an MR");
	if (!ret) {
		kc_too_long(t);
		kc_invalidated(t);
	} else {
		pr_info("mrc_kc_test: setup failed: %d\n", ret);
	}
	kc_teardown(t);
	ib_device_put(t->dev);
	pr_info("mrc_kc_test: done: %u passed, %u failed\n", t->passed,
		t->failed);
	ret = t->failed ? -EIO : 0;
	kfree(t);
	return ret;
}

static void __exit mrc_kc_test_exit(void)
{
}

module_init(mrc_kc_test_init);
module_exit(mrc_kc_test_exit);
MODULE_DESCRIPTION("Test-only kernel consumer of an MRC device: bad input on purpose");
MODULE_LICENSE("Dual BSD/GPL");
