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

CommandLine::CommandLine()
    : m_app(std::make_unique<CLI::App>()) {
    m_app->set_help_flag(); // --help prints the program's own text
    m_app->allow_extras(); // reported by parse(), in one line
}

CommandLine::~CommandLine() = default;

void CommandLine::add_run_options() {
    for (const RunOptionSpec& spec : run_option_specs()) {
        if (spec.value.empty())
            add_flag(std::string(spec.name));
        else
            add_option(std::string(spec.name));
    }
}

void CommandLine::add_option(const std::string& name) {
    m_app->add_option(name)->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
}

void CommandLine::add_flag(const std::string& name, const std::string& short_name) {
    m_app->add_flag(short_name.empty() ? name : short_name + "," + name);
    m_flags.push_back(name);
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
