// The machine config parser (core library): STXXL-style disk=/flash= lines plus key=value options.
#include "flashxxl/block_sizes.hpp"
#include "flashxxl/machine/machine_config.hpp"

#include <cctype>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <system_error>
#include <utility>
#include <vector>

#include <unistd.h>

#include "flashxxl/device/host_model.hpp"
#include "flashxxl/device/model_presets.hpp"
#include "flashxxl/error.hpp"
#include "flashxxl/text_checks.hpp"
#include "flashxxl/units.hpp"

namespace flashxxl {

bool detail::is_stxxl_flag(const std::string& word) {
    return word == "unlink" || word == "unlink_on_open" || word == "delete" || word == "delete_on_exit" ||
           word == "autogrow" || word == "noautogrow" || word == "direct" || word == "nodirect" ||
           word == "raw_device";
}

bool detail::apply_stxxl_option(device_spec& d, const std::string& key, const std::string& value) {
    if (key == "unlink" || key == "unlink_on_open" || key == "delete" || key == "delete_on_exit") {
        if (d.io_impl == "memory")
            throw config_error("applies to file devices (syscall, linuxaio), not to memory");
        d.keep = false;
        return true;
    }
    if (key == "direct" && value.empty()) return d.direct = "on", true;
    if (key == "nodirect") return d.direct = "off", true;
    if (key == "direct" && (value == "yes" || value == "no"))
        return d.direct = value == "yes" ? "on" : "off", true;
    if (key == "autogrow" || key == "noautogrow") {
        if (key == "autogrow" && !value.empty() && value != "on" && value != "off" && value != "yes" &&
            value != "no")
            throw config_error("expected autogrow, noautogrow or autogrow=on|off|yes|no, got '" + value +
                               "'");
        return true;
    }
    if (key == "queue" || key == "queue_length" || key == "devid" || key == "device_id") {
        if (value.empty() || value.find_first_not_of("0123456789") != std::string::npos)
            throw config_error("expected a whole number, got '" + value + "'");
        return true;
    }
    if (key == "raw_device")
        throw config_error("raw devices are not machine devices (measure one with `flashxxl characterize "
                           "--block-device PATH --allow-write=PATH`)");
    return false;
}

namespace {

//! One key=value line, split: its head (disk=, flash=, placement=, name=) and its options.
struct config_line {
    std::string key, value;
    std::vector<std::pair<std::string, std::string>> options;
};

//! Reads a config text line by line into a machine_spec; each step is one member function.
class config_reader {
public:
    explicit config_reader(const std::string& origin) : origin_(origin) { spec_.origin = origin; }

    machine_spec read(const std::string& text) {
        std::istringstream in(text);
        std::string line;
        while (std::getline(in, line)) {
            ++line_no_;
            check_text(line);
            strip_comment(line);
            const std::vector<std::string> tokens = words_of(line);
            if (tokens.empty()) continue;
            const config_line l = split_line(tokens);
            if (l.key == "name")
                read_name(l);
            else if (l.key == "placement")
                read_placement(l);
            else if (l.key == "host")
                read_host(l);
            else if (l.key == "disk" || l.key == "flash")
                read_device(l);
            else
                throw fail(l.key, "unknown key (expected disk, flash, placement, host or name)");
        }
        if (spec_.devices.empty())
            throw config_error(origin_ + ": no devices (expected disk= or flash= lines)");
        if (spec_.name.empty()) spec_.name = origin_;
        return spec_;
    }

private:
    config_error fail(const std::string& field, const std::string& what) const {
        return config_error(origin_, line_no_, field, what);
    }
    bool on_off(const std::string& key, const std::string& v) const {
        if (v == "on" || v == "true" || v == "1") return true;
        if (v == "off" || v == "false" || v == "0") return false;
        throw fail(key, "expected on or off, got '" + v + "'");
    }

    //! A byte order mark, a lone CR or a NUL byte: not a config text.
    void check_text(const std::string& line) const {
        std::string text_problem = line_no_ == 1 ? byte_order_mark_problem(line) : std::string();
        if (text_problem.empty()) text_problem = lone_cr_problem(line);
        if (!text_problem.empty()) throw fail("", text_problem);
        if (auto nul = line.find('\0'); nul != std::string::npos)
            throw fail("", "NUL byte at column " + std::to_string(nul + 1) +
                               " (expected a text file of disk=, flash=, placement= and name= lines)");
    }

    //! A comment starts with '#' at the start of a line or after a blank, so that STXXL's "###"
    //! (the process id) can stand inside a path.
    static void strip_comment(std::string& line) {
        for (std::size_t hash = line.find('#'); hash != std::string::npos; hash = line.find('#', hash + 1))
            if (hash == 0 || std::isspace(static_cast<unsigned char>(line[hash - 1]))) {
                line.erase(hash);
                return;
            }
    }

    static std::vector<std::string> words_of(const std::string& line) {
        std::istringstream words(line);
        std::vector<std::string> tokens;
        for (std::string w; words >> w;)
            tokens.push_back(w);
        return tokens;
    }

