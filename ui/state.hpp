// ui/state.hpp: what the UI holds, and the logic between it, the configuration and links.
// No ImGui here: tests/test_ui_state.cpp checks this file on its own.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpusizer/gpusizer.hpp"
#include "i18n.hpp"

namespace gpusizer::ui {

// Where the model comes from. `file`: a checkpoint's headers (a GGUF file, a safetensors
// snapshot folder) that the platform read: the desktop app only.
enum class ModelSource { catalog, parameters, numbers, hf_config, file };

// A model read from its files' headers (the configuration's gguf / hf_dir key and the model
// load_model_files made of it), kept while another source is shown.
struct ModelFileInput {
    bool loaded = false;
    std::string gguf, hf_dir;       // one of them: the path as opened
    std::string mmproj;             // with gguf: the projector file read with it ("" = none)
    ModelSpec model;                // model.arch.source "gguf" or "safetensors", exact bytes in arch.file
};

// The recommendations view's constraints (RecommendQuery without the configuration). They are
// questions about the configuration, not part of it, so links do not carry them.
struct RecommendInputs {
    std::optional<double> budget_usd;         // none: no limit
    std::optional<double> power_cap_w;        // system power; none: no limit
    std::optional<double> min_tokens_per_s;   // none: no minimum
    bool single_node = false;
    bool segments[4] = {true, true, true, true};   // consumer, workstation, datacenter, apple
    int max_gpus = 8;
};

// The columns a user can sort the recommendations by.
enum class RecommendColumn { gpu, gpus, per_gpu, price, tokens_per_s, power, link, own, rent };

// A gpusizer-cuda-bench report the user opened (desktop: a path or a dropped file; browser: the
// file picker), and whether its figures replace the datasheet's in the estimates.
struct MeasuredInput {
    bool loaded = false;
    MeasuredReport report;
    std::string file;               // the name it was opened as
    bool use = true;
};

// One column of the compare view.
struct CompareColumn {
    std::string gpu;
    int gpus = 1;
};

struct UiState {
    Config config;                                  // as the user set it (defaults unresolved)
    ModelSource source = ModelSource::catalog;
    std::string catalog_model = "llama-3-70b";      // remembered while a custom model is shown
    double custom_params_b = 7.0;                   // billions, ModelSource::parameters
    ModelShape numbers;                             // ModelSource::numbers: a custom dense or MoE model
    std::string hf_text;                            // ModelSource::hf_config: the pasted config.json
    ModelFileInput file;                            // ModelSource::file: the opened model file
    std::string model_error;                        // why the custom model could not be read
    bool manual_parallel = false;                   // false: tp/pp/dp chosen from the GPU count
    std::vector<CompareColumn> compare;             // the compare view's GPU choices
    RecommendInputs recommend;                      // the recommendations view's constraints
    MeasuredInput measured;                         // an opened benchmark report
    std::string link_text;                          // the "open link" field
    // A configuration pinned to compare the current one with ("Pinned" tab); links carry it as
    // &pin=<its link's keys, percent-encoded>.
    std::optional<Config> pinned;
    // The app's language (i18n.hpp): the platform's (the browser's, the desktop's locale) until
    // the user picks one or a link names one (&lang=pt-BR); only a chosen one goes into links.
    Language language = Language::en;
    bool language_chosen = false;
    std::string message;                            // last action's message (link copied, link refused, ...)
    bool message_is_error = false;
};

// The state the app opens with: Llama 3 70B, Q4_K_M, 2 x RTX 4090, 8192 tokens, and the seed
// article's comparison (RTX 4090, RTX A6000, RTX 6000 Ada) in the compare view.
UiState default_state();

// "Report" in the link bar: the report as text (what the CLI prints), CSV (dotted keys) or JSON
// (the CLI's --json), to copy or download.
enum class ReportFormat { text, csv, json };
struct ReportExport {
    std::string text, mime;
    const char* extension;   // ".txt", ".csv", ".json"
    const char* label;       // "text", "CSV", "JSON"
};
ReportExport report_export(const Report& r, ReportFormat format);

// Applies the custom-model inputs to config.model (returns false and sets model_error if the
// numbers or the pasted config.json cannot be used; the config keeps its previous model).
bool apply_model_source(UiState& s);

// Nesting limit for JSON the app is given (a link's hf= value, a pasted or dropped
// configuration, a pasted config.json, a benchmark report): deeper than any real one (3 to 4
// levels), far below the depth at which the core's recursive JSON writer overflows the
// browser's stack (about 7,000). Throws Error naming the key path where it is too deep
// (prefix first, `what` when no key leads there).
constexpr int kMaxJsonDepth = 100;
void check_json_nesting(std::string_view text, const std::string& prefix, const std::string& what);
// The same for each JSON value (after %-decoding) of a share link.
void check_link_nesting(std::string_view link);

// Share links.
std::string link_of(const UiState& s);
// Loads a link; on failure (a malformed link, or one naming a model or GPU the catalog does not
// have) the state is unchanged and `message` says why. A link or configuration naming a model
// file (gguf / hf_dir) reads its headers through `open` (none: refused with the core's message).
// `hub_pending`: a link whose model is on the Hugging Face Hub and not fetched yet (hf=org/name)
// is taken as it is, its other keys kept, for the platform to fetch the model (the message says
// it is loading); without it such a link is refused.
bool open_link(UiState& s, std::string_view link, const Catalog& catalog, const SourceOpener& open = {}, bool hub_pending = false);
// Loads a configuration file's text (JSON) the same way; a Hugging Face config.json
// (looks_like_hf_config) becomes the current configuration's model (open_model_text).
bool open_config_text(UiState& s, std::string_view json_text, const Catalog& catalog, const SourceOpener& open = {});

// Makes a model file the configuration's model: `key` "gguf" (a GGUF file, any split part) or
// "hf_dir" (a folder with config.json + safetensors), read through `open` (headers only). The
// weights become the file's own (a GGUF's file type; a safetensors checkpoint's native format).
// On failure (unreadable, an architecture the core does not know, a model the estimate refuses)
// the state is unchanged and `message` says why, naming the file.
bool open_model_file(UiState& s, const std::string& key, const std::string& path, const Catalog& catalog, const SourceOpener& open);
// Makes a model given as text the configuration's model, as open_model_file does: a Hugging Face
// config.json, or {"model": ..., "weights"?: ...} (what the browser read: a GGUF file's header
// from the reader's disk, {"file", "gguf_headers"}, or a Hub model, web/site/hub.mjs), whose
// model and format replace the configuration's; its other keys stay. `keep_weights`: the
// configuration's format stays unless the text names one other than the file's own (a link
// opened with its format). `name` names the model in the message.
bool open_model_text(UiState& s, const std::string& name, std::string_view text, const Catalog& catalog, bool keep_weights = false);

// Opens a file's text: a gpusizer-cuda-bench report (kept in s.measured) or a configuration
// JSON. `name` names the file in messages. On failure the state is unchanged and `message` says why.
bool open_file_text(UiState& s, std::string_view name, std::string_view text, const Catalog& catalog, const SourceOpener& open = {});
// True when the text is a gpusizer-cuda-bench report rather than a configuration.
bool looks_like_measured_report(std::string_view text);
// The opened benchmark report laid over the chosen GPU (EstimateOptions::measured, fit(),
// recommend()), when a report is open and in use; empty otherwise. Throws Error("measured") when
// the report cannot calibrate the chosen GPU (it measured another one, or holds no measurement).
GpuOverlay measured_overlay_of(const UiState& s, const Catalog& catalog);

// The recommendation query of the state: its configuration (GPU and count left to the search)
// and its constraints. With no GPU class ticked the query's segments are empty, which means all:
// the view checks any_segment() first.
bool any_segment(const RecommendInputs& in);
RecommendQuery recommend_query(const UiState& s);
// Sorts recommendations by a column; rows without the column's figure (an unknown price) go
// last in either direction, ties keep the GPU catalog order.
void sort_recommendations(std::vector<RecommendRow>& rows, RecommendColumn column, bool ascending);
// A search field's match: the filter's tokens (split at spaces and hyphens), each in `a`, or each
// in `b`, whatever the case ("qwen2.5 7b" finds Qwen2.5-7B).
bool filter_matches(const std::string& filter, const std::string& a, const std::string& b);

// Parallelism kept consistent with the GPU count and the model's heads and layers.
std::vector<int> tp_choices(const ModelArch& arch, int gpus);   // divisors of gpus that divide the heads
std::vector<int> pp_choices(const ModelArch& arch, int gpus, int tp);
// Context-parallel degrees for the current tp, GPU count and context (training only; {1} else).
std::vector<int> cp_choices(const Config& c);
void set_gpu_count(UiState& s, int gpus, const ModelArch* arch);
void set_manual_parallel(UiState& s, bool manual, const ModelArch* arch);

// The workload's rules, kept here where tests reach them. set_mode switches the mode and keeps
// the configuration valid: QLoRA gets NF4 weights; training replaces quantized (or "native")
// weights with bf16; inference drops ZeRO and offload; training leaves a serving engine (they run
// inference only) for the automatic runtime; the global batch and the split are redone.
void set_mode(UiState& s, Mode mode, const ModelArch* arch);
// Switches the runtime: an engine's memory fraction (SGLang's mem_fraction_static, TensorRT-LLM's
// free_gpu_memory_fraction) goes with its engine, since the estimate refuses it on another; the
// split is redone.
void set_runtime(UiState& s, Runtime runtime, const ModelArch* arch);
// Offload needs ZeRO: of the optimizer from stage 1, of the parameters too at stage 3.
bool offload_allowed(Offload offload, int zero_stage);
// Sets the ZeRO stage, stepping the offload down to what the stage allows.
void set_zero_stage(Config& c, int stage);

// The responsive layout, decided in one place from the window's width in CSS pixels (logical
// pixels on the desktop): below kOneColumnBelow one scrolling column (phones), results first
// and the setup in collapsed sections; above it the setup panel on the left and the results
// on the right, the panel taking 45% up to 390 px.
constexpr float kOneColumnBelow = 700.0f;
struct ScreenLayout {
    bool one_column = false;
    float setup_fraction = 0.45f;   // of the width, two columns only
};
ScreenLayout screen_layout(float width_css);

// The "Pinned" tab: one figure of the pinned and the current report, as text, and how the
// current differs ("+1.25 GiB", "-12%", "" when equal or not comparable).
struct PinnedRow {
    std::string figure, pinned, now, difference;
    bool heading = false;   // a group's title row (the other columns empty)
};
std::vector<PinnedRow> pinned_rows(const Report& pinned, const Report& now);

// The "Run it" panel (view_launch.cpp): which of the report's launch commands it shows, the
// engine last chosen when the report still has it, else the first (the configuration's runtime's);
// -1 when there is none (training, or no engine runs it).
int launch_choice(const std::vector<std::pair<Runtime, std::string>>& commands, Runtime chosen);

// The rows of a strip that wraps where it would otherwise scroll (the results' tabs: on a phone
// a scrolling tab bar hid the last tabs past the screen's edge). Items keep their order and
// widths; neighbours on a row are `spacing` apart and a row is at most `avail` wide; an item
// wider than `avail` takes a row of its own. As few rows as filling each in turn gives, their
// widths evened out (the last row is not left with a lone item). Returns each row's first
// index (none for no items).
std::vector<int> wrap_rows(const std::vector<float>& widths, float spacing, float avail);

// `text` broken into lines at spaces only (Dear ImGui 1.86 also breaks after '.', ',', ';', '!'
// and '?', inside figures such as "8,192" or Portuguese's "10,29"): each line the longest run of
// whole words whose width(line) fits, the first within `first_room` (text that follows another
// item), the others within `room`; a word wider than its line stands alone. The spaces at a break
// belong to no line. Returns views into `text`.
std::vector<std::string_view> lines_at_spaces(std::string_view text, float first_room, float room,
                                              const std::function<float(std::string_view)>& width);

// A slider's float as the double it shows: rounded to the decimals of its printf format
// ("%.2f" -> 0.69, not the float's 0.6899999976), so a link carries the value the user saw and
// reopens it exactly (QA D13). Formats without "%.Nf" give the float's value.
double round_to_format(float v, const char* format);

// The context slider: log scale from 512 to 1,048,576 tokens.
constexpr long long kContextMin = 512;
constexpr long long kContextMax = 1LL << 20;
// The context the slider lands on: the nearest (on its log scale) of the lengths engines and
// model cards use, a power of two or one and a half times one (2,048, 3,072, 4,096, 6,144, ...),
// within kContextMin..kContextMax (QA E17: taps gave 1,937, 23,170 and 264,845 tokens, which went
// into links). The typed field keeps any value.
long long round_context(double tokens);

// A GPU that is not in the catalog (the GPU picker's "Custom GPU"; gpusizer/custom_gpu.hpp). The
// state's config.custom_gpu is kept while a catalog GPU is chosen and across opened links that
// name a catalog GPU, so that choosing "Custom GPU" again returns to it.
//
// use_custom_gpu: makes the custom GPU the configuration's GPU: the one the state holds, or a new
// one started from the catalog GPU chosen now (its base: every figure prefilled, so "start from my
// card, change the clocks" is one click).
void use_custom_gpu(UiState& s);
// Sets a field from the app's inputs: a number is clamped into the field's range (as the catalog
// reader checks it); a value equal to what the GPU has without it (its base's) is taken back out,
// so the link carries only what differs. A choice the field does not know throws Error("gpu.<field>").
void set_custom_gpu_number(UiState& s, const Catalog& catalog, const GpuField& field, double value);
void set_custom_gpu_text(UiState& s, const Catalog& catalog, const GpuField& field, const std::string& value);
// Gives a field back to the base or to its default.
void reset_custom_gpu_field(UiState& s, const GpuField& field);
// Starts the custom GPU from another catalog GPU (`base`, keeping the fields set), or from none
// (""): the fields a GPU without a base must give (name, memory, bandwidth, the 16-bit rates, TDP)
// are then written out as the GPU has them now, and every other field takes its stated default.
void set_custom_gpu_base(UiState& s, const Catalog& catalog, const std::string& base);
// The custom GPU as the estimate builds it (its figures, base and defaults), or nullptr when the
// state holds none or its fields cannot make one (`error` receives why).
std::shared_ptr<const CustomGpuBuild> custom_gpu_build(const UiState& s, const Catalog& catalog, std::string* error = nullptr);

// The architecture the state's model resolves to, or nullptr (unknown id, bad custom model).
const ModelArch* current_arch(const UiState& s, const Catalog& catalog);

// `v` clamped into the range of the configuration key `key` (gpusizer/config_keys.hpp: the
// table the estimate checks against), rounded for an integer key; a key whose range is open at
// its minimum gets the next double above it. The UI's fields and sliders clamp through this, so
// they never hold a value the estimate refuses. An unknown key is a programming error: Error.
double clamp_to_key(const char* key, double v);

// One line saying what the model's stack is, for the model picker: the layers by kind in the
// order they first appear, the experts, the layers and towers stored beside the text model:
//   "48 layers: 36 sliding 4k + 12 full; 128 experts, 8 active + 1 shared; vision 0.4 B"
// `counts` is count_params(arch) (the towers' sizes come from it).
std::string stack_summary(const ModelArch& arch, const ParamCounts& counts);

}  // namespace gpusizer::ui
