// SPDX-License-Identifier: MIT
#include "gpu/backends/cuda/kernel_compiler.h"

#include "gpu/backends/cuda/cuda_check.h"
#include "gpu/backends/cuda/cuda_libraries.h"
#include "gpu/io/kernel_disk_cache.h"

#include <algorithm>
#include <chrono>
#include <future>
#include <map>
#include <mutex>
#include <optional>
#include <vector>

namespace ss {
namespace {

// NVRTC is loaded at run time (cuda_libraries.h); without it no kernel can be built, so say what to install.
const NvrtcApi& nvrtc() {
    const NvrtcApi* api = nvrtc_api();
    if (!api) throw CudaError(nvrtc_unavailable_reason());
    return *api;
}

void nvrtc_check(nvrtcResult r, const char* what) {
    if (r != NVRTC_SUCCESS) throw CudaError(std::string(what) + ": " + nvrtc().nvrtcGetErrorString(r));
}

// NVRTC can emit SASS (cubin) for architectures it knows; a newer GPU gets PTX for the newest one it
// knows, which the driver then compiles.
std::string arch_option(const NvrtcApi& api, int major, int minor, bool& sass) {
    int n = 0;
    nvrtc_check(api.nvrtcGetNumSupportedArchs(&n), "nvrtcGetNumSupportedArchs");
    std::vector<int> archs(n);
    nvrtc_check(api.nvrtcGetSupportedArchs(archs.data()), "nvrtcGetSupportedArchs");
    const int want = major * 10 + minor;
    sass = std::find(archs.begin(), archs.end(), want) != archs.end();
    if (sass) return "--gpu-architecture=sm_" + std::to_string(want);
    int best = archs.empty() ? 75 : archs.front();
    for (int a : archs)
        if (a <= want) best = std::max(best, a);
    return "--gpu-architecture=compute_" + std::to_string(best);
}

// What NVRTC is asked for: the architecture, then the rest of the options.
struct CompileOptions {
    std::vector<std::string> options;
    bool sass = false;
};

CompileOptions compile_options(const NvrtcApi& api, int major, int minor) {
    CompileOptions o;
    o.options = { arch_option(api, major, minor, o.sass), "-std=c++17", "-lineinfo", "--restrict" };
    return o;
}

// NVRTC -> cubin (or PTX for a GPU newer than NVRTC knows). Throws CudaError with the log.
std::vector<char> compile_image(const std::string& source, const CompileOptions& o) {
    const NvrtcApi& api = nvrtc();
    nvrtcProgram prog = nullptr;
    nvrtc_check(api.nvrtcCreateProgram(&prog, source.c_str(), "stencilscope_kernel.cu", 0, nullptr, nullptr),
        "nvrtcCreateProgram");
    std::vector<const char*> options;
    for (const std::string& option : o.options) options.push_back(option.c_str());
    const nvrtcResult compiled = api.nvrtcCompileProgram(prog, int(options.size()), options.data());
    if (compiled != NVRTC_SUCCESS) {
        std::size_t log_size = 0;
        api.nvrtcGetProgramLogSize(prog, &log_size);
        std::string log(log_size, '\0');
        api.nvrtcGetProgramLog(prog, log.data());
        api.nvrtcDestroyProgram(&prog);
        throw CudaError("kernel compilation failed: " + log);
    }
    std::size_t size = 0;
    std::vector<char> image;
    if (o.sass) {
        nvrtc_check(api.nvrtcGetCUBINSize(prog, &size), "nvrtcGetCUBINSize");
        image.resize(size);
        nvrtc_check(api.nvrtcGetCUBIN(prog, image.data()), "nvrtcGetCUBIN");
    } else {
        nvrtc_check(api.nvrtcGetPTXSize(prog, &size), "nvrtcGetPTXSize");
        image.resize(size);
        nvrtc_check(api.nvrtcGetPTX(prog, image.data()), "nvrtcGetPTX");
    }
    api.nvrtcDestroyProgram(&prog);
    return image;
}

std::vector<char> compile_image(const std::string& source, int major, int minor) {
    return compile_image(source, compile_options(nvrtc(), major, minor));
}

// Everything besides the source that changes the image: the options (the architecture first), NVRTC's
// version and the driver's (which compiles PTX, and whose loader reads the cubin).
KernelCacheKey cache_key(const std::string& source, const CompileOptions& o) {
    KernelCacheKey key;
    key.source = source;
    key.architecture = o.options.front();
    for (std::size_t i = 1; i < o.options.size(); ++i) key.options += o.options[i] + " ";
    int major = 0, minor = 0;
    nvrtc_check(nvrtc().nvrtcVersion(&major, &minor), "nvrtcVersion");
    key.nvrtc_version = std::to_string(major) + "." + std::to_string(minor);
    int driver = 0;
    if (cudaDriverGetVersion(&driver) != cudaSuccess) (void)cudaGetLastError();
    key.driver_version = driver > 0 ? std::to_string(driver) : "none";
    return key;
}

std::shared_ptr<const CompiledModule> compile_now(const std::string& source, int major, int minor) {
    const auto start = std::chrono::steady_clock::now();
    bool from_disk = false;
    const std::vector<char> image = cached_nvrtc_image(source, major, minor, process_kernel_cache(), &from_disk);
    cudaLibrary_t library = nullptr;
    cuda_check(
        cudaLibraryLoadData(&library, image.data(), nullptr, nullptr, 0, nullptr, nullptr, 0), "cudaLibraryLoadData");
    const std::chrono::duration<double, std::milli> ms = std::chrono::steady_clock::now() - start;
    return std::make_shared<CompiledModule>(library, from_disk ? 0.0 : ms.count(), from_disk);
}

struct Cache {
    std::mutex mutex;
    std::map<std::string, std::shared_future<std::shared_ptr<const CompiledModule>>> modules;
};

Cache& cache() {
    static Cache* c = new Cache; // never destroyed: libraries must outlive static simulations at exit
    return *c;
}

} // namespace

CompiledModule::~CompiledModule() {
    if (m_library) cudaLibraryUnload(m_library);
}

const void* CompiledModule::kernel(const char* name) const {
    cudaKernel_t k = nullptr;
    cuda_check(cudaLibraryGetKernel(&k, m_library, name), name);
    return reinterpret_cast<const void*>(k);
}

std::shared_ptr<const CompiledModule> compile_module(
    const std::string& source, int major, int minor, bool* from_cache) {
    const std::string key = std::to_string(major) + "." + std::to_string(minor) + "\n" + source;
    std::promise<std::shared_ptr<const CompiledModule>> promise;
    std::shared_future<std::shared_ptr<const CompiledModule>> future;
    bool compile_here = false;
    {
        Cache& c = cache();
        std::lock_guard lock(c.mutex);
        auto it = c.modules.find(key);
        if (it == c.modules.end()) {
            future = promise.get_future().share();
            c.modules.emplace(key, future);
            compile_here = true;
        } else {
            future = it->second;
        }
    }
    if (from_cache) *from_cache = !compile_here;
    if (compile_here) {
        try {
            std::shared_ptr<const CompiledModule> module = compile_now(source, major, minor);
            if (from_cache) *from_cache = module->from_disk();
            promise.set_value(std::move(module));
        } catch (...) {
            promise.set_exception(std::current_exception());
            std::lock_guard lock(cache().mutex);
            cache().modules.erase(key); // let a later attempt retry
        }
    }
    return future.get();
}

} // namespace ss

namespace ss {
std::string nvrtc_compile_errors(const std::string& source, int major, int minor) {
    try {
        compile_image(source, major, minor);
        return "";
    } catch (const std::exception& e) {
        return e.what();
    }
}

std::vector<char> nvrtc_compile_image(const std::string& source, int major, int minor) {
    return compile_image(source, major, minor);
}

std::vector<char> cached_nvrtc_image(
    const std::string& source, int major, int minor, const KernelDiskCache* cache, bool* from_cache) {
    if (from_cache) *from_cache = false;
    const CompileOptions options = compile_options(nvrtc(), major, minor);
    if (!cache) return compile_image(source, options);
    const KernelCacheKey key = cache_key(source, options);
    if (std::optional<std::vector<char>> stored = cache->load(key)) {
        if (from_cache) *from_cache = true;
        return std::move(*stored);
    }
    std::vector<char> image = compile_image(source, options);
    (void)cache->store(key, image); // a cache that cannot be written only costs the next run a build
    return image;
}
} // namespace ss
