// SPDX-License-Identifier: MIT
// stencilscope-cli: headless runs, benchmarks and the copy roofline. Qt-free.
// Exit codes: 0 success, 1 a run failed (CUDA error, verification failed), 2 bad input.
#include "app/cli/autotune_command.h"
#include "app/cli/cli_common.h"
#include "app/cli/sweep_command.h"
#include "gpu/bandwidth.h"
#include "gpu/cpu/cpu_backend.h"
#include "gpu/physics.h"
#include "gpu/profiler/collector.h"
#include "gpu/simulation.h"
#include "reports/csv.h"
#include "reports/profile_report.h"
#include "reports/run_options.h"
#include "reports/run_report.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

namespace {

using namespace ss;
using cli::fail;

constexpr const char* kUsage = R"(Usage: stencilscope-cli COMMAND [OPTIONS]

Commands:
  run         one configuration: time --steps steps, print rates and kernel resources
              (--verify also checks the result against the fp64 CPU reference)
  bench       --warmup untimed runs, then --repeats timed runs of --steps steps; median (CUDA events)
  bandwidth   the device-copy roofline (read + write bytes per second), measured in this process
  profile     hardware counters (CUPTI) of --launches sampled launches, each after --steps
              unprofiled steps: DRAM bytes, spills, caches, occupancy, stalls and a verdict;
              with --gpus N one block (and CSV row) per GPU, then the whole run
  autotune    time every block of the thesis' space (sec. 4.3.2) for one configuration; best first.
              Searches are cached per device model and configuration (--cache FILE, --no-cache)
  sweep       the thesis' studies: --experiment radius (fig. 5.1), cf (figs. 5.4/5.5) or autotuned
              (fig. 5.6); improvement is over base (CF 1, heuristic block) at the same radius
  devices     list CUDA devices
  help        this text          (also --help; --version prints the version)

)";

constexpr const char* kMoreHelp = R"(
Command options:
  --verify       (run) compare with the fp64 CPU reference: relative L2 error < 1e-5 (fp32), 1e-12 (fp64)
  --repeats N    (bench, bandwidth) timed runs (default 10)
  --warmup N     (bench) untimed runs first (default 2)
  --bytes B      (bandwidth) bytes to copy (default 1073741824)
  --launches K   (profile) launches to profile, one step each (default 3); --steps N unprofiled
                 steps run before each (default 8). Exit 1 when counters are unavailable.
  --experiment radius|cf|autotuned   (sweep, required) what to sweep; with comma lists
                 --radius (default 1,2,4,8,16), --variant (default base,smem,smem_padded) and --cf
                 (cf, autotuned; default 1,2,4,8). --steps per timed run (default 8), --repeats timed
                 runs per point (default 5, median). autotuned: per variant the CF 1 heuristic block
                 and the best CF with autotuned blocks, searched through the autotune cache.
  --counters on|off  (sweep) also read the bottleneck with CUPTI, one profiled step per point: DRAM
                 write GB/s in 2D, local-memory (spill) GB/s in 3D (default off)
  Lists: run and bench take comma lists for --rule, --radius, --variant, --cf, --depth, --block, --precision,
  --gpus, --overlap and --halo and run every combination in one process (refused ones are reported
  and skipped), e.g. a strong-scaling sweep: --gpus 1,2 --overlap on,off.

Throughput counts updated cells (the Dirichlet border of width R is fixed); GB/s assumes the ideal
traffic of 2 x element size per cell (3 x for the wave rule). bench also measures the copy roofline
in the same process and reports the percentage reached. Split over GPUs (--gpus N), run and bench
also print each strip's rows, compute time and GCells/s, and the ghost-row exchange (path, bytes,
time, GB/s), sampled on the last step of every timed run. CSV columns are documented in docs/CSV.md.
Exit status: 0 ok, 1 the run failed or did not verify, 2 invalid input (one line on stderr).
)";

