// nearest.hpp (internal): names near a misspelt one, for messages ("unknown key 'contxt';
// nearest: context"): the catalog's ids, the configuration's keys, the link's keys.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace gpusizer {

// How far `name` is from `want` (lowercase, at most 64 characters), case aside: 0 when name
// contains it, else the edit distance (Levenshtein: insertions, deletions and substitutions,
// each 1) between them.
std::size_t name_distance(std::string_view want, std::string_view name);

// `text` in lowercase ASCII, cut at 64 characters: the `want` of name_distance.
std::string distance_key(std::string_view text);

// Up to `most` of `names` near `want`, nearest first: those that contain it (case aside), then
// those within an edit distance of a third of its length (2 at least); in list order within a
// distance. Empty when none is near.
std::vector<std::string_view> nearest_names(std::string_view want, const std::vector<std::string_view>& names, std::size_t most);

// nearest_names joined with ", ".
std::string nearest_list(std::string_view want, const std::vector<std::string_view>& names, std::size_t most);

}   // namespace gpusizer
