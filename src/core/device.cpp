// The device class's out-of-line parts (core library): building the stack, backing files, I/O, stats.
#include "flashxxl/machine/device.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <exception>
#include <numeric>
#include <optional>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <stxxl/bits/io/create_file.h>
#include <stxxl/bits/io/file.h>

#include "flashxxl/device/emulated_file.hpp"
#include "flashxxl/device/modelled_clock.hpp"
#include "flashxxl/device/model_presets.hpp"
#include "flashxxl/device/sparse_memory_file.hpp"
#include "flashxxl/device/structure_meter.hpp"
#include "flashxxl/error.hpp"
#include "flashxxl/file_lock.hpp"
#include "flashxxl/machine/io_failure_message.hpp"
#include "flashxxl/machine/queue_id_pool.hpp"
#include "flashxxl/tl/translation_layer.hpp"
#include "flashxxl/units.hpp"

namespace flashxxl {

device::device(const device_spec& spec, modelled_clock* virtual_clock, memory_backing_budget* memory_budget)
    : spec_(spec), clock_(virtual_clock), memory_budget_(memory_budget) {
    queue_id_ = queue_id_pool::instance().acquire();
    try {
        for (unsigned i = 1; i < spec_.io_threads; ++i)
            extra_queue_ids_.push_back(queue_id_pool::instance().acquire());
        build();
    } catch (...) {
        tl_.reset();
        emulated_.reset();
        if (tl_queue_id_ >= 0) queue_id_pool::instance().release(tl_queue_id_);
        build_failed_ = true; // a file this build made goes, keep=on or not
        remove_backing_file();
        close_lock_descriptor();
        release_queues();
        throw;
    }
}

device::~device() {
    tl_.reset();       // the translation layer flushes into the emulated file
    emulated_.reset(); // drains outstanding requests, closes the backing
    remove_backing_file();
    close_lock_descriptor(); // the lock goes with the last descriptor of the file
    if (tl_queue_id_ >= 0) queue_id_pool::instance().release(tl_queue_id_);
    release_queues();
}

stxxl::file& device::file() {
    return tl_ ? static_cast<stxxl::file&>(*tl_) : static_cast<stxxl::file&>(*emulated_);
}

const device_model* device::model() const { return emulated_->model(); }

void device::meter_range(std::uint64_t offset, std::uint64_t length, structure_meter& meter) {
    std::lock_guard<std::mutex> lock(meters_mutex_);
    metered_[offset] = metered_range{offset + length, &meter};
    any_metered_ = true;
}

void device::count_structure(io_op op, std::uint64_t offset, std::uint64_t length) {
    if (!any_metered_) return;
    std::lock_guard<std::mutex> lock(meters_mutex_);
    auto it = metered_.upper_bound(offset);
    if (it == metered_.begin()) return;
    --it;
    if (offset < it->second.end) it->second.meter->count(op, length);
}

void device::release_range(std::uint64_t offset, std::uint64_t length) noexcept {
    if (any_metered_) {
        std::lock_guard<std::mutex> lock(meters_mutex_);
        metered_.erase(offset);
        any_metered_ = !metered_.empty();
    }
    std::uint64_t a = allocator_->alignment();
    try {
        file().discard(offset, (length + a - 1) / a * a);
    } catch (...) {
        ++release_errors_;
    }
    try {
        allocator_->release(offset, length);
    } catch (...) {
        ++release_errors_;
    }
}

void device::wait(const stxxl::request_ptr& req, role r) {
    auto begin = std::chrono::steady_clock::now();
    try {
        req->wait(false);
    } catch (const stxxl::io_error& e) {
        failed_request f{spec_.name,
                         spec_.origin,
                         spec_.path,
                         req->get_type() == stxxl::request::WRITE,
                         std::uint64_t(req->get_offset()),
                         std::uint64_t(req->get_size()),
                         to_string(r)};
        throw io_failure(io_failure_message(f, e.what()));
    }
    double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
    emulated_->add_wait(r, waited);
    if (clock_)
        if (const auto* timed = dynamic_cast<const modelled_request*>(req.get()))
            clock_->wait_until(timed->completion_s());
}

void device::wait_all(const std::vector<stxxl::request_ptr>& reqs, role r) {
    std::exception_ptr first;
    for (const stxxl::request_ptr& req : reqs) {
        try {
            wait(req, r);
        } catch (...) {
            if (!first) first = std::current_exception();
        }
    }
    if (first) std::rethrow_exception(first);
}

device_stats device::stats() const {
    device_stats s = emulated_->stats();
    if (tl_) {
        std::lock_guard<std::mutex> lock(host_mutex_);
        for (std::size_t i = 0; i < role_count; ++i) {
            double wait = s.by_role[i].wait_s;
            s.by_role[i] = host_by_role_[i];
            s.by_role[i].wait_s = wait;
            // The layer's device I/O has no role: its energy is in internal and total.
            s.by_role[i].modelled_energy_j = 0;
            s.by_role[i].energy_known = false;
        }
    }
    return s;
}

double device::free_at_s() const { return emulated_->free_at_s(); }

double device::busy_seconds() const { return emulated_->busy_seconds(); }

tl_config device::parse_tl_options(const device_spec& spec) {
    tl_config cfg;
    for (const auto& [key, value] : spec.tl_options) {
        try {
            if (key == "tl_page")
                cfg.page_bytes = parse_size(value);
            else if (key == "tl_segment")
                cfg.segment_bytes = parse_size(value);
            else if (key == "tl_spare")
                cfg.spare_bytes = parse_size(value);
            else if (key == "tl_cleaning")
                cfg.policy = parse_cleaning_policy(value);
            else if (key == "tl_low_watermark") {
                // a count of segments, not a size: "2KiB" would be 2048 segments
                if (value.empty() || value.size() > 18 ||
                    value.find_first_not_of("0123456789") != std::string::npos)
                    throw config_error(
                        "expected a whole number of segments (e.g. 2; at most 18 digits), got '" + value +
                        "'");
                cfg.low_watermark_segments = std::stoull(value);
            } else
                throw config_error(
                    "unknown translation-layer option (expected tl_page, tl_segment, tl_spare, "
                    "tl_cleaning or tl_low_watermark)");
        } catch (const config_error& e) {
            throw config_error(spec.origin + ": field '" + key + "': " + e.what());
        }
    }
    try {
        cfg.validate(spec.size, spec.name);
    } catch (const config_error& e) {
        throw config_error(spec.origin + ": " + e.what());
    }
    return cfg;
}

void device::build() {
    // Whatever the config line can get wrong is checked before a backing file is made: the
    // model and its capacity, the translation layer's options, the block sizes.
    const std::string where = spec_.origin + ": device '" + spec_.name + "': ";
    std::unique_ptr<device_model> model;
    if (!spec_.model.empty()) {
        try {
            model = make_model(spec_.model, spec_.params);
        } catch (const config_error& e) {
            throw config_error(where + e.what());
        }
        if (spec_.size > model->capacity()) // emulated_file checks it too, once the file is open
            throw config_error(where + "size " + std::to_string(spec_.size) +
                               " bytes exceeds the model's capacity of " + std::to_string(model->capacity()) +
                               " bytes");
    }
    std::optional<tl_config> tl_cfg;
    if (spec_.tl) tl_cfg = parse_tl_options(spec_);
    // Unstated sizes: Br the default (at least a TL page), or, when only bw= is stated, the
    // largest divisor of Bw that is a multiple of the unit (4 KiB, or the TL's page) and at most
    // the default (at most one unit when the unit is larger), so a stated Bw is never grown:
    // bw=192KiB gives 96 KiB, bw=36KiB 36 KiB; Bw the default (the TL segment), fitted to whole reads.
    // Under a translation layer every request is whole pages, so Br (and with it Bw) must be
    // a multiple of the page.
    const std::uint64_t unit = tl_cfg ? tl_cfg->page_bytes : 4096;
    std::uint64_t br = spec_.br, bw = spec_.bw;
    if (tl_cfg && bw != 0 && bw % unit != 0)
        throw config_error(where + "bw=" + format_size(bw) + " is not a multiple of tl_page=" +
                           format_size(unit) + "; expected Bw in whole translation-layer pages");
    if (br == 0) {
        br = std::max<std::uint64_t>(block_sizes().br, unit);
        if (bw != 0) {
            const std::uint64_t units = bw / unit, most = std::max<std::uint64_t>(1, block_sizes().br / unit);
            std::uint64_t k = std::max<std::uint64_t>(1, std::min(most, units));
            while (k > 1 && units % k != 0)
                --k; // at most 32 steps: 128 KiB / 4 KiB
            br = unit * k;
        }
    }
    if (tl_cfg && br % unit != 0)
        throw config_error(
            where + "br=" + format_size(br) + " is not a multiple of tl_page=" + format_size(unit) +
            "; expected Br in whole translation-layer pages (every request through the layer is)");
    if (bw == 0) bw = block_sizes::whole_reads_bw(br, tl_cfg ? tl_cfg->segment_bytes : block_sizes().bw);
    try {
        blocks_ = block_sizes(br, bw);
    } catch (const config_error& e) {
        throw config_error(where + e.what());
    }

    std::unique_ptr<stxxl::file> backing;
    if (spec_.io_impl == "memory") {
        const int queue = stxxl::file::DEFAULT_QUEUE; // a copy: the member is declared, not defined
        backing =
            std::make_unique<sparse_memory_file>(spec_.size, queue, 4 * KiB, memory_budget_, spec_.name);
    } else {
        backing = open_backing_file();
    }
    try {
        emulated_ = std::make_unique<emulated_file>(spec_.name, std::move(backing), std::move(model),
                                                    spec_.size, queue_id_, spec_.pacing);
    } catch (const config_error& e) {
        throw config_error(spec_.origin + ": " + e.what());
    }
    emulated_->set_clock(clock_);
    emulated_->add_queues(extra_queue_ids_);
    {
        std::lock_guard<std::mutex> lock(queue_id_pool::instance().creation_mutex());
        emulated_->touch_queue();
    }
    std::uint64_t allocatable = spec_.size;
    if (tl_cfg) {
        tl_queue_id_ = queue_id_pool::instance().acquire();
        std::lock_guard<std::mutex> lock(queue_id_pool::instance().creation_mutex());
        tl_ = std::make_unique<translation_layer>(*emulated_, spec_.size, *tl_cfg, spec_.name, tl_queue_id_);
        tl_->set_clock(clock_);
        allocatable = tl_->size();
    }
    // The allocator hands out whole Br pages under a translation layer.
    // Flash without a translation layer gets a write frontier, so that a container's
    // consecutive block writes are sequential on the device (see allocation_order).
    allocator_ = std::make_unique<extent_allocator>(
        spec_.name, allocatable, tl_ ? tl_->config().page_bytes : 4096,
        spec_.klass == device_class::flash && !tl_ ? allocation_order::write_frontier
                                                   : allocation_order::best_fit);
}

namespace {

//! flashxxl's mark on a backing file it made for a device with keep=on (an extended attribute):
//! a later machine with keep=on on the path reopens the file without reuse=on.
constexpr const char* kept_mark_name = "user.flashxxl";
constexpr const char kept_mark_value[] = "machine backing file made with keep=on";

bool carries_kept_mark(const std::string& path) {
    char value[sizeof kept_mark_value] = {};
    const ssize_t n = ::lgetxattr(path.c_str(), kept_mark_name, value, sizeof value);
    return n == ssize_t(sizeof kept_mark_value - 1) &&
           std::memcmp(value, kept_mark_value, std::size_t(n)) == 0;
}

//! True for a device line of an embedded preset (origin "preset NAME:LINE"): it takes no reuse=on.
bool from_preset(const device_spec& spec) { return spec.origin.rfind("preset ", 0) == 0; }

//! Refuses the existing regular file `st` at spec.path unless the line may use it: reuse=on, or
//! keep=on and flashxxl's mark; and it must be writable (also for root: mode 0444 says "do not
//! write"). The message says what to do, for a preset (no reuse=on) in its own words.
void check_existing_backing_file(const device_spec& spec, const std::string& where, const struct stat& st) {
    const std::string length = " already exists (" + std::to_string(st.st_size) + " bytes)";
    const bool kept = carries_kept_mark(spec.path);
    if (!spec.reuse && !(kept && spec.keep)) {
        if (from_preset(spec))
            throw config_error(
                where + length +
                "; a preset's device never writes a file it did not create (a preset "
                "takes no reuse=on): remove or move the file, choose another --backing-dir, or give a "
                "--config whose line for device '" +
                spec.name + "' says reuse=on");
        if (kept)
            throw config_error(where + length +
                               ": flashxxl made it for a device with keep=on; add keep=on to " + spec.origin +
                               " to use it again, reuse=on to overwrite it, or remove it");
        throw config_error(where + length +
                           " and was not made by flashxxl with keep=on (it carries no flashxxl "
                           "mark); remove it, or add reuse=on to " +
                           spec.origin + " to overwrite it");
    }
    if ((st.st_mode & 0222) == 0 || ::access(spec.path.c_str(), W_OK) != 0) {
        char mode[8];
        std::snprintf(mode, sizeof mode, "%04o", unsigned(st.st_mode & 07777));
        throw config_error(where + " is not writable (mode " + mode +
                           "); the device would write it: give it "
                           "write permission (chmod u+w) or choose another file");
    }
}

} // namespace

void device::open_lock_descriptor(const std::string& where, bool create, struct stat& st) {
    const std::string& path = spec_.path;
    lock_fd_ = create ? ::open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644)
                      : ::open(path.c_str(), O_RDWR | O_NOFOLLOW | O_CLOEXEC);
    if (lock_fd_ < 0) {
        const int err = errno;
        if (err == EEXIST || err == ELOOP)
            throw config_error(where +
                               (create ? " appeared while the machine was being built; expected a path that "
                                         "does not exist yet"
                                       : " was replaced by a link while the machine was being built"));
        if (!create && (err == EACCES || err == EPERM || err == EROFS))
            throw config_error(where + " is not writable (" + std::strerror(err) +
                               "); the device would write it: "
                               "give it write permission or choose another file");
        throw io_failure(where + (create ? ": cannot create it: " : ": cannot open it: ") +
                         std::strerror(err));
    }
    created_ = create;
    struct stat now {};
    if (::fstat(lock_fd_, &now) != 0) throw io_failure(where + ": cannot stat it: " + std::strerror(errno));
    if (!create && (now.st_dev != st.st_dev || now.st_ino != st.st_ino))
        throw config_error(where + " was replaced while the machine was being built; expected the regular "
                                   "file checked a moment before");
    st = now;
    backing_dev_ = now.st_dev;
    backing_ino_ = now.st_ino;
}

