// catalog.cpp: lookups in the catalog and the GPU capacity rule.
#include "gpusizer/catalog.hpp"

#include <string>

#include "gpusizer/error.hpp"

namespace gpusizer {

double Gpu::capacity_bytes() const {
    // The driver-reported total when the catalog has it (nvidia-smi "FB Memory Usage: Total"),
    // else the nominal size; Apple unified memory: the share Metal lets the GPU wire.
    const double bytes = memory_total_mib > 0 ? memory_total_mib * 1024.0 * 1024.0 : memory_gib * 1024.0 * 1024.0 * 1024.0;
    return bytes * gpu_memory_fraction;
}

std::string_view segment_name(Segment s) {
    switch (s) {
        case Segment::consumer: return "consumer";
        case Segment::workstation: return "workstation";
        case Segment::datacenter: return "datacenter";
        case Segment::apple: return "apple";
    }
    return "?";
}

void Catalog::reindex() {
    model_index_.clear();
    gpu_index_.clear();
    for (std::size_t i = 0; i < models.size(); ++i) {
        models[i].counts = count_params(models[i].arch);
        models[i].gguf = gguf_traits(models[i].arch);
        model_index_.emplace(models[i].arch.id, i);
    }
    for (std::size_t i = 0; i < gpus.size(); ++i) gpu_index_.emplace(gpus[i].id, i);
}

const CatalogModel* Catalog::find_model(std::string_view id) const {
    if (model_index_.size() == models.size()) {
        const auto it = model_index_.find(id);
        if (it != model_index_.end() && it->second < models.size() && models[it->second].arch.id == id) return &models[it->second];
        if (it == model_index_.end()) return nullptr;
    }
    for (const auto& m : models)
        if (m.arch.id == id) return &m;
    return nullptr;
}

const Gpu* Catalog::find_gpu(std::string_view id) const {
    if (gpu_index_.size() == gpus.size()) {
        const auto it = gpu_index_.find(id);
        if (it != gpu_index_.end() && it->second < gpus.size() && gpus[it->second].id == id) return &gpus[it->second];
        if (it == gpu_index_.end()) return nullptr;
    }
    for (const auto& g : gpus)
        if (g.id == id) return &g;
    return nullptr;
}

namespace {

// Up to `max` ids of the catalog that contain `needle`, or the first few ids, for messages.
template <typename List, typename IdOf>
std::string suggestions(const List& list, std::string_view needle, IdOf id_of) {
    std::string out;
    int n = 0;
    std::string key(needle.substr(0, needle.find('-') == std::string_view::npos ? needle.size() : needle.find('-')));
    for (const auto& item : list) {
        const std::string& id = id_of(item);
        if (!key.empty() && id.find(key) == std::string::npos) continue;
        out += (n ? ", " : "") + id;
        if (++n == 8) break;
    }
    if (n == 0) {
        for (const auto& item : list) {
            out += (n ? ", " : "") + id_of(item);
            if (++n == 8) break;
        }
    }
    return out;
}

}  // namespace

const CatalogModel& Catalog::model(std::string_view id) const {
    if (const CatalogModel* m = find_model(id)) return *m;
    throw Error("model", "unknown model '" + std::string(id) + "'; for example: " +
                             suggestions(models, id, [](const CatalogModel& m) -> const std::string& { return m.arch.id; }) +
                             " (`gpusizer models` lists all)");
}

const Gpu& Catalog::gpu(std::string_view id) const {
    if (const Gpu* g = find_gpu(id)) return *g;
    throw Error("gpu", "unknown GPU '" + std::string(id) + "'; for example: " +
                           suggestions(gpus, id, [](const Gpu& g) -> const std::string& { return g.id; }) +
                           " (`gpusizer gpus` lists all)");
}

}  // namespace gpusizer
