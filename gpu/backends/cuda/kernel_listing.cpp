// SPDX-License-Identifier: MIT
// kernel_listing: NVRTC's PTX of a kernel text and the SASS of its cubin, disassembled by the toolkit's nvdisasm or
// cuobjdump in a child process (no shell: the file names are arguments).
#include "gpu/backends/cuda/kernel_listing.h"

#include "gpu/backends/cuda/cuda_libraries.h"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>

extern char** environ;

namespace ss {
namespace {

// The architecture option as kernel_compiler.cpp chooses it: SASS for an architecture NVRTC knows, else PTX for the
// newest it knows below it.
std::string arch_option(const NvrtcApi& api, int major, int minor, bool& sass) {
    int n = 0;
    api.nvrtcGetNumSupportedArchs(&n);
    std::vector<int> archs(std::size_t(std::max(n, 0)));
    if (n > 0) api.nvrtcGetSupportedArchs(archs.data());
    const int want = major * 10 + minor;
    sass = std::find(archs.begin(), archs.end(), want) != archs.end();
    if (sass) return "--gpu-architecture=sm_" + std::to_string(want);
    int best = archs.empty() ? 75 : archs.front();
    for (int a : archs)
        if (a <= want) best = std::max(best, a);
    return "--gpu-architecture=compute_" + std::to_string(best);
}

struct Compiled {
    std::string ptx;
    std::vector<char> cubin;
    std::string problem;
};

Compiled compile(const NvrtcApi& api, const std::string& source, int major, int minor) {
    Compiled c;
    bool sass = false;
    // kernel_compiler.cpp's options, so that the listing is the code that runs.
    const std::string arch = arch_option(api, major, minor, sass);
    const char* options[] = { arch.c_str(), "-std=c++17", "-lineinfo", "--restrict" };
    nvrtcProgram prog = nullptr;
    if (api.nvrtcCreateProgram(&prog, source.c_str(), "stencilscope_kernel.cu", 0, nullptr, nullptr) != NVRTC_SUCCESS) {
        c.problem = "NVRTC could not create a program";
        return c;
    }
    if (api.nvrtcCompileProgram(prog, 4, options) != NVRTC_SUCCESS) {
        std::size_t size = 0;
        api.nvrtcGetProgramLogSize(prog, &size);
        std::string log(size, '\0');
        api.nvrtcGetProgramLog(prog, log.data());
        api.nvrtcDestroyProgram(&prog);
        c.problem = "kernel compilation failed: " + log;
        return c;
    }
    std::size_t size = 0;
    if (api.nvrtcGetPTXSize(prog, &size) == NVRTC_SUCCESS && size > 0) {
        c.ptx.resize(size);
        if (api.nvrtcGetPTX(prog, c.ptx.data()) != NVRTC_SUCCESS) c.ptx.clear();
        while (!c.ptx.empty() && c.ptx.back() == '\0') c.ptx.pop_back();
    }
    if (sass && api.nvrtcGetCUBINSize(prog, &size) == NVRTC_SUCCESS && size > 0) {
        c.cubin.resize(size);
        if (api.nvrtcGetCUBIN(prog, c.cubin.data()) != NVRTC_SUCCESS) c.cubin.clear();
    }
    api.nvrtcDestroyProgram(&prog);
    if (c.ptx.empty()) c.problem = "NVRTC returned no PTX";
    return c;
}

bool executable(const std::filesystem::path& p) {
    return access(p.c_str(), X_OK) == 0 && std::filesystem::is_regular_file(p);
}

// The toolkit's bin folders: beside the library folders STENCILSCOPE_CUDA_LIBS names, and those of the folders the
// CUDA libraries are looked for in (a toolkit root's lib64, targets/x86_64-linux/lib, extras/CUPTI/lib64).
std::vector<std::filesystem::path> toolkit_bin_folders() {
    std::vector<std::filesystem::path> bins;
    std::vector<std::string> libs = named_cuda_library_folders();
    for (const std::string& folder : cuda_library_folders()) libs.push_back(folder);
    for (const std::string& lib : libs) {
        std::filesystem::path p(lib);
        bins.push_back(p);
        for (int up = 0; up < 3 && p.has_parent_path() && p != p.root_path(); ++up) {
            p = p.parent_path();
            bins.push_back(p / "bin");
        }
    }
    return bins;
}

// nvdisasm, else cuobjdump: on PATH first, then in the toolkit's folders. Empty when neither is found.
std::filesystem::path find_disassembler(std::string* name) {
    std::vector<std::filesystem::path> folders;
    if (const char* path = std::getenv("PATH"))
        for (const std::string& folder : split_folder_list(path)) folders.emplace_back(folder);
    for (const auto& bin : toolkit_bin_folders()) folders.push_back(bin);
    for (const char* program : { "nvdisasm", "cuobjdump" })
        for (const auto& folder : folders)
            if (executable(folder / program)) {
                *name = program;
                return folder / program;
            }
    return {};
}

// Runs `argv` and returns its standard output and error; `status` gets its exit status (-1: it did not start).
std::string run_and_read(const std::vector<std::string>& argv, int* status) {
    *status = -1;
    int fds[2];
    if (pipe(fds) != 0) return "";
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&actions, fds[1], STDERR_FILENO);
    posix_spawn_file_actions_addclose(&actions, fds[0]);
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    pid_t pid = 0;
    const int spawned = posix_spawn(&pid, argv[0].c_str(), &actions, nullptr, args.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    close(fds[1]);
    std::string out;
    if (spawned == 0) {
        char buf[65536];
        for (ssize_t n; (n = read(fds[0], buf, sizeof buf)) != 0;) {
            if (n < 0) {
                if (errno == EINTR) continue;
                break;
            }
            out.append(buf, std::size_t(n));
        }
        int wstatus = 0;
        while (waitpid(pid, &wstatus, 0) < 0 && errno == EINTR) { }
        *status = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : -1;
    }
    close(fds[0]);
    return out;
}

void disassemble(const std::vector<char>& cubin, KernelListing& l) {
    std::string program;
    const std::filesystem::path tool = find_disassembler(&program);
    if (tool.empty()) {
        l.sass_problem = "no disassembler found: neither nvdisasm nor cuobjdump is on PATH or in the CUDA toolkit's "
                         "bin folders (install the CUDA toolkit's cuda-nvdisasm or cuda-cuobjdump package)";
        return;
    }
    std::error_code ec;
    std::string file = (std::filesystem::temp_directory_path(ec) / "stencilscope-kernel-XXXXXX.cubin").string();
    const int fd = mkstemps(file.data(), 6);
    if (fd < 0) {
        l.sass_problem = "could not write the cubin to a temporary file for " + program;
        return;
    }
    const bool written = write(fd, cubin.data(), cubin.size()) == ssize_t(cubin.size());
    close(fd);
    int status = -1;
    const std::string out = written
        ? run_and_read(program == "nvdisasm" ? std::vector<std::string> { tool.string(), "-c", file }
                                             : std::vector<std::string> { tool.string(), "-sass", file },
            &status)
        : std::string();
    std::filesystem::remove(file, ec);
    if (status == 0 && !out.empty()) {
        l.sass = out;
        l.disassembler = tool.string();
    } else {
        l.sass_problem
            = tool.string() + (status < 0 ? " could not be run" : " failed") + (out.empty() ? "" : ": " + out);
    }
}

} // namespace

KernelListing kernel_listing(const std::string& source, int cc_major, int cc_minor, bool want_sass) {
    KernelListing l;
    l.architecture = "sm_" + std::to_string(cc_major) + std::to_string(cc_minor);
    const NvrtcApi* api = nvrtc_api();
    if (!api) {
        l.ptx_problem = "no PTX: " + nvrtc_unavailable_reason();
        l.sass_problem = "no SASS: NVRTC compiles the cubin, and it is not available";
        return l;
    }
    const Compiled c = compile(*api, source, cc_major, cc_minor);
    l.ptx = c.ptx;
    l.ptx_problem = c.problem;
    if (!want_sass) return l;
    if (!c.problem.empty())
        l.sass_problem = "no SASS: " + c.problem;
    else if (c.cubin.empty())
        l.sass_problem = "NVRTC cannot build SASS for " + l.architecture + ": the driver compiles its PTX at load time";
    else
        disassemble(c.cubin, l);
    return l;
}

} // namespace ss
