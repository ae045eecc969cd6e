// The one file lock: its kinds exclude each other, name the holder, keep targets and devices apart.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <functional>
#include <string>

#include "flashxxl/characterize/file_target.hpp"
#include "flashxxl/file_lock.hpp"
#include "flashxxl/machine/machine.hpp"
#include "flashxxl/units.hpp"
#include "support/temp_dir.hpp"

using namespace flashxxl;
using flashxxl::testing::temp_dir;

namespace {

//! A forked child that runs body(hold): the body takes what it tests, then calls hold(text),
//! which reports text to the parent and waits until the parent lets go (finish()). A body that
//! throws reports "error: WHAT". This process never starts STXXL itself, so a child may.
class child_process {
public:
    using hold_fn = std::function<void(const std::string&)>;
    explicit child_process(const std::function<void(const hold_fn&)>& body) {
        int up[2], down[2];
        if (::pipe(up) != 0 || ::pipe(down) != 0) throw std::runtime_error("pipe failed");
        pid_ = ::fork();
        if (pid_ < 0) throw std::runtime_error("fork failed");
        if (pid_ == 0) {
            ::close(up[0]);
            ::close(down[1]);
            auto say = [&](const std::string& text) {
                const std::string line = text + "\n";
                (void)!::write(up[1], line.data(), line.size());
            };
            try {
                body([&](const std::string& text) {
                    say(text);
                    char c;
                    (void)!::read(down[0], &c, 1); // EOF once the parent is done
                });
            } catch (const std::exception& e) {
                say(std::string("error: ") + e.what());
            }
            ::_exit(0);
        }
        ::close(up[1]);
        ::close(down[0]);
        from_child_ = up[0];
        to_child_ = down[1];
    }
    child_process(const child_process&) = delete;
    child_process& operator=(const child_process&) = delete;
    ~child_process() { finish(); }

    //! The child's report (its first line), waiting for it.
    std::string report() {
        std::string line;
        char c;
        while (::read(from_child_, &c, 1) == 1 && c != '\n')
            line += c;
        return line;
    }
    //! Lets the child go and waits for it to end.
    void finish() {
        if (pid_ <= 0) return;
        ::close(to_child_);
        ::close(from_child_);
        int status = 0;
        ::waitpid(pid_, &status, 0);
        pid_ = -1;
    }
    pid_t pid() const { return pid_; }

private:
    pid_t pid_ = -1;
    int from_child_ = -1, to_child_ = -1;
};

//! A descriptor of `path` open for writing, closed at scope exit.
struct open_file {
    explicit open_file(const std::string& path)
        : fd(::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644)) {}
    open_file(const open_file&) = delete;
    open_file& operator=(const open_file&) = delete;
    ~open_file() {
        if (fd >= 0) ::close(fd);
    }
    int fd;
};

std::string my_command() {
    std::ifstream in("/proc/self/comm");
    std::string name;
    std::getline(in, name);
    return name;
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

} // namespace

TEST(file_lock, holder_text_names_the_process_or_says_it_is_not_known) {
    EXPECT_EQ(lock_holder{}.text(), "another process");
    EXPECT_EQ((lock_holder{1234, "flashxxl"}).text(), "process 1234 (flashxxl)");
    EXPECT_EQ((lock_holder{1234, ""}).text(), "process 1234");
}

// Two targets in one process: open-file locks exclude each other, and the holder (pid -1 to
// F_OFD_GETLK) is found through /proc/PID/fdinfo.
TEST(file_lock, open_file_locks_exclude_each_other_in_one_process) {
    temp_dir d;
    const std::string p = d / "f.img";
    open_file a(p), b(p);
    ASSERT_FALSE(lock_whole_file(a.fd, lock_scope::open_file, p));
    auto holder = lock_whole_file(b.fd, lock_scope::open_file, p);
    ASSERT_TRUE(holder) << "a second open-file lock on the same file was granted";
    EXPECT_EQ(holder->pid, ::getpid());
    EXPECT_EQ(holder->command, my_command());
    ::close(a.fd);
    a.fd = -1;
    EXPECT_FALSE(lock_whole_file(b.fd, lock_scope::open_file, p)) << "the lock outlived its descriptor";
    EXPECT_FALSE(whole_file_lock_holder(b.fd)) << "its own lock does not conflict with itself";
}

