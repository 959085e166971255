// SPDX-License-Identifier: MIT
#include "gpu/io/kernel_disk_cache.h"

#include "gpu/io/safe_file.h"
#include "gpu/io/user_cache.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>

namespace ss {
namespace {

namespace fs = std::filesystem;

constexpr char kMagic[8] = { 'S', 'S', 'K', 'E', 'R', 'N', '0', '1' };
constexpr std::size_t kHeaderBytes = 32; // magic, payload length, payload checksum, key hash
// A temporary older than this belongs to a writer that died: removed when the folder is trimmed.
constexpr auto kStaleTemporary = std::chrono::minutes(10);

std::uint64_t fnv1a(const char* data, std::size_t size, std::uint64_t hash) {
    for (std::size_t i = 0; i < size; ++i) {
        hash ^= static_cast<unsigned char>(data[i]);
        hash *= 0x100000001b3ull;
    }
    return hash;
}

// splitmix64's finaliser: FNV's last bytes otherwise reach only the low bits.
std::uint64_t mix(std::uint64_t x) {
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

std::uint64_t checksum(const char* data, std::size_t size) {
    return mix(fnv1a(data, size, 0xcbf29ce484222325ull));
}

// Each field with its length first, so that no two keys serialise alike.
std::string key_text(const KernelCacheKey& k) {
    std::string text;
    for (const std::string* f : { &k.architecture, &k.nvrtc_version, &k.driver_version, &k.options, &k.source })
        text += std::to_string(f->size()) + ":" + *f + ";";
    return text;
}

std::string hex(std::uint64_t v) {
    static const char digits[] = "0123456789abcdef";
    std::string s(16, '0');
    for (int i = 15; i >= 0; --i, v >>= 4) s[std::size_t(i)] = digits[v & 15];
    return s;
}

std::uint64_t read_u64(const char* p) {
    std::uint64_t v = 0;
    std::memcpy(&v, p, sizeof v);
    return v;
}

void append_u64(std::string& out, std::uint64_t v) {
    out.append(reinterpret_cast<const char*>(&v), sizeof v);
}

std::uint64_t key_check(const KernelCacheKey& key) {
    const std::string text = key_text(key);
    return checksum(text.data(), text.size());
}

std::atomic<bool> g_enabled { true };

} // namespace

std::string kernel_cache_key_hash(const KernelCacheKey& key) {
    const std::string text = key_text(key);
    const std::uint64_t a = mix(fnv1a(text.data(), text.size(), 0xcbf29ce484222325ull));
    const std::uint64_t b = mix(fnv1a(text.data(), text.size(), 0x84222325cbf29ce4ull) ^ text.size());
    return hex(a) + hex(b);
}

KernelDiskCache::KernelDiskCache(std::string folder, std::uint64_t max_bytes)
    : m_folder(std::move(folder))
    , m_max_bytes(max_bytes) { }

std::string KernelDiskCache::path_of(const KernelCacheKey& key) const {
    return m_folder + "/" + kernel_cache_key_hash(key) + kExtension;
}

std::optional<std::vector<char>> KernelDiskCache::load(const KernelCacheKey& key) const {
    const std::string path = path_of(key);
    std::error_code ec;
    if (!fs::exists(fs::symlink_status(path, ec))) return std::nullopt;
    std::string bytes;
    if (!read_regular_file(path, m_max_bytes + kHeaderBytes, bytes)) return std::nullopt;
    if (bytes.size() < kHeaderBytes || std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0) return std::nullopt;
    const std::uint64_t length = read_u64(bytes.data() + 8);
    if (length != bytes.size() - kHeaderBytes || length == 0) return std::nullopt; // truncated or padded
    const char* payload = bytes.data() + kHeaderBytes;
    if (read_u64(bytes.data() + 16) != checksum(payload, length)) return std::nullopt;
    if (read_u64(bytes.data() + 24) != key_check(key)) return std::nullopt; // a hash collision: another key's
    fs::last_write_time(path, fs::file_time_type::clock::now(), ec); // recently used: evicted last
    return std::vector<char>(payload, payload + length);
}

Status KernelDiskCache::store(const KernelCacheKey& key, const std::vector<char>& image) const {
    if (image.empty()) return Status::failure("an empty kernel image is not stored");
    std::error_code ec;
    fs::create_directories(m_folder, ec); // a failure shows in replace_file's message
    std::string contents(kMagic, sizeof kMagic);
    append_u64(contents, image.size());
    append_u64(contents, checksum(image.data(), image.size()));
    append_u64(contents, key_check(key));
    contents.append(image.data(), image.size());
    Status written = replace_file(path_of(key), contents, "kernel cache entry");
    evict();
    return written;
}

void KernelDiskCache::evict() const {
    struct Entry {
        fs::file_time_type used;
        std::uint64_t bytes;
        fs::path path;
    };
    std::vector<Entry> entries;
    std::uint64_t total = 0;
    std::error_code ec;
    const auto now = fs::file_time_type::clock::now();
    for (fs::directory_iterator it(m_folder, ec), end; !ec && it != end; it.increment(ec)) {
        std::error_code entry_ec;
        if (!it->is_regular_file(entry_ec)) continue;
        const std::string name = it->path().filename().string();
        const auto used = it->last_write_time(entry_ec);
        if (entry_ec) continue;
        if (name.find(std::string(kExtension) + ".") != std::string::npos) { // a writer's temporary
            if (now - used > kStaleTemporary) fs::remove(it->path(), entry_ec);
            continue;
        }
        if (name.size() <= std::strlen(kExtension) || !name.ends_with(kExtension)) continue;
        const std::uint64_t bytes = it->file_size(entry_ec);
        if (entry_ec) continue;
        entries.push_back({ used, bytes, it->path() });
        total += bytes;
    }
    std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.used < b.used; });
    for (const Entry& e : entries) {
        if (total <= m_max_bytes) break;
        std::error_code remove_ec;
        fs::remove(e.path, remove_ec); // another process may have removed it already
        total -= e.bytes;
    }
}

std::string default_kernel_cache_folder() {
    return user_cache_path("kernels");
}

const KernelDiskCache* process_kernel_cache() {
    static const KernelDiskCache cache(default_kernel_cache_folder());
    if (!g_enabled.load() || cache.folder().empty()) return nullptr;
    return &cache;
}

void set_kernel_disk_cache_enabled(bool on) {
    g_enabled.store(on);
}

} // namespace ss
