// SPDX-License-Identifier: MIT
#include "reports/row_output.h"

#include "gpu/io/safe_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <regex>

namespace ss {
namespace {

bool is_json_number(const std::string& text) {
    static const std::regex number(R"(-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?)");
    return std::regex_match(text, number);
}

std::string json_string(const std::string& text) {
    std::string out = "\"";
    for (const char ch : text) {
        const auto byte = static_cast<unsigned char>(ch);
        if (ch == '"' || ch == '\\') {
            out += '\\';
            out += ch;
        } else if (byte < 0x20) {
            char escaped[8];
            std::snprintf(escaped, sizeof escaped, "\\u%04x", byte);
            out += escaped;
        } else {
            out += ch;
        }
    }
    return out + "\"";
}

bool same_file(const struct stat& a, const struct stat& b) {
    return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

bool is_stream(mode_t mode) {
    return S_ISFIFO(mode) || S_ISCHR(mode) || S_ISSOCK(mode);
}

// Whole rows or none: stdout may be a regular file (`>> rows.csv`), which a full disk must not leave
// with half a row (gpu/io/safe_file.h).
Status write_all(int fd, const std::string& bytes, const std::string& where) {
    return write_whole(fd, bytes, "to " + where);
}

} // namespace

std::string json_object(const CsvRow& header, const CsvRow& row) {
    std::string out = "{";
    for (std::size_t i = 0; i < header.size(); ++i) {
        const std::string value = i < row.size() ? row[i] : std::string();
        out += (i ? ", " : "") + json_string(header[i]) + ": ";
        out += value.empty() ? "null" : is_json_number(value) ? value : json_string(value);
    }
    return out + "}";
}

RowSink::~RowSink() {
    if (m_owns_fd && m_fd >= 0) ::close(m_fd);
}

Status RowSink::open_csv(const std::string& path, const CsvRow& header, int stdout_fd) {
    m_path = path, m_header = header;
    struct stat target {
    }, out {};
    const bool exists = path != "-" && ::stat(path.c_str(), &target) == 0;
    const bool stdout_known = ::fstat(stdout_fd, &out) == 0;
    m_uses_stdout = path == "-" || (exists && stdout_known && same_file(target, out));
    if (!m_uses_stdout && (!exists || !is_stream(target.st_mode))) { // a regular file, or refused as not one
        if (Status s = check_csv_path(path); !s) return s;
        if (Status s = check_csv_header(path, header); !s) return s;
        m_kind = Kind::File;
        return Status::success();
    }
    if (m_uses_stdout) {
        m_path = "stdout";
        if (stdout_known && S_ISREG(out.st_mode) && out.st_size > 0) { // `>> rows.csv`: a file with rows already
            const std::string reopened = "/proc/self/fd/" + std::to_string(stdout_fd);
            if (Status s = check_csv_header(reopened, header); !s) { // named as the user knows it
                const std::size_t at = s.reason.find(reopened);
                return Status::failure(
                    at == std::string::npos ? s.reason : s.reason.replace(at, reopened.size(), "stdout"));
            }
            m_header_written = true;
        }
        m_fd = ::fcntl(stdout_fd, F_DUPFD_CLOEXEC, 3);
    } else {
        m_fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
    }
    if (m_fd < 0) return Status::failure("cannot write " + m_path + ": " + std::strerror(errno));
    m_owns_fd = true;
    m_kind = Kind::Stream;
    return Status::success();
}

Status RowSink::open_json(const CsvRow& header, int stdout_fd) {
    m_path = "stdout", m_header = header, m_uses_stdout = true;
    m_fd = ::fcntl(stdout_fd, F_DUPFD_CLOEXEC, 3);
    if (m_fd < 0) return Status::failure(std::string("cannot write JSON to stdout: ") + std::strerror(errno));
    m_owns_fd = true;
    m_kind = Kind::Json;
    return Status::success();
}

Status RowSink::write(const std::vector<CsvRow>& rows) {
    switch (m_kind) {
    case Kind::Closed:
        return Status::success();
    case Kind::File:
        return append_csv(m_path, m_header, rows);
    case Kind::Stream: {
        std::string text = m_header_written ? "" : csv_line(m_header);
        for (const CsvRow& row : rows) text += csv_line(row);
        if (Status s = write_all(m_fd, text, m_path); !s) return s;
        m_header_written = true;
        return Status::success();
    }
    case Kind::Json: {
        std::string text;
        for (const CsvRow& row : rows) text += json_object(m_header, row) + "\n";
        return write_all(m_fd, text, m_path);
    }
    }
    return Status::success();
}

} // namespace ss
