// share_link.cpp: share links <-> configurations (format in gpusizer/share_link.hpp).
//
// A link is decoded into the configuration's JSON value and validated by
// config_from_json_value, so links and configuration files share one set of rules and messages.
#include "gpusizer/share_link.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "gpusizer/config_keys.hpp"
#include "gpusizer/custom_gpu.hpp"
#include "gpusizer/error.hpp"
#include "json_internal.hpp"
#include "json_read.hpp"
#include "nearest.hpp"

// The widget's module compiles this file with GPUSIZER_HUB_FILES=0 (web/CMakeLists.txt): no Hub
// models there (core/src/hub_model.cpp), so neither their links.
#ifndef GPUSIZER_HUB_FILES
#define GPUSIZER_HUB_FILES 1
#endif

namespace gpusizer {

using nlohmann::json;

namespace {

// The keys a link writes one by one: every configuration key but the model (m, with hf or np)
// and the GPU with its count (g=<id>x<count>), written apart.
bool written_apart(const ConfigKey& k) { return k.kind == KeyKind::model || k.link == std::string_view("g"); }

constexpr std::size_t kMaxLinkLength = 100000;   // a pasted config.json fits; a flood does not

bool unreserved(unsigned char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_' ||
           c == '~' || c == ',';
}

std::string pct_encode(std::string_view s) {
    static const char* kHex = "0123456789ABCDEF";
    std::string out;
    for (unsigned char c : s) {
        if (unreserved(c)) {
            out += char(c);
        } else {
            out += '%';
            out += kHex[c >> 4];
            out += kHex[c & 15];
        }
    }
    return out;
}

int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

std::string pct_decode(std::string_view s, const std::string& key) {
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '%') {
            const int hi = i + 2 < s.size() ? hex_value(s[i + 1]) : -1;
            const int lo = i + 2 < s.size() ? hex_value(s[i + 2]) : -1;
            if (hi < 0 || lo < 0) throw_error("link", "bad %-escape in the value of '" + key.substr(0, 40) + "'");
            out += char(hi * 16 + lo);
            i += 2;
        } else if (s[i] == '+') {
            out += ' ';
        } else {
            out += s[i];
        }
    }
    return out;
}

// The shortest text of 10 to 17 significant digits that reads back as `v` (17 always does:
// IEEE 754 binary64), so that a link's numbers survive the round trip exactly (QA D13: 10
// digits turned mfu 0.6631891369819641 into 0.663189137); the values people type stay short.
std::string number_text(double v) {
    if (v == std::floor(v) && std::fabs(v) < 1e15) return std::to_string((long long)v);
    char buf[32];
    for (int digits = 10; digits <= 17; ++digits) {
        std::snprintf(buf, sizeof buf, "%.*g", digits, v);
        if (std::strtod(buf, nullptr) == v) break;
    }
    return buf;
}

// Numbers in links follow one rule (gpusizer/share_link.hpp): JSON's number grammar (RFC 8259
// section 6) after %-decoding: an optional '-', then 0 or digits without a leading zero, an
// optional fraction, an optional exponent; nothing before or after (no '+', space, hex, inf or
// nan). An integer key takes a number whose value is whole (1e4 = 10000, 8192.0 = 8192).
bool json_number_text(const std::string& t) {
    std::size_t i = 0;
    const auto digits = [&] {
        const std::size_t from = i;
        while (i < t.size() && t[i] >= '0' && t[i] <= '9') ++i;
        return i > from;
    };
    if (i < t.size() && t[i] == '-') ++i;
    if (i < t.size() && t[i] == '0') ++i;
    else if (!digits()) return false;
    if (i < t.size() && t[i] == '.') {
        ++i;
        if (!digits()) return false;
    }
    if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
        ++i;
        if (i < t.size() && (t[i] == '+' || t[i] == '-')) ++i;
        if (!digits()) return false;
    }
    return i == t.size();
}

constexpr const char* kNumberRule = " (a link's numbers are written as in JSON: 8192, 0.9, 1e16)";

double link_number(const std::string& text, const char* config_key, const char* what) {
    if (!json_number_text(text))
        throw_error(config_key, std::string("must be ") + what + ", got '" + text.substr(0, 40) + "' in the link" + kNumberRule);
    const double v = std::strtod(text.c_str(), nullptr);
    if (!std::isfinite(v))
        throw_error(config_key, std::string("must be ") + what + ", got '" + text.substr(0, 40) + "' in the link (too large)");
    return v;
}

