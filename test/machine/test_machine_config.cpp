// Tests of the machine config parser: valid configs, and an error naming line and field for each bad one.
#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include <unistd.h>

#include "flashxxl/device/device_model.hpp"
#include "flashxxl/device/emulated_file.hpp"
#include "flashxxl/io/aligned_buffer.hpp"
#include "flashxxl/machine/machine.hpp"
#include "flashxxl/units.hpp"

using namespace flashxxl;

TEST(ParseSize, IecUnitsAndPlainBytes) {
    EXPECT_EQ(parse_size("4096"), 4096u);
    EXPECT_EQ(parse_size("16KiB"), 16u * KiB);
    EXPECT_EQ(parse_size("512 MiB"), 512u * MiB);
    EXPECT_EQ(parse_size("32gib"), 32u * GiB);
    EXPECT_EQ(parse_size("2TiB"), 2u * TiB);
    EXPECT_EQ(parse_size("7B"), 7u);
}

TEST(ParseSize, RejectsDecimalAndGarbage) {
    for (const char* bad : {"16M", "16MB", "1G", "1GB", "4k", "abc", "", "MiB", "12XiB", "-5", "1.5MiB"}) {
        EXPECT_THROW(parse_size(bad), config_error) << bad;
    }
    try {
        parse_size("16M");
        FAIL();
    } catch (const config_error& e) {
        EXPECT_NE(std::string(e.what()).find("IEC"), std::string::npos) << e.what();
    }
    EXPECT_THROW(parse_size("99999999999999999999"), config_error);
    EXPECT_THROW(parse_size("17179869184GiB"), config_error); // 2^64 bytes
}

TEST(MachineConfig, ParsesDevicesOptionsAndPlacement) {
    machine_spec spec = parse_machine_config(
        "# a hybrid machine\n"
        "name=lab\n"
        "\n"
        "flash=memory,1GiB,memory name=ssd model=hama-ssd-2009-block-mapped chunk=256KiB  # tuned\n"
        "disk=memory,2GiB,memory name=hdd model=barracuda-7200.11 pace=on scale=0.5\n"
        "placement=per_role static_data=ssd hot=hdd,ssd\n",
        "lab.cfg");
    EXPECT_EQ(spec.name, "lab");
    ASSERT_EQ(spec.devices.size(), 2u);
    EXPECT_EQ(spec.devices[0].name, "ssd");
    EXPECT_EQ(spec.devices[0].klass, device_class::flash);
    EXPECT_EQ(spec.devices[0].size, 1 * GiB);
    EXPECT_EQ(spec.devices[0].model, "hama-ssd-2009-block-mapped");
    EXPECT_EQ(spec.devices[0].params.values().at("chunk"), "256KiB");
    EXPECT_EQ(spec.devices[0].origin, "lab.cfg:4");
    EXPECT_TRUE(spec.devices[1].pacing.enabled);
    EXPECT_DOUBLE_EQ(spec.devices[1].pacing.scale, 0.5);
    EXPECT_EQ(spec.placement.policy, "per_role");
    EXPECT_EQ(spec.placement.options.at("hot"), "hdd,ssd");
}

TEST(MachineConfig, DefaultNamesAndPlacement) {
    machine_spec spec = parse_machine_config("disk=memory,4MiB,memory\ndisk=memory,4MiB,memory\n");
    ASSERT_EQ(spec.devices.size(), 2u);
    EXPECT_EQ(spec.devices[0].name, "disk0");
    EXPECT_EQ(spec.devices[1].name, "disk1");
    EXPECT_EQ(spec.placement.policy, "flash_aware");
}

struct bad_config {
    const char* text;
    const char* must_mention; // besides "cfg:LINE"
    int line;
};

