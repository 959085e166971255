// SPDX-License-Identifier: MIT
// What View > Kernel source shows: the CUDA text the CUDA backend compiles for a configuration (generic, and
// specialised for its block where the plan fixes one), NVRTC's PTX of it and, where the toolkit's disassembler is
// present, the SASS of its cubin; plus the reading aids, the lines the preprocessor keeps and the lines that make the
// variant. Plain C++ without CUDA headers: kernel_listing_text.cpp and kernel_listing_marks.cpp build in every
// configuration, kernel_listing.cpp (NVRTC, the disassembler) in CUDA builds, cpu_only.cpp stands in for it.
#pragma once

#include "gpu/plan/launch_plan.h"

#include <string>
#include <vector>

namespace ss {

// The source texts of one configuration, as the backend writes them (gpu/backends/cuda/kernel_source.h).
struct KernelTexts {
    std::string problem; // why there is no text (the configuration does not run); empty when there is
    std::string about; // what the texts are: the GPU they are for, or what a GPU would compile on the CPU backend
    std::string entry; // the entry point's name (SS_ENTRY)
    int cc_major = 9, cc_minor = 0; // the architecture compiled for
    std::string generic; // kernel_source(plan): compiled without knowing the block
    std::string specialised; // kernel_source(plan, block, blocks per SM) where the plan fixes the block, else empty
    std::string specialised_note; // which block and launch bounds, or why no specialised text is shown
    // The text NVRTC builds for the run: the specialised one where there is one, else the generic one.
    const std::string& compiled() const { return specialised.empty() ? generic : specialised; }
};

// The texts of `plan`'s first kernel plan (a split run's first strip); on the CPU backend, or without a GPU, those of
// one GPU of `plan.device` (the largest GPU's limits where none is present).
KernelTexts kernel_texts(const LaunchPlan& plan);

// The compiled forms of one source text. An empty form comes with the reason.
struct KernelListing {
    std::string architecture; // "sm_90"
    std::string ptx, ptx_problem;
    std::string sass, sass_problem;
    std::string disassembler; // the program that wrote `sass`
};

// NVRTC compiles `source` for compute capability cc_major.cc_minor with the backend's options: its PTX, and the
// cubin's SASS through nvdisasm or cuobjdump (on PATH, else in the CUDA toolkit's bin folders) when `want_sass`.
// Never throws: a missing NVRTC, a compile error or a missing disassembler is a reason.
KernelListing kernel_listing(const std::string& source, int cc_major, int cc_minor, bool want_sass = true);

// What marks a line (marked_lines); the legend names them.
enum class LineMark { None, Knob, SharedTile, Coarsening, TemporalStages, PlaneLoop };
const char* line_mark_name(LineMark);

// One mark per line of `source` (split at '\n'). The rule: in the generated preamble (the lines before the first
// `__global__`), the #defines of R, CF, VARIANT, DEPTH and the block the text is specialised for (SBX, SBY, SBZ, TBX,
// TBY, SMINB, TMINB) are Knob; in the kernel files (gpu/kernels/*.cuh) a line `// ss:mark <name>` opens a region of
// that mark and `// ss:end` closes it (regions nest: the innermost mark wins). Names: "smem tile", "coarsening",
// "temporal stages", "plane loop".
std::vector<LineMark> marked_lines(const std::string& source);

// Which lines of `source` the preprocessor keeps for the configuration its preamble defines: #if, #ifdef, #ifndef,
// #elif, #else and #endif evaluated with the text's own #defines (undefined names are 0, __CUDA_ARCH__ is the
// architecture's), the conditional directives themselves dropped. A reading aid for the diff: what differs between
// two configurations' kernels rather than between two copies of every variant.
std::vector<bool> active_lines(const std::string& source, int cc_major, int cc_minor);

} // namespace ss
