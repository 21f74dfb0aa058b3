// ui/i18n.hpp: the app's language. Every text the app shows, and every accessible name it
// publishes, is looked up by its English words in one table with both languages,
// assets/strings.json (compiled into the app; the page and the widget get their rows from the
// same table at build time: web/strings_js.mjs). English is the key, so a missing row shows
// English, never an empty label; tests/test_ui_strings.cpp fails when a text in the sources has
// no row, a row is used nowhere, or a row's printf conversions differ between the languages.
//
// What stays English in every language (issue 28): the CLI, the JSON, the configuration keys
// and link keys, the core's own messages (they name keys), and the units and terms people
// write as they are (GiB, tokens/s, KV cache, TP).
//
// In the sources:
//   tr("Fits")                  a text (const char*, lives as long as the program)
//   tr_label("Memory")          an ImGui label whose ID stays the same in every language
//                                ("Memória###Memory"); "Context##ctx" keeps "##ctx" too
//   tr_later("inference")       marks an English literal that is translated later, through
//                                tr(variable): the table test finds it by this marker
//   format_gib(bytes) ...       the core's number formats in the language's separators
//                                ("8,94 GiB" in pt-BR): ui::format_* below hide the core's
// No ImGui here: the state tests check it.
#pragma once

#include <cstdarg>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "gpusizer/format.hpp"
#include "gpusizer/report.hpp"

namespace gpusizer::ui {

enum class Language { en, pt_br };
constexpr Language kLanguages[] = {Language::en, Language::pt_br};

const char* language_code(Language lang);   // "en", "pt-BR": the link's lang= and <html lang>
const char* language_name(Language lang);   // in its own words: "English", "Português (Brasil)"
// A BCP 47 tag as a link or a browser gives it: "pt-BR", "pt", "pt-PT", "PT_br" -> pt_br;
// "en", "en-US" -> en; anything else -> none.
std::optional<Language> language_from_tag(std::string_view tag);

Language language();                // the app's current language (English until set)
void set_language(Language lang);

// The text in the current language; `en` itself in English or where the table has no row.
const char* tr(const char* en);
// FNV-1a (32 bits) of a text's bytes: the browser app's table is keyed by it (web/strings_js.mjs
// computes the same), so the English is stored once, in the program.
std::uint32_t text_hash(std::string_view text);
inline const char* tr(const std::string& en) { return tr(en.c_str()); }
// An ImGui label in the current language with an ID that does not change with it: the visible
// part translated, then "###" and the English label (ImGui hashes what follows "###").
const char* tr_label(const char* en);
// Marks a literal for the table test; the text goes through tr() where it is shown.
constexpr const char* tr_later(const char* en) { return en; }
// printf into a string, for sentences whose words and numbers are one row of the table:
//   strf(tr("%s of %s per GPU, %s to spare"), used.c_str(), usable.c_str(), spare.c_str())
// (a row's languages take the same conversions in the same order: the table test checks).
std::string strf(const char* format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

// A memory part's name for people (the core's kMemoryParts label: "KV cache"), in the language.
const char* memory_part_label(MemoryPart part);

// A number as the core formats it ("1,234.5", "8.94 GiB", "3.1 days") in the current language's
// separators and words ("1.234,5", "8,94 GiB", "3,1 dias"). Only for the core's number formats:
// names with dots ("Llama-3.1") must not pass through it.
std::string localized_number(std::string formatted);

// The core's formats (gpusizer/format.hpp), localized. Declared here so that the views' calls
// (in namespace gpusizer::ui) find these first.
inline std::string format_gib(double bytes, int decimals = 2) { return localized_number(gpusizer::format_gib(bytes, decimals)); }
inline std::string format_count(double n) { return localized_number(gpusizer::format_count(n)); }
inline std::string format_int(double n) { return localized_number(gpusizer::format_int(n)); }
inline std::string format_bytes_short(double bytes) { return localized_number(gpusizer::format_bytes_short(bytes)); }
inline std::string format_fixed(double v, int decimals) { return localized_number(gpusizer::format_fixed(v, decimals)); }
inline std::string format_duration(double seconds) { return localized_number(gpusizer::format_duration(seconds)); }
inline std::string format_rate(double per_s) { return localized_number(gpusizer::format_rate(per_s)); }
inline std::string format_bandwidth(double bytes_per_s) { return localized_number(gpusizer::format_bandwidth(bytes_per_s)); }
inline std::string format_watts(double w) { return localized_number(gpusizer::format_watts(w)); }
inline std::string format_measured(double v, const std::string& unit) { return localized_number(gpusizer::format_measured(v, unit)); }

}   // namespace gpusizer::ui
