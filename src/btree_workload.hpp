// The flashxxl::map workload of `flashxxl btree` and bench_map: bulk load, random finds, random inserts,
// range scans, each measured on the devices.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench_items.hpp"
#include "flashxxl/container/map.hpp"
#include "flashxxl/cost/cost_model.hpp"
#include "flashxxl/cost/predict_map.hpp"
#include "flashxxl/device/device_stats.hpp"
#include "flashxxl/device/device_stats_json.hpp"
#include "flashxxl/device/modelled_clock.hpp"
#include "flashxxl/error.hpp"
#include "flashxxl/machine/machine.hpp"
#include "flashxxl/units.hpp"

namespace flashxxl::cli {

//! What the workload does: `items` keys 0, 4, 8, ... bulk loaded (value mix64(key)), `finds`
//! random finds (a quarter of them hits), `inserts` random keys not bulk loaded (then flush),
//! `batch` more as one sorted batch (then flush): both drawn from the 3 x items keys between
//! the loaded ones (4 i + 1, 2, 3). A key drawn again (certain once inserts and batch pass
//! 3 x items) is already present: map::insert leaves it as it is (std::map::insert; the value
//! would be the same, mix64(key)) and the repeat costs only its search, the tree does not grow.
//! `scans` range scans of `scan_length` items from random keys. Every phase starts with cold
//! caches (drop_cache).
struct btree_workload {
    std::uint64_t items = 1000000;
    std::uint64_t finds = 10000;
    std::uint64_t inserts = 10000;
    std::uint64_t batch = 100000;
    std::uint64_t scans = 100;
    std::uint64_t scan_length = 10000;
    std::uint64_t seed = 1;
};

//! One measured phase: device counters summed over the machine, the busiest device's modelled
//! busy time, the phase on the machine's virtual clock (elapsed and I/O wait, as every command
//! reports them), wall time.
struct btree_phase {
    std::string name;
    std::uint64_t ops = 0;
    io_counters io;
    double modelled_s = 0;  //!< the busiest device's busy time (sum of its service times)
    modelled_time modelled; //!< the clock's advance over the phase
    double wall_s = 0;
    //! The closed form's prediction (cost/predict_map.hpp): bulk load and random finds only.
    bool has_prediction = false;
    io_prediction predicted;
    double predicted_modelled_s = 0;
};

//! A run of the workload with one layout (a pair of block sizes).
struct btree_run {
    std::string layout; // "two-level", "one block Br", "one block Bw"
    block_sizes blocks;
    std::uint64_t memory = 0, entry_bytes = 0, items = 0;
    unsigned height = 0;
    std::uint64_t nodes = 0;
    std::uint64_t leaf_capacity = 0;
    std::vector<btree_phase> phases;
    bool verified = true;
};

namespace detail_btree {

using key_t = std::uint64_t;
using value_t = std::uint64_t;
using map_t = flashxxl::map<key_t, value_t>;

//! A forward iterator over the bulk-load input (key 4 i, value mix64(4 i)), generated on the fly.
class input_iterator {
public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = std::pair<key_t, value_t>;
    using difference_type = std::ptrdiff_t;
    using pointer = const value_type*;
    using reference = value_type;
    explicit input_iterator(std::uint64_t i = 0) : i_(i) {}
    value_type operator*() const { return {4 * i_, mix64(4 * i_)}; }
    //! `it->first` on a generated item (stxxl::map's bulk constructor reads it so).
    struct arrow {
        value_type item;
        const value_type* operator->() const { return &item; }
    };
    arrow operator->() const { return {**this}; }
    input_iterator& operator++() {
        ++i_;
        return *this;
    }
    input_iterator operator++(int) {
        input_iterator old = *this;
        ++i_;
        return old;
    }
    friend difference_type operator-(const input_iterator& a, const input_iterator& b) {
        return difference_type(a.i_) - difference_type(b.i_);
    }
    friend bool operator==(const input_iterator& a, const input_iterator& b) { return a.i_ == b.i_; }
    friend bool operator!=(const input_iterator& a, const input_iterator& b) { return a.i_ != b.i_; }

private:
    std::uint64_t i_;
};

//! The keys of the batched inserts: `batch` new random keys, sorted (a batch of updates
//! applied in key order, so that the updates of one leaf meet while it is cached).
inline std::vector<key_t> batch_keys(const btree_workload& w) {
    std::vector<key_t> keys(w.batch);
    for (std::uint64_t i = 0; i < w.batch; ++i)
        keys[i] = 4 * (mix64(w.seed * 0x3c6e + i) % w.items) + 1 + (i + 1) % 3;
    std::sort(keys.begin(), keys.end());
    return keys;
}

} // namespace detail_btree

//! Runs the workload on machine `m` (role static_data) with block sizes `b` and budget
//! `memory`; `layout` names the run. Throws error when a result is wrong.
inline btree_run run_btree_workload(machine& m, std::uint64_t memory, const block_sizes& b,
                                    const btree_workload& w, const std::string& layout) {
    using namespace detail_btree;
    btree_run r;
    r.layout = layout;
    r.blocks = b;
    r.memory = memory;
    r.entry_bytes = sizeof(key_t) + sizeof(value_t);
    r.items = w.items;
    map_t t(m, memory, b);
    auto measure = [&](const std::string& name, std::uint64_t ops, auto&& body) {
        std::vector<device_stats> before = m.stats();
        const modelled_time clock_before = m.modelled();
        auto t0 = std::chrono::steady_clock::now();
        body();
        btree_phase p;
        p.name = name;
        p.ops = ops;
        p.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        std::vector<device_stats> after = m.stats();
        p.modelled = m.modelled() - clock_before;
        for (std::size_t i = 0; i < after.size(); ++i) {
            io_counters d = after[i].total - before[i].total;
            p.io += d;
            p.modelled_s = std::max(p.modelled_s, d.modelled_s);
        }
        r.phases.push_back(p);
    };
    auto fail = [&](const std::string& what) { throw error("flashxxl btree (" + layout + "): " + what); };

    const cost_model pricing = cost_model::for_role(m, role::static_data, b);
    auto predicted = [&](const io_prediction& p) {
        btree_phase& ph = r.phases.back();
        ph.has_prediction = true;
        ph.predicted = p;
        ph.predicted_modelled_s = p.modelled_s(pricing);
    };
    measure("bulk load", w.items, [&] { t.bulk_load(input_iterator(0), input_iterator(w.items)); });
    predicted(predict::map_bulk_load<key_t, value_t>(w.items, b));
    t.drop_cache();
    measure("random finds", w.finds, [&] {
        for (std::uint64_t i = 0; i < w.finds; ++i) {
            key_t k = mix64(w.seed * 0x9e37 + i) % (4 * w.items);
            auto it = t.find(k);
            bool hit = k % 4 == 0 && k / 4 < w.items;
            if ((it != t.end()) != hit || (hit && it->second != mix64(k)))
                fail("find(" + std::to_string(k) + ") is wrong");
        }
    });
    predicted(predict::map_finds<key_t, value_t>(w.items, w.finds, memory, b));
    t.drop_cache();
    measure("random inserts", w.inserts, [&] {
        for (std::uint64_t i = 0; i < w.inserts; ++i) {
            key_t k = 4 * (mix64(w.seed * 0x51ed + i) % w.items) + 1 + i % 3;
            t.insert({k, mix64(k)});
        }
        t.flush(); // the writes the inserts owe
    });
    predicted(predict::map_inserts_bound<key_t, value_t>(w.items, w.inserts, b));
    t.drop_cache();
    measure("batched inserts", w.batch, [&] {
        for (key_t k : batch_keys(w))
            t.insert({k, mix64(k)});
        t.flush();
    });
    predicted(predict::map_inserts_bound<key_t, value_t>(w.items + w.inserts, w.batch, b));
    t.drop_cache();
    measure("range scans", w.scans * w.scan_length, [&] {
        for (std::uint64_t i = 0; i < w.scans; ++i) {
            key_t from = mix64(w.seed * 0x7f4a + i) % (4 * w.items);
            key_t last = 0;
            std::uint64_t seen = 0;
            for (auto it = t.lower_bound(from); it != t.end() && seen < w.scan_length; ++it, ++seen) {
                if (it->first < from || (seen > 0 && it->first <= last)) fail("a range scan is out of order");
                last = it->first;
            }
        }
    });
    predicted(predict::map_range_scans_bound<key_t, value_t>(w.items + w.inserts + w.batch, w.scans,
                                                             w.scan_length, b));
    r.height = t.height();
    r.nodes = t.node_count();
    r.leaf_capacity = t.leaf_capacity();
    return r;
}

//! A ratio as text with three decimals.
inline std::string fixed_ratio(double x) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f", x);
    return buf;
}

