// test_model_files.cpp: models read from files (`gguf`, `hf_dir`): exact bytes win over the
// formulas in memory.weights, model.source, the configuration and link round trips, the CLI's
// --gguf / --hf-dir, and the errors of each.
#include <catch2/catch.hpp>

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli_support.hpp"
#include "gpusizer/config_keys.hpp"
#include "gpusizer/error.hpp"
#include "gpusizer/gpusizer.hpp"
#include "gpusizer/model_file.hpp"
#include "model_fixtures.hpp"
#include "test_support.hpp"

using namespace gpusizer;
using namespace gpusizer::fixtures;
using nlohmann::json;

namespace {

// The Llama fixture of test_gguf_model.cpp: hidden 64, 4 heads of 16, 2 KV heads, FFN 128,
// 2 blocks of F16 weights and F32 norms, F16 token_embd of 96 rows, Q8_0 output.
// Bytes: a block 74,240 (36,864 F16 weights = 73,728 + two F32 norms 512); token_embd 12,288;
// output 6,144 / 32 x 34 = 6,528 + output_norm 256 = 6,784. Total 167,552.
// The metadata and the two blocks (the split test's first part holds just these).
void tiny_llama_blocks(GgufWriter& w) {
    w.kv_arch("llama", {{"block_count", 2}, {"context_length", 4096}, {"embedding_length", 64},
                        {"feed_forward_length", 128}, {"attention.head_count", 4}, {"attention.head_count_kv", 2}});
    for (int il = 0; il < 2; ++il) add_block(w, il, BlockShape{64, 4, 2, 16, 128});
}
GgufWriter tiny_llama(int file_type = -1) {
    GgufWriter w;
    tiny_llama_blocks(w);
    if (file_type >= 0) w.kv_u32("general.file_type", static_cast<std::uint32_t>(file_type));
    add_ends(w, 64, 96, false);
    return w;
}
constexpr double kTinyTotal = 167552, kTinyEmbd = 12288, kTinyBlock = 74240, kTinyHead = 6784;

SourceOpener opener_over(const std::map<std::string, Bytes>& files) {
    return [&files](const std::string& name) -> std::unique_ptr<ByteSource> {
        auto it = files.find(name);
        if (it == files.end()) return nullptr;
        return std::make_unique<MemorySource>(name, it->second);
    };
}

Config from_gguf(const std::map<std::string, Bytes>& files, const std::string& path) {
    Config c;
    c.gguf = path;
    c.gpu = "h100-sxm";
    load_model_files(c, opener_over(files));
    return c;
}

std::string error_of(const std::function<void()>& f) { return test::thrown_message(f); }

}  // namespace

TEST_CASE("gguf: memory.weights is the file's exact bytes, model.source says gguf", "[gguf][model_files]") {
    const std::map<std::string, Bytes> files = {{"tiny.gguf", tiny_llama().bytes()}};
    Config c = from_gguf(files, "tiny.gguf");
    CHECK(c.model.custom);
    CHECK(c.model.arch.source == "gguf");
    CHECK(c.weights.empty());   // no general.file_type: the default stays

    SECTION("PyTorch (bf16 default): every tensor on the GPU") {
        const Report r = gpusizer::test::run(c);
        CHECK(r.config.runtime == Runtime::pytorch);
        CHECK(r.per_gpu.weights == kTinyTotal);   // not the formula's bf16 figure: the file's mix
        const json j = json::parse(report_to_json(r));
        CHECK(j["model"]["source"] == "gguf");
        CHECK(j["model"]["file_bytes"] == kTinyTotal);
        // 8 x total bytes / parameters: 8 x 167,552 / 86,336 = 15.5256... bits per parameter.
        CHECK(r.weights_bits_per_param == Approx(8.0 * kTinyTotal / 86336.0));
    }
    SECTION("tp 2: each GPU holds its share of every block, never less than half") {
        c.gpus = 2;
        c.tp = 2;
        const Report r = gpusizer::test::run(c);
        CHECK(r.per_gpu.weights < kTinyTotal);
        CHECK(r.per_gpu.weights > kTinyTotal / 2);   // norms are replicated
    }
    SECTION("pp 2: the first stage holds block 0 and the table, the last block 1 and the head") {
        c.gpus = 2;
        c.pp = 2;
        const Report r = gpusizer::test::run(c);
        // The most loaded GPU: max(74,240 + 12,288, 74,240 + 6,784) = 86,528.
        CHECK(r.per_gpu.weights == kTinyBlock + kTinyEmbd);
    }
    SECTION("a catalog model reports model.source catalog and no file bytes") {
        Config k;
        k.model.id = "llama-3-8b";
        const json j = json::parse(report_to_json(gpusizer::test::run(k)));
        CHECK(j["model"]["source"] == "catalog");
        CHECK(j["model"]["file_bytes"].is_null());
    }
}

