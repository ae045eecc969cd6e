// Tests of block_sizes (the run-time Br/Bw value) and of the block sizes a machine's devices and roles carry.
#include <gtest/gtest.h>

#include <string>

#include "flashxxl/block_sizes.hpp"
#include "flashxxl/machine/machine.hpp"

using namespace flashxxl;

namespace {
//! The message of the config_error that f throws ("" when it throws none).
template <class F> std::string error_of(F&& f) {
    try {
        f();
    } catch (const config_error& e) {
        return e.what();
    }
    return "";
}
} // namespace

TEST(block_sizes, default_is_seeds001_pair) {
    block_sizes b;
    EXPECT_EQ(b.br, 128 * KiB);
    EXPECT_EQ(b.bw, 16 * MiB);
    EXPECT_EQ(b.reads_per_write(), 128u);
    EXPECT_NO_THROW(b.validate());
}

TEST(block_sizes, accepts_any_valid_pair) {
    EXPECT_EQ(block_sizes(192 * KiB, 3 * MiB).reads_per_write(), 16u);
    EXPECT_EQ(block_sizes(12 * KiB, 36 * KiB).reads_per_write(), 3u);
    EXPECT_EQ(block_sizes(4 * KiB, 4 * KiB).reads_per_write(), 1u);
    EXPECT_EQ(block_sizes(GiB, GiB).reads_per_write(), 1u);
}

TEST(block_sizes, rejects_each_rule_naming_both_values_and_the_rule) {
    struct bad {
        std::uint64_t br, bw;
        const char* rule;
    };
    for (const bad& c :
         {bad{0, 16 * MiB, "positive"}, bad{128 * KiB, 0, "positive"},
          bad{6000, 12000, "Br must be a multiple of 4 KiB"},
          bad{8 * KiB, 8 * KiB + 100, "Bw must be a multiple of 4 KiB"},
          bad{16 * MiB, 128 * KiB, "Br must not exceed Bw"},
          bad{8 * KiB, 12 * KiB, "Bw must be a multiple of Br"}, bad{4 * KiB, 2 * GiB, "at most 1 GiB"}}) {
        std::string msg = error_of([&] { block_sizes(c.br, c.bw); });
        EXPECT_NE(msg.find(c.rule), std::string::npos) << msg;
        EXPECT_NE(msg.find("Br = " + format_size(c.br)), std::string::npos) << msg;
        EXPECT_NE(msg.find("Bw = " + format_size(c.bw)), std::string::npos) << msg;
    }
    // A value whose fields were set by hand is checked by validate().
    block_sizes b;
    b.bw = 200 * KiB;
    EXPECT_NE(error_of([&] { b.validate(); }).find("Bw must be a multiple of Br"), std::string::npos);
}

TEST(block_sizes, compile_time_pair_converts) {
    block_sizes b = blocks<64 * 1024, 1024 * 1024>{};
    EXPECT_EQ(b, block_sizes(64 * KiB, MiB));
    EXPECT_EQ(block_sizes(blocks<4096, 16384>{}), block_sizes(4 * KiB, 16 * KiB));
}

TEST(device_blocks, config_line_states_block_sizes_per_device) {
    machine m = machine::from_config_text("flash=memory,64MiB,memory name=ssd br=128KiB bw=512KiB\n"
                                          "disk=memory,64MiB,memory name=hdd br=1MiB bw=1MiB\n"
                                          "placement=flash_aware\n");
    EXPECT_EQ(m.dev("ssd").blocks(), block_sizes(128 * KiB, 512 * KiB));
    EXPECT_EQ(m.dev("hdd").blocks(), block_sizes(MiB, MiB));
    EXPECT_TRUE(m.dev("ssd").blocks_configured());
    // A role on one device gets that device's sizes.
    EXPECT_EQ(m.block_sizes_for(role::static_data), block_sizes(128 * KiB, 512 * KiB));
    EXPECT_EQ(m.block_sizes_for(role::hot), block_sizes(MiB, MiB));
}

