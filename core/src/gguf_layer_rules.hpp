// gguf_layer_rules.hpp: llama.cpp's per-layer type predicates of a GGUF file type, resolved once
// for a model (internal: precision.cpp defines it, the estimate's build_variants reads it).
#pragma once

#include "gpusizer/precision.hpp"

namespace gpusizer {

// llama.cpp's use_more_bits (src/llama-quant.cpp): the first and last eighth of the layers and
// every third layer between them.
inline bool gguf_use_more_bits(int i, int n) { return i < n / 8 || i >= 7 * n / 8 || (i - n / 8) % 3 == 2; }

// The per-layer predicates a file type's rules read, resolved once for a model: key(layer) is
// gguf_layer_key(format, model, layer) without looking the file type's rules up again (an
// estimate asks for a few dozen layers). The key changes only at layer `first`, n / frac, n/8
// and 7n/8 and, between them, with the period of 3 of use_more_bits.
struct GgufLayerRules {
    bool more = false;   // use_more_bits(layer, n)
    int first = 0;       // layer < first (attn_v, counted by i_attention_wv)
    int frac = 0;        // layer < n / frac (ffn_down)
    int n_layers = 0;
    bool any() const { return more || first > 0 || frac > 0; }
    unsigned key(int layer) const {
        unsigned k = 0;
        if (more && gguf_use_more_bits(layer, n_layers)) k |= 1;
        if (first > 0 && layer < first) k |= 2;
        if (frac > 0 && layer < n_layers / frac) k |= 4;
        return k;
    }
};
GgufLayerRules gguf_layer_rules(const WeightFormat& format, const GgufTraits& model);

// Whether gguf_tensor_type reads the layer index for a tensor class: only attn_v and what
// llama.cpp counts with it (attn_qkv, attn_kv_b: i_attention_wv) and ffn_down (i_ffn_down). Two
// layers of one shape then differ only in these classes (tests/test_precision.cpp checks every
// file type and class against it).
inline bool gguf_class_reads_layer(TensorClass cls) {
    return cls == TensorClass::attn_v || cls == TensorClass::attn_qkv_fused || cls == TensorClass::attn_kv_b ||
           cls == TensorClass::ffn_down || cls == TensorClass::ffn_down_exps;
}

}  // namespace gpusizer
