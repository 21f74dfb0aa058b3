// ui/platform.hpp: what the UI needs from the platform it runs on. One implementation per
// target: native/app/main.cpp (desktop, GLFW) and web/platform_web.hpp (browser). The UI calls nothing else
// outside ImGui.
#pragma once

#include <string>
#include <vector>

#include "gpusizer/model_file.hpp"
#include "gpusizer/phrasing.hpp"

namespace gpusizer::ui {

// What a path names, as the platform sees it on its file system (the desktop's drop, command
// line and "Open file..."): a model the headers describe, or a text file (a configuration, a
// benchmark report, an engine log).
struct PathKind {
    enum Kind { missing, text, gguf, hf_dir, unusable };
    Kind kind = missing;
    std::string path;    // what to read: the file, the GGUF file a folder holds, or the snapshot folder
    std::string error;   // missing / unusable: why, naming the path
};

// A model found on this machine (the desktop's "Local models" list).
struct LocalModel {
    std::string name;     // "Qwen/Qwen3-8B", "llama3.2:3b", "lmstudio-community/Qwen3-8B-GGUF/Qwen3-8B-Q4_K_M.gguf"
    std::string format;   // "gguf" or "safetensors"
    std::string where;    // "Hugging Face cache", "Ollama", "LM Studio"
    std::string path;     // a .gguf file (the first part of a split one) or a snapshot folder
    double bytes = 0;     // on disk: the weight files (all parts, all shards)
};

// The list as far as the scan got.
struct LocalModels {
    std::vector<LocalModel> models;
    std::vector<std::string> places;   // the folders looked in, "where: path", one per place that exists
    std::vector<std::string> notes;    // what was skipped and why (unreadable folders, limits reached)
    bool scanning = false;             // still running (the list grows)
    bool scanned = false;              // a scan has finished
};

class Platform {
public:
    virtual ~Platform() = default;
    // Puts text on the system clipboard (the browser's through JavaScript).
    virtual void set_clipboard(const std::string& text) = 0;
    // The link as others open it: the web page's address before the fragment (its origin and
    // path, no query) and the fragment (QA E4: the fragment alone is not a link in a chat);
    // elsewhere the fragment, which the app, the page and the CLI all open.
    virtual std::string share_url(const std::string& fragment) { return fragment; }
    // Whether the platform fetches a Hub model a link names (hf=org/name): the web page's "From
    // the Hub" panel does, so such a link waits for it (App shows "Loading ..."); elsewhere the
    // link is refused with the core's message (the CLI's advice to download the files).
    virtual bool fetches_hub() const { return false; }
    // How much of the window's bottom the platform covers with controls of its own (the web
    // page's "From the Hub" button: 44 px and 12 px margins), in CSS px: the app's scrolled
    // columns end with that much room, so that their last rows scroll clear of it (QA E9).
    virtual float bottom_overlay_css() const { return 0.0f; }
    // The current share link changed (the browser mirrors it into the URL fragment).
    virtual void link_changed(const std::string& link) { (void)link; }
    // Asks the user for a file (a benchmark report or a configuration). A platform with a file
    // picker (the browser) opens it, returns true and later hands the text to App::open_file();
    // one without (the desktop, which has no toolkit dialogs) returns false, and the app asks
    // for a path that read_file() reads.
    virtual bool pick_file() { return false; }
    // Reads the file at `path` into `text`; false with `error` set when it cannot (or when the
    // platform has no file system, like the browser).
    virtual bool read_file(const std::string& path, std::string& text, std::string& error) {
        (void)path;
        (void)text;
        error = "this platform opens files through its file picker";
        return false;
    }
    // The reader's language as a BCP 47 tag ("pt-BR", "en-US"): the browser's navigator.language,
    // the desktop's LANG; "" when unknown (English). The app speaks it unless a link names one.
    virtual std::string preferred_language() const { return ""; }
    // The app's language changed ("en", "pt-BR"): the browser's page follows it (its own texts,
    // <html lang>, the accessible names).
    virtual void language_changed(const char* code) { (void)code; }
    // The user switched the color theme ("dark", "light"): the browser remembers it.
    virtual void theme_changed(const char* theme) { (void)theme; }
    // Saves a PNG picture of `width` x `height` RGBA pixels (rows from the top) under `name`
    // (the browser downloads it, the desktop writes it to the working folder). Returns false with
    // `where` set to why when it cannot; else true with `where` set to where it went.
    virtual bool save_png(const std::string& name, int width, int height, const unsigned char* rgba, std::string& where) {
        (void)name;
        (void)width;
        (void)height;
        (void)rgba;
        where = "this platform cannot save pictures";
        return false;
    }
    // Saves `text` as a file named `name` of type `mime` ("text/csv"): the browser downloads it,
    // the desktop writes it to the working folder. As save_png: false with `where` saying why, or
    // true with `where` saying where it went.
    virtual bool save_text(const std::string& name, const std::string& mime, const std::string& text, std::string& where) {
        (void)name;
        (void)mime;
        (void)text;
        where = "this platform cannot save files";
        return false;
    }
    // What a path names (see PathKind). A platform without a file system says `text`, and
    // read_file() then refuses it.
    virtual PathKind classify_path(const std::string& path) {
        PathKind k;
        k.kind = PathKind::text;
        k.path = path;
        return k;
    }
    // Opens the files of a model by path for the core's header readers (load_model_files); an
    // empty function where the platform has no file system.
    virtual SourceOpener model_opener() { return {}; }
    // The "Local models" list: false where the platform has none (the browser). scan_local_models()
    // starts a scan off the UI thread (Scan::once: unless one ran; Scan::again: "Rescan");
    // local_models() is what it found so far.
    enum class Scan { once, again };
    virtual bool has_local_models() const { return false; }
    virtual void scan_local_models(Scan how) { (void)how; }
    virtual LocalModels local_models() { return {}; }
    // Whether a file dropped on the app opens (the desktop's window, the browser's page): the
    // app then says so beside "Open file...".
    virtual bool accepts_dropped_files() const { return false; }
    // Where the core's messages point the reader (gpusizer/phrasing.hpp): to the app's own lists
    // rather than the CLI's commands (App sets it while it lives); a platform adds what it can
    // do with a Hub model.
    virtual Phrasing phrasing() const {
        Phrasing p;
        p.list_models = "the Model list shows all";
        p.list_gpus = "the GPU list shows all";
        p.list_links = "the Link list shows them";
        p.name_model = "choose the model in Setup";
        return p;
    }
    // A short name for messages: "desktop", "browser".
    virtual const char* name() const = 0;
};

}  // namespace gpusizer::ui
