// SPDX-License-Identifier: MIT
// The command-line grammar both programs share, on CLI11 (header-only, Qt-free, kept out of this header):
// `--name value` and `--name=value`, flags, a repeated option (the last value wins), unknown options and
// missing values. Every error is one line. The options a parser takes are the options its --help lists
// (help()), so the two cannot drift apart. Values stay text here: apply_run_options (reports/run_options.h)
// and the GUI's options give them their meaning, so that a reason can say what was expected.
#pragma once

#include "reports/run_options.h"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace CLI {
class App;
} // namespace CLI

namespace ss {

// One option, for the parser and for --help.
struct OptionDoc {
    std::string_view name; // "--frames"
    std::string_view value; // its value's syntax for --help ("N"); empty: a flag, which takes no value
    std::string_view help; // one paragraph; help() wraps it
};

// `text` as a paragraph of --help: `first` (maybe empty) then the words, lines broken before `width` columns
// and continued after `indent` spaces; ends with a newline.
std::string wrap_text(std::string_view text, std::string first = {}, std::size_t indent = 0, std::size_t width = 104);

class CommandLine {
public:
    CommandLine();
    ~CommandLine();
    CommandLine(const CommandLine&) = delete;
    CommandLine& operator=(const CommandLine&) = delete;

    // Options added from now on are listed under `title` ("Display options:") by help().
    void section(std::string title);
    // An option that takes one value, or a flag (`doc.value` empty); `short_name` ("-h") is another name.
    void add(const OptionDoc& doc, std::string_view short_name = {});
    // Every option of the run-option table (run_option_specs()), in two sections (the configuration, the
    // commands' options). All are parsed, so that refuse_options_not_for can name the commands that use
    // one; help() lists those `command` uses: "" lists every one with its commands, "gui" the configuration.
    void add_run_options(std::string_view command);
    // Replaces the help of the option `name` added before (a program whose defaults differ: the GUI's).
    void set_help(std::string_view name, std::string_view help);

    // Parses `args` (no program name, no subcommand). Reasons: "unknown option --bogus (see --help)",
    // "--radius needs a value", "--verify takes no value", "unexpected argument 'x'"; text from the command
    // line is quoted (quote_for_message), so that a reason stays one short line.
    Status parse(const std::vector<std::string>& args);

    // What parse() found, in command-line order (each option once, with its last value; flags: "").
    const OptionValues& values() const { return m_values; }

    // The listed options by section: "  --name VALUE   help" with the help wrapped at a fixed column.
    std::string help() const;
    // Every option name the parser takes, listed by help() or not.
    std::vector<std::string> names() const;

private:
    struct Entry {
        std::string name, value, help;
        bool listed = true;
        std::string short_name; // a run option's other name ("-q") for help(), or empty
    };
    struct Section {
        std::string title;
        std::vector<Entry> entries;
    };
    void add_entry(Entry entry, std::string_view short_name);

    std::unique_ptr<CLI::App> m_app;
    std::vector<Section> m_sections;
    std::vector<std::string> m_flags;
    OptionValues m_values;
};

} // namespace ss
