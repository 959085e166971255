// SPDX-License-Identifier: MIT
#include "gpu/io/user_cache.h"

#include <sys/stat.h>

#include <cstdlib>

namespace ss {

std::string user_cache_path(std::string_view name) {
    const char* xdg = std::getenv("XDG_CACHE_HOME");
    if (xdg && *xdg == '/') return std::string(xdg) + "/stencilscope/" + std::string(name);
    // A HOME that does not exist is not made by a cache (issue 36): no cache then, as without HOME.
    const char* home = std::getenv("HOME");
    struct stat st { };
    if (home && *home && ::stat(home, &st) == 0 && S_ISDIR(st.st_mode))
        return std::string(home) + "/.cache/stencilscope/" + std::string(name);
    return "";
}

} // namespace ss
