// SPDX-License-Identifier: MIT
#include "reports/run_options.h"

#include "reports/command_line.h"
#include "reports/stencil_options.h"

#include "gpu/plan/axis_star_plan.h"
#include "gpu/plan/knobs.h"
#include "gpu/plan/launch_policy.h"
#include "gpu/plan/process_grid.h"
#include "gpu/plan/temporal_policy.h"
#include "gpu/plan/validation.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>

namespace ss {
namespace {

// The commands that take the whole configuration.
constexpr std::string_view kConfigured = "run bench profile autotune sweep";
// RunOptionSpec::configuration and ::listable, named.
constexpr bool kConfiguration = true, kCommandOption = false;
constexpr bool kList = true, kSingle = false;

static_assert(kMaxRadius == 16, "--radius's help below says 1..16");
constexpr RunOptionSpec kSpecs[] = {
    // The configuration: the CLI, the GUI and setup files.
    { "--stencil", "NAME",
        "star (thesis), diffusion4 (fourth-order diffusion), box (all (2R+1)^dims points of --radius, weights summing "
        "to 1), or one of EBISU's benchmarks with its coefficients: 2d5pt, 2ds9pt, 2d9pt, 2d25pt, 2d49pt, 3d7pt, "
        "3d13pt, 3d27pt, 3d17pt, poisson (each fixes --dims and --radius) (default star)",
        kConfiguration, kList, kConfigured },
    { "--stencil-file", "FILE",
        "a stencil of your own: JSON {\"dims\": 2, \"points\": [[[dx, dy], weight], ...]} (docs/USER_GUIDE.md, "
        "Stencils); it fixes --dims and --radius",
        kConfiguration, kSingle, kConfigured },
    { "--rule", "thesis|jacobi|wave", "star update rule (default jacobi)", kConfiguration, kList, kConfigured },
    { "--dims", "2|3", "dimensions (default 2)", kConfiguration, kSingle, kConfigured },
    { "--size", "NXxNY[xNZ]", "domain size (default 1024x1024 or 256x256x256)", kConfiguration, kSingle, kConfigured },
    { "--radius", "R", "star radius 1..16 (default 1)", kConfiguration, kList, kConfigured },
    { "--variant", "V",
        "star: base|smem|smem_padded|stream|uncoalesced|temporal (default base); box, EBISU's and file stencils: "
        "base|smem|stream|temporal (default base); diffusion4: naive|merged|notemp|smem (default smem); any stencil: "
        "auto (run, bench and the window: the fastest of a short list of kernels, CFs and depths, "
        "timed on the device and cached like the block search)",
        kConfiguration, kList, kConfigured },
    { "--cf", "1|2|4|8",
        "coarsening factor: cells per thread in x (3D stream, temporal: in y) (default 1; temporal: the star's kernel "
        "4 in 3D, the point kernel 2 and 4 in fp32 3D, measured best on the H100 and an H200)",
        kConfiguration, kList, kConfigured },
    { "--depth", "N",
        "temporal: steps fused per launch, 1..32 (default max(2, 6/R) in 2D, max(1, 4-R) in 3D; the star's kernel 4 "
        "at R1 in 3D and R2 in 2D, the point kernel 2 at R1 in 3D); other variants: 1",
        kConfiguration, kList, kConfigured },
    { "--block", "heuristic|BXxBY[xBZ]",
        "thread-block dims (default heuristic: thesis listing 3.18; stream, temporal and 2D smem: shapes "
        "measured best on the H100); stencilscope-cli refuses a block no GPU could launch, on the CPU backend too",
        kConfiguration, kList, "run bench profile" },
    { "--precision", "fp32|fp64", "(default fp32)", kConfiguration, kList, kConfigured },
    { "--backend", "cuda|cpu", "(default cuda when a device is present, else cpu)", kConfiguration, kSingle,
        kConfigured },
    { "--device", "N", "CUDA device index (default 0)", kConfiguration, kSingle,
        "run bench profile autotune sweep bandwidth roofline" },
    { "--gpus", "N",
        "GPUs to split the domain over, devices --device .. --device+N-1 (default 1): strips along y (2D) or z (3D) "
        "with ghost rows of depth R",
        kConfiguration, kList, kConfigured },
    { "--overlap", "on|off",
        "multi-GPU and mpirun: exchange ghost rows while the interior computes (default on; off with --split along a "
        "faster axis, where it does not apply)",
        kConfiguration, kList, kConfigured },
    { "--split", "x|y|z",
        "multi-GPU: the axis strips are cut along (default the slowest: y in 2D, z in 3D; x is the fastest, "
        "contiguous in memory). x, or y in 3D, gives each GPU a box with strided ghost layers (R columns, or R rows "
        "of every plane) and no overlap",
        kConfiguration, kList, kConfigured },
    { "--halo", "auto|staged|remote",
        "multi-GPU: ghost rows copied peer-to-peer where possible, else through pinned host memory (auto); staged "
        "always goes through the host; remote copies nothing, kernels read the neighbours' memory (peer access, "
        "overlap does not apply) (default auto)",
        kConfiguration, kList, kConfigured },
    { "--init", "gaussian|random|square|hot-edges", "initial field (default random)", kConfiguration, kSingle,
        "run bench profile autotune" },
    { "--seed", "N", "seed of the random field (default 1)", kConfiguration, kSingle, "run bench profile autotune" },
    // The CLI's command options.
    { "--steps", "N", "stencil iterations per run (default 8); profile: unprofiled steps before each profiled launch",
        kCommandOption, kSingle, kConfigured },
    { "--csv", "FILE",
        "append one row per run (header written when FILE is new; an existing FILE must have this command's header: "
        "docs/CSV.md); - is stdout (the report then goes to stderr), and a pipe or FIFO takes the rows too",
        kCommandOption, kSingle, "run bench profile autotune sweep bandwidth roofline" },
    { "--verify", "", "compare with the fp64 CPU reference: relative L2 error < 1e-5 (fp32), 1e-12 (fp64)",
        kCommandOption, kSingle, "run" },
    { "--checksum", "",
        "print a checksum of the final field: any changed bit of any cell changes it, so runs that agree bitwise "
        "(one process, --gpus N, mpirun -np N) print the same one",
        kCommandOption, kSingle, "run" },
    { "--ranks", "PxQ|PxQxR",
        "mpirun: cut the domain into a process grid of P x Q (x R) boxes, P along x, instead of strips along the "
        "slowest axis; the product must be the number of ranks (mpirun -np N); faces are traded axis by axis, edges "
        "and corners included, those along the slowest axis while the rest of the box computes (--overlap on)",
        kCommandOption, kSingle, "run bench" },
    { "--repeats", "N", "timed runs (default 10; sweep: per point, default 5, median; autotune: at most 5)",
        kCommandOption, kSingle, "bench bandwidth autotune sweep" },
    { "--warmup", "N", "untimed runs first (default 2)", kCommandOption, kSingle, "bench" },
    { "--launches", "K",
        "launches to profile, one step each (temporal: one launch of --depth steps; default 3); exit 1 when "
        "counters are unavailable",
        kCommandOption, kSingle, "profile" },
    { "--continuous", "SECONDS",
        "profile: sample the counters that fit one pass continuously (CUPTI PM sampling, no replay) while the "
        "simulation runs batches of --steps steps for SECONDS (0.1..3600); --csv writes the time series "
        "(docs/CSV.md, \"continuous\")",
        kCommandOption, kSingle, "profile" },
    { "--bytes", "B", "bytes to copy, 1 MiB..1 TiB (default 1073741824)", kCommandOption, kSingle, "bandwidth" },
    { "--cache", "FILE",
        "the block-search cache, which --variant auto's tune shares (default "
        "$XDG_CACHE_HOME/stencilscope/autotune.tsv or ~/.cache/stencilscope/autotune.tsv)",
        kCommandOption, kSingle, "autotune sweep run bench" },
    { "--no-cache", "", "search (or tune --variant auto) again and store nothing", kCommandOption, kSingle,
        "autotune sweep run bench" },
    { "--no-kernel-cache", "",
        "build every kernel with NVRTC and keep none on disk (default: built kernels are kept in "
        "$XDG_CACHE_HOME/stencilscope/kernels or ~/.cache/stencilscope/kernels, 256 MiB at most)",
        kCommandOption, kSingle, "run bench profile autotune sweep gui" },
    // sweep's own (app/cli/sweep_command.cpp gives them their meaning)
    { "--experiment", "radius|cf|autotuned|depth",
        "what to sweep (required); with comma lists --radius (default 1,2,4,8,16), --variant (default "
        "base,smem,smem_padded) and --cf (cf, autotuned; default 1,2,4,8). autotuned: per variant the CF 1 heuristic "
        "block and the best CF with autotuned blocks, searched through the autotune cache. depth: the temporal "
        "variant at each --depth (list; default every depth 1..12 in 2D, 1..6 in 3D that the radius allows), "
        "--radius and --cf default 1, and base as the reference",
        kCommandOption, kSingle, "sweep" },
    { "--counters", "on|off",
        "also read the bottleneck with CUPTI, one profiled launch per point: DRAM write GB/s in 2D, local-memory "
        "(spill) GB/s in 3D, and DRAM bytes per cell and step (default off)",
        kCommandOption, kSingle, "sweep" },
    { "--json", "",
        "print the rows on stdout as JSON Lines, one object per row with the CSV's column names (docs/CSV.md): "
        "numbers as numbers, empty fields as null; the report goes to stderr",
        kCommandOption, kSingle, "run bench profile autotune sweep bandwidth roofline devices" },
    { "--quiet", "",
        "no report and no progress: only the rows (--csv, --json) and errors (on stderr); progress is shown only "
        "when stderr is a terminal",
        kCommandOption, kSingle, "run bench profile autotune sweep bandwidth roofline devices", "-q" },
};

// The engine's limit (gpu/plan/validation.cpp, check_problem), checked here as well so that the product of the
// three numbers is never formed when it would wrap: a size is refused as it is read, from the CLI, the GUI
// or a setup file.
constexpr std::int64_t kMaxCells = std::int64_t(1) << 40;
// bandwidth copies between two buffers of --bytes: bounded so that twice the count cannot wrap either.
constexpr std::int64_t kMinCopyBytes = std::int64_t(1) << 20, kMaxCopyBytes = std::int64_t(1) << 40;

// nx * ny * nz <= limit, without forming a product that could wrap (non-positive sizes: left to can_implement).
bool cells_at_most(const Extent& e, std::int64_t limit) {
    std::int64_t cells = 1;
    for (const int n : { e.nx, e.ny, e.nz }) {
        if (n < 1) return true;
        if (cells > limit / n) return false;
        cells *= n;
    }
    return true;
}

template <typename I> std::optional<I> parse_int(const std::string& s) {
    I v {};
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
    return v;
}

Status bad(std::string_view option, const std::string& value, const std::string& expected) {
    return Status::failure(
        "invalid " + std::string(option) + " '" + quote_for_message(value) + "': expected " + expected);
}

// One option's value into `o`; --size, and --variant's default for diffusion4, are done by the caller.
Status apply_one(const std::string& key, const std::string& value, RunOptions& o) {
    StencilConfig& c = o.config;
    if (key == "--verify") {
        o.verify = true;
    } else if (key == "--checksum") {
        o.checksum = true;
    } else if (key == "--quiet") {
        o.quiet = true;
    } else if (key == "--json") {
        o.json = true;
    } else if (key == "--no-cache") {
        o.no_cache = true;
    } else if (key == "--no-kernel-cache") {
        o.no_kernel_cache = true;
    } else if (key == "--cache") {
        if (value.empty()) return bad(key, value, "a file path");
        o.autotune_cache = value;
    } else if (key == "--rule") {
        auto v = parse_rule(value);
        if (!v) return bad(key, value, "thesis, jacobi or wave");
        c.problem.rule = *v;
    } else if (key == "--dims") {
        auto v = parse_int<int>(value);
        if (!v || (*v != 2 && *v != 3)) return bad(key, value, "2 or 3");
        c.problem.dims = *v;
    } else if (key == "--radius") {
        auto v = parse_int<int>(value);
        if (!v || !radius_in_range(*v)) return bad(key, value, "an integer " + radius_range_text());
        c.problem.radius = *v;
    } else if (key == "--variant") {
        auto v = parse_variant(value);
        if (!v)
            return bad(key, value,
                "base, smem, smem_padded, stream, uncoalesced or temporal (star); naive, merged, notemp or smem "
                "(diffusion4); auto");
        c.policy.variant = *v;
    } else if (key == "--cf") {
        auto v = parse_int<int>(value);
        if (!v || (*v != 1 && *v != 2 && *v != 4 && *v != 8)) return bad(key, value, "1, 2, 4 or 8");
        c.policy.cf = *v;
    } else if (key == "--depth") {
        auto v = parse_int<int>(value);
        if (!v || *v < 1 || *v > kMaxTemporalDepth)
            return bad(key, value, "an integer 1.." + std::to_string(kMaxTemporalDepth));
        c.policy.depth = *v;
    } else if (key == "--block") {
        if (value == "heuristic") {
            c.policy.heuristic_block = true;
        } else {
            auto v = parse_block(value);
            if (!v) return bad(key, value, "heuristic or BXxBY[xBZ] with positive integers");
            c.policy.heuristic_block = false;
            c.policy.block = *v;
        }
    } else if (key == "--precision") {
        auto v = parse_precision(value);
        if (!v) return bad(key, value, "fp32 or fp64");
        c.problem.precision = *v;
    } else if (key == "--steps") {
        auto v = parse_int<int>(value);
        if (!v || *v < 0 || *v > 100000000) return bad(key, value, "an integer 0..100000000");
        o.steps = *v;
    } else if (key == "--backend") {
        auto v = parse_backend(value);
        if (!v) return bad(key, value, "cuda or cpu");
        c.placement.backend = *v;
        o.backend_given = true;
    } else if (key == "--device") {
        auto v = parse_int<int>(value);
        if (!v || *v < 0) return bad(key, value, "a device index >= 0");
        c.placement.device = *v;
    } else if (key == "--gpus") {
        auto v = parse_int<int>(value);
        if (!v || *v < 1 || *v > 64) return bad(key, value, "an integer 1..64");
        c.placement.gpus = *v;
    } else if (key == "--overlap") {
        if (value != "on" && value != "off") return bad(key, value, "on or off");
        c.placement.overlap = value == "on";
    } else if (key == "--split") {
        auto v = parse_split(value);
        if (!v || *v == SplitAxis::Slowest) return bad(key, value, "x, y or z");
        c.placement.split = *v;
    } else if (key == "--halo") {
        auto v = parse_halo(value);
        if (!v) return bad(key, value, "auto, staged or remote");
        c.placement.halo = *v;
    } else if (key == "--csv") {
        if (value.empty()) return bad(key, value, "a file path");
        o.csv = value;
    } else if (key == "--init") {
        auto v = parse_initial(value);
        if (!v) return bad(key, value, "gaussian, random, square or hot-edges");
        o.config.problem.initial = *v;
    } else if (key == "--seed") {
        auto v = parse_int<std::uint64_t>(value);
        if (!v) return bad(key, value, "an integer 0..18446744073709551615");
        o.config.problem.seed = *v;
    } else if (key == "--repeats") {
        auto v = parse_int<int>(value);
        if (!v || *v < 1 || *v > 10000) return bad(key, value, "an integer 1..10000");
        o.repeats = *v;
    } else if (key == "--warmup") {
        auto v = parse_int<int>(value);
        if (!v || *v < 0 || *v > 1000) return bad(key, value, "an integer 0..1000");
        o.warmup = *v;
    } else if (key == "--launches") {
        auto v = parse_int<int>(value);
        if (!v || *v < 1 || *v > 1000) return bad(key, value, "an integer 1..1000");
        o.launches = *v;
    } else if (key == "--continuous") {
        char* end = nullptr;
        const double v = std::strtod(value.c_str(), &end);
        if (value.empty() || end != value.c_str() + value.size() || !(v >= 0.1 && v <= 3600.0))
            return bad(key, value, "seconds 0.1..3600");
        o.continuous_seconds = v;
    } else if (key == "--bytes") {
        auto v = parse_int<std::int64_t>(value);
        if (!v || *v < kMinCopyBytes || *v > kMaxCopyBytes)
            return bad(key, value, "a byte count 1048576..1099511627776 (1 MiB..1 TiB)");
        o.bandwidth_bytes = *v;
    }
    return Status::success();
}

} // namespace

std::span<const RunOptionSpec> run_option_specs() {
    return kSpecs;
}

const RunOptionSpec* find_run_option(std::string_view name) {
    for (const RunOptionSpec& s : kSpecs)
        if (s.name == name) return &s;
    return nullptr;
}

bool run_option_applies(const RunOptionSpec& spec, std::string_view command) {
    for (const std::string& c : split_fields(spec.commands, ' '))
        if (c == command) return true;
    return false;
}

std::string commands_text(const RunOptionSpec& spec) {
    std::string out;
    for (const std::string& c : split_fields(spec.commands, ' ')) out += (out.empty() ? "" : ", ") + c;
    return out;
}

const std::string* find_value(const OptionValues& values, std::string_view name) {
    for (const OptionValue& v : values)
        if (v.name == name) return &v.value;
    return nullptr;
}

std::string quote_for_message(std::string_view text) {
    constexpr std::size_t kMaxBytes = 60;
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const auto byte = static_cast<unsigned char>(text[i]);
        const bool continues_a_character = (byte & 0xC0) == 0x80; // UTF-8: never cut inside a character
        if (out.size() >= kMaxBytes && !continues_a_character) return out + "...";
        out += one_line(text.substr(i, 1));
    }
    return out;
}

