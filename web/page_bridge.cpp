// page_bridge.cpp: the browser app's JavaScript side (page_bridge.hpp): every function the
// module imports from the page, written with EM_JS, and the two readers of what the page hands
// over. Kept out of clang-format's reach: it would reflow the JavaScript inside EM_JS.
// clang-format off
#include "page_bridge.hpp"

#include <emscripten.h>

// The events the page hands to the next frame: a new URL fragment, a paste, a file (picked with
// "Open file..." or dropped on the page) and why a file could not be read.
EM_JS(void, web_listen, (), {
    // [fragment, pasted text, file name, file text, file error, Hub repository that failed, why,
    // results tab to show (app-page.js's tabs), what the canvas's DOM focus did (app-page.js:
    // "in" taken with Tab, "out" lost), a model's name, its {"model", "weights"?} JSON, "1" to
    // keep the configuration's weights (hub-panel.js)]; "" = nothing new
    Module["gpusizerPending"] = ["", "", "", "", "", "", "", "", "", "", "", ""];
    // Reads a File (64 MiB at most: reports are kilobytes) into the pending slots. A model file
    // (.gguf, .safetensors; QA E6) goes to hub-panel.js's reader, which reads its header only
    // (with the other parts of a split GGUF among `files`, the files dropped together).
    Module["gpusizerReadFile"] = function(file, files) {
        var pending = Module["gpusizerPending"];
        if (/\.(gguf|safetensors)$/i.test(file.name) && window["gpusizerReadModelFile"]) {
            window["gpusizerReadModelFile"](file, files || [file], pending);
            return;
        }
        if (file.size > 64 * 1024 * 1024) {
            pending[4] = file.name + " is larger than 64 MiB: not a configuration or a benchmark report";
            return;
        }
        file.text().then(function(text) {
            pending[2] = file.name;
            pending[3] = text;
        }, function() {
            pending[4] = "the browser could not read " + file.name;
        });
    };
    // Files dropped or picked together (a split GGUF's parts, a checkpoint's config.json and
    // weights): the first GGUF among them, else a config.json, else the first file.
    Module["gpusizerOpenFiles"] = function(files) {
        var all = Array.prototype.slice.call(files);
        var pick = all.find(function(f) { return /\.gguf$/i.test(f.name); }) ||
                   all.find(function(f) { return /^config\.json$/i.test(f.name); }) || all[0];
        Module["gpusizerReadFile"](pick, all);
    };
    // Any input marks the page active: the next frames are drawn (see frame(): an idle app
    // draws nothing).
    Module["gpusizerActive"] = 1;
    var active = function() { Module["gpusizerActive"] = 1; };
    // The wheel's unit for the scroll callback (main(), QA E1): 0 pixels, 1 lines, 2 pages.
    window.addEventListener("wheel", function(e) { Module["gpusizerWheelMode"] = e.deltaMode; }, {capture: true, passive: true});
    window.addEventListener("mousemove", function(e) {
        // A real mouse (not one the browser made from a touch: those are cancelled) takes over.
        if (!e.sourceCapabilities || !e.sourceCapabilities.firesTouchEvents) Module["gpusizerMouse"] = 1;
    }, {capture: true, passive: true});
    ["pointerdown", "pointermove", "pointerup", "pointercancel", "mousedown", "mousemove", "mouseup", "wheel",
     "keydown", "keyup", "touchstart", "touchmove", "touchend", "touchcancel", "resize", "focus", "blur",
     "visibilitychange", "input", "compositionend"].forEach(function(type) {
        window.addEventListener(type, active, {capture: true, passive: true});
    });
    // Touch (QA D2): Emscripten's GLFW port takes no position from touch events, and left to the
    // browser a swipe scrolls or navigates back. Each touch of the first finger is queued as
    // [kind (0 start, 1 move, 2 end), x, y] in CSS pixels for frame() to turn into ImGui's mouse
    // and wheel; every touch is cancelled, so the browser neither scrolls, zooms, navigates nor
    // makes mouse events of it.
    Module["gpusizerTouches"] = [];
    var canvas = Module["canvas"];
    var finger = null;
    var onTouch = function(kind) {
        return function(e) {
            var t = null, i;
            if (kind === 0 && finger === null && e.changedTouches.length) { t = e.changedTouches[0]; finger = t.identifier; }
            else for (i = 0; i < e.changedTouches.length; ++i) if (e.changedTouches[i].identifier === finger) t = e.changedTouches[i];
            if (e.cancelable) e.preventDefault();
            if (!t) return;
            var r = canvas.getBoundingClientRect();
            Module["gpusizerTouches"].push([kind, t.clientX - r.left, t.clientY - r.top]);
            Module["gpusizerActive"] = 1;
            if (kind === 2) {
                finger = null;
                // The on-screen keyboard opens only from a user gesture: a tap on a text field
                // focuses the hidden input that mirrors it (see web_keyboard).
                var fields = (window["gpusizerApp"] && window["gpusizerApp"]["layout"]) || [];
                var x = t.clientX - r.left, y = t.clientY - r.top;
                for (i = 0; i < fields.length; ++i) {
                    var f = fields[i];
                    var named = f["name"] === "text field" || f["name"] === "link field";
                    if (named && x >= f["x"] && x <= f["x"] + f["w"] && y >= f["y"] && y <= f["y"] + f["h"])
                        Module["gpusizerKeyboard"](true);
                }
            }
        };
    };
    canvas.addEventListener("touchstart", onTouch(0), {passive: false});
    canvas.addEventListener("touchmove", onTouch(1), {passive: false});
    canvas.addEventListener("touchend", onTouch(2), {passive: false});
    canvas.addEventListener("touchcancel", onTouch(2), {passive: false});
    // The hidden input behind the on-screen keyboard: what is typed into it goes to the focused
    // ImGui text field as characters (Backspace and Enter reach ImGui as keys through GLFW).
    var keyboard = document.createElement("input");
    keyboard.id = "gpusizer-keyboard";
    keyboard.type = "text";
    keyboard.setAttribute("autocomplete", "off");
    keyboard.setAttribute("autocapitalize", "off");
    keyboard.setAttribute("autocorrect", "off");
    keyboard.setAttribute("spellcheck", "false");
    keyboard.setAttribute("aria-hidden", "true");
    keyboard.tabIndex = -1;
    keyboard.className = "gpusizer-keyboard";
    Module["gpusizerTyped"] = "";
    keyboard.addEventListener("input", function() {
        if (keyboard.value) Module["gpusizerTyped"] += keyboard.value;
        keyboard.value = "";
        Module["gpusizerActive"] = 1;
    });
    document.body.appendChild(keyboard);
    Module["gpusizerKeyboard"] = function(on) {
        if (on && document.activeElement !== keyboard) keyboard.focus({preventScroll: true});
        if (!on && document.activeElement === keyboard) keyboard.blur();
    };
    window.addEventListener("dragover", function(e) { e.preventDefault(); });
    window.addEventListener("drop", function(e) {
        e.preventDefault();
        var files = e.dataTransfer ? e.dataTransfer.files : null;
        if (files && files.length) Module["gpusizerOpenFiles"](files);
    });
    // Back and Forward between the app's own entries (pushState) fire popstate; the fragment
    // they land on is opened like a typed one.
    window.addEventListener("popstate", function() {
        // A write of the address still waiting (at most 200 ms) belongs to the entry left: it
        // must not land on this one, nor push an entry that cuts off the entries ahead (Forward,
        // Ctrl+Shift+Z after Ctrl+Z).
        var f = Module["gpusizerFragment"];
        if (f) {
            if (f.timer) clearTimeout(f.timer);
            f.timer = 0;
            f.want = location.hash;
            f.push = false;
            f.open = false;
        }
        Module["gpusizerPending"][0] = location.hash || "#";
        Module["gpusizerActive"] = 1;
    });
    // Ctrl+Z / Ctrl+Shift+Z (Cmd on a Mac) outside a text field: undo and redo through the
    // history of configurations.
    window.addEventListener("keydown", function(e) {
        if (!(e.ctrlKey || e.metaKey) || (e.key !== "z" && e.key !== "Z") || Module["gpusizerTyping"]) return;
        e.preventDefault();
        if (e.shiftKey) history.forward(); else history.back();
    }, true);
    window.addEventListener("hashchange", function(e) {
        // The fragment navigated to (location.hash may already hold a later replaceState's).
        var url = e.newURL || location.href;
        var at = url.indexOf("#");
        Module["gpusizerPending"][0] = at < 0 ? "#" : url.slice(at);
    });
    document.addEventListener("paste", function(e) {
        var text = e.clipboardData ? e.clipboardData.getData("text/plain") : "";
        if (text) Module["gpusizerPending"][1] = text;
        e.preventDefault();
    });
});


