// engine_log.cpp: startup logs of llama.cpp (and Ollama, which runs it), vLLM and SGLang.
//
// [SECTION] Small text helpers (no std::regex: its recursion grows with the line's length)
// [SECTION] llama.cpp and Ollama
// [SECTION] vLLM
// [SECTION] SGLang
// [SECTION] The reader
//
// Line formats come from the engines' sources as quoted in public issues (the test data in
// tests/data/logs/ names each one's source): llama.cpp src/llama-model.cpp print_info,
// src/llama-context.cpp, src/llama-kv-cache.cpp; vLLM vllm/v1/worker/gpu_model_runner.py,
// vllm/v1/core/kv_cache_utils.py (and V0 vllm/worker/worker.py); SGLang
// python/sglang/srt/model_executor/model_runner.py and mem_cache/memory_pool.py.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <optional>

#include "gpusizer/engine_log.hpp"

namespace gpusizer {

double EngineLog::buffer_bytes(std::string_view kind, std::string_view device) const {
    double sum = 0;
    for (const auto& b : buffers)
        if (b.kind == kind && (device.empty() || b.device == device)) sum += b.bytes;
    return sum;
}

std::vector<std::string> EngineLog::devices() const {
    std::vector<std::string> out;
    for (const auto& b : buffers)
        if (std::find(out.begin(), out.end(), b.device) == out.end()) out.push_back(b.device);
    return out;
}

namespace {

// ---------------------------------------------------------------------------------------------
// [SECTION] Small text helpers
// ---------------------------------------------------------------------------------------------

constexpr double kKiB = 1024.0;
constexpr double kMiB = 1024.0 * 1024.0;
constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
constexpr double kTiB = kGiB * 1024.0;

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

std::string_view trim(std::string_view s) {
    while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
    while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
    return s;
}

// Position just after `marker` in `s`, or npos.
std::size_t after(std::string_view s, std::string_view marker, std::size_t from = 0) {
    const std::size_t p = s.find(marker, from);
    return p == std::string_view::npos ? p : p + marker.size();
}

// A decimal number at s[i] (after spaces), digits grouped by commas allowed ("396,928").
// Advances i past it. No exponents: log lines print none where sizes are.
std::optional<double> number_at(std::string_view s, std::size_t& i) {
    while (i < s.size() && is_space(s[i])) ++i;
    double v = 0;
    std::size_t digits = 0;
    while (i < s.size() && (is_digit(s[i]) || (s[i] == ',' && digits > 0 && i + 1 < s.size() && is_digit(s[i + 1])))) {
        if (s[i] != ',') {
            v = v * 10 + (s[i] - '0');
            ++digits;
        }
        ++i;
        if (digits > 18) return std::nullopt;
    }
    if (i < s.size() && s[i] == '.' && digits > 0) {
        ++i;
        double scale = 0.1;
        std::size_t frac = 0;
        while (i < s.size() && is_digit(s[i]) && frac < 18) {
            v += (s[i] - '0') * scale;
            scale /= 10;
            ++i;
            ++frac;
        }
        while (i < s.size() && is_digit(s[i])) ++i;
    }
    if (digits == 0) return std::nullopt;
    return v;
}

std::optional<std::int64_t> integer_at(std::string_view s, std::size_t& i) {
    auto v = number_at(s, i);
    if (!v || *v > 9.0e15) return std::nullopt;
    return static_cast<std::int64_t>(*v);
}

// A size with its unit at s[i] ("1472.00 MiB", "8.23 GB", "0.11GiB"). `gb_means_gib`: the
// engine prints 2^30-byte units as "GB"; `saw_gb` is set when that reading was used.
std::optional<double> size_at(std::string_view s, std::size_t& i, bool gb_means_gib, bool* saw_gb = nullptr) {
    auto v = number_at(s, i);
    if (!v) return std::nullopt;
    while (i < s.size() && is_space(s[i])) ++i;
    std::size_t j = i;
    while (j < s.size() && std::isalpha(static_cast<unsigned char>(s[j])) && j - i < 4) ++j;
    const std::string_view unit = s.substr(i, j - i);
    double mul = 0;
    if (unit == "B") mul = 1;
    else if (unit == "KiB") mul = kKiB;
    else if (unit == "MiB") mul = kMiB;
    else if (unit == "GiB") mul = kGiB;
    else if (unit == "TiB") mul = kTiB;
    else if (unit == "KB" || unit == "kB") mul = gb_means_gib ? kKiB : 1e3;
    else if (unit == "MB") mul = gb_means_gib ? kMiB : 1e6;
    else if (unit == "GB") mul = gb_means_gib ? kGiB : 1e9;
    else return std::nullopt;
    if (gb_means_gib && unit.size() == 2 && saw_gb) *saw_gb = true;
    i = j;
    return *v * mul;
}

// The figure just after `marker` (searched from `from`), when the line has both.
std::optional<double> number_after(std::string_view s, std::string_view marker, std::size_t from = 0) {
    std::size_t i = after(s, marker, from);
    if (i == std::string_view::npos) return std::nullopt;
    return number_at(s, i);
}
std::optional<std::int64_t> integer_after(std::string_view s, std::string_view marker, std::size_t from = 0) {
    std::size_t i = after(s, marker, from);
    if (i == std::string_view::npos) return std::nullopt;
    return integer_at(s, i);
}
std::optional<double> size_after(std::string_view s, std::string_view marker, std::size_t from, bool gb_means_gib,
                                 bool* saw_gb = nullptr) {
    std::size_t i = after(s, marker, from);
    if (i == std::string_view::npos) return std::nullopt;
    return size_at(s, i, gb_means_gib, saw_gb);
}

// The word ending just before position `end` ("CUDA0" in "CUDA0 model buffer size").
std::string_view word_before(std::string_view s, std::size_t end) {
    while (end > 0 && is_space(s[end - 1])) --end;
    std::size_t b = end;
    while (b > 0 && !is_space(s[b - 1]) && s[b - 1] != ':') --b;
    return s.substr(b, end - b);
}

// "TP3" when the line comes from a tensor-parallel rank ("(Worker_TP3 pid=..)", "[... TP3]").
std::string rank_of(std::string_view line) {
    for (std::string_view m : {"Worker_TP", " TP"}) {
        std::size_t p = after(line, m);
        if (p == std::string_view::npos) continue;
        std::size_t q = p;
        while (q < line.size() && is_digit(line[q]) && q - p < 4) ++q;
        if (q > p && (q == line.size() || line[q] == ']' || line[q] == ' ' || line[q] == ')'))
            return "TP" + std::string(line.substr(p, q - p));
    }
    return {};
}

struct Reader {
    EngineLog& log;
    int line_no = 0;
    bool gb_note = false;

