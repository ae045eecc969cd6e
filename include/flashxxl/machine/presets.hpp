// The embedded machines (hybrid-2009, two-hdd-2009, modern), usable with no config file.
#pragma once

#include <string>
#include <vector>

#include "flashxxl/machine/machine_spec.hpp"

namespace flashxxl {

//! How to instantiate a preset machine.
struct machine_options {
    //! Empty: memory-backed (sparse) devices. Otherwise: one sparse file per device in this
    //! directory (created, and removed with the machine unless keep is set).
    std::string backing_dir;
    bool keep = false;
    bool pace = false;     //!< pacing on every emulated device
    double scale = 1.0;    //!< wall seconds per modelled second when pacing
    std::string placement; //!< overrides the preset's policy when not empty: "POLICY key=value ..."
                           //!< (placement_text.hpp)
    std::string host;      //!< overrides the preset's host model (none, 2008, measured) when not empty
};

//! A preset: its name, a one-line description, and its config text.
struct machine_preset {
    std::string name;
    std::string description;
    std::string config;
};

//! The embedded presets. Device sizes are what the allocator may use; the emulated capacity
//! (seek distances, zones) comes from each model (shared/DEVICE-MODELS.md).
const std::vector<machine_preset>& machine_presets();

//! The names of the presets, for messages and --help.
std::string machine_preset_names();

//! The spec of a preset with the options applied; throws config_error for an unknown name.
machine_spec preset_machine_spec(const std::string& name, const machine_options& opts = {});

} // namespace flashxxl
