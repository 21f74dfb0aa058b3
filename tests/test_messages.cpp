// test_messages.cpp: what the library's messages show the reader (QA 2026-12-03, E11): no NUL or
// bidirectional control echoed from a link or a file, near ids suggested for an unknown one,
// the key that is wrong named, and pointers to what the program offers (gpusizer/phrasing.hpp).
#include <catch2/catch.hpp>

#include <cstring>

#include "test_support.hpp"

using namespace gpusizer;
using namespace gpusizer::test;

namespace {

const std::string kFffd = "\xEF\xBF\xBD";   // U+FFFD REPLACEMENT CHARACTER in UTF-8

// The message of estimating the configuration the link `link` opens.
std::string link_error(const std::string& link) {
    return thrown_message([&] { (void)estimate(config_from_link(link), catalog()); });
}

// The ids a message suggests: the text after "for example: " up to " (" or the end.
std::string suggested(const std::string& message) {
    const auto at = message.find("for example: ");
    REQUIRE(at != std::string::npos);
    const std::string rest = message.substr(at + 13);
    return rest.substr(0, rest.find(" ("));
}

}  // namespace

TEST_CASE("QA E11: printable_text replaces NUL, control and bidirectional characters, and keeps the rest", "[messages]") {
    // U+202E (RIGHT-TO-LEFT OVERRIDE) is E2 80 AE in UTF-8, U+2067 (RIGHT-TO-LEFT ISOLATE) E2 81 A7,
    // U+0085 (NEXT LINE, a C1 control) C2 85, ESC 1B (terminal escapes).
    CHECK(printable_text(std::string("a\0b", 3)) == "a" + kFffd + "b");
    CHECK(printable_text("a\xE2\x80\xAE"
                         "gnp.exe") == "a" + kFffd + "gnp.exe");
    CHECK(printable_text("\xE2\x81\xA7x\xE2\x81\xA9") == kFffd + "x" + kFffd);
    CHECK(printable_text("x\xC2\x85y\x1B[31m") == "x" + kFffd + "y" + kFffd + "[31m");
    // Tab and newline stay, as do other characters: e-acute C3 A9, the arrow U+2192 E2 86 92,
    // and U+2010 (HYPHEN, E2 80 90), which shares its first two bytes with U+202A-202E.
    CHECK(printable_text("a\tb\nc \xC3\xA9 \xE2\x86\x92 \xE2\x80\x90") == "a\tb\nc \xC3\xA9 \xE2\x86\x92 \xE2\x80\x90");
    // A cut sequence at the end is left as it is (no read past the end).
    CHECK(printable_text("x\xE2\x80") == "x\xE2\x80");
    // is_printable_text (the estimate's check before it copies a name) says whether it changes.
    for (const std::string t : {std::string("a\0b", 3), std::string("a\xE2\x80\xAEgnp"), std::string("\xE2\x81\xA7x"),
                                std::string("x\xC2\x85y"), std::string("ok \xE2\x80\x90 then \x1B"), std::string("a\tb\nc \xC3\xA9 \xE2\x86\x92"),
                                std::string("NVIDIA H100 SXM5 80GB"), std::string("x\xE2\x80"), std::string("\xC2\xA0 nbsp"), std::string()})
        CHECK(is_printable_text(t) == (printable_text(t) == t));
}

TEST_CASE("QA E11: a NUL in a link's model id no longer cuts the message short", "[messages][share-link]") {
    // "#v=1&m=llama-3-8b%00evil" gave "model: unknown model 'llama-3-8b" in the app, the widget
    // and the API: what() is read as a C string, which ends at the NUL.
    const std::string m = link_error("#v=1&m=llama-3-8b%00evil&g=rtx-4090");
    CHECK(m.find("unknown model 'llama-3-8b" + kFffd + "evil'; for example: ") != std::string::npos);
    try {
        (void)estimate(config_from_link("#v=1&m=llama-3-8b%00evil&g=rtx-4090"), catalog());
        FAIL("no error");
    } catch (const Error& e) {
        CHECK(std::strlen(e.what()) == std::string(e.what()).size());
        CHECK(e.message().find('\0') == std::string::npos);
        CHECK(std::string(e.what()).find("for example") != std::string::npos);
    }
    // U+202E (%E2%80%AE) is shown as U+FFFD, so the rest of the message reads left to right.
    const std::string rlo = link_error("#v=1&m=x%E2%80%AEevil&g=rtx-4090");
    CHECK(rlo.find("\xE2\x80\xAE") == std::string::npos);
    CHECK(rlo.find("'x" + kFffd + "evil'") != std::string::npos);
}

