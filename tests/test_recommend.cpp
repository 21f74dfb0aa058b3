// test_recommend.cpp: which GPUs to buy. The seed article's "recommended GPU" column checked row
// by row (docs/seed-article.md explains each), constraints, sorting and bad input.
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "cli.hpp"
#include "test_support.hpp"

using namespace gpusizer;
using namespace gpusizer::test;

namespace {

RecommendQuery query(const char* model, const char* weights, std::vector<Segment> segments = {}, int max_gpus = 8) {
    RecommendQuery q;
    q.base = config(model);
    q.base.weights = weights;
    q.segments = std::move(segments);
    q.max_gpus = max_gpus;
    return q;
}

const RecommendRow* find(const std::vector<RecommendRow>& rows, const std::string& gpu) {
    for (const auto& r : rows)
        if (r.gpu == gpu) return &r;
    return nullptr;
}

bool fits(const char* model, const char* weights, const char* gpu, int gpus, long long context = 0) {
    Config c = config(model, gpu);
    c.weights = weights;
    c.gpus = gpus;
    c.context = context;
    return run(c).fits;
}

const std::vector<Segment> kConsumer{Segment::consumer};
const std::vector<Segment> kDatacenter{Segment::datacenter};

}  // namespace

TEST_CASE("the seed article's recommended GPUs for the R1 distills", "[recommend][seed]") {
    // The article sizes the distills at 4 bits per weight (docs/seed-article.md); here GGUF Q4_K_M
    // in llama.cpp at the default 8,192-token context. For each row: does the article's pick fit,
    // and what is the cheapest consumer configuration with as many cards as the article uses?
    struct Row { const char* model; const char* pick; int pick_gpus; bool pick_fits; const char* cheapest; int cheapest_gpus; };
    // The cheapest consumer cards in the catalog are Intel's: the Arc B570 (10 GB, $219) and B580
    // (12 GB, $249) launch MSRPs undercut the $329 RTX 3060 12GB. Next after the B570 comes the
    // 6 GB GTX 1660 SUPER ($229, 2019), which holds the 1.5B-8B distills too (5.9 GiB at most).
    const Row rows[] = {
        {"deepseek-r1-distill-qwen-1.5b", "rtx-3060", 1, true, "arc-b570", 1},   // "RTX 3060 12GB+": right; a $219 B570 holds it too
        {"deepseek-r1-distill-qwen-7b", "rtx-3070", 1, true, "arc-b570", 1},   // "RTX 3070 8GB+": fits; so does the 10 GB B570
        {"deepseek-r1-distill-llama-8b", "rtx-3070", 1, true, "arc-b570", 1},
        // "RTX 3080 10GB+": 10.07 GiB at 8k > 10 GiB, so not the 10 GB B570 either: the 12 GB B580.
        {"deepseek-r1-distill-qwen-14b", "rtx-3080", 1, false, "arc-b580", 1},
        // "RTX 4090 24GB": fits; the 24 GB RX 7900 XTX ($999 launch MSRP) is $500 less than a 3090.
        {"deepseek-r1-distill-qwen-32b", "rtx-4090", 1, true, "rx-7900-xtx", 1},
        {"deepseek-r1-distill-llama-70b", "rtx-4090", 2, true, "rx-7900-xtx", 2},   // "RTX 4090 24GB x2": 2 x 7900 XTX
    };
    for (const Row& r : rows) {
        INFO(r.model);
        CHECK(fits(r.model, "q4_k_m", r.pick, r.pick_gpus) == r.pick_fits);
        const Recommendation rec = recommend(query(r.model, "q4_k_m", kConsumer, r.pick_gpus), catalog());
        REQUIRE_FALSE(rec.recommended.empty());
        CHECK(rec.recommended.front().gpu == r.cheapest);
        CHECK(rec.recommended.front().gpus == r.cheapest_gpus);
        const RecommendRow* pick = find(rec.recommended, r.pick);
        CHECK((pick != nullptr) == r.pick_fits);
        // The runner-up of the three smallest: $10 more than the B570, with 6 GB.
        if (std::string(r.cheapest) == "arc-b570") {
            REQUIRE(rec.recommended.size() > 1);
            CHECK(rec.recommended[1].gpu == "gtx-1660-super");
            CHECK(rec.recommended[1].price_usd == 229);
        }
    }
    // The 14B row fits a 3080 at half the context: 4,096 tokens need 9.31 GiB.
    CHECK(fits("deepseek-r1-distill-qwen-14b", "q4_k_m", "rtx-3080", 1, 4096));
    // Allowing up to 8 cards, three 16 GB RX 7600 XT ($987 at $329 MSRP) hold the 70B distill for
    // less than four 12 GB Arc B580s ($996), three 16 GB RTX 5060 Ti ($1,287), four 12 GB RTX 3060s
    // ($1,316) or two 3090s ($2,998).
    const Recommendation many = recommend(query("deepseek-r1-distill-llama-70b", "q4_k_m", kConsumer), catalog());
    CHECK(many.recommended.front().gpu == "rx-7600-xt");
    CHECK(many.recommended.front().gpus == 3);
    CHECK(many.recommended.front().price_usd == 3 * 329);
    CHECK(find(many.recommended, "arc-b580")->price_usd == 4 * 249);
    CHECK(find(many.recommended, "rtx-5060-ti-16gb")->price_usd == 3 * 429);
    CHECK(find(many.recommended, "rtx-3060")->price_usd == 4 * 329);
}

