// memory.cpp: the memory model, layer by layer: what one layer (variant) of a resolved
// configuration puts on a GPU, before the estimate sums it per pipeline stage (estimate.cpp).
//
// [SECTION] Weights: bytes per tensor class, split over tensor / pipeline / expert parallel
// [SECTION] KV cache
// [SECTION] Activations: inference working set, training (Korthikanti et al. 2022)
// [SECTION] Training state: LoRA adapter parameters (gradients, optimizer, ZeRO and offload
//           are summed per stage in estimate.cpp)
// [SECTION] Runtime overhead: llama.cpp's compute buffer (the rest per stage in estimate.cpp)
//
// Units: bytes, tokens, parameters, all as double. The formulas and their sources are
// collected in docs/formulas.md.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <string>

#include "estimate_internal.hpp"
#include "gpusizer/error.hpp"
#include "gguf_layer_rules.hpp"
#include "gpusizer/precision.hpp"
#include "runtime_profiles.hpp"
#include "training/frameworks.hpp"

namespace gpusizer::detail {

// ---------------------------------------------------------------------------------------------
// [SECTION] Weights
// ---------------------------------------------------------------------------------------------

double kv_head_fraction(int n_kv_heads, int tp) {
    // KV heads per GPU: n_kv/tp, at least one (vLLM and Megatron replicate KV heads when tp > n_kv).
    if (n_kv_heads <= 0) return 1.0 / tp;
    const int per_gpu = (n_kv_heads + tp - 1) / tp;
    return double(std::max(per_gpu, 1)) / n_kv_heads;
}

double kv_head_fraction(const ModelArch& a, int tp) { return kv_head_fraction(a.n_kv_heads, tp); }

namespace {

// Parameters of one layer by the classes that get their own bits, after a tp/ep split. No
// member initializers: build_variants keeps a table of them, filled only where it is read
// (split_params value-initializes the one it returns).
struct ClassParams {
    double q, k, v, latent, o, cross, mixer, mlp_up, mlp_down, sh_up, sh_down, ex_up, ex_down, router, small;
    double total() const {
        return q + k + v + latent + o + cross + mixer + mlp_up + mlp_down + sh_up + sh_down + ex_up + ex_down + router + small;
    }
};

// `attn_degree`: the GPUs attention is split over, tp_degree unless SGLang's data-parallel
// attention runs it in smaller groups (Resolved::attn_tp): its projections, recurrent mixers and
// cross attention are then split over that group only (python/sglang/srt/models/deepseek_v2.py:
// the attention's linear layers take attn_tp_rank / attn_tp_size). `dense_degree`: the GPUs a
// dense MLP and the shared experts split over (Resolved::dense_tp: 1 under TensorRT-LLM's attention DP).
ClassParams split_params(const ModelArch& a, const LayerSpec& l, const LayerParams& p, int tp_degree, int ep_degree, int attn_degree,
                         int dense_degree) {
    const double tp = tp_degree;
    const double dtp = dense_degree;
    const double atp = attn_degree;
    const double kvf = kv_head_fraction(l.attn.n_kv_heads, attn_degree);
    // Routed experts: whole experts spread over the expert-parallel ranks, else sharded like
    // the dense MLP over the tensor-parallel ranks.
    const double expert_div = ep_degree > 1 ? double(ep_degree) : tp;
    ClassParams c{};
    c.q = p.attn_q / atp;
    if (l.attn.kind == AttnKind::mla) {
        // MLA: q_b, kv_b and o split by heads; the down-projections q_a and kv_a are replicated.
        const double q_a = l.attn.q_lora_rank > 0 ? double(a.hidden) * l.attn.q_lora_rank : 0.0;
        c.latent = q_a + p.attn_k;
        c.q = (p.attn_q - q_a) / atp;
        c.v = p.attn_v / atp;
    } else {
        c.k = p.attn_k * kvf;
        c.v = p.attn_v * kvf;
    }
    c.latent += p.indexer;   // the indexer's projections: small, replicated like the latent
    c.o = p.attn_o / atp;
    c.cross = p.cross_attn / atp;
    c.mixer = p.mixer / atp;  // recurrent mixers split by heads (vLLM MambaMixer2, Qwen3-Next GDN)
    c.mlp_up = p.mlp_up / dtp;
    c.mlp_down = p.mlp_down / dtp;
    c.sh_up = p.shared_up / dtp;
    c.sh_down = p.shared_down / dtp;
    c.ex_up = p.expert_up * p.n_experts / expert_div;
    c.ex_down = p.expert_down * p.n_experts / expert_div;
    c.router = p.router;   // replicated
    c.small = p.small;     // norms, biases, conv kernels, replicated
    return c;
}

// Bits of each class for layer i (the same whatever the split).
struct ClassBits {
    double q, k, v, latent, o, cross, mixer, mlp_up, mlp_down, sh_up, sh_down, ex_up, ex_down, router, small;
};

// `same_kind`: the bits of another layer of the same shape (kind), when there is one: under GGUF
// only the classes whose type reads the layer index (gguf_class_reads_layer: attn_v, ffn_down)
// can differ, and the others are taken from it.
ClassBits class_bits(const Resolved& r, int i, const ClassBits* same_kind = nullptr) {
    const ModelArch& a = *r.arch;
    const LayerSpec& l = a.layer(i);
    const bool gguf = r.wf->family == WeightFamily::gguf;
    if (!gguf) {
        // Class by class (precision.hpp WeightScheme): a chosen format converts the linear layers;
        // a checkpoint's scheme may leave some in its dtype (gpt-oss: all but the routed experts).
        // Recurrent mixers and the MLA latent / indexer projections go with attention ("attn"
        // in their module names: self_attn, linear_attn).
        const WeightScheme& s = r.scheme;
        const double att = scheme_class_bits(s, SchemeClass::attention);
        const double mlp = scheme_class_bits(s, SchemeClass::mlp);
        const double sh = scheme_class_bits(s, SchemeClass::shared_expert);
        const double ex = scheme_class_bits(s, SchemeClass::routed_expert);
        const double router = scheme_class_bits(s, SchemeClass::router);
        return {att, att, att, att, att, att, att, mlp, mlp, sh, sh, ex, ex, router, s.float_bits};
    }
    ClassBits b = same_kind ? *same_kind : ClassBits{};
    auto bits = [&](TensorClass cls, long long row, double ClassBits::*field) {
        if (same_kind && !gguf_class_reads_layer(cls)) return b.*field;
        return ggml_type_bits(gguf_tensor_type(*r.wf, cls, r.gguf, i, row));
    };
    const long long h = a.hidden;
    if (l.attn.kind == AttnKind::mla) {
        b.q = b.k = b.v = b.latent = bits(TensorClass::attn_other, h, &ClassBits::q);
    } else if (r.gguf.fused_qkv) {
        b.q = b.k = b.v = bits(TensorClass::attn_qkv_fused, h, &ClassBits::q);
    } else {
        b.q = bits(TensorClass::attn_q, h, &ClassBits::q);
        b.k = bits(TensorClass::attn_k, h, &ClassBits::k);
        b.v = bits(TensorClass::attn_v, h, &ClassBits::v);
    }
    if (l.attn.kind != AttnKind::mla) b.latent = b.q;
    b.o = bits(TensorClass::attn_output, (long long)std::max(1, l.attn.n_heads) * std::max(1, l.attn.v_head_dim), &ClassBits::o);
    // Cross attention (encoder-decoder decoder layers only): elsewhere it has no parameters.
    b.cross = l.cross_attention ? bits(TensorClass::attn_other, h, &ClassBits::cross) : b.o;
    b.mixer = l.is_recurrent() ? bits(TensorClass::other_2d, h, &ClassBits::mixer) : b.q;   // ssm_in / ssm_out: llama.cpp's default type
    b.mlp_up = bits(TensorClass::ffn_gate_up, h, &ClassBits::mlp_up);
    b.mlp_down = l.mlp.intermediate > 0 ? bits(TensorClass::ffn_down, l.mlp.intermediate, &ClassBits::mlp_down) : b.mlp_up;
    b.sh_up = b.mlp_up;
    b.sh_down = l.mlp.n_shared > 0 ? bits(TensorClass::ffn_down, l.mlp.shared_intermediate, &ClassBits::sh_down) : b.mlp_down;
    // Routed experts are 3-D tensors (ffn_*_exps), which MXFP4_MOE treats apart.
    b.ex_up = l.is_moe() ? bits(TensorClass::ffn_gate_up_exps, h, &ClassBits::ex_up) : b.mlp_up;
    b.ex_down = l.is_moe() ? bits(TensorClass::ffn_down_exps, l.mlp.expert_intermediate, &ClassBits::ex_down) : b.mlp_down;
    b.router = 32.0;   // GGUF keeps ffn_gate_inp unquantized (F32)
    b.small = 32.0;    // and every 1-D tensor in F32
    return b;
}

LayerSplit to_split(const LayerParams& p, const ClassParams& c, const ClassBits& b) {
    LayerSplit s;
    s.params = c.total();
    s.active_params = s.params - (p.n_experts > 0 ? (c.ex_up + c.ex_down) * (1.0 - double(p.experts_active) / p.n_experts) : 0.0);
    s.expert_active_params = p.n_experts > 0 ? (c.ex_up + c.ex_down) * double(p.experts_active) / p.n_experts : 0.0;
    const double bits = c.q * b.q + c.k * b.k + c.v * b.v + c.latent * b.latent + c.o * b.o + c.cross * b.cross + c.mixer * b.mixer +
                        c.mlp_up * b.mlp_up + c.mlp_down * b.mlp_down + c.sh_up * b.sh_up + c.sh_down * b.sh_down +
                        c.ex_up * b.ex_up + c.ex_down * b.ex_down + c.router * b.router + c.small * b.small;
    s.weight_bytes = bits / 8.0;
    s.expert_weight_bytes = (c.ex_up * b.ex_up + c.ex_down * b.ex_down) / 8.0;
    return s;
}

}  // namespace

LayerSplit layer_on_gpu(const Resolved& r, int i, int tp_degree, int ep_degree) {
    const ModelArch& a = *r.arch;
    const LayerParams& p = r.counts->layer(a, i);
    // The split of the run (tp_degree = r.par.tp) keeps its attention groups; any other is plain TP.
    const int attn_degree = tp_degree == r.par.tp ? r.attn_tp : tp_degree;
    const int dense_degree = tp_degree == r.par.tp ? r.dense_tp : tp_degree;
    return to_split(p, split_params(a, a.layer(i), p, tp_degree, ep_degree, attn_degree, dense_degree), class_bits(r, i));
}

// A context longer than any sliding window or chunk, so that kv_cached_tokens returns the cap itself.
constexpr long long kPastEveryWindow = 1LL << 40;

void build_variants(Resolved& r) {
    // The variant key of a layer: its kind (index into the stack's kinds) and (GGUF only) the
    // predicates of llama.cpp's per-layer type rules: use_more_bits, layer < 2, layer < n/16.
    const ModelArch& a = *r.arch;
    const int L = a.total_layers();
    const int pp = r.par.pp;
    // The file type's per-layer predicates (precision.hpp), looked up once: whether it has any,
    // and each layer's key without going back to the rules.
    const GgufLayerRules rules = gguf_layer_rules(*r.wf, r.gguf);
    const bool layer_rules = rules.any();
    r.variants.clear();   // up to 6 in place (estimate_internal.hpp VariantList)
    r.reset_stage_counts(pp);
    const bool one_kind = a.kinds.size() == 1;
    // 0..7: which of llama.cpp's per-layer predicates hold (use_more_bits, i < 2 or 4, i < n/8 or n/16).
    auto gguf_bits = [&](int i) { return int(rules.key(i)); };
    // The variant of each key, -1 = none yet. Bytes (a variant index is below kMaxVariants = 64):
    // the table is filled on every estimate, and 96 bytes take a few vector stores where 96 ints
    // took a `rep stos`, slow to start.
    static_assert(kMaxVariants <= 127, "a variant index fits a signed byte");
    std::array<std::int8_t, kMaxLayerKinds * 8> slot;
    std::fill_n(slot.begin(), a.kinds.size() * 8, std::int8_t(-1));   // only the kinds this model has (most: 1-4 of 64)
    // always_inline: in estimate.cpp's larger unit GCC cloned and inlined it by itself; alone here
    // its unit-size budgets (ipa-cp-unit-growth) leave it a call, ~230 instructions a resolve.
    auto add = [&](int st, int j, int k, int layers) __attribute__((always_inline)) {
        if (slot[std::size_t(k)] < 0) {
            if (int(r.variants.size()) == kMaxVariants)
                throw_error("model.layer_types",
                            "has more distinct layer shapes than an estimate handles (" + std::to_string(kMaxVariants) + ")");
            slot[std::size_t(k)] = std::int8_t(r.variants.size());
            for (int s = 0; s < pp; ++s) r.stage_count(s)[r.variants.size()] = 0;   // the new variant's column
            LayerVariant& lv = r.variants.emplace_back();   // built in place (it is 168 bytes)
            lv.rep = j;
            lv.kind = a.layer_kind[std::size_t(j)];
        }
        r.variants[std::size_t(slot[std::size_t(k)])].count += layers;
        r.stage_count(st)[slot[std::size_t(k)]] += std::uint16_t(layers);
    };
    if (one_kind && !layer_rules) {
        // Every layer alike (most dense models outside GGUF k-quants): one variant.
        for (int s = 0; s < pp; ++s) add(s, 0, 0, int((long long)(s + 1) * L / pp - (long long)s * L / pp));
    } else if (one_kind) {
        // One kind, GGUF predicates: keys change only at the boundaries the file type's rules read
        // (layer `first`, n / frac, n/8 and 7n/8 for use_more_bits, the stage edges) and, between
        // them, with period 3 (use_more_bits). Each segment is evaluated over one period and its
        // counts multiplied out, instead of visiting every layer. Variants come out in the order of
        // the first layer of each key, as a visit of every layer would give them.
        const int period = 3, nr = rules.n_layers;
        int cuts[4];
        int n_cuts = 0;
        for (int c : {rules.first, rules.frac > 0 ? nr / rules.frac : 0, rules.more ? nr / 8 : 0, rules.more ? 7 * nr / 8 : 0})
            if (c > 0 && c < L) cuts[n_cuts++] = c;
        for (int i = 1; i < n_cuts; ++i)   // insertion sort of at most 4 values
            for (int j = i; j > 0 && cuts[j - 1] > cuts[j]; --j) std::swap(cuts[j - 1], cuts[j]);
        for (int st = 0; st < pp; ++st) {
            const int lo = int((long long)st * L / pp), hi = int((long long)(st + 1) * L / pp);
            int x = lo, ci = 0;
            while (x < hi) {
                while (ci < n_cuts && cuts[ci] <= x) ++ci;
                const int y = ci < n_cuts ? std::min(cuts[ci], hi) : hi;
                // Only use_more_bits between n/8 and 7n/8 changes inside a segment; elsewhere
                // (and for file types that do not ask it) the whole segment has one key.
                const bool periodic = rules.more && x >= nr / 8 && x < 7 * nr / 8;
                if (!periodic) {
                    add(st, x, gguf_bits(x), y - x);
                } else {
                    for (int j = x; j < std::min(y, x + period); ++j)
                        add(st, j, gguf_bits(j), (y - 1 - j) / period + 1);   // i in [j, y) with i = j (mod period)
                }
                x = y;
            }
        }
    } else {
        // Several kinds: one look at each layer's kind (a few ns a layer, once per resolve).
        const bool gguf_keys = layer_rules;
        for (int st = 0; st < pp; ++st) {
            const int lo = int((long long)st * L / pp), hi = int((long long)(st + 1) * L / pp);
            for (int j = lo; j < hi; ++j) add(st, j, a.layer_kind[std::size_t(j)] * 8 + (gguf_keys ? gguf_bits(j) : 0), 1);
        }
    }
    const bool lora = r.config->mode == Mode::lora || r.config->mode == Mode::qlora;
    // Without tensor or expert parallelism a GPU holds whole layers: one split serves both.
    const bool whole_layers = r.par.tp == 1 && r.par.ep == 1;
    std::array<ClassBits, kMaxVariants> variant_bits;
    // The parameter split of each variant, whole and on one GPU (the same for every variant of a kind).
    std::array<ClassParams, kMaxVariants> whole_params, gpu_params;
    for (std::size_t vi = 0; vi < r.variants.size(); ++vi) {
        LayerVariant& v = r.variants[vi];
        const LayerParams& p = r.counts->per_kind[std::size_t(v.kind)];
        const LayerSpec& l = a.kinds[std::size_t(v.kind)];
        // Variants of one kind differ only in their GGUF tensor types (the bits), and of those
        // only in the classes whose type reads the layer index: the rest of the bits, and the
        // parameter split, cache and state of an earlier variant of the same kind carry over.
        const LayerVariant* same = nullptr;
        std::size_t same_i = 0;
        for (std::size_t e = 0; e < vi && !same; ++e)
            if (r.variants[e].kind == v.kind) same = &r.variants[e], same_i = e;
        const ClassBits bits = class_bits(r, v.rep, same ? &variant_bits[same_i] : nullptr);
        variant_bits[vi] = bits;
        whole_params[vi] = same ? whole_params[same_i] : split_params(a, l, p, 1, 1, 1, 1);
        if (!whole_layers) gpu_params[vi] = same ? gpu_params[same_i] : split_params(a, l, p, r.par.tp, r.par.ep, r.attn_tp, r.dense_tp);
        v.whole = to_split(p, whole_params[vi], bits);
        v.on_gpu = whole_layers ? v.whole : to_split(p, gpu_params[vi], bits);
        if (same) {
            // What depends on the kind alone carries over, member by member: copying the whole
            // variant and restoring the members just set read them back through the store buffer
            // (perf: a tenth of build_variants' time).
            v.kv_values_gpu = same->kv_values_gpu;
            v.kv_values_whole = same->kv_values_whole;
            v.kv_cap = same->kv_cap;
            v.cache_slot = same->cache_slot;
            v.indexer_bytes = same->indexer_bytes;
            v.state_bytes_gpu = same->state_bytes_gpu;
            v.state_bytes_whole = same->state_bytes_whole;
            v.inference_elements = same->inference_elements;
            v.lora_params = same->lora_params;
            continue;
        }
        v.kv_values_whole = kv_values_per_token(r, v.rep, Share::whole_layer);
        v.kv_values_gpu = r.par.tp == 1 ? v.kv_values_whole : kv_values_per_token(r, v.rep, Share::per_gpu);
        v.indexer_bytes = indexer_bytes_per_token(r, v.rep);
        v.kv_cap =
            (l.attn.kind == AttnKind::sliding || l.attn.kind == AttnKind::chunked) ? kv_cached_tokens(r, v.rep, kPastEveryWindow) : 0;
        v.cache_slot = l.attn.kind == AttnKind::sliding ? 1 : l.attn.kind == AttnKind::chunked ? 2 : l.attn.kind == AttnKind::mla ? 3 : 0;
        v.state_bytes_whole = state_bytes_per_sequence(r, v.rep, Share::whole_layer);
        v.state_bytes_gpu = r.par.tp == 1 ? v.state_bytes_whole : state_bytes_per_sequence(r, v.rep, Share::per_gpu);
        v.inference_elements = inference_elements_per_token(r, v.rep);
        v.lora_params = lora ? lora_layer_params(r, v.rep) : 0.0;
    }
    r.edges_whole = edge_weights(r, 1);
    r.edges = r.par.tp == 1 ? r.edges_whole : edge_weights(r, r.par.tp);
}

void file_stage_weights(Resolved& r) {
    // Exact bytes win over formulas: a model read from a GGUF or safetensors file keeps its
    // stored bytes per block, embedding table and head. One GPU holds the share of a block that
    // the formulas give it under tp and ep (replicated norms and KV heads included), and the
    // blocks of its pipeline stage. Training modes size their own 16-bit copies: formulas.
    const ModelArch& a = *r.arch;
    const ModelArch::FileWeights& f = a.file;
    r.file_layers.clear();
    r.file_embedding = r.file_head = 0;
    const int L = a.total_layers();
    if (f.empty() || r.training || int(f.layer.size()) != L) return;
    const int pp = r.par.pp;
    const bool whole_layers = r.par.tp == 1 && r.par.ep == 1;
    r.file_layers.assign(std::size_t(pp), 0.0);
    for (int st = 0; st < pp; ++st) {
        const int lo = int((long long)st * L / pp), hi = int((long long)(st + 1) * L / pp);
        for (int j = lo; j < hi; ++j) {
            double share = 1;
            if (!whole_layers) {
                const double whole = layer_on_gpu(r, j, 1, 1).weight_bytes;
                share = whole > 0 ? layer_on_gpu(r, j, r.par.tp, r.par.ep).weight_bytes / whole : 1.0;
            }
            r.file_layers[std::size_t(st)] += f.layer[std::size_t(j)] * share;
        }
    }
    auto share = [](double part, double whole) { return whole > 0 ? part / whole : 1.0; };
    r.file_embedding = f.embeddings * share(r.edges.embedding_bytes, r.edges_whole.embedding_bytes);
    // A tied table also sits on the last stage when the formulas say so (head_is_duplicate:
    // llama.cpp's GPU-side copy of token_embd, Megatron's last-stage copy).
    const double head = f.head + (r.edges.head_is_duplicate ? f.embeddings : 0.0);
    r.file_head = head * share(r.edges.head_bytes + r.edges.other_bytes, r.edges_whole.head_bytes + r.edges_whole.other_bytes);
}

void cpu_moe_weights(Resolved& r) {
    // llama.cpp --n-cpu-moe N adds the tensor override `blk\.(0|...|N-1)\.ffn_(up|down|gate)_exps`
    // = CPU (common/arg.cpp, llm_ffn_exps_block_regex): the routed experts' 3-D tensors of the
    // first N blocks stay in host RAM; the rest of those blocks (attention, shared experts, router,
    // norms) and every other block go to the GPUs as before. A dense block among the first N has
    // no ffn_*_exps tensors: nothing moves. Pipeline stages keep their even split of the blocks
    // (llama.cpp's layer split does not rebalance for what the override moved).
    r.cpu_moe_stage.clear();
    r.cpu_moe_host = 0;
    const int n = r.config->n_cpu_moe;
    if (n <= 0) return;
    const ModelArch& a = *r.arch;
    const int L = a.total_layers();
    const int pp = r.par.pp;
    const bool whole_layers = r.par.tp == 1 && r.par.ep == 1;
    const bool from_file = !r.file_layers.empty();
    r.cpu_moe_stage.assign(std::size_t(pp), 0.0);
    for (int st = 0; st < pp; ++st) {
        const int lo = int((long long)st * L / pp), hi = int((long long)(st + 1) * L / pp);
        for (int j = lo; j < std::min(hi, n); ++j) {
            if (!a.layer(j).is_moe()) continue;
            const LayerSplit whole = layer_on_gpu(r, j, 1, 1);
            const LayerSplit gpu = whole_layers ? whole : layer_on_gpu(r, j, r.par.tp, r.par.ep);
            // A block read from a file: its stored bytes, of which the experts' share is the
            // formulas' (file_stage_weights splits blocks the same way).
            const double k = from_file && whole.weight_bytes > 0 ? a.file.layer[std::size_t(j)] / whole.weight_bytes : 1.0;
            r.cpu_moe_stage[std::size_t(st)] += gpu.expert_weight_bytes * k;
            r.cpu_moe_host += whole.expert_weight_bytes * k;
        }
    }
}

EdgeWeights edge_weights(const Resolved& r, int tp_degree) {
    const ModelArch& a = *r.arch;
    const ParamCounts& c = *r.counts;
    const double tp = tp_degree;
    const bool gguf = r.wf->family == WeightFamily::gguf;
    EdgeWeights e;
    // Token embedding: GGUF type per llama.cpp (a tied table takes the output's type); other
    // quantizers leave embeddings in the checkpoint dtype.
    double emb_bits = r.float_bits;
    double head_bits = r.float_bits;
    if (gguf) {
        const TensorClass emb_cls = a.tied_embeddings ? TensorClass::output : TensorClass::token_embd;
        emb_bits = ggml_type_bits(gguf_tensor_type(*r.wf, emb_cls, r.gguf, 0, a.hidden));
        head_bits = ggml_type_bits(gguf_tensor_type(*r.wf, TensorClass::output, r.gguf, 0, a.hidden));
    } else {
        // 16-bit and fp32 formats cover every class; quantized ones leave the embedding and head
        // in the checkpoint dtype unless the checkpoint's scheme converts them.
        emb_bits = scheme_class_bits(r.scheme, SchemeClass::embedding);
        head_bits = scheme_class_bits(r.scheme, SchemeClass::lm_head);
    }
    if (r.config->mode == Mode::qlora && r.runtime == Runtime::pytorch) {
        // PEFT's prepare_model_for_kbit_training casts every non-quantized parameter (embeddings,
        // norms, lm_head) to fp32.
        emb_bits = head_bits = 32.0;
    }
    const double small_bits = gguf ? 32.0 : r.float_bits;
    // Vocab-parallel embedding; SGLang's data-parallel attention keeps the whole table on every
    // GPU (VocabParallelEmbedding(..., enable_tp=not is_dp_attention_enabled()) in its models).
    const bool whole_table = tp_degree > 1 && r.dp_attn > 1;
    e.embedding_params = whole_table ? c.embedding : c.embedding / tp;
    e.embedding_bytes = e.embedding_params * emb_bits / 8.0;
    e.positions_params = c.positions;
    e.positions_bytes = c.positions * r.float_bits / 8.0;   // never quantized (GGUF keeps them F16)
    const bool has_head = a.kind != ArchKind::encoder;
    if (has_head) {
        if (!a.tied_embeddings) {
            e.head_params = c.lm_head / tp;
            e.head_bytes = e.head_params * head_bits / 8.0;
        } else if (r.config->pp > 1 || r.runtime == Runtime::llama_cpp) {
            // A tied table is needed on the last stage too: Megatron keeps a copy there, and
            // llama.cpp duplicates token_embd as the GPU-side output while the table stays in RAM.
            e.head_params = c.embedding / tp;
            e.head_bytes = e.head_params * head_bits / 8.0;
            e.head_is_duplicate = true;
        }
    }
    e.other_params = c.other;
    e.other_bytes = c.other * small_bits / 8.0;
    // llama.cpp keeps token_embd.weight in host memory (the input lookup runs on the CPU).
    e.embedding_on_host = r.runtime == Runtime::llama_cpp;
    return e;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] KV cache
// ---------------------------------------------------------------------------------------------

double kv_values_per_token(const Resolved& r, int i, Share share) {
    const bool per_gpu = share == Share::per_gpu;
    const ModelArch& a = *r.arch;
    const LayerSpec& l = a.layer(i);
    if (!l.has_kv()) return 0;   // encoder layers, KV-sharing layers (Gemma 3n), pure recurrent layers
    const AttentionSpec& at = l.attn;
    const int tp = per_gpu ? r.attn_tp : 1;   // the GPUs one sequence's attention is split over
    if (at.kind == AttnKind::mla) {
        const MlaCache llama = r.engine_version ? r.engine_version->mla_cache : MlaCache::engine_rule;
        if (r.runtime == Runtime::pytorch || llama == MlaCache::per_head) {
            // transformers' DeepseekV3Attention (and llama.cpp before MLA) caches the decompressed
            // keys and values of every head.
            return double(at.n_heads) / tp * (at.qk_nope_head_dim + at.qk_rope_head_dim + at.v_head_dim);
        }
        // Absorbed MLA (vLLM, SGLang, llama.cpp): the latent plus the shared rope key, the same on
        // every tensor-parallel rank; llama.cpp builds from Apr 2025 to Jan 2026 cached the latent
        // a second time as V (runtime_profiles.cpp, MlaCache).
        const double k = double(at.kv_lora_rank) + at.qk_rope_head_dim;
        // (fp8 is the one cache type of exactly one byte a value; q8_0's blocks are 34 / 32.)
        if (at.index_n_heads > 0 && r.kv->bytes == 1.0 && (r.runtime == Runtime::vllm || r.runtime == Runtime::sglang)) {
            // Sparse MLA (DeepSeek-V3.2) in FP8 is FlashMLA's "fp8_ds_mla" record: the latent in
            // FP8, one FP32 scale per 128 of it, the rope key left in BF16: 512 + 16 + 128 = 656 B
            // for V3.2 (vLLM's fp8_ds_mla cache dtype; SGLang's NSA pool, kv_lora_rank + 4 x
            // kv_lora_rank / 128 + 2 x qk_rope_head_dim). Counted in bytes, which FP8 values are.
            return double(at.kv_lora_rank) + 4.0 * std::ceil(at.kv_lora_rank / 128.0) + 2.0 * at.qk_rope_head_dim;
        }
        return llama == MlaCache::latent_and_v ? k + at.kv_lora_rank : k;
    }
    const double heads = per_gpu ? at.n_kv_heads * kv_head_fraction(at.n_kv_heads, tp) : at.n_kv_heads;
    double values = heads * (at.head_dim + at.v_head_dim);
    if (l.cross_attention) values *= 2.0;   // + cross-attention K/V of the encoder output
    return values;
}

double indexer_bytes_per_token(const Resolved& r, int i) {
    const LayerSpec& l = r.arch->layer(i);
    if (!l.has_kv() || l.attn.index_n_heads <= 0) return 0;
    // DeepSeek-V3.2's Indexer caches one key of index_head_dim per token in FP8 (k_cache,
    // float8_e4m3fn) and one FP32 scale per 128 values (k_scale_cache, head_dim // 128)
    // (deepseek-ai/DeepSeek-V3.2-Exp inference/model.py): 128 + 4 = 132 bytes for dim 128,
    // whatever the KV cache's own type; one key for all heads, so the same on every TP rank.
    const double dim = l.attn.index_head_dim;
    return dim + 4.0 * std::ceil(dim / 128.0);
}

double state_bytes_per_sequence(const Resolved& r, int i, Share share) {
    const bool per_gpu = share == Share::per_gpu;
    const RecurrentSpec& rc = r.arch->layer(i).recurrent;
    if (rc.kind == RecurrentKind::none || r.arch->layer(i).encoder) return 0;
    // Elements of one sequence's state. The conv state keeps d_conv - 1 columns (the oldest is
    // shifted out: llama.cpp llama-hparams.cpp n_embd_r(); vLLM's conv_state_shape has
    // conv_kernel - 1 too); the SSM / recurrent state is one matrix per head (n_embd_s()).
    double conv = 0, ssm = 0;
    switch (rc.kind) {
        case RecurrentKind::none: break;
        case RecurrentKind::mamba:   // Mamba-1: conv over d_inner, d_state per channel
            conv = double(rc.d_conv - 1) * rc.d_inner;
            ssm = double(rc.d_inner) * rc.d_state;
            break;
        case RecurrentKind::mamba2: {   // conv over d_inner + 2 n_groups d_state; heads x head_dim x d_state
            const double di = double(rc.n_heads) * rc.head_dim;
            conv = double(rc.d_conv - 1) * (di + 2.0 * rc.n_groups * rc.d_state);
            ssm = di * rc.d_state;
            break;
        }
        case RecurrentKind::gated_deltanet:   // conv over 2 nk dk + nv dv; nv matrices of dk x dv
            conv = double(rc.d_conv - 1) * (2.0 * rc.n_k_heads * rc.k_head_dim + double(rc.n_heads) * rc.head_dim);
            ssm = double(rc.n_heads) * rc.k_head_dim * rc.head_dim;
            break;
        case RecurrentKind::lightning:   // one head_dim x head_dim key-value state per head
            ssm = double(rc.n_heads) * rc.head_dim * rc.head_dim;
            break;
        case RecurrentKind::short_conv:   // LFM2: the last L_cache - 1 inputs of the conv (Lfm2HybridConvCache)
            conv = double(rc.d_conv - 1) * rc.d_inner;
            break;
        case RecurrentKind::rwkv:   // RWKV-4: numerator, denominator, max (attention width) and the previous
                                    // token's x for time and channel mixing (transformers RwkvModel state)
            ssm = 3.0 * rc.d_inner + 2.0 * r.arch->hidden;
            break;
    }
    // Element sizes. llama.cpp keeps both states in F32 (llama-model.cpp create_memory:
    // llama_memory_recurrent(..., GGML_TYPE_F32, GGML_TYPE_F32, ...)). vLLM and transformers
    // keep the conv state in the model's dtype and the SSM state in mamba_ssm_cache_dtype when
    // the config sets it (vLLM CacheConfig.mamba_ssm_cache_dtype; Nemotron-H ships "float32"),
    // else in the model's dtype too. The KV cache's own type (fp8, ...) does not apply.
    const double model_bytes = r.fp32 ? 4.0 : 2.0;
    const double conv_b = r.runtime == Runtime::llama_cpp ? 4.0 : model_bytes;
    const double ssm_b = r.runtime == Runtime::llama_cpp ? 4.0 : (rc.state_bytes > 0 ? double(rc.state_bytes) : model_bytes);
    const double bytes = conv * conv_b + ssm * ssm_b;
    // Tensor parallelism splits the mixer by heads, and its state with it (vLLM MambaMixer2).
    return per_gpu ? bytes / r.attn_tp : bytes;   // heads split over the attention group
}

namespace {

constexpr long long kVllmBlockSize = 16;           // vLLM CacheConfig.block_size default on CUDA

}  // namespace

long long kv_cached_tokens(const Resolved& r, int i, long long context) {
    const AttentionSpec& at = r.arch->layer(i).attn;
    long long ctx = context;
    if (r.runtime == Runtime::llama_cpp) ctx = (ctx + kLlamaCppKvPad - 1) / kLlamaCppKvPad * kLlamaCppKvPad;
    if (at.kind == AttnKind::sliding || at.kind == AttnKind::chunked) {
        // A sliding layer attends to the last W tokens; a chunked layer (Llama 4) to the tokens
        // since the start of the current chunk of C, at most C. How each runtime keeps them:
        long long window = at.window;
        if (r.runtime == Runtime::llama_cpp) {
            // llama.cpp's SWA cache holds the window plus one micro-batch (n_ubatch, our
            // prefill_chunk), padded to 256 cells, for LLAMA_SWA_TYPE_STANDARD and
            // LLAMA_SWA_TYPE_CHUNKED alike (src/llama-kv-cache-iswa.cpp, the llama_kv_cache_iswa
            // constructor: size_swa = GGML_PAD(min(size_base, n_swa*(unified ? n_seq_max : 1) +
            // n_ubatch), 256)). Per sequence that is the non-unified form (llama-server's default);
            // ctx is a multiple of 256 already, so the min commutes with the padding.
            const long long ubatch = r.config->prefill_chunk.value_or(kLlamaCppUbatch);
            window = (window + ubatch + kLlamaCppKvPad - 1) / kLlamaCppKvPad * kLlamaCppKvPad;
        } else if (r.runtime == Runtime::vllm) {
            // vLLM's hybrid allocator keeps the blocks of the last W - 1 tokens plus the new one,
            // and one more block because the window need not start at a block boundary
            // (vllm/v1/kv_cache_interface.py SlidingWindowSpec: cdiv(num_tokens, block_size) + 1).
            window = ((window + kVllmBlockSize - 1) / kVllmBlockSize + 1) * kVllmBlockSize;
        }
        // transformers' sliding-window cache layers keep the window (DynamicSlidingWindowLayer).
        ctx = std::min(ctx, window);
    }
    return ctx;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Activations
// ---------------------------------------------------------------------------------------------

namespace {

// Widths (elements per token, one GPU) a layer kind's token mixers produce.
struct MixerWidths {
    double q = 0, k = 0, v = 0, latent = 0, o = 0;   // attention
    double rec_in = 0, rec_conv = 0, rec_out = 0;    // recurrent: in-projection output, conv output, scan output
};

MixerWidths mixer_widths(const ModelArch& a, const LayerSpec& l, int tp_degree) {
    const double t = tp_degree;
    MixerWidths m;
    const AttentionSpec& at = l.attn;
    if (at.kind == AttnKind::mla) {
        m.q = double(at.n_heads) * (at.qk_nope_head_dim + at.qk_rope_head_dim) / t;
        m.k = m.q;
        m.v = double(at.n_heads) * at.v_head_dim / t;
        m.latent = double(at.q_lora_rank) + at.kv_lora_rank + at.qk_rope_head_dim;   // replicated
    } else if (at.kind != AttnKind::none) {
        const double kvf = kv_head_fraction(at.n_kv_heads, tp_degree);
        m.q = double(at.n_heads) * at.head_dim / t;
        m.k = at.n_kv_heads * kvf * double(at.head_dim);
        m.v = at.n_kv_heads * kvf * double(at.v_head_dim);
    }
    if (at.kind != AttnKind::none) m.o = double(at.n_heads) * at.v_head_dim / t;
    const RecurrentSpec& rc = l.recurrent;
    switch (rc.kind) {
        case RecurrentKind::none: break;
        case RecurrentKind::mamba:
            m.rec_in = 2.0 * rc.d_inner / t;
            m.rec_conv = double(rc.d_inner) / t + (rc.dt_rank + 2.0 * rc.d_state);
            m.rec_out = double(rc.d_inner) / t;
            break;
        case RecurrentKind::mamba2: {
            const double di = double(rc.n_heads) * rc.head_dim;
            const double conv_dim = di + 2.0 * rc.n_groups * rc.d_state;
            m.rec_in = (di + conv_dim + rc.n_heads) / t;
            m.rec_conv = conv_dim / t;
            m.rec_out = di / t;
            break;
        }
        case RecurrentKind::gated_deltanet: {
            const double key = double(rc.n_k_heads) * rc.k_head_dim, value = double(rc.n_heads) * rc.head_dim;
            m.rec_in = (2.0 * key + 2.0 * value + 2.0 * rc.n_heads) / t;
            m.rec_conv = (2.0 * key + value) / t;
            m.rec_out = value / t;
            break;
        }
        case RecurrentKind::lightning:
            m.rec_in = 4.0 * rc.n_heads * rc.head_dim / t;
            m.rec_out = double(rc.n_heads) * rc.head_dim / t;
            break;
        case RecurrentKind::short_conv:   // B, C, x out of in_proj; the gated conv output
            m.rec_in = 3.0 * rc.d_inner / t;
            m.rec_conv = double(rc.d_inner) / t;
            m.rec_out = double(rc.d_inner) / t;
            break;
        case RecurrentKind::rwkv:   // key, value, receptance; the weighted sum
            m.rec_in = 3.0 * rc.d_inner / t;
            m.rec_out = double(rc.d_inner) / t;
            break;
    }
    (void)a;
    return m;
}

}  // namespace

// Inference: elements live at the peak of one layer's forward, per token, on one GPU.
// residual + normed input + max(token-mixer block, MLP block). A layer with both attention and
// a recurrent mixer (Falcon-H1) runs them side by side: their widths add up.
double inference_elements_per_token(const Resolved& r, int i) {
    const ModelArch& a = *r.arch;
    const LayerSpec& l = a.layer(i);
    const double tp = r.par.tp;
    const double h = a.hidden;
    const MixerWidths w = mixer_widths(a, l, r.par.tp);
    double kv_w = w.k + w.v;
    // MLA: the latent and rope key, then the decompressed no-rope keys and values.
    if (l.attn.kind == AttnKind::mla)
        kv_w = double(l.attn.kv_lora_rank + l.attn.qk_rope_head_dim) + double(l.attn.n_heads) / tp * l.attn.qk_nope_head_dim + w.v;
    double mixer = 0;
    if (l.attn.kind != AttnKind::none) mixer += w.q + kv_w + w.o;   // q, k, v, attention output
    mixer += w.rec_in + w.rec_conv + w.rec_out;                      // in-projection, conv, scan output
    const double attn = mixer + h;                                   // + o_proj / out_proj output
    const double inner_factor = a.mlp == MlpKind::gated ? 3.0 : 2.0;   // gate, up, act(gate)*up | fc1, act
    const LayerMlpSpec& m = l.mlp;
    double mlp = 0;
    if (m.kind == LayerMlpKind::moe) {
        const double expert_div = r.par.ep > 1 ? double(r.par.ep) : tp;
        mlp = m.experts_per_token * (h + inner_factor * m.expert_intermediate / expert_div)   // permuted tokens
              + m.n_shared * inner_factor * m.shared_intermediate / tp + 2.0 * m.n_experts + h;
    } else if (m.kind == LayerMlpKind::dense) {
        mlp = inner_factor * m.intermediate / tp + h;
    }
    return h + h + std::max(attn, mlp);
}

// Context parallelism: the ring's K/V blocks beyond the layer's own, one layer at a time (held
// once). TransformerEngine's AttnFuncWithCPAndKVP2P (transformer_engine/pytorch/attention/
// dot_product_attention/context_parallel.py) receives the next block while attending to the
// one in hand, two buffers in turn in the forward; its backward keeps two buffers of
// (K/V, dK/dV) (`p2p_comm_buffers = [torch.empty((2, *kv.shape)), ...]`): four blocks at the
// peak, each this GPU's 1/cp of the micro-batch's tokens at its K/V heads after tp.
[[gnu::noinline]] double ring_attention_buffer_bytes(const Resolved& r, const std::uint16_t* counts, std::size_t nv) {
    if (r.par.cp <= 1) return 0;
    double kv_per_token = 0;   // the widest layer's K/V values of one token on one GPU
    for (std::size_t v = 0; v < nv; ++v)
        if (counts[v] > 0) kv_per_token = std::max(kv_per_token, r.variants[v].kv_values_gpu);
    const double tokens = double(r.config->context) / r.par.cp * r.config->batch;
    return 4.0 * tokens * kv_per_token * r.act_bytes;
}

// Training: bytes one layer keeps for backward, one micro-batch, one GPU (Korthikanti et al.
// 2022, "Reducing Activation Recomputation in Large Transformer Models", sec. 4, generalized to
// GQA, gated MLPs, MoE and flash attention). With dropout, an MHA layer with a 4h MLP gives the
// paper's s*b*h*(34 + 5*a*s/h); tests/test_activations.cpp checks that identity. A recurrent
// mixer keeps its in-projection, conv and scan outputs (the chunked scan's per-chunk states are
// small next to them).
namespace {

// PyTorch's op-level selective activation checkpointing as torchtitan applies it to each
// transformer block (torchtitan/distributed/activation_checkpoint.py, _apply_op_sac: "Saves output
// of all compute ops, except every second mm"): the outputs of the matmuls and of the attention
// kernel are saved, but of every second matmul, and everything else (norms, RoPE, activation
// functions, products) is recomputed in the backward. In a block of separate q, k, v and o
// projections and a dense MLP the matmuls run q, k, v, o, then gate, up, down (fc1, fc2): the
// first, third, fifth and seventh are saved, the others recomputed.
struct OpSac {
    double saved = 0;              // elements per token: the saved matmul outputs
    double recomputed_params = 0;  // weights of the recomputed matmuls (one GPU)
};
OpSac op_sac(const ModelArch& a, const LayerSpec& l, const MixerWidths& w, int tp) {
    const double h = a.hidden, t = tp;
    const double inner = double(l.mlp.intermediate) / t;
    // (output width, weights) of each matmul in order; the attention output projection and the
    // MLP's down projection produce the hidden size (partial sums under tensor parallelism).
    const bool gated = a.mlp == MlpKind::gated;
    const std::array<std::array<double, 2>, 7> mm{{{w.q, h * w.q},
                                                   {w.k, h * w.k},
                                                   {w.v, h * w.v},
                                                   {h, w.o * h},
                                                   {inner, h * inner},
                                                   {gated ? inner : h, gated ? h * inner : inner * h},
                                                   {h, inner * h}}};
    OpSac s;
    for (std::size_t i = 0; i < (gated ? 7u : 6u); ++i) {
        if (i % 2 == 0) s.saved += mm[i][0];   // the first, third, ... matmul: its output kept
        else s.recomputed_params += mm[i][1];
    }
    return s;
}

// A block op-level SAC applies to as above: standard attention and a dense MLP, nothing else.
bool op_sac_block(const LayerSpec& l) {
    return l.attn.kind != AttnKind::none && l.attn.kind != AttnKind::mla && !l.cross_attention && !l.is_recurrent() &&
           l.mlp.kind == LayerMlpKind::dense;
}

}  // namespace

bool op_sac_applies(const Resolved& r) {
    if (r.config->recompute != Recompute::selective || !framework_profile(r.config->training_framework).op_sac) return false;
    for (const LayerSpec& l : r.arch->kinds)
        if (!op_sac_block(l)) return false;   // MoE, MLA, recurrent or encoder-decoder: Megatron's accounting
    return true;
}

double op_sac_recomputed_params(const Resolved& r) {
    double params = 0;
    for (const LayerVariant& v : r.variants) {
        const LayerSpec& l = r.arch->kinds[std::size_t(v.kind)];
        params += v.count * op_sac(*r.arch, l, mixer_widths(*r.arch, l, 1), 1).recomputed_params;
    }
    return params;
}

double train_layer_bytes(const Resolved& r, int i, Recompute recompute) {
    const ModelArch& a = *r.arch;
    const LayerSpec& l = a.layer(i);
    const Config& c = *r.config;
    // Context parallelism: every activation of a layer is per token, and a GPU holds 1/cp of
    // each sequence's tokens (Megatron-LM context_parallel.rst: "the activation memory footprint
    // per GPU is also CP times smaller"). The quadratic score matrix never appears: cp > 1 needs
    // flash attention (check_context_parallel).
    const double s = double(c.context) / r.par.cp, b = c.batch, h = a.hidden;
    const double t = r.par.tp;
    const double B = r.act_bytes;                         // 2 bytes for bf16/fp16 activations
    const double sb = s * b;
    // Pieces outside the tensor-parallel regions (norm inputs, the inputs of the first linear
    // of each block, dropout masks) are replicated on every TP rank unless sequence parallel.
    const double rep = (c.sequence_parallel && t > 1) ? 1.0 / t : 1.0;
    if (recompute == Recompute::full) return B * sb * h * rep;   // only the layer input is kept

    const MixerWidths w = mixer_widths(a, l, r.par.tp);
    if (recompute == Recompute::selective && op_sac_applies(r)) {
        // The block's input, the saved matmul outputs and the attention's output with its fp32
        // log-sum-exp per head.
        const double heads = l.attn.n_heads / t;
        return B * sb * (h * rep + op_sac(a, l, w, r.par.tp).saved + w.o) + 4.0 * heads * sb;
    }
    double attn = 0;
    if (l.attn.kind != AttnKind::none) {
        const double heads = l.attn.n_heads / t;
        // Attention block: norm input, QKV input (norm output), Q, K, V, output-projection input.
        attn = B * sb * h * rep * 2.0 + B * sb * (w.q + w.k + w.v + w.o + w.latent);
        if (a.dropout) attn += sb * h * rep;              // output dropout mask, 1 byte
        // Core attention: softmax output (and with dropout its mask and output), quadratic in s.
        // Flash attention and selective recomputation keep only the fp32 log-sum-exp per row.
        const bool quadratic = !c.flash_attention && recompute == Recompute::none;
        if (quadratic) attn += heads * s * sb * (a.dropout ? 2.0 * B + 1.0 : B);
        else if (c.flash_attention) attn += 4.0 * heads * sb;
        if (l.cross_attention) attn *= 2.0;              // + cross attention
    }
    if (l.is_recurrent()) {
        attn += B * sb * h * rep * 2.0 + B * sb * (w.rec_in + w.rec_conv + w.rec_out);
        if (l.attn.kind != AttnKind::none) attn -= B * sb * h * rep * 2.0;   // one shared norm input (Falcon-H1)
    }

    // MLP block: norm input, first-linear input, then the inner activations.
    const double inner_factor = a.mlp == MlpKind::gated ? 3.0 : 2.0;   // gate, up, product | fc1 out, act out
    const LayerMlpSpec& m = l.mlp;
    double mlp = 0;
    if (m.kind != LayerMlpKind::none) {
        mlp = B * sb * h * rep * 2.0;
        if (m.kind == LayerMlpKind::moe) {
            const double expert_div = r.par.ep > 1 ? double(r.par.ep) : t;
            mlp += B * sb * m.experts_per_token * (h + inner_factor * m.expert_intermediate / expert_div);
            mlp += B * sb * m.n_shared * inner_factor * m.shared_intermediate / t;
            mlp += 4.0 * sb * m.n_experts;                 // fp32 router logits
        } else {
            mlp += B * sb * inner_factor * m.intermediate / t;
        }
        if (a.dropout) mlp += sb * h * rep;
    }
    // Norms beyond the two counted above (Gemma 2's post-attention and post-MLP norms).
    const double extra_norms = std::max(0, l.norms - 2 - (l.cross_attention ? 1 : 0)) * B * sb * h * rep;
    return attn + mlp + extra_norms;
}

double llama_cpp_compute_buffer(const Resolved& r, OutputHead head) {
    const bool holds_output = head == OutputHead::here;
    // ollama's closed form for llama.cpp's worst-case graph (ollama fs/ggml/ggml.go GraphSize,
    // "llama" branch), which reproduces logged "CUDA0 compute buffer size" lines exactly with
    // flash attention off (Llama 3.1 8B at n_ctx 8192: 560.00 MiB; Llama 2 7B at 2048 / 4096 /
    // 32768: 164 / 296 / 2144 MiB; docs/research/runtime-facts.md, sec. 1a):
    //   layer  = 4 * ub * (1 + 4*embd + n_ctx*(1 + n_head))   (f32 KQ and mask of one layer)
    //   output = 4 * ub * (embd + n_vocab)                    (f32 logits of every ubatch token)
    // With flash attention there is no KQ matrix; the f32 mask and its f16 copy remain
    // (6 B per n_ctx x ub element, which matches the mainline Llama 3.1 8B log at n_ctx 16384,
    // ub 1024: 613 MiB).
    const ModelArch& a = *r.arch;
    const double ub = double(r.config->prefill_chunk.value_or(kLlamaCppUbatch));
    // The longest KV any layer holds (sliding-window layers hold less).
    long long longest = 0;
    for (const LayerVariant& v : r.variants)
        longest = std::max(longest, variant_cached_tokens(r, v, (long long)r.config->batch * r.config->context));
    const double n_ctx = double(longest);
    const double embd = a.hidden;
    const double heads = double(a.n_heads) / r.par.tp;
    double layer, output = 0;
    if (r.config->flash_attention) {
        const double mask = 6.0 * ub * n_ctx;
        layer = 4.0 * ub * (1.0 + 4.0 * embd) + mask;
        if (holds_output) output = 4.0 * ub * (embd + double(a.vocab)) + mask;
    } else {
        layer = 4.0 * ub * (1.0 + 4.0 * embd + n_ctx * (1.0 + heads));
        if (holds_output) output = 4.0 * ub * (embd + double(a.vocab));
    }
    return std::max(layer, output);
}

double lora_layer_params(const Resolved& r, int i) {
    // LoRA adds A (r x in) and B (out x r) beside each targeted linear: r * (in + out).
    // Recurrent mixers' projections (in_proj, out_proj) are not among the target names.
    const ModelArch& a = *r.arch;
    const LayerSpec& l = a.layer(i);
    const AttentionSpec& at = l.attn;
    const unsigned t = r.config->lora_targets;
    const double rank = r.config->lora_rank;
    const double h = a.hidden;
    double n = 0;
    auto add = [&](unsigned bit, double in, double out, double copies = 1.0) {
        if (t & bit) n += copies * rank * (in + out);
    };
    if (at.kind == AttnKind::mla) {
        // DeepSeek names: q_a_proj/q_b_proj (q), kv_a_proj_with_mqa (k), kv_b_proj (v), o_proj.
        const double qk = at.qk_nope_head_dim + at.qk_rope_head_dim;
        if (at.q_lora_rank > 0) {
            add(kLoraQ, h, at.q_lora_rank);
            add(kLoraQ, at.q_lora_rank, double(at.n_heads) * qk);
        } else {
            add(kLoraQ, h, double(at.n_heads) * qk);
        }
        add(kLoraK, h, double(at.kv_lora_rank) + at.qk_rope_head_dim);
        add(kLoraV, at.kv_lora_rank, double(at.n_heads) * (at.qk_nope_head_dim + at.v_head_dim));
    } else if (at.kind != AttnKind::none) {
        add(kLoraQ, h, double(at.n_heads) * at.head_dim);
        add(kLoraK, h, double(at.n_kv_heads) * at.head_dim);
        add(kLoraV, h, double(at.n_kv_heads) * at.v_head_dim);
    }
    if (at.kind != AttnKind::none) add(kLoraO, double(at.n_heads) * at.v_head_dim, h);
    auto add_mlp = [&](double inner, double copies) {
        if (a.mlp == MlpKind::gated) {
            add(kLoraGate, h, inner, copies);
            add(kLoraUp, h, inner, copies);
        } else {
            add(kLoraUp, h, inner, copies);   // fc1
        }
        add(kLoraDown, inner, h, copies);
    };
    if (l.is_moe()) {
        add_mlp(l.mlp.expert_intermediate, l.mlp.n_experts);   // PEFT wraps every expert's linears
        add_mlp(l.mlp.shared_intermediate, l.mlp.n_shared);
    } else if (l.mlp.kind == LayerMlpKind::dense) {
        add_mlp(l.mlp.intermediate, 1.0);
    }
    return n;
}

}  // namespace gpusizer::detail
