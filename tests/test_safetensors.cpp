// test_safetensors.cpp: the safetensors header reader on fixtures from tests/model_fixtures.cpp.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>

#include "gpusizer/error.hpp"
#include "gpusizer/model_file.hpp"
#include "model_fixtures.hpp"
#include "test_support.hpp"

using namespace gpusizer;
using namespace gpusizer::fixtures;

namespace {

SafetensorsHeader read_bytes(const Bytes& b, const std::string& name = "model.safetensors") {
    return test::read_header(read_safetensors_header, b, name);
}

std::string error_of(const Bytes& b) { return test::header_error(read_safetensors_header, b, "bad.safetensors"); }

std::string json_error(const std::string& json, std::uint64_t data = 0) { return error_of(safetensors_raw(json, data)); }

}  // namespace

TEST_CASE("safetensors dtypes: bits per element as safetensors' Dtype::bitsize", "[safetensors]") {
    REQUIRE(safetensors_dtypes().size() == test_dtypes().size());
    for (const auto& d : test_dtypes()) {
        INFO(d);
        REQUIRE(safetensors_dtype(d) != nullptr);
        CHECK(safetensors_dtype(d)->bits == test_dtype_bits(d));
    }
    CHECK(safetensors_dtype("F8_E4M3FN") == nullptr);  // torch's name, not the format's
    CHECK(safetensors_dtype("bf16") == nullptr);
}

TEST_CASE("safetensors: every dtype, metadata, exact bytes and classes", "[safetensors]") {
    SafetensorsWriter w;
    w.metadata = {{"format", "pt"}};
    for (const auto& d : test_dtypes()) w.tensor("t." + d, d, {4, 6});  // 24 elements: whole bytes even for F4, F6
    const SafetensorsHeader h = read_bytes(w.bytes());
    REQUIRE(h.metadata.size() == 1);
    CHECK(h.metadata[0].second == "pt");
    REQUIRE(h.tensors.size() == test_dtypes().size());
    for (const auto& t : h.tensors) {
        INFO(t.name);
        CHECK(t.elements == 24);
        CHECK(t.bytes == 24 * test_dtype_bits(t.dtype) / 8);  // F4: 12 B, F6: 18 B, BF16: 48 B, C64: 192 B
    }
    CHECK(h.header_bytes == 8 + w.header_json().size());
    CHECK(h.data_bytes == w.data_bytes());
}

TEST_CASE("safetensors: GPTQ / AWQ packed int32 and MXFP4 uint8 tensors, Hugging Face classes", "[safetensors]") {
    SafetensorsWriter w;
    // A GPTQ 4-bit linear of in 4096 -> out 1024, group 128 (AutoGPTQ layout):
    //   qweight I32 [in / 8, out] (8 nibbles per int32), qzeros I32 [in / 128, out / 8],
    //   scales F16 [in / 128, out], g_idx I32 [in].
    w.tensor("model.layers.0.self_attn.q_proj.qweight", "I32", {512, 1024});
    w.tensor("model.layers.0.self_attn.q_proj.qzeros", "I32", {32, 128});
    w.tensor("model.layers.0.self_attn.q_proj.scales", "F16", {32, 1024});
    w.tensor("model.layers.0.self_attn.q_proj.g_idx", "I32", {4096});
    // gpt-oss MXFP4 experts: blocks U8 [experts, out, in / 32, 16], scales U8 [experts, out, in / 32].
    w.tensor("model.layers.0.mlp.experts.gate_up_proj_blocks", "U8", {4, 256, 8, 16});
    w.tensor("model.layers.0.mlp.experts.gate_up_proj_scales", "U8", {4, 256, 8});
    w.tensor("model.layers.0.mlp.router.weight", "BF16", {4, 256});
    w.tensor("model.layers.0.mlp.shared_expert.down_proj.weight", "BF16", {256, 128});
    w.tensor("model.layers.0.mlp.down_proj.weight", "F8_E4M3", {256, 128});
    w.tensor("model.layers.0.mlp.down_proj.weight_scale_inv", "F8_E8M0", {2, 1});
    w.tensor("model.embed_tokens.weight", "BF16", {100, 256});
    w.tensor("lm_head.weight", "BF16", {100, 256});
    w.tensor("model.norm.weight", "F32", {256});
    w.tensor("model.visual.blocks.0.attn.qkv.weight", "BF16", {768, 256});
    const SafetensorsModel m = safetensors_model_from_headers({read_bytes(w.bytes())});
    // Attention: qweight 512x1024x4 = 2,097,152; qzeros 32x128x4 = 16,384; scales 32x1024x2 = 65,536;
    // g_idx 4096x4 = 16,384. Together 2,195,456 bytes for 4096 x 1024 weights: 4.19 bits each.
    CHECK(m.totals.of(WeightClass::attention).bytes == 2097152 + 16384 + 65536 + 16384);
    // Routed experts: blocks 4x256x8x16 = 131,072; scales 4x256x8 = 8,192; router 4x256x2 = 2,048.
    CHECK(m.totals.of(WeightClass::routed_experts).bytes == 131072 + 8192 + 2048);
    CHECK(m.totals.of(WeightClass::shared_experts).bytes == 256 * 128 * 2);
    CHECK(m.totals.of(WeightClass::dense_mlp).bytes == 256 * 128 + 2);
    CHECK(m.totals.of(WeightClass::embeddings).bytes == 100 * 256 * 2);
    CHECK(m.totals.of(WeightClass::output).bytes == 100 * 256 * 2);
    CHECK(m.totals.of(WeightClass::norms).bytes == 256 * 4);
    CHECK(m.totals.of(WeightClass::vision).bytes == 768 * 256 * 2);
    CHECK(m.tensors.front().layer == 0);
    // Layer 0 holds everything but the embeddings, the head, the final norm and the vision tower
    // (whose blocks.0 is the tower's, not the language model's layer 0).
    CHECK(m.totals.layer_bytes(0, WeightClass::attention) == 2097152 + 16384 + 65536 + 16384);
    CHECK(m.totals.layer_bytes(0, WeightClass::routed_experts) == 131072 + 8192 + 2048);
    CHECK(m.totals.layer_bytes(0, WeightClass::vision) == 0);
    CHECK(m.totals.layer_bytes(0, WeightClass::embeddings) == 0);
    // By dtype: I32 = qweight + qzeros + g_idx.
    for (const auto& t : m.totals.by_type)
        if (t.type == "I32") CHECK(t.bytes == 2097152 + 16384 + 16384);
}

