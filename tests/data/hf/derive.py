#!/usr/bin/env python3
"""Hand derivations for the config.json fixtures in this folder (reproducible: `python3 derive.py`).

For every fixture it derives, from the config alone and the formulas of the per-layer cache table
(KV per growing layer = 2 x kv_heads x head_dim; MLA = kv_lora_rank + qk_rope_head_dim; DSA indexer
key = index_head_dim FP8 bytes + index_head_dim/128 FP32 scales; Mamba2 conv = (d_conv-1) x
(d_inner + 2 x n_groups x d_state), ssm = n_heads x head_dim x d_state; Mamba1 conv = (d_conv-1) x
d_inner, ssm = d_inner x d_state; Gated DeltaNet conv = (k-1) x (2 x nk x dk + nv x dv),
recurrent = nv x dk x dv):
  - the layer list exactly as the transformers config class builds it when `layer_types` is absent,
  - the growing KV values per token summed over layers, the capped layers with their window/chunk,
    the fixed per-sequence state of linear-attention / SSM layers,
  - a parameter count of the language model (and of a SigLIP tower where the config has one),
    to check the fixture against the published total.
Each number is printed with the formula that produced it. `--json` prints the machine-readable result
that expected.json's `derived` blocks were generated from.
"""
import glob
import json
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def text_cfg(c):
    """The language model's fields: text_config (or thinker_config.text_config) when present."""
    if "thinker_config" in c and "text_config" in c["thinker_config"]:
        return c["thinker_config"]["text_config"]
    return c.get("text_config", c)


def head_dim(t):
    return t.get("head_dim") or t.get("attention_head_dim") or t["hidden_size"] // t["num_attention_heads"]


def layer_kinds(mt, t):
    """One kind per layer: full, sliding, chunked, mla, linear (GDN), mamba2, mamba1, hybrid, none (KV shared)."""
    L = t.get("num_hidden_layers")
    if mt == "nemotron_h":
        pat = t["hybrid_override_pattern"]
        return [{"M": "mamba2", "*": "full", "-": "mlp", "E": "moe"}[ch] for ch in pat]
    if mt == "granitemoehybrid":
        return ["full" if x == "attention" else "mamba2" for x in t["layer_types"]]
    if mt == "jamba":
        return ["full" if i % t.get("attn_layer_period", 8) == t.get("attn_layer_offset", 4) else "mamba1" for i in range(L)]
    if mt == "falcon_h1":
        return ["hybrid"] * L
    if mt in ("deepseek_v3", "deepseek_v2", "kimi_k2"):
        return ["mla"] * L
    if mt in ("deepseek_v32", "glm_moe_dsa"):
        return ["mla+indexer"] * L
    lt = t.get("layer_types")
    if lt:
        m = {"full_attention": "full", "sliding_attention": "sliding", "chunked_attention": "chunked",
             "linear_attention": "linear"}
        kinds = [m[x] for x in lt]
    elif mt in ("qwen2", "qwen2_moe", "qwen3", "qwen3_moe"):
        # Qwen2Config/Qwen3Config: sliding_window is None unless use_sliding_window; then layers
        # i >= max_window_layers slide.
        sw = t.get("sliding_window") if t.get("use_sliding_window") else None
        mwl = t.get("max_window_layers", 28)
        kinds = ["sliding" if sw is not None and i >= mwl else "full" for i in range(L)]
    elif mt in ("gemma3", "gemma3_text"):
        p = t.get("sliding_window_pattern", 6)
        kinds = ["full" if (i + 1) % p == 0 else "sliding" for i in range(L)]
    elif mt in ("cohere2", "exaone4"):
        # Cohere2Config / Exaone4Config (int pattern): full when (i+1) % pattern == 0; no window -> all full
        if t.get("sliding_window") is None:
            return ["full"] * L
        p = t.get("sliding_window_pattern", 4)
        kinds = ["full" if (i + 1) % p == 0 else "sliding" for i in range(L)]
    elif mt in ("llama4", "llama4_text"):
        nrl = t.get("no_rope_layers") or [int((i + 1) % t.get("no_rope_layer_interval", 4) != 0) for i in range(L)]
        chunk = t.get("attention_chunk_size")
        kinds = ["chunked" if (nrl[i] and chunk) else "full" for i in range(L)]
    else:
        kinds = ["full"] * L
    if mt in ("gemma3n", "gemma3n_text", "gemma4", "gemma4_text"):
        shared = t.get("num_kv_shared_layers", 0)
        for i in range(L - shared, L):
            kinds[i] = "none"
    return kinds


