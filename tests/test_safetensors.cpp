// test_safetensors.cpp: the safetensors header reader on fixtures from tests/model_fixtures.cpp.
#include <catch2/catch.hpp>

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
