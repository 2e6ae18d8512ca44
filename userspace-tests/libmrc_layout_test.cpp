// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// libmrc's headers against the OCP MRC API 1.0.1 ABI: every structure's
// size and alignment, every field's offset and size, every enumerator and
// every macro, and the type of every function. The numbers were measured by compiling a probe
// program against the published headers (OCP-Multipath-Reliable-Connection at 662a150, x86_64, gcc
// 12) and are pinned here, so that CI, which has no network, notices any drift. A mismatch fails
// the build.
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "mrc_ctl.h"

namespace {

// T's field F (a member designator, nested ones included) is at OFF and
// SIZE bytes long.
#define MRC_PIN_FIELD(T, F, OFF, SIZE)                           \
    static_assert(offsetof(T, F) == (OFF), #T "." #F " offset"); \
    static_assert(sizeof(static_cast<T*>(nullptr)->F) == (SIZE), #T "." #F " size")
#define MRC_PIN_STRUCT(T, SIZE, ALIGN)              \
    static_assert(sizeof(T) == (SIZE), #T " size"); \
    static_assert(alignof(T) == (ALIGN), #T " alignment")
#define MRC_PIN_VALUE(NAME, VALUE) static_assert(static_cast<int64_t>(NAME) == (VALUE), #NAME)
// Versions are 32-bit words; compared as such.
#define MRC_PIN_VERSION(NAME, VALUE) static_assert(static_cast<uint32_t>(NAME) == (VALUE), #NAME)

MRC_PIN_STRUCT(struct mrc_device_attr, 20, 4);
MRC_PIN_FIELD(struct mrc_device_attr, mrc_protocol_version, 0, 4);
MRC_PIN_FIELD(struct mrc_device_attr, wimm_attr, 4, 4);
MRC_PIN_FIELD(struct mrc_device_attr, wimm_attr.max_wimm, 4, 2);
MRC_PIN_FIELD(struct mrc_device_attr, wimm_attr.max_wimm_dest, 6, 2);
MRC_PIN_FIELD(struct mrc_device_attr, mpr_attr, 8, 2);
MRC_PIN_FIELD(struct mrc_device_attr, mpr_attr.max_mpr, 8, 1);
MRC_PIN_FIELD(struct mrc_device_attr, mpr_attr.mpr_resolution, 9, 1);
MRC_PIN_FIELD(struct mrc_device_attr, qp_attr, 12, 4);
MRC_PIN_FIELD(struct mrc_device_attr, qp_attr.max_qp_hint, 12, 4);
MRC_PIN_FIELD(struct mrc_device_attr, cap, 16, 4);

MRC_PIN_STRUCT(struct mrc_context_attr, 8, 4);
MRC_PIN_FIELD(struct mrc_context_attr, mrc_api_version_used, 0, 4);
MRC_PIN_FIELD(struct mrc_context_attr, mrc_vendor_api_version_used, 4, 4);

MRC_PIN_STRUCT(struct mrc_qp_hint_attr, 140, 4);
MRC_PIN_FIELD(struct mrc_qp_hint_attr, num_qps_per_peer, 0, 4);
MRC_PIN_FIELD(struct mrc_qp_hint_attr, num_send_peers, 4, 4);
MRC_PIN_FIELD(struct mrc_qp_hint_attr, num_remote_recv_peers, 8, 4);
MRC_PIN_FIELD(struct mrc_qp_hint_attr, vendor_cfg, 12, 128);

MRC_PIN_STRUCT(struct mrc_qp_hint_init_attr, 140, 4);
MRC_PIN_FIELD(struct mrc_qp_hint_init_attr, attr, 0, 140);

MRC_PIN_STRUCT(struct mrc_qp_init_attr, 72, 8);
MRC_PIN_FIELD(struct mrc_qp_init_attr, qp_context, 0, 8);
MRC_PIN_FIELD(struct mrc_qp_init_attr, send_cq, 8, 8);
MRC_PIN_FIELD(struct mrc_qp_init_attr, recv_cq, 16, 8);
MRC_PIN_FIELD(struct mrc_qp_init_attr, cap, 24, 20);
MRC_PIN_FIELD(struct mrc_qp_init_attr, sq_sig_all, 44, 4);
MRC_PIN_FIELD(struct mrc_qp_init_attr, pd, 48, 8);
MRC_PIN_FIELD(struct mrc_qp_init_attr, send_ops_flags, 56, 8);
MRC_PIN_FIELD(struct mrc_qp_init_attr, protocol_version, 64, 4);

MRC_PIN_STRUCT(struct mrc_qp_attr, 176, 8);
MRC_PIN_FIELD(struct mrc_qp_attr, mpr, 0, 2);
MRC_PIN_FIELD(struct mrc_qp_attr, mpr.mpr, 0, 1);
MRC_PIN_FIELD(struct mrc_qp_attr, mpr.mpr_dest, 1, 1);
MRC_PIN_FIELD(struct mrc_qp_attr, wimm, 2, 4);
MRC_PIN_FIELD(struct mrc_qp_attr, wimm.max_wimm, 2, 2);
MRC_PIN_FIELD(struct mrc_qp_attr, wimm.max_wimm_dest, 4, 2);
MRC_PIN_FIELD(struct mrc_qp_attr, timeout, 6, 1);
MRC_PIN_FIELD(struct mrc_qp_attr, profile, 8, 16);
MRC_PIN_FIELD(struct mrc_qp_attr, profile.ev_profile_id, 8, 8);
MRC_PIN_FIELD(struct mrc_qp_attr, profile.cc_profile_id, 16, 8);
MRC_PIN_FIELD(struct mrc_qp_attr, retry, 24, 2);
MRC_PIN_FIELD(struct mrc_qp_attr, retry.linear_cnt, 24, 1);
MRC_PIN_FIELD(struct mrc_qp_attr, retry.exp_cnt, 25, 1);
MRC_PIN_FIELD(struct mrc_qp_attr, qp_hint, 32, 8);
MRC_PIN_FIELD(struct mrc_qp_attr, cap, 40, 4);
MRC_PIN_FIELD(struct mrc_qp_attr, vendor_cfg, 44, 128);

MRC_PIN_STRUCT(struct mrc_async_event, 16, 8);
MRC_PIN_FIELD(struct mrc_async_event, element, 0, 8);
MRC_PIN_FIELD(struct mrc_async_event, element.cq, 0, 8);
MRC_PIN_FIELD(struct mrc_async_event, element.qp, 0, 8);
MRC_PIN_FIELD(struct mrc_async_event, element.port_num, 0, 4);
MRC_PIN_FIELD(struct mrc_async_event, event_type, 8, 4);

MRC_PIN_STRUCT(struct mrc_ctl_device_attr, 72, 8);
MRC_PIN_FIELD(struct mrc_ctl_device_attr, mrc_ctl_protocol_version, 0, 4);
MRC_PIN_FIELD(struct mrc_ctl_device_attr, ev, 4, 40);
MRC_PIN_FIELD(struct mrc_ctl_device_attr, ev.ev_max_fmt_profiles, 4, 4);
MRC_PIN_FIELD(struct mrc_ctl_device_attr, ev.ev_max_profiles, 8, 4);
MRC_PIN_FIELD(struct mrc_ctl_device_attr, ev.ev_max_count, 12, 4);
MRC_PIN_FIELD(struct mrc_ctl_device_attr, ev.ev_free_count, 16, 4);
MRC_PIN_FIELD(struct mrc_ctl_device_attr, ev.ev_max_count_profile, 20, 4);
MRC_PIN_FIELD(struct mrc_ctl_device_attr, ev.ev_count_align, 24, 4);
MRC_PIN_FIELD(struct mrc_ctl_device_attr, ev.ev_max_width, 28, 4);
MRC_PIN_FIELD(struct mrc_ctl_device_attr, ev.ev_fmt_mode_mask, 32, 4);
MRC_PIN_FIELD(struct mrc_ctl_device_attr, ev.ev_mode_mask, 36, 4);
MRC_PIN_FIELD(struct mrc_ctl_device_attr, ev.ev_op_max_entries, 40, 4);
MRC_PIN_FIELD(struct mrc_ctl_device_attr, cc, 48, 16);
MRC_PIN_FIELD(struct mrc_ctl_device_attr, cc.cc_max_profiles, 48, 4);
MRC_PIN_FIELD(struct mrc_ctl_device_attr, cc.algorithms, 56, 8);
MRC_PIN_FIELD(struct mrc_ctl_device_attr, phy_port_mask, 64, 4);
MRC_PIN_FIELD(struct mrc_ctl_device_attr, opt_attr, 68, 4);

MRC_PIN_STRUCT(struct mrc_ctl_port_attr, 4, 4);
MRC_PIN_FIELD(struct mrc_ctl_port_attr, port_admin_state, 0, 4);

MRC_PIN_STRUCT(struct mrc_ctl_ev_fmt_field, 1, 1);
MRC_PIN_FIELD(struct mrc_ctl_ev_fmt_field, width, 0, 1);

MRC_PIN_STRUCT(struct mrc_ctl_ev_fmt_profile_attr, 168, 8);
MRC_PIN_FIELD(struct mrc_ctl_ev_fmt_profile_attr, profile_state, 0, 4);
MRC_PIN_FIELD(struct mrc_ctl_ev_fmt_profile_attr, cur_profile_state, 4, 4);
MRC_PIN_FIELD(struct mrc_ctl_ev_fmt_profile_attr, ev_fmt_mode, 8, 4);
MRC_PIN_FIELD(struct mrc_ctl_ev_fmt_profile_attr, ev_fmt_op, 16, 24);
MRC_PIN_FIELD(struct mrc_ctl_ev_fmt_profile_attr, ev_fmt_op.op, 16, 4);
MRC_PIN_FIELD(struct mrc_ctl_ev_fmt_profile_attr, ev_fmt_op.fmt_fields, 24, 8);
MRC_PIN_FIELD(struct mrc_ctl_ev_fmt_profile_attr, ev_fmt_op.fmt_field_count, 32, 4);
MRC_PIN_FIELD(struct mrc_ctl_ev_fmt_profile_attr, vendor_cfg, 40, 128);

MRC_PIN_STRUCT(struct mrc_ctl_ev, 33, 1);
MRC_PIN_FIELD(struct mrc_ctl_ev, val, 0, 32);
MRC_PIN_FIELD(struct mrc_ctl_ev, port, 32, 1);

MRC_PIN_STRUCT(struct mrc_ctl_ev_field, 20, 4);
MRC_PIN_FIELD(struct mrc_ctl_ev_field, width, 0, 4);
MRC_PIN_FIELD(struct mrc_ctl_ev_field, init_val, 4, 4);
MRC_PIN_FIELD(struct mrc_ctl_ev_field, min_val, 8, 4);
MRC_PIN_FIELD(struct mrc_ctl_ev_field, max_val, 12, 4);
MRC_PIN_FIELD(struct mrc_ctl_ev_field, mask, 16, 4);

MRC_PIN_STRUCT(struct mrc_ctl_ev_op_entry, 76, 4);
MRC_PIN_FIELD(struct mrc_ctl_ev_op_entry, ev, 0, 33);
MRC_PIN_FIELD(struct mrc_ctl_ev_op_entry, ev_new, 33, 33);
MRC_PIN_FIELD(struct mrc_ctl_ev_op_entry, state, 68, 4);
MRC_PIN_FIELD(struct mrc_ctl_ev_op_entry, flags, 72, 4);

MRC_PIN_STRUCT(struct mrc_ctl_ev_profile_attr, 216, 8);
MRC_PIN_FIELD(struct mrc_ctl_ev_profile_attr, profile_state, 0, 4);
MRC_PIN_FIELD(struct mrc_ctl_ev_profile_attr, cur_profile_state, 4, 4);
MRC_PIN_FIELD(struct mrc_ctl_ev_profile_attr, ev_mode, 8, 4);
MRC_PIN_FIELD(struct mrc_ctl_ev_profile_attr, ev_fmt_profile_id, 16, 8);
MRC_PIN_FIELD(struct mrc_ctl_ev_profile_attr, ev_count, 24, 4);
MRC_PIN_FIELD(struct mrc_ctl_ev_profile_attr, ev_min_active, 28, 4);
MRC_PIN_FIELD(struct mrc_ctl_ev_profile_attr, ev_event_mask, 32, 4);
MRC_PIN_FIELD(struct mrc_ctl_ev_profile_attr, ev_op, 40, 24);
MRC_PIN_FIELD(struct mrc_ctl_ev_profile_attr, ev_op.op, 40, 4);
MRC_PIN_FIELD(struct mrc_ctl_ev_profile_attr, ev_op.entries, 48, 8);
MRC_PIN_FIELD(struct mrc_ctl_ev_profile_attr, ev_op.entry_count, 56, 4);
MRC_PIN_FIELD(struct mrc_ctl_ev_profile_attr, ev_fields_op, 64, 24);
MRC_PIN_FIELD(struct mrc_ctl_ev_profile_attr, ev_fields_op.op, 64, 4);
MRC_PIN_FIELD(struct mrc_ctl_ev_profile_attr, ev_fields_op.fields, 72, 8);
MRC_PIN_FIELD(struct mrc_ctl_ev_profile_attr, ev_fields_op.field_count, 80, 4);
MRC_PIN_FIELD(struct mrc_ctl_ev_profile_attr, vendor_cfg, 88, 128);

MRC_PIN_STRUCT(struct mrc_ctl_cc_profile_attr, 152, 8);
MRC_PIN_FIELD(struct mrc_ctl_cc_profile_attr, profile_state, 0, 4);
MRC_PIN_FIELD(struct mrc_ctl_cc_profile_attr, cur_profile_state, 4, 4);
MRC_PIN_FIELD(struct mrc_ctl_cc_profile_attr, algorithm, 8, 8);
MRC_PIN_FIELD(struct mrc_ctl_cc_profile_attr, cc_config, 16, 8);
MRC_PIN_FIELD(struct mrc_ctl_cc_profile_attr, vendor_cfg, 24, 128);

MRC_PIN_STRUCT(struct mrc_ctl_cc_nscc_cfg, 52, 4);
MRC_PIN_FIELD(struct mrc_ctl_cc_nscc_cfg, disable_qa, 0, 1);
MRC_PIN_FIELD(struct mrc_ctl_cc_nscc_cfg, adjust_bytes_threshold, 4, 4);
MRC_PIN_FIELD(struct mrc_ctl_cc_nscc_cfg, adjust_period_threshold, 8, 4);
MRC_PIN_FIELD(struct mrc_ctl_cc_nscc_cfg, base_rtt, 12, 4);
MRC_PIN_FIELD(struct mrc_ctl_cc_nscc_cfg, eta, 16, 4);
MRC_PIN_FIELD(struct mrc_ctl_cc_nscc_cfg, fi, 20, 4);
MRC_PIN_FIELD(struct mrc_ctl_cc_nscc_cfg, fi_scale, 24, 4);
MRC_PIN_FIELD(struct mrc_ctl_cc_nscc_cfg, gamma, 28, 4);
MRC_PIN_FIELD(struct mrc_ctl_cc_nscc_cfg, max_md_jump, 32, 4);
MRC_PIN_FIELD(struct mrc_ctl_cc_nscc_cfg, max_cwnd, 36, 4);
MRC_PIN_FIELD(struct mrc_ctl_cc_nscc_cfg, qa_gate, 40, 1);
MRC_PIN_FIELD(struct mrc_ctl_cc_nscc_cfg, qa_threshold, 44, 4);
MRC_PIN_FIELD(struct mrc_ctl_cc_nscc_cfg, target_delay, 48, 4);

MRC_PIN_STRUCT(struct mrc_ctl_ev_event, 56, 8);
MRC_PIN_FIELD(struct mrc_ctl_ev_event, profile_id, 0, 8);
MRC_PIN_FIELD(struct mrc_ctl_ev_event, ev, 8, 33);
MRC_PIN_FIELD(struct mrc_ctl_ev_event, drop_count, 44, 4);
MRC_PIN_FIELD(struct mrc_ctl_ev_event, state, 48, 4);

MRC_PIN_STRUCT(struct mrc_ctl_ep_req, 88, 8);
MRC_PIN_FIELD(struct mrc_ctl_ep_req, req_id, 0, 2);
MRC_PIN_FIELD(struct mrc_ctl_ep_req, sgid, 8, 16);
MRC_PIN_FIELD(struct mrc_ctl_ep_req, dgid, 24, 16);
MRC_PIN_FIELD(struct mrc_ctl_ep_req, ev_fmt_mode, 40, 4);
MRC_PIN_FIELD(struct mrc_ctl_ep_req, req_ev, 44, 33);
MRC_PIN_FIELD(struct mrc_ctl_ep_req, op, 80, 4);
MRC_PIN_FIELD(struct mrc_ctl_ep_req, op.port_status_update, 80, 4);
MRC_PIN_FIELD(struct mrc_ctl_ep_req, op.port_status_update.port_status, 80, 4);

MRC_PIN_STRUCT(struct mrc_ctl_ep_rsp, 12, 4);
MRC_PIN_FIELD(struct mrc_ctl_ep_rsp, req_id, 0, 2);
MRC_PIN_FIELD(struct mrc_ctl_ep_rsp, port, 2, 1);
MRC_PIN_FIELD(struct mrc_ctl_ep_rsp, rtt, 4, 4);
MRC_PIN_FIELD(struct mrc_ctl_ep_rsp, adj_svc_time, 8, 1);

// Enumerators.
MRC_PIN_VALUE(MRC_PROTOCOL_VERSION_0, 0);
MRC_PIN_VALUE(MRC_PROTOCOL_VERSION_1, 1);
MRC_PIN_VALUE(MRC_DEVICE_CAP_TRIM_NACK, 1);
MRC_PIN_VALUE(MRC_DEVICE_CAP_DYNAMIC_MPR, 2);
MRC_PIN_VALUE(MRC_DEVICE_CAP_SVC_TIME, 4);
MRC_PIN_VALUE(MRC_QP_HINT_NUM_QPS_PER_PEER, 1);
MRC_PIN_VALUE(MRC_QP_HINT_NUM_SEND_PEERS, 2);
MRC_PIN_VALUE(MRC_QP_HINT_NUM_REMOTE_RECV_PEERS, 4);
MRC_PIN_VALUE(MRC_QP_HINT_VENDOR_CFG, INT32_MIN);
MRC_PIN_VALUE(MRC_QP_MAX_WIMM, 1);
MRC_PIN_VALUE(MRC_QP_MAX_WIMM_DEST, 2);
MRC_PIN_VALUE(MRC_QP_MPR, 4);
MRC_PIN_VALUE(MRC_QP_MPR_DEST, 8);
MRC_PIN_VALUE(MRC_QP_TIMEOUT, 16);
MRC_PIN_VALUE(MRC_QP_EV_PROFILE_ID, 32);
MRC_PIN_VALUE(MRC_QP_CC_PROFILE_ID, 64);
MRC_PIN_VALUE(MRC_QP_HINT, 128);
MRC_PIN_VALUE(MRC_QP_RETRY_CNT, 256);
MRC_PIN_VALUE(MRC_QP_CAP, 512);
MRC_PIN_VALUE(MRC_QP_VENDOR_CFG, INT32_MIN);
MRC_PIN_VALUE(MRC_QP_CAP_TRIM_NACK_DEST_UNSUPPORTED, 1);
MRC_PIN_VALUE(MRC_QP_CAP_DYNAMIC_MPR, 2);
MRC_PIN_VALUE(MRC_QP_CAP_SVC_TIME_DEST_UNSUPPORTED, 4);
MRC_PIN_VALUE(MRC_CTL_PROTOCOL_VERSION_0, 0);
MRC_PIN_VALUE(MRC_CTL_PROTOCOL_VERSION_1, 1);
MRC_PIN_VALUE(MRC_CTL_PROFILE_INIT, 0);
MRC_PIN_VALUE(MRC_CTL_PROFILE_OFFLINE, 1);
MRC_PIN_VALUE(MRC_CTL_PROFILE_ONLINE, 2);
MRC_PIN_VALUE(MRC_CTL_OPT_CAP_EV_PROFILE_MODIFY_ONLINE, 1);
MRC_PIN_VALUE(MRC_CTL_OPT_CAP_CC_PROFILE_MODIFY_ONLINE, 2);
MRC_PIN_VALUE(MRC_CTL_OPT_CAP_EV_EVENT, 4);
MRC_PIN_VALUE(MRC_CTL_OPT_CAP_EV_EXPLICIT_RANGE, 8);
MRC_PIN_VALUE(MRC_CTL_OPT_CAP_EV_EVENT_PRECISE_DROP_CNT, 16);
MRC_PIN_VALUE(MRC_CTL_OPT_CAP_EP_OP_EV_PROBE, 32);
MRC_PIN_VALUE(MRC_CTL_PORT_ADMIN_DISABLED, 0);
MRC_PIN_VALUE(MRC_CTL_PORT_ADMIN_ENABLED, 1);
MRC_PIN_VALUE(MRC_CTL_PORT_ADMIN_STATE, 1);
MRC_PIN_VALUE(MRC_CTL_EV_FMT_MODE_STEV, 1);
MRC_PIN_VALUE(MRC_CTL_EV_FMT_MODE_SRV6, 2);
MRC_PIN_VALUE(MRC_CTL_EV_FMT_MODE_UDP, 4);
MRC_PIN_VALUE(MRC_CTL_EV_FMT_OP_MODIFY_FIELDS, 0);
MRC_PIN_VALUE(MRC_CTL_EV_FMT_OP_QUERY_FIELDS, 1);
MRC_PIN_VALUE(MRC_CTL_EV_FMT_PROFILE_STATE, 1);
MRC_PIN_VALUE(MRC_CTL_EV_FMT_PROFILE_CUR_STATE, 2);
MRC_PIN_VALUE(MRC_CTL_EV_FMT_PROFILE_MODE, 4);
MRC_PIN_VALUE(MRC_CTL_EV_FMT_PROFILE_OP, 8);
MRC_PIN_VALUE(MRC_CTL_EV_FMT_VENDOR_CFG, INT32_MIN);
MRC_PIN_VALUE(MRC_CTL_EV_GOOD, 1);
MRC_PIN_VALUE(MRC_CTL_EV_ASSUMED_BAD, 2);
MRC_PIN_VALUE(MRC_CTL_EV_DENIED, 4);
MRC_PIN_VALUE(MRC_CTL_EV_UNKNOWN, INT32_MIN);
MRC_PIN_VALUE(MRC_CTL_EV_MODE_AUTO, 1);
MRC_PIN_VALUE(MRC_CTL_EV_MODE_EXP, 2);
MRC_PIN_VALUE(MRC_CTL_EV_MODE_GEN, 4);
MRC_PIN_VALUE(MRC_CTL_EV_OP_REPLACE_EV, 0);
MRC_PIN_VALUE(MRC_CTL_EV_OP_MODIFY_EV_STATE, 1);
MRC_PIN_VALUE(MRC_CTL_EV_OP_QUERY_EV_STATE, 2);
MRC_PIN_VALUE(MRC_CTL_EV_OP_QUERY_EV_ARRAY, 3);
MRC_PIN_VALUE(MRC_CTL_EV_FIELDS_OP_MODIFY_FIELDS, 0);
MRC_PIN_VALUE(MRC_CTL_EV_FIELDS_OP_QUERY_FIELDS, 1);
MRC_PIN_VALUE(MRC_CTL_EV_PROFILE_STATE, 1);
MRC_PIN_VALUE(MRC_CTL_EV_PROFILE_CUR_STATE, 2);
MRC_PIN_VALUE(MRC_CTL_EV_PROFILE_MODE, 4);
MRC_PIN_VALUE(MRC_CTL_EV_PROFILE_FMT_ID, 8);
MRC_PIN_VALUE(MRC_CTL_EV_PROFILE_COUNT, 16);
MRC_PIN_VALUE(MRC_CTL_EV_PROFILE_MIN_ACTIVE, 32);
MRC_PIN_VALUE(MRC_CTL_EV_PROFILE_EVENT_MASK, 64);
MRC_PIN_VALUE(MRC_CTL_EV_PROFILE_EV_OP, 128);
MRC_PIN_VALUE(MRC_CTL_EV_PROFILE_EV_FIELDS_OP, 256);
MRC_PIN_VALUE(MRC_CTL_EV_PROFILE_VENDOR_CFG, INT32_MIN);
MRC_PIN_VALUE(MRC_CTL_EV_OP_F_ALL_COPIES, 1);
MRC_PIN_VALUE(MRC_CTL_CC_PROFILE_STATE, 1);
MRC_PIN_VALUE(MRC_CTL_CC_PROFILE_CUR_STATE, 2);
MRC_PIN_VALUE(MRC_CTL_CC_PROFILE_ALGORITHM, 4);
MRC_PIN_VALUE(MRC_CTL_CC_PROFILE_CONFIG, 8);
MRC_PIN_VALUE(MRC_CTL_CC_PROFILE_VENDOR_CFG, INT32_MIN);
MRC_PIN_VALUE(MRC_CTL_EP_OP_EV_PROBE, 0);
MRC_PIN_VALUE(MRC_CTL_EP_OP_PORT_STATUS_UPDATE, 1);

// Macros.
MRC_PIN_VALUE(MRC_MAX_VENDOR_CFG_SIZE, 128);
MRC_PIN_VALUE(MRC_CTL_MAX_VENDOR_CFG_SIZE, 128);
MRC_PIN_VALUE(MRC_CTL_EV_MAX_BYTES, 32);
MRC_PIN_VALUE(MRC_API_VER_MAJOR_OFFSET, 24);
MRC_PIN_VALUE(MRC_API_VER_MINOR_OFFSET, 16);
MRC_PIN_VALUE(MRC_API_VER_SUBMINOR_OFFSET, 0);
MRC_PIN_VERSION(MRC_API_VER_LATEST, 0xffffffffu);
MRC_PIN_VERSION(MRC_API_CURRENT_VERSION, 0x01000001u);
MRC_PIN_VERSION(MRC_API_LAST_SUPPORTED_VERSION, 0x00000000u);
MRC_PIN_VERSION(MRC_API_VER_USED, 0x01000001u);
MRC_PIN_VERSION(MRC_VENDOR_API_CURRENT_VERSION, 0x01000000u);
MRC_PIN_VERSION(MRC_VENDOR_API_LAST_SUPPORTED_VERSION, 0x00000000u);
MRC_PIN_VERSION(MRC_VENDOR_API_VER_USED, 0x01000000u);
MRC_PIN_VALUE(MRC_CTL_API_VER_MAJOR_OFFSET, 24);
MRC_PIN_VALUE(MRC_CTL_API_VER_MINOR_OFFSET, 16);
MRC_PIN_VALUE(MRC_CTL_API_VER_SUBMINOR_OFFSET, 0);
MRC_PIN_VERSION(MRC_CTL_API_VER_LATEST, 0xffffffffu);
MRC_PIN_VERSION(MRC_CTL_API_CURRENT_VERSION, 0x01000001u);
MRC_PIN_VERSION(MRC_CTL_API_LAST_SUPPORTED_VERSION, 0x00000000u);
MRC_PIN_VERSION(MRC_CTL_API_VER_USED, 0x01000001u);
MRC_PIN_VERSION(MRC_CTL_VENDOR_API_CURRENT_VERSION, 0x01000000u);
MRC_PIN_VERSION(MRC_CTL_VENDOR_API_LAST_SUPPORTED_VERSION, 0x00000000u);
MRC_PIN_VERSION(MRC_CTL_VENDOR_API_VER_USED, 0x01000000u);
static_assert(sizeof(mrc_ctl_ev_t) == 32, "mrc_ctl_ev_t size");

// Every enumeration is int-sized, as the structures holding them assume.
#define MRC_PIN_ENUM(E) static_assert(sizeof(enum E) == 4, "enum " #E)
MRC_PIN_ENUM(mrc_protocol_version);
MRC_PIN_ENUM(mrc_device_cap);
MRC_PIN_ENUM(mrc_qp_hint_attr_mask);
MRC_PIN_ENUM(mrc_qp_attr_mask);
MRC_PIN_ENUM(mrc_qp_cap);
MRC_PIN_ENUM(mrc_ctl_protocol_version);
MRC_PIN_ENUM(mrc_ctl_profile_state);
MRC_PIN_ENUM(mrc_ctl_attr_opt);
MRC_PIN_ENUM(mrc_ctl_port_admin_state);
MRC_PIN_ENUM(mrc_ctl_port_attr_mask);
MRC_PIN_ENUM(mrc_ctl_ev_fmt_mode);
MRC_PIN_ENUM(mrc_ctl_ev_fmt_op);
MRC_PIN_ENUM(mrc_ctl_ev_fmt_profile_attr_mask);
MRC_PIN_ENUM(mrc_ctl_ev_state);
MRC_PIN_ENUM(mrc_ctl_ev_mode);
MRC_PIN_ENUM(mrc_ctl_ev_op);
MRC_PIN_ENUM(mrc_ctl_ev_fields_op);
MRC_PIN_ENUM(mrc_ctl_ev_profile_attr_mask);
MRC_PIN_ENUM(mrc_ctl_ev_op_flags);
MRC_PIN_ENUM(mrc_ctl_cc_profile_attr_mask);
MRC_PIN_ENUM(mrc_ctl_ep_op_type);

// The packing macro itself, on values of every field.
MRC_PIN_VERSION(MRC_API_VER(1, 2, 3), 0x01020003u);
MRC_PIN_VERSION(MRC_API_VER(0x80, 0, 0), 0x80000000u);
MRC_PIN_VERSION(MRC_CTL_API_VER(0, 0xff, 0xffff), 0x00ffffffu);

// Every function has the published type (parameters and result), as the
// probe's typeid() of each function pointer spelled it.
#define MRC_PIN_PROTOTYPE(F, ...) \
    static_assert(std::is_same_v<decltype(&F), __VA_ARGS__>, #F " prototype")
MRC_PIN_PROTOTYPE(mrc_ack_async_event, void (*)(mrc_async_event*));
MRC_PIN_PROTOTYPE(mrc_ack_cq_events, void (*)(mrc_cq*, unsigned int));
MRC_PIN_PROTOTYPE(mrc_create_comp_channel, int (*)(mrc_context*, mrc_comp_channel**));
MRC_PIN_PROTOTYPE(mrc_create_context, mrc_context* (*)(ibv_context*, mrc_context_attr*));
MRC_PIN_PROTOTYPE(mrc_create_cq, mrc_cq* (*)(mrc_context*, int, void*, mrc_comp_channel*, int));
MRC_PIN_PROTOTYPE(mrc_create_qp, mrc_qp* (*)(mrc_context*, mrc_qp_init_attr*));
MRC_PIN_PROTOTYPE(mrc_create_qp_hint, mrc_qp_hint* (*)(mrc_context*, mrc_qp_hint_init_attr*));
MRC_PIN_PROTOTYPE(mrc_ctl_create_ev_event_cq,
                  mrc_cq* (*)(mrc_context*, int, void*, mrc_comp_channel*, int));
MRC_PIN_PROTOTYPE(mrc_ctl_ep_batch_send_wait,
                  int (*)(mrc_context*, unsigned char, mrc_ctl_ep_op_type, mrc_ctl_ep_req*, int,
                          unsigned int, mrc_ctl_ep_rsp*, int*));
MRC_PIN_PROTOTYPE(mrc_ctl_modify_cc_profile,
                  int (*)(mrc_context*, unsigned long, mrc_ctl_cc_profile_attr*, int));
MRC_PIN_PROTOTYPE(mrc_ctl_modify_ev_fmt_profile,
                  int (*)(mrc_context*, unsigned long, mrc_ctl_ev_fmt_profile_attr*, int));
MRC_PIN_PROTOTYPE(mrc_ctl_modify_ev_profile,
                  int (*)(mrc_context*, unsigned long, mrc_ctl_ev_profile_attr*, int));
MRC_PIN_PROTOTYPE(mrc_ctl_modify_port,
                  int (*)(mrc_context*, unsigned char, mrc_ctl_port_attr*, int));
MRC_PIN_PROTOTYPE(mrc_ctl_poll_ev_event, int (*)(mrc_cq*, int, mrc_ctl_ev_event*));
MRC_PIN_PROTOTYPE(mrc_ctl_query_cc_profile,
                  int (*)(mrc_context*, unsigned long, mrc_ctl_cc_profile_attr*, int));
MRC_PIN_PROTOTYPE(mrc_ctl_query_device, int (*)(ibv_context*, mrc_ctl_device_attr*));
MRC_PIN_PROTOTYPE(mrc_ctl_query_device_ex,
                  int (*)(ibv_context*, mrc_context*, mrc_ctl_device_attr*, int*));
MRC_PIN_PROTOTYPE(mrc_ctl_query_ev_fmt_profile,
                  int (*)(mrc_context*, unsigned long, mrc_ctl_ev_fmt_profile_attr*, int));
MRC_PIN_PROTOTYPE(mrc_ctl_query_ev_profile,
                  int (*)(mrc_context*, unsigned long, mrc_ctl_ev_profile_attr*, int));
MRC_PIN_PROTOTYPE(mrc_ctl_query_port,
                  int (*)(mrc_context*, unsigned char, mrc_ctl_port_attr*, int));
MRC_PIN_PROTOTYPE(mrc_ctl_query_version,
                  void (*)(unsigned int*, unsigned int*, unsigned int*, unsigned int*));
MRC_PIN_PROTOTYPE(mrc_destroy_comp_channel, int (*)(mrc_comp_channel*));
MRC_PIN_PROTOTYPE(mrc_destroy_context, int (*)(mrc_context*));
MRC_PIN_PROTOTYPE(mrc_destroy_cq, int (*)(mrc_cq*));
MRC_PIN_PROTOTYPE(mrc_destroy_qp, int (*)(mrc_qp*));
MRC_PIN_PROTOTYPE(mrc_destroy_qp_hint, int (*)(mrc_qp_hint*));
MRC_PIN_PROTOTYPE(mrc_get_async_event, int (*)(mrc_context*, mrc_async_event*));
MRC_PIN_PROTOTYPE(mrc_get_comp_channel_fd, int (*)(mrc_comp_channel*, int*));
MRC_PIN_PROTOTYPE(mrc_get_cq_event, int (*)(mrc_comp_channel*, mrc_cq**, void**));
MRC_PIN_PROTOTYPE(mrc_get_qpn, int (*)(mrc_qp*, unsigned int*));
MRC_PIN_PROTOTYPE(mrc_modify_qp, int (*)(mrc_qp*, ibv_qp_attr*, int, mrc_qp_attr*, int));
MRC_PIN_PROTOTYPE(mrc_modify_qp_hint, int (*)(mrc_qp_hint*, mrc_qp_hint_attr*, int));
MRC_PIN_PROTOTYPE(mrc_poll_cq, int (*)(mrc_cq*, int, ibv_wc*));
MRC_PIN_PROTOTYPE(mrc_post_recv, int (*)(mrc_qp*, ibv_recv_wr*, ibv_recv_wr**));
MRC_PIN_PROTOTYPE(mrc_post_send, int (*)(mrc_qp*, ibv_send_wr*, ibv_send_wr**));
MRC_PIN_PROTOTYPE(mrc_query_device, int (*)(ibv_context*, mrc_device_attr*, int*));
MRC_PIN_PROTOTYPE(mrc_query_device_ex, int (*)(ibv_context*, mrc_context*, mrc_device_attr*, int*));
MRC_PIN_PROTOTYPE(mrc_query_qp,
                  int (*)(mrc_qp*, ibv_qp_attr*, int, mrc_qp_attr*, int, mrc_qp_init_attr*));
MRC_PIN_PROTOTYPE(mrc_query_qp_hint, int (*)(mrc_qp_hint*, mrc_qp_hint_attr*, int));
MRC_PIN_PROTOTYPE(mrc_query_version,
                  void (*)(unsigned int*, unsigned int*, unsigned int*, unsigned int*));
MRC_PIN_PROTOTYPE(mrc_req_notify_cq, int (*)(mrc_cq*, int));

}  // namespace