TEST_CASE("QA E11: a name from a file or a link reaches the report printable", "[messages]") {
    // A custom GPU's name is the reader's text (gc=n:..., or a configuration's gpu.name), as a
    // GGUF file's general.name is: both reach page titles and status lines through the report.
    const Config c = config_from_json(R"({"model": "llama-3-8b", "gpu": {"base": "rtx-4090", "name": "RTX \u202eevil\u0000x"}})");
    const Report r = estimate(c, catalog());
    CHECK(r.gpu_name == "RTX " + kFffd + "evil" + kFffd + "x");
}

TEST_CASE("QA E11: an unknown id suggests the near ones, case aside", "[messages][catalog]") {
    // "LLAMA-3-8B" suggested "deepseek-r1, deepseek-v3, ..." (the ids containing "LLAMA", none).
    CHECK(suggested(link_error("#v=1&m=LLAMA-3-8B&g=rtx-4090")).rfind("llama-3-8b", 0) == 0);
    // One letter off: edit distance 1 ("c" for "b").
    CHECK(suggested(link_error("#v=1&m=mistral-7c&g=rtx-4090")).rfind("mistral-7b", 0) == 0);
    CHECK(suggested(link_error("#v=1&m=llama-3-8b&g=RTX-4090")).rfind("rtx-4090", 0) == 0);
    // Ids that contain what was typed come first: "llama" is in 8 or more of the catalog's ids
    // (llama-3-8b, deepseek-r1-distill-llama-8b, ...), so all 8 suggestions contain it.
    const std::string llama = suggested(link_error("#v=1&m=llama&g=rtx-4090"));
    std::size_t ids = 0;
    for (std::size_t at = 0; at != std::string::npos; at = llama.find(", ", at + 1)) {
        const std::size_t begin = at == 0 ? 0 : at + 2, end = llama.find(", ", begin);
        CHECK(llama.substr(begin, end - begin).find("llama") != std::string::npos);
        ++ids;
    }
    CHECK(ids == 8);
    // Nothing near: the catalog's first ids, as before (a message still shows what ids look like).
    CHECK_FALSE(suggested(link_error("#v=1&m=zzzzzzzzzzzzzzzz&g=rtx-4090")).empty());
    // A 200 KB id is compared by its first 64 characters only (edit distances over all of it
    // would take seconds); it is still refused with suggestions.
    const std::string long_id = "{\"model\": \"" + std::string(200000, 'q') + "\"}";
    CHECK_FALSE(suggested(thrown_message([&] { (void)estimate(config_from_json(long_id), catalog()); })).empty());
}

TEST_CASE("QA E11: np alone in a link names np, not a missing model", "[messages][share-link]") {
    // "#v=1&np=-5" said "model: is missing from the link (m=<model id>)".
    const std::optional<Error> e = thrown_error([] { (void)config_from_link("#v=1&np=-5"); });
    REQUIRE(e);
    CHECK(e->key() == "np");
    CHECK(e->message().find("np=-5") != std::string::npos);
    CHECK(e->message().find("m=custom") != std::string::npos);
    // Without either, the model is still the missing key.
    const std::optional<Error> none = thrown_error([] { (void)config_from_link("#v=1&g=rtx-4090"); });
    REQUIRE(none);
    CHECK(none->key() == "model");
}

TEST_CASE("QA E11: messages point to what the program offers (phrasing)", "[messages]") {
    // The CLI's texts by default.
    CHECK(link_error("#v=1&m=nope&g=rtx-4090").find("(`gpusizer models` lists all)") != std::string::npos);
    CHECK(link_error("#v=1&m=llama-3-8b&g=nope").find("(`gpusizer gpus` lists all)") != std::string::npos);
    // A browser page's (web/main.cpp, ui/platform.hpp): its own lists, no CLI command.
    const Phrasing cli = phrasing();
    Phrasing web;
    web.list_models = "the Model list shows all";
    web.list_gpus = "the GPU list shows all";
    web.list_links = "";   // nothing to add: the message lists the links
    set_phrasing(web);
    const std::string model = link_error("#v=1&m=nope&g=rtx-4090");
    const std::string gpu = link_error("#v=1&m=llama-3-8b&g=nope");
    const std::string link = thrown_message([] { (void)catalog().link("nope", "link"); });
    set_phrasing(cli);
    CHECK(model.find("(the Model list shows all)") != std::string::npos);
    CHECK(model.find("gpusizer models") == std::string::npos);
    CHECK(gpu.find("(the GPU list shows all)") != std::string::npos);
    CHECK(link.find("unknown link 'nope'; allowed: ") != std::string::npos);
    CHECK(link.find('(') == std::string::npos);
    CHECK(link.find("gpusizer links") == std::string::npos);
}