TEST(MachineConfig, EveryMalformedLineNamesLineAndField) {
    const bad_config cases[] = {
        {"flash=memory,1GiB\n", "PATH,SIZE,IO_IMPL", 1},
        {"flash=memory,1GiB,memory,extra\n", "PATH,SIZE,IO_IMPL", 1},
        {"# ok\nflash=memory,16Q,memory\n", "field 'size'", 2},
        {"flash=memory,0,memory\n", "field 'size'", 1},
        {"flash=memory,5000B,memory\n", "4 KiB", 1},
        {"flash=memory,100B,memory\n", "4 KiB", 1},
        {"flash=memory,1k,memory\n", "below 4 KiB", 1},
        {"name=a\nflash=memory,1GiB,memory\nname=b\n", "a second name= line", 3},
        {"flash=memory,1GiB,memory model=hama-ssd-2009 pace=on scale=nan\n", "field 'scale'", 1},
        {"disk=/tmp/x.img,1G,syscall raw_device\n", "field 'raw_device'", 1},
        {"disk=memory,1G,memory unlink\n", "field 'unlink'", 1},
        {"disk=/tmp/x.img,1G,syscall queue=many\n", "field 'queue'", 1},
        {"disk=/tmp/x.img,1G,syscall autogrow=maybe\n", "field 'autogrow'", 1},
        {"disk=/tmp/x.img,0,syscall\n", "fixed capacity", 1},
        {"flash=memory,1GiB,floppy\n", "field 'io_impl'", 1},
        {"flash=/tmp/x,1GiB,memory\n", "field 'path'", 1},
        {"flash=memory,1GiB,syscall\n", "field 'path'", 1},
        {"flash=memory,1GiB,memory pace=maybe model=hama-ssd-2009\n", "field 'pace'", 1},
        {"flash=memory,1GiB,memory model=hama-ssd-2009 pace=on scale=-1\n", "field 'scale'", 1},
        {"flash=memory,1GiB,memory model=hama-ssd-2009 scale=2\n", "field 'scale'", 1},
        {"flash=memory,1GiB,memory colour=blue\n", "field 'colour'", 1},
        {"flash=memory,1GiB,memory name=a\ndisk=memory,1GiB,memory name=a\n", "used twice", 2},
        {"flash=memory,1GiB,memory name=a name=b\n", "given twice", 1},
        {"flash=memory,1GiB,memory justaword\n", "key=value", 1},
        {"flsh=memory,1GiB,memory\n", "field 'flsh'", 1},
        {"flash memory\n", "KEY=VALUE", 1},
        {"flash=memory,1GiB,memory\nplacement=flash_aware\nplacement=single device=x\n", "second placement",
         3},
        {"flash=memory,1GiB,memory tl_page=128KiB\n", "tl=on", 1},
        {"flash=memory,1GiB,memory pace=on\n", "model", 1},
        {"flash=memory,1GiB,memory direct=sometimes\n", "field 'direct'", 1},
        {"disk=/tmp/x.img,1GiB,syscall io_threads=0\n", "field 'io_threads'", 1},
        {"disk=/tmp/x.img,1GiB,syscall io_threads=65\n", "1 to 64", 1},
        {"disk=/tmp/x.img,1GiB,syscall io_threads=2.5\n", "whole number", 1},
        {"disk=/tmp/x.img,1GiB,syscall io_threads=4 model=hama-ssd-2009\n", "real devices only", 1},
        {"disk=memory,1GiB,memory io_threads=2\n", "field 'io_threads'", 1},
        // pacing's scale, in the range --scale has (1e300 overflowed a duration and paced nothing)
        {"flash=memory,1GiB,memory model=hama-ssd-2009 pace=on scale=1e300\n", "field 'scale'", 1},
        {"flash=memory,1GiB,memory model=hama-ssd-2009 pace=on scale=1e-7\n", "field 'scale'", 1},
        // options that did nothing, silently
        {"flash=memory,1GiB,memory model=\n", "field 'model'", 1},
        {"flash=memory,1GiB,memory\ndisk=memory,1GiB,memory keep=on\n", "field 'keep'", 2},
        {"flash=memory,1GiB,memory keep=off\n", "field 'keep'", 1},
        {"flash=memory,1GiB,memory reuse=on\n", "field 'reuse'", 1},
        {"flash=memory,1GiB,memory direct=on\n", "field 'direct'", 1},
        {"flash=memory,1GiB,memory direct\n", "field 'direct'", 1},
        {"flash=memory,1GiB,memory nodirect\n", "field 'nodirect'", 1},
        {"disk=/tmp/x.img,1GiB,syscall keep=on unlink\n", "field 'unlink'", 1},
        {"disk=/tmp/x.img,1GiB,syscall delete_on_exit keep=on\n", "field 'keep'", 1},
        {"disk=/tmp/x.img,1GiB,syscall keep=1 delete\n", "field 'delete'", 1},
        {"\xEF\xBB\xBF"
         "flash=memory,1GiB,memory\n",
         "byte-order mark", 1},
    };
    for (const bad_config& c : cases) {
        try {
            parse_machine_config(c.text, "cfg");
            ADD_FAILURE() << "accepted: " << c.text;
        } catch (const config_error& e) {
            std::string msg = e.what();
            EXPECT_NE(msg.find("cfg:" + std::to_string(c.line) + ":"), std::string::npos) << msg;
            EXPECT_NE(msg.find(c.must_mention), std::string::npos)
                << "'" << c.must_mention << "' not in: " << msg;
            EXPECT_EQ(e.line(), static_cast<std::size_t>(c.line)) << msg;
        }
    }
}

