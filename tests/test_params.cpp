// test_params.cpp: parameter counts derived from the architecture.
//
// Exact figures are the [calc] column of docs/research/models.md (sums of the config's
// matrix shapes) or the authors' exact counts; published rounded figures are checked at 1%.
#include <catch2/catch.hpp>

#include <cmath>

#include "test_support.hpp"

using namespace gpusizer;
using gpusizer::test::catalog;
using gpusizer::test::mamba2_48x64;
using gpusizer::test::qwen3_next_deltanet;

namespace {

const ModelArch& arch(const char* id) { return catalog().model(id).arch; }

}  // namespace

TEST_CASE("Llama 3 8B: every component by hand", "[params]") {
    const ParamCounts c = count_params(arch("llama-3-8b"));
    // vocab 128256 x hidden 4096, untied head.
    CHECK(c.embedding == 128256.0 * 4096);
    CHECK(c.lm_head == 128256.0 * 4096);
    // q and o: 4096 x 4096 each; k and v: 4096 x (8 kv heads x 128) each.
    CHECK(c.dense_layer.attention() == 2.0 * 4096 * 4096 + 2.0 * 4096 * 1024);
    // SwiGLU: gate, up (4096 x 14336) and down (14336 x 4096).
    CHECK(c.dense_layer.mlp_up + c.dense_layer.mlp_down == 3.0 * 4096 * 14336);
    // Two RMSNorms per layer, one final.
    CHECK(c.dense_layer.small == 2.0 * 4096);
    CHECK(c.other == 4096);
    CHECK(c.n_dense == 32);
    CHECK(c.total() == 8030261248.0);   // 8.03 B, Meta's model card
}

TEST_CASE("exact derived counts of the reference table", "[params]") {
    struct Row { const char* id; double total; };
    const Row rows[] = {
        {"deepseek-r1", 671026419200.0},              // main model, MTP module excluded
        {"deepseek-r1-distill-qwen-1.5b", 1777088000.0},
        {"deepseek-r1-distill-qwen-7b", 7615616512.0},
        {"deepseek-r1-distill-qwen-14b", 14770033664.0},
        {"deepseek-r1-distill-qwen-32b", 32763876352.0},
        {"deepseek-r1-distill-llama-8b", 8030261248.0},
        {"deepseek-r1-distill-llama-70b", 70553706496.0},
        {"llama-3-70b", 70553706496.0},
        {"llama-2-70b", 68976648192.0},              // 80 x 855,654,400 + 2 x 32,000 x 8,192 + 8,192
        {"llama-3.1-405b", 405853388800.0},
        {"llama-3.2-1b", 1235814400.0},              // tied embeddings
        {"llama-3.2-3b", 3212749824.0},
        {"gpt-neox-20b", 20554567680.0},
        {"bloom-176b", 176247271424.0},              // the BLOOM model card's exact count
        {"mistral-7b", 7241732096.0},
        {"mixtral-8x7b", 46702792704.0},
        {"qwen2.5-7b", 7615616512.0},
        {"qwen2.5-72b", 72706203648.0},
        {"gemma-2-9b", 9241705984.0},
        {"gemma-2-27b", 27227128320.0},
        {"phi-3-mini-4k", 3821079552.0},
        {"gpt2", 124439808.0},                       // the 124M every GPT-2 tutorial prints
        {"opt-13b", 12853473280.0},
        {"falcon-40b", 41303293952.0},
        {"t5-small", 60506624.0},                    // sum(p.numel()) of t5-small
        {"bert-base-uncased", 109482240.0},          // BertModel with pooler
    };
    for (const Row& r : rows) {
        INFO(r.id);
        CHECK(count_params(arch(r.id)).total() == r.total);
    }
}