    //! The head KEY=VALUE and the key=value options after it (STXXL's bare flags on device lines).
    config_line split_line(const std::vector<std::string>& tokens) const {
        const std::string& head = tokens[0];
        auto eq = head.find('=');
        if (eq == std::string::npos)
            throw fail("", "expected KEY=VALUE (disk=, flash=, placement= or name=), got '" + head + "'");
        config_line l;
        l.key = head.substr(0, eq);
        l.value = head.substr(eq + 1);
        const bool device_line = l.key == "disk" || l.key == "flash";
        for (std::size_t i = 1; i < tokens.size(); ++i) {
            auto e = tokens[i].find('=');
            if (device_line && e == std::string::npos && detail::is_stxxl_flag(tokens[i])) {
                l.options.emplace_back(tokens[i], ""); // an STXXL flag without a value
                continue;
            }
            if (e == std::string::npos || e == 0) {
                if (std::string split = split_value_problem(tokens[i - 1], tokens[i]); !split.empty())
                    throw fail(tokens[i - 1].substr(0, tokens[i - 1].find('=')), split);
                throw fail(tokens[i], "expected key=value, got '" + tokens[i] + "'");
            }
            l.options.emplace_back(tokens[i].substr(0, e), tokens[i].substr(e + 1));
        }
        return l;
    }

    void read_name(const config_line& l) {
        if (!l.options.empty()) throw fail("name", "takes no options");
        if (l.value.empty()) throw fail("name", "empty machine name");
        if (!spec_.name.empty())
            throw fail("name", "a second name= line (the machine is already named '" + spec_.name + "')");
        spec_.name = l.value;
    }

    void read_placement(const config_line& l) {
        if (have_placement_) throw fail("placement", "a second placement line");
        have_placement_ = true;
        if (l.value.empty()) throw fail("placement", "expected a policy name");
        spec_.placement.policy = l.value;
        spec_.placement.origin = origin_ + ":" + std::to_string(line_no_);
        for (auto& kv : l.options) {
            if (spec_.placement.options.count(kv.first)) throw fail(kv.first, "given twice");
            spec_.placement.options[kv.first] = kv.second;
        }
    }

    //! `host=NAME`: the host model whose CPU time the containers charge (device/host_model.hpp).
    void read_host(const config_line& l) {
        if (have_host_) throw fail("host", "a second host= line");
        have_host_ = true;
        if (!l.options.empty()) throw fail("host", "takes no options");
        if (!is_host_model_name(l.value))
            throw fail("host",
                       "unknown host '" + l.value + "' (expected one of: " + host_model_names() + ")");
        spec_.host = l.value;
        spec_.host_origin = origin_ + ":" + std::to_string(line_no_);
    }

    void read_device(const config_line& l) {
        device_spec d;
        d.klass = l.key == "flash" ? device_class::flash : device_class::hdd;
        d.origin = origin_ + ":" + std::to_string(line_no_);
        read_device_fields(l, d);
        read_device_options(l, d);
        check_device(d);
        if (d.name.empty()) d.name = l.key + std::to_string(spec_.devices.size());
        if (!names_.insert(d.name).second) throw fail("name", "device name '" + d.name + "' used twice");
        spec_.devices.push_back(std::move(d));
    }

    //! PATH,SIZE,IO_IMPL, with STXXL's rules for the path ("###") and the size (decimal units).
    void read_device_fields(const config_line& l, device_spec& d) const {
        std::vector<std::string> fields;
        std::string cur;
        for (char c : l.value + ",") {
            if (c == ',') {
                fields.push_back(cur);
                cur.clear();
            } else {
                cur += c;
            }
        }
        if (fields.size() != 3)
            throw fail(l.key, "expected PATH,SIZE,IO_IMPL (3 comma-separated fields), got " +
                                  std::to_string(fields.size()) + " in '" + l.value + "'");
        d.path = fields[0];
        if (d.path.empty()) throw fail("path", "empty path");
        // STXXL's rule: the first "###" in a path becomes the process id (one file per run).
        if (auto pid_mark = d.path.find("###"); pid_mark != std::string::npos)
            d.path.replace(pid_mark, 3, std::to_string(::getpid()));
        read_device_size(fields[1], d);
        d.io_impl = fields[2];
        if (d.io_impl != "memory" && d.io_impl != "syscall" && d.io_impl != "linuxaio")
            throw fail("io_impl", "unknown I/O implementation '" + d.io_impl +
                                      "' (expected memory, syscall or linuxaio)");
        if (d.io_impl == "memory" && d.path != "memory")
            throw fail("path", "a memory device's path must be 'memory', got '" + d.path + "'");
        if (d.io_impl != "memory" && d.path == "memory")
            throw fail("path", "'memory' is only a path for io_impl memory");
    }

