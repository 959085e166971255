// SPDX-License-Identifier: MIT
// An experiment's title as the Experiments window shows it above its charts and in the PNG caption.
#pragma once

#include "gpu/studies/experiments.h"

#include <QString>

namespace ss::gui {

QString kind_title(ExperimentKind);

} // namespace ss::gui
