// SPDX-License-Identifier: MIT
// CSV output that loads in pandas/Excel as is: RFC 4180 quoting, one header row. Appending to an
// existing file requires the same header. Appends are one locked write of whole rows (gpu/io/safe_file.h):
// concurrent processes lose nothing, and the file keeps its mode and links. Qt-free.
#pragma once

#include "gpu/problem/config.h"

#include <string>
#include <vector>

namespace ss {

using CsvRow = std::vector<std::string>;

std::string csv_escape(const std::string& field);
std::string csv_line(const CsvRow& fields);

// Appends rows to `path`, writing `header` first when the file is new or empty.
Status append_csv(const std::string& path, const CsvRow& header, const std::vector<CsvRow>& rows);

// A writable-path check done before any work starts: a new name in an existing, writable folder, or an
// existing regular file with a write permission bit. Creates nothing.
Status check_csv_path(const std::string& path);

// The other check before any work: rows under `header` can be appended to `path`. A new or empty file
// can take them; an existing one must be a regular file whose first line is exactly `header` (so a
// byte-order mark or Windows line ends (CRLF) are refused, each named). Reads at most the header's length
// and two bytes: never a whole file, never from a FIFO or a device.
Status check_csv_header(const std::string& path, const CsvRow& header);

} // namespace ss
