// SPDX-License-Identifier: MIT
// stencilscope-cli: headless runs, benchmarks and the copy roofline. Qt-free.
// Exit codes: 0 success, 1 a run failed (CUDA error, verification failed), 2 bad input.
#include "app/cli/address_space.h"
#include "app/cli/auto_variant.h"
#include "app/cli/autotune_command.h"
#include "app/cli/cli_common.h"
#include "app/cli/cli_output.h"
#include "app/cli/continuous_command.h"
#include "app/cli/knobs_command.h"
#include "app/cli/mpi_run.h"
#include "app/cli/profile_command.h"
#include "app/cli/roofline_command.h"
#include "app/cli/sweep_command.h"
#include "gpu/backends/bandwidth.h"
#include "gpu/backends/cpu/cpu_backend.h"
#include "gpu/backends/create_simulation.h"
#include "gpu/backends/rank_strip.h"
#include "gpu/io/kernel_disk_cache.h"
#include "gpu/plan/launch_policy.h"
#include "gpu/problem/cuda_support.h"
#include "gpu/problem/physics.h"
#include "reports/command_line.h"
#include "reports/csv.h"
#include "reports/request_check.h"
#include "reports/run_options.h"
#include "reports/run_report.h"
#include "reports/standard_streams.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <new>
#include <set>
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
  roofline    the roofline's ceilings (DRAM copy, L2, fp32 and fp64 FMA peaks) and ridge points
  profile     hardware counters (CUPTI) of --launches sampled launches, each after --steps
              unprofiled steps: DRAM bytes, spills, caches, occupancy, stalls and a verdict;
              with --gpus N one block (and CSV row) per GPU, then the whole run;
              --continuous SECONDS instead samples the one-pass counters every 100 us while
              the run goes on (no replay) and writes the time series with --csv
  autotune    time every block of the thesis' space (sec. 4.3.2) for one configuration; best first.
              Searches are cached per device model and configuration (--cache FILE, --no-cache)
  sweep       the thesis' studies: --experiment radius (fig. 5.1), cf (figs. 5.4/5.5) or autotuned
              (fig. 5.6), or depth (temporal blocking: GCells/s and DRAM bytes/cell/step against
              --depth); improvement is over base (CF 1, heuristic block) at the same radius
  devices     list CUDA devices, and whether the driver, NVRTC and CUPTI were found
  knobs       the STENCILSCOPE_* environment variables (tuning knobs, settings, test hooks): the value
              in force, default and meaning of each (docs/KNOBS.md)
  help        this text          (also --help; help COMMAND is COMMAND --help; --version prints the
              version and the same CUDA status)

)";

constexpr const char* kMoreHelp = R"(
Throughput counts updated cells (the Dirichlet border of width R is fixed); GB/s assumes the ideal
traffic of 2 x element size per cell (3 x for the wave rule). bench also measures the copy roofline
in the same process and reports the percentage reached. Split over GPUs (--gpus N), run and bench
also print each strip's rows, compute time and GCells/s, and the ghost-row exchange (path, bytes,
time, GB/s), sampled on the last step of every timed run. CSV columns are documented in docs/CSV.md.
Exit status: 0 ok, 1 the run failed or did not verify, or the output could not be written (a full
disk, a closed stdout), 2 invalid input (one line on stderr, before any work starts); 130 Ctrl-C.
)";

constexpr const char* kCommands = "run, bench, profile, autotune, sweep, bandwidth, roofline, devices, knobs, help";

// --help: generated from the parser every command uses (all options, or those `command` takes), so that
// an option cannot be parsed without being listed.
std::string help_text(const std::string& command) {
    CommandLine line;
    line.add_run_options(command);
    std::string lists;
    for (const RunOptionSpec& spec : run_option_specs())
        if (spec.listable) lists += (lists.empty() ? "" : ", ") + std::string(spec.name);
    const bool takes_lists = command.empty() || command == "run" || command == "bench";
    std::string out = command.empty() ? std::string(kUsage) : "Usage: stencilscope-cli " + command + " [OPTIONS]\n\n";
    out += line.help();
    if (takes_lists)
        out += "\n"
            + wrap_text("Lists: run and bench take comma lists for " + lists
                + " (--radius 1,4,16 or --radius=1,4,16) and run every combination in one process (refused ones are "
                  "reported and skipped), e.g. a strong-scaling sweep: --gpus 1,2 --overlap on,off.");
    return out + kMoreHelp;
}

