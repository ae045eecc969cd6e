// `flashxxl reproduce`: the device tables (seeds/000 Tables 2.1 and 3.1, uFLIP Table 3) on the pure device
// models.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <unordered_set>
#include <vector>

#include "flashxxl/device/device_model.hpp"
#include "flashxxl/device/host_model.hpp"
#include "flashxxl/device/model_presets.hpp"
#include "flashxxl/reproduce/table21_host_experiment.hpp"
#include "flashxxl/units.hpp"
#include "reproduce_tables.hpp"

namespace flashxxl::cli::reproduce {
namespace {

constexpr const char* ssd = "hama-ssd-2009";
//! Table 3.1's rows here are measured by the block-mapped model's fitting method (fresh device,
//! random offsets at 512 B granularity), which fits that model and not the log-block one; the
//! log-block hama-ssd-2009 is fitted under Appendix A's method in the log_block_fit table.
constexpr const char* ssd_block_mapped = "hama-ssd-2009-block-mapped";
constexpr const char* hdd = "barracuda-7200.11";

//! The span the golden numbers were fitted on (shared/DEVICE-MODELS.md): the first 8 GiB of
//! the SSD, the first ~120 GB of the HDD.
std::uint64_t fitted_span(const std::string& preset, const device_model& m) {
    return std::min<std::uint64_t>(m.capacity(), preset == hdd ? 120ull * 1000 * 1000 * 1000 : 8 * GiB);
}

//! Mean seconds per request of `count` requests of `bs` bytes on a fresh model: sequential
//! from offset 0, or uniformly random offsets that are multiples of `granularity` in the span
//! (the measurement method of the golden numbers), seeded.
double seconds_per_request(const std::string& preset, io_op op, std::uint64_t bs, bool random, int count,
                           std::uint64_t granularity, std::uint64_t seed = 1, bool whole_device = false,
                           std::uint64_t shift = 0) {
    auto dev = make_model(preset);
    const std::uint64_t span = whole_device ? dev->capacity() - granularity : fitted_span(preset, *dev);
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<std::uint64_t> slot(0, (span - bs) / granularity - 1);
    std::uint64_t pos = 0;
    double seconds = 0;
    for (int i = 0; i < count; ++i) {
        const std::uint64_t off = random ? slot(rng) * granularity + shift : pos;
        pos += bs;
        seconds += dev->service(op, off, bs);
    }
    return seconds / count;
}

//! MiB/s by the golden numbers' method; `count` requests on the SSD, ten times as many on the
//! HDD (its first request pays a seek, which a few hundred requests do not amortise).
double mib_per_s(const std::string& preset, io_op op, std::uint64_t bs, bool random, int count) {
    if (preset == hdd) count *= 10;
    return double(bs) / double(MiB) /
           seconds_per_request(preset, op, bs, random, count, 512, preset == hdd ? 2 : 1);
}

//! Mean seconds of one binary search for a random key in a sorted array of `bytes` of 8-byte
//! doubles: each probe reads its 4 KiB page unless the page cache (the first `cached_pages`
//! distinct pages read, kept for good: the top levels every search passes) holds it.
double binary_search_s(const std::string& preset, std::uint64_t bytes, int searches,
                       std::uint64_t cached_pages) {
    auto dev = make_model(preset);
    std::mt19937_64 rng(7);
    const std::uint64_t n = bytes / 8;
    std::unordered_set<std::uint64_t> cache;
    double seconds = 0;
    for (int s = 0; s < searches; ++s) {
        const std::uint64_t target = std::uniform_int_distribution<std::uint64_t>(0, n - 1)(rng);
        std::uint64_t lo = 0, hi = n;
        while (lo < hi) {
            const std::uint64_t mid = lo + (hi - lo) / 2;
            const std::uint64_t page = mid * 8 / 4096;
            if (!cache.count(page)) {
                seconds += dev->service(io_op::read, page * 4096, 4096);
                if (cache.size() < cached_pages) cache.insert(page);
            }
            if (mid < target)
                lo = mid + 1;
            else
                hi = mid;
        }
    }
    return seconds / searches;
}

} // namespace

report_table seeds000_table2_1(scale s, const progress_fn& progress) {
    report_table t;
    t.id = "seeds000_table2_1";
    t.title = "seeds/000 Table 2.1: basic algorithms on the Barracuda 7200.11 HDD and the 32 GB Hama SSD "
              "(rows 1-3 on a machine with the 2008 host, rows 4-5 device models only)";
    t.unit = "us per double (rows 1-3), ms per access (rows 4-5), ratio (last row)";
    const int count = s == scale::tiny ? 100 : 1000;
    const int searches = s == scale::tiny ? 20 : s == scale::quick ? 200 : 1000;
    struct paper_pair {
        double hdd, ssd;
    };
    const paper_pair gen{0.2, 0.37}, scan{0.3, 0.28}, sort{1.06, 1.5}, rr{11.3, 0.56}, bs{25.5, 3.36};
    flashxxl::reproduce::table21_host_options host_size;
    if (s == scale::tiny) host_size.bytes = 48 * MiB;
    double binary_search_ms[2] = {0, 0};
    for (const char* preset : {hdd, ssd}) {
        const bool is_hdd = std::string(preset) == hdd;
        const std::string dev = is_hdd ? "HDD" : "SSD";
        if (progress) progress(dev + " rows");
        // Rows 1-3 run on a machine with the device and the 2008 host
        // (reproduce/table21_host_experiment.hpp): the HDD's rows fit the host's costs per item, the SSD's
        // are predicted from them.
        const flashxxl::reproduce::table21_host_row h =
            flashxxl::reproduce::run_table21_host(preset, is_hdd, host_model_2008(), host_size);
        const std::string role = is_hdd ? "fitted (the 2008 host's cost per item); " : "predicted; ";
        auto wait_share = [](double io_wait, double total) {
            return "I/O wait " + fixed(100 * io_wait / total, 0) + " %";
        };
        auto pick = [&](const paper_pair& p) { return is_hdd ? p.hdd : p.ssd; };
        t.rows.push_back(
            {dev + ": generating a random double and writing it", pick(gen), h.generate_us,
             role + "2 MiB blocks, write-behind; " + wait_share(h.generate_io_wait_us, h.generate_us)});
        t.rows.push_back({dev + ": scanning, per double", pick(scan), h.scan_us,
                          role + "2 MiB blocks, prefetch; " + wait_share(h.scan_io_wait_us, h.scan_us)});
        t.rows.push_back({dev + ": external merge sort, per double", pick(sort), h.sort_us,
                          role +
                              "input read, runs, one merge, output (two read and two write passes, the "
                              "paper's count); " +
                              wait_share(h.sort_io_wait_us, h.sort_us)});
        t.rows.push_back(
            {dev + ": random read", pick(rr),
             seconds_per_request(preset, io_op::read, 8, true, 10 * count, 512, 2, is_hdd, 7) * 1e3,
             is_hdd ? "8 bytes at random offsets over the whole disk"
                    : "8 bytes at random offsets over 8 GiB; the paper's 0.56 ms includes host overhead"});
        binary_search_ms[is_hdd ? 0 : 1] = binary_search_s(preset, 1 * GiB, searches, 4096) * 1e3;
        t.rows.push_back({dev + ": binary search", pick(bs), binary_search_ms[is_hdd ? 0 : 1],
                          "1 GiB sorted array, 4 KiB pages, the 4096 first pages read stay cached"});
    }
    t.rows.push_back({"binary search, HDD / SSD", bs.hdd / bs.ssd, binary_search_ms[0] / binary_search_ms[1],
                      "the paper's 25.5 ms / 3.36 ms; the only binary-search figure that does not depend on "
                      "the array size and cache the paper does not give"});
    t.notes = {
        "Rows 1-3 run on an emulated device with the 2008 host (device/host_model.hpp): CPU per item written "
        "0.2 us, read 0.3 us, sorted 0.18 us per pass, overlapping with the device's I/O (write-behind, "
        "prefetch). Fitted on the HDD's three rows, which are CPU-bound (8 bytes at 88 MB/s take 0.09 us); "
        "the SSD's three rows are predictions. Rows 4-5 are device time only.",
        "The SSD's random read: the paper's 0.56 ms contradicts its own 512 B random-read rate (0.224 ms per "
        "request, Table 3.1); shared/DEVICE-MODELS.md models the difference as host overhead, not device "
        "time.",
        "Binary search: the paper does not give the array size or the cache; ours is a stated assumption "
        "(1 GiB, 16 MiB of pages cached), so only the HDD / SSD ratio is meaningful (the last row: paper "
        "7.6, derived from its two times)."};
    return t;
}

report_table seeds000_table3_1(scale s, const progress_fn& progress) {
    report_table t;
    t.id = "seeds000_table3_1";
    t.title =
        "seeds/000 Table 3.1: MB/s at 512 B and 2 MB, sequential / random reads and writes (the two devices "
        "the project models)";
    t.unit = "MiB/s";
    const int small = s == scale::tiny ? 300 : 3000, large = s == scale::tiny ? 40 : 400;
    struct device_rows {
        const char* preset;
        const char* name;
        double paper[8]; // sr rr sw rw at 512 B, then at 2 MB
    };
    const device_rows devices[] = {
        {ssd_block_mapped, "hama SSD 32g (block-mapped)", {2.9, 2.18, 4.89, 0.012, 28.03, 28.02, 24.5, 12.6}},
        {hdd, "barracuda 7200.11 500g", {6.2, 0.063, 5.1, 0.12, 87.5, 69.6, 88.1, 71.7}},
    };
    const char* patterns[4] = {"sr", "rr", "sw", "rw"};
    for (const device_rows& d : devices) {
        if (progress) progress(d.name);
        for (int size = 0; size < 2; ++size)
            for (int p = 0; p < 4; ++p) {
                const std::uint64_t bs = size == 0 ? 512 : 2 * MiB;
                const io_op op = p < 2 ? io_op::read : io_op::write;
                const double v = mib_per_s(d.preset, op, bs, p % 2 == 1, size == 0 ? small : large);
                t.rows.push_back({std::string(d.name) + ": " + patterns[p] + (size == 0 ? " 512 B" : " 2 MB"),
                                  d.paper[size * 4 + p], v, ""});
            }
    }
    t.notes = {
        "The paper's order of devices kept for the two rows it has that the project models; the other 15 "
        "devices have no model.",
        "The Hama rows are hama-ssd-2009-block-mapped, fitted by this table's method. The log-block "
        "hama-ssd-2009 (the machines' Hama) is fitted under the paper's own method, Appendix A (1 MiB fill, "
        "3 x 30 s, block-aligned random starts), in the table log_block_fit: all 8 cells within 10 %. By "
        "this table's method it gives rw 512 B 4.89 MiB/s (3000 writes on a fresh device stay within its "
        "3072-page log pool, so no merge is paid yet) and rw 2 MB 11.90 (measured 2026-11-28).",
        "Method of the fit (shared/DEVICE-MODELS.md): sequential from offset 0, random at 512 B granularity "
        "over the first 8 GiB (SSD) / 120 GB (HDD); MB read as MiB. The models must land within 5% (HDD "
        "random "
        "2 MB reads within 10%)."};
    return t;
}

report_table uflip_table3(scale s, const progress_fn& progress) {
    report_table t;
    t.id = "uflip_table3";
    t.title = "uFLIP (seeds/003) Table 3 basic indicators: ms per 32 KiB IO, SR / RR / SW / RW, for the "
              "model presets";
    t.unit = "ms per IO";
    const int count = s == scale::tiny ? 128 : 1024; // uFLIP's IOCount
    // The paper measured none of our presets; the Transcend IDE module is the IDE-class flash
    // device of its table nearest to the 2009 Hama IDE SSD, shown beside it for scale.
    const double transcend_module[4] = {1.2, 1.3, 1.7, 18};
    const char* patterns[4] = {"SR", "RR", "SW", "RW"};
    for (const std::string& preset : model_preset_names()) {
        if (progress) progress(preset);
        for (int p = 0; p < 4; ++p) {
            const io_op op = p < 2 ? io_op::read : io_op::write;
            const double ms = seconds_per_request(preset, op, 32 * KiB, p % 2 == 1, count, 32 * KiB) * 1e3;
            report_row r{preset + ": " + patterns[p], std::nullopt, ms, ""};
            if (preset == ssd || preset == ssd_block_mapped) {
                r.paper = transcend_module[p];
                r.note = "paper: Transcend IDE module (nearest device class uFLIP measured)";
            }
            t.rows.push_back(r);
        }
    }
    t.notes = {
        "IOSize 32 KiB, IOCount " + std::to_string(count) +
            ", random offsets aligned to IOSize over the fitted span (8 GiB for SSDs, 120 GB for the 2009 "
            "HDD), "
            "fresh device state (no random-state enforcement: a pure model has no hidden state to settle).",
        "uFLIP measured none of the modelled devices; only the Hama rows get a paper number, from the "
        "nearest "
        "device class, so their ratio shows the order of magnitude, not a fit.",
        "nvme-gen4 writes are its cached writes (shared/DEVICE-MODELS.md: the post-cache rate is unknown)."};
    return t;
}

} // namespace flashxxl::cli::reproduce
