// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Loads the built libmrc-rdmav34.so the way libibverbs does (dlopen with
// RTLD_NOW) and finds its provider description. The module stays loaded for
// the whole test run: its constructor registered it with libibverbs, which
// keeps a pointer to it, exactly as in a real process.
#ifndef MRC_TESTS_PROVIDER_MODULE_H
#define MRC_TESTS_PROVIDER_MODULE_H

#include <string>

#include "verbs_provider_abi.h"

namespace mrc_test {

struct ProviderModule {
    void* handle = nullptr;
    const verbs_device_ops* ops = nullptr;
    std::string error;  // dlopen/dlsym failure text
};

const ProviderModule& provider_module();

}  // namespace mrc_test

#endif  // MRC_TESTS_PROVIDER_MODULE_H
