// measured_json.hpp (internal): the JSON of a calibration, for the estimate report's `measured`
// object (report_json.cpp). Defined in measured_io.cpp.
#pragma once

#include <nlohmann/json.hpp>

#include "gpusizer/measured.hpp"

namespace gpusizer {

nlohmann::json calibration_json(const Calibration& calibration);

}  // namespace gpusizer
