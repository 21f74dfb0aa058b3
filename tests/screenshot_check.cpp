// screenshot_check.cpp: checks a gpusizer-app screenshot: the PNG has the asked size, is not
// blank, and the "Results" window (from the layout file the app writes) shows the memory bar.
//   screenshot_check SHOT.png LAYOUT.json WIDTH HEIGHT [--expect-error-message | --expect-measured]
//                    [--expect-source SOURCE] [--expect-items NAME N]
// --expect-measured: a benchmark report is open and the estimate uses its measured figures.
// --expect-source: the report's model.source ("gguf", "safetensors", "catalog", ...).
// --expect-items: at least N controls named NAME in the layout (rows of a list).
#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>
#include <stb/stb_image.h>

namespace {

int fail(const std::string& why) {
    std::fprintf(stderr, "screenshot_check: %s\n", why.c_str());
    return 1;
}

bool near(const unsigned char* p, int r, int g, int b) {
    return std::abs(p[0] - r) < 12 && std::abs(p[1] - g) < 12 && std::abs(p[2] - b) < 12;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 5) return fail("usage: screenshot_check SHOT.png LAYOUT.json WIDTH HEIGHT [--expect-error-message]");
    bool expect_error = false, expect_measured = false;
    std::string expect_source, expect_item;
    int expect_items = 0;
    for (int i = 5; i < argc; ++i) {
        const std::string option = argv[i];
        if (option == "--expect-error-message") expect_error = true;
        else if (option == "--expect-measured") expect_measured = true;
        else if (option == "--expect-source" && i + 1 < argc) expect_source = argv[++i];
        else if (option == "--expect-items" && i + 2 < argc) expect_item = argv[++i], expect_items = std::atoi(argv[++i]);
        else return fail("unknown option " + option);
    }
    int w = 0, h = 0, n = 0;
    unsigned char* px = stbi_load(argv[1], &w, &h, &n, 3);
    if (!px) return fail(std::string("cannot read ") + argv[1]);
    if (w != std::stoi(argv[3]) || h != std::stoi(argv[4])) return fail("size " + std::to_string(w) + "x" + std::to_string(h));

    // Not blank: the luminance varies.
    double sum = 0, sum2 = 0;
    for (int i = 0; i < w * h; ++i) {
        const double y = 0.299 * px[i * 3] + 0.587 * px[i * 3 + 1] + 0.114 * px[i * 3 + 2];
        sum += y;
        sum2 += y * y;
    }
    const double mean = sum / (w * h), sd = std::sqrt(sum2 / (w * h) - mean * mean);
    if (sd < 8.0) return fail("the image is blank (luminance deviation " + std::to_string(sd) + ")");

    std::ifstream in(argv[2]);
    nlohmann::json layout;
    try {
        in >> layout;
    } catch (const std::exception& e) {
        return fail(std::string("bad layout file: ") + e.what());
    }
    if (!layout.value("has_report", false)) return fail("the app shows no report");
    if (layout.value("message_is_error", false) != expect_error) return fail("unexpected error-message state");
    if (expect_measured && !layout.value("measured_open", false)) return fail("no benchmark report is open");
    if (expect_measured && !layout.value("calibrated", false)) return fail("the estimate does not use the measured figures");
    if (!expect_source.empty()) {
        const std::string source = layout["report"]["model"].value("source", std::string());
        if (source != expect_source) return fail("the model's source is '" + source + "', not " + expect_source);
    }
    if (expect_items > 0) {
        int items = 0;
        for (const auto& r : layout["layout"]) items += r["name"] == expect_item ? 1 : 0;
        if (items < expect_items)
            return fail(std::to_string(items) + " '" + expect_item + "' in the layout, fewer than " + std::to_string(expect_items));
        std::printf("screenshot_check: %d '%s'\n", items, expect_item.c_str());
    }
    bool found = false;
    for (const auto& win : layout["windows"]) {
        if (win["name"] != "Results") continue;
        found = true;
        const int x0 = int(win["x"].get<double>()), y0 = int(win["y"].get<double>());
        const int x1 = std::min(w, x0 + int(win["w"].get<double>())), y1 = std::min(h, y0 + int(win["h"].get<double>()));
        if (x1 - x0 < 400 || y1 - y0 < 300) return fail("the Results window is too small");
        // The memory bar: pixels of the weights colour (76, 120, 168) inside the Results window.
        long bar = 0;
        for (int y = y0; y < y1; ++y)
            for (int x = x0; x < x1; ++x) bar += near(&px[(y * w + x) * 3], 76, 120, 168) ? 1 : 0;
        if (bar < 2000) return fail("the Results window shows no memory bar (" + std::to_string(bar) + " bar pixels)");
        std::printf("screenshot_check: %dx%d, luminance deviation %.1f, %ld bar pixels in Results\n", w, h, sd, bar);
    }
    stbi_image_free(px);
    if (!found) return fail("no Results window in the layout");
    return 0;
}
