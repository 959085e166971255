// SPDX-License-Identifier: MIT
#include "gpu/problem/stencil_file.h"

#include "gpu/problem/stencil_catalog.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace ss {
namespace {

// The JSON this format needs: objects, arrays, numbers, strings (names without escapes beyond \" \\ \/), and the
// literals, which parse but are never a valid value here. Nesting is bounded so that a hostile file cannot
// exhaust the stack.
struct Json {
    enum class Type { Null, Bool, Number, String, Array, Object } type = Type::Null;
    double number = 0.0;
    bool integral = false; // written without fraction or exponent
    std::string text;
    std::vector<Json> items;
    // An object's keys and values in order (two vectors: a pair of an incomplete Json is not allowed).
    std::vector<std::string> keys;
    std::vector<Json> values;
};

class Reader {
public:
    explicit Reader(std::string_view text)
        : m_text(text) { }

    bool document(Json& out) {
        if (!value(out, 0)) return false;
        skip_space();
        return m_at == m_text.size() || fail("unexpected text after the stencil");
    }
    const std::string& error() const { return m_error; }

private:
    bool fail(const std::string& why) {
        if (m_error.empty()) m_error = why + " (at byte " + std::to_string(m_at) + ")";
        return false;
    }
    void skip_space() {
        while (m_at < m_text.size()
            && (m_text[m_at] == ' ' || m_text[m_at] == '\n' || m_text[m_at] == '\t' || m_text[m_at] == '\r'))
            ++m_at;
    }
    bool literal(std::string_view word) {
        if (m_text.substr(m_at, word.size()) != word) return fail("not JSON");
        m_at += word.size();
        return true;
    }
    bool value(Json& out, int depth) {
        if (depth > 8) return fail("nested too deeply");
        skip_space();
        if (m_at >= m_text.size()) return fail("the text ends early");
        const char c = m_text[m_at];
        if (c == '{') return object(out, depth);
        if (c == '[') return array(out, depth);
        if (c == '"') return out.type = Json::Type::String, string(out.text);
        if (c == 't') return out.type = Json::Type::Bool, literal("true");
        if (c == 'f') return out.type = Json::Type::Bool, literal("false");
        if (c == 'n') return out.type = Json::Type::Null, literal("null");
        return number(out);
    }
    bool number(Json& out) {
        const std::size_t start = m_at;
        while (m_at < m_text.size() && std::string_view("+-0123456789.eE").find(m_text[m_at]) != std::string_view::npos)
            ++m_at;
        const std::string digits(m_text.substr(start, m_at - start));
        char* end = nullptr;
        out.number = digits.empty() ? 0.0 : std::strtod(digits.c_str(), &end);
        if (digits.empty() || end != digits.c_str() + digits.size()) return fail("not a number");
        out.type = Json::Type::Number;
        out.integral = digits.find_first_of(".eE") == std::string::npos;
        return true;
    }
    bool string(std::string& out) {
        ++m_at; // the opening quote
        while (m_at < m_text.size() && m_text[m_at] != '"') {
            char c = m_text[m_at++];
            if (static_cast<unsigned char>(c) < 0x20) return fail("a control character in a string");
            if (c == '\\') {
                if (m_at >= m_text.size()) break;
                c = m_text[m_at++];
                if (c != '"' && c != '\\' && c != '/') return fail("an escape other than \\\" \\\\ \\/ in a string");
            }
            out += c;
        }
        if (m_at >= m_text.size()) return fail("a string is not closed");
        ++m_at;
        return true;
    }
    bool array(Json& out, int depth) {
        out.type = Json::Type::Array;
        ++m_at;
        skip_space();
        if (m_at < m_text.size() && m_text[m_at] == ']') return ++m_at, true;
        while (true) {
            out.items.emplace_back();
            if (!value(out.items.back(), depth + 1)) return false;
            skip_space();
            if (m_at < m_text.size() && m_text[m_at] == ',') {
                ++m_at;
                continue;
            }
            if (m_at < m_text.size() && m_text[m_at] == ']') return ++m_at, true;
            return fail("expected , or ] in an array");
        }
    }
    bool object(Json& out, int depth) {
        out.type = Json::Type::Object;
        ++m_at;
        skip_space();
        if (m_at < m_text.size() && m_text[m_at] == '}') return ++m_at, true;
        while (true) {
            skip_space();
            if (m_at >= m_text.size() || m_text[m_at] != '"') return fail("expected a key in quotes");
            std::string key;
            if (!string(key)) return false;
            skip_space();
            if (m_at >= m_text.size() || m_text[m_at] != ':') return fail("expected : after a key");
            ++m_at;
            out.keys.push_back(std::move(key));
            out.values.emplace_back();
            if (!value(out.values.back(), depth + 1)) return false;
            skip_space();
            if (m_at < m_text.size() && m_text[m_at] == ',') {
                ++m_at;
                continue;
            }
            if (m_at < m_text.size() && m_text[m_at] == '}') return ++m_at, true;
            return fail("expected , or } in an object");
        }
    }

