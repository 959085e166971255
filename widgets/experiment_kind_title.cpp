// SPDX-License-Identifier: MIT
#include "widgets/experiment_kind_title.h"

#include <QObject>

namespace ss::gui {

QString kind_title(ExperimentKind k) {
    switch (k) {
    case ExperimentKind::Radius:
        return QObject::tr("Performance vs radius per variant (thesis fig. 5.1)");
    case ExperimentKind::Coarsening:
        return QObject::tr("Coarsening factor sweep (thesis figs. 5.4/5.5)");
    case ExperimentKind::Autotuned:
        return QObject::tr("Heuristic vs autotuned blocks (thesis fig. 5.6)");
    case ExperimentKind::Depth:
        return QObject::tr("Temporal blocking: performance vs depth (EBISU)");
    }
    return {};
}

} // namespace ss::gui
