// catalog.cpp: lookups in the catalog and the GPU capacity rule.
#include "gpusizer/catalog.hpp"

#include <algorithm>
#include <functional>
#include <string>
#include <string_view>

#include "gpusizer/error.hpp"
#include "gpusizer/phrasing.hpp"
#include "interconnect.hpp"
#include "nearest.hpp"

namespace gpusizer {

double Gpu::capacity_bytes() const {
    // The driver-reported total when the catalog has it (nvidia-smi "FB Memory Usage: Total"),
    // else the nominal size; Apple unified memory: the share Metal lets the GPU wire.
    const double bytes = memory_total_mib > 0 ? memory_total_mib * 1024.0 * 1024.0 : memory_gib * 1024.0 * 1024.0 * 1024.0;
    return bytes * gpu_memory_fraction;
}

std::string_view to_string(LinkScope s) { return s == LinkScope::intra_node ? "intra-node" : "inter-node"; }

std::string_view to_string(LinkKind k) {
    switch (k) {
        case LinkKind::pcie: return "pcie";
        case LinkKind::nvlink: return "nvlink";
        case LinkKind::nvlink_bridge: return "nvlink-bridge";
        case LinkKind::infinity_fabric: return "infinity-fabric";
        case LinkKind::infiniband: return "infiniband";
        case LinkKind::ethernet: return "ethernet";
    }
    return "?";
}

std::string_view to_string(Segment s) {
    switch (s) {
        case Segment::consumer: return "consumer";
        case Segment::workstation: return "workstation";
        case Segment::datacenter: return "datacenter";
        case Segment::apple: return "apple";
    }
    return "?";
}

namespace {

// FNV-1a, 64-bit (offset basis and prime of the FNV reference): ids are short, and the table's
// power-of-two size turns the hash into a slot with a mask where a hash map divides.
std::uint64_t id_hash(std::string_view id) {
    std::uint64_t h = 14695981039346656037ull;
    for (const char c : id) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
    return h;
}

template <typename List, typename IdOf>
void build_index(detail::IdIndex& x, const List& list, IdOf id_of) {
    std::size_t size = 16;
    while (size < 2 * list.size()) size *= 2;   // at most half full: a probe ends within a few slots
    x.slots.assign(size, 0);
    x.entries = list.size();
    for (std::size_t i = 0; i < list.size(); ++i) {
        std::size_t s = id_hash(id_of(list[i])) & (size - 1);
        while (x.slots[s] != 0) s = (s + 1) & (size - 1);   // a duplicate id goes after the first: the first wins
        x.slots[s] = static_cast<std::uint32_t>(i + 1);
    }
}

}  // namespace

void Catalog::reindex() {
    for (CatalogModel& m : models) {
        m.counts = count_params(m.arch);
        m.gguf = gguf_traits(m.arch);
    }
    build_index(model_index_, models, [](const CatalogModel& m) -> const std::string& { return m.arch.id; });
    build_index(gpu_index_, gpus, [](const Gpu& g) -> const std::string& { return g.id; });
    // The default links of each GPU, resolved once: estimates then never compare strings for them.
    gpu_links_.clear();
    for (const Gpu& g : gpus) gpu_links_.push_back(link_slots(g));
}

void Catalog::index_prices() {
    // Each GPU's on-demand prices, so that an estimate reads its rent without scanning the rows.
    on_demand_.clear();
    for (const Gpu& g : gpus) on_demand_.push_back(summarize_rent(rent_prices, g.id, "on_demand"));
}

const RentSummary* Catalog::on_demand_rent(std::string_view gpu_id) const {
    const Gpu* g = find_gpu(gpu_id);
    if (!g || on_demand_.size() != gpus.size() || g < gpus.data() || g >= gpus.data() + gpus.size()) return nullptr;
    const RentSummary& s = on_demand_[std::size_t(g - gpus.data())];
    return s.rows > 0 ? &s : nullptr;
}

const RentSummary* Catalog::on_demand_rent(const Gpu& gpu) const {
    // An entry of this catalog: its position, no lookup by id.
    if (&gpu >= gpus.data() && &gpu < gpus.data() + gpus.size() && on_demand_.size() == gpus.size()) {
        const RentSummary& s = on_demand_[std::size_t(&gpu - gpus.data())];
        return s.rows > 0 ? &s : nullptr;
    }
    return on_demand_rent(gpu.id);
}

RentSummary summarize_rent(const std::vector<RentPrice>& prices, std::string_view gpu, std::string_view kind, std::string_view provider) {
    std::vector<double> v;
    RentSummary s;
    for (const RentPrice& p : prices) {
        if (p.gpu != gpu || p.kind != kind || (!provider.empty() && p.provider != provider)) continue;
        v.push_back(p.usd_per_gpu_hour);
        if (p.date > s.date) s.date = p.date;   // YYYY[-MM[-DD]] sorts as text
    }
    if (v.empty()) return s;
    std::sort(v.begin(), v.end());
    s.rows = int(v.size());
    s.min = v.front();
    s.max = v.back();
    // The median: a price the table's middle provider asks, not pulled by one outlier.
    const std::size_t n = v.size();
    s.median = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
    return s;
}

namespace {

// A GPU's intra-node, PCIe, inter-node and alternative links, each mapped through `f` (an id to
// its index in the catalog, an index to the link), and the flags that go with them.
template <typename Out, typename In, typename F>
Out map_links(const In& in, F f) {
    Out out;
    out.intra = f(in.intra);
    out.pcie = f(in.pcie);
    out.inter = f(in.inter);
    out.alternative = f(in.alternative);
    out.alternative_hypothetical = in.alternative_hypothetical;
    out.scale_out = in.scale_out;
    return out;
}

}  // namespace

Catalog::LinkSlots Catalog::link_slots(const Gpu& g) const {
    auto index = [&](const char* id) -> int {
        if (!id) return -1;
        for (std::size_t i = 0; i < links.size(); ++i)
            if (links[i].id == id) return int(i);
        return -1;
    };
    return map_links<LinkSlots>(detail::default_link_ids(g), index);
}

GpuLinks Catalog::default_links(const Gpu& g) const {
    const bool cached = gpu_links_.size() == gpus.size() && !gpus.empty() && &g >= gpus.data() && &g < gpus.data() + gpus.size();
    const LinkSlots s = cached ? gpu_links_[std::size_t(&g - gpus.data())] : link_slots(g);
    auto at = [&](int i) -> const Link* { return i >= 0 && std::size_t(i) < links.size() ? &links[std::size_t(i)] : nullptr; };
    return map_links<GpuLinks>(s, at);
}

namespace {

// The entry of `list` whose id is `id`: through the index when it covers the list, else (the
// list was changed by hand after reindex()) by a scan.
template <typename List, typename IdOf>
auto find_by_id(const List& list, const detail::IdIndex& index, std::string_view id, IdOf id_of) -> decltype(&list[0]) {
    if (index.entries == list.size() && !index.slots.empty()) {
        const std::size_t mask = index.slots.size() - 1;
        for (std::size_t s = id_hash(id) & mask; index.slots[s] != 0; s = (s + 1) & mask)
            if (const auto& e = list[index.slots[s] - 1u]; id_of(e) == id) return &e;
        return nullptr;
    }
    for (const auto& item : list)
        if (id_of(item) == id) return &item;
    return nullptr;
}

}  // namespace

const CatalogModel* Catalog::find_model(std::string_view id) const {
    return find_by_id(models, model_index_, id, [](const CatalogModel& m) -> const std::string& { return m.arch.id; });
}

namespace {
// " (text)", or nothing when a program has nothing to say there (gpusizer/phrasing.hpp).
std::string in_parentheses(std::string_view text) { return text.empty() ? std::string() : " (" + std::string(text) + ")"; }
}  // namespace

const Link* Catalog::find_link(std::string_view id) const {
    for (const auto& l : links)   // a dozen entries: a scan beats a hash here
        if (l.id == id) return &l;
    return nullptr;
}

std::string Catalog::link_ids() const {
    std::string out;
    for (const auto& l : links) out += (out.empty() ? "" : ", ") + l.id;
    return out;
}

const Link& Catalog::link(std::string_view id, const char* key) const {
    if (const Link* l = find_link(id)) return *l;
    if (links.empty()) throw_error(key, "the catalog has no links (assets/links.json was not loaded)");
    throw_error(key, "unknown link '" + std::string(id) + "'; allowed: " + link_ids() + in_parentheses(phrasing().list_links),
                ErrorCode::unknown_id);
}

const Gpu* Catalog::find_gpu(std::string_view id) const {
    return find_by_id(gpus, gpu_index_, id, [](const Gpu& g) -> const std::string& { return g.id; });
}

namespace {

// Up to 8 ids of the catalog for a message about the unknown id `needle`, nearest first: ids
// that contain it (case aside), then ids within an edit distance of a third of its length
// (case aside: "LLAMA-3-8B" finds llama-3-8b, "mistral-7c" mistral-7b), ties in catalog order;
// else the catalog's first 8 ids.
template <typename List, typename IdOf>
std::string suggestions(const List& list, std::string_view needle, IdOf id_of) {
    std::vector<std::string_view> ids;
    ids.reserve(list.size());
    for (const auto& item : list) ids.push_back(id_of(item));
    // Ids are short; a longer needle is near none of them (and a link's 200 KB m= stays cheap).
    std::string out = nearest_list(needle.substr(0, 64), ids, 8);
    if (out.empty())   // nothing near: the catalog's first ids
        for (std::size_t i = 0; i < ids.size() && i < 8; ++i) out += (i ? ", " : "") + std::string(ids[i]);
    return out;
}

}  // namespace

const CatalogModel& Catalog::model(std::string_view id) const {
    if (const CatalogModel* m = find_model(id)) return *m;
    throw_error("model",
                "unknown model '" + std::string(id) +
                    "'; for example: " + suggestions(models, id, [](const CatalogModel& m) -> const std::string& { return m.arch.id; }) +
                    in_parentheses(phrasing().list_models),
                ErrorCode::unknown_id);
}

const Gpu& Catalog::gpu(std::string_view id) const {
    if (const Gpu* g = find_gpu(id)) return *g;
    throw_error("gpu",
                "unknown GPU '" + std::string(id) + "'; for example: " +
                    suggestions(gpus, id, [](const Gpu& g) -> const std::string& { return g.id; }) + in_parentheses(phrasing().list_gpus),
                ErrorCode::unknown_id);
}

}  // namespace gpusizer

