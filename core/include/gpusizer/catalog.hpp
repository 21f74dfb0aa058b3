// gpusizer/catalog.hpp: the models, GPUs and links the calculator knows (assets/*.json).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "gpusizer/gpu.hpp"
#include "gpusizer/link.hpp"
#include "gpusizer/model.hpp"
#include "gpusizer/precision.hpp"

namespace gpusizer {

struct SeedRow {                 // the seed article's table row for a model, verbatim
    std::string params, vram, gpu;
};

struct CatalogModel {
    ModelArch arch;
    ParamCounts counts;                    // count_params(arch), computed at load
    GgufTraits gguf;                       // gguf_traits(arch), computed at load
    std::string family;
    std::string hf_repo;
    double params_published = 0;
    double active_params_published = 0;   // MoE only
    // The published figures as their source prints them ("30.5B", "3.3B"; "" = not given): the
    // last printed digit is their rounding, half a unit of it the tolerance of a derived count
    // (published_rounding). models.json params_published_as / active_params_published_as.
    std::string params_published_as;
    std::string active_params_published_as;
    // What the published figures count (models.json params_convention, active_params_convention);
    // params_as_published / active_params_as_published apply them to the derived counts.
    //   params_convention: "text" (the language model, ParamCounts::total(); the default),
    //     "text+mtp" (with the multi-token-prediction layers), "checkpoint" (every stored part:
    //     text, vision and audio towers, MTP, per-layer embeddings).
    //   active_params_convention: "all" (embedding and head included; the default, Mixtral's
    //     "12.9B active"), "no_input_embedding" (the head counts, the input lookup does not:
    //     gpt-oss), "no_embeddings" (neither).
    std::string params_convention = "text";
    std::string active_params_convention = "all";
    int context_trained = 0;
    SeedRow seed;                          // empty when not in the seed article
    std::vector<std::string> sources;
    std::vector<std::string> unverified;
};

// The derived counts under the entry's conventions, comparable with params_published and
// active_params_published.
double params_as_published(const CatalogModel& m);
double active_params_as_published(const CatalogModel& m);
// Half a unit of the last digit of a figure printed as "<number><K|M|B|T>" ("30.5B" -> 0.05e9,
// "1T" -> 0.5e12; "~3.3B", a figure its source rounds loosely, -> a whole unit, 0.1e9); `value`
// receives the figure. Throws Error naming `key` when it is not one.
double published_rounding(const std::string& printed, const std::string& key, double* value = nullptr);

// The links a catalog GPU uses unless told otherwise (nullptr where none applies).
struct GpuLinks {
    const Link* intra = nullptr;         // its own GPU-to-GPU link inside a node (NVSwitch, bridge, PCIe)
    const Link* pcie = nullptr;          // its PCIe link
    const Link* inter = nullptr;         // between nodes
    const Link* alternative = nullptr;   // the other kind of intra-node link (NVLink <-> PCIe), for comparison
    bool alternative_hypothetical = false;   // the GPU cannot use `alternative`
    bool scale_out = false;   // an HGX/OAM-class part (NVSwitch, NVLink mesh, Infinity Fabric, Gaudi RoCE)
};

namespace detail {
// Id -> position in a catalog list: open addressing over a power-of-two table of position + 1
// (0 = empty). Positions only, never pointers or views into the entries, so a copied (or moved)
// catalog keeps a valid index; a lookup compares the id at the position it finds.
struct IdIndex {
    std::vector<std::uint32_t> slots;
    std::size_t entries = 0;   // the list's size when indexed; another size means it was changed by hand
};
}  // namespace detail

// A dated price of renting a catalog GPU (assets/prices.json "rent"): one provider's offering,
// per GPU-hour, with the date it was published or read and its source.
struct RentPrice {
    std::string gpu;                       // catalog id
    std::string provider;                  // "AWS", "RunPod", ...
    std::string offering;                  // the instance or product as the provider names it
    std::string kind;                      // "on_demand", "spot", "community", "reserved_1y"
    double usd_per_gpu_hour = 0;
    std::string date;                      // "2026-05-07", "2026-05" or "2026"
    std::string source_url;
};
// The price of the machine around the GPUs (assets/prices.json "hosts"), by platform
// ("desktop", "workstation", "pcie_server", "hgx_node"), for `gpus` slots.
struct HostPrice {
    std::string platform;
    double usd = 0;
    int gpus = 1;
    std::string date;
    std::string source_url;
};

// A GPU's rental prices of one kind summarized (Catalog::rent_summary).
struct RentSummary {
    int rows = 0;
    double median = 0, min = 0, max = 0;   // USD per GPU-hour
    std::string date;                      // the newest row's
};
// The rows of `prices` for GPU `gpu` of kind `kind` (and `provider`, unless empty), summarized.
RentSummary summarize_rent(const std::vector<RentPrice>& prices, std::string_view gpu, std::string_view kind,
                           std::string_view provider = {});

struct Catalog {
    std::vector<CatalogModel> models;
    std::vector<Gpu> gpus;
    std::vector<Link> links;              // empty when built from gpus.json and models.json only
    std::vector<RentPrice> rent_prices;   // empty without prices.json (the costs of renting are then unknown)
    std::vector<HostPrice> host_prices;

