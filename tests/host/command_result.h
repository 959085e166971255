// SPDX-License-Identifier: MIT
// What the CLI tests read back from a program they ran: its exit code and its two streams.
#pragma once

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace ss::test {

struct Result {
    int code = -1;
    std::string out, err;
};

inline std::string slurp(const std::filesystem::path& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

inline int lines(const std::string& s) {
    return int(std::count(s.begin(), s.end(), '\n'));
}

} // namespace ss::test