TEST_CASE("safetensors: a sharded checkpoint through model.safetensors.index.json", "[safetensors]") {
    SafetensorsWriter a, b;
    a.tensor("model.embed_tokens.weight", "BF16", {64, 32});
    a.tensor("model.layers.0.self_attn.q_proj.weight", "BF16", {32, 32});
    b.tensor("model.layers.1.self_attn.q_proj.weight", "BF16", {32, 32});
    b.tensor("lm_head.weight", "BF16", {64, 32});
    std::map<std::string, Bytes> files{{"model-00001-of-00002.safetensors", a.bytes()}, {"model-00002-of-00002.safetensors", b.bytes()}};
    const std::string index = R"({"metadata": {"total_size": 12288}, "weight_map": {
        "model.embed_tokens.weight": "model-00001-of-00002.safetensors",
        "model.layers.0.self_attn.q_proj.weight": "model-00001-of-00002.safetensors",
        "model.layers.1.self_attn.q_proj.weight": "model-00002-of-00002.safetensors",
        "lm_head.weight": "model-00002-of-00002.safetensors"}})";
    const SafetensorsIndex idx = parse_safetensors_index(index, "model.safetensors.index.json");
    CHECK(idx.total_size == 12288);
    CHECK(idx.files.size() == 2);
    auto open = [&files](const std::string& n) -> std::unique_ptr<ByteSource> {
        auto it = files.find(n);
        return it == files.end() ? nullptr : std::make_unique<MemorySource>(n, it->second);
    };
    const SafetensorsModel m = read_safetensors_model(idx, open);
    CHECK(m.files.size() == 2);
    CHECK(m.tensors.size() == 4);
    // 2 x 64x32x2 + 2 x 32x32x2 = 8192 + 4096 = 12,288 = the index's total_size.
    CHECK(m.totals.bytes == 12288);
    CHECK(m.index_total_size == m.totals.bytes);

    // The index places a tensor in a shard that does not hold it.
    const std::string wrong = R"({"weight_map": {"lm_head.weight": "model-00001-of-00002.safetensors"}})";
    CHECK_THROWS_WITH(read_safetensors_model(parse_safetensors_index(wrong, "i.json"), open), Catch::Contains("lm_head.weight"));
    // A missing shard.
    files.erase("model-00002-of-00002.safetensors");
    CHECK_THROWS_WITH(read_safetensors_model(idx, open), Catch::Contains("model-00002-of-00002.safetensors") && Catch::Contains("missing"));
    // Bad indexes.
    CHECK_THROWS_WITH(parse_safetensors_index("{}", "i.json"), Catch::Contains("i.json: weight_map"));
    CHECK_THROWS_WITH(parse_safetensors_index(R"({"weight_map": {"a": "../etc/passwd"}})", "i.json"), Catch::Contains("same folder"));
    CHECK_THROWS_WITH(parse_safetensors_index(R"({"weight_map": {"a": 3}})", "i.json"), Catch::Contains("weight_map: a"));
    CHECK_THROWS_WITH(parse_safetensors_index(R"({"weight_map": {"a": {"b": {"c": 1}}}})", "i.json"), Catch::Contains("nested"));
    CHECK_THROWS_WITH(parse_safetensors_index("{\"weight_map\": ", "i.json"), Catch::Contains("invalid JSON"));
    CHECK_THROWS_WITH(parse_safetensors_index("[1]", "i.json"), Catch::Contains("i.json: index") && Catch::Contains("JSON object"));
}