TEST_CASE("gguf: general.file_type sets weights, llama.cpp keeps token_embd in RAM", "[gguf][model_files]") {
    // general.file_type 7 = LLAMA_FTYPE_MOSTLY_Q8_0 (llama.h) -> weights q8_0 -> runtime llama.cpp.
    const std::map<std::string, Bytes> files = {{"tiny.gguf", tiny_llama(7).bytes()}};
    const Config c = from_gguf(files, "tiny.gguf");
    CHECK(c.weights == "q8_0");
    const Report r = gpusizer::test::run(c);
    CHECK(r.config.runtime == Runtime::llama_cpp);
    // GPU: both blocks and the head, 2 x 74,240 + 6,784 = 155,264; the table (12,288) in RAM.
    CHECK(r.per_gpu.weights == 2 * kTinyBlock + kTinyHead);
    CHECK(r.host >= kTinyEmbd);
}

TEST_CASE("gguf / hf_dir: configuration, link and errors", "[gguf][model_files][config]") {
    // A configuration naming a file needs no model; written back, the model is null and the
    // file key names it.
    Config c = config_from_json(R"({"gguf": "tiny.gguf", "gpu": "h100-sxm"})");
    CHECK(c.gguf == "tiny.gguf");
    CHECK(c.model.id.empty());
    const std::map<std::string, Bytes> files = {{"tiny.gguf", tiny_llama().bytes()}};
    load_model_files(c, opener_over(files));
    const json back = json::parse(config_to_json(c));
    CHECK(back["model"].is_null());
    CHECK(back["gguf"] == "tiny.gguf");
    const Config again = config_from_json(back.dump());
    CHECK(again.gguf == "tiny.gguf");
    const std::string link = link_from_config(c);
    CHECK(link.find("gguf=tiny.gguf") != std::string::npos);
    CHECK(link.find("m=") == std::string::npos);
    CHECK(config_from_link(link).gguf == "tiny.gguf");

    // The key table has both rows (flags --gguf, --hf-dir).
    REQUIRE(find_config_key("gguf") != nullptr);
    REQUIRE(find_flag_key("hf-dir") != nullptr);
    CHECK(std::string(find_flag_key("hf-dir")->name) == "hf_dir");

    // Errors name the key.
    Config unread;
    unread.gguf = "tiny.gguf";
    CHECK_THAT(error_of([&] { gpusizer::test::run(unread); }), Catch::Contains("gguf") && Catch::Contains("not read"));
    Config both = unread;
    both.hf_dir = "snap";
    CHECK_THAT(error_of([&] { load_model_files(both, opener_over(files)); }), Catch::Contains("hf_dir"));
    Config with_model = unread;
    with_model.model.id = "llama-3-8b";
    CHECK_THAT(error_of([&] { load_model_files(with_model, opener_over(files)); }), Catch::Contains("gguf") && Catch::Contains("model"));
    Config missing;
    missing.gguf = "nothing.gguf";
    CHECK_THAT(error_of([&] { load_model_files(missing, opener_over(files)); }), Catch::Contains("nothing.gguf"));
    Config no_dir;
    no_dir.hf_dir = "snap";
    CHECK_THAT(error_of([&] { load_model_files(no_dir, opener_over(files)); }),
               Catch::Contains("hf_dir") && Catch::Contains("config.json"));
}

