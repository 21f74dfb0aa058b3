// test_gguf.cpp: the GGUF header reader on fixtures written by tests/model_fixtures.cpp.
#include <catch2/catch.hpp>

#include <map>

#include "gpusizer/error.hpp"
#include "gpusizer/model_file.hpp"
#include "model_fixtures.hpp"
#include "test_support.hpp"

using namespace gpusizer;
using namespace gpusizer::fixtures;

namespace {

GgufHeader read_bytes(const Bytes& b, const std::string& name = "fixture.gguf") {
    return test::read_header(read_gguf_header, b, name);
}

// The error a hostile file gets: a gpusizer::Error whose message names the file and the field.
std::string error_of(const Bytes& b, const std::string& name = "bad.gguf") {
    return test::header_error(read_gguf_header, b, name);
}

SourceOpener opener_over(const std::map<std::string, Bytes>& files) {
    return [&files](const std::string& name) -> std::unique_ptr<ByteSource> {
        auto it = files.find(name);
        if (it == files.end()) return nullptr;
        return std::make_unique<MemorySource>(name, it->second);
    };
}

}  // namespace

TEST_CASE("ggml type table: ids, block sizes and bytes per block from ggml-common.h", "[gguf]") {
    // Two derivations: the core's table (gguf-py GGML_QUANT_SIZES) and the fixture's (the
    // fields of each block_* struct). They must agree on every type.
    REQUIRE(ggml_types().size() == test_ggml_types().size());
    for (const auto& t : test_ggml_types()) {
        const GgmlTypeTraits* c = ggml_type_traits(t.id);
        INFO(t.name);
        REQUIRE(c != nullptr);
        CHECK(std::string(c->name) == t.name);
        CHECK(c->block_size == t.block);
        CHECK(c->type_size == t.block_bytes);
    }
    // Removed ids (Q4_2, Q4_3, repacked Q4_0_x_y, IQ4_NL_x_y) and ids past the table are unknown.
    for (std::uint32_t id : {4u, 5u, 31u, 32u, 33u, 36u, 37u, 38u, 43u, 1000u, 0xffffffffu}) CHECK(ggml_type_traits(id) == nullptr);
    // The newest: ggml.h's enum ends GGML_TYPE_Q2_0 = 42, GGML_TYPE_COUNT = 43 (llama.cpp 37b53fd4).
    CHECK(ggml_types().back().id == 42);
    // Bits per weight, the figure people quote: Q4_K 144 B / 256 = 4.5, Q6_K 210 / 256 = 6.5625,
    // IQ2_XXS 66 / 256 = 2.0625, MXFP4 17 / 32 = 4.25, TQ1_0 54 / 256 = 1.6875.
    auto bpw = [](std::uint32_t id) { const auto* t = ggml_type_traits(id); return 8.0 * t->type_size / t->block_size; };
    CHECK(bpw(12) == 4.5);
    CHECK(bpw(14) == 6.5625);
    CHECK(bpw(16) == 2.0625);
    CHECK(bpw(39) == 4.25);
    CHECK(bpw(34) == 1.6875);
}

TEST_CASE("ggml's newest types: Q1_0 and Q2_0 tensors, bytes by block", "[gguf]") {
    // Q1_0 (id 41): QK1_0 = 128 values in block_q1_0 { ggml_half d; uint8_t qs[QK1_0 / 8]; } = 18 B.
    // Q2_0 (id 42): QK2_0 = 64 values in block_q2_0 { ggml_half d; uint8_t qs[QK2_0 / 4]; } = 18 B.
    GgufWriter w;
    w.tensor("blk.0.ffn_up.weight", {4096, 14336}, "Q1_0");
    w.tensor("blk.0.ffn_down.weight", {14336, 4096}, "Q2_0");
    w.write_data = false;
    const Bytes b = w.bytes();
    MemorySource src = MemorySource::first_bytes("bonsai.gguf", std::string_view(reinterpret_cast<const char*>(b.data()), b.size()));
    const GgufHeader h = read_gguf_header(src);
    REQUIRE(h.tensors.size() == 2);
    CHECK(h.tensors[0].type_name == "Q1_0");
    CHECK(h.tensors[1].type_name == "Q2_0");
    // Q1_0: 14,336 rows x 4,096 / 128 blocks x 18 B = 8,257,536 B (1.125 bits a weight).
    CHECK(h.tensors[0].bytes == 8257536);
    // Q2_0: 4,096 rows x 14,336 / 64 blocks x 18 B = 16,515,072 B (2.25 bits a weight).
    CHECK(h.tensors[1].bytes == 16515072);
    CHECK(8.0 * h.tensors[1].bytes / h.tensors[1].elements == 2.25);
    // A row that is not whole blocks of 64 is refused, naming the type's block.
    GgufWriter r;
    r.tensor_raw("ragged", {96, 2}, 42, 0);
    CHECK_THAT(error_of(r.bytes()), Catch::Contains("ragged") && Catch::Contains("Q2_0") && Catch::Contains("64"));
    // llama.cpp's file type for it: LLAMA_FTYPE_MOSTLY_Q2_0 = 41 (include/llama.h).
    GgufWriter f;
    f.kv_u32("general.file_type", 41);
    CHECK(gguf_arch_info(read_bytes(f.bytes())).file_type == "Q2_0");
}

