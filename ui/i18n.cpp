// ui/i18n.cpp: see i18n.hpp. The table is assets/strings.json, compiled in (ui/CMakeLists.txt),
// read once on first use into a map from the English text to the Portuguese.
#include "i18n.hpp"

#include <cctype>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>

#include <nlohmann/json.hpp>

namespace gpusizer::ui {

namespace data {
extern const unsigned char strings_json[];
extern const std::size_t strings_json_size;
}   // namespace data

namespace {

Language g_language = Language::en;

// English -> Portuguese, by the text (the whole table) or by its text_hash (the browser app's rows,
// web/strings_js.mjs), and the labels made of them (each language's, by its English label). Keyed
// by views of `english`, so that a lookup with a C string builds no std::string (tr() runs for
// every text of every frame).
struct Table {
    std::deque<std::string> english;   // the keys below (a deque: its strings never move)
    std::unordered_map<std::string_view, std::string> pt_br;
    std::unordered_map<std::uint32_t, std::string> pt_br_by_hash;
    std::unordered_map<std::string_view, std::string> labels[std::size(kLanguages)];
    std::string_view keep(std::string text) { return english.emplace_back(std::move(text)); }
};

Table& table() {
    static Table t = [] {
        Table out;
        // A table that cannot be read leaves the app in English (the table test reads the same
        // bytes, so this does not ship). Parsed as the engine-log view parses (one instantiation
        // of nlohmann's parser in the browser build).
        nlohmann::json doc;
        try {
            doc = nlohmann::json::parse(std::string_view(reinterpret_cast<const char*>(data::strings_json), data::strings_json_size));
        } catch (const nlohmann::json::exception&) {
            return out;
        }
        if (!doc.is_object()) return out;
        // The browser app's rows only, the English text's hash (8 hex digits) -> Portuguese
        // (web/strings_js.mjs).
        if (const auto pt = doc.find("pt-BR#"); pt != doc.end() && pt->is_object()) {
            for (auto it = pt->begin(); it != pt->end(); ++it)
                if (it.value().is_string())
                    out.pt_br_by_hash.emplace(std::uint32_t(std::strtoul(it.key().c_str(), nullptr, 16)), it.value().get<std::string>());
            return out;
        }
        if (!doc.contains("strings") || !doc["strings"].is_array()) return out;
        for (const nlohmann::json& row : doc["strings"]) {
            if (!row.is_object()) continue;
            const auto en = row.find("en"), pt = row.find("pt-BR");
            if (en == row.end() || pt == row.end() || !en->is_string() || !pt->is_string()) continue;
            out.pt_br.emplace(out.keep(en->get<std::string>()), pt->get<std::string>());
        }
        return out;
    }();
    return t;
}

}   // namespace

const char* language_code(Language lang) { return lang == Language::pt_br ? "pt-BR" : "en"; }

const char* language_name(Language lang) { return lang == Language::pt_br ? "Português (Brasil)" : "English"; }

std::optional<Language> language_from_tag(std::string_view tag) {
    std::string primary;
    for (const char ch : tag) {
        if (ch == '-' || ch == '_') break;
        primary += char(std::tolower(static_cast<unsigned char>(ch)));
    }
    // Every Portuguese gets the Brazilian text, the only Portuguese the table has.
    if (primary == "pt") return Language::pt_br;
    if (primary == "en") return Language::en;
    return std::nullopt;
}

Language language() { return g_language; }

void set_language(Language lang) { g_language = lang; }

std::uint32_t text_hash(std::string_view text) {
    std::uint32_t h = 0x811c9dc5u;   // FNV-1a, 32 bits (offset basis and prime of the FNV spec)
    for (const char ch : text) h = (h ^ std::uint32_t(static_cast<unsigned char>(ch))) * 0x01000193u;
    return h;
}

const char* tr(const char* en) {
    if (g_language == Language::en || en == nullptr) return en;
    const Table& t = table();
    if (!t.pt_br_by_hash.empty()) {
        const auto it = t.pt_br_by_hash.find(text_hash(en));
        return it == t.pt_br_by_hash.end() ? en : it->second.c_str();
    }
    const auto it = t.pt_br.find(en);
    return it == t.pt_br.end() ? en : it->second.c_str();
}

const char* tr_label(const char* en) {
    Table& t = table();
    auto& labels = t.labels[int(g_language)];
    if (const auto it = labels.find(en); it != labels.end()) return it->second.c_str();
    // "Context##ctx": the words before "##" are shown (and translated); the whole label is the ID.
    const std::string_view label(en);
    const std::size_t hashes = label.find("##");
    const std::string shown(label.substr(0, hashes));
    std::string out = tr(shown.c_str());
    out += "###";
    out += label;
    return labels.emplace(t.keep(en), std::move(out)).first->second.c_str();
}

const char* memory_part_label(MemoryPart part) {
    // kMemoryParts' labels, in its order (tests/test_memory_parts.cpp keeps them in step).
    static constexpr const char* kLabels[] = {tr_later("weights"),  tr_later("KV cache"),  tr_later("activations"),
                                              tr_later("gradients"), tr_later("optimizer"), tr_later("overhead")};
    static_assert(std::size(kLabels) == std::size(kMemoryParts));
    (void)kLabels;
    return tr(memory_part(part).label);
}

std::string strf(const char* format, ...) {
    va_list args, again;
    va_start(args, format);
    va_copy(again, args);
    const int n = std::vsnprintf(nullptr, 0, format, args);
    va_end(args);
    std::string out;
    if (n > 0) {
        out.resize(std::size_t(n) + 1);
        std::vsnprintf(out.data(), out.size(), format, again);
        out.resize(std::size_t(n));
    }
    va_end(again);
    return out;
}

std::string localized_number(std::string s) {
    if (g_language == Language::en) return s;
    // Brazilian Portuguese: ',' for the decimals and '.' between thousands (ABNT NBR 5891 and
    // the usage of the seed article: "8,94 GiB"), and the words of the core's durations.
    for (char& ch : s) ch = ch == '.' ? ',' : ch == ',' ? '.' : ch;
    static constexpr std::pair<std::string_view, std::string_view> kWords[] = {{" days", " dias"}, {" years", " anos"}};
    for (const auto& [en, pt] : kWords)
        if (s.size() >= en.size() && std::string_view(s).substr(s.size() - en.size()) == en) {
            s.replace(s.size() - en.size(), en.size(), pt);
            break;
        }
    return s;
}

}   // namespace gpusizer::ui
