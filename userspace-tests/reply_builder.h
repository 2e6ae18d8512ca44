// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Builds a reply of the family "mrc" as the kernel lays it out: genl
// header, attributes, nests (shared by the parser and printer tests of
// mrc-ip and libmrc).
#ifndef MRC_TEST_REPLY_BUILDER_H
#define MRC_TEST_REPLY_BUILDER_H

#include <gtest/gtest.h>
#include <netlink/attr.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>

#include <string>
#include <vector>

#include "genl_socket.h"
#include "mrc-genl.h"

namespace mrc::genl::test {

class ReplyBuilder {
public:
    explicit ReplyBuilder(uint8_t cmd) : msg_(nlmsg_alloc()) {
        EXPECT_NE(genlmsg_put(msg_.get(), 4321, 7, 0x20, 0, 0, cmd, MRC_GENL_VERSION), nullptr);
    }
    ReplyBuilder& str(int t, const std::string& s) { return ok(nla_put_string(m(), t, s.c_str())); }
    ReplyBuilder& raw(int t, const std::string& b) {
        return ok(nla_put(m(), t, static_cast<int>(b.size()), b.data()));
    }
    ReplyBuilder& flag(int t) { return ok(nla_put_flag(m(), t)); }
    ReplyBuilder& u8(int t, uint8_t v) { return ok(nla_put_u8(m(), t, v)); }
    ReplyBuilder& u16(int t, uint16_t v) { return ok(nla_put_u16(m(), t, v)); }
    ReplyBuilder& u32(int t, uint32_t v) { return ok(nla_put_u32(m(), t, v)); }
    ReplyBuilder& u64(int t, uint64_t v) { return ok(nla_put_u64(m(), t, v)); }
    ReplyBuilder& begin(int t) {
        nests_.push_back(nla_nest_start(m(), t));
        EXPECT_NE(nests_.back(), nullptr);
        return *this;
    }
    ReplyBuilder& end() {
        nla_nest_end(m(), nests_.back());
        nests_.pop_back();
        return *this;
    }
    nlmsghdr* hdr() { return nlmsg_hdr(m()); }

private:
    nl_msg* m() { return msg_.get(); }
    ReplyBuilder& ok(int rc) {
        EXPECT_EQ(rc, 0);
        return *this;
    }
    NlMsgPtr msg_;
    std::vector<nlattr*> nests_;
};

}  // namespace mrc::genl::test

#endif  // MRC_TEST_REPLY_BUILDER_H
