// web/lite_printf.cpp: snprintf and vsnprintf for the widget's module (gpusizer-lite.wasm), in
// place of musl's printf, whose printf_core, fmt_fp and helpers are 10 KB of WebAssembly for the
// few formats the core writes: messages and warnings with %d, %s, %.0f, %.1f, %.2f, %g, %.3g,
// %.*g, a link's %.17g, nlohmann's \u%04x. This one is a third of that: 2.9 KB less of the
// widget's gzipped download.
//
// The text is the same as musl's (and glibc's, which the CLI uses) for every conversion written
// here. Floating-point digits come from the browser: Number.prototype.toFixed and toExponential
// give the decimal nearest to the double's exact value (ECMAScript 2023, 21.1.3.3 and 21.1.3.2:
// "let n be an integer for which n / 10^f - x is as close to zero as possible"), which is what
// printf prints, except on an exact tie, where JavaScript takes the larger n and printf the even
// one (round-half-even in the default rounding mode): a tie is recognised from the double's bits
// (halfway below) and the digit taken back. tests/lite_printf_check.cpp compares this formatter
// with musl's over many formats and values.
//
// Conversions: d i u o x X c s f F e E g G and %%, with the flags - + space # 0, a width and a
// precision (numbers or *), and the lengths hh h l ll j z t. Anything else (%p, %n, %a, the L
// length) traps, as no caller in the module uses it; precision above 100 for a floating
// conversion traps too (the most JavaScript's digit functions give).
//
// With GPUSIZER_LITE_PRINTF_CHECK the two functions are gs_snprintf and gs_vsnprintf, for the
// check, which links them beside musl's own.
#include <cmath>
#include <cstdarg>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include <emscripten/emscripten.h>

#if GPUSIZER_LITE_PRINTF_CHECK
#define GPUSIZER_LITE_PRINTF_NAME(name) gs_##name
#else
#define GPUSIZER_LITE_PRINTF_NAME(name) name
#endif

// The digits of x (finite, >= 0): toFixed(precision) when `fixed`, else toExponential(precision),
// as ASCII at `out` (at most 412 bytes: 309 integer digits, the point, 100 decimals, or 107 for the
// exponential form); returns their length. toFixed writes numbers from 1e21 on in exponential
// form; those are integers (above 2^53), whose exact digits BigInt gives.
EM_JS(int, gpusizer_js_digits, (double x, int precision, int fixed, char* out), {
    var s = !fixed ? x.toExponential(precision)
          : x < 1e21 ? x.toFixed(precision)
          : BigInt(x).toString() + (precision ? "." + "0".repeat(precision) : "");
    for (var i = 0; i < s.length; ++i) HEAPU8[out + i] = s.charCodeAt(i);
    return s.length;
});

