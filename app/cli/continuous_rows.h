// SPDX-License-Identifier: MIT
// The CSV rows of `profile --continuous` as the samples arrive (docs/CSV.md, "continuous"), so that an
// interrupted profile keeps every row written so far. A row's timestamp counts GPU time from the start
// of the file's earliest sample, which is known once every GPU has handed over its first samples (each
// GPU's chunks come oldest first): until then, one decode period or two, the chunks wait; afterwards
// each chunk's rows are ready as it arrives. The same rows, in the same order, as when written at the end.
// Qt-free.
#pragma once

#include "gpu/profiler/pm_sampler.h"
#include "reports/csv.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ss {

class ContinuousRows {
public:
    // The sampling GPUs by device index, with the names their rows carry.
    explicit ContinuousRows(std::map<int, std::string> device_names);
    // The rows that can be written now that `chunk` arrived: its own, after those that waited for the
    // origin; none while a GPU has yet to hand over a sample.
    std::vector<CsvRow> add(const PmChunk& chunk);
    // When sampling ended: the rows still waiting (a GPU that never sampled does not hold them back then).
    std::vector<CsvRow> finish();
    // The start of the earliest sample, once fixed (ns, the GPUs' global timer).
    std::optional<std::uint64_t> origin_ns() const { return m_origin; }

private:
    std::vector<CsvRow> release_waiting();

    std::map<int, std::string> m_names;
    std::map<int, std::uint64_t> m_first_start; // the GPUs that have sampled: their first sample's start
    std::vector<PmChunk> m_waiting;
    std::optional<std::uint64_t> m_origin;
};

} // namespace ss
