// A progress bar with the expected remaining time: redrawn in place on a terminal, a few plain lines
// elsewhere.
#pragma once

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <string>

namespace flashxxl {

//! How a progress_bar writes.
enum class progress_style {
    automatic, //!< `redraw` when the stream is a terminal, `lines` otherwise (pipes, files, CI logs)
    redraw, //!< "[#####.....]  45%  ETA 0:32  label" rewritten in place (carriage return), at most every 100
            //!< ms
    lines,  //!< plain lines, sparse (see progress_bar_options), and one final line
};

//! Settings of a progress_bar; the defaults suit stderr of a command-line tool.
struct progress_bar_options {
    progress_style style = progress_style::automatic;
    //! `lines`: a new line needs both this much more progress and line_every_s more seconds
    //! since the last line (whichever is rarer), so a run prints at most about 1 / line_every_fraction lines.
    double line_every_fraction = 0.1;
    double line_every_s = 30;
};

//! Shows the share done of a long run and its ETA, which extrapolates the wall time spent so far
//! over the remaining share. On a terminal one line is redrawn in place; on any other stream the
//! first update prints a line at once, later ones at most every 10 % and 30 s (by default), and
//! finish() prints a last line, so a CI log gets a dozen lines, not thousands of redraws.
//! A disabled bar prints nothing.
class progress_bar {
public:
    using clock = std::chrono::steady_clock;

    //! Writes to `out` (e.g. stderr); the run's clock starts at `start`.
    explicit progress_bar(std::FILE* out, bool enabled = true, progress_bar_options options = {},
                          clock::time_point start = clock::now())
        : out_(out), enabled_(enabled && out != nullptr), options_(options), start_(start) {
        redraw_ = options_.style == progress_style::redraw ||
                  (options_.style == progress_style::automatic && out_ && ::isatty(::fileno(out_)) != 0);
    }
    progress_bar(const progress_bar&) = delete;
    progress_bar& operator=(const progress_bar&) = delete;
    //! Ends the line on a terminal; elsewhere says where the run stopped if finish() was not called.
    ~progress_bar() { end(clock::now(), false); }

    //! Share done in [0, 1] and what runs now.
    void update(double fraction, const std::string& what) { update(fraction, what, clock::now()); }
    //! The same at a given time (tests, callers with their own clock).
    void update(double fraction, const std::string& what, clock::time_point now) {
        if (!enabled_) return;
        if (redraw_) return redraw(fraction, what, now);
        fraction_ = fraction;
        label_ = what;
        if (drawn_ && (fraction - line_fraction_ < options_.line_every_fraction - 1e-9 ||
                       seconds(line_time_, now) < options_.line_every_s))
            return;
        drawn_ = true;
        line_fraction_ = fraction;
        line_time_ = now;
        std::fprintf(out_, "progress %3d%%  after %.1f s, ETA %s  %s\n", percent(fraction),
                     seconds(start_, now), eta(fraction, now).c_str(), what.c_str());
        std::fflush(out_);
    }

    //! The run is complete: ends the redrawn line, or prints the final plain line. Once.
    void finish() { finish(clock::now()); }
    void finish(clock::time_point now) { end(now, true); }

    //! True when updates redraw one line in place (a terminal or progress_style::redraw).
    bool redraws() const { return redraw_; }

private:
    static double seconds(clock::time_point from, clock::time_point to) {
        return std::chrono::duration<double>(to - from).count();
    }
    static int percent(double fraction) { return static_cast<int>(fraction * 100); }

    //! "m:ss" left at the current rate, "--:--" before there is a rate.
    std::string eta(double fraction, clock::time_point now) const {
        if (fraction <= 0.001) return "--:--";
        long s = static_cast<long>(seconds(start_, now) * (1 - fraction) / fraction + 0.5);
        char buf[32];
        std::snprintf(buf, sizeof buf, "%ld:%02ld", s / 60, s % 60);
        return buf;
    }

    void redraw(double fraction, const std::string& what, clock::time_point now) {
        if (drawn_ && now - last_redraw_ < std::chrono::milliseconds(100) && fraction < 1) return;
        last_redraw_ = now;
        drawn_ = true;
        const int width = 30;
        int filled = static_cast<int>(fraction * width + 0.5);
        std::string bar(static_cast<std::size_t>(filled), '#');
        bar.resize(width, '.');
        std::string label = what.size() > 40 ? what.substr(0, 40) : what;
        std::fprintf(out_, "\r[%s] %3d%%  ETA %s  %-40s", bar.c_str(), percent(fraction),
                     eta(fraction, now).c_str(), label.c_str());
        std::fflush(out_);
    }

    void end(clock::time_point now, bool complete) {
        if (enabled_ && drawn_) {
            if (redraw_)
                std::fprintf(out_, "\n");
            else if (complete)
                std::fprintf(out_, "progress 100%%  done in %.1f s\n", seconds(start_, now));
            else
                std::fprintf(out_, "progress %3d%%  stopped after %.1f s  %s\n", percent(fraction_),
                             seconds(start_, now), label_.c_str());
            std::fflush(out_);
        }
        drawn_ = false;
        enabled_ = false;
    }

    std::FILE* out_;
    bool enabled_;
    progress_bar_options options_;
    bool redraw_ = false;
    bool drawn_ = false;
    clock::time_point start_, last_redraw_{}, line_time_{};
    double fraction_ = 0, line_fraction_ = 0;
    std::string label_;
};

} // namespace flashxxl
