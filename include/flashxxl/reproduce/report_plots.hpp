// PNG bar charts of the reproduce report (paper beside ours per row), drawn by gnuplot through safe outputs.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "flashxxl/characterize/gnuplot_report.hpp"
#include "flashxxl/gnuplot_process.hpp"
#include "flashxxl/reproduce/report.hpp"
#include "flashxxl/safe_output.hpp"

namespace flashxxl::reproduce {

//! The signature of the report's plot files (.dat, .gp, the PNG's Software chunk).
inline std::string plot_signature() { return "written by flashxxl reproduce"; }
//! The signatures a plot file may carry to be replaced without --force: ours, and
//! characterize's, which the report's plots carried before ac0561c (2026-11-24).
inline std::vector<std::string> plot_signatures() {
    return {plot_signature(), characterize::gnuplot_signature()};
}

//! The files plot_table() may write for table `id` in `dir`, for checking before a run.
inline std::vector<std::string> plot_outputs(const std::string& dir, const std::string& id) {
    return {dir + "/" + id + ".dat", dir + "/" + id + ".gp", dir + "/" + id + ".png"};
}

//! True when gnuplot runs here with a PNG terminal; `terminal` gets "pngcairo" or "png".
inline bool gnuplot_available(std::string& terminal) {
    terminal = gnuplot_terminal();
    return terminal == "pngcairo" || terminal == "png";
}

//! Draws table `t` as grouped bars (paper, ours) for the rows that have both numbers (or, for a
//! `scatter` table, ours against paper on log-log axes with the diagonal), into
//! `dir`/<id>.png via <id>.dat and <id>.gp (all through safe_output_file, option "--out";
//! files flashxxl did not write are replaced only with `force`). A log scale when the values
//! span more than 50 times. Returns the PNG's path, or "" when no row has both numbers or
//! gnuplot failed (the script stays for a rerun; `failure` then says why).
inline std::string plot_table(const std::string& dir, const report_table& t, const std::string& terminal,
                              bool force, std::string& failure) {
    failure.clear();
    std::vector<const report_row*> rows;
    double lo = 0, hi = 0;
    for (const report_row& r : t.rows)
        if (r.paper && r.measured && *r.paper > 0 && *r.measured > 0) {
            rows.push_back(&r);
            lo = rows.size() == 1 ? std::min(*r.paper, *r.measured) : std::min({lo, *r.paper, *r.measured});
            hi = std::max({hi, *r.paper, *r.measured});
        }
    if (rows.empty()) return "";
    const std::vector<std::string> paths = plot_outputs(dir, t.id);
    const std::vector<std::string> signature = plot_signatures();
    safe_output_file dat(paths[0], "--out", force, signature);
    dat.stream() << "# " << plot_signature() << "\n# row\tpaper\tours\tlabel\n";
    for (std::size_t i = 0; i < rows.size(); ++i) {
        std::string label = rows[i]->label;
        std::replace(label.begin(), label.end(), '"', '\'');
        dat.stream() << i << "\t" << *rows[i]->paper << "\t" << *rows[i]->measured << "\t\"" << label
                     << "\"\n";
    }
    dat.commit();
    safe_output_file png(paths[2], "--out", force, signature);
    const std::string png_tmp = png.temp_path().substr(png.temp_path().find_last_of('/') + 1);
    safe_output_file gp(paths[1], "--out", force, signature);
    if (t.scatter) {
        gp.stream() << "# " << plot_signature() << "\n"
                    << "if (!exists(\"out\")) out = '" << t.id << ".png'\n"
                    << "set terminal " << terminal << " size 1000,900\nset output out\n"
                    << "set title " << gnuplot_quoted(t.title) << " noenhanced\n"
                    << "set xlabel " << gnuplot_quoted("predicted, " + t.unit) << " noenhanced\n"
                    << "set ylabel " << gnuplot_quoted("measured, " + t.unit) << " noenhanced\n"
                    << "set logscale xy\nset grid\nset key top left\n"
                    << "set xrange [" << lo / 2 << ":" << hi * 2 << "]\nset yrange [" << lo / 2 << ":"
                    << hi * 2 << "]\n"
                    << "plot '" << t.id
                    << ".dat' using 2:3 with points pt 7 ps 1.2 title 'measured against predicted', "
                    << "x with lines lw 2 title 'measured = predicted'\n";
    } else {
        gp.stream()
            << "# " << plot_signature() << "\n"
            << "if (!exists(\"out\")) out = '" << t.id << ".png'\n"
            << "set terminal " << terminal
            << " size 1200,750\nset output out\nset bmargin 16\nset rmargin 24\n"
            << "set title " << gnuplot_quoted(t.title) << " noenhanced\nset ylabel " << gnuplot_quoted(t.unit)
            << " noenhanced\n"
            << "set style data histograms\nset style histogram clustered gap 1\nset style fill solid 0.8 "
               "border -1\n"
            << "set boxwidth 0.9\nset xtics rotate by -40 font \",8\" noenhanced\n"
            << "set key outside right top\nset grid ytics\n"
            << (hi > 50 * lo ? "set logscale y\n" : "set yrange [0:*]\n") << "plot '" << t.id
            << ".dat' using 2:xtic(4) title 'paper', '' using 3 title 'ours (modelled)'\n";
    }
    gp.commit();
    const gnuplot_outcome drawn = run_gnuplot(dir, {"out='" + png_tmp + "'"}, t.id + ".gp");
    if (!drawn.ok) {
        failure = drawn.why;
        if (png.discard_and_remove_target()) failure += " (the chart of an earlier run was removed)";
        return "";
    }
    characterize::stamp_image(png.temp_path(), plot_signature());
    png.commit();
    return paths[2];
}

} // namespace flashxxl::reproduce
