// test_local_models.cpp: the desktop's "Local models" scan and what an opened or dropped path is
// (native/app/local_models.cpp), against a home folder the test writes (fake_home.cpp).
#include <algorithm>
#include <cstdlib>
#include <atomic>
#include <chrono>
#include <thread>
#include <filesystem>
#include <map>
#include <unistd.h>

#include <catch2/catch.hpp>

#include "fake_home.hpp"
#include "gpusizer/gpusizer.hpp"
#include "inspect.hpp"
#include "local_models.hpp"
#include "model_fixtures.hpp"

using namespace gpusizer;
using namespace gpusizer::native;
namespace fs = std::filesystem;

namespace {

// The roots the environment gives for the fake home, without the system-wide Ollama folder.
LocalModelRoots fake_roots(const std::string& home) {
    LocalModelRoots r = default_local_model_roots([](const char*) { return std::string(); }, home);
    r.ollama.erase(std::remove_if(r.ollama.begin(), r.ollama.end(), [&](const std::string& p) { return p.rfind(home, 0) != 0; }),
                   r.ollama.end());
    return r;
}

// Opens the fake home's locked folder again when the test ends, so that TempDir can remove it.
struct Unlock {
    std::string dir;
    ~Unlock() {
        std::error_code ec;
        if (!dir.empty()) fs::permissions(dir, fs::perms::owner_all, ec);
    }
};

const LocalModel* find(const LocalModels& m, const std::string& name) {
    for (const LocalModel& x : m.models)
        if (x.name == name) return &x;
    return nullptr;
}

// `m` lists `name`, found in `where`, as a `format` file or folder at `path` of `bytes`.
void check_listed(const LocalModels& m, const std::string& name, const std::string& where, const std::string& format,
                  const std::string& path, double bytes) {
    INFO(name);
    const LocalModel* x = find(m, name);
    REQUIRE(x);
    CHECK(x->where == where);
    CHECK(x->format == format);
    CHECK(x->path == path);
    CHECK(x->bytes == bytes);
}

bool has_note(const LocalModels& m, const std::string& part) {
    return std::any_of(m.notes.begin(), m.notes.end(), [&](const std::string& n) { return n.find(part) != std::string::npos; });
}

}  // namespace

TEST_CASE("local models: the places each tool keeps them, from the environment", "[local_models]") {
    std::map<std::string, std::string> env;
    auto get = [&](const char* k) { const auto it = env.find(k); return it == env.end() ? std::string() : it->second; };
    // Nothing set: ~/.cache/huggingface/hub (https://huggingface.co/docs/hub/local-cache),
    // ~/.ollama/models (ollama server/modelpath.go), ~/.lmstudio/models and the older
    // ~/.cache/lm-studio/models.
    LocalModelRoots r = default_local_model_roots(get, "/h");
    CHECK(r.hf_hub == std::vector<std::string>{"/h/.cache/huggingface/hub"});
    CHECK(r.ollama == std::vector<std::string>{"/h/.ollama/models", "/usr/share/ollama/.ollama/models"});
    CHECK(r.lmstudio == std::vector<std::string>{"/h/.lmstudio/models", "/h/.cache/lm-studio/models"});
    // XDG_CACHE_HOME moves HF_HOME's default; HF_HOME wins over it; HF_HUB_CACHE wins over both.
    env["XDG_CACHE_HOME"] = "/x";
    CHECK(default_local_model_roots(get, "/h").hf_hub == std::vector<std::string>{"/x/huggingface/hub"});
    env["HF_HOME"] = "/hf";
    CHECK(default_local_model_roots(get, "/h").hf_hub == std::vector<std::string>{"/hf/hub"});
    env["HF_HUB_CACHE"] = "/cache";
    CHECK(default_local_model_roots(get, "/h").hf_hub == std::vector<std::string>{"/cache"});
    env["OLLAMA_MODELS"] = "/om";
    CHECK(default_local_model_roots(get, "/h").ollama.front() == "/om");
}