TEST_CASE("GGUF v3: metadata of every value type, per-layer arrays, tensors and classes", "[gguf]") {
    const GgufWriter w = llama_like_gguf(3);
    const GgufHeader h = read_bytes(w.bytes());
    CHECK(h.version == 3);
    CHECK(h.alignment == 32);
    CHECK(h.header_bytes == w.header_size());
    CHECK(h.data_offset == (w.header_size() + 31) / 32 * 32);
    REQUIRE(h.find("llama.rope.freq_base") != nullptr);
    CHECK(h.find("llama.rope.freq_base")->f == 500000.0);
    CHECK(h.find("llama.attention.layer_norm_rms_epsilon")->f == 1e-5);
    CHECK(h.find("llama.attention.value_length")->type == GgufType::i8);
    CHECK(h.find("tokenizer.ggml.add_bos_token")->u == 1);
    const GgufValue* tokens = h.find("tokenizer.ggml.tokens");
    REQUIRE(tokens->count == 4);
    CHECK(tokens->items[1].s == "</s>");
    CHECK(h.find("tokenizer.ggml.scores")->items[3].f == -2.0);
    const GgufValue* nested = h.find("fixture.nested");
    REQUIRE(nested->item_type == GgufType::array);
    REQUIRE(nested->items.size() == 2);
    CHECK(nested->items[1].items[0].s == "x1");
    CHECK(nested->items[1].items[1].s == "y1");

    const GgufArchInfo a = gguf_arch_info(h);
    CHECK(a.architecture == "llama");
    CHECK(a.name == "Tiny Llama Fixture");
    CHECK(a.file_type == "Q4_K_M");
    CHECK(a.block_count == 2);
    CHECK(a.context_length == 8192);
    CHECK(a.embedding_length == 256);
    CHECK(a.vocab_size == 4);  // no llama.vocab_size: the token list's length
    CHECK(a.feed_forward_length == std::vector<std::uint64_t>{512, 768});
    CHECK(a.head_count == std::vector<std::uint64_t>{4, 4});
    CHECK(a.head_count_kv == std::vector<std::uint64_t>{2});
    CHECK(a.key_length == 64);
    CHECK(a.value_length == 64);
    CHECK(a.sliding_window == 4096);
    CHECK(a.sliding_window_layers == std::vector<std::uint8_t>{1, 0});

    // 1 embedding + 2 x 9 per layer + output_norm + output = 21 tensors.
    REQUIRE(h.tensors.size() == 21);
    const GgufTensor& q = h.tensors[2];
    CHECK(q.name == "blk.0.attn_q.weight");
    CHECK(q.type_name == "Q4_K");
    CHECK(q.n_dims == 2);
    CHECK(q.dims[0] == 256);
    CHECK(q.dims[1] == 256);
    CHECK(q.layer == 0);
    CHECK(q.cls == WeightClass::attention);
    // 256 rows x (256 / 256 blocks) x 144 bytes = 36,864.
    CHECK(q.bytes == 36864);
    // Offsets as the writer laid them out (each aligned to 32).
    for (std::size_t k = 0; k < h.tensors.size(); ++k) CHECK(h.tensors[k].offset == w.tensors()[k].offset);

    const GgufModel m = gguf_model_from_headers({h});
    // Bytes by class, by hand (Q4_K: 144 B per 256, Q6_K: 210 B per 256, F32: 4 B):
    //   embeddings: 32 rows x 144 = 4,608
    //   attention per layer: q 256x144 + k 128x144 + v 128x210 + o 256x144 = 36864+18432+26880+36864 = 119,040; x2
    //   dense MLP: layer 0 (ff 512): gate, up 512x144 each + down 256 rows x 2 blocks x 210 = 73728*2 + 107520 = 254,976
    //              layer 1 (ff 768): 768x144 x2 + 256 x 3 x 210 = 221184 + 161280 = 382,464
    //   norms: 5 x 256 x 4 = 5,120;  output: 32 x 210 = 6,720
    CHECK(m.totals.of(WeightClass::embeddings).bytes == 4608);
    CHECK(m.totals.of(WeightClass::attention).bytes == 2 * 119040);
    CHECK(m.totals.of(WeightClass::dense_mlp).bytes == 254976 + 382464);
    CHECK(m.totals.of(WeightClass::norms).bytes == 5120);
    CHECK(m.totals.of(WeightClass::output).bytes == 6720);
    CHECK(m.totals.bytes == 4608 + 2 * 119040 + 254976 + 382464 + 5120 + 6720);
    CHECK(m.totals.tensors == 21);
    // Per layer (the same hand sums): layer 0 = attention 119,040 + MLP 254,976 + 2 norms x 1,024;
    // layer 1 differs only in its MLP (382,464).
    REQUIRE(m.totals.by_layer.size() == 2);
    CHECK(m.totals.layer_bytes(0, WeightClass::attention) == 119040);
    CHECK(m.totals.layer_bytes(0, WeightClass::dense_mlp) == 254976);
    CHECK(m.totals.layer_bytes(0, WeightClass::norms) == 2048);
    CHECK(m.totals.layer_bytes(1, WeightClass::dense_mlp) == 382464);
    CHECK(m.totals.layer_bytes(1, WeightClass::embeddings) == 0);
    CHECK(m.totals.layer_bytes(2, WeightClass::attention) == 0);
    REQUIRE(m.totals.by_type.size() == 3);
    CHECK(m.totals.by_type[0].type == "Q4_K");  // largest first
}

