// SPDX-License-Identifier: MIT
#include "reports/line_diff.h"

#include <algorithm>

namespace ss {
namespace {

// Myers' greedy forward search with the furthest-reaching x of every diagonal kept per edit count, then walked
// back. The common head and tail are cut off first, so two kernel texts that differ in a few places cost little.
void myers(const std::vector<std::string>& a, const std::vector<std::string>& b, int a0, int a1, int b0, int b1,
    std::vector<DiffLine>& out) {
    const int n = a1 - a0, m = b1 - b0, max = n + m, offset = max + 1;
    std::vector<int> v(2 * max + 3, 0);
    std::vector<std::vector<int>> trace;
    int found_d = 0;
    for (int d = 0; d <= max; ++d) {
        trace.push_back(v);
        bool done = false;
        for (int k = -d; k <= d; k += 2) {
            int x = (k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1])) ? v[offset + k + 1]
                                                                                   : v[offset + k - 1] + 1;
            int y = x - k;
            while (x < n && y < m && a[a0 + x] == b[b0 + y]) ++x, ++y;
            v[offset + k] = x;
            if (x >= n && y >= m) {
                done = true;
                break;
            }
        }
        if (done) {
            found_d = d;
            break;
        }
    }
    // Walk back from (n, m), collecting the script in reverse.
    std::vector<DiffLine> reversed;
    int x = n, y = m;
    for (int d = found_d; d > 0; --d) {
        const std::vector<int>& prev = trace[std::size_t(d)];
        const int k = x - y;
        const bool down = k == -d || (k != d && prev[offset + k - 1] < prev[offset + k + 1]);
        const int prev_k = down ? k + 1 : k - 1;
        const int prev_x = prev[offset + prev_k], prev_y = prev_x - prev_k;
        while (x > prev_x && y > prev_y) reversed.push_back({ DiffOp::Same, a0 + --x, b0 + --y });
        if (down)
            reversed.push_back({ DiffOp::Added, -1, b0 + --y });
        else
            reversed.push_back({ DiffOp::Removed, a0 + --x, -1 });
    }
    while (x > 0 && y > 0) reversed.push_back({ DiffOp::Same, a0 + --x, b0 + --y });
    out.insert(out.end(), reversed.rbegin(), reversed.rend());
}

} // namespace

std::vector<std::string> split_lines(const std::string& text) {
    std::vector<std::string> lines;
    std::size_t start = 0;
    while (start < text.size()) {
        const std::size_t end = text.find('\n', start);
        if (end == std::string::npos) {
            lines.push_back(text.substr(start));
            break;
        }
        lines.push_back(text.substr(start, end - start));
        start = end + 1;
    }
    return lines;
}

std::vector<DiffLine> diff_lines(const std::vector<std::string>& left, const std::vector<std::string>& right) {
    std::vector<DiffLine> out;
    int head = 0;
    const int n = int(left.size()), m = int(right.size());
    while (head < n && head < m && left[std::size_t(head)] == right[std::size_t(head)]) ++head;
    int tail = 0;
    while (tail < n - head && tail < m - head && left[std::size_t(n - 1 - tail)] == right[std::size_t(m - 1 - tail)])
        ++tail;
    for (int i = 0; i < head; ++i) out.push_back({ DiffOp::Same, i, i });
    myers(left, right, head, n - tail, head, m - tail, out);
    for (int i = 0; i < tail; ++i) out.push_back({ DiffOp::Same, n - tail + i, m - tail + i });
    // Within each changed stretch, removals first (the walk may interleave them): rows then pair up.
    for (std::size_t i = 0; i < out.size();) {
        std::size_t j = i;
        while (j < out.size() && out[j].op != DiffOp::Same) ++j;
        std::stable_partition(out.begin() + std::ptrdiff_t(i), out.begin() + std::ptrdiff_t(j),
            [](const DiffLine& l) { return l.op == DiffOp::Removed; });
        i = j == i ? i + 1 : j;
    }
    return out;
}

std::vector<DiffRow> side_by_side(const std::vector<DiffLine>& script) {
    std::vector<DiffRow> rows;
    for (std::size_t i = 0; i < script.size();) {
        if (script[i].op == DiffOp::Same) {
            rows.push_back({ script[i].left, script[i].right, false });
            ++i;
            continue;
        }
        std::vector<int> removed, added;
        for (; i < script.size() && script[i].op != DiffOp::Same; ++i)
            (script[i].op == DiffOp::Removed ? removed : added)
                .push_back(script[i].op == DiffOp::Removed ? script[i].left : script[i].right);
        for (std::size_t r = 0; r < std::max(removed.size(), added.size()); ++r) {
            DiffRow row;
            row.left = r < removed.size() ? removed[r] : -1;
            row.right = r < added.size() ? added[r] : -1;
            row.differs = row.left >= 0 && row.right >= 0;
            rows.push_back(row);
        }
    }
    return rows;
}

} // namespace ss
