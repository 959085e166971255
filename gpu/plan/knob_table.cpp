// SPDX-License-Identifier: MIT
// The table of knobs (gpu/plan/knobs.h): one entry per STENCILSCOPE_* variable, in the order of enum Knob.
#include "gpu/plan/knobs.h"

#include "gpu/problem/cuda_support.h"

#include <array>
#include <limits>

namespace ss {
namespace {

constexpr std::int64_t kNoLimit = std::numeric_limits<std::int64_t>::max();

constexpr std::array<KnobSpec, std::size_t(Knob::Count)> kKnobs { {
    // Tuning knobs: the defaults, and where they were measured (sections of docs/PERFORMANCE.md).
    { .id = Knob::StreamPipe,
        .name = "STENCILSCOPE_STREAM_PIPE",
        .kind = KnobKind::Tuning,
        .type = KnobType::Integer,
        .min = 1,
        .max = 16,
        .default_value = 4,
        .default_text = "4",
        .meaning = "planes the stream kernel fetches ahead (PIPE in gpu/kernels/stream.cuh)",
        .measurement = "8 planes no faster than 4 at 3D R4 CF 2 (61.5 against 62.9 %); docs/PERFORMANCE.md \"Stream "
                       "kernel tuning\"" },
    { .id = Knob::StreamMinBlocks,
        .name = "STENCILSCOPE_STREAM_MIN_BLOCKS",
        .kind = KnobKind::Tuning,
        .type = KnobType::Integer,
        .min = 1,
        .max = 32,
        .default_value = 1,
        .default_text = "1",
        .meaning = "minimum blocks per SM in the stream kernel's launch bounds (caps its registers)",
        .measurement
        = "3 blocks per SM (PIPE 2, 3) no faster at 3D fp64 R16 CF 2 (72.6, 74.8 against 74.1 GCells/s); "
          "docs/PERFORMANCE.md \"Issue 19: fp64 at 3D R16, 1024³\" (2 helps a given 16x12 block at fp32 R16: "
          "\"Against the floors of the engine issue\")" },
    { .id = Knob::StreamLeanAddr,
        .name = "STENCILSCOPE_STREAM_LEAN_ADDR",
        .kind = KnobKind::Tuning,
        .type = KnobType::Flag,
        .min = 0,
        .max = 1,
        .default_value = 0,
        .default_text = "0 (off)",
        .meaning = "1: the 3D forward stream kernel computes its copy and store addresses once per plane (LEAN_ADDR)",
        .measurement = "1-5 % faster in some configurations, 8 % slower at fp32 R16 CF 4; docs/PERFORMANCE.md \"Issue "
                       "19: fp64 at 3D R16, 1024³\"" },
    { .id = Knob::StreamFwd,
        .name = "STENCILSCOPE_STREAM_FWD",
        .kind = KnobKind::Tuning,
        .type = KnobType::Integer,
        .min = 0,
        .max = 2,
        .default_value = -1,
        .default_text = "auto",
        .meaning = "3D stream kernel: 0 gathering, 1 forward (one role), 2 forward (two roles); auto: forward from R2 "
                   "on, two roles where one role's pending sums would spill",
        .measurement = "forward faster at R2..R16 and slower at R1, fp32 and fp64; docs/PERFORMANCE.md \"Stream "
                       "heuristics and fp64 against fp32\", \"Issue 19: 3D R16 past 40 %\"" },
    { .id = Knob::StreamXb,
        .name = "STENCILSCOPE_STREAM_XB",
        .kind = KnobKind::Tuning,
        .type = KnobType::Integer,
        .min = 1,
        .max = 4,
        .powers_of_two = true,
        .default_value = 2,
        .default_text = "2",
        .meaning = "adjacent columns each thread of the 3D forward stream kernel owns (XB)",
        .measurement
        = "2 faster from R2 on; 4 tried and left as a knob; docs/PERFORMANCE.md \"Issue 19: 3D R16 past 40 %\"" },
    { .id = Knob::StreamTc,
        .name = "STENCILSCOPE_STREAM_TC",
        .kind = KnobKind::Tuning,
        .type = KnobType::Integer,
        .min = 0,
        .max = 1,
        .default_value = -1,
        .default_text = "auto",
        .meaning = "fp64 tensor-core stream kernel: 0 off, 1 from R2 on; auto: fp64 CF 1 at an even radius from R10 on",
        .measurement = "R10 86.4 against the forward kernel's 70.7 GCells/s, R8 102.2 against 114.1 (1024³); "
                       "docs/PERFORMANCE.md \"Issue 19: fp64 on the tensor cores\"" },
    { .id = Knob::FixBlock,
        .name = "STENCILSCOPE_FIX_BLOCK",
        .kind = KnobKind::Tuning,
        .type = KnobType::Integer,
        .min = 0,
        .max = 2,
        .default_value = 2,
        .default_text = "2",
        .meaning = "base/smem/smem_padded: 0 generic kernels, the thesis' occupancy search; 1 the same block, the "
                   "kernel compiled for it; 2 the block of occupancy_block, compiled to reach its blocks per SM. "
                   "Point stencils' stream and temporal: 0 generic (one plane in flight), 1-2 compiled for the block",
        .measurement = "3D 1.02-1.54x the thesis' kernels, 2D smem_padded CF 8 R8 at 100 % occupancy instead of 50 %; "
                       "docs/PERFORMANCE.md \"What was slower, why, and what changed\"" },
    { .id = Knob::TemporalAhead,
        .name = "STENCILSCOPE_TEMPORAL_AHEAD",
        .kind = KnobKind::Tuning,
        .type = KnobType::Integer,
        .min = 1,
        .max = 8,
        .default_value = 1,
        .default_text = "1",
        .meaning = "input planes each thread of the temporal kernel loads ahead (the star's and point stencils')",
        .measurement = "2 ahead 30 % slower in 3D, 9 % in 2D; docs/PERFORMANCE.md \"Registers decide the occupancy\"" },
    { .id = Knob::TemporalMinBlocks,
        .name = "STENCILSCOPE_TEMPORAL_MIN_BLOCKS",
        .kind = KnobKind::Tuning,
        .type = KnobType::Integer,
        .min = 1,
        .max = 32,
        .default_value = 0,
        .default_text = "none",
        .meaning = "minimum blocks per SM in the temporal kernels' launch bounds (the star's and point stencils'); "
                   "none: not given, ptxas chooses",
        .measurement = "a minimum of 1 let ptxas take 255 registers and halved the 2D rate; at one row per barrier "
                       "2d9pt fp32 at 48 registers +6.9 %, other point stencils slower capped; docs/PERFORMANCE.md" },
    { .id = Knob::TemporalFastPath,
        .name = "STENCILSCOPE_TEMPORAL_FASTPATH",
        .kind = KnobKind::Tuning,
        .type = KnobType::Flag,
        .min = 0,
        .max = 1,
        .default_value = 1,
        .default_text = "1 (on)",
        .meaning = "temporal tiles clear of the Dirichlet border skip its per-cell test",
        .measurement = "3D 9 % faster (351.6 against 323.8 GCells/s), 2D the same; docs/PERFORMANCE.md \"Temporal "
                       "blocking vs EBISU\"" },
    { .id = Knob::TemporalRows,
        .name = "STENCILSCOPE_TEMPORAL_ROWS",
        .kind = KnobKind::Tuning,
        .type = KnobType::Flag,
        .min = 0,
        .max = 1,
        .default_value = 1,
        .default_text = "1 (on)",
        .meaning
        = "3D temporal: each thread owns CF adjacent rows (inner y neighbours from registers), not rows BY apart",
        .measurement = "3D 351.6 against 338.8 GCells/s; docs/PERFORMANCE.md \"Temporal blocking vs EBISU\"" },
    { .id = Knob::TemporalWaves,
        .name = "STENCILSCOPE_TEMPORAL_WAVES",
        .kind = KnobKind::Tuning,
        .type = KnobType::Integer,
        .min = 1,
        .max = 64,
        .default_value = 0,
        .default_text = "4 (2D), 8 (3D)",
        .meaning = "blocks per resident block slot the temporal grid aims at (chunks along the slow axis)",
        .measurement = "best of 1, 2, 4, 8 (3D 352 GCells/s at 8 against 320 at 4, 2D 752 at 4 against 685 at 2); "
                       "docs/PERFORMANCE.md \"Temporal "
                       "blocking vs EBISU\"" },
    { .id = Knob::TemporalSyncRows,
        .name = "STENCILSCOPE_TEMPORAL_SYNC_ROWS",
        .kind = KnobKind::Tuning,
        .type = KnobType::Integer,
        .min = 1,
        .max = 8,
        .default_value = 0,
        .default_text = "by configuration",
        .meaning
        = "temporal kernels that sum forward: planes (2D: rows) each fused step takes between two barriers; "
          "by configuration: 8 / CF (star's kernel, 2D R1 fp32) or 4 / CF (2D), 2 for the star's 3D R1 at CF 4",
        .measurement = "one H200: 2d5pt fp32 1406.7 GCells/s at 8 rows against 996.1 at 1, fp64 888.0 / 679.2, 2d9pt "
                       "fp32 818.8 / 766.4, 3d7pt fp64 380.3 / 310.8; docs/PERFORMANCE.md \"Rows per barrier\"" },
    { .id = Knob::PointForward,
        .name = "STENCILSCOPE_POINT_FORWARD",
        .kind = KnobKind::Tuning,
        .type = KnobType::Integer,
        .min = 0,
        .max = 2,
        .default_value = 2,
        .default_text = "2 (by shape)",
        .meaning
        = "point stencils' stream kernel: 1 sums forward (each arriving plane's operands loaded once and added "
          "to the 2R+1 output planes' sums in registers, two plane slots in shared memory, not 2R+2), 0 the "
          "shared-memory ring of 2R+2 planes, 2 forward except for 2D stencils of radius 1; their temporal kernel "
          "sums forward unless 0 (then each stage keeps 2R+1 planes in shared memory)",
        .measurement
        = "H100: forward 2D box R2/R3 +5-106 %, 3D box R1 and 3d27pt +10-43 %, poisson's best CF +16 %; "
          "2D box R1 -7-9 % at CF 2/4; temporal 2d9pt fp32 540 -> 683, fp64 316 -> 497; docs/PERFORMANCE.md "
          "\"Forward sums for point stencils\", \"All ten beside EBISU\"" },
    { .id = Knob::PointAxisStar,
        .name = "STENCILSCOPE_POINT_AXIS_STAR",
        .kind = KnobKind::Tuning,
        .type = KnobType::Flag,
        .min = 0,
        .max = 1,
        .default_value = 1,
        .default_text = "1 (on)",
        .meaning = "temporal variant: a point stencil that is a star, every point on an axis (2d5pt, 2ds9pt, 3d7pt, "
                   "3d13pt), runs the star's temporal kernel with its weight per direction, not the point kernel",
        .measurement = "H100, the defaults of the day: 2d5pt fp32 996.4 against 698.1 GCells/s, 3d7pt fp32 320.4 "
                       "against 275.6; docs/PERFORMANCE.md \"EBISU's stars on the star's kernel\"" },
    // Settings.
    { .id = Knob::MpiStageChunk,
        .name = "STENCILSCOPE_MPI_STAGE_CHUNK_KIB",
        .kind = KnobKind::Tuning,
        .type = KnobType::Integer,
        .min = 0,
        .max = 1 << 20,
        .default_value = 1024,
        .default_text = "1024",
        .meaning
        = "MPI ranks staging rows through host memory (overlap on) move them in pieces of this many KiB, the "
          "copy down, the MPI transfer and the copy up of successive pieces at once; 0: the whole halo at once",
        .measurement
        = "two H200s, staged over shared memory: 3D 512^3 R16 28.9 against 21.8 GCells/s whole (exchange 3.6 "
          "against 4.7 ms); elsewhere within the runs' 8 % noise, Open MPI's 7-9.5 GB/s transfer the "
          "bottleneck; docs/PERFORMANCE.md \"Staged in pieces\"" },
    { .id = Knob::CudaLibs,
        .name = kCudaLibsVariable,
        .kind = KnobKind::Setting,
        .type = KnobType::Text,
        .default_text = "system",
        .meaning = "DIR[:DIR...]: the only folders NVRTC and CUPTI are looked for in; system: the library path, then "
                   "/usr/local/cuda and /usr/local/cuda-13.*" },
    { .id = Knob::MpiTimeout,
        .name = "STENCILSCOPE_MPI_TIMEOUT_S",
        .kind = KnobKind::Setting,
        .type = KnobType::Seconds,
        .max = 86400, // a day: a larger value would mean waiting for ever on a rank that died
        .default_value = 60,
        .default_text = "60",
        .meaning = "seconds an MPI rank waits for a neighbour's rows before it ends the job" },
    { .id = Knob::MpiPeerCopies,
        .name = "STENCILSCOPE_MPI_PEER_COPIES",
        .kind = KnobKind::Setting,
        .type = KnobType::Flag,
        .min = 0,
        .max = 1,
        .default_value = 1,
        .default_text = "1 (on)",
        .meaning = "MPI ranks whose neighbours share their node copy their rows (a process grid: its faces) into "
                   "the neighbours' ghost layers (CUDA IPC); 0: MPI moves them (device buffers where it is "
                   "CUDA-aware, else staged through host memory)" },
    { .id = Knob::Raster,
        .name = "STENCILSCOPE_RASTER",
        .kind = KnobKind::Setting,
        .type = KnobType::Text,
        .default_text = "unset",
        .meaning = "any value: the GUI draws the field without OpenGL (a raster image)" },
    // Test hooks: not user options; tests and measurements set them.
    { .id = Knob::StripsPerGpu,
        .name = "STENCILSCOPE_STRIPS_PER_GPU",
        .kind = KnobKind::TestHook,
        .type = KnobType::Integer,
        .min = 1,
        .max = 64,
        .default_value = 1,
        .default_text = "1",
        .meaning = "run, bench and profile cut each GPU's share into N strips: one GPU runs the multi-GPU code paths" },
    { .id = Knob::InjectFaultAfter,
        .name = "STENCILSCOPE_INJECT_FAULT_AFTER",
        .kind = KnobKind::TestHook,
        .type = KnobType::Integer,
        .min = 1,
        .max = kNoLimit,
        .default_value = 0,
        .default_text = "off",
        .meaning = "every simulation created from then on fails its steps once it has run N of them" },
    { .id = Knob::InjectAllocationFailureCells,
        .name = "STENCILSCOPE_INJECT_ALLOCATION_FAILURE_CELLS",
        .kind = KnobKind::TestHook,
        .type = KnobType::Integer,
        .min = 1,
        .max = kNoLimit,
        .default_value = 0,
        .default_text = "off",
        .meaning = "creating a simulation of more than N cells fails as out of memory" },
    { .id = Knob::MpiTestSilentRank,
        .name = "STENCILSCOPE_MPI_TEST_SILENT_RANK",
        .kind = KnobKind::TestHook,
        .type = KnobType::Integer,
        .min = 0,
        .max = kNoLimit,
        .default_value = -1,
        .default_text = "none",
        .meaning = "MPI rank K stops sending its rows (the neighbours' timeout ends the job)" },
    { .id = Knob::MpiTestSilentAfter,
        .name = "STENCILSCOPE_MPI_TEST_SILENT_AFTER",
        .kind = KnobKind::TestHook,
        .type = KnobType::Integer,
        .min = 0,
        .max = kNoLimit,
        .default_value = 0,
        .default_text = "0",
        .meaning = "the silent rank stops sending after N exchanges (0: from the first)" },
    { .id = Knob::LessonRecording,
        .name = "STENCILSCOPE_LESSON_RECORDING",
        .kind = KnobKind::TestHook,
        .type = KnobType::Text,
        .default_text = "the built-in one",
        .meaning = "a lesson recording file (bench/record_lessons.sh's JSON) that the Lesson dock shows instead of the "
                   "one built in: a lesson recorded and shot in one device run (bench/shoot_lessons.sh)" },
    // Diagnostics: work switched off to measure what it costs.
    { .id = Knob::EngineDiag,
        .name = "STENCILSCOPE_ENGINE_DIAG",
        .kind = KnobKind::Diagnostic,
        .type = KnobType::Text,
        .default_text = "unset",
        .meaning = "GUI engine, a comma list: no-slice (the staging keeps its last contents), no-sample (the colour "
                   "range is not read back), no-frame-wait (a frame is handed over before its copy has finished)" },
    { .id = Knob::ViewDiag,
        .name = "STENCILSCOPE_VIEW_DIAG",
        .kind = KnobKind::Diagnostic,
        .type = KnobType::Text,
        .default_text = "unset",
        .meaning = "GUI view: no-upload (draws the last texture again), no-paint (takes frames without drawing them)" },
    { .id = Knob::StallTrace,
        .name = "STENCILSCOPE_STALL_TRACE",
        .kind = KnobKind::Diagnostic,
        .type = KnobType::Text,
        .default_text = "unset",
        .meaning
        = "the soak (--soak-seconds): a file that gets the GUI thread's call stack whenever it stays away from "
          "its event loop for 40 ms (a knob's late frame placed on the GPU machine, where no profiler runs)" },
} };

constexpr bool in_knob_order() {
    for (std::size_t i = 0; i < kKnobs.size(); ++i)
        if (kKnobs[i].id != Knob(i)) return false;
    return true;
}
static_assert(in_knob_order(), "kKnobs lists the knobs in the order of enum Knob");

} // namespace

std::span<const KnobSpec> knob_table() {
    return kKnobs;
}

const KnobSpec& knob_spec(Knob k) {
    return kKnobs[std::size_t(k)];
}

std::string_view to_string(KnobKind k) {
    switch (k) {
    case KnobKind::Tuning:
        return "tuning";
    case KnobKind::Setting:
        return "setting";
    case KnobKind::TestHook:
        return "test hook";
    case KnobKind::Diagnostic:
        return "diagnostic";
    }
    return "?";
}

} // namespace ss