TEST_CASE("GGUF v2 reads like v3", "[gguf]") {
    const GgufHeader v2 = read_bytes(llama_like_gguf(2).bytes());
    const GgufHeader v3 = read_bytes(llama_like_gguf(3).bytes());
    CHECK(v2.version == 2);
    REQUIRE(v2.tensors.size() == v3.tensors.size());
    for (std::size_t k = 0; k < v2.tensors.size(); ++k) {
        CHECK(v2.tensors[k].name == v3.tensors[k].name);
        CHECK(v2.tensors[k].bytes == v3.tensors[k].bytes);
    }
    CHECK(gguf_arch_info(v2).feed_forward_length == gguf_arch_info(v3).feed_forward_length);
}

TEST_CASE("GGUF: a tensor of every ggml type, exact bytes, general.alignment", "[gguf]") {
    GgufWriter w;
    w.kv_str("general.architecture", "fixture");
    w.kv_u32("general.alignment", 64);
    w.alignment = 64;
    for (const auto& t : test_ggml_types()) w.tensor(std::string("t.") + t.name, {t.block * 2, 3}, t.name);
    const GgufHeader h = read_bytes(w.bytes());
    CHECK(h.alignment == 64);
    CHECK(h.data_offset % 64 == 0);
    REQUIRE(h.tensors.size() == test_ggml_types().size());
    for (std::size_t k = 0; k < h.tensors.size(); ++k) {
        const auto& t = test_ggml_types()[k];
        INFO(t.name);
        CHECK(h.tensors[k].type_name == t.name);
        CHECK(h.tensors[k].elements == t.block * 2 * 3);
        // 3 rows of 2 blocks.
        CHECK(h.tensors[k].bytes == 3 * 2 * t.block_bytes);
        CHECK(h.tensors[k].offset % 64 == 0);
    }
    const GgufModel m = gguf_model_from_headers({h});
    CHECK(m.totals.by_type.size() == test_ggml_types().size());
}