    void read_device_size(const std::string& field, device_spec& d) const {
        bool decimal = false;
        try {
            d.size = parse_stxxl_size(field, &decimal);
        } catch (const config_error& e) {
            throw fail("size", e.what());
        }
        if (d.size == 0)
            throw fail("size",
                       "device size must be positive (STXXL's size 0, a growing file, is not supported: "
                       "flashxxl devices have a fixed capacity)");
        if (decimal) d.size -= d.size % 4096; // STXXL's 1G = 10^9 bytes: whole 4 KiB blocks of it
        if (d.size == 0) throw fail("size", "device size is below 4 KiB");
        if (d.size % 4096 != 0) throw fail("size", "device size must be a multiple of 4 KiB");
    }

    //! Every key=value of a device line, each once; an error names the key.
    void read_device_options(const config_line& l, device_spec& d) {
        std::set<std::string> seen;
        have_scale_ = false;
        keep_on_.clear();
        unlink_word_.clear();
        for (auto& [k, v] : l.options) {
            if (!seen.insert(k).second) throw fail(k, "given twice");
            try {
                read_device_option(k, v, d);
            } catch (const config_error& e) {
                if (e.line() != 0) throw;
                throw fail(k, e.what());
            }
        }
    }

    void read_device_option(const std::string& k, const std::string& v, device_spec& d) {
        const bool unlink = k == "unlink" || k == "unlink_on_open" || k == "delete" || k == "delete_on_exit";
        if (d.io_impl == "memory" && (k == "keep" || k == "reuse" || k == "direct" || k == "nodirect"))
            throw fail(k, "applies to file devices (syscall, linuxaio), not to memory");
        // keep=on and STXXL's unlink / delete contradict
        if (unlink && !keep_on_.empty())
            throw fail(k,
                       "contradicts " + keep_on_ + " (the file does not outlive the run); give one of them");
        if (unlink) unlink_word_ = k;
        if (detail::apply_stxxl_option(d, k, v)) {
            // an STXXL option, with STXXL's meaning (see detail::apply_stxxl_option)
        } else if (k == "name") {
            if (v.empty()) throw fail(k, "empty device name");
            d.name = v;
        } else if (k == "model") {
            if (v.empty())
                throw fail(k, "empty model name (expected one of " + detail::model_preset_list() +
                                  "; leave model= out for a real device)");
            d.model = v;
        } else if (k == "pace") {
            d.pacing.enabled = on_off(k, v);
        } else if (k == "scale") {
            read_scale(k, v, d);
        } else if (k == "direct") {
            if (v != "on" && v != "off" && v != "try") throw fail(k, "expected on, off or try");
            d.direct = v;
        } else if (k == "keep") {
            d.keep = on_off(k, v);
            if (d.keep && !unlink_word_.empty())
                throw fail(k, "contradicts " + unlink_word_ +
                                  " (the file does not outlive the run); give one of them");
            if (d.keep) keep_on_ = k + "=" + v;
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
    }

    void read_scale(const std::string& k, const std::string& v, device_spec& d) {
        d.pacing.scale = parse_number(v);
        have_scale_ = true;
        if (!(d.pacing.scale > 0)) throw fail(k, "must be > 0");
        // --scale's range: beyond it a request's paced wall time overflows (1e300 s) or rounds to nothing
        if (!(d.pacing.scale >= 1e-6 && d.pacing.scale <= 1e6))
            throw fail(k, "expected a number from 0.000001 to 1000000 (wall seconds per modelled second, the "
                          "range of --scale), got '" +
                              v + "'");
    }

    //! The rules between a device's options.
    void check_device(const device_spec& d) const {
        if (have_scale_ && !d.pacing.enabled) throw fail("scale", "scale= has no effect without pace=on");
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
    }

    const std::string& origin_;
    std::size_t line_no_ = 0;
    machine_spec spec_;
    bool have_placement_ = false;
    bool have_host_ = false;
    std::set<std::string> names_;
    // Of the device line being read:
    bool have_scale_ = false;
    std::string keep_on_, unlink_word_; // keep=on and STXXL's unlink / delete contradict
};

} // namespace

machine_spec parse_machine_config(const std::string& text, const std::string& origin) {
    return config_reader(origin).read(text);
}

machine_spec load_machine_config(const std::string& path) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
        throw config_error("machine config '" + path +
                           "' is a directory (expected a file of disk= / flash= lines)");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw config_error("cannot open machine config '" + path + "'");
    // A config is a few lines: read at most a MiB (a path like /dev/zero would otherwise be
    // read until memory runs out), and say so beyond it.
    constexpr std::size_t most = 1 << 20;
    std::string text(most + 1, '\0');
    in.read(text.data(), std::streamsize(text.size()));
    if (in.bad()) throw config_error("cannot read machine config '" + path + "'");
    text.resize(std::size_t(in.gcount()));
    if (text.size() > most)
        throw config_error("machine config '" + path +
                           "' is longer than 1 MiB; expected a few disk= / flash= lines");
    return parse_machine_config(text, path);
}

} // namespace flashxxl
