// gpusizer/inspect.hpp: the JSON of `gpusizer inspect --json` and `gpusizer reconcile --json`,
// one implementation for the CLI and the JavaScript API (gs.inspect, gs.reconcile).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "gpusizer/catalog.hpp"
#include "gpusizer/model_file.hpp"

namespace gpusizer {

// What a GGUF model (all split parts) or a safetensors model (all shards; `config_json` = the
// folder's config.json text, "" when none) holds: format, files, header bytes, architecture and
// hyperparameters (GGUF), metadata, tensor types with counts, parameters (by logical shape) and
// bytes, by class, by layer and by part (text, vision, audio, MTP), the tensor list (GGUF), the
// quantized layouts (safetensors). `projector` (may be null): the mmproj file beside a GGUF
// model, reported as its `projector` and counted in its parts; a projector file alone reports
// its encoders.
std::string gguf_model_json(const GgufModel& m, const GgufModel* projector = nullptr);
std::string safetensors_model_json(const SafetensorsModel& m, std::string_view config_json);

// One header's bytes (the whole file, or its first bytes: enough to hold the header), GGUF when
// they start with "GGUF", else safetensors. `name` is what errors call it. `file_size` is the
// size of the file the bytes begin: given, the tensors must end within it (a truncated file is
// an error); nullopt, the bytes may be a prefix of a file of any size.
std::string inspect_bytes_json(const std::string& name, std::string_view bytes,
                               std::optional<std::uint64_t> file_size = std::nullopt);

// An engine's startup log beside the estimate of the configuration it describes: the log's
// figures, `estimate` {config, model, source, components [{name, meaning, log, estimate,
// difference, ratio}], notes} or null with `estimate_error`. `config_json` holds configuration
// keys that win over what the log says ("" = none); `open` reads the files a gguf / hf_dir key
// names (may be empty: then such keys are refused); `catalog` may be null (no estimate).
// Throws Error("log", ...) when no line of a known engine is recognised.
std::string reconcile_json(std::string_view log_text, const Catalog* catalog, std::string_view config_json,
                           const SourceOpener& open);

}  // namespace gpusizer
