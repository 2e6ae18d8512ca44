/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The verbs layer: ib_device_ops, the objects' life cycle, the device and
 * the module entry. Nothing below verbs/ includes this header.
 */
#ifndef MRC_VERBS_H
#define MRC_VERBS_H

#include "engine/mrc_qp.h"

/* mrc_verbs.c */
extern const struct ib_device_ops mrc_verbs_ops;
int mrc_res_get(struct mrc_dev *mdev, enum mrc_res res);
void mrc_res_put(struct mrc_dev *mdev, enum mrc_res res);
int mrc_xa_insert_random(struct xarray *xa, void *entry, u32 min, u32 max,
			 u32 *id);

/* mrc_device.c */
int mrc_newlink(const char *ibdev_name, struct net_device *ndev);
void mrc_dev_netdev_event(struct net_device *ndev, unsigned long event);
int mrc_client_register(void);
void mrc_client_unregister(void);

/* mrc_main.c: module parameters */
extern unsigned short mrc_udp_port;

/* mrc_ring_alloc.c */
int mrc_ring_init(struct mrc_ring *ring, u32 min_slots, u32 slot_size,
		  struct ib_ucontext *uctx, struct mrc_ring_info *info);
void mrc_ring_destroy(struct mrc_ring *ring);
int mrc_mmap(struct ib_ucontext *uctx, struct vm_area_struct *vma);
void mrc_mmap_free(struct rdma_user_mmap_entry *rdma_entry);

/* mrc_ah.c */
int mrc_path_from_ah(struct mrc_path *path, const struct rdma_ah_attr *ah);
int mrc_create_ah(struct ib_ah *ibah, struct rdma_ah_init_attr *init,
		  struct ib_udata *udata);
int mrc_destroy_ah(struct ib_ah *ibah, u32 flags);

/* mrc_cq.c */
int mrc_create_cq(struct ib_cq *ibcq, const struct ib_cq_init_attr *attr,
		  struct ib_udata *udata);
int mrc_destroy_cq(struct ib_cq *ibcq, struct ib_udata *udata);
int mrc_resize_cq(struct ib_cq *ibcq, int cqe, struct ib_udata *udata);
int mrc_poll_cq(struct ib_cq *ibcq, int num_entries, struct ib_wc *wc);
int mrc_req_notify_cq(struct ib_cq *ibcq, enum ib_cq_notify_flags flags);

/* mrc_mr.c */
struct ib_mr *mrc_get_dma_mr(struct ib_pd *ibpd, int access);
struct ib_mr *mrc_reg_user_mr(struct ib_pd *ibpd, u64 start, u64 length,
			      u64 iova, int access, struct ib_udata *udata);
int mrc_dereg_mr(struct ib_mr *ibmr, struct ib_udata *udata);
int mrc_alloc_mw(struct ib_mw *ibmw, struct ib_udata *udata);
int mrc_dealloc_mw(struct ib_mw *ibmw);
struct ib_mr *mrc_alloc_mr(struct ib_pd *ibpd, enum ib_mr_type type,
			   u32 max_num_sg);
int mrc_map_mr_sg(struct ib_mr *ibmr, struct scatterlist *sg, int sg_nents,
		  unsigned int *sg_offset);

/* mrc_srq.c */
int mrc_create_srq(struct ib_srq *ibsrq, struct ib_srq_init_attr *init,
		   struct ib_udata *udata);
int mrc_modify_srq(struct ib_srq *ibsrq, struct ib_srq_attr *attr,
		   enum ib_srq_attr_mask mask, struct ib_udata *udata);
int mrc_query_srq(struct ib_srq *ibsrq, struct ib_srq_attr *attr);
int mrc_destroy_srq(struct ib_srq *ibsrq, struct ib_udata *udata);
int mrc_post_srq_recv(struct ib_srq *ibsrq, const struct ib_recv_wr *wr,
		      const struct ib_recv_wr **bad_wr);

/* mrc_qp_create.c, mrc_qp_attr.c */
int mrc_create_qp(struct ib_qp *ibqp, struct ib_qp_init_attr *init,
		  struct ib_udata *udata);
int mrc_modify_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
		  struct ib_udata *udata);
int mrc_query_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
		 struct ib_qp_init_attr *init);
int mrc_destroy_qp(struct ib_qp *ibqp, struct ib_udata *udata);
int mrc_post_send(struct ib_qp *ibqp, const struct ib_send_wr *wr,
		  const struct ib_send_wr **bad_wr);
int mrc_post_recv(struct ib_qp *ibqp, const struct ib_recv_wr *wr,
		  const struct ib_recv_wr **bad_wr);
#endif /* MRC_VERBS_H */
