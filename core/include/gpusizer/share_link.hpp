// gpusizer/share_link.hpp: the share link, one format for the desktop app, the browser and the CLI.
//
// A link is a URL fragment of short keys, versioned and readable:
//   #v=1&m=llama-3-70b&w=q4_k_m&g=rtx-4090x2&ctx=8192
// Only keys that differ from the defaults are written. Reading a link goes through the same
// validation as a configuration file (config_from_json), so a bad or hostile link gets the
// same one-line message naming the key, and its values are only ever data.
//
// Keys (link key = configuration key): v = link version (1), m = model (catalog id, or
// "custom" with hf = the hf_config JSON or np = num_parameters), hf = a Hugging Face repository
// (org/name, without m; a repository id never starts with '{', a config.json always does) with
// f = its GGUF file and rev = its revision, mode, w = weights,
// kv = kv_cache, b = batch, gb = global_batch, ctx = context, opt = optimizer, z = zero,
// off = offload, rc = recompute, fa = flash_attention (0/1), sp = sequence_parallel (0/1),
// lr = lora_rank, lt = lora_targets (comma list), g = gpu with "x<count>" (gpus), tp, pp, dp,
// ep, rt = runtime, gmu = gpu_memory_utilization, qg = quant_group_size, pc = prefill_chunk,
// tt = train_tokens, mfu, bwe = bandwidth_efficiency, u = utilization, pue, kwh = usd_per_kwh,
// l = link, il = inter_node_link, pt = prompt_tokens, hbw = host_memory_bandwidth_gb_per_s,
// lo = layer_overhead_us, mns = max_num_seqs (the rest as `gpusizer keys` lists them).
// lang (en, pt-BR) is the app's language: read past here, it changes no estimate.
//
// A custom GPU (Config::custom_gpu, gpusizer/custom_gpu.hpp) is g=custom (with "x<count>") and
// gc = its fields as "<key>:<value>" joined by '~', each by its short key (`gpusizer keys --gpu`),
// b = its base: g=customx2&gc=b:rtx-4090~bw:1100~tdp:500. Its values are %-encoded with '~'
// escaped too (a name may hold any character); gc is split on '~' and ':' before it is decoded,
// and its numbers are written in as many digits as read back to the same value.
//
// Numbers (every numeric key, v, np and the GPU count) are written as in JSON (RFC 8259 section
// 6), read after %-decoding: an optional '-', 0 or digits without a leading zero, an optional
// fraction and exponent, and nothing else: no '+' (it reads as a space: write an exponent's sign
// as %2B), spaces, hex, inf or nan. An integer key
// takes any such number whose value is whole: ctx=8192, ctx=8192.0 and ctx=8.192e3 are the
// same; ctx=8192.5, ctx=+8192, ctx=%208192, ctx=0x2000 and ctx=08192 are refused, naming the key.
#pragma once

#include <string>
#include <string_view>

#include "gpusizer/config.hpp"

namespace gpusizer {

constexpr int kLinkVersion = 1;

// "#v=1&m=...": the configuration's non-default keys.
std::string link_from_config(const Config& config);

// Accepts a whole URL ("https://host/page#v=1&..."), a fragment ("#v=1&...") or the bare
// query ("v=1&..."). Throws Error naming the link key (or the configuration key it maps to).
Config config_from_link(std::string_view link);

// The link key of a configuration key ("weights" -> "w"), or "" when links do not carry it.
// model, gpu and gpus travel as m (with hf or np) and g.
std::string_view link_key_of(std::string_view config_key);

}  // namespace gpusizer
