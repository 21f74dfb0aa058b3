// ui/open_files.cpp: opening links, configurations, model files and benchmark reports into the state, and
// the link of the state; what cannot be opened is refused whole with a message (state.hpp).
#include "state.hpp"

#include "gpusizer/format.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

namespace gpusizer::ui {

// ---------------------------------------------------------------------------------------------
// Nesting limit at the app's input edges (link, pasted or dropped JSON, pasted config.json)
// ---------------------------------------------------------------------------------------------

void check_json_nesting(std::string_view text, const std::string& prefix, const std::string& what) {
    int depth = 0;
    bool in_string = false;
    std::vector<std::string> keys(1);
    std::string last;
    std::size_t start = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (in_string) {
            if (c == '\\') {
                ++i;
            } else if (c == '"') {
                in_string = false;
                last.assign(text.substr(start, i - start));
            }
            continue;
        }
        if (c == '"') {
            in_string = true;
            start = i + 1;
        } else if (c == ':') {
            keys[std::size_t(depth)] = last;
        } else if (c == '[' || c == '{') {
            if (++depth > kMaxJsonDepth) {
                std::string path = prefix;
                for (int d = 1; d < depth; ++d)
                    if (!keys[std::size_t(d)].empty()) path += (path.empty() ? "" : ".") + keys[std::size_t(d)];
                if (path.empty()) path = what;
                throw Error(path, "is nested more than " + std::to_string(kMaxJsonDepth) + " levels deep");
            }
            keys.resize(std::size_t(depth) + 1);
            keys[std::size_t(depth)].clear();
        } else if ((c == ']' || c == '}') && depth > 0) {
            --depth;
        }
    }
}

namespace {

int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

// %XX decoded (malformed escapes kept as they are: the link reader reports them).
std::string percent_decoded(std::string_view v) {
    std::string out;
    out.reserve(v.size());
    for (std::size_t i = 0; i < v.size(); ++i) {
        if (v[i] == '%' && i + 2 < v.size() && hex_digit(v[i + 1]) >= 0 && hex_digit(v[i + 2]) >= 0) {
            out += char(hex_digit(v[i + 1]) * 16 + hex_digit(v[i + 2]));
            i += 2;
        } else {
            out += v[i];
        }
    }
    return out;
}

}  // namespace

void check_link_nesting(std::string_view link) {
    const std::size_t hash = link.find('#');
    std::string_view rest = hash == std::string_view::npos ? link : link.substr(hash + 1);
    while (!rest.empty()) {
        const std::size_t amp = rest.find('&');
        const std::string_view part = rest.substr(0, amp);
        rest = amp == std::string_view::npos ? std::string_view() : rest.substr(amp + 1);
        const std::size_t eq = part.find('=');
        if (eq == std::string_view::npos) continue;
        const std::string value = percent_decoded(part.substr(eq + 1));
        if (!value.empty() && (value[0] == '{' || value[0] == '[')) check_json_nesting(value, std::string(part.substr(0, eq)), "link");
    }
}

namespace {

// The model part of a configuration from the core's builders (model_from_*), so that custom
// models get the core's own validation and messages and the UI never writes JSON for them.
template <typename Build>
bool set_model(UiState& s, Build&& build) {
    try {
        s.config.model = build();
        s.model_error.clear();
        return true;
    } catch (const Error& e) {
        s.model_error = e.what();
        return false;
    }
}

void adopt(UiState& s, const Config& c) {
    CustomGpu kept = std::move(s.config.custom_gpu);   // a link naming a catalog GPU keeps the custom one for later
    s.config = c;
    if (s.config.gpu != kCustomGpuId) s.config.custom_gpu = std::move(kept);
    s.manual_parallel = c.tp > 0 || c.pp > 0 || c.dp > 0 || c.cp > 1;
    s.model_error.clear();
    if (!c.model.custom) {
        s.source = ModelSource::catalog;
        s.catalog_model = c.model.id;
    } else if (c.model.arch.source == "gguf" || c.model.arch.source == "safetensors" || !c.model.hub.empty()) {
        // A model read from files: on disk (gguf / hf_dir name them) or fetched from the Hub
        // (the model object carries the repository and what was read from it).
        s.source = ModelSource::file;
        s.file.loaded = true;
        s.file.gguf = c.gguf;
        s.file.hf_dir = c.hf_dir;
        s.file.mmproj = c.mmproj;
        s.file.model = c.model;
    } else if (!c.model.hf_config_json.empty()) {
        s.source = ModelSource::hf_config;
        s.hf_text = c.model.hf_config_json;
    } else {
        s.source = ModelSource::parameters;
        s.custom_params_b = c.model.num_parameters / 1e9;
    }
}

}  // namespace