TEST_CASE("safetensors hostile input: every check gives an Error naming file and field", "[safetensors][hostile]") {
    SECTION("header length") {
        Bytes b;
        put_u64(b, 200'000'000);
        CHECK_THAT(error_of(b), Catch::Contains("bad.safetensors: header length") && Catch::Contains("limit"));
        Bytes c;
        put_u64(c, 1000);  // claims 1000 bytes, has none
        CHECK_THAT(error_of(c), Catch::Contains("header length"));
        CHECK_THAT(error_of({1, 2, 3}), Catch::Contains("header length"));
    }
    SECTION("truncated at every byte") {
        SafetensorsWriter w;
        w.metadata = {{"format", "pt"}};
        w.tensor("a", "F16", {3, 5});
        w.tensor("b", "F4", {2, 4});
        const Bytes good = w.bytes();
        for (std::size_t n = 0; n < good.size(); ++n) {
            INFO(n);
            REQUIRE(error_of(Bytes(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(n))).rfind("bad.safetensors: ", 0) == 0);
        }
    }
    SECTION("JSON that is not a header") {
        CHECK_THAT(json_error("[1,2]"), Catch::Contains("start with '{'"));
        CHECK_THAT(json_error("{\"a\":"), Catch::Contains("invalid JSON"));
        CHECK_THAT(json_error("{\"a\": 1}"), Catch::Contains("bad.safetensors: a"));
        CHECK_THAT(json_error(R"({"a": {"dtype": "F16", "shape": [[1]], "data_offsets": [0, 2]}})"), Catch::Contains("a: shape"));
        CHECK_THAT(json_error(R"({"a": {"dtype": "F16", "shape": [-1], "data_offsets": [0, 2]}})"), Catch::Contains("negative"));
        CHECK_THAT(json_error(R"({"a": {"dtype": "F16", "shape": [1.5], "data_offsets": [0, 2]}})"), Catch::Contains("whole numbers"));
        CHECK_THAT(json_error(R"({"a": {"dtype": "F17", "shape": [1], "data_offsets": [0, 2]}})"),
                   Catch::Contains("a: dtype") && Catch::Contains("allowed"));
        CHECK_THAT(json_error(R"({"a": {"dtype": "F16", "shape": [1]}})", 2),
                   Catch::Contains("a: data_offsets") && Catch::Contains("missing"));
        CHECK_THAT(json_error(R"({"a": {"dtype": "F16", "shape": [1], "data_offsets": [0]}})"), Catch::Contains("two numbers"));
        CHECK_THAT(json_error(R"({"a": {"dtype": "F16", "shape": [1], "data_offsets": [0, 2], "extra": {}}})", 2),
                   Catch::Contains("unexpected object"));
        CHECK_THAT(json_error(R"({"__metadata__": {"k": 1}})"), Catch::Contains("__metadata__: k") && Catch::Contains("strings"));
        CHECK_THAT(json_error(R"({"a": {"dtype": "F16", "shape": [1], "data_offsets": [0, 2]},
                                  "a": {"dtype": "F16", "shape": [1], "data_offsets": [2, 4]}})", 4), Catch::Contains("duplicate"));
        std::string deep = "{\"a\": {\"dtype\": \"F16\", \"shape\": ";
        for (int k = 0; k < 100000; ++k) deep += "[";
        CHECK_THAT(json_error(deep), Catch::Contains("a: shape"));
        std::string many_dims = R"({"a": {"dtype": "U8", "shape": [)";
        for (int k = 0; k < 20; ++k) many_dims += k ? ",1" : "1";
        CHECK_THAT(json_error(many_dims + R"(], "data_offsets": [0, 1]}})", 1), Catch::Contains("dimensions"));
    }
    SECTION("sizes and offsets") {
        // shape x dtype disagrees with data_offsets.
        CHECK_THAT(json_error(R"({"a": {"dtype": "F16", "shape": [3], "data_offsets": [0, 4]}})", 4),
                   Catch::Contains("a: data_offsets") && Catch::Contains("6"));
        // Overflowing shape: 2^40 x 2^40.
        CHECK_THAT(json_error(R"({"a": {"dtype": "F16", "shape": [1099511627776, 1099511627776], "data_offsets": [0, 0]}})"),
                   Catch::Contains("a: shape") && Catch::Contains("overflow"));
        // F4 with an odd count: half a byte.
        CHECK_THAT(json_error(R"({"a": {"dtype": "F4", "shape": [3], "data_offsets": [0, 1]}})", 1),
                   Catch::Contains("whole number of bytes"));
        // A hole and an overlap.
        CHECK_THAT(json_error(R"({"a": {"dtype": "U8", "shape": [2], "data_offsets": [2, 4]}})", 4), Catch::Contains("hole"));
        CHECK_THAT(json_error(R"({"a": {"dtype": "U8", "shape": [2], "data_offsets": [0, 2]},
                                  "b": {"dtype": "U8", "shape": [2], "data_offsets": [1, 3]}})", 3), Catch::Contains("overlaps"));
        CHECK_THAT(json_error(R"({"a": {"dtype": "U8", "shape": [2], "data_offsets": [2, 0]}})"), Catch::Contains("end before begin"));
        // Data beyond the file's end.
        CHECK_THAT(json_error(R"({"a": {"dtype": "U8", "shape": [64], "data_offsets": [0, 64]}})", 10), Catch::Contains("truncated file"));
    }
}

