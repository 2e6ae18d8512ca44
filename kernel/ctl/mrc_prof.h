/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The control plane's per-device objects: EV format, EV and CC profiles
 * (OCP MRC controller API 1.0.1), the device defaults and the port's
 * administrative state. They belong to the device, not to the process
 * that made them, and live until deleted or until the device goes.
 * Internal to ctl/.
 */
#ifndef MRC_PROF_H
#define MRC_PROF_H

#include <linux/mutex.h>
#include <linux/uidgid.h>
#include <linux/xarray.h>

#include "core/mrc_cwnd.h"
#include "core/mrc_ev.h"
#include "core/mrc_evgen.h"
#include "core/mrc_nscc.h"
#include "core/mrc_srv6.h"
#include "uapi/mrc-genl.h"

#define MRC_FMT_PROFILES_MAX	64
#define MRC_EV_PROFILES_MAX	256
#define MRC_CC_PROFILES_MAX	64
#define MRC_CTL_FMT_FIELDS_MAX	16

/**
 * struct mrc_prof_access - who may create QPs on an EV or CC profile
 * @rule: enum mrc_genl_prof_access
 * @gid: the group of MRC_PROF_ACCESS_GROUP; other rules ignore it
 */
struct mrc_prof_access {
	u8 rule;
	kgid_t gid;
};

/* What every profile has; the first member of each kind's struct. */
struct mrc_prof {
	u64 id;
	u8 state;		/* enum mrc_genl_prof_state */
	u32 nusers;		/* QPs (EV/CC profiles) or EV profiles (formats) */
	struct mrc_prof_access access;	/* EV and CC profiles */
};

/**
 * struct mrc_evfmt - an EV format profile
 * @p: id, state, users
 * @f: mode (from OFFLINE on) and field widths (none in INIT), most
 *	significant field first, in core's form
 */
struct mrc_evfmt {
	struct mrc_prof p;
	struct mrc_evgen_fmt f;
};

/**
 * struct mrc_ccprof - a congestion control profile
 * @p: id, state, users
 * @alg: MRC_CC_ALG_*; meaningful from OFFLINE on
 * @param: value of each enum mrc_genl_cc_param of @alg; others zero
 */
struct mrc_ccprof {
	struct mrc_prof p;
	u8 alg;
	u32 param[__MRC_CC_MAX];
};

/**
 * struct mrc_evprof_ev - one EV of an EV profile
 * @compact: the EV as the controller names it (left-aligned, mrc_evgen.h)
 * @flow_label: IPv6 flow label it is sent with
 * @sport: UDP source port it is sent with
 * @port: the device port it is bound to (1)
 * @denied: the controller denied it (OCP DENIED)
 */
struct mrc_evprof_ev {
	u32 compact;
	u32 flow_label;
	u16 sport;
	u8 port;
	u8 denied;
};

/**
 * struct mrc_evprof - an EV profile: which EVs QPs spray over
 * @p: id, state, users
 * @mode: enum mrc_genl_ev_mode
 * @fmt_id: its EV format profile (held from OFFLINE on)
 * @count: EVs asked for (GENERATED; 0: all the fields make)
 * @min_active: GOOD EVs a QP keeps
 * @event_mask: BIT(enum mrc_genl_ev_state) of states that raise events
 * @nfields: entries in @field
 * @field: how compact EVs expand (GENERATED, EXPLICIT)
 * @nev: entries in @ev; the profile's EV count
 * @ev: the EVs; built-in AUTO profile: none (QPs pick ports themselves)
 * @retired: @nev counter blocks of the QPs that used the profile and went
 *	(NULL until the first goes; freed when the EVs change)
 * @srv6: the EVs' source routes (SRV6 format, else NULL), shared with
 *	the profile's copies and the bound QPs
 */
struct mrc_evprof {
	struct mrc_prof p;
	u8 mode;
	u64 fmt_id;
	u32 count;
	u32 min_active;
	u32 event_mask;
	u8 nfields;
	struct mrc_evgen_field field[MRC_EVFMT_FIELDS_MAX];
	u32 nev;
	struct mrc_evprof_ev *ev;
	struct mrc_ev_stats *retired;
	struct mrc_srv6_routes *srv6;
};

