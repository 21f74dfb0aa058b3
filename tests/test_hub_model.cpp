// test_hub_model.cpp: a model on the Hugging Face Hub in a configuration and a share link
// (core/src/hub_model.cpp, share_link.cpp): what the browser fetched gives the same figures as
// the file on disk; without it the estimate says what to do; links carry the repository only.
#include <catch2/catch.hpp>

#include <map>
#include <nlohmann/json.hpp>

#include "model_fixtures.hpp"
#include "test_support.hpp"

using namespace gpusizer;
using namespace gpusizer::test;
using namespace gpusizer::fixtures;
using nlohmann::json;

namespace {

// RFC 4648 base64, as the browser's btoa() writes it (web/site/hub.mjs toBase64).
std::string base64(const Bytes& b) {
    static const char* k = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    for (std::size_t i = 0; i < b.size(); i += 3) {
        const std::uint32_t n = std::uint32_t(b[i]) << 16 | (i + 1 < b.size() ? std::uint32_t(b[i + 1]) << 8 : 0) |
                                (i + 2 < b.size() ? std::uint32_t(b[i + 2]) : 0);
        out += k[n >> 18 & 63];
        out += k[n >> 12 & 63];
        out += i + 1 < b.size() ? k[n >> 6 & 63] : '=';
        out += i + 2 < b.size() ? k[n & 63] : '=';
    }
    return out;
}

json hub_config(const Bytes& header) {
    return {{"model", {{"hub", "acme/tiny-GGUF"}, {"file", "tiny-Q4_K_M.gguf"}, {"gguf_headers", {{"tiny-Q4_K_M.gguf", base64(header)}}}}},
            {"gpu", "h100-sxm"}};
}

std::string error_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const Error& e) {
        return e.what();
    }
    return "(no error)";
}

}  // namespace

TEST_CASE("hub: a GGUF header fetched from the Hub gives the file's exact bytes, as the file on disk", "[hub][model_files]") {
    const GgufWriter w = llama_like_gguf(3);
    // The fixture's tensors by the test's own type table (model_fixtures.cpp).
    double total = 0;
    for (const auto& t : w.tensors()) total += double(t.bytes);

    // What the browser fetched: the header alone, without the tensor data after it.
    const Bytes whole = w.bytes();
    const Bytes header(whole.begin(), whole.begin() + std::ptrdiff_t(w.header_size()));
    const Config hub = config_from_json(hub_config(header).dump());
    CHECK(hub.model.arch.source == "hub");
    CHECK(hub.model.hub == "acme/tiny-GGUF");
    CHECK(hub.weights == "q4_k_m");   // general.file_type 15 = MOSTLY_Q4_K_M, as a local file sets it

    Config disk;
    disk.gguf = "tiny.gguf";
    disk.gpu = "h100-sxm";
    const std::map<std::string, Bytes> files = {{"tiny.gguf", w.bytes()}};
    load_model_files(disk, [&files](const std::string& n) -> std::unique_ptr<ByteSource> {
        auto it = files.find(n);
        return it == files.end() ? nullptr : std::make_unique<MemorySource>(n, it->second);
    });

    const Report a = run(hub);
    const Report b = run(disk);
    CHECK(a.per_gpu.weights == b.per_gpu.weights);
    CHECK(a.per_gpu.kv_cache == b.per_gpu.kv_cache);
    CHECK(a.per_gpu.total() == b.per_gpu.total());
    const json j = json::parse(report_to_json(a));
    CHECK(j["model"]["source"] == "hub");
    CHECK(j["model"]["file_bytes"] == total);   // every tensor's exact bytes, from the header alone

    // Written back, the model is as given (the repository and the header): a round trip.
    const json back = json::parse(config_to_json(hub));
    CHECK(back["model"] == hub_config(header)["model"]);
    CHECK(run(config_from_json(back.dump())).per_gpu.total() == a.per_gpu.total());
}

