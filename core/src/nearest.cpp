// nearest.cpp: names near a misspelt one (nearest.hpp).
#include "nearest.hpp"

#include <algorithm>

namespace gpusizer {

namespace {
char ascii_lower(char c) { return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c; }
}   // namespace

std::string distance_key(std::string_view text) {
    std::string want(text.substr(0, 64));
    for (char& c : want) c = ascii_lower(c);
    return want;
}

std::size_t name_distance(std::string_view want, std::string_view name) {
    for (std::size_t i = 0; !want.empty() && i + want.size() <= name.size(); ++i) {
        std::size_t k = 0;
        while (k < want.size() && ascii_lower(name[i + k]) == want[k]) ++k;
        if (k == want.size()) return 0;
    }
    want = want.substr(0, 64);
    std::size_t row[65];   // row[j]: the distance from want's first j characters to name's first i
    for (std::size_t j = 0; j <= want.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= name.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= want.size(); ++j) {
            const std::size_t up = row[j];
            row[j] = std::min(std::min(row[j], row[j - 1]) + 1, diagonal + (ascii_lower(name[i - 1]) == want[j - 1] ? 0 : 1));
            diagonal = up;
        }
    }
    return row[want.size()];
}

std::vector<std::string_view> nearest_names(std::string_view want_text, const std::vector<std::string_view>& names, std::size_t most) {
    const std::string want = distance_key(want_text);
    const std::size_t far = std::max<std::size_t>(2, want.size() / 3);
    std::vector<std::size_t> distance(names.size());
    for (std::size_t i = 0; i < names.size(); ++i) distance[i] = name_distance(want, names[i]);
    std::vector<std::string_view> out;
    for (std::size_t d = 0; d <= far && out.size() < most; ++d)   // nearest first, list order within a distance
        for (std::size_t i = 0; i < names.size() && out.size() < most; ++i)
            if (distance[i] == d) out.push_back(names[i]);
    return out;
}

std::string nearest_list(std::string_view want, const std::vector<std::string_view>& names, std::size_t most) {
    std::string out;
    for (std::string_view n : nearest_names(want, names, most)) out += (out.empty() ? "" : ", ") + std::string(n);
    return out;
}

}   // namespace gpusizer