namespace {

constexpr unsigned kLeft = 1, kPlus = 2, kSpace = 4, kAlt = 8, kZero = 16;

// Where the text goes: the first size - 1 characters are kept; n counts them all.
struct Sink {
    char* buf;
    std::size_t size;
    std::size_t n = 0;
    void put(char c) {
        if (n + 1 < size) buf[n] = c;
        ++n;
    }
    void put(const char* s, int len) {
        for (int i = 0; i < len; ++i) put(s[i]);
    }
    void fill(char c, int count) {
        for (; count > 0; --count) put(c);
    }
};

// One conversion: its prefix (sign, 0x), `zeros` leading zeros, the body, padded to `width` with
// spaces (left or right) or, under the 0 flag, with zeros after the prefix.
void field(Sink& o, unsigned flags, int width, const char* prefix, int prefix_len, int zeros, const char* body, int body_len) {
    const int pad = width - prefix_len - zeros - body_len;
    if (!(flags & (kLeft | kZero))) o.fill(' ', pad);
    o.put(prefix, prefix_len);
    if ((flags & (kLeft | kZero)) == kZero) o.fill('0', pad);
    o.fill('0', zeros);
    o.put(body, body_len);
    if (flags & kLeft) o.fill(' ', pad);
}

void integer(Sink& o, unsigned long long v, bool negative, unsigned flags, int width, int precision, char conv) {
    const unsigned base = conv == 'o' ? 8 : (conv == 'x' || conv == 'X') ? 16 : 10;
    const char* digit = conv == 'X' ? "0123456789ABCDEF" : "0123456789abcdef";
    char body[24];   // 22 octal digits at most
    int at = sizeof body;
    for (; v; v /= base) body[--at] = digit[v % base];
    const int len = int(sizeof body) - at;
    char prefix[2];
    int prefix_len = 0;
    if (negative) prefix[prefix_len++] = '-';
    else if (flags & kPlus) prefix[prefix_len++] = '+';
    else if (flags & kSpace) prefix[prefix_len++] = ' ';
    if ((flags & kAlt) && base == 16 && len) {
        prefix[prefix_len++] = '0';
        prefix[prefix_len++] = conv;
    }
    if (precision >= 0) flags &= ~kZero;   // a precision turns the 0 flag off
    else precision = 1;
    int zeros = precision > len ? precision - len : 0;
    if ((flags & kAlt) && base == 8 && zeros < 1) zeros = 1;   // # makes an octal number begin with 0
    field(o, flags, width, prefix, prefix_len, zeros, body + at, len);
}

// Whether x (> 0, finite) lies exactly halfway between two multiples of 10^q, where printf rounds
// to the even one and JavaScript up. With x = m * 2^e, m odd: 2x / 10^q = m * 5^-q * 2^(e+1-q) is
// an odd integer exactly when e + 1 = q and, for q > 0, 5^q divides m.
bool halfway(double x, int q) {
    std::uint64_t bits;
    std::memcpy(&bits, &x, sizeof bits);
    int e = int(bits >> 52);
    std::uint64_t m = bits & ((std::uint64_t(1) << 52) - 1);
    if (e) m |= std::uint64_t(1) << 52;
    else e = 1;   // subnormal
    e -= 1075;
    const int zeros = __builtin_ctzll(m);
    m >>= zeros;
    if (e + zeros + 1 != q) return false;
    for (; q > 0; --q, m /= 5)
        if (m % 5) return false;
    return true;
}

int js_digits(double x, int precision, bool fixed, char* out) {
    if (precision > 100) __builtin_trap();
    return gpusizer_js_digits(x, precision, fixed, out);
}

// `last`: the last digit JavaScript wrote for x (>= 0), rounded at 10^q. On a tie JavaScript went
// up, to an odd digit where printf keeps the even one below; an odd digit is at least 1, so taking
// one back never borrows. (When the rounding carried into a new power of ten, 9.96 -> 1.0e+01,
// q is one place above where it rounded: no tie is found there, and a tie below would have gone
// up in printf too, as 9...9 is odd.)
void to_even(double x, int q, char* last) {
    if (x > 0 && halfway(x, q) && (*last - '0') % 2) --*last;
}

void floating(Sink& o, double x, unsigned flags, int width, int precision, char conv) {
    const bool upper = conv >= 'A' && conv <= 'Z';
    const char lower = char(conv | 0x20);
    char sign = std::signbit(x) ? '-' : (flags & kPlus) ? '+' : (flags & kSpace) ? ' ' : 0;
    if (!std::isfinite(x)) {
        const char* word = std::isnan(x) ? (upper ? "NAN" : "nan") : (upper ? "INF" : "inf");
        field(o, flags & ~kZero, width, &sign, sign ? 1 : 0, 0, word, 3);
        return;
    }
    x = std::fabs(x);
    if (precision < 0) precision = 6;
    char text[420];
    int len = 0;
    if (lower == 'f') {
        len = js_digits(x, precision, true, text);
        to_even(x, -precision, &text[len - 1]);
        if (precision == 0 && (flags & kAlt)) text[len++] = '.';
        field(o, flags, width, &sign, sign ? 1 : 0, 0, text, len);
        return;
    }
    // e and g: P significant digits in exponential form first, d.ddde+X (toExponential).
    const int p = lower == 'e' ? precision + 1 : precision ? precision : 1;
    char e_form[112];
    const int e_len = js_digits(x, p - 1, false, e_form);
    char digit[104];   // the P digits, without the point
    int n = 0;
    int at = 0;
    for (; e_form[at] != 'e'; ++at)
        if (e_form[at] != '.') digit[n++] = e_form[at];
    const bool negative_exponent = e_form[++at] == '-';
    int exponent = 0;
    while (++at < e_len) exponent = exponent * 10 + (e_form[at] - '0');
    if (negative_exponent) exponent = -exponent;
    to_even(x, exponent - (p - 1), &digit[n - 1]);
    bool exp_style = true;
    int decimals = p - 1;   // digits after the point
    if (lower == 'g') {
        // C17 7.21.6.1: style f with precision P - (X + 1) when P > X >= -4, else style e with P - 1;
        // without #, trailing zeros go, and the point with them.
        exp_style = !(p > exponent && exponent >= -4);
        decimals = exp_style ? p - 1 : p - 1 - exponent;
        if (!(flags & kAlt))
            for (; n > 1 && digit[n - 1] == '0' && decimals > 0; --n) --decimals;
    }
    if (exp_style) {
        text[len++] = digit[0];
        if (decimals > 0 || (flags & kAlt)) text[len++] = '.';
        for (int i = 1; i <= decimals; ++i) text[len++] = i < n ? digit[i] : '0';
        text[len++] = upper ? 'E' : 'e';
        text[len++] = exponent < 0 ? '-' : '+';
        const int a = exponent < 0 ? -exponent : exponent;
        if (a >= 100) text[len++] = char('0' + a / 100);
        text[len++] = char('0' + a / 10 % 10);
        text[len++] = char('0' + a % 10);
    } else {
        // Style f of the rounded digits: X + 1 integer digits (one 0 when X < 0), then `decimals`.
        at = 0;   // index into digit[] of the next digit, the first being at the value's 10^X place
        if (exponent < 0) text[len++] = '0';
        else
            for (; at <= exponent; ++at) text[len++] = at < n ? digit[at] : '0';
        if (decimals > 0 || (flags & kAlt)) text[len++] = '.';
        for (int i = 0; i < decimals; ++i) {
            const int k = exponent < 0 ? i + exponent + 1 : at++;   // k < 0: a zero before the first digit
            text[len++] = k >= 0 && k < n ? digit[k] : '0';
        }
    }
    field(o, flags, width, &sign, sign ? 1 : 0, 0, text, len);
}

}  // namespace

