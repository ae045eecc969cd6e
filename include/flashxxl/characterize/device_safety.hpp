// Safety checks before writing a block device: mounts, partitions, holders, on-disk signatures.
#pragma once

#include <cstdint>
#include <cstring>
#include <dirent.h>
#include <fstream>
#include <limits.h>
#include <optional>
#include <sstream>
#include <stdlib.h>
#include <string>
#include <vector>

namespace flashxxl::characterize {

//! The name of the first file-system / partition-table / volume signature found in the first
//! bytes of a device (`data` should hold at least 68 KiB + 72 bytes to see btrfs), or nullopt.
//! Magic numbers checked here, from the formats' specifications: MBR / FAT boot sector 0x55AA at
//! 510, GPT "EFI PART" at 512 (and 4096 for 4 KiB sectors), ext2/3/4 0xEF53 at 1024 + 56, XFS
//! "XFSB" at 0, btrfs "_BHRfS_M" at 64 KiB + 64, Linux swap "SWAPSPACE2" / "SWAP-SPACE" at
//! 4096 - 10, LUKS "LUKS\xba\xbe" at 0, LVM2 "LABELONE" at 512, NTFS "NTFS    " at 3,
//! ISO 9660 "CD001" at 32769, F2FS 0xF2F52010 at 1024, bcache / zfs are not detected.
inline std::optional<std::string> find_signature(const std::uint8_t* data, std::size_t n) {
    auto has = [&](std::size_t at, const void* magic, std::size_t len) {
        return at + len <= n && std::memcmp(data + at, magic, len) == 0;
    };
    const std::uint8_t mbr[2] = {0x55, 0xaa};
    const std::uint8_t ext[2] = {0x53, 0xef};
    const std::uint8_t f2fs[4] = {0x10, 0x20, 0xf5, 0xf2};
    if (has(0, "LUKS\xba\xbe", 6)) return std::string("LUKS");
    if (has(0, "XFSB", 4)) return std::string("xfs");
    if (has(3, "NTFS    ", 8)) return std::string("ntfs");
    if (has(512, "EFI PART", 8) || has(4096, "EFI PART", 8)) return std::string("GPT partition table");
    if (has(512, "LABELONE", 8)) return std::string("LVM2 physical volume");
    if (has(1024 + 56, ext, 2)) return std::string("ext2/3/4");
    if (has(1024, f2fs, 4)) return std::string("f2fs");
    if (has(4096 - 10, "SWAPSPACE2", 10) || has(4096 - 10, "SWAP-SPACE", 10))
        return std::string("Linux swap");
    if (has(32769, "CD001", 5)) return std::string("ISO 9660");
    if (has(65536 + 64, "_BHRfS_M", 8)) return std::string("btrfs");
    if (has(510, mbr, 2)) return std::string("MBR partition table / boot sector (0x55AA)");
    return std::nullopt;
}

//! Bytes find_signature() wants to see.
constexpr std::size_t signature_probe_bytes = 72 * 1024;

//! The source devices of /proc/self/mounts (first field of each line), with \040-style escapes decoded.
inline std::vector<std::string> mount_sources(const std::string& mounts_text) {
    std::vector<std::string> out;
    std::istringstream in(mounts_text);
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream ls(line);
        std::string src;
        if (!(ls >> src)) continue;
        std::string dec;
        for (std::size_t i = 0; i < src.size(); ++i) {
            if (src[i] == '\\' && i + 3 < src.size()) {
                dec +=
                    static_cast<char>((src[i + 1] - '0') * 64 + (src[i + 2] - '0') * 8 + (src[i + 3] - '0'));
                i += 3;
            } else {
                dec += src[i];
            }
        }
        out.push_back(dec);
    }
    return out;
}

//! Canonical path (symlinks resolved) or the input when it cannot be resolved.
inline std::string canonical_path(const std::string& p) {
    char buf[PATH_MAX];
    if (::realpath(p.c_str(), buf)) return buf;
    return p;
}

//! Partitions of a whole-disk device according to sysfs (/sys/class/block/NAME/NAMEp1 ...), as /dev paths.
inline std::vector<std::string> partitions_of(const std::string& dev_path) {
    std::vector<std::string> parts;
    std::string name = dev_path.substr(dev_path.find_last_of('/') + 1);
    std::string dir = "/sys/class/block/" + name;
    if (DIR* d = ::opendir(dir.c_str())) {
        while (dirent* e = ::readdir(d)) {
            std::string entry = e->d_name;
            if (entry.rfind(name, 0) == 0 && std::ifstream(dir + "/" + entry + "/partition").good())
                parts.push_back("/dev/" + entry);
        }
        ::closedir(d);
    }
    return parts;
}

//! True when sysfs lists holders of the device (device mapper, md, LVM use it).
inline bool has_holders(const std::string& dev_path) {
    std::string name = dev_path.substr(dev_path.find_last_of('/') + 1);
    bool any = false;
    if (DIR* d = ::opendir(("/sys/class/block/" + name + "/holders").c_str())) {
        while (dirent* e = ::readdir(d))
            if (e->d_name[0] != '.') any = true;
        ::closedir(d);
    }
    return any;
}

//! The mounted source among `devices` (compared after resolving symlinks), or nullopt.
inline std::optional<std::string> mounted_among(const std::vector<std::string>& devices,
                                                const std::string& mounts_text) {
    for (const auto& src : mount_sources(mounts_text)) {
        if (src.rfind("/dev/", 0) != 0) continue;
        std::string c = canonical_path(src);
        for (const auto& d : devices)
            if (c == canonical_path(d) || src == d) return src;
    }
    return std::nullopt;
}

//! Contents of /proc/self/mounts (empty when unreadable).
inline std::string read_mounts() {
    std::ifstream in("/proc/self/mounts");
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

} // namespace flashxxl::characterize
