// test_memory_parts.cpp: the one table of the memory parts (gpusizer/report.hpp kMemoryParts)
// and what reads it: the report JSON, the CLI's rows, and the copies the web page
// (web/site/app-page.js) and the widget (web/site/gpusizer-widget.js) keep in JavaScript,
// with the widget's colours against the app's (ui/theme.hpp kPartColors).
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <regex>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_support.hpp"
#include "test_support.hpp"

using namespace gpusizer;
using gpusizer::test::run;

namespace {

// The text of a file of the source tree ("web/site/app-page.js"); "" when it cannot be read.
std::string source_text(const std::string& path) {
    std::ifstream in(std::string(GPUSIZER_TEST_DOCS) + "/../" + path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The text from `open` to the first `close` after it ("" when `open` is not there).
std::string between(const std::string& text, const std::string& open, const std::string& close) {
    const std::size_t a = text.find(open);
    if (a == std::string::npos) return {};
    const std::size_t b = text.find(close, a + open.size());
    return b == std::string::npos ? std::string() : text.substr(a + open.size(), b - a - open.size());
}

// A JavaScript file's `const kParts = [['key', 'label'(, '#colour')], ...];`, row by row.
std::vector<std::vector<std::string>> js_parts(const std::string& path) {
    const std::string text = source_text(path);
    const std::string rows = between(text, "const kParts = [", "];");
    std::vector<std::vector<std::string>> out;
    const std::regex row(R"(\[\s*'([^']*)'\s*,\s*'([^']*)'\s*(?:,\s*'([^']*)'\s*)?\])");
    for (auto it = std::sregex_iterator(rows.begin(), rows.end(), row); it != std::sregex_iterator(); ++it) {
        std::vector<std::string> cells = {(*it)[1], (*it)[2]};
        if ((*it)[3].matched) cells.push_back((*it)[3]);
        out.push_back(cells);
    }
    return out;
}

// ui/theme.hpp's kPartColors as CSS colours ("#4c78a8"), in their order.
std::vector<std::string> app_part_colours() {
    const std::string colours = between(source_text("ui/theme.hpp"), "kPartColors[] = {", "};");
    std::vector<std::string> out;
    const std::regex col(R"(IM_COL32\(\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*,\s*255\s*\))");
    for (auto it = std::sregex_iterator(colours.begin(), colours.end(), col); it != std::sregex_iterator(); ++it) {
        char hex[8];
        std::snprintf(hex, sizeof hex, "#%02x%02x%02x", std::stoi((*it)[1]), std::stoi((*it)[2]), std::stoi((*it)[3]));
        out.emplace_back(hex);
    }
    return out;
}

std::string capitalized(std::string s) {
    if (!s.empty() && s[0] >= 'a' && s[0] <= 'z') s[0] = char(s[0] - 'a' + 'A');
    return s;
}

}  // namespace

TEST_CASE("memory parts: one row per MemoryParts member, in report order", "[memory_parts]") {
    // MemoryParts' members, each set to its position in declaration order (aggregate
    // initialization): row i must read member i, and the rows' keys are the report JSON's
    // (memory.per_gpu, a public contract).
    const MemoryParts m{1, 2, 3, 4, 5, 6};
    REQUIRE((m.weights == 1 && m.kv_cache == 2 && m.activations == 3 && m.gradients == 4 && m.optimizer == 5 && m.overhead == 6));
    const char* keys[] = {"weights", "kv_cache", "activations", "gradients", "optimizer", "overhead"};
    REQUIRE(kMemoryPartCount == 6);
    for (int i = 0; i < kMemoryPartCount; ++i) {
        CAPTURE(i);
        CHECK(int(kMemoryParts[i].part) == i);
        CHECK(std::string(kMemoryParts[i].key) == keys[i]);
        CHECK(part(m, MemoryPart(i)) == i + 1);
        CHECK(m.*kMemoryParts[i].bytes == i + 1);
    }
    CHECK(std::string(memory_part(MemoryPart::kv_cache).label) == "KV cache");
    CHECK(m.total() == 1 + 2 + 3 + 4 + 5 + 6);
}

TEST_CASE("memory parts: the report JSON's per_gpu holds the table's keys and the total", "[memory_parts]") {
    // Training (gradients and optimizer states held) and inference (a KV cache): every part
    // under its key, as the rounded byte count, and nothing else but the total. nlohmann's
    // json writes an object's keys sorted, so the text's order is alphabetical, not the table's.
    Config train = gpusizer::test::training("llama-3-8b", "h100-sxm", 8);
    train.global_batch = 64;
    Config serve = gpusizer::test::serving("llama-3.1-70b", "h100-sxm", Runtime::vllm, 4);
    serve.batch = 16;
    for (const Config& c : {train, serve}) {
        const Report r = run(c);
        const auto per_gpu = nlohmann::json::parse(report_to_json(r))["memory"]["per_gpu"];
        CHECK(per_gpu.size() == std::size_t(kMemoryPartCount) + 1);
        for (const MemoryPartInfo& p : kMemoryParts) {
            CAPTURE(p.key);
            REQUIRE(per_gpu.contains(p.key));
            CHECK(per_gpu[p.key].get<long long>() == std::llround(part(r.per_gpu, p.part)));
        }
        CHECK(per_gpu["total"].get<long long>() == std::llround(r.per_gpu.total()));
    }
}

TEST_CASE("memory parts: the CLI prints a row per part, in the table's order, named by key", "[memory_parts][cli]") {
    const gpusizer::test::CliResult r = gpusizer::test::run_cli({"estimate", "--model", "llama-3-8b", "--mode", "train"});
    REQUIRE(r.code == 0);
    std::size_t at = 0;
    for (const MemoryPartInfo& p : kMemoryParts) {
        CAPTURE(p.key);
        const std::size_t row = r.out.find("\n  " + std::string(p.key) + " ", at);
        REQUIRE(row != std::string::npos);
        at = row + 1;
    }
    CHECK(r.out.find("per layer", r.out.find("\n  activations ")) < r.out.find("\n  gradients "));   // activations' note stays
}

TEST_CASE("memory parts: the web page's and the widget's copies agree with the table", "[memory_parts]") {
    // The page and the widget cannot include C++, and the widget's module has little room to spare
    // for a function that would hand them the table (bench/web_budgets.mjs): their copies are held
    // to it here.
    const auto page = js_parts("web/site/app-page.js");
    const auto widget = js_parts("web/site/gpusizer-widget.js");
    const std::vector<std::string> colours = app_part_colours();
    REQUIRE(page.size() == std::size_t(kMemoryPartCount));
    REQUIRE(widget.size() == std::size_t(kMemoryPartCount));
    REQUIRE(colours.size() == std::size_t(kMemoryPartCount));
    for (int i = 0; i < kMemoryPartCount; ++i) {
        const MemoryPartInfo& p = kMemoryParts[i];
        CAPTURE(p.key);
        CHECK(page[i][0] == p.key);
        // The page's table heads its rows with the app's label, capitalized; it may say more
        // ("Optimizer states").
        CHECK(page[i][1].rfind(capitalized(p.label), 0) == 0);
        REQUIRE(widget[i].size() == 3);
        CHECK(widget[i][0] == p.key);
        CHECK(widget[i][1] == p.label);
        CHECK(widget[i][2] == colours[i]);
    }
}