TEST_CASE("local models: a fake home's Hugging Face cache, Ollama and LM Studio folders", "[local_models]") {
    fixtures::TempDir tmp("local-models");
    const fixtures::FakeHome h = fixtures::write_fake_home(tmp.path().string());
    Unlock unlock{h.unreadable};
    const bool root = ::geteuid() == 0;   // root reads a folder of mode 000 anyway
    const LocalModels m = scan_local_models(fake_roots(h.home));
    CHECK(m.scanned);
    CHECK_FALSE(m.scanning);
    REQUIRE(m.places.size() == 3);   // the cache, ~/.ollama/models, ~/.lmstudio/models (the old LM Studio folder is absent)

    // Hugging Face: the safetensors snapshot by repo id (its size through the links: the blob's),
    // the GGUF repo's quant; not the projector, not the link whose blob is still downloading,
    // not the dataset repo.
    check_listed(m, "test-org/tiny-llama", "Hugging Face cache", "safetensors", h.hf_snapshot, h.safetensors_bytes);
    check_listed(m, "test-org/tiny-GGUF/tiny-Q4_K_M.gguf", "Hugging Face cache", "gguf", h.hf_gguf, h.gguf_bytes);
    CHECK_FALSE(find(m, "test-org/tiny-GGUF/mmproj-tiny-f16.gguf"));
    CHECK_FALSE(find(m, "test-org/tiny-GGUF/tiny-Q8_0.gguf"));
    CHECK(find(m, "test-org/two-revs@aaaaaaa/two-Q4_K_M.gguf"));
    CHECK(find(m, "test-org/two-revs@bbbbbbb/two-Q4_K_M.gguf"));

    // Ollama: the library's model as `ollama list` names it, another registry's with its path;
    // the blob is the GGUF. The manifest whose digest climbs out of blobs/ and the one that is
    // not JSON are notes, not models.
    check_listed(m, "tiny:latest", "Ollama", "gguf", h.ollama_blob, h.gguf_bytes);
    CHECK(find(m, "hf.co/test-org/tiny-GGUF:Q4_K_M"));
    CHECK_FALSE(find(m, "evil:latest"));
    CHECK(has_note(m, "malformed digest"));
    CHECK(has_note(m, "not an Ollama manifest"));

    // LM Studio: PUBLISHER/REPO/file; the split model once, by its first part, with both parts'
    // bytes. The links back up the tree (a loop) add nothing: each model is listed once.
    check_listed(m, "test-pub/Tiny-GGUF/tiny-Q4_K_M.gguf", "LM Studio", "gguf", h.lmstudio_gguf, h.gguf_bytes);
    const LocalModel* split = find(m, "test-pub/Big-GGUF/big-Q4_K_M-00001-of-00002.gguf");
    REQUIRE(split);
    CHECK(split->bytes == h.split_bytes);
    CHECK_FALSE(find(m, "test-pub/Big-GGUF/big-Q4_K_M-00002-of-00002.gguf"));
    for (const LocalModel& x : m.models)
        CHECK(std::count_if(m.models.begin(), m.models.end(), [&](const LocalModel& y) { return y.path == x.path && y.name == x.name; }) ==
              1);
    // The unreadable folder: a note naming it (a non-root user), or (root) its model.
    if (root) CHECK(find(m, "locked/repo/hidden.gguf"));
    else CHECK(has_note(m, h.unreadable));
    const LocalModel* big = find(m, "test-pub/Llama-8B-GGUF/llama-8b-Q4_K_M.gguf");
    REQUIRE(big);
    CHECK(big->bytes == h.big_bytes);
    CHECK_FALSE(find(m, "test-pub/Tiny-GGUF/self.gguf"));   // a link to itself is no file
    // 4 Hugging Face + 2 Ollama + 3 LM Studio (+ the locked one for root), sorted by tool then name.
    CHECK(m.models.size() == (root ? 10u : 9u));
    CHECK(m.models.front().name == "test-org/tiny-GGUF/tiny-Q4_K_M.gguf");
    CHECK(m.models.back().name == "tiny:latest");
}