std::string one_line(std::string_view text) {
    std::string out;
    for (const char ch : text) {
        const auto byte = static_cast<unsigned char>(ch);
        if (byte < 0x20 || byte == 0x7F) {
            char escaped[5];
            std::snprintf(escaped, sizeof escaped, "\\x%02x", byte);
            out += escaped;
        } else {
            out += ch;
        }
    }
    return out;
}

std::string temporal_defaults_origin(const StencilConfig& c) {
    const std::string kernel = temporal_on_star_kernel(c.problem) ? "the star's temporal kernel"
        : c.problem.stencil == StencilKind::Points                ? "the point temporal kernel"
                                                                  : "the temporal kernel";
    return kernel + "'s for " + std::to_string(c.problem.dims) + "D R" + std::to_string(c.problem.radius) + " "
        + std::string(to_string(c.problem.precision))
        + ", the defaults measured on H100 and H200 GPUs (docs/PERFORMANCE.md)";
}

namespace {

// What `run` and `bench` print on their "defaults" line: the temporal CF and depth taken where the command line gave
// none, and where they come from.
std::string temporal_defaults_text(const StencilConfig& c, bool cf, bool depth) {
    const std::string what = cf && depth
        ? "CF " + std::to_string(c.policy.cf) + " and depth " + std::to_string(c.policy.depth)
        : cf ? "CF " + std::to_string(c.policy.cf)
             : "depth " + std::to_string(c.policy.depth);
    return what + ", not given: " + temporal_defaults_origin(c);
}

} // namespace

