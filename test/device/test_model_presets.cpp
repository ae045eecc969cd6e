// Tests of the model preset factory: names, overrides, unknown keys and presets, round trips, Lambert W.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "flashxxl/device/lambert_w.hpp"
#include "flashxxl/device/model_presets.hpp"

using namespace flashxxl;

namespace {
bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

double run(device_model& d) {
    std::mt19937_64 rng(6);
    std::uniform_int_distribution<std::uint64_t> off(
        0, std::min<std::uint64_t>(d.capacity(), 8 * GiB) / 4096 - 64);
    double total = 0;
    for (int i = 0; i < 300; ++i)
        total += d.service(i % 2 ? io_op::write : io_op::read, off(rng) * 4096, 4096 * (1 + i % 32));
    return total;
}
} // namespace

TEST(ModelPresets, EveryPresetBuilds) {
    const auto names = model_preset_names();
    ASSERT_EQ(names.size(), 13u); // four devices (the Hama in two models), eight seeds/004 chips
    for (const auto& n : names) {
        auto m = make_model(n);
        EXPECT_EQ(m->preset(), n);
        EXPECT_FALSE(model_preset_description(n).empty());
        EXPECT_FALSE(m->parameters().empty());
        EXPECT_GT(run(*m), 0.0) << n;
    }
    EXPECT_EQ(make_model("hama-ssd-2009")->capacity(), 32 * GiB);
    EXPECT_EQ(make_model("hama-ssd-2009")->kind(), "ssd-log-block");
    EXPECT_EQ(make_model("hama-ssd-2009-block-mapped")->kind(), "ssd-block-mapped");
    EXPECT_EQ(make_model("hama-ssd-2009-block-mapped")->capacity(), 32 * GiB);
    EXPECT_EQ(make_model("barracuda-7200.11")->capacity(), 500000000000ull);
    EXPECT_EQ(make_model("barracuda-7200.11")->klass(), device_class::hdd);
    EXPECT_EQ(make_model("nvme-gen4")->capacity(), 1000000000000ull);
    EXPECT_EQ(make_model("nvme-gen4")->klass(), device_class::flash);
    EXPECT_EQ(make_model("hdd-modern")->capacity(), 18000000000000ull);
    EXPECT_EQ(make_model("hdd-modern")->kind(), "hdd");
}

TEST(ModelPresets, HddModernAverageSeekIsThePlaceholder) {
    auto m = make_model("hdd-modern");
    auto& hdd = dynamic_cast<hdd_model&>(*m);
    EXPECT_NEAR(hdd.cfg().seek_t1_ms + 8 * hdd.cfg().seek_a_ms / 15, 8.5, 1e-9);
    EXPECT_NEAR(hdd.rate_bytes_per_s(0), 270e6, 1);
}

TEST(ModelPresets, ParametersRoundTripToAnIdenticalModel) {
    for (const auto& n : model_preset_names()) {
        auto a = make_model(n);
        model_params p;
        for (const auto& kv : a->parameters())
            p.set(kv.first, kv.second);
        auto b = make_model(n, p);
        EXPECT_EQ(a->parameters(), b->parameters()) << n;
        EXPECT_EQ(run(*a), run(*b)) << n;
    }
}

TEST(ModelPresets, OverridesChangeBehaviour) {
    auto base = make_model("hama-ssd-2009");
    auto slow = make_model("hama-ssd-2009", {{"c_r_ms", "1"}});
    EXPECT_GT(slow->service(io_op::read, 0, 512), base->service(io_op::read, 0, 512) + 0.8e-3);
    auto small = make_model("hama-ssd-2009", {{"capacity", "1GiB"}});
    EXPECT_EQ(small->capacity(), GiB);
    auto hdd = make_model("barracuda-7200.11", {{"capacity", "100GiB"}, {"n_ws", "0"}});
    EXPECT_EQ(hdd->capacity(), 100 * GiB);
    auto nvme = make_model("nvme-gen4", {{"units", "8"}, {"capacity", "1GiB"}});
    EXPECT_NEAR(nvme->service(io_op::read, 0, 16 * 4096), 2 * 45e-6, 1e-7);
}

TEST(ModelPresets, UnknownKeyIsNamedWithTheKnownOnes) {
    for (const auto& n : model_preset_names()) {
        try {
            make_model(n, {{"chunck", "256KiB"}});
            FAIL() << "expected config_error for " << n;
        } catch (const config_error& e) {
            EXPECT_TRUE(contains(e.what(), "'chunck'")) << e.what();
            EXPECT_TRUE(contains(e.what(), n)) << e.what();
            EXPECT_TRUE(contains(e.what(), "capacity")) << e.what();
        }
    }
    // A key of another model family is unknown too (never silently ignored).
    EXPECT_THROW(make_model("barracuda-7200.11", {{"chunk", "256KiB"}}), config_error);
    EXPECT_THROW(make_model("hama-ssd-2009", {{"op_percent", "28"}}), config_error);
}

