// SPDX-License-Identifier: MIT
#include "reports/command_line.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cctype>

namespace ss {
namespace {

// "-x" or "--name" (then maybe "=value"): what a user meant as an option; "-5", "-" and "--" are not.
bool looks_like_option(const std::string& arg) {
    const std::size_t dashes = arg.rfind("--", 0) == 0 ? 2 : arg.rfind('-', 0) == 0 ? 1 : 0;
    return dashes > 0 && arg.size() > dashes && std::isalpha(static_cast<unsigned char>(arg[dashes]));
}

} // namespace

std::string wrap_text(std::string_view text, std::string first, std::size_t indent, std::size_t width) {
    std::string out = std::move(first);
    std::size_t line_start = 0;
    for (const std::string& word : split_fields(text, ' ')) {
        if (word.empty()) continue;
        const bool first_word = out.size() - line_start <= indent || out.back() != ' ';
        if (!first_word && out.size() - line_start + word.size() > width) {
            out.back() = '\n';
            line_start = out.size();
            out += std::string(indent, ' ');
        }
        out += word + " ";
    }
    if (!out.empty() && out.back() == ' ') out.pop_back();
    return out + "\n";
}

CommandLine::CommandLine()
    : m_app(std::make_unique<CLI::App>()) {
    m_app->set_help_flag(); // --help is an option of each program's, listed with the others
    m_app->allow_extras(); // reported by parse(), in one line
}

CommandLine::~CommandLine() = default;

void CommandLine::section(std::string title) {
    m_sections.push_back({ std::move(title), {} });
}

void CommandLine::add(const OptionDoc& doc, std::string_view short_name) {
    add_entry({ std::string(doc.name), std::string(doc.value), std::string(doc.help), true, {} }, short_name);
}

void CommandLine::add_entry(Entry entry, std::string_view short_name) {
    if (m_sections.empty()) section("Options:");
    const std::string names = short_name.empty() ? entry.name : std::string(short_name) + "," + entry.name;
    if (entry.value.empty()) {
        m_app->add_flag(names);
        m_flags.push_back(entry.name);
    } else {
        m_app->add_option(names)->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
    }
    m_sections.back().entries.push_back(std::move(entry));
}

void CommandLine::add_run_options(std::string_view command) {
    for (const bool configuration : { true, false }) {
        section(configuration ? "Configuration options (NAME VALUE or NAME=VALUE):" : "Command options:");
        for (const RunOptionSpec& spec : run_option_specs()) {
            if (spec.configuration != configuration) continue;
            Entry entry { std::string(spec.name), std::string(spec.value), std::string(spec.help), true, {} };
            if (command.empty() && !configuration) entry.help = "(" + commands_text(spec) + ") " + entry.help;
            entry.listed = command.empty() || (command == "gui" && configuration) || run_option_applies(spec, command);
            entry.short_name = spec.short_name; // listed after the name: "--quiet (-q)"
            add_entry(std::move(entry), spec.short_name);
        }
    }
}

void CommandLine::set_help(std::string_view name, std::string_view help) {
    for (Section& section : m_sections)
        for (Entry& e : section.entries)
            if (e.name == name) e.help = help;
}

std::string CommandLine::help() const {
    constexpr std::size_t kColumn = 32; // where the options' help starts
    std::string out;
    for (const Section& section : m_sections) {
        if (std::none_of(section.entries.begin(), section.entries.end(), [](const Entry& e) { return e.listed; }))
            continue;
        out += (out.empty() ? "" : "\n") + section.title + "\n";
        for (const Entry& e : section.entries) {
            if (!e.listed) continue;
            std::string head = "  " + e.name + (e.short_name.empty() ? "" : " (" + e.short_name + ")")
                + (e.value.empty() ? "" : " " + e.value);
            head += head.size() + 2 <= kColumn ? std::string(kColumn - head.size(), ' ') : "  ";
            out += wrap_text(e.help, head, kColumn);
        }
    }
    return out;
}

std::vector<std::string> CommandLine::names() const {
    std::vector<std::string> out;
    for (const Section& section : m_sections)
        for (const Entry& e : section.entries) out.push_back(e.name);
    return out;
}

Status CommandLine::parse(const std::vector<std::string>& args) {
    m_values.clear();
    // CLI11 takes its arguments last first.
    std::vector<std::string> tokens;
    for (auto arg = args.rbegin(); arg != args.rend(); ++arg) {
        const std::size_t eq = arg->rfind("--", 0) == 0 ? arg->find('=') : std::string::npos;
        const std::string name = arg->substr(0, eq);
        if (eq != std::string::npos && std::find(m_flags.begin(), m_flags.end(), name) != m_flags.end())
            return Status::failure(name + " takes no value");
        // CLI11 reads "--name=" as "--name" and takes the next argument as its value: keep the empty one.
        if (eq != std::string::npos && eq + 1 == arg->size() && m_app->get_option_no_throw(name)) {
            tokens.push_back("");
            tokens.push_back(name);
            continue;
        }
        tokens.push_back(*arg);
    }
    try {
        m_app->parse(tokens);
    } catch (const CLI::ArgumentMismatch& e) { // "--radius: 1 required TEXT missing": the only value ran out
        const std::string what = e.what();
        const std::string name = what.substr(0, what.find(':'));
        if (m_app->get_option_no_throw(name)) return Status::failure(name + " needs a value");
        return Status::failure(quote_for_message(what));
    } catch (const CLI::ParseError& e) {
        return Status::failure(quote_for_message(e.what()));
    }
    if (const std::vector<std::string> extra = m_app->remaining(); !extra.empty()) {
        const std::string& first = extra.front();
        if (looks_like_option(first))
            return Status::failure(
                "unknown option " + quote_for_message(first.substr(0, first.find('='))) + " (see --help)");
        return Status::failure("unexpected argument '" + quote_for_message(first) + "'");
    }
    for (const CLI::Option* option : m_app->parse_order()) {
        const std::string name = option->get_name();
        if (find_value(m_values, name)) continue;
        const bool flag = std::find(m_flags.begin(), m_flags.end(), name) != m_flags.end();
        m_values.push_back({ name, flag || option->results().empty() ? "" : option->results().back() });
    }
    return Status::success();
}

} // namespace ss
