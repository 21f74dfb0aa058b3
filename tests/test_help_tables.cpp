// test_help_tables.cpp: `gpusizer --help`, `gpusizer keys` and docs/config.md list what the
// tables hold (weight and KV formats, the choices, the engine versions) and quote the defaults
// the estimate uses: a table entry missing from any of them fails here.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "cli_support.hpp"
#include "runtime_profiles.hpp"
#include "test_support.hpp"

using namespace gpusizer;
using namespace gpusizer::test;

namespace {

// The entry of `--flag` in `gpusizer --help`: its line and the continuation lines below it, joined
// into one line (a wrapped line continues under its first word).
std::string help_entry(const std::string& help, const std::string& flag) {
    const std::string head = "\n  --" + flag + " ";
    const std::size_t at = help.find(head);
    REQUIRE(at != std::string::npos);
    std::size_t end = help.find("\n  --", at + 1);
    const std::size_t blank = help.find("\n\n", at + 1);
    if (blank < end) end = blank;
    std::string out;
    for (char c : help.substr(at + 1, end - at - 1)) {
        if (c == '\n') c = ' ';
        if (c == ' ' && !out.empty() && out.back() == ' ') continue;
        out += c;
    }
    return out;
}

// The line of `key` in `gpusizer keys`.
std::string keys_line(const std::string& keys, const std::string& key) {
    const std::size_t at = keys.find(key + "  link ");
    REQUIRE(at != std::string::npos);
    return keys.substr(at, keys.find('\n', at) - at);
}

// The row of `key` in docs/config.md's key reference.
std::string doc_row(const std::string& key) {
    std::ifstream in(std::string(GPUSIZER_TEST_DOCS) + "/config.md");
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string doc = ss.str();
    const std::size_t at = doc.find("\n| `" + key + "` |");
    REQUIRE(at != std::string::npos);
    return doc.substr(at + 1, doc.find('\n', at + 1) - at - 1);
}

// Whether `text` has `word` standing alone (not inside a longer id: q4_0 is not in q4_0_4).
bool has_word(const std::string& text, const std::string& word) {
    auto is_id = [](char c) { return std::isalnum((unsigned char)c) || c == '_' || c == '.' || c == '-'; };
    for (std::size_t p = text.find(word); p != std::string::npos; p = text.find(word, p + 1)) {
        const bool left = p == 0 || !is_id(text[p - 1]);
        const std::size_t e = p + word.size();
        // A trailing '.' or ',' ends a sentence, not an id.
        const bool right =
            e == text.size() || !is_id(text[e]) || ((text[e] == '.' || text[e] == '-') && (e + 1 == text.size() || !is_id(text[e + 1])));
        if (left && right) return true;
    }
    return false;
}

}   // namespace

TEST_CASE("every weight and KV format of the tables is in --help, keys and docs/config.md", "[help][docs]") {
    const CliResult help = run_cli({"--help"}, false);
    REQUIRE(help.code == 0);
    const CliResult keys = run_cli({"keys"}, false);
    REQUIRE(keys.code == 0);
    const std::string weights_help = help_entry(help.out, "weights"), weights_keys = keys_line(keys.out, "weights");
    const std::string weights_doc = doc_row("weights");
    CHECK(weight_formats().size() == 39);   // 40 with `native`: every one below
    for (const std::string& where : {weights_help, weights_keys, weights_doc}) CHECK(has_word(where, "native"));
    for (const WeightFormat& f : weight_formats()) {
        INFO(f.id);
        CHECK(has_word(weights_help, std::string(f.id)));
        CHECK(has_word(weights_keys, std::string(f.id)));
        CHECK(has_word(weights_doc, "`" + std::string(f.id) + "`"));
    }
    const std::string kv_help = help_entry(help.out, "kv-cache"), kv_keys = keys_line(keys.out, "kv_cache"), kv_doc = doc_row("kv_cache");
    CHECK(kv_formats().size() == 10);
    for (const KvFormat& f : kv_formats()) {
        INFO(f.id);
        CHECK(has_word(kv_help, std::string(f.id)));
        CHECK(has_word(kv_keys, std::string(f.id)));
        CHECK(has_word(kv_doc, "`" + std::string(f.id) + "`"));
    }
}