TEST_CASE("GGUF: tensor classes from llama.cpp names", "[gguf]") {
    CHECK(classify_gguf_tensor("token_embd.weight") == WeightClass::embeddings);
    CHECK(classify_gguf_tensor("per_layer_token_embd.weight") == WeightClass::embeddings);
    CHECK(classify_gguf_tensor("output.weight") == WeightClass::output);
    CHECK(classify_gguf_tensor("output_norm.weight") == WeightClass::norms);
    CHECK(classify_gguf_tensor("blk.3.attn_kv_a_mqa.weight") == WeightClass::attention);
    CHECK(classify_gguf_tensor("blk.3.attn_q_norm.weight") == WeightClass::norms);
    CHECK(classify_gguf_tensor("blk.3.ffn_gate_exps.weight") == WeightClass::routed_experts);
    CHECK(classify_gguf_tensor("blk.3.ffn_gate_inp.weight") == WeightClass::routed_experts);
    CHECK(classify_gguf_tensor("blk.3.exp_probs_b.bias") == WeightClass::routed_experts);
    CHECK(classify_gguf_tensor("blk.3.ffn_down_shexp.weight") == WeightClass::shared_experts);
    CHECK(classify_gguf_tensor("blk.3.ffn_gate_inp_shexp.weight") == WeightClass::shared_experts);
    CHECK(classify_gguf_tensor("blk.3.ffn_up.weight") == WeightClass::dense_mlp);
    CHECK(classify_gguf_tensor("blk.3.ssm_in.weight") == WeightClass::attention);
    CHECK(classify_gguf_tensor("v.blk.0.attn_q.weight") == WeightClass::vision);
    CHECK(classify_gguf_tensor("mm.0.weight") == WeightClass::vision);
    CHECK(classify_gguf_tensor("rope_freqs.weight") == WeightClass::norms);
    CHECK(classify_gguf_tensor("something.else") == WeightClass::other);
    CHECK(gguf_tensor_layer("blk.61.ffn_up_exps.weight") == 61);
    CHECK(gguf_tensor_layer("token_embd.weight") == -1);
    CHECK(gguf_tensor_layer("blk.x.attn_q.weight") == -1);
}

TEST_CASE("GGUF: a MoE model's per-layer arrays and expert keys", "[gguf]") {
    GgufWriter w;
    w.kv_arch("qwen3moe", {{"block_count", 3}, {"expert_count", 8}, {"expert_used_count", 2},
                           {"expert_shared_count", 1}, {"expert_feed_forward_length", 256},
                           {"leading_dense_block_count", 1}});
    w.kv_arr_u32("qwen3moe.attention.head_count_kv", {4, 2, 2});
    w.kv_u32("qwen3moe.attention.sliding_window_pattern", 6);
    w.kv_u32("qwen3moe.ssm.state_size", 128);
    // Experts stacked in one 3-D tensor: [ne0 = 256 in, ne1 = 256 out, ne2 = 8 experts].
    w.tensor("blk.1.ffn_up_exps.weight", {256, 256, 8}, "MXFP4");
    w.tensor("blk.1.ffn_up_shexp.weight", {256, 256}, "Q8_0");
    w.tensor("blk.1.ffn_gate_inp.weight", {256, 8}, "F32");
    const GgufModel m = gguf_model_from_headers({read_bytes(w.bytes())});
    CHECK(m.arch.expert_count == 8);
    CHECK(m.arch.expert_used_count == 2);
    CHECK(m.arch.expert_shared_count == 1);
    CHECK(m.arch.expert_feed_forward_length == 256);
    CHECK(m.arch.leading_dense_block_count == 1);
    CHECK(m.arch.head_count_kv == std::vector<std::uint64_t>{4, 2, 2});
    CHECK(m.arch.sliding_window_period == 6);
    CHECK(m.arch.ssm_state_size == 128);
    // MXFP4 experts: 256 x 8 rows x 8 blocks x 17 B = 278,528; router 256 x 8 x 4 = 8,192.
    CHECK(m.totals.of(WeightClass::routed_experts).bytes == 278528 + 8192);
    // Shared expert Q8_0: 256 rows x 8 blocks x 34 B = 69,632.
    CHECK(m.totals.of(WeightClass::shared_experts).bytes == 69632);
}