    // Builds the id indexes and the cached counts; catalog_from_json calls it. Call it again
    // after changing `models` or `gpus` by hand (lookups fall back to a scan until then).
    void reindex();

    const CatalogModel* find_model(std::string_view id) const;   // nullptr if absent
    const Gpu* find_gpu(std::string_view id) const;
    const CatalogModel& model(std::string_view id) const;       // throw Error("model"/"gpu", ...)
    const Gpu& gpu(std::string_view id) const;
    const Link* find_link(std::string_view id) const;           // nullptr if absent
    const Link& link(std::string_view id, const char* key = "link") const;   // throws Error(key, ...)
    std::string link_ids() const;                               // "pcie3, pcie4, ...", for messages
    GpuLinks default_links(const Gpu& gpu) const;              // cached by reindex() for catalog GPUs
    // The on-demand rental prices of a catalog GPU, summarized once by index_prices(), which
    // read_prices() calls (nullptr: none, not a catalog GPU, or `gpus` changed since).
    const RentSummary* on_demand_rent(std::string_view gpu_id) const;
    const RentSummary* on_demand_rent(const Gpu& gpu) const;   // `gpu` an entry of `gpus` (else by its id)
    void index_prices();

private:
    detail::IdIndex model_index_;
    detail::IdIndex gpu_index_;
    struct LinkSlots { int intra = -1, pcie = -1, inter = -1, alternative = -1; bool alternative_hypothetical = false, scale_out = false; };
    std::vector<LinkSlots> gpu_links_;                          // parallel to gpus, indices into links
    std::vector<RentSummary> on_demand_;                        // parallel to gpus (empty without prices)
    LinkSlots link_slots(const Gpu& gpu) const;
};

// Parses the asset files; every error names the file, the entry and the field. Without
// links.json the catalog has no links, and estimates leave the interconnect out.
Catalog catalog_from_json(std::string_view gpus_json, std::string_view models_json);
Catalog catalog_from_json(std::string_view gpus_json, std::string_view models_json, std::string_view links_json);

// Adds assets/prices.json's rental and host prices to `c` (whose GPUs they name); errors name
// the file, the row and the field.
void read_prices(Catalog& c, std::string_view prices_json);

// Reads <dir>/gpus.json, <dir>/models.json and <dir>/links.json, and <dir>/prices.json where there is one.
Catalog load_catalog(const std::string& assets_dir);

// Where the assets are: $GPUSIZER_ASSETS, else next to the executable (./assets, then
// ../share/gpusizer/assets for an installed binary, then up to three folders above it, where a
// build tree inside the source tree finds the source's assets/). Nothing about the machine
// that built the binary is compiled in. Throws Error (code unreadable) if none is found.
std::string find_assets_dir(const char* argv0);

// GPU entries laid over a catalog: each stands in for the catalog's entry of the same id, for
// one call of estimate(), fit(), sweep() or recommend() (a GPU calibrated by a benchmark report,
// gpusizer/measured.hpp measured_overlay()). The catalog itself is neither copied nor changed.
struct GpuOverlay {
    std::vector<Gpu> gpus;
    const Gpu* find(std::string_view id) const {
        for (const Gpu& g : gpus)
            if (g.id == id) return &g;
        return nullptr;
    }
    // The overlay's entry for `id`, else the catalog's (which throws Error("gpu") for an unknown id).
    const Gpu& gpu(const Catalog& catalog, std::string_view id) const {
        const Gpu* g = find(id);
        return g ? *g : catalog.gpu(id);
    }
};

// `catalog.gpus[i]`, or the overlay's entry of the same id when `overlay` has one.
inline const Gpu& gpu_at(const Catalog& catalog, const GpuOverlay* overlay, std::size_t i) {
    const Gpu* g = overlay ? overlay->find(catalog.gpus[i].id) : nullptr;
    return g ? *g : catalog.gpus[i];
}

}  // namespace gpusizer