    std::string_view m_text;
    std::size_t m_at = 0;
    std::string m_error;
};

bool small_integer(const Json& v) {
    return v.type == Json::Type::Number && v.integral && std::fabs(v.number) <= 1e6;
}

} // namespace

Status parse_stencil_json(std::string_view text, std::string_view fallback_name, StencilShape& out) {
    Json doc;
    Reader reader(text);
    if (!reader.document(doc)) return Status::failure("not a stencil file: " + reader.error());
    if (doc.type != Json::Type::Object) return Status::failure("a stencil file holds one JSON object");
    StencilShape shape { std::string(fallback_name), 0, {}, {} };
    const Json* points = nullptr;
    for (std::size_t i = 0; i < doc.keys.size(); ++i) {
        const std::string& key = doc.keys[i];
        const Json& v = doc.values[i];
        if (key == "name") {
            if (v.type != Json::Type::String) return Status::failure("\"name\" must be a string of 1..64 characters");
            if (Status named = check_stencil_name(v.text); !named) return named;
            shape.name = v.text;
        } else if (key == "dims") {
            if (!small_integer(v) || (v.number != 2 && v.number != 3))
                return Status::failure("\"dims\" must be 2 or 3");
            shape.dims = int(v.number);
        } else if (key == "points") {
            if (v.type != Json::Type::Array) return Status::failure("\"points\" must be an array");
            points = &v;
        } else {
            return Status::failure("unknown key \"" + key.substr(0, 32) + "\" (a stencil file has name, dims, points)");
        }
    }
    if (shape.dims == 0) return Status::failure("the stencil file gives no \"dims\" (2 or 3)");
    if (!points) return Status::failure("the stencil file gives no \"points\"");
    if (int(points->items.size()) > kMaxStencilPoints)
        return Status::failure("the stencil has " + std::to_string(points->items.size()) + " points, at most "
            + std::to_string(kMaxStencilPoints) + " are allowed");
    for (std::size_t i = 0; i < points->items.size(); ++i) {
        const Json& p = points->items[i];
        const std::string which = "point " + std::to_string(i + 1);
        if (p.type != Json::Type::Array || p.items.size() != 2 || p.items[0].type != Json::Type::Array)
            return Status::failure(
                which + " is not [[dx, dy" + std::string(shape.dims == 3 ? ", dz" : "") + "], weight]");
        const Json& offset = p.items[0];
        if (offset.items.size() != std::size_t(shape.dims))
            return Status::failure(which + " has " + std::to_string(offset.items.size()) + " offsets, a "
                + std::to_string(shape.dims) + "D stencil needs " + std::to_string(shape.dims));
        for (const Json& o : offset.items)
            if (!small_integer(o)) return Status::failure(which + "'s offsets must be integers");
        if (p.items[1].type != Json::Type::Number) return Status::failure(which + "'s weight is not a number");
        StencilPoint sp { int(offset.items[0].number), int(offset.items[1].number),
            shape.dims == 3 ? int(offset.items[2].number) : 0, p.items[1].number };
        shape.points.push_back(sp);
    }
    if (Status s = check_shape(shape); !s) return s; // before sorting: "given twice" names the file's own points
    sort_points(shape.points);
    out = std::move(shape);
    return Status::success();
}

Status check_stencil_name(std::string_view name) {
    if (name.empty() || name.size() > 64) return Status::failure("\"name\" must be a string of 1..64 characters");
    for (const char c : name)
        if (static_cast<unsigned char>(c) < 0x21 || c == ',' || c == '"')
            return Status::failure("\"name\" may hold no spaces, commas or quotes (it names a CSV field)");
    return Status::success();
}

std::string stencil_json(const StencilShape& shape) {
    std::string name;
    for (const char c : shape.name) {
        if (c == '"' || c == '\\') name += '\\'; // the reader takes \" and \\ back
        name += c;
    }
    std::string out
        = "{\n  \"name\": \"" + name + "\",\n  \"dims\": " + std::to_string(shape.dims) + ",\n  \"points\": [";
    std::vector<StencilPoint> points = shape.points;
    sort_points(points);
    for (std::size_t i = 0; i < points.size(); ++i) {
        const StencilPoint& p = points[i];
        char weight[32];
        const auto written = std::to_chars(weight, weight + sizeof weight, p.weight); // shortest exact form
        out += i ? ",\n    [[" : "\n    [[";
        out += std::to_string(p.dx) + ", " + std::to_string(p.dy);
        if (shape.dims == 3) out += ", " + std::to_string(p.dz);
        out += "], " + std::string(weight, written.ptr) + "]";
    }
    out += points.empty() ? "]\n}\n" : "\n  ]\n}\n";
    return out;
}

} // namespace ss
