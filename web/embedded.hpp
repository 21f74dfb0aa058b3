// web/embedded.hpp: the data the browser build carries inside its .wasm (generated at build
// time by web/embed_files.cmake), so that a page makes no request but for its own files.
#pragma once

#include <cstddef>
#include <string_view>

#include "gpusizer/catalog.hpp"

namespace gpusizer::web {

// assets/gpus.json, models.json and links.json as they were at build time.
std::string_view embedded_gpus_json();
std::string_view embedded_models_json();
std::string_view embedded_links_json();

// The catalog read from them, once (catalog_from_json; the same checks as the CLI's).
const Catalog& embedded_catalog();

}  // namespace gpusizer::web