// ---------------------------------------------------------------------------------------------
// Published parameter counts: conventions and rounding
// ---------------------------------------------------------------------------------------------

namespace gpusizer {

double params_as_published(const CatalogModel& m) {
    const ParamParts& p = m.counts.parts;
    if (m.params_convention == "text+mtp") return p.text + p.mtp;
    if (m.params_convention == "checkpoint") return p.all();
    return p.text;
}

// The catalog's active_params_convention is the model's own (model.active_convention); active()
// follows it.
double active_params_as_published(const CatalogModel& m) { return m.counts.active(m.arch); }

double published_rounding(const std::string& printed, const std::string& key, double* value) {
    auto bad = [&]() { return Error(key, "must be a figure as printed, a number and K, M, B or T (\"30.5B\"), got '" + printed + "'"); };
    // "~3.3B": a figure its source rounds loosely (cut rather than rounded, or by hand): a whole
    // unit of its last digit either side instead of half of one.
    const bool loose = !printed.empty() && printed[0] == '~';
    const std::string figure = loose ? printed.substr(1) : printed;
    if (figure.size() < 2) throw bad();
    double unit = 0;
    switch (figure.back()) {
        case 'K': unit = 1e3; break;
        case 'M': unit = 1e6; break;
        case 'B': unit = 1e9; break;
        case 'T': unit = 1e12; break;
        default: throw bad();
    }
    const std::string number = figure.substr(0, figure.size() - 1);
    int decimals = -1, digits = 0;
    double v = 0, scale = 1;
    for (char ch : number) {
        if (ch == '.') {
            if (decimals >= 0) throw bad();
            decimals = 0;
        } else if (ch >= '0' && ch <= '9') {
            ++digits;
            if (decimals >= 0) {
                ++decimals;
                scale /= 10;
                v += (ch - '0') * scale;
            } else {
                v = v * 10 + (ch - '0');
            }
        } else {
            throw bad();
        }
    }
    if (digits == 0 || digits > 12 || decimals == 0) throw bad();
    if (value) *value = v * unit;
    double half = (loose ? 1.0 : 0.5) * unit;
    for (int i = 0; i < std::max(decimals, 0); ++i) half /= 10;
    return half;
}

}  // namespace gpusizer
