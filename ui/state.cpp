// ui/state.cpp: the default state and the rules that keep it consistent as it is edited (GPU
// count, manual split, runtime, mode, ZeRO), the clamps, layout helpers and labels; no drawing.
// Opening links and files is open_files.cpp, the custom GPU custom_gpu_state.cpp, the Recommend
// tab's query recommend_state.cpp.
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

std::vector<std::string_view> lines_at_spaces(std::string_view text, float first_room, float room,
                                              const std::function<float(std::string_view)>& width) {
    std::vector<std::string_view> lines;
    std::size_t from = text.find_first_not_of(' ');
    while (from != std::string_view::npos) {
        const float fits = lines.empty() ? first_room : room;
        std::size_t end = std::min(text.find(' ', from), text.size());   // at least one word
        while (end < text.size()) {
            const std::size_t word = text.find_first_not_of(' ', end);
            if (word == std::string_view::npos) break;
            const std::size_t after = std::min(text.find(' ', word), text.size());
            if (width(text.substr(from, after - from)) > fits) break;
            end = after;
        }
        lines.push_back(text.substr(from, end - from));
        from = text.find_first_not_of(' ', end);
    }
    return lines;
}

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
    if (c.runtime != Runtime::sglang && c.runtime != Runtime::trt_llm) c.dp_attention = 0;   // SGLang's and TensorRT-LLM's layout alone
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