// devices --json: one row per CUDA device, then the CPU backend's.
CsvRow devices_header() {
    return { "index", "name", "backend", "compute_capability", "sm_count", "memory_bytes", "smem_per_block_optin_bytes",
        "pci_bus_id" };
}

int list_devices(const RunOptions& o, const DeviceCatalogue& catalogue) {
    if (Status s = cli::open_outputs(o, devices_header()); !s) return fail(2, s.reason);
    if (!catalogue.has_cuda()) std::cout << "no CUDA device to run kernels on; the CPU backend is available\n";
    std::vector<CsvRow> rows;
    for (const auto& d : catalogue.devices) {
        std::cout << d.index << ": " << d.name << "  sm_" << d.cc_major << d.cc_minor << "  " << d.sm_count << " SMs  "
                  << d.total_memory / (1024 * 1024) << " MiB  smem/block " << d.smem_per_block_optin / 1024 << " KiB  "
                  << d.pci_bus_id << "\n";
        rows.push_back({ std::to_string(d.index), d.name, "cuda",
            std::to_string(d.cc_major) + "." + std::to_string(d.cc_minor), std::to_string(d.sm_count),
            std::to_string(d.total_memory), std::to_string(d.smem_per_block_optin), d.pci_bus_id });
    }
    rows.push_back({ "", cpu_device_name(), "cpu", "", "", "", "", "" });
    std::cout << "\n" << catalogue.cuda_support; // the driver, NVRTC and CUPTI: where, or what to install
    if (o.json) // the rows are the JSON's: devices writes no CSV
        if (Status s = cli::write_rows(rows); !s) return fail(1, s.reason);
    return 0;
}

CsvRow bandwidth_csv_header() {
    return { "timestamp", "device", "bytes_per_copy", "repeats", "ms_per_copy", "copy_gbytes_per_s" };
}

