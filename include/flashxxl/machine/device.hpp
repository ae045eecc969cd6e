// One device of a machine: backing store, optional model, optional translation layer, allocator.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>
#include <sys/stat.h>
#include <sys/types.h>

#include <stxxl/bits/io/completion_handler.h>
#include <stxxl/bits/io/request.h>

#include "flashxxl/block_sizes.hpp"
#include "flashxxl/device/device_class.hpp"
#include "flashxxl/device/device_stats.hpp"
#include "flashxxl/machine/extent_allocator.hpp"
#include "flashxxl/machine/machine_spec.hpp"
#include "flashxxl/role.hpp"
#include "flashxxl/tl/tl_config.hpp"

namespace stxxl {
class file;
}

namespace flashxxl {

class device_model;
class emulated_file;
class memory_backing_budget;
class modelled_clock;
class structure_meter;
class translation_layer;

//! A device is a stack of stxxl::file objects, `[translation layer] -> emulated_file ->
//! backing`, with its own STXXL queue (its own I/O thread) and its own extent allocator.
//! Containers do I/O through aread / awrite / wait, which count per-role statistics.
//! Compiled in the core library (src/core/device.cpp); include device/emulated_file.hpp or
//! tl/translation_layer.hpp to use what emulated() / tl() return.
class device {
public:
    //! Builds the device of one config line. Throws config_error naming the line. With a
    //! clock (the machine's), its requests are scheduled on that virtual clock; with a budget
    //! (the machine's), a memory-backed device takes its storage from it.
    explicit device(const device_spec& spec, modelled_clock* virtual_clock = nullptr,
                    memory_backing_budget* memory_budget = nullptr);

    device(const device&) = delete;
    device& operator=(const device&) = delete;

    ~device();

    const std::string& name() const { return spec_.name; }
    device_class klass() const { return spec_.klass; }
    //! Bytes the allocator may hand out (the logical capacity under a translation layer).
    std::uint64_t capacity() const { return allocator_->capacity(); }
    const device_spec& spec() const { return spec_; }
    int queue_id() const { return queue_id_; }

    //! The top of the stack: what containers read and write.
    stxxl::file& file();
    //! The accounting / model layer (below any translation layer).
    emulated_file& emulated() { return *emulated_; }
    const emulated_file& emulated() const { return *emulated_; }
    //! nullptr for a real device.
    const device_model* model() const;
    extent_allocator& allocator() { return *allocator_; }
    const extent_allocator& allocator() const { return *allocator_; }
    bool has_translation_layer() const { return tl_ != nullptr; }
    //! The translation layer (config tl=on), or nullptr.
    translation_layer* tl() { return tl_.get(); }
    //! The device's block sizes: its config line's br= / bw=, or seeds/001's 128 KiB / 16 MiB.
    //! Under a translation layer Br is at least its page (a smaller read would still fetch a
    //! page) and Bw is its segment when the line states no bw=.
    block_sizes blocks() const { return blocks_; }
    //! True when the config line stated br= or bw=.
    bool blocks_configured() const { return spec_.br != 0 || spec_.bw != 0; }

    //! Returns [offset, offset + length) of an allocation: discards the data first (TRIM on the
    //! model, page invalidation in the translation layer), then frees the range, so no other
    //! allocation can own it while the discard runs. owned_extent calls this; errors from the
    //! discard are swallowed (the range is freed regardless) and counted in release_errors().
    void release_range(std::uint64_t offset, std::uint64_t length) noexcept;
    //! Counts every later request on [offset, offset + length) (an extent just allocated) into
    //! `meter` until release_range() gives the range back (machine::allocate calls it).
    void meter_range(std::uint64_t offset, std::uint64_t length, structure_meter& meter);
    //! Discards or releases that failed (a bug in the caller when non-zero; tests check it).
    std::uint64_t release_errors() const { return release_errors_; }
    const translation_layer* tl() const { return tl_.get(); }

    //! Asynchronous read of `length` bytes at `offset`, counted under role `r`.
    stxxl::request_ptr aread(void* buffer, std::uint64_t offset, std::uint64_t length, role r,
                             const stxxl::completion_handler& on_complete = stxxl::completion_handler()) {
        return submit(io_op::read, buffer, offset, length, r, on_complete);
    }
    //! Asynchronous write of `length` bytes at `offset`, counted under role `r`.
    stxxl::request_ptr awrite(void* buffer, std::uint64_t offset, std::uint64_t length, role r,
                              const stxxl::completion_handler& on_complete = stxxl::completion_handler()) {
        return submit(io_op::write, buffer, offset, length, r, on_complete);
    }
    //! Waits for a request of this device; the blocked time goes to stats wait_s of role `r`.
    //! An I/O error of the request (STXXL's io_error: ENOSPC, EIO, EROFS ...) is rethrown as
    //! io_failure naming this device, its backing file, the request and what to do.
    void wait(const stxxl::request_ptr& req, role r);
    //! Waits for every request of `reqs` (all of this device), also after one has failed, so
    //! that no buffer is still being read or written when this returns; then throws the first
    //! failure (as wait()). Call it, not wait() in a loop, where a caller's buffers go out of
    //! scope or are reused once the wait throws.
    void wait_all(const std::vector<stxxl::request_ptr>& reqs, role r);

