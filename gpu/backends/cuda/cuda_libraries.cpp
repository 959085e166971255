// SPDX-License-Identifier: MIT
#include "gpu/backends/cuda/cuda_libraries.h"
#include "gpu/backends/sanitizer_build.h"
#include "gpu/plan/knobs.h"

#include <cuda_runtime.h>

#include <dlfcn.h>
#include <glob.h>
#include <link.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace ss {
namespace {

constexpr int kCudaMajor = 13; // the toolkit the headers (and so the function tables) come from
constexpr const char* kNvrtcSoname = "libnvrtc.so.13";
constexpr const char* kCuptiSoname = "libcupti.so.13";
constexpr const char* kNvperfHost = "libnvperf_host.so"; // CUPTI's metric library

std::string join(const std::vector<std::string>& items, const char* separator) {
    std::string out;
    for (const auto& item : items) out += (out.empty() ? "" : separator) + item;
    return out;
}

} // namespace

std::vector<std::string> split_folder_list(const std::string& list) {
    std::vector<std::string> out;
    std::size_t begin = 0;
    while (begin <= list.size()) {
        const std::size_t end = std::min(list.find(':', begin), list.size());
        if (end > begin) out.push_back(list.substr(begin, end - begin));
        begin = end + 1;
    }
    return out;
}

namespace {

bool file_exists(const std::string& path) {
    return access(path.c_str(), F_OK) == 0;
}

std::string loaded_path(void* handle) {
    link_map* map = nullptr;
    if (dlinfo(handle, RTLD_DI_LINKMAP, &map) == 0 && map && map->l_name) return map->l_name;
    return "";
}

std::string loaded_folder(void* handle) {
    char origin[4096] = {};
    if (dlinfo(handle, RTLD_DI_ORIGIN, origin) == 0) return origin;
    return "";
}

std::string last_dl_error() {
    const char* e = dlerror();
    return e ? e : "unknown error";
}

// Where to look: STENCILSCOPE_CUDA_LIBS alone when set (and not empty), else the system's path and the
// toolkit's folders.
struct Search {
    std::vector<std::string> folders;
    bool only_folders = false;
};

Search search_from_environment() {
    if (std::vector<std::string> named = named_cuda_library_folders(); !named.empty()) return { named, true };
    return { cuda_library_folders(), false };
}

// NVRTC and CUPTI dlopen a companion by bare name (libnvrtc-builtins.so.13.0, libnvperf_host.so), which
// only the system's path finds. Loaded first from the main library's folder with the flags they use, it
// is found by its soname when they ask. "" when loaded (or, under ASan, present), else the problem.
std::string load_companion(const std::string& folder, const std::string& file, int flags, const char* needed_by) {
    const std::string beside = folder + "/" + file;
    if (kAddressSanitizer && (flags & RTLD_DEEPBIND)) // present is all that can be checked there
        return file_exists(beside) ? "" : file + ", which " + needed_by + " loads, is not in " + folder;
    if (file_exists(beside)) return dlopen(beside.c_str(), flags) ? "" : last_dl_error();
    if (dlopen(file.c_str(), flags)) return "";
    return file + ", which " + needed_by + " loads, is not in " + folder + " or the library path";
}

template <typename Function>
void load_symbol(void* handle, const char* name, Function* slot, std::vector<std::string>* missing) {
    *slot = reinterpret_cast<Function>(dlsym(handle, name));
    if (!*slot) missing->push_back(name);
}

template <typename Api> struct Loaded {
    Api api;
    CudaPieceStatus status;
};

template <typename Api> const Api* usable_api(const Loaded<Api>& loaded) {
    return loaded.status.usable() ? &loaded.api : nullptr;
}

const Loaded<NvrtcApi>& nvrtc_loaded() {
    static const Loaded<NvrtcApi> loaded = [] {
        Loaded<NvrtcApi> l;
        const Search search = search_from_environment();
        void* handle = open_cuda_library("NVRTC 13", kNvrtcSoname, search.folders, search.only_folders, &l.status);
        if (!handle) return l;
        std::vector<std::string> missing;
#define SS_LOAD_FUNCTION(name) load_symbol(handle, #name, &l.api.name, &missing);
        SS_NVRTC_FUNCTIONS(SS_LOAD_FUNCTION)
#undef SS_LOAD_FUNCTION
        int major = 0, minor = 0;
        if (!missing.empty()) {
            l.status.problem = l.status.path + " lacks " + join(missing, ", ");
        } else if (l.api.nvrtcVersion(&major, &minor) != NVRTC_SUCCESS || major != kCudaMajor) {
            l.status.problem = l.status.path + " is NVRTC " + std::to_string(major) + "." + std::to_string(minor)
                + ", not " + std::to_string(kCudaMajor);
        } else {
            const std::string version = std::to_string(major) + "." + std::to_string(minor);
            l.status.detail = "NVRTC " + version;
            l.status.problem
                = load_companion(loaded_folder(handle), "libnvrtc-builtins.so." + version, RTLD_LAZY, "NVRTC");
        }
        return l;
    }();
    return loaded;
}

const Loaded<CuptiApi>& cupti_loaded() {
    static const Loaded<CuptiApi> loaded = [] {
        Loaded<CuptiApi> l;
        const Search search = search_from_environment();
        void* handle = open_cuda_library("CUPTI 13", kCuptiSoname, search.folders, search.only_folders, &l.status);
        if (!handle) return l;
        std::vector<std::string> missing;
#define SS_LOAD_FUNCTION(name) load_symbol(handle, #name, &l.api.name, &missing);
        SS_CUPTI_FUNCTIONS(SS_LOAD_FUNCTION)
#undef SS_LOAD_FUNCTION
        if (!missing.empty())
            l.status.problem = l.status.path + " lacks " + join(missing, ", ");
        else
            l.status.problem
                = load_companion(loaded_folder(handle), kNvperfHost, RTLD_NOW | RTLD_GLOBAL | RTLD_DEEPBIND, "CUPTI");
        return l;
    }();
    return loaded;
}

// 13000 -> "13.0"
std::string cuda_version(int version) {
    return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

struct DriverState {
    CudaPieceStatus status;
    int version = 0; // the CUDA version it supports, 1000 * major + 10 * minor; 0: no driver
};

const DriverState& driver_once() {
    static const DriverState state = [] {
        DriverState d;
        CudaPieceStatus& s = d.status;
        s.name = "CUDA driver";
        if (cudaDriverGetVersion(&d.version) != cudaSuccess) (void)cudaGetLastError();
        if (d.version <= 0) {
            d.version = 0;
            s.problem = "libcuda.so.1 is not in the library path (no NVIDIA driver)";
            return d;
        }
        s.found = true;
        s.detail = "supports CUDA " + cuda_version(d.version);
        if (void* handle = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_NOLOAD)) { // the runtime's copy
            s.path = loaded_path(handle);
            dlclose(handle);
        }
        if (d.version / 1000 < kCudaMajor)
            s.problem = "it supports CUDA " + cuda_version(d.version) + "; CUDA " + std::to_string(kCudaMajor)
                + " needs NVIDIA's driver 580 or newer";
        return d;
    }();
    return state;
}

// "NVRTC 13 not found (...): install cuda-nvrtc-13-0 or the CUDA toolkit to run kernels on the GPU".
std::string library_reason(const CudaPieceStatus& s, const char* package, const char* purpose) {
    if (s.usable()) return "";
    return s.name + (s.found ? " cannot be used (" : " not found (") + s.problem + "): install " + package
        + " or the CUDA toolkit to " + purpose;
}

std::string state_word(const CudaPieceStatus& s) {
    return s.found ? "cannot be used" : "not found";
}

} // namespace

