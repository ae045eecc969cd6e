// The interface of a placement policy (which device gets a block) and what it sees of each device.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "flashxxl/device/device_class.hpp"
#include "flashxxl/role.hpp"

namespace flashxxl {

//! What a placement policy may know about a device when it chooses.
struct placement_device {
    std::string name;
    device_class klass;
    std::uint64_t capacity;
    std::uint64_t free_bytes;
};

//! Maps (role, block index, size) to a device index. Implementations need not be thread-safe:
//! the machine calls choose() under its own lock. A policy should only pick a device whose
//! free_bytes covers the request; when none can, it returns any index and the machine's
//! allocator throws out_of_space naming that device.
class placement_policy {
public:
    virtual ~placement_policy() = default;
    virtual std::string name() const = 0;
    //! A one-line description of what goes where.
    virtual std::string describe(const std::vector<placement_device>& devices) const = 0;
    virtual std::size_t choose(role r, std::uint64_t block_index, std::uint64_t bytes,
                               const std::vector<placement_device>& devices) = 0;
    //! The devices blocks of role `r` may go to (machine::block_sizes_for derives a role's
    //! default block sizes from them). Default: every device.
    virtual std::vector<std::size_t> devices_for(role r, const std::vector<placement_device>& devices) const {
        (void)r;
        std::vector<std::size_t> all;
        for (std::size_t i = 0; i < devices.size(); ++i)
            all.push_back(i);
        return all;
    }
};

} // namespace flashxxl
