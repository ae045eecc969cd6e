// One device of a machine: backing store, optional model, optional translation layer, allocator.
#pragma once

#include <array>
#include <chrono>
#include <mutex>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

#include <stxxl/bits/io/create_file.h>
#include <stxxl/bits/io/file.h>

#include "flashxxl/device/device_stats.hpp"
#include "flashxxl/device/emulated_file.hpp"
#include "flashxxl/device/model_presets.hpp"
#include "flashxxl/device/sparse_memory_file.hpp"
#include "flashxxl/error.hpp"
#include "flashxxl/machine/extent_allocator.hpp"
#include "flashxxl/machine/machine_spec.hpp"
#include "flashxxl/machine/queue_id_pool.hpp"

namespace flashxxl {

//! A device is a stack of stxxl::file objects, `[translation layer] -> emulated_file ->
//! backing`, with its own STXXL queue (its own I/O thread) and its own extent allocator.
//! Containers do I/O through aread / awrite / wait, which count per-role statistics.
class device {
public:
    //! Builds the device of one config line. Throws config_error naming the line.
    explicit device(const device_spec& spec) : spec_(spec) {
        queue_id_ = queue_id_pool::instance().acquire();
        try {
            build();
        } catch (...) {
            emulated_.reset();
            remove_backing_file();
            queue_id_pool::instance().release(queue_id_);
            throw;
        }
    }

    device(const device&) = delete;
    device& operator=(const device&) = delete;

    ~device() {
        top_.reset();       // the translation layer flushes into the emulated file
        emulated_.reset();  // drains outstanding requests, closes the backing
        remove_backing_file();
        queue_id_pool::instance().release(queue_id_);
    }

    const std::string& name() const { return spec_.name; }
    device_class klass() const { return spec_.klass; }
    //! Bytes the allocator may hand out (the logical capacity under a translation layer).
    std::uint64_t capacity() const { return allocator_->capacity(); }
    const device_spec& spec() const { return spec_; }
    int queue_id() const { return queue_id_; }

    //! The top of the stack: what containers read and write.
    stxxl::file& file() { return top_ ? *top_ : static_cast<stxxl::file&>(*emulated_); }
    //! The accounting / model layer (below any translation layer).
    emulated_file& emulated() { return *emulated_; }
    const emulated_file& emulated() const { return *emulated_; }
    //! nullptr for a real device.
    const device_model* model() const { return emulated_->model(); }
    extent_allocator& allocator() { return *allocator_; }
    const extent_allocator& allocator() const { return *allocator_; }
    bool has_translation_layer() const { return top_ != nullptr; }

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
    //! Rethrows an I/O error of the request.
    void wait(const stxxl::request_ptr& req, role r) {
        auto begin = std::chrono::steady_clock::now();
        req->wait(false);
        double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
        emulated_->add_wait(r, waited);
    }

    //! Per-role statistics. Without a translation layer they are the device's own. With one,
    //! by_role counts host I/O through the layer, while total and internal count what reached
    //! the device below it (segment writes, cleaning); modelled time is the device's.
    device_stats stats() const {
        device_stats s = emulated_->stats();
        if (top_) {
            std::lock_guard<std::mutex> lock(host_mutex_);
            for (std::size_t i = 0; i < role_count; ++i) {
                double wait = s.by_role[i].wait_s;
                s.by_role[i] = host_by_role_[i];
                s.by_role[i].wait_s = wait;
            }
        }
        return s;
    }
    //! Modelled busy time of the device so far (seconds).
    double busy_seconds() const { return emulated_->busy_seconds(); }