TEST_CASE("hf_dir: config.json for the stack, safetensors headers for the bytes, shards by the index", "[safetensors][model_files]") {
    // The same Llama in transformers' names: BF16 weights, F32 norms (as some exports keep them).
    // Elements: 86,336 (test_gguf_model.cpp), of which norms 2 x 2 x 64 + 64 = 320 in F32:
    // bytes 86,016 x 2 + 320 x 4 = 173,312. The formula (every tensor bf16) would say 172,672.
    const std::string config = R"({"model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": 64,
        "intermediate_size": 128, "num_attention_heads": 4, "num_key_value_heads": 2, "num_hidden_layers": 2,
        "vocab_size": 96, "max_position_embeddings": 4096, "tie_word_embeddings": false, "torch_dtype": "bfloat16"})";
    SafetensorsWriter a, b;   // two shards: block 0 + embeddings, block 1 + head
    for (int il = 0; il < 2; ++il) add_hf_llama_layer(il == 0 ? a : b, il, 64, 32, 128);
    a.tensor("model.embed_tokens.weight", "BF16", {96, 64});
    b.tensor("model.norm.weight", "F32", {64});
    b.tensor("lm_head.weight", "BF16", {96, 64});
    json index = {{"metadata", {{"total_size", 173312}}}, {"weight_map", json::object()}};
    auto map_shard = [&](const SafetensorsWriter& w, const std::string& file) {
        const json h = json::parse(w.header_json());
        for (auto it = h.begin(); it != h.end(); ++it)
            if (it.key() != "__metadata__") index["weight_map"][it.key()] = file;
    };
    map_shard(a, "model-00001-of-00002.safetensors");
    map_shard(b, "model-00002-of-00002.safetensors");
    const std::string text = index.dump();
    const std::map<std::string, Bytes> files = {
        {"snap/config.json", Bytes(config.begin(), config.end())},
        {"snap/model.safetensors.index.json", Bytes(text.begin(), text.end())},
        {"snap/model-00001-of-00002.safetensors", a.bytes()},
        {"snap/model-00002-of-00002.safetensors", b.bytes()},
    };
    Config c;
    c.hf_dir = "snap/";
    c.gpu = "h100-sxm";
    load_model_files(c, opener_over(files));
    CHECK(c.model.arch.source == "safetensors");
    CHECK(c.model.arch.n_layers == 2);
    CHECK(c.model.arch.file.total == 173312.0);
    const Report r = gpusizer::test::run(c);
    CHECK(r.config.runtime == Runtime::pytorch);
    CHECK(r.per_gpu.weights == 173312.0);
    CHECK(json::parse(report_to_json(r))["model"]["source"] == "safetensors");
}

TEST_CASE("gpusizer estimate / fit --gguf (any split part) and --hf-dir", "[gguf][model_files][cli]") {
    TempDir dir("model-files");
    // The fixture cut in two parts as gguf-split writes them: metadata in the first, split.* in
    // each; blocks in part 1, embeddings and head in part 2.
    const GgufWriter whole = tiny_llama();
    for (int k = 1; k <= 2; ++k) {
        GgufWriter w;
        w.kv_u16("split.no", static_cast<std::uint16_t>(k - 1));
        w.kv_u16("split.count", 2);
        if (k == 1)
            tiny_llama_blocks(w);
        else
            add_ends(w, 64, 96, false);
        write_file(dir.file("tiny-0000" + std::to_string(k) + "-of-00002.gguf"), w.bytes());
    }
    const auto est = gpusizer::test::run_cli({"estimate", "--gguf", dir.file("tiny-00002-of-00002.gguf"), "--gpu", "h100-sxm", "--json"});
    INFO(est.err);
    REQUIRE(est.code == 0);
    const json j = json::parse(est.out);
    CHECK(j["model"]["source"] == "gguf");
    CHECK(j["model"]["file_bytes"] == kTinyTotal);
    CHECK(j["memory"]["per_gpu"]["weights"] == kTinyTotal);
    CHECK(j["config"]["gguf"] == dir.file("tiny-00002-of-00002.gguf"));

    const auto text = gpusizer::test::run_cli({"estimate", "--gguf", dir.file("tiny-00001-of-00002.gguf")});
    CHECK(text.code == 0);
    CHECK_THAT(text.out, Catch::Contains("model from") && Catch::Contains("(gguf,"));
    CHECK(gpusizer::test::run_cli({"fit", "--gguf", dir.file("tiny-00001-of-00002.gguf"), "--json"}).code == 0);

    // A missing part, a missing file, a model given as well.
    std::filesystem::remove(dir.file("tiny-00002-of-00002.gguf"));
    const auto part = gpusizer::test::run_cli({"estimate", "--gguf", dir.file("tiny-00001-of-00002.gguf")});
    CHECK(part.code != 0);
    CHECK_THAT(part.err, Catch::Contains("tiny-00002-of-00002.gguf"));
    CHECK(gpusizer::test::run_cli({"estimate", "--gguf", dir.file("none.gguf")}).code != 0);
    write_file(dir.file("one.gguf"), whole.bytes());
    const auto both = gpusizer::test::run_cli({"estimate", "--gguf", dir.file("one.gguf"), "--model", "llama-3-8b"});
    CHECK(both.code == 2);
    CHECK_THAT(both.err, Catch::Contains("gguf"));
    const auto hf = gpusizer::test::run_cli({"estimate", "--hf-dir", dir.file("no-such-folder")});
    CHECK(hf.code != 0);
    CHECK_THAT(hf.err, Catch::Contains("config.json"));
}