bool apply_model_source(UiState& s) {
    // Only the file source names files: the others describe the model themselves.
    if (s.source != ModelSource::file) s.config.gguf.clear(), s.config.hf_dir.clear(), s.config.mmproj.clear();
    switch (s.source) {
        case ModelSource::catalog: {
            s.config.model = ModelSpec{};
            s.config.model.id = s.catalog_model;
            s.model_error.clear();
            return true;
        }
        case ModelSource::parameters: {
            // Six significant figures, as links and configuration files write the count.
            char buf[32];
            std::snprintf(buf, sizeof buf, "%.6g", s.custom_params_b * 1e9);
            const double n = std::strtod(buf, nullptr);
            return set_model(s, [n] { return model_from_parameter_count(n); });
        }
        case ModelSource::numbers:
            return set_model(s, [&s] { return model_from_shape(s.numbers); });
        case ModelSource::hf_config:
            if (s.hf_text.find_first_not_of(" \t\r\n") == std::string::npos) {
                s.model_error = "paste the contents of a Hugging Face config.json";
                return false;
            }
            return set_model(s, [&s] {
                check_json_nesting(s.hf_text, "model.hf_config", "model");
                return model_from_hf_config(s.hf_text);
            });
        case ModelSource::file:
            if (!s.file.loaded) {
                s.model_error = "open a .gguf file, a .safetensors file or a model folder: Open file..., drop it on the window, "
                                "or choose one under Local models";
                return false;
            }
            s.config.model = s.file.model;
            s.config.gguf = s.file.gguf;
            s.config.hf_dir = s.file.hf_dir;
            s.config.mmproj = s.file.mmproj;
            s.model_error.clear();
            return true;
    }
    return false;
}

namespace {
// A link's keys inside another link's value: every byte but letters, digits and -._~ as %XX.
std::string percent_encode(std::string_view v) {
    static const char* kHex = "0123456789ABCDEF";
    std::string out;
    for (const char ch : v) {
        const unsigned char c = static_cast<unsigned char>(ch);
        if (std::isalnum(c) || ch == '-' || ch == '.' || ch == '_' || ch == '~') out += ch;
        else out += {'%', kHex[c >> 4], kHex[c & 15]};
    }
    return out;
}
constexpr std::string_view kLinkHead = "#v=1&";
}  // namespace

std::string link_of(const UiState& s) {
    std::string link = link_from_config(s.config);
    if (s.pinned) {
        const std::string pinned = link_from_config(*s.pinned);
        link += "&pin=" + percent_encode(pinned.rfind(kLinkHead, 0) == 0 ? std::string_view(pinned).substr(kLinkHead.size()) : pinned);
    }
    if (s.language_chosen) link += std::string("&lang=") + language_code(s.language);
    return link;
}

namespace {
// Opens the configuration `read` returns (from a link or a file's JSON). One that cannot be read
// or estimated is refused whole: the state stays, and the message says why after `refused`.
template <typename Read>
bool open_config(UiState& s, const Catalog& catalog, const char* opened, const char* refused, Read read) {
    try {
        const Config c = read();
        (void)estimate(c, catalog);
        adopt(s, c);
        s.message = opened;
        s.message_is_error = false;
        return true;
    } catch (const Error& e) {
        s.message = refused + std::string(e.what());
        s.message_is_error = true;
        return false;
    }
}
}  // namespace

static bool open_link_keys(UiState& s, std::string_view link, const Catalog& catalog, const SourceOpener& open, bool hub_pending);

