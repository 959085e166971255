// SPDX-License-Identifier: MIT
#include "reports/request_check.h"

#include "gpu/backends/rank_strip.h"
#include "gpu/io/safe_file.h"
#include "gpu/plan/knobs.h"
#include "gpu/plan/rank_grid_plan.h"
#include "gpu/plan/validation.h"
#include "gpu/problem/physics.h"

#include <sys/stat.h>
#include <unistd.h>

#include <climits>
#include <cstdint>
#include <filesystem>

namespace ss {
namespace {

// The fp64 CPU reference behind --verify holds two fields of doubles: 2^27 cells is 2 GiB.
constexpr std::int64_t kMaxVerifiedCells = std::int64_t(1) << 27;
// Links followed before giving up, as the kernel does (ELOOP).
constexpr int kMaxLinks = 40;

Status cannot_write(const std::string& path, const std::string& why) {
    return Status::failure("cannot write " + quote_for_message(path) + ": " + why);
}

// The limits the write would meet in open(): the whole path, and each name in it.
Status check_lengths(const std::string& path) {
    if (path.size() >= std::size_t(PATH_MAX))
        return cannot_write(path,
            "the path is " + std::to_string(path.size()) + " bytes long; the system allows "
                + std::to_string(PATH_MAX - 1) + " (PATH_MAX)");
    std::size_t start = 0;
    while (start <= path.size()) {
        const std::size_t end = std::min(path.find('/', start), path.size());
        if (end - start > std::size_t(NAME_MAX))
            return cannot_write(path,
                "the name '" + quote_for_message(path.substr(start, end - start)) + "' is "
                    + std::to_string(end - start) + " bytes long; the system allows " + std::to_string(NAME_MAX)
                    + " (NAME_MAX)");
        start = end + 1;
    }
    return Status::success();
}

// What a write through `path` would create: the path itself, or where its chain of symbolic links ends when the
// last link points at nothing (open() with O_CREAT creates that target). Refuses a target in a missing folder.
Status final_target(const std::string& path, std::string& target) {
    namespace fs = std::filesystem;
    target = path;
    for (int links = 0;; ++links) {
        struct stat st { };
        if (::lstat(target.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return Status::success();
        if (::stat(target.c_str(), &st) == 0) return Status::success(); // a link to what exists: written there
        if (links == kMaxLinks) return cannot_write(path, "too many levels of symbolic links");
        std::error_code error;
        const fs::path points_at = fs::read_symlink(target, error);
        if (error) return cannot_write(path, "its symbolic link cannot be read (" + error.message() + ")");
        const fs::path next = points_at.is_absolute() ? points_at : fs::path(target).parent_path() / points_at;
        const fs::path folder = next.has_parent_path() ? next.parent_path() : fs::path(".");
        struct stat folder_status { };
        if (::stat(folder.c_str(), &folder_status) != 0 || !S_ISDIR(folder_status.st_mode))
            return cannot_write(path,
                "it is a symbolic link to " + quote_for_message(points_at.string()) + ", whose folder "
                    + quote_for_message(folder.string()) + " does not exist");
        target = next.string();
        if (Status s = check_lengths(target); !s) return cannot_write(path, "its symbolic link's target: " + s.reason);
    }
}

bool is_stream(const std::string& path) {
    struct stat st { };
    return ::stat(path.c_str(), &st) == 0 && (S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode) || S_ISSOCK(st.st_mode));
}

bool same_stream(int a, int b) {
    struct stat sa {
    }, sb {};
    return ::fstat(a, &sa) == 0 && ::fstat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

// Whether the rows of `o` go to stdout (RowSink's rule: "-", or a path naming what stdout is).
bool rows_take_stdout(const RunOptions& o, int stdout_fd) {
    if (o.json || o.csv == "-") return true;
    if (o.csv.empty()) return false;
    struct stat target {
    }, out {};
    return ::stat(o.csv.c_str(), &target) == 0 && ::fstat(stdout_fd, &out) == 0 && target.st_dev == out.st_dev
        && target.st_ino == out.st_ino;
}

// Bad input that ends a whole command, whatever the other combinations hold.
Status check_one(
    std::string_view command, const RunOptions& o, const DeviceCatalogue& catalogue, bool alone, int ranks) {
    if (command == "bench" && o.steps < 1)
        return Status::failure("bench times steps: --steps 0 would time none (use --steps 1 or more)");
    if (o.verify && ranks > 1)
        return Status::failure("--verify is not available under mpirun: compare run --checksum with a one-process run");
    if (o.verify && updated_cells(o.config) > kMaxVerifiedCells)
        return Status::failure("--verify runs the fp64 CPU reference: use a domain of at most 134M cells");
    if (!o.rank_grid.empty()) { // a grid of one rank runs as one process; another needs as many ranks
        if (Status s = check_rank_grid(o.config, o.rank_grid, ranks); !s) return s;
    } else if (ranks > 1) {
        return check_rank_split(o.config, ranks);
    }
    if (alone) return can_implement(o.config, catalogue);
    return Status::success();
}

} // namespace

Status check_output_path(const std::string& path) {
    if (path.empty()) return Status::failure("cannot write a file without a name");
    if (Status s = check_lengths(path); !s) return s;
    std::string target;
    if (Status s = final_target(path, target); !s) return s;
    if (Status s = check_writable_path(target); !s)
        return target == path ? s : cannot_write(path, "its symbolic link's target: " + s.reason);
    return Status::success();
}

Status check_rows_path(const std::string& path) {
    if (path == "-" || is_stream(path)) return Status::success();
    if (Status s = check_output_path(path); !s)
        return Status::failure(s.reason + " (a CSV is appended to a regular file)");
    return Status::success();
}

Status check_rows_and_report(const RunOptions& o, int stdout_fd, int stderr_fd) {
    if (o.quiet || !rows_take_stdout(o, stdout_fd)) return Status::success();
    if (::isatty(stdout_fd) || !same_stream(stdout_fd, stderr_fd)) return Status::success();
    const std::string rows = o.json ? std::string("--json") : "--csv " + quote_for_message(o.csv);
    return Status::failure(rows + " puts the rows on stdout and the report on stderr, but both are the same stream "
        + "(2>&1): the rows would be mixed with the report; add --quiet, or give --csv a file");
}

Status check_options_apply(const OptionValues& given, const StencilConfig& c) {
    if (c.problem.stencil != StencilKind::Diffusion4) return Status::success();
    for (const char* option : { "--rule", "--radius" })
        if (find_value(given, option))
            return Status::failure(std::string(option)
                + " does not apply to --stencil diffusion4: its fourth-order stencil and update are fixed (drop "
                + option + ")");
    return Status::success();
}

Status check_run_request(
    std::string_view command, const std::vector<RunOptions>& runs, const DeviceCatalogue& catalogue, int ranks) {
    for (std::size_t i = 0; i < runs.size(); ++i)
        if (Status s = check_one(command, runs[i], catalogue, runs.size() == 1, ranks); !s)
            return runs.size() == 1
                ? s
                : Status::failure("combination " + std::to_string(i + 1) + " of " + std::to_string(runs.size()) + " ("
                    + describe(runs[i].config) + "): " + s.reason);
    return Status::success();
}

Status check_sweep_request(const ExperimentSpec& spec, const DeviceCatalogue& catalogue) {
    if (Status s = check_experiment(spec); !s) return s;
    Status first = Status::success();
    for (const StencilConfig& c : experiment_plan(spec)) {
        const Status s = can_implement(c, catalogue);
        if (s) return Status::success();
        if (first) first = s;
    }
    if (first) return first; // an empty plan: check_experiment says why
    return Status::failure("no point of this sweep can run: " + first.reason);
}

Status check_knobs() {
    const std::vector<std::string> invalid = invalid_knobs();
    if (invalid.empty()) return Status::success();
    return Status::failure(invalid.front());
}

} // namespace ss
