// ui/theme.hpp: colors and style shared by every view (and by the browser widget's CSS, which
// uses the same part colors).
#pragma once

#include <imgui.h>

namespace gpusizer::ui {

// Colors of the memory parts, in the order of MemoryParts (weights, kv_cache, activations,
// gradients, optimizer, overhead): a colour-blind-safe palette (Tableau 10).
inline ImU32 part_color(int i) {
    static const ImU32 kColors[] = {IM_COL32(76, 120, 168, 255), IM_COL32(245, 133, 24, 255), IM_COL32(84, 162, 75, 255),
                                    IM_COL32(228, 87, 86, 255),  IM_COL32(178, 121, 162, 255), IM_COL32(157, 157, 157, 255)};
    return kColors[i % 6];
}
inline const char* part_name(int i) {
    static const char* kNames[] = {"weights", "KV cache", "activations", "gradients", "optimizer", "overhead"};
    return kNames[i % 6];
}

constexpr ImU32 kFitsColor = IM_COL32(64, 180, 96, 255);
constexpr ImU32 kNoFitColor = IM_COL32(230, 80, 70, 255);
constexpr ImU32 kCapacityColor = IM_COL32(230, 80, 70, 255);

inline ImVec4 to_vec4(ImU32 c) { return ImGui::ColorConvertU32ToFloat4(c); }

// The app's style: ImGui's dark theme, softened, scaled for the display.
void apply_style(float scale);

// The background behind the two full-window panels. The platform clears the framebuffer with
// it and the panels draw no background of their own: two window-sized blended quads fewer per
// frame, which is most of a frame's fill work on a software rasterizer (headless Chromium's
// SwiftShader, remote desktops).
constexpr float kBackground[4] = {0.105f, 0.115f, 0.135f, 1.0f};

}  // namespace gpusizer::ui
