// SPDX-License-Identifier: MIT
#include "gpu/io/user_cache.h"

#include <cstdlib>

namespace ss {

std::string user_cache_path(std::string_view name) {
    const char* xdg = std::getenv("XDG_CACHE_HOME");
    if (xdg && *xdg == '/') return std::string(xdg) + "/stencilscope/" + std::string(name);
    const char* home = std::getenv("HOME");
    if (home && *home) return std::string(home) + "/.cache/stencilscope/" + std::string(name);
    return "";
}

} // namespace ss