TEST_CASE("the seed article's recommended GPUs for the large models", "[recommend][seed]") {
    // DeepSeek R1, "NVIDIA A100 80GB x16" for ~1,342 GB at fp16: does not fit (78 GiB of weights on
    // each 80 GB card before any KV cache). At fp16 the cheapest data-center set of up to 16 is
    // eight MI300X (192 GB each); R1 ships in FP8, where the article's A100s would need 11.
    RecommendQuery q = query("deepseek-r1", "fp16", kDatacenter, 16);
    q.base.runtime = Runtime::vllm;
    Recommendation rec = recommend(q, catalog());
    CHECK(find(rec.recommended, "a100-80gb-sxm") == nullptr);
    const RecommendRow* a100 = find(rec.rejected, "a100-80gb-sxm");
    REQUIRE(a100 != nullptr);
    CHECK(a100->reasons.front().find("does not fit on up to 16 GPUs") != std::string::npos);
    CHECK(rec.recommended.front().gpu == "mi300x");
    CHECK(rec.recommended.front().gpus == 8);
    q.base.weights = "fp8";
    rec = recommend(q, catalog());
    const RecommendRow* a100fp8 = find(rec.recommended, "a100-80gb-sxm");
    REQUIRE(a100fp8 != nullptr);
    CHECK(a100fp8->gpus == 11);
    // Llama 3 70B at fp16 (~140 GB), "NVIDIA 3000 series": the smallest 3000-series set is eight
    // RTX 3090s (six leave the most loaded card at 27.5 GiB).
    rec = recommend(query("llama-3-70b", "fp16", kConsumer), catalog());
    const RecommendRow* r3090 = find(rec.recommended, "rtx-3090");
    REQUIRE(r3090 != nullptr);
    CHECK(r3090->gpus == 8);
    for (const char* small : {"rtx-3060", "rtx-3070", "rtx-3080"}) CHECK(find(rec.rejected, small) != nullptr);
    // GPT-NeoX 20B, "two RTX 3090s (24GB each)": right; three 16 GB RX 7600 XT ($987) are
    // cheaper, and so are three 16 GB RTX 5060 Ti ($1,287) and four 12 GB 3060s ($1,316).
    rec = recommend(query("gpt-neox-20b", "fp16", kConsumer), catalog());
    CHECK(find(rec.recommended, "rtx-3090")->gpus == 2);
    CHECK(find(rec.recommended, "rtx-3060")->gpus == 4);
    CHECK(find(rec.recommended, "rtx-5060-ti-16gb")->gpus == 3);
    CHECK(rec.recommended.front().gpu == "rx-7600-xt");
    CHECK(rec.recommended.front().gpus == 3);
    // BLOOM 176B, "40GB+ for training, A100 or H100": full training keeps 16 bytes per parameter
    // (2.82 TB, 33 A100 80GB for the model state alone); with ZeRO-3, full recomputation and the
    // loss, the smallest count that fits is found, and none fits on 8. DeepSpeed's accounting
    // (BLOOM trained with Megatron-DeepSpeed).
    q = query("bloom-176b", "bf16", kDatacenter, 8);
    q.base.mode = Mode::train;
    q.base.training_framework = TrainingFramework::deepspeed;
    q.base.zero = 3;
    q.base.recompute = Recompute::full;
    q.base.context = 2048;
    CHECK(recommend(q, catalog()).recommended.empty());
    q.max_gpus = 64;
    const Recommendation wide = recommend(q, catalog());   // kept: the row points into it
    const RecommendRow* bloom = find(wide.recommended, "a100-80gb-sxm");
    REQUIRE(bloom != nullptr);
    const int n = bloom->gpus;
    CHECK(n > 16.0 * 176.25e9 / (80.0 * 1024 * 1024 * 1024));
    Config c = q.base;
    c.gpu = "a100-80gb-sxm";
    c.gpus = n;
    CHECK(estimate(c, catalog()).fits);
    c.gpus = n - 1;
    CHECK_FALSE(estimate(c, catalog()).fits);
}