int list_devices(const DeviceCatalogue& catalogue) {
    if (!catalogue.has_cuda()) {
        std::cout << "no CUDA device (" << catalogue.unavailable << "); the CPU backend is available\n";
        return 0;
    }
    for (const auto& d : catalogue.devices)
        std::cout << d.index << ": " << d.name << "  sm_" << d.cc_major << d.cc_minor << "  " << d.sm_count << " SMs  "
                  << d.total_memory / (1024 * 1024) << " MiB  smem/block " << d.smem_per_block_optin / 1024 << " KiB  "
                  << d.pci_bus_id << "\n";
    return 0;
}

int run_bandwidth(const RunOptions& o, const DeviceCatalogue& catalogue) {
    const auto& devices = catalogue.devices;
    if (devices.empty()) return fail(2, "bandwidth needs a CUDA device (" + catalogue.unavailable + ")");
    if (!catalogue.find(o.config.placement.device))
        return fail(2, "CUDA device " + std::to_string(o.config.placement.device) + " does not exist");
    if (!o.csv.empty())
        if (Status s = check_csv_path(o.csv); !s) return fail(2, s.reason);
    const BandwidthResult r = measure_copy_bandwidth(o.config.placement.device, o.bandwidth_bytes, o.repeats);
    if (!r.error.empty()) return fail(1, "bandwidth measurement failed: " + r.error);
    std::printf("device   %s\ncopy     %.1f MiB, median of %d: %.3f ms\nroofline %.1f GB/s (read + write)\n",
        devices[o.config.placement.device].name.c_str(), r.bytes_per_copy / 1048576.0, o.repeats, r.milliseconds,
        r.gbytes_per_s);
    if (!o.csv.empty()) {
        const CsvRow header { "timestamp", "device", "bytes_per_copy", "repeats", "ms_per_copy", "copy_gbytes_per_s" };
        const CsvRow row { timestamp_now(), devices[o.config.placement.device].name, std::to_string(r.bytes_per_copy),
            std::to_string(o.repeats), format_number(r.milliseconds), format_number(r.gbytes_per_s) };
        if (Status s = append_csv(o.csv, header, { row }); !s) return fail(1, s.reason);
    }
    return 0;
}

