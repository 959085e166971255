// SPDX-License-Identifier: MIT
// The reading aids of the kernel source view: the marked lines (the rule in kernel_listing.h) and the lines a
// configuration's preprocessor keeps, found by a small evaluator of the kernels' #if expressions.
#include "gpu/backends/cuda/kernel_listing.h"

#include <cctype>
#include <map>
#include <sstream>

namespace ss {
namespace {

std::string trimmed(const std::string& line) {
    std::size_t a = 0, b = line.size();
    while (a < b && std::isspace(static_cast<unsigned char>(line[a]))) ++a;
    while (b > a && std::isspace(static_cast<unsigned char>(line[b - 1]))) --b;
    return line.substr(a, b - a);
}

bool starts_with(const std::string& s, const char* prefix) {
    return s.rfind(prefix, 0) == 0;
}

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
}

LineMark mark_named(const std::string& name) {
    for (LineMark m : { LineMark::SharedTile, LineMark::Coarsening, LineMark::TemporalStages, LineMark::PlaneLoop })
        if (name == line_mark_name(m)) return m;
    return LineMark::None;
}

// A preprocessor directive split into its keyword and the rest, comments dropped; empty keyword for other lines.
struct Directive {
    std::string keyword, rest;
};

Directive directive_of(const std::string& line) {
    std::string t = trimmed(line);
    if (t.empty() || t[0] != '#') return {};
    if (const std::size_t c = t.find("//"); c != std::string::npos) t = t.substr(0, c);
    std::size_t i = 1;
    while (i < t.size() && std::isspace(static_cast<unsigned char>(t[i]))) ++i;
    std::size_t j = i;
    while (j < t.size() && std::isalpha(static_cast<unsigned char>(t[j]))) ++j;
    return { t.substr(i, j - i), trimmed(t.substr(j)) };
}

// Integer #if expressions: literals, names (their #define's value, evaluated; 0 when undefined), defined(NAME),
// ! unary -, * / %, + -, < <= > >=, == !=, &&, ||, parentheses. What the kernels' conditions use.
class Condition {
public:
    Condition(const std::string& text, const std::map<std::string, std::string>& macros, int depth)
        : m_text(text)
        , m_macros(macros)
        , m_depth(depth) { }
    long long value() { return logical_or(); }

private:
    void skip() {
        while (m_at < m_text.size() && std::isspace(static_cast<unsigned char>(m_text[m_at]))) ++m_at;
    }
    bool take(const char* op) {
        skip();
        const std::string o(op);
        if (m_text.compare(m_at, o.size(), o) != 0) return false;
        const char after = m_at + o.size() < m_text.size() ? m_text[m_at + o.size()] : '\0';
        if ((o == "<" || o == ">" || o == "!") && after == '=') return false; // <=, >=, != are their own
        if ((o == "&" && after == '&') || (o == "|" && after == '|')) return false;
        m_at += o.size();
        return true;
    }
    std::string name() {
        skip();
        const std::size_t start = m_at;
        while (m_at < m_text.size() && (std::isalnum(static_cast<unsigned char>(m_text[m_at])) || m_text[m_at] == '_'))
            ++m_at;
        return m_text.substr(start, m_at - start);
    }
    long long logical_or() {
        long long v = logical_and();
        while (take("||")) v = logical_and() || v;
        return v;
    }
    long long logical_and() {
        long long v = equality();
        while (take("&&")) v = equality() && v;
        return v;
    }
    long long equality() {
        long long v = relational();
        for (;;) {
            if (take("=="))
                v = v == relational();
            else if (take("!="))
                v = v != relational();
            else
                return v;
        }
    }
    long long relational() {
        long long v = additive();
        for (;;) {
            if (take("<="))
                v = v <= additive();
            else if (take(">="))
                v = v >= additive();
            else if (take("<"))
                v = v < additive();
            else if (take(">"))
                v = v > additive();
            else
                return v;
        }
    }
    long long additive() {
        long long v = multiplicative();
        for (;;) {
            if (take("+"))
                v += multiplicative();
            else if (take("-"))
                v -= multiplicative();
            else
                return v;
        }
    }
    long long multiplicative() {
        long long v = unary();
        for (;;) {
            if (take("*")) {
                v *= unary();
            } else if (take("/")) {
                const long long d = unary();
                v = d ? v / d : 0;
            } else if (take("%")) {
                const long long d = unary();
                v = d ? v % d : 0;
            } else {
                return v;
            }
        }
    }
    long long unary() {
        if (take("!")) return !unary();
        if (take("-")) return -unary();
        return primary();
    }
    long long primary() {
        if (take("(")) {
            const long long v = logical_or();
            take(")");
            return v;
        }
        skip();
        if (m_at < m_text.size() && std::isdigit(static_cast<unsigned char>(m_text[m_at]))) {
            std::size_t used = 0;
            const long long v = std::stoll(m_text.substr(m_at), &used, 0);
            m_at += used;
            while (m_at < m_text.size() && std::isalpha(static_cast<unsigned char>(m_text[m_at]))) ++m_at; // 1u, 2ll
            return v;
        }
        const std::string id = name();
        if (id.empty()) { // not an expression this evaluator knows: stop here
            m_at = m_text.size();
            return 0;
        }
        if (id == "defined") {
            const bool paren = take("(");
            const std::string macro = name();
            if (paren) take(")");
            return m_macros.count(macro);
        }
        const auto it = m_macros.find(id);
        if (it == m_macros.end() || m_depth > 16) return 0;
        return Condition(it->second, m_macros, m_depth + 1).value();
    }