/* What a struct mrc_evprof_spec sets; the fields and EVs come after. */
enum {
	MRC_EVPROF_SET_MODE		= BIT(0),
	MRC_EVPROF_SET_FMT		= BIT(1),
	MRC_EVPROF_SET_COUNT		= BIT(2),
	MRC_EVPROF_SET_MIN_ACTIVE	= BIT(3),
	MRC_EVPROF_SET_EVENT_MASK	= BIT(4),
	MRC_EVPROF_SET_FIELDS		= BIT(5),
	MRC_EVPROF_SET_EVS		= BIT(6),
};

/**
 * struct mrc_evprof_spec - what a request changes of an EV profile
 * @config: the request has a configuration (it may set nothing)
 * @set: MRC_EVPROF_SET_* of what it sets, fields and EVs included
 * @mode: enum mrc_genl_ev_mode, with MRC_EVPROF_SET_MODE
 * @fmt_id: the EV format, with MRC_EVPROF_SET_FMT
 * @count: with MRC_EVPROF_SET_COUNT
 * @min_active: with MRC_EVPROF_SET_MIN_ACTIVE
 * @event_mask: with MRC_EVPROF_SET_EVENT_MASK
 */
struct mrc_evprof_spec {
	bool config;
	u32 set;
	u8 mode;
	u64 fmt_id;
	u32 count;
	u32 min_active;
	u32 event_mask;
};

/**
 * struct mrc_evprof_why - why mrc_evprof_derive() refused a configuration
 * @msg: for the requester (a string literal), or NULL (-ENOMEM)
 * @ev: index of the EV at fault in the request's list, or -1
 * @field: index of the EV field at fault, or -1; neither: the whole
 */
struct mrc_evprof_why {
	const char *msg;
	int ev;
	int field;
};

enum mrc_cc_alg {
	MRC_CC_ALG_WINDOW,	/* "mrc-window": the AIMD window, the default */
	MRC_CC_ALG_NSCC,	/* "uet-1.0-nscc": UEC 1.0 NSCC */
	MRC_CC_ALG_COUNT
};

struct mrc_qp;

/**
 * struct mrc_ctl_dev - a device's control-plane state
 * @lock: serialises every change, every dump and every QP bind
 * @mdev: the device
 * @fmt_xa: EV format profiles by id
 * @evp_xa: EV profiles by id
 * @ccp_xa: CC profiles by id
 * @default_evp: id of the EV profile QPs get when they name none
 * @default_ccp: id of the CC profile QPs get when they name none
 * @qps: the device's QPs bound to profiles (struct mrc_qp.ctl_node)
 * @port_admin: enum mrc_genl_port_admin
 * @retired: totals of the QPs that went (`rdma statistic`)
 * @events: EV state changes waiting to be sent (mrc_ev_event.c)
 * @qp_evs: EVs the QPs in @qps hold together (the qp_ev_limit parameter
 *	caps it)
 * @walk_lock: serialises the walks of @qps that sum every QP's per-EV
 *	counters (mrc_hw_stats.c), which drop @lock after each QP
 * @walking: such a walk is under way
 * @walk_gen: number of the current or last walk (struct
 *	mrc_qp.ctl_walk_gen: the walk counted the QP)
 * @walk_next: the QP the walk counts next, NULL at the end of @qps
 * @walk_missed: counters of the QPs that went during the walk before it
 *	reached them
 */
struct mrc_ctl_dev {
	struct mutex lock; /* serialises changes, dumps and QP binds */
	struct mrc_dev *mdev;
	struct xarray fmt_xa;
	struct xarray evp_xa;
	struct xarray ccp_xa;
	u64 default_evp;
	u64 default_ccp;
	struct list_head qps;
	u8 port_admin;
	u64 retired[MRC_EVS_NR];
	struct mrc_ev_events *events;
	u32 qp_evs;
	struct mutex walk_lock; /* serialises walks of @qps without @lock */
	bool walking;
	u32 walk_gen;
	struct mrc_qp *walk_next;
	u64 walk_missed[MRC_EVS_NR];
};

