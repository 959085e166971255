// SPDX-License-Identifier: MIT
#include "reports/csv.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

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
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::path p(path);
    if (fs::is_directory(p, ec)) return Status::failure("cannot write CSV " + path + ": it is a directory");
    const fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
    if (!fs::is_directory(dir, ec))
        return Status::failure("cannot write CSV " + path + ": directory " + dir.string() + " does not exist");
    const fs::path probe = p.string() + ".tmp";
    {
        std::ofstream out(probe, std::ios::binary | std::ios::app);
        if (!out) return Status::failure("cannot write CSV " + path + ": permission denied or read-only directory");
    }
    fs::remove(probe, ec);
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
    std::string existing;
    {
        std::ifstream in(path, std::ios::binary);
        if (in) {
            std::ostringstream ss;
            ss << in.rdbuf();
            existing = ss.str();
        }
    }
    const std::string header_line = csv_line(header);
    if (!existing.empty()) {
        const auto eol = existing.find('\n');
        if (existing.substr(0, eol + 1) != header_line)
            return Status::failure("cannot append to " + path + ": its header differs from this command's columns");
        if (existing.back() != '\n') existing += '\n';
    } else {
        existing = header_line;
    }
    for (const auto& r : rows) existing += csv_line(r);
    const std::string tmp = path + ".tmp";
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        if (!out) return Status::failure("cannot write CSV " + path + ": cannot create " + tmp);
        out << existing;
        out.flush();
        if (!out) {
            std::remove(tmp.c_str());
            return Status::failure("cannot write CSV " + path + ": write failed (disk full?)");
        }
    }
    std::error_code ec;
    std::filesystem::rename(tmp, path, ec);
    if (ec) {
        std::remove(tmp.c_str());
        return Status::failure("cannot write CSV " + path + ": " + ec.message());
    }
    return Status::success();
}

} // namespace ss
