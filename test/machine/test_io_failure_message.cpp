// The message of an I/O failure under a device: device, backing file, request, reason and remedy.
#include <gtest/gtest.h>

#include <string>

#include "flashxxl/machine/io_failure_message.hpp"

using namespace flashxxl;

namespace {
// What STXXL 1.4.1's syscall_file::serve puts into its io_error (shape, abridged).
std::string stxxl_text(const std::string& reason) {
    return "Error in virtual void stxxl::syscall_file::serve(void*, stxxl::file::offset_type, "
           "stxxl::file::size_type, stxxl::request_interface::request_type) : this=0x55 "
           "call=::write(fd,buf,bytes) "
           "path=/x/hdd.img fd=5 offset=16777216 buffer=0x7f bytes=1048576 type=WRITE rc=-1 : " +
           reason + ": iostream error: iostream error"; // twice, as it arrives through request::wait
}
} // namespace

TEST(io_failure_message, reason_is_the_last_part_of_stxxls_text) {
    EXPECT_EQ(io_error_reason(stxxl_text("No space left on device")), "No space left on device");
    EXPECT_EQ(io_error_reason("plain text"), "plain text");
}

TEST(io_failure_message, names_device_file_request_reason_and_remedy) {
    failed_request r{"hdd", "m.cfg:3", "/x/hdd.img", true, 16777216, 1048576, "scratch"};
    struct expectation {
        const char* reason;
        const char* remedy;
    };
    for (const expectation& x : {expectation{"No space left on device", "is full: free space there"},
                                 expectation{"Read-only file system", "is read-only: put the backing file"},
                                 expectation{"Input/output error", "reported an I/O error: check the disk"},
                                 expectation{"File too large", "a file size limit was reached"},
                                 expectation{"Disk quota exceeded", "quota"}}) {
        std::string msg = io_failure_message(r, stxxl_text(x.reason));
        EXPECT_NE(
            msg.find(
                "device 'hdd' (m.cfg:3), backing file '/x/hdd.img': writing 1 MiB at byte offset 16777216 "
                "for role scratch failed: " +
                std::string(x.reason) + "; "),
            std::string::npos)
            << msg;
        EXPECT_NE(msg.find(x.remedy), std::string::npos) << msg;
        EXPECT_EQ(msg.find("Error in virtual"), std::string::npos) << msg;
    }
    r.write = false;
    EXPECT_NE(io_failure_message(r, stxxl_text("Bad address")).find("reading 1 MiB"), std::string::npos);
}
