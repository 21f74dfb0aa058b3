// test_gguf_model.cpp: GGUF headers (written by tests/model_fixtures.cpp) turned into the
// per-layer model by arch_from_gguf. The strongest check: the parameters count_params derives
// from the imported stack equal the element counts of the tensors in the file, exactly.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "gpusizer/error.hpp"
#include "gpusizer/model.hpp"
#include "gpusizer/model_file.hpp"
#include "model_fixtures.hpp"
#include "test_support.hpp"

using namespace gpusizer;
using namespace gpusizer::fixtures;

namespace {

GgufModel model_of(const GgufWriter& w, const std::string& name = "fixture.gguf") {
    return gguf_model_from_headers({test::read_header(read_gguf_header, w.bytes(), name)});
}

// The attention and FFN widths `a` reads are the ones its blocks were written with.
void check_block_shape(const ModelArch& a, const BlockShape& s) {
    CHECK(a.hidden == int(s.hidden));
    CHECK(a.n_heads == int(s.heads));
    CHECK(a.n_kv_heads == int(s.kv_heads));
    CHECK(a.head_dim == int(s.head_dim));
    CHECK(a.intermediate == int(s.ff));
}

std::string error_of(const GgufModel& m) {
    return test::thrown_message([&] { (void)arch_from_gguf(m, nullptr); });
}

}  // namespace

TEST_CASE("GGUF llama: dense GQA stack, untied head, params equal the file's elements", "[gguf][gguf_model]") {
    // hidden 64, 4 heads of 16 (hidden / heads: no key_length), 2 KV heads, FFN 128, 2 layers,
    // vocabulary 96 from the token list.
    GgufWriter w;
    w.kv_arch("llama", {{"block_count", 2}, {"context_length", 4096}, {"embedding_length", 64},
                        {"feed_forward_length", 128}, {"attention.head_count", 4}, {"attention.head_count_kv", 2}});
    w.kv_str("general.name", "Tiny Llama");
    w.kv_arr_str("tokenizer.ggml.tokens", std::vector<std::string>(96, "t"));
    const BlockShape s{64, 4, 2, 16, 128};
    for (int il = 0; il < 2; ++il) add_block(w, il, s);
    add_ends(w, 64, 96, false);
    const GgufModel m = model_of(w);
    std::vector<std::string> warnings;
    const ModelArch a = arch_from_gguf(m, &warnings);

    CHECK(a.source == "gguf");
    CHECK(a.model_type == "llama");
    CHECK(a.name == "Tiny Llama");
    CHECK(a.n_layers == 2);
    check_block_shape(a, s);   // hidden 64, 4 heads of 16, 2 KV heads, FFN 128
    CHECK(a.vocab == 96);
    CHECK(a.max_context == 4096);
    CHECK_FALSE(a.tied_embeddings);
    CHECK(a.norms_per_layer == 2);
    REQUIRE(a.kinds.size() == 1);
    CHECK(a.kinds[0].attn.kind == AttnKind::full);
    CHECK(a.kinds[0].mlp.kind == LayerMlpKind::dense);

    // Per layer: q 64x64 + k, v 64x32 each + o 64x64 = 12,288; FFN 3 x 64 x 128 = 24,576; two
    // norms 128 -> 36,992. Two layers 73,984 + embeddings 96 x 64 = 6,144 + head 6,144 + final
    // norm 64 = 86,336.
    const ParamCounts c = count_params(a);
    CHECK(c.total() == 86336.0);
    CHECK(c.total() == double(m.totals.elements));
    // File bytes (F16 2 B, F32 4 B, Q8_0 34 B per 32 elements): a block holds 36,864 F16
    // weights = 73,728 B and two F32 norms = 512 B -> 74,240 B; token_embd 6,144 x 2 = 12,288 B;
    // the head 6,144 / 32 x 34 = 6,528 B plus output_norm 256 B = 6,784 B. Total
    // 2 x 74,240 + 12,288 + 6,784 = 167,552 B.
    CHECK(a.file.total == 167552.0);
    CHECK(a.file.total == double(m.totals.bytes));
    REQUIRE(a.file.layer.size() == 2);
    CHECK(a.file.layer[0] == 74240.0);
    CHECK(a.file.layer[1] == 74240.0);
    CHECK(a.file.embeddings == 12288.0);
    CHECK(a.file.head == 6784.0);
    CHECK(a.file.vision == 0.0);
    CHECK(a.file.beyond_stack == 0.0);
}

