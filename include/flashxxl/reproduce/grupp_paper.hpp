// seeds/004 (Grupp et al., MICRO 2009) as published: Table 2's per-operation energies and the text's ratios.
#pragma once

#include <vector>

namespace flashxxl::reproduce {

//! One chip's column of seeds/004 Table 2 (nJ per bit; MLC chips give fast and slow pages).
struct grupp_table2_chip {
    const char* chip;   //!< the paper's abbreviation, e.g. "A-SLC2"
    const char* preset; //!< the flashxxl model preset of that chip, or nullptr where there is none
    bool mlc;
    double read_nj_per_bit;
    double prog_nj_per_bit;      //!< SLC program, or MLC "fast" program
    double prog_slow_nj_per_bit; //!< MLC "slow" program, 0 for SLC
    double erase_nj_per_bit;
};

//! seeds/004 Table 2, in its column order.
inline const std::vector<grupp_table2_chip>& grupp_table2() {
    static const std::vector<grupp_table2_chip> t = {
        {"A-SLC2", "chip-a-slc2", false, 0.055, 0.72, 0, 0.06},
        {"A-SLC4", "chip-a-slc4", false, 0.067, 0.61, 0, 0.067},
        {"A-SLC8", "chip-a-slc8", false, 0.098, 0.85, 0, 0.093},
        {"B-SLC2", "chip-b-slc2", false, 0.049, 0.48, 0, 0.011},
        {"B-SLC4", "chip-b-slc4", false, 0.043, 0.41, 0, 0.025},
        {"E-SLC8", "chip-e-slc8", false, 0.0061, 1.01, 0, 0.031},
        {"B-MLC8", nullptr, true, 0.15, 1.09, 3.31, 0.070},
        {"B-MLC32", "chip-b-mlc32", true, 0.11, 0.96, 3.30, 0.056},
        {"C-MLC64", "chip-c-mlc64", true, 0.19, 0.67, 2.86, 0.038},
        {"D-MLC32", nullptr, true, 0.095, 0.79, 2.84, 0.051},
        {"E-MLC8", nullptr, true, 0.0031, 0.46, 2.07, 0.0057},
    };
    return t;
}

//! Section 3.3: B-MLC32's fast pages program 5.8 times faster on average than its slow pages.
constexpr double grupp_b_mlc32_slow_over_fast = 5.8;
//! Section 3.3 / Figure 4: SLC program time falls by nearly 50% over 100,000 erase cycles.
constexpr double grupp_slc_wear_speedup = 0.5;
//! Section 3.3: MLC program time falls by 10-15% over its rated life (10,000 cycles).
constexpr double grupp_mlc_wear_speedup_lo = 0.10, grupp_mlc_wear_speedup_hi = 0.15;

} // namespace flashxxl::reproduce