TEST_CASE("active parameters of mixture-of-experts models", "[params][moe]") {
    // Mixtral 8x7B: 2 of 8 experts per token. Mistral's announcement: 12.9B active.
    const ModelArch& mx = arch("mixtral-8x7b");
    CHECK(count_params(mx).active(mx) == 12879925248.0);
    CHECK(count_params(mx).active(mx) == Approx(12.9e9).epsilon(0.01));
    // DeepSeek-V3/R1: 8 routed of 256 plus 1 shared expert, 3 dense layers, 58 MoE layers.
    const ModelArch& ds = arch("deepseek-r1");
    const ParamCounts c = count_params(ds);
    CHECK(c.n_dense == 3);
    CHECK(c.n_moe == 58);
    // One expert: gate + up + down = 3 x 7168 x 2048.
    CHECK(c.moe_layer.expert_up + c.moe_layer.expert_down == 3.0 * 7168 * 2048);
    CHECK(c.active(ds) == 37552297472.0);
    // DeepSeek publishes "37B activated" (README) and 36.7B (README_WEIGHTS, including 0.9B
    // embedding and 0.9B head). The derivation counts embedding + head + every non-expert
    // weight + 9 experts per MoE layer, which is 1.5% above 37B; the published figures appear
    // to be rounded down or to leave out a part they do not name.
    CHECK(c.active(ds) == Approx(37e9).epsilon(0.015));
    CHECK(c.total() == Approx(671e9).epsilon(0.001));
}

TEST_CASE("every catalog model matches its published count", "[params][catalog]") {
    int unverified = 0;
    for (const CatalogModel& m : catalog().models) {
        const double total = params_as_published(m);
        INFO(m.arch.id << ": derived " << total << " (" << m.params_convention << ") published " << m.params_published << " "
                       << m.params_published_as);
        if (!m.params_published_as.empty()) {
            // The figure as its source prints it ("30.5B"): the derivation must round to it, i.e.
            // lie within half a unit of its last digit (30.45B..30.55B).
            CHECK(std::abs(total - m.params_published) <= published_rounding(m.params_published_as, "params_published_as"));
        } else {
            bool exact_count_published = true;
            for (const auto& u : m.unverified) exact_count_published = exact_count_published && u != "params_published";
            // Where no exact count is published (only the name, e.g. Falcon-40B's "40B"), the
            // name's figure is checked at 5%; models.json says why in the entry's note.
            if (!exact_count_published) ++unverified;
            CHECK(total == Approx(m.params_published).epsilon(exact_count_published ? 0.01 : 0.05));
        }
        if (m.active_params_published > 0) {
            const double active = active_params_as_published(m);
            INFO("active: derived " << active << " (" << m.active_params_convention << ") published " << m.active_params_published << " "
                                    << m.active_params_published_as);
            if (!m.active_params_published_as.empty())
                CHECK(std::abs(active - m.active_params_published) <=
                      published_rounding(m.active_params_published_as, "active_params_published_as"));
            else if (m.arch.id.rfind("deepseek", 0) != 0)
                CHECK(active == Approx(m.active_params_published).epsilon(0.01));
        }
    }
    CHECK(unverified <= 4);   // Falcon-40B and two others by name; GLM-4.6, whose config.json has no publisher copy
}

TEST_CASE("a published figure's rounding is half a unit of its last digit", "[params][catalog]") {
    double v = 0;
    CHECK(published_rounding("30.5B", "k", &v) == Approx(0.05e9));
    CHECK(v == Approx(30.5e9));
    CHECK(published_rounding("20.91B", "k", &v) == Approx(0.005e9));
    CHECK(v == Approx(20.91e9));
    CHECK(published_rounding("1T", "k", &v) == Approx(0.5e12));
    CHECK(published_rounding("268M", "k") == Approx(0.5e6));
    // "~": the source cuts or rounds by hand (Qwen3-30B-A3B's "3.3B activated" for 3.35B).
    CHECK(published_rounding("~3.3B", "k", &v) == Approx(0.1e9));
    CHECK(v == Approx(3.3e9));
    for (const char* bad : {"30.5", "B", "3.B", "1.2.3B", "-3B", "3 B", "", "~", "~~3B"})
        CHECK_THROWS_WITH(published_rounding(bad, "params_published_as"), Catch::Contains("params_published_as"));
}