std::vector<std::string> named_cuda_library_folders() {
    return split_folder_list(knob_text(Knob::CudaLibs));
}

std::vector<std::string> cuda_library_folders() {
    std::vector<std::string> roots { "/usr/local/cuda" };
    glob_t matches {};
    const std::string pattern = "/usr/local/cuda-" + std::to_string(kCudaMajor) + "*";
    if (glob(pattern.c_str(), GLOB_ONLYDIR, nullptr, &matches) == 0) {
        std::vector<std::string> versions(matches.gl_pathv, matches.gl_pathv + matches.gl_pathc);
        std::sort(versions.rbegin(), versions.rend()); // by name, descending: the newest first up to 13.9
        roots.insert(roots.end(), versions.begin(), versions.end());
    }
    globfree(&matches);
    std::vector<std::string> folders;
    for (const auto& root : roots)
        for (const char* sub : { "/lib64", "/targets/x86_64-linux/lib", "/extras/CUPTI/lib64" })
            folders.push_back(root + sub);
    folders.push_back("/usr/lib/x86_64-linux-gnu");
    return folders;
}

void* open_cuda_library(const std::string& name, const std::string& soname, const std::vector<std::string>& folders,
    bool only_folders, CudaPieceStatus* status) {
    *status = CudaPieceStatus {};
    status->name = name;
    std::string failure; // a file that exists but does not load says why
    auto attempt = [&](const std::string& file) -> void* {
        void* handle = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (handle) {
            status->found = true;
            status->path = loaded_path(handle);
            if (status->path.empty()) status->path = file;
            return handle;
        }
        const std::string error = last_dl_error();
        if (failure.empty()
            && (file.find('/') == std::string::npos ? error.find(soname + ":") == std::string::npos
                                                    : file_exists(file)))
            failure = error;
        return nullptr;
    };
    if (!only_folders)
        if (void* handle = attempt(soname)) return handle;
    for (const auto& folder : folders)
        if (void* handle = attempt(folder + "/" + soname)) return handle;
    if (!failure.empty()) {
        status->found = true;
        status->problem = failure;
    } else if (only_folders) {
        status->problem = soname + " is not in " + kCudaLibsVariable + " (" + join(folders, ":") + ")";
    } else {
        status->problem = soname + " is not in the library path or /usr/local/cuda*";
    }
    return nullptr;
}