//! The phases of several runs side by side: per phase and layout, modelled seconds, items
//! transferred per operation, and the ratio of modelled time to the first run.
inline void print_btree_table(const std::vector<btree_run>& runs, const std::string& title) {
    if (runs.empty()) return;
    std::printf("%s\n", title.c_str());
    for (const btree_run& r : runs)
        std::printf("  %-14s %s, M = %s: height %u, %llu nodes, %llu entries per leaf\n", r.layout.c_str(),
                    r.blocks.describe().c_str(), format_bytes(double(r.memory)).c_str(), r.height,
                    static_cast<unsigned long long>(r.nodes),
                    static_cast<unsigned long long>(r.leaf_capacity));
    std::printf("  %-15s %-14s %12s %12s %14s %14s %10s %10s %12s %10s\n", "phase", "layout", "modelled_s",
                "vs first", "items read/op", "items wrtn/op", "reads", "wall_s", "energy_J", "vol/pred");
    for (std::size_t p = 0; p < runs[0].phases.size(); ++p) {
        const double base = runs[0].phases[p].modelled_s;
        for (const btree_run& r : runs) {
            const btree_phase& ph = r.phases[p];
            const double ops = double(std::max<std::uint64_t>(ph.ops, 1));
            const double volume = double(ph.io.read_bytes + ph.io.write_bytes);
            const std::string vs_predicted =
                ph.has_prediction && ph.predicted.volume() > 0
                    ? fixed_ratio(volume / ph.predicted.volume()) + (ph.predicted.bound ? " (bound)" : "")
                    : "-";
            std::printf("  %-15s %-14s %12.3f %12.2f %14.1f %14.1f %10llu %10.3f %12s %10s\n",
                        ph.name.c_str(), r.layout.c_str(), ph.modelled_s,
                        base > 0 ? ph.modelled_s / base : 0.0,
                        double(ph.io.read_bytes) / double(r.entry_bytes) / ops,
                        double(ph.io.write_bytes) / double(r.entry_bytes) / ops,
                        static_cast<unsigned long long>(ph.io.read_ops), ph.wall_s,
                        format_energy(ph.io).c_str(), vs_predicted.c_str());
        }
    }
}