    void buffer(std::string kind, std::string device, double bytes) {
        if (!(bytes >= 0) || !std::isfinite(bytes)) return;
        log.buffers.push_back({std::move(kind), std::move(device), bytes, line_no});
    }
    void set_engine(const char* e) {
        if (log.engine.empty() || (log.engine == "llama.cpp" && std::string_view(e) == "ollama")) log.engine = e;
    }
    template <typename T>
    static void first(T& slot, T value) {
        if (slot == T{}) slot = value;
    }
    // A size the log gives for one of the device's buffers (when it gives one): the first such
    // size is the log's `slot`, and every one is listed under `kind`.
    void buffer_size(std::optional<double> bytes, double& slot, const char* kind, const std::string& device) {
        if (!bytes) return;
        first(slot, *bytes);
        buffer(kind, device, *bytes);
    }

    // -----------------------------------------------------------------------------------------
    // [SECTION] llama.cpp and Ollama
    // -----------------------------------------------------------------------------------------

    // "print_info: n_layer = 32" (also llm_load_print_meta:, llama_context:, llama_new_context_with_model:,
    // llama_init_from_model:).
    bool llama_key_value(std::string_view rest) {
        const std::size_t eq = rest.find('=');
        if (eq == std::string_view::npos) return false;
        const std::string_view key = trim(rest.substr(0, eq));
        const std::string_view value = trim(rest.substr(eq + 1));
        std::size_t i = 0;
        auto int_value = [&]() -> std::int64_t {
            std::size_t k = 0;
            auto v = integer_at(value, k);
            // Per-layer arrays ("[32, 32, ...]") and garbage: not a single number.
            return v && (k == value.size() || is_space(value[k])) ? *v : 0;
        };
        static const std::string_view kKnown[] = {"arch", "general.name", "model type", "model ftype", "file type",
                                                  "model params", "model size", "n_layer", "n_embd", "n_head", "n_head_kv",
                                                  "n_ctx_train", "n_expert", "n_expert_used", "n_ctx", "n_ctx_per_seq",
                                                  "n_ctx_seq", "n_seq_max", "n_batch", "n_ubatch"};
        if (std::find(std::begin(kKnown), std::end(kKnown), key) == std::end(kKnown)) return false;
        if (key == "arch") first(log.architecture, std::string(value));
        else if (key == "general.name") first(log.model_name, std::string(value));
        else if (key == "model type") first(log.model_type, std::string(value));
        else if (key == "model ftype" || key == "file type") first(log.file_type, std::string(value));
        else if (key == "model params") {
            auto v = number_at(value, i);
            if (v) {
                while (i < value.size() && is_space(value[i])) ++i;
                const char unit = i < value.size() ? value[i] : ' ';
                const double mul = unit == 'T' ? 1e12 : unit == 'B' ? 1e9 : unit == 'M' ? 1e6 : unit == 'K' ? 1e3 : 1;
                first(log.model_params, *v * mul);
            }
        } else if (key == "model size") {
            if (auto v = size_at(value, i, false)) first(log.model_file_bytes, *v);
        }
        else if (key == "n_layer") first(log.n_layer, int_value());
        else if (key == "n_embd") first(log.n_embd, int_value());
        else if (key == "n_head") first(log.n_head, int_value());
        else if (key == "n_head_kv") first(log.n_head_kv, int_value());
        else if (key == "n_ctx_train") first(log.n_ctx_train, int_value());
        else if (key == "n_expert") first(log.n_expert, int_value());
        else if (key == "n_expert_used") first(log.n_expert_used, int_value());
        else if (key == "n_ctx") first(log.n_ctx, int_value());
        else if (key == "n_ctx_per_seq" || key == "n_ctx_seq") first(log.n_ctx_per_seq, int_value());
        else if (key == "n_seq_max") first(log.n_seq_max, int_value());
        else if (key == "n_batch") first(log.n_batch, int_value());
        else if (key == "n_ubatch") first(log.n_ubatch, int_value());
        return true;
    }