TEST_CASE("gguf + mmproj: the projector's encoders are model.params_by_part.vision / audio, off the text GPUs",
          "[gguf][model_files][parts]") {
    const std::map<std::string, Bytes> files = {
        {"m/tiny.gguf", tiny_llama().bytes()}, {"m/mmproj-tiny-f16.gguf", tiny_mmproj().bytes()}, {"m/other.gguf", tiny_llama().bytes()}};
    Config c;
    c.gguf = "m/tiny.gguf";
    c.mmproj = "m/mmproj-tiny-f16.gguf";
    c.gpu = "h100-sxm";
    load_model_files(c, opener_over(files));
    const Report r = gpusizer::test::run(c);
    const json j = json::parse(report_to_json(r));
    // tiny_mmproj (model_fixtures.hpp): vision 79,936 parameters, audio 3,072; 166,656 bytes.
    CHECK(j["model"]["params_by_part"]["vision"] == kMmprojVisionParams);
    CHECK(j["model"]["params_by_part"]["audio"] == kMmprojAudioParams);
    CHECK(j["model"]["params_by_part"]["text"] == 86336);
    CHECK(j["model"]["file_params"]["vision"] == kMmprojVisionParams);
    CHECK(j["model"]["file_params"]["text"] == 86336);
    CHECK(j["model"]["file_bytes"] == kTinyTotal + double(kMmprojBytes));
    CHECK(r.params == 86336.0);
    // The GPUs hold the text model's bytes, as without the projector.
    CHECK(r.per_gpu.weights == kTinyTotal);
    CHECK(json::parse(config_to_json(c))["mmproj"] == "m/mmproj-tiny-f16.gguf");
    CHECK(link_from_config(c).find("&mmp=") != std::string::npos);
    CHECK(config_from_link(link_from_config(c)).mmproj == "m/mmproj-tiny-f16.gguf");

    // Errors name the key: a model file as the projector, a missing one, one without gguf.
    Config wrong = c;
    wrong.model = ModelSpec();
    wrong.mmproj = "m/other.gguf";
    CHECK_THAT(error_of([&] { load_model_files(wrong, opener_over(files)); }), Catch::Contains("mmproj") && Catch::Contains("'clip'"));
    Config missing;
    missing.gguf = "m/tiny.gguf";
    missing.mmproj = "m/mmproj-none.gguf";
    CHECK_THAT(error_of([&] { load_model_files(missing, opener_over(files)); }),
               Catch::Contains("mmproj") && Catch::Contains("mmproj-none.gguf"));
    Config alone = gpusizer::test::config("llama-3-8b");
    alone.mmproj = "m/mmproj-tiny-f16.gguf";
    CHECK(gpusizer::test::error_key(alone) == "mmproj");
    // The projector given as the model: refused with what to give instead.
    Config as_model;
    as_model.gguf = "m/mmproj-tiny-f16.gguf";
    CHECK_THAT(error_of([&] { load_model_files(as_model, opener_over(files)); }),
               Catch::Contains("mmproj") && Catch::Contains("model's GGUF"));
}