TEST_CASE("constraints: budget, power cap, speed, one node, GPU class", "[recommend]") {
    RecommendQuery q = query("deepseek-r1-distill-llama-70b", "q4_k_m", kConsumer);
    q.budget_usd = 2000;
    Recommendation rec = recommend(q, catalog());
    REQUIRE_FALSE(rec.recommended.empty());
    for (const auto& r : rec.recommended) CHECK(r.price_usd <= 2000);
    const RecommendRow* r4090 = find(rec.rejected, "rtx-4090");
    REQUIRE(r4090 != nullptr);
    CHECK(r4090->reasons.front().find("$3198") != std::string::npos);
    CHECK(r4090->reasons.front().find("budget") != std::string::npos);
    CHECK_FALSE(r4090->other_segment);
    // A data-center GPU is rejected for its class alone, and says so as a flag, not only in words.
    const RecommendRow* h100 = find(rec.rejected, "h100-sxm");
    REQUIRE(h100 != nullptr);
    CHECK(h100->other_segment);
    CHECK(h100->reasons.size() == 1);
    // A power cap on what the machine draws at the wall doing the job: two RTX 4090 decoding a 70B
    // draw about 650 W there.
    q = query("deepseek-r1-distill-llama-70b", "q4_k_m", kConsumer);
    q.power_cap_w = 600;
    rec = recommend(q, catalog());
    for (const auto& r : rec.recommended) CHECK(r.wall_w <= 600);
    CHECK(find(rec.rejected, "rtx-4090")->reasons.back().find("at the wall, over the 600 W cap") != std::string::npos);
    // A minimum decode speed: llama.cpp's layer split does not speed up one sequence, so the
    // bandwidth of one card decides.
    q = query("deepseek-r1-distill-llama-70b", "q4_k_m", kConsumer);
    q.min_tokens_per_s = 20;
    rec = recommend(q, catalog());
    for (const auto& r : rec.recommended) CHECK(r.decode_tokens_per_s >= 20);
    CHECK(find(rec.recommended, "rtx-5090") != nullptr);   // 1,792 GB/s
    CHECK(find(rec.rejected, "rtx-3060")->reasons.front().find("below the 20.0 asked") != std::string::npos);
    // One node: 13 H200 hold R1 at fp16, an HGX board holds 8.
    q = query("deepseek-r1", "fp16", kDatacenter, 16);
    q.base.runtime = Runtime::vllm;
    q.single_node = true;
    rec = recommend(q, catalog());
    CHECK(find(rec.recommended, "h200") == nullptr);
    CHECK(find(rec.recommended, "mi300x") != nullptr);   // 8 x 192 GB: one node
    // Training: the speed is training tokens/s.
    q = query("llama-3-8b", "bf16", kDatacenter);
    q.base.mode = Mode::train;
    q.base.zero = 3;
    rec = recommend(q, catalog());
    CHECK(rec.training);
    for (const auto& r : rec.recommended) CHECK(r.tokens_per_s == r.train_tokens_per_s);
}

