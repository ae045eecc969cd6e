// The named device-model presets (hama-ssd-2009, barracuda-7200.11, nvme-gen4, hdd-modern, ...) and their
// factory.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "flashxxl/device/block_mapped_ssd.hpp"
#include "flashxxl/device/device_model.hpp"
#include "flashxxl/device/hdd_model.hpp"
#include "flashxxl/device/model_params.hpp"
#include "flashxxl/device/page_mapped_ssd.hpp"
#include "flashxxl/error.hpp"
#include "flashxxl/units.hpp"

namespace flashxxl {

//! One preset (`model=NAME` in a config): its name, a one-line description, and its factory.
struct model_preset_info {
    std::string name;
    std::string description;
    //! The preset's model with `overrides` taken (model_params::finish refuses any left over).
    std::unique_ptr<device_model> (*make)(const std::string& name, model_params& overrides);
};

//! Every preset, in a fixed order: the one table lists, errors and make_model come from.
const std::vector<model_preset_info>& model_presets();

//! The preset names, in the order of model_presets().
std::vector<std::string> model_preset_names();

namespace detail {
std::string model_preset_list();
} // namespace detail

//! The one-line description of `preset`; config_error listing the presets if unknown.
std::string model_preset_description(const std::string& preset);

//! Builds the model of `preset` with `overrides` (every parameter of the preset's model can be
//! overridden; the keys are those of the model's config, e.g. c_r_ms, bw_r_mibps, chunk,
//! open_logs, capacity, op_percent, units). Throws config_error for an unknown preset (listing
//! the presets), an unknown key (naming it and listing the known ones), or an invalid value.
std::unique_ptr<device_model> make_model(const std::string& preset, model_params overrides = {});

} // namespace flashxxl
