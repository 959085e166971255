// SPDX-License-Identifier: MIT
// A line diff (Myers' O(ND) shortest edit script) for showing two texts side by side: the kernel source view compares
// the generated CUDA source of two configurations. Qt-free.
#pragma once

#include <string>
#include <vector>

namespace ss {

enum class DiffOp { Same, Removed, Added };

// One line of the edit script: `left` indexes the first text, `right` the second; -1 where the line is absent.
struct DiffLine {
    DiffOp op = DiffOp::Same;
    int left = -1;
    int right = -1;
};

// One row of a side-by-side view: a line of each text (-1: none on that side). A run of removed lines next to a
// run of added ones is paired row by row, so a changed line sits beside its replacement.
struct DiffRow {
    int left = -1;
    int right = -1;
    bool changed() const { return left < 0 || right < 0 || differs; }
    bool differs = false; // both sides hold a line, and they differ
};

// Splits on '\n' (a final newline ends the last line; it opens no empty one).
std::vector<std::string> split_lines(const std::string& text);

// The shortest edit script turning `left` into `right`: every line of both, in order; removals before additions
// where they touch.
std::vector<DiffLine> diff_lines(const std::vector<std::string>& left, const std::vector<std::string>& right);

// The script as side-by-side rows.
std::vector<DiffRow> side_by_side(const std::vector<DiffLine>& script);

} // namespace ss