    // "... CUDA0 model buffer size = 12633.25 MiB", "llm_load_tensors: CUDA0 buffer size = ...",
    // "CUDA0 KV buffer size", "CUDA0 compute buffer size", "CUDA_Host output buffer size",
    // "CUDA0 RS buffer size".
    bool llama_buffer(std::string_view line) {
        const std::size_t b = line.find(" buffer size =");
        if (b == std::string_view::npos) return false;
        std::size_t i = b + 14;
        auto bytes = size_at(line, i, false);
        if (!bytes) return false;
        std::string_view kind_word = word_before(line, b);
        std::string kind;
        std::string_view device;
        if (kind_word == "model") kind = "model";
        else if (kind_word == "KV") kind = "kv";
        else if (kind_word == "compute") kind = "compute";
        else if (kind_word == "output") kind = "output";
        else if (kind_word == "RS") kind = "recurrent";
        if (!kind.empty()) {
            device = word_before(line, line.rfind(kind_word, b));
        } else if (line.find("load_tensors:") != std::string_view::npos) {
            kind = "model";  // older llama.cpp: "llm_load_tensors: CUDA0 buffer size = ..."
            device = kind_word;
        } else {
            return false;
        }
        if (device.empty() || device.size() > 32) return false;
        buffer(kind, std::string(device), *bytes);
        return true;
    }