TEST_CASE("every choice's names are in its --help line, keys and docs/config.md", "[help][docs]") {
    const CliResult help = run_cli({"--help"}, false);
    const CliResult keys = run_cli({"keys"}, false);
    for (const ConfigKey& k : config_keys()) {
        if (k.kind != KeyKind::choice) continue;
        INFO(k.name);
        const std::string line = help_entry(help.out, k.flag), keys_l = keys_line(keys.out, k.name), doc = doc_row(k.name);
        const std::string names = allowed_values(k.name);   // "inference, train, lora, qlora"
        REQUIRE(!names.empty());
        std::size_t p = 0, count = 0;
        while (p < names.size()) {
            const std::size_t comma = names.find(", ", p);
            const std::string name = names.substr(p, comma == std::string::npos ? std::string::npos : comma - p);
            CHECK(line.find(name) != std::string::npos);
            CHECK(keys_l.find(name) != std::string::npos);
            CHECK(doc.find("`" + name + "`") != std::string::npos);
            p = comma == std::string::npos ? names.size() : comma + 2;
            ++count;
        }
        CHECK(count >= 3);
    }
}

TEST_CASE("every engine version is in --help, keys and docs/config.md, with the rule for the others", "[help][docs][runtime_version]") {
    const CliResult help = run_cli({"--help"}, false);
    const CliResult keys = run_cli({"keys"}, false);
    const std::string line = help_entry(help.out, "runtime-version"), keys_l = keys_line(keys.out, "runtime_version");
    const std::string doc = doc_row("runtime_version");
    int rows = 0;
    for (const detail::EngineVersion& v : detail::all_engine_versions()) {
        INFO(to_string(v.engine) << " " << v.version);
        CHECK(line.find(v.version) != std::string::npos);
        CHECK(keys_l.find(v.version) != std::string::npos);
        CHECK(doc.find("`" + std::string(v.version) + "` (") != std::string::npos);
        if (std::string(v.since) != v.version) CHECK(doc.find("from " + std::string(v.since)) != std::string::npos);
        ++rows;
    }
    CHECK(rows == 14);   // with vLLM 0.6 (V0) and 0.21, TensorRT-LLM 0.5, SGLang 0.5.3 (issue 26's KV capacity by version)
    // The defaults, as resolve() picks them: the first row of each engine.
    for (Runtime engine : {Runtime::llama_cpp, Runtime::ollama, Runtime::vllm, Runtime::sglang, Runtime::trt_llm})
        CHECK(doc.find(std::string(to_string(engine)) + " `" + detail::engine_version(engine, "").version + "`") != std::string::npos);
    CHECK(doc.find("reads as the newest profile at or before it") != std::string::npos);
}

TEST_CASE("the engine fractions' defaults printed are the table's and the estimate's", "[help][docs][vllm]") {
    const CliResult help = run_cli({"--help"}, false);
    // vLLM: the default version's utilization is what an estimate without the key uses.
    const detail::EngineVersion& vllm = detail::engine_version(Runtime::vllm, "");
    const double used = run(serving("llama-3-8b", "h100-sxm", Runtime::vllm)).config.gpu_memory_utilization;
    CHECK(used == vllm.fraction);
    char text[64];
    std::snprintf(text, sizeof text, "%g for vllm %s (the default)", vllm.fraction, vllm.version);
    CHECK(help_entry(help.out, "gpu-memory-utilization").find(text) != std::string::npos);
    std::snprintf(text, sizeof text, "%g for vllm `%s` (the default)", vllm.fraction, vllm.version);
    CHECK(doc_row("gpu_memory_utilization").find(text) != std::string::npos);
    // Every vLLM row's figure: current's 0.92 too.
    const detail::EngineVersion& current = detail::engine_version(Runtime::vllm, "current");
    CHECK(current.fraction == 0.92);   // vllm/config/cache.py: Field(default=0.92)
    std::snprintf(text, sizeof text, "%g for current", current.fraction);
    CHECK(help_entry(help.out, "gpu-memory-utilization").find(text) != std::string::npos);
    // TensorRT-LLM's free_gpu_memory_fraction likewise.
    const detail::EngineVersion& trt = detail::engine_version(Runtime::trt_llm, "");
    std::snprintf(text, sizeof text, "%g for trt-llm %s (the default)", trt.fraction, trt.version);
    CHECK(help_entry(help.out, "free-gpu-memory-fraction").find(text) != std::string::npos);
    CHECK(run(serving("llama-3-8b", "h100-sxm", Runtime::trt_llm)).config.free_gpu_memory_fraction == trt.fraction);
}

TEST_CASE("the key lines of gpusizer --help stay within 100 columns", "[help]") {
    const CliResult help = run_cli({"--help"}, false);
    std::istringstream in(help.out);
    std::string line;
    bool keys = false;
    while (std::getline(in, line)) {
        if (line.rfind("Key flags", 0) == 0) keys = true;
        if (line.rfind("Recommend constraints", 0) == 0) keys = false;
        if (!keys) continue;
        INFO(line);
        CHECK(line.size() <= 100);
    }
}
