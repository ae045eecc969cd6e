// The CLI's `--plot DIR`: CSV tables and gnuplot charts of a report, checked before the run, written
// atomically and signed.
#pragma once

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

#include "flashxxl/characterize/gnuplot_report.hpp"
#include "flashxxl/error.hpp"
#include "flashxxl/gnuplot_process.hpp"
#include "flashxxl/safe_output.hpp"

namespace flashxxl::cli {

//! The directory of `--plot DIR`. Each chart NAME is three files: NAME.csv (the numbers, one
//! row per bar), NAME.gp (a gnuplot script that reads NAME.csv) and NAME.png (.svg where
//! gnuplot has no PNG terminal; none without gnuplot, the script stays). Every file carries
//! the signature "written by flashxxl" and goes through safe_output_file: a file flashxxl did
//! not write is refused unless `force`, never a device, FIFO or link. reserve() checks a chart's
//! paths before the run, so that a refused output costs no run.
class plot_directory {
public:
    //! What every chart file carries; it also matches what characterize and reproduce write
    //! ("written by flashxxl characterize"), so those may be replaced too.
    static constexpr const char* plot_signature = "written by flashxxl";

    //! `dir` empty: no plots (every call is a no-op). Creates the directory; a run that fails
    //! (the object is destroyed by an exception) removes it again when this object created it
    //! and it is still empty, so that a refused or failed run leaves no trace.
    plot_directory(std::string dir, std::string option, bool force)
        : dir_(std::move(dir)), option_(std::move(option)), force_(force) {
        if (dir_.empty()) return;
        struct stat st {};
        if (::stat(dir_.c_str(), &st) == 0 && !S_ISDIR(st.st_mode))
            throw refused_output(option_ + " '" + dir_ + "' is not a directory");
        if (::mkdir(dir_.c_str(), 0755) == 0)
            created_ = true;
        else if (errno != EEXIST)
            throw io_failure(option_ + " '" + dir_ +
                             "': cannot create the directory: " + std::strerror(errno));
        try {
            check_writable_directory(dir_, option_ + " '" + dir_ + "'"); // before the run, not after it
            terminal_ = gnuplot_terminal();
        } catch (...) {
            remove_if_created();
            throw;
        }
    }
    ~plot_directory() {
        if (std::uncaught_exceptions() > exceptions_at_start_) remove_if_created();
    }
    plot_directory(const plot_directory&) = delete;
    plot_directory& operator=(const plot_directory&) = delete;

    bool enabled() const { return !dir_.empty(); }

    //! Checks that chart `name`'s files may be written.
    void reserve(const std::string& name) const {
        if (!enabled()) return;
        for (const std::string& p : {path(name, ".csv"), path(name, ".gp"), path(name, image_extension())})
            check_output_path(p, option_, force_, {plot_signature});
    }

    //! Writes chart `name`: `csv` (a header line, then rows) and the gnuplot `script`, which reads
    //! `name.csv` (comma-separated, the first line its header) and whose output is set before it
    //! runs. Returns the paths written; notes go to `notes` (nullptr: none).
    std::vector<std::string> write(const std::string& name, const std::string& csv, const std::string& script,
                                   std::ostream* notes) const {
        std::vector<std::string> written;
        if (!enabled()) return written;
        const std::vector<std::string> sig{plot_signature};
        const std::string comment = "# " + std::string(plot_signature) + "\n";
        safe_output_file table(path(name, ".csv"), option_, force_, sig);
        table.stream() << comment << csv;
        table.commit();
        written.push_back(table.path());
        safe_output_file gp(path(name, ".gp"), option_, force_, sig);
        gp.stream() << comment << "set datafile separator ','\n"
                    << "if (!exists(\"out\")) out = '" << name << image_extension() << "'\n"
                    << "set terminal " << (terminal_.empty() ? "pngcairo" : terminal_) << " size 960,540\n"
                    << "set output out\n"
                    << "set termoption noenhanced\n" // underscores in labels stay underscores
                    << "set key outside right top\n"
                    << script;
        gp.commit();
        written.push_back(gp.path());
        safe_output_file image(path(name, image_extension()), option_, force_, sig);
        // No chart this time: the earlier run's chart goes too, so that it cannot stand beside
        // the new data.
        auto no_chart = [&](const std::string& note) {
            const bool stale = image.discard_and_remove_target();
            if (notes)
                *notes << note
                       << (stale ? " (the chart of an earlier run, " + image.path() + ", was removed)" : "")
                       << "\n";
            return written;
        };
        if (terminal_.empty())
            return no_chart("gnuplot not found: wrote " + gp.path() + " (run it with gnuplot for the chart)");
        const std::string& tmp = image.temp_path();
        const gnuplot_outcome drawn =
            run_gnuplot(dir_, {"out='" + tmp.substr(tmp.find_last_of('/') + 1) + "'"}, name + ".gp");
        if (!drawn.ok) return no_chart("flashxxl: warning: no chart from " + gp.path() + ": " + drawn.why);
        characterize::stamp_image(tmp, plot_signature);
        image.commit();
        written.push_back(image.path());
        return written;
    }

private:
    //! rmdir of the directory this object made: it fails, harmlessly, unless the directory is empty.
    void remove_if_created() const {
        if (created_) ::rmdir(dir_.c_str());
    }
    std::string image_extension() const { return terminal_ == "svg" ? ".svg" : ".png"; }
    std::string path(const std::string& name, const std::string& ext) const {
        return dir_ + "/" + name + ext;
    }

    std::string dir_, option_;
    bool force_ = false;
    bool created_ = false; // mkdir made the directory
    int exceptions_at_start_ = std::uncaught_exceptions();
    std::string terminal_;
};

//! Text for a single-quoted gnuplot string: a quote is doubled.
inline std::string gnuplot_text(const std::string& s) {
    std::string q;
    for (char c : s)
        q += c == '\'' ? std::string("''") : std::string(1, c);
    return q;
}

//! Quotes a CSV field when it holds a comma or a quote.
inline std::string csv_field(const std::string& s) {
    if (s.find_first_of(",\"") == std::string::npos) return s;
    std::string q = "\"";
    for (char c : s)
        q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
}

} // namespace flashxxl::cli
