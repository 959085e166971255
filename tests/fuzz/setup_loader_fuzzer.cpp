// SPDX-License-Identifier: MIT
// libFuzzer target for the setup and lesson loader (session/setup_file) and the sweep CSV reader
// (reports/experiment_report, --open-sweep). Whatever the bytes, the loader either refuses them with a
// one-line reason and leaves the setup as it was, or accepts a setup that the window's save writes back in
// a form the loader reads as the same setup; the sweep reader either refuses them in one line or gives
// only figures a chart can draw (finite, 0 or more), bounded tables, and rows that read back the same.
#include "reports/experiment_report.h"
#include "session/setup_file.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

using namespace ss;
using namespace ss::gui;

namespace {

bool same(const SetupState& a, const SetupState& b) {
    return a.settings == b.settings && a.steps_per_frame == b.steps_per_frame && a.colormap == b.colormap
        && a.slice == b.slice && a.title == b.title && a.explanation == b.explanation;
}

// A setup no file gives by accident, to see that a refused file leaves it untouched.
SetupState sentinel() {
    SetupState s;
    s.settings.config.problem.radius = 7;
    s.settings.config.problem.seed = 424242;
    s.steps_per_frame = 3;
    s.title = QStringLiteral("sentinel");
    return s;
}

[[noreturn]] void violated(const char* what, const QString& detail) {
    std::fprintf(stderr, "setup_loader_fuzzer: %s: %s\n", what, detail.toUtf8().constData());
    std::abort();
}

bool drawable(double figure, bool may_be_unmeasured) {
    return (std::isfinite(figure) && figure >= 0) || (may_be_unmeasured && std::isnan(figure));
}

void check_sweep_reader(const std::string& text) {
    ExperimentTable table;
    const Status read = parse_experiment_csv(text, "fuzz.csv", &table);
    if (!read) {
        if (read.reason.empty()) violated("a sweep refused without a reason", {});
        if (read.reason.find('\n') != std::string::npos || read.reason.find('\r') != std::string::npos)
            violated("a sweep's reason is more than one line", QString::fromStdString(read.reason));
        if (read.reason.size() > 400)
            violated("a sweep's reason is longer than 400 characters", QString::fromStdString(read.reason));
        return;
    }
    if (table.points.empty() || table.points.size() > kMaxSweepPoints) violated("a sweep table out of bounds", {});
    for (const ExperimentPoint& p : table.points)
        if (!drawable(p.ms_per_step, false) || !drawable(p.gcells_per_s, false) || !drawable(p.improvement, true)
            || !drawable(p.bottleneck_gbs, true) || !drawable(p.bottleneck_improvement, true)
            || !drawable(p.dram_bytes_per_cell, true))
            violated("a sweep point with a figure no chart can draw", QString::fromStdString(p.series));
    std::string written = csv_line(experiment_csv_header());
    for (const CsvRow& row : experiment_csv_rows(table.kind, table.points, table.device, table.timestamp))
        written += csv_line(row);
    ExperimentTable again;
    if (const Status s = parse_experiment_csv(written, "written.csv", &again); !s)
        violated("a sweep written back does not read back", QString::fromStdString(s.reason));
    if (again.points.size() != table.points.size()) violated("a sweep written back reads back different", {});
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    check_sweep_reader(std::string(reinterpret_cast<const char*>(data), size));
    const QByteArray json = QByteArray::fromRawData(reinterpret_cast<const char*>(data), qsizetype(size));
    RunSettings current; // the hardware a lesson keeps: the CPU backend, as without a GPU
    current.config.placement.backend = Backend::Cpu;

    const SetupState before = sentinel();
    SetupState loaded = before;
    QString why;
    if (!setup_from_json(json, current, loaded, &why)) {
        if (why.isEmpty()) violated("refused without a reason", why);
        if (why.contains(QLatin1Char('\n')) || why.contains(QLatin1Char('\r')))
            violated("the reason is more than one line", why);
        if (why.size() > 400) violated("the reason is longer than 400 characters", why.left(400));
        if (!same(loaded, before)) violated("a refused setup changed the settings", why);
        return 0;
    }
    SetupState reloaded;
    if (!setup_from_json(setup_to_json(loaded), current, reloaded, &why))
        violated("a saved setup does not load back", why);
    if (!same(loaded, reloaded))
        violated("a saved setup loads back different", QString::fromUtf8(setup_to_json(reloaded)));
    return 0;
}
