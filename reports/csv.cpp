// SPDX-License-Identifier: MIT
#include "reports/csv.h"

#include "gpu/io/safe_file.h"

#include <filesystem>
#include <fstream>

namespace ss {

std::string csv_escape(const std::string& f) {
    if (f.find_first_of(",\"\n\r") == std::string::npos) return f;
    std::string out = "\"";
    for (char ch : f) {
        if (ch == '"') out += '"';
        out += ch;
    }
    return out + "\"";
}

std::string csv_line(const CsvRow& fields) {
    std::string line;
    for (std::size_t i = 0; i < fields.size(); ++i) {
        if (i) line += ',';
        line += csv_escape(fields[i]);
    }
    return line + "\n";
}

Status check_csv_path(const std::string& path) {
    if (Status s = check_writable_path(path); !s)
        return Status::failure(s.reason + " (a CSV is appended to a regular file)");
    return Status::success();
}

Status check_csv_header(const std::string& path, const CsvRow& header) {
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::file_status status = fs::status(path, ec);
    if (!fs::exists(status)) return Status::success(); // a new file gets the header
    if (!fs::is_regular_file(status)) return Status::failure("cannot append to " + path + ": not a regular file");
    const std::string expected = csv_line(header);
    std::ifstream in(path, std::ios::binary);
    if (!in) return Status::failure("cannot append to " + path + ": it cannot be read to check its header");
    std::string head(expected.size() + 2, '\0');
    in.read(head.data(), std::streamsize(head.size()));
    head.resize(std::size_t(in.gcount()));
    if (head.empty() || head.rfind(expected, 0) == 0) return Status::success();
    const std::string why = "cannot append to " + path + ": ";
    if (head.rfind("\xEF\xBB\xBF", 0) == 0)
        return Status::failure(why + "it begins with a byte-order mark (BOM); this command writes plain UTF-8");
    const std::string first_line = head.substr(0, head.find('\n'));
    if (first_line.find('\r') != std::string::npos)
        return Status::failure(why + "it has Windows line ends (CRLF); this command writes LF");
    return Status::failure(why + "its header differs from this command's columns (docs/CSV.md)");
}

Status append_csv(const std::string& path, const CsvRow& header, const std::vector<CsvRow>& rows) {
    // One locked O_APPEND write per call: concurrent runs appending to one file keep every row, in whole
    // lines, and the file is never rewritten (its mode, links and size stay the user's).
    const std::string header_line = csv_line(header);
    std::string body;
    for (const auto& r : rows) body += csv_line(r);
    return append_locked(
        path, header_line.size() + 2,
        [&](const std::string& head) {
            if (head.empty() || head.rfind(header_line, 0) == 0) return Status::success();
            return check_csv_header(path, header); // says why (BOM, CRLF, other columns)
        },
        [&](bool empty, bool ends_with_newline) {
            return (empty ? header_line : std::string(ends_with_newline ? "" : "\n")) + body;
        });
}

} // namespace ss