TEST_CASE("published conventions leave out what their source does not count", "[params][catalog]") {
    // Mixtral 8x7B, untied: embedding and head 32,000 x 4,096 = 131,072,000 each.
    CatalogModel m = catalog().model("mixtral-8x7b");
    const double all = m.counts.active_all();
    CHECK(m.counts.active(m.arch) == all);   // Mistral's "12.9B active" counts both
    m.arch.active_convention = ActiveConvention::no_input_embedding;
    CHECK(active_params_as_published(m) == all - 131072000.0);
    m.arch.active_convention = ActiveConvention::no_embeddings;
    CHECK(active_params_as_published(m) == all - 2 * 131072000.0);
    // A dense model's active count is its total whatever the convention.
    CatalogModel dense = catalog().model("llama-3-8b");
    dense.arch.active_convention = ActiveConvention::no_embeddings;
    CHECK(dense.counts.active(dense.arch) == dense.counts.total());
    // gpt-oss: OpenAI counts 5.1B active for the 120B (its model card), the input embedding left out.
    const CatalogModel g = catalog().model("gpt-oss-120b");
    CHECK(g.arch.active_convention == ActiveConvention::no_input_embedding);
    CHECK(active_params_as_published(g) == Approx(5.13e9).epsilon(0.005));
    // DeepSeek-R1 with its MTP layer: the Hub's 685B (671B + 14B MTP module).
    CatalogModel d = catalog().model("deepseek-r1");
    d.params_convention = "text+mtp";
    CHECK(params_as_published(d) == d.counts.parts.text + d.counts.parts.mtp);
    CHECK(params_as_published(d) == Approx(685e9).epsilon(0.005));
}

TEST_CASE("the num_parameters override scales, the derivation stays pure", "[params]") {
    ModelArch a = arch("llama-3-8b");
    a.num_parameters_override = 16e9;
    const ParamCounts c = count_params(a);
    CHECK(c.total() == 8030261248.0);
    CHECK(override_scale(a, c) == Approx(16e9 / 8030261248.0));
}

TEST_CASE("architectures that cannot be counted are refused with the field named", "[params][errors]") {
    ModelArch a = arch("llama-3-8b");
    a.n_kv_heads = 5;   // does not divide 32 query heads
    CHECK_THROWS_WITH(count_params(a), Catch::Contains("num_key_value_heads"));
    a = arch("llama-3-8b");
    a.n_layers = 0;
    CHECK_THROWS_WITH(count_params(a), Catch::Contains("num_hidden_layers"));
    a = arch("mixtral-8x7b");
    a.experts_per_token = 9;
    CHECK_THROWS_WITH(count_params(a), Catch::Contains("num_experts_per_tok"));
}

TEST_CASE("imported models carry a stack of a few distinct layer kinds", "[params][layers]") {
    // DeepSeek-R1: first_k_dense_replace 3, then MoE in every layer up to 61; MLA everywhere.
    const ModelArch& a = arch("deepseek-r1");
    REQUIRE(a.layer_kind.size() == 61);
    CHECK(a.kinds.size() == 2);
    for (int i = 0; i < 61; ++i) {
        CHECK(a.layer(i).attn.kind == AttnKind::mla);
        CHECK(a.layer(i).is_moe() == (i >= 3));
    }
    CHECK(a.layer(3).mlp.n_experts == 256);
    CHECK(a.layer(3).mlp.n_shared == 1);
    // Gemma 2: even layers slide (window 4096), odd layers attend to everything.
    const ModelArch& g = arch("gemma-2-9b");
    CHECK(g.kinds.size() == 2);
    CHECK(g.layer(0).attn.kind == AttnKind::sliding);
    CHECK(g.layer(0).attn.window == 4096);
    CHECK(g.layer(1).attn.kind == AttnKind::full);
}