    //! Per-role statistics. Without a translation layer they are the device's own. With one,
    //! by_role counts host I/O through the layer, while total and internal count what reached
    //! the device below it (segment writes, cleaning); modelled time is the device's.
    device_stats stats() const;
    //! Modelled time at which the device finishes what was submitted so far (virtual clock).
    double free_at_s() const;
    //! Modelled busy time of the device so far (seconds).
    double busy_seconds() const;

    //! Tells the device that the machine it belongs to failed to build (a later device or the
    //! placement was refused): the backing file this device created is removed at teardown even
    //! with keep=on, which keeps the file of a machine that was built, not of one that never was.
    void machine_build_failed() noexcept;

    //! The translation-layer settings of a config line's tl_* keys (tl_page, tl_segment,
    //! tl_spare, tl_cleaning, tl_low_watermark); config_error names the key.
    static tl_config parse_tl_options(const device_spec& spec);

private:
    void build();

    //! Opens (or creates) the backing file of a file device. The path's last component must be
    //! a regular file or absent, never a symbolic link (config_error naming the config line): a
    //! link would be written through, and created-then-removed at its target or its own name.
    //! A new file is created with O_EXCL | O_NOFOLLOW; its identity (device, inode) is recorded,
    //! and unless keep=on it is unlinked once open (checked to be that file), so that not even a
    //! killed run leaves it behind; with keep=on it carries flashxxl's mark (an extended
    //! attribute), by which a later machine with keep=on on that path reopens it. An existing
    //! file needs reuse=on (or that mark and keep=on) and write permission. Before STXXL opens
    //! it, the file's lock (file_lock.hpp) is taken, so that a characterize run or a machine in
    //! another process on the file is refused naming the holder, and refuses this one.
    std::unique_ptr<stxxl::file> open_backing_file();
    //! Opens the backing file `path` names for the lock (lock_fd_), creating it when `create`,
    //! and checks that it is the file `st` describes (or records the new one's identity in `st`).
    void open_lock_descriptor(const std::string& where, bool create, struct stat& st);
    //! Takes the backing file's lock on lock_fd_ (io_failure naming the file and its holder).
    void lock_backing_file(const std::string& where);
    void close_lock_descriptor() noexcept;

    //! True when the path still names the regular file this device opened or created.
    bool is_backing_file() const;

    void release_queues();

    //! Removes the backing file if this device created it, has not unlinked it yet, keep=on does
    //! not hold it (it does not once the build failed), and it is still that file (same device and
    //! inode, not a link): whatever else sits at the path now is left alone.
    void remove_backing_file();

    stxxl::request_ptr submit(io_op op, void* buffer, std::uint64_t offset, std::uint64_t length, role r,
                              const stxxl::completion_handler& on_complete);

    device_spec spec_;
    modelled_clock* clock_;
    memory_backing_budget* memory_budget_;
    int queue_id_ = -1;
    std::vector<int> extra_queue_ids_; // io_threads - 1 more queues of a real device
    bool created_ = false;
    std::optional<std::uint64_t> grown_from_; // a reused file's length before this device grew it
    bool build_failed_ = false; // this device's build or its machine's failed: created_ goes, kept or not
    dev_t backing_dev_ = 0;     // identity of the backing file (file devices)
    ino_t backing_ino_ = 0;
    // The backing file's descriptor that carries its lock. A process-owned POSIX lock, which
    // STXXL takes as well: closing STXXL's descriptor releases it, so this one stays open until
    // the file is no longer used, and takes the lock again for a failed build's truncate.
    int lock_fd_ = -1;
    std::unique_ptr<emulated_file> emulated_;
    int tl_queue_id_ = -1;
    std::unique_ptr<translation_layer> tl_;
    std::unique_ptr<extent_allocator> allocator_;
    block_sizes blocks_;
    std::atomic<std::uint64_t> release_errors_{0};
    mutable std::mutex host_mutex_;
    std::array<io_counters, role_count> host_by_role_{};
    struct metered_range {
        std::uint64_t end;
        structure_meter* meter;
    };
    std::mutex meters_mutex_;
    std::map<std::uint64_t, metered_range> metered_; // by offset: the named structures' extents
    std::atomic<bool> any_metered_{false};
    //! Counts a request into the meter of the extent it starts in, if one is registered.
    void count_structure(io_op op, std::uint64_t offset, std::uint64_t length);
};

} // namespace flashxxl
