// model_from_files.cpp: a configuration's `gguf` / `hf_dir` keys turned into its model, through
// the caller's SourceOpener (the core opens nothing itself).
//
// [SECTION] Small text files through a source
// [SECTION] GGUF
// [SECTION] A Hugging Face snapshot folder
// [SECTION] load_model_files
#include <cctype>
#include <cmath>
#include <string>
#include <vector>

#include "gpusizer/error.hpp"
#include "gpusizer/format.hpp"
#include "gpusizer/io.hpp"
#include "gpusizer/model_file.hpp"
#include "gpusizer/precision.hpp"

namespace gpusizer {

// ---------------------------------------------------------------------------------------------
// [SECTION] Small text files through a source
// ---------------------------------------------------------------------------------------------

std::string read_source_text(ByteSource& src, std::uint64_t cap) {
    std::string text;
    char buf[1 << 16];
    std::uint64_t at = 0;
    for (;;) {
        const std::size_t n = src.read(at, buf, sizeof buf);
        if (n == 0) break;
        at += n;
        if (at > cap) throw_error(src.name(), "is larger than " + std::to_string(cap >> 20) + " MiB");
        text.append(buf, n);
    }
    return text;
}

namespace {

// config.json of the largest catalogued models is ~10 KB; 16 MiB leaves room for any.
constexpr std::uint64_t kMaxConfigJsonBytes = 16ull << 20;

std::unique_ptr<ByteSource> open_or_throw(const SourceOpener& open, const std::string& path, const char* key) {
    std::unique_ptr<ByteSource> s = open(path);
    if (!s) throw_error(key, "cannot open '" + path + "'", ErrorCode::unreadable);
    return s;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] GGUF
// ---------------------------------------------------------------------------------------------

// general.file_type as llama.cpp names it ("Q4_K_M") -> the weight format id ("q4_k_m"), or ""
// when the calculator has no such format (e.g. "Q1_0").
std::string weights_id_of_file_type(const std::string& file_type) {
    if (file_type == "F32") return "fp32";
    if (file_type == "F16") return "fp16";
    std::string id;
    for (char ch : file_type) id += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    for (const WeightFormat& f : weight_formats())
        if (f.id == id) return id;
    return "";
}

// The file's text parameters beside the architecture's: a difference means the importer read the
// architecture in a way the tensors do not bear out (the weights' bytes are the file's either way).
void note_text_params(const ModelArch& a, std::vector<std::string>& warnings) {
    const double derived = count_params(a).total();
    const double counted = a.file.params_text;
    // 0.5%: a bias or norm the architecture leaves out, never a layer.
    if (counted > 0 && derived > 0 && std::fabs(counted / derived - 1) > 0.005)
        warnings.push_back("the files' tensors hold " + format_count(counted) + " text parameters by logical shape, the architecture " +
                           format_count(derived) + "; parameter counts follow the architecture, weight bytes the files");
}

void load_gguf(Config& c, const SourceOpener& open) {
    const GgufModel m = read_gguf_model(c.gguf, open);
    std::vector<std::string> warnings;
    ModelArch arch = arch_from_gguf(m, &warnings);
    if (!c.mmproj.empty()) {
        // The projector beside the model: its encoders are the vision / audio parts.
        const GgufModel p = read_gguf_model(c.mmproj, [&](const std::string& name) {
            std::unique_ptr<ByteSource> s = open(name);
            if (!s) throw_error("mmproj", "cannot open '" + name + "'", ErrorCode::unreadable);
            return s;
        });
        if (!p.projector)
            throw_error("mmproj", "'" + c.mmproj + "' is not a multimodal projector: its general.architecture is '" + p.arch.architecture +
                                      "', not 'clip'");
        add_projector(arch, p);
    }
    note_text_params(arch, warnings);
    if (c.weights.empty()) {
        const std::string id = weights_id_of_file_type(m.arch.file_type);
        if (!id.empty()) c.weights = id;
        else
            warnings.push_back("general.file_type " + (m.arch.file_type.empty() ? std::string("(absent)") : m.arch.file_type) +
                               " names no weight format here; the file's exact bytes are used, `weights` stays the default");
    }
    c.model.arch = std::move(arch);
    c.model.import_warnings = std::move(warnings);
}

// ---------------------------------------------------------------------------------------------
// [SECTION] A Hugging Face snapshot folder
// ---------------------------------------------------------------------------------------------

void load_hf_dir(Config& c, const SourceOpener& open) {
    std::string dir = c.hf_dir;
    while (dir.size() > 1 && (dir.back() == '/' || dir.back() == '\\')) dir.pop_back();
    const std::string prefix = dir + "/";
    auto config_src = open_or_throw(open, prefix + "config.json", "hf_dir");
    std::vector<std::string> warnings;
    ModelArch arch = arch_from_hf_config(read_source_text(*config_src, kMaxConfigJsonBytes), &warnings);
    // Shards through the index (transformers' save_pretrained writes it when it shards), else
    // the single model.safetensors.
    SafetensorsModel st;
    const SafetensorsQuant quant = safetensors_quant_of(arch);
    if (auto index_src = open(prefix + "model.safetensors.index.json")) {
        SafetensorsIndex idx = parse_safetensors_index(read_source_text(*index_src, kSafetensorsMaxIndexBytes), index_src->name());
        for (auto& f : idx.files) f = prefix + f;
        for (auto& tf : idx.weight_map) tf.second = prefix + tf.second;
        st = read_safetensors_model(idx, open, quant);
    } else if (auto one = open(prefix + "model.safetensors")) {
        st = safetensors_model_from_headers({read_safetensors_header(*one)}, quant);
    } else {
        throw_error("hf_dir", "'" + dir + "' holds neither model.safetensors.index.json nor model.safetensors", ErrorCode::unreadable);
    }
    arch.source = "safetensors";
    arch.file = file_weights(st.totals, arch.total_layers());
    std::size_t unknown = 0;
    for (const SafetensorsTensor& t : st.tensors) unknown += t.layout.find("(bits unknown)") != std::string::npos;
    if (unknown > 0)
        warnings.push_back(std::to_string(unknown) +
                           " packed tensors hold values of bits neither the tensors beside them nor "
                           "config.json's quantization_config state: their parameters are counted as stored");
    note_text_params(arch, warnings);
    if (arch.name.empty() || arch.name.rfind("custom", 0) == 0) {
        const std::size_t slash = dir.find_last_of("/\\");
        arch.name = slash == std::string::npos ? dir : dir.substr(slash + 1);
    }
    c.model.arch = std::move(arch);
    c.model.import_warnings = std::move(warnings);
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// [SECTION] load_model_files
// ---------------------------------------------------------------------------------------------

void load_model_files(Config& c, const SourceOpener& open) {
    if (!c.mmproj.empty() && c.gguf.empty())
        throw_error("mmproj", "is a GGUF model's projector file: it goes with `gguf` (the model's file)");
    if (c.gguf.empty() && c.hf_dir.empty()) return;
    if (!c.gguf.empty() && !c.hf_dir.empty()) throw_error("hf_dir", "give either gguf or hf_dir, not both");
    const char* key = c.gguf.empty() ? "hf_dir" : "gguf";
    if (!c.model.id.empty() || (c.model.custom && c.model.arch.source.empty()))
        throw_error(key, "names the model: leave `model` out (or null) when it is given");
    c.model.id.clear();
    c.model.custom = true;
    c.model.hf_config_json.clear();
    c.model.num_parameters = 0;
    if (!c.gguf.empty()) load_gguf(c, open);
    else load_hf_dir(c, open);
}

}  // namespace gpusizer