TEST_CASE("GGUF gemma3: sliding pattern of 6 from llama.cpp, key_length, tied head, 4 norms", "[gguf][gguf_model]") {
    // 8 layers; llama.cpp's set_swa_pattern(6): layer il slides when il % 6 < 5, so only layer 5
    // is global. Head size 32 from key_length (4 heads x 32 = 128 != hidden 64, as Gemma 3).
    GgufWriter w;
    w.kv_arch("gemma3", {{"block_count", 8}, {"embedding_length", 64}, {"feed_forward_length", 96},
                         {"attention.head_count", 4}, {"attention.head_count_kv", 1}, {"attention.key_length", 32},
                         {"attention.value_length", 32}, {"attention.sliding_window", 512}});
    BlockShape s{64, 4, 1, 32, 96};
    s.qk_norm = true;
    s.gemma_norms = true;
    for (int il = 0; il < 8; ++il) add_block(w, il, s);
    add_ends(w, 64, 80, true);   // vocabulary from token_embd's rows: no token list
    const GgufModel m = model_of(w);
    const ModelArch a = arch_from_gguf(m, nullptr);

    CHECK(a.tied_embeddings);
    CHECK(a.vocab == 80);
    CHECK(a.qk_norm);
    CHECK(a.norms_per_layer == 4);
    CHECK(a.head_dim == 32);
    CHECK(a.n_kv_heads == 1);
    CHECK(a.sliding_window == 512);
    REQUIRE(a.layer_kind.size() == 8);
    for (int il = 0; il < 8; ++il) {
        INFO("layer " << il);
        CHECK(a.layer(il).attn.kind == (il == 5 ? AttnKind::full : AttnKind::sliding));
        if (il != 5) CHECK(a.layer(il).attn.window == 512);
    }
    CHECK(count_params(a).total() == double(m.totals.elements));

    SECTION("a per-layer pattern stored in the file wins over the default") {
        GgufWriter v = w;
        v.kv_arr_bool("gemma3.attention.sliding_window_pattern", {true, false, true, false, true, false, true, false});
        const ModelArch b = arch_from_gguf(model_of(v), nullptr);
        for (int il = 0; il < 8; ++il) CHECK(b.layer(il).attn.kind == (il % 2 ? AttnKind::full : AttnKind::sliding));
    }
}

TEST_CASE("GGUF qwen3moe: routed experts in every layer, qk norms, params equal elements", "[gguf][gguf_model]") {
    // 3 layers, 8 experts of width 32, 2 per token; 4 heads of 16 (key_length), 2 KV heads.
    const GgufModel m = model_of(tiny_qwen3moe_q8());   // feed_forward_length 192 is never used
    const ModelArch a = arch_from_gguf(m, nullptr);

    REQUIRE(a.kinds.size() == 1);
    const LayerSpec& l = a.layer(0);
    CHECK(l.mlp.kind == LayerMlpKind::moe);
    CHECK(l.mlp.n_experts == 8);
    CHECK(l.mlp.experts_per_token == 2);
    CHECK(l.mlp.expert_intermediate == 32);
    CHECK(l.mlp.n_shared == 0);
    CHECK(a.n_routed_experts == 8);
    CHECK(a.is_moe());
    // Per layer: attention 64x64 + 2 x 64x32 + 64x64 = 12,288; q/k norms 32; 2 norms 128;
    // router 64 x 8 = 512; experts 8 x 3 x 64 x 32 = 49,152 -> 62,112; 3 layers 186,336;
    // embeddings and head 2 x 64 x 64 = 8,192; final norm 64 -> 194,592.
    const ParamCounts c = count_params(a);
    CHECK(c.total() == 194592.0);
    CHECK(c.total() == double(m.totals.elements));
    // Active: 2 of 8 experts -> minus 6 x 3 x 64 x 32 = 36,864 per layer.
    CHECK(c.active(a) == 194592.0 - 3 * 36864.0);
}

TEST_CASE("GGUF: dense-first MoE reads which layers route from the tensors", "[gguf][gguf_model]") {
    GgufWriter w;
    w.kv_arch("qwen3moe", {{"block_count", 2}, {"embedding_length", 64}, {"feed_forward_length", 96},
                           {"attention.head_count", 4}, {"expert_count", 4}, {"expert_used_count", 1},
                           {"expert_feed_forward_length", 32}});
    add_block(w, 0, BlockShape{64, 4, 4, 16, 96});
    BlockShape moe{64, 4, 4, 16, 0};
    moe.experts = 4;
    moe.expert_ff = 32;
    add_block(w, 1, moe);
    add_ends(w, 64, 50, true);
    const GgufModel m = model_of(w);
    const ModelArch a = arch_from_gguf(m, nullptr);
    CHECK(a.layer(0).mlp.kind == LayerMlpKind::dense);
    CHECK(a.layer(0).mlp.intermediate == 96);
    CHECK(a.layer(1).mlp.kind == LayerMlpKind::moe);
    CHECK(count_params(a).total() == double(m.totals.elements));
}