// What became of a model the page handed over (slots 9-11), for hub-panel.js to say in its panel:
// [name, 1 opened / 0 refused, the app's message].
EM_JS(void, web_model_opened, (const char* name, int ok, const char* message), {
    Module["gpusizerModelOpened"] = [UTF8ToString(name), ok, UTF8ToString(message)];
});

// Text typed into the hidden input since the last call (UTF-8 into buf, at most size bytes).
EM_JS(int, web_typed_length, (), { return lengthBytesUTF8(Module["gpusizerTyped"] || ""); });
EM_JS(void, web_take_typed, (char* buf, int size), {
    stringToUTF8(Module["gpusizerTyped"], buf, size);
    Module["gpusizerTyped"] = "";
});
// Shows (focuses the hidden input) or hides the on-screen keyboard.
EM_JS(void, web_keyboard, (int on), { Module["gpusizerKeyboard"](!!on); });

// What the page's own controls choose from (app-page.js, QA E8), once, as texts it reads when it
// needs them: [GPUs, models, weight formats], each as lines of tab-separated fields (main()).
EM_JS(void, web_publish_choices, (const char* gpus, const char* models, const char* weights), {
    window["gpusizerChoices"] = [UTF8ToString(gpus), UTF8ToString(models), UTF8ToString(weights)];
});