TEST_CASE("local GGUF: a header a page read from the reader's disk is sized as the file, and its link names the file (QA E6)",
          "[hub][model_files]") {
    const GgufWriter w = llama_like_gguf(3);
    const Bytes whole = w.bytes();
    const Bytes header(whole.begin(), whole.begin() + std::ptrdiff_t(w.header_size()));
    const json model = {{"file", "tiny.gguf"}, {"gguf_headers", {{"tiny.gguf", base64(header)}}}};
    const Config local = config_from_json(json{{"model", model}, {"gpu", "h100-sxm"}}.dump());
    CHECK(local.model.hub.empty());
    CHECK(local.model.arch.source == "gguf");
    CHECK(local.weights == "q4_k_m");   // general.file_type, as the file on disk sets it
    CHECK(model_spec_from_json(model.dump()).arch.total_layers() == local.model.arch.total_layers());

    Config disk;
    disk.gguf = "tiny.gguf";
    disk.gpu = "h100-sxm";
    load_model_files(disk, [&whole](const std::string& n) -> std::unique_ptr<ByteSource> {
        return n == "tiny.gguf" ? std::make_unique<MemorySource>(n, whole) : nullptr;
    });
    const Report a = run(local);
    CHECK(a.per_gpu.weights == run(disk).per_gpu.weights);
    CHECK(a.per_gpu.total() == run(disk).per_gpu.total());
    // The configuration keeps what was read (a round trip); the link names the file only, as
    // the CLI's --gguf writes it, and no page but the reader's has it.
    CHECK(json::parse(config_to_json(local))["model"] == model);
    CHECK(link_from_config(local) == link_from_config(disk));
    CHECK_THAT(link_from_config(local), Catch::Contains("&gguf=tiny.gguf"));
    const Config from_link = config_from_link(link_from_config(local));
    CHECK_THAT(error_of([&] { (void)run(from_link); }), Catch::StartsWith("gguf: names a file that was not read: "));
}

TEST_CASE("local GGUF: bad models name the field", "[hub][errors]") {
    const BadInput cases[] = {
        {R"({"model": {"gguf_headers": {"x.gguf": "R0dVRg=="}}})", "model.gguf_headers", "needs `file`"},
        {R"({"model": {"file": "x.gguf", "revision": "main", "gguf_headers": {"x.gguf": "R0dVRg=="}}})", "model.revision", "disk"},
        {R"({"model": {"file": "x.gguf", "hf_config": {}, "gguf_headers": {"x.gguf": "R0dVRg=="}}})", "model.hf_config", ""},
        {R"({"model": {"file": "x.safetensors", "gguf_headers": {"x.safetensors": "R0dVRg=="}}})", "model.file", "GGUF"},
    };
    expect_errors(cases, [](const std::string& text) { return config_from_json(text); });
}

TEST_CASE("config.json: a Hugging Face config.json is told apart from a configuration (QA E6)", "[hub][errors]") {
    const std::string hf = R"({"architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": 4096})";
    CHECK(looks_like_hf_config(hf));
    CHECK(looks_like_hf_config(R"( {"architectures": ["X"]})"));
    CHECK_FALSE(looks_like_hf_config(R"({"model": "llama-3-8b", "gpu": "rtx-4090"})"));
    CHECK_FALSE(looks_like_hf_config(R"({"model": {"hf_config": {"model_type": "llama"}}})"));
    CHECK_FALSE(looks_like_hf_config("#v=1&m=llama-3-8b"));
    CHECK_FALSE(looks_like_hf_config("{\"model_type\": "));   // not JSON
    CHECK_FALSE(looks_like_hf_config("GGUF\x03"));
    // Given as a configuration, it is named for what it is (not "_name_or_path: unknown key").
    CHECK_THAT(error_of([&] { (void)config_from_json(hf); }),
               Catch::StartsWith("config: is a Hugging Face config.json, not a gpusizer configuration"));
}

TEST_CASE("hub: config.json from the Hub is sized as a pasted one, the repository kept", "[hub]") {
    const json hf = {{"model_type", "llama"}, {"hidden_size", 4096}, {"num_hidden_layers", 32}, {"num_attention_heads", 32},
                     {"num_key_value_heads", 8}, {"intermediate_size", 14336}, {"vocab_size", 128256}};
    const Config hub = config_from_json(json{{"model", {{"hub", "acme/dense-8b"}, {"revision", "v2"}, {"hf_config", hf}}}}.dump());
    const Config pasted = config_from_json(json{{"model", {{"hf_config", hf}}}}.dump());
    CHECK(run(hub).per_gpu.total() == run(pasted).per_gpu.total());
    CHECK(json::parse(report_to_json(run(hub)))["model"]["source"] == "hub");
    CHECK(link_from_config(hub) == "#v=1&hf=acme/dense-8b&rev=v2&g=rtx-4090");
}

