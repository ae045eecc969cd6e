// Levenberg-Marquardt least squares with a forward-difference Jacobian, for a few real variables.
#pragma once

#include <cmath>
#include <cstddef>
#include <functional>
#include <utility>
#include <vector>

namespace flashxxl::characterize {

//! Limits of one least-squares refinement.
struct levenberg_marquardt_options {
    std::size_t max_iterations = 60;
    double difference_step = 1e-5; //!< forward-difference step of the Jacobian
    double tolerance = 1e-14;      //!< stop when a step gains less than this share of the sum
};

namespace detail {
//! Solves a x = b (n x n, row-major) by Gaussian elimination with partial pivoting; false if singular.
inline bool solve_linear(std::vector<double> a, std::vector<double> b, std::size_t n,
                         std::vector<double>& x) {
    for (std::size_t c = 0; c < n; ++c) {
        std::size_t pivot = c;
        for (std::size_t r = c + 1; r < n; ++r)
            if (std::fabs(a[r * n + c]) > std::fabs(a[pivot * n + c])) pivot = r;
        if (std::fabs(a[pivot * n + c]) < 1e-300) return false;
        for (std::size_t k = 0; k < n; ++k)
            std::swap(a[c * n + k], a[pivot * n + k]);
        std::swap(b[c], b[pivot]);
        for (std::size_t r = c + 1; r < n; ++r) {
            const double f = a[r * n + c] / a[c * n + c];
            for (std::size_t k = c; k < n; ++k)
                a[r * n + k] -= f * a[c * n + k];
            b[r] -= f * b[c];
        }
    }
    x.assign(n, 0);
    for (std::size_t c = n; c-- > 0;) {
        double s = b[c];
        for (std::size_t k = c + 1; k < n; ++k)
            s -= a[c * n + k] * x[k];
        x[c] = s / a[c * n + c];
    }
    return true;
}
} // namespace detail

//! Minimises the sum of squares of `residuals(x)` from `x` (Marquardt's scaling of the normal
//! equations' diagonal; the damping shrinks after a step that helps and grows after one that
//! does not). `residuals` returns a vector of the same length for every x. Returns the sum.
inline double
levenberg_marquardt(const std::function<std::vector<double>(const std::vector<double>&)>& residuals,
                    std::vector<double>& x, const levenberg_marquardt_options& o = {}) {
    auto sum_of_squares = [](const std::vector<double>& r) {
        double s = 0;
        for (double v : r)
            s += v * v;
        return s;
    };
    const std::size_t n = x.size();
    std::vector<double> r = residuals(x);
    double value = sum_of_squares(r);
    double damping = 1e-3;
    for (std::size_t it = 0; it < o.max_iterations && n > 0 && value > 0; ++it) {
        const std::size_t m = r.size();
        std::vector<double> jac(m * n);
        for (std::size_t k = 0; k < n; ++k) {
            std::vector<double> y = x;
            y[k] += o.difference_step;
            const std::vector<double> ry = residuals(y);
            for (std::size_t i = 0; i < m; ++i)
                jac[i * n + k] = (ry[i] - r[i]) / o.difference_step;
        }
        std::vector<double> jtj(n * n, 0), jtr(n, 0);
        for (std::size_t i = 0; i < m; ++i)
            for (std::size_t a = 0; a < n; ++a) {
                jtr[a] -= jac[i * n + a] * r[i];
                for (std::size_t b = 0; b < n; ++b)
                    jtj[a * n + b] += jac[i * n + a] * jac[i * n + b];
            }
        bool improved = false;
        while (damping < 1e12) {
            std::vector<double> damped = jtj, step;
            for (std::size_t a = 0; a < n; ++a)
                damped[a * n + a] += damping * (jtj[a * n + a] + 1e-12);
            if (!detail::solve_linear(damped, jtr, n, step)) {
                damping *= 10;
                continue;
            }
            std::vector<double> y = x;
            for (std::size_t a = 0; a < n; ++a)
                y[a] += step[a];
            const std::vector<double> ry = residuals(y);
            const double vy = sum_of_squares(ry);
            if (vy < value) {
                const double gain = (value - vy) / value;
                x = y, r = ry, value = vy, damping = std::max(1e-9, damping / 3), improved = true;
                if (gain < o.tolerance) return value;
                break;
            }
            damping *= 4;
        }
        if (!improved) break;
    }
    return value;
}

} // namespace flashxxl::characterize
