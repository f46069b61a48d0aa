/* libc-mini: vsnprintf/snprintf.
 *
 * Integer and string conversions only: the on-machine code is built with
 * -mgeneral-regs-only, so there is no floating point to format. Output
 * follows glibc wherever the C standard leaves room (%p, NULL strings), so
 * the host unit test can compare byte for byte against the host library.
 *
 * A conversion this file does not know is copied to the output as written
 * ("%q" stays "%q") and consumes no argument: a typo in a log format must
 * not shift every later argument or read past the end of the list. */
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include "mini/stdio.h"
#include "mini/string.h"

/* Where the output goes. len counts every byte the full output would take;
 * bytes past size-1 are counted but not stored. */
struct out {
	char *buf;
	size_t size;
	size_t len;
};

enum {
	F_MINUS = 1 << 0, /* '-': left-justify */
	F_ZERO = 1 << 1,  /* '0': pad numbers with zeros */
	F_PLUS = 1 << 2,  /* '+': always print a sign */
	F_SPACE = 1 << 3, /* ' ': space where a '+' would go */
	F_ALT = 1 << 4,   /* '#': 0x prefix for %x */
};

/* One parsed conversion specification. */
struct spec {
	unsigned int flags;
	int width; /* 0 when absent */
	int prec;  /* -1 when absent */
	char conv;
};

static void put(struct out *o, char c)
{
	if (o->len + 1 < o->size)
		o->buf[o->len] = c;
	o->len++;
}

static void put_n(struct out *o, const char *s, size_t n)
{
	while (n--)
		put(o, *s++);
}

static void pad(struct out *o, char c, int n)
{
	while (n-- > 0)
		put(o, c);
}

/* Prints n bytes of s inside the field width. */
static void emit_str(struct out *o, const struct spec *sp, const char *s,
		     size_t n)
{
	int fill = (size_t)sp->width > n ? sp->width - (int)n : 0;

	if (!(sp->flags & F_MINUS))
		pad(o, ' ', fill);
	put_n(o, s, n);
	if (sp->flags & F_MINUS)
		pad(o, ' ', fill);
}

static void fmt_str(struct out *o, const struct spec *sp, const char *s)
{
	size_t n;

	/* glibc prints "(null)" only when the precision leaves room for all
	 * of it, and nothing otherwise; doing the same keeps tests exact. */
	if (!s)
		s = (sp->prec < 0 || sp->prec >= 6) ? "(null)" : "";
	/* With a precision, s need not be terminated: read at most prec. */
	n = sp->prec >= 0 ? LM(strnlen)(s, (size_t)sp->prec) : LM(strlen)(s);
	emit_str(o, sp, s, n);
}

/* Formats an unsigned magnitude with an optional sign or 0x prefix, the
 * precision (minimum digits) and the field width. */
static void fmt_uint(struct out *o, const struct spec *sp,
		     unsigned long long v, unsigned int base, bool upper,
		     const char *prefix)
{
	const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	char tmp[24]; /* 2^64 needs 20 decimal or 16 hex digits */
	int nd = 0, nzero, npre;
	long long fill; /* wide: prefix + precision can exceed INT_MAX */

	/* C: zero with precision 0 prints no digits at all. */
	while (v || (nd == 0 && sp->prec != 0)) {
		tmp[nd++] = digits[v % base];
		v /= base;
	}
	nzero = sp->prec > nd ? sp->prec - nd : 0;
	npre = (int)LM(strlen)(prefix);
	fill = (long long)sp->width - npre - nzero - nd;
	if (fill < 0)
		fill = 0;
	/* From here fill <= width - nzero - nd, so the sums below fit. */

	/* '0' pads between prefix and digits, but a precision overrides it. */
	if ((sp->flags & (F_ZERO | F_MINUS)) == F_ZERO && sp->prec < 0) {
		nzero += (int)fill;
		fill = 0;
	}
	if (!(sp->flags & F_MINUS))
		pad(o, ' ', (int)fill);
	put_n(o, prefix, (size_t)npre);
	pad(o, '0', nzero);
	while (nd)
		put(o, tmp[--nd]);
	if (sp->flags & F_MINUS)
		pad(o, ' ', (int)fill);
}

static void fmt_signed(struct out *o, const struct spec *sp, long long v)
{
	/* 0 - (unsigned)v is the magnitude even for LLONG_MIN. */
	unsigned long long mag = v < 0 ? 0ULL - (unsigned long long)v
				       : (unsigned long long)v;
	const char *prefix = "";

	if (v < 0)
		prefix = "-";
	else if (sp->flags & F_PLUS)
		prefix = "+";
	else if (sp->flags & F_SPACE)
		prefix = " ";
	fmt_uint(o, sp, mag, 10, false, prefix);
}

static void fmt_ptr(struct out *o, const struct spec *sp, const void *p)
{
	struct spec s = *sp;

	/* glibc: NULL is "(nil)"; anything else is %#lx, but the sign flags
	 * still apply ("%+p" gives "+0x1"). */
	if (!p) {
		s.prec = -1;
		emit_str(o, &s, "(nil)", 5);
		return;
	}
	fmt_uint(o, &s, (uintptr_t)p, 16, false,
		 (s.flags & F_PLUS) ? "+0x" : (s.flags & F_SPACE) ? " 0x" : "0x");
}

/* Parses a decimal field, saturating at INT_MAX instead of overflowing.
 * Width and precision stay in [0, INT_MAX], which keeps the padding
 * arithmetic in fmt_uint free of overflow. */
