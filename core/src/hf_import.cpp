// hf_import.cpp: a Hugging Face config.json as text, and a synthetic architecture for a bare
// parameter count.
//
// [SECTION] config.json text -> ModelArch (the importer itself is the one table of hf_rows.cpp,
//           read by hf_families.cpp; rows read by their fields in hf_infer.cpp)
// [SECTION] A synthetic Llama-shaped architecture for a bare parameter count
#include <cmath>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "gpusizer/error.hpp"
#include "gpusizer/io.hpp"
#include "hf_families.hpp"
#include "json_internal.hpp"
#include "json_read.hpp"

namespace gpusizer {

// ---------------------------------------------------------------------------------------------
// [SECTION] config.json text -> ModelArch
// ---------------------------------------------------------------------------------------------

ModelArch arch_from_hf_config(std::string_view text, std::vector<std::string>* warnings) {
    return arch_from_hf_json(detail::parse_json(text, "hf_config"), warnings);
}

// ---------------------------------------------------------------------------------------------
// [SECTION] A synthetic architecture for a bare parameter count
// ---------------------------------------------------------------------------------------------

ModelArch synthesize_arch(double params) {
    if (!(params >= 5e7 && params <= 1e13))
        throw_error("model.num_parameters", "must be between 5e7 and 1e13, got " + std::to_string(params));
    // A Llama-3-shaped dense model: head_dim 128, GQA with 8 KV heads (when the head count
    // allows), SwiGLU with intermediate = 3.5 x hidden, untied embeddings, and depth close to
    // hidden/128 as in Llama 3 (8B: 4096/32, 70B: 8192/80, 405B: 16384/126). One layer holds
    // h^2 (2 + 2 kv/heads) for attention plus 3 x 3.5 h^2 for the MLP. The shape closest to the
    // requested count is kept, and num_parameters scales the derived counts to the exact figure.
    ModelArch a;
    a.id = "custom";
    a.name = "custom dense model";
    a.model_type = "llama";
    a.vocab = params < 2e9 ? 32000 : 128256;   // small models: a Llama-2-sized vocabulary
    a.mlp = MlpKind::gated;
    a.norm = NormKind::rms;
    double best_err = 1e300;
    for (int heads = 2; heads <= 256; heads += 2) {
        const int h = heads * 128;
        const int kv = heads % 8 == 0 ? 8 : heads;
        const double per_layer = double(h) * h * (2.0 + 2.0 * kv / heads) + 3.0 * h * (3.5 * h);
        const double embed = 2.0 * double(a.vocab) * h;
        const int layers = std::max(1, int(std::lround((params - embed) / per_layer)));
        const double total = embed + layers * per_layer;
        const double aspect = std::fabs(std::log(double(layers) / (h / 128.0)));
        const double err = std::fabs(std::log(total / params)) + 0.25 * aspect;
        if (err < best_err) {
            best_err = err;
            a.hidden = h;
            a.n_heads = heads;
            a.n_kv_heads = kv;
            a.n_layers = layers;
        }
    }
    a.head_dim = a.v_head_dim = 128;
    a.intermediate = int(std::lround(3.5 * a.hidden / 256.0)) * 256;
    a.max_context = 131072;
    a.num_parameters_override = params;
    set_stack(a, uniform_stack(a));
    validate(a);
    return a;
}

}  // namespace gpusizer
