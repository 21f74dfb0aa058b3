// web/embedded.cpp: the catalog compiled into the module.
#include "embedded.hpp"

namespace gpusizer::web {

namespace data {
extern const unsigned char gpus_json[];
extern const std::size_t gpus_json_size;
extern const unsigned char models_json[];
extern const std::size_t models_json_size;
extern const unsigned char links_json[];
extern const std::size_t links_json_size;
#if GPUSIZER_EMBED_PRICES
extern const unsigned char prices_json[];
extern const std::size_t prices_json_size;
#endif
}  // namespace data

std::string_view embedded_gpus_json() { return {reinterpret_cast<const char*>(data::gpus_json), data::gpus_json_size}; }
std::string_view embedded_models_json() { return {reinterpret_cast<const char*>(data::models_json), data::models_json_size}; }
std::string_view embedded_links_json() { return {reinterpret_cast<const char*>(data::links_json), data::links_json_size}; }

const Catalog& embedded_catalog() {
    static const Catalog catalog = [] {
        Catalog c = catalog_from_json(embedded_gpus_json(), embedded_models_json(), embedded_links_json());
#if GPUSIZER_EMBED_PRICES
        // The app and the JS API price renting (the widget's module carries no prices).
        read_prices(c, {reinterpret_cast<const char*>(data::prices_json), data::prices_json_size});
#endif
        return c;
    }();
    return catalog;
}

}  // namespace gpusizer::web
