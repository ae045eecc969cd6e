// Tests that a machine's backing file is never a symbolic link, an existing file (without reuse=on) nor
// shared by two devices, is unlinked once open (nothing outlives a killed run), and that teardown and a
// failed build remove only the file they created.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <string>

#include "flashxxl/io/aligned_buffer.hpp"
#include "flashxxl/machine/machine.hpp"
#include "flashxxl/units.hpp"
#include "support/temp_dir.hpp"

using namespace flashxxl;

namespace {

//! A scratch directory under the test temp dir, removed at the end.
bool is_link(const std::string& p) {
    struct stat st {};
    return ::lstat(p.c_str(), &st) == 0 && S_ISLNK(st.st_mode);
}
bool exists(const std::string& p) {
    struct stat st {};
    return ::lstat(p.c_str(), &st) == 0;
}
std::string config_error_of(const std::string& text, const std::string& origin) {
    try {
        machine m = machine::from_config_text(text, origin);
    } catch (const config_error& e) {
        return e.what();
    }
    return "";
}

} // namespace

// A dangling link: the old code created the file at the link's target and, at teardown,
// deleted the user's link instead of the file it had made.
TEST(BackingFileSafety, DanglingSymlinkIsRefusedAndLeftAlone) {
    flashxxl::testing::temp_dir d;
    std::string link = d / "dev.img", target = d / "elsewhere.img";
    ASSERT_EQ(::symlink(target.c_str(), link.c_str()), 0);
    std::string msg = config_error_of("\ndisk=" + link + ",4MiB,syscall name=d\n", "lab.cfg");
    ASSERT_FALSE(msg.empty()) << "a symbolic link was accepted as backing file";
    EXPECT_NE(msg.find("lab.cfg:2"), std::string::npos) << msg;
    EXPECT_NE(msg.find(link), std::string::npos) << msg;
    EXPECT_NE(msg.find("symbolic link"), std::string::npos) << msg;
    EXPECT_TRUE(is_link(link)) << "the user's link was removed";
    EXPECT_FALSE(exists(target)) << "a file was created at the link's target";
}

// A link to an existing empty file: the old code opened it through the link and wrote there.
TEST(BackingFileSafety, SymlinkToExistingFileIsRefused) {
    flashxxl::testing::temp_dir d;
    std::string link = d / "dev.img", target = d / "precious.img";
    { std::ofstream(target.c_str()); }
    ASSERT_EQ(::symlink(target.c_str(), link.c_str()), 0);
    std::string msg = config_error_of("disk=" + link + ",4MiB,syscall name=d reuse=on\n", "lab.cfg");
    ASSERT_FALSE(msg.empty()) << "a symbolic link was accepted as backing file";
    EXPECT_NE(msg.find("lab.cfg:1"), std::string::npos) << msg;
    EXPECT_NE(msg.find("symbolic link"), std::string::npos) << msg;
    EXPECT_TRUE(is_link(link));
    struct stat st {};
    ASSERT_EQ(::stat(target.c_str(), &st), 0);
    EXPECT_EQ(st.st_size, 0) << "the link's target was written";
}

// The file the machine creates is unlinked as soon as it is open (STXXL's unlink_on_open): it
// serves the machine through its descriptor, and nothing is left at the path, during or after.
TEST(BackingFileSafety, CreatedFileIsUnlinkedOnceOpen) {
    flashxxl::testing::temp_dir d;
    std::string path = d / "dev.img";
    {
        machine m = machine::from_config_text("disk=" + path + ",4MiB,syscall name=d\n", "lab.cfg");
        EXPECT_FALSE(exists(path)) << "the backing file is still visible after the machine opened it";
        aligned_buffer block(4096), back(4096);
        std::memset(block.data(), 'x', 4096);
        std::memset(back.data(), 0, 4096);
        owned_extent e = m.allocate(role::scratch, 4096);
        m.dev(0).wait(m.dev(0).awrite(block.data(), e.get().offset, 4096, role::scratch), role::scratch);
        m.dev(0).wait(m.dev(0).aread(back.data(), e.get().offset, 4096, role::scratch), role::scratch);
        EXPECT_EQ(std::memcmp(back.data(), block.data(), 4096), 0)
            << "the unlinked file does not hold what was written";
    }
    EXPECT_FALSE(exists(path));
}

