// config_keys_internal.hpp: what config_keys.cpp shares with config_keys_docs.cpp.
#pragma once

#include <string>

namespace gpusizer {

// 1048576 rather than 1.04858e+06; 1e+16 where an integer would be unreadable.
std::string key_number_text(double v);

}   // namespace gpusizer