TEST_CASE("safetensors: Hugging Face tensor classes and layers", "[safetensors]") {
    CHECK(classify_hf_tensor("model.layers.3.self_attn.k_proj.weight") == WeightClass::attention);
    CHECK(classify_hf_tensor("model.layers.3.input_layernorm.weight") == WeightClass::norms);
    CHECK(classify_hf_tensor("model.layers.3.mlp.experts.7.up_proj.weight") == WeightClass::routed_experts);
    CHECK(classify_hf_tensor("model.layers.3.mlp.gate.weight") == WeightClass::routed_experts);
    CHECK(classify_hf_tensor("model.layers.3.mlp.gate.e_score_correction_bias") == WeightClass::routed_experts);
    CHECK(classify_hf_tensor("model.layers.3.mlp.shared_experts.up_proj.weight") == WeightClass::shared_experts);
    CHECK(classify_hf_tensor("model.layers.3.mlp.shared_expert_gate.weight") == WeightClass::shared_experts);
    CHECK(classify_hf_tensor("model.layers.3.mlp.gate_proj.weight") == WeightClass::dense_mlp);
    CHECK(classify_hf_tensor("model.layers.3.mixer.in_proj.weight") == WeightClass::attention);
    CHECK(classify_hf_tensor("transformer.wte.weight") == WeightClass::embeddings);
    CHECK(classify_hf_tensor("lm_head.weight") == WeightClass::output);
    CHECK(classify_hf_tensor("vision_tower.blocks.0.attn.qkv.weight") == WeightClass::vision);
    CHECK(classify_hf_tensor("model.multi_modal_projector.linear_1.weight") == WeightClass::vision);
    CHECK(hf_tensor_layer("model.layers.12.mlp.up_proj.weight") == 12);
    CHECK(hf_tensor_layer("transformer.h.5.attn.c_attn.weight") == 5);
    CHECK(hf_tensor_layer("lm_head.weight") == -1);
}

// ---------------------------------------------------------------------------------------------
// `gpusizer inspect` on a model folder: config.json + sharded safetensors.
// ---------------------------------------------------------------------------------------------

#include <nlohmann/json.hpp>

#include "cli_support.hpp"
#include "gpusizer/inspect.hpp"

TEST_CASE("gpusizer inspect: a Hugging Face model folder and a single .safetensors file", "[safetensors][cli]") {
    TempDir dir("inspect-st");
    SafetensorsWriter a, b;
    a.tensor("model.embed_tokens.weight", "BF16", {64, 32});
    a.tensor("model.layers.0.self_attn.q_proj.weight", "BF16", {32, 32});
    b.tensor("model.layers.0.mlp.up_proj.weight", "F8_E4M3", {64, 32});
    b.tensor("lm_head.weight", "BF16", {64, 32});
    write_file(dir.file("model-00001-of-00002.safetensors"), a.bytes());
    write_file(dir.file("model-00002-of-00002.safetensors"), b.bytes());
    write_text(dir.file("model.safetensors.index.json"), R"({"metadata": {"total_size": 12288}, "weight_map": {
        "model.embed_tokens.weight": "model-00001-of-00002.safetensors",
        "model.layers.0.self_attn.q_proj.weight": "model-00001-of-00002.safetensors",
        "model.layers.0.mlp.up_proj.weight": "model-00002-of-00002.safetensors",
        "lm_head.weight": "model-00002-of-00002.safetensors"}})");
    write_text(dir.file("config.json"), R"({"model_type": "llama", "num_hidden_layers": 1, "hidden_size": 32,
        "intermediate_size": 64, "num_attention_heads": 4, "num_key_value_heads": 4, "vocab_size": 64})");
    const auto r = gpusizer::test::run_cli({"inspect", dir.path().string(), "--json"}, false);
    REQUIRE(r.code == 0);
    const auto j = nlohmann::json::parse(r.out);
    CHECK(j["format"] == "safetensors");
    CHECK(j["files"].size() == 2);
    // BF16 64x32 x2 = 8,192 + BF16 32x32 = 2,048 + F8 64x32 = 2,048: 12,288 (= the index's total_size).
    CHECK(j["totals"]["bytes"] == 12288);
    CHECK(j["index_total_size"] == 12288);
    CHECK(j["totals"]["by_class"]["dense_mlp"]["bytes"] == 2048);
    CHECK(j["config"]["model_type"] == "llama");
    CHECK(j["config"]["layers"] == 1);
    const auto text = gpusizer::test::run_cli({"inspect", dir.file("model-00002-of-00002.safetensors")}, false);
    REQUIRE(text.code == 0);
    CHECK_THAT(text.out, Catch::Contains("F8_E4M3") && Catch::Contains("1 file"));
    // A folder with nothing to read.
    TempDir empty("inspect-empty");
    CHECK(gpusizer::test::run_cli({"inspect", empty.path().string()}, false).code == 2);
}

// gs.inspect of a safetensors file's first bytes: the 8-byte length and the JSON header are enough.
TEST_CASE("inspect_bytes_json: a safetensors header's first bytes", "[safetensors][inspect]") {
    SafetensorsWriter w;
    w.tensor("model.layers.0.mlp.up_proj.weight", "BF16", {64, 32});
    const Bytes file = w.bytes();
    const std::string whole(file.begin(), file.end());
    const std::size_t header = 8 + w.header_json().size();
    const std::string prefix = whole.substr(0, header);
    const auto want = nlohmann::json::parse(gpusizer::inspect_bytes_json("header", whole));
    CHECK(want["totals"]["bytes"] == 64 * 32 * 2);  // BF16: 2 bytes an element
    CHECK(nlohmann::json::parse(gpusizer::inspect_bytes_json("header", prefix)) == want);
    CHECK_THROWS_WITH(gpusizer::inspect_bytes_json("header", prefix, header), Catch::Contains("truncated file?"));
    CHECK_THROWS_WITH(gpusizer::inspect_bytes_json("header", whole.substr(0, header - 1)),
                      Catch::Contains("give more of the file's first bytes"));
}