    // "KV self size  = 2560.00 MiB, K (f16): 1280.00 MiB, V (f16): 1280.00 MiB" (older) or
    // "llama_kv_cache: size =  256.00 MiB (  4096 cells,  32 layers,  1/1 seqs), K (f16):  128.00 MiB, V (f16):  128.00 MiB".
    bool llama_kv_size(std::string_view line) {
        std::size_t i = after(line, "KV self size");
        if (i == std::string_view::npos) {
            const std::size_t k = line.find("llama_kv_cache");
            if (k == std::string_view::npos) return false;
            i = after(line, ": size =", k);
            if (i == std::string_view::npos) return false;
        } else {
            i = after(line, "=", i);
            if (i == std::string_view::npos) return false;
        }
        auto total = size_at(line, i, false);
        if (!total) return false;
        log.kv_bytes += *total;
        if (std::size_t c = line.find('(', i); c != std::string_view::npos && line.find("cells", c) != std::string_view::npos) {
            std::size_t k = c + 1;
            if (auto cells = integer_at(line, k)) log.kv_cells = std::max(log.kv_cells, *cells);
        }
        auto part = [&](std::string_view tag, std::string& type, double& sum) {
            std::size_t p = line.find(tag, i);
            if (p == std::string_view::npos) return;
            std::size_t open = p + tag.size();
            std::size_t close = line.find(')', open);
            if (close == std::string_view::npos || close - open > 32) return;
            first(type, std::string(line.substr(open, close - open)));
            std::size_t k = close + 1;
            if (k < line.size() && line[k] == ':') ++k;
            if (auto v = size_at(line, k, false)) sum += *v;
        };
        part(" K (", log.kv_type_k, log.kv_k_bytes);
        part(" V (", log.kv_type_v, log.kv_v_bytes);
        return true;
    }

    void llama_line(std::string_view line) {
        for (std::string_view m : {"print_info:", "llm_load_print_meta:", "llama_context:", "llama_new_context_with_model:",
                                   "llama_init_from_model:"}) {
            std::size_t p = after(line, m);
            if (p != std::string_view::npos) {
                // The engine is named by lines that give a figure, not by a mention of a prefix.
                if (llama_buffer(line) || llama_kv_size(line) || llama_key_value(line.substr(p))) set_engine("llama.cpp");
                return;
            }
        }
        // "llama_kv_cache_init: kv_size = 16384, offload = 1, type_k = 'q4_0', type_v = 'f16', ..."
        for (auto [tag, slot] : {std::pair<std::string_view, std::string*>{"type_k = '", &log.kv_type_k}, {"type_v = '", &log.kv_type_v}}) {
            std::size_t p = after(line, tag);
            if (p == std::string_view::npos) continue;
            std::size_t q = line.find('\'', p);
            if (q != std::string_view::npos && q - p <= 16) first(*slot, std::string(line.substr(p, q - p)));
        }
        if (line.find("llama_kv_cache") != std::string_view::npos || line.find("load_tensors:") != std::string_view::npos ||
            line.find("llama_memory_recurrent") != std::string_view::npos || line.find("llama_model_loader") != std::string_view::npos) {
            if (llama_buffer(line) || llama_kv_size(line)) set_engine("llama.cpp");
        }
    }

    // -----------------------------------------------------------------------------------------
    // [SECTION] vLLM
    // -----------------------------------------------------------------------------------------

    // A server's sizes read as GiB where it wrote "GB" (`gb`): said once in the notes.
    void note_gb_as_gib(bool gb, const char* note) {
        if (!gb || gb_note) return;
        gb_note = true;
        log.notes.push_back(note);
    }

