// The file target: created and marked by the tool, foreign files and tmpfs refused, O_DIRECT I/O works,
// the data region starts at a 1 MiB-aligned file offset.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "flashxxl/characterize/block_device_target.hpp"
#include "flashxxl/characterize/csv_report.hpp"
#include "flashxxl/characterize/device_safety.hpp"
#include "flashxxl/characterize/experiment_file.hpp"
#include "flashxxl/characterize/file_target.hpp"
#include "flashxxl/characterize/io_log.hpp"
#include "flashxxl/characterize/runner.hpp"
#include "support/temp_dir.hpp"

namespace ch = flashxxl::characterize;
using flashxxl::KiB;
using flashxxl::MiB;

// Scratch directories go on the build tree's disk ("."): /tmp may be tmpfs, which the target refuses.
using flashxxl::testing::temp_dir;

TEST(characterize_file_target, refuses_a_file_it_did_not_create) {
    temp_dir d(".");
    std::string p = d.file("precious.dat");
    {
        std::ofstream f(p);
        f << std::string(16384, 'x');
    }
    try {
        ch::file_target t(p, 8 * KiB);
        FAIL() << "a foreign file was opened for writing";
    } catch (const flashxxl::io_failure& e) {
        EXPECT_NE(std::string(e.what()).find("not created by flashxxl characterize"), std::string::npos)
            << e.what();
    }
    std::ifstream f(p);
    std::string content((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    EXPECT_EQ(content, std::string(16384, 'x')); // untouched
}

// Two runs never share a target: the second one is refused while the first holds it (it could
// resize it, or remove it at its end, under the other), and opens it once the first is gone.
TEST(characterize_file_target, a_target_in_use_by_another_run_is_refused) {
    temp_dir d(".");
    std::string p = d.file("shared.img");
    {
        ch::file_target first(p, 1 * MiB);
        first.remove_on_close(false);
        try {
            ch::file_target second(p, 2 * MiB);
            FAIL() << "a second run opened a target in use";
        } catch (const flashxxl::io_failure& e) {
            const std::string msg = e.what();
            EXPECT_NE(msg.find("'" + p + "' is in use: process " + std::to_string(::getpid())),
                      std::string::npos)
                << msg;
        }
        EXPECT_EQ(first.capacity(), 1 * MiB); // not resized by the refused one
    }
    ch::file_target again(p, 0);
    EXPECT_FALSE(again.created());
    EXPECT_EQ(again.capacity(), 1 * MiB);
}

TEST(characterize_file_target, creates_marks_reopens_and_runs) {
    temp_dir d(".");
    std::string p = d.file("target.img");
    {
        ch::file_target t(p, 1 * MiB);
        EXPECT_TRUE(t.created());
        EXPECT_EQ(t.capacity(), 1 * MiB);
        EXPECT_EQ(t.alignment(), 4096u);
        ch::runner r(t);
        auto c = r.run(
            ch::parse_experiments("fill block=256KiB\nrun op=read order=rand block=4KiB count=32\n", "t"));
        EXPECT_EQ(c.bytes_written, 1 * MiB);
        ASSERT_EQ(c.runs.size(), 1u);
        EXPECT_EQ(c.runs[0].ios, 32u);
        EXPECT_GT(c.runs[0].seconds, 0.0);
        EXPECT_THROW(t.io(flashxxl::io_op::write, 1 * MiB, 4096), flashxxl::invalid_request);
    }
    struct stat st {};
    ASSERT_EQ(::stat(p.c_str(), &st), 0);
    EXPECT_EQ(std::uint64_t(st.st_size), 1 * MiB + ch::file_target::data_alignment);
    std::ifstream f(p);
    std::string head(31, '\0');
    f.read(&head[0], 31);
    EXPECT_EQ(head, "FLASHXXL-CHARACTERIZE-TARGET v1");
    {
        ch::file_target again(p, 0); // reopened: our marker is there
        EXPECT_FALSE(again.created());
        EXPECT_EQ(again.capacity(), 1 * MiB);
        again.remove_on_close(true); // not created by this object: must stay
    }
    EXPECT_EQ(::stat(p.c_str(), &st), 0);
    {
        std::string q = d.file("scratch.img");
        ch::file_target t(q, 64 * KiB);
        t.remove_on_close(true);
        EXPECT_EQ(::stat(q.c_str(), &st), 0);
    }
    EXPECT_NE(::stat(d.file("scratch.img").c_str(), &st), 0);
}

TEST(characterize_file_target, data_region_starts_block_aligned_after_the_header) {
    temp_dir d(".");
    std::string p = d.file("aligned.img");
    ch::characterization c;
    // every request as it completes: the per-IO log's writer and a collector of the offsets
    struct collector : ch::request_observer {
        std::vector<std::vector<std::uint64_t>> offsets; // per run
        void on_request(const ch::run_record&, std::uint64_t index, flashxxl::io_op, std::uint64_t offset,
                        double) override {
            if (index == 0) offsets.emplace_back();
            offsets.back().push_back(offset);
        }
    };
    struct both : ch::request_observer {
        ch::request_observer &a, &b;
        both(ch::request_observer& x, ch::request_observer& y) : a(x), b(y) {}
        void on_request(const ch::run_record& run, std::uint64_t i, flashxxl::io_op op, std::uint64_t off,
                        double s) override {
            a.on_request(run, i, op, off, s);
            b.on_request(run, i, op, off, s);
        }
    };
    collector offsets;
    std::ostringstream log;
    {
        ch::file_target t(p, 4 * MiB);
        EXPECT_EQ(t.data_offset(), ch::file_target::data_alignment);
        EXPECT_EQ(t.base_offset(), 1 * MiB);
        ch::io_log_writer writer(log, t.base_offset());
        both tee(writer, offsets);
        ch::runner_options o;
        o.observer = &tee;
        ch::runner r(t, o);
        c = r.run(ch::parse_experiments("fill block=1MiB\n"
                                        "run op=read order=rand block=1MiB count=8\n"
                                        "run op=write order=rand block=256KiB count=8\n"
                                        "run op=read order=seq block=64KiB count=70\n",
                                        "t"));
    }
    EXPECT_EQ(c.base_offset, 1 * MiB);
    ASSERT_EQ(c.runs.size(), 3u);
    ASSERT_EQ(offsets.offsets.size(), c.runs.size());
    for (std::size_t i = 0; i < c.runs.size(); ++i) {
        const auto& run = c.runs[i];
        ASSERT_EQ(offsets.offsets[i].size(), run.ios);
        for (auto off :
             offsets.offsets[i]) // every request is block-aligned in the file, not just in the target
            EXPECT_EQ((c.base_offset + off) % run.pattern.block, 0u) << run.code << " at " << off;
    }
    std::string first_row = log.str().substr(log.str().find('\n') + 1);
    first_row = first_row.substr(0, first_row.find('\n'));
    std::string expected_file_offset = "," + std::to_string(1 * MiB + offsets.offsets[0][0]);
    EXPECT_EQ(first_row.substr(first_row.size() - expected_file_offset.size()), expected_file_offset)
        << first_row;

    // on disk: header, a zero gap, the data (cyclic 0x00..0xff) at 1 MiB; the header records the offset
    struct stat st {};
    ASSERT_EQ(::stat(p.c_str(), &st), 0);
    EXPECT_EQ(std::uint64_t(st.st_size), 1 * MiB + 4 * MiB);
    std::ifstream f(p, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    EXPECT_NE(bytes.find("\ndata_offset=1048576\n"), std::string::npos);
    EXPECT_EQ(bytes.find_first_not_of('\0', 4096), std::size_t(1 * MiB + 1)); // byte 1 MiB is 0x00, then 0x01
    EXPECT_EQ(std::uint8_t(bytes[1 * MiB + 255]), 255u);
}

TEST(characterize_file_target, files_without_a_recorded_data_offset_keep_their_layout) {
    temp_dir d(".");
    std::string p = d.file("old.img");
    {
        // the header an older version wrote: no data_offset line, data right after the 4 KiB header
        std::string header = std::string(ch::file_target::magic) + "size=65536\ncreated=0\n";
        header.resize(ch::file_target::header_bytes, '\0');
        std::ofstream f(p, std::ios::binary);
        f << header << std::string(64 * KiB, 'o');
    }
    {
        ch::file_target t(p, 0);
        EXPECT_EQ(t.data_offset(), ch::file_target::header_bytes);
        EXPECT_EQ(t.capacity(), 64 * KiB);
        t.io(flashxxl::io_op::write, 0, 4096);
    }
    std::ifstream f(p, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    ASSERT_EQ(bytes.size(), 4096u + 64 * KiB);
    EXPECT_EQ(std::uint8_t(bytes[4096 + 1]), 1u); // our pattern, right after the header
    EXPECT_EQ(bytes[8192], 'o');                  // the rest untouched
}

// Reads and writes used one buffer, so a write after a read carried the data read (zeros from a
// hole here) instead of the cyclic 0x00 .. 0xff pattern of seeds/000 Appendix A.
TEST(characterize_file_target, writes_carry_the_pattern_after_reads) {
    temp_dir d(".");
    std::string p = d.file("pattern.img");
    {
        ch::file_target t(p, 4 * MiB);
        ch::runner r(t);
        r.run(ch::parse_experiments("run op=write order=seq block=4KiB count=1 offset=0\n"
                                    "run op=read order=seq block=4KiB count=1 offset=2MiB\n"
                                    "run op=write order=seq block=4KiB count=1 offset=1MiB\n"
                                    "run op=read order=seq block=64KiB count=1 offset=0\n"
                                    "run op=write order=seq block=64KiB count=1 offset=3MiB\n",
                                    "zero.txt"));
    }
    std::ifstream f(p, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    const std::size_t data = ch::file_target::data_alignment;
    ASSERT_EQ(bytes.size(), data + 4 * MiB);
    auto check = [&](std::size_t at, std::size_t len) {
        std::size_t bad = 0;
        for (std::size_t i = 0; i < len; ++i)
            bad += std::uint8_t(bytes[data + at + i]) != (i & 0xff);
        EXPECT_EQ(bad, 0u) << len << " bytes written at target offset " << at << " are not the pattern";
    };
    check(0, 4 * KiB);
    check(1 * MiB, 4 * KiB);
    check(3 * MiB, 64 * KiB);
}

// A target that is shorter than its header says (truncated, or a resize whose allocation failed
// after the header was rewritten) is refused on reopen, naming the file and both sizes.
TEST(characterize_file_target, a_file_shorter_than_its_header_is_refused) {
    temp_dir d(".");
    std::string p = d.file("short.img");
    { ch::file_target t(p, 1 * MiB); }
    ASSERT_EQ(::truncate(p.c_str(), off_t(ch::file_target::data_alignment + 512 * KiB)), 0);
    try {
        ch::file_target t(p, 0);
        FAIL() << "a truncated target was reopened with capacity " << t.capacity();
    } catch (const flashxxl::io_failure& e) {
        std::string m = e.what();
        EXPECT_NE(m.find("'" + p + "' is 1572864 bytes, shorter than its header says"), std::string::npos)
            << m;
        EXPECT_NE(m.find("data_offset=1048576 + size=1048576"), std::string::npos) << m;
    }
}

// Growing a kept target beyond what the file system allows fails before the header changes:
// the file still opens with its old size afterwards.
TEST(characterize_file_target, a_failed_resize_keeps_the_old_size) {
    temp_dir d(".");
    std::string p = d.file("grow.img");
    { ch::file_target t(p, 64 * KiB); }
    struct rlimit old {};
    ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &old), 0);
    auto old_handler = std::signal(SIGXFSZ, SIG_IGN);
    struct rlimit low = old;
    low.rlim_cur = 2 * MiB;
    ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &low), 0);
    bool failed = false;
    try {
        ch::file_target t(p, 4 * MiB);
    } catch (const flashxxl::error&) {
        failed = true;
    }
    ::setrlimit(RLIMIT_FSIZE, &old);
    std::signal(SIGXFSZ, old_handler);
    EXPECT_TRUE(failed) << "growing past RLIMIT_FSIZE succeeded";
    ch::file_target again(p, 0);
    EXPECT_EQ(again.capacity(), 64 * KiB) << "the header claims a size the file does not have";
}

TEST(characterize_file_target, refuses_tmpfs) {
    struct statfs fs {};
    if (::statfs("/dev/shm", &fs) != 0 || fs.f_type != 0x01021994)
        GTEST_SKIP() << "/dev/shm is not tmpfs here";
    std::string p = "/dev/shm/flashxxl-characterize-test-" + std::to_string(::getpid());
    try {
        ch::file_target t(p, 64 * KiB);
        FAIL() << "tmpfs accepted";
    } catch (const flashxxl::io_failure& e) {
        EXPECT_NE(std::string(e.what()).find("tmpfs"), std::string::npos) << e.what();
    }
    struct stat st {};
    EXPECT_NE(::stat(p.c_str(), &st), 0); // the refused file was removed again
}

TEST(characterize_device_safety, block_device_needs_exact_consent_and_no_mounts) {
    // Consent is asked of a block device: the first loop device this machine has.
    for (const std::string dev : {"/dev/loop0", "/dev/loop1", "/dev/loop7"}) {
        struct stat st {};
        if (::stat(dev.c_str(), &st) != 0 || !S_ISBLK(st.st_mode)) continue;
        try {
            ch::block_device_target t(dev, dev.substr(0, dev.size() - 1));
            FAIL() << "written without exact consent";
        } catch (const flashxxl::refused_output& e) {
            EXPECT_NE(std::string(e.what()).find("--allow-write=" + dev), std::string::npos) << e.what();
        }
        break;
    }
    // A path that is no block device is named as what it is, consent or not (not asked for consent).
    const auto refusal = [](const std::string& path, const std::string& consent) {
        try {
            ch::block_device_target t(path, consent);
        } catch (const flashxxl::config_error& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    EXPECT_NE(refusal("/etc/hostname", "").find("'/etc/hostname' is a regular file, not a block device"),
              std::string::npos);
    EXPECT_NE(refusal("/dev/null", "/dev/null").find("'/dev/null' is a character device, not a block device"),
              std::string::npos);
    EXPECT_NE(
        refusal("/no/such/device", "").find("'/no/such/device': No such file or directory; expected a block"),
        std::string::npos);
    std::string mounts =
        "/dev/sdb1 /data ext4 rw 0 0\n/dev/mapper/vg-root / ext4 rw 0 0\nproc /proc proc rw 0 0\n"
        "/dev/disk\\040with\\040space /x ext4 rw 0 0\n";
    EXPECT_EQ(ch::mounted_among({"/dev/sdb", "/dev/sdb1", "/dev/sdb2"}, mounts).value_or(""), "/dev/sdb1");
    EXPECT_FALSE(ch::mounted_among({"/dev/sdc", "/dev/sdc1"}, mounts).has_value());
    EXPECT_EQ(ch::mounted_among({"/dev/disk with space"}, mounts).value_or(""), "/dev/disk with space");
}

TEST(characterize_device_safety, a_mounted_block_device_is_refused_before_it_is_opened) {
    // the device the root file system is mounted from, if this machine shows it in /dev
    std::string real = ch::read_mounts(), dev;
    std::istringstream in(real);
    std::string src, mnt;
    while (in >> src >> mnt) {
        std::string rest;
        std::getline(in, rest);
        struct stat st {};
        if (src.rfind("/dev/", 0) == 0 && ::stat(src.c_str(), &st) == 0 && S_ISBLK(st.st_mode)) {
            dev = src;
            break;
        }
    }
    if (dev.empty()) GTEST_SKIP() << "no mounted block device visible in /dev";
    try {
        ch::block_device_target t(dev, dev);
        FAIL() << "mounted device " << dev << " accepted";
    } catch (const flashxxl::io_failure& e) {
        EXPECT_NE(std::string(e.what()).find("is mounted"), std::string::npos) << e.what();
    }
}

TEST(characterize_device_safety, signatures_are_found) {
    std::vector<std::uint8_t> buf(ch::signature_probe_bytes, 0);
    EXPECT_FALSE(ch::find_signature(buf.data(), buf.size()).has_value());
    auto with = [&](std::size_t at, const std::string& magic) {
        std::vector<std::uint8_t> b(ch::signature_probe_bytes, 0);
        std::copy(magic.begin(), magic.end(), b.begin() + static_cast<std::ptrdiff_t>(at));
        return ch::find_signature(b.data(), b.size()).value_or("none");
    };
    EXPECT_EQ(with(1080, "\x53\xef"), "ext2/3/4");
    EXPECT_EQ(with(0, "XFSB"), "xfs");
    EXPECT_EQ(with(65536 + 64, "_BHRfS_M"), "btrfs");
    EXPECT_EQ(with(512, "EFI PART"), "GPT partition table");
    EXPECT_NE(with(510, "\x55\xaa").find("MBR"), std::string::npos);
    EXPECT_EQ(with(4086, "SWAPSPACE2"), "Linux swap");
    EXPECT_EQ(with(0, "LUKS\xba\xbe"), "LUKS");
    // the cyclic 0x00..0xff pattern the tool writes carries no signature
    for (std::size_t i = 0; i < buf.size(); ++i)
        buf[i] = std::uint8_t(i & 0xff);
    EXPECT_FALSE(ch::find_signature(buf.data(), buf.size()).has_value());
}
