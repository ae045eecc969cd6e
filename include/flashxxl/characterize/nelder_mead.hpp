// Nelder-Mead simplex minimisation of a function of a few real variables (no derivatives needed).
#pragma once

#include <algorithm>
#include <cstddef>
#include <functional>
#include <numeric>
#include <vector>

namespace flashxxl::characterize {

//! Limits of one minimisation.
struct nelder_mead_options {
    std::size_t max_evaluations = 400; //!< calls of the function, initial simplex included
    double initial_step = 0.3;         //!< size of the initial simplex along each axis
    double tolerance = 1e-10;          //!< stop when the simplex's values differ by less than this
};

//! The best point found, its value and the number of function calls.
struct nelder_mead_result {
    std::vector<double> x;
    double value = 0;
    std::size_t evaluations = 0;
};

//! Minimises `f` from `start` with the standard coefficients (reflection 1, expansion 2,
//! contraction 1/2, shrink 1/2; Nelder and Mead 1965, as in Numerical Recipes' amoeba).
inline nelder_mead_result nelder_mead(const std::function<double(const std::vector<double>&)>& f,
                                      const std::vector<double>& start, const nelder_mead_options& o = {}) {
    const std::size_t n = start.size();
    nelder_mead_result best{start, 0, 0};
    auto eval = [&](const std::vector<double>& x) {
        ++best.evaluations;
        return f(x);
    };
    std::vector<std::vector<double>> simplex(n + 1, start);
    std::vector<double> value(n + 1);
    for (std::size_t i = 0; i < n; ++i)
        simplex[i + 1][i] += o.initial_step;
    for (std::size_t i = 0; i <= n; ++i)
        value[i] = eval(simplex[i]);
    std::vector<std::size_t> order(n + 1);
    auto along = [&](const std::vector<double>& centre, const std::vector<double>& worst, double t) {
        std::vector<double> x(n);
        for (std::size_t j = 0; j < n; ++j)
            x[j] = centre[j] + t * (worst[j] - centre[j]);
        return x;
    };
    while (best.evaluations < o.max_evaluations) {
        std::iota(order.begin(), order.end(), 0);
        std::sort(order.begin(), order.end(),
                  [&](std::size_t a, std::size_t b) { return value[a] < value[b]; });
        const std::size_t lo = order.front(), hi = order.back(), second = order[n > 0 ? n - 1 : 0];
        if (n == 0 || value[hi] - value[lo] < o.tolerance) break;
        std::vector<double> centre(n, 0.0);
        for (std::size_t i = 0; i <= n; ++i)
            if (i != hi)
                for (std::size_t j = 0; j < n; ++j)
                    centre[j] += simplex[i][j] / double(n);
        std::vector<double> reflected = along(centre, simplex[hi], -1);
        const double fr = eval(reflected);
        if (fr < value[lo]) {
            std::vector<double> expanded = along(centre, simplex[hi], -2);
            const double fe = eval(expanded);
            if (fe < fr)
                simplex[hi] = expanded, value[hi] = fe;
            else
                simplex[hi] = reflected, value[hi] = fr;
        } else if (fr < value[second]) {
            simplex[hi] = reflected, value[hi] = fr;
        } else {
            const bool outside = fr < value[hi];
            std::vector<double> contracted = along(centre, outside ? reflected : simplex[hi], 0.5);
            const double fc = eval(contracted);
            if (fc < std::min(fr, value[hi])) {
                simplex[hi] = contracted, value[hi] = fc;
            } else {
                for (std::size_t i = 0; i <= n; ++i) {
                    if (i == lo) continue;
                    for (std::size_t j = 0; j < n; ++j)
                        simplex[i][j] = simplex[lo][j] + 0.5 * (simplex[i][j] - simplex[lo][j]);
                    value[i] = eval(simplex[i]);
                }
            }
        }
    }
    const std::size_t lo = std::size_t(std::min_element(value.begin(), value.end()) - value.begin());
    best.x = simplex[lo];
    best.value = value[lo];
    return best;
}

} // namespace flashxxl::characterize
