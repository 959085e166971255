// SPDX-License-Identifier: MIT
// What the CLI tests read back from a program they ran: its exit code and its two streams.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
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

// The test program's own folder, `tag` and the pid under the temporary folder: made empty on first use, removed at
// exit. One per program (the first call's tag names it).
inline const std::filesystem::path& scratch_folder(const std::string& tag) {
    struct Folder {
        std::filesystem::path path;
        ~Folder() {
            std::error_code ignored;
            std::filesystem::remove_all(path, ignored);
        }
    };
    static const Folder folder = [&] {
        Folder f { std::filesystem::temp_directory_path() / (tag + "_" + std::to_string(getpid())) };
        std::filesystem::remove_all(f.path);
        std::filesystem::create_directories(f.path);
        return f;
    }();
    return folder.path;
}

// `line` run by sh in `dir`, its stdout and stderr captured (redirections inside `line` win over the capture).
inline Result run_in(const std::filesystem::path& dir, const std::string& line) {
    const std::filesystem::path out = dir / ".out", err = dir / ".err";
    const std::string command = "cd " + dir.string() + " && { " + line + "; } >" + out.string() + " 2>" + err.string();
    const int status = std::system(command.c_str());
    Result r { WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(out), slurp(err) };
    std::filesystem::remove(out), std::filesystem::remove(err);
    return r;
}

} // namespace ss::test