json parse_integer(const std::string& text, const char* config_key) {
    const double v = link_number(text, config_key, "an integer");
    // Whole, and within the doubles that hold every integer exactly (2^53).
    if (v != std::floor(v) || std::fabs(v) > 9007199254740992.0)
        throw_error(config_key, "must be an integer, got '" + text.substr(0, 40) + "' in the link");
    return static_cast<long long>(v);
}

json parse_number(const std::string& text, const char* config_key) { return link_number(text, config_key, "a number"); }

#ifndef GPUSIZER_CUSTOM_GPU
#define GPUSIZER_CUSTOM_GPU 1
#endif

#if !GPUSIZER_CUSTOM_GPU
// The widget's module takes no custom GPU (web/CMakeLists.txt): g=custom and gc= are refused.
std::string custom_gpu_link(const json&) { return {}; }
json custom_gpu_from_link(const std::string&) { throw_error("gpu", kNoCustomGpuHere); }
#else
// A custom GPU's fields (gc=): "b:<base>~<field>:<value>~...", each field by its short key
// (gpusizer/custom_gpu.hpp), in table order. Values are %-encoded with '~' escaped too, so that a
// name may hold any character and the value splits on '~' and ':' before it is decoded.
std::string gc_encode(std::string_view s) {
    std::string out = pct_encode(s);
    for (std::size_t p = 0; (p = out.find('~', p)) != std::string::npos;) out.replace(p, 1, "%7E");
    return out;
}

std::string custom_gpu_link(const json& gpu) {
    std::string out;
    auto item = [&](const char* key, const std::string& value) { out += (out.empty() ? "" : "~") + std::string(key) + ":" + value; };
    if (gpu.contains("base")) item("b", gc_encode(gpu["base"].get<std::string>()));
    for (const GpuField& f : gpu_fields()) {
        const std::string_view name = f.name;
        const std::size_t dot = name.find('.');
        const json* v = nullptr;
        if (dot == std::string_view::npos) {
            if (gpu.contains(f.name)) v = &gpu[f.name];
        } else {
            const std::string group(name.substr(0, dot)), leaf(name.substr(dot + 1));
            if (gpu.contains(group) && gpu[group].contains(leaf)) v = &gpu[group][leaf];
        }
        if (!v) continue;
        if (v->is_string())
            item(f.link, gc_encode(v->get<std::string>()));
        else if (v->is_boolean())
            item(f.link, v->get<bool>() ? "1" : "0");
        else
            item(f.link, number_text(v->get<double>()));
    }
    return out;
}

// gc= as the link gives it (not yet %-decoded) into the "gpu" object of the configuration;
// config_from_json_value then checks each field as a configuration file's.
json custom_gpu_from_link(const std::string& raw) {
    if (raw.empty()) throw_error("gpu", "has no value in the link ('gc='); give the custom GPU's fields, such as gc=b:rtx-4090~tdp:500");
    json gpu = json::object();
    std::vector<std::string> seen;
    std::size_t p = 0;
    while (p <= raw.size()) {
        const std::size_t tilde = raw.find('~', p);
        const std::string part = raw.substr(p, tilde == std::string::npos ? std::string::npos : tilde - p);
        p = tilde == std::string::npos ? raw.size() + 1 : tilde + 1;
        if (part.empty()) continue;
        const std::size_t colon = part.find(':');
        if (colon == std::string::npos || colon == 0)
            throw_error("gpu", "'" + part.substr(0, 40) + "' in the link's gc= is not field:value (such as mem:48)");
        const std::string key = part.substr(0, colon);
        for (const std::string& s : seen)
            if (s == key) throw_error("gpu", "field '" + key.substr(0, 40) + "' appears twice in the link's gc=");
        seen.push_back(key);
        const std::string value = pct_decode(std::string_view(part).substr(colon + 1), "gc");
        if (key == "b") {
            gpu["base"] = value;
            continue;
        }
        const GpuField* f = find_gpu_field_link(key);
        if (!f) {
            std::string known = "b";
            for (const GpuField& g : gpu_fields()) known += std::string(", ") + g.link;
            throw_error("gpu", "unknown field '" + key.substr(0, 40) + "' in the link's gc=; known: " + known);
        }
        const std::string config_key = std::string("gpu.") + f->name;
        if (value.empty()) throw_error(config_key, "has no value in the link ('" + key + ":')");
        json v;
        switch (f->kind) {
            case GpuFieldKind::text:
            case GpuFieldKind::choice:
                v = value;
                break;
            case GpuFieldKind::integer:
                v = parse_integer(value, config_key.c_str());
                break;
            case GpuFieldKind::number:
                v = parse_number(value, config_key.c_str());
                break;
            case GpuFieldKind::boolean:
                if (value == "1" || value == "true")
                    v = true;
                else if (value == "0" || value == "false")
                    v = false;
                else
                    throw_error(config_key, "must be 0 or 1, got '" + value.substr(0, 40) + "' in the link");
                break;
        }
        const std::string_view name = f->name;
        const std::size_t dot = name.find('.');
        if (dot == std::string_view::npos)
            gpu[f->name] = v;
        else
            gpu[std::string(name.substr(0, dot))][std::string(name.substr(dot + 1))] = v;
    }
    return gpu;
}
#endif

