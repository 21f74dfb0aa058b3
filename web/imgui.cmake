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

# ImGui 1.86 carries its default font, ProggyClean (a 12 KB base85 text that gzip hardly shrinks:
# 9 KB of the app's download), and ImFontAtlas::Build() adds it when a program has added no font
# of its own. The app always adds DejaVu Sans first (web/main.cpp), and 1.86 has no switch to leave
# the default font out; so the browser build compiles a copy of imgui_draw.cpp whose Build() does
# not add it, which leaves AddFontDefault(), the font and its decompressor unreferenced: the
# linker drops them. The same fonts, the same pixels.
set(_imgui_draw ${CMAKE_BINARY_DIR}/imgui/imgui_draw.cpp)
file(READ ${GPUSIZER_IMGUI_SRC}/imgui_draw.cpp _draw)
set(_default_font_call "    if (ConfigData.Size == 0)\n        AddFontDefault();\n")
string(FIND "${_draw}" "${_default_font_call}" _at)
if(_at EQUAL -1)
  message(FATAL_ERROR "${GPUSIZER_IMGUI_SRC}/imgui_draw.cpp: ImFontAtlas::Build() does not add the default font as 1.86 "
                      "does (web/imgui.cmake takes that call out)")
endif()
string(REPLACE "${_default_font_call}" "    // gpusizer (web/imgui.cmake): no default font; the app adds DejaVu Sans.\n" _draw "${_draw}")
file(WRITE ${_imgui_draw}.new "${_draw}")
configure_file(${_imgui_draw}.new ${_imgui_draw} COPYONLY)   # rewritten only when it changes
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${GPUSIZER_IMGUI_SRC}/imgui_draw.cpp)

add_library(gpusizer_imgui STATIC
  ${GPUSIZER_IMGUI_SRC}/imgui.cpp
  ${_imgui_draw}
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
