/* `postc.print`: the text of each argument appended to the calling thread's
 * line, then the line written as one write, to the process's print handler
 * when one is set (the Python package sets one that writes to
 * `sys.stdout`), else to standard output. Floats are written as Python
 * writes a float (`repr`) and as NumPy writes a `float32` (`str`): the
 * fewest digits that read back as the same value, positionally or in
 * scientific notation as each decides (postc_ir::builtins::float_text is
 * the reference every backend's runtime follows). */
#include "internal.h"

#include <stdatomic.h>

static _Atomic(postc_print_handler) print_handler;
static _Atomic(void *) print_data;

static _Thread_local char *line;
static _Thread_local size_t line_len, line_cap;

POSTC_RT_EXPORT void postc_rt_set_print_handler(postc_print_handler h, void *data) {
  atomic_store(&print_data, data);
  atomic_store(&print_handler, h);
}

static void append(const char *p, size_t n) {
  if (line_len + n > line_cap) {
    size_t cap = line_cap ? 2 * line_cap : 256;
    while (cap < line_len + n) {
      cap *= 2;
    }
    char *grown = postc_rt_libc_malloc(cap);
    if (!grown) {
      postc_rt_oom();
    }
    postc_rt_libc_memcpy(grown, line, line_len);
    postc_rt_libc_free(line);
    line = grown;
    line_cap = cap;
  }
  postc_rt_libc_memcpy(line + line_len, p, n);
  line_len += n;
}

static int format(char *buf, size_t size, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = postc_rt_libc_vsnprintf(buf, size, fmt, ap);
  va_end(ap);
  return n;
}

void postc_rt_print_str(const char *p, int64_t n) { append(p, (size_t)n); }

void postc_rt_print_bool(int32_t x) { x ? append("True", 4) : append("False", 5); }

void postc_rt_print_int(int64_t x) {
  char buf[32];
  append(buf, (size_t)format(buf, sizeof buf, "%lld", (long long)x));
}

void postc_rt_print_uint(uint64_t x) {
  char buf[32];
  append(buf, (size_t)format(buf, sizeof buf, "%llu", (unsigned long long)x));
}

/* The shortest `%.*e` text of `x` that reads back as `x` (as a float when
 * `single`), then written as postc_ir::builtins::float_text writes it. */
static void print_float(double x, int single) {
  if (x != x) {
    append("nan", 3);
    return;
  }
  if (x == __builtin_inf() || x == -__builtin_inf()) {
    x < 0 ? append("-inf", 4) : append("inf", 3);
    return;
  }
  char sci[40];
  int most = single ? 9 : 17;
  for (int p = 1; p <= most; p++) {
    format(sci, sizeof sci, "%.*e", p - 1, x);
    int same = single ? postc_rt_libc_strtof(sci) == (float)x : postc_rt_libc_strtod(sci) == x;
    if (same) {
      break;
    }
  }
  /* sci: [-]D[.DDD]e(+|-)XX */
  const char *s = sci;
  int negative = *s == '-';
  s += negative;
  char digits[24];
  int nd = 0;
  for (; *s != 'e'; s++) {
    if (*s != '.') {
      digits[nd++] = *s;
    }
  }
  s++;
  int exp_negative = *s == '-';
  int exp = 0;
  for (s++; *s; s++) {
    exp = 10 * exp + (*s - '0');
  }
  if (exp_negative) {
    exp = -exp;
  }
  /* `%.*e` keeps trailing zeros of the precision it was given; the
   * shortest text has none (but one digit). */
  while (nd > 1 && digits[nd - 1] == '0') {
    nd--;
  }
  double magnitude = x < 0 ? -x : x;
  int positional = single ? (magnitude >= 1e-4 && magnitude < 1e6) : (exp >= -4 && exp < 16);
  char out[64];
  int n = 0;
  if (negative) {
    out[n++] = '-';
  }
  if (x == 0 || positional) {
    int point = exp + 1;
    if (x == 0) {
      point = 1;
      nd = 1;
    }
    if (point <= 0) {
      out[n++] = '0';
      out[n++] = '.';
      for (int i = 0; i < -point; i++) {
        out[n++] = '0';
      }
      for (int i = 0; i < nd; i++) {
        out[n++] = digits[i];
      }
    } else if (point >= nd) {
      for (int i = 0; i < nd; i++) {
        out[n++] = digits[i];
      }
      for (int i = nd; i < point; i++) {
        out[n++] = '0';
      }
      out[n++] = '.';
      out[n++] = '0';
    } else {
      for (int i = 0; i < nd; i++) {
        if (i == point) {
          out[n++] = '.';
        }
        out[n++] = digits[i];
      }
    }
  } else {
    out[n++] = digits[0];
    if (nd > 1) {
      out[n++] = '.';
      for (int i = 1; i < nd; i++) {
        out[n++] = digits[i];
      }
    }
    n += format(out + n, sizeof out - (size_t)n, "e%c%02d", exp < 0 ? '-' : '+', exp < 0 ? -exp : exp);
  }
  append(out, (size_t)n);
}

void postc_rt_print_f64(double x) { print_float(x, 0); }

void postc_rt_print_f32(float x) { print_float(x, 1); }

void postc_rt_print_end(void) {
  postc_print_handler h = atomic_load(&print_handler);
  if (h) {
    h(line, line_len, atomic_load(&print_data));
  } else {
    postc_rt_libc_write_fd(1, line, line_len);
  }
  line_len = 0;
}
