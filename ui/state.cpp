// ui/state.cpp: state <-> configuration <-> link, without any drawing.
#include "state.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
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

std::string numbers_to_hf_config(const ModelNumbers& n) {
    char buf[512];
    if (n.experts > 0) {
        std::snprintf(buf, sizeof buf,
                      "{\"model_type\": \"mixtral\", \"num_hidden_layers\": %d, \"hidden_size\": %d, \"intermediate_size\": %d, "
                      "\"num_attention_heads\": %d, \"num_key_value_heads\": %d, \"vocab_size\": %d, \"tie_word_embeddings\": %s, "
                      "\"num_local_experts\": %d, \"num_experts_per_tok\": %d, \"max_position_embeddings\": %d}",
                      n.layers, n.hidden, n.intermediate, n.heads, n.kv_heads, n.vocab, n.tied ? "true" : "false", n.experts,
                      n.experts_per_token, n.max_context);
    } else {
        std::snprintf(buf, sizeof buf,
                      "{\"model_type\": \"llama\", \"num_hidden_layers\": %d, \"hidden_size\": %d, \"intermediate_size\": %d, "
                      "\"num_attention_heads\": %d, \"num_key_value_heads\": %d, \"vocab_size\": %d, \"tie_word_embeddings\": %s, "
                      "\"max_position_embeddings\": %d}",
                      n.layers, n.hidden, n.intermediate, n.heads, n.kv_heads, n.vocab, n.tied ? "true" : "false", n.max_context);
    }
    return buf;
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

// The model part of a configuration, read through the configuration JSON so that custom
// models get the core's own validation and messages.
bool set_model_json(UiState& s, const std::string& model_json) {
    try {
        check_json_nesting(model_json, "model", "model");
        const Config c = config_from_json("{\"model\": " + model_json + "}");
        s.config.model = c.model;
        s.model_error.clear();
        return true;
    } catch (const Error& e) {
        s.model_error = e.what();
        return false;
    }
}

void adopt(UiState& s, const Config& c) {
    s.config = c;
    s.manual_parallel = c.tp > 0 || c.pp > 0 || c.dp > 0;
    s.model_error.clear();
    if (!c.model.custom) {
        s.source = ModelSource::catalog;
        s.catalog_model = c.model.id;
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
    switch (s.source) {
        case ModelSource::catalog: {
            s.config.model = ModelSpec{};
            s.config.model.id = s.catalog_model;
            s.model_error.clear();
            return true;
        }
        case ModelSource::parameters: {
            char buf[64];
            std::snprintf(buf, sizeof buf, "{\"num_parameters\": %.6g}", s.custom_params_b * 1e9);
            return set_model_json(s, buf);
        }
        case ModelSource::numbers:
            return set_model_json(s, "{\"hf_config\": " + numbers_to_hf_config(s.numbers) + "}");
        case ModelSource::hf_config:
            if (s.hf_text.find_first_not_of(" \t\r\n") == std::string::npos) {
                s.model_error = "paste the contents of a Hugging Face config.json";
                return false;
            }
            return set_model_json(s, "{\"hf_config\": " + s.hf_text + "}");
    }
    return false;
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

std::string link_of(const UiState& s) { return link_from_config(s.config); }

bool open_link(UiState& s, std::string_view link, const Catalog& catalog) {
    try {
        check_link_nesting(link);
        const Config c = config_from_link(link);
        (void)estimate(c, catalog);   // a link that cannot be estimated is refused whole
        adopt(s, c);
        s.message = "Opened the link.";
        s.message_is_error = false;
        return true;
    } catch (const Error& e) {
        s.message = std::string("Link not opened: ") + e.what();
        s.message_is_error = true;
        return false;
    }
}

bool open_config_text(UiState& s, std::string_view json_text, const Catalog& catalog) {
    try {
        check_json_nesting(json_text, "", "configuration");
        const Config c = config_from_json(json_text);
        (void)estimate(c, catalog);
        adopt(s, c);
        s.message = "Opened the configuration.";
        s.message_is_error = false;
        return true;
    } catch (const Error& e) {
        s.message = std::string("Configuration not opened: ") + e.what();
        s.message_is_error = true;
        return false;
    }
}

bool looks_like_measured_report(std::string_view text) {
    // Every report carries "schema_version" and "tool": "gpusizer-cuda-bench"; no configuration
    // key is named schema_version.
    return text.find("\"schema_version\"") != std::string_view::npos && text.find("\"devices\"") != std::string_view::npos;
}

bool open_file_text(UiState& s, std::string_view name, std::string_view text, const Catalog& catalog) {
    const std::string file = name.empty() ? std::string("file") : std::string(name);
    if (!looks_like_measured_report(text)) {
        if (!open_config_text(s, text, catalog)) return false;
        s.message = "Opened the configuration in " + file + ".";
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
        s.message = "Opened the benchmark report " + file + ": " + std::to_string(r.devices.size()) +
                    (r.devices.size() == 1 ? " device, " : " devices, ") + std::to_string(usable) +
                    (usable == 1 ? " measurement (status " : " measurements (status ") +
                    std::string(to_string(r.status)) + ").";
        s.message_is_error = false;
        return true;
    } catch (const Error& e) {
        s.message = std::string("Benchmark report not opened: ") + e.what();
        s.message_is_error = true;
        return false;
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
    q.budget_usd = std::max(0.0, in.budget_usd);
    q.power_cap_w = std::max(0.0, in.power_cap_w);
    q.min_tokens_per_s = std::max(0.0, in.min_tokens_per_s);
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

void sort_recommendations(std::vector<RecommendRow>& rows, RecommendColumn column, bool ascending) {
    // The figure a row is sorted by, and whether it has one.
    auto key = [column](const RecommendRow& r, double& v) {
        switch (column) {
            case RecommendColumn::gpu: return false;   // by name, below
            case RecommendColumn::gpus: v = r.gpus; return true;
            case RecommendColumn::per_gpu: v = r.per_gpu_total; return true;
            case RecommendColumn::price: v = r.price_usd; return r.price_known;
            case RecommendColumn::tokens_per_s: v = r.tokens_per_s; return r.tokens_per_s > 0;
            case RecommendColumn::power: v = r.system_w; return r.system_w > 0;
            case RecommendColumn::link: return false;
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

namespace {

// A manual split for `gpus` GPUs: keep the current tp and pp when they still divide, else the
// largest tensor-parallel degree, then data parallel for the rest.
void fit_manual_degrees(UiState& s, const ModelArch& arch) {
    Config& c = s.config;
    const auto tps = tp_choices(arch, c.gpus);
    if (std::find(tps.begin(), tps.end(), c.tp) == tps.end()) c.tp = tps.empty() ? 1 : tps.back();
    const auto pps = pp_choices(arch, c.gpus, c.tp);
    if (std::find(pps.begin(), pps.end(), c.pp) == pps.end()) c.pp = 1;
    c.dp = c.gpus / (c.tp * c.pp);
}

}  // namespace

void set_gpu_count(UiState& s, int gpus, const ModelArch* arch) {
    s.config.gpus = std::max(1, gpus);
    if (s.manual_parallel && arch) fit_manual_degrees(s, *arch);
    else s.config.tp = s.config.pp = s.config.dp = 0;
}

void set_manual_parallel(UiState& s, bool manual, const ModelArch* arch) {
    s.manual_parallel = manual && arch != nullptr;
    if (s.manual_parallel) {
        fit_manual_degrees(s, *arch);
    } else {
        s.config.tp = s.config.pp = s.config.dp = 0;
    }
}

const ModelArch* current_arch(const UiState& s, const Catalog& catalog) {
    if (s.config.model.custom) return &s.config.model.arch;
    const CatalogModel* m = catalog.find_model(s.config.model.id);
    return m ? &m->arch : nullptr;
}

}  // namespace gpusizer::ui
