// Recycled STXXL queue ids: each device gets its own queue, hence its own I/O thread.
#pragma once

#include <mutex>
#include <set>

namespace flashxxl {

//! STXXL keeps one request queue (one I/O thread) per queue id in its process-wide
//! disk_queues, and never deletes one. flashxxl gives every device its own id; ids of
//! destroyed devices are reused so that creating many machines (as tests do) does not leave
//! an idle thread per device. This pool is the only process-wide object of flashxxl, and it
//! exists only because STXXL's queue table is process-wide. Ids start far above the small ids
//! STXXL's own configured disks use.
class queue_id_pool {
public:
    static queue_id_pool& instance() {
        static queue_id_pool pool;
        return pool;
    }
    int acquire() {
        std::lock_guard<std::mutex> lock(mutex_);
        if (!free_.empty()) {
            int id = *free_.begin();
            free_.erase(free_.begin());
            return id;
        }
        return next_++;
    }
    void release(int id) {
        std::lock_guard<std::mutex> lock(mutex_);
        free_.insert(id);
    }
    //! Serialises the creation of STXXL queues (disk_queues::add_request is unsynchronised).
    std::mutex& creation_mutex() { return creation_mutex_; }

private:
    queue_id_pool() = default;
    std::mutex mutex_;
    std::mutex creation_mutex_;
    std::set<int> free_;
    int next_ = 1 << 20;
};

} // namespace flashxxl
