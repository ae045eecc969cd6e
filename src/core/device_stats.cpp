// Printing of per-device, per-role I/O statistics as tables (core library).
#include "flashxxl/device/device_stats.hpp"

#include <cstdio>
#include <ostream>

namespace flashxxl {

std::string format_energy(const io_counters& c) {
    if (!c.energy_known) return "unknown";
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.4g", c.modelled_energy_j);
    return buf;
}

void print_counters_row(std::ostream& out, const std::string& name, const io_counters& c) {
    char buf[256];
    std::snprintf(buf, sizeof buf, "  %-22s %9llu %12s %9llu %12s %11.4f %11.4f %11.4f %12s\n", name.c_str(),
                  static_cast<unsigned long long>(c.read_ops), format_bytes(double(c.read_bytes)).c_str(),
                  static_cast<unsigned long long>(c.write_ops), format_bytes(double(c.write_bytes)).c_str(),
                  c.modelled_s, c.service_s, c.wait_s, format_energy(c).c_str());
    out << buf;
}

void print_counters_header(std::ostream& out) {
    char buf[256];
    std::snprintf(buf, sizeof buf, "  %-22s %9s %12s %9s %12s %11s %11s %11s %12s\n", "device / role",
                  "reads", "RDV", "writes", "WRV", "modelled_s", "service_s", "wait_s", "energy_J");
    out << buf;
}

void print_stats_table(std::ostream& out, const std::string& device_name, const device_stats& s) {
    print_counters_header(out);
    print_stats_rows(out, device_name, s);
}

void print_stats_rows(std::ostream& out, const std::string& device_name, const device_stats& s) {
    print_counters_row(out, device_name, s.total);
    for (role r : all_roles)
        if (!s.of(r).empty()) print_counters_row(out, std::string("  ") + to_string(r), s.of(r));
    if (!s.internal.empty()) print_counters_row(out, "  internal", s.internal);
}

} // namespace flashxxl
