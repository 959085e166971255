// SPDX-License-Identifier: MIT
// `stencilscope-cli autotune`: time every block of the thesis' space for one configuration, through the
// on-disk cache of block searches. Qt-free.
#pragma once

#include "gpu/studies/autotune_cache.h"
#include "reports/run_options.h"

#include <memory>

namespace ss {

// The cache the options ask for: none with --no-cache, else --cache FILE or the default path (none when
// there is no default: no $HOME). Refuses --cache together with --no-cache, and a directory.
Status open_autotune_cache(const RunOptions&, std::unique_ptr<AutotuneCache>& cache);

// Prints the candidates best first; returns the exit code.
int run_autotune_command(RunOptions, const DeviceCatalogue&);

} // namespace ss
