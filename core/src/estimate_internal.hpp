// estimate_internal.hpp (internal): the resolved configuration and the per-part functions of
// estimate.cpp, exposed to fit.cpp and to the tests of individual formulas.
#pragma once

#include "gpusizer/catalog.hpp"
#include "gpusizer/config.hpp"
#include "gpusizer/model.hpp"
#include "gpusizer/precision.hpp"
#include "gpusizer/report.hpp"

namespace gpusizer::detail {

struct RuntimeProfile;

// A configuration with every default and id resolved.
struct Resolved {
    Config config;                          // defaults filled in
    const ModelArch* arch = nullptr;
    const CatalogModel* catalog_model = nullptr;
    ParamCounts counts;
    double scale = 1;                       // num_parameters override / derived total
    const Gpu* gpu = nullptr;
    const WeightFormat* wf = nullptr;
    const KvFormat* kv = nullptr;
    Runtime runtime = Runtime::pytorch;
    const RuntimeProfile* rt = nullptr;
    Parallelism par;
    bool training = false;
    long long micro_batches = 1;            // gradient-accumulation steps per optimizer step
    double act_bytes = 2;                   // bytes per activation element
    QuantParams qp;
    double lin_bits = 16;                   // bits of a quantized linear weight (non-GGUF)
    double float_bits = 16;                 // bits of tensors a quantizer leaves alone
};

Resolved resolve(const Config& config, const Catalog& catalog);

// Fraction of the KV heads one GPU holds under tensor parallelism (at least one head).
double kv_head_fraction(const ModelArch& a, int tp);

// One layer on one GPU: parameters and weight bytes after the tensor/expert split.
struct LayerSplit {
    double params = 0;
    double active_params = 0;
    double weight_bytes = 0;
};
LayerSplit layer_on_gpu(const Resolved& r, int layer, int tp, int ep);

// Embedding, head and the tensors outside the layers, on one GPU.
struct EdgeWeights {
    double embedding_params = 0, embedding_bytes = 0;   // first stage (host RAM for llama.cpp)
    double positions_params = 0, positions_bytes = 0;   // first stage
    double head_params = 0, head_bytes = 0;             // last stage
    double other_params = 0, other_bytes = 0;           // last stage (final norm, pooler, ...)
    bool head_is_duplicate = false;                     // tied table copied to the last stage
    bool embedding_on_host = false;                     // llama.cpp keeps token_embd in RAM
};
EdgeWeights edge_weights(const Resolved& r, int tp);

// KV values (not bytes) one token of one sequence adds to layer `layer`; per GPU or whole model.
double kv_values_per_token(const Resolved& r, int layer, bool per_gpu);
// Tokens layer `layer` caches for a sequence of `context` tokens (sliding window, padding).
long long kv_cached_tokens(const Resolved& r, int layer, long long context);

// Inference: activation elements per token in flight at the peak of layer `layer`'s forward.
double inference_elements_per_token(const Resolved& r, int layer);
// Training: bytes layer `layer` keeps for backward, one micro-batch, one GPU.
double train_layer_bytes(const Resolved& r, int layer, Recompute recompute);
// llama.cpp's CUDA compute buffer for one device (ollama's closed form, checked against logs).
double llama_cpp_compute_buffer(const Resolved& r, bool holds_output);

// LoRA adapter parameters of layer `layer` (whole layer, before tensor parallelism).
double lora_layer_params(const Resolved& r, int layer);

// The estimate with an already resolved configuration (fit() calls it in its searches).
Report estimate_resolved(const Resolved& r);

}  // namespace gpusizer::detail