int run_profile(const RunOptions& o, const DeviceCatalogue& catalogue) {
    const StencilConfig& c = o.config;
    if (c.placement.backend == Backend::Cpu) return fail(2, "profile reads GPU counters: use --backend cuda");
    if (!o.csv.empty())
        if (Status s = check_csv_path(o.csv); !s) return fail(2, s.reason);
    const auto& devices = catalogue.devices;
    if (devices.empty()) return fail(1, "GPU counters are unavailable: " + catalogue.unavailable);
    if (!catalogue.find(c.placement.device))
        return fail(2, "CUDA device " + std::to_string(c.placement.device) + " does not exist");
    if (Status s = can_implement(c, catalogue); !s) return fail(2, s.reason);
    std::string why;
    auto sim = create_simulation(c, catalogue, &why);
    if (!sim) return fail(1, "cannot create the simulation: " + why);

    // One report per GPU (one on a single GPU), each against its own GPU's copy roofline, measured
    // before the profiler is attached; then one collector per GPU, created on this thread (collector.h).
    const std::vector<DeviceShare> shares = device_shares(c);
    std::vector<ProfileReport> reports(shares.size());
    std::vector<std::unique_ptr<MetricsCollector>> owned;
    std::vector<MetricsCollector*> collectors;
    for (std::size_t g = 0; g < shares.size(); ++g) {
        const int d = shares[g].device;
        const BandwidthResult bw = measure_copy_bandwidth(d, std::int64_t(1) << 29, 5);
        ProfileReport& report = reports[g];
        report.options = o;
        report.device = devices[std::size_t(d)].name;
        report.resources = sim->resources();
        report.gpu = shares[g];
        report.verdict = { bw.error.empty() ? bw.gbytes_per_s * 1e9 : 0.0,
            double(shares[g].updated_cells) * ideal_bytes_per_cell(c) };
    }
    for (const DeviceShare& share : shares) {
        owned.push_back(create_metrics_collector(share.device, &why));
        if (!owned.back()) return fail(1, shares.size() > 1 ? "GPU " + std::to_string(share.device) + ": " + why : why);
        collectors.push_back(owned.back().get());
        reports[collectors.size() - 1].dropped = owned.back()->dropped_metrics();
    }

    const ProfileReport& first = reports.front();
    const KernelResources& k = first.resources;
    std::printf("config   %s\n", describe(c).c_str());
    const bool split = shares.size() > 1;
    for (const ProfileReport& r : reports) {
        std::printf(
            "device   %s%s", split ? ("GPU " + std::to_string(r.gpu.device) + ": ").c_str() : "", r.device.c_str());
        if (split) std::printf(", rows %d-%d", r.gpu.first_row, r.gpu.end_row - 1);
        if (r.gpu.strips > 1) // STENCILSCOPE_STRIPS_PER_GPU
            std::printf(", %d strips: their counters are this GPU's, counted together", r.gpu.strips);
        std::printf("\n");
    }
    std::printf("kernel   block %s, %d blocks, %d registers/thread, %d B spilled (local), %d B shared/block\n",
        format_block(k.block).c_str(), k.grid_blocks, k.registers, k.local_bytes, k.static_smem + k.dynamic_smem);
    for (const ProfileReport& r : reports)
        std::printf("roofline %s%.1f GB/s device copy%s\n",
            split ? ("GPU " + std::to_string(r.gpu.device) + ": ").c_str() : "", r.verdict.dram_peak_bytes_per_s / 1e9,
            r.verdict.dram_peak_bytes_per_s > 0 ? "" : " (not measured)");
    std::printf("metrics  %zu collected in %d replay passes", collectors.front()->collected_metrics().size(),
        collectors.front()->passes());
    for (std::size_t i = 0; i < first.dropped.size(); ++i)
        std::printf("%s%s", i ? ", " : "; not supported here: ", first.dropped[i].c_str());
    std::printf("\n\n");

    sim->upload(make_initial_field(c, o.config.problem.initial, o.config.problem.seed));
    std::vector<CsvRow> rows;
    std::vector<ProfiledLaunch> per_gpu;
    for (int launch = 1; launch <= o.launches; ++launch) {
        if (o.steps > 0) sim->step(o.steps);
        const long long iteration = sim->iteration() + 1;
        if (!profile_devices(
                collectors, [&sim] { sim->step(1); }, &per_gpu, &why))
            return fail(1, why);
        for (std::size_t g = 0; g < reports.size(); ++g) {
            reports[g].launch = launch;
            reports[g].iteration = iteration;
            reports[g].profiled = per_gpu[g];
            std::cout << format_profile(reports[g]);
            rows.push_back(profile_csv_row(reports[g]));
        }
        if (reports.size() > 1) std::cout << format_profile_all_gpus(reports);
        std::cout.flush();
    }
    if (!o.csv.empty())
        if (Status s = append_csv(o.csv, profile_csv_header(), rows); !s) return fail(1, s.reason);
    return 0;
}

// The initial field of the last size asked for: a sweep over one domain generates it once.
struct FieldCache {
    StencilConfig key;
    InitialCondition initial {};
    std::uint64_t seed = 0;
    std::vector<double> field;
    const std::vector<double>& get(const StencilConfig& c, InitialCondition ic, std::uint64_t s) {
        const bool same = !field.empty() && key.problem.size == c.problem.size && key.problem.dims == c.problem.dims
            && key.problem.stencil == c.problem.stencil
            && (ic != InitialCondition::HotEdges || key.problem.radius == c.problem.radius) && initial == ic
            && seed == s;
        if (!same) {
            field.clear();
            field.shrink_to_fit();
            field = make_initial_field(c, ic, s);
            key = c, initial = ic, seed = s;
        }
        return field;
    }
};