TEST(ParseStxxlSize, StxxlMeaningOfUnits) {
    EXPECT_EQ(parse_stxxl_size("1G"), 1000000000u);
    EXPECT_EQ(parse_stxxl_size("1GB"), 1000000000u);
    EXPECT_EQ(parse_stxxl_size("512M"), 512000000u);
    EXPECT_EQ(parse_stxxl_size("4k"), 4000u);
    EXPECT_EQ(parse_stxxl_size("2T"), 2000000000000u);
    EXPECT_EQ(parse_stxxl_size("1GiB"), GiB);
    EXPECT_EQ(parse_stxxl_size("16Mi"), 16 * MiB);
    EXPECT_EQ(parse_stxxl_size("4KiB"), 4 * KiB);
    EXPECT_EQ(parse_stxxl_size("100"), 100 * MiB); // STXXL's default unit
    EXPECT_EQ(parse_stxxl_size("4096B"), 4096u);
    bool decimal = false;
    parse_stxxl_size("1G", &decimal);
    EXPECT_TRUE(decimal);
    parse_stxxl_size("1GiB", &decimal);
    EXPECT_FALSE(decimal);
    for (const char* bad : {"", "G", "1Q", "1GiX", "-5", "99999999999999999999", "20000000P"})
        EXPECT_THROW(parse_stxxl_size(bad), config_error) << bad;
}

// format_size writes sizes into generated machine configs (characterize's snippet, benchmarks),
// where a plain number means MiB: its output must read back as the same bytes in both parsers.
TEST(FormatSize, RoundTripsThroughBothParsers) {
    for (std::uint64_t bytes :
         {std::uint64_t(1), std::uint64_t(4095), std::uint64_t(4096), std::uint64_t(4097),
          std::uint64_t(1342177256), 3 * MiB, 5 * GiB + 100, 2 * TiB}) {
        std::string text = format_size(bytes);
        EXPECT_EQ(parse_size(text), bytes) << text;
        EXPECT_EQ(parse_stxxl_size(text), bytes) << text;
    }
    EXPECT_EQ(format_size(4097), "4097B");
    EXPECT_EQ(format_size(3 * MiB), "3MiB");
}

TEST(ParseNumber, RejectsInfAndNan) {
    EXPECT_EQ(parse_number("2.5"), 2.5);
    for (const char* bad : {"inf", "-inf", "nan", "NaN", "infinity", "1e999"}) {
        try {
            parse_number(bad);
            ADD_FAILURE() << "accepted " << bad;
        } catch (const config_error& e) {
            EXPECT_NE(std::string(e.what()).find(bad), std::string::npos) << e.what();
        }
    }
}

