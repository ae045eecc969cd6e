// The placement policies a config or CLI can name, one table row each: help, errors and lists come from it.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "flashxxl/machine/placement_policy.hpp"

namespace flashxxl {

//! A placement line's key=value options (seed=, device=, static_data=a,b ...).
using placement_options = std::map<std::string, std::string>;

//! One policy a `placement=` line or `--placement` can name.
struct placement_entry {
    std::string name;              //!< what a config names
    std::string usage;             //!< its options as a config writes them ("[seed=N]"), empty if none
    std::string description;       //!< one line: what goes where
    std::vector<std::string> keys; //!< the option keys it takes; make_placement refuses others
    //! Builds the policy from the options (config_error for a bad value).
    std::unique_ptr<placement_policy> (*make)(const placement_options& options);
    bool any_keys = false; //!< `make` checks the keys itself (per_role's keys are roles)
};

//! Every policy, in the order help and errors list them.
const std::vector<placement_entry>& placement_policies();

//! "random_striping, flash_aware, single or per_role": the names for help and errors.
std::string placement_policy_names();

//! The policy `policy` with `options`; config_error for an unknown policy (listing the known
//! ones), an option it does not take (listing those it does) or a bad value.
std::unique_ptr<placement_policy> make_placement(const std::string& policy, const placement_options& options);

} // namespace flashxxl
