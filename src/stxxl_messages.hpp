// Keeps stdout for the CLI's own output: STXXL's "[STXXL-...]" message lines go to stderr.
#pragma once

#include <cstring>
#include <iostream>
#include <mutex>
#include <streambuf>

namespace flashxxl::cli {

//! A stream buffer in front of std::cout's. STXXL prints its messages (the "[STXXL-MSG] ..."
//! banner, O_DIRECT fallbacks) to std::cout, one whole line per write; a write that starts a
//! line with "[STXXL-" goes to `diverted` instead, so that `--json` output stays pure JSON.
//! Unbuffered and locked: STXXL's I/O threads may print while the main thread does.
class stxxl_message_filter : public std::streambuf {
public:
    stxxl_message_filter(std::streambuf* out, std::streambuf* diverted) : out_(out), diverted_(diverted) {}

protected:
    std::streamsize xsputn(const char* s, std::streamsize n) override {
        std::lock_guard<std::mutex> lock(mutex_);
        if (n <= 0) return 0;
        static constexpr char tag[] = "[STXXL-";
        bool stxxl =
            line_start_ && n >= std::streamsize(sizeof tag - 1) && std::memcmp(s, tag, sizeof tag - 1) == 0;
        std::streambuf* to = stxxl ? diverted_ : out_;
        std::streamsize written = to->sputn(s, n);
        if (stxxl) to->pubsync();
        line_start_ = s[n - 1] == '\n';
        return written;
    }
    int_type overflow(int_type c) override {
        if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
        char ch = traits_type::to_char_type(c);
        return xsputn(&ch, 1) == 1 ? c : traits_type::eof();
    }
    int sync() override {
        std::lock_guard<std::mutex> lock(mutex_);
        return out_->pubsync();
    }

private:
    std::streambuf* out_;
    std::streambuf* diverted_;
    std::mutex mutex_;
    bool line_start_ = true;
};

//! Installs an stxxl_message_filter on std::cout for its lifetime (STXXL lines to std::cerr).
class scoped_stxxl_message_filter {
public:
    scoped_stxxl_message_filter() : filter_(std::cout.rdbuf(), std::cerr.rdbuf()) {
        original_ = std::cout.rdbuf(&filter_);
    }
    ~scoped_stxxl_message_filter() {
        std::cout.flush();
        std::cout.rdbuf(original_);
    }
    scoped_stxxl_message_filter(const scoped_stxxl_message_filter&) = delete;
    scoped_stxxl_message_filter& operator=(const scoped_stxxl_message_filter&) = delete;

private:
    stxxl_message_filter filter_;
    std::streambuf* original_ = nullptr;
};

} // namespace flashxxl::cli
