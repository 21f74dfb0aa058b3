// hf_reader.cpp: reading a Hugging Face config object, with a record of what was read.
//
// [SECTION] Reading a config object: checked accessors that mark each key read
// [SECTION] Reading a sub-config leniently (towers, quantization_config)
//
// The keys left unread, less those known not to change memory (hf_rows.cpp), become the
// importer's "not understood" warning. Declarations in hf_families_internal.hpp.
#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "gpusizer/error.hpp"
#include "hf_families_internal.hpp"

namespace gpusizer::hf {

// ---------------------------------------------------------------------------------------------
// [SECTION] Reading a config object
// ---------------------------------------------------------------------------------------------

// The accessors' contracts are documented with the class (hf_families_internal.hpp).

const json* Reader::find(const char* k) {
    auto it = j_.find(k);
    if (it == j_.end()) return nullptr;
    used_.insert(k);
    return it->is_null() ? nullptr : &*it;
}
bool Reader::has(const char* k) const {
    auto it = j_.find(k);
    return it != j_.end() && !it->is_null();
}
const json* Reader::find(F f, const char** which) {
    const json* first = nullptr;
    for (const char* n : spellings(f)) {
        if (const json* v = find(n); v && !first) {
            if (which) *which = n;
            first = v;
        }
    }
    return first;
}

long long Reader::integer(F f, long long fallback, bool required) {
    const char* which = nullptr;
    const json* v = find(f, &which);
    if (!v && required) {
        std::string list;
        for (const char* n : spellings(f)) list += (list.empty() ? "" : " or ") + std::string(n);
        throw_error(prefix_.substr(0, prefix_.size() - 1), "missing " + list);
    }
    return as_integer(v, which, fallback, f == F::vocab || f == F::max_pos ? kMaxLarge : kMaxDim);
}
bool Reader::boolean(const char* k, bool fallback) {
    const json* v = find(k);
    if (!v) return fallback;
    if (!v->is_boolean()) throw_error(key(k), "must be true or false, got " + v->dump());
    return v->get<bool>();
}
std::string Reader::text(const char* k, const std::string& fallback) {
    const json* v = find(k);
    if (!v) return fallback;
    if (!v->is_string()) throw_error(key(k), "must be a string, got " + v->dump());
    return v->get<std::string>();
}
std::vector<long long> Reader::integers(const char* k) {
    std::vector<long long> out;
    const json* v = find(k);
    if (!v) return out;
    if (!v->is_array()) throw_error(key(k), "must be a list of integers, got " + v->dump());
    for (const json& e : *v) out.push_back(as_integer(&e, k, 0, kMaxDim));
    return out;
}
std::vector<std::string> Reader::strings(const char* k) {
    std::vector<std::string> out;
    const json* v = find(k);
    if (!v) return out;
    if (!v->is_array()) throw_error(key(k), "must be a list of strings, got " + v->dump());
    for (const json& e : *v) {
        if (!e.is_string()) throw_error(key(k), "must be a list of strings, got " + e.dump());
        out.push_back(e.get<std::string>());
    }
    return out;
}

std::vector<long long> Reader::per_layer(F f, int n) {
    // The first spelling that holds a list (Laguna writes num_attention_heads and a per-layer
    // num_attention_heads_per_layer side by side).
    const char* which = nullptr;
    const json* v = nullptr;
    for (const char* name : spellings(f)) {
        const json* x = find(name);
        if (x && x->is_array()) {
            v = x;
            which = name;
            break;
        }
    }
    if (!v) return {};
    if (modality_lists && int(v->size()) != n && v->size() <= 3) return {};
    std::vector<long long> out = integers(which);
    if (int(out.size()) != n)
        throw_error(key(which), "has " + std::to_string(out.size()) + " entries for " + std::to_string(n) + " layers");
    return out;
}
long long Reader::single_or_first(F f, long long fallback) {
    const char* which = nullptr;
    const json* v = find(f, &which);
    if (v && v->is_array()) {
        const std::vector<long long> l = integers(which);
        return l.empty() ? fallback : l.front();
    }
    return integer(f, fallback);
}

std::vector<std::string> Reader::unread(const std::set<std::string>& also_irrelevant) const {
    std::vector<std::string> out;
    for (auto it = j_.begin(); it != j_.end(); ++it) {
        const std::string& k = it.key();
        if (used_.count(k) || irrelevant_everywhere(k) || also_irrelevant.count(k)) continue;
        out.push_back(k);
    }
    return out;
}

long long Reader::as_integer(const json* v, const char* k, long long fallback, long long max) const {
    if (!v) return fallback;
    if (!v->is_number()) throw_error(key(k), "must be a number, got " + v->dump());
    const double d = v->get<double>();
    if (!std::isfinite(d) || d < 0 || d != std::floor(d)) throw_error(key(k), "must be a non-negative integer, got " + v->dump());
    if (d > double(max)) throw_error(key(k), "must be at most " + std::to_string(max) + ", got " + v->dump());
    return (long long)d;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Reading a sub-config leniently
// ---------------------------------------------------------------------------------------------

// The first of `names` holding a whole number in [0, 1e9] (or a list whose first entry does:
// image_size [h, w]); anything else is skipped, never cast.
long long first_int(const json& j, std::initializer_list<const char*> names, long long fallback) {
    auto whole = [](const json& v, long long& out) {
        if (!v.is_number()) return false;
        const double d = v.get<double>();
        if (!(d >= 0 && d <= 1e9) || d != std::floor(d)) return false;
        out = (long long)d;
        return true;
    };
    for (const char* n : names) {
        auto it = j.find(n);
        if (it == j.end()) continue;
        long long v = 0;
        if (whole(*it, v)) return v;
        if (it->is_array() && !it->empty() && whole((*it)[0], v)) return v;
    }
    return fallback;
}

}  // namespace gpusizer::hf