TEST_CASE("local models: the scanner runs off the calling thread and can be cancelled", "[local_models]") {
    fixtures::TempDir tmp("local-models-thread");
    const fixtures::FakeHome h = fixtures::write_fake_home(tmp.path().string());
    Unlock unlock{h.unreadable};
    LocalModels direct = scan_local_models(fake_roots(h.home));
    {
        LocalModelScanner scanner(fake_roots(h.home));
        CHECK_FALSE(scanner.snapshot().scanned);
        scanner.start(false);
        LocalModels got;
        for (int i = 0; i < 2000; ++i) {   // at most 20 s, the scan's own time limit
            got = scanner.snapshot();
            if (got.scanned && !got.scanning) break;
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
        REQUIRE(got.scanned);
        CHECK(got.models.size() == direct.models.size());
        scanner.start(true);   // a rescan, left running: the destructor cancels and joins it
    }
    std::atomic<bool> cancel{true};
    ScanLimits limits;
    limits.cancel = &cancel;
    const LocalModels none = scan_local_models(fake_roots(h.home), limits);
    CHECK(none.models.empty());
    CHECK(has_note(none, "cancelled"));
}

TEST_CASE("local models: the scan stops at its limits, with a note", "[local_models]") {
    fixtures::TempDir tmp("local-models-limits");
    const fixtures::FakeHome h = fixtures::write_fake_home(tmp.path().string());
    Unlock unlock{h.unreadable};
    ScanLimits few;
    few.max_models = 1;
    LocalModels m = scan_local_models(fake_roots(h.home), few);
    CHECK(m.models.size() == 1);
    CHECK(has_note(m, "stopped at 1 models"));
    ScanLimits shallow;
    shallow.max_entries = 3;
    m = scan_local_models(fake_roots(h.home), shallow);
    CHECK(has_note(m, "stopped after 3 folder entries"));
    CHECK(m.models.empty());   // the cache's 3 repo folders use the budget before any snapshot is read
    // A missing root is no place and no error.
    LocalModelRoots none;
    none.hf_hub = {h.home + "/nowhere"};
    m = scan_local_models(none);
    CHECK(m.places.empty());
    CHECK(m.models.empty());
    CHECK(m.notes.empty());
}

TEST_CASE("an opened or dropped path: a GGUF file, a model folder, or a text file", "[local_models][open]") {
    fixtures::TempDir tmp("open-path");
    const fixtures::FakeHome h = fixtures::write_fake_home(tmp.path().string());
    Unlock unlock{h.unreadable};
    auto kind = [](const std::string& p) { return classify_model_path(p); };
    // GGUF by extension, and Ollama's blob (no extension) by its magic.
    CHECK(kind(h.lmstudio_gguf).kind == PathKind::gguf);
    CHECK(kind(h.ollama_blob).kind == PathKind::gguf);
    CHECK(kind(h.ollama_blob).path == h.ollama_blob);
    // A folder holding one GGUF model (the split one: its two parts are one model) is that file.
    CHECK(kind(fs::path(h.lmstudio_gguf).parent_path().string()).path == h.lmstudio_gguf);
    CHECK(kind(fs::path(h.split_first).parent_path().string()).path == h.split_first);
    // A snapshot folder, or any .safetensors file in it, is the folder (`hf_dir`).
    CHECK(kind(h.hf_snapshot).kind == PathKind::hf_dir);
    const PathKind st = kind(h.hf_snapshot + "/model.safetensors");
    CHECK(st.kind == PathKind::hf_dir);
    CHECK(st.path == h.hf_snapshot);
    // A .safetensors file without config.json beside it says what is missing.
    const std::string lone_dir = h.home + "/lone";
    fs::create_directories(lone_dir);
    fixtures::write_file(lone_dir + "/x.safetensors", fixtures::read_file(h.hf_snapshot + "/model.safetensors"));
    const PathKind lone = kind(lone_dir + "/x.safetensors");
    CHECK(lone.kind == PathKind::unusable);
    CHECK_THAT(lone.error, Catch::Contains("config.json"));
    // A folder with two GGUF models, one with none, a missing path, a configuration file.
    CHECK_THAT(kind(h.home + "/.lmstudio/models/test-pub").error, Catch::Contains("no config.json"));
    fixtures::write_file(h.home + "/lone/a.gguf", fixtures::read_file(h.lmstudio_gguf));
    fixtures::write_file(h.home + "/lone/b.gguf", fixtures::read_file(h.lmstudio_gguf));
    CHECK_THAT(kind(lone_dir).error, Catch::Contains("2 GGUF models"));
    CHECK(kind(h.home + "/nothing.gguf").kind == PathKind::missing);
    fixtures::write_text(h.home + "/config.json", R"({"model": "llama-3-8b"})");
    CHECK(kind(h.home + "/config.json").kind == PathKind::text);
    // "~/" typed into the path field is the home folder.
    const char* old_home = std::getenv("HOME");
    const std::string saved = old_home ? old_home : "";
    ::setenv("HOME", h.home.c_str(), 1);
    const PathKind tilde = kind("~/.lmstudio/models/test-pub/Tiny-GGUF/tiny-Q4_K_M.gguf");
    if (old_home) ::setenv("HOME", saved.c_str(), 1);
    else ::unsetenv("HOME");
    CHECK(tilde.kind == PathKind::gguf);
    CHECK(tilde.path == h.lmstudio_gguf);
}

TEST_CASE("local models: what the list finds opens as the configuration's model (headers through links)", "[local_models][open]") {
    fixtures::TempDir tmp("open-found");
    const fixtures::FakeHome h = fixtures::write_fake_home(tmp.path().string());
    Unlock unlock{h.unreadable};
    // The snapshot through its links into blobs/: the Llama of test_model_files.cpp, 173,312
    // bytes of tensor data (86,016 BF16 elements x 2 + 320 F32 norms x 4).
    Config c;
    c.hf_dir = h.hf_snapshot;
    load_model_files(c, cli::file_opener());
    CHECK(c.model.arch.source == "safetensors");
    CHECK(c.model.arch.file.total == 173312.0);
    // Ollama's blob: the fixture Llama GGUF, its file type Q4_K_M (general.file_type 15) the weights.
    Config g;
    g.gguf = h.ollama_blob;
    load_model_files(g, cli::file_opener());
    CHECK(g.model.arch.source == "gguf");
    CHECK(g.model.arch.n_layers == 2);
    CHECK(g.weights == "q4_k_m");
    // The sparse 8B: its header read, its hole never; the bytes are the tensors' (Q4_K 144 bytes
    // per 256 elements, Q6_K 210, F32 4; ggml-common.h), summed as test_ggml_bytes sums them.
    Config b;
    b.gguf = h.big_gguf;
    load_model_files(b, cli::file_opener());
    CHECK(b.model.arch.n_layers == 32);
    const double q4 = 144.0 / 256, q6 = 210.0 / 256;
    const double per_layer = 2 * 4096 * 4.0 + (4096.0 * 4096 * 2 + 4096.0 * 1024 + 4096.0 * 14336 * 2) * q4 +
                             (4096.0 * 1024 + 14336.0 * 4096) * q6;
    const double expected = 4096.0 * 128256 * q4 + 32 * per_layer + 4096 * 4.0 + 4096.0 * 128256 * q6;
    CHECK(b.model.arch.file.total == expected);
}
