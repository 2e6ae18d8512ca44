// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// mrc-rc-check scenarios. Each creates its own connected pair of QPs and
// returns std::nullopt on success or the reason it failed.

#ifndef MRC_SELFTESTS_RC_CHECK_SCENARIOS_H
#define MRC_SELFTESTS_RC_CHECK_SCENARIOS_H

#include "rc_check_harness.h"

namespace rc_check {

// rc_check_data.cpp: operations that must succeed.
Err scenario_write(Env& env, Rng& rng);
Err scenario_write_imm(Env& env, Rng& rng);
Err scenario_send(Env& env, Rng& rng);
Err scenario_send_multi_sge(Env& env, Rng& rng);
Err scenario_reported_max_sge(Env& env, Rng& rng);
Err scenario_read(Env& env, Rng& rng);
Err scenario_read_large(Env& env, Rng& rng);
Err scenario_atomic(Env& env, Rng& rng);
Err scenario_order(Env& env, Rng& rng);
Err scenario_many(Env& env, Rng& rng);

// rc_check_errors.cpp: operations that must fail, and how.
Err scenario_bad_rkey(Env& env, Rng& rng);
Err scenario_out_of_bounds(Env& env, Rng& rng);
Err scenario_no_remote_write(Env& env, Rng& rng);
Err scenario_retry_exceeded(Env& env, Rng& rng);
Err scenario_trimmed_write(Env& env, Rng& rng);
Err scenario_train_bounds(Env& env, Rng& rng);
Err scenario_short_send(Env& env, Rng& rng);
Err scenario_duplicate_send(Env& env, Rng& rng);
Err scenario_recv_too_small(Env& env, Rng& rng);
Err scenario_send_inv_bad_key(Env& env, Rng& rng);
Err scenario_srq_flush_taken(Env& env, Rng& rng);
Err scenario_dereg_in_flight(Env& env, Rng& rng);

// rc_check_rnr.cpp: SENDs that find no receive WQE (receiver not ready).
Err scenario_rnr_wait(Env& env, Rng& rng);
Err scenario_rnr_retry_exceeded(Env& env, Rng& rng);
Err scenario_rnr_rq_one(Env& env, Rng& rng);

// rc_check_caps.cpp: work requests at and beyond the reported caps, SQ
// slots written past the provider that the kernel must refuse, and
// driver input of modify_qp it does not know.
Err scenario_caps_send(Env& env, Rng& rng);
Err scenario_caps_recv(Env& env, Rng& rng);
Err scenario_caps_srq(Env& env, Rng& rng);
Err scenario_caps_zero_depth(Env& env, Rng& rng);
Err scenario_raw_send_reserved(Env& env, Rng& rng);
Err scenario_raw_send_flags(Env& env, Rng& rng);
Err scenario_reserved_qpn(Env& env, Rng& rng);
Err scenario_modify_driver_input(Env& env, Rng& rng);

// rc_check_ud.cpp: UD QPs.
Err scenario_ud_send(Env& env, Rng& rng);
Err scenario_ud_srq(Env& env, Rng& rng);

// rc_check_mw.cpp: memory windows.
Err scenario_mw_type2(Env& env, Rng& rng);
Err scenario_mw_type1(Env& env, Rng& rng);
Err scenario_mw_send_inv(Env& env, Rng& rng);
Err scenario_mw_bind_err(Env& env, Rng& rng);

// rc_check_uc.cpp: UC QPs.
Err scenario_uc(Env& env, Rng& rng);
Err scenario_uc_srq(Env& env, Rng& rng);

}  // namespace rc_check

#endif  // MRC_SELFTESTS_RC_CHECK_SCENARIOS_H