bool open_link(UiState& s, std::string_view whole, const Catalog& catalog, const SourceOpener& open, bool hub_pending) {
    // A pinned configuration (&pin=...): read first, so that a bad one refuses the whole link.
    std::string rest(whole);
    std::optional<Config> pinned;
    if (const std::size_t at = rest.find("&pin="); at != std::string::npos) {
        const std::size_t end = std::min(rest.find('&', at + 5), rest.size());
        try {
            const std::string keys = percent_decoded(std::string_view(rest).substr(at + 5, end - at - 5));
            check_link_nesting(keys);
            pinned = config_from_link(std::string(kLinkHead) + keys);
            (void)estimate(*pinned, catalog);
        } catch (const Error& e) {
            s.message = tr("Link not opened: pin (the pinned configuration): ") + std::string(e.what());
            s.message_is_error = true;
            return false;
        }
        rest.erase(at, end - at);
    }
    // The language (&lang=pt-BR): the app's, not the estimate's (the core reads past it). One the
    // app does not have leaves the language as it is, and the message says so.
    std::optional<Language> lang;
    std::string lang_tag;
    if (const std::size_t at = ("&" + rest).find("&lang="); at != std::string::npos) {
        const std::size_t from = at + 5, end = std::min(rest.find('&', from), rest.size());
        lang_tag = percent_decoded(std::string_view(rest).substr(from, end - from));
        lang = language_from_tag(lang_tag);
    }
    const std::string_view link = rest;
    // The link's messages are in its language (the app's texts follow s.language).
    const Language before = language();
    if (lang) set_language(*lang);
    const bool opened = open_link_keys(s, link, catalog, open, hub_pending);
    if (!opened) set_language(before);
    if (opened) {
        s.pinned = std::move(pinned);
        if (lang) {
            s.language = *lang;
            s.language_chosen = true;
        } else if (!lang_tag.empty()) {
            s.message += strf(tr(" The link's language (lang=%s) is not one the app has (en, pt-BR)."), lang_tag.substr(0, 20).c_str());
        }
    }
    return opened;
}

static bool open_link_keys(UiState& s, std::string_view link, const Catalog& catalog, const SourceOpener& open, bool hub_pending) {
    if (hub_pending) {
        // A Hub model the platform fetches (QA E5: the link showed the default model's verdict
        // and the CLI's advice while it loaded, or after it failed).
        try {
            check_link_nesting(link);
            const Config c = config_from_link(link);
            if (!c.model.hub.empty() && !c.model.hub_fetched) {
                adopt(s, c);
                s.message = strf(tr("Loading %s from the Hugging Face Hub..."), c.model.hub.c_str());
                s.message_is_error = false;
                return true;
            }
        } catch (const Error&) {
            // refused below, with the message
        }
    }
    return open_config(s, catalog, tr("Opened the link."), tr("Link not opened: "), [&] {
        check_link_nesting(link);
        Config c = config_from_link(link);
        if (open) load_model_files(c, open);   // gguf / hf_dir: the headers they name
        return c;
    });
}

bool open_config_text(UiState& s, std::string_view json_text, const Catalog& catalog, const SourceOpener& open) {
    // A bare config.json, pasted or opened: the model of the current configuration (QA E6).
    if (looks_like_hf_config(json_text)) return open_model_text(s, "config.json", json_text, catalog);
    return open_config(s, catalog, tr("Opened the configuration."), tr("Configuration not opened: "), [&] {
        check_json_nesting(json_text, "", "configuration");
        Config c = config_from_json(json_text);
        if (open) load_model_files(c, open);
        return c;
    });
}

namespace {

// The current configuration with a new model: what the model set before (its files, format and
// split) goes; `set_model` gives the new one. Refused whole (the state unchanged) when the
// estimate refuses it, as links are. The message names `name` and `kind` (read after set_model,
// which may set it).
template <typename SetModel>
bool open_new_model(UiState& s, const std::string& name, const std::string& kind, const Catalog& catalog, SetModel set_model) {
    try {
        Config c = s.config;
        c.model = ModelSpec{};
        c.gguf.clear();
        c.hf_dir.clear();
        c.mmproj.clear();   // the previous model's projector is not this one's
        c.weights.clear();   // the file's own format (a GGUF's general.file_type, a checkpoint's native one)
        c.tp = c.pp = c.dp = c.ep = 0;   // the split follows the new model's heads and layers
        set_model(c);
        (void)estimate(c, catalog);
        adopt(s, c);
        const ModelArch& a = c.model.arch;
        s.message = a.file.total > 0 ? strf(tr("Opened %s (%s, %s: %d layers, %s of weights in its headers)."), name.c_str(), kind.c_str(),
                                            a.name.c_str(), a.total_layers(), format_bytes_short(a.file.total).c_str())
                                     : strf(tr("Opened %s (%s, %s: %d layers)."), name.c_str(), kind.c_str(), a.name.c_str(), a.total_layers());
        s.message_is_error = false;
        return true;
    } catch (const Error& e) {
        s.message = tr("Model not opened: ") + std::string(e.what());
        s.message_is_error = true;
        return false;
    }
}

}   // namespace

