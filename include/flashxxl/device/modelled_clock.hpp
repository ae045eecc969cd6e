// The virtual clock of a machine: the host's modelled time, advanced only by waiting for I/O.
#pragma once

#include <algorithm>
#include <mutex>
#include <optional>

namespace flashxxl {

//! A point on a machine's virtual clock: where the host is and how much of that it waited.
struct modelled_time {
    double elapsed_s = 0; //!< the host's modelled time since the machine was built
    double io_wait_s = 0; //!< the part of elapsed_s the host spent waiting for I/O

    modelled_time& operator-=(const modelled_time& o) {
        elapsed_s -= o.elapsed_s;
        io_wait_s -= o.io_wait_s;
        return *this;
    }
    friend modelled_time operator-(modelled_time a, const modelled_time& b) { return a -= b; }
};

//! Deterministic modelled elapsed time of one machine. The program is one host
//! timeline. A request submitted at host time t starts on its device at max(t, the device's
//! free time) and ends a model service time later (emulated_file keeps each device's free
//! time, so devices work in parallel). Waiting for a request moves the host to its end; the
//! gap is I/O wait. CPU time counts as zero unless a caller charges it with `compute()`.
//! Figures depend only on the order of submissions and waits, never on thread timing.
//! Thread-safe.
class modelled_clock {
public:
    //! The host's modelled time now (seconds): the submission time of a new request.
    double now() const {
        std::lock_guard<std::mutex> lock(mutex_);
        return now_;
    }
    //! The host waited for a request that ends at `completion_s`.
    void wait_until(double completion_s) {
        std::lock_guard<std::mutex> lock(mutex_);
        if (completion_s > now_) {
            io_wait_ += completion_s - now_;
            now_ = completion_s;
        }
    }
    //! The host computed for `seconds` (a CPU model; nothing calls it unless asked to).
    void compute(double seconds) {
        std::lock_guard<std::mutex> lock(mutex_);
        if (seconds > 0) now_ += seconds;
    }
    modelled_time time() const {
        std::lock_guard<std::mutex> lock(mutex_);
        return {now_, io_wait_};
    }

private:
    mutable std::mutex mutex_;
    double now_ = 0;
    double io_wait_ = 0;
};

//! A request whose modelled end time is known once it has completed (emulated_file's and the
//! translation layer's requests); device::wait() moves the host's clock to it.
class modelled_request {
public:
    virtual ~modelled_request() = default;
    //! Modelled end of the request on the virtual clock (valid after completion).
    virtual double completion_s() const = 0;
    //! The modelled end if it is fixed before the request is served (a device's own request is
    //! charged at submission), so that a poller can tell "not yet" without waiting for the real
    //! I/O; nullopt where the end is known only once served (a layer's request ends with the I/O
    //! it causes).
    virtual std::optional<double> known_completion_s() const { return std::nullopt; }
    //! False for a request of a device without a model (a real disk, memory): modelled time does
    //! not move for it, and it is complete when the real I/O is.
    virtual bool on_model() const { return true; }
};

//! While a layer inside a device (the translation layer) serves one host request in its own
//! thread, the device I/O it causes is submitted at the host request's time, and the latest
//! end of that I/O is the host request's end. A thread-local frame carries both; the end is
//! written through `completion_out` while the request is served, before it signals completion.
struct modelled_submit_frame {
    double submit_s = 0;              //!< host time of the request being served
    double* completion_out = nullptr; //!< the request's end: raised to each I/O's end
    bool active = false;

    static modelled_submit_frame& current() {
        static thread_local modelled_submit_frame frame;
        return frame;
    }
};

} // namespace flashxxl