TEST_CASE("GGUF: an unsupported or incomplete architecture is a clear Error", "[gguf][gguf_model]") {
    GgufWriter w;
    w.kv_str("general.architecture", "rwkv7");
    w.kv_u32("rwkv7.block_count", 2);
    const std::string e = error_of(model_of(w, "x.gguf"));
    CHECK(e.find("general.architecture") != std::string::npos);
    CHECK(e.find("rwkv7") != std::string::npos);
    CHECK(e.find("gemma3") != std::string::npos);   // the supported list

    GgufWriter n;
    n.kv_str("general.architecture", "llama");
    n.kv_u32("llama.block_count", 2);
    CHECK(error_of(model_of(n)).find("llama.embedding_length") != std::string::npos);

    GgufWriter none;
    CHECK(error_of(model_of(none)).find("general.architecture") != std::string::npos);
}

TEST_CASE("GGUF granitehybrid: Mamba-2 layers where head_count_kv is 0, params equal elements", "[gguf][gguf_model]") {
    // llama.cpp LLM_ARCH_GRANITE_HYBRID: a layer is recurrent when n_head_kv(il) == 0. Three
    // blocks: Mamba-2, attention, Mamba-2; a dense MLP of 128 in each; tied head.
    // SSM: d_inner 128, d_state 16, conv 4, 8 heads (time_step_rank) of 16, 1 group.
    GgufWriter w;
    w.kv_arch("granitehybrid", {{"block_count", 3}, {"embedding_length", 64}, {"feed_forward_length", 128},
                                {"attention.head_count", 4}});
    w.kv_arr_u32("granitehybrid.attention.head_count_kv", {0, 2, 0});
    w.kv_u32("granitehybrid.ssm.inner_size", 128);
    w.kv_u32("granitehybrid.ssm.state_size", 16);
    w.kv_u32("granitehybrid.ssm.conv_kernel", 4);
    w.kv_u32("granitehybrid.ssm.time_step_rank", 8);
    w.kv_u32("granitehybrid.ssm.group_count", 1);
    for (int il = 0; il < 3; ++il) {
        const std::string b = "blk." + std::to_string(il) + ".";
        w.tensor(b + "attn_norm.weight", {64}, "F32");
        if (il == 1) {
            w.tensor(b + "attn_q.weight", {64, 64}, "F16");
            w.tensor(b + "attn_k.weight", {64, 32}, "F16");
            w.tensor(b + "attn_v.weight", {64, 32}, "F16");
            w.tensor(b + "attn_output.weight", {64, 64}, "F16");
        } else {
            // llama.cpp's Mamba-2 tensors: ssm_in {n_embd, 2 d_inner + 2 n_group d_state + n_head},
            // conv1d over d_inner + 2 n_group d_state = 160 channels.
            w.tensor(b + "ssm_in.weight", {64, 296}, "F16");
            w.tensor(b + "ssm_conv1d.weight", {4, 160}, "F32");
            w.tensor(b + "ssm_conv1d.bias", {160}, "F32");
            w.tensor(b + "ssm_dt.bias", {8}, "F32");
            w.tensor(b + "ssm_a", {1, 8}, "F32");
            w.tensor(b + "ssm_d", {1, 8}, "F32");
            w.tensor(b + "ssm_norm.weight", {128, 1}, "F32");
            w.tensor(b + "ssm_out.weight", {128, 64}, "F16");
        }
        w.tensor(b + "ffn_norm.weight", {64}, "F32");
        w.tensor(b + "ffn_gate.weight", {64, 128}, "F16");
        w.tensor(b + "ffn_up.weight", {64, 128}, "F16");
        w.tensor(b + "ffn_down.weight", {128, 64}, "F16");
    }
    add_ends(w, 64, 32, true);
    const GgufModel m = model_of(w);
    const ModelArch a = arch_from_gguf(m, nullptr);
    REQUIRE(a.layer_kind.size() == 3);
    CHECK(a.layer(0).recurrent.kind == RecurrentKind::mamba2);
    CHECK(a.layer(0).attn.kind == AttnKind::none);
    CHECK(a.layer(1).recurrent.kind == RecurrentKind::none);
    CHECK(a.layer(1).attn.kind == AttnKind::full);
    CHECK(a.layer(1).attn.n_kv_heads == 2);
    CHECK(a.layer(2).recurrent.kind == RecurrentKind::mamba2);
    CHECK(a.layer(0).recurrent.n_heads == 8);
    CHECK(a.layer(0).recurrent.head_dim == 16);
    CHECK(a.layer(0).recurrent.state_bytes == 4);   // llama.cpp's F32 states
    // Mamba-2 block: ssm_in 64 x 296 = 18,944; ssm_out 8,192; conv 640 + bias 160; dt, A, D
    // 3 x 8; norm 128 -> 28,088; MLP 3 x 64 x 128 = 24,576; two norms 128 -> 52,792.
    // Attention block: 12,288 + 24,576 + 128 = 36,992. Blocks 2 x 52,792 + 36,992 = 142,576;
    // tied embeddings 32 x 64 = 2,048; final norm 64 -> 144,688.
    CHECK(count_params(a).total() == 144688.0);
    CHECK(count_params(a).total() == double(m.totals.elements));
}