// keep=on keeps the file, during the run and after it.
TEST(BackingFileSafety, KeptFileStays) {
    flashxxl::testing::temp_dir d;
    std::string path = d / "dev.img";
    {
        machine m = machine::from_config_text("disk=" + path + ",4MiB,syscall name=d keep=on\n", "lab.cfg");
        EXPECT_TRUE(exists(path));
    }
    EXPECT_TRUE(exists(path));
}

// Something put at the path while the machine ran (a link to a user's file, or a new file) is
// not the machine's: teardown leaves it alone.
TEST(BackingFileSafety, TeardownRemovesOnlyTheFileItCreated) {
    flashxxl::testing::temp_dir d;
    std::string path = d / "dev.img", user = d / "user.txt";
    { std::ofstream(user.c_str()) << "keep me\n"; }
    {
        machine m = machine::from_config_text("disk=" + path + ",4MiB,syscall name=d\n", "lab.cfg");
        ASSERT_EQ(::symlink(user.c_str(), path.c_str()), 0);
    }
    EXPECT_TRUE(is_link(path)) << "teardown deleted a link it did not create";
    EXPECT_TRUE(exists(user));
    ::unlink(path.c_str());
    {
        machine m = machine::from_config_text("disk=" + path + ",4MiB,syscall name=d\n", "lab.cfg");
        { std::ofstream(path.c_str()) << "a different file\n"; }
    }
    EXPECT_TRUE(exists(path)) << "teardown deleted a file it did not create";
}

// A path whose directory part is a link is fine (only the last component must be a file).
TEST(BackingFileSafety, LinkedDirectoryIsAccepted) {
    flashxxl::testing::temp_dir d;
    ASSERT_EQ(::mkdir((d / "real").c_str(), 0755), 0);
    ASSERT_EQ(::symlink((d / "real").c_str(), (d / "via").c_str()), 0);
    {
        machine m =
            machine::from_config_text("disk=" + (d / "via") + "/dev.img,4MiB,syscall name=d\n", "lab.cfg");
        EXPECT_FALSE(exists(d / "real/dev.img")) << "opened and unlinked through the linked directory";
        EXPECT_EQ(m.dev(0).capacity(), 4 * MiB);
    }
    EXPECT_FALSE(exists(d / "real/dev.img"));
}

// Two devices on one path: before, each got its own unlinked file (the config named one), and
// with keep=on reuse=on both wrote into one file. Refused before any file is made.
TEST(BackingFileSafety, TwoDevicesOnOnePathAreRefused) {
    flashxxl::testing::temp_dir d;
    std::string path = d / "dev.img";
    std::string msg = config_error_of(
        "disk=" + path + ",4MiB,syscall name=slow\nflash=" + path + ",4MiB,syscall name=fast\n", "lab.cfg");
    ASSERT_FALSE(msg.empty()) << "two devices were given one backing file";
    EXPECT_NE(msg.find("lab.cfg:2: device 'fast'"), std::string::npos) << msg;
    EXPECT_NE(msg.find("device 'slow' (lab.cfg:1"), std::string::npos) << msg;
    EXPECT_EQ(d.entries(), 0) << "a file was made before the refusal";
}

