// fake_home.cpp: see fake_home.hpp.
#include "fake_home.hpp"

#include <filesystem>

#include "model_fixtures.hpp"

namespace gpusizer::fixtures {

namespace fs = std::filesystem;

namespace {

// A GGUF with Llama 3 8B's shapes (meta-llama/Meta-Llama-3-8B config.json: 32 layers, hidden
// 4096, MLP 14336, 32 heads, 8 KV heads, vocabulary 128256) in the types llama.cpp's Q4_K_M
// gives them (Q4_K, with Q6_K for attn_v, ffn_down and the output), written as a header and a
// hole: the file has its full size (~4.6 GiB) but no data blocks on disk.
double write_sparse_llama_8b(const std::string& path) {
    GgufWriter w;
    w.write_data = false;
    w.kv_str("general.architecture", "llama");
    w.kv_str("general.name", "Fixture Llama 8B");
    w.kv_u32("general.file_type", 15);  // MOSTLY_Q4_K_M
    w.kv_u32("llama.block_count", 32);
    w.kv_u32("llama.context_length", 8192);
    w.kv_u32("llama.embedding_length", 4096);
    w.kv_u32("llama.feed_forward_length", 14336);
    w.kv_u32("llama.attention.head_count", 32);
    w.kv_u32("llama.attention.head_count_kv", 8);
    w.kv_u32("llama.rope.dimension_count", 128);
    w.kv_u32("llama.vocab_size", 128256);
    w.kv_f32("llama.attention.layer_norm_rms_epsilon", 1e-5f);
    w.tensor("token_embd.weight", {4096, 128256}, "Q4_K");
    for (int l = 0; l < 32; ++l) {
        const std::string p = "blk." + std::to_string(l) + ".";
        w.tensor(p + "attn_norm.weight", {4096}, "F32");
        w.tensor(p + "attn_q.weight", {4096, 4096}, "Q4_K");
        w.tensor(p + "attn_k.weight", {4096, 1024}, "Q4_K");
        w.tensor(p + "attn_v.weight", {4096, 1024}, "Q6_K");
        w.tensor(p + "attn_output.weight", {4096, 4096}, "Q4_K");
        w.tensor(p + "ffn_norm.weight", {4096}, "F32");
        w.tensor(p + "ffn_gate.weight", {4096, 14336}, "Q4_K");
        w.tensor(p + "ffn_up.weight", {4096, 14336}, "Q4_K");
        w.tensor(p + "ffn_down.weight", {14336, 4096}, "Q6_K");
    }
    w.tensor("output_norm.weight", {4096}, "F32");
    w.tensor("output.weight", {4096, 128256}, "Q6_K");
    write_file(path, w.bytes());
    const auto& last = w.tensors().back();
    const std::uint64_t data_offset = (w.header_size() + w.alignment - 1) / w.alignment * w.alignment;
    const std::uint64_t size = data_offset + last.offset + last.bytes;
    fs::resize_file(path, size);   // zeros, as a hole
    return double(size);
}

// A 64-hex-digit sha256 look-alike (the scan checks the form, not the hash).
std::string hex64(char c) { return std::string(64, c); }

void link_to(const std::string& target, const std::string& link) {
    fs::create_directories(fs::path(link).parent_path());
    fs::create_symlink(target, link);
}

}  // namespace

FakeHome write_fake_home(const std::string& home) {
    FakeHome h;
    h.home = home;
    const Bytes gguf = llama_like_gguf(3).bytes();
    h.gguf_bytes = double(gguf.size());

    // Hugging Face cache (https://huggingface.co/docs/hub/local-cache): models--ORG--NAME/
    // {blobs/<hash>, refs/main, snapshots/<revision>/<file> -> ../../blobs/<hash>}.
    h.hf_hub = home + "/.cache/huggingface/hub";
    const std::string repo = h.hf_hub + "/models--test-org--tiny-llama";
    const std::string rev = "0123456789abcdef0123456789abcdef01234567";
    fs::create_directories(repo + "/blobs");
    fs::create_directories(repo + "/refs");
    write_text(repo + "/refs/main", rev);
    // The Llama of test_model_files.cpp ("hf_dir: config.json for the stack ..."), in one file.
    write_text(repo + "/blobs/" + hex64('c'),
               R"({"model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": 64,
        "intermediate_size": 128, "num_attention_heads": 4, "num_key_value_heads": 2, "num_hidden_layers": 2,
        "vocab_size": 96, "max_position_embeddings": 4096, "tie_word_embeddings": false, "torch_dtype": "bfloat16"})");
    SafetensorsWriter st;
    for (int il = 0; il < 2; ++il) {
        const std::string p = "model.layers." + std::to_string(il) + ".";
        st.tensor(p + "input_layernorm.weight", "F32", {64});
        st.tensor(p + "self_attn.q_proj.weight", "BF16", {64, 64});
        st.tensor(p + "self_attn.k_proj.weight", "BF16", {32, 64});
        st.tensor(p + "self_attn.v_proj.weight", "BF16", {32, 64});
        st.tensor(p + "self_attn.o_proj.weight", "BF16", {64, 64});
        st.tensor(p + "post_attention_layernorm.weight", "F32", {64});
        st.tensor(p + "mlp.gate_proj.weight", "BF16", {128, 64});
        st.tensor(p + "mlp.up_proj.weight", "BF16", {128, 64});
        st.tensor(p + "mlp.down_proj.weight", "BF16", {64, 128});
    }
    st.tensor("model.embed_tokens.weight", "BF16", {96, 64});
    st.tensor("model.norm.weight", "F32", {64});
    st.tensor("lm_head.weight", "BF16", {96, 64});
    const Bytes st_bytes = st.bytes();
    h.safetensors_bytes = double(st_bytes.size());
    write_file(repo + "/blobs/" + hex64('d'), st_bytes);
    h.hf_snapshot = repo + "/snapshots/" + rev;
    link_to("../../blobs/" + hex64('c'), h.hf_snapshot + "/config.json");
    link_to("../../blobs/" + hex64('d'), h.hf_snapshot + "/model.safetensors");
    // A GGUF repo: one quant and a projector (not a model by itself); a dataset repo (ignored).
    const std::string grepo = h.hf_hub + "/models--test-org--tiny-GGUF";
    fs::create_directories(grepo + "/blobs");
    write_file(grepo + "/blobs/" + hex64('e'), gguf);
    h.hf_gguf = grepo + "/snapshots/" + rev + "/tiny-Q4_K_M.gguf";
    link_to("../../blobs/" + hex64('e'), h.hf_gguf);
    link_to("../../blobs/" + hex64('e'), grepo + "/snapshots/" + rev + "/mmproj-tiny-f16.gguf");
    // A download in progress: the link's blob is not there yet.
    link_to("../../blobs/" + hex64('f'), grepo + "/snapshots/" + rev + "/tiny-Q8_0.gguf");
    // A repo cached at two revisions: each snapshot listed, by id@revision.
    const std::string trepo = h.hf_hub + "/models--test-org--two-revs";
    for (const char* r : {"aaaaaaa1111111111111111111111111111111111", "bbbbbbb2222222222222222222222222222222222"}) {
        fs::create_directories(trepo + "/snapshots/" + r);
        write_file(trepo + "/snapshots/" + r + "/two-Q4_K_M.gguf", gguf);
    }
    fs::create_directories(h.hf_hub + "/datasets--test-org--data/snapshots/" + rev);
    write_file(h.hf_hub + "/datasets--test-org--data/snapshots/" + rev + "/x.gguf", gguf);

