// SPDX-License-Identifier: MIT
// The CUDA pieces looked up at run time: what is said for each combination of driver, device, NVRTC and
// CUPTI, and where a library is (or is not) found. No GPU needed.
#include "gpu/problem/cuda_support.h"

#include <gtest/gtest.h>

#include <dlfcn.h>

#include <filesystem>
#include <fstream>

namespace ss {
namespace {

CudaPieceStatus usable(const std::string& name) {
    CudaPieceStatus s;
    s.name = name;
    s.found = true;
    s.path = "/somewhere/lib.so";
    return s;
}

CudaPieceStatus missing(const std::string& name) {
    CudaPieceStatus s;
    s.name = name;
    s.problem = "not in the library path";
    return s;
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

// A folder of its own, removed afterwards.
struct TempFolder {
    std::filesystem::path path;
    TempFolder() {
        path = std::filesystem::temp_directory_path() / ("ss_cuda_libs_" + std::to_string(::getpid()));
        std::filesystem::remove_all(path);
        std::filesystem::create_directories(path);
    }
    ~TempFolder() { std::filesystem::remove_all(path); }
};

TEST(CudaSupport, DriverButNoNvrtcSaysTheGpuCannotRunKernelsAndWhatToInstall) {
    const std::string why = describe_gpu_unusable(13000, 1, "", missing("NVRTC 13"));
    EXPECT_EQ(why,
        "CUDA driver found, NVRTC 13 not found: install cuda-nvrtc-13-0 or the CUDA toolkit to run "
        "kernels on the GPU");
    const std::string summary = describe_cuda_support(13000, 1, "", missing("NVRTC 13"), usable("CUPTI 13"));
    EXPECT_EQ(summary, why + "; the CPU backend runs");
}

TEST(CudaSupport, NvrtcButNoCuptiRunsKernelsAndSaysCountersAreMissing) {
    EXPECT_EQ(describe_gpu_unusable(13000, 1, "", usable("NVRTC 13")), "");
    const std::string summary = describe_cuda_support(13000, 1, "", usable("NVRTC 13"), missing("CUPTI 13"));
    EXPECT_TRUE(contains(summary, "kernels run on the GPU")) << summary;
    EXPECT_TRUE(contains(summary, "CUPTI 13 not found")) << summary;
    EXPECT_TRUE(contains(summary, "cuda-cupti-13-0")) << summary;
    EXPECT_FALSE(contains(summary, "CPU backend")) << summary;
}

TEST(CudaSupport, EverythingPresent) {
    EXPECT_EQ(describe_cuda_support(13000, 2, "", usable("NVRTC 13"), usable("CUPTI 13")),
        "CUDA driver, NVRTC 13 and CUPTI 13 found: kernels run on the GPU, with hardware counters");
}

TEST(CudaSupport, NoDriverOldDriverNoDeviceAndAFailedStartEachSaySo) {
    // The driver comes first: without one, NVRTC's absence is not the reason.
    const std::string none = describe_gpu_unusable(0, 0, "", missing("NVRTC 13"));
    EXPECT_TRUE(contains(none, "no NVIDIA driver (libcuda.so.1 not found)")) << none;
    const std::string old = describe_gpu_unusable(12040, 1, "", usable("NVRTC 13"));
    EXPECT_TRUE(contains(old, "supports CUDA 12.4")) << old;
    EXPECT_TRUE(contains(old, "driver 580 or newer")) << old;
    EXPECT_EQ(describe_gpu_unusable(13000, 0, "", usable("NVRTC 13")), "CUDA driver found, but no CUDA device");
    const std::string failed = describe_gpu_unusable(13000, 0, "all CUDA-capable devices are busy", usable("NVRTC 13"));
    EXPECT_TRUE(contains(failed, "could not start: all CUDA-capable devices are busy")) << failed;
    EXPECT_TRUE(
        contains(describe_cuda_support(0, 0, "", missing("NVRTC 13"), missing("CUPTI 13")), "; the CPU backend runs"));
}

TEST(CudaSupport, AFoundButUnusableLibraryIsNotCalledMissing) {
    CudaPieceStatus wrong = usable("NVRTC 13");
    wrong.problem = "/x/libnvrtc.so.13 is NVRTC 12.4, not 13";
    const std::string why = describe_gpu_unusable(13000, 1, "", wrong);
    EXPECT_TRUE(contains(why, "NVRTC 13 cannot be used")) << why;
}

TEST(CudaLibraries, NotInTheGivenFoldersSaysWhereItLooked) {
    TempFolder folder;
    CudaPieceStatus s;
    // libm is in the system's path, but only the given folder is searched (as with STENCILSCOPE_CUDA_LIBS).
    EXPECT_EQ(open_cuda_library("libm", "libm.so.6", { folder.path.string() }, true, &s), nullptr);
    EXPECT_EQ(s.name, "libm");
    EXPECT_FALSE(s.found);
    EXPECT_FALSE(s.usable());
    EXPECT_TRUE(contains(s.problem, folder.path.string())) << s.problem;
    EXPECT_TRUE(contains(s.problem, kCudaLibsVariable)) << s.problem;
}

TEST(CudaLibraries, AFileThatIsNoLibraryIsFoundButUnusableWithTheLoadersReason) {
    TempFolder folder;
    std::ofstream(folder.path / "libfake.so.13") << "not an ELF file";
    CudaPieceStatus s;
    EXPECT_EQ(open_cuda_library("Fake 13", "libfake.so.13", { folder.path.string() }, true, &s), nullptr);
    EXPECT_TRUE(s.found);
    EXPECT_FALSE(s.usable());
    EXPECT_TRUE(contains(s.problem, "libfake.so.13")) << s.problem;
}

TEST(CudaLibraries, TheSystemPathIsSearchedFirstAndThePathIsReported) {
    CudaPieceStatus s;
    void* handle = open_cuda_library("libm", "libm.so.6", { "/nonexistent-ss" }, false, &s);
    ASSERT_NE(handle, nullptr) << s.problem;
    EXPECT_TRUE(s.usable());
    EXPECT_TRUE(s.found);
    EXPECT_TRUE(contains(s.path, "libm.so.6")) << s.path;
    dlclose(handle);
}

TEST(CudaLibraries, TheToolkitFoldersAreSearchedWhenTheSystemPathLacksIt) {
    const auto folders = cuda_library_folders();
    ASSERT_FALSE(folders.empty());
    EXPECT_EQ(folders.front(), "/usr/local/cuda/lib64");
    if (!std::filesystem::exists("/usr/local/cuda/lib64/libnvrtc.so.13")) GTEST_SKIP() << "no CUDA 13 toolkit here";
    CudaPieceStatus s;
    void* handle = open_cuda_library("NVRTC 13", "libnvrtc.so.13", folders, true, &s);
    ASSERT_NE(handle, nullptr) << s.problem;
    EXPECT_TRUE(s.usable());
    EXPECT_TRUE(contains(s.path, "libnvrtc.so.13")) << s.path;
}

} // namespace
} // namespace ss