TEST_CASE("GGUF split files: any part names them all, every part's header is read", "[gguf]") {
    CHECK(gguf_split_part_names("dir/m-00002-of-00003.gguf") ==
          std::vector<std::string>{"dir/m-00001-of-00003.gguf", "dir/m-00002-of-00003.gguf", "dir/m-00003-of-00003.gguf"});
    CHECK(gguf_split_part_names("m.gguf") == std::vector<std::string>{"m.gguf"});
    CHECK(gguf_split_part_names("m-1-of-2.gguf") == std::vector<std::string>{"m-1-of-2.gguf"});
    CHECK_THROWS_AS(gguf_split_part_names("m-00004-of-00003.gguf"), Error);
    CHECK_THROWS_AS(gguf_split_part_names("m-00000-of-00003.gguf"), Error);

    // Three parts as gguf-split writes them: the metadata in the first, split.* in each.
    std::map<std::string, Bytes> files;
    for (std::uint16_t k = 0; k < 3; ++k) {
        GgufWriter w;
        if (k == 0) {
            w.kv_str("general.architecture", "llama");
            w.kv_u32("llama.block_count", 3);
        }
        w.kv_u16("split.no", k);
        w.kv_u16("split.count", 3);
        w.kv_i32("split.tensors.count", 3);
        w.tensor("blk." + std::to_string(k) + ".attn_q.weight", {256, 256}, "Q4_K");
        files["m-0000" + std::to_string(k + 1) + "-of-00003.gguf"] = w.bytes();
    }
    const SourceOpener open = opener_over(files);
    for (const char* part : {"m-00001-of-00003.gguf", "m-00003-of-00003.gguf"}) {
        const GgufModel m = read_gguf_model(part, open);
        REQUIRE(m.files.size() == 3);
        REQUIRE(m.tensors.size() == 3);
        CHECK(m.tensors[2].name == "blk.2.attn_q.weight");
        CHECK(m.tensors[2].part == 2);
        CHECK(m.arch.block_count == 3);
        CHECK(m.totals.bytes == 3 * 36864);
    }
    // A missing part.
    auto missing = files;
    missing.erase("m-00002-of-00003.gguf");
    try {
        read_gguf_model("m-00001-of-00003.gguf", opener_over(missing));
        FAIL("no error");
    } catch (const Error& e) {
        CHECK(std::string(e.what()).find("m-00002-of-00003.gguf") != std::string::npos);
        CHECK(std::string(e.what()).find("missing") != std::string::npos);
    }
    // A part whose split.no disagrees with its name.
    auto swapped = files;
    std::swap(swapped["m-00002-of-00003.gguf"], swapped["m-00003-of-00003.gguf"]);
    CHECK_THROWS_WITH(read_gguf_model("m-00001-of-00003.gguf", opener_over(swapped)), Catch::Contains("split.no"));
    // A part renamed so that its siblings cannot be found.
    std::map<std::string, Bytes> renamed{{"part.gguf", files["m-00001-of-00003.gguf"]}};
    CHECK_THROWS_WITH(read_gguf_model("part.gguf", opener_over(renamed)), Catch::Contains("split.count"));
}