// The same file spelt two ways (through "..", or a second hard link to a kept file) is one file.
TEST(BackingFileSafety, OneFileUnderTwoNamesIsRefused) {
    flashxxl::testing::temp_dir d;
    ASSERT_EQ(::mkdir((d / "sub").c_str(), 0755), 0);
    std::string msg = config_error_of("disk=" + (d / "dev.img") +
                                          ",4MiB,syscall\ndisk=" + (d / "sub/../dev.img") + ",4MiB,syscall\n",
                                      "lab.cfg");
    EXPECT_NE(msg.find("lab.cfg:2: device 'disk1'"), std::string::npos) << msg;

    std::string kept = d / "kept.img", alias = d / "alias.img";
    { std::ofstream(kept.c_str()) << "a user's data\n"; }
    ASSERT_EQ(::link(kept.c_str(), alias.c_str()), 0);
    msg = config_error_of("disk=" + kept + ",4MiB,syscall keep=on reuse=on\nflash=" + alias +
                              ",4MiB,syscall keep=on reuse=on\n",
                          "lab.cfg");
    EXPECT_NE(msg.find("backing file of device 'disk0'"), std::string::npos) << msg;
    struct stat st {};
    ASSERT_EQ(::stat(kept.c_str(), &st), 0);
    EXPECT_EQ(st.st_size, 14) << "the file was sized or written before the refusal";
}

// Distinct files in one directory are fine, and memory devices have no file to share.
TEST(BackingFileSafety, DistinctFilesAndMemoryDevicesAreAccepted) {
    flashxxl::testing::temp_dir d;
    machine m =
        machine::from_config_text("disk=" + (d / "a.img") + ",4MiB,syscall\nflash=" + (d / "b.img") +
                                      ",4MiB,syscall\ndisk=memory,4MiB,memory\nflash=memory,4MiB,memory\n",
                                  "lab.cfg");
    EXPECT_EQ(m.device_count(), 4u);
}

namespace {

//! Runs the test body in `dir` as the working directory, and goes back to the old one after.
class scoped_cwd {
public:
    explicit scoped_cwd(const std::string& dir) {
        char buf[4096];
        if (::getcwd(buf, sizeof buf)) old_ = buf;
        if (::chdir(dir.c_str()) != 0) throw std::runtime_error("chdir " + dir);
    }
    scoped_cwd(const scoped_cwd&) = delete;
    scoped_cwd& operator=(const scoped_cwd&) = delete;
    ~scoped_cwd() {
        if (!old_.empty() && ::chdir(old_.c_str()) != 0) std::abort();
    }

private:
    std::string old_;
};

std::int64_t size_of(const std::string& p) {
    struct stat st {};
    return ::stat(p.c_str(), &st) == 0 ? std::int64_t(st.st_size) : -1;
}

} // namespace

// A relative path whose first component does not exist yet was compared as written
// (std::filesystem::weakly_canonical keeps such a path relative): "x.img" and "$PWD/x.img" were
// two files to the check, and with keep=on reuse=on the two devices overwrote each other.
TEST(BackingFileSafety, RelativeAndAbsoluteSpellingsOfOneFileAreRefused) {
    flashxxl::testing::temp_dir d;
    ASSERT_EQ(::mkdir((d / "sub").c_str(), 0755), 0);
    scoped_cwd here(d.path().string());
    const std::string absolute = d / "x.img";
    for (const std::string& first :
         {std::string("x.img"), std::string("./x.img"), std::string("sub/../x.img")}) {
        for (const std::string& options : {std::string(""), std::string(" keep=on reuse=on")}) {
            std::string msg =
                config_error_of("disk=" + first + ",4MiB,syscall name=a" + options + "\ndisk=" + absolute +
                                    ",4MiB,syscall name=b" + options + "\n",
                                "lab.cfg");
            EXPECT_NE(msg.find("lab.cfg:2: device 'b': field 'path'"), std::string::npos)
                << first << options << ": " << (msg.empty() ? "accepted" : msg);
            EXPECT_NE(msg.find("backing file of device 'a'"), std::string::npos) << msg;
            EXPECT_EQ(d.entries(), 1) << first << options << ": a file was made before the refusal";
            ::unlink(absolute.c_str());
        }
    }
    // and the other way round: the relative spelling second
    std::string msg = config_error_of(
        "disk=" + absolute + ",4MiB,syscall name=a\ndisk=sub/../x.img,4MiB,syscall name=b\n", "lab.cfg");
    EXPECT_NE(msg.find("backing file of device 'a'"), std::string::npos) << (msg.empty() ? "accepted" : msg);
}

