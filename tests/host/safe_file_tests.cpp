// SPDX-License-Identifier: MIT
// Issue 15, classes 3, 4 and 6: files that are not ours to replace, files that never end, and several
// processes writing one file. Each case builds the hostile file in a fresh temporary folder.
#include "gpu/io/safe_file.h"
#include "gpu/studies/autotune_cache.h"
#include "reports/csv.h"
#include "reports/experiment_report.h"

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <set>
#include <sstream>

namespace ss {
namespace {

namespace fs = std::filesystem;

class SafeFile : public ::testing::Test {
protected:
    void SetUp() override {
        char dir[] = "/tmp/ss-safe-file-XXXXXX";
        ASSERT_NE(::mkdtemp(dir), nullptr);
        m_dir = dir;
    }
    void TearDown() override {
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
    static mode_t mode_of(const std::string& p) {
        struct stat st { };
        ::stat(p.c_str(), &st);
        return st.st_mode & 07777;
    }
    fs::path m_dir;
};

const CsvRow kHeader { "a", "b" };

// Runs work(i) in n forked processes at once; each must return true (its exit status says so).
void in_processes(int n, const std::function<bool(int)>& work) {
    std::vector<pid_t> children;
    for (int i = 0; i < n; ++i) {
        const pid_t pid = ::fork();
        ASSERT_GE(pid, 0);
        if (pid == 0) ::_exit(work(i) ? 0 : 1);
        children.push_back(pid);
    }
    for (pid_t pid : children) {
        int status = 0;
        ::waitpid(pid, &status, 0);
        EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    }
}

TEST_F(SafeFile, AFifoIsRefusedWithoutWaitingForAWriter) {
    const std::string fifo = path("pipe");
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    std::string text;
    const Status read = read_regular_file(fifo, 1 << 20, text); // would block forever if opened blocking
    ASSERT_FALSE(read);
    EXPECT_NE(read.reason.find("FIFO"), std::string::npos) << read.reason;
    const Status append = append_csv(fifo, kHeader, { { "1", "2" } });
    ASSERT_FALSE(append);
    EXPECT_NE(append.reason.find("FIFO"), std::string::npos) << append.reason;
    ExperimentTable table;
    EXPECT_FALSE(read_experiment_csv(fifo, &table));
    AutotuneCache cache(fifo); // reads nothing
    EXPECT_FALSE(cache.store("key", { AutotuneResult { { 32, 8, 1 }, 1.0, 2.0, "" } }));
    EXPECT_TRUE(cache.lookup("key").has_value()); // still serves this process
    struct stat st { };
    ASSERT_EQ(::stat(fifo.c_str(), &st), 0);
    EXPECT_TRUE(S_ISFIFO(st.st_mode)); // not replaced by a regular file
}

TEST_F(SafeFile, ADeviceIsNeitherReadWholeNorReplaced) {
    std::string text;
    const Status zero = read_regular_file("/dev/zero", 1 << 20, text);
    ASSERT_FALSE(zero);
    EXPECT_NE(zero.reason.find("device"), std::string::npos) << zero.reason;
    ExperimentTable table;
    EXPECT_FALSE(read_experiment_csv("/dev/zero", &table));
    const Status null = append_csv("/dev/null", kHeader, { { "1", "2" } });
    ASSERT_FALSE(null);
    EXPECT_NE(null.reason.find("device"), std::string::npos) << null.reason;
    EXPECT_FALSE(replace_file("/dev/null", "x", "CSV"));
    struct stat st { };
    ASSERT_EQ(::stat("/dev/null", &st), 0);
    EXPECT_TRUE(S_ISCHR(st.st_mode));
}

TEST_F(SafeFile, ALargeFileIsRefusedFromItsSize) {
    const std::string big = path("big.csv");
    { std::ofstream(big, std::ios::binary).seekp((2 << 20) - 1) << 'x'; } // sparse: 2 MiB
    std::string text;
    const Status s = read_regular_file(big, 1 << 20, text);
    ASSERT_FALSE(s);
    EXPECT_NE(s.reason.find("2 MiB"), std::string::npos) << s.reason;
    EXPECT_TRUE(text.empty());
}

TEST_F(SafeFile, ASymlinkStaysALinkAndItsTargetGetsTheRows) {
    const std::string target = path("target.csv"), link = path("link.csv");
    fs::create_symlink(target, link);
    ASSERT_TRUE(append_csv(link, kHeader, { { "1", "2" } }));
    ASSERT_TRUE(append_csv(link, kHeader, { { "3", "4" } }));
    EXPECT_TRUE(fs::is_symlink(link));
    EXPECT_EQ(contents(target), "a,b\n1,2\n3,4\n");
    ASSERT_TRUE(replace_file(link, "new\n", "CSV"));
    EXPECT_TRUE(fs::is_symlink(link));
    EXPECT_EQ(contents(target), "new\n");
}

TEST_F(SafeFile, TheUsersTmpFileBesideTheCsvIsLeftAlone) {
    const std::string csv = path("out.csv");
    write(csv + ".tmp", "mine");
    ASSERT_TRUE(check_csv_path(csv));
    ASSERT_TRUE(append_csv(csv, kHeader, { { "1", "2" } }));
    ASSERT_TRUE(replace_file(csv, "a,b\n", "CSV"));
    EXPECT_EQ(contents(csv + ".tmp"), "mine");
    EXPECT_EQ(std::distance(fs::directory_iterator(m_dir), fs::directory_iterator()), 2); // no temporaries left
}

TEST_F(SafeFile, AReadOnlyFileIsRefusedEvenForRoot) {
    const std::string csv = path("ro.csv");
    write(csv, "a,b\n1,2\n");
    ASSERT_EQ(::chmod(csv.c_str(), 0444), 0);
    const Status s = append_csv(csv, kHeader, { { "3", "4" } });
    ASSERT_FALSE(s);
    EXPECT_NE(s.reason.find("read-only"), std::string::npos) << s.reason;
    EXPECT_FALSE(check_csv_path(csv));
    EXPECT_FALSE(replace_file(csv, "x", "CSV"));
    EXPECT_EQ(contents(csv), "a,b\n1,2\n");
}

TEST_F(SafeFile, ModesAreKeptAndAppendsKeepHardLinks) {
    const std::string csv = path("private.csv"), twin = path("twin.csv");
    write(csv, "a,b\n");
    ASSERT_EQ(::chmod(csv.c_str(), 0600), 0);
    fs::create_hard_link(csv, twin);
    ASSERT_TRUE(append_csv(csv, kHeader, { { "1", "2" } }));
    EXPECT_EQ(mode_of(csv), 0600u);
    EXPECT_EQ(contents(twin), "a,b\n1,2\n"); // one file under two names still
    // A replace goes through a temporary and a rename even with several links (issue 36, class 2): the
    // link is split, the other name keeps the old contents, and the mode stays.
    ASSERT_TRUE(replace_file(csv, "a,b\n9,9\n", "CSV"));
    EXPECT_EQ(contents(csv), "a,b\n9,9\n");
    EXPECT_EQ(contents(twin), "a,b\n1,2\n");
    EXPECT_EQ(mode_of(csv), 0600u);
    const std::string alone = path("alone.csv");
    write(alone, "old");
    ASSERT_EQ(::chmod(alone.c_str(), 0640), 0);
    ASSERT_TRUE(replace_file(alone, "new", "CSV")); // through a temporary and a rename
    EXPECT_EQ(mode_of(alone), 0640u);
    EXPECT_EQ(contents(alone), "new");
}

TEST_F(SafeFile, TwentyProcessesAppendingToOneCsvKeepEveryRow) {
    const std::string csv = path("shared.csv");
    constexpr int kProcesses = 20, kRowsEach = 25;
    in_processes(kProcesses, [&](int p) {
        bool ok = true;
        for (int r = 0; r < kRowsEach; ++r)
            ok = append_csv(csv, kHeader, { { std::to_string(p), std::string(200, char('a' + r)) } }) && ok;
        return ok;
    });
    std::istringstream lines(contents(csv));
    std::string line;
    int headers = 0, rows = 0;
    while (std::getline(lines, line)) {
        if (line == "a,b") {
            ++headers;
            continue;
        }
        ++rows;
        EXPECT_EQ(line.size(), line.find(',') + 1 + 200) << line.substr(0, 40); // whole rows, never interleaved
    }
    EXPECT_EQ(headers, 1);
    EXPECT_EQ(rows, kProcesses * kRowsEach);
}

TEST_F(SafeFile, EightProcessesStoringAutotuneResultsKeepEveryOne) {
    const std::string file = path("autotune.tsv");
    in_processes(8, [&](int p) {
        AutotuneCache cache(file);
        return bool(cache.store("key" + std::to_string(p), { AutotuneResult { { 32, 8, 1 }, 1.0, 2.0, "" } }));
    });
    AutotuneCache cache(file);
    for (int p = 0; p < 8; ++p) EXPECT_TRUE(cache.lookup("key" + std::to_string(p)).has_value()) << p;
    EXPECT_EQ(cache.skipped_lines(), 0);
}

} // namespace
} // namespace ss

namespace ss {
namespace {

// Issue 15, class 10: a sweep file with a huge series name and thousands of series gives the chart a
// bounded table and says what it left out.
TEST_F(SafeFile, ASweepWithHugeNamesAndManySeriesIsBoundedAndSaysWhatWasCut) {
    const std::string row = "2026-11-22T23:06:22Z,H100,cf,NAME,star,thesis,2,4096x4096,1,base,1,fp32,32,32,1,0,"
                            "0.08364,200.393,1,dram_write_gbs,848.712,1,,1,\n";
    std::string csv = csv_line(experiment_csv_header());
    auto with_name = [&](const std::string& name) { return std::string(row).replace(row.find("NAME"), 4, name); };
    csv += with_name(std::string(100000, 'x'));
    for (int i = 0; i < 2000; ++i) csv += with_name("s" + std::to_string(i));
    const std::string file = path("hostile.csv");
    write(file, csv);
    ExperimentTable table;
    ASSERT_TRUE(read_experiment_csv(file, &table));
    std::set<std::string> series;
    for (const ExperimentPoint& p : table.points) {
        series.insert(p.series);
        EXPECT_LE(p.series.size(), kMaxSeriesNameChars + 3);
    }
    EXPECT_EQ(series.size(), kMaxSweepSeries);
    EXPECT_NE(table.cut.find("rows left out"), std::string::npos) << table.cut;
    EXPECT_NE(table.cut.find("shortened"), std::string::npos) << table.cut;
}

} // namespace
} // namespace ss