extern "C" int GPUSIZER_LITE_PRINTF_NAME(vsnprintf)(char* buf, std::size_t size, const char* format, va_list ap) {
    Sink o{buf, size};
    for (const char* p = format; *p; ++p) {
        if (*p != '%') {
            o.put(*p);
            continue;
        }
        unsigned flags = 0;
        for (;; ++p) {
            const char c = p[1];
            const unsigned f = c == '-' ? kLeft : c == '+' ? kPlus : c == ' ' ? kSpace : c == '#' ? kAlt : c == '0' ? kZero : 0;
            if (!f) break;
            flags |= f;
        }
        ++p;
        int width = 0;
        if (*p == '*') {
            width = va_arg(ap, int);
            if (width < 0) flags |= kLeft, width = -width;
            ++p;
        } else
            for (; *p >= '0' && *p <= '9'; ++p) width = width * 10 + (*p - '0');
        int precision = -1;
        if (*p == '.') {
            ++p;
            if (*p == '*') {
                precision = va_arg(ap, int);
                if (precision < 0) precision = -1;   // a negative precision is taken as none
                ++p;
            } else
                for (precision = 0; *p >= '0' && *p <= '9'; ++p) precision = precision * 10 + (*p - '0');
        }
        // The length: 'h' and 'l' counted (hh = -2, ll = 2); j, z, t as their types.
        int longs = 0;
        char size_kind = 0;
        for (; *p == 'h' || *p == 'l'; ++p) longs += *p == 'l' ? 1 : -1;
        if (*p == 'j' || *p == 'z' || *p == 't') size_kind = *p++;
        const char conv = *p;
        switch (conv) {
        case 'd':
        case 'i': {
            long long v = size_kind == 'j' ? (long long)va_arg(ap, std::intmax_t)
                          : size_kind == 'z' ? (long long)va_arg(ap, std::ptrdiff_t)   // the signed type of size_t's width
                          : size_kind == 't' ? (long long)va_arg(ap, std::ptrdiff_t)
                          : longs >= 2       ? va_arg(ap, long long)
                          : longs == 1       ? (long long)va_arg(ap, long)
                                             : (long long)va_arg(ap, int);
            if (longs == -1) v = short(v);
            if (longs <= -2) v = (signed char)(v);
            integer(o, v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v, v < 0, flags, width, precision, conv);
            break;
        }
        case 'u':
        case 'o':
        case 'x':
        case 'X': {
            unsigned long long v = size_kind == 'j' ? (unsigned long long)va_arg(ap, std::uintmax_t)
                                   : size_kind == 'z' ? (unsigned long long)va_arg(ap, std::size_t)
                                   : size_kind == 't' ? (unsigned long long)(std::size_t)va_arg(ap, std::ptrdiff_t)
                                   : longs >= 2       ? va_arg(ap, unsigned long long)
                                   : longs == 1       ? (unsigned long long)va_arg(ap, unsigned long)
                                                      : (unsigned long long)va_arg(ap, unsigned);
            if (longs == -1) v = (unsigned short)(v);
            if (longs <= -2) v = (unsigned char)(v);
            integer(o, v, false, flags & ~(kPlus | kSpace), width, precision, conv);
            break;
        }
        case 'c': {
            const char c = char(va_arg(ap, int));
            field(o, flags & ~kZero, width, nullptr, 0, 0, &c, 1);
            break;
        }
        case 's': {
            const char* s = va_arg(ap, const char*);
            if (!s) s = "(null)";
            const int len = int(precision >= 0 ? strnlen(s, std::size_t(precision)) : std::strlen(s));
            field(o, flags & ~kZero, width, nullptr, 0, 0, s, len);
            break;
        }
        case 'f':
        case 'F':
        case 'e':
        case 'E':
        case 'g':
        case 'G':
            floating(o, va_arg(ap, double), flags, width, precision, conv);
            break;
        case '%':
            o.put('%');
            break;
        default:
            __builtin_trap();   // %p, %n, %a, or a stray '%': see the list above
        }
    }
    if (size) buf[o.n < size ? o.n : size - 1] = 0;
    return int(o.n);
}

extern "C" int GPUSIZER_LITE_PRINTF_NAME(snprintf)(char* buf, std::size_t size, const char* format, ...) {
    va_list ap;
    va_start(ap, format);
    const int n = GPUSIZER_LITE_PRINTF_NAME(vsnprintf)(buf, size, format, ap);
    va_end(ap);
    return n;
}
