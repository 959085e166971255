// SPDX-License-Identifier: MIT
// What every export of the GUI shares: a save dialog that remembers the last directory, CSV files that
// replace the old file only once complete, and PNG grabs of a widget.
#pragma once

#include "gpu/problem/config.h"
#include "session/csv_file.h" // write_csv_file, for the panels that export

#include <QImage>
#include <QString>

#include <vector>

class QWidget;

namespace ss::gui {

// Empty when the user cancels.
QString ask_export_path(QWidget* parent, const QString& title, const QString& file_name, const QString& filter);
// PNG files are complete or not written at all (a failure says why and leaves no empty file).
bool save_png(const QImage& image, const QString& path, QString* why);
// PNG exports carry what they show: one line with the configuration, the device, the iteration and the
// time (UTC), "what" first when given ("DRAM throughput · 2D star R1 base fp32 1024x1024 · NVIDIA H100 ·
// iteration 12000 · 2026-11-24 20:31 UTC"). Shared by the field, chart and sweep exports.
QString caption_for(const StencilConfig&, const QString& device, long long iteration, const QString& what = {});
// The image with `caption` in a strip below it, as wide as the image (the text elided to fit).
QImage with_caption(const QImage&, const QString& caption);
// The widget's pixels, with the caption strip when `caption` is not empty.
bool save_widget_png(QWidget*, const QString& path, QString* why, const QString& caption = {});

} // namespace ss::gui
