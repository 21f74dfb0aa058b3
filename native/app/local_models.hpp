// native/app/local_models.hpp: the desktop's file system side of model files. What a dropped or
// opened path is (classify_model_path), and the "Local models" list: the models the usual tools
// keep on this machine (scan_local_models), found without reading their weights.
//
// Where each tool keeps its models (sources in local_models.cpp, beside the code that reads them):
//   Hugging Face cache  $HF_HUB_CACHE, else $HF_HOME/hub, else ${XDG_CACHE_HOME:-~/.cache}/huggingface/hub;
//                       models--ORG--NAME/snapshots/REVISION/ holds the repo's files (links into blobs/)
//   Ollama              $OLLAMA_MODELS, else ~/.ollama/models (and the Linux service's
//                       /usr/share/ollama/.ollama/models); manifests/HOST/NAMESPACE/MODEL/TAG (JSON)
//                       name their weights' blob, blobs/sha256-HEX, a GGUF file
//   LM Studio           ~/.lmstudio/models/PUBLISHER/REPO/*.gguf, before 0.3: ~/.cache/lm-studio/models
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "platform.hpp"

namespace gpusizer::native {

using ui::LocalModel;
using ui::LocalModels;
using ui::PathKind;

// What a path names: a GGUF file (by its magic, so Ollama's blobs count; any part of a split
// file), a .safetensors file or a model folder (config.json + safetensors: `hf_dir`, the folder;
// a folder holding one GGUF model: that file), or anything else readable as text. A
// .safetensors file alone is `hf_dir` of its folder when the folder has config.json, else
// unusable (the architecture is in config.json). A leading "~/" is $HOME.
PathKind classify_model_path(const std::string& path);

// The folders to look in, by tool.
struct LocalModelRoots {
    std::vector<std::string> hf_hub;     // Hugging Face caches
    std::vector<std::string> ollama;     // Ollama model folders (manifests/ and blobs/ inside)
    std::vector<std::string> lmstudio;   // LM Studio model folders
};
// The usual places, from the environment (`env` returns "" for an unset variable) and the home
// folder.
LocalModelRoots default_local_model_roots(const std::function<std::string(const char*)>& env, const std::string& home);
// The same from this process's environment and $HOME.
LocalModelRoots default_local_model_roots();

// Bounds of one scan: a cache with millions of files or a slow network mount ends the scan
// early, with a note, instead of hanging the list.
struct ScanLimits {
    int max_depth = 6;                    // folders below a root (snapshot subfolders included)
    std::size_t max_entries = 200000;     // directory entries looked at, all roots together
    std::size_t max_models = 2000;
    double max_seconds = 20.0;
    std::uint64_t max_manifest_bytes = 1 << 20;   // an Ollama manifest is ~1 KB
    const std::atomic<bool>* cancel = nullptr;    // set: the scan ends at its next folder (the app is closing)
};

// Walks the roots. Never follows a symbolic link to a folder (files behind links are read: the
// Hugging Face cache links each snapshot file into blobs/), never enters a folder twice, skips
// folders it cannot read (with a note) and stops at the limits. Models come sorted by tool,
// then name.
LocalModels scan_local_models(const LocalModelRoots& roots, const ScanLimits& limits = {});

// Runs scan_local_models on its own thread; the UI polls snapshot() each frame.
class LocalModelScanner {
public:
    explicit LocalModelScanner(LocalModelRoots roots, ScanLimits limits = {}) : roots_(std::move(roots)), limits_(limits) {}
    ~LocalModelScanner();
    LocalModelScanner(const LocalModelScanner&) = delete;
    LocalModelScanner& operator=(const LocalModelScanner&) = delete;
    // Starts a scan unless one is running; with `rescan` also after one has finished.
    void start(bool rescan);
    LocalModels snapshot();

private:
    LocalModelRoots roots_;
    ScanLimits limits_;
    std::mutex mutex_;
    LocalModels result_;
    std::atomic<bool> cancel_{false};
    std::thread thread_;
};

}  // namespace gpusizer::native
