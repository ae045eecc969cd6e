// Device hints from sysfs: a disk, a partition (its disk's queue), a device without a block device.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

#include "flashxxl/characterize/device_hints.hpp"

namespace ch = flashxxl::characterize;
namespace fs = std::filesystem;

namespace {

// A fake /sys: devices/.../block/nvme0n1 with a queue and a partition nvme0n1p1, linked from
// dev/block/259:0 and 259:1 as the kernel links them.
class fake_sysfs : public ::testing::Test {
protected:
    void SetUp() override {
        root = fs::temp_directory_path() / ("flashxxl-sysfs-" + std::to_string(::getpid()));
        const fs::path disk = root / "devices/pci0/nvme/block/nvme0n1";
        fs::create_directories(disk / "queue");
        fs::create_directories(disk / "nvme0n1p1");
        std::ofstream(disk / "nvme0n1p1/partition") << "1\n";
        write(disk / "queue/physical_block_size", "4096");
        write(disk / "queue/minimum_io_size", "16384");
        write(disk / "queue/optimal_io_size", "131072");
        write(disk / "queue/rotational", "0");
        write(disk / "queue/nr_requests", "1023");
        fs::create_directories(root / "dev/block");
        fs::create_directory_symlink("../../devices/pci0/nvme/block/nvme0n1", root / "dev/block/259:0");
        fs::create_directory_symlink("../../devices/pci0/nvme/block/nvme0n1/nvme0n1p1",
                                     root / "dev/block/259:1");
    }
    void TearDown() override { fs::remove_all(root); }
    static void write(const fs::path& p, const std::string& v) { std::ofstream(p) << v << "\n"; }
    fs::path root;
};

} // namespace

TEST_F(fake_sysfs, a_disk_gives_its_queue_limits) {
    ch::device_hints h = ch::read_device_hints(259, 0, root.string());
    EXPECT_EQ(h.device, "nvme0n1");
    EXPECT_EQ(h.physical_block_size.value_or(0), 4096u);
    EXPECT_EQ(h.minimum_io_size.value_or(0), 16384u);
    EXPECT_EQ(h.optimal_io_size.value_or(0), 131072u);
    EXPECT_EQ(h.nr_requests.value_or(0), 1023u);
    ASSERT_TRUE(h.rotational.has_value());
    EXPECT_FALSE(*h.rotational);
    EXPECT_EQ(h.text(), "nvme0n1: physical_block_size=4096 minimum_io_size=16384 optimal_io_size=131072 "
                        "rotational=0 nr_requests=1023");
    EXPECT_EQ(h.start().page, 16384u); // the larger of physical block and minimum I/O size
}

TEST_F(fake_sysfs, a_partition_gives_its_disks_limits) {
    ch::device_hints h = ch::read_device_hints(259, 1, root.string());
    EXPECT_EQ(h.device, "nvme0n1");
    EXPECT_EQ(h.minimum_io_size.value_or(0), 16384u);
}

TEST_F(fake_sysfs, an_unknown_device_gives_none) {
    ch::device_hints h = ch::read_device_hints(8, 0, root.string());
    EXPECT_TRUE(h.empty());
    EXPECT_FALSE(h.physical_block_size.has_value());
    EXPECT_EQ(h.start().page, 0u);
    EXPECT_TRUE(ch::read_device_hints("/no/such/path").empty());
}
