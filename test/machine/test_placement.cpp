// Tests of placement policies: each role lands where the policy says; random striping is uniform.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <memory>
#include <vector>

#include "flashxxl/machine/machine.hpp"
#include "flashxxl/machine/placement.hpp"
#include "flashxxl/machine/placement_text.hpp"
#include "flashxxl/machine/presets.hpp"
#include "flashxxl/units.hpp"

using namespace flashxxl;

namespace {
const char* kHybrid = "flash=memory,64MiB,memory name=ssd model=hama-ssd-2009\n"
                      "disk=memory,64MiB,memory name=hdd model=barracuda-7200.11\n";
}

TEST(Placement, FlashAwarePutsStaticDataOnFlashAndTheRestOnHdd) {
    machine m = machine::from_config_text(std::string(kHybrid) + "placement=flash_aware\n");
    for (int i = 0; i < 10; ++i) {
        EXPECT_EQ(m.allocate(role::static_data, 64 * KiB, i)->dev->name(), "ssd");
        EXPECT_EQ(m.allocate(role::hot, 64 * KiB, i)->dev->name(), "hdd");
        EXPECT_EQ(m.allocate(role::scratch, 64 * KiB, i)->dev->name(), "hdd");
        EXPECT_EQ(m.allocate(role::stream, 64 * KiB, i)->dev->name(), "hdd");
    }
}

TEST(Placement, FlashAwareFallsBackWhenAClassIsMissingOrFull) {
    machine hdd_only =
        machine::from_config_text("disk=memory,4MiB,memory name=a\ndisk=memory,4MiB,memory name=b\n");
    std::map<std::string, int> seen;
    for (int i = 0; i < 8; ++i)
        seen[hdd_only.allocate(role::static_data, 4 * KiB, i)->dev->name()]++;
    EXPECT_EQ(seen["a"], 4);
    EXPECT_EQ(seen["b"], 4);

    machine small_flash =
        machine::from_config_text("flash=memory,1MiB,memory name=f1\nflash=memory,2MiB,memory "
                                  "name=f2\ndisk=memory,4MiB,memory name=h\n");
    // The owners are kept: a dropped owner would give its range back at once.
    owned_extent first = small_flash.allocate(role::static_data, 1 * MiB, 0); // fills f1
    EXPECT_EQ(first->dev->name(), "f1");
    owned_extent second = small_flash.allocate(role::static_data, 1 * MiB, 0);
    EXPECT_EQ(second->dev->name(), "f2"); // f1 full: next flash
    owned_extent third = small_flash.allocate(role::static_data, 1 * MiB, 1);
    EXPECT_THROW(small_flash.allocate(role::static_data, 1 * MiB, 0), out_of_space); // all flash full
}

// Free bytes in holes smaller than the request are no room: the next device of the role takes
// the block (it used to fail with out_of_space on the first one while the other was empty).
TEST(Placement, AFragmentedDeviceHandsTheBlockToTheNextOne) {
    for (const char* policy : {"flash_aware", "random_striping"}) {
        SCOPED_TRACE(policy);
        machine m = machine::from_config_text(std::string("disk=memory,8MiB,memory name=a\n"
                                                          "disk=memory,8MiB,memory name=b\n"
                                                          "placement=single device=a\n"));
        std::vector<owned_extent> keep, drop;
        for (int i = 0; i < 2048; ++i)
            (i % 2 ? drop : keep).push_back(m.allocate(role::scratch, 4 * KiB, 0));
        drop.clear(); // a: 4 MiB free, in 4 KiB holes
        ASSERT_EQ(m.dev("a").allocator().free_bytes(), 4 * MiB);
        ASSERT_EQ(m.dev("a").allocator().largest_free(), 4 * KiB);
        std::unique_ptr<placement_policy> p;
        if (std::string(policy) == "flash_aware")
            p = std::make_unique<flash_aware>();
        else
            p = std::make_unique<random_striping>(7);
        m.set_placement(std::move(p));
        for (std::uint64_t i = 0; i < 4; ++i) { // block indexes that would pick a first
            owned_extent e = m.allocate(role::scratch, 1 * MiB, i);
            EXPECT_EQ(e->dev->name(), "b") << i;
        }
        // Where no device has room, the error still names one.
        EXPECT_THROW(m.allocate(role::scratch, 16 * MiB, 0), out_of_space);
    }
}

