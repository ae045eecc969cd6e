// safe_output_file: refuses devices, FIFOs, links and foreign files; writes whole files or nothing.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "flashxxl/safe_output.hpp"
#include "support/temp_dir.hpp"

using flashxxl::io_failure;
using flashxxl::safe_output_file;

namespace {

std::string slurp(const std::string& p) {
    std::ifstream in(p);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

const std::vector<std::string> sig = {"generator: flashxxl"};

std::string refusal(const std::string& path, bool force = false) {
    try {
        safe_output_file f(path, "--json", force, sig);
        f.stream() << "generator: flashxxl\n";
        f.commit();
    } catch (const io_failure& e) {
        return e.what();
    }
    return "";
}

} // namespace

TEST(safe_output, new_file_is_written_whole_and_no_temporary_is_left) {
    flashxxl::testing::temp_dir d;
    {
        safe_output_file f(d / "a.json", "--json", false, sig);
        f.stream() << "generator: flashxxl\nhello\n";
        EXPECT_NE(::access((d / "a.json").c_str(), F_OK), 0) << "target visible before commit";
        f.commit();
    }
    EXPECT_EQ(slurp(d / "a.json"), "generator: flashxxl\nhello\n");
    EXPECT_EQ(d.entries(), 1);
}

TEST(safe_output, without_commit_nothing_changes) {
    flashxxl::testing::temp_dir d;
    { std::ofstream(d / "a.json") << "generator: flashxxl\nold\n"; }
    {
        safe_output_file f(d / "a.json", "--json", false, sig);
        f.stream() << "generator: flashxxl\nhalf";
        // e.g. an exception before commit()
    }
    EXPECT_EQ(slurp(d / "a.json"), "generator: flashxxl\nold\n");
    EXPECT_EQ(d.entries(), 1) << "temporary file left behind";
}

TEST(safe_output, devices_fifos_directories_and_links_are_refused_even_with_force) {
    flashxxl::testing::temp_dir d;
    std::string msg = refusal("/dev/null", true);
    EXPECT_NE(msg.find("--json '/dev/null' is a character device"), std::string::npos) << msg;
    for (const char* blk : {"/dev/loop0", "/dev/vda", "/dev/sda", "/dev/nvme0n1"}) {
        struct stat st {};
        if (::lstat(blk, &st) == 0 && S_ISBLK(st.st_mode)) {
            msg = refusal(blk, true);
            EXPECT_NE(msg.find("is a block device"), std::string::npos) << msg;
            break;
        }
    }
    ASSERT_EQ(::mkfifo((d / "fifo").c_str(), 0600), 0);
    msg = refusal(d / "fifo", true);
    EXPECT_NE(msg.find("is a FIFO"), std::string::npos) << msg;
    msg = refusal(d.operator/(""), true);
    EXPECT_NE(msg.find("is a directory"), std::string::npos) << msg;
    { std::ofstream(d / "target") << "generator: flashxxl\nmine\n"; }
    ASSERT_EQ(::symlink((d / "target").c_str(), (d / "link").c_str()), 0);
    msg = refusal(d / "link", true);
    EXPECT_NE(msg.find("is a symbolic link"), std::string::npos) << msg;
    EXPECT_EQ(slurp(d / "target"), "generator: flashxxl\nmine\n");
    EXPECT_EQ(d.entries(), 3) << "temporary file left behind";
}

TEST(safe_output, foreign_file_is_refused_unless_forced_and_ours_is_replaced) {
    flashxxl::testing::temp_dir d;
    { std::ofstream(d / "notes.txt") << "precious\n"; }
    std::string msg = refusal(d / "notes.txt");
    EXPECT_NE(msg.find("--json '" + (d / "notes.txt") + "' exists and was not written by flashxxl"),
              std::string::npos)
        << msg;
    EXPECT_NE(msg.find("--force"), std::string::npos) << msg;
    EXPECT_EQ(slurp(d / "notes.txt"), "precious\n");
    EXPECT_EQ(refusal(d / "notes.txt", true), "");
    EXPECT_EQ(slurp(d / "notes.txt"), "generator: flashxxl\n");
    // now it carries the signature: replaced without --force
    EXPECT_EQ(refusal(d / "notes.txt"), "");
    { std::ofstream(d / "empty.txt"); }
    EXPECT_NE(refusal(d / "empty.txt"), "") << "an empty file carries no signature";
}

TEST(safe_output, missing_directory_names_option_and_path) {
    std::string msg = refusal(::testing::TempDir() + "flashxxl_no_such_dir/x.json");
    EXPECT_NE(msg.find("--json"), std::string::npos) << msg;
    EXPECT_NE(msg.find("flashxxl_no_such_dir/x.json': cannot create a file in '"), std::string::npos) << msg;
    EXPECT_NE(msg.find("No such file or directory"), std::string::npos) << msg;
}

// What stream() writes has no name until commit(): a run killed while it writes its output
// leaves nothing (before: .NAME.flashxxl-XXXXXX, empty when announced, partial when killed).
TEST(safe_output, streamed_output_has_no_name_until_commit) {
    flashxxl::testing::temp_dir d;
    {
        safe_output_file f(d / "late.json", "--json", false, {"flashxxl"});
        EXPECT_EQ(d.entries(), 0) << "a temporary file before anything was written";
        f.stream() << "{\"generator\": \"flashxxl\"}\n";
        f.stream().flush();
        EXPECT_EQ(d.entries(), 0) << "the output being written has a name in the directory";
        f.commit();
    }
    EXPECT_EQ(d.entries(), 1);
    EXPECT_EQ(slurp(d / "late.json"), "{\"generator\": \"flashxxl\"}\n");
    {
        safe_output_file lost(d / "late.json", "--json", false, {"flashxxl"});
        lost.stream() << std::string(1 << 20, 'x');
    } // not committed: nothing was linked, the old file stays
    EXPECT_EQ(d.entries(), 1);
    EXPECT_EQ(slurp(d / "late.json"), "{\"generator\": \"flashxxl\"}\n");
    {
        // A writer in another process needs a name: temp_path() is a named file beside the target.
        safe_output_file image(d / "plot.png", "--out", false, {"flashxxl"});
        const std::string tmp = image.temp_path();
        EXPECT_EQ(tmp.find((d / ".plot.png.flashxxl-")), 0u) << tmp;
        { std::ofstream(tmp) << "flashxxl png"; }
        image.commit();
        EXPECT_EQ(slurp(d / "plot.png"), "flashxxl png");
    }
    EXPECT_EQ(d.entries(), 2);
    std::remove((d / "plot.png").c_str());
    {
        safe_output_file empty(d / "empty.json", "--json", false, {"flashxxl"});
        empty.commit(); // nothing written: an empty file
    }
    struct stat st {};
    ASSERT_EQ(::stat((d / "empty.json").c_str(), &st), 0);
    EXPECT_EQ(st.st_size, 0);
    EXPECT_EQ(d.entries(), 2);
}
