// SPDX-License-Identifier: MIT
#include "gpu/plan/knobs.h"

#include <array>
#include <atomic>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

namespace ss {
namespace {

std::string_view trimmed(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
}

bool is_power_of_two(std::int64_t v) {
    return v > 0 && (v & (v - 1)) == 0;
}

void ignore(KnobReading& r, const std::string& problem) {
    r.source = KnobSource::Ignored;
    r.problem = problem;
}

// The value in the environment's text for a message: control characters as '?', at most 40 bytes.
std::string printable(const std::string& raw) {
    std::string out = raw.substr(0, 40);
    for (char& c : out)
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
    return raw.size() > 40 ? out + "..." : out;
}

} // namespace

std::string knob_range_text(const KnobSpec& s) {
    switch (s.type) {
    case KnobType::Flag:
        return "0|1";
    case KnobType::Seconds:
        return "seconds > 0, at most " + std::to_string(s.max);
    case KnobType::Text:
        return "text";
    case KnobType::Integer:
        break;
    }
    if (s.powers_of_two) {
        std::string out;
        for (std::int64_t v = 1; v <= s.max; v *= 2)
            if (v >= s.min) out += (out.empty() ? "" : "|") + std::to_string(v);
        return out;
    }
    if (s.max == std::numeric_limits<std::int64_t>::max()) return ">= " + std::to_string(s.min);
    return std::to_string(s.min) + ".." + std::to_string(s.max);
}

KnobReading parse_knob(const KnobSpec& s, const char* raw) {
    KnobReading r;
    r.integer = s.default_value;
    r.seconds = double(s.default_value);
    if (!raw) return r;
    r.raw = raw;
    if (r.raw.empty()) { // KNOB= is the same as unset, for every knob
        r.empty = true;
        return r;
    }
    if (s.type == KnobType::Text) {
        r.source = KnobSource::Environment;
        r.text = r.raw;
        return r;
    }
    const std::string_view text = trimmed(r.raw);
    const char* end = text.data() + text.size();
    if (s.type == KnobType::Seconds) {
        double v = 0.0;
        const auto [stop, error] = std::from_chars(text.data(), end, v);
        if (text.empty() || error != std::errc() || stop != end || !std::isfinite(v)) {
            ignore(r, "not a number");
        } else if (v <= 0.0) {
            ignore(r, "not greater than 0");
        } else if (v > double(s.max)) {
            ignore(r, "longer than " + std::to_string(s.max) + " s");
        } else {
            r.source = KnobSource::Environment;
            r.seconds = v;
        }
        return r;
    }
    std::int64_t v = 0;
    const auto [stop, error] = std::from_chars(text.data(), end, v);
    if (text.empty() || error != std::errc() || stop != end)
        ignore(r, error == std::errc::result_out_of_range ? "out of range" : "not a whole number");
    else if (v < s.min || v > s.max || (s.powers_of_two && !is_power_of_two(v)))
        ignore(r, "out of range");
    else
        r.source = KnobSource::Environment, r.integer = v;
    return r;
}

KnobReading read_knob(Knob k, bool warn) {
    static std::array<std::atomic<bool>, std::size_t(Knob::Count)> warned {};
    const KnobSpec& s = knob_spec(k);
    KnobReading r = parse_knob(s, std::getenv(s.name));
    if (warn && r.source == KnobSource::Ignored && !warned[std::size_t(k)].exchange(true))
        std::fprintf(stderr, "stencilscope: %s=%s ignored (%s; it takes %s): the default applies (%s)\n", s.name,
            printable(r.raw).c_str(), r.problem.c_str(), knob_range_text(s).c_str(), s.default_text);
    return r;
}

std::int64_t knob_integer(Knob k) {
    return read_knob(k).integer;
}

bool knob_flag(Knob k) {
    return read_knob(k).integer == 1;
}

double knob_seconds(Knob k) {
    return read_knob(k).seconds;
}

std::string knob_text(Knob k) {
    return read_knob(k).text;
}

std::vector<std::string> invalid_knobs() {
    std::vector<std::string> out;
    for (const KnobSpec& s : knob_table())
        if (const KnobReading r = read_knob(s.id, false); r.source == KnobSource::Ignored)
            out.push_back(std::string(s.name) + "=" + printable(r.raw) + " is not a value it takes (" + r.problem
                + "; it takes " + knob_range_text(s) + ", default " + s.default_text + ")");
    return out;
}

} // namespace ss