int run_bandwidth(const RunOptions& o, const DeviceCatalogue& catalogue) {
    const auto& devices = catalogue.devices;
    if (devices.empty()) return fail(2, "bandwidth needs a CUDA device (" + catalogue.unavailable + ")");
    if (!catalogue.find(o.config.placement.device))
        return fail(2, "CUDA device " + std::to_string(o.config.placement.device) + " does not exist");
    // Two buffers of --bytes (at most 1 TiB each: the product cannot wrap), refused before any allocation.
    const DeviceInfo& device = *catalogue.find(o.config.placement.device);
    if (2 * o.bandwidth_bytes > device.free_memory)
        return fail(2,
            "the copy needs " + bytes_text(2 * o.bandwidth_bytes) + " of GPU memory (two buffers of --bytes) but "
                + device.name + " has " + bytes_text(device.free_memory) + " free");
    if (Status s = cli::open_outputs(o, bandwidth_csv_header()); !s) return fail(2, s.reason);
    const BandwidthResult r = measure_copy_bandwidth(o.config.placement.device, o.bandwidth_bytes, o.repeats);
    if (!r.error.empty()) return fail(1, "bandwidth measurement failed: " + r.error);
    std::printf("device   %s\ncopy     %.1f MiB, median of %d: %.3f ms\nroofline %.1f GB/s (read + write)\n",
        devices[o.config.placement.device].name.c_str(), r.bytes_per_copy / 1048576.0, o.repeats, r.milliseconds,
        r.gbytes_per_s);
    if (!o.csv.empty()) {
        const CsvRow row { timestamp_now(), devices[o.config.placement.device].name, std::to_string(r.bytes_per_copy),
            std::to_string(o.repeats), format_number(r.milliseconds), format_number(r.gbytes_per_s) };
        if (Status s = cli::write_rows({ row }); !s) return fail(1, s.reason);
    }
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

// Progress over every run (bench: every warm-up and timed run) of every combination of the lists.
struct RunProgress {
    cli::Progress bar;
    int done = 0, total = 0;
    void tick(const std::string& what) { bar.update(++done, total, what); }
};

int run_or_bench(const std::string& command, const RunOptions& requested, const DeviceCatalogue& catalogue,
    FieldCache& cache, bool keep_going, RunProgress& progress) {
    const int units = command == "bench" ? requested.warmup + requested.repeats : 1;
    RunOptions o = requested;
    std::string auto_reason; // --variant auto: resolved here, just before it runs (app/cli/auto_variant.h)
    if (o.config.policy.variant == Variant::Auto) {
        progress.bar.clear();
        const Status s = cli::resolve_auto_variant(
            o, catalogue, cache.get(o.config, o.config.problem.initial, o.config.problem.seed), auto_reason);
        if (!s && !keep_going) return fail(1, s.reason);
        if (!s) {
            progress.done += units;
            std::cout << "failed   " << describe(o.config) << ": " << s.reason << "\n\n";
            return 1;
        }
    }
    // Every input check ran before the first combination (check_before_runs); a list reports and skips what
    // can_implement refuses, as --help says.
    const LaunchPlan plan = make_launch_plan(o.config, catalogue); // resolved once: the check and the engine read it
    if (Status s = plan.verdict; !s) {
        if (!keep_going) return fail(2, s.reason);
        progress.done += units;
        progress.bar.clear();
        std::cout << "refused  " << describe(o.config) << ": " << s.reason << "\n\n";
        return 0;
    }

    RunReport report;
    report.command = command;
    report.options = o;
    report.auto_reason = auto_reason;
    std::string why;
    auto sim = create_simulation(plan, catalogue, &why);
    if (!sim) return fail(1, "cannot create the simulation: " + why);
    report.resources = sim->resources();
    if (o.config.placement.backend == Backend::Cuda) {
        report.device = catalogue.name_of(o.config.placement.device);
        if (command == "bench") { // the roofline `profile` and the GUI use: measured once per process and device
            const CopyRoofline& roofline = measure_copy_roofline(o.config.placement.device);
            report.copy_gbytes_per_s = roofline.gbytes_per_s();
            static std::set<int> told; // a sweep says a reduced roofline once
            if (!roofline.note.empty() && told.insert(o.config.placement.device).second)
                std::cerr << "stencilscope-cli: " << roofline.note << "\n";
        }
    } else {
        report.device = cpu_device_name();
    }
    const std::vector<double>& initial = cache.get(o.config, o.config.problem.initial, o.config.problem.seed);
    try {
        if (command == "run") {
            sim->upload(initial);
            report.ms_per_step.push_back(o.steps ? sim->step(o.steps).milliseconds / o.steps : 0.0);
            progress.tick(describe(o.config));
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
                if (cli::interrupted())
                    return fail(
                        cli::kInterruptedExit, "interrupted: " + describe(o.config) + " did not finish (no row)");
                const StepTiming t = sim->step(std::max(o.steps, 1));
                progress.tick(describe(o.config)
                    + (i < o.warmup ? " warm-up"
                                    : " run " + std::to_string(i - o.warmup + 1) + "/" + std::to_string(o.repeats)));
                if (i < o.warmup) continue;
                report.ms_per_step.push_back(t.milliseconds / t.steps);
                if (strip_count(o.config.placement) > 1) report.strip_stats.push_back(sim->multi_gpu_stats());
            }
        }
    } catch (const std::bad_alloc&) { // say what ran out
        return fail(1, cli::out_of_host_memory_reason());
    } catch (const std::exception& e) {
        return fail(1, std::string("run failed: ") + e.what());
    }
    progress.bar.clear();
    std::cout << format_report(report);
    if (o.checksum) {
        char line[96];
        std::snprintf(line, sizeof line, "checksum %016llx (the field after %d steps)\n",
            (unsigned long long)field_checksum(sim->download()), o.steps);
        std::cout << line;
    }
    std::cout << (keep_going ? "\n" : "");
    std::cout.flush();
    if (Status s = cli::write_rows({ report_csv_row(report) }); !s) return fail(1, s.reason);
    if (report.verified && !report.passed())
        return fail(1, "verification failed: relative L2 error " + format_number(report.rel_l2_error));
    return 0;
}

