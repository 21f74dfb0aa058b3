// gpusizer/config_keys.hpp: one table of the configuration's keys.
//
// One row per key of the configuration JSON (docs/config.md), in the manner of Dear ImGui's
// GStyleVarsInfo: the JSON name, the share-link key, the CLI flag, the kind, the range, what
// "not given" means, the member of Config it is, and the help and documentation text. The JSON
// reader and writer, share links, the CLI's flags and usage, the range checks of estimate(),
// fit()'s search ceilings, the bad-input tests and the key reference in docs/config.md all read
// it. Adding a key is one row here plus the code that uses the value. UIs clamp from min/max.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "gpusizer/config.hpp"

namespace gpusizer {

enum class KeyKind {
    model,     // a catalog id or {"hf_config": {...}} / {"num_parameters": N}
    choice,    // one of a closed set of names (mode, runtime, ...)
    text,      // an id checked against the catalog or a format table (gpu, weights, link, ...)
    integer,   // a whole number in [min, max]
    number,    // a finite number in [min, max]
    boolean,
    list,      // a name or an array of names (lora_targets)
};

// What the value of an unset key is, in Config and in the configuration JSON.
enum class KeyUnset {
    value,       // Config{}'s value is the default; every value in range is a value
    zero,        // 0 = "default, resolved by the estimate"; written as 0
    zero_null,   // 0 = default; written as null (JSON and links give a value in range)
    null,        // std::nullopt = default; written as null
    null_zero,   // std::nullopt = default; written as null; a 0 in JSON or a link also means
                 // "not given" (files written when the field was a 0 sentinel)
    empty,       // "" = default; written as null
};

// Typed access to the member of Config a key is. Exactly one is set for integer, number,
// boolean and text keys; choice and list keys read and write names through text/set_text.
struct KeyMember {
    int Config::*i = nullptr;
    long long Config::*ll = nullptr;
    double Config::*d = nullptr;
    bool Config::*b = nullptr;
    std::optional<int> Config::*oi = nullptr;      // KeyUnset::null / null_zero keys
    std::optional<double> Config::*od = nullptr;
    std::string Config::*s = nullptr;
    std::string (*text)(const Config&) = nullptr;
    void (*set_text)(Config&, std::string_view) = nullptr;   // throws Error naming the key
};

struct ConfigKey {
    const char* name;      // the JSON key (a public contract: never renamed)
    const char* link;      // the share-link key ("g" for gpu and gpus: written together)
    const char* flag;      // the CLI flag, without "--"
    const char* metavar;   // the CLI's name for the value: N, F, ID, ...
    KeyKind kind;
    double min, max;       // the range of an integer or number key (inclusive)
    bool min_open;         // (min, max] instead of [min, max]
    KeyUnset unset;
    const char* unit;      // docs: "tokens", "fraction", ...
    const char* default_doc;
    const char* allowed_doc;   // docs; "" = written from the range or the choices
    const char* meaning;       // docs: what the key means
    const char* help;          // the CLI usage line
    KeyMember member;
};

struct ConfigKeyTable {
    const ConfigKey* first;
    std::size_t count;
    const ConfigKey* begin() const { return first; }
    const ConfigKey* end() const { return first + count; }
    std::size_t size() const { return count; }
};

// Every key, in the order share links write them.
ConfigKeyTable config_keys();
const ConfigKey* find_config_key(std::string_view name);   // nullptr if no such key
const ConfigKey* find_link_key(std::string_view link);     // by share-link key; not "g"
const ConfigKey* find_flag_key(std::string_view flag);     // by CLI flag (without "--")

// The value of an integer, number or boolean key (booleans as 0/1; an unset optional key reads
// 0), and setting it unchecked (a 0 resets a null_zero key to "not given").
double key_number(const Config& c, const ConfigKey& k);
void set_key_number(Config& c, const ConfigKey& k, double v);
void reset_key(Config& c, const ConfigKey& k);   // an optional key back to "not given"
// The value of a text, choice or list key as text ("" when unset), and setting it from text
// (choices and lists are parsed: an unknown name throws Error naming the key).
std::string key_text(const Config& c, const ConfigKey& k);
void set_key_text(Config& c, const ConfigKey& k, std::string_view v);
// Whether the key holds its "not given" value (KeyUnset).
bool key_unset(const Config& c, const ConfigKey& k);

// Whether a key's "not given" value counts as given: a `Config` filled by code holds 0 for an
// unset `zero_null` key (UnsetValue::accepted); a configuration file writes null instead.
enum class UnsetValue { refused, accepted };
// Throws Error(k.name, "must be between ...") unless `v` is in the key's range (or is the key's
// "not given" value when `unset` is accepted).
void check_key_value(const ConfigKey& k, double v, UnsetValue unset);
// Every integer and number key of `c` in range; estimate() calls it first.
void check_key_ranges(const Config& c);

// A key's documentation texts, Markdown but for the usage line: its default, its allowed values
// and its CLI usage line. What another table holds is written from that table: the weight and KV
// formats (gpusizer/precision.hpp), the engine versions and the engine fractions' defaults
// (gpusizer/engine_versions.hpp), a choice's names (allowed_values); the rest is the row's text.
std::string key_default_doc(const ConfigKey& k);
std::string key_allowed_doc(const ConfigKey& k);
std::string key_usage_help(const ConfigKey& k);

// The key reference of docs/config.md (a Markdown table) and the CLI's key-flag lines.
std::string config_keys_markdown();
std::string config_keys_usage();
// One usage line: `head` (flag and metavar, padded), then `help` wrapped at 100 columns under it.
std::string usage_line(const std::string& head, const std::string& help);

}  // namespace gpusizer
