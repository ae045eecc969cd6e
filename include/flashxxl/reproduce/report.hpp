// The report of `flashxxl reproduce`: the papers' tables beside ours, as a value with JSON, Markdown and text
// forms.
#pragma once

#include <cmath>
#include <cstdio>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace flashxxl::reproduce {

//! One row of a table: the paper's number beside ours. A missing number (the paper has none
//! for this row, or the run could not be set up) is std::nullopt and null in JSON; the note
//! says why.
struct report_row {
    std::string label;
    std::optional<double> paper;
    std::optional<double> measured;
    std::string note;
    //! True when `paper` is not a figure of the paper (nor a ratio of its figures) but ours,
    //! derived from its figures through our models (its volumes priced on a device model): shown
    //! as "derived" in every form of the report.
    bool paper_derived = false;
    //! measured / paper, when both are there and the paper's is not 0.
    std::optional<double> ratio() const {
        if (!paper || !measured || *paper == 0) return std::nullopt;
        return *measured / *paper;
    }
};

//! One table of a paper, rows in the paper's order of configurations.
struct report_table {
    std::string id;    //!< seeds000_table2_1, seeds001_table2, ... (stable: scripts key on it)
    std::string title; //!< what the paper's table is and what we ran
    std::string unit;  //!< unit of paper and measured (both in the same unit)
    std::vector<report_row> rows;
    std::vector<std::string> notes; //!< scaling, and why numbers cannot match
    double wall_s = 0;              //!< this machine's time for the table
    //! Plot as measured against the paper's (or predicted) column on log-log axes with the
    //! diagonal, instead of grouped bars (the cost-model table: many rows over decades).
    bool scatter = false;
    //! The row labelled `label`, or nullptr.
    const report_row* row(const std::string& label) const {
        for (const report_row& r : rows)
            if (r.label == label) return &r;
        return nullptr;
    }
};

//! The whole report.
struct report {
    std::string mode; //!< tiny, quick or full
    std::vector<report_table> tables;
};

namespace detail {
//! The paper column: the number, marked when it is derived (report_row::paper_derived).
inline std::string format_paper(const report_row& r);
inline nlohmann::json optional_number(const std::optional<double>& v) {
    if (!v || !std::isfinite(*v)) return nullptr;
    return *v;
}
inline std::string format_number(const std::optional<double>& v) {
    if (!v) return "-";
    char buf[64];
    const double a = std::fabs(*v);
    if (a != 0 && (a < 0.01 || a >= 1e6))
        std::snprintf(buf, sizeof buf, "%.3g", *v);
    else if (a >= 100)
        std::snprintf(buf, sizeof buf, "%.1f", *v);
    else
        std::snprintf(buf, sizeof buf, "%.3f", *v);
    return buf;
}
inline std::string format_paper(const report_row& r) {
    return format_number(r.paper) + (r.paper && r.paper_derived ? " (derived)" : "");
}
} // namespace detail

//! {"id", "title", "unit", "rows": [{"label", "paper", "paper_derived", "measured",
//! "ratio_measured_to_paper", "note"}], "notes", "wall_s"}; missing numbers are null.
inline nlohmann::json to_json(const report_table& t) {
    nlohmann::json rows = nlohmann::json::array();
    for (const report_row& r : t.rows)
        rows.push_back({{"label", r.label},
                        {"paper", detail::optional_number(r.paper)},
                        {"paper_derived", r.paper_derived},
                        {"measured", detail::optional_number(r.measured)},
                        {"ratio_measured_to_paper", detail::optional_number(r.ratio())},
                        {"note", r.note}});
    return {{"id", t.id},   {"title", t.title}, {"unit", t.unit},
            {"rows", rows}, {"notes", t.notes}, {"wall_s", t.wall_s}};
}

//! {"mode", "tables": [...]} (the caller adds the run's metadata).
inline nlohmann::json to_json(const report& r) {
    nlohmann::json tables = nlohmann::json::array();
    for (const report_table& t : r.tables)
        tables.push_back(to_json(t));
    return {{"mode", r.mode}, {"tables", tables}};
}

//! One table as Markdown: a heading, | row | paper | ours | ours / paper | note |, the notes.
inline std::string to_markdown(const report_table& t) {
    std::ostringstream s;
    s << "## " << t.title << "\n\n`" << t.id << "`, unit: " << t.unit << "\n\n";
    s << "| row | paper | ours | ours / paper | note |\n|---|---:|---:|---:|---|\n";
    for (const report_row& r : t.rows)
        s << "| " << r.label << " | " << detail::format_paper(r) << " | " << detail::format_number(r.measured)
          << " | " << detail::format_number(r.ratio()) << " | " << r.note << " |\n";
    if (!t.notes.empty()) s << "\n";
    for (const std::string& n : t.notes)
        s << "- " << n << "\n";
    s << "\n";
    return s.str();
}

//! The whole report as Markdown, `header` first (a line saying what ran and where).
inline std::string to_markdown(const report& r, const std::string& header) {
    std::ostringstream s;
    s << "# flashxxl reproduce (" << r.mode << ")\n\n" << header << "\n\n";
    for (const report_table& t : r.tables)
        s << to_markdown(t);
    return s.str();
}

//! One table as plain text for the terminal.
inline std::string to_text(const report_table& t) {
    std::ostringstream s;
    s << t.title << " [" << t.id << ", " << t.unit << "]\n";
    char buf[512];
    std::snprintf(buf, sizeof buf, "  %-44s %12s %12s %9s\n", "row", "paper", "ours", "ours/paper");
    s << buf;
    for (const report_row& r : t.rows) {
        std::snprintf(buf, sizeof buf, "  %-44s %12s %12s %9s", r.label.c_str(),
                      detail::format_paper(r).c_str(), detail::format_number(r.measured).c_str(),
                      detail::format_number(r.ratio()).c_str());
        s << buf;
        if (!r.note.empty()) s << "  " << r.note;
        s << "\n";
    }
    for (const std::string& n : t.notes)
        s << "  note: " << n << "\n";
    return s.str();
}

} // namespace flashxxl::reproduce