    const std::string& m_text;
    const std::map<std::string, std::string>& m_macros;
    int m_depth;
    std::size_t m_at = 0;
};

} // namespace

const char* line_mark_name(LineMark m) {
    switch (m) {
    case LineMark::Knob:
        return "configuration";
    case LineMark::SharedTile:
        return "smem tile";
    case LineMark::Coarsening:
        return "coarsening";
    case LineMark::TemporalStages:
        return "temporal stages";
    case LineMark::PlaneLoop:
        return "plane loop";
    case LineMark::None:
        break;
    }
    return "";
}

std::vector<LineMark> marked_lines(const std::string& source) {
    static const char* const knobs[]
        = { "R", "CF", "VARIANT", "DEPTH", "SBX", "SBY", "SBZ", "TBX", "TBY", "SMINB", "TMINB" };
    const std::vector<std::string> lines = lines_of(source);
    std::vector<LineMark> marks(lines.size(), LineMark::None);
    std::vector<LineMark> open;
    bool preamble = true;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const std::string t = trimmed(lines[i]);
        if (t.find("__global__") != std::string::npos) preamble = false;
        if (preamble) {
            const Directive d = directive_of(t);
            if (d.keyword == "define")
                for (const char* knob : knobs)
                    if (d.rest.rfind(std::string(knob) + " ", 0) == 0) marks[i] = LineMark::Knob;
            continue;
        }
        if (starts_with(t, "// ss:mark ")) {
            open.push_back(mark_named(trimmed(t.substr(11))));
            marks[i] = open.back();
        } else if (starts_with(t, "// ss:end")) {
            marks[i] = open.empty() ? LineMark::None : open.back();
            if (!open.empty()) open.pop_back();
        } else if (!open.empty()) {
            marks[i] = open.back();
        }
    }
    return marks;
}

std::vector<bool> active_lines(const std::string& source, int cc_major, int cc_minor) {
    const std::vector<std::string> lines = lines_of(source);
    std::vector<bool> active(lines.size(), false);
    std::map<std::string, std::string> macros { { "__CUDA_ARCH__", std::to_string(cc_major * 100 + cc_minor * 10) } };
    // Per open #if: whether its enclosing region is live, whether a branch was taken, whether this branch is live.
    struct Level {
        bool outer_live, taken, live;
    };
    std::vector<Level> stack;
    auto live = [&] { return stack.empty() || stack.back().live; };
    bool continued = false; // the previous line of a live #define ended in a backslash
    for (std::size_t i = 0; i < lines.size(); ++i) {
        if (continued) {
            active[i] = true;
            continued = !lines[i].empty() && lines[i].back() == '\\';
            continue;
        }
        const Directive d = directive_of(lines[i]);
        auto evaluate = [&](const std::string& text) { return Condition(text, macros, 0).value() != 0; };
        if (d.keyword == "if" || d.keyword == "ifdef" || d.keyword == "ifndef") {
            const bool outer = live();
            bool cond = false;
            if (outer)
                cond = d.keyword == "if"   ? evaluate(d.rest)
                    : d.keyword == "ifdef" ? macros.count(d.rest) > 0
                                           : macros.count(d.rest) == 0;
            stack.push_back({ outer, cond, outer && cond });
        } else if (d.keyword == "elif" && !stack.empty()) {
            Level& l = stack.back();
            l.live = l.outer_live && !l.taken && evaluate(d.rest);
            l.taken = l.taken || l.live;
        } else if (d.keyword == "else" && !stack.empty()) {
            Level& l = stack.back();
            l.live = l.outer_live && !l.taken;
            l.taken = true;
        } else if (d.keyword == "endif") {
            if (!stack.empty()) stack.pop_back();
        } else if (live()) {
            active[i] = true;
            if (d.keyword == "define") {
                std::size_t n = 0;
                while (n < d.rest.size() && (std::isalnum(static_cast<unsigned char>(d.rest[n])) || d.rest[n] == '_'))
                    ++n;
                const bool function_like = n < d.rest.size() && d.rest[n] == '(';
                if (!function_like) macros[d.rest.substr(0, n)] = trimmed(d.rest.substr(n));
                continued = !lines[i].empty() && lines[i].back() == '\\';
            } else if (d.keyword == "undef") {
                macros.erase(d.rest);
            }
        }
    }
    return active;
}

} // namespace ss
