// slim_catalog.mjs: the catalog the widget's module carries (gpusizer-lite.wasm). The same
// entries and figures as assets/, minified and stored by columns, without what a calculation never
// reads (notes, lists of unverified cells, published counts as printed, the seed article's rows,
// hf_config keys the importer never reads, chip names, form factors and Hub repositories); each
// entry's sources become a pointer to the full asset file.
// With --all-fields: the catalog the app and the full API module carry, every field an estimate,
// a view or the API reads kept, minified and stored by columns; GPUs' and models' notes and
// sources (which nothing there reads) as the widget's (below).
//   node web/slim_catalog.mjs [--all-fields] assets/gpus.json out/gpus.json
import { readFileSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';

const allFields = process.argv[2] === '--all-fields';
const [input, output] = process.argv.slice(allFields ? 3 : 2);
if (!input || !output) {
  console.error('usage: node slim_catalog.mjs [--all-fields] IN.json OUT.json');
  process.exit(2);
}
// Even with every field, a GPU's or a model's prose stays behind: the catalog reader reads its
// note and unverified list and keeps neither in any form the app or the API shows (catalog_io.cpp
// read_provenance: only a link keeps its note, and `gs.links()` its sources), so they become what
// the widget's catalog carries: no note, and the sources as a pointer to the asset file (44 KB
// gzipped of gpus.json's 55). Links keep everything.
const proseless = allFields && basename(input) !== 'links.json';
function dropProse(entry) {
  if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) return entry;
  const out = {};
  for (const [key, v] of Object.entries(entry)) {
    if (key === 'note' || key === 'notes' || key === 'unverified') continue;
    out[key] = key === 'sources' ? [`assets/${file} in the gpusizer sources`] : v;
  }
  return out;
}
const file = basename(input);
// Prose, and the published parameter counts as printed with their conventions (they serve the
// catalog's own check against the derived counts, tests/test_params.cpp, not an estimate).
// The seed article's table rows too: the app's comparison view shows them, the widget does not.
// A GPU's chip name (optional) too: the app's Compare view shows it, the widget does not, and no
// estimate reads it.
const dropped = new Set(['note', 'notes', 'price_note', 'unverified', 'params_published_as', 'active_params_published_as',
  'params_convention', 'active_params_convention', 'seed_article', 'chip']);
// Descriptive text the catalog reader requires but neither the widget nor any estimate reads: a
// GPU's form factor (the app's Compare view shows it) and a model's Hugging Face repository (the
// app's model inspector matches files by it): kept as "", so the widget's lists (gs.gpus(),
// gs.models()) say nothing rather than carry 1.8 KB of gzipped prose the widget never shows.
const blanked = new Set(['form_factor', 'hf_repo']);
// Inside a model's hf_config (and its text_config / vision_config ...): keys the importer lists
// as never read (core/src/hf_import.cpp and core/src/hf_rows.cpp irrelevant_everywhere: token
// ids, dropout, epsilons, activations, RoPE, soft-capping, initialisation, router loss
// coefficients, bookkeeping; no other line of the core names them), so that the estimate, and
// the importer's warnings, are the same without them.
const unread = new Set(['bos_token_id', 'eos_token_id', 'pad_token_id', 'sep_token_id', 'unk_token_id', 'eod_token_id',
  'decoder_start_token_id', 'image_token_id', 'image_token_index', 'video_token_id', 'audio_token_id', 'boi_token_id',
  'eoi_token_id', 'boi_token_index', 'eoi_token_index', 'boa_token_id', 'eoa_token_id', 'eoa_token_index',
  'vision_start_token_id', 'vision_end_token_id', 'vision_token_id', 'transformers_version', '_name_or_path',
  'initializer_range', 'use_cache', 'attention_dropout', 'hidden_dropout', 'resid_pdrop', 'embd_pdrop', 'attn_pdrop',
  'router_aux_loss_coef', 'output_router_logits', 'router_jitter_noise', 'router_z_loss_coef',
  '_attn_implementation_autoset', 'for_llm_compressor', 'unsloth_version', 'rms_norm_eps', 'layer_norm_eps',
  'layer_norm_epsilon', 'norm_eps', 'norm_epsilon', 'architectures', 'hidden_act', 'hidden_activation', 'rope_theta',
  'rope_local_base_freq', 'rope_scaling', 'swiglu_limit', 'attn_logit_softcapping', 'final_logit_softcapping',
  'query_pre_attn_scalar', 'rope_parameters', 'rope_type', 'original_max_position_embeddings', 'partial_rotary_factor',
  'norm_topk_prob', 'routed_scaling_factor', 'mrope_section', 'use_bidirectional_attention', 'initial_context_length',
  // Serialisation fields some vision_config copies carry (Gemma 4's); the tower reader never reads them.
  'id2label', 'label2id', 'chunk_size_feed_forward', 'return_dict', 'output_hidden_states', 'output_attentions',
  'problem_type']);
