// test_ui_model_files.cpp: the app's model from a file (ModelSource::file): opening a GGUF or a
// snapshot folder through the platform's opener, links that name one, switching sources.
#include <map>

#include <catch2/catch.hpp>

#include "model_fixtures.hpp"
#include "state.hpp"
#include "test_support.hpp"

using namespace gpusizer;
using namespace gpusizer::ui;
using gpusizer::test::catalog;
using fixtures::Bytes;

namespace {

SourceOpener opener_over(const std::map<std::string, Bytes>& files) {
    return [&files](const std::string& name) -> std::unique_ptr<ByteSource> {
        const auto it = files.find(name);
        if (it == files.end()) return nullptr;
        return std::make_unique<MemorySource>(name, it->second);
    };
}

}  // namespace

TEST_CASE("the app opens a GGUF file as its model, and a link names the file", "[ui][model_files]") {
    // The fixture Llama (tests/model_fixtures.cpp): 2 layers, general.file_type 15 = Q4_K_M.
    const std::map<std::string, Bytes> files = {{"/m/tiny-Q4_K_M.gguf", fixtures::llama_like_gguf(3).bytes()}};
    UiState s = default_state();
    REQUIRE(open_model_file(s, "gguf", "/m/tiny-Q4_K_M.gguf", catalog(), opener_over(files)));
    CHECK_FALSE(s.message_is_error);
    CHECK(s.message.rfind("Opened tiny-Q4_K_M.gguf (GGUF, Tiny Llama Fixture: 2 layers", 0) == 0);
    CHECK(s.source == ModelSource::file);
    CHECK(s.config.gguf == "/m/tiny-Q4_K_M.gguf");
    CHECK(s.config.model.arch.source == "gguf");
    CHECK(s.config.weights == "q4_k_m");   // general.file_type 15 (the next test starts from another format)
    const Report r = estimate(s.config, catalog());
    CHECK(r.per_gpu.weights > 0);
    const std::string link = link_of(s);
    CHECK(link.find("gguf=") != std::string::npos);

    // Another source drops the file key; choosing the file again brings the same model back.
    s.source = ModelSource::catalog;
    REQUIRE(apply_model_source(s));
    CHECK(s.config.gguf.empty());
    CHECK(s.config.model.id == "llama-3-70b");
    s.source = ModelSource::file;
    REQUIRE(apply_model_source(s));
    CHECK(s.config.gguf == "/m/tiny-Q4_K_M.gguf");
    CHECK(s.config.model.arch.source == "gguf");

    // The link reopens the file through the opener; without one (the browser) it is refused.
    UiState t = default_state();
    REQUIRE(open_link(t, link, catalog(), opener_over(files)));
    CHECK(t.source == ModelSource::file);
    CHECK(t.config.model.arch.n_layers == 2);
    UiState u = default_state();
    CHECK_FALSE(open_link(u, link, catalog()));
    CHECK_THAT(u.message, Catch::Contains("gguf"));
    // A configuration file naming the GGUF (dropped or opened) reads it the same way.
    UiState v = default_state();
    REQUIRE(open_file_text(v, "c.json", R"({"gguf": "/m/tiny-Q4_K_M.gguf", "gpu": "rtx-3060"})", catalog(), opener_over(files)));
    CHECK(v.source == ModelSource::file);
    CHECK(v.config.gpu == "rtx-3060");
    CHECK(v.config.model.arch.source == "gguf");
}

TEST_CASE("the app's GGUF weights come from the file even when another format was chosen", "[ui][model_files]") {
    const std::map<std::string, Bytes> files = {{"/m/a.gguf", fixtures::llama_like_gguf(3).bytes()}};
    UiState s = default_state();
    s.config.weights = "fp8";
    REQUIRE(open_model_file(s, "gguf", "/m/a.gguf", catalog(), opener_over(files)));
    CHECK(s.config.weights == "q4_k_m");
}

