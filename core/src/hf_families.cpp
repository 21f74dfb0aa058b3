// hf_families.cpp: Hugging Face config.json -> ModelArch for the 2025-2026 model types, as tables.
//
// [SECTION] Entry point helpers
// [SECTION] Entry point: the row, the fields, the layer plan, one LayerSpec per layer, MTP
//           layers, per-layer embeddings, towers, the native format, the warnings
//
// The importer's other parts, one concern each (what they share: hf_families_internal.hpp):
//   hf_rows.cpp          the tables a new architecture adds a row to: field aliases, the keys no
//                        family's memory depends on, one row per model_type, class defaults
//   hf_reader.cpp        reading a config object, with a record of what was read
//   hf_stack.cpp         the layer-pattern expanders, the recurrent mixers, the towers
//   hf_quantization.cpp  the native storage format (quantization_config)
//
// Sources: each row names the transformers files (github.com/huggingface/transformers,
// src/transformers/models/<type>/) whose class defaults and `__post_init__` derivations it
// reproduces. Where a derivation lives in the modeling file, the expander's comment quotes it.
#include "hf_families.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "gpusizer/error.hpp"
#include "hf_families_internal.hpp"
#include "json_internal.hpp"

namespace gpusizer {

using nlohmann::json;
using namespace hf;   // the importer's parts (hf_families_internal.hpp)

namespace {

// ---------------------------------------------------------------------------------------------
// [SECTION] Entry point helpers
// ---------------------------------------------------------------------------------------------

std::set<std::string> words(const char* s) {
    // Split by hand: an istringstream would pull the locale machinery (~50 KB) into the widget's
    // WebAssembly module.
    std::set<std::string> out;
    std::string w;
    for (const char* p = s;; ++p) {
        if (*p == ' ' || *p == '\0') {
            if (!w.empty()) out.insert(w);
            w.clear();
            if (*p == '\0') break;
        } else {
            w += *p;
        }
    }
    return out;
}

// Dropout in any layer: training keeps its masks among the activations (GPT-3 style). The
// spellings of transformers' classes (GPT-2 resid/attn/embd_pdrop, BERT *_prob, T5 dropout_rate).
bool any_dropout(Reader& f) {
    for (const char* k : {"resid_pdrop", "attn_pdrop", "embd_pdrop", "attention_dropout", "hidden_dropout", "hidden_dropout_prob",
                          "attention_probs_dropout_prob", "dropout_rate", "dropout", "attention_dropout_prob"}) {
        const json* v = f.find(k);
        if (v && v->is_number() && v->get<double>() > 0.0) return true;
    }
    return false;
}

std::string join(const std::vector<std::string>& v) {
    std::string s;
    for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
    return s;
}

const json* sub_object(const json& j, const std::string& path) {
    const json* cur = &j;
    std::size_t start = 0;
    while (start <= path.size()) {
        const std::size_t dot = path.find('.', start);
        const std::string part = path.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
        auto it = cur->find(part);
        if (it == cur->end() || !it->is_object()) return nullptr;
        cur = &*it;
        if (dot == std::string::npos) break;
        start = dot + 1;
    }
    return cur;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// [SECTION] Entry point
// ---------------------------------------------------------------------------------------------

bool hf_family_known(const std::string& model_type) {
    const FamilyRow* r = find_row(model_type);
    return r && !(r->traits & kTextOnly);
}

const std::vector<std::string>& hf_family_types() {
    static const std::vector<std::string> kTypes = [] {
        std::vector<std::string> v;
        for (const FamilyRow& r : rows())
            if (!(r.traits & kTextOnly)) v.push_back(r.type);
        return v;
    }();
    return kTypes;
}

namespace {

// Where the language model lives, and which row reads it.
struct Located {
    const json* text = nullptr;   // the object the language model's fields are in
    bool text_is_root = true;     // the fields are at the top level (no wrapper)
    std::string wrapper;          // the wrapper's path to them ("text_config", "llm_config", ...)
    std::string prefix = "hf_config.";
    const FamilyRow* top = nullptr;   // the top level's row (null: none names its model_type)
    const FamilyRow* row = nullptr;   // the row that reads the text object
    bool inferred = false;        // no row names this model_type: read by its fields (hf_infer.cpp)
    std::string inner_type;       // the text object's own model_type ("" = none)
    json flat;                    // inferred rows: the text object with attn_config / ffn_config merged in
    InferredRow storage;
};

// The wrappers' keys for the language model of a multimodal checkpoint, in the order tried:
// transformers' text_config (LLaVA, Qwen2-VL's successors, Gemma 3, Mistral 3), DeepSeek-VL2's
// language_config, InternVL's llm_config, the omni models' thinker_config.text_config.
constexpr const char* kTextPaths[] = {"text_config", "language_config", "llm_config", "thinker_config.text_config",
                                      "text_model_config", "language_model_config"};

std::string own_type(const json& j) {
    auto t = j.find("model_type");
    return t != j.end() && t->is_string() ? t->get<std::string>() : std::string();
}

void locate(const json& root, const std::string& top_type, Located& at, std::vector<std::string>& notes) {
    const FamilyRow* top = at.top;
    at.text = &root;
    if (top && *top->text_path) {
        at.row = top;
        const json* sub = sub_object(root, top->text_path);
        if (!sub) {
            // Text-only copies ship the text fields at top level (Gemma3ForCausalLM & co).
            if (!has_layer_count(root))
                throw_error(std::string("hf_config.") + top->text_path,
                            "is missing: a " + top_type + " config keeps its language model there");
            return;
        }
        at.text = sub;
        at.text_is_root = false;
        at.wrapper = top->text_path;
        at.prefix = std::string("hf_config.") + top->text_path + ".";
        at.inner_type = own_type(*sub);
        at.row = find_row(at.inner_type.empty() ? top->text_type : at.inner_type);
        // A language model of a type no row names inside a known wrapper (Mistral-Small-4's
        // mistral4 text_config in a mistral3 wrapper: MLA and experts) is read by its fields, as
        // it would be on its own; the wrapper's row would have read it as its usual text model.
        if (!at.row && has_layer_count(*sub)) {
            notes.push_back(std::string(top->text_path) + ".model_type '" + at.inner_type + "' has no row: read by its fields");
            at.inferred = true;
            return;
        }
        if (!at.row) {
            notes.push_back(std::string(top->text_path) + ".model_type '" + at.inner_type + "' is read as " + top->text_type);
            at.row = find_row(top->text_type);
        }
        if (!at.row) throw_error("hf_config.model_type", "internal: no row for " + std::string(top->text_type));
        return;
    }
    if (top) {
        at.row = top;
        return;
    }
    // No row for the top level: the fields at the top, else a wrapper's language model.
    if (!has_layer_count(root)) {
        for (const char* path : kTextPaths) {
            const json* sub = sub_object(root, path);
            // A text_config may hold only what differs from its class (Qwen2-Audio's qwen2 and
            // LLaVA-NeXT-Video's llama: no layer count): taken when its model_type has a row
            // that knows the class's layer count.
            const std::string sub_type = sub ? own_type(*sub) : std::string();
            const FamilyRow* sub_row = find_row(sub_type);
            const bool by_class = sub_row && !*sub_row->text_path && !sub_row->build && class_default(sub_type, "num_hidden_layers", 0) > 0;
            if (!sub || !(has_layer_count(*sub) || by_class)) continue;
            at.text = sub;
            at.text_is_root = false;
            at.wrapper = path;
            at.prefix = std::string("hf_config.") + path + ".";
            at.inner_type = own_type(*sub);
            notes.push_back(std::string("read the language model from ") + path + "; the other parts are counted where their "
                                                                                   "config is understood (vision_config, audio_config)");
            break;
        }
    }
    if (!at.text_is_root) {
        const FamilyRow* inner = find_row(at.inner_type);
        if (inner && !*inner->text_path && !inner->build) {
            at.row = inner;
            return;
        }
    }
    at.inferred = true;
}

// What every row ends with: towers beside the text model, a stated total, the checkpoint's own
// storage, the notes and the keys nobody read; then the checks.
void finish(const json& root, const Located& at, Reader& f, ModelArch& a, std::vector<std::string>& notes,
            std::vector<std::string>* warnings, std::vector<std::string>* not_understood) {
    // Towers: vision_config / audio_config beside the language model (thinker_config for omni models).
    const json* tower_root = &root;
    if (at.wrapper == "thinker_config.text_config") tower_root = sub_object(root, "thinker_config");
    if (tower_root) {
        for (const char* part : {"vision", "audio"}) {
            const std::string k = std::string(part) + "_config";
            auto it = tower_root->find(k);
            if (it != tower_root->end() && it->is_object()) read_tower(*it, part, a.hidden, a, notes);
        }
    }
    if (a.model_type == "qwen3_omni_moe" && root.contains("talker_config"))
        notes.push_back("talker_config / code2wav_config: the speech generator's weights are not counted");

    a.num_parameters_override = 0;
    if (const json* np = f.find("num_parameters")) {
        if (!np->is_number() || !(np->get<double>() > 0) || !std::isfinite(np->get<double>()))
            throw_error(f.key("num_parameters"), "must be a positive number");
        a.num_parameters_override = np->get<double>();
    }
    read_native_format(root, a, warnings);

    if (warnings || not_understood) {
        if (warnings)
            for (const auto& n : notes) warnings->push_back("hf_config: " + n);
        std::set<std::string> extra = words(at.row->irrelevant);
        if (at.top) for (const auto& w : words(at.top->irrelevant)) extra.insert(w);
        std::vector<std::string> ignored = f.unread(extra);
        if (!at.text_is_root) {
            Reader outer(root, "hf_config.");
            for (const char* k : {"text_config", "vision_config", "audio_config", "thinker_config", "model_type", "tie_word_embeddings",
                                  "talker_config", "code2wav_config", "vocab_size"})
                outer.mark(k);
            if (!at.wrapper.empty()) outer.mark(at.wrapper.substr(0, at.wrapper.find('.')).c_str());
            for (const auto& k : outer.unread(extra)) ignored.push_back(k);
        }
        // Rows read by their fields, and the older families, name only what looks architectural.
        if (at.row->traits & kArchKeysOnly)
            ignored.erase(std::remove_if(ignored.begin(), ignored.end(), [](const std::string& k) { return !looks_architectural(k); }),
                          ignored.end());
        if (not_understood) not_understood->insert(not_understood->end(), ignored.begin(), ignored.end());
        if (!ignored.empty() && warnings) warnings->push_back("hf_config: not understood, ignored: " + join(ignored));
    }
    validate(a);
}

}  // namespace

ModelArch arch_from_hf_json(const json& root, std::vector<std::string>* warnings, std::vector<std::string>* not_understood) {
    if (!root.is_object()) throw_error("hf_config", "must be a JSON object (the contents of config.json)");
    std::vector<std::string> notes;   // become warnings
    std::string top_type;
    if (auto t = root.find("model_type"); t != root.end() && !t->is_null()) {
        if (!t->is_string()) throw_error("hf_config.model_type", "must be a string, got " + t->dump());
        top_type = t->get<std::string>();
    }
    Located loc;
    loc.top = find_row(top_type);
    locate(root, top_type, loc, notes);
    if (loc.inferred) {
        loc.flat = flattened_text(*loc.text);
        loc.text = &loc.flat;
    }
    Reader f(*loc.text, loc.prefix);
    f.mark("model_type");
    // The sub-configs flattened_text merged in: their keys are read one by one (DBRX, MPT).
    if (loc.inferred)
        for (const char* sub : {"attn_config", "ffn_config", "moe_config", "attention_config", "mlp_config", "attn_cfg"})
            if (loc.text->contains(sub) && (*loc.text)[sub].is_object()) f.mark(sub);
    f.modality_lists = loc.inferred;
    // The object read by its fields names the type (a wrapper's text_config: aria_text, not aria).
    if (loc.inferred) loc.row = &infer_row(f, loc.inner_type.empty() ? top_type : loc.inner_type, loc.storage, notes);
    const FamilyRow* row = loc.row;
    const json* text = loc.text;

    ModelArch a;
    a.id = "custom";
    a.model_type = top_type.empty() ? (loc.inner_type.empty() ? std::string("unknown") : loc.inner_type) : top_type;
    a.kind = ArchKind::decoder;
    a.dropout = any_dropout(f);
    if (row->build) {
        row->build(f, a, notes);
        finish(root, loc, f, a, notes, warnings, not_understood);
        return a;
    }
    const unsigned tr = row->traits;
    a.norm = NormKind::rms;
    a.mlp = (tr & kPlainMlp) ? MlpKind::plain : MlpKind::gated;
    if (tr & kLayerNorm) a.norm = NormKind::layer;
    a.qk_norm = tr & kQkNorm;
    a.norms_per_layer = (tr & kNorms4) ? 4 : (tr & kNorms1) ? 1 : 2;

    // A wrapper's text_config may leave core fields to its class (Qwen2-Audio's qwen2 text_config
    // holds only intermediate_size and vocab_size): the class default where this table knows it,
    // said, as transformers fills it in; else the key is required.
    // A config at the top level must name them (a llama config.json without num_hidden_layers is refused).
    auto core = [&](F field, const char* key, bool required) {
        const long long v = loc.text_is_root ? 0 : class_default(row->type, key, 0);
        if (v > 0 && !f.find(field)) {
            notes.push_back(std::string(key) + " is absent: the " + row->type + " class default " + std::to_string(v) + " is used");
            return v;
        }
        return f.integer(field, 0, required);
    };
    int n_layers = int(core(F::n_layers, "num_hidden_layers", row->attn != Attn::nemotron));
    a.hidden = int(core(F::hidden, "hidden_size", true));
    // vocab_size: the class default where this table knows it (transformers uses it silently; the
    // importer says so), else the key is required.
    if (const long long v = class_default(row->type, "vocab_size", 0); v > 0 && !f.find(F::vocab)) {
        a.vocab = v;
        notes.push_back("vocab_size is absent: the " + std::string(row->type) + " class default " + std::to_string(v) + " is used");
    } else {
        a.vocab = f.integer(F::vocab, 0, true);
    }
    // At most 2^31 - 1 (Reader); BLOOM and Falcon (ALiBi) state none: trained at their class's 2048.
    a.max_context = int(f.integer(F::max_pos, class_default(row->type, "max_position_embeddings", 0)));
    // Heads may be one per layer (OpenELM num_query_heads / num_kv_heads): the first layer's here,
    // each layer its own below.
    Dims d;
    d.heads = int(f.single_or_first(F::n_heads, 0));
    if (d.heads == 0 && !f.find(F::n_heads)) {
        // A wrapper's text config may leave the class default in place (SmolVLM's llama
        // text_config has no num_attention_heads: LlamaConfig's 32).
        if (const long long h = class_default(row->type, "num_attention_heads", 0); h > 0) {
            d.heads = int(h);
            notes.push_back("num_attention_heads is absent: the " + std::string(row->type) + " class default " + std::to_string(h) + " is used");
        }
    }
    if (d.heads == 0 && row->mixer == Mixer::none) f.integer(F::n_heads, 0, true);   // names the key
    d.kv_heads = int(f.single_or_first(F::n_kv_heads, d.heads));
    if (d.kv_heads == 0) d.kv_heads = d.heads;
    d.head_dim = d.heads > 0 ? a.hidden / d.heads : 0;
    if (tr & kHeadDimFromHidden) {
        f.mark("head_dim");   // Cohere2Config: head_dim = hidden_size // num_attention_heads, whatever is stored
    } else {
        d.head_dim = int(f.integer(F::head_dim, d.head_dim));
        if (d.head_dim == 0 && d.heads > 0) d.head_dim = a.hidden / d.heads;
    }

    // Tied embeddings: the text config's own key, else the wrapper's, else the class default.
    bool tie = tr & kTie;
    if (f.has("tie_word_embeddings")) tie = f.boolean("tie_word_embeddings", tie);
    else if (!loc.text_is_root && root.contains("tie_word_embeddings") && root["tie_word_embeddings"].is_boolean())
        tie = root["tie_word_embeddings"].get<bool>();
    a.tied_embeddings = tie;

    // Biases.
    const bool attn_bias = f.boolean("attention_bias", tr & kAttnBias);
    a.qkv_bias = (tr & kQkvBiasAlways) || attn_bias;
    a.o_bias = attn_bias && !(tr & kBiasQkvOnly);
    if (f.has("attention_out_bias")) a.o_bias = f.boolean("attention_out_bias", a.o_bias);   // Seed-OSS
    // Some Hub configs (Qwen3-Coder) carry a qkv_bias key no transformers class reads: false
    // changes nothing; true is left to the not-understood warning.
    if (auto qb = text->find("qkv_bias"); qb != text->end() && qb->is_boolean() && !qb->get<bool>()) f.mark("qkv_bias");
    a.mlp_bias = f.boolean("mlp_bias", (tr & kMlpBiasAlways) != 0);
    if (tr & kMlpBias) {
        const bool b = f.boolean("use_bias", false);   // ERNIE 4.5: every projection
        a.qkv_bias = a.qkv_bias || b;
        a.o_bias = a.o_bias || b;
        a.mlp_bias = a.mlp_bias || b;
    }
    if (row->attn == Attn::nemotron) {
        const bool b = f.boolean("use_bias", false);
        a.mlp_bias = a.mlp_bias || b;
    }
    if (f.has("use_qk_norm")) a.qk_norm = f.boolean("use_qk_norm", a.qk_norm) && !(row->attn == Attn::llama4);
    if (row->attn == Attn::llama4) f.mark("use_qk_norm");   // Llama 4: L2 norm without weights
    a.embedding_norm = tr & kEmbeddingNorm;
    if (tr & kLearnedPositions) a.learned_positions = a.max_context;

    // What the family's class says beyond its fields (hf_family_hooks.cpp; hf_infer.cpp for rows
    // read by their fields).
    if (row->adjust) row->adjust(f, d, a, notes);
    const int heads = d.heads;
    const int kv_heads = d.kv_heads;
    const int head_dim = d.head_dim;

    // Sliding window: Qwen2/Qwen3/SmolLM3 carry one that is off unless use_sliding_window.
    int window = row->window;
    if (f.has("sliding_window") || text->contains("sliding_window")) window = int(f.integer("sliding_window", 0));
    if (row->attn == Attn::max_window && !f.boolean("use_sliding_window", false)) window = 0;
    int chunk = 0;
    if (row->attn == Attn::llama4) chunk = text->contains("attention_chunk_size") ? int(f.integer("attention_chunk_size", 0)) : 8192;
    else if (f.has("attention_chunk_size")) chunk = int(f.integer("attention_chunk_size", 0));

    // Experts.
    long long experts = 0;
    if (row->moe != Moe::none) {
        // HunYuanMoEV1Config: num_experts "int or List" (one per layer); the layer pattern
        // reads the first, each layer its own below.
        experts = f.single_or_first(F::experts, class_default(row->type, "num_experts", 0));
        if (row->moe == Moe::gemma4 && !f.boolean("enable_moe_block", false)) experts = 0;
    }

    if (n_layers > 65535) throw_error(f.key("num_hidden_layers"), "must be at most 65535");
    std::vector<Plan> plan = attention_plan(*row, f, n_layers, window, notes);
    if (n_layers > 65535) throw_error(f.key("layers_block_type"), "must list at most 65535 layers");
    a.n_layers = n_layers;
    if (row->attn != Attn::nemotron) moe_plan(*row, f, plan, experts);
    // Two attention blocks per listed layer (hf_rows.cpp class_defaults "blocks_per_layer":
    // LongCat-Flash): each layer becomes two, the first with the layer's experts, the second dense.
    const long long blocks_per_layer = class_default(row->type, "blocks_per_layer", 1);
    if (blocks_per_layer == 2 && n_layers <= 32767) {
        std::vector<Plan> twice;
        twice.reserve(plan.size() * 2);
        for (const Plan& p : plan) {
            twice.push_back(p);
            Plan second = p;
            if (second.mlp == LayerMlpKind::moe) second.mlp = LayerMlpKind::dense;
            twice.push_back(second);
        }
        plan = twice;
        n_layers *= 2;
        a.n_layers = n_layers;
        notes.push_back("each of the " + std::to_string(n_layers / 2) +
                        " layers holds two attention blocks and two dense MLPs beside its "
                        "experts (the " +
                        std::string(row->type) + " class): read as " + std::to_string(n_layers) + " layers");
    }
    if (f.has("zero_expert_num")) {
        f.mark("zero_expert_type");
        notes.push_back("zero_expert_num " + std::to_string(f.integer("zero_expert_num", 0)) +
                        ": zero-computation experts hold no weights; active parameters count every routed slot as a real expert");
    }
    if ((tr & kLastFull) && !plan.empty() && plan.back().attn == AttnKind::sliding) plan.back().attn = AttnKind::full;

    bool double_wide = false;
    // KV-shared layers (Gemma 3n / 4): the last num_kv_shared_layers reuse the last earlier
    // layer of the same type (modeling_gemma3n.py kv_shared_layer_index) and cache nothing.
    if (tr & kKvShare) {
        // Class defaults: Gemma3nTextConfig 15 (E4B), Gemma4TextConfig 0.
        const long long shared = f.integer("num_kv_shared_layers", std::string(row->type).rfind("gemma3n", 0) == 0 ? 15 : 0);
        if (shared > n_layers) throw_error(f.key("num_kv_shared_layers"), "must not exceed num_hidden_layers");
        // Every layer shared: a drafter that reads its target's cache (Gemma 4's assistant models).
        if (shared == n_layers && shared > 0) notes.push_back("every layer reads another model's K/V (num_kv_shared_layers = num_hidden_layers): no cache of its own");
        for (long long i = n_layers - shared; i < n_layers; ++i) plan[std::size_t(i)].kv_shared = true;
        // use_double_wide_mlp (Gemma 3n E2B / Gemma4DecoderLayer): the KV-shared layers' MLP is
        // 2 x intermediate_size wide.
        double_wide = f.boolean("use_double_wide_mlp", false) && shared > 0 && shared < n_layers;
    }

    // Dimensions per kind.
    std::vector<long long> dense_widths;   // Gemma 3n: intermediate_size may be a per-layer list
    if (const json* iv = f.find("intermediate_size"); iv && iv->is_array()) dense_widths = f.integers("intermediate_size");
    if (dense_widths.empty()) dense_widths = d.dense_widths;   // a row's hook: widths by ratio, one per layer
    int dense_width = dense_widths.empty() ? int(core(F::intermediate, "intermediate_size", false)) : int(dense_widths.front());
    if (dense_width == 0 || d.dense_width_replaces) dense_width = d.dense_width;   // a row's hook: a ratio (hf_infer.cpp)
    if (dense_width == 0 && (tr & kFfn4x)) dense_width = int(std::min<long long>(4LL * a.hidden, Reader::kMaxDim));
    int dense_mlp = dense_width;
    if (row->attn == Attn::llama4) dense_mlp = int(f.integer("intermediate_size_mlp", 16384));
    if (row->moe == Moe::granite) dense_mlp = int(f.integer(F::shared_intermediate, 1024));
    int expert_width = int(f.single_or_first(F::moe_intermediate, 0));
    // gpt-oss, MiniMax-M2, Mixtral: intermediate_size per expert; read by fields: the same convention.
    if ((row->moe == Moe::all || row->moe == Moe::fields) && expert_width == 0) expert_width = dense_width;
    if (row->moe == Moe::llama4 || row->moe == Moe::jamba || row->moe == Moe::granite) expert_width = dense_width;
    if (row->moe == Moe::hunyuan && expert_width == 0) expert_width = dense_width;
    const int k_active = int(f.single_or_first(F::experts_per_tok, class_default(row->type, "num_experts_per_tok", 0)));
    int n_shared = 0, shared_width = 0;
    switch (row->moe) {
        case Moe::qwen_sparse:
            shared_width = int(f.integer(F::shared_intermediate, 0));
            n_shared = shared_width > 0 ? 1 : 0;   // Qwen2MoeSparseMoeBlock: one shared_expert + shared_expert_gate
            break;
        case Moe::first_k_dense:
        case Moe::ernie:
            // Ernie4_5_MoeConfig moe_num_shared_experts 2; DeepSeek / GLM classes n_shared_experts 1.
            n_shared = int(f.integer(F::shared_experts, row->moe == Moe::ernie ? 2 : class_default(row->type, "n_shared_experts", 0)));
            shared_width = expert_width;           // DeepSeek: n_shared x moe_intermediate_size
            break;
        case Moe::llama4:
            n_shared = 1;                           // Llama4TextMoe.shared_expert of intermediate_size
            shared_width = dense_width;
            break;
        case Moe::nemotron:
            n_shared = int(f.integer(F::shared_experts, 1));
            shared_width = int(f.integer(F::shared_intermediate, 7688));
            expert_width = int(f.integer(F::moe_intermediate, 7688));
            break;
        case Moe::gemma4:
            n_shared = 1;                           // the dense MLP runs beside the experts
            shared_width = dense_width;
            break;
        case Moe::granite:
            n_shared = 1;                           // shared_mlp beside block_sparse_moe
            shared_width = dense_mlp;
            break;
        case Moe::fields:
            // Read by its fields: shared experts when a count or a width says so, of the routed
            // experts' width unless their own is given (DeepSeek's n_shared x moe_intermediate_size).
            shared_width = int(f.single_or_first(F::shared_intermediate, 0));
            // Without a key: one shared expert when a width is given, else the class's default
            // where this table knows one (AriaTextConfig moe_num_shared_experts 2).
            n_shared = int(f.single_or_first(F::shared_experts, shared_width > 0 ? 1 : class_default(row->type, "n_shared_experts", 0)));
            if (shared_width == 0) shared_width = expert_width;
            // Gemma 4's enable_moe_block: the experts are added beside the layer's dense MLP; so
            // does Arctic's parallel_attn_mlp_res (ArcticDecoderLayer's residual_mlp of
            // intermediate_size beside block_sparse_moe).
            if ((f.boolean("enable_moe_block", false) || f.boolean("parallel_attn_mlp_res", false) ||
                 class_default(row->type, "blocks_per_layer", 1) == 2) &&
                n_shared == 0) {
                n_shared = 1;
                shared_width = dense_width;
            }
            break;
        case Moe::hunyuan:
            // modeling_hunyuan_v1_moe.py HunYuanMoEV1Moe: a shared_mlp of intermediate_size beside
            // the experts in every MoE layer, whatever use_mixed_mlp_moe says (read, not needed).
            f.boolean("use_mixed_mlp_moe", false);
            n_shared = int(f.single_or_first(F::shared_experts, 1));
            shared_width = dense_width;
            break;
        default:
            break;
    }
    bool router_bias = (tr & kRouterBias) || (is_mla_row(*row) && f.text("topk_method", "") == "noaux_tc");
    // Read by its fields: a per-expert score bias under the names families give it (LFM2-MoE
    // use_expert_bias, Hunyuan's moe_router_enable_expert_bias, DeepSeek-style noaux_tc).
    if (read_by_fields(*row) && row->moe != Moe::none)
        for (const char* k : {"use_expert_bias", "moe_router_enable_expert_bias", "use_routing_bias"})
            router_bias = f.boolean(k, false) || router_bias;
    if (read_by_fields(*row) && f.text("topk_method", "") == "noaux_tc") router_bias = true;
    // Group-limited routing (DeepSeek-V3's router, also GLM-4.5's with one group): n_group
    // groups of experts, a token's experts within its best topk_group of them.
    long long expert_groups = 0, groups_per_token = 0;
    if (row->moe != Moe::none) {
        // AFMoE spells them num_expert_groups / num_limited_groups.
        expert_groups = f.has("n_group") || !f.has("num_expert_groups") ? f.integer("n_group", class_default(row->type, "n_group", 0))
                                                                       : f.integer("num_expert_groups", 0);
        groups_per_token = f.has("topk_group") || !f.has("num_limited_groups")
                               ? f.integer("topk_group", class_default(row->type, "topk_group", 0))
                               : f.integer("num_limited_groups", 0);
        f.mark("num_expert_groups");
        f.mark("num_limited_groups");
        // DeepSeek-V2's "greedy" topk_method ignores the groups (DeepseekV2MoEGate).
        if (f.text("topk_method", "") == "greedy") expert_groups = groups_per_token = 0;
    }

    // MLA and indexer.
    AttentionSpec mla;
    if (is_mla_row(*row)) {
        mla.kind = AttnKind::mla;
        mla.n_heads = heads;
        mla.n_kv_heads = kv_heads;
        // q_lora_rank null = queries not compressed (DeepSeek-V2-Lite); absent = the class default.
        mla.q_lora_rank = int(f.has("q_lora_rank") || !text->contains("q_lora_rank")
                                  ? f.integer("q_lora_rank", class_default(row->type, "q_lora_rank", 0)) : 0);
        f.mark("q_lora_rank");
        mla.kv_lora_rank = int(f.integer("kv_lora_rank", 512));
        mla.qk_rope_head_dim = int(f.integer("qk_rope_head_dim", 64));
        mla.qk_nope_head_dim = int(f.integer("qk_nope_head_dim", class_default(row->type, "qk_nope_head_dim", 128)));
        mla.v_head_dim = int(f.integer("v_head_dim", class_default(row->type, "v_head_dim", mla.qk_nope_head_dim)));
        mla.head_dim = mla.qk_nope_head_dim + mla.qk_rope_head_dim;
        f.mark("head_dim");   // MLA: q/k head = nope + rope
        if (row->attn == Attn::mla_indexer) {
            mla.index_n_heads = int(f.integer("index_n_heads", class_default(row->type, "index_n_heads", 64)));
            mla.index_head_dim = int(f.integer("index_head_dim", 128));
        }
    }

    // Gemma 4 full layers: global_head_dim (default 512) and, with attention_k_eq_v,
    // num_global_key_value_heads (Gemma4TextConfig.__post_init__ per_layer_config).
    int global_head_dim = head_dim, global_kv = kv_heads;
    bool global_k_eq_v = false;
    if (tr & kGlobalHeadDim) {
        global_head_dim = int(f.integer("global_head_dim", 512));
        const bool k_eq_v = f.boolean("attention_k_eq_v", false);
        if (k_eq_v && f.has("num_global_key_value_heads")) global_kv = int(f.integer("num_global_key_value_heads", kv_heads));
        else f.mark("num_global_key_value_heads");
        global_k_eq_v = k_eq_v;
    }
    // Qwen3-Next / Qwen3.5 full-attention layers: q_proj also produces the output gate
    // (attn_output_gate, default on in Qwen3_5TextConfig; Qwen3NextAttention always gates).
    const bool gated_query = (tr & kGatedQuery) && f.boolean("attn_output_gate", true);

    // GLM-5 indexer_types: "shared" layers reuse an earlier layer's top-k (GlmMoeDsaConfig,
    // from index_topk_pattern or index_topk_freq / index_skip_topk_offset). Whether they keep
    // indexer weights and keys is not modelled: every DSA layer is counted with its indexer.
    if (row->attn == Attn::mla_indexer) {
        int shared_idx = 0;
        if (f.has("indexer_types")) {
            for (const auto& t : f.strings("indexer_types")) shared_idx += t == "shared";
        } else if (f.has("index_topk_pattern")) {
            for (char c : f.text("index_topk_pattern", "")) shared_idx += c == 'S';
        } else {
            const long long freq = std::max(1LL, f.integer("index_topk_freq", 1));
            const long long offset = f.integer("index_skip_topk_offset", 2);
            for (long long i = 0; i < n_layers; ++i) shared_idx += std::max(i - offset + 1, 0LL) % freq != 0;
        }
        if (shared_idx)
            notes.push_back("indexer_types: " + std::to_string(shared_idx) +
                            " layers reuse an earlier layer's top-k; their indexer weights and keys are still counted");
    }

    RecurrentSpec mixer = read_mixer(*row, f, a.hidden);
    // Low-rank query and grouped low-rank output outside MLA (DeepSeek-V4: q_lora_rank,
    // o_lora_rank, o_groups).
    int low_rank_q = 0, low_rank_o = 0, o_groups = 1;
    if (!is_mla_row(*row)) {
        // Step-3's share_q_dim is the same low-rank query (q_proj to share_q_dim, a norm, then wq
        // to the heads: Step3vAttention).
        low_rank_q = int(f.has("q_lora_rank") || !f.has("share_q_dim") ? f.integer("q_lora_rank", 0) : f.integer("share_q_dim", 0));
        low_rank_o = int(f.integer("o_lora_rank", 0));
        o_groups = int(std::max(1LL, f.integer("o_groups", 1)));
    }

    const int n_plan = int(plan.size());
    const std::vector<long long> experts_v = f.per_layer(F::experts, n_plan), k_v = f.per_layer(F::experts_per_tok, n_plan),
                                 width_v = f.per_layer(F::moe_intermediate, n_plan), shared_v = f.per_layer(F::shared_experts, n_plan),
                                 heads_v = f.per_layer(F::n_heads, n_plan), kv_v = f.per_layer(F::n_kv_heads, n_plan);
    auto at_layer = [](const std::vector<long long>& v, std::size_t i, int single) { return v.empty() ? single : int(v[i]); };

    std::vector<LayerSpec> layers;
    layers.reserve(plan.size());
    for (std::size_t i = 0; i < plan.size(); ++i) {
        const Plan& p = plan[i];
        LayerSpec l;
        l.norms = a.norms_per_layer;
        AttentionSpec& at = l.attn;
        if (p.attn == AttnKind::mla) {
            at = mla;
            if (!p.indexer) at.index_n_heads = at.index_head_dim = 0;
        } else {
            at.kind = p.attn;
            at.n_heads = at_layer(heads_v, i, heads);
            at.n_kv_heads = at_layer(kv_v, i, kv_heads);
            if (at.n_kv_heads == 0) at.n_kv_heads = at.n_heads;
            at.head_dim = at.v_head_dim = head_dim;
            if (p.attn == AttnKind::full && (tr & kGlobalHeadDim)) {
                at.head_dim = at.v_head_dim = global_head_dim;
                at.n_kv_heads = global_kv;
                at.k_eq_v = global_k_eq_v;
            }
            at.gated_query = gated_query && p.attn == AttnKind::full;
            at.q_lora_rank = low_rank_q;
            at.o_lora_rank = low_rank_o;
            at.o_groups = o_groups;
            if (p.attn == AttnKind::sliding) {
                at.window = window;
                if (window <= 0) {
                    at.kind = AttnKind::full;   // a sliding layer without a window attends to everything
                    notes.push_back("layer " + std::to_string(i) +
                                    " is sliding_attention but sliding_window is not set: read as full attention");
                }
            }
            if (p.attn == AttnKind::chunked) {
                at.window = chunk;
                if (chunk <= 0) at.kind = AttnKind::full;   // attention_chunk_size null: no chunking
            }
            if (p.attn == AttnKind::none) at.n_heads = at.n_kv_heads = at.head_dim = at.v_head_dim = 0;
        }
        at.kv_shared = p.kv_shared && at.kind != AttnKind::none;
        if (p.recurrent) l.recurrent = mixer;
        l.mlp.kind = (tr & kNoMlp) ? LayerMlpKind::none : p.mlp;
        if (p.mlp == LayerMlpKind::dense) {
            l.mlp.intermediate = dense_widths.empty() ? dense_mlp : int(dense_widths[std::min(i, dense_widths.size() - 1)]);
            if (row->moe == Moe::jamba || row->moe == Moe::hunyuan) l.mlp.intermediate = dense_width;
            if (double_wide && p.kv_shared) l.mlp.intermediate *= 2;
        } else if (p.mlp == LayerMlpKind::moe) {
            l.mlp.n_experts = at_layer(experts_v, i, int(experts));
            l.mlp.experts_per_token = at_layer(k_v, i, k_active);
            l.mlp.expert_intermediate = at_layer(width_v, i, expert_width);
            l.mlp.n_shared = n_shared ? at_layer(shared_v, i, n_shared) : 0;
            l.mlp.shared_intermediate = l.mlp.n_shared ? shared_width : 0;
            l.mlp.router_bias = router_bias;
            l.mlp.expert_bias = tr & kExpertBias;
        }
        layers.push_back(l);
    }
    apply_block_configs(f, a.hidden, heads, layers, notes);   // DeciLM / Nemotron-NAS: per-layer blocks
    if (f.modality_lists) modality_experts(f, layers, a, notes);
    if (!dense_widths.empty() && dense_widths.size() != plan.size())
        throw_error(f.key("intermediate_size"),
                    "has " + std::to_string(dense_widths.size()) + " entries for " + std::to_string(plan.size()) + " layers");
    set_stack(a, layers);
    mirror_scalars(a, layers);
    if (tr & kActiveNoInputEmbedding) a.active_convention = ActiveConvention::no_input_embedding;
    if (tr & kActiveNoEmbeddings) a.active_convention = ActiveConvention::no_embeddings;
    // Publishers of types without a row of their own (hf_rows.cpp class_defaults "active_convention").
    for (const std::string& t : {a.model_type, loc.inner_type}) {
        const long long c = class_default(t, "active_convention", -1);
        if (c == 1) a.active_convention = ActiveConvention::no_input_embedding;
        if (c == 2) a.active_convention = ActiveConvention::no_embeddings;
    }
    a.expert_groups = int(expert_groups);
    a.expert_groups_per_token = int(groups_per_token);
    if (is_mla_row(*row)) {
        a.mla = true;
        a.q_lora_rank = mla.q_lora_rank;
        a.kv_lora_rank = mla.kv_lora_rank;
        a.qk_rope_head_dim = mla.qk_rope_head_dim;
        a.qk_nope_head_dim = mla.qk_nope_head_dim;
    }
    if (a.n_heads == 0 && !read_by_fields(*row)) {   // no attention layer at all (a pure Mamba stack)
        a.n_heads = heads;
        a.n_kv_heads = kv_heads;
        a.head_dim = a.v_head_dim = head_dim;
    } else if (a.n_heads == 0) {   // read by its fields: no attention, no heads (MambaConfig's num_heads are the SSM's)
        a.n_kv_heads = a.head_dim = a.v_head_dim = 0;
    }
    if (a.intermediate == 0) a.intermediate = dense_width > 0 ? dense_width : dense_mlp;

    // Multi-token-prediction layers: stored in the checkpoint, outside num_hidden_layers.
    a.n_mtp_layers = int(f.integer(F::mtp_layers, 0));

    // Per-layer input embeddings (Gemma 3n / 4): one table of vocab_size_per_layer_input x
    // (num_hidden_layers x hidden_size_per_layer_input) (Gemma4TextConfig docstring).
    if (tr & kPle) {
        const long long ple_vocab = f.integer("vocab_size_per_layer_input", 262144);
        const long long ple_dim = f.integer("hidden_size_per_layer_input", 256);
        a.per_layer_embedding_params = double(ple_vocab) * double(n_layers) * double(ple_dim);
    }

    // Known effects on memory that the stack does not describe.
    if (tr & kPle)
        for (const char* k : {"altup_num_inputs", "laurel_rank", "altup_active_idx", "altup_coef_clip", "altup_correct_scale",
                              "activation_sparsity_pattern"})
            if (f.has(k)) {
                f.mark(k);
                notes.push_back(std::string(k) + ": AltUp / LAuReL / per-layer projection tensors are not counted");
                break;
            }
    if (row->moe == Moe::nemotron && f.has("moe_latent_size"))
        notes.push_back("moe_latent_size: experts working in a latent width are counted at hidden width");
    else f.mark("moe_latent_size");

    finish(root, loc, f, a, notes, warnings, not_understood);
    return a;
}

}  // namespace gpusizer