    // Ollama (ollama/ollama server/modelpath.go): manifests/HOST/NAMESPACE/MODEL/TAG name the
    // weights' blob by digest; blobs/sha256-HEX.
    h.ollama_models = home + "/.ollama/models";
    h.ollama_blob = h.ollama_models + "/blobs/sha256-" + hex64('a');
    fs::create_directories(h.ollama_models + "/blobs");
    write_file(h.ollama_blob, gguf);
    write_text(h.ollama_models + "/blobs/sha256-" + hex64('b'), R"({"model_format":"gguf"})");
    const std::string manifest = R"({"schemaVersion":2,"mediaType":"application/vnd.docker.distribution.manifest.v2+json",
        "config":{"mediaType":"application/vnd.docker.container.image.v1+json","digest":"sha256:)" + hex64('b') + R"(","size":23},
        "layers":[{"mediaType":"application/vnd.ollama.image.model","digest":"sha256:)" + hex64('a') + R"(","size":)" +
                                 std::to_string(gguf.size()) + R"(},
                  {"mediaType":"application/vnd.ollama.image.template","digest":"sha256:)" + hex64('b') + R"(","size":23}]})";
    fs::create_directories(h.ollama_models + "/manifests/registry.ollama.ai/library/tiny");
    write_text(h.ollama_models + "/manifests/registry.ollama.ai/library/tiny/latest", manifest);
    fs::create_directories(h.ollama_models + "/manifests/hf.co/test-org/tiny-GGUF");
    write_text(h.ollama_models + "/manifests/hf.co/test-org/tiny-GGUF/Q4_K_M", manifest);
    // Hostile: a digest that climbs out of blobs/, and a manifest that is not JSON.
    fs::create_directories(h.ollama_models + "/manifests/registry.ollama.ai/library/evil");
    write_text(h.ollama_models + "/manifests/registry.ollama.ai/library/evil/latest",
               R"({"layers":[{"mediaType":"application/vnd.ollama.image.model","digest":"sha256:../../../../etc/passwd","size":1}]})");
    write_text(h.ollama_models + "/manifests/registry.ollama.ai/library/evil/broken", "{\"layers\": [");

    // LM Studio (https://lmstudio.ai/docs/basics/import-model): models/PUBLISHER/REPO/*.gguf.
    const std::string lms = home + "/.lmstudio/models";
    h.lmstudio_gguf = lms + "/test-pub/Tiny-GGUF/tiny-Q4_K_M.gguf";
    fs::create_directories(lms + "/test-pub/Tiny-GGUF");
    write_file(h.lmstudio_gguf, gguf);
    // A split model: listed once, by its first part, with both parts' bytes.
    fs::create_directories(lms + "/test-pub/Big-GGUF");
    h.split_first = lms + "/test-pub/Big-GGUF/big-Q4_K_M-00001-of-00002.gguf";
    write_file(h.split_first, gguf);
    write_file(lms + "/test-pub/Big-GGUF/big-Q4_K_M-00002-of-00002.gguf", gguf);
    h.split_bytes = 2.0 * double(gguf.size());
    fs::create_directories(lms + "/test-pub/Llama-8B-GGUF");
    h.big_gguf = lms + "/test-pub/Llama-8B-GGUF/llama-8b-Q4_K_M.gguf";
    h.big_bytes = write_sparse_llama_8b(h.big_gguf);
    // Loops: a link to its own folder's parent, one to the models folder itself, a file link to itself.
    link_to("self.gguf", lms + "/test-pub/Tiny-GGUF/self.gguf");
    link_to("..", lms + "/test-pub/Tiny-GGUF/up");
    link_to(lms, lms + "/test-pub/again");
    // An unreadable folder with a model inside.
    h.unreadable = lms + "/locked";
    fs::create_directories(h.unreadable + "/repo");
    write_file(h.unreadable + "/repo/hidden.gguf", gguf);
    fs::permissions(h.unreadable, fs::perms::none);
    return h;
}

}  // namespace gpusizer::fixtures