int run_or_bench(
    const std::string& command, RunOptions o, const DeviceCatalogue& catalogue, FieldCache& cache, bool keep_going) {
    if (!o.backend_given && !catalogue.has_cuda()) o.config.placement.backend = Backend::Cpu;
    if (Status s = can_implement(o.config, catalogue); !s) {
        if (!keep_going) return fail(2, s.reason);
        std::cout << "refused  " << describe(o.config) << ": " << s.reason << "\n\n";
        return 0;
    }
    if (o.verify && updated_cells(o.config) > (std::int64_t(1) << 27))
        return fail(2, "--verify runs the fp64 CPU reference: use a domain of at most 134M cells");
    if (!o.csv.empty())
        if (Status s = check_csv_path(o.csv); !s) return fail(2, s.reason);

    RunReport report;
    report.command = command;
    report.options = o;
    std::string why;
    auto sim = create_simulation(o.config, catalogue, &why);
    if (!sim) return fail(1, "cannot create the simulation: " + why);
    report.resources = sim->resources();
    if (o.config.placement.backend == Backend::Cuda) {
        report.device = catalogue.name_of(o.config.placement.device);
        if (command == "bench") {
            static double measured = 0.0; // once per process: a sweep shares it
            static int measured_device = -1;
            if (measured_device != o.config.placement.device) {
                const BandwidthResult bw = measure_copy_bandwidth(o.config.placement.device, std::int64_t(1) << 30, 10);
                measured = bw.error.empty() ? bw.gbytes_per_s : 0.0;
                measured_device = o.config.placement.device;
            }
            report.copy_gbytes_per_s = measured;
        }
    } else {
        report.device = "CPU";
    }
    const std::vector<double>& initial = cache.get(o.config, o.config.problem.initial, o.config.problem.seed);
    try {
        if (command == "run") {
            sim->upload(initial);
            report.ms_per_step.push_back(o.steps ? sim->step(o.steps).milliseconds / o.steps : 0.0);
            if (o.steps && strip_count(o.config.placement) > 1) report.strip_stats.push_back(sim->multi_gpu_stats());
            if (o.verify) {
                // The reference starts from the values the GPU really holds (rounded to its precision).
                sim->upload(initial);
                const std::vector<double> start = sim->download();
                sim->step(o.steps);
                report.rel_l2_error = relative_l2_error(sim->download(), cpu_reference(o.config, start, o.steps));
                report.verified = true;
            }
        } else {
            sim->upload(initial);
            for (int i = 0; i < o.warmup + o.repeats; ++i) {
                const StepTiming t = sim->step(std::max(o.steps, 1));
                if (i < o.warmup) continue;
                report.ms_per_step.push_back(t.milliseconds / t.steps);
                if (strip_count(o.config.placement) > 1) report.strip_stats.push_back(sim->multi_gpu_stats());
            }
        }
    } catch (const std::exception& e) {
        return fail(1, std::string("run failed: ") + e.what());
    }
    std::cout << format_report(report) << (keep_going ? "\n" : "");
    std::cout.flush();
    if (!o.csv.empty())
        if (Status s = append_csv(o.csv, report_csv_header(), { report_csv_row(report) }); !s) return fail(1, s.reason);
    if (report.verified && !report.passed())
        return fail(1, "verification failed: relative L2 error " + format_number(report.rel_l2_error));
    return 0;
}

// bench/run accept comma lists for --rule, --radius, --variant, --cf, --depth, --block, --precision, --gpus,
// --overlap and --halo and run their product in one process: e.g. --radius 1,2,4,8,16 --variant base,stream.
// A product beyond kMaxCombinations is refused before it is built (it would exhaust memory first).
constexpr std::size_t kMaxCombinations = 10000;

