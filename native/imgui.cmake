# native/imgui.cmake: Dear ImGui for the desktop build, from Debian's packages: libimgui-dev
# (headers and libimgui.a, built with stb) and its GLFW / OpenGL 3 backend sources, plus
# libglfw3-dev. Defines the target `gpusizer_imgui` that ui/ and native/app build on; when a
# piece is missing the desktop app is skipped and the CLI still builds.
find_package(glfw3 3.3 QUIET)
set(OpenGL_GL_PREFERENCE GLVND)
find_package(OpenGL QUIET)
find_path(GPUSIZER_IMGUI_INCLUDE imgui.h PATH_SUFFIXES imgui)
find_library(GPUSIZER_IMGUI_LIB imgui)
find_library(GPUSIZER_STB_LIB stb)
find_path(GPUSIZER_STB_INCLUDE stb/stb_image_write.h)
set(GPUSIZER_IMGUI_BACKENDS /usr/share/doc/libimgui-dev/examples/backends CACHE PATH "ImGui backend sources")

if(glfw3_FOUND AND OpenGL_FOUND AND GPUSIZER_IMGUI_INCLUDE AND GPUSIZER_IMGUI_LIB AND GPUSIZER_STB_LIB
   AND GPUSIZER_STB_INCLUDE AND EXISTS ${GPUSIZER_IMGUI_BACKENDS}/imgui_impl_glfw.cpp)
  add_library(gpusizer_imgui STATIC
    ${GPUSIZER_IMGUI_BACKENDS}/imgui_impl_glfw.cpp
    ${GPUSIZER_IMGUI_BACKENDS}/imgui_impl_opengl3.cpp)
  target_include_directories(gpusizer_imgui SYSTEM PUBLIC
    ${GPUSIZER_IMGUI_INCLUDE} ${GPUSIZER_IMGUI_INCLUDE}/backends ${GPUSIZER_STB_INCLUDE})
  target_link_libraries(gpusizer_imgui PUBLIC ${GPUSIZER_IMGUI_LIB} ${GPUSIZER_STB_LIB} glfw OpenGL::GL ${CMAKE_DL_LIBS})
  # The backends are ImGui's code, not ours: no project warnings and no sanitizers on them
  # (UBSan flags the union-array indexing of ImGui 1.86's bundled gl3w loader, by design upstream).
  set_source_files_properties(${GPUSIZER_IMGUI_BACKENDS}/imgui_impl_glfw.cpp ${GPUSIZER_IMGUI_BACKENDS}/imgui_impl_opengl3.cpp
    PROPERTIES COMPILE_OPTIONS "-w;-fno-sanitize=all")
  set(GPUSIZER_HAVE_APP ON)
else()
  set(GPUSIZER_HAVE_APP OFF)
  message(STATUS "gpusizer-app skipped: needs libglfw3-dev, libimgui-dev (with libstb-dev) and OpenGL (scripts/setup.sh installs them)")
endif()