TEST(MachineConfig, StxxlLinesLoadWithStxxlMeaning) {
    // An STXXL 1.4.1 line: 1G is 10^9 bytes (whole 4 KiB blocks of it), unlink is a flag.
    machine_spec s =
        parse_machine_config("disk=/tmp/stxxl.img,1G,syscall unlink\n"
                             "disk=/tmp/b.img,100,syscall direct nodirect autogrow queue=2 devid=1\n"
                             "disk=/tmp/c.img,2GiB,syscall direct=yes delete_on_exit\n",
                             "stxxl.cfg");
    ASSERT_EQ(s.devices.size(), 3u);
    EXPECT_EQ(s.devices[0].size, 999997440u);
    EXPECT_EQ(s.devices[0].size % 4096, 0u);
    EXPECT_FALSE(s.devices[0].keep);
    EXPECT_EQ(s.devices[1].size, 100 * MiB);
    EXPECT_EQ(s.devices[1].direct, "off"); // the last of direct, nodirect wins, as in STXXL
    EXPECT_EQ(s.devices[2].size, 2 * GiB);
    EXPECT_EQ(s.devices[2].direct, "on");
    EXPECT_TRUE(s.devices[0].params.empty()); // STXXL options are not taken as model parameters
    EXPECT_TRUE(s.devices[1].params.empty());
}

TEST(MachineConfig, NulByteNamesLineAndColumn) {
    const char text[] = "# first\nflash=memory,1GiB,memory name=s\0sd\n";
    try {
        parse_machine_config(std::string(text, sizeof text - 1), "nul.cfg");
        FAIL() << "a NUL byte was accepted";
    } catch (const config_error& e) {
        EXPECT_NE(std::string(e.what()).find("nul.cfg:2: NUL byte at column 32"), std::string::npos)
            << e.what();
    }
}

TEST(MachineConfig, InfOrNanModelParameterNamesLineAndParameter) {
    for (const char* v : {"inf", "nan", "-inf"}) {
        try {
            machine::from_config_text(
                std::string("flash=memory,16MiB,memory model=hama-ssd-2009 c_r_ms=") + v + "\n", "p.cfg");
            ADD_FAILURE() << "accepted c_r_ms=" << v;
        } catch (const config_error& e) {
            std::string msg = e.what();
            EXPECT_NE(msg.find("p.cfg:1"), std::string::npos) << msg;
            EXPECT_NE(msg.find("c_r_ms"), std::string::npos) << msg;
            EXPECT_NE(msg.find("not a finite number"), std::string::npos) << msg;
        }
    }
}

TEST(MachineConfig, EmptyConfigIsAnError) {
    EXPECT_THROW(parse_machine_config("# nothing\n\n", "empty.cfg"), config_error);
}

TEST(MachineConfig, UnknownModelAndModelParameterNameTheLine) {
    try {
        machine::from_config_text(
            "disk=memory,1GiB,memory\nflash=memory,1GiB,memory model=hama-ssd-2009 chonk=1MiB\n", "m.cfg");
        FAIL();
    } catch (const config_error& e) {
        std::string msg = e.what();
        EXPECT_NE(msg.find("m.cfg:2"), std::string::npos) << msg;
        EXPECT_NE(msg.find("chonk"), std::string::npos) << msg;
    }
    try {
        machine::from_config_text("flash=memory,1GiB,memory model=no-such-ssd\n", "m.cfg");
        FAIL();
    } catch (const config_error& e) {
        std::string msg = e.what();
        EXPECT_NE(msg.find("m.cfg:1"), std::string::npos) << msg;
        EXPECT_NE(msg.find("no-such-ssd"), std::string::npos) << msg;
    }
}

TEST(MachineConfig, DeviceLargerThanModelCapacityIsRejected) {
    try {
        machine::from_config_text("flash=memory,64GiB,memory model=hama-ssd-2009\n", "big.cfg");
        FAIL();
    } catch (const config_error& e) {
        std::string msg = e.what();
        EXPECT_NE(msg.find("big.cfg:1"), std::string::npos) << msg;
        EXPECT_NE(msg.find("capacity"), std::string::npos) << msg;
    }
}

