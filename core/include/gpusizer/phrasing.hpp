// gpusizer/phrasing.hpp: where the library's messages point the reader, per program.
//
// A few messages end with a pointer to what the program offers the reader: the CLI says
// "(`gpusizer models` lists all)", a browser page says what the page can do instead (QA E11:
// browser readers were sent to the CLI). The core builds those messages with phrasing()'s
// texts, which each program sets once, at start-up, before it calls the library: the CLI
// (cli::cli_phrasing), the apps (ui::Platform::phrasing), the JS API and the widget
// (web/bindings.cpp). Where none is set (the Python module), the messages end without one.
#pragma once

#include <string_view>

namespace gpusizer {

// Each list_* text goes in parentheses after the message; an empty text adds nothing.
struct Phrasing {
    // After "unknown model 'x'; for example: a, b, c": where all the models are listed.
    std::string_view list_models;
    // After "unknown GPU 'x'; for example: a, b, c": where all the GPUs are listed.
    std::string_view list_gpus;
    // After "unknown link 'x'; allowed: a, b, c".
    std::string_view list_links;
    // After "org/name is on the Hugging Face Hub and was not fetched: ": what to do instead.
    std::string_view hub_not_fetched;
    // After "the log names no catalog model: ": how to name the model.
    std::string_view name_model;
    // After "gguf: names a file that was not read: ": how to read it (a page cannot open a path
    // a link names); empty: the library's own advice (read it with load_model_files first).
    std::string_view file_not_read;
};

// The texts in use (empty unless set_phrasing was called).
const Phrasing& phrasing();
// Replaces them; the views must outlive every later call (string literals do).
void set_phrasing(const Phrasing& p);

}  // namespace gpusizer
