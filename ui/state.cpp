// ui/state.cpp: state <-> configuration <-> link, without any drawing.
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

UiState default_state() {
    UiState s;
    s.config.model.id = "llama-3-70b";
    s.config.weights = "q4_k_m";
    s.config.gpu = "rtx-4090";
    s.config.gpus = 2;
    s.config.context = 8192;
    s.compare = {{"rtx-4090", 2}, {"rtx-a6000", 1}, {"rtx-6000-ada", 1}};
    return s;
}

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

long long round_context(double tokens) {
    long long best = kContextMin;
    for (long long p = kContextMin; p <= kContextMax; p *= 2)
        for (const long long c : {p, p + p / 2})
            if (c <= kContextMax && std::fabs(std::log(double(c) / tokens)) < std::fabs(std::log(double(best) / tokens))) best = c;
    return best;
}

double round_to_format(float v, const char* format) {
    const char* p = format ? std::strchr(format, '%') : nullptr;
    while (p && p[1] == '%') p = std::strchr(p + 2, '%');
    if (!p) return double(v);
    ++p;
    while (*p && std::strchr("-+ #0", *p)) ++p;
    while (*p >= '0' && *p <= '9') ++p;
    int decimals = 6;   // printf's default
    if (*p == '.') {
        decimals = 0;
        for (++p; *p >= '0' && *p <= '9'; ++p) decimals = decimals * 10 + (*p - '0');
    }
    if (*p != 'f' || decimals > 15) return double(v);
    const double k = std::pow(10.0, decimals);
    return std::round(double(v) * k) / k;
}

ScreenLayout screen_layout(float width_css) {
    ScreenLayout l;
    l.one_column = width_css < kOneColumnBelow;
    if (!l.one_column && width_css > 0) l.setup_fraction = std::min(0.45f, 390.0f / width_css);
    return l;
}

namespace {
// Rows filled in order, each up to `limit` wide: each row's first index.
std::vector<int> greedy_rows(const std::vector<float>& widths, float spacing, float limit) {
    std::vector<int> starts;
    float x = 0;   // the right edge of the row so far
    for (int i = 0; i < int(widths.size()); ++i) {
        if (starts.empty() || x + spacing + widths[i] > limit) {
            starts.push_back(i);
            x = widths[i];
        } else {
            x += spacing + widths[i];
        }
    }
    return starts;
}
}  // namespace

