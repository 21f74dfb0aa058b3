// lite_printf_check.cpp: the widget module's snprintf (web/lite_printf.cpp, its digits from the
// JavaScript engine) against musl's, to the byte, in WebAssembly under Node.js. Built by the wasm
// preset as build/wasm/tests/lite_printf_check.js and run by the test browser_lite_printf
// (tests/browser/lite_printf.test.mjs): every format below over every value below, and 120,000
// random doubles through the floating formats the core writes. Exits 1 at a difference,
// naming the format, the value's bits and both texts.
#include <cinttypes>
#include <cmath>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

extern "C" int gs_vsnprintf(char* buf, std::size_t size, const char* format, va_list ap);
extern "C" int gs_snprintf(char* buf, std::size_t size, const char* format, ...);

namespace {

int g_failures = 0;

// An argument as the report of a difference shows it: a double by its bits.
std::string value_text(double v) {
    std::uint64_t u;
    std::memcpy(&u, &v, sizeof u);
    char b[40];
    std::snprintf(b, sizeof b, " 0x%016" PRIx64, u);
    return b;
}
std::string value_text(const char* s) { return std::string(" \"") + s + "\""; }
std::string value_text(long long v) { return " " + std::to_string(v); }
template <typename T>
std::string value_text(T v) { return " " + std::to_string(v); }

long g_checked = 0;

// Both formatters on the same arguments, at full size and into a short buffer (truncation and
// the returned length).
template <typename... A>
void same(const char* format, A... args) {
    char want[1024], got[1024];
    const int nw = std::snprintf(want, sizeof want, format, args...);
    std::memset(got, 'x', sizeof got);
    const int ng = gs_snprintf(got, sizeof got, format, args...);
    char want_short[6], got_short[6];
    const int sw = std::snprintf(want_short, sizeof want_short, format, args...);
    const int sg = gs_snprintf(got_short, sizeof got_short, format, args...);
    ++g_checked;
    if (nw != ng || std::strcmp(want, got) != 0 || sw != sg || std::strcmp(want_short, got_short) != 0) {
        if (++g_failures <= 30) {
            std::string values;
            ((values += value_text(args)), ...);
            std::printf("DIFFERENT  format \"%s\"%s: musl \"%s\" (%d), lite \"%s\" (%d)\n", format, values.c_str(), want, nw, got, ng);
        }
    }
}

std::uint64_t g_state = 0x9e3779b97f4a7c15ull;
std::uint64_t next() {   // splitmix64
    std::uint64_t z = (g_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
double from_bits(std::uint64_t u) {
    double d;
    std::memcpy(&d, &u, sizeof d);
    return d;
}

}  // namespace

int main() {
    const char* floats[] = {"%f",    "%.0f",   "%.1f",   "%.2f",    "%.3f",  "%.6f",   "%.17f",  "%.20f",   "%e",     "%.0e",
                            "%.1e",  "%.3e",   "%.16e",  "%g",      "%.0g",  "%.1g",   "%.2g",   "%.3g",    "%.4g",   "%.6g",
                            "%.10g", "%.15g",  "%.16g",  "%.17g",   "%#g",   "%#.3g",  "%#.0f",  "%#.0e",   "%+.2f",  "% .2f",
                            "%12.3f", "%-12.3f|", "%012.3f", "%+012.3e", "%G",  "%E",     "%F",     "%12g",    "%-12g|", "%012g",
                            "%.2f GiB", "%.0f%%", "%#.10g", "%.50f", "%.100e", "%.100g", "%.100f"};
    std::vector<double> values = {0.0,   -0.0,   1.0,    -1.0,    0.5,    1.5,     2.5,     0.125,   0.375,  -2.5,
                                  9.5,   99.5,   0.05,   0.15,    0.25,   0.35,    1e-5,    1e-4,    9.9999e-5, 0.0001,
                                  9.96,  99.96,  999999.5, 1e21,  1e22,   1.5e300, 1.7976931348623157e308,
                                  4.9406564584124654e-324, 2.2250738585072014e-308, 123456789.125, 0.1, 0.2, 0.3, 1.0 / 3,
                                  2.0 / 3, 1e15, 1e16, 1e17, 9007199254740993.0, 5e-1, 25.0, 125.0, 1234.5, 12345.5,
                                  std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(),
                                  std::nan(""), -std::nan("")};
    // Exact ties at every place: (2k + 1) / 2^j, and (2k + 1) * 5^j * 10^i / 2 (halfway at 10^i).
    for (int j = 1; j <= 30; ++j)
        for (long long k : {0LL, 1LL, 2LL, 7LL, 12LL, 1234LL, 99999LL})
            values.push_back(double(2 * k + 1) / std::ldexp(1.0, j));
    for (int i = 1; i <= 20; ++i)
        for (long long k : {0LL, 1LL, 4LL, 9LL, 49LL, 99LL, 12345LL})
            values.push_back(double(2 * k + 1) * std::pow(10.0, i) / 2);
    // Around powers of ten.
    for (int e = -20; e <= 25; ++e) {
        const double p = std::pow(10.0, e);
        values.push_back(p);
        values.push_back(std::nextafter(p, 0.0));
        values.push_back(std::nextafter(p, 1e300));
        values.push_back(p * 9.5);
        values.push_back(p * 0.95);
    }
    for (double v : values) {
        for (const char* f : floats) same(f, v);
        for (int digits = 0; digits <= 17; ++digits) same("%.*g", digits, v);
        same("%*.*f", 14, 4, v);
        same("%-*.*e|", 16, 3, v);
    }
    // Random doubles: any bit pattern, and decimals of a few digits (as figures in the catalog are).
    const char* common[] = {"%.0f", "%.1f", "%.2f", "%.3g", "%g", "%.17g", "%e", "%.10g"};
    for (int i = 0; i < 40000; ++i) {
        const double any = from_bits(next());
        const double decimal = double(next() % 2000000) / std::pow(10.0, double(next() % 12)) * ((next() & 1) ? 1 : -1);
        const double ratio = double(next() % 100000 + 1) / double(next() % 1000 + 1);
        for (const char* f : common) {
            same(f, any);
            same(f, decimal);
            same(f, ratio);
        }
    }
    // Integers, characters, strings.
    const char* ints[] = {"%d", "%5d", "%-5d|", "%05d", "%+d", "% d", "%.3d", "%.0d", "%i", "%8.3d", "%-+8d|", "%x", "%#x", "%X",
                          "%#X", "%04x", "%.4X", "%o", "%#o", "%#.0o", "%u", "%hhd", "%hd", "%hhu", "%hx", "%c"};
    for (int v : {0, 1, -1, 7, 42, -42, 255, 256, 65535, 65536, 123456789, -123456789, 2147483647, -2147483647 - 1})
        for (const char* f : ints)
            if (std::strcmp(f, "%c") || (v >= 32 && v < 127)) same(f, v);
    for (long long v : {0LL, -1LL, 9007199254740993LL, -9223372036854775807LL - 1, 9223372036854775807LL}) {
        same("%lld", v);
        same("%+20lld", v);
        same("%llu", v);
        same("%llx", v);
        same("%#llo", v);
        same("%jd", static_cast<std::intmax_t>(v));
    }
    for (long v : {0L, -5L, 2147483647L}) {
        same("%ld", v);
        same("%lu", v);
        same("%zu", static_cast<std::size_t>(v));
        same("%zd", static_cast<std::ptrdiff_t>(v));
        same("%td", static_cast<std::ptrdiff_t>(v));
    }
    for (const char* s : {"", "a", "abc", "llama-3-70b", "a longer string than the short buffer"}) {
        same("%s", s);
        same("%10s|", s);
        same("%-10s|", s);
        same("%.3s|", s);
        same("[%*s]", 7, s);
        same("%s has no %s tensor cores (%.0f TFLOPS%s)", s, "fp8", 989.4, ", CUDA cores");
    }
    same("%%");
    same("no conversion at all");
    same("\\u%04x", 0x1f);
    same("<U+%.4X>", 0x7f);
    same("tp %d pp %d dp %d ep %d (%d GPUs), %g requests in flight", 8, 2, 4, 1, 64, 12.5);
    std::printf("%ld formats checked, %d different\n", g_checked, g_failures);
    return g_failures ? 1 : 0;
}