#if GPUSIZER_HUB_FILES
// A Hub repository, file or revision in a link: %-encoded, but '/' kept (a fragment may hold it),
// so that hf=Qwen/Qwen3-8B reads as written.
std::string path_encode(std::string_view s) {
    std::string out;
    std::size_t from = 0;
    for (std::size_t slash; (slash = s.find('/', from)) != std::string_view::npos; from = slash + 1)
        out += pct_encode(s.substr(from, slash - from)) + "/";
    return out + pct_encode(s.substr(from));
}
#endif

}  // namespace

std::string link_from_config(const Config& config) {
    const json cur = config_to_json_value(config);
    const json def = config_to_json_value(Config{});
    std::string out = "#v=" + std::to_string(kLinkVersion);
    const json& model = cur["model"];
    if (model.is_null()) {
        // A model read from a file: the gguf / hfd key below names it.
    } else if (model.is_string()) {
        out += "&m=" + pct_encode(model.get<std::string>());
#if GPUSIZER_HUB_FILES
    } else if (model.contains("hub")) {
        // A Hub model travels as its repository, revision and file; the page that opens the link
        // fetches them again (what was fetched is too large for a link).
        out += "&hf=" + path_encode(model["hub"].get<std::string>());
        if (model.contains("revision") && model["revision"].is_string()) out += "&rev=" + path_encode(model["revision"].get<std::string>());
        if (model.contains("file") && model["file"].is_string()) out += "&f=" + path_encode(model["file"].get<std::string>());
#endif
    } else if (model.contains("gguf_headers")) {
        // A GGUF file a page read from the reader's disk: the link names it as the CLI's file
        // (gguf=, in the loop below); what was read stays with the reader.
    } else if (model.contains("hf_config")) {
        out += "&m=custom&hf=" + pct_encode(model["hf_config"].dump(-1, ' ', false, json::error_handler_t::replace));
    } else {
        out += "&m=custom&np=" + number_text(model["num_parameters"].get<double>());
    }
    const bool local_file = model.is_object() && model.contains("gguf_headers") && !model.contains("hub");
    for (const ConfigKey& k : config_keys()) {
        if (written_apart(k)) continue;
        const json& v = local_file && k.name == std::string_view("gguf") ? model["file"] : cur[k.name];
        if (v == def[k.name] || v.is_null()) continue;
        out += '&';
        out += k.link;
        out += '=';
        switch (k.kind) {
            case KeyKind::model: break;
            case KeyKind::choice: case KeyKind::text: out += pct_encode(v.get<std::string>()); break;
            case KeyKind::integer: case KeyKind::number: out += number_text(v.get<double>()); break;
            case KeyKind::boolean: out += v.get<bool>() ? "1" : "0"; break;
            case KeyKind::list:
                if (v.is_string()) {
                    out += pct_encode(v.get<std::string>());
                } else {
                    std::string list;
                    for (const auto& item : v) list += (list.empty() ? "" : ",") + item.get<std::string>();
                    out += pct_encode(list);
                }
                break;
        }
    }
    // The GPU and its count read as one: g=rtx-4090x2; a custom GPU is g=custom with its fields in gc.
    const json& gpu = cur["gpu"];
    const bool custom = GPUSIZER_CUSTOM_GPU && gpu.is_object();
    out += "&g=" + pct_encode(custom ? std::string(kCustomGpuId) : gpu.get<std::string>());
    if (config.gpus != 1) out += "x" + std::to_string(config.gpus);
    if (custom) out += "&gc=" + custom_gpu_link(gpu);
    return out;
}