TEST(ModelPresets, UnknownPresetListsThePresets) {
    try {
        make_model("hama-ssd-2010");
        FAIL() << "expected config_error";
    } catch (const config_error& e) {
        EXPECT_TRUE(contains(e.what(), "hama-ssd-2010")) << e.what();
        for (const auto& n : model_preset_names())
            EXPECT_TRUE(contains(e.what(), n)) << e.what();
    }
    EXPECT_THROW(model_preset_description("nope"), config_error);
}

namespace {
//! The message of `f()`'s config_error, empty if it throws none.
template <class F> std::string refusal_of(F f) {
    try {
        f();
    } catch (const config_error& e) {
        return e.what();
    }
    return {};
}
//! The keys a model's fields visitor declares, in order.
struct key_collector {
    using range = model_field_range;
    void size(const char* k, std::uint64_t, const range&, const char* m) { add(k, m); }
    void count(const char* k, std::uint64_t, const range&, const char* m) { add(k, m); }
    void number(const char* k, double, const range&, const char* m) { add(k, m); }
    void add(const char* key, const char* meaning) {
        keys.push_back(key);
        EXPECT_NE(std::string(meaning), "") << key;
    }
    std::vector<std::string> keys;
};
template <class Config> std::vector<std::string> declared_keys() {
    key_collector c;
    const Config defaults{};
    Config::visit_fields(defaults, c);
    return c.keys;
}
} // namespace

TEST(ModelFields, OneDeclarationGivesParsingListingAndRanges) {
    // Listing follows the declaration, and every declared key is one a config may override.
    const auto listed = [](const auto& cfg) {
        std::vector<std::string> keys;
        for (const auto& kv : cfg.list())
            keys.push_back(kv.first);
        return keys;
    };
    EXPECT_EQ(listed(block_mapped_ssd::config{}), declared_keys<block_mapped_ssd::config>());
    EXPECT_EQ(listed(page_mapped_ssd::config{}), declared_keys<page_mapped_ssd::config>());
    EXPECT_EQ(listed(hdd_model::config{}), declared_keys<hdd_model::config>());
    const std::string unknown = refusal_of([] { make_model("barracuda-7200.11", {{"frob", "1"}}); });
    for (const std::string& key : declared_keys<hdd_model::config>())
        EXPECT_TRUE(contains(unknown, key)) << key;
    // A count's range is enforced while parsing; a value set in code is checked with the range.
    EXPECT_TRUE(contains(refusal_of([] {
                             make_model("barracuda-7200.11", {{"n_ws", "1025"}});
                         }),
                         "parameter 'n_ws': '1025' is out of range; expected a whole number from 0 to 1024"));
    hdd_model::config c;
    c.n_ws = 2000;
    EXPECT_TRUE(
        contains(refusal_of([&] { hdd_model m(c); }), "parameter 'n_ws' = 2000 must lie in [0, 1024]"));
    c = hdd_model::config{};
    c.rho = 1;
    EXPECT_TRUE(contains(refusal_of([&] { hdd_model m(c); }), "parameter 'rho' must lie in (0, 1)"));
    page_mapped_ssd::config p;
    p.op_percent = 0;
    EXPECT_TRUE(
        contains(refusal_of([&] { page_mapped_ssd m(p); }), "parameter 'op_percent' must lie in (0, 1000]"));
    block_mapped_ssd::config b;
    b.bw_w_mibps = 0;
    EXPECT_TRUE(contains(refusal_of([&] { block_mapped_ssd m(b); }), "parameter 'bw_w_mibps' must be > 0"));
    b = block_mapped_ssd::config{};
    b.t_merge_ms = -1;
    EXPECT_TRUE(contains(refusal_of([&] { block_mapped_ssd m(b); }), "parameter 't_merge_ms' must be >= 0"));
}

TEST(LambertW, KnownValuesAndFifoBound) {
    EXPECT_NEAR(lambert_w0(0), 0, 1e-15);
    EXPECT_NEAR(lambert_w0(1), 0.5671432904097838, 1e-14);
    EXPECT_NEAR(lambert_w0(std::exp(1.0)), 1, 1e-14);
    EXPECT_NEAR(lambert_w0(-std::exp(-1.0)), -1, 1e-6);
    EXPECT_NEAR(lambert_w0(100), 3.385630140290050, 1e-12);
    for (double x : {-0.36, -0.3, -0.1, 0.5, 7.0}) {
        const double w = lambert_w0(x);
        EXPECT_NEAR(w * std::exp(w), x, 1e-13) << x;
        EXPECT_GE(w, -1);
    }
    EXPECT_THROW(lambert_w0(-0.5), config_error);
    // DEVICE-MODELS.md: FIFO write amplification 7.82 at 7% OP, 2.48 at 28%.
    EXPECT_NEAR(fifo_gc_write_amplification(1.07), 7.82, 0.01);
    EXPECT_NEAR(fifo_gc_write_amplification(1.28), 2.48, 0.01);
}