TEST(Placement, SingleAndPerRole) {
    machine single = machine::from_config_text(std::string(kHybrid) + "placement=single device=hdd\n");
    for (role r : all_roles)
        EXPECT_EQ(single.allocate(r, 4 * KiB)->dev->name(), "hdd");

    machine per_role = machine::from_config_text(
        std::string(kHybrid) + "placement=per_role static_data=hdd hot=ssd scratch=ssd,hdd\n");
    EXPECT_EQ(per_role.allocate(role::static_data, 4 * KiB)->dev->name(), "hdd");
    EXPECT_EQ(per_role.allocate(role::hot, 4 * KiB)->dev->name(), "ssd");
    EXPECT_EQ(per_role.allocate(role::scratch, 4 * KiB, 0)->dev->name(), "ssd");
    EXPECT_EQ(per_role.allocate(role::scratch, 4 * KiB, 1)->dev->name(), "hdd");
}

TEST(Placement, EveryRegisteredPolicyIsBuiltByItsNameAndListedInTheError) {
    std::string unknown;
    try {
        make_placement("nope", {});
    } catch (const config_error& e) {
        unknown = e.what();
    }
    for (const placement_entry& e : placement_policies()) {
        EXPECT_FALSE(e.description.empty()) << e.name;
        EXPECT_NE(unknown.find(e.name), std::string::npos) << unknown;
        placement_options options;
        if (e.name == "single") options["device"] = "hdd";
        EXPECT_EQ(make_placement(e.name, options)->name(), e.name);
        if (!e.any_keys) {
            EXPECT_THROW(make_placement(e.name, {{"frob", "1"}}), config_error) << e.name;
        }
    }
}

TEST(Placement, RandomStripingIsRoughlyUniformAndDeterministic) {
    auto run = [](std::uint64_t seed) {
        machine m = machine::from_config_text(
            std::string(kHybrid) + "placement=random_striping seed=" + std::to_string(seed) + "\n");
        std::vector<int> picks;
        for (int i = 0; i < 8000; ++i) {
            owned_extent e = m.allocate(i % 2 ? role::static_data : role::hot, 4 * KiB, i);
            picks.push_back(e->dev->name() == "ssd");
        }
        return picks;
    };
    std::vector<int> a = run(3), b = run(3), c = run(4);
    EXPECT_EQ(a, b) << "same seed, same placement";
    EXPECT_NE(a, c);
    int on_ssd_static = 0, on_ssd_hot = 0;
    for (std::size_t i = 0; i < a.size(); ++i)
        (i % 2 ? on_ssd_static : on_ssd_hot) += a[i];
    // 4000 fair coin flips per role: 5 sigma is about +-158.
    EXPECT_NEAR(on_ssd_static, 2000, 160);
    EXPECT_NEAR(on_ssd_hot, 2000, 160);
}

TEST(Placement, UserPolicyObject) {
    machine m = machine::from_config_text(kHybrid);
    m.set_placement(std::make_unique<function_placement>(
        "last", [](role, std::uint64_t, std::uint64_t, const std::vector<placement_device>& d) {
            return d.size() - 1;
        }));
    EXPECT_EQ(m.allocate(role::static_data, 4 * KiB)->dev->name(), "hdd");
    // a policy choosing a device that does not exist is refused when installed, not mid-run
    EXPECT_THROW(m.set_placement(std::make_unique<function_placement>(
                     "bad", [](role, std::uint64_t, std::uint64_t,
                               const std::vector<placement_device>&) { return std::size_t(9); })),
                 config_error);
    EXPECT_EQ(m.placement().name(), "last") << "the refused policy did not replace the old one";
}

TEST(Placement, PerRoleStatsFollowThePlacement) {
    machine m = machine::from_config_text(std::string(kHybrid) + "placement=flash_aware\n");
    alignas(4096) static char buf[64 * 1024];
    owned_extent index_owner = m.allocate(role::static_data, sizeof buf);
    owned_extent pool_owner = m.allocate(role::hot, sizeof buf);
    const extent& index = *index_owner;
    const extent& pool = *pool_owner;
    index.dev->wait(index.dev->awrite(buf, index.offset, sizeof buf, role::static_data), role::static_data);
    pool.dev->wait(pool.dev->awrite(buf, pool.offset, sizeof buf, role::hot), role::hot);
    device_stats ssd = m.dev("ssd").stats(), hdd = m.dev("hdd").stats();
    EXPECT_EQ(ssd.of(role::static_data).write_bytes, sizeof buf);
    EXPECT_EQ(ssd.of(role::hot).write_bytes, 0u);
    EXPECT_EQ(hdd.of(role::hot).write_bytes, sizeof buf);
    EXPECT_EQ(hdd.of(role::static_data).write_bytes, 0u);
    EXPECT_GT(ssd.of(role::static_data).modelled_s, 0.0);
}