std::string_view link_key_of(std::string_view config_key) {
    const ConfigKey* k = find_config_key(config_key);
    return k ? std::string_view(k->link) : std::string_view();
}

Config config_from_link(std::string_view link) {
    if (link.size() > kMaxLinkLength) throw_error("link", "is longer than " + std::to_string(kMaxLinkLength) + " characters");
    // Whole URL, fragment or bare query.
    if (const auto hash = link.find('#'); hash != std::string_view::npos) link = link.substr(hash + 1);
    else if (const auto q = link.find('?'); q != std::string_view::npos) link = link.substr(q + 1);
    while (!link.empty() && (link.back() == '\n' || link.back() == '\r' || link.back() == ' ')) link.remove_suffix(1);
    while (!link.empty() && link.front() == ' ') link.remove_prefix(1);
    if (link.empty()) throw_error("link", "is empty; a link looks like #v=1&m=llama-3-8b&g=rtx-4090");

    json cfg = json::object();
    std::vector<std::string> seen;
    std::string version, model, hf, np, file, revision, gc;
    bool has_gc = false;
    std::size_t pos = 0;
    while (pos <= link.size()) {
        const std::size_t amp = link.find('&', pos);
        const std::string_view part = link.substr(pos, amp == std::string_view::npos ? std::string_view::npos : amp - pos);
        pos = amp == std::string_view::npos ? link.size() + 1 : amp + 1;
        if (part.empty()) continue;
        const std::size_t eq = part.find('=');
        if (eq == std::string_view::npos || eq == 0) throw_error("link", "'" + std::string(part.substr(0, 40)) + "' is not key=value");
        const std::string key(part.substr(0, eq));
        for (const auto& s : seen)
            if (s == key) throw_error("link", "key '" + key + "' appears twice");
        seen.push_back(key);
        if (key == "gc") {   // split before it is decoded (custom_gpu_from_link)
            if (!GPUSIZER_CUSTOM_GPU) throw_error("gpu", kNoCustomGpuHere);
            gc = std::string(part.substr(eq + 1));
            has_gc = true;
            continue;
        }
        const std::string value = pct_decode(part.substr(eq + 1), key);

        if (key == "v") { version = value; continue; }
        if (key == "m") { model = value; continue; }
        if (key == "hf") { hf = value; continue; }
        if (key == "np") { np = value; continue; }
        if (key == "f") { file = value; continue; }
        if (key == "rev") { revision = value; continue; }
        // The app's language (lang=pt-BR, issue 28): how the page speaks, not what is sized; the
        // CLI and the JSON stay English, so it is read past here and the app reads it itself.
        if (key == "lang") continue;
        if (key == "g" && value.empty()) throw_error("gpu", "has no value in the link ('g='); give a GPU id such as g=rtx-4090x2");
        if (key == "g") {
            // "<gpu id>x<count>": the count is the digits after the last 'x'.
            std::string gpu = value;
            const auto x = value.rfind('x');
            if (x != std::string::npos && x > 0 && x + 1 < value.size() &&
                value.find_first_not_of("0123456789", x + 1) == std::string::npos) {
                gpu = value.substr(0, x);
                cfg["gpus"] = parse_integer(value.substr(x + 1), "gpus");
            }
            cfg["gpu"] = gpu;
            continue;
        }
        const ConfigKey* spec = find_link_key(key);
        if (!spec || written_apart(*spec)) {
            // The keys near it, not all of them (QA D16).
            std::vector<std::string_view> names{"v", "m", "hf", "np", "f", "rev", "g", "gc"};
            for (const ConfigKey& k : config_keys())
                if (!written_apart(k)) names.push_back(k.link);
            const std::string near = nearest_list(key.substr(0, 40), names, 5);
            throw_error("link", "unknown key '" + key.substr(0, 40) + "'" + (near.empty() ? std::string() : "; nearest: " + near) +
                                    " (docs/config.md lists all " + std::to_string(names.size()) + " with their link keys)");
        }
        if (value.empty()) {
            // "b=" is a key without a value: say so, rather than take the default silently.
            const std::string allowed = allowed_values(spec->name);
            throw_error(spec->name, "has no value in the link ('" + key + "='); give one" +
                                        (allowed.empty() ? std::string() : " (" + allowed + ")") + " or leave the key out");
        }
        const char* name = spec->name;
        switch (spec->kind) {
            case KeyKind::model: break;
            case KeyKind::choice: case KeyKind::text: cfg[name] = value; break;
            case KeyKind::integer: cfg[name] = parse_integer(value, name); break;
            case KeyKind::number: cfg[name] = parse_number(value, name); break;
            case KeyKind::boolean:
                if (value == "1" || value == "true") cfg[name] = true;
                else if (value == "0" || value == "false") cfg[name] = false;
                else
                    throw_error(name, "must be 0 or 1, got '" + value + "' in the link");
                break;
            case KeyKind::list: {
                json arr = json::array();
                std::size_t p = 0;
                while (p <= value.size()) {
                    const std::size_t comma = value.find(',', p);
                    const std::string item = value.substr(p, comma == std::string::npos ? std::string::npos : comma - p);
                    if (!item.empty()) arr.push_back(item);
                    p = comma == std::string::npos ? value.size() + 1 : comma + 1;
                }
                cfg[name] = arr.size() == 1 ? arr[0] : arr;
                break;
            }
        }
    }
    if (version.empty()) throw_error("link", "has no version; links start with v=1");
    // A custom GPU: g=custom (with its count) and its fields in gc. (Without custom GPUs, g=custom
    // is refused by the configuration's reader.)
    const bool custom_gpu = GPUSIZER_CUSTOM_GPU && cfg.contains("gpu") && cfg["gpu"] == std::string(kCustomGpuId);
    if (has_gc) {
        if (cfg.contains("gpu") && !custom_gpu)
            throw_error("gpu",
                        "gc= holds a custom GPU's fields; it goes with g=custom, not g=" + cfg["gpu"].get<std::string>().substr(0, 40));
        cfg["gpu"] = custom_gpu_from_link(gc);
    } else if (custom_gpu) {
        throw_error("gpu", "g=custom needs gc= with the GPU's fields (such as gc=n:My%20GPU~mem:48~bw:1200~bf16:300~tdp:350)");
    }
    if (parse_integer(version, "link") != kLinkVersion)
        throw_error("link", "version '" + version.substr(0, 20) + "' is not supported; this build reads v=" + std::to_string(kLinkVersion));
    const bool from_file = (cfg.contains("gguf") && !cfg["gguf"].is_null()) || (cfg.contains("hf_dir") && !cfg["hf_dir"].is_null());
    // hf is a pasted config.json (a JSON object, with m=custom) or a Hub repository (org/name,
    // without m; f and rev may go with it). A repository id never starts with '{'.
    const bool hub = !hf.empty() && hf.front() != '{';
    if (!hub && (!file.empty() || !revision.empty()))
        throw_error("model", "f (a GGUF file) and rev (a revision) go with hf=<org/name>, a Hugging Face repository");
    if (hub) {
#if !GPUSIZER_HUB_FILES
        throw_error("model.hub", "the widget does not read Hugging Face repositories: open the link in the gpusizer app");
#endif
        if (!model.empty() || !np.empty())
            throw_error("model", "hf=" + hf.substr(0, 80) + " names the model (a Hugging Face repository): leave m and np out");
        json m = {{"hub", hf}};
        if (!revision.empty()) m["revision"] = revision;
        if (!file.empty()) m["file"] = file;
        cfg["model"] = m;
    } else if (model.empty() && from_file) {
        // The model is read from the file the gguf / hfd key names (load_model_files).
    } else if (model.empty() && !np.empty()) {
        // np alone (QA E11: "#v=1&np=-5" was refused as a link without a model).
        throw_error("np", "np=" + np.substr(0, 40) + " is a custom model's parameter count: it goes with m=custom");
    } else if (model.empty()) {
        throw_error("model", "is missing from the link (m=<model id>)");
    } else if (model == "custom") {
        if (!hf.empty() == !np.empty())
            throw_error("model", "a custom model in a link needs exactly one of hf (config.json) or np (parameters)");
        if (!hf.empty()) {
            cfg["model"] = detail::object({{"hf_config", detail::parse_json(hf, "model.hf_config")}});
        } else {
            cfg["model"] = detail::object({{"num_parameters", parse_number(np, "model.num_parameters")}});
        }
    } else {
        if (!hf.empty() || !np.empty()) throw_error("model", "hf and np go with m=custom only");
        cfg["model"] = model;
    }
    return config_from_json_value(cfg);
}

}  // namespace gpusizer
