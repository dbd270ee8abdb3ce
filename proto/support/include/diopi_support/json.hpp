// A small JSON writer for the reports C++ hands to Python as text (counters,
// timer rows, library info). Header-only and free of ATen, so every caller of
// the standard (the device, the test runtime) writes JSON the same way.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace diopi_support {

/// Appends `s` as a JSON string literal: quotes, backslashes and control
/// characters escaped, other bytes (UTF-8 included) as they are.
inline void appendJsonString(std::string& out, std::string_view s) {
    out += '"';
    for (char c : s) {
        const auto u = static_cast<unsigned char>(c);
        switch (c) {
            case '"': out += "\\\""; break;
            case '\\': out += "\\\\"; break;
            case '\n': out += "\\n"; break;
            case '\t': out += "\\t"; break;
            case '\r': out += "\\r"; break;
            default:
                if (u < 0x20) {
                    char buf[8];
                    std::snprintf(buf, sizeof buf, "\\u%04x", u);
                    out += buf;
                } else {
                    out += c;
                }
        }
    }
    out += '"';
}

inline std::string jsonString(std::string_view s) {
    std::string out;
    appendJsonString(out, s);
    return out;
}

/// Objects and arrays written in order; commas and nesting are its business:
///   JsonWriter w; w.beginObject(); w.key("calls").value(3); w.endObject(); w.str();
class JsonWriter {
public:
    JsonWriter& beginObject() { return open('{'); }
    JsonWriter& endObject() { return close('}'); }
    JsonWriter& beginArray() { return open('['); }
    JsonWriter& endArray() { return close(']'); }

    /// The key of the next member of the innermost object.
    JsonWriter& key(std::string_view k) {
        separate();
        appendJsonString(out_, k);
        out_ += ": ";
        afterKey_ = true;
        return *this;
    }
    JsonWriter& value(std::string_view s) {
        separate();
        appendJsonString(out_, s);
        return *this;
    }
    JsonWriter& value(const char* s) { return s ? value(std::string_view(s)) : null(); }
    JsonWriter& value(const std::string& s) { return value(std::string_view(s)); }
    JsonWriter& value(bool b) {
        separate();
        out_ += b ? "true" : "false";
        return *this;
    }
    template <class T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>, int> = 0>
    JsonWriter& value(T n) {
        separate();
        out_ += std::to_string(n);
        return *this;
    }
    JsonWriter& value(double d) {
        separate();
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.17g", d);
        out_ += buf;
        return *this;
    }
    JsonWriter& null() {
        separate();
        out_ += "null";
        return *this;
    }
    /// key(k).value(v) in one call.
    template <class V>
    JsonWriter& member(std::string_view k, const V& v) {
        return key(k).value(v);
    }

    const std::string& str() const { return out_; }

private:
    JsonWriter& open(char c) {
        separate();
        out_ += c;
        first_.push_back(true);
        return *this;
    }
    JsonWriter& close(char c) {
        out_ += c;
        if (!first_.empty()) first_.pop_back();
        return *this;
    }
    // A comma before every element but the first of its container; none after a key.
    void separate() {
        if (afterKey_) {
            afterKey_ = false;
            return;
        }
        if (first_.empty()) return;
        if (!first_.back()) out_ += ", ";
        first_.back() = false;
    }

    std::string out_;
    std::vector<bool> first_;
    bool afterKey_ = false;
};

}  // namespace diopi_support
