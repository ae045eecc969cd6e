// An stxxl::file that charges a device model at submission, keeps stats, and optionally paces.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <stxxl/bits/io/disk_queued_file.h>
#include <stxxl/bits/io/disk_queues.h>
#include <stxxl/bits/io/request_queue.h>
#include <stxxl/bits/io/serving_request.h>

#include "flashxxl/device/device_model.hpp"
#include "flashxxl/device/device_stats.hpp"
#include "flashxxl/device/modelled_clock.hpp"
#include "flashxxl/device/pacing_options.hpp"
#include "flashxxl/error.hpp"

namespace flashxxl {

//! The device file of flashxxl: wraps any STXXL backing file (memory, syscall, linuxaio, or
//! sparse_memory_file), charges an optional device_model when a request is *submitted* (so the
//! charge depends only on submission order, not on thread timing), and counts per-role stats.
//! With pacing on, its I/O thread sleeps until `start + scale * modelled` for each request.
//! With no model it is a plain accounting wrapper for real devices.
//!
//! Requests must be 4 KiB aligned (offset, length, buffer: the O_DIRECT rule; configurable) and
//! inside the capacity; anything else throws invalid_request naming the device.
//! Thread-safe: any number of threads may submit; the device's single STXXL queue serves.
class emulated_file : public stxxl::disk_queued_file {
public:
    emulated_file(std::string name, std::unique_ptr<stxxl::file> backing, std::unique_ptr<device_model> model,
                  std::uint64_t capacity, int queue_id, pacing_options pacing = {},
                  std::uint64_t alignment = 4096)
        : stxxl::file(DEFAULT_DEVICE_ID), stxxl::disk_queued_file(queue_id, NO_ALLOCATOR),
          name_(std::move(name)), backing_(std::move(backing)), model_(std::move(model)), capacity_(capacity),
          pacing_(pacing), alignment_(alignment) {
        if (!backing_) throw config_error("device '" + name_ + "': no backing file");
        if (model_ && capacity_ > model_->capacity())
            throw config_error("device '" + name_ + "': size " + std::to_string(capacity_) +
                               " bytes exceeds the model's capacity of " +
                               std::to_string(model_->capacity()) + " bytes");
        if (pacing_.enabled && !(pacing_.scale > 0))
            throw config_error("device '" + name_ + "': pacing scale must be > 0");
        if (!model_ || !model_->has_energy()) stats_.mark_energy_unknown();
    }

    ~emulated_file() override { drain(); }

    //! Submits a request tagged with a role (nullopt = internal I/O of a layer above, such as
    //! the translation layer). Charges the model now; the I/O thread moves the data later.
    stxxl::request_ptr submit(io_op op, void* buffer, std::uint64_t offset, std::uint64_t length,
                              std::optional<role> r,
                              const stxxl::completion_handler& on_complete = stxxl::completion_handler()) {
        check_request(buffer, offset, length);
        charge_result c = charge_now(op, offset, length, r);
        stxxl::request_ptr req(new charged_request(
            on_complete, this, buffer, offset, length,
            op == io_op::read ? stxxl::request::READ : stxxl::request::WRITE, c.charge, c.completion_s, r));
        outstanding_.fetch_add(1);
        try {
            enqueue(req);
        } catch (...) {
            // Never queued (STXXL's queue could not grow: bad_alloc). A request still in its
            // operating state aborts the process when destroyed (STXXL asserts it is done),
            // so it is marked as one that may die; the model keeps the charge.
            static_cast<charged_request*>(req.get())->abandon();
            finish_one();
            throw;
        }
        return req;
    }

    stxxl::request_ptr
    aread(void* buffer, offset_type pos, size_type bytes,
          const stxxl::completion_handler& on_cmpl = stxxl::completion_handler()) override {
        return submit(io_op::read, buffer, pos, bytes, std::nullopt, on_cmpl);
    }
    stxxl::request_ptr
    awrite(void* buffer, offset_type pos, size_type bytes,
           const stxxl::completion_handler& on_cmpl = stxxl::completion_handler()) override {
        return submit(io_op::write, buffer, pos, bytes, std::nullopt, on_cmpl);
    }

