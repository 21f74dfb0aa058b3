// test_ui_strings.cpp: the strings table (assets/strings.json, ui/i18n.hpp) against the sources
// that use it. It fails when a text the app, the page or the widget shows has no row, when a row
// is used nowhere it says, when a row's languages differ in their printf conversions (a format
// string from the table must take the same arguments), and when a visible ImGui text is written
// as a bare literal (so "every visible string lives in the table" stays true as views grow).
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "i18n.hpp"

namespace fs = std::filesystem;
using gpusizer::ui::Language;

namespace {

const fs::path kSource = GPUSIZER_TEST_SOURCE_DIR;

std::string read_text(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

struct Row {
    std::string en, pt;
    std::set<std::string> in;
};

std::vector<Row> table_rows() {
    const nlohmann::json doc = nlohmann::json::parse(read_text(kSource / "assets/strings.json"));
    std::vector<Row> rows;
    for (const auto& r : doc.at("strings")) {
        Row row{r.at("en").get<std::string>(), r.at("pt-BR").get<std::string>(), {}};
        for (const auto& s : r.at("in")) row.in.insert(s.get<std::string>());
        rows.push_back(std::move(row));
    }
    return rows;
}

// A C++ or JS string literal's text, escapes read (\n, \t, \", \', \\, \uXXXX as UTF-8).
std::string unescape(const std::string& s) {
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] != '\\' || i + 1 == s.size()) {
            out += s[i];
            continue;
        }
        const char c = s[++i];
        if (c == 'n') out += '\n';
        else if (c == 't') out += '\t';
        else if (c == 'u' && i + 4 < s.size()) {
            const auto cp = static_cast<unsigned>(std::stoul(s.substr(i + 1, 4), nullptr, 16));
            i += 4;
            if (cp < 0x80) out += static_cast<char>(cp);
            else if (cp < 0x800) out += {static_cast<char>(0xC0 | (cp >> 6)), static_cast<char>(0x80 | (cp & 0x3F))};
            else out += {static_cast<char>(0xE0 | (cp >> 12)), static_cast<char>(0x80 | ((cp >> 6) & 0x3F)), static_cast<char>(0x80 | (cp & 0x3F))};
        } else out += c;
    }
    return out;
}

// The files of each surface, and how a text is marked in them.
std::vector<fs::path> files_in(const fs::path& dir, std::initializer_list<const char*> extensions) {
    std::vector<fs::path> out;
    for (const auto& e : fs::directory_iterator(kSource / dir))
        for (const char* ext : extensions)
            if (e.path().extension() == ext) out.push_back(e.path());
    std::sort(out.begin(), out.end());
    return out;
}

std::vector<fs::path> app_files() {
    std::vector<fs::path> out = files_in("ui", {".cpp", ".hpp"});
    for (const auto& p : files_in("native/app", {".cpp", ".hpp"})) out.push_back(p);
    for (const char* f : {"web/main.cpp", "web/platform_web.hpp", "web/platform_web.cpp"}) out.push_back(kSource / f);
    return out;
}
std::vector<fs::path> page_files() {
    return {kSource / "web/site/index.html", kSource / "web/site/i18n.js", kSource / "web/site/app-page.js",
            kSource / "web/site/hub-panel.js", kSource / "web/site/hub.mjs"};
}
std::vector<fs::path> widget_files() {
    return {kSource / "web/site/gpusizer-widget.js", kSource / "web/site/embed.html", kSource / "web/site/embed-page.js"};
}

// The texts a file marks for the table: C++ tr("..."), tr_label("...") (the part before "##"),
// tr_later("..."); JS t('...') / t("...") (hub.mjs's t() makes a Phrase that the page shows
// through the table), and the labels of a `const kParts = [['key', 'label', ...], ...]` table
// (the memory parts, shown as t(label); tests/test_memory_parts.cpp holds their form); HTML
// elements with data-i18n (their text, spaces collapsed) and the attributes data-i18n-attrs names.
// A source's text without its whole-line // comments (whose examples are not uses).
std::string without_comment_lines(const std::string& text) {
    std::string out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        const std::size_t first = line.find_first_not_of(" \t");
        if (first == std::string::npos || line.compare(first, 2, "//") != 0) out += line;
        out += '\n';
    }
    return out;
}