// ---------------------------------------------------------------------------------------------
// Packed and quantized layouts: parameters by logical shape (core/src/safetensors_layouts.cpp).
// ---------------------------------------------------------------------------------------------

namespace {

// A header read from its first bytes alone (the data of a 65 GB checkpoint is not written).
SafetensorsModel model_of_header(const SafetensorsWriter& w, const SafetensorsQuant& q = {}) {
    const Bytes b = w.header_bytes();
    MemorySource src = MemorySource::first_bytes("model.safetensors", std::string_view(reinterpret_cast<const char*>(b.data()), b.size()));
    return safetensors_model_from_headers({read_safetensors_header(src)}, q);
}

std::uint64_t layout_params(const SafetensorsModel& m, const std::string& layout, std::uint64_t* bytes = nullptr, int* tensors = nullptr) {
    std::uint64_t p = 0, b = 0;
    int n = 0;
    for (const auto& t : m.tensors)
        if (t.layout == layout) p += t.params, b += t.bytes, ++n;
    if (bytes) *bytes = b;
    if (tensors) *tensors = n;
    return p;
}

// Its parameters, by hand: per layer q, o 4096 x 4096 = 16,777,216 each; k, v 1024 x 4096 =
// 4,194,304 each; gate, up, down 14336 x 4096 = 58,720,256 each: 218,103,808 in the projections
// + two norms 8,192 = 218,112,000. 32 layers = 6,979,584,000; embedding and head 128256 x 4096 =
// 525,336,576 each; final norm 4,096: 8,030,261,248 (the Hub's "8.03B params").
constexpr std::uint64_t kLlama31Params = 8030261248;
constexpr std::uint64_t kLlamaProjections = 218103808;   // sum of out x in over one layer's seven

}  // namespace

TEST_CASE("safetensors gpt-oss-120b: MXFP4 blocks hold 32 values in 16 bytes, scales no parameters: 116.83B", "[safetensors][layouts]") {
    const SafetensorsModel m = model_of_header(gpt_oss_120b_header());
    // 36 layers x 19 tensors + embedding, final norm, head = 687 (the checkpoint's index).
    CHECK(m.tensors.size() == 687);
    // Per layer, by hand (hidden 2880; 64 query heads and 8 KV heads of 64; 128 experts of 2880):
    //   attention  q 4096 x 2880 + 4096, k and v 512 x 2880 + 512 each, o 2880 x 4096 + 2880,
    //              sinks 64                                                        26,550,144
    //   router     128 x 2880 + 128                                                   368,768
    //   experts    gate_up 128 x 5760 x 2880 = 2,123,366,400 + bias 737,280;
    //              down 128 x 2880 x 2880 = 1,061,683,200 + bias 368,640       3,186,155,520
    //   norms      2 x 2880                                                             5,760
    //   layer                                                                   3,213,080,192
    // 36 layers = 115,670,886,912; embedding and head 201088 x 2880 = 579,133,440 each; final
    // norm 2,880: 116,829,156,672 (OpenAI's model card: 116.83B).
    CHECK(m.totals.params == 116829156672ull);
    // The MXFP4 blocks: gate_up [128, 5760, 90, 16] and down [128, 2880, 90, 16] bytes a layer,
    // two values a byte: (1,061,683,200 + 530,841,600) x 2 = 3,185,049,600 parameters a layer.
    std::uint64_t blocks_bytes = 0, scales_bytes = 0;
    int blocks = 0, scales = 0;
    CHECK(layout_params(m, "mxfp4-blocks", &blocks_bytes, &blocks) == 36ull * 3185049600);
    CHECK(blocks == 72);
    CHECK(blocks_bytes == 36ull * 1592524800);
    // The E8M0 scales, one byte a block of 32: 3,185,049,600 / 32 = 99,532,800 bytes a layer, no parameters.
    CHECK(layout_params(m, "quant-metadata", &scales_bytes, &scales) == 0);
    CHECK(scales == 72);
    CHECK(scales_bytes == 36ull * 99532800);
    // Bytes: the BF16 tensors 2 x (26,550,144 + 368,768 + 737,280 + 368,640 + 5,760) = 56,061,184
    // a layer, + blocks + scales = 1,748,118,784 a layer; x 36 + 2 x 1,158,266,880 + 5,760 =
    // 65,248,815,744: the tensor bytes of the checkpoint's 15 shards (60.77 GiB; the model card:
    // 60.8 GiB).
    CHECK(m.totals.bytes == 65248815744ull);
    // Counting what is stored instead: 63.08B elements (each U8 byte one); counting the blocks by
    // value but the scales as parameters: 116.83B + 3.58B = 120.41B, the figure the Hub showed.
    CHECK(m.totals.elements == 63081444672ull);
    CHECK(m.totals.params + 36ull * 99532800 == 120412337472ull);
    // The experts' class holds them: routed_experts params = 36 x (3,185,049,600 + biases 1,105,920 + router 368,768).
    CHECK(m.totals.of(WeightClass::routed_experts).params == 36ull * (3185049600ull + 1105920 + 368768));

    // config.json's architecture agrees with the file but for the attention sinks (GptOssAttention
    // .sinks, one logit a query head: 64 a layer), which no architecture field holds: 36 x 64 = 2,304
    // of 116.8B (2e-8).
    std::vector<std::string> warnings;
    ModelArch a = arch_from_hf_config(gpt_oss_120b_config(), &warnings);
    a.file = file_weights(m.totals, a.total_layers());
    CHECK(a.file.params_text == 116829156672.0);
    CHECK(count_params(a).total() == 116829156672.0 - 36 * 64);
    CHECK(a.file.params_vision == 0);
    CHECK(a.file.params_mtp == 0);
}

