// config_keys_docs.cpp: the texts written from the key table (config_keys.cpp): each key's
// default, allowed values and usage help where another table decides them (weight and KV formats,
// engine versions and their memory fractions), the CLI's key-flag lines (`gpusizer --help`) and the
// key reference of docs/config.md (`gpusizer keys --markdown`).
//
// Built with GPUSIZER_KEY_DOCS=0 for the widget's module (web/CMakeLists.txt), as the table is:
// the texts from other tables are left out, and a key's documentation is its row's (empty) text.
#include <algorithm>
#include <string>
#include <vector>

#include "gpusizer/config_keys.hpp"
#include "gpusizer/engine_versions.hpp"
#include "gpusizer/precision.hpp"
#include "config_keys_internal.hpp"

#ifndef GPUSIZER_KEY_DOCS
#define GPUSIZER_KEY_DOCS 1
#endif

namespace gpusizer {

namespace {

// Indexed by KeyKind, in its order.
constexpr const char* kTypeNames[] = {"string or object", "string", "string", "integer", "number", "bool", "string or array"};
const char* type_name(KeyKind k) { return kTypeNames[static_cast<int>(k)]; }

// 1,048,576: thousands separated, as docs/config.md writes counts.
std::string grouped(double v) {
    std::string digits = key_number_text(v);
    if (digits.find_first_not_of("0123456789") != std::string::npos) return digits;
    for (int i = int(digits.size()) - 3; i > 0; i -= 3) digits.insert(std::size_t(i), ",");
    return digits;
}

// "a, b, c" -> "`a`, `b`, `c`" (or "a | b | c" for a usage line).
std::string rejoin(const std::string& list, const char* open, const char* close, const char* sep) {
    std::string out;
    std::size_t p = 0;
    while (p < list.size()) {
        const std::size_t comma = list.find(", ", p);
        out += (out.empty() ? "" : sep) + std::string(open) + list.substr(p, comma == std::string::npos ? std::string::npos : comma - p) +
               close;
        p = comma == std::string::npos ? list.size() : comma + 2;
    }
    return out;
}

#if GPUSIZER_KEY_DOCS
// The texts written from other tables, by key; "" = the row's own text.
enum class DocPart { default_value, allowed, usage };

std::string weights_doc(DocPart part) {
    if (part == DocPart::usage) {
        std::string ids;
        for (const WeightFormat& f : weight_formats()) ids += " " + std::string(f.id);
        return "native, or a format (gpusizer formats):" + ids;
    }
    if (part != DocPart::allowed) return "";
    // By picker group (gpusizer/precision.hpp WeightGroup), each in the table's order.
    std::string out = "`native` (the checkpoint as published), or a format (`gpusizer formats`), by group";
    const char* sep = ". ";
    for (WeightGroup g :
         {WeightGroup::native, WeightGroup::gptq_awq, WeightGroup::bitsandbytes, WeightGroup::gguf_k, WeightGroup::gguf_i}) {
        std::string ids;
        for (const WeightFormat& f : weight_formats())
            if (f.group == g) ids += (ids.empty() ? "`" : ", `") + std::string(f.id) + "`";
        if (ids.empty()) continue;
        out += sep + std::string(to_string(g)) + ": " + ids;
        sep = "; ";
    }
    return out;
}

std::string kv_cache_doc(DocPart part) {
    if (part == DocPart::default_value) return "";
    const bool md = part == DocPart::allowed;
    std::string any, llama;
    for (const KvFormat& f : kv_formats()) {
        std::string& list = f.llama_cpp_only ? llama : any;
        list += (list.empty() ? "" : md ? ", " : " ") + (md ? "`" + std::string(f.id) + "`" : std::string(f.id));
    }
    return any + (llama.empty() ? "" : std::string(md ? "; llama.cpp only: " : "; llama.cpp: ") + llama);
}

std::string runtime_version_doc(DocPart part) {
    std::string out;
    for (Runtime engine : versioned_runtimes()) {
        const std::vector<EngineVersionInfo> versions = engine_version_infos(engine);
        const std::string name(to_string(engine));
        std::string list;
        for (const EngineVersionInfo& v : versions) {
            if (part == DocPart::default_value && v.is_default) {
                list = "`" + v.version + "`";
                for (const EngineVersionInfo& n : versions)
                    if (n.is_newest && !n.is_default) list += " (`" + n.version + "` is newer)";
            } else if (part == DocPart::allowed) {
                const std::string from = v.version == v.since ? "" : "from " + v.since + ": ";
                list += (list.empty() ? "`" : ", `") + v.version + "` (" + from + v.about + ")";
            } else if (part == DocPart::usage) {
                list += (list.empty() ? "" : "|") + v.version;
            }
        }
        out += (out.empty() ? "" : part == DocPart::allowed ? "; " : ", ") + name + " " + list;
    }
    if (part == DocPart::default_value) return "the engine's default: " + out;
    if (part == DocPart::usage) return "engine version, e.g. 0.30 or b7539 (" + out + "); another reads as the nearest";
    return out + ". " + std::string(runtime_version_rule());
}

// An engine fraction's default: the one of each version of `engine`, the default version's first.
std::string fraction_default(Runtime engine, bool md) {
    std::string out;
    for (const EngineVersionInfo& v : engine_version_infos(engine)) {
        if (v.fraction <= 0) continue;
        const std::string label = md ? "`" + v.version + "`" : v.version;
        out += (out.empty() ? "" : ", ") + key_number_text(v.fraction) + " for " + (out.empty() ? std::string(to_string(engine)) + " " : "") +
               label + (v.is_default ? " (the default)" : "");
    }
    return out;
}

std::string generated_doc(const ConfigKey& k, DocPart part) {
    const std::string_view name = k.name;
    if (name == "weights") return weights_doc(part);
    if (name == "kv_cache") return kv_cache_doc(part);
    if (name == "runtime_version") return runtime_version_doc(part);
    if (name == "gpu_memory_utilization" || name == "free_gpu_memory_fraction") {
        const Runtime engine = name == "gpu_memory_utilization" ? Runtime::vllm : Runtime::trt_llm;
        if (part == DocPart::default_value) return "the `runtime_version`'s: " + fraction_default(engine, true);
        if (part == DocPart::usage)
            return std::string(name == "gpu_memory_utilization" ? "vLLM's fraction" : k.help) +
                   "; default by runtime_version: " + fraction_default(engine, false);
        return "";
    }
    // A choice's usage line: its names, as the parser knows them (gpusizer/config.hpp).
    if (k.kind == KeyKind::choice && part == DocPart::usage && !*k.help) return rejoin(allowed_values(k.name), "", "", " | ");
    return "";
}
#else
enum class DocPart { default_value, allowed, usage };
std::string generated_doc(const ConfigKey&, DocPart) { return ""; }
#endif

}   // namespace

// Wraps a usage line's help at 100 columns, continuing under its first word (column `indent`).
std::string usage_line(const std::string& head, const std::string& help) {
    constexpr std::size_t kWidth = 100;
    const std::size_t indent = head.size();
    std::string out = head, line;
    std::size_t p = 0;
    while (p < help.size()) {
        std::size_t space = help.find(' ', p);
        if (space == std::string::npos) space = help.size();
        const std::string word = help.substr(p, space - p);
        if (!line.empty() && indent + line.size() + 1 + word.size() > kWidth) {
            out += line + "\n" + std::string(indent, ' ');
            line.clear();
        }
        line += (line.empty() ? "" : " ") + word;
        p = space + 1;
    }
    return out + line + "\n";
}

std::string key_default_doc(const ConfigKey& k) {
    std::string g = generated_doc(k, DocPart::default_value);
    return g.empty() ? std::string(k.default_doc) : g;
}

std::string key_allowed_doc(const ConfigKey& k) {
    if (*k.allowed_doc) return k.allowed_doc;
    if (std::string g = generated_doc(k, DocPart::allowed); !g.empty()) return g;
    if (k.kind == KeyKind::integer || k.kind == KeyKind::number) {
        const double lo = k.unset == KeyUnset::zero || k.unset == KeyUnset::null_zero ? 0 : k.min;
        if (k.min_open) return "(" + key_number_text(k.min) + ", " + key_number_text(k.max) + "]";
        return (k.kind == KeyKind::integer ? grouped(lo) + " to " + grouped(k.max) : key_number_text(lo) + " to " + grouped(k.max));
    }
    if (k.kind == KeyKind::choice) return rejoin(allowed_values(k.name), "`", "`", ", ");
    return "";
}

std::string key_usage_help(const ConfigKey& k) {
    std::string g = generated_doc(k, DocPart::usage);
    return g.empty() ? std::string(k.help) : g;
}

std::string config_keys_markdown() {
    std::string out =
        "| key | type | unit | default | allowed | meaning | link | CLI |\n"
        "|---|---|---|---|---|---|---|---|\n";
    for (const ConfigKey& k : config_keys()) {
        std::string link = std::string("`") + k.link + "`";
        if (std::string_view(k.name) == "gpu") link = "`g` (`g=rtx-4090`; a custom GPU: `g=custom&gc=...`)";
        if (std::string_view(k.name) == "gpus") link = "`g` (`x<count>`: `g=h100-sxmx8`)";
        if (k.kind == KeyKind::model) link = "`m` (`m=custom` with `hf` or `np`)";
        if (k.kind == KeyKind::boolean) link += " (0/1)";
        if (k.kind == KeyKind::list) link += " (comma list)";
        const char* type = k.member.s == &Config::gpu ? "string or object" : type_name(k.kind);
        out += std::string("| `") + k.name + "` | " + type + " | " + k.unit + " | " + key_default_doc(k) + " | " +
               key_allowed_doc(k) + " | " + k.meaning + " | " + link + " | `--" + k.flag + "` |\n";
    }
    return out;
}

std::string config_keys_usage() {
    std::string out;
    for (const ConfigKey& k : config_keys()) {
        std::string head = std::string("  --") + k.flag + " " + k.metavar;
        head.resize(std::max<std::size_t>(head.size() + 2, 26), ' ');   // two spaces at least: the help starts a column
        out += usage_line(head, key_usage_help(k));
    }
    return out;
}

}   // namespace gpusizer
