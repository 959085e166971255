// SPDX-License-Identifier: MIT
// Every STENCILSCOPE_* environment variable the programs read, in one table, and the one reader of them.
// Tuning knobs override a default measured on the H100 (docs/PERFORMANCE.md); settings change where or how the
// programs work; test hooks make failures and multi-GPU code paths happen on purpose; diagnostics switch work
// off to measure what it costs. docs/KNOBS.md is this table (`stencilscope-cli knobs --markdown` prints it), and
// `stencilscope-cli knobs` lists the values in force.
// One meaning everywhere: unset and set but empty (KNOB=) are the same, the default. A value that does not
// parse or lies outside the knob's range is bad input, like a bad option: stencilscope-cli refuses to start
// (invalid_knobs, exit 2, one line); the window, and a reader that meets one anyway, ignores it (the default
// applies) with one line on stderr. Pure host code, no Qt: every layer above gpu/plan may read a knob here.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ss {

enum class KnobKind { Tuning, Setting, TestHook, Diagnostic };
// Integer: a whole number in min..max (with powers_of_two, only the powers of two in it); Flag: 0 or 1;
// Seconds: a finite number greater than 0 and at most max (so that no value waits for ever); Text: any text
// (the meaning says what is understood).
enum class KnobType { Integer, Flag, Seconds, Text };

enum class Knob {
    // tuning knobs
    StreamPipe,
    StreamMinBlocks,
    StreamLeanAddr,
    StreamFwd,
    StreamXb,
    StreamTc,
    FixBlock,
    TemporalAhead,
    TemporalMinBlocks,
    TemporalFastPath,
    TemporalRows,
    TemporalWaves,
    TemporalSyncRows,
    PointForward,
    PointAxisStar,
    MpiStageChunk,
    // settings
    CudaLibs,
    MpiTimeout,
    MpiPeerCopies,
    Raster,
    // test hooks
    StripsPerGpu,
    InjectFaultAfter,
    InjectAllocationFailureCells,
    MpiTestSilentRank,
    MpiTestSilentAfter,
    LessonRecording,
    // diagnostics
    EngineDiag,
    ViewDiag,
    StallTrace,
    Count
};

struct KnobSpec {
    Knob id;
    const char* name; // the environment variable
    KnobKind kind;
    KnobType type;
    std::int64_t min = 0, max = 0; // Integer and Flag: the values taken; Seconds: max is the longest
    bool powers_of_two = false;
    // Integer, Flag, Seconds: the value in force when unset; a value outside min..max stands for a default that
    // depends on the configuration, which `default_text` and the function that reads the knob say.
    std::int64_t default_value = 0;
    const char* default_text = ""; // the default, as a person reads it
    const char* meaning = "";
    const char* measurement = ""; // tuning knobs: where the default comes from (docs/PERFORMANCE.md)
};

// The table, in the order of Knob: tuning knobs, settings, test hooks, diagnostics.
std::span<const KnobSpec> knob_table();
const KnobSpec& knob_spec(Knob);
std::string_view to_string(KnobKind); // "tuning", "setting", "test hook", "diagnostic"
std::string knob_range_text(const KnobSpec&); // "1..16", "0|1", "1|2|4", "seconds > 0, at most 86400", "text"

enum class KnobSource {
    Default, // unset, or set but empty
    Environment, // set to a value the knob takes
    Ignored, // set to a value that does not parse or lies outside the range: the default applies
};
struct KnobReading {
    KnobSource source = KnobSource::Default;
    bool empty = false; // set, but to "" (counts as unset)
    std::string raw; // the environment's text
    std::int64_t integer = 0; // Integer, Flag: the value in force
    double seconds = 0.0; // Seconds: the value in force
    std::string text; // Text: the value in force ("" when unset)
    std::string problem; // Ignored: why, in a few words
};

// The parser: what `raw` (nullptr: unset) means for `spec`. Pure; the tests call it.
KnobReading parse_knob(const KnobSpec& spec, const char* raw);
// The one reader: the environment now (not cached: callers that read once keep the value). An ignored value
// says so on stderr once per knob and process, unless `warn` is false (a listing that shows it anyway).
KnobReading read_knob(Knob, bool warn = true);
std::int64_t knob_integer(Knob); // Integer or Flag knobs
bool knob_flag(Knob); // Flag knobs: the value in force is 1
double knob_seconds(Knob); // Seconds knobs
std::string knob_text(Knob); // Text knobs

// Every knob set to a value it does not take, one line each ("STENCILSCOPE_MPI_TIMEOUT_S=inf: not a number; it
// takes ..."), in table order; empty when every value set is taken. stencilscope-cli refuses to start on the first.
std::vector<std::string> invalid_knobs();

} // namespace ss