TEST_CASE("safetensors quantized Llama 3.1 8B: every layout counts the 8.03B parameters of the unquantized model",
          "[safetensors][layouts]") {
    // Bytes by layout, by hand over one layer's seven projections (sum of out x in = 218,103,808;
    // of in = 6 x 4096 + 14336 = 38,912; of out = 6 x 4096 + 14336 + ... see each line):
    //   GPTQ  qweight in/8 x out x 4 = 109,051,904; qzeros in/128 x out/8 x 4 = 851,968; scales
    //         in/128 x out x 2 = 3,407,872; g_idx 4 x 38,912 = 155,648           113,467,392
    //   AWQ   qweight in x out/8 x 4 = 109,051,904; qzeros 851,968; scales 3,407,872 113,311,744
    //   CT    weight_packed out x in/8 x 4 = 109,051,904; weight_scale out x in/128 x 2 =
    //         3,407,872; weight_shape 7 x 16 = 112                                112,459,888
    //   NVFP4 weight out x in/2 = 109,051,904; weight_scale out x in/16 = 13,631,488; two F32
    //         scalars 7 x 8 = 56                                                   122,683,448
    //   NF4   weight 109,051,904; absmax (U8, double-quantized) in x out/64 = 3,407,872; quant_map
    //         7 x 64; nested_absmax 4 x in x out/64/256 = 53,248; nested_quant_map 7 x 1,024;
    //         quant_state 7 x 204                                                  112,522,068
    //   INT8  weight 218,103,808; SCB 4 x (sum of out = 3 x 4096 + 2 x 1024 + 2 x 14336 = 43,008) 218,275,840
    //   FP8   weight 218,103,808; weight_scale_inv 4 x (32 x 32 x 2 + 8 x 32 x 2 + 112 x 32 x 3) = 53,248 218,157,056
    // + two 16-bit norms 16,384 a layer; x 32 layers; + embedding and head 2 x 1,050,673,152 and
    // the final norm 8,192.
    struct Case {
        Packing packing;
        SafetensorsQuant quant;
        const char* layout;
        std::uint64_t layer_bytes;
    };
    const Case cases[] = {
        {Packing::gptq4, {}, "gptq", 113467392},
        {Packing::awq4, {}, "awq", 113311744},
        {Packing::ct_w4a16, {"compressed-tensors", 4}, "pack-quantized", 112459888},   // weight_shape unread: the bits from config.json
        {Packing::nvfp4, {}, "fp4", 122683448},
        {Packing::bnb_nf4, {}, "bnb-4bit", 112522068},
        {Packing::bnb_int8, {}, "", 218275840},
        {Packing::fp8_block, {}, "", 218157056},
    };
    for (const Case& c : cases) {
        INFO(static_cast<int>(c.packing));
        const SafetensorsModel m = model_of_header(llama31_8b_header(c.packing), c.quant);
        CHECK(m.totals.params == kLlama31Params);
        CHECK(m.totals.bytes == 32 * (c.layer_bytes + 16384) + 2 * 1050673152ull + 8192);
        if (*c.layout) CHECK(layout_params(m, c.layout) == 32 * kLlamaProjections);
        // The catalog's Llama 3.1 8B, derived from its architecture, has as many.
        CHECK(count_params(test::catalog().model("llama-3.1-8b").arch).total() == double(kLlama31Params));
    }
    // GPTQ: 5,732,835,328 tensor bytes; the measured checkpoint (optimum GPTQ 4-bit, group 128,
    // Meta-Llama-3.1-8B-Instruct: its two shards 4,682,270,360 + 1,050,673,280 bytes, JSON headers
    // included) is 5,732,943,640 bytes: 108,312 bytes of headers.
    CHECK(model_of_header(llama31_8b_header(Packing::gptq4)).totals.bytes == 5732835328ull);
}