Status expand_lists(const std::vector<std::string>& args, std::vector<std::vector<std::string>>& out) {
    static const std::string listable[] = { "--rule", "--radius", "--variant", "--cf", "--depth", "--block",
        "--precision", "--gpus", "--overlap", "--halo" };
    auto is_list = [&](std::size_t i) {
        return std::find(std::begin(listable), std::end(listable), args[i]) != std::end(listable) && i + 1 < args.size()
            && args[i + 1].find(',') != std::string::npos;
    };
    auto items = [](const std::string& list) { return split_fields(list, ','); };
    std::size_t combinations = 1;
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (!is_list(i)) continue;
        combinations *= std::max<std::size_t>(items(args[++i]).size(), 1);
        if (combinations > kMaxCombinations)
            return Status::failure("the lists give more than " + std::to_string(kMaxCombinations)
                + " combinations: split the sweep over several runs");
    }
    out = { {} };
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (!is_list(i)) {
            for (auto& v : out) v.push_back(a);
            continue;
        }
        const std::vector<std::string> values = items(args[++i]);
        std::vector<std::vector<std::string>> next;
        for (const auto& prefix : out)
            for (const auto& value : values) {
                next.push_back(prefix);
                next.back().push_back(a);
                next.back().push_back(value);
            }
        out = std::move(next);
    }
    return Status::success();
}

} // namespace

int main(int argc, char** argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty()) {
        std::cerr << kUsage;
        return 2;
    }
    const std::string command = args.front();
    if (command == "help" || command == "--help" || command == "-h") {
        std::cout << kUsage << ss::run_options_help() << kMoreHelp;
        return 0;
    }
    if (command == "--version") {
        std::cout << "stencilscope-cli " << STENCILSCOPE_VERSION << "\n";
        return 0;
    }
    if (command != "run" && command != "bench" && command != "bandwidth" && command != "devices"
        && command != "autotune" && command != "profile" && command != "sweep")
        return fail(2,
            "unknown command '" + ss::quote_for_message(command)
                + "' (run, bench, profile, autotune, sweep, bandwidth, devices, help)");
    args.erase(args.begin());
    if (std::find(args.begin(), args.end(), "--help") != args.end()) {
        std::cout << kUsage << ss::run_options_help() << kMoreHelp;
        return 0;
    }
    // The one query of the machine: every command below gets this catalogue.
    const ss::DeviceCatalogue catalogue = ss::query_device_catalogue();
    if (command == "sweep") { // its lists are the experiment's axes, not combinations to expand
        ss::SweepOptions options;
        if (ss::Status s = ss::parse_sweep_options(args, options, catalogue.has_cuda()); !s) return fail(2, s.reason);
        try {
            return ss::run_sweep_command(options, catalogue);
        } catch (const std::exception& e) {
            return fail(1, e.what());
        }
    }
    // Every combination is parsed before anything runs: a typo fails fast, with nothing written.
    std::vector<std::vector<std::string>> combinations;
    if (ss::Status s = expand_lists(args, combinations); !s) return fail(2, s.reason);
    std::vector<ss::RunOptions> runs;
    for (const auto& combination : combinations) {
        ss::RunOptions options;
        if (ss::Status s = ss::parse_run_options(combination, options); !s) return fail(2, s.reason);
        if (command == "run" || command == "bench" || command == "profile")
            options.config.placement.strips_per_device = strips_per_gpu_from_environment();
        runs.push_back(options);
    }
    try {
        if (command == "devices") return list_devices(catalogue);
        if (command == "bandwidth") return run_bandwidth(runs.front(), catalogue);
        if (command == "profile") {
            if (runs.size() != 1) return fail(2, "profile takes one configuration, not lists");
            return run_profile(runs.front(), catalogue);
        }
        if (command == "autotune") {
            if (runs.size() != 1) return fail(2, "autotune takes one configuration, not lists");
            return run_autotune_command(runs.front(), catalogue);
        }
        FieldCache cache;
        int worst = 0;
        for (const auto& options : runs)
            worst = std::max(worst, run_or_bench(command, options, catalogue, cache, runs.size() > 1));
        return worst;
    } catch (const std::exception& e) {
        return fail(1, e.what());
    }
}