std::set<std::string> marked_texts(const fs::path& p) {
    const std::string ext = p.extension().string();
    const std::string text = ext == ".html" ? read_text(p) : without_comment_lines(read_text(p));
    std::set<std::string> out;
    auto add_all = [&](const std::regex& re, int group, bool label) {
        for (auto it = std::sregex_iterator(text.begin(), text.end(), re); it != std::sregex_iterator(); ++it) {
            std::string s = unescape((*it)[group].str());
            if (label) s = s.substr(0, s.find("##"));
            out.insert(s);
        }
    };
    if (ext == ".cpp" || ext == ".hpp") {
        add_all(std::regex(R"re(\btr\("((?:[^"\\]|\\.)*)"\))re"), 1, false);
        add_all(std::regex(R"re(\btr_later\("((?:[^"\\]|\\.)*)"\))re"), 1, false);
        add_all(std::regex(R"re(\btr_label\("((?:[^"\\]|\\.)*)"\))re"), 1, true);
    } else if (ext == ".js" || ext == ".mjs") {
        add_all(std::regex(R"re(\bt\(\s*'((?:[^'\\]|\\.)*)'\s*[,)])re"), 1, false);
        add_all(std::regex(R"re(\bt\(\s*"((?:[^"\\]|\\.)*)"\s*[,)])re"), 1, false);
        static const std::string kParts = "const kParts = [";
        if (const std::size_t at = text.find(kParts); at != std::string::npos) {
            const std::string rows = text.substr(at + kParts.size(), text.find("];", at) - at - kParts.size());
            static const std::regex row(R"re(\[\s*'[^']*'\s*,\s*'([^']*)')re");
            for (auto it = std::sregex_iterator(rows.begin(), rows.end(), row); it != std::sregex_iterator(); ++it) out.insert((*it)[1].str());
        }
    } else if (ext == ".html") {
        const std::regex element(R"re(<[a-z0-9]+\b([^>]*)\bdata-i18n\b(?!-)([^>]*)>([^<]*)<)re");
        for (auto it = std::sregex_iterator(text.begin(), text.end(), element); it != std::sregex_iterator(); ++it) {
            std::string words;
            for (const char ch : (*it)[3].str()) {
                const bool space = ch == ' ' || ch == '\n' || ch == '\t';
                if (space && (words.empty() || words.back() == ' ')) continue;
                words += space ? ' ' : ch;
            }
            while (!words.empty() && words.back() == ' ') words.pop_back();
            if (!words.empty()) out.insert(words);
        }
        const std::regex tag(R"re(<[a-z0-9]+\b[^>]*\bdata-i18n-attrs="([^"]*)"[^>]*>)re");
        for (auto it = std::sregex_iterator(text.begin(), text.end(), tag); it != std::sregex_iterator(); ++it) {
            const std::string whole = (*it)[0].str();
            std::istringstream names((*it)[1].str());
            for (std::string name; names >> name;) {
                const std::regex attr("\\s" + name + "=\"([^\"]*)\"");
                std::smatch m;
                if (std::regex_search(whole, m, attr)) out.insert(m[1].str());
                else out.insert("(missing attribute " + name + " in " + whole.substr(0, 60) + ")");
            }
        }
    }
    return out;
}

// An HTML file's texts written in Portuguese where no script can choose (the page's <noscript>):
// elements marked data-i18n-pt, whose text must be a row's pt-BR.
std::set<std::string> portuguese_texts(const fs::path& p) {
    std::set<std::string> out;
    if (p.extension() != ".html") return out;
    const std::string text = read_text(p);
    static const std::regex element(R"re(<[a-z0-9]+\b[^>]*\bdata-i18n-pt\b[^>]*>([^<]*)<)re");
    for (auto it = std::sregex_iterator(text.begin(), text.end(), element); it != std::sregex_iterator(); ++it) {
        std::istringstream words((*it)[1].str());
        std::string collapsed;
        for (std::string w; words >> w;) collapsed += (collapsed.empty() ? "" : " ") + w;
        out.insert(collapsed);
    }
    return out;
}

std::set<std::string> surface_texts(const std::vector<fs::path>& files) {
    std::set<std::string> out;
    for (const auto& f : files)
        for (const auto& s : marked_texts(f)) out.insert(s);
    return out;
}

// A text's printf conversions in order ("%s", "%.1f", "%d"; "%%" is not one).
std::vector<std::string> conversions(const std::string& s) {
    std::vector<std::string> out;
    static const std::regex re(R"re(%[-+ #0]*[0-9*]*(?:\.[0-9*]+)?(?:ll|l|h|z)?[diouxXeEfgGcsp%])re");
    for (auto it = std::sregex_iterator(s.begin(), s.end(), re); it != std::sregex_iterator(); ++it)
        if (it->str() != "%%") out.push_back(it->str());
    return out;
}

}   // namespace

TEST_CASE("the strings table: every row has both languages, once, and says where it is used") {
    const std::vector<Row> rows = table_rows();
    REQUIRE(rows.size() > 100);
    std::set<std::string> seen;
    for (const Row& r : rows) {
        INFO(r.en);
        CHECK(!r.en.empty());
        CHECK(!r.pt.empty());
        CHECK(seen.insert(r.en).second);
        CHECK(!r.in.empty());
        for (const std::string& s : r.in) CHECK((s == "app" || s == "page" || s == "widget"));
        CHECK(r.en.find("##") == std::string::npos);
        CHECK(conversions(r.en) == conversions(r.pt));
        // Leading and trailing spaces are the sentence's joints: both languages keep them.
        CHECK((r.en.front() == ' ') == (r.pt.front() == ' '));
        CHECK((r.en.back() == ' ') == (r.pt.back() == ' '));
    }
}

TEST_CASE("the strings table: every marked text has a row, and every row is used where it says") {
    const std::vector<Row> rows = table_rows();
    const std::pair<const char*, std::set<std::string>> surfaces[] = {
        {"app", surface_texts(app_files())}, {"page", surface_texts(page_files())}, {"widget", surface_texts(widget_files())}};
    for (const auto& [name, used] : surfaces) {
        for (const std::string& text : used) {
            INFO(name << ": \"" << text << "\" is marked in the sources but has no row in assets/strings.json");
            const bool found = std::any_of(rows.begin(), rows.end(), [&](const Row& r) { return r.en == text && r.in.count(name); });
            CHECK(found);
        }
        for (const Row& r : rows)
            if (r.in.count(name)) {
                INFO(name << ": the row \"" << r.en << "\" is used nowhere in its sources (remove it, or fix its \"in\")");
                CHECK(used.count(r.en) == 1);
            }
    }
    // Portuguese written out in the page (data-i18n-pt): the table's words, of a row whose English
    // the same surface marks.
    const std::set<std::string> page_used = surfaces[1].second;
    for (const fs::path& p : page_files())
        for (const std::string& pt : portuguese_texts(p)) {
            INFO(p.filename().string() << ": \"" << pt << "\" is marked data-i18n-pt but is no page row's pt-BR");
            CHECK(std::any_of(rows.begin(), rows.end(), [&](const Row& r) { return r.pt == pt && r.in.count("page") && page_used.count(r.en); }));
        }
    CHECK(!portuguese_texts(kSource / "web/site/index.html").empty());
}

TEST_CASE("the app writes no visible ImGui text as a bare literal") {
    // The calls whose first string argument is shown (TextColored's and InputTextWithHint's hint
    // are their second: matched by the optional leading argument). An ID ("##model") or a bare
    // format ("%s") shows nothing of its own; nor do the app's windows' names (no title bars).
    const std::regex call(
        R"re(ImGui::(Text|TextUnformatted|TextDisabled|TextWrapped|TextColored|BulletText|SeparatorText|LabelText|SetTooltip|Button|SmallButton|Checkbox|RadioButton|MenuItem|BeginMenu|Selectable|CollapsingHeader|TreeNode|BeginTabItem|TabItemButton|SliderInt|SliderFloat|SliderDouble|InputText|InputTextWithHint|InputInt|InputDouble|InputFloat|Combo|BeginCombo|TableSetupColumn|BeginPopupModal)\((?:[^;"()]*(?:\([^()]*\))?[^;"()]*,\s*)?"((?:[^"\\]|\\.)*)")re");
    const std::regex helper(R"re(\b(row_label|help_marker|pick_selectable|wrapped_tooltip|same_line_fitting)\("((?:[^"\\]|\\.)*)")re");
    const std::regex conversion(R"re(%[-+ #0]*[0-9*]*(?:\.[0-9*]+)?(?:ll|l|h|z)?[diouxXeEfgGcsp%])re");
    std::vector<std::string> bare;
    for (const fs::path& p : files_in("ui", {".cpp"})) {
        const std::string text = without_comment_lines(read_text(p));
        for (const std::regex* re : {&call, &helper})
            for (auto it = std::sregex_iterator(text.begin(), text.end(), *re); it != std::sregex_iterator(); ++it) {
                std::string lit = (*it)[2].str();
                lit = lit.substr(0, lit.find("##"));
                lit = std::regex_replace(lit, conversion, "");
                if (std::any_of(lit.begin(), lit.end(), [](char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }))
                    bare.push_back(p.filename().string() + ": " + (*it)[0].str());
            }
    }
    std::string list;
    for (const std::string& b : bare) list += "\n  " + b;
    INFO("shown without tr(): wrap them, and add their rows to assets/strings.json:" << list);
    CHECK(bare.empty());
}

TEST_CASE("tr and tr_label follow the language, and numbers take its separators") {
    using namespace gpusizer::ui;
    const Language before = language();
    set_language(Language::en);
    CHECK(std::string(tr("Fits")) == "Fits");
    CHECK(std::string(tr_label("Memory")) == "Memory###Memory");
    CHECK(format_gib(8.94 * 1073741824.0) == "8.94 GiB");
    CHECK(format_int(131072) == "131,072");
    set_language(Language::pt_br);
    CHECK(std::string(tr("Fits")) == "Cabe");
    CHECK(std::string(tr("Does not fit")) == "Não cabe");
    CHECK(std::string(tr("a text with no row")) == "a text with no row");
    CHECK(std::string(tr_label("Memory")) == "Memória###Memory");
    CHECK(std::string(tr_label("Context##ctx")) == "Contexto###Context##ctx");
    CHECK(format_gib(8.94 * 1073741824.0) == "8,94 GiB");
    CHECK(format_int(131072) == "131.072");
    CHECK(format_rate(12345.6) == "12.346");
    CHECK(format_fixed(0.25, 2) == "0,25");
    CHECK(format_duration(4 * 86400.0) == "4,0 dias");
    set_language(before);
    CHECK(language_from_tag("pt-BR") == Language::pt_br);
    CHECK(language_from_tag("pt") == Language::pt_br);
    CHECK(language_from_tag("PT_br") == Language::pt_br);
    CHECK(language_from_tag("en-US") == Language::en);
    CHECK(!language_from_tag("de-DE"));
    CHECK(!language_from_tag(""));
}

TEST_CASE("the browser app's table is keyed by text_hash: FNV-1a as web/strings_js.mjs computes it, no two app texts alike") {
    using namespace gpusizer::ui;
    // The FNV spec's 32-bit FNV-1a vectors, and a UTF-8 text as node's Buffer gives its bytes
    // (strings_js.mjs textHash("Memória") = 9ed48ae8).
    CHECK(text_hash("") == 0x811c9dc5u);
    CHECK(text_hash("a") == 0xe40c292cu);
    CHECK(text_hash("foobar") == 0xbf9cf968u);
    CHECK(text_hash("Mem\xc3\xb3ria") == 0x9ed48ae8u);
    // Two app rows with one hash would show one's Portuguese for the other (strings_js.mjs refuses
    // them too, at the browser build).
    std::map<std::uint32_t, std::string> seen;
    for (const Row& row : table_rows()) {
        if (!row.in.count("app")) continue;
        const auto [it, fresh] = seen.emplace(text_hash(row.en), row.en);
        INFO("\"" << row.en << "\" and \"" << it->second << "\" share a hash");
        CHECK((fresh || it->second == row.en));
    }
}