TEST_CASE("safetensors layouts: what the shapes say, what config.json settles, and their disagreements", "[safetensors][layouts]") {
    SECTION("GPTQ bits from g_idx, from qzeros, or from config.json: 3-bit and 8-bit packings") {
        // 3-bit GPTQ of a 256 -> 64 linear: qweight [256 / 32 x 3, 64] = [24, 64] (three int32 per 32 values).
        SafetensorsWriter w;
        w.tensor("l.qweight", "I32", {24, 64});
        w.tensor("l.qzeros", "I32", {2, 6});   // [256 / 128, 64 / 32 x 3]
        w.tensor("l.scales", "F16", {2, 64});
        w.tensor("l.g_idx", "I32", {256});
        const SafetensorsModel m = safetensors_model_from_headers({read_bytes(w.bytes())});
        CHECK(m.totals.params == 256 * 64);   // 24 x 64 x 32 bits / 3
        // Without g_idx the bits come from qzeros' width: 6 x 32 / 64 = 3.
        SafetensorsWriter n;
        n.tensor("l.qweight", "I32", {24, 64});
        n.tensor("l.qzeros", "I32", {2, 6});
        n.tensor("l.scales", "F16", {2, 64});
        CHECK(safetensors_model_from_headers({read_bytes(n.bytes())}).totals.params == 256 * 64);
        // 8-bit: qweight [256 / 4, 64], the bits stated only by config.json.
        SafetensorsWriter e;
        e.tensor("l.qweight", "I32", {64, 64});
        CHECK(safetensors_model_from_headers({read_bytes(e.bytes())}, {"gptq", 8}).totals.params == 256 * 64);
        // Without config.json nothing says the bits: counted as stored (64 x 64 int32s), and marked.
        const SafetensorsModel unknown = safetensors_model_from_headers({read_bytes(e.bytes())});
        CHECK(unknown.totals.params == 64 * 64);
        CHECK(unknown.tensors[0].layout == "gptq (bits unknown)");
        // g_idx says 3 bits, config.json 4: refused, naming both.
        CHECK_THAT(test::thrown_message([&] {
                       (void)safetensors_model_from_headers({read_bytes(w.bytes())}, {"gptq", 4});
                   }),
                   Catch::Contains("l.qweight") && Catch::Contains("3-bit") && Catch::Contains("4-bit"));
    }
    SECTION("compressed-tensors: weight_shape read from the data wins, padded rows included") {
        // A 64 -> 100 W4A16 linear: in 100 is not a whole number of int32s of eight values, so
        // pack_to_int32 pads each row to 13 int32s (104 values); weight_shape holds [64, 100].
        SafetensorsWriter w;
        w.tensor("l.weight_packed", "I32", {64, 13});
        w.tensor("l.weight_scale", "BF16", {64, 1});
        w.i64_tensor("l.weight_shape", {64, 100});
        const SafetensorsModel m = safetensors_model_from_headers({read_bytes(w.bytes())});
        CHECK(m.totals.params == 64 * 100);   // not 64 x 104
        const auto shape = std::find_if(m.tensors.begin(), m.tensors.end(), [](const auto& t) { return t.name == "l.weight_shape"; });
        REQUIRE(shape != m.tensors.end());
        CHECK(shape->values == std::vector<std::uint64_t>{64, 100});
        CHECK(shape->params == 0);
        // The header alone: weight_shape's data is not there; the bits from config.json count the
        // padded values (64 x 13 x 8 = 6,656), without them the weight is refused by name.
        const Bytes b = w.bytes();
        const std::size_t header = 8 + w.header_json().size();
        MemorySource prefix = MemorySource::first_bytes("m.safetensors", std::string_view(reinterpret_cast<const char*>(b.data()), header));
        const SafetensorsHeader h = read_safetensors_header(prefix);
        CHECK(safetensors_model_from_headers({h}, {"compressed-tensors", 4}).totals.params == 64 * 13 * 8);
        // Neither: the 64 x 13 int32s as stored, marked (gs.inspect of a shard's first bytes).
        const SafetensorsModel unknown = safetensors_model_from_headers({h});
        CHECK(unknown.totals.params == 64 * 13);
        CHECK(unknown.tensors[0].layout == "pack-quantized (bits unknown)");
        // weight_shape says more values than the packed bits hold at config.json's bits.
        SafetensorsWriter bad;
        bad.tensor("l.weight_packed", "I32", {64, 13});
        bad.i64_tensor("l.weight_shape", {64, 200});
        CHECK_THAT(test::thrown_message([&] {
                       (void)safetensors_model_from_headers({read_bytes(bad.bytes())}, {"compressed-tensors", 4});
                   }),
                   Catch::Contains("l.weight_packed") && Catch::Contains("weight_shape"));
    }
    SECTION("a uint8 weight is packed only beside its quantizer's state; alone it is a plain tensor") {
        SafetensorsWriter w;
        w.tensor("a.weight", "U8", {64, 32});   // no scale beside it: 2,048 parameters
        w.tensor("b.weight", "U8", {64, 32});   // NVFP4: in 64, one F8 scale per 16
        w.tensor("b.weight_scale", "F8_E4M3", {64, 4});
        w.tensor("c.weight", "U8", {64, 32});   // MXFP4 linear: one E8M0 byte per 32
        w.tensor("c.weight_scale", "U8", {64, 2});
        w.tensor("d.weight", "U8", {64, 32});   // a scale per 8 values is no FP4 group: plain
        w.tensor("d.weight_scale", "F32", {64, 8});
        w.tensor("e_blocks", "U8", {4, 2, 16});   // blocks without scales beside them: plain
        const SafetensorsModel m = safetensors_model_from_headers({read_bytes(w.bytes())});
        std::map<std::string, std::uint64_t> params;
        for (const auto& t : m.tensors) params[t.name] = t.params;
        CHECK(params["a.weight"] == 2048);
        CHECK(params["b.weight"] == 4096);
        CHECK(params["c.weight"] == 4096);
        CHECK(params["d.weight"] == 2048);
        CHECK(params["e_blocks"] == 128);
        CHECK(params["b.weight_scale"] == 0);   // quantizers' names are metadata wherever they appear
        CHECK(params["d.weight_scale"] == 0);
    }
    SECTION("activation and KV-cache scales: metadata in a quantized checkpoint only") {
        SafetensorsWriter plain;
        plain.tensor("m.layers.0.attn.k_scale", "F32", {});
        CHECK(safetensors_model_from_headers({read_bytes(plain.bytes())}).totals.params == 1);
        SafetensorsWriter fp8;
        fp8.tensor("m.layers.0.attn.k_proj.weight", "F8_E4M3", {8, 8});
        fp8.tensor("m.layers.0.attn.k_scale", "F32", {});
        fp8.tensor("m.layers.0.attn.k_proj.input_scale", "F32", {});
        CHECK(safetensors_model_from_headers({read_bytes(fp8.bytes())}).totals.params == 64);
    }
}