Status apply_run_options(const OptionValues& values, RunOptions& o) {
    // In the table's order, whatever the command line's: --dims before --size, --stencil before --variant.
    for (const RunOptionSpec& spec : kSpecs)
        if (const std::string* value = find_value(values, spec.name); value && spec.name != "--size")
            if (Status s = apply_one(std::string(spec.name), *value, o); !s) return s;
    StencilConfig& c = o.config;
    if (Status s = apply_stencil_options(values, c); !s) return s; // may set --dims and --radius: before --size
    if (const std::string* size = find_value(values, "--size")) {
        auto e = parse_extent(*size, c.problem.dims);
        if (!e) return bad("--size", *size, c.problem.dims == 3 ? "NXxNYxNZ for --dims 3" : "NXxNY for --dims 2");
        if (!cells_at_most(*e, kMaxCells))
            return bad("--size", *size, "at most 2^40 cells in all (" + std::to_string(kMaxCells) + ")");
        c.problem.size = *e;
    } else {
        c.problem.size = c.problem.dims == 3 ? Extent { 256, 256, 256 } : Extent { 1024, 1024, 1 };
    }
    if (c.placement.split == SplitAxis::Z && c.problem.dims == 2)
        return Status::failure("--split z does not apply to --dims 2: a 2D domain has no z axis (split along x or y)");
    if (!find_value(values, "--overlap") && !splits_slowest(c)) c.placement.overlap = false; // cannot apply
    if (const std::string* grid = find_value(values, "--ranks")) { // its count is checked against the ranks later
        RankGridText parsed = parse_rank_grid(*grid, c.problem.dims);
        if (!parsed.verdict) return Status::failure(one_line(parsed.verdict.reason));
        o.rank_grid = parsed.grid;
    }
    const bool variant_given = find_value(values, "--variant");
    if (!variant_given && !variant_applies(c.problem.stencil, c.policy.variant))
        c.policy.variant = c.problem.stencil == StencilKind::Diffusion4 ? Variant::Smem : Variant::Base;
    if (!variant_applies(c.problem.stencil, c.policy.variant))
        return Status::failure("--variant " + std::string(to_string(c.policy.variant)) + " does not apply to --stencil "
            + std::string(to_string(c.problem.stencil)) + " (it takes "
            + (c.problem.stencil == StencilKind::Star ? "base, smem, smem_padded, stream, uncoalesced or temporal"
                                                      : "naive, merged, notemp or smem")
            + ")");
    if (c.policy.variant == Variant::Auto)
        for (const char* chosen : { "--cf", "--depth", "--block" })
            if (find_value(values, chosen))
                return Status::failure(std::string(chosen) + " does not apply to --variant auto: it chooses the CF, "
                    + "depth and block itself (drop " + chosen + ", or name a variant)");
    if (c.policy.variant == Variant::Temporal) {
        const bool depth_given = find_value(values, "--depth"), cf_given = find_value(values, "--cf");
        if (!depth_given) c.policy.depth = default_temporal_depth(c.problem);
        if (!cf_given) c.policy.cf = default_temporal_cf(c);
        if (!depth_given || !cf_given) o.temporal_defaults = temporal_defaults_text(c, !cf_given, !depth_given);
    }
    if (!c.policy.heuristic_block && c.problem.dims == 2 && c.problem.stencil == StencilKind::Star
        && c.policy.block.z != 1)
        return Status::failure("--block " + format_block(c.policy.block) + " has a z dim but --dims is 2");
    return Status::success();
}