TEST_CASE("every GPU is either recommended or rejected with its reasons", "[recommend][property]") {
    const Recommendation rec = recommend(query("llama-3-8b", "bf16"), catalog());
    std::set<std::string> seen;
    for (const auto& r : rec.recommended) {
        CHECK(r.fits);
        CHECK(r.reasons.empty());
        CHECK(seen.insert(r.gpu).second);
        // A recommendation is the estimate of the same configuration.
        Config c = config("llama-3-8b", r.gpu.c_str());
        c.gpus = r.gpus;
        const Report e = run(c);
        CHECK(r.per_gpu_total == Approx(e.per_gpu.total()));
        CHECK(r.decode_tokens_per_s == Approx(e.speed.decode_tokens_per_s));
        CHECK(r.system_w == Approx(e.power.system_w));
    }
    for (const auto& r : rec.rejected) {
        CHECK_FALSE(r.reasons.empty());
        CHECK(seen.insert(r.gpu).second);
    }
    CHECK(seen.size() == catalog().gpus.size());
}

TEST_CASE("sorting by cost, speed or power", "[recommend]") {
    RecommendQuery q = query("llama-3-8b", "bf16");
    q.sort = RecommendSort::cost;
    Recommendation rec = recommend(q, catalog());
    bool unknown_seen = false;
    for (std::size_t i = 1; i < rec.recommended.size(); ++i) {
        const auto& a = rec.recommended[i - 1];
        const auto& b = rec.recommended[i];
        if (!a.price_known) unknown_seen = true;
        CHECK_FALSE((unknown_seen && b.price_known));   // unknown prices last
        if (a.price_known && b.price_known) CHECK(a.price_usd <= b.price_usd);
    }
    q.sort = RecommendSort::speed;
    rec = recommend(q, catalog());
    for (std::size_t i = 1; i < rec.recommended.size(); ++i)
        CHECK(rec.recommended[i - 1].tokens_per_s >= rec.recommended[i].tokens_per_s);
    q.sort = RecommendSort::power;
    rec = recommend(q, catalog());
    // Power: what the machines draw at the wall doing the job.
    for (std::size_t i = 1; i < rec.recommended.size(); ++i) CHECK(rec.recommended[i - 1].wall_w <= rec.recommended[i].wall_w);
    // Owning or renting, per million tokens: known costs first, cheapest first.
    for (RecommendSort sort : {RecommendSort::own, RecommendSort::rent}) {
        q.sort = sort;
        rec = recommend(q, catalog());
        REQUIRE(rec.recommended.size() > 3);
        bool unknown = false;
        for (std::size_t i = 1; i < rec.recommended.size(); ++i) {
            const auto& a = rec.recommended[i - 1];
            const auto& b = rec.recommended[i];
            const bool ka = sort == RecommendSort::own ? a.own_known : a.rent_known;
            const bool kb = sort == RecommendSort::own ? b.own_known : b.rent_known;
            if (!ka) unknown = true;
            CHECK_FALSE((unknown && kb));
            if (ka && kb) CHECK((sort == RecommendSort::own ? a.own_usd <= b.own_usd : a.rent_usd <= b.rent_usd));
        }
        // The first row's figure is the estimate's own.
        Config c = q.base;
        c.gpu = rec.recommended[0].gpu;
        c.gpus = rec.recommended[0].gpus;
        const Report e = estimate(c, catalog());
        CHECK((sort == RecommendSort::own ? rec.recommended[0].own_usd : rec.recommended[0].rent_usd) ==
              Approx(sort == RecommendSort::own ? e.cost.own_usd_per_million_tokens : e.cost.rent_usd_per_million_tokens));
    }
}

