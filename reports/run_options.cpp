// SPDX-License-Identifier: MIT
#include "reports/run_options.h"

#include "gpu/temporal_policy.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <optional>

namespace ss {
namespace {

template <typename I> std::optional<I> parse_int(const std::string& s) {
    I v {};
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
    return v;
}

Status bad(const std::string& option, const std::string& value, const std::string& expected) {
    return Status::failure("invalid value '" + quote_for_message(value) + "' for " + option + ": expected " + expected);
}

} // namespace

std::string quote_for_message(std::string_view text) {
    constexpr std::size_t kMaxBytes = 60;
    std::string out;
    for (const char ch : text) {
        const auto byte = static_cast<unsigned char>(ch);
        const bool continues_a_character = (byte & 0xC0) == 0x80; // UTF-8: never cut inside a character
        if (out.size() >= kMaxBytes && !continues_a_character) return out + "...";
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

Status parse_run_options(const std::vector<std::string>& args, RunOptions& o, std::vector<std::string>* rest) {
    std::string size_text, block_text;
    bool size_given = false, depth_given = false;
    for (std::size_t i = 0; i < args.size(); ++i) {
        std::string key = args[i], value;
        if (key.rfind("--", 0) != 0) {
            if (rest) {
                rest->push_back(key);
                continue;
            }
            return Status::failure("unexpected argument '" + quote_for_message(key) + "'");
        }
        const auto eq = key.find('=');
        const bool is_flag = key == "--verify" || key == "--no-cache";
        if (eq != std::string::npos) {
            value = key.substr(eq + 1);
            key = key.substr(0, eq);
        } else if (!is_flag) {
            const bool known = key == "--stencil" || key == "--rule" || key == "--dims" || key == "--size"
                || key == "--radius" || key == "--variant" || key == "--cf" || key == "--depth" || key == "--block"
                || key == "--precision" || key == "--steps" || key == "--backend" || key == "--device"
                || key == "--gpus" || key == "--csv" || key == "--init" || key == "--seed" || key == "--repeats"
                || key == "--warmup" || key == "--bytes" || key == "--launches" || key == "--overlap" || key == "--halo"
                || key == "--cache";
            if (!known) {
                if (rest) {
                    rest->push_back(args[i]);
                    continue;
                }
                return Status::failure("unknown option " + quote_for_message(key) + " (see --help)");
            }
            if (i + 1 >= args.size()) return Status::failure("option " + key + " needs a value");
            value = args[++i];
        }
        StencilConfig& c = o.config;
        if (key == "--verify") {
            o.verify = true;
        } else if (key == "--no-cache") {
            o.no_cache = true;
        } else if (key == "--cache") {
            if (value.empty()) return bad(key, value, "a file path");
            o.autotune_cache = value;
        } else if (key == "--stencil") {
            auto v = parse_stencil(value);
            if (!v) return bad(key, value, "star or diffusion4");
            c.problem.stencil = *v;
            if (c.problem.stencil == StencilKind::Diffusion4 && !variant_applies(c.problem.stencil, c.policy.variant))
                c.policy.variant = Variant::Smem;
        } else if (key == "--rule") {
            auto v = parse_rule(value);
            if (!v) return bad(key, value, "thesis, jacobi or wave");
            c.problem.rule = *v;
        } else if (key == "--dims") {
            auto v = parse_int<int>(value);
            if (!v || (*v != 2 && *v != 3)) return bad(key, value, "2 or 3");
            c.problem.dims = *v;
        } else if (key == "--size") {
            size_text = value;
            size_given = true;
        } else if (key == "--radius") {
            auto v = parse_int<int>(value);
            if (!v || *v < 1 || *v > 16) return bad(key, value, "an integer 1..16");
            c.problem.radius = *v;
        } else if (key == "--variant") {
            auto v = parse_variant(value);
            if (!v)
                return bad(key, value,
                    "base, smem, smem_padded, stream, uncoalesced or temporal (star); naive, merged, notemp or smem "
                    "(diffusion4)");
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
            depth_given = true;
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
        } else if (key == "--halo") {
            auto v = parse_halo(value);
            if (!v) return bad(key, value, "auto or staged");
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
            if (!v) return bad(key, value, "a non-negative integer");
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
        } else if (key == "--bytes") {
            auto v = parse_int<std::int64_t>(value);
            if (!v || *v < (1 << 20)) return bad(key, value, "a byte count of at least 1048576");
            o.bandwidth_bytes = *v;
        } else if (rest) {
            rest->push_back(args[i]);
        } else {
            return Status::failure("unknown option " + quote_for_message(key) + " (see --help)");
        }
    }
    StencilConfig& c = o.config;
    if (size_given) {
        auto e = parse_extent(size_text, c.problem.dims);
        if (!e) return bad("--size", size_text, c.problem.dims == 3 ? "NXxNYxNZ for --dims 3" : "NXxNY for --dims 2");
        c.problem.size = *e;
    } else {
        c.problem.size = c.problem.dims == 3 ? Extent { 256, 256, 256 } : Extent { 1024, 1024, 1 };
    }
    if (c.policy.variant == Variant::Temporal && !depth_given) c.policy.depth = default_temporal_depth(c.problem);
    if (!c.policy.heuristic_block && c.problem.dims == 2 && c.problem.stencil == StencilKind::Star
        && c.policy.block.z != 1)
        return Status::failure("--block " + format_block(c.policy.block) + " has a z dim but --dims is 2");
    if (!variant_applies(c.problem.stencil, c.policy.variant))
        return Status::failure("--variant " + std::string(to_string(c.policy.variant)) + " does not apply to --stencil "
            + std::string(to_string(c.problem.stencil)));
    return Status::success();
}

int strips_per_gpu_from_environment() {
    const char* env = std::getenv("STENCILSCOPE_STRIPS_PER_GPU");
    return std::clamp(env ? std::atoi(env) : 1, 1, 64);
}

std::string run_options_help() {
    return R"(Configuration options (NAME VALUE or NAME=VALUE):
  --stencil star|diffusion4     star stencil (thesis) or fourth-order diffusion (default star)
  --rule thesis|jacobi|wave     star update rule (default jacobi)
  --dims 2|3                    dimensions (default 2)
  --size NXxNY[xNZ]             domain size (default 1024x1024 or 256x256x256)
  --radius R                    star radius 1..16 (default 1)
  --variant V                   star: base|smem|smem_padded|stream|uncoalesced|temporal; diffusion4: naive|merged|notemp|smem
  --cf 1|2|4|8                  coarsening factor: cells per thread in x (3D stream, temporal: in y) (default 1)
  --depth N                     temporal: steps fused per launch, 1..32 (default max(2, 6/R) in 2D,
                                max(1, 4-R) in 3D); other variants: 1
  --block heuristic|BXxBY[xBZ]  thread-block dims (default heuristic: thesis listing 3.18)
  --precision fp32|fp64         (default fp32)
  --steps N                     stencil iterations per run (default 8)
  --backend cuda|cpu            (default cuda when a device is present, else cpu)
  --device N                    CUDA device index (default 0)
  --gpus N                      GPUs to split the domain over, devices --device .. --device+N-1 (default 1):
                                strips along y (2D) or z (3D) with ghost rows of depth R
  --overlap on|off              multi-GPU: exchange ghost rows while the interior computes (default on)
  --halo auto|staged            multi-GPU: peer-to-peer where possible, else through pinned host memory
                                (auto); staged always goes through the host (default auto)
  --init gaussian|random|square|hot-edges   initial field (default random)
  --seed N                      seed of the random field (default 1)
  --csv FILE                    append one row per run (header written when FILE is new)
  --cache FILE                  autotune, sweep: the block-search cache (default
                                $XDG_CACHE_HOME/stencilscope/autotune.tsv or ~/.cache/stencilscope/autotune.tsv)
  --no-cache                    autotune, sweep: search again and store nothing
)";
}

} // namespace ss