TEST_CASE("hf_dir: a vision tower and an MTP layer in the shards are parts apart, counted from the tensors",
          "[safetensors][model_files][parts]") {
    // The Llama of the test above, with one more layer numbered past num_hidden_layers (an MTP
    // layer as DeepSeek-V3 stores it) and a vision tower tensor.
    const std::string config = R"({"model_type": "llama", "hidden_size": 64, "intermediate_size": 128, "num_attention_heads": 4,
        "num_key_value_heads": 2, "num_hidden_layers": 2, "vocab_size": 96, "tie_word_embeddings": false})";
    SafetensorsWriter w;
    w.tensor("model.embed_tokens.weight", "BF16", {96, 64});
    for (int il = 0; il < 3; ++il) add_hf_llama_layer(w, il, 64, 32, 128);
    w.tensor("model.norm.weight", "F32", {64});
    w.tensor("lm_head.weight", "BF16", {96, 64});
    w.tensor("model.vision_tower.blocks.0.attn.qkv.weight", "BF16", {192, 64});   // 12,288
    const std::map<std::string, Bytes> files = {{"snap/config.json", Bytes(config.begin(), config.end())},
                                                {"snap/model.safetensors", w.bytes()}};
    Config c;
    c.hf_dir = "snap";
    load_model_files(c, opener_over(files));
    const ModelArch& a = c.model.arch;
    // A layer: 36,992 parameters (test_gguf_model.cpp); bytes 36,864 x 2 + 128 x 4 = 74,240.
    CHECK(a.file.params_text == 86336.0);
    CHECK(a.file.params_mtp == 36992.0);
    CHECK(a.file.params_vision == 12288.0);
    CHECK(a.file.beyond_stack == 74240.0);
    CHECK(a.file.vision == 24576.0);
    const json j = json::parse(report_to_json(gpusizer::test::run(c)));
    CHECK(j["model"]["params_by_part"]["mtp"] == 36992);
    CHECK(j["model"]["params_by_part"]["vision"] == 12288);
    CHECK(j["params"] == 86336);
    CHECK(c.model.import_warnings.empty());   // the files' text count is the architecture's
}

TEST_CASE("gpusizer inspect: a GGUF model with its mmproj beside it, a projector alone, a split model's folder",
          "[gguf][model_files][cli][parts]") {
    TempDir dir("inspect-mmproj");
    write_file(dir.file("tiny-Q8_0.gguf"), tiny_llama(7).bytes());
    write_file(dir.file("mmproj-tiny-f16.gguf"), tiny_mmproj().bytes());
    write_file(dir.file("mmproj-tiny-f32.gguf"), tiny_mmproj().bytes());
    for (const std::string& path : {dir.path().string(), dir.file("tiny-Q8_0.gguf")}) {
        INFO(path);
        const auto r = gpusizer::test::run_cli({"inspect", path, "--json"}, false);
        REQUIRE(r.code == 0);
        const json j = json::parse(r.out);
        CHECK(j["parts"]["text"]["params"] == 86336);
        CHECK(j["parts"]["vision"]["params"] == kMmprojVisionParams);
        CHECK(j["parts"]["audio"]["params"] == kMmprojAudioParams);
        CHECK(j["projector"]["projector_type"] == "mlp");
        CHECK(j["projector"]["files"][0] == dir.file("mmproj-tiny-f16.gguf"));   // the first of two by name
    }
    const auto text = gpusizer::test::run_cli({"inspect", dir.file("tiny-Q8_0.gguf")}, false);
    CHECK_THAT(text.out, Catch::Contains("by part:") && Catch::Contains("vision") && Catch::Contains("projector: mlp") &&
                             Catch::Contains("mmproj-tiny-f32.gguf"));
    // The projector alone: described, not refused.
    const auto alone = gpusizer::test::run_cli({"inspect", dir.file("mmproj-tiny-f16.gguf")}, false);
    REQUIRE(alone.code == 0);
    CHECK_THAT(alone.out,
               Catch::Contains("clip") && Catch::Contains("multimodal projector") && Catch::Contains("vision encoder: 1 blocks"));
    const json pj = json::parse(gpusizer::test::run_cli({"inspect", dir.file("mmproj-tiny-f16.gguf"), "--json"}, false).out);
    CHECK(pj["parts"]["vision"]["bytes"] == 160512);
    CHECK(pj["projector"]["vision"]["patch_size"] == 14);
    // estimate --gguf takes the projector beside the model by itself.
    const auto est = gpusizer::test::run_cli({"estimate", "--gguf", dir.file("tiny-Q8_0.gguf"), "--json"});
    REQUIRE(est.code == 0);
    const json e = json::parse(est.out);
    CHECK(e["config"]["mmproj"] == dir.file("mmproj-tiny-f16.gguf"));
    CHECK(e["model"]["params_by_part"]["vision"] == kMmprojVisionParams);
    // A folder of two models: name one.
    write_file(dir.file("other-Q8_0.gguf"), tiny_llama(7).bytes());
    const auto two = gpusizer::test::run_cli({"inspect", dir.path().string()}, false);
    CHECK(two.code == 2);
    CHECK_THAT(two.err, Catch::Contains("several GGUF models"));
}
