// A placement written as one string ("per_role hot=ssd scratch=ssd"), read into a placement_spec.
#pragma once

#include <string>

#include "flashxxl/machine/machine_spec.hpp"

namespace flashxxl {

//! Reads `text` as a config's placement= line writes it after the '=': a policy name, then its
//! key=value options separated by blanks ("per_role hot=ssd scratch=ssd stream=hdd"). Whatever
//! names a policy (machine_options::placement, --placement) takes this form. config_error,
//! naming `origin` (an option or field), for an empty text, an option without '=' or without a
//! key, or a key given twice; the policy and its options are checked when the machine is built
//! (make_placement).
placement_spec parse_placement_text(const std::string& text, const std::string& origin);

} // namespace flashxxl
