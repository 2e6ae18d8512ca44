// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "json_writer.h"

#include <gtest/gtest.h>

#include <sstream>

namespace mrc_ip {
namespace {

TEST(JsonQuoteTest, PlainAndSpecialCharacters) {
    EXPECT_EQ(JsonWriter::quote("mrc0"), "\"mrc0\"");
    EXPECT_EQ(JsonWriter::quote(""), "\"\"");
    EXPECT_EQ(JsonWriter::quote("a\"b"), "\"a\\\"b\"");
    EXPECT_EQ(JsonWriter::quote("a\\b"), "\"a\\\\b\"");
    EXPECT_EQ(JsonWriter::quote("a/b"), "\"a/b\"");
}

TEST(JsonQuoteTest, ControlCharacters) {
    EXPECT_EQ(JsonWriter::quote("\b\f\n\r\t"), "\"\\b\\f\\n\\r\\t\"");
    EXPECT_EQ(JsonWriter::quote(std::string("x\0y", 3)), "\"x\\u0000y\"");
    EXPECT_EQ(JsonWriter::quote("\x01\x1f\x7f"), "\"\\u0001\\u001f\\u007f\"");
}

TEST(JsonQuoteTest, Utf8PassesInvalidBytesReplaced) {
    EXPECT_EQ(JsonWriter::quote("caf\xc3\xa9"), "\"caf\xc3\xa9\"");            // é
    EXPECT_EQ(JsonWriter::quote("\xe2\x82\xac"), "\"\xe2\x82\xac\"");          // €
    EXPECT_EQ(JsonWriter::quote("\xf0\x9f\x98\x80"), "\"\xf0\x9f\x98\x80\"");  // U+1F600
    EXPECT_EQ(JsonWriter::quote("a\xffz"), "\"a\\ufffdz\"");
    EXPECT_EQ(JsonWriter::quote("\xc3"), "\"\\ufffd\"");                        // truncated
    EXPECT_EQ(JsonWriter::quote("\xc0\xaf"), "\"\\ufffd\\ufffd\"");             // overlong '/'
    EXPECT_EQ(JsonWriter::quote("\xed\xa0\x80"), "\"\\ufffd\\ufffd\\ufffd\"");  // surrogate
}

TEST(JsonWriterTest, CompactNesting) {
    std::ostringstream out;
    JsonWriter w(out, false);
    w.begin_array();
    w.begin_object();
    w.key("name");
    w.string_value("mrc0");
    w.key("port");
    w.uint_value(4792);
    w.key("delta");
    w.int_value(-3);
    w.key("up");
    w.bool_value(true);
    w.key("none");
    w.null_value();
    w.key("list");
    w.begin_array();
    w.int_value(1);
    w.begin_object();
    w.end_object();
    w.begin_array();
    w.end_array();
    w.end_array();
    w.end_object();
    w.begin_object();
    w.end_object();
    w.end_array();
    EXPECT_TRUE(w.ok());
    EXPECT_TRUE(w.complete());
    EXPECT_EQ(out.str(),
              "[{\"name\":\"mrc0\",\"port\":4792,\"delta\":-3,\"up\":true,\"none\":null,"
              "\"list\":[1,{},[]]},{}]");
}

TEST(JsonWriterTest, PrettyIndentsByFour) {
    std::ostringstream out;
    JsonWriter w(out, true);
    w.begin_array();
    w.begin_object();
    w.key("ifname");
    w.string_value("mrc0");
    w.key("ports");
    w.begin_array();
    w.uint_value(1);
    w.end_array();
    w.end_object();
    w.end_array();
    EXPECT_TRUE(w.complete());
    EXPECT_EQ(out.str(),
              "[\n"
              "    {\n"
              "        \"ifname\": \"mrc0\",\n"
              "        \"ports\": [\n"
              "            1\n"
              "        ]\n"
              "    }\n"
              "]");
}

TEST(JsonWriterTest, EmptyContainersStayOnOneLine) {
    std::ostringstream out;
    JsonWriter w(out, true);
    w.begin_array();
    w.end_array();
    EXPECT_EQ(out.str(), "[]");
}

TEST(JsonWriterTest, KeysAreEscaped) {
    std::ostringstream out;
    JsonWriter w(out, false);
    w.begin_object();
    w.key("a\"b");
    w.string_value("x\ny");
    w.end_object();
    EXPECT_EQ(out.str(), "{\"a\\\"b\":\"x\\ny\"}");
}

TEST(JsonWriterTest, ValueWithoutKeyInObjectIsMisuse) {
    std::ostringstream out;
    JsonWriter w(out, false);
    w.begin_object();
    w.string_value("orphan");
    EXPECT_FALSE(w.ok());
    EXPECT_EQ(out.str(), "{");  // nothing written for the bad call
}

TEST(JsonWriterTest, KeyOutsideObjectIsMisuse) {
    std::ostringstream out;
    JsonWriter w(out, false);
    w.begin_array();
    w.key("k");
    EXPECT_FALSE(w.ok());
}

TEST(JsonWriterTest, MismatchedCloserIsMisuse) {
    std::ostringstream out;
    JsonWriter w(out, false);
    w.begin_array();
    w.end_object();
    EXPECT_FALSE(w.ok());
}

TEST(JsonWriterTest, DanglingKeyIsMisuse) {
    std::ostringstream out;
    JsonWriter w(out, false);
    w.begin_object();
    w.key("k");
    w.end_object();
    EXPECT_FALSE(w.ok());
}

TEST(JsonWriterTest, SecondTopLevelValueIsMisuse) {
    std::ostringstream out;
    JsonWriter w(out, false);
    w.int_value(1);
    EXPECT_TRUE(w.complete());
    w.int_value(2);
    EXPECT_FALSE(w.ok());
    EXPECT_EQ(out.str(), "1");
}

TEST(JsonWriterTest, UnclosedIsNotComplete) {
    std::ostringstream out;
    JsonWriter w(out, false);
    w.begin_array();
    EXPECT_TRUE(w.ok());
    EXPECT_FALSE(w.complete());
}

}  // namespace
}  // namespace mrc_ip