#include <sstream>

#include "flashxxl/machine/stats_scope.hpp"

TEST(StatsScope, ReportsOnlyWhatHappenedInsideTheScope) {
    machine m = machine::from_config_text(std::string(kHybrid) + "placement=flash_aware\n");
    alignas(4096) static char buf[16 * 1024];
    owned_extent before_owner = m.allocate(role::hot, sizeof buf);
    const extent& before = *before_owner;
    before.dev->wait(before.dev->awrite(buf, before.offset, sizeof buf, role::hot), role::hot);
    std::ostringstream out;
    {
        stats_scope scope(m, "phase two", out);
        owned_extent owner = m.allocate(role::static_data, sizeof buf);
        const extent& e = *owner;
        e.dev->wait(e.dev->awrite(buf, e.offset, sizeof buf, role::static_data), role::static_data);
        e.dev->wait(e.dev->aread(buf, e.offset, sizeof buf, role::static_data), role::static_data);
        std::vector<device_stats> d = scope.delta();
        EXPECT_EQ(d[0].of(role::static_data).write_bytes, sizeof buf);
        EXPECT_EQ(d[0].of(role::static_data).read_bytes, sizeof buf);
        EXPECT_EQ(d[1].total.bytes(), 0u) << "the write before the scope is not counted";
        EXPECT_GT(d[0].total.modelled_s, 0.0);
        // Two synchronous requests on one device: the host waited exactly their service time.
        EXPECT_NEAR(scope.modelled().elapsed_s, d[0].total.modelled_s, 1e-12);
        EXPECT_NEAR(scope.modelled().io_wait_s, d[0].total.modelled_s, 1e-12);
    }
    std::string text = out.str();
    EXPECT_NE(text.find("[phase two] modelled "), std::string::npos) << text;
    EXPECT_NE(text.find("static_data"), std::string::npos) << text;
}

TEST(PlacementText, APolicyWithOptionsPassesWhereverAPolicyNameDoes) {
    const placement_spec p = parse_placement_text("per_role hot=ssd  scratch=ssd stream=hdd", "test");
    EXPECT_EQ(p.policy, "per_role");
    EXPECT_EQ(p.options.size(), 3u);
    EXPECT_EQ(p.options.at("stream"), "hdd");
    EXPECT_EQ(parse_placement_text("flash_aware", "test").options.size(), 0u);

    machine_options opts;
    opts.placement = "per_role hot=ssd scratch=ssd stream=hdd";
    machine_spec spec = preset_machine_spec("hybrid-2009", opts);
    for (device_spec& d : spec.devices)
        d.size = 64 * MiB; // the preset's sizes, small
    machine m(spec);
    EXPECT_EQ(m.allocate(role::hot, 64 * KiB, 0)->dev->name(), "ssd");
    EXPECT_EQ(m.allocate(role::scratch, 64 * KiB, 0)->dev->name(), "ssd");
    EXPECT_EQ(m.allocate(role::stream, 64 * KiB, 0)->dev->name(), "hdd");
}

TEST(PlacementText, BadTextNamesWhereItCameFromAndWhatWasExpected) {
    auto message = [](const std::string& text) {
        try {
            parse_placement_text(text, "--placement");
        } catch (const config_error& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    EXPECT_NE(message("").find("--placement: expected a placement policy"), std::string::npos) << message("");
    EXPECT_NE(message("per_role hot").find("'hot' of 'per_role hot' is not KEY=VALUE"), std::string::npos)
        << message("per_role hot");
    EXPECT_NE(message("per_role hot=a hot=b").find("'hot' given twice"), std::string::npos);
    machine_options opts;
    opts.placement = "per_role warm=ssd";
    try {
        machine m(preset_machine_spec("hybrid-2009", opts));
        FAIL() << "an unknown role was accepted";
    } catch (const config_error& e) {
        EXPECT_NE(std::string(e.what()).find("unknown role 'warm'"), std::string::npos) << e.what();
    }
}
