// estimate_internal.hpp (internal): the resolved configuration and the per-part functions of
// resolve.cpp, memory.cpp and estimate.cpp, shared between them and exposed to fit.cpp and to
// the tests of individual formulas.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <new>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "gpusizer/catalog.hpp"
#include "gpusizer/config.hpp"
#include "gpusizer/estimate.hpp"
#include "gpusizer/model.hpp"
#include "gpusizer/precision.hpp"
#include "gpusizer/report.hpp"
#include "runtime_profiles.hpp"

namespace gpusizer::detail {

struct RuntimeProfile;

// `s` = `v`, for the short names a report is given (formats, precisions, algorithms). libstdc++
// assigns characters through its general replace, which allows for overlap; clearing and
// appending takes a third of its instructions, and an estimate sets a handful of them.
inline void set_text(std::string& s, std::string_view v) {
    s.clear();
    s.append(v.data(), v.size());
}

// One layer on one GPU: parameters and weight bytes after the tensor/expert split.
struct LayerSplit {
    double params = 0;
    double active_params = 0;
    double weight_bytes = 0;
    double expert_weight_bytes = 0;   // the routed experts' part of weight_bytes (all of them)
    double expert_active_params = 0;  // the routed experts' part of active_params (k of E per token)
};

// Embedding, head and the tensors outside the layers, on one GPU.
struct EdgeWeights {
    double embedding_params = 0, embedding_bytes = 0;   // first stage (host RAM for llama.cpp)
    double positions_params = 0, positions_bytes = 0;   // first stage
    double head_params = 0, head_bytes = 0;             // last stage
    double other_params = 0, other_bytes = 0;           // last stage (final norm, pooler, ...)
    bool head_is_duplicate = false;                     // tied table copied to the last stage
    bool embedding_on_host = false;                     // llama.cpp keeps token_embd in RAM
};

// Layers that are alike for every formula (same layer kind and, for GGUF, the same per-layer
// quantization predicates) form one variant; the formulas run once per variant and are
// multiplied by counts, so that an estimate costs the same for 16 and for 126 layers.
// A member added after `whole` depends on the layer's kind alone: build_variants copies each of
// them from an earlier variant of the same kind (the `same` path), so add it there too.
struct LayerVariant {
    int rep = 0;                    // the first layer of this variant
    int kind = 0;                   // its index into ModelArch::kinds
    int count = 0;                  // layers of this variant in the whole model
    LayerSplit on_gpu;              // after tp / ep
    LayerSplit whole;               // no split
    double kv_values_gpu = 0;       // KV values one token adds, one GPU
    double kv_values_whole = 0;     // whole model
    long long kv_cap = 0;           // tokens the layer caches at most (window or chunk, as the runtime keeps it); 0 = all
    int cache_slot = 0;             // where its K/V goes in CacheDetail: 0 full, 1 sliding, 2 chunked, 3 mla
    double indexer_bytes = 0;       // sparse-attention indexer keys one token adds (bytes, every GPU)
    double state_bytes_gpu = 0;     // fixed recurrent state of one sequence (bytes), one GPU
    double state_bytes_whole = 0;   // whole layer
    double inference_elements = 0;  // activation elements per token in flight
    double lora_params = 0;         // adapter parameters (whole layer)
};
constexpr int kMaxVariants = 64;
static_assert(std::is_trivially_copyable_v<LayerVariant> && std::is_trivially_destructible_v<LayerVariant>,
              "VariantList copies and drops variants as bytes");

// The variants of one Resolved: up to kInline of them in place, so that an estimate allocates none
// (std::vector's one block of 6 x 168 bytes went through malloc's slow path once the heap's state
// shifted: 2-4% of one estimate, bench/bench_estimate.cpp BM_EstimateOne); more spill to the heap.
// The vector's interface as far as the estimate uses it. Slots are raw storage, constructed as
// they are added: a Resolved starts with no variant built.
class VariantList {
public:
    static constexpr std::size_t kInline = 6;
    VariantList() = default;
    VariantList(const VariantList& o) : n_(o.n_), heap_(o.heap_) {
        if (heap_.empty()) std::memcpy(static_cast<void*>(slots_), static_cast<const void*>(o.slots_), n_ * sizeof(LayerVariant));
    }
    VariantList& operator=(const VariantList& o) {
        if (this == &o) return *this;
        n_ = o.n_;
        heap_ = o.heap_;
        if (heap_.empty()) std::memcpy(static_cast<void*>(slots_), static_cast<const void*>(o.slots_), n_ * sizeof(LayerVariant));
        return *this;
    }
    std::size_t size() const { return n_; }
    bool empty() const { return n_ == 0; }
    LayerVariant* data() { return heap_.empty() ? std::launder(reinterpret_cast<LayerVariant*>(slots_)) : heap_.data(); }
    const LayerVariant* data() const { return const_cast<VariantList*>(this)->data(); }
    LayerVariant& operator[](std::size_t i) { return data()[i]; }
    const LayerVariant& operator[](std::size_t i) const { return data()[i]; }
    LayerVariant* begin() { return data(); }
    LayerVariant* end() { return data() + n_; }
    const LayerVariant* begin() const { return data(); }
    const LayerVariant* end() const { return data() + n_; }
    void clear() {
        n_ = 0;
        heap_.clear();
    }
    LayerVariant& emplace_back() {
        if (heap_.empty() && n_ < kInline) return *new (static_cast<void*>(slots_ + n_++ * sizeof(LayerVariant))) LayerVariant{};
        if (heap_.empty()) heap_.assign(data(), data() + n_);   // spill: from here on all of them live on the heap
        ++n_;
        return heap_.emplace_back();
    }

private:
    std::size_t n_ = 0;
    alignas(LayerVariant) unsigned char slots_[kInline * sizeof(LayerVariant)];
    std::vector<LayerVariant> heap_;   // every variant, once there are more than kInline
};

// The configuration of a Resolved, defaults filled in; read through -> and *. Who owns it:
// resolve() gives each Resolved its own copy; estimate() resolves the copy its Report keeps in
// place (resolve_in_place), so that an estimate copies the configuration once, and this only
// points at it (that Config must outlive the Resolved). Copying a Resolved copies the
// configuration into the copy (fit, plan and sweep change the copy's fields); moving one
// moves what it owns, or keeps pointing where it pointed.
class ResolvedConfig {
public:
    ResolvedConfig() = default;
    explicit ResolvedConfig(const Config& c) : p_(&own_.emplace(c)) {}   // copy-constructs (cheaper than assigning)
    explicit ResolvedConfig(Config* in_place) : p_(in_place) {}
    ResolvedConfig(const ResolvedConfig& o) {
        if (o.p_) p_ = &own_.emplace(*o.p_);
    }
    static_assert(std::is_nothrow_move_constructible_v<Config> && std::is_nothrow_move_assignable_v<Config>,
                  "the moves below are noexcept");
    ResolvedConfig(ResolvedConfig&& o) noexcept : p_(o.p_) {
        if (o.own_) p_ = &own_.emplace(std::move(*o.own_));
    }
    ResolvedConfig& operator=(const ResolvedConfig& o) {
        if (this == &o) return *this;
        if (!o.p_) own_.reset();
        else if (own_) *own_ = *o.p_;
        else own_.emplace(*o.p_);
        p_ = own_ ? &*own_ : nullptr;
        return *this;
    }
    ResolvedConfig& operator=(ResolvedConfig&& o) noexcept {
        if (this == &o) return *this;
        if (!o.own_) {
            own_.reset();
            p_ = o.p_;
        } else {
            if (own_) *own_ = std::move(*o.own_);
            else own_.emplace(std::move(*o.own_));
            p_ = &*own_;
        }
        return *this;
    }
    Config* operator->() { return p_; }
    const Config* operator->() const { return p_; }
    Config& operator*() { return *p_; }
    const Config& operator*() const { return *p_; }

private:
    std::optional<Config> own_;
    Config* p_ = nullptr;
};

// A configuration with every default and id resolved. It points into the catalog and, for a
// custom model, into the Config given to resolve() (or resolve_in_place()): both must outlive it.
struct Resolved {
    Resolved() = default;
    explicit Resolved(const Config& c) : config(c) {}          // owns a copy of c
    explicit Resolved(Config* in_place) : config(in_place) {}  // points at *in_place
    ResolvedConfig config;                  // defaults filled in (see ResolvedConfig for who owns it)
    const ModelArch* arch = nullptr;
    const CatalogModel* catalog_model = nullptr;
    const ParamCounts* counts = nullptr;    // the catalog's, or own_counts
    // A custom architecture filled in by code without a stack gets one here (with_stack), and
    // its counts; shared so that copies of a Resolved keep pointing at live objects.
    std::shared_ptr<const ModelArch> own_arch;
    std::shared_ptr<const ParamCounts> own_counts;
    double total_params = 0;                // counts.total()
    double scale = 1;                       // num_parameters override / derived total
    const Gpu* gpu = nullptr;
    // A custom GPU (config gpu "custom"): built from its fields here, shared like own_arch.
    std::shared_ptr<const CustomGpuBuild> own_gpu;
    const WeightFormat* wf = nullptr;
    const KvFormat* kv = nullptr;
    Runtime runtime = Runtime::pytorch;     // the formulas' family: ollama runs llama-server, so llama_cpp
    Runtime engine = Runtime::pytorch;      // what the configuration names (ollama stays ollama)
    const EngineVersion* engine_version = nullptr;   // the engine's version and defaults (nullptr: pytorch, none)
    std::string engine_version_note;   // runtime_version read as another row (the report warns); "" when its own
    // Speculative decoding (resolve.cpp speculative_terms): the MTP layers' or draft model's
    // weights on one GPU of the last stage, bytes, and the KV bytes each token adds there.
    double spec_weights = 0;
    double spec_kv_rate = 0;
    const RuntimeProfile* rt = nullptr;
    Parallelism par;
    // Data-parallel attention (Config::dp_attention): attention runs in dp_attn groups of
    // attn_tp = tp / dp_attn GPUs; without it dp_attn = 1 and attn_tp = tp. SGLang's groups may
    // span several GPUs; TensorRT-LLM's enable_attention_dp makes every rank its own (dp_attn = tp).
    int dp_attn = 1;
    int attn_tp = 1;
    // The GPUs a dense MLP and the shared experts split over: tp, or 1 under TensorRT-LLM's
    // attention DP, which runs them whole on every rank (its models' GatedMLP
    // overridden_tp_size=1 if enable_attention_dp); the routed experts split over tp (or ep) always.
    int dense_tp = 1;
    // The batch's sequences on one GPU: all of them, or under data-parallel attention the busiest
    // group's share, ceil(batch / dp_attn). Read from the configuration each time: fit.cpp and the
    // sweeps change its batch after resolve().
    double sequences_per_gpu() const;
    bool training = false;
    long long micro_batches = 1;            // gradient-accumulation steps per optimizer step
    int virtual_stages = 1;                 // model chunks per pipeline stage (interleaved schedule; else 1)
    double act_bytes = 2;                   // bytes per activation element
    QuantParams qp;
    WeightScheme scheme;                    // bits class by class (non-GGUF): the chosen format's, or the checkpoint's
    bool native_weights = false;            // `weights` "native": the scheme is the checkpoint's own
    const WeightFormat* checkpoint_format = nullptr;   // the checkpoint's quantization_config format; null: not quantized
    double lin_bits = 16;                   // bits of a quantized linear weight (non-GGUF)
    double float_bits = 16;                 // bits of tensors a quantizer leaves alone
    bool fp32 = false;                      // fp32 weights (no mixed precision)
    GgufTraits gguf;
    VariantList variants;
    // Layers of variant v in pipeline stage s: stage_count(s)[v]. Up to kInlineStages stages live
    // inline (no allocation per estimate); deeper pipelines use the vector.
    static constexpr int kInlineStages = 4;
    std::array<std::uint16_t, kInlineStages * kMaxVariants> stage_counts_inline{};
    std::vector<std::uint16_t> stage_counts_heap;
    int stage_count_stages = 0;
    std::uint16_t* stage_count(int s) {
        return (stage_count_stages <= kInlineStages ? stage_counts_inline.data() : stage_counts_heap.data()) +
               std::size_t(s) * kMaxVariants;
    }
    const std::uint16_t* stage_count(int s) const { return const_cast<Resolved*>(this)->stage_count(s); }
    // Sizes the table for `stages`; build_variants zeroes a variant's column when it adds the
    // variant (only the variants' columns are read).
    void reset_stage_counts(int stages) {
        stage_count_stages = stages;
        if (stages > kInlineStages) stage_counts_heap.resize(std::size_t(stages) * kMaxVariants);
    }
    EdgeWeights edges;                      // after tp
    EdgeWeights edges_whole;                // no split
    const Link* link = nullptr;             // config.link resolved (nullptr = the GPU's own)
    const Link* inter_node_link = nullptr;  // config.inter_node_link resolved (nullptr = default)
    const Catalog* catalog = nullptr;       // for the GPUs' default links
    // A model read from a file (ModelArch::file, inference only): the exact bytes one GPU of
    // each pipeline stage holds of its layers, and of the embedding table and head
    // (file_stage_weights in memory.cpp). Empty: the formulas size the weights.
    std::vector<double> file_layers;
    double file_embedding = 0;
    double file_head = 0;
    // llama.cpp --n-cpu-moe (config n_cpu_moe > 0; cpu_moe_weights in memory.cpp): the routed-expert
    // bytes of the first N layers that one GPU of each pipeline stage does not hold, and the same
    // experts whole, as host RAM holds them once. Before `scale`. Empty / 0: none.
    std::vector<double> cpu_moe_stage;
    double cpu_moe_host = 0;
};

// The GPUs automatic tensor parallelism may span: one node (the intra-node link's domain, a
// bridged pair's whole machine; 1 when the link is inter-node; 0 when the GPU has no links).
int tp_node_size(const Catalog& catalog, const Gpu& gpu, const Link* link);

// `measured` (may be null): GPUs that stand in for the catalog's entries of the same id.
Resolved resolve(const Config& config, const Catalog& catalog, const GpuOverlay* measured = nullptr);
// The same, filling in `config`'s defaults in place (estimate(): the Report's configuration); the
// Resolved points at `config` (and, for a custom model, into it), which must outlive it.
Resolved resolve_in_place(Config& config, const Catalog& catalog, const GpuOverlay* measured = nullptr);
// The same resolved configuration over the other kind of intra-node link (alternative_link()).
LinkTimes alternative_of(const Resolved& r);
// sweep() over `gpus` (the catalog's, or others such as a custom GPU) in place of catalog.gpus:
// SweepPoint::gpu indexes `gpus`. recommend() tries a custom GPU with it.
std::vector<SweepPoint> sweep_gpus(const Config& base, const Catalog& catalog, const std::vector<const Gpu*>& gpus, int max_gpus,
                                   const std::vector<std::string>& formats, const GpuOverlay* measured);
// Why an engine does not run on a GPU (Apple, Pascal, not NVIDIA for TensorRT-LLM, an old ROCm
// architecture, Gaudi); `runtime` as Resolved::runtime names it (Ollama is llama_cpp).
enum class GpuRefusal { none, apple, pascal, not_nvidia, rocm_arch, gaudi };
GpuRefusal gpu_refusal(Runtime runtime, const Gpu& gpu);
// The serving engines that run on `gpu`, as engine_bit()s (Report::gpu_engines).
unsigned engines_on_gpu(const Gpu& gpu);
// Points a resolved configuration at another GPU (nothing else depends on it) and checks that
// the runtime runs there (gpu_refusal; throws Error("runtime") naming the GPU).
void bind_gpu(Resolved& r, const Gpu& gpu);
// Exact bytes win over formulas: fills file_layers / file_embedding / file_head from the
// model's file, split like the formulas split each layer (tp, ep) and the stack (pp).
void file_stage_weights(Resolved& r);
// llama.cpp --n-cpu-moe: fills cpu_moe_stage / cpu_moe_host (after build_variants and
// file_stage_weights; a model read from a file keeps its bytes, split by the formulas' shares).
void cpu_moe_weights(Resolved& r);
// Groups the layers into variants and computes what does not depend on context or batch.
void build_variants(Resolved& r);

// Fraction of the KV heads one GPU holds under tensor parallelism (at least one head).
double kv_head_fraction(int n_kv_heads, int tp);
double kv_head_fraction(const ModelArch& a, int tp);

LayerSplit layer_on_gpu(const Resolved& r, int layer, int tp, int ep);

EdgeWeights edge_weights(const Resolved& r, int tp);

// A per-layer figure for the whole layer, or for one GPU's share under tensor parallelism.
enum class Share { whole_layer, per_gpu };
// KV values (not bytes) one token of one sequence adds to layer `layer`.
double kv_values_per_token(const Resolved& r, int layer, Share share);
// Tokens layer `layer` caches for a sequence of `context` tokens (sliding window or chunk,
// each runtime's padding and blocks).
long long kv_cached_tokens(const Resolved& r, int layer, long long context);
// kv_cached_tokens for a variant, from what build_variants worked out (the hot loops' form).
inline long long variant_cached_tokens(const Resolved& r, const LayerVariant& v, long long context) {
    long long ctx = context;
    if (r.runtime == Runtime::llama_cpp) ctx = (ctx + kLlamaCppKvPad - 1) / kLlamaCppKvPad * kLlamaCppKvPad;
    return v.kv_cap > 0 && v.kv_cap < ctx ? v.kv_cap : ctx;
}
// Sparse-attention indexer key bytes one token adds to layer `layer` (DeepSeek V3.2 DSA).
double indexer_bytes_per_token(const Resolved& r, int layer);
// The fixed recurrent state of one sequence in layer `layer` (Mamba, Gated DeltaNet), bytes;
// 0 for attention-only layers.
double state_bytes_per_sequence(const Resolved& r, int layer, Share share);

// Inference: activation elements per token in flight at the peak of layer `layer`'s forward.
double inference_elements_per_token(const Resolved& r, int layer);
// gnu::pure (they only read): compute()'s stage loop in estimate.cpp keeps r's fields in
// registers across its calls into memory.cpp, as GCC inferred when the two were one file.
// Training: bytes layer `layer` keeps for backward, one micro-batch, one GPU.
[[gnu::pure]] double train_layer_bytes(const Resolved& r, int layer, Recompute recompute);
// Whether `recompute selective` runs as PyTorch's op-level selective checkpointing (the
// torchtitan and fsdp profiles, on a model whose every block it applies to: memory.cpp), and the
// weights of the matmuls it recomputes per token over the whole model (their FLOPs: 2x).
bool op_sac_applies(const Resolved& r);
double op_sac_recomputed_params(const Resolved& r);
// Context parallelism: the ring's K/V buffers of a stage whose variants have `counts` layers (memory.cpp; out of line).
[[gnu::pure]] double ring_attention_buffer_bytes(const Resolved& r, const std::uint16_t* counts, std::size_t nv);
// Whether a device holds the output head (llama.cpp: the last one), which sizes its buffer.
enum class OutputHead { elsewhere, here };
// llama.cpp's CUDA compute buffer for one device (ollama's closed form, checked against logs).
[[gnu::pure]] double llama_cpp_compute_buffer(const Resolved& r, OutputHead head);

// LoRA adapter parameters of layer `layer` (whole layer, before tensor parallelism).
double lora_layer_params(const Resolved& r, int layer);

// The numbers of an estimate, without the report's strings (fit() and sweep() search with it).
struct Totals {
    MemoryParts per_gpu;          // the most loaded GPU
    int worst_stage = 0;          // the pipeline stage it belongs to (cache_detail() splits its kv_cache)
    OverheadDetail overhead;
    double act_per_layer = 0;
    double host = 0;
    double capacity = 0;
    double usable = 0;
    double headroom = 0;
    double outside_budget = 0;    // vLLM: context and CUDA graphs outside its budget
    double kv_capacity_tokens = 0;
    double max_concurrency = 0;   // sequences of `context` tokens the KV pool holds (the tightest stage)
    double kv_pool_bytes = 0;     // that stage's pool for the growing cache and recurrent state, bytes
    int kv_stage = 0;             // which stage that is
    double engine_fraction = 0;   // SGLang mem_fraction_static / TensorRT-LLM free_gpu_memory_fraction used (0: other engines)
    bool fits = false;
};
// memory.kv_capacity_sensitivity of a serving estimate (estimate.cpp): `given` is the
// configuration as given (its unset keys stay the engine's defaults in each changed copy).
void kv_sensitivity(const Config& given, const Catalog& catalog, const GpuOverlay* measured, Report& rep);
Totals compute(const Resolved& r);
// Pipeline stage `stage`'s per-sequence cache on one GPU, by layer kind (sums to its kv_cache).
CacheDetail cache_detail(const Resolved& r, int stage);

// Training: micro-batches whose activations pipeline stage s of p holds at its peak, with m
// micro-batches per step and v chunks per stage. 1F1B (and ZB-H1, whose peak memory is 1F1B's:
// Qi et al. 2023, sec. 3.1): min(p - s, m), p on the first stage. Interleaved with v chunks
// (Megatron-LM schedules.py): 2(p - s - 1) + (v - 1)p warm-up forwards plus the one in flight,
// each of 1/v of the stage's layers, at most m x v: on the first stage (v p + p - 1) / v =
// p (1 + (p - 1) / (p v)) stage-micro-batches (Korthikanti et al. 2022, sec. 4.2.3).
// DualPipe (DeepSeek-V3 report, arXiv:2412.19437, Table 2): PP + 1 micro-batches of one
// chunk's activations per device, at most m (each micro-batch passes each device once, in one of
// its two chunks); the stage's terms cover both chunks, so that is (PP + 1) / 2 of them.
inline double train_inflight_micro_batches(int p, int s, long long m, int v, bool dualpipe = false) {
    if (dualpipe && p > 1) return double(std::min<long long>(p + 1LL, m)) / 2.0;
    if (v <= 1) return double(std::min<long long>(p - s, m));
    const double chunks = std::min(double(m) * v, 2.0 * (p - s - 1) + (v - 1.0) * p + 1.0);
    return chunks / v;
}

// Training: what a layout search needs of stage s's memory, on one GPU of r's layout (before
// ZeRO and offload; r.config.zero must be 0, r.config.offload none): plan.cpp composes the rest.
struct TrainStageTerms {
    double params = 0;          // parameters (the trainable count of full training)
    double weights = 0;         // weight bytes in the weights' dtype (before ZeRO and the framework)
    double block_params = 0;    // parameters of one transformer block (their mean)
    double act_inflight = 0;    // activation bytes per micro-batch in flight
    double act_once = 0;        // activation bytes held once
    double cuda_context = 0;
};
TrainStageTerms train_stage_terms(const Resolved& r, int s);

// Sums over the pipeline stages of one tensor-parallel rank, for llama.cpp's partial offload
// (computed only when a model does not fit).
struct StageSums {
    double total = 0;          // everything on the GPUs of one replica / tp
    double layer_bytes = 0;    // the layers' weights and KV cache
    double expert_bytes = 0;   // the routed experts' weights
};
StageSums stage_sums(const Resolved& r);

// A report holding a copy of `config` and nothing else yet (fill_report() fills it in).
Report report_for(const Config& config);
// The whole report for an already resolved configuration (a copy of r.config goes in it).
Report estimate_resolved(const Resolved& r);
// The same into `rep`, whose config r.config already is (resolve_in_place(rep.config, ...)).
void fill_report(const Resolved& r, Report& rep);

}  // namespace gpusizer::detail
