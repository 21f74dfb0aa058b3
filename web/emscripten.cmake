# web/emscripten.cmake: settings for every target of the browser build (the `wasm` preset),
# then Dear ImGui from Debian's sources. See web/CMakeLists.txt for the programs and their
# link flags, and README.md ("The browser build") for the sizes they give.

# Size first: -Oz for the release build of everything (the core, ImGui, the UI), which the
# link step (wasm-opt, the JS minifier) also follows, and link-time optimization across the
# core, ImGui and the bindings (5% less WebAssembly than without).
set(CMAKE_CXX_FLAGS_MINSIZEREL "-Oz -DNDEBUG")
set(CMAKE_C_FLAGS_MINSIZEREL "-Oz -DNDEBUG")
add_compile_options(-flto)
add_link_options(-flto)

# Closure Compiler shrinks the generated JavaScript by a third. Emscripten 3.1.6 finds it
# through EM_CLOSURE_COMPILER; the npm package google-closure-compiler (package.json, installed
# by scripts/setup.sh) has a native build of it. Without it the JS is only minified.
find_program(GPUSIZER_CLOSURE_COMPILER google-closure-compiler PATHS ${CMAKE_SOURCE_DIR}/node_modules/.bin
             NO_DEFAULT_PATH NO_CMAKE_FIND_ROOT_PATH)
set(_launch_env NODE_PATH=/usr/share/nodejs)
if(GPUSIZER_CLOSURE_COMPILER)
  set(GPUSIZER_CLOSURE_FLAGS --closure 1)
  list(APPEND _launch_env EM_CLOSURE_COMPILER=${GPUSIZER_CLOSURE_COMPILER})
else()
  set(GPUSIZER_CLOSURE_FLAGS)
  message(STATUS "Closure Compiler not found (npm ci installs it): the browser build's JS is only minified")
endif()
# Debian's Emscripten runs its JS optimizer with Debian's acorn, which lives where this
# Node.js does not look: every link goes through `env NODE_PATH=/usr/share/nodejs`.
list(JOIN _launch_env " " _launch_env)
set_property(GLOBAL PROPERTY RULE_LAUNCH_LINK "${CMAKE_COMMAND} -E env ${_launch_env}")

# The core reports bad input with C++ exceptions (gpusizer::Error), which the app shows and the
# JS API turns into JS errors, so exceptions must be caught. WebAssembly's own exception
# handling (-fwasm-exceptions) costs less code than Emscripten's JS-based catching
# (-fexceptions: every call in a try block goes out through a JS `invoke_` wrapper) and runs in
# every current browser; GPUSIZER_WASM_EH=js selects the JS-based form for older ones.
set(GPUSIZER_WASM_EH wasm CACHE STRING "C++ exceptions in the browser build: wasm (-fwasm-exceptions) or js (-fexceptions)")
set_property(CACHE GPUSIZER_WASM_EH PROPERTY STRINGS wasm js)
if(GPUSIZER_WASM_EH STREQUAL "wasm")
  add_compile_options(-fwasm-exceptions)
  add_link_options(-fwasm-exceptions)
elseif(GPUSIZER_WASM_EH STREQUAL "js")
  add_compile_options(-fexceptions)
  add_link_options(-fexceptions)
else()
  message(FATAL_ERROR "GPUSIZER_WASM_EH must be wasm or js, not '${GPUSIZER_WASM_EH}'")
endif()

include(${CMAKE_CURRENT_LIST_DIR}/imgui.cmake)
