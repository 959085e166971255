// SPDX-License-Identifier: MIT
// The file: a comment line, then one line per key, tab-separated:
//   key, stored (ISO 8601 UTC), N, then N times: block (BXxBYxBZ), ms_per_step, gcells_per_s, error
// and, for a search over the temporal depth, a fifth field per result: depth. N must match the field count
// (4 or 5 per result), so a truncated line is recognised and skipped.
#include "gpu/studies/autotune_cache.h"

#include "gpu/io/safe_file.h"
#include "gpu/io/timestamp.h"
#include "gpu/io/user_cache.h"
#include "gpu/plan/temporal_policy.h"
#include "gpu/plan/validation.h"
#include "gpu/problem/stencil_catalog.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <sstream>

namespace ss {
namespace {

constexpr const char* kHeader = "# stencilscope autotune cache v1: key, stored (UTC), N, then N x (block, "
                                "ms_per_step, gcells_per_s, error)";
constexpr int kFieldsPerResult = 4;

// Tabs and line breaks would split a field or a line.
std::string one_field(std::string s) {
    std::replace_if(
        s.begin(), s.end(), [](char ch) { return ch == '\t' || ch == '\n' || ch == '\r'; }, ' ');
    return s;
}

std::string number_text(double v) {
    char buf[64];
    const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v); // shortest text that reads back exactly
    return ec == std::errc() ? std::string(buf, end) : "nan";
}

std::optional<double> parse_number(const std::string& s) {
    double v = 0.0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size() || !std::isfinite(v) || v < 0.0) return std::nullopt;
    return v;
}

bool looks_like_utc_time(const std::string& s) {
    static const std::string shape = "dddd-dd-ddTdd:dd:ddZ";
    if (s.size() != shape.size()) return false;
    for (std::size_t i = 0; i < s.size(); ++i)
        if (shape[i] == 'd' ? !std::isdigit(static_cast<unsigned char>(s[i])) : s[i] != shape[i]) return false;
    return true;
}

std::optional<std::pair<std::string, AutotuneCache::Entry>> parse_line(const std::string& line) {
    const std::vector<std::string> f = split_fields(line, '\t');
    if (f.size() < 3 || f[0].empty() || !looks_like_utc_time(f[1])) return std::nullopt;
    int n = 0;
    const auto [end, ec] = std::from_chars(f[2].data(), f[2].data() + f[2].size(), n);
    if (ec != std::errc() || end != f[2].data() + f[2].size() || n < 1) return std::nullopt;
    const std::size_t per_result = f.size() == 3 + std::size_t(n) * kFieldsPerResult ? kFieldsPerResult
        : f.size() == 3 + std::size_t(n) * (kFieldsPerResult + 1)                    ? kFieldsPerResult + 1
                                                                                     : 0;
    if (per_result == 0) return std::nullopt;
    AutotuneCache::Entry entry;
    entry.stored = f[1];
    for (int i = 0; i < n; ++i) {
        const std::string* r = &f[3 + std::size_t(i) * per_result];
        const auto block = parse_block(r[0]);
        const auto ms = parse_number(r[1]), gcells = parse_number(r[2]);
        int depth = 1;
        if (per_result > kFieldsPerResult) {
            const std::string& d = r[4];
            const auto [d_end, d_ec] = std::from_chars(d.data(), d.data() + d.size(), depth);
            if (d_ec != std::errc() || d_end != d.data() + d.size() || depth < 1 || depth > kMaxTemporalDepth)
                return std::nullopt;
        }
        if (!block || !ms || !gcells) return std::nullopt;
        AutotuneResult result { *block, *ms, *gcells, r[3], depth };
        entry.results.push_back(result);
    }
    return std::pair { f[0], std::move(entry) };
}

std::string format_line(const std::string& key, const AutotuneCache::Entry& e) {
    std::string line = key + '\t' + e.stored + '\t' + std::to_string(e.results.size());
    // Depths only when searched: the lines of other searches stay readable by versions without them.
    const bool depths = std::any_of(e.results.begin(), e.results.end(), [](auto& r) { return r.depth != 1; });
    for (const AutotuneResult& r : e.results) {
        line += '\t' + format_block(r.block) + '\t' + number_text(r.ms_per_step) + '\t' + number_text(r.gcells_per_s)
            + '\t' + one_field(r.error);
        if (depths) line += '\t' + std::to_string(r.depth);
    }
    return line + '\n';
}

constexpr std::uint64_t kMaxCacheBytes = 64u << 20; // thousands of searches; more is not a cache of ours

std::map<std::string, AutotuneCache::Entry> parse_file(const std::string& text, int* skipped) {
    std::map<std::string, AutotuneCache::Entry> entries;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#') continue;
        if (auto parsed = parse_line(line))
            entries[parsed->first] = std::move(parsed->second);
        else if (skipped)
            ++*skipped;
    }
    return entries;
}

std::string format_file(const std::map<std::string, AutotuneCache::Entry>& entries) {
    std::string text = std::string(kHeader) + '\n';
    for (const auto& [key, entry] : entries) text += format_line(key, entry);
    return text;
}

// FNV-1a over a point stencil's offsets and weights' bits: two stencils of one name and point count (two files
// that name themselves alike, or one file edited) tune to different blocks, so they are different searches.
std::uint64_t points_hash(const StencilShape& shape) {
    std::uint64_t h = 1469598103934665603ull;
    auto add = [&h](const void* data, std::size_t bytes) {
        for (std::size_t i = 0; i < bytes; ++i) h = (h ^ static_cast<const unsigned char*>(data)[i]) * 1099511628211ull;
    };
    for (const StencilPoint& p : shape.points) {
        const int offset[3] = { p.dx, p.dy, p.dz };
        std::uint64_t weight = 0;
        std::memcpy(&weight, &p.weight, sizeof weight);
        add(offset, sizeof offset);
        add(&weight, sizeof weight);
    }
    return h;
}

} // namespace

