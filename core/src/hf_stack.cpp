// hf_stack.cpp: the layer stack of a Hugging Face config: which kind each layer is, and the
// parts that do not depend on the entry point's fields.
//
// [SECTION] Layer-pattern expanders: what each transformers config class does without layer_types
// [SECTION] Building the stack: the recurrent mixer per family, the scalars that mirror the stack
// [SECTION] Towers (vision, audio)
//
// The entry point (hf_families.cpp) reads the widths and builds one LayerSpec per planned layer;
// the rows that choose the expanders are in hf_rows.cpp. Declarations in hf_families_internal.hpp.
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "gpusizer/error.hpp"
#include "hf_families_internal.hpp"

namespace gpusizer::hf {

// ---------------------------------------------------------------------------------------------
// [SECTION] Layer-pattern expanders
// ---------------------------------------------------------------------------------------------

namespace {

// Jamba's layer patterns: a layer is special when i % period == offset. The two keys, read with
// JambaConfig's defaults and checked.
struct LayerPeriod {
    long long period, offset;
};
LayerPeriod layer_period(Reader& f, const char* period_key, long long period, const char* offset_key, long long offset) {
    const LayerPeriod p{f.integer(period_key, period), f.integer(offset_key, offset)};
    if (p.period <= 0 || p.offset >= p.period) throw_error(f.key(offset_key), "must be smaller than " + std::string(period_key));
    return p;
}

// A `layer_types` entry. Legacy names are remapped as configuration_utils.remap_legacy_layer_types
// does: mamba -> linear_attention, attention -> full_attention; deepseek_sparse_attention and
// qwen_sparse_attention are also spelled indexed_attention.
Plan plan_from_type(const std::string& t, const FamilyRow& row, const std::string& key) {
    Plan p;
    const bool one_block = row.traits & kOneBlock;
    if (t == "full_attention" || t == "attention") {
        p.attn = is_mla_row(row) ? AttnKind::mla : AttnKind::full;
        if (one_block) p.mlp = LayerMlpKind::none;
    } else if (t == "sliding_attention") {
        p.attn = AttnKind::sliding;
    } else if (t == "chunked_attention") {
        p.attn = AttnKind::chunked;
    } else if (t == "linear_attention" || t == "mamba" || t == "conv" || t == "short_conv" || t == "lightning_attention") {
        if (row.mixer == Mixer::none)
            throw_error(key, "'" + t + "' in a " + std::string(row.type) + " model, which has no recurrent layers");
        p.set_recurrent();
        if (one_block) p.mlp = LayerMlpKind::none;
    } else if (t == "hybrid") {
        if (row.mixer == Mixer::none) throw_error(key, "'hybrid' in a " + std::string(row.type) + " model, which has no recurrent layers");
        p.recurrent = true;
    } else if (t == "deepseek_sparse_attention" || t == "indexed_attention" || t == "qwen_sparse_attention") {
        if (!is_mla_row(row)) throw_error(key, "'" + t + "' in a " + std::string(row.type) + " model, which has no MLA layers");
        p.set_indexed_mla();
    } else if (one_block && (t == "moe" || t == "mlp")) {
        p.attn = AttnKind::none;
        p.mlp = t == "moe" ? LayerMlpKind::moe : LayerMlpKind::dense;
    } else {
        throw_error(key, "'" + t +
                             "' is not a layer kind gpusizer models; known: full_attention, sliding_attention, "
                             "chunked_attention, linear_attention, hybrid, deepseek_sparse_attention (and mamba, "
                             "attention, moe, mlp where the family uses them)");
    }
    return p;
}

// no_rope_layers[i] (1 = the layer uses RoPE), or from no_rope_layer_interval as Llama4TextConfig
// and SmolLM3Config derive it: int((i+1) % interval != 0).
std::vector<long long> rope_layers(const FamilyRow& row, Reader& f, int n_layers) {
    std::vector<long long> rope = f.integers("no_rope_layers");
    const long long interval = f.integer("no_rope_layer_interval", row.period);
    if (rope.empty()) {
        if (interval <= 0) throw_error(f.key("no_rope_layer_interval"), "must be at least 1");
        for (int i = 0; i < n_layers; ++i) rope.push_back((i + 1) % interval != 0);
    }
    if (int(rope.size()) < n_layers)
        throw_error(f.key("no_rope_layers"), "has " + std::to_string(rope.size()) + " entries for " + std::to_string(n_layers) + " layers");
    return rope;
}

}  // namespace

// The attention (and mixer) pattern. `layer_types` wins when present, as in every config class.
std::vector<Plan> attention_plan(const FamilyRow& row, Reader& f, int& n_layers, int window,
                                 std::vector<std::string>& notes) {
    // Granite, Nemotron-H and Falcon-H1 spell the list layers_block_type (attribute_map).
    const char* list_key = f.has("layer_types") ? "layer_types" : (f.has("layers_block_type") ? "layers_block_type" : nullptr);
    if (!list_key && f.has("attn_type_list")) {
        // MiniMax-M1's remote code: attn_type_list[i] 1 = softmax attention, 0 = lightning attention.
        const std::vector<long long> t = f.integers("attn_type_list");
        if (int(t.size()) != n_layers)
            throw_error(f.key("attn_type_list"),
                        "has " + std::to_string(t.size()) + " entries for " + std::to_string(n_layers) + " layers");
        std::vector<Plan> out;
        for (std::size_t i = 0; i < t.size(); ++i)
            out.push_back(plan_from_type(t[i] ? "full_attention" : "linear_attention", row, f.key("attn_type_list")));
        return out;
    }
    if (row.attn == Attn::nemotron && !list_key && f.has("hybrid_override_pattern")) {
        // NemotronHConfig._pattern_to_list: M -> linear_attention, E -> moe, * -> full_attention, - -> mlp.
        const std::string pat = f.text("hybrid_override_pattern", "");
        std::vector<Plan> out;
        for (std::size_t i = 0; i < pat.size(); ++i) {
            const char c = pat[i];
            const char* t = c == 'M' ? "linear_attention" : c == 'E' ? "moe" : c == '*' ? "full_attention" : c == '-' ? "mlp" : nullptr;
            if (!t)
                throw_error(f.key("hybrid_override_pattern"), std::string("'") + c + "' at index " + std::to_string(i) +
                                                                  " is not one of M (Mamba-2), * (attention), - (MLP), E (MoE)");
            out.push_back(plan_from_type(t, row, f.key("hybrid_override_pattern")));
        }
        if (n_layers != int(out.size()))
            notes.push_back("num_hidden_layers (" + std::to_string(n_layers) + ") differs from hybrid_override_pattern (" +
                            std::to_string(out.size()) + " layers); the pattern wins, as in transformers");
        n_layers = int(out.size());
        return out;
    }
    if (list_key) {
        const std::vector<std::string> types = f.strings(list_key);
        if (row.attn == Attn::nemotron) {
            if (n_layers != int(types.size()) && n_layers != 0)
                notes.push_back("num_hidden_layers (" + std::to_string(n_layers) + ") differs from " + list_key + " (" +
                                std::to_string(types.size()) + " layers); the list wins, as in transformers");
            n_layers = int(types.size());
        } else if (int(types.size()) != n_layers) {
            throw_error(f.key(list_key),
                        "has " + std::to_string(types.size()) + " entries for " + std::to_string(n_layers) + " layers (num_hidden_layers)");
        }
        std::vector<Plan> out;
        for (std::size_t i = 0; i < types.size(); ++i)
            out.push_back(plan_from_type(types[i], row, f.key(list_key) + "[" + std::to_string(i) + "]"));
        return out;
    }

    std::vector<Plan> out(std::size_t(std::max(0, n_layers)));
    auto set_all = [&](AttnKind k) {
        for (Plan& p : out) p.attn = k;
    };
    switch (row.attn) {
        case Attn::full:
            break;
        case Attn::window_all:
            if (window > 0) set_all(AttnKind::sliding);
            break;
        case Attn::every_nth_full: {
            // Gemma 3 modular_gemma3.py, Cohere2, OLMo 3, Gemma 4, gpt-oss (2):
            // "sliding_attention" if (i + 1) % pattern else "full_attention".
            const int p = int(f.integer("sliding_window_pattern", row.period));
            if (p <= 0) throw_error(f.key("sliding_window_pattern"), "must be at least 1");
            for (int i = 0; i < n_layers; ++i) out[std::size_t(i)].attn = (i + 1) % p ? AttnKind::sliding : AttnKind::full;
            break;
        }
        case Attn::max_window: {
            // Qwen2Config: sliding when sliding_window is not None (use_sliding_window) and
            // i >= max_window_layers.
            const long long mwl = f.integer("max_window_layers", 28);
            if (window > 0)
                for (int i = 0; i < n_layers; ++i)
                    if (i >= mwl) out[std::size_t(i)].attn = AttnKind::sliding;
            break;
        }
        case Attn::llama4: {
            // Llama4TextConfig: no_rope_layers[i] = int((i+1) % no_rope_layer_interval != 0);
            // layer_types = "chunked_attention" if no_rope_layers[i] (RoPE) else "full_attention".
            const std::vector<long long> rope = rope_layers(row, f, n_layers);
            for (int i = 0; i < n_layers; ++i) out[std::size_t(i)].attn = rope[std::size_t(i)] ? AttnKind::chunked : AttnKind::full;
            break;
        }
        case Attn::smollm3: {
            // SmolLM3Config: NoPE every no_rope_layer_interval-th layer; a NoPE layer slides
            // when use_sliding_window and sliding_window are set, every other layer is full.
            const std::vector<long long> rope = rope_layers(row, f, n_layers);
            const bool use = f.boolean("use_sliding_window", false);
            for (int i = 0; i < n_layers; ++i)
                if (use && window > 0 && !rope[std::size_t(i)]) out[std::size_t(i)].attn = AttnKind::sliding;
            break;
        }
        case Attn::exaone4: {
            // Exaone4Config: sliding_window None -> pattern 0 (all full); an int p -> sliding
            // unless (i+1) % p == 0; a string such as "LLLG" repeats from layer 0 and the last
            // layer is always global (the class docstring).
            const json* pat = f.find("sliding_window_pattern");
            if (window <= 0) break;
            if (pat && pat->is_string()) {
                const std::string s = pat->get<std::string>();
                if (s.empty()) throw_error(f.key("sliding_window_pattern"), "must not be empty");
                for (int i = 0; i < n_layers; ++i) {
                    const char c = s[std::size_t(i) % s.size()];
                    if (c != 'L' && c != 'G') throw_error(f.key("sliding_window_pattern"), "must be made of L and G, got " + s);
                    out[std::size_t(i)].attn = c == 'L' ? AttnKind::sliding : AttnKind::full;
                }
                if (n_layers > 0) out.back().attn = AttnKind::full;
            } else {
                const long long p = pat ? f.integer("sliding_window_pattern", row.period) : row.period;
                if (p <= 0) throw_error(f.key("sliding_window_pattern"), "must be at least 1");
                for (int i = 0; i < n_layers; ++i) out[std::size_t(i)].attn = (i + 1) % p ? AttnKind::sliding : AttnKind::full;
            }
            break;
        }
        case Attn::linear_interval: {
            // Qwen3NextConfig: "linear_attention" if (i + 1) % full_attention_interval else "full_attention".
            const long long p = f.integer("full_attention_interval", row.period);
            if (p <= 0) throw_error(f.key("full_attention_interval"), "must be at least 1");
            for (int i = 0; i < n_layers; ++i)
                if ((i + 1) % p) out[std::size_t(i)].set_recurrent();
            break;
        }
        case Attn::granite:
            // GraniteMoeHybridConfig.layers_block_type: layer_types, else ["mamba"] * n.
            for (Plan& p : out) p.set_recurrent();
            break;
        case Attn::nemotron: {
            // NemotronHConfig default: ["linear_attention", "moe", "full_attention", "mlp"].
            const char* kDefault[] = {"linear_attention", "moe", "full_attention", "mlp"};
            out.clear();
            for (const char* t : kDefault) out.push_back(plan_from_type(t, row, f.key("layers_block_type")));
            n_layers = int(out.size());
            break;
        }
        case Attn::jamba: {
            // JambaConfig.layers_block_type: "attention" if i % attn_layer_period == attn_layer_offset else "mamba".
            const LayerPeriod p = layer_period(f, "attn_layer_period", 8, "attn_layer_offset", 4);
            for (int i = 0; i < n_layers; ++i)
                if (i % p.period != p.offset) out[std::size_t(i)].set_recurrent();
            break;
        }
        case Attn::falcon_h1:
            // FalconH1Config.layers_block_type: ["hybrid"] * n.
            for (Plan& p : out) p.recurrent = true;
            break;
        case Attn::mla:
            set_all(AttnKind::mla);
            break;
        case Attn::mla_indexer:
            // DeepseekV32Config: layer_types default all "deepseek_sparse_attention".
            for (Plan& p : out) p.set_indexed_mla();
            break;
        case Attn::indices: {
            // BambaConfig: attention in attn_layer_indices, Mamba-2 in every other layer.
            const char* key = f.has("attn_layer_indices") ? "attn_layer_indices"
                              : f.has("attn_layer_idx")   ? "attn_layer_idx"   // mamba_ssm's MixerModel
                                                          : "attention_layer_indices";
            const std::vector<long long> idx = f.integers(key);
            for (long long i : idx)
                if (i >= n_layers) throw_error(f.key(key), "names layer " + std::to_string(i) + " of " + std::to_string(n_layers));
            for (int i = 0; i < n_layers; ++i)
                if (std::find(idx.begin(), idx.end(), i) == idx.end()) out[std::size_t(i)].set_recurrent();
            break;
        }
    }
    return out;
}

// Which layers are MoE (the attention plan is already set).
void moe_plan(const FamilyRow& row, Reader& f, std::vector<Plan>& plan, long long experts) {
    const int n = int(plan.size());
    auto mark = [&](int i, bool moe) { plan[std::size_t(i)].mlp = moe ? LayerMlpKind::moe : LayerMlpKind::dense; };
    switch (row.moe) {
        case Moe::none:
            break;
        case Moe::all:
        case Moe::gemma4:
        case Moe::granite:
            for (int i = 0; i < n; ++i) mark(i, experts > 0);
            break;
        case Moe::hunyuan:
            for (int i = 0; i < n; ++i) mark(i, experts > 1);
            break;
        case Moe::qwen_sparse: {
            // Qwen2MoeDecoderLayer / Qwen3MoeDecoderLayer: MoE when i not in mlp_only_layers and
            // num_experts > 0 and (i + 1) % decoder_sparse_step == 0.
            const std::vector<long long> dense = f.integers("mlp_only_layers");
            const long long step = f.integer("decoder_sparse_step", 1);
            if (step <= 0) throw_error(f.key("decoder_sparse_step"), "must be at least 1");
            for (long long d : dense)
                if (d >= n) throw_error(f.key("mlp_only_layers"), "names layer " + std::to_string(d) + " of " + std::to_string(n));
            for (int i = 0; i < n; ++i)
                mark(i, experts > 0 && std::find(dense.begin(), dense.end(), i) == dense.end() && (i + 1) % step == 0);
            break;
        }
        case Moe::first_k_dense: {
            // DeepseekV3DecoderLayer: MoE when layer_idx >= first_k_dense_replace (and, in
            // DeepSeek's own modeling code, layer_idx % moe_layer_freq == 0).
            // DeepseekV32Config / GlmMoeDsaConfig: mlp_layer_types ("dense" / "sparse"), when
            // present, lists them; its default is first_k_dense_replace x "dense" then "sparse".
            if (f.has("mlp_layer_types")) {
                const std::vector<std::string> t = f.strings("mlp_layer_types");
                if (int(t.size()) != n)
                    throw_error(f.key("mlp_layer_types"),
                                "has " + std::to_string(t.size()) + " entries for " + std::to_string(n) + " layers");
                for (int i = 0; i < n; ++i) {
                    if (t[std::size_t(i)] != "dense" && t[std::size_t(i)] != "sparse")
                        throw_error(f.key("mlp_layer_types") + "[" + std::to_string(i) + "]",
                                    "must be dense or sparse, got " + t[std::size_t(i)]);
                    mark(i, experts > 0 && t[std::size_t(i)] == "sparse");
                }
                break;
            }
            const long long k = f.integer("first_k_dense_replace", class_default(row.type, "first_k_dense_replace", 0));
            const long long freq = f.integer("moe_layer_freq", 1);
            if (freq <= 0) throw_error(f.key("moe_layer_freq"), "must be at least 1");
            for (int i = 0; i < n; ++i) mark(i, experts > 0 && i >= k && i % freq == 0);
            break;
        }
        case Moe::llama4: {
            // Llama4TextConfig: moe_layers, else list(range(step - 1, n, step)).
            std::vector<long long> moe = f.integers("moe_layers");
            const long long step = f.integer("interleave_moe_layer_step", 1);   // read either way: moe_layers overrides it
            if (!f.has("moe_layers")) {
                if (step <= 0) throw_error(f.key("interleave_moe_layer_step"), "must be at least 1");
                for (long long i = step - 1; i < n; i += step) moe.push_back(i);
            }
            for (int i = 0; i < n; ++i) mark(i, experts > 0 && std::find(moe.begin(), moe.end(), i) != moe.end());
            break;
        }
        case Moe::jamba: {
            // JambaConfig.layers_num_experts: num_experts if i % expert_layer_period ==
            // expert_layer_offset else 1 (one expert = a dense MLP).
            const LayerPeriod p = layer_period(f, "expert_layer_period", 2, "expert_layer_offset", 1);
            for (int i = 0; i < n; ++i) mark(i, experts > 1 && i % p.period == p.offset);
            break;
        }
        case Moe::ernie: {
            // Ernie4_5_MoeDecoderLayer: (i + 1) % moe_layer_interval == 0 and
            // moe_layer_start_index <= i <= moe_layer_end_index (-1: the last layer).
            const long long start = f.integer("moe_layer_start_index", 1);
            const json* end_v = f.find("moe_layer_end_index");
            long long end = n - 1;
            if (end_v) {
                if (!end_v->is_number_integer()) throw_error(f.key("moe_layer_end_index"), "must be an integer");
                end = end_v->get<long long>() < 0 ? n - 1 : end_v->get<long long>();
            }
            const long long interval = f.integer("moe_layer_interval", 1);
            if (interval <= 0) throw_error(f.key("moe_layer_interval"), "must be at least 1");
            for (int i = 0; i < n; ++i) mark(i, experts > 0 && (i + 1) % interval == 0 && i >= start && i <= end);
            break;
        }
        case Moe::nemotron:
            break;   // the pattern's own "moe" and "mlp" blocks
        case Moe::fields:
            fields_moe_plan(f, plan, experts);
            break;
    }
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Building the stack
// ---------------------------------------------------------------------------------------------

namespace {

int state_bytes_of(const std::string& dtype, const std::string& key) {
    if (dtype == "float32") return 4;
    if (dtype == "bfloat16" || dtype == "float16") return 2;
    throw_error(key, "'" + dtype + "' is not one of float32, bfloat16, float16");
}

// The first of `names` the config gives (each marked read), else `fallback`.
long long first_of(Reader& f, std::initializer_list<const char*> names, long long fallback) {
    for (const char* n : names)
        if (f.has(n)) return f.integer(n, fallback);
    return fallback;
}

int checked_int(long long v, const std::string& key) {
    if (v > 2147483647LL) throw_error(key, "gives a width of " + std::to_string(v) + ", more than 2^31 - 1");
    return int(v);
}

}  // namespace

RecurrentSpec read_mixer(const FamilyRow& row, Reader& f, int hidden) {
    RecurrentSpec r;
    // mamba_ssm's own format: only a row read by its fields has it (hf_infer.cpp).
    if (read_by_fields(row) && f.has("ssm_cfg")) return read_mamba_ssm(row, f, hidden);
    switch (row.mixer) {
        case Mixer::none:
            break;
        case Mixer::mamba1: {
            // JambaConfig: d_inner = mamba_expand * hidden; mamba_dt_rank "auto" = ceil(hidden / 16).
            // MambaConfig / FalconMambaConfig spell them expand, state_size, conv_kernel,
            // time_step_rank, use_conv_bias, use_bias (same defaults).
            r.kind = RecurrentKind::mamba;
            const char* expand_key = f.has("mamba_expand") || !f.has("expand") ? "mamba_expand" : "expand";
            r.d_inner = checked_int(f.integer(expand_key, 2) * hidden, f.key(expand_key));
            // MambaConfig / FalconMambaConfig: the mixer runs at intermediate_size (MambaMixer
            // self.intermediate_size), which falcon-mamba-7b states apart from its `expand`.
            if (read_by_fields(row) && f.has("state_size") && f.has("intermediate_size")) r.d_inner = int(f.integer("intermediate_size", r.d_inner));
            r.d_state = int(first_of(f, {"mamba_d_state", "state_size", "d_state"}, 16));
            r.d_conv = int(first_of(f, {"mamba_d_conv", "conv_kernel", "d_conv"}, 4));
            const char* dt_key = f.has("mamba_dt_rank") || !f.has("time_step_rank") ? "mamba_dt_rank" : "time_step_rank";
            const json* dt = f.find(dt_key);
            r.dt_rank = dt && dt->is_number() ? int(f.integer(dt_key, 0)) : (hidden + 15) / 16;
            r.conv_bias = f.has("use_conv_bias") ? f.boolean("use_conv_bias", true) : f.boolean("mamba_conv_bias", true);
            r.proj_bias = f.has("mamba_proj_bias") ? f.boolean("mamba_proj_bias", false) : (read_by_fields(row) && f.boolean("use_bias", false));
            break;
        }
        case Mixer::mamba2: {
            r.kind = RecurrentKind::mamba2;
            if (row.attn == Attn::nemotron) {
                // NemotronHConfig (legacy spellings popped in __post_init__: mamba_n_groups,
                // mamba_d_conv, mamba_conv_bias).
                r.n_heads = int(f.integer("mamba_num_heads", 128));
                r.head_dim = int(f.integer("mamba_head_dim", 64));
                r.d_state = int(f.integer("ssm_state_size", 128));
                r.n_groups = int(f.has("mamba_n_groups") ? f.integer("mamba_n_groups", 8) : f.integer("n_groups", 8));
                r.d_conv = int(f.has("mamba_d_conv") ? f.integer("mamba_d_conv", 4) : f.integer("conv_kernel", 4));
                r.conv_bias = f.has("mamba_conv_bias") ? f.boolean("mamba_conv_bias", true) : f.boolean("use_conv_bias", true);
                r.proj_bias = f.boolean("mamba_proj_bias", false);
                f.mark("expand");
                f.mark("mamba_expand");
                r.d_inner = checked_int(1LL * r.n_heads * r.head_dim, f.key("mamba_num_heads"));
                // mamba_ssm_cache_dtype defaults to "float32" in NemotronHConfig.
                r.state_bytes = state_bytes_of(f.text("mamba_ssm_cache_dtype", "float32"), f.key("mamba_ssm_cache_dtype"));
            } else {
                // GraniteMoeHybridConfig / FalconH1Config: d_inner = mamba_expand * hidden
                // (Falcon-H1: mamba_d_ssm when set); mamba_d_head "auto" = d_inner / mamba_n_heads.
                // Mamba2Config (a row read by its fields) spells them expand, num_heads, head_dim,
                // state_size, n_groups, conv_kernel, use_conv_bias, use_bias.
                const bool plain_names = read_by_fields(row) && !f.has("mamba_n_heads") && !f.has("mamba_num_heads");
                const char* expand_key = f.has("mamba_expand") || !f.has("expand") ? "mamba_expand" : "expand";
                const long long expand = f.integer(expand_key, 2);
                long long d_inner = checked_int(expand * hidden, f.key(expand_key));
                if (row.attn == Attn::falcon_h1 && f.has("mamba_d_ssm")) d_inner = f.integer("mamba_d_ssm", d_inner);
                const char* heads_key = plain_names ? "num_heads" : f.has("mamba_num_heads") ? "mamba_num_heads" : "mamba_n_heads";
                r.n_heads = int(f.integer(heads_key, 128));
                if (r.n_heads <= 0) throw_error(f.key(heads_key), "must be at least 1");
                const char* head_key = plain_names ? "head_dim" : f.has("mamba_head_dim") ? "mamba_head_dim" : "mamba_d_head";
                const json* dh = f.find(head_key);
                r.head_dim = dh && dh->is_number() ? int(f.integer(head_key, 0)) : int(d_inner / r.n_heads);
                r.d_inner = checked_int(1LL * r.n_heads * r.head_dim, f.key(heads_key));
                r.d_state = int(first_of(f, {"mamba_d_state", "ssm_state_size", "state_size"}, read_by_fields(row) ? 128 : 256));
                r.n_groups = int(first_of(f, {"mamba_n_groups", "n_groups"}, read_by_fields(row) ? 8 : 1));
                r.d_conv = int(first_of(f, {"mamba_d_conv", "conv_kernel"}, 4));
                r.conv_bias = f.has("use_conv_bias") ? f.boolean("use_conv_bias", true) : f.boolean("mamba_conv_bias", true);
                r.proj_bias = f.has("mamba_proj_bias") ? f.boolean("mamba_proj_bias", false) : (read_by_fields(row) && f.boolean("use_bias", false));
                if (f.has("mamba_ssm_cache_dtype"))
                    r.state_bytes = state_bytes_of(f.text("mamba_ssm_cache_dtype", ""), f.key("mamba_ssm_cache_dtype"));
            }
            break;
        }
        case Mixer::lightning: {
            // MiniMaxConfig linear_attention layers (modeling_minimax.py MiniMaxLightningAttention):
            // the attention's heads and head_dim; the key-value state is kept in float32.
            r.kind = RecurrentKind::lightning;
            r.n_heads = int(f.single_or_first(F::n_heads, 0));
            r.head_dim = int(f.integer(F::head_dim, r.n_heads > 0 ? hidden / r.n_heads : 0));
            r.d_inner = checked_int(1LL * r.n_heads * r.head_dim, f.key("num_attention_heads"));
            r.state_bytes = 4;
            break;
        }
        case Mixer::short_conv:
            // Lfm2Config: conv_L_cache 3 (kernel width), conv_bias False; the conv runs over hidden_size.
            r.kind = RecurrentKind::short_conv;
            r.d_inner = hidden;
            r.d_conv = int(f.integer("conv_L_cache", 3));
            r.conv_bias = f.boolean("conv_bias", false);
            break;
        case Mixer::rwkv:
            // RwkvConfig: attention_hidden_size (default hidden_size); the state in float32.
            r.kind = RecurrentKind::rwkv;
            r.d_inner = int(f.integer("attention_hidden_size", hidden));
            r.state_bytes = 4;
            break;
        case Mixer::gated_deltanet:
            // Qwen3NextConfig defaults: 16 key heads x 128, 32 value heads x 128, conv kernel 4.
            r.kind = RecurrentKind::gated_deltanet;
            r.n_k_heads = int(f.integer("linear_num_key_heads", 16));
            r.k_head_dim = int(f.integer("linear_key_head_dim", 128));
            r.n_heads = int(f.integer("linear_num_value_heads", 32));
            r.head_dim = int(f.integer("linear_value_head_dim", 128));
            r.d_conv = int(f.integer("linear_conv_kernel_dim", 4));
            r.d_inner = checked_int(1LL * r.n_heads * r.head_dim, f.key("linear_num_value_heads"));
            r.conv_bias = false;   // Qwen3NextGatedDeltaNet: nn.Conv1d(..., bias=False)
            // The recurrent state's type: mamba_ssm_cache_dtype where a config sets it, else Qwen3.5's
            // mamba_ssm_dtype ("float32" in its checkpoints), which vLLM takes for the state when
            // mamba_ssm_cache_dtype is "auto" (vllm/model_executor/models/config.py @ v0.22.1 and
            // v0.24.0, Qwen3.5's mamba SSM dtype rewrite; qwen3_5.py get_mamba_state_dtype_from_config).
            if (f.has("mamba_ssm_cache_dtype"))
                r.state_bytes = state_bytes_of(f.text("mamba_ssm_cache_dtype", ""), f.key("mamba_ssm_cache_dtype"));
            else if (f.has("mamba_ssm_dtype"))
                r.state_bytes = state_bytes_of(f.text("mamba_ssm_dtype", ""), f.key("mamba_ssm_dtype"));
            break;
    }
    return r;
}

// The scalar knobs that best mirror the stack, for code still reading scalars.
void mirror_scalars(ModelArch& a, const std::vector<LayerSpec>& layers) {
    // Attention: the first full (else any) attention layer's heads.
    const LayerSpec* rep = nullptr;
    for (const LayerSpec& l : layers)
        if (l.attn.kind == AttnKind::full || l.attn.kind == AttnKind::mla) {
            rep = &l;
            break;
        }
    if (!rep)
        for (const LayerSpec& l : layers)
            if (l.attn.kind != AttnKind::none) {
                rep = &l;
                break;
            }
    if (rep) {
        a.n_heads = rep->attn.n_heads;
        a.n_kv_heads = rep->attn.n_kv_heads;
        a.head_dim = rep->attn.head_dim;
        a.v_head_dim = rep->attn.v_head_dim;
    }
    // Sliding window: the first sliding or chunked layer's (the stack says which layers).
    int window = 0;
    for (const LayerSpec& l : layers)
        if ((l.attn.kind == AttnKind::sliding || l.attn.kind == AttnKind::chunked) && !window) window = l.attn.window;
    a.sliding_window = window;
    // MLP: the first dense layer's width, the first MoE layer's experts.
    const LayerSpec* dense = nullptr;
    const LayerSpec* moe = nullptr;
    for (const LayerSpec& l : layers) {
        if (!dense && l.mlp.kind == LayerMlpKind::dense) dense = &l;
        if (!moe && l.mlp.kind == LayerMlpKind::moe) moe = &l;
    }
    if (dense) a.intermediate = dense->mlp.intermediate;
    if (moe) {
        a.n_routed_experts = moe->mlp.n_experts;
        a.experts_per_token = moe->mlp.experts_per_token;
        a.moe_intermediate = moe->mlp.expert_intermediate;
        a.n_shared_experts = moe->mlp.n_shared;
        a.shared_intermediate = moe->mlp.n_shared ? moe->mlp.shared_intermediate : 0;
        a.router_bias = moe->mlp.router_bias;
        if (!dense && a.intermediate == 0) a.intermediate = moe->mlp.expert_intermediate;
    } else {
        a.n_routed_experts = 0;
    }
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Towers
// ---------------------------------------------------------------------------------------------

// A vision or audio encoder from its sub-config: layers, width, heads, patch and image size.
// The projector into the text model is counted as one linear map from the tower's output width
// (vision_output_dim / out_hidden_size / hidden) to the text width; families whose projector has
// more (Mistral 3's patch merger, Gemma 3's norm) are within its small size.
void read_tower(const json& cfg, const char* part, int text_hidden, ModelArch& a, std::vector<std::string>& notes) {
    TowerSpec t;
    t.part = part;
    t.n_layers = int(first_int(cfg, {"num_hidden_layers", "depth", "num_layers", "conf_num_hidden_layers", "encoder_layers"}, 0));
    // Mllama's vision encoder: num_global_layers more layers after the local ones (MllamaVisionModel).
    if (t.n_layers > 0) t.n_layers += int(first_int(cfg, {"num_global_layers"}, 0));
    const std::string tower_type = cfg.contains("model_type") && cfg["model_type"].is_string() ? cfg["model_type"].get<std::string>() : "";
    // Idefics3VisionConfig / SmolVLMVisionConfig default hidden_size 1152 (SigLIP so400m), which
    // SmolVLM's and Aria's vision_config leave out.
    const long long class_hidden = tower_type == "idefics3_vision" || tower_type == "smolvlm_vision" ? 1152 : 0;
    // Qwen2-VL's vision_config: embed_dim is the ViT's width, hidden_size the merger's output
    // (Qwen2VLVisionConfig); where both are given, embed_dim is the tower's.
    t.hidden = int(first_int(cfg, {"embed_dim", "hidden_size", "d_model", "width"}, class_hidden));
    // mlp_ratio x width where no width is given (Qwen2-VL 4, ERNIE-4.5-VL's ViT).
    long long ffn = first_int(cfg, {"intermediate_size", "mlp_dim", "encoder_ffn_dim"}, 0);
    if (ffn == 0 && cfg.contains("mlp_ratio") && cfg["mlp_ratio"].is_number() && cfg["mlp_ratio"].get<double>() > 0 &&
        cfg["mlp_ratio"].get<double>() <= 64)
        ffn = (long long)(cfg["mlp_ratio"].get<double>() * t.hidden);
    t.intermediate = int(ffn > 0 ? ffn : 4LL * t.hidden);
    // A SiLU tower's MLP of at most 4 x width is gated (gate, up, down: Qwen2.5-VL's 3,420 of
    // 1,280, Pixtral's 4,096 of 1,024); tower_params counts two matrices, so three of width i are
    // two of 1.5 i. GLM-4.1V's 13,696 of 1,536 is its merger's width, not its blocks' (their MLP
    // is out_hidden_size wide: modeling_glm4v.py Glm4VisionMlp), left as it was read.
    const std::string act = cfg.contains("hidden_act") && cfg["hidden_act"].is_string() ? cfg["hidden_act"].get<std::string>() : "";
    if ((act == "silu" || act == "swiglu") && t.intermediate <= 4LL * t.hidden) t.intermediate = t.intermediate * 3 / 2;
    t.n_heads = int(first_int(cfg, {"num_attention_heads", "num_heads", "conf_num_attention_heads", "encoder_attention_heads", "attention_heads"}, 0));
    t.patch_size = int(first_int(cfg, {"patch_size"}, 0));
    t.in_channels = int(first_int(cfg, {"num_channels", "in_channels", "in_chans"}, std::strcmp(part, "vision") == 0 ? 3 : 0));
    t.image_size = int(first_int(cfg, {"image_size"}, 0));
    const long long out = first_int(cfg, {"vision_output_dim", "out_hidden_size", "output_proj_dims", "hidden_size"}, t.hidden);
    t.projector_params = double(out) * text_hidden;
    const std::string type = cfg.contains("model_type") && cfg["model_type"].is_string() ? cfg["model_type"].get<std::string>() : "";
    if (t.n_layers <= 0 || t.hidden <= 0) {
        notes.push_back(std::string(part) + "_config" + (type.empty() ? "" : " (" + type + ")") +
                        ": a tower without num_hidden_layers / hidden_size is not counted");
        return;
    }
    a.towers.push_back(t);
}

}  // namespace gpusizer::hf
