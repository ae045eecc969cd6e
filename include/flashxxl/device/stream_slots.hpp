// The sequential log streams of a hybrid log-block FTL: one open log per unit being written in order, LRU.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace flashxxl {

//! One unit being written in address order into its own log block: the data block still holds
//! [0, start) and [write pointer, unit end).
struct log_stream {
    std::uint64_t unit = 0;
    std::uint64_t start = 0;         //!< offset in the unit where the stream began
    std::uint64_t write_pointer = 0; //!< offset in the unit where the next in-order write lands
    std::uint64_t pages = 0;         //!< log pages the stream occupies
    std::uint64_t last_use = 0;      //!< for least-recently-used eviction
};

//! At most `capacity` open streams, found by unit; the least recently used one is evicted
//! first. Linear search: a device has a handful of streams.
class stream_slots {
public:
    explicit stream_slots(std::uint64_t capacity = 1) : capacity_(capacity) {}

    bool full() const { return streams_.size() >= capacity_; }
    bool empty() const { return streams_.empty(); }
    std::size_t size() const { return streams_.size(); }

    //! The stream of `unit`, or nullptr.
    log_stream* find(std::uint64_t unit) {
        for (auto& s : streams_)
            if (s.unit == unit) return &s;
        return nullptr;
    }
    //! Marks `s` as just used.
    void touch(log_stream& s) { s.last_use = ++clock_; }

    //! Opens a stream (the caller made room: !full()).
    log_stream& open(std::uint64_t unit, std::uint64_t start) {
        log_stream s;
        s.unit = unit;
        s.start = start;
        s.write_pointer = start;
        s.last_use = ++clock_;
        streams_.push_back(s);
        return streams_.back();
    }

    //! Removes the stream of `unit` and returns it, if there was one.
    std::optional<log_stream> close(std::uint64_t unit) {
        for (std::size_t i = 0; i < streams_.size(); ++i)
            if (streams_[i].unit == unit) {
                log_stream s = streams_[i];
                streams_.erase(streams_.begin() + std::ptrdiff_t(i));
                return s;
            }
        return std::nullopt;
    }

    //! The unit of the least recently used stream other than `keep` (nullopt if none).
    std::optional<std::uint64_t> least_recent(std::optional<std::uint64_t> keep = std::nullopt) const {
        const log_stream* best = nullptr;
        for (const auto& s : streams_)
            if ((!keep || s.unit != *keep) && (!best || s.last_use < best->last_use)) best = &s;
        if (!best) return std::nullopt;
        return best->unit;
    }

    //! Pages all open streams occupy.
    std::uint64_t pages() const {
        std::uint64_t n = 0;
        for (const auto& s : streams_)
            n += s.pages;
        return n;
    }

    void clear() {
        streams_.clear();
        clock_ = 0;
    }

private:
    std::uint64_t capacity_;
    std::uint64_t clock_ = 0;
    std::vector<log_stream> streams_;
};

} // namespace flashxxl