// A tower's sub-config (vision_config, audio_config): only the keys the tower reader reads
// (core/src/hf_stack.cpp read_tower); the rest of a vision encoder's config sizes nothing here.
const towerKeys = new Set(['model_type', 'num_hidden_layers', 'depth', 'num_layers', 'conf_num_hidden_layers', 'encoder_layers',
  'hidden_size', 'embed_dim', 'd_model', 'width', 'intermediate_size', 'mlp_dim', 'encoder_ffn_dim', 'num_attention_heads',
  'num_heads', 'conf_num_attention_heads', 'encoder_attention_heads', 'attention_heads', 'patch_size', 'num_channels',
  'in_channels', 'in_chans', 'image_size', 'vision_output_dim', 'out_hidden_size', 'output_proj_dims',
  // The MLP's width by ratio, a gated (SiLU) MLP, Mllama's global layers.
  'mlp_ratio', 'hidden_act', 'num_global_layers']);
const towers = new Set(['vision_config', 'audio_config']);
function slim(value, inConfig = false, inTower = false) {
  if (Array.isArray(value)) return value.map((v) => slim(v, inConfig, inTower));
  if (value === null || typeof value !== 'object') return value;
  const out = {};
  for (const [key, v] of Object.entries(value)) {
    if (inTower) {
      if (towerKeys.has(key)) out[key] = v;
      continue;
    }
    if (inConfig && towers.has(key) && v !== null && typeof v === 'object' && !Array.isArray(v)) {
      out[key] = slim(v, true, true);
      continue;
    }
    if (dropped.has(key) || (inConfig && unread.has(key))) continue;
    out[key] = key === 'sources' ? [`assets/${file} in the gpusizer sources`]
      : !inConfig && blanked.has(key) ? ''
        : slim(v, inConfig || key === 'hf_config');
  }
  return out;
}
// The entry list by columns (core/src/catalog_io.cpp entries_from_columns reads it back into the
// same entries): each field's values side by side compress better than entry after entry, 2-3 KB
// of the widget's gzipped download. An object field whose every value is a flat object of numbers
// and strings (tensor_tflops_dense, interconnect) becomes one column per inner field, "a.b"; a
// field an entry lacks is null there, which the catalog reader takes as absent wherever it takes a
// null (a field that must be present, such as price_usd, is present in every entry).
const isFlat = (v) => v !== null && typeof v === 'object' && !Array.isArray(v) &&
  Object.values(v).every((x) => x === null || typeof x !== 'object');
function byColumns(entries) {
  const names = [];
  for (const e of entries) for (const k of Object.keys(e)) if (!names.includes(k)) names.push(k);
  const columns = {};
  for (const k of names) {
    if (entries.every((e) => isFlat(e[k]))) {
      const inner = [];
      for (const e of entries) for (const f of Object.keys(e[k])) if (!inner.includes(f)) inner.push(f);
      for (const f of inner) columns[`${k}.${f}`] = entries.map((e) => (f in e[k] ? e[k][f] : null));
    } else {
      columns[k] = entries.map((e) => (k in e ? e[k] : null));
    }
  }
  return { columns };
}
const read = JSON.parse(readFileSync(input, 'utf8'));
const catalog = allFields ? read : slim(read);
if (proseless) for (const k of Object.keys(catalog)) if (Array.isArray(catalog[k])) catalog[k] = catalog[k].map(dropProse);
for (const k of Object.keys(catalog)) if (Array.isArray(catalog[k])) catalog[k] = byColumns(catalog[k]);
writeFileSync(output, JSON.stringify(catalog));