namespace {
// The two tests' GLM-4.5-shaped blocks: one dense (0), then two with 4 experts of 32 (1, 2).
void add_glm4moe_blocks(GgufWriter& w) {
    add_block(w, 0, BlockShape{64, 4, 4, 16, 96});
    BlockShape moe{64, 4, 4, 16, 0};
    moe.experts = 4;
    moe.expert_ff = 32;
    add_block(w, 1, moe);
    add_block(w, 2, moe);
}
}  // namespace

TEST_CASE("GGUF glm4moe: NextN blocks are counted in block_count and kept apart", "[gguf][gguf_model]") {
    // block_count 3 with nextn_predict_layers 1: two stack layers (the first dense, by
    // leading_dense_block_count and the missing router) and one MTP block.
    auto glm = [](std::uint32_t nextn) {
        GgufWriter w;
        w.kv_arch("glm4moe", {{"block_count", 3}, {"nextn_predict_layers", nextn}, {"leading_dense_block_count", 1},
                              {"embedding_length", 64}, {"feed_forward_length", 96}, {"attention.head_count", 4},
                              {"expert_count", 4}, {"expert_used_count", 2}, {"expert_feed_forward_length", 32}});
        add_glm4moe_blocks(w);
        add_ends(w, 64, 40, false);
        return w;
    };
    const GgufModel m = model_of(glm(1));
    const ModelArch a = arch_from_gguf(m, nullptr);
    CHECK(a.n_layers == 2);
    CHECK(a.n_mtp_layers == 1);
    CHECK(a.layer(0).mlp.kind == LayerMlpKind::dense);
    CHECK(a.layer(1).mlp.kind == LayerMlpKind::moe);
    REQUIRE(a.file.layer.size() == 2);
    // Block 2 (the NextN block) equals block 1 in shape: its bytes go to beyond_stack.
    CHECK(a.file.beyond_stack == a.file.layer[1]);
    CHECK(a.file.layer[0] + a.file.layer[1] + a.file.beyond_stack + a.file.embeddings + a.file.head == a.file.total);

    CHECK(error_of(model_of(glm(3))).find("nextn_predict_layers") != std::string::npos);
}

TEST_CASE("GGUF NextN blocks: the MTP part is the file's own count, found by their tensors without the key", "[gguf][gguf_model][parts]") {
    // glm4moe, hidden 64, 4 heads of 16 (4 KV heads), 4 experts of 32: a MoE block holds
    // attention 4 x 64 x 64 = 16,384, router 64 x 4 = 256, experts 3 x 64 x 32 x 4 = 24,576 and
    // two norms 128: 41,344 parameters. Block 2 is the NextN block, with llama.cpp's nextn.*
    // tensors: eh_proj 128 x 64 = 8,192, enorm and hnorm 64 each: 41,344 + 8,320 = 49,664.
    auto glm = [](bool key) {
        GgufWriter w;
        w.kv_arch("glm4moe", {{"block_count", 3},
                              {"leading_dense_block_count", 1},
                              {"embedding_length", 64},
                              {"feed_forward_length", 96},
                              {"attention.head_count", 4},
                              {"expert_count", 4},
                              {"expert_used_count", 2},
                              {"expert_feed_forward_length", 32}});
        if (key) w.kv_u32("glm4moe.nextn_predict_layers", 1);
        add_glm4moe_blocks(w);
        w.tensor("blk.2.nextn.eh_proj.weight", {128, 64}, "F16");
        w.tensor("blk.2.nextn.enorm.weight", {64}, "F32");
        w.tensor("blk.2.nextn.hnorm.weight", {64}, "F32");
        add_ends(w, 64, 40, false);
        return w;
    };
    for (bool key : {true, false}) {
        INFO("nextn_predict_layers " << (key ? "given" : "absent"));
        const GgufModel m = model_of(glm(key));
        CHECK(m.stack_layers == 2);
        std::vector<std::string> warnings;
        const ModelArch a = arch_from_gguf(m, &warnings);
        CHECK(a.n_layers == 2);
        CHECK(a.n_mtp_layers == 1);
        CHECK(a.file.params_mtp == 41344 + 8320);
        // The report's MTP part is the file's count, not the formula's (which adds an embedding and
        // a head the GGUF does not store for it).
        CHECK(count_params(a).parts.mtp == 41344 + 8320);
        CHECK(a.file.params_text == count_params(a).total());
        CHECK((std::find_if(warnings.begin(), warnings.end(), [](const std::string& s) {
                   return s.find("NextN block(s) found by their blk.N.nextn.* tensors") != std::string::npos;
               }) != warnings.end()) == !key);
    }
}