// STXXL's kind (a process lock) and the target's kind refuse each other even in one process.
TEST(file_lock, the_two_kinds_refuse_each_other_in_one_process) {
    temp_dir d;
    const std::string p = d / "f.img";
    open_file a(p), b(p), c(p);
    ASSERT_FALSE(lock_whole_file(a.fd, lock_scope::process, p));
    EXPECT_FALSE(lock_whole_file(b.fd, lock_scope::process, p))
        << "a process lock is the process's: granted again";
    auto holder = lock_whole_file(c.fd, lock_scope::open_file, p);
    ASSERT_TRUE(holder) << "an open-file lock was granted beside a process lock";
    EXPECT_EQ(holder->pid, ::getpid());
}

TEST(file_lock, a_process_lock_in_another_process_refuses_both_kinds_naming_its_pid) {
    temp_dir d;
    const std::string p = d / "f.img";
    { open_file make(p); }
    child_process child([&](const child_process::hold_fn& hold) {
        open_file f(p);
        auto h = lock_whole_file(f.fd, lock_scope::process, p);
        hold(h ? "refused by " + h->text() : "locked");
    });
    ASSERT_EQ(child.report(), "locked");
    open_file f(p);
    for (lock_scope scope : {lock_scope::open_file, lock_scope::process}) {
        auto holder = lock_whole_file(f.fd, scope, p);
        ASSERT_TRUE(holder) << "the child's lock did not refuse this process";
        EXPECT_EQ(holder->pid, child.pid());
    }
    child.finish();
    EXPECT_FALSE(lock_whole_file(f.fd, lock_scope::open_file, p)) << "the lock outlived its process";
}

TEST(file_lock, an_open_file_lock_refuses_a_process_lock_in_another_process) {
    temp_dir d;
    const std::string p = d / "f.img";
    open_file mine(p);
    ASSERT_FALSE(lock_whole_file(mine.fd, lock_scope::open_file, p));
    child_process child([&](const child_process::hold_fn& hold) {
        open_file f(p);
        auto h = lock_whole_file(f.fd, lock_scope::process, p);
        hold(h ? "refused by " + h->text() : "locked");
    });
    // the child inherits the descriptor, not the lock's ownership: the holder is this process
    EXPECT_EQ(child.report(), "refused by process " + std::to_string(::getpid()) + " (" + my_command() + ")");
}

// The issue: a machine with reuse=on on a file that a running characterize measures overwrote
// it (flock and STXXL's fcntl lock do not see each other). Now the machine is refused.
TEST(file_lock, a_machine_with_reuse_is_refused_a_file_characterize_measures) {
    temp_dir d("."); // the target wants a disk file system, not tmpfs
    const std::string p = d / "target.img";
    characterize::file_target target(p, 1 * MiB);
    child_process child([&](const child_process::hold_fn& hold) {
        machine m = machine::from_config_text("disk=" + p + ",4MiB,syscall name=d reuse=on\n", "lab.cfg");
        hold("built");
    });
    const std::string msg = child.report();
    EXPECT_TRUE(contains(msg, "error: lab.cfg:1: device 'd': field 'path': '" + p + "' is in use: process " +
                                  std::to_string(::getpid())))
        << msg;
    EXPECT_TRUE(contains(msg, "holds its lock")) << msg;
}

// ... and the other way round: characterize is refused a file a machine device is built on.
TEST(file_lock, characterize_is_refused_a_file_a_machine_device_uses) {
    temp_dir d(".");
    const std::string p = d / "target.img";
    {
        characterize::file_target made(p, 1 * MiB);
        made.remove_on_close(false);
    }
    child_process child([&](const child_process::hold_fn& hold) {
        machine m = machine::from_config_text("disk=" + p + ",4MiB,syscall name=d reuse=on\n", "lab.cfg");
        hold("built");
    });
    ASSERT_EQ(child.report(), "built");
    try {
        characterize::file_target target(p, 0);
        FAIL() << "characterize opened a file a machine device uses";
    } catch (const io_failure& e) {
        EXPECT_TRUE(contains(e.what(), "'" + p + "' is in use: process " + std::to_string(child.pid())))
            << e.what();
    }
    child.finish();
    characterize::file_target again(p, 0); // free once the machine is gone
    EXPECT_FALSE(again.created());
}
