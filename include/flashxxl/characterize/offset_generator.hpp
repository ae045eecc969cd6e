// The start addresses of one I/O pattern: ordered, random (permutation), partitioned, parallel.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "flashxxl/characterize/experiment.hpp"
#include "flashxxl/characterize/random_permutation.hpp"

namespace flashxxl::characterize {

//! Turns request number i into a byte offset, as seeds/003 Table 1 defines the LBA functions
//! (Seq: TargetOffset + i * IOSize, Rnd: TargetOffset + random(TargetSize / IOSize) * IOSize,
//! Partitioned: P_i * PS + O_i, Order: TargetOffset + Incr * i * IOSize, all + IOShift), with
//! wrap-around inside the span and random addresses drawn as a permutation (seeds/000 App. A).
//! ParallelDegree streams get disjoint sub-spans and are interleaved round robin (queue depth 1).
//! The pattern must have passed check_experiments(); then every offset + block lies in the span.
class offset_generator {
    __extension__ typedef unsigned __int128 wide; // (j * incr) mod blocks without overflow

public:
    offset_generator(const io_pattern& p, std::uint64_t seed, std::uint64_t alignment = 512)
        : p_(p), seed_(seed) {
        std::uint64_t streams = p.parallel ? p.parallel : 1;
        sub_span_ = p.span / streams / alignment * alignment;
        std::uint64_t usable = sub_span_ - p.shift;
        blocks_ = usable / p.block;
        gran_ = p.effective_granularity();
        starts_ = (usable - p.block) / gran_ + 1;
        part_size_ = p.partitions ? usable / p.partitions / p.block * p.block : 0;
        for (std::uint64_t d = 0; d < streams; ++d) {
            std::uint64_t st = 0;
            if (p.random_start && blocks_ > 0)
                st = random_permutation(blocks_, seed ^ (0x5bd1e995ull * (d + 1)))[0];
            start_block_.push_back(st);
        }
    }

    //! Offset of request i (bytes from the start of the target).
    std::uint64_t operator()(std::uint64_t i) {
        std::uint64_t streams = start_block_.size();
        std::uint64_t d = i % streams, j = i / streams;
        std::uint64_t base = p_.offset + d * sub_span_ + p_.shift;
        switch (p_.order) {
        case address_order::ordered: {
            std::uint64_t step = static_cast<std::uint64_t>(p_.incr < 0 ? -p_.incr : p_.incr) % blocks_;
            std::uint64_t moved =
                static_cast<std::uint64_t>((static_cast<wide>(j % blocks_) * step) % blocks_);
            std::uint64_t pos = p_.incr >= 0 ? (start_block_[d] + moved) % blocks_
                                             : (start_block_[d] + blocks_ - 1 - moved) % blocks_;
            return base + pos * p_.block;
        }
        case address_order::random: {
            std::uint64_t epoch = j / starts_;
            std::uint64_t key = (seed_ * 0x9e3779b97f4a7c15ull) ^ (d << 32) ^ epoch;
            if (!perm_ || perm_key_ != key) {
                perm_.emplace(starts_, key);
                perm_key_ = key;
            }
            return base + (*perm_)[j % starts_] * gran_;
        }
        case address_order::partitioned: {
            std::uint64_t part = j % p_.partitions;
            std::uint64_t within = ((j / p_.partitions) % (part_size_ / p_.block)) * p_.block;
            return base + part * part_size_ + within;
        }
        }
        return base;
    }

    //! Number of distinct start addresses a random pattern draws from (per stream).
    std::uint64_t random_starts() const { return starts_; }

private:
    io_pattern p_;
    std::uint64_t seed_;
    std::uint64_t sub_span_ = 0, blocks_ = 1, gran_ = 1, starts_ = 1, part_size_ = 0;
    std::vector<std::uint64_t> start_block_;
    std::optional<random_permutation> perm_;
    std::uint64_t perm_key_ = 0;
};

} // namespace flashxxl::characterize