// 1 when an input event arrived since the last call.
EM_JS(int, web_take_activity, (), {
    var a = Module["gpusizerActive"] ? 1 : 0;
    Module["gpusizerActive"] = 0;
    return a;
});

// Length in UTF-8 bytes of pending item `kind` (0: fragment, 1: paste), 0 if none.
EM_JS(int, web_pending_length, (int kind), { return lengthBytesUTF8(Module["gpusizerPending"][kind]); });

// Copies pending item `kind` into buf (size bytes, terminator included) and clears it.
EM_JS(void, web_pending_take, (int kind, char* buf, int size), {
    stringToUTF8(Module["gpusizerPending"][kind], buf, size);
    Module["gpusizerPending"][kind] = "";
});

// The browser's file picker for a .json file (a benchmark report, a configuration, a config.json)
// or a model file (.gguf, .safetensors); the
// choice arrives through the pending slots. One hidden <input type=file>, reused.
EM_JS(void, web_pick_file, (), {
    var input = document.getElementById("gpusizer-file");
    if (!input) {
        input = document.createElement("input");
        input.type = "file";
        input.id = "gpusizer-file";
        input.accept = ".json,application/json,.gguf,.safetensors";
        input.multiple = true;   // a split GGUF's parts
        input.hidden = true;
        input.addEventListener("change", function() {
            if (input.files && input.files.length) Module["gpusizerOpenFiles"](input.files);
            input.value = "";
        });
        document.body.appendChild(input);
    }
    input.click();
});

