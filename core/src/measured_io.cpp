// measured_io.cpp: the measured report (gpusizer-cuda-bench's report.json) as JSON, both ways,
// and the `measured` object of an estimate report. The format is documented in docs/config.md,
// "Measured report".
//
// [SECTION] Writing
// [SECTION] Reading: every error names the file and the field path
// [SECTION] The estimate report's `measured` object
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "gpusizer/error.hpp"
#include "gpusizer/measured.hpp"
#include "json_read.hpp"
#include "measured_json.hpp"

namespace gpusizer {

using nlohmann::json;
using detail::dump_text;
// Reports are written with their keys in a fixed order (schema_version first), for people.
using ojson = nlohmann::ordered_json;

namespace {

// ---------------------------------------------------------------------------------------------
// [SECTION] Writing
// ---------------------------------------------------------------------------------------------

// Unknown values (negative by convention) go out as null.
ojson known(double v) { return v < 0 ? ojson(nullptr) : ojson(v); }
ojson known_bytes(double v) { return v < 0 ? ojson(nullptr) : ojson(static_cast<long long>(std::llround(v))); }
ojson bytes_json(double v) { return ojson(static_cast<long long>(std::llround(v))); }
ojson text_or_null(const std::string& s) { return s.empty() ? ojson(nullptr) : ojson(s); }

ojson stats_json(const Stats& s) {
    return ojson{{"samples", s.samples}, {"median", s.median}, {"best", s.best}, {"worst", s.worst},
                {"mean", s.mean},       {"p05", s.p05},       {"p95", s.p95},   {"cv", s.cv}};
}

ojson telemetry_json(const Telemetry& t) {
    return ojson{{"sm_clock_mhz", known(t.sm_clock_mhz)}, {"memory_clock_mhz", known(t.memory_clock_mhz)},
                {"temperature_c", known(t.temperature_c)}, {"power_w", known(t.power_w)},
                {"power_limit_w", known(t.power_limit_w)}, {"throttle_reasons", t.throttle_reasons}};
}

ojson measurement_json(const Measurement& m) {
    ojson j;
    j["id"] = m.id;
    j["unit"] = m.unit;
    j["convention"] = m.convention;
    if (!m.precision.empty()) {
        j["precision"] = m.precision;
        j["m"] = m.m;
        j["n"] = m.n;
        j["k"] = m.k;
    }
    if (m.bytes > 0) j["bytes"] = bytes_json(m.bytes);
    if (!m.devices.empty()) j["devices"] = m.devices;
    j["warmup"] = m.warmup;
    j["stats"] = stats_json(m.stats);
    j["datasheet"] = m.datasheet > 0 ? ojson(m.datasheet) : ojson(nullptr);
    j["fraction_of_datasheet"] = m.datasheet > 0 ? ojson(m.fraction_of_datasheet) : ojson(nullptr);
    if (m.has_energy)
        j["energy"] = ojson{{"avg_power_w", m.energy.avg_power_w},
                           {"energy_j", m.energy.energy_j},
                           {"per_watt", m.energy.per_watt},
                           {"joules_per_token_equiv", m.energy.joules_per_token_equiv},
                           {"method", m.energy.method}};
    if (m.has_telemetry) j["telemetry"] = telemetry_json(m.telemetry);
    if (!m.error.empty()) j["error"] = m.error;
    return j;
}

ojson targets_json(const std::vector<TargetCheck>& targets) {
    ojson a = ojson::array();
    for (const auto& t : targets)
        a.push_back(ojson{{"name", t.name}, {"from", t.from}, {"target", t.target}, {"fraction", t.fraction}, {"met", t.met}});
    return a;
}

ojson measurements_json(const std::vector<Measurement>& list) {
    ojson a = ojson::array();
    for (const auto& m : list) a.push_back(measurement_json(m));
    return a;
}

ojson device_json(const MeasuredDevice& d) {
    ojson j;
    j["index"] = d.index;
    j["name"] = d.name;
    j["uuid"] = d.uuid;
    j["pci_bus_id"] = d.pci_bus_id;
    j["compute_capability"] = d.compute_capability;
    j["sm_count"] = d.sm_count;
    j["l2_bytes"] = bytes_json(d.l2_bytes);
    j["catalog_id"] = text_or_null(d.catalog_id);
    j["pcie"] = ojson{{"gen", d.pcie_gen > 0 ? ojson(d.pcie_gen) : ojson(nullptr)},
                     {"width", d.pcie_width > 0 ? ojson(d.pcie_width) : ojson(nullptr)}};
    j["clocks_max_mhz"] = ojson{{"sm", known(d.sm_clock_max_mhz)}, {"memory", known(d.memory_clock_max_mhz)}};
    j["power_limit_w"] = known(d.power_limit_w);
    const DeviceMemory& mem = d.memory;
    j["memory"] = ojson{{"total_bytes", bytes_json(mem.total_bytes)},
                       {"free_bytes", bytes_json(mem.free_bytes)},
                       {"cuda_context_bytes", known_bytes(mem.cuda_context_bytes)},
                       {"context_with_cublaslt_bytes", known_bytes(mem.context_with_cublaslt_bytes)},
                       {"context_method", text_or_null(mem.context_method)},
                       {"largest_block_bytes", bytes_json(mem.largest_block_bytes)}};
    j["measurements"] = measurements_json(d.measurements);
    j["targets"] = targets_json(d.targets);
    return j;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Reading
// ---------------------------------------------------------------------------------------------

// A JSON object being read, with the path its errors name ("report.json: devices[0].memory").
class Node {
public:
    Node(const json& j, std::string path) : j_(j), path_(std::move(path)) {
        if (!j_.is_object()) throw Error(path_, "must be a JSON object, got " + kind(j_));
    }
    const std::string& path() const { return path_; }

    [[noreturn]] void fail(const std::string& key, const std::string& msg) const { throw_error(sub(key), msg); }
    std::string sub(const std::string& key) const { return path_ + (path_.back() == ':' ? " " : ".") + key; }

    bool has(const char* k) const { return j_.contains(k) && !j_.at(k).is_null(); }
    const json& need(const char* k) const {
        if (!j_.contains(k)) fail(k, "is missing");
        return j_.at(k);
    }
    Node object(const char* k) const { return Node(need(k), sub(k)); }

    std::string text(const char* k) const {
        const json& v = need(k);
        if (!v.is_string()) fail(k, "must be a string, got " + dump_text(v));
        return v.get<std::string>();
    }
    std::string text_or(const char* k, const std::string& def) const {
        if (!has(k)) return def;
        return text(k);
    }
    double number(const char* k) const { return check_number(k, need(k)); }
    double number_or(const char* k, double def) const { return has(k) ? check_number(k, j_.at(k)) : def; }
    // Integers that must be whole numbers (exit codes, versions, counts).
    long long integer(const char* k) const {
        const double d = number(k);
        if (d != std::floor(d)) fail(k, "must be an integer, got " + dump_text(j_.at(k)));
        return (long long)d;
    }
    long long integer_or(const char* k, long long def) const { return has(k) ? integer(k) : def; }
    bool boolean(const char* k) const {
        const json& v = need(k);
        if (!v.is_boolean()) fail(k, "must be true or false, got " + dump_text(v));
        return v.get<bool>();
    }
    const json& array(const char* k) const {
        const json& v = need(k);
        if (!v.is_array()) fail(k, "must be an array, got " + kind(v));
        return v;
    }
    const json* array_or_null(const char* k) const {
        if (!has(k)) return nullptr;
        return &array(k);
    }
    std::vector<std::string> strings_or_empty(const char* k) const {
        std::vector<std::string> out;
        const json* a = array_or_null(k);
        if (!a) return out;
        for (std::size_t i = 0; i < a->size(); ++i) {
            if (!(*a)[i].is_string()) fail(std::string(k) + "[" + std::to_string(i) + "]", "must be a string, got " + dump_text((*a)[i]));
            out.push_back((*a)[i].get<std::string>());
        }
        return out;
    }

    static std::string kind(const json& v) {
        if (v.is_null()) return "null";
        if (v.is_object()) return "an object";
        if (v.is_array()) return "an array";
        if (v.is_string()) return "a string";
        if (v.is_boolean()) return "a boolean";
        return "a number";
    }

private:
    double check_number(const std::string& k, const json& v) const {
        if (!v.is_number()) fail(k, "must be a number, got " + dump_text(v));
        const double d = v.get<double>();
        if (!std::isfinite(d)) fail(k, "must be a finite number, got " + dump_text(v));
        return d;
    }
    const json& j_;
    std::string path_;
};

Stats stats_from(const Node& n) {
    Stats s;
    s.samples = int(n.integer("samples"));
    if (s.samples < 0) n.fail("samples", "must not be negative");
    s.median = n.number("median");
    s.best = n.number("best");
    s.worst = n.number_or("worst", s.median);
    s.mean = n.number_or("mean", s.median);
    s.p05 = n.number_or("p05", s.median);
    s.p95 = n.number_or("p95", s.median);
    s.cv = n.number_or("cv", 0.0);
    return s;
}

Telemetry telemetry_from(const Node& n) {
    Telemetry t;
    t.sm_clock_mhz = n.number_or("sm_clock_mhz", -1);
    t.memory_clock_mhz = n.number_or("memory_clock_mhz", -1);
    t.temperature_c = n.number_or("temperature_c", -1);
    t.power_w = n.number_or("power_w", -1);
    t.power_limit_w = n.number_or("power_limit_w", -1);
    t.throttle_reasons = n.strings_or_empty("throttle_reasons");
    return t;
}

Measurement measurement_from(const Node& n) {
    Measurement m;
    m.id = n.text("id");
    if (m.id.empty()) n.fail("id", "must not be empty");
    m.unit = n.text("unit");
    if (m.unit != "GB/s" && m.unit != "TFLOP/s" && m.unit != "TOP/s" && m.unit != "us")
        n.fail("unit", "must be GB/s, TFLOP/s, TOP/s or us, got '" + m.unit + "'");
    m.convention = n.text_or("convention", "");
    m.precision = n.text_or("precision", "");
    if (!m.precision.empty()) {
        m.m = n.integer("m");
        m.n = n.integer("n");
        m.k = n.integer("k");
    }
    m.bytes = n.number_or("bytes", 0);
    if (const json* a = n.array_or_null("devices"))
        for (std::size_t i = 0; i < a->size(); ++i) {
            if (!(*a)[i].is_number_integer())
                n.fail("devices[" + std::to_string(i) + "]", "must be a device index, got " + dump_text((*a)[i]));
            m.devices.push_back((*a)[i].get<int>());
        }
    m.warmup = int(n.integer_or("warmup", 0));
    m.error = n.text_or("error", "");
    if (n.has("stats")) m.stats = stats_from(n.object("stats"));
    else if (m.error.empty()) n.fail("stats", "is missing (a measurement without stats must carry an error)");
    m.datasheet = n.number_or("datasheet", 0);
    m.fraction_of_datasheet = n.number_or("fraction_of_datasheet", 0);
    if (n.has("energy")) {
        const Node e = n.object("energy");
        m.has_energy = true;
        m.energy.avg_power_w = e.number("avg_power_w");
        m.energy.energy_j = e.number("energy_j");
        m.energy.per_watt = e.number_or("per_watt", 0);
        m.energy.joules_per_token_equiv = e.number_or("joules_per_token_equiv", 0);
        m.energy.method = e.text_or("method", "");
    }
    if (n.has("telemetry")) {
        m.has_telemetry = true;
        m.telemetry = telemetry_from(n.object("telemetry"));
    }
    return m;
}

std::vector<Measurement> measurements_from(const Node& parent, const char* key) {
    std::vector<Measurement> out;
    const json* a = parent.array_or_null(key);
    if (!a) return out;
    for (std::size_t i = 0; i < a->size(); ++i)
        out.push_back(measurement_from(Node((*a)[i], parent.sub(std::string(key) + "[" + std::to_string(i) + "]"))));
    return out;
}

std::vector<TargetCheck> targets_from(const Node& parent) {
    std::vector<TargetCheck> out;
    const json* a = parent.array_or_null("targets");
    if (!a) return out;
    for (std::size_t i = 0; i < a->size(); ++i) {
        const Node n((*a)[i], parent.sub("targets[" + std::to_string(i) + "]"));
        TargetCheck t;
        t.name = n.text("name");
        t.from = n.text_or("from", "");
        t.target = n.number("target");
        t.fraction = n.number("fraction");
        t.met = n.boolean("met");
        out.push_back(t);
    }
    return out;
}

MeasuredDevice device_from(const Node& n) {
    MeasuredDevice d;
    d.index = int(n.integer("index"));
    if (d.index < 0) n.fail("index", "must not be negative");
    d.name = n.text("name");
    d.uuid = n.text_or("uuid", "");
    d.pci_bus_id = n.text_or("pci_bus_id", "");
    d.compute_capability = n.text_or("compute_capability", "");
    d.sm_count = int(n.integer_or("sm_count", 0));
    d.l2_bytes = n.number_or("l2_bytes", 0);
    d.catalog_id = n.text_or("catalog_id", "");
    if (n.has("pcie")) {
        const Node p = n.object("pcie");
        d.pcie_gen = int(p.integer_or("gen", 0));
        d.pcie_width = int(p.integer_or("width", 0));
    }
    if (n.has("clocks_max_mhz")) {
        const Node c = n.object("clocks_max_mhz");
        d.sm_clock_max_mhz = c.number_or("sm", -1);
        d.memory_clock_max_mhz = c.number_or("memory", -1);
    }
    d.power_limit_w = n.number_or("power_limit_w", -1);
    {
        const Node m = n.object("memory");
        d.memory.total_bytes = m.number("total_bytes");
        if (d.memory.total_bytes < 0) m.fail("total_bytes", "must not be negative");
        d.memory.free_bytes = m.number_or("free_bytes", 0);
        d.memory.cuda_context_bytes = m.number_or("cuda_context_bytes", -1);
        d.memory.context_with_cublaslt_bytes = m.number_or("context_with_cublaslt_bytes", -1);
        d.memory.context_method = m.text_or("context_method", "");
        d.memory.largest_block_bytes = m.number_or("largest_block_bytes", 0);
    }
    d.measurements = measurements_from(n, "measurements");
    d.targets = targets_from(n);
    return d;
}

json parse_report_json(std::string_view text, const std::string& file) { return detail::parse_json(text, file); }

}  // namespace

std::string measured_report_to_json(const MeasuredReport& r, int indent) {
    ojson j;
    j["schema_version"] = r.schema_version;
    j["tool"] = r.tool;
    j["tool_version"] = r.tool_version;
    j["created_utc"] = r.created_utc;
    j["mode"] = r.mode;
    j["status"] = std::string(to_string(r.status));
    j["status_detail"] = r.status_detail;
    j["exit_code"] = r.exit_code;
    j["cuda_runtime_version"] = r.cuda_runtime_version;
    j["cuda_driver_version"] = r.cuda_driver_version;
    j["nvidia_driver"] = text_or_null(r.nvidia_driver);
    j["nvml"] = r.nvml;
    j["nccl"] = r.nccl;
    j["devices"] = ojson::array();
    for (const auto& d : r.devices) j["devices"].push_back(device_json(d));
    j["links"] = measurements_json(r.links);
    j["collectives"] = measurements_json(r.collectives);
    j["targets"] = targets_json(r.targets);
    j["notes"] = r.notes;
    return dump_text(j, indent);
}

MeasuredReport measured_report_from_json(std::string_view text, const std::string& file) {
    const json root = parse_report_json(text, file);
    if (!root.is_object()) throw_error(file, "must be a JSON object (a gpusizer-cuda-bench report), got " + Node::kind(root));
    const Node n(root, file + ":");
    if (!root.contains("schema_version")) n.fail("schema_version", "is missing: not a gpusizer-cuda-bench report");
    const json& v = root["schema_version"];
    if (!v.is_number_integer())
        n.fail("schema_version", "must be an integer, got " + dump_text(v));
    if (v.get<long long>() != kMeasuredSchemaVersion)
        n.fail("schema_version", "is " + dump_text(v) + "; this build reads version " + std::to_string(kMeasuredSchemaVersion) +
                                     (v.get<long long>() > kMeasuredSchemaVersion ? " (a newer gpusizer reads it)" : ""));
    MeasuredReport r;
    r.schema_version = kMeasuredSchemaVersion;
    r.tool = n.text_or("tool", "gpusizer-cuda-bench");
    r.tool_version = n.text_or("tool_version", "");
    r.created_utc = n.text_or("created_utc", "");
    r.mode = n.text_or("mode", "");
    try {
        r.status = parse_bench_status(n.text("status"));
    } catch (const Error& e) {
        if (e.key() != "status") throw;
        n.fail("status", e.message());
    }
    r.status_detail = n.text_or("status_detail", "");
    r.exit_code = int(n.integer_or("exit_code", 0));
    r.cuda_runtime_version = int(n.integer_or("cuda_runtime_version", 0));
    r.cuda_driver_version = int(n.integer_or("cuda_driver_version", 0));
    r.nvidia_driver = n.text_or("nvidia_driver", "");
    r.nvml = n.text_or("nvml", "");
    r.nccl = n.text_or("nccl", "");
    const json& devices = n.array("devices");
    for (std::size_t i = 0; i < devices.size(); ++i)
        r.devices.push_back(device_from(Node(devices[i], n.sub("devices[" + std::to_string(i) + "]"))));
    r.links = measurements_from(n, "links");
    r.collectives = measurements_from(n, "collectives");
    r.targets = targets_from(n);
    r.notes = n.strings_or_empty("notes");
    return r;
}

MeasuredReport load_measured_report(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw_error("measured", "cannot read '" + path + "'", ErrorCode::unreadable);
    std::ostringstream ss;
    ss << in.rdbuf();
    return measured_report_from_json(ss.str(), path);
}

// ---------------------------------------------------------------------------------------------
// [SECTION] The estimate report's `measured` object
// ---------------------------------------------------------------------------------------------

json calibration_json(const Calibration& c) {
    json figures = json::array();
    for (const auto& f : c.figures)
        figures.push_back(json{{"key", f.key},
                               {"unit", f.unit},
                               {"datasheet", f.datasheet > 0 ? json(f.datasheet) : json(nullptr)},
                               {"measured", f.measured},
                               {"from", f.from}});
    return json{{"file", c.file},
                {"device", c.device_name},
                {"device_index", c.device_index},
                {"catalog_id", text_or_null(c.catalog_id)},
                {"gpu_id", c.gpu_id},
                {"created_utc", c.created_utc},
                {"tool_version", c.tool_version},
                {"mode", c.mode},
                {"figures", figures},
                {"datasheet_only", c.datasheet_only},
                {"notes", c.notes}};
}

}  // namespace gpusizer
