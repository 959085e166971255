// SPDX-License-Identifier: MIT
#include "widgets/sweep_eta.h"

#include <algorithm>
#include <cmath>

namespace ss::gui {

void SweepEta::report(int done, int total, double now_s) {
    m_total = total;
    if (m_marks.empty()) m_marks.push_back({ 0, 0.0 });
    if (done > m_marks.back().done) m_marks.push_back({ done, now_s });
}

double SweepEta::seconds_left(double now_s) const {
    if (m_marks.size() < 2) return NAN;
    const Mark& last = m_marks.back();
    const int left = std::max(m_total - last.done, 0);
    const auto pace = [&last](const Mark& from) { return (last.seconds - from.seconds) / (last.done - from.done); };
    const Mark& recent = m_marks[m_marks.size() - 1 - std::min<std::size_t>(kRecentReports, m_marks.size() - 1)];
    const double per_unit = std::max(pace(m_marks.front()), pace(recent));
    // Between reports the estimate counts down rather than standing still, but a slow unit does not take
    // the ones after it along: those still take their pace each.
    const double counted_down = per_unit * left - (now_s - last.seconds);
    return std::max(counted_down, per_unit * std::max(left - 1, 0));
}

} // namespace ss::gui