TEST(device_blocks, role_spanning_devices_gets_largest_br_and_bw_rounded_to_whole_reads) {
    machine m = machine::from_config_text("flash=memory,64MiB,memory name=ssd br=192KiB bw=576KiB\n"
                                          "disk=memory,64MiB,memory name=hdd br=256KiB bw=512KiB\n"
                                          "placement=random_striping\n");
    // Largest Br 256 KiB, largest Bw 576 KiB rounded up to a multiple of 256 KiB.
    EXPECT_EQ(m.block_sizes_for(role::scratch), block_sizes(256 * KiB, 768 * KiB));
}

TEST(device_blocks, unstated_sizes_default_to_seeds001_or_the_translation_layer) {
    machine m = machine::from_preset("hybrid-2009");
    EXPECT_EQ(m.block_sizes_for(role::static_data), block_sizes());
    EXPECT_FALSE(m.dev("ssd").blocks_configured());
    machine tl = machine::from_config_text(
        "flash=memory,256MiB,memory name=ssd model=hama-ssd-2009 tl=on tl_page=64KiB tl_segment=4MiB\n");
    EXPECT_EQ(tl.dev("ssd").blocks(), block_sizes(128 * KiB, 4 * MiB));
    // Only br= given: Bw defaults to the library's 16 MiB.
    machine half = machine::from_config_text("flash=memory,64MiB,memory name=ssd br=64KiB\n");
    EXPECT_EQ(half.dev("ssd").blocks(), block_sizes(64 * KiB, 16 * MiB));
    // Only bw= given: the stated Bw is kept, Br is its largest divisor in whole 4 KiB units up
    // to the default 128 KiB (docs/machine-config.md), not only a power-of-two one (it was
    // 64 KiB for 192 KiB, 4 KiB for 36 KiB, 64 KiB for 960 KiB).
    machine only_bw = machine::from_config_text("flash=memory,64MiB,memory name=ssd bw=192KiB\n"
                                                "disk=memory,64MiB,memory name=hdd bw=8MiB\n"
                                                "flash=memory,64MiB,memory name=odd bw=36KiB\n"
                                                "flash=memory,64MiB,memory name=big bw=960KiB\n"
                                                "flash=memory,64MiB,memory name=prime bw=524KiB\n");
    EXPECT_EQ(only_bw.dev("ssd").blocks(), block_sizes(96 * KiB, 192 * KiB));
    EXPECT_EQ(only_bw.dev("hdd").blocks(), block_sizes(128 * KiB, 8 * MiB));
    EXPECT_EQ(only_bw.dev("odd").blocks(), block_sizes(36 * KiB, 36 * KiB));
    EXPECT_EQ(only_bw.dev("big").blocks(), block_sizes(120 * KiB, 960 * KiB));
    EXPECT_EQ(only_bw.dev("prime").blocks(), block_sizes(4 * KiB, 524 * KiB)); // 131 units: a prime
}

TEST(block_sizes, whole_reads_bw_raises_bw_to_a_multiple_of_br) {
    EXPECT_EQ(block_sizes::whole_reads_bw(128 * KiB, 16 * MiB), 16 * MiB);
    EXPECT_EQ(block_sizes::whole_reads_bw(192 * KiB, 512 * KiB), 576 * KiB);
    EXPECT_EQ(block_sizes::whole_reads_bw(128 * KiB, 64 * KiB), 128 * KiB);
}

TEST(device_blocks, bad_block_sizes_in_a_config_name_line_and_field) {
    std::string msg = error_of([] {
        machine::from_config_text("name=x\nflash=memory,64MiB,memory name=ssd br=128KiB bw=200KiB\n",
                                  "my.cfg");
    });
    EXPECT_NE(msg.find("my.cfg:2"), std::string::npos) << msg;
    EXPECT_NE(msg.find("Bw must be a multiple of Br"), std::string::npos) << msg;
    msg = error_of([] { machine::from_config_text("flash=memory,64MiB,memory br=6000\n", "my.cfg"); });
    EXPECT_NE(msg.find("my.cfg:1"), std::string::npos) << msg;
    EXPECT_NE(msg.find("'br'"), std::string::npos) << msg;
    EXPECT_NE(msg.find("multiple of 4 KiB"), std::string::npos) << msg;
    msg = error_of([] { machine::from_config_text("flash=memory,64MiB,memory br=128K\n", "my.cfg"); });
    EXPECT_NE(msg.find("decimal unit"), std::string::npos) << msg;
}