TEST_CASE("safetensors parts: vision and audio towers, MTP layers by name and past the stack", "[safetensors][parts]") {
    CHECK(hf_tensor_part("visual.blocks.0.attn.qkv.weight") == TensorPart::vision);
    CHECK(hf_tensor_part("model.vision_tower.encoder.layers.0.mlp.fc1.weight") == TensorPart::vision);
    CHECK(hf_tensor_part("model.vision_model.embeddings.patch_embedding.weight") == TensorPart::vision);
    CHECK(hf_tensor_part("multi_modal_projector.linear_1.weight") == TensorPart::vision);
    CHECK(hf_tensor_part("model.audio_tower.layers.0.self_attn.q_proj.weight") == TensorPart::audio);
    CHECK(hf_tensor_part("model.embed_audio.embedding_projection.weight") == TensorPart::audio);
    CHECK(hf_tensor_part("mtp.layers.0.self_attn.q_proj.weight") == TensorPart::mtp);
    CHECK(hf_tensor_part("mtp.fc.weight") == TensorPart::mtp);
    CHECK(hf_tensor_part("model.mtp_layers.0.input_layernorm.weight") == TensorPart::mtp);
    CHECK(hf_tensor_part("model.layers.3.mlp.up_proj.weight") == TensorPart::text);

    // Two text layers (hidden 32, FFN 64), a third numbered past them (DeepSeek-V3's spelling of
    // an MTP layer), Qwen3-Next's mtp.* tensors, a vision tower block and an audio tower block.
    SafetensorsWriter w;
    w.tensor("model.embed_tokens.weight", "BF16", {100, 32});
    for (int il = 0; il < 3; ++il) add_hf_llama_layer(w, il, 32, 32, 64);
    w.tensor("mtp.fc.weight", "BF16", {32, 64});   // 2,048
    w.tensor("mtp.layers.0.self_attn.q_proj.weight", "BF16", {32, 32});   // 1,024
    w.tensor("visual.blocks.0.attn.qkv.weight", "BF16", {96, 32});   // 3,072
    w.tensor("audio_tower.layers.0.fc1.weight", "BF16", {64, 32});   // 2,048
    w.tensor("model.norm.weight", "F32", {32});
    w.tensor("lm_head.weight", "BF16", {100, 32});
    const SafetensorsModel m = safetensors_model_from_headers({read_bytes(w.bytes())});
    // A layer: 4 x 32 x 32 + 3 x 32 x 64 + 2 x 32 = 10,304 parameters, 20,480 BF16 + 256 F32 = 20,736 bytes.
    CHECK(m.totals.layer_totals.size() == 3);
    CHECK(m.totals.layer_totals[0].params == 10304);
    CHECK(m.totals.layer_bytes(0, WeightClass::attention) == 4 * 32 * 32 * 2);   // mtp.layers.0 is not layer 0
    const auto parts = part_totals(m.totals, 2);
    CHECK(parts[std::size_t(TensorPart::mtp)].params == 10304 + 2048 + 1024);
    CHECK(parts[std::size_t(TensorPart::vision)].params == 3072);
    CHECK(parts[std::size_t(TensorPart::audio)].params == 2048);
    // Text: 2 layers + embedding 3,200 + head 3,200 + final norm 32 = 27,040.
    CHECK(parts[std::size_t(TensorPart::text)].params == 2 * 10304 + 3200 + 3200 + 32);
    // Without the stack's depth every numbered block is text.
    CHECK(part_totals(m.totals, -1)[std::size_t(TensorPart::text)].params == 3 * 10304 + 3200 + 3200 + 32);

    const ModelArch::FileWeights f = file_weights(m.totals, 2);
    CHECK(f.params_mtp == 10304 + 2048 + 1024);
    CHECK(f.params_vision == 3072);
    CHECK(f.params_audio == 2048);
    // Bytes: layer 2 and the mtp.* tensors sit beyond the stack, the towers in `vision`.
    CHECK(f.beyond_stack == 20736 + 2 * (2048 + 1024));
    CHECK(f.vision == 2 * (3072 + 2048));
    CHECK(f.embeddings == 6400);
    CHECK(f.head == 6400 + 128);
    CHECK(f.layer[0] + f.layer[1] + f.beyond_stack + f.embeddings + f.head + f.vision == f.total);
}

TEST_CASE("the accuracy set's header-only checkpoints are the fixtures' headers, byte for byte", "[safetensors][layouts]") {
    // tests/validation/checkpoints holds what `gpusizer_write_fixtures --checkpoints` writes: the
    // rows that read them (file-gpt-oss-120b-*, file-llama31-8b-gptq-headers) test these headers.
    for (const auto& [name, bytes] : validation_checkpoints()) {
        INFO(name << ": rewrite with gpusizer_write_fixtures --checkpoints tests/validation/checkpoints");
        CHECK(read_file(std::string(GPUSIZER_TEST_CHECKPOINTS) + "/" + name) == bytes);
    }
}
