// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// What libmrc's entry point tests call with: the machine running them has
// no MRC device, so the objects the checks need are made here, with verbs
// pointers that the refused calls never reach, or a verbs device that is
// not ours.
#ifndef MRC_TEST_LIBMRC_FAKES_H
#define MRC_TEST_LIBMRC_FAKES_H

#include <cerrno>
#include <cstring>

#include "mrc_checks.h"
#include "mrc_objects.h"

namespace mrc::lib::test {

// Calls f with errno cleared and returns what it returned; errno is then
// what f left.
template <typename F>
auto call(F f) {
    errno = 0;
    return f();
}

// A verbs device and context that are not MRC ("rxe0"), enough for the
// calls that only read the device's name.
struct ForeignDevice {
    ibv_device dev{};
    ibv_context ctx{};
    ForeignDevice() {
        std::strcpy(dev.name, "rxe0");
        ctx.device = &dev;
        ctx.num_comp_vectors = 1;
    }
};

// An MRC context made by hand over a verbs context no call here reaches,
// of a device whose name no kernel has (the controller API sends it).
struct FakeContext {
    ibv_device dev{};
    ibv_context vctx{};
    mrc_context* ctx = new mrc_context;
    FakeContext() {
        std::strcpy(dev.name, "mrc-unit-test");
        vctx.device = &dev;
        vctx.num_comp_vectors = 2;
        ctx->vctx = &vctx;
        ctx->dev = mrc::lib::device_attr(1024);
    }
    ~FakeContext() {
        ctx->children = 0;
        mrc_destroy_context(ctx);
    }
};

}  // namespace mrc::lib::test

#endif  // MRC_TEST_LIBMRC_FAKES_H