TEST_CASE("a model file that cannot be read leaves the state as it was and names the file", "[ui][model_files][errors]") {
    std::map<std::string, Bytes> files = {{"/m/bad.gguf", Bytes{'G', 'G', 'U', 'F', 9, 0, 0, 0}}};
    UiState s = default_state();
    const std::string before = link_of(s);
    CHECK_FALSE(open_model_file(s, "gguf", "/m/bad.gguf", catalog(), opener_over(files)));
    CHECK(s.message_is_error);
    CHECK_THAT(s.message, Catch::StartsWith("Model not opened: ") && Catch::Contains("bad.gguf"));
    CHECK(link_of(s) == before);
    CHECK(s.source == ModelSource::catalog);
    // A folder without config.json; a platform without files.
    CHECK_FALSE(open_model_file(s, "hf_dir", "/m", catalog(), opener_over(files)));
    CHECK_THAT(s.message, Catch::Contains("config.json"));
    CHECK_FALSE(open_model_file(s, "gguf", "/m/bad.gguf", catalog(), SourceOpener{}));
    CHECK(link_of(s) == before);
    // The file source with nothing opened asks for a file.
    s.source = ModelSource::file;
    CHECK_FALSE(apply_model_source(s));
    CHECK_THAT(s.model_error, Catch::Contains("Open file"));
}

TEST_CASE("a configuration of a Hub model opens as a model read from files, the repository kept", "[ui][model_files][hub]") {
    // What the browser's "From the Hub" panel hands the app: the repository and its config.json
    // (core/src/hub_model.cpp). Before, the setup panel took it for a parameter count of 0.
    const std::string text = R"({"model": {"hub": "acme/dense-8b", "revision": "v2", "hf_config": {"model_type": "llama",
        "hidden_size": 4096, "num_hidden_layers": 32, "num_attention_heads": 32, "num_key_value_heads": 8,
        "intermediate_size": 14336, "vocab_size": 128256}}, "gpu": "rtx-4090"})";
    UiState s = default_state();
    REQUIRE(open_config_text(s, text, catalog()));
    CHECK(s.source == ModelSource::file);
    CHECK(s.file.loaded);
    CHECK(s.file.model.hub == "acme/dense-8b");
    // Another change re-applies the source: the model stays the Hub's, and so does the link.
    REQUIRE(apply_model_source(s));
    CHECK(s.config.model.hub == "acme/dense-8b");
    CHECK(link_of(s).find("hf=acme/dense-8b&rev=v2") != std::string::npos);
    CHECK(estimate(s.config, catalog()).per_gpu.weights > 0);
}

TEST_CASE("a bare config.json, opened or pasted, becomes the model of the configuration (QA E6)", "[ui][model_files]") {
    // The fields of a Llama 3 8B config.json (meta-llama/Meta-Llama-3-8B): the file the app had
    // refused naming its first field as an unknown configuration key.
    const std::string hf = R"({"architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": 4096,
        "num_hidden_layers": 32, "num_attention_heads": 32, "num_key_value_heads": 8, "intermediate_size": 14336,
        "vocab_size": 128256, "max_position_embeddings": 8192, "torch_dtype": "bfloat16"})";
    UiState s = default_state();
    REQUIRE(open_link(s, "#v=1&m=qwen2.5-7b&g=rtx-3090x2&ctx=4096&tp=2", catalog()));
    REQUIRE(open_file_text(s, "config.json", hf, catalog()));
    CHECK_FALSE(s.message_is_error);
    CHECK_THAT(s.message, Catch::StartsWith("Opened config.json (a Hugging Face config.json, ") && Catch::Contains("32 layers"));
    CHECK(s.source == ModelSource::hf_config);
    CHECK(s.config.gpu == "rtx-3090");   // the rest of the configuration stays
    CHECK(s.config.gpus == 2);
    CHECK(s.config.context == 4096);
    CHECK(s.config.tp == 0);   // the split follows the new model
    // The same model as the catalog's Llama 3 8B: the same weights.
    Config same = s.config;
    same.model = model_from_catalog("llama-3-8b");
    CHECK(estimate(s.config, catalog()).per_gpu.weights == estimate(same, catalog()).per_gpu.weights);
    CHECK(link_of(s).find("m=custom&hf=") != std::string::npos);

    // A broken one leaves the state as it was and says why, naming config.json's field.
    const Config before = s.config;
    CHECK_FALSE(open_config_text(s, R"({"model_type": "llama", "hidden_size": 4096, "num_hidden_layers": 0,
        "num_attention_heads": 32, "intermediate_size": 14336, "vocab_size": 128256})",
                                 catalog()));
    CHECK(s.message_is_error);
    CHECK_THAT(s.message, Catch::StartsWith("Model not opened: ") && Catch::Contains("num_hidden_layers"));
    CHECK(s.config.gpu == before.gpu);
    CHECK(s.config.model.hf_config_json == before.model.hf_config_json);
}
