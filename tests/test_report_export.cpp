// test_report_export.cpp: the report as CSV and as text (the app's "Report" menu; the CLI prints
// the text): every value of the JSON report is a CSV line under its dotted key, quoted per RFC 4180.
#include <catch2/catch.hpp>

#include <cmath>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "test_support.hpp"

using namespace gpusizer;
using namespace gpusizer::test;
using json = nlohmann::json;

namespace {
// RFC 4180, as a spreadsheet reads it: fields split at commas outside quotes, "" a quote inside.
std::map<std::string, std::string> read_csv(const std::string& text) {
    std::map<std::string, std::string> rows;
    std::vector<std::string> fields;
    std::string field;
    bool quoted = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char ch = text[i];
        if (quoted) {
            if (ch == '"' && i + 1 < text.size() && text[i + 1] == '"') field += '"', ++i;
            else if (ch == '"') quoted = false;
            else field += ch;
        } else if (ch == '"') {
            quoted = true;
        } else if (ch == ',') {
            fields.push_back(field), field.clear();
        } else if (ch == '\n') {
            fields.push_back(field), field.clear();
            REQUIRE(fields.size() == 2);
            rows[fields[0]] = fields[1];
            fields.clear();
        } else {
            field += ch;
        }
    }
    return rows;
}

void leaves(const json& j, const std::string& key, std::map<std::string, std::string>& out) {
    if (j.is_object() && !j.empty()) {
        for (auto it = j.begin(); it != j.end(); ++it) leaves(it.value(), key.empty() ? it.key() : key + "." + it.key(), out);
        return;
    }
    out[key] = j.is_string() ? j.get<std::string>() : j.is_null() ? std::string() : j.dump();
}
}  // namespace

TEST_CASE("the report as CSV: every JSON value under its dotted key, read back by an RFC 4180 reader", "[report][export]") {
    // A training run on two nodes: warnings with commas and quotes, lists, nulls and nested objects.
    Config c = hgx_h100_8b_training();
    c.gpus = 16;
    c.train_tokens = 1e10;
    const Report r = run(c);
    const std::string csv = report_to_csv(r);
    REQUIRE(csv.rfind("key,value\n", 0) == 0);
    std::map<std::string, std::string> want;
    leaves(json::parse(report_to_json(r)), "", want);
    std::map<std::string, std::string> got = read_csv(csv);
    CHECK(got["key"] == "value");
    got.erase("key");
    CHECK(got.size() == want.size());
    for (const auto& [k, v] : want) {
        INFO(k);
        CHECK(got[k] == v);
    }
    CHECK(got["memory.per_gpu.total"] == std::to_string(std::llround(r.per_gpu.total())));   // whole bytes, as the JSON
    CHECK(got["speed.train_goodput_fraction"] == json(r.speed.train_goodput_fraction).dump());
    // A value with a comma is quoted (the warnings are a JSON list: commas and quotes inside).
    if (!r.warnings.empty()) CHECK(csv.find("\nwarnings,\"[\"\"") != std::string::npos);
}

TEST_CASE("the report as text is what the CLI prints", "[report][export]") {
    const Report r = run(config("llama-3.1-8b", "rtx-4090"));
    const std::string text = report_to_text(r);
    CHECK(text.rfind("Meta Llama 3.1 8B on 1 x NVIDIA GeForce RTX 4090\n", 0) == 0);
    CHECK(text.find("FITS, headroom") != std::string::npos);
    CHECK(text.find("memory per GPU (most loaded)") != std::string::npos);
}