TEST_CASE("hub: without what was fetched, the estimate names model.hub and says what to do", "[hub][errors]") {
    const Config c = config_from_json(R"({"model": {"hub": "unsloth/Qwen3-8B-GGUF", "file": "Qwen3-8B-Q4_K_M.gguf"}})");
    const std::string msg = error_of([&] { (void)run(c); });
    CHECK_THAT(msg, Catch::StartsWith("model.hub: unsloth/Qwen3-8B-GGUF (Qwen3-8B-Q4_K_M.gguf) is on the Hugging Face Hub"));
    CHECK_THAT(msg, Catch::Contains("--gguf FILE") && Catch::Contains("--hf-dir DIR"));
}

TEST_CASE("hub: bad Hub models name the field", "[hub][errors]") {
    const BadInput cases[] = {
        {R"({"model": {"hub": "gpt2"}})", "model.hub", "org/name"},
        {R"({"model": {"hub": "a/b/c"}})", "model.hub", ""},
        {R"({"model": {"hub": "org/.."}})", "model.hub", ""},
        {R"({"model": {"hub": 7}})", "model.hub", "string"},
        {R"({"model": {"hub": "o/n", "revision": "a b"}})", "model.revision", ""},
        {R"({"model": {"hub": "o/n", "file": "../x.gguf"}})", "model.file", ""},
        {R"({"model": {"hub": "o/n", "file": "model.safetensors"}})", "model.file", "config.json"},
        {R"({"model": {"hub": "o/n", "gguf_headers": {"x.gguf": ""}}})", "model.gguf_headers", "file"},
        {R"({"model": {"hub": "o/n", "file": "x.gguf", "hf_config": {}}})", "model.hf_config", ""},
        {R"({"model": {"hub": "o/n", "file": "x.gguf", "gguf_headers": {"x.gguf": "R0dVRg="}}})", "model.gguf_headers.x.gguf", "base64"},
        {R"({"model": {"hub": "o/n", "file": "x.gguf", "gguf_headers": {"x.gguf": "!!!!"}}})", "base64", ""},
        {R"({"model": {"hub": "o/n", "file": "x.gguf", "gguf_headers": {"y.gguf": "R0dVRg=="}}})", "x.gguf", ""},
        {R"({"model": {"hub": "o/n", "file": "x.gguf", "gguf_headers": {"x.gguf": "R0dVRg=="}}})", "x.gguf", ""},
        {R"({"model": {"hub": "o/n", "size": 1}})", "model.size", "unknown"},
    };
    expect_errors(cases, [](const std::string& text) { return config_from_json(text); });
}

TEST_CASE("links: hf=org/name carries a Hub model, m=custom&hf={...} is still a pasted config.json", "[link][hub]") {
    const Config c = config_from_link("#v=1&hf=unsloth/Qwen3-8B-GGUF&f=Qwen3-8B-Q4_K_M.gguf&rev=main&ctx=32768&g=rtx-4090");
    CHECK(c.model.hub == "unsloth/Qwen3-8B-GGUF");
    CHECK(json::parse(config_to_json(c))["model"] ==
          json({{"hub", "unsloth/Qwen3-8B-GGUF"}, {"revision", "main"}, {"file", "Qwen3-8B-Q4_K_M.gguf"}}));
    CHECK(c.context == 32768);
    CHECK(!c.model.hub_fetched);
    CHECK(link_from_config(c) == "#v=1&hf=unsloth/Qwen3-8B-GGUF&rev=main&f=Qwen3-8B-Q4_K_M.gguf&ctx=32768&g=rtx-4090");
    // %2F reads as '/' too (a link written by a URL encoder).
    CHECK(config_from_link("#v=1&hf=unsloth%2FQwen3-8B-GGUF").model.hub == "unsloth/Qwen3-8B-GGUF");
    // An old link: m=custom with the pasted config.json.
    const Config old = config_from_link("#v=1&m=custom&hf=%7B%22model_type%22%3A%22llama%22%2C%22hidden_size%22%3A4096%2C"
                                        "%22num_hidden_layers%22%3A32%2C%22num_attention_heads%22%3A32%2C%22intermediate_size%22%3A11008%2C"
                                        "%22vocab_size%22%3A32000%7D&g=a100-80gb-sxm");
    CHECK(old.model.hub.empty());
    CHECK(!old.model.hf_config_json.empty());

    const BadInput cases[] = {
        {"#v=1&m=llama-3-8b&hf=org/name", "model", "leave m"},
        {"#v=1&hf=org/name&np=7e9", "model", "leave m"},
        {"#v=1&m=llama-3-8b&f=x.gguf", "model", "hf=<org/name>"},
        {"#v=1&m=custom&hf=%7B%7D&rev=v2", "model", "hf=<org/name>"},
        {"#v=1&hf=not-a-repo", "model.hub", "org/name"},
        {"#v=1&hf=org/name&f=x.bin", "model.file", ""},
    };
    expect_errors(cases, [](const std::string& link) { return config_from_link(link); });
}