TEST_CASE("GGUF hostile input: every cap and check gives an Error naming file and field", "[gguf][hostile]") {
    const Bytes good = llama_like_gguf(3).bytes();

    SECTION("wrong magic, versions") {
        Bytes b = good;
        b[0] = 'X';
        CHECK_THAT(error_of(b), Catch::Contains("bad.gguf: magic"));
        for (std::uint32_t v : {0u, 1u, 4u, 0x03000000u}) {
            Bytes c = good;
            for (int k = 0; k < 4; ++k) c[4 + static_cast<std::size_t>(k)] = static_cast<std::uint8_t>(v >> (8 * k));
            CHECK_THAT(error_of(c), Catch::Contains("bad.gguf: version"));
        }
    }
    SECTION("truncated at every byte of the header and the data") {
        // Every prefix of the file: each ends in an Error, never a crash or a hang.
        // Every byte up to the data, then every 4 KiB of the data (each prefix is checked
        // against the tensor extents).
        const std::size_t data = read_bytes(good).data_offset;
        for (std::size_t n = 0; n < good.size(); n += n < data + 64 ? 1 : 4096) {
            Bytes b(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(n));
            const std::string e = error_of(b);
            INFO(n);
            REQUIRE(e.rfind("bad.gguf: ", 0) == 0);
        }
    }
    SECTION("absurd counts and lengths") {
        GgufWriter w = llama_like_gguf(3);
        w.tensor_count_override = kGgufMaxTensors + 1;
        CHECK_THAT(error_of(w.bytes()), Catch::Contains("tensor_count"));
        w = llama_like_gguf(3);
        w.kv_count_override = ~0ull;
        CHECK_THAT(error_of(w.bytes()), Catch::Contains("metadata_kv_count"));
        // One more entry than the file holds: the reader runs into the tensor infos and fails there.
        w = llama_like_gguf(3);
        w.kv_count_override = 23;
        CHECK_THAT(error_of(w.bytes()), Catch::StartsWith("bad.gguf: "));

        GgufWriter s;
        Bytes huge_string;
        put_u64(huge_string, 1ull << 40);  // a 1 TiB string: refused before any allocation
        s.kv_raw("general.name", kStr, huge_string);
        CHECK_THAT(error_of(s.bytes()), Catch::Contains("general.name") && Catch::Contains("longer than"));

        GgufWriter a;
        Bytes huge_array;
        put_array_header(huge_array, kU32, 1ull << 60);
        a.kv_raw("llama.feed_forward_length", kArr, huge_array);
        CHECK_THAT(error_of(a.bytes()), Catch::Contains("llama.feed_forward_length") && Catch::Contains("array"));

        // 2^25 u64 items = 256 MiB: within the array cap, beyond the header cap, and the file is short.
        GgufWriter big;
        Bytes big_array;
        put_array_header(big_array, kU64, 1ull << 25);
        big.kv_raw("x", kArr, big_array);
        CHECK_THAT(error_of(big.bytes()), Catch::Contains("bad.gguf: x"));

        GgufWriter k;
        k.write_data = false;
        Bytes key_only;
        put_u64(key_only, 1ull << 50);
        Bytes raw = k.bytes();
        raw[16] = 1;  // one metadata entry ...
        raw.insert(raw.end(), key_only.begin(), key_only.end());  // ... whose key claims 2^50 bytes
        CHECK_THAT(error_of(raw), Catch::Contains("metadata entry 0: key"));
    }
    SECTION("arrays nested too deep") {
        Bytes v;
        for (int d = 0; d < 6; ++d) put_array_header(v, kArr, 1);
        put_array_header(v, kU8, 0);
        GgufWriter w;
        w.kv_raw("deep", kArr, v);
        CHECK_THAT(error_of(w.bytes()), Catch::Contains("deep") && Catch::Contains("nested"));
    }
    SECTION("bad value type, duplicate key, bad alignment") {
        GgufWriter w;
        w.kv_raw("x", 13, {});
        CHECK_THAT(error_of(w.bytes()), Catch::Contains("bad.gguf: x") && Catch::Contains("unknown value type"));
        GgufWriter d;
        d.kv_u32("x", 1);
        d.kv_u32("x", 2);
        CHECK_THAT(error_of(d.bytes()), Catch::Contains("duplicate"));
        GgufWriter al;
        al.kv_u32("general.alignment", 48);
        CHECK_THAT(error_of(al.bytes()), Catch::Contains("general.alignment"));
        GgufWriter al0;
        al0.kv_u64("general.alignment", 32);  // must be u32
        CHECK_THAT(error_of(al0.bytes()), Catch::Contains("general.alignment"));
    }
    SECTION("tensor infos: dims, types, overflow, offsets, names") {
        GgufWriter w;
        w.tensor_raw("five.dims", {32, 1, 1, 1, 1}, 0, 128);
        CHECK_THAT(error_of(w.bytes()), Catch::Contains("tensor 0 (five.dims): n_dims"));
        GgufWriter t;
        t.tensor_raw("q4_2", {32}, 4, 20);
        CHECK_THAT(error_of(t.bytes()), Catch::Contains("tensor 0 (q4_2): type") && Catch::Contains("unknown ggml type 4 "));
        // An id past ggml's newest (43 = GGML_TYPE_COUNT today; forks use 100+): named with the tensor.
        for (std::uint32_t id : {43u, 142u}) {
            GgufWriter n;
            n.tensor_raw("blk.0.ffn_down.weight", {64}, id, 18);
            CHECK_THAT(error_of(n.bytes()), Catch::Contains("tensor 0 (blk.0.ffn_down.weight): type") &&
                                                Catch::Contains("unknown ggml type " + std::to_string(id)) && Catch::Contains("0 to 42"));
        }
        GgufWriter o;
        o.write_data = false;
        o.tensor_raw("overflow", {1ull << 40, 1ull << 40}, 0, 0);
        CHECK_THAT(error_of(o.bytes()), Catch::Contains("tensor 0 (overflow): shape") && Catch::Contains("overflow"));
        GgufWriter r;
        r.tensor_raw("ragged", {100, 2}, 12, 0);  // a Q4_K row of 100 elements: not whole blocks of 256
        CHECK_THAT(error_of(r.bytes()), Catch::Contains("ragged") && Catch::Contains("block"));
        GgufWriter m;
        m.tensor_raw("misaligned", {8}, 0, 32, 16);
        CHECK_THAT(error_of(m.bytes()), Catch::Contains("misaligned): offset"));
        GgufWriter ov;
        ov.tensor_raw("a", {64}, 0, 256, 0);
        ov.tensor_raw("b", {64}, 0, 256, 128);
        CHECK_THAT(error_of(ov.bytes()), Catch::Contains("overlaps"));
        GgufWriter end;
        end.write_data = false;
        end.tensor_raw("far", {8}, 0, 32, 1ull << 40);
        CHECK_THAT(error_of(end.bytes()), Catch::Contains("truncated file"));
        GgufWriter wrap;
        wrap.tensor_raw("wrap", {8}, 0, 32, ~0ull - 31);
        CHECK_THAT(error_of(wrap.bytes()), Catch::Contains("wrap): offset"));
        GgufWriter dup;
        dup.tensor("same", {32}, "F32");
        dup.tensor("same", {32}, "F32");
        CHECK_THAT(error_of(dup.bytes()), Catch::Contains("duplicate tensor name"));
        GgufWriter longname;
        longname.tensor(std::string(300, 'n'), {32}, "F32");
        CHECK_THAT(error_of(longname.bytes()), Catch::Contains("tensor 0: name"));
    }
    SECTION("architecture keys of the wrong type") {
        GgufWriter w;
        w.kv_str("general.architecture", "llama");
        w.kv_u32("llama.block_count", 2);
        w.kv_arr_u32("llama.feed_forward_length", {1, 2, 3});
        const GgufHeader h = read_bytes(w.bytes());
        CHECK_THROWS_WITH(gguf_arch_info(h), Catch::Contains("llama.feed_forward_length") && Catch::Contains("2 layers"));
        GgufWriter s;
        s.kv_str("general.architecture", "llama");
        s.kv_str("llama.block_count", "two");
        CHECK_THROWS_WITH(gguf_arch_info(read_bytes(s.bytes())), Catch::Contains("llama.block_count"));
        GgufWriter neg;
        neg.kv_str("general.architecture", "llama");
        neg.kv_i32("llama.context_length", -1);
        CHECK_THROWS_WITH(gguf_arch_info(read_bytes(neg.bytes())), Catch::Contains("non-negative"));
    }
}