    //! Moves the data. Called by the I/O thread for submitted requests (already charged), or
    //! directly by a layer stacked above (then charged here, as internal I/O).
    void serve(void* buffer, offset_type offset, size_type bytes,
               stxxl::request::request_type type) override {
        serve_context& ctx = context();
        bool from_queue = ctx.file == this;
        double charge = ctx.charge;
        std::optional<role> r = ctx.r;
        ctx.file = nullptr;
        if (bytes == 0 && from_queue) { // the no-op of touch_queue()
            finish_one();
            return;
        }
        try {
            if (!from_queue) {
                io_op op = type == stxxl::request::READ ? io_op::read : io_op::write;
                check_request(buffer, offset, bytes);
                charge = charge_now(op, offset, bytes, std::nullopt).charge;
            }
            auto begin = clock::now();
            backing_->serve(buffer, offset, bytes, type);
            auto end = clock::now();
            pace_and_account(begin, end, charge, r);
        } catch (const stxxl::io_error&) {
            if (from_queue) finish_one();
            throw;
        } catch (const std::exception& e) {
            if (from_queue) finish_one();
            throw stxxl::io_error("device '" + name_ + "': " + e.what());
        }
        if (from_queue) finish_one();
    }

    offset_type size() override { return capacity_; }
    //! The capacity is fixed; asking for more is an error, never a silent grow.
    void set_size(offset_type new_size) override {
        if (new_size > capacity_) throw out_of_space(name_, new_size, capacity_, capacity_);
    }
    void lock() override { backing_->lock(); }
    void discard(offset_type offset, offset_type length) override {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            if (model_) model_->discard(offset, length);
        }
        backing_->discard(offset, length);
    }
    const char* io_type() const override { return "flashxxl_emulated"; }

    //! Adds time a caller spent blocked on one of this device's requests.
    void add_wait(std::optional<role> r, double seconds) {
        std::lock_guard<std::mutex> lock(mutex_);
        stats_.total.wait_s += seconds;
        stats_.slot(r).wait_s += seconds;
    }

    //! Puts the device on a machine's virtual clock: requests are then scheduled on it (see
    //! modelled_clock). Without one, a request starts when the previous one ends.
    void set_clock(const modelled_clock* virtual_clock) {
        std::lock_guard<std::mutex> lock(mutex_);
        virtual_clock_ = virtual_clock;
    }
    //! Modelled time at which the device finishes the last request charged so far.
    double free_at_s() const {
        std::lock_guard<std::mutex> lock(mutex_);
        return free_at_;
    }

    //! Sum of modelled service times charged so far.
    double busy_seconds() const {
        std::lock_guard<std::mutex> lock(mutex_);
        return stats_.total.modelled_s;
    }
    device_stats stats() const {
        std::lock_guard<std::mutex> lock(mutex_);
        return stats_;
    }
    //! The model's internal counters (merges, write amplification...); zero without a model.
    model_counters model_counters_now() const {
        std::lock_guard<std::mutex> lock(mutex_);
        return model_ ? model_->counters() : model_counters{};
    }
    const device_model* model() const { return model_.get(); }
    const std::string& name() const { return name_; }
    const pacing_options& pacing() const { return pacing_; }
    std::uint64_t alignment() const { return alignment_; }
    stxxl::file& backing() { return *backing_; }

    //! Makes STXXL create this file's queue (and I/O thread) now, with an empty request, so
    //! that the queue map of STXXL's (unsynchronised) disk_queues singleton is not modified
    //! later while other threads submit. Call once, before concurrent use.
    //! The queues are kept, and later requests go to them directly: even a lookup in that map
    //! races with another machine's device creating its queue (a std::map find against an insert).
    void touch_queue() {
        std::vector<stxxl::request_queue*> queues;
        for (std::size_t i = 0; i <= extra_queues_.size(); ++i) {
            const int id = i == 0 ? get_queue_id() : extra_queues_[i - 1];
            stxxl::request_ptr req(new charged_request(stxxl::completion_handler(), this, nullptr, 0, 0,
                                                       stxxl::request::READ, 0.0, 0.0, std::nullopt));
            outstanding_.fetch_add(1);
            stxxl::disk_queues::get_instance()->add_request(req, id);
            req->wait(false);
            queues.push_back(stxxl::disk_queues::get_instance()->get_queue(id));
        }
        queues_ = std::move(queues);
    }