/**
 * struct mrc_prof_kind - what differs between the kinds of profile
 * @name: for messages ("EV format", "CC profile")
 * @max: profiles of this kind a device may hold
 * @size: size of the kind's struct
 * @xa: the device's table of this kind
 * @commit: move the references @old held to what @new holds; either may
 *	be NULL (creation, deletion); cannot fail (optional)
 * @dup: deep-copy what @prof points to into @copy (optional)
 * @release: free what @prof points to (optional)
 * @can_online: whether @prof may go ONLINE (@why says why not)
 * @reset: forget the configuration (back to INIT)
 * @qp_users: which of a bound QP's profiles is of this kind (MRC_PROF_QP_*)
 * @busy: -EBUSY (@why says why) if @prof may not be deleted or taken
 *	offline, else 0
 */
struct mrc_prof_kind {
	const char *name;
	u32 max;
	size_t size;
	struct xarray *(*xa)(struct mrc_ctl_dev *ctl);
	void (*commit)(struct mrc_ctl_dev *ctl, const struct mrc_prof *old,
		       const struct mrc_prof *new);
	int (*dup)(struct mrc_prof *copy, const struct mrc_prof *prof);
	void (*release)(struct mrc_prof *prof);
	int (*can_online)(const struct mrc_prof *prof, const char **why);
	void (*reset)(struct mrc_prof *prof);
	u8 qp_users;
	int (*busy)(struct mrc_ctl_dev *ctl, const struct mrc_prof *prof,
		    const char **why);
};

/* Which profile id of a QP a kind's users are counted by. */
enum {
	MRC_PROF_QP_NONE,
	MRC_PROF_QP_EV,
	MRC_PROF_QP_CC,
};

extern const struct mrc_prof_kind mrc_evfmt_kind;
extern const struct mrc_prof_kind mrc_ccprof_kind;
extern const struct mrc_prof_kind mrc_evprof_kind;

/* the built-in profiles 0 (mrc_evfmt.c, mrc_ccprof.c, mrc_evprof.c) */
void mrc_evfmt_builtin(struct mrc_evfmt *fmt);
void mrc_ccprof_builtin(struct mrc_ccprof *cc);
void mrc_evprof_builtin(struct mrc_evprof *evp);

/* mrc_evfmt.c: the EV format model; its netlink is mrc_genl_evfmt.c */
int mrc_evfmt_check(const struct mrc_evgen_fmt *f, int *bad, const char **why);
int mrc_evfmt_may_change(const struct mrc_evfmt *fmt, const char **why);
void mrc_evfmt_set_mode(struct mrc_evfmt *fmt, u8 mode);
int mrc_evfmt_may_set_fields(const struct mrc_evfmt *fmt, const char **why);
int mrc_evfmt_set_widths(struct mrc_evfmt *fmt, const u8 *width,
			 unsigned int n, int *bad, const char **why);

/* mrc_ccprof.c: the CC profile model; its netlink is mrc_genl_ccprof.c */
const char *mrc_ccprof_alg_name(u8 alg);
bool mrc_ccprof_alg_runnable(u8 alg);
bool mrc_ccprof_param_is_u8(int type);
bool mrc_ccprof_has_param(u8 alg, int type);
int mrc_ccprof_choose_alg(struct mrc_ccprof *cc, const char *name,
			  const char **why);
int mrc_ccprof_may_set_params(const struct mrc_ccprof *cc, const char **why);
int mrc_ccprof_set_param(struct mrc_ccprof *cc, int type, u32 val,
			 const char **why);
int mrc_ccprof_check_params(const struct mrc_ccprof *cc, const char **why);
struct mrc_nscc_params;
void mrc_ccprof_nscc_params(const struct mrc_ccprof *cc,
			    struct mrc_nscc_params *p);

/**
 * struct mrc_ctl_binding - a QP's profiles, checked and built, not yet
 *	the QP's (mrc_ctl_qp_prepare())
 * @evp_id: the EV profile's id
 * @ccp_id: the CC profile's id
 * @evp: the EV profile, ONLINE; valid while ctl->lock is held
 * @ccp: the CC profile, ONLINE; likewise
 * @evs: the QP's new EV table
 * @srv6: a reference on the EV profile's source routes, or NULL
 * @cc_alg: enum mrc_cc_alg of the CC profile
 * @win: its parameters for MRC_CC_ALG_WINDOW
 * @nscc: its parameters for MRC_CC_ALG_NSCC
 * @auto_count: EVs of an AUTO profile (module parameter ev_count)
 * @auto_min_active: its min_active (ev_min_active)
 * @ev_limit: EVs the device's user QPs may hold together (qp_ev_limit)
 */
