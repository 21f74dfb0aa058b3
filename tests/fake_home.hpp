// fake_home.hpp: a home folder as the desktop app's "Local models" scan finds one, written by the
// tests: a Hugging Face cache (snapshot files linked into blobs/, as huggingface_hub writes
// them), Ollama's manifests and blobs, LM Studio's PUBLISHER/REPO folders, plus the traps (an
// unreadable folder, a symbolic link loop, a manifest with a hostile digest, a broken link).
// The model files come from model_fixtures.hpp (real headers, zero weights).
#pragma once

#include <string>

namespace gpusizer::fixtures {

// What write_fake_home() wrote, for the checks.
struct FakeHome {
    std::string home;
    std::string hf_hub;            // <home>/.cache/huggingface/hub
    std::string hf_snapshot;       // the tiny Llama's snapshot folder (config.json + model.safetensors)
    std::string hf_gguf;           // a GGUF file in a GGUF repo's snapshot (a link into blobs/)
    std::string ollama_models;     // <home>/.ollama/models
    std::string ollama_blob;       // the blob tiny:latest names
    std::string lmstudio_gguf;     // <home>/.lmstudio/models/test-pub/Tiny-GGUF/tiny-Q4_K_M.gguf
    std::string split_first;       // LM Studio: the first of two split parts
    std::string big_gguf;          // LM Studio: a Llama-3-8B-shaped Q4_K_M GGUF, its data a hole (sparse file)
    double big_bytes = 0;          // its size
    std::string unreadable;        // a folder with mode 000 (root reads it anyway)
    double safetensors_bytes = 0;  // the snapshot's model.safetensors file size
    double gguf_bytes = 0;         // each tiny GGUF's file size
    double split_bytes = 0;        // both split parts together
};

// Writes the tree under `home` (which must exist and be empty).
FakeHome write_fake_home(const std::string& home);

}  // namespace gpusizer::fixtures