void device::lock_backing_file(const std::string& where) {
    std::optional<lock_holder> holder;
    try {
        holder = lock_whole_file(lock_fd_, lock_scope::process, spec_.path);
    } catch (const io_failure& e) {
        throw io_failure(where + ": " + e.what());
    }
    if (holder)
        throw io_failure(where + " " + in_use_by(*holder) + "; wait for it to end or choose another file");
}

void device::close_lock_descriptor() noexcept {
    if (lock_fd_ >= 0) ::close(lock_fd_);
    lock_fd_ = -1;
}

std::unique_ptr<stxxl::file> device::open_backing_file() {
    const std::string& path = spec_.path;
    const std::string where = spec_.origin + ": device '" + spec_.name + "': field 'path': '" + path + "'";
    struct stat st {};
    if (::lstat(path.c_str(), &st) == 0) {
        if (S_ISLNK(st.st_mode))
            throw config_error(where +
                               " is a symbolic link; expected a regular file or a path that does not "
                               "exist yet (links are not followed: give the path the link points to)");
        if (!S_ISREG(st.st_mode))
            throw config_error(where + " is not a regular file (block devices are for `flashxxl characterize "
                                       "--allow-write`, not for machine configs)");
        // Empty or not, an existing file that is not this line's to use would be grown to the
        // device size, written, and left behind.
        check_existing_backing_file(spec_, where, st);
        open_lock_descriptor(where, false, st);
    } else if (errno == ENOENT) {
        open_lock_descriptor(where, true, st);
        if (spec_.keep) // no mark (a file system without user xattrs): a rerun's message names reuse=on
            (void)::fsetxattr(lock_fd_, kept_mark_name, kept_mark_value, sizeof kept_mark_value - 1, 0);
    } else {
        throw io_failure(where + ": cannot stat it: " + std::strerror(errno));
    }
    // Before STXXL opens it: STXXL's own lock (the same kind, owned by this process) then succeeds.
    lock_backing_file(where);
    int mode = stxxl::file::RDWR | stxxl::file::CREAT | stxxl::file::NO_LOCK;
    if (spec_.direct == "on") mode |= stxxl::file::REQUIRE_DIRECT;
    if (spec_.direct == "try") mode |= stxxl::file::DIRECT;
    int queue =
        spec_.io_impl == "linuxaio" ? +stxxl::file::DEFAULT_LINUXAIO_QUEUE : +stxxl::file::DEFAULT_QUEUE;
    std::unique_ptr<stxxl::file> f;
    try {
        f.reset(stxxl::create_file(spec_.io_impl, path, mode, queue));
    } catch (const std::exception& e) {
        throw io_failure(where + ": cannot open it: " + e.what());
    }
    // STXXL opens by name: make sure it opened the file checked above, not a replacement.
    if (!is_backing_file())
        throw config_error(where + " was replaced while the machine was being built; expected the regular "
                                   "file checked a moment before");
    try {
        // Sparse: the file system allocates only what is written. A reused file shorter than
        // the device is grown, and given back its length if the machine's build fails.
        const std::uint64_t length = std::uint64_t(f->size());
        if (length < spec_.size) {
            if (!created_) grown_from_ = length;
            f->set_size(spec_.size);
        }
    } catch (const std::exception& e) {
        throw io_failure(where + ": cannot size it: " + e.what());
    }
    // A file this machine created and does not keep is unlinked now, as STXXL's unlink_on_open
    // does: the open descriptor holds it until teardown, and a run that dies (SIGINT, SIGKILL,
    // the OOM killer) leaves no file of up to the device's size behind, nor one that the next
    // run would refuse as "already exists".
    if (created_ && !spec_.keep && is_backing_file()) {
        ::unlink(path.c_str());
        created_ = false; // nothing left to remove at teardown
    }
    return f;
}

