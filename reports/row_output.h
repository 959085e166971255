// SPDX-License-Identifier: MIT
// Where a command's rows go, as the tools people pipe together expect: a CSV appended to a regular file
// (reports/csv.h: locked, header checked), or written to a stream ("-" for stdout, /dev/stdout, a pipe, a
// FIFO, a character device), header first; or JSON Lines (one object per row, the CSV's column names as
// keys). Every write is whole rows in one go, written at once: an interrupted command keeps the rows
// it wrote, and never half a row. POSIX, Qt-free.
#pragma once

#include "reports/csv.h"

#include <string>
#include <vector>

namespace ss {

// One CSV row as a JSON object with `header`'s names as keys: a field that is a JSON number stays a
// number, an empty field is null, any other is a string. Ends without a newline.
std::string json_object(const CsvRow& header, const CsvRow& row);

class RowSink {
public:
    RowSink() = default;
    ~RowSink();
    RowSink(const RowSink&) = delete;
    RowSink& operator=(const RowSink&) = delete;

    // The CSV at `path`, checked before any work. "-", or a path that names the file or pipe `stdout_fd`
    // writes to, is stdout (uses_stdout()); a pipe, FIFO, character device or socket is opened now (a FIFO
    // waits for its reader, as a shell redirection does) and gets the header before its first row; any other
    // path is a regular file (check_csv_path, check_csv_header), appended under a lock.
    Status open_csv(const std::string& path, const CsvRow& header, int stdout_fd);
    // JSON Lines on stdout.
    Status open_json(const CsvRow& header, int stdout_fd);

    bool is_open() const { return m_kind != Kind::Closed; }
    // Rows go to stdout: through a copy of `stdout_fd` made when opened, so that the caller may point fd 1
    // elsewhere (the human report to stderr) and the rows still reach the pipe or file stdout was.
    bool uses_stdout() const { return m_uses_stdout; }
    Status write(const std::vector<CsvRow>& rows);

private:
    enum class Kind { Closed, File, Stream, Json };
    Kind m_kind = Kind::Closed;
    std::string m_path;
    CsvRow m_header;
    int m_fd = -1;
    bool m_owns_fd = false, m_uses_stdout = false, m_header_written = false;
};

} // namespace ss
