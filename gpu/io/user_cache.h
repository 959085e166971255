// SPDX-License-Identifier: MIT
// Where the per-user caches live (the block search's autotune.tsv, the kernel cache's folder): the XDG base
// directory's cache folder, or ~/.cache, under stencilscope/.
#pragma once

#include <string>
#include <string_view>

namespace ss {

// "$XDG_CACHE_HOME/stencilscope/NAME" (a relative XDG_CACHE_HOME is ignored, as the XDG spec says), else
// "$HOME/.cache/stencilscope/NAME" where HOME is an existing folder; "" otherwise (no cache: nothing creates a
// missing HOME).
std::string user_cache_path(std::string_view name);

} // namespace ss