bool open_model_file(UiState& s, const std::string& key, const std::string& path, const Catalog& catalog, const SourceOpener& open) {
    const std::string name = path.substr(path.find_last_of("/\\") + 1);
    if (key != "gguf" && key != "hf_dir" && key != "hf_config") {
        s.message = tr("Model not opened: ") + std::string("open_model_file: key must be gguf, hf_dir or hf_config");
        s.message_is_error = true;
        return false;
    }
    return open_new_model(s, name, key == "gguf" ? "GGUF" : "safetensors", catalog, [&](Config& c) {
        if (!open) throw Error(key, "this platform reads no model files");
        (key == "gguf" ? c.gguf : c.hf_dir) = path;
        load_model_files(c, open);
    });
}

bool open_model_text(UiState& s, const std::string& name, std::string_view text, const Catalog& catalog, bool keep_weights) {
    const bool hf = looks_like_hf_config(text);
    const std::string weights = s.config.weights;
    std::string kind = "a Hugging Face config.json";
    return open_new_model(s, name, kind, catalog, [&](Config& c) {
        check_json_nesting(text, "", hf ? "config.json" : "model");
        if (hf) {
            c.model = model_from_hf_config(text);
        } else {
            // {"model": ..., "weights"?: ...}: the model and its format only; the rest stays.
            const Config given = config_from_json(text);
            c.model = given.model;
            c.weights = given.weights;   // a GGUF file's general.file_type, a checkpoint's one dtype, or ""
            const bool gguf = !c.model.hub_weights.empty() || c.model.arch.source == "gguf";
            kind = c.model.hub.empty() ? "GGUF" : gguf ? "GGUF from the Hub" : "config.json from the Hub";
        }
        // A link's own format stays over the file's (a format the Hub's answer names wins).
        if (keep_weights && !weights.empty() && (c.weights.empty() || c.weights == c.model.hub_weights)) c.weights = weights;
    });
}

bool looks_like_measured_report(std::string_view text) {
    // Every report carries "schema_version" and "tool": "gpusizer-cuda-bench"; no configuration
    // key is named schema_version.
    return text.find("\"schema_version\"") != std::string_view::npos && text.find("\"devices\"") != std::string_view::npos;
}

bool open_file_text(UiState& s, std::string_view name, std::string_view text, const Catalog& catalog, const SourceOpener& open) {
    const std::string file = name.empty() ? std::string("file") : std::string(name);
    if (!looks_like_measured_report(text)) {
        if (looks_like_hf_config(text)) return open_model_text(s, file, text, catalog);   // says so itself
        if (!open_config_text(s, text, catalog, open)) return false;
        s.message = strf(tr("Opened the configuration in %s."), file.c_str());
        return true;
    }
    try {
        check_json_nesting(text, "", "report");
        MeasuredReport report = measured_report_from_json(text, file);
        int usable = 0;
        for (const MeasuredDevice& d : report.devices)
            for (const Measurement& m : d.measurements) usable += m.ok() ? 1 : 0;
        s.measured.report = std::move(report);
        s.measured.file = file;
        s.measured.loaded = true;
        s.measured.use = true;
        const MeasuredReport& r = s.measured.report;
        const int devices = int(r.devices.size());
        const std::string counted = strf(devices == 1 ? tr("%d device") : tr("%d devices"), devices) + ", " +
                                    strf(usable == 1 ? tr("%d measurement") : tr("%d measurements"), usable);
        s.message = strf(tr("Opened the benchmark report %s: %s (status %s)."), file.c_str(), counted.c_str(),
                         std::string(to_string(r.status)).c_str());
        s.message_is_error = false;
        return true;
    } catch (const Error& e) {
        s.message = tr("Benchmark report not opened: ") + std::string(e.what());
        s.message_is_error = true;
        return false;
    }
}

GpuOverlay measured_overlay_of(const UiState& s, const Catalog& catalog) {
    if (!s.measured.loaded || !s.measured.use) return {};
    return measured_overlay(catalog, s.measured.report, s.measured.file, {measured_gpu_id(s.config, s.measured.file)});
}
}  // namespace gpusizer::ui
