// test_support.hpp: the catalog from the source tree, and small helpers shared by the tests.
#pragma once

#include <catch2/catch.hpp>

#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpusizer/gpusizer.hpp"

namespace gpusizer::test {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
constexpr double kMiB = 1024.0 * 1024.0;

inline const Catalog& catalog() {
    static const Catalog c = load_catalog(GPUSIZER_TEST_ASSETS);
    return c;
}

inline Config config(const std::string& model, const std::string& gpu = "h100-sxm") {
    Config c;
    c.model.id = model;
    c.gpu = gpu;
    return c;
}

inline Report run(const Config& c) { return estimate(c, catalog()); }

// `model` served on `gpus` x `gpu` by `runtime` (the shape most inference tests start from).
inline Config serving(const std::string& model, const std::string& gpu, Runtime runtime, int gpus = 1) {
    Config c = config(model, gpu);
    c.runtime = runtime;
    c.gpus = gpus;
    return c;
}

// `model` trained on `gpus` x `gpu` (full training), by default with the runtime chosen
// automatically.
inline Config training(const std::string& model, const std::string& gpu, int gpus = 1,
                       Runtime runtime = Runtime::automatic) {
    Config c = serving(model, gpu, runtime, gpus);
    c.mode = Mode::train;
    return c;
}

// Llama 3 8B trained on one HGX H100 node (8 GPUs, ZeRO-3, global batch 64): the power and cost
// tests' training machine.
inline Config hgx_h100_8b_training() {
    Config c = config("llama-3-8b", "h100-sxm");
    c.mode = Mode::train;
    c.gpus = 8;
    c.zero = 3;
    c.global_batch = 64;
    return c;
}

// Does one of the report's warnings contain `text`?
inline bool has_warning(const Report& r, std::string_view text) {
    for (const std::string& w : r.warnings)
        if (w.find(text) != std::string::npos) return true;
    return false;
}

// Llama 3 8B trained on `gpus` GPUs split tp x pp x dp: 2048-token sequences, global batch 16
// (bf16, no recomputation by default), the run the interconnect, schedule and overlap tests share.
inline Config llama3_8b_training(const std::string& gpu, int gpus, int tp, int pp, int dp) {
    Config c = config("llama-3-8b", gpu);
    c.mode = Mode::train;
    c.gpus = gpus;
    c.tp = tp;
    c.pp = pp;
    c.dp = dp;
    c.context = 2048;
    c.global_batch = 16;
    return c;
}

// The recurrent mixers the layer tests share: `n_heads` heads of `head_dim`, kernel 4.
inline RecurrentSpec recurrent_heads(RecurrentKind kind, int n_heads, int head_dim) {
    RecurrentSpec r;
    r.kind = kind;
    r.n_heads = n_heads;
    r.head_dim = head_dim;
    r.d_conv = 4;
    return r;
}
// Mamba-2, 48 heads of 64 (d_inner 3072), one group of B/C, d_state 128; conv bias, no
// projection bias (transformers' MambaMixer2 defaults).
inline RecurrentSpec mamba2_48x64() {
    RecurrentSpec r = recurrent_heads(RecurrentKind::mamba2, 48, 64);
    r.n_groups = 1;
    r.d_state = 128;
    return r;
}
// Qwen3-Next-80B-A3B's linear layers (Qwen/Qwen3-Next-80B-A3B-Instruct config.json): Gated
// DeltaNet, 16 key heads and 32 value heads of 128, conv1d without bias.
inline RecurrentSpec qwen3_next_deltanet() {
    RecurrentSpec r = recurrent_heads(RecurrentKind::gated_deltanet, 32, 128);
    r.n_k_heads = 16;
    r.k_head_dim = 128;
    r.conv_bias = false;
    return r;
}

// Bytes of the whole model's weights (no parallel split) for a catalog model and a format.
inline double model_weight_bytes(const std::string& model, const std::string& weights) {
    Config c = config(model, "h200");
    c.weights = weights;
    const Report r = run(c);
    return r.weights_bits_per_param * r.params / 8.0;
}

// The text of a file in the source tree's assets/ ("gpus.json"), for tests that edit it.
inline std::string read_asset(const std::string& name) {
    std::ifstream in(std::string(GPUSIZER_TEST_ASSETS) + "/" + name, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The Error that `f` throws, or none.
template <typename F>
std::optional<Error> thrown_error(F&& f) {
    try {
        f();
    } catch (const Error& e) {
        return e;
    }
    return std::nullopt;
}

// The message of the Error that `f` throws, or "" when it throws none.
template <typename F>
std::string thrown_message(F&& f) {
    const std::optional<Error> e = thrown_error(f);
    return e ? e->what() : "";
}

// What `read` (read_gguf_header, read_safetensors_header) makes of `bytes` as the file `name`.
template <typename Header>
Header read_header(Header (*read)(ByteSource&), const std::vector<std::uint8_t>& bytes, const std::string& name) {
    MemorySource src(name, bytes);
    return read(src);
}

// The message of the Error that `read` gives for `bytes` as the file `name` (a hostile file's
// names the file and the field), or "" when it reads.
template <typename Header>
std::string header_error(Header (*read)(ByteSource&), const std::vector<std::uint8_t>& bytes, const std::string& name) {
    return thrown_message([&] { (void)read_header(read, bytes, name); });
}

// The key of the Error that estimating `c` throws, or "" when it estimates.
inline std::string error_key(const Config& c) {
    const std::optional<Error> e = thrown_error([&] { (void)run(c); });
    return e ? e->key() : "";
}

// Bad input that `parse` must refuse with an Error whose message holds both `mentions` (the key)
// and `also` (what is allowed).
struct BadInput {
    const char* input;
    const char* mentions;
    const char* also;
};

template <typename Parse, std::size_t N>
void expect_errors(const BadInput (&cases)[N], Parse parse) {
    for (const BadInput& b : cases) {
        INFO(b.input);
        const std::string msg = thrown_message([&] { (void)parse(std::string(b.input)); });
        CHECK(!msg.empty());
        CHECK(msg.find(b.mentions) != std::string::npos);
        CHECK(msg.find(b.also) != std::string::npos);
    }
}

}  // namespace gpusizer::test
