// SPDX-License-Identifier: MIT
// NVRTC and CUPTI, loaded at run time with dlopen instead of linked: a machine without the CUDA toolkit
// (or without NVIDIA's driver) starts both programs and runs the CPU backend. Each library is looked up
// once per process, thread-safe: with STENCILSCOPE_CUDA_LIBS set, only in its folders; else by soname
// (LD_LIBRARY_PATH, the ld cache) and then in the toolkit's usual folders. Compiled against the toolkit's
// headers, so the function types are checked; the tables list every function the engine calls.
#pragma once

#include "gpu/problem/cuda_support.h"

#include <cupti_pmsampling.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_result.h>
#include <cupti_target.h>
#include <nvrtc.h>

#include <string>
#include <vector>

namespace ss {

#define SS_NVRTC_FUNCTIONS(X)                                                                                          \
    X(nvrtcVersion)                                                                                                    \
    X(nvrtcGetErrorString)                                                                                             \
    X(nvrtcGetNumSupportedArchs)                                                                                       \
    X(nvrtcGetSupportedArchs)                                                                                          \
    X(nvrtcCreateProgram)                                                                                              \
    X(nvrtcCompileProgram)                                                                                             \
    X(nvrtcDestroyProgram)                                                                                             \
    X(nvrtcGetProgramLogSize)                                                                                          \
    X(nvrtcGetProgramLog)                                                                                              \
    X(nvrtcGetCUBINSize)                                                                                               \
    X(nvrtcGetCUBIN)                                                                                                   \
    X(nvrtcGetPTXSize)                                                                                                 \
    X(nvrtcGetPTX)

#define SS_CUPTI_FUNCTIONS(X)                                                                                          \
    X(cuptiGetResultString)                                                                                            \
    X(cuptiProfilerInitialize)                                                                                         \
    X(cuptiProfilerDeviceSupported)                                                                                    \
    X(cuptiProfilerGetCounterAvailability)                                                                             \
    X(cuptiDeviceGetChipName)                                                                                          \
    X(cuptiProfilerHostInitialize)                                                                                     \
    X(cuptiProfilerHostDeinitialize)                                                                                   \
    X(cuptiProfilerHostGetMetricProperties)                                                                            \
    X(cuptiProfilerHostConfigAddMetrics)                                                                               \
    X(cuptiProfilerHostGetConfigImageSize)                                                                             \
    X(cuptiProfilerHostGetConfigImage)                                                                                 \
    X(cuptiProfilerHostGetNumOfPasses)                                                                                 \
    X(cuptiProfilerHostEvaluateToGpuValues)                                                                            \
    X(cuptiRangeProfilerEnable)                                                                                        \
    X(cuptiRangeProfilerDisable)                                                                                       \
    X(cuptiRangeProfilerGetCounterDataSize)                                                                            \
    X(cuptiRangeProfilerCounterDataImageInitialize)                                                                    \
    X(cuptiRangeProfilerSetConfig)                                                                                     \
    X(cuptiRangeProfilerStart)                                                                                         \
    X(cuptiRangeProfilerStop)                                                                                          \
    X(cuptiRangeProfilerDecodeData)                                                                                    \
    X(cuptiRangeProfilerGetCounterDataInfo)                                                                            \
    X(cuptiPmSamplingEnable)                                                                                           \
    X(cuptiPmSamplingDisable)                                                                                          \
    X(cuptiPmSamplingSetConfig)                                                                                        \
    X(cuptiPmSamplingStart)                                                                                            \
    X(cuptiPmSamplingStop)                                                                                             \
    X(cuptiPmSamplingDecodeData)                                                                                       \
    X(cuptiPmSamplingGetCounterAvailability)                                                                           \
    X(cuptiPmSamplingGetCounterDataSize)                                                                               \
    X(cuptiPmSamplingCounterDataImageInitialize)                                                                       \
    X(cuptiPmSamplingGetCounterDataInfo)                                                                               \
    X(cuptiPmSamplingCounterDataGetSampleInfo)

// Members named like the C functions they point to, e.g. nvrtc_api()->nvrtcCompileProgram(...).
// NOLINTNEXTLINE(bugprone-macro-parentheses): `name` is a declarator here, which parentheses would not allow.
#define SS_CUDA_FUNCTION_POINTER(name) decltype(&::name) name = nullptr;
struct NvrtcApi {
    SS_NVRTC_FUNCTIONS(SS_CUDA_FUNCTION_POINTER)
};
struct CuptiApi {
    SS_CUPTI_FUNCTIONS(SS_CUDA_FUNCTION_POINTER)
};
#undef SS_CUDA_FUNCTION_POINTER

// The loaded tables, every entry set; nullptr when the library cannot be used (nvrtc_status() and
// cupti_status() say why).
const NvrtcApi* nvrtc_api();
const CuptiApi* cupti_api();

} // namespace ss