TEST_CASE("recommend: bad input names the key", "[recommend][errors]") {
    CHECK_THROWS_WITH(parse_recommend_sort("cheapest"), Catch::Contains("sort") && Catch::Contains("cost, speed, power, own, rent"));
    CHECK_THROWS_WITH(parse_segment("gaming"), Catch::Contains("segment") && Catch::Contains("consumer"));
    RecommendQuery q = query("llama-3-8b", "bf16");
    q.max_gpus = 0;
    CHECK_THROWS_WITH(recommend(q, catalog()), Catch::Contains("max_gpus"));
    q = query("no-such-model", "bf16");
    CHECK_THROWS_WITH(recommend(q, catalog()), Catch::Contains("model"));
    q = query("llama-3-8b", "q9");
    CHECK_THROWS_WITH(recommend(q, catalog()), Catch::Contains("weights"));
}

TEST_CASE("a limit is set or not: 0 in the constraints JSON and the CLI means none", "[recommend][limits]") {
    const std::string cfg = R"({"model": "llama-3-8b"})";
    const RecommendQuery none = recommend_query_from_json(cfg, R"({"budget_usd": 0, "power_cap_w": 0})");
    CHECK_FALSE(none.budget_usd);
    CHECK_FALSE(none.power_cap_w);
    CHECK_FALSE(none.min_tokens_per_s);   // not given
    const RecommendQuery set = recommend_query_from_json(cfg, R"({"budget_usd": 600, "min_tokens_per_s": 20})");
    CHECK(set.budget_usd == 600.0);
    CHECK(set.min_tokens_per_s == 20.0);
    CHECK_FALSE(set.power_cap_w);
    // The recommendation JSON writes an unset limit as null, a set one as its value.
    const auto j = nlohmann::json::parse(recommend_to_json(recommend(set, catalog())));
    CHECK(j["query"]["budget_usd"] == 600);
    CHECK(j["query"]["power_cap_w"].is_null());
    // "--budget 0" asks for no budget: the same recommendation as no flag.
    const auto cli_json = [](std::vector<std::string> extra) {
        std::vector<std::string> args = {"recommend", "--model", "llama-3-8b", "--json", "--assets", GPUSIZER_TEST_ASSETS};
        args.insert(args.end(), extra.begin(), extra.end());
        std::ostringstream out, err;
        REQUIRE(cli::run(args, "gpusizer", out, err) == 0);
        return nlohmann::json::parse(out.str());
    };
    CHECK(cli_json({"--budget", "0"}) == cli_json({}));
    // A limit set to 0 or less in C++ is refused: an unset limit is how to say none.
    RecommendQuery q = set;
    q.power_cap_w = 0.0;
    CHECK_THROWS_WITH(recommend(q, catalog()), Catch::Contains("power_cap"));
}

TEST_CASE("gpusizer recommend --json", "[recommend][cli]") {
    std::ostringstream out, err;
    const int code = cli::run({"recommend", "--model", "deepseek-r1-distill-qwen-7b", "--weights", "q4_k_m", "--segment", "consumer",
                               "--budget", "600", "--sort", "speed", "--json", "--assets", GPUSIZER_TEST_ASSETS},
                              "gpusizer", out, err);
    REQUIRE(code == 0);
    const auto j = nlohmann::json::parse(out.str());
    CHECK(j["query"]["budget_usd"] == 600);
    CHECK(j["query"]["sort"] == "speed");
    CHECK(j["weights"] == "q4_k_m");
    REQUIRE(j["recommended"].size() > 0);
    for (const auto& r : j["recommended"]) {
        CHECK(r["price_usd"].get<double>() <= 600);
        for (const char* k : {"gpu", "gpus", "price_usd", "tokens_per_s", "system_w", "per_gpu_total", "reasons"}) CHECK(r.contains(k));
    }
    CHECK(j["rejected"].size() + j["recommended"].size() == catalog().gpus.size());
    std::ostringstream out2, err2;
    CHECK(cli::run({"recommend", "--model", "llama-3-8b", "--sort", "cheap", "--assets", GPUSIZER_TEST_ASSETS}, "gpusizer", out2, err2) ==
          cli::kExitBadInput);
    CHECK(err2.str().find("sort") != std::string::npos);
}
