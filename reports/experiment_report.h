// SPDX-License-Identifier: MIT
// Experiment sweeps as CSV: `stencilscope-cli sweep --csv` writes these rows, the GUI's Experiments
// window writes the same and reads them back (Open results…), so a sweep run headless on a GPU machine
// can be charted and exported as PNG anywhere. Columns in docs/CSV.md. Qt-free.
#pragma once

#include "gpu/studies/experiments.h"
#include "reports/csv.h"

#include <string>
#include <vector>

namespace ss {

CsvRow experiment_csv_header();
std::vector<CsvRow> experiment_csv_rows(
    ExperimentKind, const std::vector<ExperimentPoint>&, const std::string& device, const std::string& timestamp);

// A sweep read back from CSV. Rows of several experiments may share a file (append): `kind` is that of
// the first row, and only rows of that kind are kept.
struct ExperimentTable {
    ExperimentKind kind = ExperimentKind::Radius;
    std::string device, timestamp;
    std::vector<ExperimentPoint> points;
    std::string cut; // non-empty: what the reader left out to keep a chart drawable, in words
};
// What a chart is given at most (a sweep of the app has a handful of series and tens of points).
inline constexpr std::size_t kMaxSweepSeries = 32, kMaxSweepPoints = 4096, kMaxSeriesNameChars = 64;
// Fails with a one-line reason on a missing file, another header or a malformed row (row number given):
// a field that is not a sane value (a rate of 1e308, inf, nan or -5, a block of 0) is refused naming its
// row and column, never charted.
Status read_experiment_csv(const std::string& path, ExperimentTable* out);
// The same for a file's text already read; `name` stands for the file in the messages.
Status parse_experiment_csv(const std::string& text, const std::string& name, ExperimentTable* out);

// RFC 4180 fields of one record; `text` may hold quoted line breaks. Used by read_experiment_csv.
std::vector<CsvRow> parse_csv(const std::string& text, std::string* why);

} // namespace ss