    //! Also serves submitted requests through these STXXL queues (one I/O thread each), in
    //! turn with the file's own: the backing then sees up to 1 + ids.size() requests at once
    //! (a real device's queue depth). Requests are charged in submission order; completions
    //! may come in another order. Call before touch_queue() and any I/O.
    void add_queues(std::vector<int> ids) { extra_queues_ = std::move(ids); }
    //! STXXL queues serving this file.
    std::size_t queue_count() const { return 1 + extra_queues_.size(); }
    //! The ids of the queues given to add_queues() (the file's own is get_queue_id()).
    const std::vector<int>& extra_queue_ids() const { return extra_queues_; }

    //! Blocks until every submitted request has been served and released.
    void drain() {
        std::unique_lock<std::mutex> lock(drain_mutex_);
        drained_.wait(lock, [&] { return outstanding_.load() == 0; });
        lock.unlock();
        // A request object touches its file once more when its last reference drops, which
        // may happen in the I/O thread just after serving; wait for that too (briefly).
        for (int i = 0; i < 100000 && get_request_nref() > 0; ++i)
            std::this_thread::sleep_for(std::chrono::microseconds(10));
    }

private:
    using clock = std::chrono::steady_clock;

    //! What the I/O thread is serving right now (set by charged_request around serve()).
    struct serve_context {
        const emulated_file* file = nullptr;
        double charge = 0;
        std::optional<role> r;
    };
    static serve_context& context() {
        static thread_local serve_context ctx;
        return ctx;
    }

    //! A serving_request that carries its charge and role into serve(), and its modelled end.
    class charged_request : public stxxl::serving_request, public modelled_request {
    public:
        charged_request(const stxxl::completion_handler& on_cmpl, emulated_file* f, void* buf,
                        offset_type off, size_type bytes, request_type type, double charge,
                        double completion_s, std::optional<role> r)
            : stxxl::serving_request(on_cmpl, f, buf, off, bytes, type), owner_(f), charge_(charge),
              completion_s_(completion_s), role_(r) {}
        double completion_s() const override { return completion_s_; }
        std::optional<double> known_completion_s() const override { return completion_s_; }
        //! Marks a request that was never queued as one that may be destroyed unserved.
        void abandon() { m_state.set_to(READY2DIE); }
        bool on_model() const override { return owner_->model_ != nullptr; }

    protected:
        void serve() override {
            serve_context& ctx = context();
            ctx.file = owner_;
            ctx.charge = charge_;
            ctx.r = role_;
            stxxl::serving_request::serve();
        }

    private:
        emulated_file* owner_;
        double charge_;
        double completion_s_;
        std::optional<role> role_;
    };

    //! Hands a request to the next of the file's queues (round robin): directly once
    //! touch_queue() has kept them, else through STXXL's map (a file used on its own).
    void enqueue(stxxl::request_ptr& req) {
        const std::size_t n = 1 + extra_queues_.size();
        const std::size_t k =
            n == 1 ? 0 : std::size_t(next_queue_.fetch_add(1, std::memory_order_relaxed) % n);
        if (queues_.size() == n) {
            queues_[k]->add_request(req);
            return;
        }
        stxxl::disk_queues::get_instance()->add_request(req, k == 0 ? get_queue_id() : extra_queues_[k - 1]);
    }

    void check_request(const void* buffer, std::uint64_t offset, std::uint64_t length) const {
        if (length == 0)
            throw invalid_request("device '" + name_ + "': zero-length request at offset " +
                                  std::to_string(offset));
        if (offset > capacity_ || length > capacity_ - offset)
            throw invalid_request("device '" + name_ + "': request [" + std::to_string(offset) + ", " +
                                  std::to_string(offset + length) + ") is outside the device (capacity " +
                                  std::to_string(capacity_) + " bytes)");
        if (alignment_ > 1 && (offset % alignment_ != 0 || length % alignment_ != 0 ||
                               reinterpret_cast<std::uintptr_t>(buffer) % alignment_ != 0))
            throw invalid_request("device '" + name_ + "': request at offset " + std::to_string(offset) +
                                  " of " + std::to_string(length) + " bytes is not " +
                                  std::to_string(alignment_) +
                                  "-byte aligned (offset, length and buffer must be)");
    }