//! measured / predicted (0 / 0 is 1; null when only the prediction is 0).
inline nlohmann::json btree_ratio(double measured, double predicted) {
    if (predicted == 0) return measured == 0 ? nlohmann::json(1.0) : nlohmann::json(nullptr);
    return nlohmann::json(measured / predicted);
}
//! predicted_rdv_bytes, predicted_wrv_bytes, predicted_modelled_s and the three ratios (null without a
//! prediction).
inline void add_btree_prediction(nlohmann::json& q, bool has, const io_prediction& p, double predicted_s,
                                 double rdv, double wrv, double elapsed) {
    q["predicted_rdv_bytes"] = has ? nlohmann::json(p.read_bytes) : nlohmann::json(nullptr);
    q["predicted_wrv_bytes"] = has ? nlohmann::json(p.write_bytes) : nlohmann::json(nullptr);
    q["predicted_modelled_s"] = has ? nlohmann::json(predicted_s) : nlohmann::json(nullptr);
    q["rdv_over_predicted"] = has ? btree_ratio(rdv, p.read_bytes) : nlohmann::json(nullptr);
    q["wrv_over_predicted"] = has ? btree_ratio(wrv, p.write_bytes) : nlohmann::json(nullptr);
    q["modelled_over_predicted"] = has ? btree_ratio(elapsed, predicted_s) : nlohmann::json(nullptr);
    q["prediction_is_bound"] = has && p.bound;
}

//! One run as JSON.
inline nlohmann::json btree_run_json(const btree_run& r) {
    nlohmann::json j;
    j["layout"] = r.layout;
    j["br_bytes"] = r.blocks.br;
    j["bw_bytes"] = r.blocks.bw;
    j["memory_bytes"] = r.memory;
    j["items"] = r.items;
    j["entry_bytes"] = r.entry_bytes;
    j["height"] = r.height;
    j["nodes"] = r.nodes;
    j["leaf_capacity"] = r.leaf_capacity;
    j["verified"] = r.verified;
    j["phases"] = nlohmann::json::array();
    for (const btree_phase& p : r.phases) {
        nlohmann::json q;
        q["name"] = p.name;
        q["ops"] = p.ops;
        q["modelled_s"] = p.modelled_s;
        q["modelled_elapsed_s"] = p.modelled.elapsed_s;
        q["modelled_io_wait_s"] = p.modelled.io_wait_s;
        q["wall_s"] = p.wall_s;
        q["modelled_energy_j"] = energy_json(p.io);
        q["read_ops"] = p.io.read_ops;
        q["read_bytes"] = p.io.read_bytes;
        q["write_ops"] = p.io.write_ops;
        q["write_bytes"] = p.io.write_bytes;
        q["items_transferred"] = (p.io.read_bytes + p.io.write_bytes) / r.entry_bytes;
        add_btree_prediction(q, p.has_prediction, p.predicted, p.predicted_modelled_s,
                             double(p.io.read_bytes), double(p.io.write_bytes), p.modelled.elapsed_s);
        j["phases"].push_back(q);
    }
    // The run's predicted phases together, beside their measured sums.
    double rdv = 0, wrv = 0, elapsed = 0, predicted_s = 0;
    io_prediction sum;
    nlohmann::json scope = nlohmann::json::array();
    for (const btree_phase& p : r.phases) {
        if (!p.has_prediction || p.predicted.bound) continue; // estimates only: bounds do not add up to one
        rdv += double(p.io.read_bytes);
        wrv += double(p.io.write_bytes);
        elapsed += p.modelled.elapsed_s;
        sum += p.predicted;
        predicted_s += p.predicted_modelled_s;
        scope.push_back(p.name);
    }
    j["rdv_bytes"] = rdv;
    j["wrv_bytes"] = wrv;
    j["modelled_elapsed_s"] = elapsed;
    add_btree_prediction(j, true, sum, predicted_s, rdv, wrv, elapsed);
    j["prediction_scope"] = scope;
    return j;
}

} // namespace flashxxl::cli
