// native/app/local_models.cpp: see local_models.hpp.
//
// [SECTION] What a path is
// [SECTION] Where the tools keep their models
// [SECTION] The bounded walk
// [SECTION] Hugging Face cache, Ollama, LM Studio
// [SECTION] The scanner thread
#include "local_models.hpp"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>

#include <nlohmann/json.hpp>

#include "i18n.hpp"

namespace gpusizer::native {

namespace fs = std::filesystem;

// ---------------------------------------------------------------------------------------------
// [SECTION] What a path is
// ---------------------------------------------------------------------------------------------

namespace {

bool has_gguf_magic(const fs::path& p) {
    std::ifstream f(p, std::ios::binary);
    char b[4] = {};
    f.read(b, 4);
    return f.gcount() == 4 && std::equal(b, b + 4, "GGUF");
}

bool ends_with(const std::string& s, const std::string& tail) {
    return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

bool is_file(const fs::path& p) {
    std::error_code ec;
    return fs::is_regular_file(p, ec);   // follows links: the Hugging Face cache links files into blobs/
}

// A split GGUF's later parts ("-00002-of-00005.gguf"): the list shows the model once, by its
// first part (llama.cpp's split naming, examples/gguf-split; the core's gguf_split_part_names).
bool is_later_split_part(const std::string& name) {
    const std::size_t of = name.rfind("-of-");
    if (of == std::string::npos || of < 6 || !ends_with(name, ".gguf")) return false;
    const std::string part = name.substr(of - 5, 5);
    return name[of - 6] == '-' && std::all_of(part.begin(), part.end(), [](char c) { return c >= '0' && c <= '9'; }) && part != "00001";
}

// Multimodal projectors ship beside the model as mmproj-*.gguf (llama.cpp's mtmd tools): not a
// model by themselves.
bool is_projector(const std::string& name) { return name.find("mmproj") != std::string::npos; }

// The folder's model files: GGUF models (first parts) and whether it is a safetensors snapshot.
struct FolderModels {
    std::vector<fs::path> gguf;
    bool safetensors = false;
};

FolderModels folder_models(const fs::path& dir) {
    FolderModels m;
    std::error_code ec;
    bool config = false, weights = false;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (name == "config.json") config = is_file(it->path());
        else if (name == "model.safetensors.index.json" || name == "model.safetensors") weights = weights || is_file(it->path());
        else if (ends_with(name, ".gguf") && !is_later_split_part(name) && !is_projector(name) && is_file(it->path()))
            m.gguf.push_back(it->path());
    }
    std::sort(m.gguf.begin(), m.gguf.end());
    m.safetensors = config && weights;
    return m;
}

}  // namespace

PathKind classify_model_path(const std::string& typed) {
    // "~/..." as a shell reads it (a path typed into "Open file..."; drops and arguments come expanded).
    const char* home = std::getenv("HOME");
    const std::string path = typed.rfind("~/", 0) == 0 && home && *home ? std::string(home) + typed.substr(1) : typed;
    PathKind k;
    k.path = path;
    std::error_code ec;
    const fs::path p(path);
    const fs::file_status st = fs::status(p, ec);
    if (ec || !fs::exists(st)) {
        k.kind = PathKind::missing;
        k.error = path + ": no such file or folder";
        return k;
    }
    if (fs::is_directory(st)) {
        const FolderModels m = folder_models(p);
        // load_model_files reads a folder's config.json + safetensors (the `hf_dir` key).
        if (m.safetensors) {
            k.kind = PathKind::hf_dir;
            return k;
        }
        if (m.gguf.size() == 1) {
            k.kind = PathKind::gguf;
            k.path = m.gguf[0].string();
            return k;
        }
        k.kind = PathKind::unusable;
        k.error = path + (m.gguf.empty() ? ": the folder holds no config.json with model.safetensors (or an index), and no .gguf file"
                                         : ": the folder holds " + std::to_string(m.gguf.size()) + " GGUF models: open one of them");
        return k;
    }
    if (!fs::is_regular_file(st)) {
        k.kind = PathKind::unusable;
        k.error = path + ": not a file or folder";
        return k;
    }
    if (ends_with(path, ".gguf") || has_gguf_magic(p)) {
        k.kind = PathKind::gguf;
        return k;
    }
    if (ends_with(path, ".safetensors")) {
        const fs::path dir = p.parent_path().empty() ? fs::path(".") : p.parent_path();
        if (folder_models(dir).safetensors) {
            k.kind = PathKind::hf_dir;
            k.path = dir.string();
            return k;
        }
        k.kind = PathKind::unusable;
        k.error = ui::strf(ui::tr("%s: a .safetensors file needs its folder's config.json (the architecture) and model.safetensors or model.safetensors.index.json; `gpusizer inspect` lists the tensors of a lone file"), path.c_str());
        return k;
    }
    k.kind = PathKind::text;
    return k;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Where the tools keep their models
// ---------------------------------------------------------------------------------------------

LocalModelRoots default_local_model_roots(const std::function<std::string(const char*)>& env, const std::string& home) {
    LocalModelRoots r;
    const fs::path h(home);
    // Hugging Face: "HF_HUB_CACHE - direct path to the cache directory (takes priority); HF_HOME -
    // if set, the cache lives at $HF_HOME/hub"; default ~/.cache/huggingface/hub
    // (https://huggingface.co/docs/hub/local-cache). HF_HOME's own default is
    // $XDG_CACHE_HOME/huggingface (huggingface_hub/src/huggingface_hub/constants.py).
    if (const std::string v = env("HF_HUB_CACHE"); !v.empty()) r.hf_hub.push_back(v);
    else if (const std::string v2 = env("HF_HOME"); !v2.empty()) r.hf_hub.push_back((fs::path(v2) / "hub").string());
    else if (const std::string x = env("XDG_CACHE_HOME"); !x.empty()) r.hf_hub.push_back((fs::path(x) / "huggingface" / "hub").string());
    else if (!home.empty()) r.hf_hub.push_back((h / ".cache" / "huggingface" / "hub").string());
    // Ollama: OLLAMA_MODELS, else ~/.ollama/models (ollama/ollama server/modelpath.go modelsDir);
    // the Linux install script runs the service as user ollama with home /usr/share/ollama
    // (ollama/ollama scripts/install.sh).
    if (const std::string v = env("OLLAMA_MODELS"); !v.empty()) r.ollama.push_back(v);
    if (!home.empty()) r.ollama.push_back((h / ".ollama" / "models").string());
    r.ollama.push_back("/usr/share/ollama/.ollama/models");
    // LM Studio: ~/.lmstudio/models/publisher/model/model-file.gguf
    // (https://lmstudio.ai/docs/basics/import-model); before 0.3 $HOME/.cache/lm-studio/models
    // (https://github.com/lmstudio-ai/lms/issues/50).
    if (!home.empty()) {
        r.lmstudio.push_back((h / ".lmstudio" / "models").string());
        r.lmstudio.push_back((h / ".cache" / "lm-studio" / "models").string());
    }
    return r;
}

LocalModelRoots default_local_model_roots() {
    const char* home = std::getenv("HOME");
    return default_local_model_roots([](const char* name) { const char* v = std::getenv(name); return std::string(v ? v : ""); },
                                     home ? home : "");
}

// ---------------------------------------------------------------------------------------------
// [SECTION] The bounded walk
// ---------------------------------------------------------------------------------------------

namespace {

struct Walk {
    Walk(const ScanLimits& l, LocalModels& o)
        : limits(l), out(o), deadline(std::chrono::steady_clock::now() + std::chrono::milliseconds(long(l.max_seconds * 1000))) {}
    const ScanLimits& limits;
    LocalModels& out;
    std::chrono::steady_clock::time_point deadline;
    std::size_t entries = 0;
    std::set<std::string> visited;   // canonical folders entered
    bool stopped = false;

    void note(const std::string& n) {
        if (out.notes.size() < 50) out.notes.push_back(n);
    }
    bool over() {
        if (stopped) return true;
        if (limits.cancel && limits.cancel->load()) {
            note("cancelled");
            stopped = true;
        } else if (entries > limits.max_entries) {
            note(ui::strf(ui::tr("stopped after %d folder entries"), int(limits.max_entries)));
            stopped = true;
        } else if (std::chrono::steady_clock::now() > deadline) {
            note(ui::strf(ui::tr("stopped after %d s"), int(limits.max_seconds)));
            stopped = true;
        } else if (out.models.size() >= limits.max_models) {
            note(ui::strf(ui::tr("stopped at %d models"), int(limits.max_models)));
            stopped = true;
        }
        return stopped;
    }
    // The entries of a folder (sorted), or none with a note when it cannot be read. A folder
    // already entered (by another path) gives none: no loop, no double listing.
    bool list(const fs::path& dir, std::vector<fs::directory_entry>& entries_out) {
        entries_out.clear();
        if (over()) return false;
        std::error_code ec;
        const std::string canon = fs::canonical(dir, ec).string();
        if (ec || !visited.insert(canon).second) return false;
        fs::directory_iterator it(dir, ec);
        if (ec) {
            note(ui::strf(ui::tr("cannot read %s: %s"), dir.string().c_str(), ec.message().c_str()));
            return false;
        }
        for (fs::directory_iterator end; it != end; it.increment(ec)) {
            if (ec) {
                note(ui::strf(ui::tr("cannot read all of %s: %s"), dir.string().c_str(), ec.message().c_str()));
                break;
            }
            if (++entries > limits.max_entries) break;
            entries_out.push_back(*it);
        }
        std::sort(entries_out.begin(), entries_out.end(), [](const auto& a, const auto& b) { return a.path() < b.path(); });
        return true;
    }
    // A real folder (not a link to one): the walk never follows folder links.
    static bool real_dir(const fs::directory_entry& e) {
        std::error_code ec;
        return e.is_directory(ec) && !e.is_symlink(ec);
    }
    void add(LocalModel m) {
        if (out.models.size() < limits.max_models) out.models.push_back(std::move(m));
    }
};

double file_bytes(const fs::path& p) {
    std::error_code ec;
    const auto n = fs::file_size(p, ec);   // through links: the blob's size
    return ec ? 0.0 : double(n);
}

// Bytes of a GGUF model on disk: every split part beside the first, or the one file.
double gguf_bytes(const fs::path& first) {
    const std::string name = first.filename().string();
    const std::size_t of = name.rfind("-of-");
    if (of == std::string::npos || of < 6 || name.compare(of - 6, 6, "-00001") != 0) return file_bytes(first);
    const std::string stem = name.substr(0, of - 5), tail = name.substr(of);   // "m-", "-of-00003.gguf"
    const int count = std::atoi(tail.c_str() + 4);
    double total = 0;
    for (int i = 1; i <= count && i <= 9999; ++i) {
        char num[8];
        std::snprintf(num, sizeof num, "%05d", i);
        total += file_bytes(first.parent_path() / (stem + num + tail));
    }
    return total;
}

double safetensors_bytes(const fs::path& dir) {
    double total = 0;
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
        if (ends_with(it->path().filename().string(), ".safetensors")) total += file_bytes(it->path());
    return total;
}

// The models in a folder and (depth allowing) its subfolders: a safetensors snapshot is one
// model (its subfolders are not looked into), each GGUF model is one.
void walk_models(Walk& w, const fs::path& dir, int depth, const std::string& where, const std::string& prefix) {
    std::vector<fs::directory_entry> entries;
    if (depth > w.limits.max_depth || !w.list(dir, entries)) return;
    const FolderModels m = folder_models(dir);
    if (m.safetensors)
        w.add({prefix.empty() ? dir.filename().string() : prefix, "safetensors", where, dir.string(), safetensors_bytes(dir)});
    for (const fs::path& g : m.gguf)
        w.add({prefix + (prefix.empty() ? "" : "/") + g.filename().string(), "gguf", where, g.string(), gguf_bytes(g)});
    if (m.safetensors) return;
    for (const auto& e : entries)
        if (Walk::real_dir(e) && e.path().filename().string()[0] != '.')
            walk_models(w, e.path(), depth + 1, where, prefix + (prefix.empty() ? "" : "/") + e.path().filename().string());
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Hugging Face cache, Ollama, LM Studio
// ---------------------------------------------------------------------------------------------

// <cache>/models--ORG--NAME/snapshots/REVISION/<the repo's files>, each file a link to
// ../../blobs/<hash> (https://huggingface.co/docs/hub/local-cache). A repo with one snapshot
// is listed by its id, one with several by id@revision (the first 7 characters).
void scan_hf(Walk& w, const fs::path& root) {
    std::vector<fs::directory_entry> repos, snaps;
    if (!w.list(root, repos)) return;
    const std::vector<fs::directory_entry> repo_list = repos;
    for (const auto& repo : repo_list) {
        const std::string dir = repo.path().filename().string();
        if (!Walk::real_dir(repo) || dir.rfind("models--", 0) != 0) continue;   // datasets--, spaces--, .locks
        std::string id = dir.substr(8);
        for (std::size_t at; (at = id.find("--")) != std::string::npos;) id.replace(at, 2, "/");
        if (!w.list(repo.path() / "snapshots", snaps)) continue;
        const std::vector<fs::directory_entry> snap_list = snaps;
        for (const auto& snap : snap_list) {
            if (!Walk::real_dir(snap)) continue;
            const std::string rev = snap.path().filename().string();
            walk_models(w, snap.path(), 1, "Hugging Face cache", snap_list.size() > 1 ? id + "@" + rev.substr(0, 7) : id);
        }
    }
}

// A digest as Ollama accepts it: "sha256:" or "sha256-" and 64 hex digits (server/modelpath.go
// GetBlobsPath; anything else, e.g. "../", is refused there and here).
bool ollama_digest_ok(const std::string& d) {
    if (d.size() != 71 || d.compare(0, 6, "sha256") != 0 || (d[6] != ':' && d[6] != '-')) return false;
    return std::all_of(d.begin() + 7, d.end(), [](char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; });
}

// One manifest (manifests/HOST/NAMESPACE/MODEL/TAG): JSON whose "layers" list each blob by
// "mediaType", "digest" and "size"; the weights are the layer of media type
// application/vnd.ollama.image.model (ollama/ollama server/images.go, types/model). The blob is
// blobs/sha256-HEX (server/modelpath.go GetBlobsPath: ':' becomes '-').
void ollama_manifest(Walk& w, const fs::path& root, const fs::path& file, const std::vector<std::string>& parts) {
    std::error_code ec;
    const auto size = fs::file_size(file, ec);
    if (ec || size > w.limits.max_manifest_bytes) return;
    std::ifstream in(file, std::ios::binary);
    std::string text(size, '\0');
    if (!in.read(&text[0], std::streamsize(size))) return;
    const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
    if (j.is_discarded() || !j.is_object() || !j.contains("layers") || !j["layers"].is_array()) {
        w.note(ui::strf(ui::tr("not an Ollama manifest: %s"), file.string().c_str()));
        return;
    }
    for (const auto& layer : j["layers"]) {
        if (!layer.is_object() || layer.value("mediaType", std::string()) != "application/vnd.ollama.image.model") continue;
        std::string digest = layer.value("digest", std::string());
        if (!ollama_digest_ok(digest)) {
            w.note(file.string() + ": a model layer with a malformed digest");
            return;
        }
        digest[6] = '-';
        const fs::path blob = root / "blobs" / digest;
        if (!is_file(blob)) {
            w.note(file.string() + ": its model blob is missing");
            return;
        }
        // HOST/NAMESPACE/MODEL/TAG; the official library's models go by MODEL:TAG, as `ollama list` shows them.
        std::string name;
        if (parts.size() == 4 && parts[0] == "registry.ollama.ai" && parts[1] == "library") name = parts[2] + ":" + parts[3];
        else
            for (std::size_t i = 0; i < parts.size(); ++i) name += (i == 0 ? "" : i + 1 == parts.size() ? ":" : "/") + parts[i];
        w.add({name, "gguf", "Ollama", blob.string(), file_bytes(blob)});
        return;
    }
}

void scan_ollama_dir(Walk& w, const fs::path& root, const fs::path& dir, std::vector<std::string>& parts) {
    std::vector<fs::directory_entry> entries;
    if (parts.size() > 4 || !w.list(dir, entries)) return;
    for (const auto& e : entries) {
        parts.push_back(e.path().filename().string());
        if (Walk::real_dir(e)) scan_ollama_dir(w, root, e.path(), parts);
        else if (parts.size() == 4 && is_file(e.path())) ollama_manifest(w, root, e.path(), parts);
        parts.pop_back();
    }
}

void scan_ollama(Walk& w, const fs::path& root) {
    std::vector<std::string> parts;
    scan_ollama_dir(w, root, root / "manifests", parts);
}

// <models>/PUBLISHER/REPO/*.gguf (LM Studio finds models two levels below its folder,
// https://lmstudio.ai/docs/basics/import-model; MLX downloads are safetensors snapshots there too).
void scan_lmstudio(Walk& w, const fs::path& root) { walk_models(w, root, 0, "LM Studio", ""); }

}  // namespace

LocalModels scan_local_models(const LocalModelRoots& roots, const ScanLimits& limits) {
    LocalModels out;
    Walk w(limits, out);
    std::set<std::string> seen;   // a root named twice ($OLLAMA_MODELS = ~/.ollama/models) is one place
    auto each = [&](const std::vector<std::string>& list, const char* where, void (*scan)(Walk&, const fs::path&)) {
        for (const std::string& r : list) {
            std::error_code ec;
            if (r.empty() || !fs::is_directory(r, ec) || !seen.insert(fs::canonical(r, ec).string()).second) continue;
            out.places.push_back(std::string(where) + ": " + r);
            scan(w, fs::path(r));
        }
    };
    each(roots.hf_hub, "Hugging Face cache", scan_hf);
    each(roots.ollama, "Ollama", scan_ollama);
    each(roots.lmstudio, "LM Studio", scan_lmstudio);
    std::stable_sort(out.models.begin(), out.models.end(), [](const LocalModel& a, const LocalModel& b) {
        return a.where != b.where ? a.where < b.where : a.name < b.name;
    });
    out.scanned = true;
    return out;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] The scanner thread
// ---------------------------------------------------------------------------------------------

LocalModelScanner::~LocalModelScanner() {
    cancel_ = true;   // the scan ends at its next folder
    if (thread_.joinable()) thread_.join();
}

void LocalModelScanner::start(bool rescan) {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (result_.scanning || (result_.scanned && !rescan)) return;
        result_.scanning = true;
    }
    if (thread_.joinable()) thread_.join();
    thread_ = std::thread([this] {
        ScanLimits limits = limits_;
        limits.cancel = &cancel_;
        LocalModels found = scan_local_models(roots_, limits);
        std::lock_guard<std::mutex> lock(mutex_);
        result_ = std::move(found);
        result_.scanning = false;
    });
}

LocalModels LocalModelScanner::snapshot() {
    std::lock_guard<std::mutex> lock(mutex_);
    return result_;
}

}  // namespace gpusizer::native
