// SPDX-License-Identifier: MIT
// A sweep's time left, measured: the time per completed unit of work so far times the units left. The
// units are unlike (a timed point, an autotune candidate, a cache hit completing many at once) and the
// later points of a sweep are often the slower ones (larger radius, deeper depth), so the estimate takes
// the slower of the whole run's pace and the pace of its last few reports, and counts down between reports.
#pragma once

#include <vector>

namespace ss::gui {

class SweepEta {
public:
    // A report: `done` of `total` units completed at `now_s` seconds since the sweep started.
    void report(int done, int total, double now_s);
    // Seconds left at `now_s` (never below 0); NaN before the first unit is done.
    double seconds_left(double now_s) const;
    void reset() { *this = SweepEta {}; }

    static constexpr int kRecentReports = 3;

private:
    struct Mark {
        int done = 0;
        double seconds = 0.0;
    };
    std::vector<Mark> m_marks; // the start (0 done at 0 s), then each report that completed something
    int m_total = 0;
};

} // namespace ss::gui
