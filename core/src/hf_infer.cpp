// hf_infer.cpp: a config.json whose model_type no row names, read by its fields.
//
// [SECTION] Where the fields are: the layer count, DBRX / MPT sub-configs merged in
// [SECTION] The row the fields describe: attention layout, experts, recurrent mixer, MLP, norms
// [SECTION] What a row read by its fields adjusts: biases, tying, expansion ratios, multi-query
// [SECTION] Encoder-decoders under the BART family's names
// [SECTION] Heterogeneous blocks: DeciLM / Nemotron-NAS block_configs
//
// Most new checkpoints are stacks of the usual parts under the usual names (transformers'
// attribute maps, hf_rows.cpp's alias table). When no row names the model_type, the importer
// builds one from what the config holds, with the same expanders the named families use, and
// says what it assumed. Where the fields cannot decide (a plain or a gated MLP, tied or untied
// embeddings), the choice and its reason go into the warnings. Core fields that are missing
// (layers, width, heads, vocabulary, an MLP width) refuse the config, all of them named at once.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "gpusizer/error.hpp"
#include "hf_families_internal.hpp"

namespace gpusizer::hf {

namespace {

// ---------------------------------------------------------------------------------------------
// [SECTION] Where the fields are
// ---------------------------------------------------------------------------------------------

bool has_any(const json& j, F f) {
    for (const char* n : spellings(f)) {
        auto it = j.find(n);
        if (it != j.end() && !it->is_null()) return true;
    }
    return false;
}

bool has_key(const json& j, const char* k) {
    auto it = j.find(k);
    return it != j.end() && !it->is_null();
}

std::string spelled(F f) {
    std::string s;
    for (const char* n : spellings(f)) s += (s.empty() ? "" : " or ") + std::string(n);
    return s;
}

// The activation's name (DBRX writes ffn_act_fn as {"name": "silu"}).
std::string activation(const json& j) {
    // An MLP's own activation first (Nemotron-H mlp_hidden_act beside a hidden_act of its mixer).
    for (const char* k : {"mlp_hidden_act", "hidden_act", "activation_function", "hidden_activation", "ffn_act_fn", "activation", "act_fn",
                          "mlp_activation", "ffn_activation", "nonlinearity"}) {
        auto it = j.find(k);
        if (it == j.end()) continue;
        if (it->is_string()) return it->get<std::string>();
        if (it->is_object() && it->contains("name") && (*it)["name"].is_string()) return (*it)["name"].get<std::string>();
    }
    return "";
}

}   // namespace

bool has_layer_count(const json& j) {
    return has_any(j, F::n_layers) || has_key(j, "hybrid_override_pattern") || has_key(j, "block_configs") ||
           has_key(j, "layers_block_type");
}

json flattened_text(const json& text) {
    // DBRX keeps kv_n_heads in attn_config and the expert fields in ffn_config; MPT its
    // kv_n_heads in attn_config; mamba_ssm its attention heads in attn_cfg. Their keys are read as
    // if at the top; the top level wins.
    json flat = text;
    for (const char* sub : {"attn_config", "ffn_config", "moe_config", "attention_config", "mlp_config", "attn_cfg"}) {
        auto it = text.find(sub);
        if (it == text.end() || !it->is_object()) continue;
        for (auto kv = it->begin(); kv != it->end(); ++kv)
            if (!flat.contains(kv.key())) flat[kv.key()] = kv.value();
    }
    return flat;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] The row the fields describe
// ---------------------------------------------------------------------------------------------

const FamilyRow& infer_row(Reader& f, const std::string& model_type, InferredRow& out, std::vector<std::string>& notes) {
    const json& j = f.object();
    out.type = model_type.empty() ? "unknown" : model_type;
    FamilyRow& r = out.row;
    r.type = out.type.c_str();
    r.text_path = "";
    r.text_type = "";
    r.attn = Attn::full;
    r.period = 0;
    r.window = 0;
    r.moe = Moe::none;
    r.mixer = Mixer::none;
    r.traits = kArchKeysOnly | kTie;
    r.irrelevant = out.understood.c_str();
    r.adjust = adjust_by_fields;
    std::vector<std::string> said;   // what was assumed, for one note

    // T5's encoder-decoder names (mT5, umT5, LongT5, Flan-T5 under other types): T5's build.
    if (has_key(j, "d_ff") && has_key(j, "d_kv") && has_key(j, "d_model") &&
        (has_key(j, "num_decoder_layers") || has_key(j, "feed_forward_proj"))) {
        r.adjust = nullptr;
        r.build = build_t5;
        notes.push_back("model_type '" + out.type +
                        "' has no row of its own: read as a T5 encoder-decoder (d_model, d_ff, d_kv, num_layers)");
        return r;
    }
    // The BART family's names (BART, mBART, Marian, M2M-100 / NLLB, Pegasus, Whisper, Speech2Text,
    // XGLM's encoder-decoder kin): encoder_layers / decoder_layers of d_model, their heads and
    // FFN widths. Read as an encoder-decoder (build_seq2seq).
    if (has_key(j, "encoder_layers") && has_key(j, "decoder_layers") && has_any(j, F::hidden) &&
        (has_key(j, "encoder_attention_heads") || has_key(j, "decoder_attention_heads"))) {
        r.adjust = nullptr;
        r.build = build_seq2seq;
        notes.push_back("model_type '" + out.type +
                        "' has no row of its own: read as an encoder-decoder (encoder_layers, decoder_layers, d_model, "
                        "encoder_ffn_dim); plain MLPs, LayerNorms and biases as in BART");
        return r;
    }

    // Recurrent mixers, by their fields (transformers MambaConfig, Mamba2Config, the hybrids'
    // mamba_* keys, Qwen3-Next's linear_* keys).
    const bool gdn = has_key(j, "linear_num_value_heads") || has_key(j, "linear_num_key_heads") || has_key(j, "linear_key_head_dim");
    const bool mamba2 = has_key(j, "mamba_n_heads") || has_key(j, "mamba_num_heads") || has_key(j, "mamba_d_head") ||
                        has_key(j, "mamba_head_dim") || has_key(j, "mamba_n_groups") ||
                        (has_key(j, "n_groups") && (has_key(j, "state_size") || has_key(j, "ssm_state_size")));
    const bool mamba1 = !mamba2 && (has_key(j, "mamba_d_state") || has_key(j, "mamba_expand") || has_key(j, "mamba_dt_rank") ||
                                    has_key(j, "time_step_rank") || (has_key(j, "state_size") && has_key(j, "conv_kernel")));
    // mamba_ssm's own format (state-spaces/*: d_model, n_layer, ssm_cfg {"layer": "Mamba2"}).
    std::string ssm_layer;
    if (has_key(j, "ssm_cfg") && j["ssm_cfg"].is_object()) {
        const json& c = j["ssm_cfg"];
        ssm_layer = c.contains("layer") && c["layer"].is_string() ? c["layer"].get<std::string>() : "Mamba1";
        f.mark("ssm_cfg");
    }
    // The list of layer kinds, where the config has one (LFM2's "conv", MiniMax's
    // "linear_attention" without any linear_* field: lightning attention over the heads).
    std::vector<std::string> types;
    if (has_key(j, "layer_types") && j["layer_types"].is_array())
        for (const json& t : j["layer_types"])
            if (t.is_string()) types.push_back(t.get<std::string>());
    auto listed = [&](const char* t) { return std::find(types.begin(), types.end(), t) != types.end(); };
    const bool attn_type_list = has_key(j, "attn_type_list");   // MiniMax-M1: 0 lightning, 1 softmax
    if (gdn)
        r.mixer = Mixer::gated_deltanet;
    else if (ssm_layer == "Mamba2" || mamba2)
        r.mixer = Mixer::mamba2;
    else if (!ssm_layer.empty() || mamba1)
        r.mixer = Mixer::mamba1;
    else if (listed("conv") || has_key(j, "conv_L_cache"))
        r.mixer = Mixer::short_conv;
    else if (listed("linear_attention") || attn_type_list) {
        r.mixer = Mixer::lightning;
        said.push_back("linear_attention layers read as lightning attention over the attention heads (MiniMax-01)");
    }

    // Attention layout. An explicit per-layer list (layer_types / layers_block_type) wins in the
    // expander whatever is chosen here; these are the pattern fields' meanings in the families
    // that introduced them (hf_stack.cpp attention_plan).
    const bool attention_named =
        has_key(j, "num_attention_heads") || has_key(j, "n_head") || has_key(j, "n_heads") || has_key(j, "num_query_heads");
    if (has_key(j, "hybrid_override_pattern")) {
        // NemotronHConfig's pattern string: M Mamba-2, * attention, - MLP, E MoE; one block a layer.
        r.attn = Attn::nemotron;
        r.moe = Moe::nemotron;
        if (r.mixer == Mixer::none) r.mixer = Mixer::mamba2;
        r.traits |= kOneBlock | kNorms1;
        said.push_back("hybrid_override_pattern read as Nemotron-H's (M Mamba-2, * attention, - MLP, E MoE)");
    } else if (r.mixer != Mixer::none && (has_key(j, "attn_layer_period") || has_key(j, "attn_layer_offset"))) {
        r.attn = Attn::jamba;   // JambaConfig: attention when i % attn_layer_period == attn_layer_offset
    } else if (r.mixer != Mixer::none &&
               (has_key(j, "attn_layer_indices") || has_key(j, "attention_layer_indices") || has_key(j, "attn_layer_idx"))) {
        r.attn = Attn::indices;   // BambaConfig: attention in the listed layers
    } else if (!types.empty() || attn_type_list) {
        r.attn = Attn::full;   // the per-layer list decides (attention_plan)
    } else if (r.mixer == Mixer::gated_deltanet) {
        r.attn = Attn::linear_interval;   // Qwen3NextConfig: full every full_attention_interval-th layer
        r.period = 4;
        if (!has_key(j, "full_attention_interval") && !has_key(j, "layer_types"))
            said.push_back("linear attention in 3 of 4 layers (Qwen3-Next's full_attention_interval 4; no interval given)");
    } else if (r.mixer != Mixer::none && !attention_named && !has_key(j, "layer_types") && !has_key(j, "layers_block_type")) {
        r.attn = Attn::granite;   // no attention at all: every layer the mixer (MambaConfig, Mamba2Config)
        said.push_back("no attention heads: every layer is the recurrent mixer");
    } else if (r.mixer != Mixer::none && r.mixer != Mixer::lightning && r.mixer != Mixer::short_conv && !has_key(j, "layer_types") &&
               !has_key(j, "layers_block_type") && !has_key(j, "full_attention_interval")) {
        // Attention heads and a Mamba mixer, with nothing saying which layers have which: both
        // in every layer, side by side (Falcon-H1's "hybrid" blocks).
        r.attn = Attn::falcon_h1;
        said.push_back("attention and the recurrent mixer side by side in every layer (no layer list says otherwise)");
    } else if (has_key(j, "kv_lora_rank")) {
        // DeepSeek-V2/V3 multi-head latent attention; the DSA indexer (V3.2) when its keys are present.
        r.attn = (has_key(j, "index_n_heads") || has_key(j, "index_head_dim") || has_key(j, "index_topk")) ? Attn::mla_indexer : Attn::mla;
    } else if (has_key(j, "sliding_window_pattern") || has_key(j, "global_attn_every_n_layers")) {
        const json& p = has_key(j, "sliding_window_pattern") ? j["sliding_window_pattern"] : j["global_attn_every_n_layers"];
        // An int p: sliding unless (i+1) % p == 0 (Gemma 3, Cohere2); a string "LLLG" (EXAONE 4).
        r.attn = p.is_string() ? Attn::exaone4 : Attn::every_nth_full;
        r.period = 4;
    } else if (has_key(j, "use_sliding_window") && has_key(j, "max_window_layers")) {
        r.attn = Attn::max_window;   // Qwen2Config: sliding from max_window_layers on, when asked
    } else if (has_key(j, "attention_chunk_size")) {
        // Llama 4: chunked on RoPE layers, full on NoPE ones (no_rope_layers / interval); without
        // either, every layer is chunked.
        r.attn = Attn::llama4;
        r.period = has_key(j, "no_rope_layers") || has_key(j, "no_rope_layer_interval") ? 4 : 1 << 30;
    } else if (has_key(j, "sliding_window")) {
        // A window and no pattern: every layer slides (MistralConfig), unless use_sliding_window
        // says it is off.
        const bool off = j.contains("use_sliding_window") && j["use_sliding_window"].is_boolean() && !j["use_sliding_window"].get<bool>();
        if (!off) r.attn = Attn::window_all;
    }

    // Full layers with their own head size and K/V heads (Gemma 4 global_head_dim,
    // num_global_key_value_heads with attention_k_eq_v).
    if (has_key(j, "global_head_dim")) r.traits |= kGlobalHeadDim;

    // Query-output gating on full-attention layers (Qwen3-Next / Qwen3.5 attn_output_gate).
    if (has_key(j, "attn_output_gate") && j["attn_output_gate"].is_boolean() && j["attn_output_gate"].get<bool>()) r.traits |= kGatedQuery;

    // Experts: any spelling of an expert count above 1 (one "expert" is a dense MLP: Jamba).
    if (has_any(j, F::experts)) {
        const json* e = f.find(F::experts);
        const long long n = e && e->is_number_integer()                                          ? e->get<long long>()
                            : (e && e->is_array() && !e->empty() && (*e)[0].is_number_integer()) ? (*e)[0].get<long long>()
                                                                                                 : 0;
        if (n > 1 && r.moe == Moe::none) r.moe = Moe::fields;
    }

    // MLP: gated (gate, up, down) unless the activation says plain. SwiGLU/GeGLU stacks name
    // silu or a gelu; squared ReLU (Nemotron-4, Persimmon, Arcee) and xIELU (Apertus) come with
    // up and down only; a gelu with a width of exactly 4 x hidden is the GPT-2 / GPT-NeoX / Phi-2
    // / StarCoder2 plain MLP.
    const std::string act = activation(j);
    f.mark("ffn_act_fn");   // DBRX's {"name": ...}: read by activation()
    bool gated = true;
    std::string why = act.empty() ? "no activation named" : "hidden_act " + act;
    bool gated_flag_given = false;
    for (const char* k : {"use_gated_mlp", "gated_mlp", "mlp_gated", "is_gated_act", "glu"}) {
        if (has_key(j, k) && j[k].is_boolean()) {
            gated = j[k].get<bool>();
            why = std::string(k) + (gated ? " true" : " false");
            gated_flag_given = true;
            f.mark(k);
        }
    }
    if (!gated_flag_given) {
        const bool plain_act = act == "relu2" || act == "relu_squared" || act == "squared_relu" || act == "xielu" || act == "gelu_new" ||
                               act == "gelu_fast" || act == "quick_gelu";
        const bool ambiguous = act == "gelu" || act == "gelu_pytorch_tanh" || act == "relu" || act == "gelu_python";
        const json* w = j.contains("intermediate_size") ? &j["intermediate_size"] : nullptr;
        long long hidden = 0, width = 0;
        for (const char* k : spellings(F::hidden))
            if (has_key(j, k) && j[k].is_number_integer()) {
                hidden = j[k].get<long long>();
                break;
            }
        for (const char* k : spellings(F::intermediate))
            if (has_key(j, k) && j[k].is_number_integer()) {
                width = j[k].get<long long>();
                break;
            }
        (void)w;
        const bool four_x = hidden > 0 && (width == 4 * hidden || width == 0);
        // A gelu or relu at 4 x hidden is the older plain MLP (GPT-2, GPT-J, OPT, BERT,
        // StarCoder2); Gemma's GeGLU also runs at 4 x hidden, under its own hidden_activation key.
        if (plain_act || (ambiguous && four_x && !has_key(j, "hidden_activation"))) {
            gated = false;
            if (ambiguous) why += width == 0 ? " and no MLP width" : " at 4 x hidden_size";
        }
    }
    // MPT's FFN: ffn_config.ffn_type "mptmlp" (up, GELU, down) or "mptglu"; the first MPT
    // configs name neither an activation nor a type, only expansion_ratio: MPTMLP, plain
    // (mosaicml llm-foundry ffn.py; MPT-7B: 6.7B with a 4 x 4,096 plain MLP).
    if (!gated_flag_given && has_key(j, "ffn_type") && j["ffn_type"].is_string()) {
        const std::string t = j["ffn_type"].get<std::string>();
        gated = t.find("glu") != std::string::npos;
        why = "ffn_type " + t;
        f.mark("ffn_type");
    } else if (!gated_flag_given && act.empty() && has_key(j, "expansion_ratio")) {
        gated = false;
        why = "expansion_ratio and no activation named (MPT's plain MLP)";
    }
    if (!gated) r.traits |= kPlainMlp;
    said.push_back(std::string("MLP ") + (gated ? "gated (gate, up, down)" : "plain (up, down)") + ": " + why);

    // Norms: LayerNorm (weight and bias) when the config names a LayerNorm epsilon and no RMS
    // one, or its norm type says so; else RMSNorm.
    bool layer_norm =
        (has_key(j, "layer_norm_eps") || has_key(j, "layer_norm_epsilon") || has_key(j, "norm_epsilon")) && !has_key(j, "rms_norm_eps");
    for (const char* k : {"norm_type", "normalization_type", "layer_norm_type", "normalization"}) {
        if (has_key(j, k) && j[k].is_string()) {
            const std::string t = j[k].get<std::string>();
            layer_norm = t.find("rms") == std::string::npos && t.find("layer") != std::string::npos;
            f.mark(k);
        }
    }
    for (const char* k : {"rmsnorm", "rms_norm"}) {   // ChatGLM; mamba_ssm
        if (has_key(j, k) && j[k].is_boolean()) {
            layer_norm = !j[k].get<bool>();
            f.mark(k);
        }
    }
    if (layer_norm) r.traits |= kLayerNorm;

    // Absent tie_word_embeddings: transformers' PretrainedConfig default (True), which
    // save_pretrained leaves out of config.json only when the value is True.
    if (!has_key(j, "tie_word_embeddings") && !has_key(j, "tie_word_embedding") && !has_key(j, "share_input_output_layers") &&
        !has_key(j, "tie_embeddings")) {
        if (class_default(out.type, "tie_word_embeddings", 1) == 0) {
            r.traits &= ~kTie;   // the class's own default where this table knows it
            said.push_back("embeddings untied (the " + out.type + " class default)");
        } else {
            said.push_back("embeddings tied (no tie_word_embeddings: transformers' default, which save_pretrained omits when true)");
        }
    }

    // mamba_ssm's MixerModel: d_intermediate 0 is no MLP in any block (nn.Identity).
    const bool no_mlp =
        has_key(j, "d_intermediate") && j["d_intermediate"].is_number_integer() && j["d_intermediate"].get<long long>() == 0;
    if (no_mlp) {
        r.traits |= kNoMlp;
        f.mark("d_intermediate");
        said.push_back("no MLP (d_intermediate 0)");
    }
    // The core fields, all named at once when missing.
    std::vector<std::string> missing;
    if (!has_layer_count(j)) missing.push_back(spelled(F::n_layers));
    if (!has_any(j, F::hidden)) missing.push_back(spelled(F::hidden));
    if (!has_any(j, F::vocab)) missing.push_back(spelled(F::vocab));
    const bool pure_recurrent = r.attn == Attn::granite;
    if (!pure_recurrent && !has_any(j, F::n_heads)) missing.push_back(spelled(F::n_heads));
    const bool mlp_width = has_any(j, F::intermediate) || has_any(j, F::moe_intermediate) || has_key(j, "expansion_ratio") ||
                           has_key(j, "mlp_ratio") || has_key(j, "ffn_multipliers") || has_key(j, "block_configs");
    if (!mlp_width && !no_mlp && !pure_recurrent && r.attn != Attn::nemotron) {
        // No width under any name: the plain 4 x hidden MLP of GPT-2, BLOOM and Falcon, said.
        r.traits |= kPlainMlp | kFfn4x;
        said.push_back("no MLP width: a plain MLP of 4 x hidden_size (GPT-2, BLOOM, Falcon); give intermediate_size if it is another");
    }
    if (!missing.empty()) {
        std::string list;
        for (const auto& m : missing) list += (list.empty() ? "" : "; ") + m;
        throw_error(f.key("model_type"),
                    "'" + out.type + "' has no row of its own, so it is read by its fields, and these core fields are missing: " + list);
    }

    if (pure_recurrent) {
        // MambaConfig writes intermediate_size = expand x hidden_size: the mixer's inner width,
        // not an MLP; MambaForCausalLM blocks are the mixer alone.
        long long hidden = 0, width = 0, expand = 2;
        for (const char* k : spellings(F::hidden))
            if (has_key(j, k) && j[k].is_number_integer()) {
                hidden = j[k].get<long long>();
                break;
            }
        if (has_key(j, "intermediate_size") && j["intermediate_size"].is_number_integer()) width = j["intermediate_size"].get<long long>();
        for (const char* k : {"expand", "mamba_expand"})
            if (has_key(j, k) && j[k].is_number_integer()) expand = j[k].get<long long>();
        // MambaConfig's intermediate_size is the mixer's inner width even when `expand` disagrees
        // (falcon-mamba-7b: expand 16, intermediate_size 8192 = 2 x hidden, which the mixer uses).
        const bool mamba_names = has_key(j, "state_size") || has_key(j, "time_step_rank") || has_key(j, "conv_kernel");
        if (width == 0 || width == expand * hidden || mamba_names) {
            r.traits |= kNoMlp | kNorms1;   // MambaBlock: one norm, then the mixer
            if (width > 0) f.mark("intermediate_size");
            said.push_back("no MLP (the mixer is the whole block" +
                           std::string(width > 0 ? "; intermediate_size is its inner width)" : ")"));
        }
    }
    std::string note = "model_type '" + out.type + "' has no row of its own: read by its fields";
    for (const auto& s : said) note += "; " + s;
    notes.push_back(note);
    return r;
}

bool looks_architectural(const std::string& key) {
    // Words that shape the network, by which an unread key is named (a config's token ids,
    // dropout rates and training switches are left alone).
    static const char* kHints[] = {"layer",     "head",         "expert", "hidden", "size",   "dim",    "rank",  "window", "vocab",
                                   "embed",     "intermediate", "ffn",    "kv",     "lora",   "moe",    "inner", "mlp",    "attn",
                                   "attention", "block",        "expand", "state",  "conv",   "ssm",    "mamba", "group",  "proj",
                                   "shared",    "tie",          "mult",   "ratio",  "linear", "router", "topk",  "top_k",  "query"};
    for (const char* h : kHints)
        if (key.find(h) != std::string::npos) return true;
    return key.rfind("n_", 0) == 0 || key.rfind("num_", 0) == 0;   // a count of something
}

// ---------------------------------------------------------------------------------------------
// [SECTION] What a row read by its fields adjusts
// ---------------------------------------------------------------------------------------------

void adjust_by_fields(Reader& f, Dims& d, ModelArch& a, std::vector<std::string>& notes) {
    const json& j = f.object();
    auto flag = [&](const char* k, bool& out) {
        if (!f.has(k)) return false;
        out = f.boolean(k, out);
        return true;
    };
    // Biases under the names families use: `bias` / `use_bias` on every projection (Falcon,
    // StarCoder2), ChatGLM's add_bias_linear / add_qkv_bias, MPT's no_bias.
    bool b = false;
    if (flag("bias", b) || flag("use_bias", b) || flag("add_bias_linear", b)) a.qkv_bias = a.o_bias = a.mlp_bias = b;
    bool qkv = false;
    if (flag("add_qkv_bias", qkv) || flag("qkv_bias", qkv) || flag("use_qkv_bias", qkv)) a.qkv_bias = qkv;
    bool no_bias = false;
    if (flag("no_bias", no_bias) && no_bias) a.qkv_bias = a.o_bias = a.mlp_bias = false;
    // q/k norms.
    for (const char* k : {"qk_layernorm", "qk_norm", "use_qk_layernorm", "attn_qk_norm"}) {
        bool v = false;
        if (flag(k, v)) a.qk_norm = v;
    }
    // Tying under other names (OpenELM share_input_output_layers).
    for (const char* k : {"tie_word_embedding", "share_input_output_layers", "tie_embeddings"}) {
        bool v = a.tied_embeddings;
        if (flag(k, v)) a.tied_embeddings = v;
    }
    // One K/V head (multi_query), or ChatGLM's groups only when multi_query_attention is on.
    bool mq = false, new_arch = false;
    flag("new_decoder_architecture", new_arch);   // Falcon-40B: num_kv_heads, whatever multi_query says
    if (flag("multi_query", mq) && mq && !new_arch) d.kv_heads = 1;
    bool mqa = true;
    if (flag("multi_query_attention", mqa) && !mqa) d.kv_heads = d.heads;
    // Learned absolute positions (GPT-2-style "absolute", or GPT-2's n_positions with no rotary
    // or ALiBi key); RoPE and ALiBi keep no table.
    if (f.has("position_embedding_type")) {
        const std::string t = f.text("position_embedding_type", "");
        if (t == "absolute" || t == "learned") a.learned_positions = a.max_context;
    } else if (j.contains("n_positions")) {
        bool rotary = false;
        for (auto it = j.begin(); it != j.end(); ++it)
            rotary = rotary || it.key().find("rope") != std::string::npos || it.key().find("rotary") != std::string::npos ||
                     it.key().find("alibi") != std::string::npos;
        if (!rotary) a.learned_positions = a.max_context;
    }
    // MLP widths as ratios: MPT expansion_ratio, mlp_ratio x hidden; OpenELM's ffn_multipliers,
    // one per layer, rounded as its make_divisible(v, ffn_dim_divisor) does (to the nearest
    // multiple, at least the divisor, one more step when that lost over 10%).
    if (f.has("expansion_ratio") || f.has("mlp_ratio")) {
        const json* r = f.find(f.has("expansion_ratio") ? "expansion_ratio" : "mlp_ratio");
        if (!r->is_number() || !(r->get<double>() > 0) || r->get<double>() > 64)
            throw_error(f.key(f.has("expansion_ratio") ? "expansion_ratio" : "mlp_ratio"), "must be a number in (0, 64]");
        d.dense_width = int(std::lround(r->get<double>() * a.hidden));
    }
    if (f.has("ffn_multipliers")) {
        const json* m = f.find("ffn_multipliers");
        const long long divisor = std::max(1LL, f.integer("ffn_dim_divisor", 256));
        if (!m->is_array()) throw_error(f.key("ffn_multipliers"), "must be a list of numbers, one per layer");
        for (const json& x : *m) {
            if (!x.is_number() || !(x.get<double>() > 0) || x.get<double>() > 64)
                throw_error(f.key("ffn_multipliers"), "must hold numbers in (0, 64], got " + x.dump());
            const double v = x.get<double>() * a.hidden;
            long long w = std::max(divisor, (long long)(v + double(divisor) / 2.0) / divisor * divisor);
            if (double(w) < 0.9 * v) w += divisor;
            d.dense_widths.push_back(w);
        }
    }
    // LFM2 (Lfm2MLP): with block_auto_adjust_ff_dim the SwiGLU width is int(2 x intermediate_size / 3),
    // times block_ffn_dim_multiplier, rounded up to block_multiple_of (LFM2-1.2B: 12288 -> 8192).
    if (f.boolean("block_auto_adjust_ff_dim", false)) {
        const long long given = f.integer(F::intermediate, 0);
        long long w = given * 2 / 3;
        if (const json* m = f.find("block_ffn_dim_multiplier"); m && m->is_number()) w = (long long)(m->get<double>() * double(w));
        const long long multiple = std::max(1LL, f.integer("block_multiple_of", 256));
        w = (w + multiple - 1) / multiple * multiple;
        if (w > 0 && w <= Reader::kMaxDim) {
            d.dense_width = int(w);
            d.dense_width_replaces = true;
            notes.push_back("block_auto_adjust_ff_dim: the MLP is " + std::to_string(w) +
                            " wide (2/3 of intermediate_size, rounded up to " + std::to_string(multiple) + ")");
        }
    }
    // mlp_type (StarCoder2 "default": up and down) confirms the activation's reading or says gated.
    if (f.has("mlp_type")) {
        const std::string t = f.text("mlp_type", "");
        if (t == "swiglu" || t == "geglu" || t == "gated" || t == "glu")
            a.mlp = MlpKind::gated;
        else if (t == "default" || t == "mlp" || t == "plain" || t == "fc")
            a.mlp = MlpKind::plain;
    }
    // mamba_ssm's MixerModel pads the vocabulary to a multiple (pad_vocab_size_multiple).
    if (f.has("pad_vocab_size_multiple")) {
        const long long m = std::max(1LL, f.integer("pad_vocab_size_multiple", 1));
        a.vocab = (a.vocab + m - 1) / m * m;
    }
    (void)j;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] What only rows read by their fields use: experts placed by their fields, experts of
//           other modalities, mamba_ssm's format
// ---------------------------------------------------------------------------------------------

// Which layers carry experts, for a row read by its fields (Moe::fields). The families'
// spellings, each with the alignment of the family that introduced it:
//   mlp_layer_types ["dense" | "sparse"] (DeepseekV32Config, GlmMoeDsaConfig), moe_layers
//   (Llama4TextConfig), mlp_only_layers (Qwen2MoeConfig): explicit lists;
//   first_k_dense_replace (DeepSeek, GLM) and its other names: dense layers first, then
//   moe_layer_freq (DeepSeek's own code: MoE when i % freq == 0);
//   decoder_sparse_step (Qwen2-MoE), interleave_moe_layer_step (Llama 4), moe_layer_interval
//   (ERNIE 4.5): MoE when (i + 1) % step == 0; expert_layer_period / _offset (Jamba);
//   none of them: every layer.
void fields_moe_plan(Reader& f, std::vector<Plan>& plan, long long experts) {
    const int n = int(plan.size());
    std::vector<int> moe(std::size_t(n), experts > 1 ? 1 : 0);
    if (experts <= 1) {
        for (int i = 0; i < n; ++i) plan[std::size_t(i)].mlp = LayerMlpKind::dense;
        return;
    }
    auto check_index = [&](const char* key, long long i) {
        if (i >= n) throw_error(f.key(key), "names layer " + std::to_string(i) + " of " + std::to_string(n));
    };
    if (f.has("mlp_layer_types")) {
        const std::vector<std::string> t = f.strings("mlp_layer_types");
        if (int(t.size()) != n)
            throw_error(f.key("mlp_layer_types"), "has " + std::to_string(t.size()) + " entries for " + std::to_string(n) + " layers");
        for (int i = 0; i < n; ++i) moe[std::size_t(i)] = t[std::size_t(i)] == "sparse" || t[std::size_t(i)] == "moe";
    } else if (f.has("moe_layers_enum") && f.find("moe_layers_enum")->is_string()) {
        // Step-3 writes its MoE layers as a comma-separated string ("4,5,...,59": Step3TextConfig).
        std::fill(moe.begin(), moe.end(), 0);
        const std::string list = f.text("moe_layers_enum", "");
        std::size_t at = 0;
        while (at < list.size()) {
            const std::size_t comma = std::min(list.find(',', at), list.size());
            const std::string item = list.substr(at, comma - at);
            long long i = -1;
            if (!item.empty() && item.size() < 10 && item.find_first_not_of(" 0123456789") == std::string::npos) i = std::stoll(item);
            if (i < 0) throw_error(f.key("moe_layers_enum"), "must list layer numbers separated by commas, got '" + item + "'");
            check_index("moe_layers_enum", i);
            moe[std::size_t(i)] = 1;
            at = comma + 1;
        }
    } else if (f.has("moe_layers") && f.find("moe_layers")->is_array()) {
        std::fill(moe.begin(), moe.end(), 0);
        for (long long i : f.integers("moe_layers")) {
            check_index("moe_layers", i);
            moe[std::size_t(i)] = 1;
        }
    } else {
        // A list here is one value per modality (ERNIE-4.5-VL moe_layer_start_index [1, 1]): the text one.
        auto first = [&](const char* k, long long fallback) {
            const json* v = f.find(k);
            if (v && v->is_array()) {
                const std::vector<long long> l = f.integers(k);
                return l.empty() ? fallback : l.front();
            }
            return f.integer(k, fallback);
        };
        long long first_dense = 0, last_moe = n - 1;
        for (const char* k : {"first_k_dense_replace", "first_k_dense", "num_dense_layers", "n_dense_layers", "moe_layer_start_index"})
            if (f.has(k)) first_dense = first(k, 0);
        if (f.has("moe_layer_end_index")) {
            const json* e = f.find("moe_layer_end_index");
            const long long v = e->is_array() ? (e->empty() || !(*e)[0].is_number_integer() ? -1 : (*e)[0].get<long long>())
                                              : (e->is_number_integer() ? e->get<long long>() : -1);
            if (v >= 0) last_moe = v;   // -1: the last layer (Ernie4_5_MoeConfig)
        }
        long long step = 1, freq = 1, period = 0, offset = 0;
        // Arctic's moe_layer_frequency: MoE when (i + 1) % frequency == 0 (ArcticDecoderLayer).
        for (const char* k :
             {"decoder_sparse_step", "interleave_moe_layer_step", "moe_layer_interval", "moe_every_n_layers", "moe_layer_frequency"})
            if (f.has(k)) step = f.integer(k, 1);
        // moe_layer_freq is a number in DeepSeek's configs; some write one flag per layer.
        if (f.has("moe_layer_freq") && f.find("moe_layer_freq")->is_array()) {
            const std::vector<long long> flags = f.integers("moe_layer_freq");
            if (int(flags.size()) != n)
                throw_error(f.key("moe_layer_freq"),
                            "has " + std::to_string(flags.size()) + " entries for " + std::to_string(n) + " layers");
            for (int i = 0; i < n; ++i) moe[std::size_t(i)] = flags[std::size_t(i)] != 0;
            step = 0;
        } else if (f.has("moe_layer_freq")) {
            freq = f.integer("moe_layer_freq", 1);
        }
        if (f.has("expert_layer_period")) {
            period = f.integer("expert_layer_period", 1);
            offset = f.integer("expert_layer_offset", 0);
            if (period <= 0 || offset >= period) throw_error(f.key("expert_layer_offset"), "must be smaller than expert_layer_period");
        }
        if (step < 0 || freq <= 0) throw_error(f.key("moe_layer_freq"), "must be at least 1");
        for (int i = 0; i < n && step != 0; ++i) {
            bool m = i >= first_dense && i <= last_moe && i % freq == 0 && (i + 1) % step == 0;
            if (period > 0) m = m && i % period == offset;
            moe[std::size_t(i)] = m;
        }
        if (step == 0 && first_dense > 0)
            for (int i = 0; i < std::min<long long>(first_dense, n); ++i) moe[std::size_t(i)] = 0;
    }
    for (const long long d : f.integers("mlp_only_layers")) {
        check_index("mlp_only_layers", d);
        moe[std::size_t(d)] = 0;
    }
    for (int i = 0; i < n; ++i) plan[std::size_t(i)].mlp = moe[std::size_t(i)] ? LayerMlpKind::moe : LayerMlpKind::dense;
}

// Experts of other modalities beside the text ones in the same layers (ERNIE-4.5-VL:
// moe_num_experts [64, 64], moe_intermediate_size [1536, 512]: text, then vision). The text
// tokens' experts are the layer's; the others are stored weights used by image tokens only,
// reported with the vision part (a tower of their count), as gated MLPs of their width.
void modality_experts(Reader& f, const std::vector<LayerSpec>& layers, ModelArch& a, std::vector<std::string>& notes) {
    const json* counts = f.find(F::experts);
    if (!counts || !counts->is_array() || counts->size() < 2 || counts->size() > 3 || counts->size() == layers.size()) return;
    const json* widths = f.find(F::moe_intermediate);
    int moe_layers = 0;
    for (const LayerSpec& l : layers) moe_layers += l.is_moe();
    double params = 0;
    for (std::size_t k = 1; k < counts->size(); ++k) {
        const long long n = (*counts)[k].is_number_integer() ? (*counts)[k].get<long long>() : 0;
        long long w = 0;
        if (widths && widths->is_array() && k < widths->size() && (*widths)[k].is_number_integer())
            w = (*widths)[k].get<long long>();
        else if (widths && widths->is_number_integer())
            w = widths->get<long long>();
        params += double(moe_layers) * double(n) * 3.0 * a.hidden * double(w);
    }
    if (params <= 0) return;
    TowerSpec t;
    t.part = "vision";
    t.params_override = params;
    a.towers.push_back(t);
    notes.push_back("moe_num_experts lists one group per modality: the first is the text model's; the others (" +
                    std::to_string(params / 1e9).substr(0, 5) + "B) are counted with the vision part");
}

// mamba_ssm's own format (state-spaces/*: d_model, n_layer, ssm_cfg {"layer": "Mamba2"}).
RecurrentSpec read_mamba_ssm(const FamilyRow& row, Reader& f, int hidden) {
    RecurrentSpec r;
    const json* c = f.find("ssm_cfg");
    if (!c->is_object()) throw_error(f.key("ssm_cfg"), "must be an object");
    auto checked_int = [&](long long v, const std::string& key) {
        if (v <= 0 || v > 2147483647LL) throw_error(key, "gives a width of " + std::to_string(v) + ", outside 1 to 2^31 - 1");
        return int(v);
    };
    // mamba_ssm's own format (mamba_ssm/modules/mamba_simple.py Mamba, mamba2.py Mamba2
    // defaults): Mamba d_state 16, d_conv 4, expand 2, dt_rank ceil(d_model / 16); Mamba2
    // d_state 128, d_conv 4, expand 2, headdim 64, ngroups 1; in_proj without bias, conv with.
    const long long expand = first_int(*c, {"expand"}, 2);
    r.d_conv = int(first_int(*c, {"d_conv"}, 4));
    r.conv_bias = !(c->contains("conv_bias") && (*c)["conv_bias"].is_boolean() && !(*c)["conv_bias"].get<bool>());
    r.proj_bias = c->contains("bias") && (*c)["bias"].is_boolean() && (*c)["bias"].get<bool>();
    const long long d_inner = expand * hidden;
    if (row.mixer == Mixer::mamba2) {
        r.kind = RecurrentKind::mamba2;
        r.head_dim = int(first_int(*c, {"headdim"}, 64));
        r.n_heads = int(d_inner / std::max(1, r.head_dim));
        r.d_inner = checked_int(1LL * r.n_heads * r.head_dim, f.key("ssm_cfg"));
        r.d_state = int(first_int(*c, {"d_state"}, 128));
        r.n_groups = int(first_int(*c, {"ngroups"}, 1));
    } else {
        r.kind = RecurrentKind::mamba;
        r.d_inner = checked_int(d_inner, f.key("ssm_cfg"));
        r.d_state = int(first_int(*c, {"d_state"}, 16));
        r.dt_rank = int(first_int(*c, {"dt_rank"}, (hidden + 15) / 16));
    }
    return r;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Encoder-decoders under the BART family's names
// ---------------------------------------------------------------------------------------------

// BART / mBART / Marian / M2M-100 / Pegasus / Whisper (transformers modeling_bart.py and its
// copies): encoder_layers encoder layers and decoder_layers decoder layers (self attention,
// cross attention, a plain MLP of encoder_ffn_dim / decoder_ffn_dim, biases on every
// projection, LayerNorms), one shared embedding tied to the head (tie_word_embeddings, default
// true in these classes). Position tables: Whisper keeps a table of max_source_positions rows for
// its encoder and max_target_positions for its decoder (WhisperEncoder / WhisperDecoder
// embed_positions, both stored); BART's learned tables (max_position_embeddings + 2 rows a
// stack) and the sinusoidal ones of Marian / M2M-100 / Pegasus are not told apart by any key, so
// none is counted (BART-large: 2 x 1,026 x 1,024 = 2.1M of 406M) and the note says so.
// Whisper's audio front end (num_mel_bins): conv1 num_mel_bins x d_model x 3 and conv2
// d_model x d_model x 3 with biases (WhisperEncoder), counted as the audio part.
void build_seq2seq(Reader& f, ModelArch& a, std::vector<std::string>& notes) {
    a.kind = ArchKind::encoder_decoder;
    auto required = [&](const char* k) {
        const long long v = f.integer(k, 0);
        if (v <= 0) throw_error(f.key(k), "is missing (an encoder-decoder read by its BART-style names needs it)");
        return v;
    };
    a.n_layers = int(required("encoder_layers"));
    a.n_decoder_layers = int(required("decoder_layers"));
    f.mark("num_hidden_layers");   // BART-style configs repeat encoder_layers there
    a.hidden = int(f.integer(F::hidden, 0, true));
    a.n_heads = int(f.has("encoder_attention_heads") ? required("encoder_attention_heads") : required("decoder_attention_heads"));
    const long long dec_heads = f.integer("decoder_attention_heads", a.n_heads);
    if (a.n_heads <= 0 || a.hidden % a.n_heads != 0) throw_error(f.key("encoder_attention_heads"), "must divide d_model");
    a.n_kv_heads = a.n_heads;
    a.head_dim = a.v_head_dim = a.hidden / a.n_heads;
    const long long enc_ffn = f.integer("encoder_ffn_dim", 4LL * a.hidden);
    const long long dec_ffn = f.integer("decoder_ffn_dim", enc_ffn);
    a.intermediate = int(enc_ffn);
    a.vocab = f.integer(F::vocab, 0, true);
    // Whisper: the decoder's context is max_target_positions (448); others max_position_embeddings.
    const long long source = f.integer("max_source_positions", 0, Reader::kMaxLarge);
    const long long target = f.integer("max_target_positions", 0, Reader::kMaxLarge);
    a.max_context = int(target > 0 ? target : f.integer("max_position_embeddings", 1024, Reader::kMaxLarge));
    if (source > 0 && target > 0) a.learned_positions = source + target;
    a.mlp = MlpKind::plain;
    a.norm = NormKind::layer;
    a.qkv_bias = a.o_bias = a.mlp_bias = true;
    a.tied_embeddings = f.boolean("tie_word_embeddings", true);
    f.boolean("scale_embedding", false);   // a multiplier, no weights
    f.text("activation_function", "gelu");
    std::vector<LayerSpec> layers = uniform_stack(a);
    for (LayerSpec& l : layers)
        if (l.cross_attention) {
            l.attn.n_heads = l.attn.n_kv_heads = int(dec_heads);
            l.attn.head_dim = l.attn.v_head_dim = dec_heads > 0 ? a.hidden / int(dec_heads) : a.head_dim;
            l.mlp.intermediate = int(dec_ffn);
        }
    set_stack(a, layers);
    if (const long long mel = f.integer("num_mel_bins", 0); mel > 0) {
        TowerSpec t;
        t.part = "audio";
        const double d = a.hidden;
        t.params_override = double(mel) * d * 3 + d + d * d * 3 + d;
        a.towers.push_back(t);
    }
    if (a.learned_positions == 0)
        notes.push_back(
            "position tables are not counted: learned in BART / mBART (2 x (max_position_embeddings + 2) x d_model), "
            "sinusoidal in Marian / M2M-100 / Pegasus, and no key tells which");
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Heterogeneous blocks
// ---------------------------------------------------------------------------------------------

// DeciLM / Nemotron-NAS (Llama-3.1-Nemotron-51B, Llama-3.3-Nemotron-Super-49B; their remote
// block_config.py): one {attention, ffn} entry per layer. attention: no_op (no attention),
// replace_with_linear (one hidden x hidden linear), else n_heads_in_group query heads per K/V
// head, window_length a sliding window; ffn: no_op, replace_with_linear, else a gated MLP of
// _ffn_mult_to_intermediate_size(ffn_mult, hidden) = int(2 x ffn_mult x hidden / 3) rounded up
// to a multiple of 256.
void apply_block_configs(Reader& f, int hidden, int heads, std::vector<LayerSpec>& layers, std::vector<std::string>& notes) {
    const json* blocks = f.find("block_configs");
    if (!blocks) return;
    const std::string key = f.key("block_configs");
    if (!blocks->is_array()) throw_error(key, "must be a list of {attention, ffn} objects, one per layer");
    if (blocks->size() != layers.size())
        throw_error(key, "has " + std::to_string(blocks->size()) + " entries for " + std::to_string(layers.size()) + " layers");
    auto flag = [](const json& o, const char* k) { return o.contains(k) && o[k].is_boolean() && o[k].get<bool>(); };
    int linear = 0;
    for (std::size_t i = 0; i < layers.size(); ++i) {
        const json& b = (*blocks)[i];
        const std::string at = key + "[" + std::to_string(i) + "]";
        if (!b.is_object()) throw_error(at, "must be an object with attention and ffn");
        LayerSpec& l = layers[i];
        if (b.contains("attention") && b["attention"].is_object()) {
            const json& a = b["attention"];
            if (flag(a, "no_op") || flag(a, "replace_with_linear")) {
                l.attn_linear = flag(a, "replace_with_linear");
                linear += l.attn_linear;
                l.attn = AttentionSpec{};
                l.attn.kind = AttnKind::none;
            } else {
                const long long g = first_int(a, {"n_heads_in_group"}, 1);
                if (g <= 0 || heads % g != 0) throw_error(at + ".attention.n_heads_in_group", "must divide num_attention_heads");
                l.attn.n_kv_heads = int(heads / g);
                const long long w = first_int(a, {"window_length"}, 0);
                if (w > 0) {
                    l.attn.kind = AttnKind::sliding;
                    l.attn.window = int(w);
                }
            }
        }
        if (b.contains("ffn") && b["ffn"].is_object()) {
            const json& m = b["ffn"];
            if (flag(m, "no_op") || flag(m, "replace_with_linear")) {
                l.mlp_linear = flag(m, "replace_with_linear");
                linear += l.mlp_linear;
                l.mlp = LayerMlpSpec{};
                l.mlp.kind = LayerMlpKind::none;
            } else if (m.contains("ffn_mult") && m["ffn_mult"].is_number()) {
                const double mult = m["ffn_mult"].get<double>();
                if (!(mult > 0) || mult > 64) throw_error(at + ".ffn.ffn_mult", "must be in (0, 64]");
                long long w = (long long)(2.0 * mult * hidden / 3.0);
                w = (w + 255) / 256 * 256;
                l.mlp = LayerMlpSpec{};
                l.mlp.kind = LayerMlpKind::dense;
                l.mlp.intermediate = int(w);
            }
        }
    }
    if (linear) notes.push_back(std::to_string(linear) + " blocks replace attention or MLP with one hidden x hidden linear map");
}

}   // namespace gpusizer::hf
