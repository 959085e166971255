// SPDX-License-Identifier: MIT
// The command-line grammar both programs share, on CLI11 (header-only, Qt-free, kept out of this header):
// `--name value` and `--name=value`, flags, a repeated option (the last value wins), unknown options and
// missing values. Every error is one line. Values stay text here: apply_run_options (reports/run_options.h)
// and the GUI's options give them their meaning, so that a reason can say what was expected.
#pragma once

#include "reports/run_options.h"

#include <memory>
#include <string>
#include <vector>

namespace CLI {
class App;
class Option;
} // namespace CLI

namespace ss {

class CommandLine {
public:
    CommandLine();
    ~CommandLine();
    CommandLine(const CommandLine&) = delete;
    CommandLine& operator=(const CommandLine&) = delete;

    // Every option of the run-option table (run_option_specs()).
    void add_run_options();
    // An option of the caller's own that takes one value.
    void add_option(const std::string& name);
    // A flag of the caller's own (no value); `short_name` ("-h") is another name for it.
    void add_flag(const std::string& name, const std::string& short_name = "");

    // Parses `args` (no program name, no subcommand). Reasons: "unknown option --bogus (see --help)",
    // "--radius needs a value", "--verify takes no value", "unexpected argument 'x'"; text from the command
    // line is quoted (quote_for_message), so that a reason stays one short line.
    Status parse(const std::vector<std::string>& args);

    // What parse() found, in command-line order (each option once, with its last value; flags: "").
    const OptionValues& values() const { return m_values; }

private:
    std::unique_ptr<CLI::App> m_app;
    std::vector<std::string> m_flags;
    OptionValues m_values;
};

} // namespace ss
