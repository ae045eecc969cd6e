// progress_bar: sparse plain lines on a non-terminal stream, in-place redraws on a terminal, nothing when
// disabled.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "flashxxl/progress_bar.hpp"

using clock_type = flashxxl::progress_bar::clock;

namespace {

//! An in-memory FILE* (not a terminal: it has no file descriptor) and what was written to it.
class memory_stream {
public:
    memory_stream() : file_(open_memstream(&buffer_, &size_)) {}
    memory_stream(const memory_stream&) = delete;
    memory_stream& operator=(const memory_stream&) = delete;
    ~memory_stream() {
        std::fclose(file_);
        std::free(buffer_);
    }
    std::FILE* file() const { return file_; }
    std::string text() const {
        std::fflush(file_);
        return std::string(buffer_, size_);
    }

private:
    char* buffer_ = nullptr;
    std::size_t size_ = 0;
    std::FILE* file_;
};

std::size_t count(const std::string& s, char c) {
    return static_cast<std::size_t>(std::count(s.begin(), s.end(), c));
}

clock_type::time_point at(clock_type::time_point t0, double seconds) {
    return t0 + std::chrono::duration_cast<clock_type::duration>(std::chrono::duration<double>(seconds));
}

//! Feeds `steps` evenly spaced updates over `total_s` modelled seconds, then finishes.
std::string run_lines(int steps, double total_s, flashxxl::progress_bar_options options = {}) {
    memory_stream out;
    auto t0 = clock_type::now();
    {
        flashxxl::progress_bar bar(out.file(), true, options, t0);
        EXPECT_FALSE(bar.redraws());
        for (int i = 0; i <= steps; ++i)
            bar.update(double(i) / steps, "step " + std::to_string(i), at(t0, total_s * i / steps));
        bar.finish(at(t0, total_s));
    }
    return out.text();
}

} // namespace

TEST(progress_bar, long_run_on_a_non_terminal_prints_about_one_line_per_ten_percent) {
    // 1000 updates over 1000 s: 10 % takes 100 s, longer than 30 s, so the 10 % rule decides.
    std::string text = run_lines(1000, 1000);
    EXPECT_EQ(count(text, '\r'), 0u) << text;
    EXPECT_EQ(count(text, '\n'), 11u + 1u) << text; // 0 %, 10 %, ..., 100 %, and the final line
    EXPECT_EQ(text.rfind("progress   0%", 0), 0u) << text;
    EXPECT_NE(text.find("progress  50%  after 500.0 s, ETA 8:20  step 500\n"), std::string::npos) << text;
    EXPECT_NE(text.find("progress 100%  done in 1000.0 s\n"), std::string::npos) << text;
}

TEST(progress_bar, short_run_on_a_non_terminal_prints_the_first_and_the_final_line) {
    // 10 s in all: no 30 s pass between updates, so only the first line and the final one.
    std::string text = run_lines(1000, 10);
    EXPECT_EQ(count(text, '\n'), 2u) << text;
    EXPECT_EQ(text, "progress   0%  after 0.0 s, ETA --:--  step 0\nprogress 100%  done in 10.0 s\n");
}

TEST(progress_bar, the_rarer_of_the_two_limits_decides) {
    // 10 % every 5 s: the 30 s limit binds, lines at 0 s (0 %) and 30 s (60 %), then the final line.
    std::string text = run_lines(10, 50);
    EXPECT_EQ(count(text, '\n'), 3u) << text;
    EXPECT_NE(text.find("progress  60%  after 30.0 s"), std::string::npos) << text;
    // Custom limits: every 25 % and 1 s.
    flashxxl::progress_bar_options o;
    o.line_every_fraction = 0.25;
    o.line_every_s = 1;
    EXPECT_EQ(count(run_lines(100, 1000, o), '\n'), 5u + 1u);
}

TEST(progress_bar, disabled_prints_nothing) {
    memory_stream out;
    {
        flashxxl::progress_bar bar(out.file(), false);
        bar.update(0.5, "half");
        bar.finish();
        flashxxl::progress_bar redrawn(out.file(), false, {flashxxl::progress_style::redraw});
        redrawn.update(0.5, "half");
    }
    EXPECT_EQ(out.text(), "");
}

TEST(progress_bar, a_run_that_ends_without_finish_says_where_it_stopped) {
    memory_stream out;
    auto t0 = clock_type::now();
    {
        flashxxl::progress_bar bar(out.file(), true, {}, t0);
        bar.update(0.0, "generating", t0);
        bar.update(0.45, "sorting", at(t0, 1)); // no line: under 30 s
    }
    std::string text = out.text();
    EXPECT_EQ(count(text, '\n'), 2u) << text;
    EXPECT_NE(text.find("progress  45%  stopped after "), std::string::npos) << text;
    EXPECT_NE(text.find("  sorting\n"), std::string::npos) << text;
}

TEST(progress_bar, redraw_style_rewrites_one_line_at_most_every_100_ms) {
    memory_stream out;
    auto t0 = clock_type::now();
    {
        flashxxl::progress_bar bar(out.file(), true, {flashxxl::progress_style::redraw}, t0);
        EXPECT_TRUE(bar.redraws());
        for (int i = 0; i < 1000; ++i)
            bar.update(i / 1000.0, "sorting", at(t0, i / 1000.0)); // 1 s in all
        bar.update(1.0, "sorting", at(t0, 1.0005));                // the end is always drawn
        bar.finish();
    }
    std::string text = out.text();
    EXPECT_EQ(count(text, '\n'), 1u) << text;
    EXPECT_EQ(text.back(), '\n');
    EXPECT_GE(count(text, '\r'), 10u);
    EXPECT_LE(count(text, '\r'), 12u);
    EXPECT_NE(text.find("\r[##############################] 100%  ETA 0:00  sorting"), std::string::npos)
        << text;
}

TEST(progress_bar, automatic_style_redraws_on_a_terminal) {
    int master = posix_openpt(O_RDWR | O_NOCTTY);
    if (master < 0 || grantpt(master) != 0 || unlockpt(master) != 0) {
        if (master >= 0) close(master);
        GTEST_SKIP() << "no pseudo-terminal available";
    }
    std::FILE* terminal = std::fopen(ptsname(master), "w");
    if (!terminal) {
        close(master);
        GTEST_SKIP() << "cannot open the pseudo-terminal's slave side";
    }
    {
        flashxxl::progress_bar bar(terminal, true);
        EXPECT_TRUE(bar.redraws());
    }
    std::fclose(terminal);
    close(master);
    memory_stream out;
    EXPECT_FALSE(flashxxl::progress_bar(out.file(), true).redraws());
}
