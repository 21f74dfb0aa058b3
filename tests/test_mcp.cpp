// test_mcp.cpp: `gpusizer mcp`, the Model Context Protocol server (cli/mcp.cpp), driven by
// scripted lines as a client writes them: one JSON-RPC 2.0 message per line in, one per line out
// (https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#stdio). The
// expected answers are those of the core's JSON functions for the same values.
#include <catch2/catch.hpp>

#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_internal.hpp"
#include "cli_support.hpp"
#include "gpusizer/plan.hpp"
#include "gpusizer/simulate.hpp"
#include "model_fixtures.hpp"
#include "test_support.hpp"

using namespace gpusizer;
using nlohmann::json;

namespace {

struct Session {
    int code = 0;
    std::vector<json> replies;   // one per line written
    std::string log;   // stderr
};

// Runs the server over `lines` (each a message, newline-terminated) until the input ends.
Session serve(const std::vector<std::string>& lines) {
    std::string input;
    for (const std::string& l : lines) input += l + "\n";
    std::istringstream in(input);
    std::ostringstream out, err;
    Session s;
    s.code = cli::run_mcp(in, out, err, "gpusizer", GPUSIZER_TEST_ASSETS);
    std::istringstream written(out.str());
    std::string line;
    while (std::getline(written, line)) s.replies.push_back(json::parse(line));   // each line one whole message
    s.log = err.str();
    return s;
}

std::string request(int id, const std::string& method, const json& params = json::object()) {
    return json{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", params}}.dump();
}

std::string initialize(int id, const std::string& version) {
    return request(id, "initialize",
                   {{"protocolVersion", version}, {"capabilities", json::object()}, {"clientInfo", {{"name", "test"}, {"version", "1"}}}});
}

std::string call(int id, const std::string& tool, const json& args) {
    return request(id, "tools/call", {{"name", tool}, {"arguments", args}});
}

// The result of one tools/call after an initialize at `version`.
json call_result(const std::string& tool, const json& args, const std::string& version = "2025-06-18") {
    const Session s = serve({initialize(1, version), call(2, tool, args)});
    REQUIRE(s.replies.size() == 2);
    REQUIRE(s.replies[1]["id"] == 2);
    REQUIRE(s.replies[1].contains("result"));
    return s.replies[1]["result"];
}

json tool_text(const json& result) {
    REQUIRE(result["content"].size() == 1);
    REQUIRE(result["content"][0]["type"] == "text");
    return json::parse(result["content"][0]["text"].get<std::string>());
}

json tools_list() {
    const Session s = serve({request(1, "tools/list")});
    REQUIRE(s.replies.size() == 1);
    return s.replies[0]["result"]["tools"];
}

json tool_schema(const std::string& name) {
    for (const json& t : tools_list())
        if (t["name"] == name) return t["inputSchema"];
    FAIL("no tool " << name);
    return nullptr;
}

const char* const kConfig = R"({"model": "llama-3-8b", "weights": "q4_k_m", "gpu": "rtx-4090", "context": 16384})";

}   // namespace

TEST_CASE("mcp: initialize answers the client's protocol version when supported, else the newest", "[mcp]") {
    // The four revisions of https://modelcontextprotocol.io/specification (2025-11-25 the current).
    for (const char* v : {"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}) {
        const Session s = serve({initialize(1, v)});
        REQUIRE(s.replies.size() == 1);
        CHECK(s.replies[0]["jsonrpc"] == "2.0");
        CHECK(s.replies[0]["id"] == 1);
        CHECK(s.replies[0]["result"]["protocolVersion"] == v);
    }
    const Session s = serve({initialize(7, "1999-01-01")});
    REQUIRE(s.replies.size() == 1);
    const json& r = s.replies[0]["result"];
    CHECK(r["protocolVersion"] == "2025-11-25");
    CHECK(r["capabilities"] == json{{"tools", {{"listChanged", false}}}});
    CHECK(r["serverInfo"]["name"] == "gpusizer");
    // The version `gpusizer --version` prints.
    const std::string version_line = test::run_cli({"--version"}, false).out;
    CHECK(version_line == "gpusizer " + r["serverInfo"]["version"].get<std::string>() + "\n");
    // Without protocolVersion: invalid params.
    const Session bad = serve({request(3, "initialize", json::object())});
    CHECK(bad.replies[0]["error"]["code"] == -32602);
}

TEST_CASE("mcp: notifications get no reply, ping answers {}", "[mcp]") {
    const Session s = serve({initialize(1, "2025-06-18"), R"({"jsonrpc": "2.0", "method": "notifications/initialized"})",
                             R"({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 1}})",
                             R"({"jsonrpc": "2.0", "method": "no/such/notification"})", request(2, "ping"), "", "   "});
    REQUIRE(s.replies.size() == 2);
    CHECK(s.replies[0]["id"] == 1);
    CHECK(s.replies[1]["id"] == 2);
    CHECK(s.replies[1]["result"] == json::object());
    // A string id comes back as given.
    const Session t = serve({R"({"jsonrpc": "2.0", "id": "abc", "method": "ping"})"});
    CHECK(t.replies[0]["id"] == "abc");
}

TEST_CASE("mcp: tools/list has the eight tools, their config schemas generated from the key table", "[mcp]") {
    const json tools = tools_list();
    std::set<std::string> names;
    for (const json& t : tools) {
        names.insert(t["name"].get<std::string>());
        CHECK(t["description"].get<std::string>().size() > 20);
        CHECK(t["inputSchema"]["type"] == "object");
    }
    CHECK(names == std::set<std::string>{"estimate", "fit", "recommend", "plan", "simulate", "models", "gpus", "inspect"});

    for (const char* tool : {"estimate", "fit", "recommend", "plan", "simulate"}) {
        const json schema = tool_schema(tool);
        CHECK(schema["required"] == json::array({"config"}));
        const json& props = schema["properties"]["config"]["properties"];
        // One property per row of the table; estimate's described by the row's meaning, the
        // others' the same without the text.
        CHECK(props.size() == config_keys().size());
        for (const ConfigKey& k : config_keys()) {
            INFO(tool << " " << k.name);
            REQUIRE(props.contains(k.name));
            if (std::string(tool) == "estimate")
                CHECK_THAT(props[k.name]["description"].get<std::string>(), Catch::Contains(k.meaning));
            else
                CHECK_FALSE(props[k.name].contains("description"));
        }
        // context: a whole number of tokens; 0 (the default: 8192 or the model's maximum) up to
        // 2^27 (kMaxContext in core/src/config_keys.cpp).
        CHECK(props["context"]["type"] == "integer");
        CHECK(props["context"]["minimum"] == 0);
        CHECK(props["context"]["maximum"] == 134217728);
        if (std::string(tool) == "estimate") CHECK_THAT(props["context"]["description"].get<std::string>(), Catch::Contains("tokens"));
        // runtime: the closed set of allowed_values("runtime").
        CHECK(props["runtime"]["type"] == "string");
        CHECK(props["runtime"]["enum"] == json(split_names(allowed_values("runtime"))));
        CHECK(props["runtime"]["enum"].size() >= 5);
        // gpu_memory_utilization: (0, 1], the open end as exclusiveMinimum.
        CHECK(props["gpu_memory_utilization"]["exclusiveMinimum"] == 0.0);
        CHECK(props["gpu_memory_utilization"]["maximum"] == 1.0);
        CHECK(props["flash_attention"]["type"] == "boolean");
        // gpu: a catalog id or a custom GPU's object, its fields from gpu_fields() (nested ones nested).
        const json& gpu = props["gpu"]["anyOf"];
        REQUIRE(gpu.size() == 2);
        CHECK(gpu[0]["type"] == "string");
        CHECK(gpu[1]["properties"]["memory_gib"]["type"] == "number");
        CHECK(gpu[1]["properties"]["tensor_tflops_dense"]["properties"]["bf16"]["type"] == "number");
        CHECK(schema["properties"]["config"]["additionalProperties"] == false);
    }
    // tools/list stays small enough for an assistant's context: the long descriptions once.
    CHECK(json(tools).dump().size() < 100000);
    CHECK(tool_schema("inspect")["required"] == json::array({"path"}));
    CHECK(tool_schema("models")["properties"].empty());
}

TEST_CASE("mcp: tools/call estimate answers estimate --json, value for value", "[mcp]") {
    const json expected = json::parse(report_to_json(estimate(config_from_json(kConfig), test::catalog(), EstimateOptions{true, nullptr})));
    // 2025-06-18 and later: the JSON as text and as structuredContent.
    for (const char* v : {"2025-06-18", "2025-11-25"}) {
        const json r = call_result("estimate", {{"config", json::parse(kConfig)}}, v);
        CHECK(r["isError"] == false);
        CHECK(tool_text(r) == expected);
        CHECK(r["structuredContent"] == expected);
    }
    // Before 2025-06-18 there is no structuredContent.
    const json old = call_result("estimate", {{"config", json::parse(kConfig)}}, "2025-03-26");
    CHECK(tool_text(old) == expected);
    CHECK_FALSE(old.contains("structuredContent"));
    // With the assumptions, as `estimate --json --assumptions`.
    const json with = tool_text(call_result("estimate", {{"config", json::parse(kConfig)}, {"assumptions", true}}));
    REQUIRE(with.contains("assumptions"));
    CHECK(with["assumptions"].size() > 0);
    CHECK(with["memory"] == expected["memory"]);
}

TEST_CASE("mcp: the other tools answer as their core functions", "[mcp]") {
    const Catalog& cat = test::catalog();
    // fit
    CHECK(tool_text(call_result("fit", {{"config", json::parse(kConfig)}})) ==
          json::parse(fit_to_json(fit(config_from_json(kConfig), cat))));
    // recommend with constraints
    const json constraints = {{"segments", {"consumer"}}, {"max_gpus", 2}, {"sort", "speed"}};
    const json rec = call_result("recommend", {{"config", {{"model", "llama-3-8b"}, {"weights", "q4_k_m"}}}, {"constraints", constraints}});
    CHECK(rec["isError"] == false);
    CHECK(tool_text(rec) == json::parse(recommend_to_json(recommend(
                                recommend_query_from_json(R"({"model": "llama-3-8b", "weights": "q4_k_m"})", constraints.dump()), cat))));
    // models and gpus: arrays, so text only (structuredContent is an object in the schema).
    const json models = call_result("models", json::object());
    CHECK(tool_text(models) == json::parse(models_to_json(cat)));
    CHECK_FALSE(models.contains("structuredContent"));
    CHECK(tool_text(call_result("gpus", json::object())) == json::parse(gpus_to_json(cat)));
    // plan (inference) and simulate: the searched layouts and the simulated requests.
    const json serving = {{"model", "llama-3-8b"}, {"gpu", "h100-sxm"}, {"gpus", 2}, {"mode", "inference"}, {"isl", 512}, {"osl", 128}};
    const json p = call_result("plan", {{"config", serving}, {"query", {{"top", 2}}}});
    REQUIRE(p["isError"] == false);
    const PlanReport direct = plan(plan_request_from_json(serving.dump(), R"({"top": 2})"), cat);
    CHECK(p["structuredContent"]["search"]["evaluated"] == direct.evaluated);
    CHECK(p["structuredContent"]["search"]["fitting"] == direct.fitting);
    CHECK(p["structuredContent"]["top"].size() == 2);
    const json s = call_result("simulate", {{"config", serving}, {"options", {{"requests", 40}, {"seed", 3}}}});
    REQUIRE(s["isError"] == false);
    CHECK(s["structuredContent"]["simulation"]["requests"] == 40);
    CHECK(s["structuredContent"]["simulation"]["completed"] ==
          simulate(config_from_json(serving.dump()), cat, simulation_options_from_json(R"({"requests": 40, "seed": 3})")).completed);
    // The highest rate within the objectives, through the same options.
    const json m = call_result("simulate", {{"config", serving}, {"options", {{"requests", 1000}, {"max_rate", true}, {"slo_tpot_ms", 20}}}});
    REQUIRE(m["isError"] == false);
    CHECK(m["structuredContent"]["simulation"]["max_rate"]["rps"].get<double>() > 0);
    CHECK(m["structuredContent"]["simulation"]["max_rate"]["percentile"] == 99);
}

TEST_CASE("mcp: inspect reads a local GGUF file as inspect --json", "[mcp]") {
    fixtures::TempDir dir("mcp-inspect");
    fixtures::write_file(dir.file("tiny.gguf"), fixtures::llama_like_gguf(3).bytes());
    const json r = call_result("inspect", {{"path", dir.file("tiny.gguf")}});
    REQUIRE(r["isError"] == false);
    CHECK(tool_text(r) == json::parse(test::run_cli({"inspect", dir.file("tiny.gguf"), "--json"}, false).out));
    CHECK(tool_text(r)["format"] == "gguf");
    // A file that is not there: an error naming it.
    const json missing = call_result("inspect", {{"path", dir.file("nothing.gguf")}});
    CHECK(missing["isError"] == true);
    CHECK_THAT(missing["content"][0]["text"].get<std::string>(), Catch::Contains("nothing.gguf"));
}

TEST_CASE("mcp: bad arguments are tool results with isError, naming the key", "[mcp]") {
    auto error_text = [](const std::string& tool, const json& args) {
        const json r = call_result(tool, args);
        CHECK(r["isError"] == true);
        CHECK_FALSE(r.contains("structuredContent"));
        return r["content"][0]["text"].get<std::string>();
    };
    // The gpusizer::Error message, as the CLI prints it after "gpusizer: error: ".
    const std::string cli_err = test::run_cli({"estimate", "--model", "llama-3-8b", "--runtime", "warp-drive"}).err;
    const std::string runtime = error_text("estimate", {{"config", {{"model", "llama-3-8b"}, {"runtime", "warp-drive"}}}});
    CHECK_THAT(runtime, Catch::StartsWith("runtime: "));
    CHECK(cli_err == "gpusizer: error: " + runtime + "\n");
    CHECK_THAT(error_text("estimate", {{"config", {{"model", "llama-3-8b"}, {"context", 0.5}}}}), Catch::StartsWith("context: "));
    CHECK_THAT(error_text("fit", {{"config", {{"model", "llama-3-8b"}, {"contxt", 4096}}}}),
               Catch::StartsWith("contxt: unknown configuration key"));
    CHECK_THAT(error_text("estimate", {{"config", {{"model", "no-such-model"}}}}), Catch::Contains("no-such-model"));
    CHECK_THAT(error_text("estimate", json::object()), Catch::StartsWith("config: is required"));
    CHECK_THAT(error_text("estimate", {{"config", "llama-3-8b"}}), Catch::StartsWith("config: must be an object"));
    // Configuration keys at the top level: named, with where they go.
    CHECK_THAT(error_text("estimate", {{"model", "llama-3-8b"}}),
               Catch::StartsWith("model: unknown argument of estimate") && Catch::Contains("inside config"));
    CHECK_THAT(error_text("models", {{"family", "llama"}}), Catch::StartsWith("family: unknown argument of models"));
    CHECK_THAT(error_text("plan", {{"config", json::parse(kConfig)}, {"query", {{"top", 0}}}}), Catch::StartsWith("top: "));
    CHECK_THAT(error_text("simulate", {{"config", json::parse(kConfig)}, {"options", {{"burstiness", "high"}}}}),
               Catch::StartsWith("burstiness: "));
    CHECK_THAT(error_text("recommend", {{"config", json::parse(kConfig)}, {"constraints", {{"sort", "vibes"}}}}), Catch::Contains("sort"));
    CHECK_THAT(error_text("estimate", {{"config", json::parse(kConfig)}, {"assumptions", "yes"}}), Catch::StartsWith("assumptions: "));
    CHECK_THAT(error_text("inspect", json::object()), Catch::StartsWith("path: is required"));
}

TEST_CASE("mcp: JSON-RPC errors: -32700, -32600, -32601, -32602, and the server keeps serving", "[mcp]") {
    const Session s = serve({
        "{not json",   // -32700, id null
        request(1, "ping"),   // still answered
        request(2, "resources/list"),   // -32601
        R"({"jsonrpc": "2.0", "id": 3})",   // -32600: no method
        R"({"jsonrpc": "1.0", "id": 4, "method": "ping"})",   // -32600: not 2.0
        R"({"jsonrpc": "2.0", "id": {"x": 1}, "method": "ping"})",   // -32600, id null
        "42",   // -32600, id null
        "[]",   // -32600: an empty batch
        request(5, "tools/call", {{"name", "nope"}, {"arguments", json::object()}}),   // -32602
        request(6, "tools/call", {{"name", "estimate"}, {"arguments", {1, 2}}}),   // -32602
        request(7, "tools/call", {{"arguments", json::object()}}),   // -32602: no name
        R"({"jsonrpc": "2.0", "id": 8, "method": "ping", "params": [1]})",   // -32602
        "\xff\xfe",   // not UTF-8: -32700
        request(9, "ping"),
    });
    REQUIRE(s.replies.size() == 14);
    auto code = [&](std::size_t i) { return s.replies[i]["error"]["code"].get<int>(); };
    CHECK(code(0) == -32700);
    CHECK(s.replies[0]["id"].is_null());
    CHECK(s.replies[1]["result"] == json::object());
    CHECK(code(2) == -32601);
    CHECK(s.replies[2]["id"] == 2);
    CHECK_THAT(s.replies[2]["error"]["message"].get<std::string>(), Catch::Contains("resources/list"));
    CHECK(code(3) == -32600);
    CHECK(s.replies[3]["id"] == 3);
    CHECK(code(4) == -32600);
    CHECK(code(5) == -32600);
    CHECK(s.replies[5]["id"].is_null());
    CHECK(code(6) == -32600);
    CHECK(code(7) == -32600);
    CHECK(code(8) == -32602);
    CHECK_THAT(s.replies[8]["error"]["message"].get<std::string>(), Catch::Contains("nope") && Catch::Contains("estimate"));
    CHECK(code(9) == -32602);
    CHECK(code(10) == -32602);
    CHECK(code(11) == -32602);
    CHECK(code(12) == -32700);
    CHECK(s.replies[13]["id"] == 9);
    CHECK(s.code == 0);
}

TEST_CASE("mcp: a batch is answered with an array, a line over 16 MiB is refused, not kept", "[mcp]") {
    const Session batch = serve(
        {"[" + request(1, "ping") + R"(, {"jsonrpc": "2.0", "method": "notifications/initialized"}, )" + request(2, "tools/list") + "]"});
    REQUIRE(batch.replies.size() == 1);
    REQUIRE(batch.replies[0].is_array());
    REQUIRE(batch.replies[0].size() == 2);
    CHECK(batch.replies[0][0]["id"] == 1);
    CHECK(batch.replies[0][1]["result"]["tools"].size() == 8);

    // 16 MiB (16 x 2^20 bytes) is the limit; one byte more is refused and the next line served.
    const std::string huge =
        R"({"jsonrpc": "2.0", "id": 1, "method": "ping", "params": {"pad": ")" + std::string(std::size_t(16) << 20, 'x') + "\"}}";
    const Session s = serve({huge, request(2, "ping")});
    REQUIRE(s.replies.size() == 2);
    CHECK(s.replies[0]["error"]["code"] == -32700);
    CHECK_THAT(s.replies[0]["error"]["message"].get<std::string>(), Catch::Contains("16 MiB"));
    CHECK(s.replies[1]["id"] == 2);
}

TEST_CASE("mcp: the option schemas list what the core's readers accept", "[mcp]") {
    // The reader's own list, from its message for an unknown field ("...; known: a, b, c").
    auto known_fields = [](auto&& read) {
        try {
            read(R"({"zzz": 1})");
        } catch (const Error& e) {
            const std::string m = e.message();
            const std::vector<std::string> v = split_names(m.substr(m.rfind(": ") + 2));
            return std::set<std::string>(v.begin(), v.end());
        }
        FAIL("an unknown field was accepted");
        return std::set<std::string>{};
    };
    auto properties = [](const json& schema) {
        std::set<std::string> out;
        for (auto it = schema["properties"].begin(); it != schema["properties"].end(); ++it) out.insert(it.key());
        return out;
    };
    const std::string config = R"({"model": "llama-3-8b"})";
    auto read_query = [&](const std::string& q) { (void)plan_request_from_json(config, q); };
    auto read_options = [&](const std::string& o) { (void)simulation_options_from_json(o); };
    auto read_constraints = [&](const std::string& c) { (void)recommend_query_from_json(config, c); };
    const json query = tool_schema("plan")["properties"]["query"];
    const json options = tool_schema("simulate")["properties"]["options"];
    const json constraints = tool_schema("recommend")["properties"]["constraints"];
    CHECK(properties(query) == known_fields(read_query));
    CHECK(properties(options) == known_fields(read_options));
    CHECK(properties(constraints) == known_fields(read_constraints));

    // Every value at a schema's edges is accepted: the minimum, the maximum, each enum value.
    auto accepts = [](const json& schema, auto&& read) {
        for (auto it = schema["properties"].begin(); it != schema["properties"].end(); ++it) {
            const json& p = it.value();
            std::vector<json> values;
            if (p.contains("enum")) values.insert(values.end(), p["enum"].begin(), p["enum"].end());
            if (p.contains("minimum")) values.push_back(p["minimum"]);
            if (p.contains("maximum")) values.push_back(p["maximum"]);
            if (p["type"] == "boolean") values = {true, false};
            if (p["type"] == "array")
                for (const json& v : p["items"]["enum"]) values.push_back(json::array({v}));
            // A trace of one request (JSON Lines, gpusizer/simulate.hpp parse_trace).
            if (it.key() == "trace") values.push_back(R"({"arrival_s": 0, "input_tokens": 100, "output_tokens": 10})");
            for (const json& v : values) {
                INFO(it.key() << " = " << v.dump());
                CHECK_NOTHROW(read(json{{it.key(), v}}.dump()));
            }
            CHECK_FALSE(values.empty());
        }
    };
    accepts(query, read_query);
    accepts(options, read_options);
    accepts(constraints, read_constraints);
}

TEST_CASE("mcp: gpusizer mcp takes --assets only", "[mcp][cli]") {
    const auto r = test::run_cli({"mcp", "--port", "80"}, false);
    CHECK(r.code == cli::kExitBadInput);
    CHECK_THAT(r.err, Catch::Contains("--port") && Catch::Contains("--assets"));
    CHECK_THAT(test::run_cli({"--help"}, false).out, Catch::Contains("gpusizer mcp"));
    // A catalog that cannot be read: exit 1 before serving, the reason on stderr.
    std::istringstream in(request(1, "ping") + "\n");
    std::ostringstream out, err;
    CHECK(cli::run_mcp(in, out, err, "gpusizer", "/nonexistent-assets-dir") == cli::kExitInternal);
    CHECK(out.str().empty());
    CHECK_THAT(err.str(), Catch::Contains("gpusizer mcp: error"));
}