TEST_CASE("links: one rule for numbers, JSON's (QA D17)", "[link][errors]") {
    // Whole values in any JSON spelling are the same integer.
    // '+' reads as a space (form encoding), so an exponent's sign is written %2B (or left out).
    for (const char* ctx : {"8192", "8192.0", "8.192e3", "8.192E%2B3", "819200e-2"}) {
        INFO(ctx);
        CHECK(config_from_link(std::string("#v=1&m=llama-3-8b&ctx=") + ctx).context == 8192);
    }
    CHECK(config_from_link("#v=1&m=llama-3-8b&ctx=1e4").context == 10000);   // refused before the rule
    CHECK(config_from_link("#v=1&m=llama-3-8b&tt=1e16").train_tokens == 1e16);
    CHECK(config_from_link("#v=1&m=custom&np=1e10").model.num_parameters == 1e10);
    CHECK(config_from_link("#v=1.0&m=llama-3-8b").model.id == "llama-3-8b");   // v is a number too
    CHECK(config_from_link("#v=1&m=llama-3-8b&gmu=0.85").gpu_memory_utilization == 0.85);
    CHECK(config_from_link("#v=1&m=llama-3-8b&ctx=%38192").context == 8192);   // %38 = '8': read after decoding

    // Anything else is refused, naming the key and the rule: signs, spaces, hex, leading zeros,
    // fractions for integers, inf and nan, a bare point or exponent.
    const BadInput cases[] = {
        {"#v=1&m=llama-3-8b&ctx=+8192", "context", "as in JSON"},
        {"#v=1&m=llama-3-8b&ctx=8.192e+3", "context", "as in JSON"},   // '+' is a space
        {"#v=1&m=llama-3-8b&ctx=%208192", "context", "as in JSON"},
        {"#v=1&m=llama-3-8b&ctx=8192%20", "context", ""},
        {"#v=1&m=llama-3-8b&ctx=0x2000", "context", ""},
        {"#v=1&m=llama-3-8b&ctx=08192", "context", ""},
        {"#v=1&m=llama-3-8b&ctx=8192.5", "context", "integer"},
        {"#v=1&m=llama-3-8b&ctx=.5", "context", ""},
        {"#v=1&m=llama-3-8b&ctx=5.", "context", ""},
        {"#v=1&m=llama-3-8b&ctx=1e", "context", ""},
        {"#v=1&m=llama-3-8b&gmu=inf", "gpu_memory_utilization", ""},
        {"#v=1&m=llama-3-8b&gmu=nan", "gpu_memory_utilization", ""},
        {"#v=1&m=llama-3-8b&tt=1e999", "train_tokens", "too large"},
        {"#v=1&m=custom&np=+7e9", "model.num_parameters", ""},
        {"#v=01&m=llama-3-8b", "link", ""},
        {"#v=1&m=llama-3-8b&g=rtx-4090x02", "gpus", ""},
    };
    expect_errors(cases, [](const std::string& link) { return config_from_link(link); });
}