    struct charge_result {
        double charge;       //!< modelled service time
        double completion_s; //!< modelled end on the virtual clock
    };
    //! Charges the model and schedules the request on the virtual clock: it starts at the later
    //! of its submission time (the host's time, or that of the host request a layer inside the
    //! device is serving) and the device's free time.
    charge_result charge_now(io_op op, std::uint64_t offset, std::uint64_t length, std::optional<role> r) {
        modelled_submit_frame& frame = modelled_submit_frame::current();
        std::lock_guard<std::mutex> lock(mutex_);
        double submit = frame.active ? frame.submit_s : virtual_clock_ ? virtual_clock_->now() : 0.0;
        if (model_ && submit > free_at_) model_->idle(submit - free_at_);
        const bool with_energy = model_ && model_->has_energy();
        const double energy_before = with_energy ? model_->counters().energy.total_j() : 0.0;
        double charge = model_ ? model_->service(op, offset, length) : 0.0;
        double energy = with_energy ? model_->counters().energy.total_j() - energy_before : 0.0;
        bool sequential_write = false;
        if (op == io_op::write) {
            sequential_write = offset == last_write_end_;
            last_write_end_ = offset + length;
        }
        // The device idled from its last request's end to this one's start, at idle power.
        if (with_energy && charge > 0 && submit > free_at_)
            energy += (submit - free_at_) * model_->idle_power_w();
        stats_.total.add(op, length, sequential_write);
        stats_.total.modelled_s += charge;
        stats_.total.modelled_energy_j += energy;
        io_counters& slot = stats_.slot(r);
        slot.add(op, length, sequential_write);
        slot.modelled_s += charge;
        slot.modelled_energy_j += energy;
        double completion = std::max(submit, free_at_) + charge;
        if (charge > 0) free_at_ = completion;
        if (frame.active) *frame.completion_out = std::max(*frame.completion_out, completion);
        return {charge, completion};
    }

    void pace_and_account(clock::time_point begin, clock::time_point end, double charge,
                          std::optional<role> r) {
        double service = std::chrono::duration<double>(end - begin).count();
        double lag = 0;
        clock::time_point deadline{};
        bool sleep = false;
        {
            std::lock_guard<std::mutex> lock(mutex_);
            stats_.total.service_s += service;
            stats_.slot(r).service_s += service;
            if (pacing_.enabled && charge > 0) {
                clock::time_point start = std::max(begin, next_free_);
                deadline = start + std::chrono::duration_cast<clock::duration>(
                                       std::chrono::duration<double>(pacing_.scale * charge));
                next_free_ = deadline;
                double ahead = std::chrono::duration<double>(deadline - end).count();
                if (ahead > pacing_.min_sleep_s)
                    sleep = true;
                else if (ahead < 0)
                    lag = -ahead;
                stats_.lag_s += lag;
            }
        }
        if (sleep) std::this_thread::sleep_until(deadline);
    }

    void finish_one() {
        std::lock_guard<std::mutex> lock(drain_mutex_);
        if (outstanding_.fetch_sub(1) == 1) drained_.notify_all();
    }

    std::string name_;
    std::unique_ptr<stxxl::file> backing_;
    std::unique_ptr<device_model> model_;
    std::uint64_t capacity_;
    pacing_options pacing_;
    std::uint64_t alignment_;

    mutable std::mutex mutex_; // guards model_, stats_, next_free_, virtual_clock_, free_at_
    device_stats stats_;
    clock::time_point next_free_{};
    const modelled_clock* virtual_clock_ = nullptr;
    double free_at_ = 0;                               // virtual clock: end of the last charged request
    std::uint64_t last_write_end_ = ~std::uint64_t(0); // where the previous write ended

    std::atomic<std::uint64_t> outstanding_{0};
    std::vector<int> extra_queues_; // more STXXL queues (io_threads > 1)
    std::vector<stxxl::request_queue*>
        queues_; // the queues of get_queue_id() and extra_queues_, once touched
    std::atomic<std::uint64_t> next_queue_{0};
    std::mutex drain_mutex_;
    std::condition_variable drained_;
};

} // namespace flashxxl