// Without a usable GPU, run and bench without --backend run on the CPU: resolved for every combination before
// they are checked, saying once why.
void resolve_backends(std::vector<RunOptions>& runs, const DeviceCatalogue& catalogue) {
    if (catalogue.has_cuda()) return;
    bool resolved = false;
    for (RunOptions& o : runs)
        if (!o.backend_given) o.config.placement.backend = Backend::Cpu, resolved = true;
    if (resolved && cuda_driver_status().usable()) // a driver but no usable GPU (e.g. no NVRTC)
        std::cerr << "stencilscope-cli: " << catalogue.unavailable << "; running on the CPU\n";
}

// run and bench: every combination and the outputs, before the first one runs (issue 36): bad input in any
// of them ends the command with nothing run and nothing written.
Status check_before_runs(
    const std::string& command, const std::vector<RunOptions>& runs, const DeviceCatalogue& catalogue) {
    // --variant auto is checked as its stand-in: it is resolved (timed) only when its turn comes.
    if (Status s = check_run_request(command, cli::with_auto_stand_ins(runs), catalogue); !s) return s;
    for (const RunOptions& o : runs)
        if (Status s = cli::check_address_space(cli::host_bytes_for_run(o.config, o.verify)); !s)
            return runs.size() == 1 ? s : Status::failure(describe(o.config) + ": " + s.reason);
    return Status::success();
}

// The options of `command` (not sweep): every combination of its lists (run and bench), each checked
// before anything runs, so that a typo fails fast with nothing written.
Status parse_command_options(
    const std::string& command, const std::vector<std::string>& args, std::vector<RunOptions>& runs) {
    CommandLine line;
    line.add_run_options(command);
    if (Status s = line.parse(args); !s) return s;
    const OptionValues& values = line.values();
    if (command == "autotune" && find_value(values, "--block"))
        return Status::failure("--block does not apply to autotune: it times every block itself");
    if (Status s = refuse_options_not_for(command, values); !s) return s;
    std::vector<OptionValues> combinations { values };
    if (command == "run" || command == "bench") {
        if (Status s = expand_option_lists(values, combinations); !s) return s;
    } else if (has_option_list(values)) {
        return Status::failure(command + " takes one configuration, not lists");
    }
    for (const OptionValues& combination : combinations) {
        RunOptions options;
        if (Status s = apply_run_options(combination, options); !s) return s;
        if (Status s = check_options_apply(values, options.config); !s) return s;
        if (options.no_kernel_cache) set_kernel_disk_cache_enabled(false);
        if (command == "run" || command == "bench" || command == "profile")
            options.config.placement.strips_per_device = strips_per_gpu_from_environment();
        runs.push_back(options);
    }
    return cli::check_auto_request(command, values, runs, ss::cli::launched_ranks() > 1);
}

// Where the rows go (every command's --csv, --json), checked before any work: a path that cannot be written, and
// rows that would be mixed with the report.
Status check_outputs(const RunOptions& o) {
    if (!o.csv.empty())
        if (Status s = check_rows_path(o.csv); !s) return s;
    return check_rows_and_report(o);
}