// A seed is decimal digits: std::stoull took "-1" as 2^64 - 1 (a different stream than asked).
TEST(MachineConfig, RandomStripingSeedIsDigitsOnly) {
    const std::string dev = "flash=memory,4MiB,memory name=ssd\n";
    for (const char* seed :
         {"-1", "+5", "0x10", "5x", "", "18446744073709551616", "99999999999999999999999"}) {
        try {
            parse_machine_config(dev + "placement=random_striping seed=" + seed + "\n", "p.cfg");
            machine::from_config_text(dev + "placement=random_striping seed=" + seed + "\n", "p.cfg");
            ADD_FAILURE() << "accepted seed='" << seed << "'";
        } catch (const config_error& e) {
            std::string msg = e.what();
            EXPECT_NE(msg.find("p.cfg:2"), std::string::npos) << msg;
            EXPECT_NE(msg.find("seed"), std::string::npos) << msg;
        }
    }
    for (const char* seed : {"0", "18446744073709551615", "007"})
        EXPECT_NO_THROW(
            machine::from_config_text(dev + "placement=random_striping seed=" + seed + "\n", "p.cfg"))
            << seed;
}

TEST(MachineConfig, ScaleHasTheRangeOfTheScaleOption) {
    const std::string head = "flash=memory,4MiB,memory model=hama-ssd-2009 pace=on scale=";
    for (const char* ok : {"1e-6", "0.5", "1e6"}) {
        machine_spec spec = parse_machine_config(head + ok + "\n", "s.cfg");
        EXPECT_DOUBLE_EQ(spec.devices[0].pacing.scale, std::stod(ok));
    }
    for (const char* bad : {"1e300", "1e7", "1e-7", "0", "inf"}) {
        try {
            parse_machine_config(head + bad + "\n", "s.cfg");
            ADD_FAILURE() << "accepted scale=" << bad;
        } catch (const config_error& e) {
            std::string msg = e.what();
            EXPECT_NE(msg.find("s.cfg:1: field 'scale'"), std::string::npos) << msg;
        }
    }
}

TEST(MachineConfig, BadPlacementNamesTheLine) {
    for (const char* placement :
         {"placement=fastest\n", "placement=single\n", "placement=single device=nope\n",
          "placement=per_role hot=nope\n", "placement=per_role warm=ssd\n",
          "placement=random_striping seed=x\n", "placement=flash_aware x=1\n"}) {
        std::string text = std::string("flash=memory,4MiB,memory name=ssd\n") + placement;
        try {
            machine::from_config_text(text, "p.cfg");
            ADD_FAILURE() << "accepted: " << placement;
        } catch (const config_error& e) {
            EXPECT_NE(std::string(e.what()).find("p.cfg:2"), std::string::npos) << e.what();
        }
    }
}

TEST(MachinePresets, AllPresetsBuildAndUnknownOnesListTheNames) {
    for (const auto& p : machine_presets()) {
        machine m = machine::from_preset(p.name);
        EXPECT_GE(m.device_count(), 2u) << p.name;
        for (std::size_t i = 0; i < m.device_count(); ++i)
            EXPECT_NE(m.dev(i).model(), nullptr);
    }
    try {
        machine::from_preset("hybrid-2010");
        FAIL();
    } catch (const config_error& e) {
        EXPECT_NE(std::string(e.what()).find("hybrid-2009"), std::string::npos) << e.what();
    }
}

TEST(MachinePresets, HybridHasFlashAndHddWithThePapersModels) {
    machine m = machine::from_preset("hybrid-2009");
    EXPECT_EQ(m.dev("ssd").klass(), device_class::flash);
    EXPECT_EQ(m.dev("hdd").klass(), device_class::hdd);
    EXPECT_EQ(m.dev("ssd").model()->preset(), "hama-ssd-2009");
    EXPECT_EQ(m.dev("hdd").model()->preset(), "barracuda-7200.11");
    EXPECT_EQ(m.placement().name(), "flash_aware");
    EXPECT_THROW(m.dev("tape"), config_error);
}

// --backing-dir: file devices whose files are unlinked once open, so nothing is left at the
// paths during or after the run, and a second machine on the same directory gets files of its own.
TEST(MachinePresets, FileBackedUnderADirectoryLeavesNoFiles) {
    std::string dir = ::testing::TempDir() + "flashxxl_preset_files";
    std::string mk = "mkdir -p " + dir;
    ASSERT_EQ(std::system(mk.c_str()), 0);
    std::string ssd_file = dir + "/hybrid-2009-ssd.img";
    {
        machine_options opts;
        opts.backing_dir = dir;
        machine m = machine::from_preset("hybrid-2009", opts);
        EXPECT_EQ(m.dev("ssd").spec().io_impl, "syscall");
        EXPECT_EQ(m.dev("ssd").spec().path, ssd_file);
        EXPECT_NE(std::system(("test -e " + ssd_file).c_str()), 0)
            << "the backing file was not unlinked once open";
        machine second = machine::from_preset("hybrid-2009", opts);
        EXPECT_EQ(second.dev("ssd").capacity(), m.dev("ssd").capacity());
    }
    EXPECT_NE(std::system(("test -e " + ssd_file).c_str()), 0) << "backing file left behind";
    std::system(("rm -rf " + dir).c_str());
}