namespace {

// A stack of `n` copies of `l`, on Llama 3 8B's global fields (hidden 4096, vocab 128256).
ModelArch with_layers(const std::vector<LayerSpec>& layers) {
    ModelArch a = arch("llama-3-8b");
    a.n_layers = int(layers.size());
    set_stack(a, layers);
    return a;
}

// A layer with a recurrent mixer alone: no attention, no MLP, one RMSNorm.
LayerSpec recurrent_layer(const RecurrentSpec& mixer) {
    LayerSpec l;
    l.attn.kind = AttnKind::none;
    l.mlp.kind = LayerMlpKind::none;
    l.recurrent = mixer;
    l.norms = 1;
    return l;
}

}  // namespace

TEST_CASE("a Mamba-2 layer counts as transformers' MambaMixer2 lays it out", "[params][layers]") {
    // d_inner = 48 heads x 64 = 3072, one group, d_state 128, kernel 4, conv bias, no proj bias.
    const LayerSpec l = recurrent_layer(mamba2_48x64());
    const ParamCounts c = count_params(with_layers({l, l}));
    const LayerParams& p = c.per_kind[0];
    // conv_dim = 3072 + 2 x 1 x 128 = 3328; in_proj: 4096 -> 3072 + 3328 + 48; out_proj 3072 -> 4096.
    CHECK(p.mixer == 4096.0 * (3072 + 3328 + 48) + 3072.0 * 4096);
    // conv weight 3328 x 4 + bias 3328, dt_bias / A_log / D (3 x 48), gated norm 3072, one RMSNorm.
    CHECK(p.small == 3328.0 * 4 + 3328 + 3 * 48 + 3072 + 4096);
    CHECK(p.attention() == 0);
    CHECK(c.kind_layers[0] == 2);
    CHECK(c.layers() == 2 * p.total());
}

TEST_CASE("a Gated DeltaNet layer counts as transformers' Qwen3NextGatedDeltaNet", "[params][layers]") {
    // Qwen3-Next-80B-A3B's linear layers (Qwen/Qwen3-Next-80B-A3B-Instruct config.json): 16 key
    // heads and 32 value heads of 128, kernel 4; conv1d without bias.
    const LayerSpec l = recurrent_layer(qwen3_next_deltanet());
    const LayerParams p = count_params(with_layers({l})).per_kind[0];
    // in_proj_qkvz 4096 -> 2 x 2048 + 2 x 4096; in_proj_ba 4096 -> 64; out_proj 4096 -> 4096.
    CHECK(p.mixer == 4096.0 * 12288 + 4096.0 * 64 + 4096.0 * 4096);
    // conv1d over 2 x 2048 + 4096 = 8192 channels x 4, dt_bias and A_log (2 x 32), norm 128, RMSNorm.
    CHECK(p.small == 8192.0 * 4 + 2 * 32 + 128 + 4096);
}

TEST_CASE("a Mamba-1 layer counts as transformers' MambaMixer", "[params][layers]") {
    // Jamba's mixer shape: d_inner 8192 (expand 2), d_state 16, d_conv 4, dt_rank 256.
    RecurrentSpec mamba;
    mamba.kind = RecurrentKind::mamba;
    mamba.d_inner = 8192;
    mamba.d_state = 16;
    mamba.d_conv = 4;
    mamba.dt_rank = 256;
    const LayerSpec l = recurrent_layer(mamba);
    const LayerParams p = count_params(with_layers({l})).per_kind[0];
    // in_proj 4096 -> 2 x 8192, x_proj 8192 -> 256 + 32, dt_proj 256 -> 8192, out_proj 8192 -> 4096.
    CHECK(p.mixer == 4096.0 * 16384 + 8192.0 * 288 + 256.0 * 8192 + 8192.0 * 4096);
    // conv 8192 x 4 + bias, dt_proj bias 8192, A_log 8192 x 16, D 8192, RMSNorm 4096.
    CHECK(p.small == 8192.0 * 4 + 8192 + 8192 + 8192.0 * 16 + 8192 + 4096);
}

