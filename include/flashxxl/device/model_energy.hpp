// Energy figures of the device models, kept apart from their timing parameters (they change no time).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "flashxxl/device/model_fields.hpp"
#include "flashxxl/device/model_params.hpp"

namespace flashxxl {

//! Joules a model has spent, by kind of operation, accumulated from its own operation counts.
struct model_energy_counters {
    double read_j = 0;         //!< flash page reads (host reads, GC and merge copies)
    double program_j = 0;      //!< flash page programs of SLC or MLC fast pages (GC and merge copies too)
    double program_slow_j = 0; //!< flash page programs of MLC slow pages
    double erase_j = 0;        //!< flash block erases
    double seek_j = 0;         //!< HDD: time seeking at seek power
    double active_j = 0;       //!< HDD: the rest of a request's service time at active power
    double total_j() const { return read_j + program_j + program_slow_j + erase_j + seek_j + active_j; }
};

//! Shared parsing, listing and checking of an energy figure set `E` (its visit_fields).
template <class E> struct energy_fields_base {
    //! Reads every key from `p` (the current values are the defaults).
    void take(model_params& p) { take_model_fields(static_cast<E&>(*this), p); }
    //! key=value pairs that take() reads back to the same figures.
    std::vector<std::pair<std::string, std::string>> list() const {
        return list_model_fields(static_cast<const E&>(*this));
    }
    //! config_error naming `model` and the key out of range.
    void validate(const std::string& model) const { check_model_fields(static_cast<const E&>(*this), model); }
};

//! Per-operation energy of a flash medium in seeds/004 Table 2's units (nJ per bit of the page
//! read or programmed, or of the block erased). A figure of 0 is unknown; the model has energy
//! figures only when read, program and erase are all known.
struct flash_energy : energy_fields_base<flash_energy> {
    double e_read_nj_per_bit = 0;
    double e_prog_nj_per_bit = 0;      //!< SLC pages, or MLC "fast" pages
    double e_prog_slow_nj_per_bit = 0; //!< MLC "slow" pages; 0 = as e_prog_nj_per_bit
    double e_erase_nj_per_bit = 0;
    double p_idle_mw = 0; //!< the device's idle power, charged for gaps between its requests

    template <class Self, class V> static void visit_fields(Self& c, V& v) {
        using r = model_field_range;
        v.number("e_read_nj_per_bit", c.e_read_nj_per_bit, r::at_least(0),
                 "energy: page read, nJ per bit (0 = unknown)");
        v.number("e_prog_nj_per_bit", c.e_prog_nj_per_bit, r::at_least(0),
                 "energy: page program (SLC or MLC fast page), nJ per bit (0 = unknown)");
        v.number("e_prog_slow_nj_per_bit", c.e_prog_slow_nj_per_bit, r::at_least(0),
                 "energy: MLC slow page program, nJ per bit (0 = as e_prog_nj_per_bit)");
        v.number("e_erase_nj_per_bit", c.e_erase_nj_per_bit, r::at_least(0),
                 "energy: block erase, nJ per bit of the block (0 = unknown)");
        v.number("p_idle_mw", c.p_idle_mw, r::at_least(0), "energy: idle power of the device, mW");
    }
    bool known() const { return e_read_nj_per_bit > 0 && e_prog_nj_per_bit > 0 && e_erase_nj_per_bit > 0; }
    //! Joules of reading one page of `page` bytes.
    double read_j(std::uint64_t page) const { return per_bits(e_read_nj_per_bit, page); }
    //! Joules of programming one page; `slow` for an MLC slow page.
    double program_j(std::uint64_t page, bool slow) const {
        const double e = slow && e_prog_slow_nj_per_bit > 0 ? e_prog_slow_nj_per_bit : e_prog_nj_per_bit;
        return per_bits(e, page);
    }
    //! Joules of erasing one block of `block` bytes.
    double erase_j(std::uint64_t block) const { return per_bits(e_erase_nj_per_bit, block); }
    double idle_w() const { return p_idle_mw * 1e-3; }

private:
    static double per_bits(double nj_per_bit, std::uint64_t bytes) {
        return nj_per_bit * 1e-9 * 8.0 * double(bytes);
    }
};

//! Power of a hard disk in its modes (a product manual's DC power table). 0 = unknown; the
//! model has energy figures only when active and idle power are known (seek power 0 = active).
struct hdd_energy : energy_fields_base<hdd_energy> {
    double p_active_w = 0; //!< transferring, rotating to the sector, command overhead
    double p_seek_w = 0;   //!< moving the arm
    double p_idle_w = 0;   //!< spinning, no request

    template <class Self, class V> static void visit_fields(Self& c, V& v) {
        using r = model_field_range;
        v.number("p_active_w", c.p_active_w, r::at_least(0), "energy: read/write power, W (0 = unknown)");
        v.number("p_seek_w", c.p_seek_w, r::at_least(0), "energy: seek power, W (0 = as p_active_w)");
        v.number("p_idle_w", c.p_idle_w, r::at_least(0), "energy: idle power, W (0 = unknown)");
    }
    bool known() const { return p_active_w > 0 && p_idle_w > 0; }
    double seek_w() const { return p_seek_w > 0 ? p_seek_w : p_active_w; }
};

} // namespace flashxxl
