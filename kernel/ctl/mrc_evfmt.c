// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * EV format profiles: how an EV's bits are laid out in a packet. STEV
 * (IPv6 flow label and UDP source port, up to 32 bits), UDP (source port,
 * up to 16 bits) and SRV6 (an SRv6 address and optionally one SRH
 * segment, up to 256 bits; accepted now, sent once net/ speaks SRv6).
 * A format is only a mode and the widths of its fields. This file is the
 * model; its netlink is mrc_genl_evfmt.c.
 */
#include "ctl/mrc_prof.h"

/* core/ cannot include the uapi header; its modes carry the same values. */
static_assert((int)MRC_EVFMT_STEV == (int)MRC_FMT_STEV);
static_assert((int)MRC_EVFMT_SRV6 == (int)MRC_FMT_SRV6);
static_assert((int)MRC_EVFMT_UDP == (int)MRC_FMT_UDP);
static_assert(MRC_EVFMT_FIELDS_MAX == MRC_CTL_FMT_FIELDS_MAX);

/**
 * mrc_evfmt_check() - whether a format is valid, and why not
 * @f: the format
 * @bad: set to the index of the field at fault, or -1 for the whole
 * @why: set to why it is refused
 *
 * Return: 0, or what mrc_evgen_check_fmt() refuses it with.
 */
int mrc_evfmt_check(const struct mrc_evgen_fmt *f, int *bad, const char **why)
{
	int err;

	*bad = -1;
	err = mrc_evgen_check_fmt(f, bad);
	if (!err)
		return 0;
	if (!f->nfields)
		*why = "a format needs a field";
	else if (err == -E2BIG && *bad == MRC_EVFMT_FIELDS_MAX)
		*why = "more than 16 format fields";
	else
		*why = "fields are wider than the mode allows (stev 32, udp 16, srv6 256 bits)";
	return err;
}

/**
 * mrc_evfmt_may_change() - whether a format's mode or fields may change
 * @fmt: the format
 * @why: set to why not
 *
 * Return: 0, or -EBUSY while it is ONLINE.
 */
int mrc_evfmt_may_change(const struct mrc_evfmt *fmt, const char **why)
{
	if (fmt->p.state == MRC_PROF_ONLINE) {
		*why = "EV format is ONLINE: take it offline to change it";
		return -EBUSY;
	}
	return 0;
}

/**
 * mrc_evfmt_set_mode() - give a format its mode; what leaves INIT
 * @fmt: a private copy of the format
 * @mode: enum mrc_evgen_mode, checked by the caller
 *
 * Fields already set must still fit: mrc_evfmt_check() says.
 */
void mrc_evfmt_set_mode(struct mrc_evfmt *fmt, u8 mode)
{
	fmt->f.mode = mode;
	if (fmt->p.state == MRC_PROF_INIT)
		fmt->p.state = MRC_PROF_OFFLINE;
}

/**
 * mrc_evfmt_may_set_fields() - whether a format may take fields
 * @fmt: the format, after its mode if the request gave one
 * @why: set to why not
 *
 * Return: 0, or -EINVAL before it has a mode.
 */
int mrc_evfmt_may_set_fields(const struct mrc_evfmt *fmt, const char **why)
{
	if (fmt->p.state == MRC_PROF_INIT) {
		*why = "fields need a mode: set mode first";
		return -EINVAL;
	}
	return 0;
}

/**
 * mrc_evfmt_set_widths() - give a format its fields
 * @fmt: a private copy of the format, past mrc_evfmt_may_set_fields()
 * @width: @n field widths, most significant field first
 * @n: at most MRC_EVFMT_FIELDS_MAX
 * @bad: set to the index of the field at fault
 * @why: set to why they are refused
 *
 * Return: 0, or what mrc_evfmt_check() refuses the fields with (then
 * @fmt is unchanged).
 */
int mrc_evfmt_set_widths(struct mrc_evfmt *fmt, const u8 *width,
			 unsigned int n, int *bad, const char **why)
{
	struct mrc_evgen_fmt f = { .mode = fmt->f.mode, .nfields = n };
	int err;

	memcpy(f.width, width, n * sizeof(*width));
	err = mrc_evfmt_check(&f, bad, why);
	if (!err)
		fmt->f = f;
	return err;
}

static int mrc_evfmt_can_online(const struct mrc_prof *prof, const char **why)
{
	const struct mrc_evfmt *fmt = container_of(prof, struct mrc_evfmt, p);

	if (!fmt->f.nfields) {
		*why = "EV format has no fields: set them before online";
		return -EINVAL;
	}
	return 0;
}

static void mrc_evfmt_reset(struct mrc_prof *prof)
{
	struct mrc_evfmt *fmt = container_of(prof, struct mrc_evfmt, p);

	memset(&fmt->f, 0, sizeof(fmt->f));
}

static int mrc_evfmt_busy(struct mrc_ctl_dev *ctl, const struct mrc_prof *prof,
			  const char **why)
{
	if (prof->nusers) {
		*why = "EV format is used by EV profiles";
		return -EBUSY;
	}
	return 0;
}

static struct xarray *mrc_evfmt_xa(struct mrc_ctl_dev *ctl)
{
	return &ctl->fmt_xa;
}

const struct mrc_prof_kind mrc_evfmt_kind = {
	.name = "EV format",
	.max = MRC_FMT_PROFILES_MAX,
	.size = sizeof(struct mrc_evfmt),
	.xa = mrc_evfmt_xa,
	.can_online = mrc_evfmt_can_online,
	.reset = mrc_evfmt_reset,
	.busy = mrc_evfmt_busy,
};

/**
 * mrc_evfmt_builtin() - make format 0: UDP, one 16-bit field, ONLINE
 * @fmt: a zeroed profile
 *
 * The format of the built-in AUTO EV profile: EVs are UDP source ports.
 */
void mrc_evfmt_builtin(struct mrc_evfmt *fmt)
{
	fmt->p.id = 0;
	fmt->f.mode = MRC_FMT_UDP;
	fmt->f.nfields = 1;
	fmt->f.width[0] = 16;
	fmt->p.state = MRC_PROF_ONLINE;
}