static int parse_num(const char **fmt)
{
	const char *f = *fmt;
	int n = 0, d;

	for (; *f >= '0' && *f <= '9'; f++) {
		d = *f - '0';
		n = n > (INT_MAX - d) / 10 ? INT_MAX : n * 10 + d;
	}
	*fmt = f;
	return n;
}

static unsigned int parse_flags(const char **fmt)
{
	unsigned int flags = 0;

	for (;; (*fmt)++) {
		switch (**fmt) {
		case '-': flags |= F_MINUS; break;
		case '0': flags |= F_ZERO; break;
		case '+': flags |= F_PLUS; break;
		case ' ': flags |= F_SPACE; break;
		case '#': flags |= F_ALT; break;
		default: return flags;
		}
	}
}

/* Length modifiers, normalised. */
enum len { L_NONE, L_HH, L_H, L_L, L_LL, L_Z, L_J, L_T };

static enum len parse_len(const char **fmt)
{
	const char *f = *fmt;
	enum len l = L_NONE;

	switch (*f) {
	case 'h':
		l = f[1] == 'h' ? L_HH : L_H;
		break;
	case 'l':
		l = f[1] == 'l' ? L_LL : L_L;
		break;
	case 'z': l = L_Z; break;
	case 'j': l = L_J; break;
	case 't': l = L_T; break;
	default: return L_NONE;
	}
	*fmt = f + ((l == L_HH || l == L_LL) ? 2 : 1);
	return l;
}

/* The va_arg calls live in this one function: va_list cannot portably be
 * handed to helpers and used again afterwards. */
int LM(vsnprintf)(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct out o = { .buf = buf, .size = size, .len = 0 };
	struct spec sp;
	const char *start;
	enum len len;
	long long sv;
	unsigned long long uv;

	while (*fmt) {
		if (*fmt != '%') {
			put(&o, *fmt++);
			continue;
		}
		start = fmt++;
		sp.flags = parse_flags(&fmt);
		sp.width = 0;
		if (*fmt == '*') {
			int w = va_arg(ap, int);

			fmt++;
			/* A negative * width means '-' and its magnitude. */
			if (w < 0) {
				sp.flags |= F_MINUS;
				w = w == INT_MIN ? INT_MAX : -w;
			}
			sp.width = w;
		} else {
			sp.width = parse_num(&fmt);
		}
		sp.prec = -1;
		if (*fmt == '.') {
			fmt++;
			if (*fmt == '*') {
				int p = va_arg(ap, int);

				fmt++;
				/* A negative * precision counts as absent. */
				sp.prec = p < 0 ? -1 : p;
			} else {
				sp.prec = parse_num(&fmt);
			}
		}
		len = parse_len(&fmt);
		sp.conv = *fmt;

		switch (sp.conv) {
		case 'd':
		case 'i':
			switch (len) {
			case L_HH: sv = (signed char)va_arg(ap, int); break;
			case L_H: sv = (short)va_arg(ap, int); break;
			case L_L: sv = va_arg(ap, long); break;
			case L_LL: sv = va_arg(ap, long long); break;
			/* The signed type of size_t's width. */
			case L_Z: sv = va_arg(ap, ptrdiff_t); break;
			case L_J: sv = va_arg(ap, intmax_t); break;
			case L_T: sv = va_arg(ap, ptrdiff_t); break;
			default: sv = va_arg(ap, int); break;
			}
			fmt_signed(&o, &sp, sv);
			break;
		case 'u':
		case 'x':
		case 'X':
			switch (len) {
			case L_HH: uv = (unsigned char)va_arg(ap, unsigned int); break;
			case L_H: uv = (unsigned short)va_arg(ap, unsigned int); break;
			case L_L: uv = va_arg(ap, unsigned long); break;
			case L_LL: uv = va_arg(ap, unsigned long long); break;
			case L_Z: uv = va_arg(ap, size_t); break;
			case L_J: uv = va_arg(ap, uintmax_t); break;
			/* The unsigned type of ptrdiff_t's width. */
			case L_T: uv = va_arg(ap, size_t); break;
			default: uv = va_arg(ap, unsigned int); break;
			}
			if (sp.conv == 'u')
				fmt_uint(&o, &sp, uv, 10, false, "");
			else if ((sp.flags & F_ALT) && uv)
				fmt_uint(&o, &sp, uv, 16, sp.conv == 'X',
					 sp.conv == 'X' ? "0X" : "0x");
			else
				fmt_uint(&o, &sp, uv, 16, sp.conv == 'X', "");
			break;
		case 'p':
			fmt_ptr(&o, &sp, va_arg(ap, void *));
			break;
		case 's':
			fmt_str(&o, &sp, va_arg(ap, const char *));
			break;
		case 'c': {
			char c = (char)va_arg(ap, int);

			emit_str(&o, &sp, &c, 1);
			break;
		}
		case '%':
			put(&o, '%');
			break;
		case '\0':
			/* Format ends inside a conversion: print what there
			 * was and stop before the terminator. */
			put_n(&o, start, (size_t)(fmt - start));
			continue;
		default:
			/* Unknown conversion: copy it verbatim, consume no
			 * argument for it. */
			put_n(&o, start, (size_t)(fmt + 1 - start));
			break;
		}
		fmt++;
	}

	if (size)
		buf[o.len < size ? o.len : size - 1] = '\0';
	/* C: the return value is an int; an output that long is an error. */
	return o.len > INT_MAX ? -1 : (int)o.len;
}

int LM(snprintf)(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = LM(vsnprintf)(buf, size, fmt, ap);
	va_end(ap);
	return r;
}