const NvrtcApi* nvrtc_api() {
    return usable_api(nvrtc_loaded());
}

const CuptiApi* cupti_api() {
    return usable_api(cupti_loaded());
}

CudaPieceStatus cuda_driver_status() {
    return driver_once().status;
}

CudaPieceStatus nvrtc_status() {
    return nvrtc_loaded().status;
}

CudaPieceStatus cupti_status() {
    return cupti_loaded().status;
}

std::string nvrtc_unavailable_reason() {
    return library_reason(nvrtc_status(), "cuda-nvrtc-13-0", "run kernels on the GPU");
}

std::string cupti_unavailable_reason() {
    return library_reason(cupti_status(), "cuda-cupti-13-0", "read hardware counters");
}

std::string describe_gpu_unusable(
    int driver_version, int devices, const std::string& device_error, const CudaPieceStatus& nvrtc) {
    const std::string cuda = std::to_string(kCudaMajor);
    if (driver_version <= 0)
        return "no NVIDIA driver (libcuda.so.1 not found): an NVIDIA GPU with driver 580 or newer runs kernels";
    if (driver_version / 1000 < kCudaMajor)
        return "the NVIDIA driver supports CUDA " + cuda_version(driver_version) + "; CUDA " + cuda
            + " needs driver 580 or newer to run kernels on the GPU";
    if (!device_error.empty()) return "CUDA driver found, but CUDA could not start: " + device_error;
    if (devices <= 0) return "CUDA driver found, but no CUDA device";
    if (!nvrtc.usable())
        return "CUDA driver found, " + nvrtc.name + " " + state_word(nvrtc)
            + ": install cuda-nvrtc-13-0 or the CUDA toolkit to run kernels on the GPU";
    return "";
}

std::string describe_cuda_support(int driver_version, int devices, const std::string& device_error,
    const CudaPieceStatus& nvrtc, const CudaPieceStatus& cupti) {
    if (const std::string why = describe_gpu_unusable(driver_version, devices, device_error, nvrtc); !why.empty())
        return why + "; the CPU backend runs";
    if (!cupti.usable())
        return "CUDA driver and " + nvrtc.name + " found: kernels run on the GPU; " + cupti.name + " "
            + state_word(cupti) + ": install cuda-cupti-13-0 or the CUDA toolkit for hardware counters";
    return "CUDA driver, " + nvrtc.name + " and " + cupti.name
        + " found: kernels run on the GPU, with hardware counters";
}

std::string gpu_unusable_reason() {
    int devices = 0;
    std::string error;
    if (driver_once().version > 0) {
        const cudaError_t e = cudaGetDeviceCount(&devices);
        if (e != cudaSuccess && e != cudaErrorNoDevice) error = cudaGetErrorString(e);
        if (e != cudaSuccess) (void)cudaGetLastError();
    }
    return describe_gpu_unusable(driver_once().version, devices, error, nvrtc_status());
}

std::string cuda_support_summary() {
    const std::string why = gpu_unusable_reason();
    if (!why.empty()) return why + "; the CPU backend runs";
    return describe_cuda_support(driver_once().version, 1, "", nvrtc_status(), cupti_status());
}

std::string cuda_support_report() {
    std::string out = "CUDA: " + cuda_support_summary() + "\n";
    for (const CudaPieceStatus& s : { cuda_driver_status(), nvrtc_status(), cupti_status() }) {
        std::string line = "  " + s.name;
        line.resize(std::max<std::size_t>(line.size() + 2, 15), ' ');
        if (!s.usable())
            line += state_word(s) + ": " + s.problem;
        else
            line += (s.path.empty() ? std::string("found") : s.path) + (s.detail.empty() ? "" : " (" + s.detail + ")");
        out += line + "\n";
    }
    return out;
}

} // namespace ss