    //! Installs a translation layer on top of the emulated file (done by the machine when the
    //! config says tl=on). The allocator is rebuilt for the layer's logical capacity, so this
    //! must happen before anything is allocated.
    void install_translation_layer(std::unique_ptr<stxxl::file> layer, std::uint64_t logical_capacity) {
        if (allocator_->allocated_count() != 0)
            throw config_error("device '" + name() + "': translation layer installed after allocations");
        top_ = std::move(layer);
        allocator_ = std::make_unique<extent_allocator>(name(), logical_capacity);
    }
    //! The translation layer, or nullptr.
    stxxl::file* translation_layer() { return top_.get(); }

private:
    void build() {
        std::unique_ptr<device_model> model;
        if (!spec_.model.empty()) {
            try {
                model = make_model(spec_.model, spec_.params);
            } catch (const config_error& e) {
                throw config_error(spec_.origin + ": device '" + spec_.name + "': " + e.what());
            }
        }
        std::unique_ptr<stxxl::file> backing;
        if (spec_.io_impl == "memory") {
            backing = std::make_unique<sparse_memory_file>(spec_.size);
        } else {
            backing = open_backing_file();
        }
        try {
            emulated_ = std::make_unique<emulated_file>(spec_.name, std::move(backing), std::move(model),
                                                        spec_.size, queue_id_, spec_.pacing);
        } catch (const config_error& e) {
            throw config_error(spec_.origin + ": " + e.what());
        }
        {
            std::lock_guard<std::mutex> lock(queue_id_pool::instance().creation_mutex());
            emulated_->touch_queue();
        }
        allocator_ = std::make_unique<extent_allocator>(spec_.name, spec_.size);
    }

    std::unique_ptr<stxxl::file> open_backing_file() {
        const std::string& path = spec_.path;
        struct stat st {};
        if (::stat(path.c_str(), &st) == 0) {
            if (!S_ISREG(st.st_mode))
                throw config_error(spec_.origin + ": device '" + spec_.name + "': '" + path +
                                   "' is not a regular file (block devices are for `flashxxl characterize "
                                   "--allow-write`, not for machine configs)");
            if (st.st_size > 0 && !spec_.reuse)
                throw config_error(spec_.origin + ": device '" + spec_.name + "': '" + path +
                                   "' already exists and was not created by this machine; remove it or "
                                   "pass reuse=on to overwrite it");
        } else {
            created_ = true;
        }
        int mode = stxxl::file::RDWR | stxxl::file::CREAT | stxxl::file::NO_LOCK;
        if (spec_.direct == "on") mode |= stxxl::file::REQUIRE_DIRECT;
        if (spec_.direct == "try") mode |= stxxl::file::DIRECT;
        int queue = spec_.io_impl == "linuxaio" ? +stxxl::file::DEFAULT_LINUXAIO_QUEUE : +stxxl::file::DEFAULT_QUEUE;
        std::unique_ptr<stxxl::file> f;
        try {
            f.reset(stxxl::create_file(spec_.io_impl, path, mode, queue));
            // Sparse: the file system allocates only what is written.
            if (f->size() < spec_.size) f->set_size(spec_.size);
        } catch (const std::exception& e) {
            throw io_failure(spec_.origin + ": device '" + spec_.name + "': cannot open '" + path +
                             "': " + e.what());
        }
        return f;
    }

    void remove_backing_file() {
        if (created_ && !spec_.keep) ::unlink(spec_.path.c_str());
        created_ = false;
    }

    stxxl::request_ptr submit(io_op op, void* buffer, std::uint64_t offset, std::uint64_t length, role r,
                              const stxxl::completion_handler& on_complete) {
        if (!top_) return emulated_->submit(op, buffer, offset, length, r, on_complete);
        {
            std::lock_guard<std::mutex> lock(host_mutex_);
            host_by_role_[index_of(r)].add(op, length);
        }
        return op == io_op::read ? top_->aread(buffer, offset, length, on_complete)
                                 : top_->awrite(buffer, offset, length, on_complete);
    }

    device_spec spec_;
    int queue_id_ = -1;
    bool created_ = false;
    std::unique_ptr<emulated_file> emulated_;
    std::unique_ptr<stxxl::file> top_;
    std::unique_ptr<extent_allocator> allocator_;
    mutable std::mutex host_mutex_;
    std::array<io_counters, role_count> host_by_role_{};
};

} // namespace flashxxl
