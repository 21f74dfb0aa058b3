// hub_model.hpp (internal): a configuration's model on the Hugging Face Hub (hub_model.cpp).
//
//   "model": {"hub": "org/name", "revision": "main", "file": "name-Q4_K_M.gguf",
//             "hf_config": {...},                       config.json, when no file is named
//             "gguf_headers": {"name-Q4_K_M.gguf": "<base64>"}}   the file's header, when one is
//
// The core does no I/O: the browser (web/site/hub.mjs, gs.fromHub) fetches config.json or the
// GGUF header and writes it into the model; a model naming a repository without them is kept
// (links carry only the repository), and estimate() refuses it naming model.hub.
//
//   "model": {"file": "name.gguf", "gguf_headers": {"name.gguf": "<base64>"}}
//
// without "hub" is a GGUF file a page read from the reader's disk (dropped or picked): sized
// from its header as a Hub file is; its link names the file (gguf=), which only that reader has.
#pragma once

#include <nlohmann/json.hpp>

#include "gpusizer/config.hpp"

namespace gpusizer {

// The model object with "hub" (or a local file's "gguf_headers"); throws Error naming model.<field>.
ModelSpec model_from_hub_value(const nlohmann::json& m);

// The checks estimate() makes: a Hub model without what was fetched gets an Error naming
// model.hub that says what to do instead.
void check_hub_model_fetched(const ModelSpec& m);

}  // namespace gpusizer