// The URL fragment the page was opened with ("" when none).
// The page's address without query or fragment (QA E4's shared URL; a ?hub= stays behind, E3).
EM_JS(int, web_page_address_length, (), { return lengthBytesUTF8(location.href.replace(/[?#].*$/, '')); });
EM_JS(void, web_page_address, (char* buf, int size), { stringToUTF8(location.href.replace(/[?#].*$/, ''), buf, size); });
EM_JS(int, web_location_hash_length, (), { return lengthBytesUTF8(location.hash); });
EM_JS(void, web_location_hash, (char* buf, int size), { stringToUTF8(location.hash, buf, size); });

// Mirrors the share link into the address bar. Only a fragment ("#...") is ever written, at
// most every 200 ms with a final write. Each deliberate change gets one history entry, so Back
// and Forward (and Ctrl+Z / Ctrl+Shift+Z) step through configurations: the first write of a
// change pushes an entry, and the writes that follow while the same control is held (a slider
// being dragged) replace it; web_change_done() ends the change. The first write after loading
// replaces the loaded entry. Neither fires hashchange.
EM_JS(void, web_set_fragment, (const char* text), {
    var link = UTF8ToString(text);
    if (link.charAt(0) !== "#") return;
    var s = Module["gpusizerFragment"];
    if (!s) s = Module["gpusizerFragment"] = {want: "", timer: 0, last: -1e9, started: false, open: false, push: false};
    s.want = link;
    if (!s.open && s.started) s.push = true;   // a new change: its own entry
    s.open = true;
    s.started = true;
    function write() {
        s.timer = 0;
        s.last = performance.now();
        if (location.hash === s.want) return;
        if (s.push) history.pushState(null, "", s.want);
        else history.replaceState(history.state, "", s.want);
        s.push = false;
    }
    if (s.timer) return;
    var wait = 200 - (performance.now() - s.last);
    if (wait <= 0) write(); else s.timer = setTimeout(write, wait);
});

// The control that made the last change was let go: the next change is a new history entry.
EM_JS(void, web_change_done, (), {
    var s = Module["gpusizerFragment"];
    if (s) s.open = false;
});

// Whether ImGui has a text field focused (Ctrl+Z is then the field's own undo).
EM_JS(void, web_typing, (int on), { Module["gpusizerTyping"] = !!on; });

// Puts text on the system clipboard: navigator.clipboard, else a hidden text area and the
// "copy" command. The text is only ever a value, never markup.
EM_JS(void, web_copy_text, (const char* utf8), {
    var text = UTF8ToString(utf8);
    function fallback() {
        var area = document.createElement("textarea");
        area.value = text;
        area.setAttribute("readonly", "");
        area.style.position = "fixed";
        area.style.opacity = "0";
        document.body.appendChild(area);
        area.select();
        var ok = false;
        try { ok = document.execCommand("copy"); } catch (e) {}
        document.body.removeChild(area);
        if (!ok) console.warn("gpusizer: the browser refused the clipboard; copy the address bar instead");
    }
    if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(text).catch(fallback);
    else fallback();
});

// Publishes the app's state (JSON text) to the page: window.gpusizerApp and the status line.
EM_JS(void, web_publish, (const char* json), {
    var state = JSON.parse(UTF8ToString(json));
    window["gpusizerApp"] = state;
    var line = document.getElementById("status");
    if (line) {
        line.textContent = state["message"];
        line.className = state["message_is_error"] ? "error" : "";
    }
    // The DOM mirror of the results (app-page.js): verdict, table, page title.
    if (window["gpusizerMirror"]) window["gpusizerMirror"](state);
});

// Keeps the last 1000 frames' main-thread times (ms: input, UI, draw-list submission) in
// window.gpusizerFrameCpuMs, for the frame-time benchmark (bench/web_budgets.mjs).
// window.gpusizerFrameParts keeps the same frames' split: [UI (App::frame, with any
// recomputation), ImGui::Render and the draw-list submission to WebGL, the state published to
// the page] in ms, to see where a frame's time goes.
EM_JS(void, web_frame_time, (double ms, double ui_ms, double draw_ms, double publish_ms), {
    window["gpusizerFramesDrawn"] = (window["gpusizerFramesDrawn"] || 0) + 1;
    var times = window["gpusizerFrameCpuMs"] || (window["gpusizerFrameCpuMs"] = []);
    var parts = window["gpusizerFrameParts"] || (window["gpusizerFrameParts"] = []);
    times.push(ms);
    parts.push([ui_ms, draw_ms, publish_ms]);
    if (times.length > 1000) times.splice(0, times.length - 1000);
    if (parts.length > 1000) parts.splice(0, parts.length - 1000);
});

// The control that keyboard navigation is on (window.gpusizerNav, CSS pixels; null when the
// highlight is hidden), for the keyboard test: ImGui draws the focus ring, the page sees where.
EM_JS(void, web_nav_rect, (int on, double x, double y, double w, double h), {
    window["gpusizerNav"] = on ? {"x": x, "y": y, "w": w, "h": h} : null;
});

// Counts the frames actually drawn on the canvas (window.gpusizerFramesPainted): a frame whose
// picture equals the last one is computed (gpusizerFramesDrawn) but not drawn again.
EM_JS(void, web_frame_painted, (), { window["gpusizerFramesPainted"] = (window["gpusizerFramesPainted"] || 0) + 1; });

EM_JS(void, web_first_frame, (), {
    performance.mark("gpusizer-first-frame");
    document.documentElement.setAttribute("data-first-frame", "1");
});

// The theme to start with (1 light, 0 dark): the reader's saved choice (localStorage), else the
// OS's preference (prefers-color-scheme); app-page.js decides it before the module loads, so the
// page behind the canvas has the same colors from the start.
EM_JS(int, web_initial_theme, (), {
    var choose = window["gpusizerTheme"];
    return choose && choose["current"]() === "light" ? 1 : 0;
});
// The OS's preference changed and the reader never chose (app-page.js queues it): 1 light,
// 0 dark, -1 nothing new.
EM_JS(int, web_take_theme, (), {
    var t = window["gpusizerTheme"];
    if (!t || !t["pending"]) return -1;
    var light = t["pending"] === "light";
    t["pending"] = "";
    return light ? 1 : 0;
});
// The reader switched the theme in the app: remembered for this browser (not in the link).
EM_JS(void, web_theme_changed, (const char* name), {
    var t = window["gpusizerTheme"];
    if (t) t["choose"](UTF8ToString(name));
});
// The reader's language as the browser states it (navigator.language: "pt-BR", "en-US"), at
// most `size` - 1 bytes.
EM_JS(void, web_preferred_language, (char* buf, int size), { stringToUTF8(String(navigator.language || "").slice(0, 35), buf, size); });
// The app's language changed ("en", "pt-BR"): the page follows (web/site/i18n.js: <html lang>,
// its marked texts and accessible names; app-page.js and hub-panel.js write theirs again).
EM_JS(void, web_language_changed, (const char* code), {
    var i18n = window["gpusizerI18n"];
    if (i18n) i18n["set"](UTF8ToString(code));
});

// Publishes the theme's colors (0..255 RGB) to the page, for the contrast test.
EM_JS(void, web_publish_theme, (const char* json), { window["gpusizerThemeColors"] = JSON.parse(UTF8ToString(json)); });

// Downloads `width` x `height` RGBA pixels (rows from the top) as a PNG file named `name`: the
// browser's own encoder (a 2D canvas's toBlob) and a link with the download attribute.
EM_JS(void, web_save_png, (const char* name, int width, int height, const unsigned char* rgba), {
    var file = UTF8ToString(name);
    var pixels = new Uint8ClampedArray(HEAPU8.subarray(rgba, rgba + width * height * 4));   // a copy
    var canvas = document.createElement("canvas");
    canvas.width = width;
    canvas.height = height;
    canvas.getContext("2d").putImageData(new ImageData(pixels, width, height), 0, 0);
    canvas.toBlob(function(blob) {
        if (!blob) return;
        var a = document.createElement("a");
        a.href = URL.createObjectURL(blob);
        a.download = file;
        a.hidden = true;
        document.body.appendChild(a);
        a.click();
        a.remove();
        setTimeout(function() { URL.revokeObjectURL(a.href); }, 60000);
    }, "image/png");
});

// Downloads text as a file named `name` of type `mime` (a Blob and a link with the download
// attribute, as web_save_png).
EM_JS(void, web_save_text, (const char* name, const char* mime, const char* text, int length), {
    var blob = new Blob([HEAPU8.slice(text, text + length)], {type: UTF8ToString(mime)});
    var a = document.createElement("a");
    a.href = URL.createObjectURL(blob);
    a.download = UTF8ToString(name);
    a.hidden = true;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(function() { URL.revokeObjectURL(a.href); }, 60000);
});

// clang-format on

namespace gpusizer::web {

std::string take_pending(int kind) {
    const int n = web_pending_length(kind);
    if (n <= 0) return {};
    std::string s(std::size_t(n) + 1, '\0');
    web_pending_take(kind, s.data(), n + 1);
    s.resize(std::size_t(n));
    return s;
}

std::string location_hash() {
    const int n = web_location_hash_length();
    std::string s(std::size_t(n) + 1, '\0');
    web_location_hash(s.data(), n + 1);
    s.resize(std::size_t(n));
    return s;
}

}  // namespace gpusizer::web