TEST_CASE("GGUF: long strings and long arrays are counted, not kept", "[gguf]") {
    GgufWriter w;
    std::vector<std::string> many(kGgufMaxKeptArrayItems + 10, "tok");
    w.kv_arr_str("tokenizer.ggml.tokens", many);
    w.kv_str("tokenizer.chat_template", std::string(kGgufMaxKeptStringBytes + 1, 'x'));
    const GgufHeader h = read_bytes(w.bytes());
    const GgufValue* t = h.find("tokenizer.ggml.tokens");
    CHECK(t->count == kGgufMaxKeptArrayItems + 10);
    CHECK(t->items.size() == kGgufMaxKeptArrayItems);
    CHECK(t->skipped);
    const GgufValue* c = h.find("tokenizer.chat_template");
    CHECK(c->skipped);
    CHECK(c->s.empty());
}

// ---------------------------------------------------------------------------------------------
// `gpusizer inspect` on files in a temp folder.
// ---------------------------------------------------------------------------------------------

#include <nlohmann/json.hpp>

#include "cli_support.hpp"
#include "gpusizer/inspect.hpp"

TEST_CASE("gpusizer inspect: a GGUF file, any part of a split, --json", "[gguf][cli]") {
    TempDir dir("inspect-gguf");
    write_file(dir.file("tiny.gguf"), llama_like_gguf(3).bytes());
    const auto text = gpusizer::test::run_cli({"inspect", dir.file("tiny.gguf")}, false);
    REQUIRE(text.code == 0);
    CHECK_THAT(text.out, Catch::Contains("architecture: llama") && Catch::Contains("file type Q4_K_M") &&
                             Catch::Contains("layers: 2") && Catch::Contains("dense_mlp") &&
                             Catch::Contains("llama.feed_forward_length = [2 x u32] 512,768"));

    const auto js = gpusizer::test::run_cli({"inspect", dir.file("tiny.gguf"), "--json"}, false);
    REQUIRE(js.code == 0);
    const auto j = nlohmann::json::parse(js.out);
    CHECK(j["format"] == "gguf");
    CHECK(j["version"] == 3);
    CHECK(j["hyperparameters"]["feed_forward_length"] == nlohmann::json({512, 768}));
    CHECK(j["hyperparameters"]["head_count_kv"] == 2);
    CHECK(j["totals"]["by_class"]["attention"]["bytes"] == 2 * 119040);  // derivation in the v3 test above
    CHECK(j["tensor_list"].size() == 21);
    CHECK(j["totals"]["by_layer"][1]["dense_mlp"] == 382464);
    CHECK(j["tensor_list"][2]["name"] == "blk.0.attn_q.weight");
    CHECK(j["metadata"]["llama.rope.freq_base"] == 500000.0);

    // Split: the second part names the whole model.
    for (int k = 1; k <= 2; ++k) {
        GgufWriter w;
        w.kv_u16("split.no", static_cast<std::uint16_t>(k - 1));
        w.kv_u16("split.count", 2);
        if (k == 1) w.kv_str("general.architecture", "llama");
        w.tensor("blk." + std::to_string(k - 1) + ".ffn_up.weight", {256, 256}, "Q8_0");
        write_file(dir.file("m-0000" + std::to_string(k) + "-of-00002.gguf"), w.bytes());
    }
    const auto split = gpusizer::test::run_cli({"inspect", dir.file("m-00002-of-00002.gguf"), "--json"}, false);
    REQUIRE(split.code == 0);
    const auto s = nlohmann::json::parse(split.out);
    CHECK(s["files"].size() == 2);
    // 2 tensors x 256 rows x 8 blocks x 34 B = 139,264.
    CHECK(s["totals"]["bytes"] == 139264);

    // A folder with one GGUF file; a bad file; a missing path; a bad flag.
    CHECK(gpusizer::test::run_cli({"inspect", dir.file("tiny.gguf"), "--bogus"}, false).code == 2);
    CHECK(gpusizer::test::run_cli({"inspect", dir.file("nothing.gguf")}, false).code == 2);
    write_file(dir.file("bad.gguf"), Bytes{'G', 'G', 'U', 'F', 9, 0, 0, 0});
    const auto bad = gpusizer::test::run_cli({"inspect", dir.file("bad.gguf")}, false);
    CHECK(bad.code == 2);
    CHECK_THAT(bad.err, Catch::Contains("bad.gguf: version"));
}