TEST_CASE("MoE kinds: shared experts, expert biases and the active count", "[params][layers]") {
    LayerSpec l;
    l.attn = arch("llama-3-8b").layer(0).attn;
    l.mlp.kind = LayerMlpKind::moe;
    l.mlp.n_experts = 32;
    l.mlp.experts_per_token = 4;
    l.mlp.expert_intermediate = 2880;
    l.mlp.expert_bias = true;        // gpt-oss: biases on gate_up (2 x 2880) and down (4096)
    l.mlp.router_bias = true;        // and on the router (32)
    const ParamCounts c = count_params(with_layers({l}));
    const LayerParams& p = c.per_kind[0];
    CHECK(p.expert_up + p.expert_down == 3.0 * 4096 * 2880 + 2 * 2880 + 4096);
    CHECK(p.router == 4096.0 * 32 + 32);
    CHECK(p.total() - p.active() == 28 * (p.expert_up + p.expert_down));   // 28 experts a token skips
    CHECK(c.n_moe == 1);
    CHECK(c.moe_layer.n_experts == 32);
}

TEST_CASE("parts beside the text model: MTP layers, towers, per-layer embeddings", "[params][layers]") {
    // DeepSeek-V3's checkpoint: 671B main model + 14B multi-token-prediction module (the
    // DeepSeek-V3 README, "685B"). One MTP layer: a MoE decoder layer, eh_proj (2 x 7168 -> 7168),
    // enorm, hnorm and the head's norm, and copies of the embedding and output head.
    ModelArch a = arch("deepseek-r1");
    a.n_mtp_layers = 1;
    const ParamCounts c = count_params(a);
    CHECK(c.parts.text == c.total());
    CHECK(c.parts.mtp == c.moe_layer.total() + 2.0 * 7168 * 7168 + 3.0 * 7168 + 2.0 * 129280 * 7168);
    CHECK(c.parts.mtp == Approx(14e9).epsilon(0.05));
    // A SigLIP-So400m tower as Gemma 3 loads it (hidden 1152, MLP 4304, 27 layers, patch 14 at
    // 384 px): per layer 4 x 1152^2 + 4 x 1152 (q, k, v, o with biases), 2 x 1152 x 4304 + 4304
    // + 1152 (fc1, fc2 with biases), two LayerNorms (4 x 1152); patch embedding 3 x 14^2 x 1152
    // + 1152; (384 / 14)^2 = 27^2 = 729 positions x 1152; post-LayerNorm 2 x 1152.
    TowerSpec t;
    t.part = "vision";
    t.n_layers = 27;
    t.hidden = 1152;
    t.intermediate = 4304;
    t.n_heads = 16;
    t.patch_size = 14;
    t.in_channels = 3;
    t.image_size = 384;
    ModelArch g = arch("llama-3-8b");
    g.towers.push_back(t);
    g.per_layer_embedding_params = 1e9;
    const ParamCounts gc = count_params(g);
    const double layer = 4.0 * 1152 * 1152 + 4 * 1152 + 2.0 * 1152 * 4304 + 4304 + 1152 + 4 * 1152;
    CHECK(gc.parts.vision == 27 * layer + 3.0 * 14 * 14 * 1152 + 1152 + 729.0 * 1152 + 2 * 1152);
    CHECK(gc.parts.vision == Approx(413e6).epsilon(0.01));   // Gemma 3's "417M" vision encoder, less its projector
    CHECK(gc.parts.embeddings == 1e9);
    CHECK(gc.total() == count_params(arch("llama-3-8b")).total());   // the text model's count is unchanged
}
