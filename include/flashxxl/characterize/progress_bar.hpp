// A one-line progress bar with the expected remaining time, for stderr.
#pragma once

#include <chrono>
#include <cstdio>
#include <string>

namespace flashxxl::characterize {

//! Redraws "[#####.....]  45%  ETA 0:32  label" in place (carriage return), at most every
//! 100 ms. The ETA extrapolates the wall time spent so far over the remaining share.
class progress_bar {
public:
    explicit progress_bar(std::FILE* out, bool enabled = true) : out_(out), enabled_(enabled) {}
    ~progress_bar() { finish(); }

    //! Share done in [0, 1] and what runs now.
    void update(double fraction, const std::string& what) {
        if (!enabled_) return;
        auto now = std::chrono::steady_clock::now();
        if (drawn_ && now - last_ < std::chrono::milliseconds(100) && fraction < 1) return;
        last_ = now;
        drawn_ = true;
        double elapsed = std::chrono::duration<double>(now - start_).count();
        const int width = 30;
        int filled = static_cast<int>(fraction * width + 0.5);
        std::string bar(static_cast<std::size_t>(filled), '#');
        bar.resize(width, '.');
        std::string eta = "--:--";
        if (fraction > 0.001) {
            long s = static_cast<long>(elapsed * (1 - fraction) / fraction + 0.5);
            char buf[32];
            std::snprintf(buf, sizeof buf, "%ld:%02ld", s / 60, s % 60);
            eta = buf;
        }
        std::string label = what.size() > 40 ? what.substr(0, 40) : what;
        std::fprintf(out_, "\r[%s] %3d%%  ETA %s  %-40s", bar.c_str(), static_cast<int>(fraction * 100), eta.c_str(),
                     label.c_str());
        std::fflush(out_);
    }
    //! Ends the line (once).
    void finish() {
        if (enabled_ && drawn_) std::fprintf(out_, "\n");
        drawn_ = false;
        enabled_ = false;
    }

private:
    std::FILE* out_;
    bool enabled_;
    bool drawn_ = false;
    std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now(), last_{};
};

} // namespace flashxxl::characterize
