// bench_readers.cpp: the model-file readers' speed.
//   a 1,000-tensor GGUF header (metadata of a Llama-like file, no tokenizer): the header of a
//     70B-class model read from memory, the cost every `inspect` and Hub lookup pays per part
//   the same with a 128,256-token vocabulary (Llama 3's: tokens, scores, token types), which
//     real files carry and the reader must walk (kept: the first 4,096 items of each array)
//   a 1,000-tensor safetensors header (JSON, through the SAX reader)
// Run: build/native/bench_readers --benchmark_repetitions=10 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include "gpusizer/model_file.hpp"
#include "model_fixtures.hpp"

namespace {

using namespace gpusizer;
using namespace gpusizer::fixtures;

// 1,000 tensors: 111 layers x 9 (norms, q, k, v, o, gate, up, down) + embeddings.
GgufWriter thousand_tensors() {
    GgufWriter w;
    w.write_data = false;
    w.kv_arch("llama", {{"block_count", 111}, {"context_length", 131072}, {"embedding_length", 8192},
                        {"feed_forward_length", 28672}, {"attention.head_count", 64},
                        {"attention.head_count_kv", 8}});
    w.kv_str("general.name", "Bench 1000");
    w.kv_f32("llama.rope.freq_base", 500000.f);
    w.tensor("token_embd.weight", {8192, 128256}, "Q4_K");
    for (int l = 0; l < 111; ++l) add_block(w, l, BlockShape{8192, 64, 8, 128, 28672}, "Q4_K", "Q6_K");
    return w;
}

void run(benchmark::State& state, const Bytes& bytes) {
    // Header bytes only, as read over HTTP; the file's size is stated, so extents are checked.
    MemorySource src("bench.gguf", bytes, std::uint64_t{1} << 40);
    for (auto _ : state) {
        GgufHeader h = read_gguf_header(src);
        benchmark::DoNotOptimize(h.tensors.data());
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(bytes.size()));
}

void BM_GgufHeader1000Tensors(benchmark::State& state) {
    static const Bytes bytes = thousand_tensors().bytes();
    run(state, bytes);
}
BENCHMARK(BM_GgufHeader1000Tensors)->Unit(benchmark::kMicrosecond);

void BM_GgufHeader1000TensorsVocab128k(benchmark::State& state) {
    static const Bytes bytes = [] {
        GgufWriter w = thousand_tensors();
        std::vector<std::string> tokens(128256);
        for (std::size_t k = 0; k < tokens.size(); ++k) tokens[k] = "tok" + std::to_string(k);
        w.kv_arr_str("tokenizer.ggml.tokens", tokens);
        w.kv_arr_f32("tokenizer.ggml.scores", std::vector<float>(128256, 0.f));
        w.kv_arr_i32("tokenizer.ggml.token_type", std::vector<std::int32_t>(128256, 1));
        return w.bytes();
    }();
    run(state, bytes);
}
BENCHMARK(BM_GgufHeader1000TensorsVocab128k)->Unit(benchmark::kMicrosecond);

void BM_SafetensorsHeader1000Tensors(benchmark::State& state) {
    static const Bytes bytes = [] {
        SafetensorsWriter w;
        w.write_data = false;
        for (int k = 0; k < 1000; ++k)
            w.tensor("model.layers." + std::to_string(k / 9) + ".t" + std::to_string(k) + ".weight", "BF16", {4096, 4096});
        return w.bytes();
    }();
    for (auto _ : state) {
        // The file's size is unknown (a header-only prefix): the extents are not checked against it.
        MemorySource src("bench.safetensors", bytes, std::uint64_t{1} << 40);
        SafetensorsHeader h = read_safetensors_header(src);
        benchmark::DoNotOptimize(h.tensors.data());
    }
}
BENCHMARK(BM_SafetensorsHeader1000Tensors)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