    // `device`: the tensor-parallel rank the line comes from ("TP3"), else "GPU".
    void vllm_line(std::string_view line, const std::string& device) {
        bool gb = false;
        std::size_t i;
        if ((i = after(line, "Starting to load model ")) != std::string_view::npos) {
            set_engine("vllm");
            std::string_view name = line.substr(i);
            while (!name.empty() && (name.back() == '.' || is_space(name.back()))) name.remove_suffix(1);
            if (name.size() <= 256) first(log.model_name, std::string(name));
        } else if ((i = after(line, "Model loading took ")) != std::string_view::npos ||
                   (i = after(line, "Loading model weights took ")) != std::string_view::npos) {
            set_engine("vllm");
            buffer_size(size_at(line, i, true, &gb), log.weights_bytes, "model", device);
        } else if ((i = after(line, "Available KV cache memory:")) != std::string_view::npos ||
                   (i = after(line, "the rest of the memory reserved for KV Cache is")) != std::string_view::npos) {
            set_engine("vllm");
            buffer_size(size_at(line, i, true, &gb), log.available_kv_bytes, "kv", device);
        } else if ((i = after(line, "GPU KV cache size:")) != std::string_view::npos) {
            set_engine("vllm");
            if (auto v = integer_at(line, i)) first(log.kv_cache_tokens, *v);
        } else if ((i = after(line, "# GPU blocks:")) != std::string_view::npos ||
                   (i = after(line, "# cuda blocks:")) != std::string_view::npos) {
            set_engine("vllm");
            if (auto v = integer_at(line, i)) first(log.kv_blocks, *v);
        } else if ((i = after(line, "Maximum concurrency for ")) != std::string_view::npos) {
            set_engine("vllm");
            auto tokens = integer_at(line, i);
            std::size_t c = line.find(':', i);
            if (tokens && c != std::string_view::npos) {
                std::size_t k = c + 1;
                if (auto x = number_at(line, k)) {
                    first(log.concurrency_tokens_per_request, *tokens);
                    first(log.max_concurrency, *x);
                }
            }
        } else if ((i = after(line, "Graph capturing finished")) != std::string_view::npos) {
            set_engine("vllm");
            buffer_size(size_after(line, "took ", i, true, &gb), log.graph_bytes, "graph", device);
        } else if ((i = after(line, "total_gpu_memory (")) != std::string_view::npos) {
            set_engine("vllm");
            if (auto v = size_at(line, i, true, &gb)) first(log.gpu_memory_bytes, *v);
            if (auto x = number_after(line, "gpu_memory_utilization (")) first(log.gpu_memory_utilization, *x);
        }
        if ((i = after(line, "model weights take ")) != std::string_view::npos) {
            set_engine("vllm");
            if (auto v = size_at(line, i, true, &gb)) first(log.weights_bytes, *v);
            if (auto v = size_after(line, "non_torch_memory takes ", 0, true, &gb)) first(log.non_torch_bytes, *v);
            if (auto v = size_after(line, "activation peak memory takes ", 0, true, &gb)) first(log.activation_peak_bytes, *v);
        }
        note_gb_as_gib(gb, "vLLM prints sizes divided by 2^30 as \"GB\" in older releases: read as GiB");
    }

    // -----------------------------------------------------------------------------------------
    // [SECTION] SGLang
    // -----------------------------------------------------------------------------------------

