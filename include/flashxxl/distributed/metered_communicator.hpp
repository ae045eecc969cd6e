// A communicator that counts what another moves and charges the network model for it.
#pragma once

#include <cstdint>
#include <vector>

#include "flashxxl/distributed/communicator.hpp"
#include "flashxxl/distributed/network_model.hpp"

namespace flashxxl::distributed {

//! What a rank moved: bytes to and from other ranks, bytes it kept (sent to itself), steps, and
//! the modelled network seconds (network_model::step_seconds summed over the steps).
struct traffic {
    std::uint64_t sent = 0, received = 0, kept = 0, steps = 0;
    double modelled_s = 0;

    traffic& operator+=(const traffic& o) {
        sent += o.sent;
        received += o.received;
        kept += o.kept;
        steps += o.steps;
        modelled_s += o.modelled_s;
        return *this;
    }
    traffic operator-(const traffic& o) const {
        traffic d = *this;
        d.sent -= o.sent;
        d.received -= o.received;
        d.kept -= o.kept;
        d.steps -= o.steps;
        d.modelled_s -= o.modelled_s;
        return d;
    }
};

//! Forwards to `inner` and counts every collective in traffic(), priced by `model`.
class metered_communicator : public communicator {
public:
    metered_communicator(communicator& inner, network_model model) : inner_(&inner), model_(model) {}
    int rank() const override { return inner_->rank(); }
    int size() const override { return inner_->size(); }
    const traffic& counted() const { return traffic_; }
    const network_model& model() const { return model_; }

    std::vector<byte_buffer> all_gather(const byte_buffer& mine) override {
        std::vector<byte_buffer> all = inner_->all_gather(mine);
        std::uint64_t received = 0;
        for (int r = 0; r < size(); ++r)
            if (r != rank()) received += all[std::size_t(r)].size();
        charge(std::uint64_t(mine.size()) * std::uint64_t(size() - 1), received, mine.size());
        return all;
    }
    std::vector<byte_buffer> all_to_all(const std::vector<byte_buffer>& to_each) override {
        std::vector<byte_buffer> in = inner_->all_to_all(to_each);
        std::uint64_t sent = 0, received = 0;
        for (int r = 0; r < size(); ++r)
            if (r != rank()) {
                sent += to_each[std::size_t(r)].size();
                received += in[std::size_t(r)].size();
            }
        charge(sent, received, to_each[std::size_t(rank())].size());
        return in;
    }

private:
    void charge(std::uint64_t sent, std::uint64_t received, std::uint64_t kept) {
        traffic_.sent += sent;
        traffic_.received += received;
        traffic_.kept += kept;
        ++traffic_.steps;
        traffic_.modelled_s += size() > 1 ? model_.step_seconds(sent, received) : 0.0;
    }
    communicator* inner_;
    network_model model_;
    traffic traffic_;
};

} // namespace flashxxl::distributed
