// gguf_model.cpp: a GGUF header (model_file.hpp GgufModel) turned into the per-layer model.
//
// [SECTION] Architectures: the llama.cpp architectures read, and what each leaves unstored
// [SECTION] Per-layer values: scalar or per-layer array keys
// [SECTION] arch_from_gguf
//
// Key names are llama.cpp's (src/llama-arch.cpp LLM_KV_NAMES: "%s.block_count",
// "%s.attention.head_count_kv", "%s.expert_feed_forward_length", ...), read by
// gguf_arch_info (gguf_reader.cpp). What the file's tensors say wins over what its metadata
// implies: which layers are MoE (blk.N.ffn_gate_inp), biases, q/k norms, the number of norms per
// layer and a tied head (no output.weight) are read from the tensor list.
#include <algorithm>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "gpusizer/error.hpp"
#include "gpusizer/model.hpp"
#include "gpusizer/model_file.hpp"

namespace gpusizer {

namespace {

// ---------------------------------------------------------------------------------------------
// [SECTION] Architectures
// ---------------------------------------------------------------------------------------------

// Which layers carry a recurrent mixer (llama.cpp src/llama-model.cpp load_hparams fills
// hparams.recurrent_layer_arr per architecture):
//   none          no recurrent layers
//   all           every layer (LLM_ARCH_MAMBA, LLM_ARCH_MAMBA2)
//   no_kv         a layer without KV heads (LLM_ARCH_GRANITE_HYBRID: n_head_kv(il) == 0)
//   no_kv_no_ff   a layer without KV heads and without an MLP (LLM_ARCH_NEMOTRON_H:
//                 n_head_kv(il) == 0 && n_ff(il) == 0; its MLP-only layers have n_ff > 0)
enum class Recurrent : std::uint8_t { none, all, no_kv, no_kv_no_ff };

// `swa_period`: the sliding pattern llama.cpp sets in code for the architecture when the file
// stores none (src/llama-model.cpp load_hparams: LLM_ARCH_GEMMA2 set_swa_pattern(2),
// LLM_ARCH_GEMMA3 set_swa_pattern(6), LLM_ARCH_OPENAI_MOE set_swa_pattern(2)); with
// llama_hparams::set_swa_pattern(n) (src/llama-hparams.cpp) layer il slides when
// il % n < n - 1, so the last layer of each period is global. 0 = no sliding layers.
// `default_window`: the window llama.cpp assumes when the key is absent (Gemma 2: 4096,
// LLM_ARCH_GEMMA2 n_swa = 4096 before the optional key is read); 0 = the key is required.
// `mixer`: the recurrent mixer of recurrent layers (Mamba-1 for "mamba", Mamba-2 otherwise).
struct GgufArchRow {
    const char* name;          // general.architecture, as llama.cpp's LLM_ARCH_NAMES spells it
    int swa_period;
    int default_window;
    Recurrent recurrent;
    RecurrentKind mixer;
};

// One row per architecture read (llama.cpp src/llama-arch.cpp LLM_ARCH_NAMES). Everything else
// (heads, widths, experts, MLA ranks, windows, SSM sizes, biases, norms, tied head, dense-first
// MoE layers) comes from the {arch}.* keys and the tensor list, the same way for every row.
const std::vector<GgufArchRow>& arch_rows() {
    using R = Recurrent;
    using K = RecurrentKind;
    static const std::vector<GgufArchRow> rows = {
        {"llama", 0, 0, R::none, K::none},       {"mistral3", 0, 0, R::none, K::none},
        {"qwen2", 0, 0, R::none, K::none},       {"qwen2moe", 0, 0, R::none, K::none},
        {"qwen3", 0, 0, R::none, K::none},       {"qwen3moe", 0, 0, R::none, K::none},
        {"gemma", 0, 0, R::none, K::none},       {"gemma2", 2, 4096, R::none, K::none},
        {"gemma3", 6, 0, R::none, K::none},      {"phi3", 0, 0, R::none, K::none},
        {"granite", 0, 0, R::none, K::none},     {"granitemoe", 0, 0, R::none, K::none},
        {"olmo2", 0, 0, R::none, K::none},       {"gpt-oss", 2, 0, R::none, K::none},
        {"deepseek2", 0, 0, R::none, K::none},   {"glm4moe", 0, 0, R::none, K::none},
        {"mamba", 0, 0, R::all, K::mamba},       {"mamba2", 0, 0, R::all, K::mamba2},
        {"granitehybrid", 0, 0, R::no_kv, K::mamba2},
        {"nemotron_h", 0, 0, R::no_kv_no_ff, K::mamba2},
    };
    return rows;
}

std::string supported_list() {
    std::string s;
    for (const GgufArchRow& r : arch_rows()) s += (s.empty() ? "" : ", ") + std::string(r.name);
    return s;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Per-layer values
// ---------------------------------------------------------------------------------------------

int to_int(std::uint64_t v, const std::string& key) {
    if (v > 100000000ull) throw_error(key, "is " + std::to_string(v) + ", more than 1e8");
    return static_cast<int>(v);
}

// A key gguf_arch_info read as one value (scalar) or one per layer; 0 when absent.
int at_layer(const std::vector<std::uint64_t>& v, int il, const std::string& key) {
    if (v.empty()) return 0;
    if (v.size() == 1) return to_int(v[0], key);
    if (static_cast<std::size_t>(il) >= v.size()) throw_error(key, "has " + std::to_string(v.size()) + " entries, fewer than the layers");
    return to_int(v[static_cast<std::size_t>(il)], key);
}

// An unsigned integer metadata value of the first part, 0 when absent or not an unsigned integer.
std::uint64_t meta_uint(const GgufModel& m, const std::string& key) {
    for (const GgufKeyValue& kv : m.metadata)
        if (kv.key == key && kv.value.is_integer() && !kv.value.negative) return kv.value.u;
    return 0;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// [SECTION] arch_from_gguf
// ---------------------------------------------------------------------------------------------

bool gguf_architecture_supported(const std::string& arch) {
    for (const GgufArchRow& r : arch_rows())
        if (arch == r.name) return true;
    return false;
}

ModelArch arch_from_gguf(const GgufModel& m, std::vector<std::string>* warnings) {
    const GgufArchInfo& g = m.arch;
    const std::string file = m.files.empty() ? std::string("gguf") : m.files.front();
    if (g.architecture.empty()) throw_error(file + ": general.architecture", "is missing");
    if (m.projector)
        throw_error(file + ": general.architecture",
                    "'clip': a multimodal projector (mmproj) file holds the vision / audio encoder, not a language model: give "
                    "the model's GGUF (its mmproj beside it is read with it)");
    const GgufArchRow* row = nullptr;
    for (const GgufArchRow& r : arch_rows())
        if (g.architecture == r.name) row = &r;
    if (!row)
        throw_error(file + ": general.architecture", "'" + g.architecture + "' is not supported yet (supported: " + supported_list() + ")");
    const std::string p = file + ": " + g.architecture + ".";
    auto note = [&](const std::string& s) {
        if (warnings) warnings->push_back(s);
    };

    // Tensor names present, to read what the metadata does not say.
    std::set<std::string> names;
    for (const GgufTensor& t : m.tensors) names.insert(t.name);
    auto has = [&](const std::string& n) { return names.count(n) != 0; };
    auto blk = [](int il, const char* suffix) { return "blk." + std::to_string(il) + "." + suffix; };
    auto any_layer_has = [&](const char* suffix) {
        const std::string tail = std::string(".") + suffix;
        for (const std::string& n : names)
            if (n.compare(0, 4, "blk.") == 0 && n.size() > tail.size() && n.compare(n.size() - tail.size(), tail.size(), tail) == 0)
                return true;
        return false;
    };

    ModelArch a;
    a.id = "custom";
    a.model_type = g.architecture;
    a.name = g.name.empty() ? "custom " + g.architecture + " model (GGUF)" : g.name;
    a.source = "gguf";
    if (g.block_count == 0) throw_error(p + "block_count", "is missing or 0");
    if (g.embedding_length == 0) throw_error(p + "embedding_length", "is missing or 0");
    const int blocks = to_int(g.block_count, p + "block_count");
    a.hidden = to_int(g.embedding_length, p + "embedding_length");
    a.max_context = to_int(g.context_length, p + "context_length");
    // GLM-4.5 (glm4moe) counts its NextN / MTP blocks in block_count; they are the last
    // nextn_predict_layers blocks (llama.cpp LLM_ARCH_GLM4_MOE loads them TENSOR_SKIP). A file
    // without the key but with blk.N.nextn.* tensors in its last blocks: those blocks
    // (GgufModel::stack_layers).
    int nextn = to_int(meta_uint(m, g.architecture + ".nextn_predict_layers"), p + "nextn_predict_layers");
    if (nextn == 0 && m.stack_layers >= 0 && static_cast<std::uint64_t>(m.stack_layers) < g.block_count) {
        nextn = to_int(g.block_count - static_cast<std::uint64_t>(m.stack_layers), p + "block_count");
        note(std::to_string(nextn) + " NextN block(s) found by their blk.N.nextn.* tensors (no " + g.architecture +
             ".nextn_predict_layers): kept apart from the stack");
    }
    if (nextn >= blocks) throw_error(p + "nextn_predict_layers", "must be fewer than block_count (" + std::to_string(blocks) + ")");
    a.n_layers = blocks - nextn;
    a.n_mtp_layers = nextn;

    // Vocabulary: {arch}.vocab_size or the token list (gguf_arch_info), else token_embd's rows
    // (ne[1] of a [hidden, vocab] tensor).
    std::int64_t vocab = static_cast<std::int64_t>(g.vocab_size);
    for (const GgufTensor& t : m.tensors)
        if (t.name == "token_embd.weight" && t.n_dims == 2) {
            if (vocab != 0 && static_cast<std::uint64_t>(vocab) != t.dims[1])
                note("vocab: the token list has " + std::to_string(vocab) + " entries, token_embd.weight " +
                     std::to_string(t.dims[1]) + " rows; the tensor's count is used");
            vocab = static_cast<std::int64_t>(t.dims[1]);
        }
    if (vocab <= 0) throw_error(file + ": tokenizer.ggml.tokens", "no vocabulary size: no token list and no token_embd.weight");
    a.vocab = vocab;
    // llama.cpp loads output.weight and falls back to token_embd when absent
    // (llama-model.cpp: TENSOR_DUPLICATED), so a file without it has a tied head.
    a.tied_embeddings = !m.tensors.empty() && !has("output.weight");

    // Biases and q/k norms from the tensors of any block (llama.cpp names: attn_q.bias,
    // attn_output.bias, attn_q_norm, ffn_down.bias); hybrids have no attention in block 0.
    a.qkv_bias = any_layer_has("attn_q.bias") || any_layer_has("attn_qkv.bias");
    a.o_bias = any_layer_has("attn_output.bias");
    a.qk_norm = any_layer_has("attn_q_norm.weight");
    a.mlp_bias = any_layer_has("ffn_down.bias");
    // Norms per block: every 1-D *_norm.weight of width hidden (Gemma 2/3: 4; the SSM's own
    // gated norm is d_inner wide and counted with the mixer).
    std::vector<int> norms(static_cast<std::size_t>(blocks), 0);
    for (const GgufTensor& t : m.tensors) {
        const std::string& n = t.name;
        if (t.layer >= 0 && t.layer < blocks && t.n_dims == 1 && t.dims[0] == g.embedding_length && n.size() > 12 &&
            n.compare(n.size() - 12, 12, "_norm.weight") == 0)
            ++norms[std::size_t(t.layer)];
    }
    // Without tensors (a header read for its metadata alone): llama.cpp's usual two, Gemma 2/3 four.
    const int default_norms = row->swa_period ? 4 : 2;
    a.norms_per_layer = m.tensors.empty() ? default_norms : norms[0];
    a.final_norm = m.tensors.empty() || has("output_norm.weight");

    // Attention. Head sizes: attention.key_length / value_length, else hidden / heads
    // (llama.cpp: n_embd_head_k = n_embd / n_head when the key is absent).
    const bool mla = g.kv_lora_rank > 0;
    int rope = to_int(g.rope_dimension_count, p + "rope.dimension_count");
    // MLA (llama.cpp LLM_ARCH_DEEPSEEK2): key_length_mla / value_length_mla are the per-head
    // sizes in newer files (key_length then holds kv_lora_rank + rope, the absorbed form); older
    // files hold them in key_length / value_length. qk_nope = key size - rope.
    const int mla_k = to_int(g.key_length_mla ? g.key_length_mla : g.key_length, p + "attention.key_length_mla");
    const int mla_v = to_int(g.value_length_mla ? g.value_length_mla : g.value_length, p + "attention.value_length_mla");

    // Sliding layers: the file's per-layer array, else its period, else the architecture's.
    std::vector<bool> slides(static_cast<std::size_t>(a.n_layers), false);
    int window = to_int(g.sliding_window, p + "attention.sliding_window");
    int period = g.sliding_window_period ? to_int(g.sliding_window_period, p + "attention.sliding_window_pattern")
                                         : row->swa_period;
    if (!g.sliding_window_layers.empty()) {
        for (std::size_t il = 0; il < slides.size() && il < g.sliding_window_layers.size(); ++il)
            slides[il] = g.sliding_window_layers[il] != 0;
    } else if (period > 0) {
        for (int il = 0; il < a.n_layers; ++il) slides[std::size_t(il)] = il % period < period - 1;  // set_swa_pattern
    }
    if (window == 0 && row->default_window) window = row->default_window;
    if (window == 0 && std::find(slides.begin(), slides.end(), true) != slides.end()) {
        throw_error(p + "attention.sliding_window", "is missing but the architecture has sliding-window layers");
    }
    if (window > 0 && period == 0 && g.sliding_window_layers.empty())
        note(g.architecture + ".attention.sliding_window = " + std::to_string(window) +
             " with no sliding pattern: every layer is taken as full attention (llama.cpp's reading for " +
             g.architecture + ")");

    // Recurrent mixers (llama.cpp: ssm.inner_size = d_inner, ssm.state_size = d_state,
    // ssm.conv_kernel = d_conv, ssm.time_step_rank = dt_rank (Mamba-1) or the head count
    // (Mamba-2: n_head = ssm_dt_rank, head_dim = d_inner / n_head), ssm.group_count = n_group).
    RecurrentSpec rs;
    if (row->recurrent != Recurrent::none) {
        rs.kind = row->mixer;
        rs.d_inner = to_int(g.ssm_inner_size, p + "ssm.inner_size");
        rs.d_state = to_int(g.ssm_state_size, p + "ssm.state_size");
        rs.d_conv = to_int(g.ssm_conv_kernel, p + "ssm.conv_kernel");
        const int dt = to_int(g.ssm_time_step_rank, p + "ssm.time_step_rank");
        if (rs.d_inner <= 0) throw_error(p + "ssm.inner_size", "is missing or 0");
        if (rs.d_state <= 0) throw_error(p + "ssm.state_size", "is missing or 0");
        if (rs.d_conv <= 0) throw_error(p + "ssm.conv_kernel", "is missing or 0");
        if (dt <= 0) throw_error(p + "ssm.time_step_rank", "is missing or 0");
        if (rs.kind == RecurrentKind::mamba) {
            rs.dt_rank = dt;
        } else {
            rs.n_heads = dt;
            if (rs.d_inner % dt != 0)
                throw_error(p + "ssm.time_step_rank", "must divide ssm.inner_size (" + std::to_string(rs.d_inner) + ")");
            rs.head_dim = rs.d_inner / dt;
            rs.n_groups = g.ssm_group_count ? to_int(g.ssm_group_count, p + "ssm.group_count") : 1;   // llama.cpp: n_group default 1
        }
        rs.conv_bias = m.tensors.empty() || any_layer_has("ssm_conv1d.bias");
        // llama.cpp keeps recurrent states in F32 (llama-model.cpp create_memory: GGML_TYPE_F32
        // for the r and s states).
        rs.state_bytes = 4;
    }

    std::vector<LayerSpec> layers(static_cast<std::size_t>(a.n_layers));
    const int n_expert = to_int(g.expert_count, p + "expert_count");
    const int n_used = to_int(g.expert_used_count, p + "expert_used_count");
    const int n_shared = to_int(g.expert_shared_count, p + "expert_shared_count");
    const int ff_exp = to_int(g.expert_feed_forward_length, p + "expert_feed_forward_length");
    // A shared expert's width: its own key (Qwen2-MoE), else a routed expert's (DeepSeek).
    const int ff_shexp = g.expert_shared_feed_forward_length
                             ? to_int(g.expert_shared_feed_forward_length, p + "expert_shared_feed_forward_length")
                             : ff_exp;
    const int leading_dense = to_int(g.leading_dense_block_count, p + "leading_dense_block_count");
    for (int il = 0; il < a.n_layers; ++il) {
        LayerSpec& l = layers[std::size_t(il)];
        l.norms = m.tensors.empty() ? default_norms : norms[std::size_t(il)];
        const int ff = at_layer(g.feed_forward_length, il, p + "feed_forward_length");
        AttentionSpec& at = l.attn;
        at.n_heads = at_layer(g.head_count, il, p + "attention.head_count");
        at.n_kv_heads = g.head_count_kv.empty() ? at.n_heads : at_layer(g.head_count_kv, il, p + "attention.head_count_kv");
        // A layer without heads or without KV heads has no attention (llama.cpp's hybrids mark
        // their recurrent and MLP-only layers with n_head_kv(il) == 0).
        const bool recurrent = row->recurrent == Recurrent::all || (row->recurrent == Recurrent::no_kv && at.n_kv_heads == 0) ||
                               (row->recurrent == Recurrent::no_kv_no_ff && at.n_kv_heads == 0 && ff == 0);
        if (recurrent) l.recurrent = rs;
        if (at.n_heads == 0 || at.n_kv_heads == 0 || row->recurrent == Recurrent::all) {
            at = AttentionSpec{};
            at.kind = AttnKind::none;
        } else if (mla) {
            at.kind = AttnKind::mla;
            at.q_lora_rank = to_int(g.q_lora_rank, p + "attention.q_lora_rank");
            at.kv_lora_rank = to_int(g.kv_lora_rank, p + "attention.kv_lora_rank");
            at.qk_rope_head_dim = rope;
            if (mla_k <= rope) throw_error(p + "attention.key_length_mla", "must exceed rope.dimension_count");
            at.qk_nope_head_dim = mla_k - rope;
            at.head_dim = mla_k;
            at.v_head_dim = mla_v;
        } else {
            if (a.hidden % at.n_heads != 0 && g.key_length == 0)
                throw_error(p + "attention.key_length", "is missing and embedding_length is not a multiple of head_count");
            at.head_dim = g.key_length ? to_int(g.key_length, p + "attention.key_length") : a.hidden / at.n_heads;
            at.v_head_dim = g.value_length ? to_int(g.value_length, p + "attention.value_length") : at.head_dim;
            if (slides[std::size_t(il)]) {
                at.kind = AttnKind::sliding;
                at.window = window;
            }
        }
        // MLP: a layer with a router (blk.N.ffn_gate_inp) is MoE; without tensors to look at,
        // every layer past leading_dense_block_count is when the file states experts.
        const bool moe = n_expert > 0 && (m.tensors.empty() ? il >= leading_dense : has(blk(il, "ffn_gate_inp.weight")));
        if (moe) {
            l.mlp.kind = LayerMlpKind::moe;
            l.mlp.n_experts = n_expert;
            l.mlp.experts_per_token = n_used;
            l.mlp.expert_intermediate = ff_exp ? ff_exp : ff;
            l.mlp.n_shared = n_shared;
            if (n_shared == 0 && has(blk(il, "ffn_up_shexp.weight"))) l.mlp.n_shared = 1;   // Qwen2-MoE stores no count
            l.mlp.shared_intermediate = l.mlp.n_shared ? ff_shexp : 0;
            l.mlp.router_bias = has(blk(il, "exp_probs_b.bias")) || has(blk(il, "ffn_gate_inp.bias"));
            l.mlp.expert_bias = has(blk(il, "ffn_up_exps.bias"));   // gpt-oss
            if (l.mlp.expert_intermediate == 0) throw_error(p + "expert_feed_forward_length", "is missing or 0");
            if (n_used <= 0 || n_used > n_expert)
                throw_error(p + "expert_used_count", "must be from 1 to expert_count (" + std::to_string(n_expert) + ")");
        } else {
            l.mlp.intermediate = ff;
            if (l.mlp.intermediate == 0) l.mlp.kind = LayerMlpKind::none;
        }
    }
    if (mla) {
        a.mla = true;
        a.q_lora_rank = to_int(g.q_lora_rank, p + "attention.q_lora_rank");
        a.kv_lora_rank = to_int(g.kv_lora_rank, p + "attention.kv_lora_rank");
        a.qk_rope_head_dim = rope;
        a.qk_nope_head_dim = mla_k - rope;
    }

    // Global fields mirror the stack (as hf_stack.cpp mirror_scalars does): the first full layer's heads,
    // the first sliding layer's window, the first dense and MoE layers' widths.
    const LayerSpec* rep = nullptr;
    for (const LayerSpec& l : layers)
        if (!rep && (l.attn.kind == AttnKind::full || l.attn.kind == AttnKind::mla)) rep = &l;
    for (const LayerSpec& l : layers)
        if (!rep && l.attn.kind != AttnKind::none) rep = &l;
    if (rep) {
        a.n_heads = rep->attn.n_heads;
        a.n_kv_heads = rep->attn.n_kv_heads;
        a.head_dim = rep->attn.head_dim;
        a.v_head_dim = rep->attn.v_head_dim;
    } else if (rs.kind != RecurrentKind::none) {
        // A pure SSM (Mamba): no attention anywhere. The global head fields, which only
        // attention formulas read, take the mixer's heads so that validate() holds (the stack
        // says no layer attends); Mamba-1 has one "head" of d_inner.
        a.n_heads = a.n_kv_heads = rs.n_heads ? rs.n_heads : 1;
        a.head_dim = a.v_head_dim = rs.head_dim ? rs.head_dim : rs.d_inner;
    } else {
        throw_error(p + "attention.head_count", "is missing or 0 in every layer");
    }
    for (const LayerSpec& l : layers)
        if (l.attn.kind == AttnKind::sliding && a.sliding_window == 0) a.sliding_window = l.attn.window;
    for (const LayerSpec& l : layers)
        if (l.mlp.kind == LayerMlpKind::dense && a.intermediate == 0) a.intermediate = l.mlp.intermediate;
    for (const LayerSpec& l : layers)
        if (l.mlp.kind == LayerMlpKind::moe && a.n_routed_experts == 0) {
            a.n_routed_experts = l.mlp.n_experts;
            a.experts_per_token = l.mlp.experts_per_token;
            a.moe_intermediate = l.mlp.expert_intermediate;
            a.n_shared_experts = l.mlp.n_shared;
            a.shared_intermediate = l.mlp.shared_intermediate;
            a.router_bias = l.mlp.router_bias;
            if (a.intermediate == 0) a.intermediate = l.mlp.expert_intermediate;
        }
    if (a.intermediate == 0) a.intermediate = a.hidden;   // a stack without MLPs (Mamba): only validate() reads it
    set_stack(a, layers);

    // The file's exact bytes by where they sit (all split parts).
    a.file = file_weights(m.totals, a.n_layers);
    validate(a);
    return a;
}

ModelArch::FileWeights file_weights(const TensorTotals& t, int stack_layers) {
    ModelArch::FileWeights f;
    f.total = static_cast<double>(t.bytes);
    // Towers (vision and audio) and MTP-named tensors are never in by_layer or text_class_bytes.
    const double towers = static_cast<double>(t.bytes - t.of(TensorPart::text).bytes - t.of(TensorPart::mtp).bytes);
    // Tensors of the text part classed vision (a tower name the part rules do not know):
    // vision all the same.
    f.vision = towers + static_cast<double>(t.text_class_bytes[static_cast<std::size_t>(WeightClass::vision)]);
    const double mtp_named = static_cast<double>(t.of(TensorPart::mtp).bytes);
    double embeddings = static_cast<double>(t.text_class_bytes[static_cast<std::size_t>(WeightClass::embeddings)]);
    double in_layers = 0;
    f.layer.assign(static_cast<std::size_t>(std::max(stack_layers, 0)), 0.0);
    for (std::size_t il = 0; il < t.by_layer.size(); ++il) {
        double b = 0;
        for (std::size_t c = 0; c < kWeightClassCount; ++c) b += static_cast<double>(t.by_layer[il][c]);
        embeddings -= static_cast<double>(t.by_layer[il][static_cast<std::size_t>(WeightClass::embeddings)]);
        in_layers += b;
        if (il < f.layer.size()) f.layer[il] = b;
        else f.beyond_stack += b;
    }
    f.beyond_stack += mtp_named;
    f.embeddings = embeddings;
    f.head = f.total - in_layers - mtp_named - f.embeddings - f.vision;
    const auto parts = part_totals(t, stack_layers);
    f.params_text = static_cast<double>(parts[static_cast<std::size_t>(TensorPart::text)].params);
    f.params_vision = static_cast<double>(parts[static_cast<std::size_t>(TensorPart::vision)].params);
    f.params_audio = static_cast<double>(parts[static_cast<std::size_t>(TensorPart::audio)].params);
    f.params_mtp = static_cast<double>(parts[static_cast<std::size_t>(TensorPart::mtp)].params);
    return f;
}

void add_projector(ModelArch& a, const GgufModel& p) {
    const std::string file = p.files.empty() ? std::string("mmproj") : p.files.front();
    if (!p.projector)
        throw_error(file + ": general.architecture",
                    "is '" + p.arch.architecture + "', not 'clip': the file is not a multimodal projector (mmproj)");
    const TensorTotals& t = p.totals;
    a.file.total += static_cast<double>(t.bytes);
    a.file.vision += static_cast<double>(t.bytes);
    // An mmproj file is all encoder and projector: its audio tensors (a.*, mm.a.*) are the audio
    // part, every other tensor the vision part.
    const double audio = static_cast<double>(t.of(TensorPart::audio).params);
    a.file.params_audio += audio;
    a.file.params_vision += static_cast<double>(t.params) - audio;
}

}  // namespace gpusizer
