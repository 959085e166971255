// SPDX-License-Identifier: MIT
// Issue 36, classes 1, 2 and 9: a full disk leaves whole rows and old files whole, and a sweep CSV with
// nonsense numbers is refused. The disk fills through simulate_full_disk_after (a short write, then
// ENOSPC, as ext4 does) or the file size limit (setrlimit in a child process); each case compares the
// file's bytes before and after.
#include "gpu/io/safe_file.h"
#include "gpu/studies/autotune_cache.h"
#include "reports/csv.h"
#include "reports/experiment_report.h"
#include "reports/row_output.h"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>

namespace ss {
namespace {

namespace fs = std::filesystem;

class FullDisk : public ::testing::Test {
protected:
    void SetUp() override {
        char dir[] = "/tmp/ss-full-disk-XXXXXX";
        ASSERT_NE(::mkdtemp(dir), nullptr);
        m_dir = dir;
    }
    void TearDown() override {
        simulate_full_disk_after(-1);
        std::error_code ec;
        fs::remove_all(m_dir, ec);
    }
    std::string path(const std::string& name) const { return (m_dir / name).string(); }
    static std::string contents(const std::string& p) {
        std::ifstream in(p, std::ios::binary);
        std::ostringstream s;
        s << in.rdbuf();
        return s.str();
    }
    static void write(const std::string& p, const std::string& text) { std::ofstream(p, std::ios::binary) << text; }
    std::size_t files_in_folder() const {
        return std::size_t(std::distance(fs::directory_iterator(m_dir), fs::directory_iterator()));
    }
    fs::path m_dir;
};

const CsvRow kHeader { "a", "b" };

// A table of about 4 KiB, so that the next row crosses a page as in the example.
std::string table_near_a_page() {
    std::string text = csv_line(kHeader);
    for (int i = 0; text.size() < 4000; ++i) text += csv_line({ std::to_string(i), std::string(60, 'x') });
    return text;
}

// Runs `work` in a child whose files may not grow past `limit` bytes; SIGXFSZ keeps its default action,
// so a write past the limit would kill the child and fail the test. The child's exit status is work's.
bool under_file_size_limit(rlim_t limit, const std::function<bool()>& work) {
    const pid_t pid = ::fork();
    if (pid == 0) {
        const struct rlimit r { limit, limit };
        ::_exit(::setrlimit(RLIMIT_FSIZE, &r) == 0 && work() ? 0 : 1);
    }
    int status = 0;
    ::waitpid(pid, &status, 0);
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

TEST_F(FullDisk, AFailedAppendLeavesTheCsvByteForByte) {
    const std::string csv = path("runs.csv"), before = table_near_a_page();
    const CsvRow row { "new", std::string(200, 'y') };
    for (long long room : { 0LL, 1LL, 96LL, 150LL, static_cast<long long>(csv_line(row).size()) - 1 }) {
        write(csv, before);
        simulate_full_disk_after(room);
        const Status s = append_csv(csv, kHeader, { row, row });
        simulate_full_disk_after(-1);
        ASSERT_FALSE(s) << room;
        EXPECT_NE(s.reason.find("disk full"), std::string::npos) << s.reason;
        EXPECT_EQ(contents(csv), before) << "room for " << room << " bytes";
    }
    ASSERT_TRUE(append_csv(csv, kHeader, { row })); // the next append continues after a whole row
    EXPECT_EQ(contents(csv), before + csv_line(row));
}

TEST_F(FullDisk, AFailedFirstAppendLeavesNoFileAndAnEmptyOneEmpty) {
    const std::string fresh = path("fresh.csv"), empty = path("empty.csv"), link = path("link.csv");
    write(empty, "");
    fs::create_symlink(path("target.csv"), link); // dangling: the append would create its target
    for (const std::string& p : { fresh, empty, link }) {
        simulate_full_disk_after(3);
        EXPECT_FALSE(append_csv(p, kHeader, { { "1", "2" } })) << p;
        simulate_full_disk_after(-1);
    }
    EXPECT_FALSE(fs::exists(fresh));
    EXPECT_TRUE(fs::exists(empty));
    EXPECT_EQ(fs::file_size(empty), 0u);
    EXPECT_TRUE(fs::is_symlink(link));
    EXPECT_FALSE(fs::exists(path("target.csv")));
    EXPECT_EQ(files_in_folder(), 2u); // empty.csv and the link: no temporary left behind
}

TEST_F(FullDisk, AFailedReplaceKeepsEveryHardLinkedName) {
    const std::string png = path("shot.png"), twin = path("hardlink.png"), old(5000, 'o');
    write(png, old);
    fs::create_hard_link(png, twin);
    const std::string next(20000, 'n');
    for (long long room : { 0LL, 4096LL, 19999LL }) {
        simulate_full_disk_after(room);
        EXPECT_FALSE(replace_file(png, next, "picture")) << room;
        simulate_full_disk_after(-1);
        EXPECT_EQ(contents(png), old) << room;
        EXPECT_EQ(contents(twin), old) << room;
        EXPECT_EQ(files_in_folder(), 2u) << "a temporary was left behind";
    }
    ASSERT_TRUE(replace_file(png, next, "picture"));
    EXPECT_EQ(contents(png), next);
    EXPECT_EQ(contents(twin), old); // the link is split: the other name keeps what it had
}

TEST_F(FullDisk, TheFileSizeLimitRefusesBeforeAByteIsWritten) {
    const std::string csv = path("limited.csv"), png = path("limited.png"), twin = path("twin.png");
    const std::string table = table_near_a_page(), old_png(3000, 'o');
    write(csv, table);
    write(png, old_png);
    fs::create_hard_link(png, twin);
    EXPECT_TRUE(under_file_size_limit(table.size() + 10, [&] {
        const Status append = append_csv(csv, kHeader, { { "1", std::string(100, 'z') } });
        const Status replace = replace_file(png, std::string(table.size() + 11, 'n'), "picture");
        return !append && append.reason.find("file size limit") != std::string::npos && !replace;
    }));
    EXPECT_EQ(contents(csv), table);
    EXPECT_EQ(contents(png), old_png);
    EXPECT_EQ(contents(twin), old_png);
    EXPECT_EQ(files_in_folder(), 3u);
}

TEST_F(FullDisk, AFailedAutotuneStoreKeepsTheCacheFile) {
    const std::string file = path("autotune.tsv");
    {
        AutotuneCache cache(file);
        ASSERT_TRUE(cache.store("first", { AutotuneResult { { 32, 8, 1 }, 1.0, 2.0, "" } }));
    }
    const std::string before = contents(file);
    simulate_full_disk_after(10);
    AutotuneCache cache(file);
    EXPECT_FALSE(cache.store("second", { AutotuneResult { { 64, 4, 1 }, 1.0, 2.0, "" } }));
    simulate_full_disk_after(-1);
    EXPECT_EQ(contents(file), before);
    AutotuneCache reread(file);
    EXPECT_TRUE(reread.lookup("first").has_value());
    EXPECT_EQ(files_in_folder(), 1u);
}

TEST_F(FullDisk, RowsOnAStdoutThatIsAFileAreWholeOrNone) {
    const std::string file = path("stdout.csv"), before = table_near_a_page();
    write(file, before);
    const int out = ::open(file.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC); // `>> stdout.csv`
    ASSERT_GE(out, 0);
    RowSink sink;
    ASSERT_TRUE(sink.open_csv("-", kHeader, out));
    simulate_full_disk_after(7);
    EXPECT_FALSE(sink.write({ { "1", std::string(100, 'z') } }));
    simulate_full_disk_after(-1);
    EXPECT_EQ(contents(file), before);
    ASSERT_TRUE(sink.write({ { "2", "b" } }));
    EXPECT_EQ(contents(file), before + "2,b\n");
    ::close(out);
}

// Class 9: a sweep row whose figures no run gives is refused, naming its row and column.
TEST_F(FullDisk, ASweepWithNonsenseNumbersIsRefusedNamingRowAndColumn) {
    const std::string good = "2026-11-22T23:06:22Z,H100,cf,base,star,thesis,2,4096x4096,1,base,1,fp32,32,32,1,0,"
                             "0.08364,200.4,1,dram_write_gbs,848.712,1,,1,\n";
    const std::string file = path("sweep.csv");
    auto with = [&](const std::string& field, const std::string& value) {
        std::string row = good;
        return row.replace(row.find(field), field.size(), value);
    };
    write(file, csv_line(experiment_csv_header()) + good);
    ExperimentTable table;
    ASSERT_TRUE(read_experiment_csv(file, &table));
    const std::pair<std::string, std::string> cases[] = {
        { with("200.4", "1e308"), "column gcells_per_s" },
        { with("200.4", "inf"), "column gcells_per_s" },
        { with("200.4", "nan"), "column gcells_per_s" },
        { with("200.4", "-5"), "column gcells_per_s" },
        { with("200.4", "1e999"), "column gcells_per_s" },
        { with("0.08364", "-1"), "column ms_per_step" },
        { with("848.712", "inf"), "column bottleneck_gbs" },
        { with("32,32,1,0", "32,-32,1,0"), "column block_y" },
        { with("base,1,fp32", "base,0,fp32"), "column cf" },
        { with(",2,4096x4096,1,", ",2,4096x4096,99,"), "radius" },
    };
    for (const auto& [row, column] : cases) {
        write(file, csv_line(experiment_csv_header()) + good + row);
        const Status s = read_experiment_csv(file, &table);
        ASSERT_FALSE(s) << row;
        EXPECT_NE(s.reason.find("row 3"), std::string::npos) << s.reason;
        EXPECT_NE(s.reason.find(column), std::string::npos) << s.reason;
        EXPECT_EQ(s.reason.find('\n'), std::string::npos) << s.reason;
    }
    write(file, csv_line(experiment_csv_header()) + with("200.4", "")); // not measured: allowed, no bar
    ASSERT_TRUE(read_experiment_csv(file, &table));
    EXPECT_EQ(table.points.front().gcells_per_s, 0.0);
}

} // namespace
} // namespace ss