# transformers class defaults for `sliding_window` when a config with sliding layers omits it
WINDOW_DEFAULT = {"gemma3": 4096, "gemma3_text": 4096, "gemma4": 512, "gemma4_text": 512, "cohere2": 4096,
                  "olmo3": 4096, "exaone4": 4096}


def window_of(mt, t, kind):
    if kind == "sliding":
        return t.get("sliding_window") or WINDOW_DEFAULT.get(mt)
    if kind == "chunked":
        return t.get("attention_chunk_size")
    return None


def cache(mt, t):
    kinds = layer_kinds(mt, t)
    hd = head_dim(t) if "num_attention_heads" in t else 0
    kv = t.get("num_key_value_heads", t.get("num_attention_heads"))
    out = {"layers": len(kinds), "growing_values_per_token": 0, "growing_formula": [], "capped": [],
           "fixed_state_elements": 0, "fixed_state_formula": [], "indexer_bytes_per_token": 0}
    counts = {}
    for k in kinds:
        counts[k] = counts.get(k, 0) + 1
    out["layer_kinds"] = counts
    g4 = mt in ("gemma4", "gemma4_text")
    for k, n in counts.items():
        if k in ("full", "hybrid"):
            h = t.get("global_head_dim", hd) if g4 else hd
            kvh = t.get("num_global_key_value_heads", kv) if g4 else kv
            v = n * 2 * kvh * h
            out["growing_values_per_token"] += v
            out["growing_formula"].append(f"{n} full layers x 2 x {kvh} kv heads x {h} = {v} values/token")
        elif k in ("sliding", "chunked"):
            w = window_of(mt, t, k)
            v = n * 2 * kv * hd
            out["capped"].append({"kind": k, "layers": n, "window": w, "values_per_token": v,
                                  "formula": f"{n} {k} layers x 2 x {kv} kv heads x {hd} = {v} values/token, kept for at most {w} tokens"})
        elif k in ("mla", "mla+indexer"):
            r, rope = t["kv_lora_rank"], t["qk_rope_head_dim"]
            v = n * (r + rope)
            out["growing_values_per_token"] += v
            out["growing_formula"].append(f"{n} MLA layers x ({r} kv_lora_rank + {rope} qk_rope_head_dim) = {v} values/token (latent, absorbing engines)")
            heads = t["num_attention_heads"]
            full = n * heads * (t["qk_nope_head_dim"] + rope + t["v_head_dim"])
            out["mla_decompressed_values_per_token"] = full
            out["mla_decompressed_formula"] = (f"{n} layers x {heads} heads x ({t['qk_nope_head_dim']} + {rope} + {t['v_head_dim']}) = "
                                               f"{full} values/token (transformers eager/SDPA caches per-head K and V)")
            if k == "mla+indexer":
                ih = t["index_head_dim"]
                b = n * (ih + ih // 128 * 4)
                out["indexer_bytes_per_token"] = b
                out["indexer_formula"] = f"{n} layers x ({ih} FP8 bytes + {ih // 128} x 4-byte FP32 scale) = {b} bytes/token"
        elif k == "linear":
            nk, nv = t["linear_num_key_heads"], t["linear_num_value_heads"]
            dk, dv, kk = t["linear_key_head_dim"], t["linear_value_head_dim"], t["linear_conv_kernel_dim"]
            conv_dim = 2 * nk * dk + nv * dv
            per = (kk - 1) * conv_dim + nv * dk * dv
            out["fixed_state_elements"] += n * per
            out["fixed_state_formula"].append(
                f"{n} Gated DeltaNet layers x (({kk}-1) x (2x{nk}x{dk} + {nv}x{dv}) conv + {nv}x{dk}x{dv} recurrent) = {n} x {per} = {n * per} elements")
        if k == "hybrid":
            nh, hdm = t["mamba_n_heads"], t["mamba_d_head"]
            ng, ds, dc = t.get("mamba_n_groups", 1), t["mamba_d_state"], t.get("mamba_d_conv", 4)
            di = t.get("mamba_d_ssm") or nh * hdm
            per = (dc - 1) * (di + 2 * ng * ds) + nh * hdm * ds
            out["fixed_state_elements"] += n * per
            out["fixed_state_formula"].append(
                f"{n} hybrid layers (attention + Mamba2 side by side) x (({dc}-1) x ({di} + 2x{ng}x{ds}) conv + {nh}x{hdm}x{ds} ssm) = {n} x {per} = {n * per} elements")
        elif k == "mamba2":
            if mt == "nemotron_h":
                nh, hdm, ng, ds, dc = t["mamba_num_heads"], t["mamba_head_dim"], t["n_groups"], t["ssm_state_size"], t["conv_kernel"]
            else:
                nh, hdm = t["mamba_n_heads"], t["mamba_d_head"]
                ng, ds, dc = t.get("mamba_n_groups", 1), t["mamba_d_state"], t.get("mamba_d_conv", 4)
            di = nh * hdm
            per = (dc - 1) * (di + 2 * ng * ds) + nh * hdm * ds
            out["fixed_state_elements"] += n * per
            out["fixed_state_formula"].append(
                f"{n} Mamba2 layers x (({dc}-1) x ({di} + 2x{ng}x{ds}) conv + {nh}x{hdm}x{ds} ssm) = {n} x {per} = {n * per} elements")
        elif k == "mamba1":
            di = t.get("mamba_expand", 2) * t["hidden_size"]
            ds, dc = t.get("mamba_d_state", 16), t.get("mamba_d_conv", 4)
            per = (dc - 1) * di + di * ds
            out["fixed_state_elements"] += n * per
            out["fixed_state_formula"].append(
                f"{n} Mamba1 layers x (({dc}-1) x {di} conv + {di}x{ds} ssm) = {n} x {per} = {n * per} elements")
        elif k == "none":
            out["growing_formula"].append(f"{n} KV-shared layers store nothing")
    sdt = t.get("mamba_ssm_cache_dtype") or t.get("mamba_ssm_dtype")
    if sdt and out["fixed_state_elements"]:
        out["fixed_state_dtype"] = sdt
    return out


def mlp_params(h, i, act=3):
    return act * h * i


def attn_params(mt, t, kind):
    h = t["hidden_size"]
    if kind in ("mla", "mla+indexer"):
        heads, r, rope, nope, v = (t["num_attention_heads"], t["kv_lora_rank"], t["qk_rope_head_dim"],
                                   t["qk_nope_head_dim"], t["v_head_dim"])
        ql = t.get("q_lora_rank")
        q = (h * ql + ql + ql * heads * (nope + rope)) if ql else h * heads * (nope + rope)
        p = q + h * (r + rope) + r + r * heads * (nope + v) + heads * v * h
        if kind == "mla+indexer":
            ih, inh = t["index_head_dim"], t["index_n_heads"]
            p += (ql or h) * inh * ih + h * ih + 2 * ih + h * inh
        return p
    heads, kv, hd = t["num_attention_heads"], t.get("num_key_value_heads", t["num_attention_heads"]), head_dim(t)
    qmul = 2 if (mt in ("qwen3_next", "qwen3_5", "qwen3_5_moe")) else 1   # gated attention: q_proj twice wide
    p = h * heads * hd * qmul + 2 * h * kv * hd + heads * hd * h
    if t.get("attention_bias") or mt in ("qwen2", "qwen2_moe") or t.get("qkv_bias"):
        p += heads * hd + 2 * kv * hd
        if mt == "gpt_oss":
            p += h + heads   # o_proj bias + per-head sinks
    if mt in ("qwen3", "qwen3_moe", "qwen3_next", "qwen3_5", "qwen3_5_moe", "gemma3", "gemma3_text", "gemma3n",
              "gemma4", "olmo3", "olmo2", "exaone4", "smollm3_no") or t.get("use_qk_norm"):
        p += 2 * hd
    return p


def moe_params(t, h, E, Ie, k, shared_I, act=3):
    total = E * act * h * Ie + E * h + shared_I * act * h
    active = k * act * h * Ie + E * h + shared_I * act * h
    return total, active


def params(mt, t):
    """Language-model parameters (total, active); norms are counted as hidden-size vectors."""
    # class defaults where the fixture has no vocab_size (transformers config classes)
    V_DEFAULT = {"olmo3": 50304, "granitemoehybrid": 32000}
    h, V = t["hidden_size"], t.get("vocab_size", V_DEFAULT.get(mt))
    kinds = layer_kinds(mt, t)
    L = len(kinds)
    tie = t.get("tie_word_embeddings", mt in ("hunyuan_v1_moe", "gemma3", "gemma3_text", "gemma3n", "gemma4", "cohere2", "smollm3",
                                              "ernie4_5_moe"))
    emb = V * h
    total = active = emb + (0 if tie else emb) + h
    if mt in ("gemma3n",):
        ple = t["vocab_size_per_layer_input"] * L * t["hidden_size_per_layer_input"]
        total += ple; active += ple
    for i, kind in enumerate(kinds):
        lt = 2 * h
        la = 0
        if kind in ("full", "sliding", "chunked", "none", "mla", "mla+indexer", "hybrid"):
            la += attn_params(mt, t, kind)
        if kind == "linear":
            nk, nv, dk, dv, kk = (t["linear_num_key_heads"], t["linear_num_value_heads"], t["linear_key_head_dim"],
                                  t["linear_value_head_dim"], t["linear_conv_kernel_dim"])
            conv_dim = 2 * nk * dk + nv * dv
            la += h * (2 * nk * dk + 2 * nv * dv) + h * 2 * nv + conv_dim * kk + 2 * nv + dv + nv * dv * h
        if kind == "hybrid":
            nh, hdm, ng, ds, dc = t["mamba_n_heads"], t["mamba_d_head"], t.get("mamba_n_groups", 1), t["mamba_d_state"], t.get("mamba_d_conv", 4)
            di = t.get("mamba_d_ssm") or nh * hdm
            cd = di + 2 * ng * ds
            la += h * (2 * di + 2 * ng * ds + nh) + cd * dc + cd + 3 * nh + di + di * h
        if kind == "mamba2":
            if mt == "nemotron_h":
                nh, hdm, ng, ds, dc = t["mamba_num_heads"], t["mamba_head_dim"], t["n_groups"], t["ssm_state_size"], t["conv_kernel"]
            else:
                nh, hdm, ng, ds, dc = t["mamba_n_heads"], t["mamba_d_head"], t.get("mamba_n_groups", 1), t["mamba_d_state"], t.get("mamba_d_conv", 4)
            di = nh * hdm
            cd = di + 2 * ng * ds
            la += h * (2 * di + 2 * ng * ds + nh) + cd * dc + cd + 3 * nh + di + di * h
        if kind == "mamba1":
            di = t.get("mamba_expand", 2) * h
            ds, dc = t.get("mamba_d_state", 16), t.get("mamba_d_conv", 4)
            r = t.get("mamba_dt_rank", math.ceil(h / 16))
            la += h * 2 * di + di * dc + di + di * (r + 2 * ds) + r * di + di + di * ds + di + di * h + r + 2 * ds
        lt += la
        lact = la
        # MLP part of the layer
        mp = mpa = 0
        if mt == "nemotron_h":
            if kind == "mlp":
                mp = mpa = mlp_params(h, t["intermediate_size"], 2)
            elif kind == "moe":
                mp, mpa = moe_params(t, h, t["n_routed_experts"], t["moe_intermediate_size"], t["num_experts_per_tok"],
                                     t.get("moe_shared_expert_intermediate_size", 0) * t.get("n_shared_experts", 1), 2)
                mp += t["n_routed_experts"]; mpa += t["n_routed_experts"]   # e_score_correction_bias
            lt = lt - 2 * h + h; lact = la   # one norm per Nemotron-H block
        elif mt == "granitemoehybrid":
            E = t.get("num_local_experts", 0)
            si = t.get("shared_intermediate_size", 0)
            if E:
                mp, mpa = moe_params(t, h, E, t["intermediate_size"], t["num_experts_per_tok"], si)
            else:
                mp = mpa = mlp_params(h, si)
        elif mt == "jamba":
            if i % t.get("expert_layer_period", 2) == t.get("expert_layer_offset", 1):
                mp, mpa = moe_params(t, h, t["num_experts"], t["intermediate_size"], t["num_experts_per_tok"], 0)
            else:
                mp = mpa = mlp_params(h, t["intermediate_size"])
        elif mt in ("deepseek_v3", "deepseek_v32", "glm4_moe", "glm_moe_dsa"):
            if i < t.get("first_k_dense_replace", 0):
                mp = mpa = mlp_params(h, t["intermediate_size"])
            else:
                mp, mpa = moe_params(t, h, t["n_routed_experts"], t["moe_intermediate_size"], t["num_experts_per_tok"],
                                     t.get("n_shared_experts", 0) * t["moe_intermediate_size"])
                mp += t["n_routed_experts"]; mpa += t["n_routed_experts"]   # e_score_correction_bias
        elif mt in ("qwen3_moe", "qwen2_moe", "qwen3_next", "qwen3_5_moe"):
            step = t.get("decoder_sparse_step", 1)
            if i in t.get("mlp_only_layers", []) or (i + 1) % step != 0:
                mp = mpa = mlp_params(h, t["intermediate_size"])
            else:
                si = t.get("shared_expert_intermediate_size", 0)
                mp, mpa = moe_params(t, h, t["num_experts"], t["moe_intermediate_size"], t["num_experts_per_tok"], si)
                if si:
                    mp += h; mpa += h   # shared_expert_gate
        elif mt == "gpt_oss":
            E, I = t["num_local_experts"], t["intermediate_size"]
            k = t.get("num_experts_per_tok", t.get("experts_per_token"))
            per = 3 * h * I + 2 * I + h   # gate_up (with bias) + down (with bias)
            mp = E * per + E * h + E
            mpa = k * per + E * h + E
        elif mt in ("llama4", "llama4_text"):
            step = t.get("interleave_moe_layer_step", 1)
            moe_layers = t.get("moe_layers") or list(range(step - 1, L, step))
            if i in moe_layers:
                E, I = t["num_local_experts"], t["intermediate_size"]
                mp = E * 3 * h * I + E * h + 3 * h * I
                mpa = 3 * h * I + E * h + 3 * h * I
            else:
                mp = mpa = mlp_params(h, t["intermediate_size_mlp"])
        elif mt == "hunyuan_v1_moe":
            # per-layer lists (moe_intermediate_size, moe_topk, num_shared_expert); the shared MLP
            # (use_mixed_mlp_moe) is intermediate_size x num_shared_expert wide
            pick = lambda v: v[i] if isinstance(v, list) else v
            shared = t["intermediate_size"] * pick(t.get("num_shared_expert", 1)) if t.get("use_mixed_mlp_moe") else 0
            mp, mpa = moe_params(t, h, t["num_experts"], pick(t["moe_intermediate_size"]), pick(t["moe_topk"]), shared)
        elif mt == "minimax_m2":
            mp, mpa = moe_params(t, h, t["num_local_experts"], t["intermediate_size"], t["num_experts_per_tok"], 0)
            mp += t["num_local_experts"]; mpa += t["num_local_experts"]
        elif mt == "ernie4_5_moe":
            start, interval = t.get("moe_layer_start_index", 1), t.get("moe_layer_interval", 1)
            if i >= start and (i - start) % interval == 0:
                mp, mpa = moe_params(t, h, t["moe_num_experts"], t["moe_intermediate_size"], t["moe_k"],
                                     t["moe_intermediate_size"] * t.get("moe_num_shared_experts", 0))
            else:
                mp = mpa = mlp_params(h, t["intermediate_size"])
        elif mt in ("gemma4",) and t.get("enable_moe_block"):
            dense = mlp_params(h, t["intermediate_size"])
            mp, mpa = moe_params(t, h, t["num_experts"], t["moe_intermediate_size"], t["top_k_experts"], 0)
            mp += dense; mpa += dense
        else:
            mp = mpa = mlp_params(h, t["intermediate_size"])
        if mt in ("gemma3", "gemma3_text", "gemma3n", "gemma4", "glm4"):
            lt += 2 * h   # post-attention and post-feedforward norms
        total += lt + mp
        active += (lt - la) + lact + mpa
    return total, active


def siglip_params(v):
    h, i, L = v["hidden_size"], v["intermediate_size"], v["num_hidden_layers"]
    per = 4 * (h * h + h) + (h * i + i) + (i * h + h) + 4 * h
    patches = (v["image_size"] // v["patch_size"]) ** 2
    return L * per + 3 * v["patch_size"] ** 2 * h + h + patches * h + 2 * h


def derive(path):
    c = json.load(open(path))
    mt = c["model_type"]
    t = text_cfg(c)
    tmt = mt if mt not in ("gemma3",) else "gemma3"
    r = {"model_type": mt, "cache": cache(tmt, t)}
    tot, act = params(tmt, t)
    r["text_params_derived"] = tot
    r["text_active_params_derived"] = act
    v = c.get("vision_config")
    if v and v.get("model_type") == "siglip_vision_model":
        r["vision_params_derived"] = siglip_params(v) + v["hidden_size"] * t["hidden_size"] + v["hidden_size"]
    mtp = t.get("num_nextn_predict_layers") or t.get("mtp_num_hidden_layers")
    if mtp:
        r["mtp_layers"] = mtp
    return r


def main():
    res = {}
    for p in sorted(glob.glob(os.path.join(HERE, "*.json"))):
        name = os.path.basename(p)
        if name in ("expected.json", "catalog_additions.json", "accuracy_candidates.json"):
            continue
        res[name] = derive(p)
    if "--check" in sys.argv:
        # expected.json's derived blocks must equal what this script derives from the fixtures now
        exp = json.load(open(os.path.join(HERE, "expected.json")))["models"]
        bad = 0
        for name, r in res.items():
            e = exp.get(name)
            c = r["cache"]
            ok = (e is not None and e["derived"]["text_params"] == r["text_params_derived"]
                  and e["derived"]["text_active_params"] == r["text_active_params_derived"]
                  and e["cache"]["growing_values_per_token"] == c["growing_values_per_token"]
                  and e["cache"]["fixed_state_elements_per_sequence"] == c["fixed_state_elements"]
                  and [x["values_per_token"] for x in e["cache"]["capped"]] == [x["values_per_token"] for x in c["capped"]])
            if not ok:
                bad += 1
                print("MISMATCH", name)
        print(f"{len(res) - bad} of {len(res)} fixtures match expected.json")
        sys.exit(1 if bad else 0)
    if "--json" in sys.argv:
        print(json.dumps(res, indent=1))
        return
    for name, r in res.items():
        c = r["cache"]
        print(f"== {name} ({r['model_type']}): {c['layers']} layers {c['layer_kinds']}")
        for f in c["growing_formula"]:
            print("   grows:", f)
        print(f"   growing total: {c['growing_values_per_token']} values/token")
        for cp in c["capped"]:
            print("   capped:", cp["formula"])
        for f in c["fixed_state_formula"]:
            print("   fixed:", f)
        if c.get("indexer_formula"):
            print("   indexer:", c["indexer_formula"])
        if c.get("mla_decompressed_formula"):
            print("   transformers MLA:", c["mla_decompressed_formula"])
        print(f"   text params {r['text_params_derived'] / 1e9:.3f}B, active {r['text_active_params_derived'] / 1e9:.3f}B"
              + (f", vision {r['vision_params_derived'] / 1e9:.3f}B" if "vision_params_derived" in r else "")
              + (f", mtp layers {r['mtp_layers']}" if "mtp_layers" in r else ""))


if __name__ == "__main__":
    main()
