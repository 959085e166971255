// SPDX-License-Identifier: MIT
// autotune() results kept on disk, so that a block search (tens of seconds) runs once per device model
// and configuration. A small TSV, one line per key (format in gpu/studies/autotune_cache.cpp); the caller
// chooses the file. Damaged lines are skipped, writes replace the file atomically. Qt-free; not
// thread-safe: one thread uses an AutotuneCache.
#pragma once

#include "gpu/problem/config.h"
#include "gpu/problem/device.h"
#include "gpu/studies/autotune.h"

#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ss {

// What the timings depend on, block aside: the device model (name, compute capability, SM count; not
// which card, since one H100 tunes like another) and every configuration field that changes the work
// (stencil, rule, dims, size, radius, variant, CF, precision, GPUs, overlap, halo, strips) plus the
// steps per timed run; for the temporal variant the depths searched. `device` null: the CPU backend. One line of
// text without tabs.
std::string autotune_cache_key(const StencilConfig&, int steps, const DeviceInfo* device);

// $XDG_CACHE_HOME/stencilscope/autotune.tsv, else ~/.cache/stencilscope/autotune.tsv; "" without $HOME.
std::string default_autotune_cache_path();

class AutotuneCache {
public:
    struct Entry {
        std::vector<AutotuneResult> results; // as autotune() returned them
        std::string stored; // when, ISO 8601 UTC
    };

    // Reads `path` now; a missing or unreadable file is an empty cache.
    explicit AutotuneCache(std::string path);

    const std::string& path() const { return m_path; }
    std::size_t size() const { return m_entries.size(); }
    // Lines of the file that could not be parsed when it was read (they are dropped on the next store).
    int skipped_lines() const { return m_skipped; }

    std::optional<Entry> lookup(const std::string& key) const;
    // Keeps `results` under `key` in memory and rewrites the file (merged with what other processes
    // stored meanwhile). A failure to write is returned, never thrown: the entry still serves lookups.
    Status store(const std::string& key, const std::vector<AutotuneResult>& results);

private:
    std::string m_path;
    std::map<std::string, Entry> m_entries;
    int m_skipped = 0;
};

struct CachedAutotune {
    std::vector<AutotuneResult> results;
    bool from_cache = false;
    std::string stored; // from_cache: when the results were measured
    bool cancelled = false; // progress returned false: partial results, not stored
    Status saved; // why the results could not be written to the cache (they are still returned)
};

// autotune() through `cache` (may be null: always measures, stores nothing): a hit returns the stored
// results without running anything; a fresh search with at least one candidate that ran is stored.
// `reuse` false measures anew even on a hit and replaces the stored search ("Search again").
CachedAutotune autotune_cached(const StencilConfig& config, const DeviceCatalogue& catalogue,
    const std::vector<double>& field, int steps, int repeats,
    const std::function<bool(int, int, const AutotuneResult&)>& progress, AutotuneCache* cache, bool reuse = true);

} // namespace ss
