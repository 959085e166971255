// SPDX-License-Identifier: MIT
// The hardware-metrics charts: rolling time series (DRAM, local memory) and the warp-stall bar chart.
// Plain Qt Charts views fed by the panel a few times a second; each can save itself as PNG.
#pragma once

#include <QChartView>

#include <QString>
#include <QStringList>
#include <string_view>

#include <vector>

class QLineSeries;
class QValueAxis;
class QHorizontalBarSeries;
class QBarSet;
class QBarCategoryAxis;

namespace ss::gui {

// A metric's one-line explanation with its name, for tooltips.
QString metric_explanation(std::string_view metric);

// A y axis from 0 that a reader can use: `ticks` labels 1, 2 or 5 x 10^k apart, each with the decimals that
// tell them apart ("0, 0.5, 1.0" rather than "0, 1, 1, 1, 0"). Nothing above 0 (no data, or all zero): 0..1.
struct AxisScale {
    double top = 1.0;
    int ticks = 3;
    int decimals = 1;
};
AxisScale nice_axis(double largest);

// The time axis' tick count for a plot `plot_width` pixels wide: every label ("1234") gets room to be read,
// rather than Qt eliding them all to "…" in a narrow chart (per-GPU charts side by side).
int time_axis_ticks(double plot_width);

class TimeSeriesChart : public QChartView {
    Q_OBJECT
public:
    TimeSeriesChart(
        const QString& title, const QString& unit, const QStringList& series_names, QWidget* parent = nullptr);
    // A line of the chart. Lines of one group (one GPU) share a colour; `dashed` tells a pair apart
    // (read/write, load/store) and keeps the line out of the legend, whose one entry per GPU names both.
    // Group -1: the theme's colour.
    struct Line {
        QString name;
        int group = -1;
        bool dashed = false;
    };
    // Replaces the lines; their points are dropped.
    void set_lines(const std::vector<Line>& lines);
    // One point per series at time `t` (seconds); points older than the window scroll out.
    void append(double t, const std::vector<double>& values);
    // One point of one series (the GPUs of a continuous chart report at their own times).
    void append_point(int series, double t, double value);
    // A fixed top of the y axis (e.g. the measured peak); 0: fit the visible data.
    void set_ceiling(double value) { m_ceiling = value; }
    // `label` names the line in the legend; where the legend cannot show every visible entry's label whole (a
    // narrow chart, two GPUs' figures), the entries show `brief` ("GPU 1") and the tooltip the labels.
    void set_series_label(int index, const QString& label, const QString& brief = {});
    bool legend_abbreviated() const { return m_abbreviated; }
    QString hover_text() const; // what the tooltip shows: toolTip(), and the labels where the legend is brief
    void clear();
    int points() const;
    QStringList series_names() const;
    double largest() const; // of the points in the window; 0 when none
    QString axis_labels() const; // the y axis' tick labels, for the tests
    int time_ticks() const; // the time axis' tick count now

protected:
    void resizeEvent(QResizeEvent*) override;
    bool viewportEvent(QEvent*) override;

private:
    void apply_axis(double largest);
    void fit_legend();
    void rescale(double t);

    std::vector<QLineSeries*> m_series;
    std::vector<std::pair<QString, QString>> m_labels; // each series' label and brief label
    bool m_abbreviated = false;
    QValueAxis *m_x = nullptr, *m_y = nullptr;
    double m_window_s = 60.0;
    double m_ceiling = 0.0;
};

// Stall reasons, largest on top; hovering a bar shows what the reason means. A second bar set shows a
// pinned baseline next to the current kernel.
class StallChart : public QChartView {
    Q_OBJECT
public:
    struct Bar {
        QString label, explanation;
        double value = 0.0; // warps stalled per issued instruction
        double baseline = -1.0; // < 0: no baseline
    };
    explicit StallChart(QWidget* parent = nullptr);
    void show_bars(std::vector<Bar> bars, int top = 7); // few enough that each name fits its band
    // Whose stalls these are, appended to the title ("GPU 1"); empty: the title alone.
    void set_subject(const QString& subject);
    void clear();
    QStringList categories() const;

private:
    QHorizontalBarSeries* m_series = nullptr;
    QBarSet *m_current = nullptr, *m_baseline = nullptr;
    QBarCategoryAxis* m_axis = nullptr;
    QValueAxis* m_values = nullptr;
    std::vector<Bar> m_bars; // in chart order, for the hover text
    QString m_title;
};

} // namespace ss::gui
