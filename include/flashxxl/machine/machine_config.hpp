// Parser of the machine config text: STXXL-style disk=/flash= lines plus key=value options.
#pragma once

#include <cctype>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "flashxxl/error.hpp"
#include "flashxxl/io/blocks.hpp"
#include "flashxxl/machine/machine_spec.hpp"
#include "flashxxl/units.hpp"

namespace flashxxl {

//! Parses a machine config. The format extends STXXL's `.stxxl` file:
//!
//!     # comment
//!     name=my-hybrid
//!     flash=memory,32GiB,memory name=ssd model=hama-ssd-2009 pace=off
//!     disk=/data/hdd.img,400GiB,syscall name=hdd model=barracuda-7200.11 a_ms=11.72
//!     placement=flash_aware
//!
//! A device line is `flash=` or `disk=` followed by `PATH,SIZE,IO_IMPL` (as in STXXL) and then
//! optional `key=value` options: name, model, pace (on|off), scale, direct (on|off|try), keep
//! (on|off), reuse (on|off), io_threads (1-64, real syscall devices), br and bw (the device's
//! block sizes, exactly the snippet `flashxxl characterize` prints: `br=128KiB bw=16MiB`),
//! tl (on|off), tl_page, tl_segment, tl_spare, tl_cleaning; every other
//! key is a parameter of the model and is checked by the model (unknown keys are errors).
//! SIZE takes IEC units (16MiB, 32GiB) or plain bytes; decimal units (16M, 16GB) are rejected,
//! because STXXL reads them as powers of ten. IO_IMPL is memory (sparse, allocated on first
//! write; PATH must be `memory`), syscall or linuxaio (PATH is a file this machine creates).
//! `placement=POLICY key=value...` picks random_striping [seed=N], flash_aware, single
//! device=NAME, or per_role static_data=a,b hot=c ...
//! Errors throw config_error naming ORIGIN:LINE and the field.
inline machine_spec parse_machine_config(const std::string& text, const std::string& origin = "<config>") {
    machine_spec spec;
    spec.origin = origin;
    std::istringstream in(text);
    std::string line;
    std::size_t line_no = 0;
    bool have_placement = false;
    std::set<std::string> names;
    auto fail = [&](const std::string& field, const std::string& what) -> config_error {
        return config_error(origin, line_no, field, what);
    };
    auto on_off = [&](const std::string& key, const std::string& v) {
        if (v == "on" || v == "true" || v == "1") return true;
        if (v == "off" || v == "false" || v == "0") return false;
        throw fail(key, "expected on or off, got '" + v + "'");
    };
    while (std::getline(in, line)) {
        ++line_no;
        if (auto hash = line.find('#'); hash != std::string::npos) line.erase(hash);
        std::istringstream words(line);
        std::vector<std::string> tokens;
        for (std::string w; words >> w;) tokens.push_back(w);
        if (tokens.empty()) continue;
        std::string head = tokens[0];
        auto eq = head.find('=');
        if (eq == std::string::npos)
            throw fail("", "expected KEY=VALUE (disk=, flash=, placement= or name=), got '" + head + "'");
        std::string key = head.substr(0, eq), value = head.substr(eq + 1);
        std::vector<std::pair<std::string, std::string>> options;
        for (std::size_t i = 1; i < tokens.size(); ++i) {
            auto e = tokens[i].find('=');
            if (e == std::string::npos || e == 0)
                throw fail(tokens[i], "expected key=value, got '" + tokens[i] + "'");
            options.emplace_back(tokens[i].substr(0, e), tokens[i].substr(e + 1));
        }
        if (key == "name") {
            if (!options.empty()) throw fail("name", "takes no options");
            if (value.empty()) throw fail("name", "empty machine name");
            spec.name = value;
        } else if (key == "placement") {
            if (have_placement) throw fail("placement", "a second placement line");
            have_placement = true;
            if (value.empty()) throw fail("placement", "expected a policy name");
            spec.placement.policy = value;
            spec.placement.origin = origin + ":" + std::to_string(line_no);
            for (auto& kv : options) {
                if (spec.placement.options.count(kv.first)) throw fail(kv.first, "given twice");
                spec.placement.options[kv.first] = kv.second;
            }
        } else if (key == "disk" || key == "flash") {
            device_spec d;
            d.klass = key == "flash" ? device_class::flash : device_class::hdd;
            d.origin = origin + ":" + std::to_string(line_no);
            std::vector<std::string> fields;
            std::string cur;
            for (char c : value + ",") {
                if (c == ',') {
                    fields.push_back(cur);
                    cur.clear();
                } else {
                    cur += c;
                }
            }
            if (fields.size() != 3)
                throw fail(key, "expected PATH,SIZE,IO_IMPL (3 comma-separated fields), got " +
                                    std::to_string(fields.size()) + " in '" + value + "'");
            d.path = fields[0];
            if (d.path.empty()) throw fail("path", "empty path");
            try {
                d.size = parse_size(fields[1]);
            } catch (const config_error& e) {
                throw fail("size", e.what());
            }
            if (d.size == 0) throw fail("size", "device size must be positive");
            if (d.size % 4096 != 0) throw fail("size", "device size must be a multiple of 4 KiB");
            d.io_impl = fields[2];
            if (d.io_impl != "memory" && d.io_impl != "syscall" && d.io_impl != "linuxaio")
                throw fail("io_impl", "unknown I/O implementation '" + d.io_impl +
                                          "' (expected memory, syscall or linuxaio)");
            if (d.io_impl == "memory" && d.path != "memory")
                throw fail("path", "a memory device's path must be 'memory', got '" + d.path + "'");
            if (d.io_impl != "memory" && d.path == "memory")
                throw fail("path", "'memory' is only a path for io_impl memory");
            std::set<std::string> seen;
            bool have_scale = false;
            for (auto& [k, v] : options) {
                if (!seen.insert(k).second) throw fail(k, "given twice");
                try {
                    if (k == "name") {
                        if (v.empty()) throw fail(k, "empty device name");
                        d.name = v;
                    } else if (k == "model") {
                        d.model = v;
                    } else if (k == "pace") {
                        d.pacing.enabled = on_off(k, v);
                    } else if (k == "scale") {
                        d.pacing.scale = parse_number(v);
                        have_scale = true;
                        if (!(d.pacing.scale > 0)) throw fail(k, "must be > 0");
                    } else if (k == "direct") {
                        if (v != "on" && v != "off" && v != "try") throw fail(k, "expected on, off or try");
                        d.direct = v;
                    } else if (k == "keep") {
                        d.keep = on_off(k, v);
                    } else if (k == "reuse") {
                        d.reuse = on_off(k, v);
                    } else if (k == "io_threads") {
                        double n = parse_number(v);
                        if (!(n >= 1 && n <= 64) || n != double(unsigned(n)))
                            throw fail(k, "expected a whole number from 1 to 64, got '" + v + "'");
                        d.io_threads = unsigned(n);
                    } else if (k == "br" || k == "bw") {
                        std::uint64_t bytes = parse_size(v);
                        if (bytes == 0 || bytes % 4096 != 0)
                            throw fail(k, "block size '" + v + "' must be a positive multiple of 4 KiB");
                        (k == "br" ? d.br : d.bw) = bytes;
                    } else if (k == "tl") {
                        d.tl = on_off(k, v);
                    } else if (k.rfind("tl_", 0) == 0) {
                        d.tl_options[k] = v;
                    } else {
                        d.params.set(k, v);
                    }
                } catch (const config_error& e) {
                    if (e.line() != 0) throw;
                    throw fail(k, e.what());
                }
            }
            if (have_scale && !d.pacing.enabled)
                throw fail("scale", "scale= has no effect without pace=on");
            if (d.model.empty() && !d.params.empty())
                throw fail(d.params.values().begin()->first,
                           "unknown key (not a device option, and there is no model= to take it as a parameter)");
            if (d.model.empty() && d.pacing.enabled) throw fail("pace", "pacing needs a model=");
            if (d.io_threads > 1 && (!d.model.empty() || d.io_impl != "syscall"))
                throw fail("io_threads", "more than one I/O thread is for real devices only (io_impl syscall, "
                                         "no model=): a model serves one request at a time");
            if (d.br != 0 && d.bw != 0) {
                try {
                    block_sizes(d.br, d.bw);
                } catch (const config_error& e) {
                    throw fail("bw", e.what());
                }
            }
            if (!d.tl && !d.tl_options.empty())
                throw fail(d.tl_options.begin()->first, "translation-layer option without tl=on");
            if (d.name.empty()) d.name = key + std::to_string(spec.devices.size());
            if (!names.insert(d.name).second) throw fail("name", "device name '" + d.name + "' used twice");
            spec.devices.push_back(std::move(d));
        } else {
            throw fail(key, "unknown key (expected disk, flash, placement or name)");
        }
    }
    if (spec.devices.empty()) throw config_error(origin + ": no devices (expected disk= or flash= lines)");
    if (spec.name.empty()) spec.name = origin;
    return spec;
}

//! Reads and parses a config file; errors name the file.
inline machine_spec load_machine_config(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw config_error("cannot open machine config '" + path + "'");
    std::ostringstream text;
    text << in.rdbuf();
    return parse_machine_config(text.str(), path);
}

} // namespace flashxxl
