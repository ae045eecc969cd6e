// A predicted I/O volume (an estimate or an upper bound) and the time a cost model prices it at.
#pragma once

#include <string>

#include "flashxxl/cost/cost_model.hpp"

namespace flashxxl {

//! What an analysis says a run will read and write, before it runs. `bound` says whether the
//! analysis gives only an upper bound (graph algorithms: measured <= predicted is what holds)
//! or an estimate (the containers: measured within a few per cent of predicted).
struct io_prediction {
    double read_bytes = 0;
    double write_bytes = 0;
    bool bound = false;
    std::string basis; //!< the analysis in a few words ("run formation + 2 merge passes")

    double volume() const { return read_bytes + write_bytes; }
    //! The cost model's time for it: RDV / Br reads and WRV / Bw writes at the model's time per
    //! block (cost_model::for_device).
    double modelled_s(const cost_model& m) const {
        return read_bytes / double(m.blocks().br) * m.read_block_s() +
               write_bytes / double(m.blocks().bw) * m.write_block_s();
    }
    io_prediction& operator+=(const io_prediction& o) {
        read_bytes += o.read_bytes;
        write_bytes += o.write_bytes;
        bound = bound || o.bound;
        if (!o.basis.empty()) basis = basis.empty() ? o.basis : basis + "; " + o.basis;
        return *this;
    }
    friend io_prediction operator+(io_prediction a, const io_prediction& b) { return a += b; }
};

} // namespace flashxxl
