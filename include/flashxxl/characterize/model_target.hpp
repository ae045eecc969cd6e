// A characterization target backed by a pure device model: modelled time, no data moves.
#pragma once

#include <memory>
#include <string>

#include "flashxxl/characterize/target.hpp"
#include "flashxxl/device/device_model.hpp"
#include "flashxxl/error.hpp"

namespace flashxxl::characterize {

//! Runs experiments against a device_model: deterministic, fast, nothing is written anywhere.
//! Alignment is 512 B (the sector size the papers measured at), not 4 KiB.
class model_target : public target {
public:
    //! Takes ownership of the model. `label` names it in reports (e.g. "hama-ssd-2009").
    model_target(std::unique_ptr<device_model> model, std::string label, std::uint64_t alignment = 512)
        : model_(std::move(model)), label_(std::move(label)),
          guard_(label_, model_ ? model_->capacity() : 0, alignment) {
        if (!model_) throw config_error("model target '" + label_ + "': no model given");
    }

    std::string name() const override { return label_; }
    std::string kind() const override { return "model"; }
    device_class klass() const override { return model_->klass(); }
    bool modelled() const override { return true; }

    //! The model (for its counters and parameters).
    const device_model& model() const { return *model_; }

protected:
    const io_guard& guard() const override { return guard_; }
    double do_io(io_op op, std::uint64_t offset, std::uint64_t length) override {
        return model_->service(op, offset, length);
    }

private:
    std::unique_ptr<device_model> model_;
    std::string label_;
    io_guard guard_;
};

} // namespace flashxxl::characterize