    void sglang_line(std::string_view line, const std::string& device) {
        bool gb = false;
        std::size_t i;
        if ((i = after(line, "KV Cache is allocated.")) != std::string_view::npos) {
            set_engine("sglang");
            std::size_t d = after(line, "dtype:", i);
            if (d != std::string_view::npos) {
                std::size_t e = line.find(',', d);
                const std::string dtype(trim(line.substr(d, e == std::string_view::npos ? std::string_view::npos : e - d)));
                if (dtype.size() <= 40) {
                    first(log.kv_type_k, dtype);
                    first(log.kv_type_v, dtype);
                }
            }
            if (auto v = integer_after(line, "#tokens:", i)) first(log.kv_cache_tokens, *v);
            double kv = 0;
            if (auto v = size_after(line, "K size:", i, true, &gb)) {
                if (log.kv_k_bytes == 0) log.kv_k_bytes = *v;
                kv += *v;
            }
            if (auto v = size_after(line, "V size:", i, true, &gb)) {
                if (log.kv_v_bytes == 0) log.kv_v_bytes = *v;
                kv += *v;
            }
            if (kv > 0) {
                if (log.kv_bytes == 0) log.kv_bytes = kv;
                buffer("kv", device, kv);
            }
        } else if ((i = after(line, "Memory pool end. avail mem=")) != std::string_view::npos) {
            set_engine("sglang");
            if (auto v = size_at(line, i, true, &gb)) first(log.avail_after_pool_bytes, *v);
        } else if ((i = after(line, "Load weight end.")) != std::string_view::npos) {
            set_engine("sglang");
            std::size_t t = after(line, "type=", i);
            if (t != std::string_view::npos) {
                std::size_t e = line.find(',', t);
                const std::string type(line.substr(t, e == std::string_view::npos ? std::string_view::npos : e - t));
                if (type.size() <= 128) first(log.architecture, type);
            }
            buffer_size(size_after(line, "mem usage=", i, true, &gb), log.weights_bytes, "model", device);
        } else if ((i = after(line, "Capture cuda graph end.")) != std::string_view::npos ||
                   (i = after(line, "Capture CUDA graph end.")) != std::string_view::npos) {
            set_engine("sglang");
            buffer_size(size_after(line, "mem usage=", i, true, &gb), log.graph_bytes, "graph", device);
        } else if ((i = after(line, "server_args=ServerArgs(")) != std::string_view::npos) {
            // The arguments the server runs with, the fraction resolved (server_args.py fills
            // mem_fraction_static in before printing them; "None" only in the constructor's repr).
            set_engine("sglang");
            // Python prints the float's shortest form (0.87): rounded to 1e-6, it reads as that
            // number's double, not the digit-by-digit sum's 0.8700000000000001.
            if (auto x = number_after(line, ", mem_fraction_static=", i); x && *x > 0 && *x <= 1)
                first(log.mem_fraction_static, std::round(*x * 1e6) / 1e6);
            // Degrees up to 65,536, the key table's bound on every parallel degree (config_keys.cpp kMaxDegree).
            constexpr double kMostRanks = 65536;
            if (auto x = number_after(line, ", tp_size=", i); x && *x >= 1 && *x <= kMostRanks) first(log.tp_size, int(*x));
            // Data-parallel attention: dp_size counts the attention groups inside tp_size.
            if (line.find(", enable_dp_attention=True", i) != std::string_view::npos)
                if (auto x = number_after(line, ", dp_size=", i); x && *x > 1 && *x <= kMostRanks) first(log.dp_attention, int(*x));
        } else if ((i = after(line, "max_total_num_tokens=")) != std::string_view::npos) {
            set_engine("sglang");
            if (auto v = integer_at(line, i)) first(log.kv_cache_tokens, *v);
            if (auto v = integer_after(line, "max_running_requests=")) first(log.max_running_requests, *v);
            if (auto v = integer_after(line, "context_len=")) first(log.n_ctx, *v);
        }
        note_gb_as_gib(gb, "SGLang prints sizes divided by 2^30 as \"GB\": read as GiB");
    }
};

}  // namespace

// ---------------------------------------------------------------------------------------------
// [SECTION] The reader
// ---------------------------------------------------------------------------------------------

EngineLog read_engine_log(std::string_view text) {
    EngineLog log;
    Reader r{log};
    bool ollama = false;
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string_view::npos) end = text.size();
        std::string_view line = text.substr(start, end - start);
        start = end + 1;
        ++r.line_no;
        if (line.size() > kEngineLogMaxLine || line.empty()) continue;
        if (!ollama && (line.find("ollama[") != std::string_view::npos || line.find("source=server.go") != std::string_view::npos ||
                        line.find("ollama_llama_server") != std::string_view::npos))
            ollama = true;
        std::string device = rank_of(line);
        if (device.empty()) device = "GPU";
        const std::size_t before = log.buffers.size();
        const std::string engine_before = log.engine;
        r.llama_line(line);
        if (log.buffers.size() == before && log.engine == engine_before) {
            r.vllm_line(line, device);
            if (log.buffers.size() == before) r.sglang_line(line, device);
        }
    }
    if (ollama && (log.engine.empty() || log.engine == "llama.cpp")) log.engine = "ollama";
    return log;
}

}  // namespace gpusizer
