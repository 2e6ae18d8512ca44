// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// mrc-ip: show and (later) configure MRC devices, in the style of ip(8).
#include <iostream>
#include <string>
#include <vector>

#include "mrc_ip.h"

int main(int argc, char** argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    int status = mrc_ip::run(args, std::cout, std::cerr);

    // A full disk or closed pipe must not look like success to scripts.
    std::cout.flush();
    if (!std::cout) {
        std::cerr << "mrc-ip: error writing output\n";
        return 1;
    }
    return status;
}