// keep=on keeps the file of a machine that was built; a build that fails (on the device's own
// line, a later line, or the placement) removed nothing it had created with keep=on: a 1 TiB
// sparse file stayed behind after "model capacity" errors, and the next run refused it as
// "already exists".
TEST(BackingFileSafety, FailedBuildRemovesTheFilesItCreatedWhateverKeepSays) {
    flashxxl::testing::temp_dir d;
    const std::string p = d / "k.img", q = d / "l.img";
    const std::string kept = "disk=" + p + ",64MiB,syscall name=d keep=on";
    struct failing {
        std::string text, must_mention;
    };
    const failing cases[] = {
        {kept + "\nplacement=single device=nosuch\n", "nosuch"},
        {kept + "\ndisk=memory,64MiB,memory name=e model=nosuch\n", "lab.cfg:2"},
        {kept + "\ndisk=" + q + ",64MiB,syscall name=e keep=on model=nosuch\n", "lab.cfg:2"},
        {kept + "\ndisk=" + q + ",1TiB,syscall name=e keep=on model=hama-ssd-2009\n", "lab.cfg:2"},
        {kept + " tl=on tl_page=64MiB\n", "lab.cfg:1"},
        {kept + " tl=on tl_cleaning=sometimes\n", "tl_cleaning"},
        {kept + " tl=on br=4KiB\n", "lab.cfg:1"},
        {"disk=" + p + ",1TiB,syscall name=d keep=on model=hama-ssd-2009\n", "lab.cfg:1"},
        {"disk=" + p + ",64MiB,syscall name=d keep=on model=hama-ssd-2009 chonk=1\n", "chonk"},
    };
    for (const failing& c : cases) {
        std::string msg = config_error_of(c.text, "lab.cfg");
        EXPECT_NE(msg.find(c.must_mention), std::string::npos)
            << c.text << ": " << (msg.empty() ? "accepted" : msg);
        EXPECT_FALSE(exists(p)) << c.text << ": the kept file of a failed build was left behind";
        EXPECT_FALSE(exists(q)) << c.text << ": the kept file of a failed build was left behind";
        ::unlink(p.c_str());
        ::unlink(q.c_str());
    }
    // A failed build never removes a file it did not create (reuse=on).
    { std::ofstream(p.c_str()) << "a user's data\n"; }
    std::string msg = config_error_of(
        "disk=" + p + ",64MiB,syscall name=d keep=on reuse=on\nplacement=single device=x\n", "lab.cfg");
    EXPECT_FALSE(msg.empty());
    EXPECT_TRUE(exists(p)) << "a failed build removed a file it did not create";
}

// An existing empty file is not this machine's either: it was grown to the device size,
// written and left behind. Refused like any existing file unless reuse=on.
TEST(BackingFileSafety, ExistingEmptyFileIsRefusedWithoutReuse) {
    flashxxl::testing::temp_dir d;
    const std::string p = d / "empty.img";
    { std::ofstream(p.c_str()); }
    std::string msg = config_error_of("disk=" + p + ",4MiB,syscall name=d\n", "lab.cfg");
    EXPECT_NE(msg.find("lab.cfg:1: device 'd': field 'path'"), std::string::npos)
        << (msg.empty() ? "accepted" : msg);
    EXPECT_NE(msg.find("already exists"), std::string::npos) << msg;
    EXPECT_NE(msg.find("reuse=on"), std::string::npos) << msg;
    EXPECT_EQ(size_of(p), 0) << "the refused file was grown";
    {
        machine m = machine::from_config_text("disk=" + p + ",4MiB,syscall name=d reuse=on\n", "lab.cfg");
        EXPECT_EQ(m.dev(0).capacity(), 4 * MiB);
    }
    EXPECT_TRUE(exists(p)) << "a reused file is the user's: it stays";
}
