// SPDX-License-Identifier: MIT
// The table of STENCILSCOPE_* knobs and its one parser (gpu/plan/knobs.h): one meaning of empty, one handling
// of bad values, no knob outside the table, and docs/KNOBS.md equal to the table.
#include "app/cli/knobs_command.h"
#include "gpu/plan/knobs.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

namespace ss {
namespace {

std::string slurp(const std::filesystem::path& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// The C++ and CUDA sources of every layer, relative to the source tree.
std::vector<std::filesystem::path> layer_sources() {
    const std::filesystem::path root(STENCILSCOPE_SOURCE_DIR);
    std::vector<std::filesystem::path> out;
    for (const char* layer : { "gpu", "reports", "session", "widgets", "app" })
        for (const auto& entry : std::filesystem::recursive_directory_iterator(root / layer)) {
            const std::string ext = entry.path().extension().string();
            if (ext == ".cpp" || ext == ".h" || ext == ".cu" || ext == ".cuh")
                out.push_back(std::filesystem::relative(entry.path(), root));
        }
    return out;
}

} // namespace

TEST(Knobs, UnsetAndEmptyMeanTheDefaultForEveryKnob) {
    for (const KnobSpec& spec : knob_table()) {
        for (const char* raw : { static_cast<const char*>(nullptr), "" }) {
            const KnobReading r = parse_knob(spec, raw);
            EXPECT_EQ(r.source, KnobSource::Default) << spec.name;
            EXPECT_EQ(r.empty, raw != nullptr) << spec.name;
            EXPECT_EQ(r.integer, spec.default_value) << spec.name;
            EXPECT_EQ(r.text, "") << spec.name;
        }
    }
    // The knob that used to read KNOB= as 0 (off): now on, its default.
    EXPECT_EQ(parse_knob(knob_spec(Knob::TemporalFastPath), "").integer, 1);
    EXPECT_EQ(parse_knob(knob_spec(Knob::TemporalFastPath), "0").integer, 0);
}

TEST(Knobs, ValidValuesAreTaken) {
    const KnobReading pipe = parse_knob(knob_spec(Knob::StreamPipe), "16");
    EXPECT_EQ(pipe.source, KnobSource::Environment);
    EXPECT_EQ(pipe.integer, 16);
    EXPECT_EQ(parse_knob(knob_spec(Knob::StreamPipe), " 6 ").integer, 6); // spaces around are allowed
    EXPECT_EQ(parse_knob(knob_spec(Knob::StreamXb), "4").integer, 4);
    EXPECT_EQ(parse_knob(knob_spec(Knob::FixBlock), "0").integer, 0);
    EXPECT_EQ(parse_knob(knob_spec(Knob::MpiTestSilentRank), "0").integer, 0);
    EXPECT_DOUBLE_EQ(parse_knob(knob_spec(Knob::MpiTimeout), "2.5").seconds, 2.5);
    const KnobReading libs = parse_knob(knob_spec(Knob::CudaLibs), "/a:/b");
    EXPECT_EQ(libs.source, KnobSource::Environment);
    EXPECT_EQ(libs.text, "/a:/b");
}

TEST(Knobs, MalformedAndOutOfRangeValuesAreIgnoredAlike) {
    struct Case {
        Knob knob;
        const char* raw;
    };
    const Case cases[] = {
        { Knob::StreamPipe, "abc" },
        { Knob::StreamPipe, "4x" }, // atoi took 4
        { Knob::StreamPipe, "0" },
        { Knob::StreamPipe, "17" },
        { Knob::FixBlock, "abc" }, // atoi took 0, the generic kernels
        { Knob::StreamXb, "3" }, // not a power of two
        { Knob::StreamLeanAddr, "2" },
        { Knob::StripsPerGpu, "65" }, // was clamped to 64
        { Knob::InjectFaultAfter, "-3" },
        { Knob::InjectAllocationFailureCells, "99999999999999999999999" },
        { Knob::MpiTestSilentRank, "x" }, // atoi took 0: rank 0 went silent
        { Knob::MpiTimeout, "0" },
        { Knob::MpiTimeout, "-1" },
        { Knob::MpiTimeout, "inf" },
        { Knob::MpiTimeout, "5s" },
        { Knob::MpiTimeout, "nan" },
        { Knob::MpiTimeout, "1e308" }, // finite, yet a wait for ever on a rank that died (issue 36)
        { Knob::MpiTimeout, "86401" },
    };
    for (const Case& c : cases) {
        const KnobSpec& spec = knob_spec(c.knob);
        const KnobReading r = parse_knob(spec, c.raw);
        EXPECT_EQ(r.source, KnobSource::Ignored) << spec.name << "=" << c.raw;
        EXPECT_FALSE(r.problem.empty()) << spec.name << "=" << c.raw;
        EXPECT_EQ(r.integer, spec.default_value) << spec.name << "=" << c.raw;
        EXPECT_DOUBLE_EQ(r.seconds, double(spec.default_value)) << spec.name << "=" << c.raw;
    }
}

TEST(Knobs, TableHasUniqueNamesAndTuningKnobsSayWhereTheirDefaultCameFrom) {
    std::set<std::string> names;
    int kind_rank = 0;
    for (const KnobSpec& spec : knob_table()) {
        EXPECT_TRUE(names.insert(spec.name).second) << "twice: " << spec.name;
        EXPECT_EQ(std::string(spec.name).rfind("STENCILSCOPE_", 0), 0u) << spec.name;
        EXPECT_NE(std::string(spec.meaning), "") << spec.name;
        EXPECT_NE(std::string(spec.default_text), "") << spec.name;
        const bool tuning = spec.kind == KnobKind::Tuning;
        EXPECT_EQ(std::string(spec.measurement).find("docs/PERFORMANCE.md") != std::string::npos, tuning)
            << spec.name << ": a measurement for tuning knobs, and for them only";
        // Grouped: tuning knobs, settings, test hooks, diagnostics.
        EXPECT_GE(int(spec.kind), kind_rank) << spec.name;
        kind_rank = int(spec.kind);
    }
    EXPECT_EQ(names.size(), std::size_t(Knob::Count));
}

// A knob read anywhere must be in the table, and read through it: no other line that reads the environment
// names a STENCILSCOPE_ variable.
TEST(Knobs, EveryKnobInTheSourcesIsInTheTable) {
    std::set<std::string> table;
    for (const KnobSpec& spec : knob_table()) table.insert(spec.name);
    // Build-time names, not environment variables: compile definitions and CMake options.
    const std::set<std::string> build_names { "STENCILSCOPE_VERSION", "STENCILSCOPE_SOURCE_DIR", "STENCILSCOPE_MPI",
        "STENCILSCOPE_CUDA", "STENCILSCOPE_CPU_ONLY" };
    // "STENCILSCOPE_TEMPORAL_*" in a comment: the knobs whose names begin so.
    auto names_a_family = [&](const std::string& prefix) {
        return prefix.back() == '_' && table.lower_bound(prefix) != table.end()
            && table.lower_bound(prefix)->rfind(prefix, 0) == 0;
    };
    const std::regex name("STENCILSCOPE_[A-Z0-9_]+");
    const std::regex reads_environment(R"((getenv|qEnvironmentVariable\w*|qgetenv)\s*\()");
    int files = 0;
    for (const std::filesystem::path& file : layer_sources()) {
        ++files;
        std::istringstream text(slurp(std::filesystem::path(STENCILSCOPE_SOURCE_DIR) / file));
        int line_number = 0;
        for (std::string line; std::getline(text, line);) {
            ++line_number;
            for (std::sregex_iterator m(line.begin(), line.end(), name), end; m != end; ++m) {
                EXPECT_TRUE(table.count(m->str()) || build_names.count(m->str()) || names_a_family(m->str()))
                    << file.string() << ":" << line_number << ": " << m->str() << " is not in gpu/plan/knob_table.cpp";
            }
            if (file != "gpu/plan/knobs.cpp" && std::regex_search(line, reads_environment)) {
                EXPECT_EQ(line.find("STENCILSCOPE_"), std::string::npos)
                    << file.string() << ":" << line_number << ": read it with read_knob (gpu/plan/knobs.h)";
            }
        }
    }
    EXPECT_GT(files, 100); // the tree was found
}

// stencilscope-cli refuses to start on a knob set to a value it does not take (issue 36): every such knob is
// named with its value and what it takes, in table order, and a valid or empty one is not.
TEST(Knobs, InvalidKnobsNameEachValueNotTaken) {
    const char* const set[][2] = { { "STENCILSCOPE_MPI_TIMEOUT_S", "inf" }, { "STENCILSCOPE_STREAM_PIPE", "6" },
        { "STENCILSCOPE_FIX_BLOCK", "abc" }, { "STENCILSCOPE_TEMPORAL_FASTPATH", "" } };
    for (const auto& [name, value] : set) ::setenv(name, value, 1);
    const std::vector<std::string> lines = invalid_knobs();
    for (const auto& [name, value] : set) ::unsetenv(name);
    ASSERT_EQ(lines.size(), 2u);
    EXPECT_EQ(lines[0].rfind("STENCILSCOPE_FIX_BLOCK=abc ", 0), 0u) << lines[0];
    EXPECT_EQ(lines[1].rfind("STENCILSCOPE_MPI_TIMEOUT_S=inf ", 0), 0u) << lines[1];
    EXPECT_NE(lines[1].find("at most 86400"), std::string::npos) << lines[1];
    EXPECT_TRUE(invalid_knobs().empty());
}

TEST(Knobs, DocumentHoldsTheTable) {
    const std::string doc = slurp(std::filesystem::path(STENCILSCOPE_SOURCE_DIR) / "docs/KNOBS.md");
    EXPECT_NE(doc.find(format_knobs_markdown()), std::string::npos)
        << "docs/KNOBS.md differs from the table: paste `stencilscope-cli knobs --markdown` into it";
}

} // namespace ss