TEST_CASE("GGUF mmproj: a projector file is described, refused as a model, and added to one as its vision / audio part",
          "[gguf][gguf_model][parts]") {
    const GgufModel p = model_of(tiny_mmproj(), "mmproj-tiny-f16.gguf");
    CHECK(p.projector);
    CHECK(p.arch.architecture == "clip");
    CHECK(p.projector_info.projector_type == "mlp");
    CHECK(p.projector_info.has_vision);
    CHECK(p.projector_info.has_audio);
    CHECK(p.projector_info.vision.block_count == 1);
    CHECK(p.projector_info.vision.embedding_length == 64);
    CHECK(p.projector_info.vision.patch_size == 14);
    CHECK(p.projector_info.audio.embedding_length == 32);
    // Parts by name: v.* and mm.* vision, a.* and mm.a.* audio, nothing text.
    CHECK(p.totals.of(TensorPart::vision).params == kMmprojVisionParams);
    CHECK(p.totals.of(TensorPart::audio).params == kMmprojAudioParams);
    CHECK(p.totals.of(TensorPart::text).tensors == 0);
    CHECK(p.totals.bytes == kMmprojBytes);
    CHECK_THAT(error_of(p), Catch::Contains("mmproj-tiny-f16.gguf: general.architecture") && Catch::Contains("mmproj"));

    // Added to a model: its bytes to the file's vision bytes (not on the text GPUs), its
    // parameters to the vision and audio parts.
    GgufWriter w;
    w.kv_arch("llama", {{"block_count", 2},
                        {"embedding_length", 64},
                        {"feed_forward_length", 128},
                        {"attention.head_count", 4},
                        {"attention.head_count_kv", 2}});
    for (int il = 0; il < 2; ++il) add_block(w, il, BlockShape{64, 4, 2, 16, 128});
    add_ends(w, 64, 96, false);
    ModelArch a = arch_from_gguf(model_of(w), nullptr);
    const double text_bytes = a.file.total;
    add_projector(a, p);
    CHECK(a.file.total == text_bytes + double(kMmprojBytes));
    CHECK(a.file.vision == double(kMmprojBytes));
    const ParamCounts c = count_params(a);
    CHECK(c.parts.vision == double(kMmprojVisionParams));
    CHECK(c.parts.audio == double(kMmprojAudioParams));
    CHECK(c.parts.text == 86336.0);   // the tiny Llama of the first test: unchanged
    // A model file given as the projector is refused, naming it.
    CHECK_THAT(test::thrown_message([&] { add_projector(a, model_of(w, "not-a-projector.gguf")); }),
               Catch::Contains("not-a-projector.gguf") && Catch::Contains("not 'clip'"));
}

TEST_CASE("mmproj files beside a model: found by llama.cpp's naming", "[gguf][parts]") {
    CHECK(is_gguf_projector_name("mmproj-F16.gguf"));
    CHECK(is_gguf_projector_name("Qwen2.5-VL-7B-Instruct-mmproj-bf16.GGUF"));
    CHECK_FALSE(is_gguf_projector_name("Qwen2.5-VL-7B-Instruct-Q4_K_M.gguf"));
    CHECK_FALSE(is_gguf_projector_name("mmproj-F16.bin"));
    std::vector<std::string> others;
    CHECK(find_gguf_projector({"m/model-Q4_K_M.gguf", "m/mmproj-F32.gguf", "m/mmproj-BF16.gguf", "m/README.md"}, &others) ==
          "m/mmproj-BF16.gguf");
    CHECK(others == std::vector<std::string>{"m/mmproj-F32.gguf"});
    CHECK(find_gguf_projector({"m/model-Q4_K_M.gguf"}, nullptr).empty());
}