TEST(MachinePresets, SeveralMachinesInOneProcessAreIndependent) {
    machine a = machine::from_preset("hybrid-2009");
    machine b = machine::from_preset("hybrid-2009");
    EXPECT_NE(a.dev("ssd").queue_id(), b.dev("ssd").queue_id());
    EXPECT_NE(a.dev("ssd").queue_id(), a.dev("hdd").queue_id());
    {
        owned_extent e = a.allocate(role::static_data, 1 * MiB);
        EXPECT_EQ(e->dev, &a.dev("ssd"));
        EXPECT_EQ(a.dev("ssd").allocator().used_bytes(), 1 * MiB);
        EXPECT_EQ(b.dev("ssd").allocator().used_bytes(), 0u);
    } // the owner gives the range back
    EXPECT_EQ(a.dev("ssd").allocator().used_bytes(), 0u);
}

// io_threads=N: a real device served by N STXXL queues (its queue depth). Many reads and writes
// in flight at once land where they belong; the queues go back to the pool with the machine.
TEST(MachineConfig, IoThreadsServeARealDeviceThroughSeveralQueues) {
    std::string dir = ::testing::TempDir() + "flashxxl_io_threads";
    ASSERT_EQ(std::system(("mkdir -p " + dir).c_str()), 0);
    std::string path = dir + "/dev.img";
    ::unlink(path.c_str());
    constexpr std::size_t block = 64 * 1024, blocks = 64;
    {
        machine m = machine::from_config_text("disk=" + path + ",8MiB,syscall name=d io_threads=4\n", "cfg");
        device& d = m.dev("d");
        EXPECT_EQ(d.spec().io_threads, 4u);
        EXPECT_EQ(d.emulated().queue_count(), 4u);
        std::vector<std::unique_ptr<aligned_buffer>> out, in;
        std::vector<stxxl::request_ptr> reqs;
        for (std::size_t b = 0; b < blocks; ++b) {
            out.push_back(std::make_unique<aligned_buffer>(block));
            std::uint64_t* p = out.back()->as<std::uint64_t>();
            for (std::size_t i = 0; i < block / 8; ++i)
                p[i] = b * 1000003 + i;
            reqs.push_back(d.awrite(out.back()->data(), b * block, block, role::stream));
        }
        for (auto& r : reqs)
            d.wait(r, role::stream);
        reqs.clear();
        for (std::size_t b = 0; b < blocks; ++b) {
            in.push_back(std::make_unique<aligned_buffer>(block));
            reqs.push_back(d.aread(in.back()->data(), (blocks - 1 - b) * block, block, role::stream));
        }
        for (auto& r : reqs)
            d.wait(r, role::stream);
        for (std::size_t b = 0; b < blocks; ++b) {
            const std::uint64_t* p = in[b]->as<std::uint64_t>();
            std::size_t src = blocks - 1 - b;
            for (std::size_t i = 0; i < block / 8; i += 997)
                ASSERT_EQ(p[i], src * 1000003 + i) << "block " << src;
        }
        device_stats st = d.stats();
        EXPECT_EQ(st.total.read_bytes, blocks * block);
        EXPECT_EQ(st.total.write_bytes, blocks * block);
    }
    // The queues were given back: a new machine of 4 queues still fits next to a fresh one.
    machine again = machine::from_config_text("disk=" + path + ",8MiB,syscall name=d io_threads=4\n", "cfg");
    EXPECT_EQ(again.dev("d").emulated().queue_count(), 4u);
    std::system(("rm -rf " + dir).c_str());
}
