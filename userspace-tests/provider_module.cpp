// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "provider_module.h"

#include <dlfcn.h>

#ifndef MRC_PROVIDER_PATH
#error "MRC_PROVIDER_PATH must name the built provider module"
#endif

namespace mrc_test {

const ProviderModule& provider_module() {
    static const ProviderModule module = [] {
        ProviderModule m;
        m.handle = dlopen(MRC_PROVIDER_PATH, RTLD_NOW | RTLD_LOCAL);
        if (m.handle == nullptr) {
            m.error = dlerror();
            return m;
        }
        m.ops = static_cast<const verbs_device_ops*>(dlsym(m.handle, "verbs_provider_mrc"));
        if (m.ops == nullptr) {
            m.error = dlerror();
        }
        return m;
    }();
    return module;
}

}  // namespace mrc_test
