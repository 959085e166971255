// SPDX-License-Identifier: MIT
// Built kernels kept on disk between runs, per user ($XDG_CACHE_HOME/stencilscope/kernels/, else
// ~/.cache/stencilscope/kernels/), shared by the CLI and the window. One file per key; the key is a hash of
// everything that changes the built image: the generated source (the knobs that change the code are in it),
// the architecture, the NVRTC and driver versions and the compile options.
// - A file is a 32-byte header (magic, payload length, payload checksum, key hash) and the image. A file
//   whose length, checksum or key does not match is a miss (and is rebuilt), never loaded.
// - Writes go through a temporary renamed over the entry (safe_file.h): concurrent processes writing the
//   same key each leave a whole file, and a reader never sees half of one.
// - The folder is kept under a size limit: after a write the least recently used entries (a hit
//   touches its file) are removed until the rest fit.
#pragma once

#include "gpu/problem/config.h" // Status

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ss {

struct KernelCacheKey {
    std::string source;
    std::string architecture; // "sm_90", or "compute_90" for PTX
    std::string nvrtc_version; // "13.0"
    std::string driver_version; // "13.0"; "none" without a driver (a compile-only test)
    std::string options; // the compile options, one string
};

// 32 hex digits naming the key's file; any change of any field changes it.
std::string kernel_cache_key_hash(const KernelCacheKey&);

class KernelDiskCache {
public:
    static constexpr std::uint64_t kDefaultMaxBytes = std::uint64_t(256) << 20;
    static constexpr const char* kExtension = ".kernel";

    KernelDiskCache(std::string folder, std::uint64_t max_bytes = kDefaultMaxBytes);
    const std::string& folder() const { return m_folder; }

    // The stored image, or nothing when absent, damaged or another key's.
    std::optional<std::vector<char>> load(const KernelCacheKey&) const;
    // Stores the image (replacing the key's file whole) and evicts down to the size limit.
    Status store(const KernelCacheKey&, const std::vector<char>& image) const;
    std::string path_of(const KernelCacheKey&) const;
    // Removes the oldest entries until the folder's entries take at most the limit.
    void evict() const;

private:
    std::string m_folder;
    std::uint64_t m_max_bytes;
};

// $XDG_CACHE_HOME/stencilscope/kernels (an absolute XDG_CACHE_HOME), else ~/.cache/stencilscope/kernels;
// "" without $HOME.
std::string default_kernel_cache_folder();

// The process's cache (the default folder); null when switched off (--no-kernel-cache) or without a folder.
const KernelDiskCache* process_kernel_cache();
void set_kernel_disk_cache_enabled(bool);

} // namespace ss
