// gpusizer/gpusizer.hpp: the whole public API of the estimation core.
#pragma once

#include "gpusizer/catalog.hpp"
#include "gpusizer/compute.hpp"
#include "gpusizer/config.hpp"
#include "gpusizer/config_keys.hpp"
#include "gpusizer/error.hpp"
#include "gpusizer/estimate.hpp"
#include "gpusizer/gpu.hpp"
#include "gpusizer/io.hpp"
#include "gpusizer/share_link.hpp"
#include "gpusizer/measured.hpp"
#include "gpusizer/link.hpp"
#include "gpusizer/model.hpp"
#include "gpusizer/precision.hpp"
#include "gpusizer/recommend.hpp"
#include "gpusizer/report.hpp"