Status refuse_options_not_for(std::string_view command, const OptionValues& values) {
    for (const OptionValue& v : values)
        if (const RunOptionSpec* spec = find_run_option(v.name); spec && !run_option_applies(*spec, command))
            return Status::failure(
                v.name + " does not apply to " + std::string(command) + " (only to " + commands_text(*spec) + ")");
    return Status::success();
}

bool has_option_list(const OptionValues& values) {
    return std::any_of(values.begin(), values.end(), [](const OptionValue& v) {
        const RunOptionSpec* spec = find_run_option(v.name);
        return spec && spec->listable && v.value.find(',') != std::string::npos;
    });
}

Status expand_option_lists(const OptionValues& values, std::vector<OptionValues>& out, std::size_t max_combinations) {
    std::size_t combinations = 1;
    for (const OptionValue& v : values)
        if (has_option_list({ v })) {
            combinations *= split_fields(v.value, ',').size();
            if (combinations > max_combinations)
                return Status::failure("the lists give more than " + std::to_string(max_combinations)
                    + " combinations: split the sweep over several runs");
        }
    out = { {} };
    for (const OptionValue& v : values) {
        if (!has_option_list({ v })) {
            for (OptionValues& combination : out) combination.push_back(v);
            continue;
        }
        std::vector<OptionValues> next;
        for (const OptionValues& prefix : out)
            for (const std::string& item : split_fields(v.value, ',')) {
                next.push_back(prefix);
                next.back().push_back({ v.name, item });
            }
        out = std::move(next);
    }
    return Status::success();
}

Status parse_run_options(const std::vector<std::string>& args, RunOptions& out) {
    CommandLine line;
    line.add_run_options("");
    if (Status s = line.parse(args); !s) return s;
    return apply_run_options(line.values(), out);
}

int strips_per_gpu_from_environment() {
    return int(knob_integer(Knob::StripsPerGpu));
}

} // namespace ss