std::string autotune_cache_key(const StencilConfig& c, int steps, const DeviceInfo* device) {
    std::ostringstream key;
    if (c.placement.backend == Backend::Cpu)
        key << "device=cpu";
    else if (device)
        key << "device=" << one_field(device->name) << ";sm=" << device->cc_major << device->cc_minor
            << ";sms=" << device->sm_count;
    else
        key << "device=unknown";
    key << ";stencil=" << to_string(c.problem.stencil) << ";rule=" << to_string(c.problem.rule)
        << ";dims=" << c.problem.dims << ";size=" << format_extent(c.problem.size, c.problem.dims)
        << ";radius=" << c.problem.radius << ";variant=" << to_string(c.policy.variant) << ";cf=" << c.policy.cf
        << ";precision=" << to_string(c.problem.precision) << ";gpus=" << c.placement.gpus
        << ";overlap=" << (c.placement.overlap ? "on" : "off") << ";halo=" << to_string(c.placement.halo)
        << ";strips=" << c.placement.strips_per_device << ";steps=" << std::max(steps, 1);
    if (c.problem.stencil == StencilKind::Points && c.problem.shape) { // which points: name, count and their hash
        char hash[17];
        std::snprintf(hash, sizeof hash, "%016llx", static_cast<unsigned long long>(points_hash(*c.problem.shape)));
        key << ";points=" << one_field(stencil_name(c.problem)) << "," << stencil_points(c.problem) << "," << hash;
    }
    if (c.policy.variant == Variant::Temporal) { // the depths searched: a search over others is another search
        key << ";depths=";
        const std::vector<int> depths = temporal_depths(c);
        for (std::size_t i = 0; i < depths.size(); ++i) key << (i ? "," : "") << depths[i];
    }
    return key.str();
}

std::string default_autotune_cache_path() {
    return user_cache_path("autotune.tsv");
}

AutotuneCache::AutotuneCache(std::string path)
    : m_path(std::move(path)) {
    std::string text;
    // A FIFO, a device or a huge file is not read (store() then refuses with the reason); a missing file is
    // an empty cache.
    if (!m_path.empty() && std::filesystem::exists(std::filesystem::symlink_status(m_path))
        && read_regular_file(m_path, kMaxCacheBytes, text))
        m_entries = parse_file(text, &m_skipped);
}

std::optional<AutotuneCache::Entry> AutotuneCache::lookup(const std::string& key) const {
    const auto it = m_entries.find(one_field(key));
    if (it == m_entries.end()) return std::nullopt;
    return it->second;
}

Status AutotuneCache::store(const std::string& key, const std::vector<AutotuneResult>& results) {
    if (results.empty()) return Status::failure("nothing to store: the search had no candidates");
    if (m_path.empty()) {
        m_entries[one_field(key)] = Entry { results, utc_timestamp() };
        return Status::failure("no autotune cache file (neither XDG_CACHE_HOME nor HOME is set)");
    }
    std::error_code ec;
    const std::filesystem::path p(m_path);
    if (p.has_parent_path()) std::filesystem::create_directories(p.parent_path(), ec); // a failure shows below
    // Under the file's lock: another process may have stored entries since this one read the file, so
    // merge with what is there now and keep the newer of each.
    const Entry fresh { results, utc_timestamp() };
    m_entries[one_field(key)] = fresh; // serves lookups even when the file cannot be written
    return update_locked(
        m_path, kMaxCacheBytes,
        [&](const std::string& current) {
            std::map<std::string, Entry> merged = parse_file(current, nullptr);
            for (const auto& [k, e] : m_entries) {
                const auto it = merged.find(k);
                if (it == merged.end() || it->second.stored < e.stored) merged[k] = e;
            }
            merged[one_field(key)] = fresh;
            m_entries = merged;
            return format_file(merged);
        },
        "the autotune cache");
}

CachedAutotune autotune_cached(const StencilConfig& config, const DeviceCatalogue& catalogue,
    const std::vector<double>& field, int steps, int repeats,
    const std::function<bool(int, int, const AutotuneResult&)>& progress, AutotuneCache* cache, bool reuse) {
    CachedAutotune out;
    const DeviceInfo* device
        = config.placement.backend == Backend::Cuda ? catalogue.find(config.placement.device) : nullptr;
    const std::string key = autotune_cache_key(config, steps, device);
    if (cache && reuse)
        if (auto hit = cache->lookup(key)) {
            out.results = std::move(hit->results);
            out.from_cache = true;
            out.stored = hit->stored;
            return out;
        }
    out.results = autotune(config, catalogue, field, steps, repeats, [&](int done, int total, const AutotuneResult& r) {
        const bool go_on = !progress || progress(done, total, r);
        out.cancelled = out.cancelled || !go_on;
        return go_on;
    });
    const bool any_ran = std::any_of(out.results.begin(), out.results.end(), [](auto& r) { return r.error.empty(); });
    // Failures alone may be passing (out of memory, a busy GPU): only a search that measured something is kept.
    if (cache && !out.cancelled && any_ran) out.saved = cache->store(key, out.results);
    return out;
}

} // namespace ss