struct mrc_ctl_binding {
	u64 evp_id;
	u64 ccp_id;
	struct mrc_prof *evp;
	struct mrc_prof *ccp;
	struct mrc_ev_table evs;
	struct mrc_srv6_routes *srv6;
	u8 cc_alg;
	struct mrc_cwnd_params win;
	struct mrc_nscc_params nscc;
	u16 auto_count;
	u16 auto_min_active;
	u32 ev_limit;
};

/**
 * struct mrc_ctl_bind_why - why mrc_ctl_qp_prepare() refused
 * @msg: for the requester, a string literal; NULL for -ENOMEM
 * @kind: MRC_PROF_QP_EV or MRC_PROF_QP_CC: the profile whose id is at
 *	fault; MRC_PROF_QP_NONE: neither
 */
struct mrc_ctl_bind_why {
	const char *msg;
	u8 kind;
};

struct mrc_dev;
struct mrc_qp_profile_cmd;

/* mrc_ctl_qp.c */
struct mrc_qp *mrc_ctl_qp_next(struct mrc_ctl_dev *ctl, struct mrc_qp *qp);
int mrc_ctl_qp_prepare(struct mrc_dev *mdev, const struct mrc_qp *qp,
		       const struct mrc_qp_profile_cmd *ids, u32 own,
		       struct mrc_ctl_binding *b, struct mrc_ctl_bind_why *why);
void mrc_ctl_qp_commit(struct mrc_ctl_dev *ctl, struct mrc_qp *qp,
		       struct mrc_ctl_binding *b);
void mrc_ctl_binding_release(struct mrc_ctl_binding *b);
int mrc_ctl_qp_rebind(struct mrc_dev *mdev, struct mrc_qp *qp,
		      const struct mrc_qp_profile_cmd *ids,
		      struct mrc_qp_profile_cmd *prev,
		      struct mrc_ctl_bind_why *why);

/* mrc_ctl_bound.c */
void mrc_ctl_push_denied(struct mrc_ctl_dev *ctl, const struct mrc_evprof *evp);
int mrc_ctl_evprof_nbad(struct mrc_ctl_dev *ctl, const struct mrc_evprof *evp);

/* mrc_ev_event.c */
struct mrc_dev;
struct mrc_ev_events *mrc_ev_events_alloc(struct mrc_dev *mdev);
void mrc_ev_events_free(struct mrc_ev_events *e);
void mrc_ev_events_init(void);
void mrc_ev_events_exit(void);

/* mrc_evprof.c: the EV profile model; its netlink is mrc_genl_evprof.c */
int mrc_evprof_configure(struct mrc_evprof *evp,
			 const struct mrc_evprof_spec *spec, const char **why);
void mrc_evprof_set_fields(struct mrc_evprof *evp,
			   const struct mrc_evgen_field *f, unsigned int n);
void mrc_evprof_set_explicit(struct mrc_evprof *evp, struct mrc_evprof_ev *ev,
			     u32 nev, struct mrc_srv6_routes *rs);
int mrc_evprof_derive(struct mrc_ctl_dev *ctl, struct mrc_evprof *evp,
		      struct mrc_evprof_why *why);
u32 mrc_evprof_nallowed(const struct mrc_evprof *evp);
void mrc_evprof_set_evs(struct mrc_evprof *evp, struct mrc_evprof_ev *ev,
			u32 nev);
const struct mrc_srv6_route *mrc_evprof_route(const struct mrc_evprof *evp,
					      u32 i);
const char *mrc_evprof_bad_segment(enum mrc_srv6_bad why);

/* mrc_prof.c */
int mrc_prof_set_state(const struct mrc_prof_kind *kind,
		       struct mrc_ctl_dev *ctl, struct mrc_prof *prof,
		       u8 state, const char **why);
struct mrc_prof *mrc_prof_dup(const struct mrc_prof_kind *kind,
			      const struct mrc_prof *prof);
void mrc_prof_free(const struct mrc_prof_kind *kind, struct mrc_prof *prof);
struct mrc_prof *mrc_prof_find(const struct mrc_prof_kind *kind,
			       struct mrc_ctl_dev *ctl, u64 id);
bool mrc_prof_may_bind(const struct mrc_prof *prof, bool is_default,
		       struct user_namespace *ns);
const char *mrc_prof_access_name(u8 rule);

#endif /* MRC_PROF_H */
