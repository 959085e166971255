// SPDX-License-Identifier: MIT
// Reading and writing the user's files without harm (POSIX). In the lowest layer so that the autotune
// cache (engine), the CLI's CSV and the GUI's exports share one set of rules:
// - only regular files are read or written: a FIFO, a device node or a directory is refused before any
//   byte moves, and a read never blocks on a FIFO (opened non-blocking, then checked);
// - reads are bounded: a file larger than the caller's limit is refused from its size, not read whole;
// - an existing file is written where it is: a symlink keeps pointing at it, an appended file's hard
//   links stay shared, its mode and owner are kept; a file without any write permission bit is refused,
//   also for root;
// - appends lock the file (flock) and write each call's bytes in one O_APPEND write, so that several
//   processes appending to one CSV lose nothing and never interleave rows;
// - a write lands whole or not at all: a failed append (a full disk, the file size limit) cuts the file
//   back to its length before, and a file the failed append created is removed again;
// - replacements go through a uniquely named temporary in the same folder (mkstemp), fsynced and renamed
//   over the target only after every byte was written; a failure removes the temporary and leaves the
//   target as it was. A hard link is therefore split by a successful replace (the other names keep the
//   old contents), as an editor's save does: rewriting the shared file in place would lose it on a full disk.
#pragma once

#include "gpu/problem/config.h" // Status

#include <cstdint>
#include <functional>
#include <string>

namespace ss {

// Reads the whole regular file `path` into `out`, refusing it when it is larger than `max_bytes`.
Status read_regular_file(const std::string& path, std::uint64_t max_bytes, std::string& out);

// Whether `path` could be written: a new name in an existing folder, or an existing regular file with
// a write permission bit. Creates and deletes nothing.
Status check_writable_path(const std::string& path);

// Appends under an exclusive lock. `header_check` sees the file's first bytes (at most `head_bytes`,
// empty for a new or empty file) and may refuse; `text_for` gets whether the file is empty and whether
// it ends in a newline, and returns the bytes to append.
Status append_locked(const std::string& path, std::size_t head_bytes,
    const std::function<Status(const std::string& head)>& header_check,
    const std::function<std::string(bool empty, bool ends_with_newline)>& text_for);

// Writes `bytes` to `fd` whole or not at all: on a regular file, a failed or short write is undone (the
// file cut back to its length before, when nothing but this write grew it). Writes that would pass the
// file size limit (ulimit -f) are refused before any byte moves. `where` names the file in the messages.
Status write_whole(int fd, const std::string& bytes, const std::string& where);

// Replaces the contents of `path` (see above); `what` names the file in the messages.
Status replace_file(const std::string& path, const std::string& contents, const std::string& what);

// Runs `update` with the current contents of `path` (empty when it does not exist) under an exclusive
// lock, and replaces the contents with what it returns (through a temporary, as replace_file): a
// read-modify-write that concurrent processes do one after the other.
Status update_locked(const std::string& path, std::uint64_t max_bytes,
    const std::function<std::string(const std::string& current)>& update, const std::string& what);

// Tests only: after `bytes` more bytes, every write of this process fails with ENOSPC (a short write
// first), as on a full disk; a negative value ends it.
void simulate_full_disk_after(long long bytes);

} // namespace ss