// The command's exit status, before stdout's writes are checked (main).
int run_command_line(int argc, char** argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty()) return fail(2, std::string("no command given (") + kCommands + "; see --help)");
    // `help COMMAND` is `COMMAND --help`.
    if (args.front() == "help" && args.size() == 2 && args[1] != "help") args = { args[1], "--help" };
    const std::string command = args.front();
    // Under mpirun only run, bench and profile split the domain over the ranks: any other command would do its
    // whole work on every rank (issue 36). Rank 0 says so; the others leave quietly with the same code.
    if (ss::cli::under_mpi_launcher() && command != "run" && command != "bench" && command != "profile")
        return ss::cli::launched_rank() == 0 ? fail(2,
                   "under mpirun only run, bench and profile split the domain over the ranks; start '"
                       + ss::quote_for_message(command) + "' as one process, without mpirun")
                                             : 2;
    if (command == "help" || command == "--help" || command == "-h") {
        if (args.size() > 1) return fail(2, "help takes one command at most (" + std::string(kCommands) + ")");
        std::cout << help_text("") << ss::kCudaLibsHelp;
        return 0;
    }
    if (command == "--version") {
        std::cout << "stencilscope-cli " << STENCILSCOPE_VERSION << "\n" << ss::cuda_support_report();
        return 0;
    }
    if (command == "knobs") return ss::run_knobs_command({ args.begin() + 1, args.end() }); // reads no device
    if (command != "run" && command != "bench" && command != "bandwidth" && command != "devices"
        && command != "autotune" && command != "profile" && command != "sweep" && command != "roofline")
        return fail(2, "unknown command '" + ss::quote_for_message(command) + "' (" + kCommands + ")");
    args.erase(args.begin());
    if (std::find(args.begin(), args.end(), "--help") != args.end()
        || std::find(args.begin(), args.end(), "-h") != args.end()) {
        std::cout << help_text(command) << ss::kCudaLibsHelp;
        return 0;
    }
    // The knobs in force are checked as options are: a value one does not take ends the command before any work.
    if (ss::Status s = ss::check_knobs(); !s) return ss::cli::launched_rank() == 0 ? fail(2, s.reason) : 2;
    // The one query of the machine: every command below gets this catalogue.
    const ss::DeviceCatalogue catalogue = ss::query_device_catalogue();
    if (command == "sweep") { // its lists are the experiment's axes, not combinations to expand
        ss::SweepOptions options;
        if (ss::Status s = ss::parse_sweep_options(args, options, catalogue.has_cuda()); !s) return fail(2, s.reason);
        if (ss::Status s = check_outputs(options.run); !s) return fail(2, s.reason);
        if (ss::Status s = ss::check_sweep_request(options.spec, catalogue); !s) return fail(2, s.reason);
        if (options.run.no_kernel_cache) ss::set_kernel_disk_cache_enabled(false);
        try {
            return ss::run_sweep_command(options, catalogue);
        } catch (const std::bad_alloc&) { // say what ran out
            return fail(1, cli::out_of_host_memory_reason());
        } catch (const std::exception& e) {
            return fail(1, e.what());
        }
    }
    // One rank of several (mpirun -np N): the domain is split over the ranks (app/cli/mpi_run.h).
    if (ss::cli::launched_ranks() > 1) {
        try {
            return ss::cli::run_under_mpi(
                argv, command, args,
                [&](std::vector<ss::RunOptions>& out) { return parse_command_options(command, args, out); }, catalogue);
        } catch (const std::exception& e) {
            return fail(1, e.what());
        }
    }
    std::vector<ss::RunOptions> runs;
    if (ss::Status s = parse_command_options(command, args, runs); !s) return fail(2, s.reason);
    if (ss::Status s = check_outputs(runs.front()); !s) return fail(2, s.reason);
    if (command == "run" || command == "bench") {
        resolve_backends(runs, catalogue);
        if (ss::Status s = check_before_runs(command, runs, catalogue); !s) return fail(2, s.reason);
    }
    try {
        if (command == "devices") return list_devices(runs.front(), catalogue);
        if (command == "bandwidth") return run_bandwidth(runs.front(), catalogue);
        if (command == "roofline") return ss::run_roofline_command(runs.front(), catalogue);
        if (command == "profile")
            return runs.front().continuous_seconds > 0 ? run_continuous_profile(runs.front(), catalogue)
                                                       : run_profile_command(runs.front(), catalogue);
        if (command == "autotune") return run_autotune_command(runs.front(), catalogue);
        // One CSV for every combination: checked once, before the first one runs.
        if (ss::Status s = ss::cli::open_outputs(runs.front(), ss::report_csv_header()); !s) return fail(2, s.reason);
        FieldCache cache;
        int worst = 0;
        // Between runs (and a bench's timed runs), Ctrl-C stops with the rows so far: one run alone ends at once.
        if (command == "bench" || runs.size() > 1) ss::cli::stop_at_interrupt();
        RunProgress progress;
        for (const auto& options : runs) progress.total += command == "bench" ? options.warmup + options.repeats : 1;
        for (const auto& options : runs) {
            if (ss::cli::interrupted()) return ss::cli::kInterruptedExit;
            worst = std::max(worst, run_or_bench(command, options, catalogue, cache, runs.size() > 1, progress));
        }
        return worst;
    } catch (const std::bad_alloc&) { // say what ran out
        return fail(1, cli::out_of_host_memory_reason());
    } catch (const std::exception& e) {
        return fail(1, e.what());
    }
}

} // namespace

int main(int argc, char** argv) {
    ss::hold_closed_standard_streams();
    return ss::finish_stdout(run_command_line(argc, argv), "stencilscope-cli");
}
