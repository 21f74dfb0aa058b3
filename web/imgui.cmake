# web/imgui.cmake: Dear ImGui for the browser build. The sources are Debian's source package
# `imgui`, the same 1.86 as the desktop's libimgui-dev; scripts/setup.sh downloads it
# (`apt-get source --download-only imgui`) and unpacks it into build/deps/imgui-1.86.
# Defines the target `gpusizer_imgui` that ui/ and the app build on: ImGui with its GLFW
# backend (Emscripten's GLFW port) and OpenGL ES 3 backend (WebGL2, GLSL "#version 300 es").
set(GPUSIZER_IMGUI_SRC ${CMAKE_SOURCE_DIR}/build/deps/imgui-1.86 CACHE PATH "Dear ImGui 1.86 sources (Debian's source package)")
if(NOT EXISTS ${GPUSIZER_IMGUI_SRC}/imgui.cpp)
  message(FATAL_ERROR "Dear ImGui's sources are not in ${GPUSIZER_IMGUI_SRC}: run scripts/setup.sh "
                      "(it fetches Debian's source package `imgui`), or set GPUSIZER_IMGUI_SRC.")
endif()

add_library(gpusizer_imgui STATIC
  ${GPUSIZER_IMGUI_SRC}/imgui.cpp
  ${GPUSIZER_IMGUI_SRC}/imgui_draw.cpp
  ${GPUSIZER_IMGUI_SRC}/imgui_tables.cpp
  ${GPUSIZER_IMGUI_SRC}/imgui_widgets.cpp
  ${GPUSIZER_IMGUI_SRC}/misc/cpp/imgui_stdlib.cpp
  ${GPUSIZER_IMGUI_SRC}/backends/imgui_impl_glfw.cpp
  ${GPUSIZER_IMGUI_SRC}/backends/imgui_impl_opengl3.cpp)
# <imgui.h>, <imgui_stdlib.h> and <backends/imgui_impl_*.h>, as with Debian's headers natively.
target_include_directories(gpusizer_imgui SYSTEM PUBLIC ${GPUSIZER_IMGUI_SRC} ${GPUSIZER_IMGUI_SRC}/misc/cpp)
target_compile_definitions(gpusizer_imgui PUBLIC
  IMGUI_IMPL_OPENGL_ES3              # WebGL2 (ImGui 1.86 would pick WebGL1 on Emscripten)
  IMGUI_DISABLE_OBSOLETE_FUNCTIONS
  IMGUI_DISABLE_DEMO_WINDOWS         # no demo or metrics windows in the page: smaller
  IMGUI_DISABLE_METRICS_WINDOW
  IMGUI_DISABLE_FILE_FUNCTIONS)      # no file system in the page: fonts come from memory
# ImGui's code is not ours: no project warnings on it.
target_compile_options(gpusizer_imgui PRIVATE -w)
# The GLFW port and WebGL2 are link-time settings of the programs that use them (web/).