std::vector<int> wrap_rows(const std::vector<float>& widths, float spacing, float avail) {
    const std::vector<int> fewest = greedy_rows(widths, spacing, avail);
    if (fewest.size() < 2) return fewest;
    // As many rows as filling them gives, evened out (no lone last tab): the narrowest limit
    // that needs no more rows. Fewer rows never come from a narrower limit, so bisect; 30 halvings
    // of the width leave well under a pixel.
    float lo = 0, hi = avail;
    for (int i = 0; i < 30; ++i) {
        const float mid = 0.5f * (lo + hi);
        if (greedy_rows(widths, spacing, mid).size() <= fewest.size())
            hi = mid;
        else
            lo = mid;
    }
    return greedy_rows(widths, spacing, hi);
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

// ---------------------------------------------------------------------------------------------
// A GPU that is not in the catalog
// ---------------------------------------------------------------------------------------------

void use_custom_gpu(UiState& s) {
    Config& c = s.config;
    if (c.gpu == kCustomGpuId) return;
    if (c.custom_gpu.empty()) c.custom_gpu.base = c.gpu;   // prefilled from the GPU chosen now
    c.gpu = std::string(kCustomGpuId);
}

namespace {

// The GPU the custom one is without `field`: its base's entry, or (no base) the same spec built
// without it, so that a value equal to what it would be anyway is not kept as given. nullptr when
// that cannot be built (a required field): the value is then kept.
std::optional<Gpu> custom_gpu_without(const CustomGpu& spec, const Catalog& catalog, const GpuField& field) {
    CustomGpu rest = spec;
    rest.erase(field.name);
    try {
        return build_custom_gpu(rest, catalog).gpu;
    } catch (const Error&) {
        return std::nullopt;
    }
}

}  // namespace

void set_custom_gpu_number(UiState& s, const Catalog& catalog, const GpuField& field, double value) {
    if (!std::isfinite(value)) return;
    double v = std::clamp(value, field.min, field.max);
    if (field.kind == GpuFieldKind::integer) v = std::round(v);
    if (field.kind == GpuFieldKind::boolean) v = value != 0 ? 1.0 : 0.0;
    CustomGpu& spec = s.config.custom_gpu;
    const std::optional<Gpu> without = custom_gpu_without(spec, catalog, field);
    // Only a value the GPU would not have anyway is kept, except the fields a GPU without a base
    // must give: those stay.
    if (without && field.get(*without) == v && !(spec.base.empty() && field.required))
        spec.erase(field.name);
    else
        spec.set(field.name, v);
}

void set_custom_gpu_text(UiState& s, const Catalog& catalog, const GpuField& field, const std::string& value) {
    if (value.empty()) {   // an emptied field: back to the base or the default
        reset_custom_gpu_field(s, field);
        return;
    }
    if (field.kind == GpuFieldKind::choice) {
        Gpu scratch;
        field.set_text(scratch, value);   // throws Error naming the field for a value it does not know
    }
    CustomGpu& spec = s.config.custom_gpu;
    const std::optional<Gpu> without = custom_gpu_without(spec, catalog, field);
    if (without && field.get_text(*without) == value && !(spec.base.empty() && field.required))
        spec.erase(field.name);
    else
        spec.set(field.name, value);
}

void reset_custom_gpu_field(UiState& s, const GpuField& field) { s.config.custom_gpu.erase(field.name); }

void set_custom_gpu_base(UiState& s, const Catalog& catalog, const std::string& base) {
    CustomGpu& spec = s.config.custom_gpu;
    if (!base.empty()) {
        if (!catalog.find_gpu(base)) throw Error("gpu.base", "unknown GPU '" + base + "'", ErrorCode::unknown_id);
        spec.base = base;
        return;
    }
    if (spec.base.empty()) return;
    const Gpu now = build_custom_gpu(spec, catalog).gpu;   // the figures as they are
    spec.base.clear();
    for (const GpuField& f : gpu_fields()) {
        if (!f.required) continue;
        if (f.get)
            spec.set(f.name, f.get(now));
        else
            spec.set(f.name, f.get_text(now));
    }
}

std::shared_ptr<const CustomGpuBuild> custom_gpu_build(const UiState& s, const Catalog& catalog, std::string* error) {
    if (s.config.custom_gpu.empty()) return nullptr;
    try {
        return std::make_shared<const CustomGpuBuild>(build_custom_gpu(s.config.custom_gpu, catalog));
    } catch (const Error& e) {
        if (error) *error = e.what();
        return nullptr;
    }
}

bool any_segment(const RecommendInputs& in) {
    return in.segments[0] || in.segments[1] || in.segments[2] || in.segments[3];
}

RecommendQuery recommend_query(const UiState& s) {
    RecommendQuery q;
    q.base = s.config;
    q.base.tp = q.base.pp = q.base.dp = q.base.ep = 0;   // each GPU count gets its own split
    q.base.link.clear();                                 // each GPU its own link
    const RecommendInputs& in = s.recommend;
    q.budget_usd = in.budget_usd;   // limit_drag keeps each positive or none
    q.power_cap_w = in.power_cap_w;
    q.min_tokens_per_s = in.min_tokens_per_s;
    q.single_node = in.single_node;
    q.max_gpus = std::clamp(in.max_gpus, 1, 1024);
    const Segment segs[4] = {Segment::consumer, Segment::workstation, Segment::datacenter, Segment::apple};
    bool all = true;
    for (int i = 0; i < 4; ++i) all = all && in.segments[i];
    if (!all)
        for (int i = 0; i < 4; ++i)
            if (in.segments[i]) q.segments.push_back(segs[i]);
    return q;
}

bool filter_matches(const std::string& filter, const std::string& a, const std::string& b) {
    // Token by token (QA E13): "qwen2.5 7b" finds Qwen2.5-7B, "gpt oss" gpt-oss-20b. The search
    // splits at spaces and hyphens; every token must be in `a`, or every token in `b`, whatever
    // the case.
    auto lower = [](std::string s) {
        for (char& c : s) c = char(std::tolower((unsigned char)c));
        return s;
    };
    std::vector<std::string> tokens;
    std::string cur;
    for (char ch : filter) {
        if (ch == ' ' || ch == '-' || ch == '\t') {
            if (!cur.empty()) tokens.push_back(lower(cur));
            cur.clear();
        } else {
            cur += ch;
        }
    }
    if (!cur.empty()) tokens.push_back(lower(cur));
    if (tokens.empty()) return true;
    auto all_in = [&](const std::string& text) {
        const std::string t = lower(text);
        for (const std::string& k : tokens)
            if (t.find(k) == std::string::npos) return false;
        return true;
    };
    return all_in(a) || all_in(b);
}

void sort_recommendations(std::vector<RecommendRow>& rows, RecommendColumn column, bool ascending) {
    // The figure a row is sorted by, and whether it has one.
    auto key = [column](const RecommendRow& r, double& v) {
        switch (column) {
            case RecommendColumn::gpu: return false;   // by name, below
            case RecommendColumn::gpus: v = r.gpus; return true;
            case RecommendColumn::per_gpu: v = r.per_gpu_total; return true;
            case RecommendColumn::price: v = r.price_usd; return r.price_known;
            case RecommendColumn::tokens_per_s: v = r.tokens_per_s; return r.tokens_per_s > 0;
            case RecommendColumn::power: v = r.wall_w; return r.wall_w > 0;
            case RecommendColumn::link: return false;
            case RecommendColumn::own: v = r.own_usd; return r.own_known;
            case RecommendColumn::rent: v = r.rent_usd; return r.rent_known;
        }
        return false;
    };
    std::stable_sort(rows.begin(), rows.end(), [&](const RecommendRow& a, const RecommendRow& b) {
        if (column == RecommendColumn::gpu || column == RecommendColumn::link) {
            const std::string& x = column == RecommendColumn::gpu ? a.gpu_name : a.link;
            const std::string& y = column == RecommendColumn::gpu ? b.gpu_name : b.link;
            return ascending ? x < y : y < x;
        }
        double va = 0, vb = 0;
        const bool ha = key(a, va), hb = key(b, vb);
        if (ha != hb) return ha;   // rows with the figure first, whatever the direction
        if (!ha) return false;
        return ascending ? va < vb : vb < va;
    });
}

std::vector<int> tp_choices(const ModelArch& arch, int gpus) {
    std::vector<int> out;
    for (int t = 1; t <= gpus; ++t)
        if (gpus % t == 0 && arch.n_heads % t == 0) out.push_back(t);
    return out;
}

std::vector<int> pp_choices(const ModelArch& arch, int gpus, int tp) {
    std::vector<int> out;
    if (tp <= 0 || gpus % tp != 0) return out;
    const int rest = gpus / tp;
    for (int p = 1; p <= rest; ++p)
        if (rest % p == 0 && p <= arch.total_layers()) out.push_back(p);
    return out;
}

std::vector<int> cp_choices(const Config& c) {
    std::vector<int> out{1};
    if (c.mode == Mode::inference || c.tp <= 0 || c.gpus % c.tp != 0) return out;
    // The estimate's rule (config_keys.cpp, cp): cp divides the GPUs left after tp, and each GPU
    // holds an equal pair of chunks of every sequence, so 2 x cp divides the context.
    const int rest = c.gpus / c.tp;
    for (int d = 2; d <= rest; d *= 2)
        if (rest % d == 0 && c.context % (2LL * d) == 0) out.push_back(d);
    return out;
}

namespace {

// A manual split for `gpus` GPUs: keep the current tp, cp and pp when they still divide, else the
// largest tensor-parallel degree and no context or pipeline parallelism, then data parallel for
// the rest.
void fit_manual_degrees(UiState& s, const ModelArch& arch) {
    Config& c = s.config;
    if (c.cp < 1 || c.mode == Mode::inference || c.gpus % c.cp != 0) c.cp = 1;
    const auto tps = tp_choices(arch, c.gpus / c.cp);
    if (std::find(tps.begin(), tps.end(), c.tp) == tps.end()) c.tp = tps.empty() ? 1 : tps.back();
    const auto cps = cp_choices(c);
    if (std::find(cps.begin(), cps.end(), c.cp) == cps.end()) c.cp = 1;
    const auto pps = pp_choices(arch, c.gpus / c.cp, c.tp);
    if (std::find(pps.begin(), pps.end(), c.pp) == pps.end()) c.pp = 1;
    c.dp = c.gpus / (c.tp * c.cp * c.pp);
}

}  // namespace

void set_gpu_count(UiState& s, int gpus, const ModelArch* arch) {
    s.config.gpus = std::max(1, gpus);
    // DP attention groups divide tp, which divides the GPUs: a count they no longer divide drops them.
    if (s.config.dp_attention > 1 && s.config.gpus % s.config.dp_attention != 0) s.config.dp_attention = 0;
    if (s.manual_parallel && arch) {
        fit_manual_degrees(s, *arch);
    } else {
        s.config.tp = s.config.pp = s.config.dp = 0;
        s.config.cp = 1;
    }
}

void set_manual_parallel(UiState& s, bool manual, const ModelArch* arch) {
    s.manual_parallel = manual && arch != nullptr;
    if (s.manual_parallel) {
        fit_manual_degrees(s, *arch);
    } else {
        s.config.tp = s.config.pp = s.config.dp = 0;
        s.config.cp = 1;
    }
}

namespace {

// The engine fractions that apply to the configuration's runtime only: the others are dropped.
void drop_other_engine_fractions(Config& c) {
    if (c.runtime != Runtime::sglang) c.mem_fraction_static.reset();
    if (c.runtime != Runtime::trt_llm) c.free_gpu_memory_fraction.reset();
    if (c.runtime != Runtime::vllm) c.kv_cache_memory_bytes.reset();
    if (c.runtime != Runtime::sglang) c.dp_attention = 0;   // SGLang's layout alone
}

}  // namespace

void set_runtime(UiState& s, Runtime runtime, const ModelArch* arch) {
    s.config.runtime = runtime;
    drop_other_engine_fractions(s.config);
    set_gpu_count(s, s.config.gpus, arch);
}

void set_mode(UiState& s, Mode mode, const ModelArch* arch) {
    Config& c = s.config;
    c.mode = mode;
    if (mode == Mode::qlora) c.weights = "nf4";
    else if (mode != Mode::inference && !c.weights.empty() && (c.weights == "native" || is_quantized(weight_format(c.weights))))
        c.weights = "bf16";
    c.global_batch = 0;
    if (mode == Mode::inference) {
        c.zero = 0;
        c.offload = Offload::none;
        c.training_framework = TrainingFramework::megatron;   // training only (resolve refuses another)
    } else if (c.runtime != Runtime::automatic && c.runtime != Runtime::pytorch && c.runtime != Runtime::none) {
        c.runtime = Runtime::automatic;
        drop_other_engine_fractions(c);
    }
    set_gpu_count(s, c.gpus, arch);
}

bool offload_allowed(Offload offload, int zero_stage) {
    switch (offload) {
        case Offload::none: return true;
        case Offload::optimizer: return zero_stage >= 1;
        case Offload::optimizer_params: return zero_stage == 3;
    }
    return false;
}

void set_zero_stage(Config& c, int stage) {
    c.zero = stage;
    if (!offload_allowed(c.offload, stage)) c.offload = stage == 0 ? Offload::none : Offload::optimizer;
}

const ModelArch* current_arch(const UiState& s, const Catalog& catalog) {
    if (s.config.model.custom) return &s.config.model.arch;
    const CatalogModel* m = catalog.find_model(s.config.model.id);
    return m ? &m->arch : nullptr;
}

namespace {

// "4k" for a power-of-two multiple of 1024 tokens (4096, 131072 -> "128k"), else the count.
std::string window_text(int tokens) {
    if (tokens >= 1024 && tokens % 1024 == 0) return std::to_string(tokens / 1024) + "k";
    return std::to_string(tokens);
}

// What a layer mixes tokens with, as the stack line names it.
std::string layer_label(const LayerSpec& l) {
    std::string out;
    switch (l.recurrent.kind) {
        case RecurrentKind::none: break;
        case RecurrentKind::mamba: out = "Mamba"; break;
        case RecurrentKind::mamba2: out = "Mamba-2"; break;
        case RecurrentKind::gated_deltanet: out = "Gated DeltaNet"; break;
        case RecurrentKind::lightning: out = tr("lightning attention"); break;
        case RecurrentKind::short_conv: out = tr("short convolution"); break;   // LFM2 (was "MLP only")
        case RecurrentKind::rwkv: out = "RWKV"; break;
    }
    std::string attn;
    switch (l.attn.kind) {
        case AttnKind::none: break;
        case AttnKind::full: attn = tr("full"); break;
        case AttnKind::sliding: attn = strf(tr("sliding %s"), window_text(l.attn.window).c_str()); break;
        case AttnKind::chunked: attn = strf(tr("chunked %s"), window_text(l.attn.window).c_str()); break;
        case AttnKind::mla: attn = "MLA"; break;
    }
    if (l.attn.index_n_heads > 0 && !attn.empty()) attn += tr(" + indexer");
    if (l.attn.kv_shared && !attn.empty()) attn += tr(" (shared KV)");
    if (!out.empty() && !attn.empty()) out += " + " + attn;   // a hybrid layer (Falcon-H1)
    else if (out.empty()) out = attn.empty() ? tr("MLP only") : attn;
    if (l.encoder) out = "encoder";
    else if (l.cross_attention) out = "decoder";
    return out;
}

}  // namespace

double clamp_to_key(const char* key, double v) {
    const ConfigKey* k = find_config_key(key);
    if (!k || (k->kind != KeyKind::integer && k->kind != KeyKind::number)) throw Error(key, "is not a numeric configuration key");
    const double lo = k->min_open ? std::nextafter(k->min, k->max) : k->min;
    if (k->kind == KeyKind::integer) v = std::round(v);
    return std::clamp(v, lo, k->max);
}

std::string stack_summary(const ModelArch& given, const ParamCounts& counts) {
    ModelArch storage;
    const ModelArch& arch = with_stack(given, storage);
    const int n = arch.total_layers();
    // Layers by label, in the order each label first appears.
    std::vector<std::pair<std::string, int>> groups;
    const LayerSpec* moe = nullptr;
    const LayerSpec* first = nullptr;
    int moe_layers = 0;
    for (int i = 0; i < n && std::size_t(i) < arch.layer_kind.size(); ++i) {
        const LayerSpec& l = arch.layer(i);
        const std::string label = layer_label(l);
        if (!first) first = &l;
        auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == label; });
        if (it == groups.end()) groups.emplace_back(label, 1);
        else ++it->second;
        if (l.is_moe()) {
            if (!moe) moe = &l;
            ++moe_layers;
        }
    }
    std::string out = strf(tr("%d layers"), n);
    if (groups.size() == 1 && first) {
        // "all full attention", "all sliding 4k attention", "all Mamba"
        const std::string& only = groups[0].first;
        const bool attention = first->recurrent.kind == RecurrentKind::none && first->attn.kind != AttnKind::none &&
                               !first->encoder && !first->cross_attention;
        out += strf(attention ? tr(", all %s attention") : tr(", all %s"), only.c_str());
    } else {
        out += ": ";
        for (std::size_t g = 0; g < groups.size(); ++g)
            out += (g ? " + " : "") + std::to_string(groups[g].second) + " " + groups[g].first;
    }
    if (moe) {
        out += "; ";
        if (moe_layers < n) out += strf(tr("MoE in %d: "), moe_layers);
        out += strf(tr("%d experts, %d active"), moe->mlp.n_experts, moe->mlp.experts_per_token);
        if (moe->mlp.n_shared > 0) out += strf(tr(" + %d shared"), moe->mlp.n_shared);
    }
    if (arch.n_mtp_layers > 0)
        out += "; " + strf(arch.n_mtp_layers > 1 ? tr("%d MTP layers") : tr("%d MTP layer"), arch.n_mtp_layers);
    if (counts.parts.vision > 0) out += strf(tr("; vision %s"), format_count(counts.parts.vision).c_str());
    if (counts.parts.audio > 0) out += strf(tr("; audio %s"), format_count(counts.parts.audio).c_str());
    return out;
}

int launch_choice(const std::vector<std::pair<Runtime, std::string>>& commands, Runtime chosen) {
    for (std::size_t i = 0; i < commands.size(); ++i)
        if (commands[i].first == chosen) return int(i);
    return commands.empty() ? -1 : 0;
}

}  // namespace gpusizer::ui
