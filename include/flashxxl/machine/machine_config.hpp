// Parser of the machine config text: STXXL-style disk=/flash= lines plus key=value options.
#pragma once

#include <string>

#include "flashxxl/machine/machine_spec.hpp"

namespace flashxxl {

namespace detail {

//! The value-less options of STXXL 1.4.1's disk lines.
bool is_stxxl_flag(const std::string& word);

//! Applies an option of STXXL 1.4.1's disk lines to `d`; false when `key` is not one. The
//! meaning is STXXL's where flashxxl has it: unlink / unlink_on_open / delete / delete_on_exit
//! (the file does not outlive the run: keep=off, flashxxl's default for a file it creates),
//! direct / nodirect / direct=on|off|try|yes|no (O_DIRECT). Accepted without effect, because a
//! flashxxl device has a fixed size and its own queue: autogrow, noautogrow, autogrow=...,
//! queue=N, queue_length=N, devid=N, device_id=N. raw_device is refused. Throws config_error
//! (without a line; the caller adds it) for a bad value.
bool apply_stxxl_option(device_spec& d, const std::string& key, const std::string& value);

} // namespace detail

//! Parses a machine config. The format extends STXXL's `.stxxl` file:
//!
//!     # comment
//!     name=my-hybrid
//!     flash=memory,32GiB,memory name=ssd model=hama-ssd-2009 pace=off
//!     disk=/data/hdd.img,400GiB,syscall name=hdd model=barracuda-7200.11 a_ms=11.72
//!     placement=flash_aware
//!
//! A device line is `flash=` or `disk=` followed by `PATH,SIZE,IO_IMPL` (as in STXXL) and then
//! optional `key=value` options: name, model, pace (on|off), scale (1e-6 to 1e6, with pace=on),
//! direct (on|off|try), keep (on|off; not beside STXXL's unlink / delete), reuse (on|off) (direct,
//! keep and reuse for file devices only), io_threads (1-64, real syscall devices), br and bw (the device's
//! block sizes, exactly the snippet `flashxxl characterize` prints: `br=128KiB bw=16MiB`),
//! tl (on|off), tl_page, tl_segment, tl_spare, tl_cleaning; every other
//! key is a parameter of the model and is checked by the model (unknown keys are errors).
//! SIZE has STXXL's meaning (parse_stxxl_size): IEC units (16MiB, 32GiB) are powers of two,
//! SI units (16M, 1G, 1GB) powers of ten (1G = 10^9 bytes, rounded down to whole 4 KiB), a
//! plain number is MiB and 4096B is bytes. STXXL's own options (unlink, direct, autogrow, queue=,
//! ...; detail::apply_stxxl_option) are understood, so an existing `.stxxl` line such as
//! `disk=/var/tmp/stxxl,1G,syscall unlink` loads unchanged. IO_IMPL is memory (sparse, allocated on first
//! write; PATH must be `memory`), syscall or linuxaio (PATH is a file this machine creates).
//! `placement=POLICY key=value...` picks a policy of placement_policies()
//! (machine/placement_registry.hpp) with its options.
//! Errors throw config_error naming ORIGIN:LINE and the field: also a NUL byte, a UTF-8
//! byte-order mark, a second name=, an empty model=.
machine_spec parse_machine_config(const std::string& text, const std::string& origin = "<config>");

//! Reads and parses a config file; errors name the file.
machine_spec load_machine_config(const std::string& path);

} // namespace flashxxl
