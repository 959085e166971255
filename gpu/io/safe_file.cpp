// SPDX-License-Identifier: MIT
#include "gpu/io/safe_file.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

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

Status write_all(int fd, const std::string& bytes, const std::string& path, const std::string& what) {
    std::size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0)
            return Status::failure("cannot write " + what + " " + path + ": "
                + (n < 0 ? errno_text() : std::string("nothing written")) + (errno == ENOSPC ? " (disk full)" : ""));
        done += std::size_t(n);
    }
    return Status::success();
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

Status append_locked(const std::string& path, std::size_t head_bytes,
    const std::function<Status(const std::string& head)>& header_check,
    const std::function<std::string(bool empty, bool ends_with_newline)>& text_for) {
    if (Status s = check_writable_path(path); !s) return s;
    int raw = -1;
    struct stat st { };
    if (Status s = open_regular(path, O_RDWR | O_APPEND | O_CREAT, 0666, "CSV", raw, st); !s) return s;
    Fd fd(raw);
    if (::flock(fd.get(), LOCK_EX) != 0) return Status::failure("cannot lock " + path + ": " + errno_text());
    if (::fstat(fd.get(), &st) != 0) return Status::failure("cannot inspect " + path + ": " + errno_text());
    const std::uint64_t size = std::uint64_t(st.st_size);
    std::string head;
    if (Status s = read_all(fd.get(), std::min<std::uint64_t>(size, head_bytes), head, path, "CSV"); !s) return s;
    if (Status s = header_check(head); !s) return s;
    char last = '\n';
    if (size > 0 && ::pread(fd.get(), &last, 1, off_t(size - 1)) != 1) last = '\n';
    return write_all(fd.get(), text_for(size == 0, last == '\n'), path, "CSV"); // the lock ends with close
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
    struct stat st { };
    const bool exists = ::stat(target.c_str(), &st) == 0;
    if (exists && st.st_nlink > 1) { // keep the hard links: rewrite the shared inode in place
        Fd fd(::open(target.c_str(), O_WRONLY | O_CLOEXEC | O_NONBLOCK));
        if (fd.get() < 0) return Status::failure("cannot write " + what + " " + path + ": " + errno_text());
        if (::ftruncate(fd.get(), 0) != 0)
            return Status::failure("cannot write " + what + " " + path + ": " + errno_text());
        return write_all(fd.get(), contents, path, what);
    }
    std::string temp = (target.has_parent_path() ? target.parent_path().string() + "/" : std::string()) + "."
        + target.filename().string() + ".XXXXXX";
    Fd fd(::mkstemp(temp.data()));
    if (fd.get() < 0) return Status::failure("cannot write " + what + " " + path + ": " + errno_text());
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
    Status s = ::fchmod(fd.get(), mode) == 0
        ? write_all(fd.get(), contents, path, what)
        : Status::failure("cannot write " + what + " " + path + ": " + errno_text());
    if (s && ::fsync(fd.get()) != 0) s = Status::failure("cannot write " + what + " " + path + ": " + errno_text());
    if (s && ::rename(temp.c_str(), target.c_str()) != 0)
        s = Status::failure("cannot write " + what + " " + path + ": " + errno_text());
    if (!s) ::unlink(temp.c_str());
    return s;
}

Status update_locked(const std::string& path, std::uint64_t max_bytes,
    const std::function<std::string(const std::string& current)>& update, const std::string& what) {
    if (Status s = check_writable_path(path); !s) return s;
    int raw = -1;
    struct stat st { };
    if (Status s = open_regular(path, O_RDWR | O_CREAT, 0666, what, raw, st); !s) return s;
    Fd fd(raw);
    if (::flock(fd.get(), LOCK_EX) != 0)
        return Status::failure("cannot lock " + what + " " + path + ": " + errno_text());
    if (::fstat(fd.get(), &st) != 0) return Status::failure("cannot inspect " + path + ": " + errno_text());
    if (std::uint64_t(st.st_size) > max_bytes)
        return Status::failure(
            what + " " + path + " is " + size_text(std::uint64_t(st.st_size)) + ", more than " + size_text(max_bytes));
    std::string current;
    if (Status s = read_all(fd.get(), std::uint64_t(st.st_size), current, path, what); !s) return s;
    const std::string next = update(current);
    if (::ftruncate(fd.get(), 0) != 0 || ::lseek(fd.get(), 0, SEEK_SET) != 0)
        return Status::failure("cannot write " + what + " " + path + ": " + errno_text());
    return write_all(fd.get(), next, path, what);
}

} // namespace ss