// gs.inspect(bytes[, fileSize]) in the browser: the README slices a file's first 8 MiB and hands
// them over. A prefix that holds the header reads as the whole file; the file's size, when
// given, is checked against where the tensors end.
TEST_CASE("inspect_bytes_json: a header's first bytes, with and without the file's size", "[gguf][inspect]") {
    const GgufWriter w = llama_like_gguf(3);
    const Bytes file = w.bytes();
    const std::string whole(file.begin(), file.end());
    // The header plus one byte of tensor data: a prefix, as File.slice gives it.
    const std::string prefix = whole.substr(0, w.header_size() + 1);
    REQUIRE(prefix.size() < whole.size());
    const auto want = nlohmann::json::parse(gpusizer::inspect_bytes_json("header", whole));
    CHECK(nlohmann::json::parse(gpusizer::inspect_bytes_json("header", prefix)) == want);
    CHECK(nlohmann::json::parse(gpusizer::inspect_bytes_json("header", prefix, whole.size())) == want);

    // The size of a file cut short: its tensors end past it.
    const auto short_file = [&] { gpusizer::inspect_bytes_json("header", prefix, prefix.size()); };
    CHECK_THROWS_WITH(short_file(), Catch::Contains("truncated file?"));
    // A size smaller than the bytes given names the argument.
    CHECK_THROWS_WITH(gpusizer::inspect_bytes_json("header", prefix, 10), Catch::Contains("fileSize") && Catch::Contains("less than"));
    // Bytes cut inside the header ask for more of them, whether or not the size is known.
    const std::string cut = whole.substr(0, w.header_size() / 2);
    CHECK_THROWS_WITH(gpusizer::inspect_bytes_json("header", cut), Catch::Contains("give more of the file's first bytes"));
    CHECK_THROWS_WITH(gpusizer::inspect_bytes_json("header", cut, whole.size()), Catch::Contains("truncated header"));
}

TEST_CASE("GGUF: a layer number no model has is not tracked per layer", "[gguf][hostile]") {
    GgufWriter w;
    w.tensor("blk.9999999.attn_q.weight", {32}, "F32");  // 7 digits: parsed, beyond kMaxTrackedLayers
    w.tensor("blk.3.attn_q.weight", {32}, "F32");
    const GgufModel m = gguf_model_from_headers({read_bytes(w.bytes(), "f.gguf")});
    CHECK(m.totals.by_layer.size() == 4);
    CHECK(m.totals.of(WeightClass::attention).bytes == 2 * 128);
}
