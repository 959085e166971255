// SPDX-License-Identifier: MIT
#include "gpu/io/safe_file.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <utility>

namespace ss {
namespace {

constexpr mode_t kAnyWriteBit = S_IWUSR | S_IWGRP | S_IWOTH;

class Fd { // closes on every path out
public:
    explicit Fd(int fd)
        : m_fd(fd) { }
    ~Fd() {
        if (m_fd >= 0) ::close(m_fd);
    }
    Fd(const Fd&) = delete;
    Fd& operator=(const Fd&) = delete;
    int get() const { return m_fd; }
    int release() { return std::exchange(m_fd, -1); }

private:
    int m_fd;
};

std::string errno_text() {
    return std::strerror(errno);
}

std::string kind_of(mode_t mode) {
    if (S_ISDIR(mode)) return "a directory";
    if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
    if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
    if (S_ISSOCK(mode)) return "a socket";
    return "not a regular file";
}

// Opens without blocking on a FIFO, then insists on a regular file and restores blocking I/O.
Status open_regular(
    const std::string& path, int flags, mode_t create_mode, const std::string& what, int& fd_out, struct stat& st) {
    Fd fd(::open(path.c_str(), flags | O_NONBLOCK | O_CLOEXEC, create_mode));
    const bool reads_only = (flags & O_ACCMODE) == O_RDONLY;
    if (fd.get() < 0)
        return Status::failure(
            (reads_only ? "cannot read " : "cannot write ") + what + " " + path + ": " + errno_text());
    if (::fstat(fd.get(), &st) != 0)
        return Status::failure("cannot inspect " + what + " " + path + ": " + errno_text());
    if (!S_ISREG(st.st_mode))
        return Status::failure(what + " " + path + " is " + kind_of(st.st_mode) + ", not a regular file");
    ::fcntl(fd.get(), F_SETFL, ::fcntl(fd.get(), F_GETFL) & ~O_NONBLOCK);
    fd_out = fd.release();
    return Status::success();
}

std::atomic<long long> g_disk_left { -1 }; // simulate_full_disk_after: bytes until "disk full", -1 = off

ssize_t write_some(int fd, const char* data, std::size_t size) {
    const long long left = g_disk_left.load();
    if (left < 0) return ::write(fd, data, size);
    if (left == 0) {
        errno = ENOSPC;
        return -1;
    }
    const ssize_t n = ::write(fd, data, std::min<std::size_t>(size, std::size_t(left)));
    if (n > 0) g_disk_left -= n;
    return n;
}

// `done` counts the bytes that reached the file, also when it fails.
Status write_all(int fd, const std::string& bytes, const std::string& where, std::size_t& done) {
    done = 0;
    while (done < bytes.size()) {
        const ssize_t n = write_some(fd, bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            const int err = n < 0 ? errno : 0;
            return Status::failure("cannot write " + where + ": "
                + (n < 0 ? std::string(std::strerror(err)) : std::string("nothing written"))
                + (err == ENOSPC ? " (disk full)" : ""));
        }
        done += std::size_t(n);
    }
    return Status::success();
}

// The file size limit (ulimit -f) is checked before writing: passing it would end the process with
// SIGXFSZ halfway through a row.
Status check_size_limit(std::uint64_t end, const std::string& where) {
    struct rlimit limit { };
    if (::getrlimit(RLIMIT_FSIZE, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY || end <= limit.rlim_cur)
        return Status::success();
    return Status::failure("cannot write " + where + ": it would pass the file size limit (ulimit -f, "
        + std::to_string(limit.rlim_cur) + " bytes)");
}

// Whether the locked descriptor still is the file at `path`: a replace (rename) or a failed first append
// (unlink) may have swapped or removed it while this process waited for the lock.
bool still_at_path(int fd, const std::string& path) {
    struct stat mine {
    }, named {};
    return ::fstat(fd, &mine) == 0 && mine.st_nlink > 0 && ::stat(path.c_str(), &named) == 0
        && named.st_dev == mine.st_dev && named.st_ino == mine.st_ino;
}

// Removes the file this process created (through a symlink too), if `path` still names it.
void remove_created(int fd, const std::string& path) {
    std::error_code ec;
    const std::filesystem::path target = std::filesystem::canonical(path, ec);
    if (!ec && still_at_path(fd, target.string())) ::unlink(target.c_str());
}

Status read_all(int fd, std::uint64_t size, std::string& out, const std::string& path, const std::string& what) {
    out.resize(std::size_t(size));
    std::size_t done = 0;
    while (done < out.size()) {
        const ssize_t n = ::pread(fd, out.data() + done, out.size() - done, off_t(done));
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return Status::failure("cannot read " + what + " " + path + ": " + errno_text());
        if (n == 0) break; // shrank meanwhile
        done += std::size_t(n);
    }
    out.resize(done);
    return Status::success();
}

// Opens `path` (created when missing) and takes its exclusive lock, again when the file was replaced or
// removed while this process waited. `created`: this call made the file (it was missing).
Status open_locked(const std::string& path, int flags, const std::string& what, int& fd_out, bool& created) {
    for (int attempt = 0; attempt < 64; ++attempt) {
        struct stat st { };
        created = ::access(path.c_str(), F_OK) != 0;
        int raw = -1;
        if (Status s = open_regular(path, flags | O_CREAT, 0666, what, raw, st); !s) return s;
        Fd fd(raw);
        if (::flock(fd.get(), LOCK_EX) != 0)
            return Status::failure("cannot lock " + what + " " + path + ": " + errno_text());
        if (!still_at_path(fd.get(), path)) continue;
        fd_out = fd.release();
        return Status::success();
    }
    return Status::failure("cannot lock " + what + " " + path + ": it kept being replaced by other processes");
}

std::string size_text(std::uint64_t bytes) {
    return bytes >= (1u << 20) ? std::to_string(bytes >> 20) + " MiB" : std::to_string(bytes) + " bytes";
}

} // namespace

Status read_regular_file(const std::string& path, std::uint64_t max_bytes, std::string& out) {
    int raw = -1;
    struct stat st { };
    if (Status s = open_regular(path, O_RDONLY, 0, "file", raw, st); !s) return s;
    Fd fd(raw);
    if (std::uint64_t(st.st_size) > max_bytes)
        return Status::failure(path + " is larger than " + size_text(max_bytes) + " ("
            + size_text(std::uint64_t(st.st_size)) + "): not read");
    return read_all(fd.get(), std::uint64_t(st.st_size), out, path, "file");
}

Status check_writable_path(const std::string& path) {
    namespace fs = std::filesystem;
    struct stat st { };
    if (::stat(path.c_str(), &st) == 0) {
        if (!S_ISREG(st.st_mode))
            return Status::failure("cannot write " + path + ": it is " + kind_of(st.st_mode) + ", not a regular file");
        if ((st.st_mode & kAnyWriteBit) == 0) return Status::failure("cannot write " + path + ": it is read-only");
        if (::access(path.c_str(), W_OK) != 0) return Status::failure("cannot write " + path + ": " + errno_text());
        return Status::success();
    }
    const fs::path p(path);
    const std::string dir = p.has_parent_path() ? p.parent_path().string() : std::string(".");
    struct stat dst { };
    if (::stat(dir.c_str(), &dst) != 0 || !S_ISDIR(dst.st_mode))
        return Status::failure("cannot write " + path + ": folder " + dir + " does not exist");
    // A probe under a name of its own (never the user's NAME.tmp): access() says yes to root even where
    // nothing can be created, e.g. in /proc.
    std::string probe = dir + "/.stencilscope-probe-XXXXXX";
    const int fd = ::mkstemp(probe.data());
    if (fd < 0) return Status::failure("cannot create files in " + dir + " (" + errno_text() + ")");
    ::close(fd);
    ::unlink(probe.c_str());
    return Status::success();
}

Status write_whole(int fd, const std::string& bytes, const std::string& where) {
    struct stat before { };
    std::size_t done = 0;
    if (::fstat(fd, &before) != 0 || !S_ISREG(before.st_mode)) return write_all(fd, bytes, where, done);
    const off_t offset = ::lseek(fd, 0, SEEK_CUR);
    const bool appends = (::fcntl(fd, F_GETFL) & O_APPEND) != 0;
    const std::uint64_t from = std::uint64_t(appends || offset < 0 ? before.st_size : std::max(offset, before.st_size));
    if (Status s = check_size_limit(from + bytes.size(), where); !s) return s;
    Status s = write_all(fd, bytes, where, done);
    if (s || done == 0) return s;
    // Undone only when the file grew by exactly this write's bytes: stdout may be a file that others
    // append to as well, and their rows are not ours to cut.
    struct stat after { };
    if (::fstat(fd, &after) == 0 && std::uint64_t(after.st_size) == std::uint64_t(before.st_size) + done) {
        if (::ftruncate(fd, before.st_size) != 0)
            return Status::failure(s.reason + "; cutting it back to its length failed too: " + errno_text());
        if (offset >= 0) ::lseek(fd, offset, SEEK_SET);
    }
    return s;
}

Status append_locked(const std::string& path, std::size_t head_bytes,
    const std::function<Status(const std::string& head)>& header_check,
    const std::function<std::string(bool empty, bool ends_with_newline)>& text_for) {
    if (Status s = check_writable_path(path); !s) return s;
    int raw = -1;
    bool created = false;
    if (Status s = open_locked(path, O_RDWR | O_APPEND, "CSV", raw, created); !s) return s;
    Fd fd(raw);
    struct stat st { };
    if (::fstat(fd.get(), &st) != 0) return Status::failure("cannot inspect " + path + ": " + errno_text());
    const std::uint64_t size = std::uint64_t(st.st_size);
    std::string head;
    if (Status s = read_all(fd.get(), std::min<std::uint64_t>(size, head_bytes), head, path, "CSV"); !s) return s;
    if (Status s = header_check(head); !s) return s;
    char last = '\n';
    if (size > 0 && ::pread(fd.get(), &last, 1, off_t(size - 1)) != 1) last = '\n';
    Status s = write_whole(fd.get(), text_for(size == 0, last == '\n'), "CSV " + path);
    // A file this call created and could not give a row is removed again (still under the lock; a process
    // waiting for it sees that and creates the file anew).
    if (!s && created && size == 0) remove_created(fd.get(), path);
    return s; // the lock ends with close
}

Status replace_file(const std::string& path, const std::string& contents, const std::string& what) {
    namespace fs = std::filesystem;
    if (Status s = check_writable_path(path); !s) return s;
    std::error_code ec;
    // A symlink is followed: the file it points at is replaced, the link stays.
    const bool is_link = fs::is_symlink(fs::symlink_status(path, ec));
    ec.clear();
    const fs::path target = is_link ? fs::canonical(path, ec) : fs::path(path);
    if (ec) return Status::failure("cannot write " + what + " " + path + ": " + ec.message());
    const std::string where = what + " " + path;
    // Even with several hard links: written in place, a failure halfway would leave every name broken.
    if (Status s = check_size_limit(contents.size(), where); !s) return s;
    struct stat st { };
    const bool exists = ::stat(target.c_str(), &st) == 0;
    const std::string folder = target.has_parent_path() ? target.parent_path().string() : std::string(".");
    std::string temp = folder + "/." + target.filename().string() + ".XXXXXX";
    Fd fd(::mkstemp(temp.data()));
    if (fd.get() < 0) return Status::failure("cannot write " + where + ": " + errno_text());
    // The new file takes the old one's mode (mkstemp makes 0600); a new name gets 0666 less the umask.
    mode_t mode = 0;
    if (exists) {
        mode = st.st_mode & 07777;
        if (::fchown(fd.get(), st.st_uid, st.st_gid) != 0) { } // not ours to change: keep ours
    } else {
        const mode_t mask = ::umask(0);
        ::umask(mask);
        mode = 0666 & ~mask;
    }
    std::size_t done = 0;
    Status s = ::fchmod(fd.get(), mode) == 0 ? write_all(fd.get(), contents, where, done)
                                             : Status::failure("cannot write " + where + ": " + errno_text());
    if (s && ::fsync(fd.get()) != 0) s = Status::failure("cannot write " + where + ": " + errno_text());
    if (s && ::rename(temp.c_str(), target.c_str()) != 0)
        s = Status::failure("cannot write " + where + ": " + errno_text());
    if (!s) {
        ::unlink(temp.c_str());
        return s;
    }
    Fd dir(::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (dir.get() >= 0) ::fsync(dir.get()); // the rename itself survives a power cut
    return s;
}

Status update_locked(const std::string& path, std::uint64_t max_bytes,
    const std::function<std::string(const std::string& current)>& update, const std::string& what) {
    if (Status s = check_writable_path(path); !s) return s;
    int raw = -1;
    bool created = false;
    if (Status s = open_locked(path, O_RDWR, what, raw, created); !s) return s;
    Fd fd(raw);
    struct stat st { };
    if (::fstat(fd.get(), &st) != 0) return Status::failure("cannot inspect " + path + ": " + errno_text());
    if (std::uint64_t(st.st_size) > max_bytes)
        return Status::failure(
            what + " " + path + " is " + size_text(std::uint64_t(st.st_size)) + ", more than " + size_text(max_bytes));
    std::string current;
    if (Status s = read_all(fd.get(), std::uint64_t(st.st_size), current, path, what); !s) return s;
    // Replaced through a temporary while this process holds the old file's lock: one that waits for it
    // finds the file replaced, and locks and reads the new one.
    Status s = replace_file(path, update(current), what);
    if (!s && created && current.empty()) remove_created(fd.get(), path);
    return s;
}

void simulate_full_disk_after(long long bytes) {
    g_disk_left = bytes < 0 ? -1 : bytes;
}

} // namespace ss