bool device::is_backing_file() const {
    struct stat st {};
    return ::lstat(spec_.path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && st.st_dev == backing_dev_ &&
           st.st_ino == backing_ino_;
}

void device::release_queues() {
    for (int id : extra_queue_ids_)
        queue_id_pool::instance().release(id);
    extra_queue_ids_.clear();
    queue_id_pool::instance().release(queue_id_);
}

void device::remove_backing_file() {
    if (created_ && (!spec_.keep || build_failed_) && is_backing_file()) ::unlink(spec_.path.c_str());
    created_ = false;
    // A reused file this failed build grew gets its length back (what it held is untouched:
    // nothing was written before the build failed). STXXL's close released the lock: take it
    // again, and leave the file alone if another process holds it by now.
    if (grown_from_ && build_failed_ && lock_fd_ >= 0 && is_backing_file()) {
        bool locked = false;
        try {
            locked = !lock_whole_file(lock_fd_, lock_scope::process, spec_.path);
        } catch (const io_failure&) {
        }
        if (locked) (void)::ftruncate(lock_fd_, off_t(*grown_from_));
    }
    grown_from_.reset();
}

void device::machine_build_failed() noexcept { build_failed_ = true; }

stxxl::request_ptr device::submit(io_op op, void* buffer, std::uint64_t offset, std::uint64_t length, role r,
                                  const stxxl::completion_handler& on_complete) {
    if (!tl_) {
        stxxl::request_ptr req = emulated_->submit(op, buffer, offset, length, r, on_complete);
        count_structure(op, offset, length); // counted once the device took it
        return req;
    }
    stxxl::request_ptr req = op == io_op::read ? tl_->aread(buffer, offset, length, on_complete)
                                               : tl_->awrite(buffer, offset, length, on_complete);
    // counted once the layer took it (a request it refuses, unaligned or out of range, is not I/O)
    count_structure(op, offset, length);
    std::lock_guard<std::mutex> lock(host_mutex_);
    host_by_role_[index_of(r)].add(op, length);
    return req;
}

} // namespace flashxxl
