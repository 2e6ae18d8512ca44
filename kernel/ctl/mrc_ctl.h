/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The control layer: generic netlink, the device list it names devices
 * from, and the counters' report to the RDMA core. Only verbs/ (above)
 * includes this header.
 */
#ifndef MRC_CTL_H
#define MRC_CTL_H

#include "engine/mrc_dev.h"

/* mrc_ctl_dev.c */
int mrc_ctl_dev_alloc(struct mrc_dev *mdev);
void mrc_ctl_dev_free(struct mrc_dev *mdev);

/* mrc_ctl_qp.c; verbs/mrc_params.c makes the limits module parameters */
struct mrc_qp;
extern unsigned short mrc_ev_count;
extern unsigned short mrc_ev_min_active;
extern unsigned int mrc_qp_ev_limit;
int mrc_ctl_qp_bind(struct mrc_dev *mdev, struct mrc_qp *qp,
		    const struct mrc_qp_profile_cmd *cmd);
void mrc_ctl_qp_unbind(struct mrc_dev *mdev, struct mrc_qp *qp);

/* mrc_ctl_qp_mpr.c */
/**
 * struct mrc_qp_mpr - a QP's PSN ranges (OCP's MPR), in PSNs
 * @req: as requester: PSNs outstanding beyond the oldest unacknowledged
 * @dest: as responder: PSNs accepted beyond the cumulative point
 */
struct mrc_qp_mpr {
	u32 req;
	u32 dest;
};

int mrc_ctl_qp_set_mpr(struct mrc_qp *qp, const struct mrc_qp_mpr *want,
		       struct mrc_qp_mpr *now, const char **why, bool *dest);

/* mrc_port.c */
bool mrc_port_is_up(struct mrc_dev *mdev);
void mrc_port_update(struct mrc_dev *mdev);

/* mrc_port_mtu.c */
struct mrc_srv6_routes;
struct mrc_path;
unsigned int mrc_port_payload_mtu(struct mrc_dev *mdev,
				  const struct mrc_srv6_routes *rs,
				  const struct mrc_path *path, unsigned int *seg);
unsigned int mrc_port_active_mtu(struct mrc_dev *mdev);

/* mrc_genl.c */
int mrc_genl_init(void);
void mrc_genl_exit(void);

/* mrc_dev_list.c */
void mrc_dev_list_add(struct mrc_dev *mdev);
void mrc_dev_list_del(struct mrc_dev *mdev);
int mrc_dev_for_each(struct net *net, long *pos,
		     int (*fn)(struct mrc_dev *mdev, void *arg), void *arg);
struct mrc_dev *mrc_dev_get_by_name(const char *name);
struct mrc_dev *mrc_dev_get_by_index(u32 index);

/* mrc_hw_stats.c */
struct rdma_hw_stats *mrc_alloc_hw_port_stats(struct ib_device *ibdev,
					      u32 port_num);
int mrc_get_hw_stats(struct ib_device *ibdev, struct rdma_hw_stats *stats,
		     u32 port, int index);

#endif /* MRC_CTL_H */
