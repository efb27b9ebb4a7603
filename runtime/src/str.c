/* `Str` and `Bytes` comparisons and concatenation. */
#include "internal.h"

_Bool postc_rt_str_eq(postc_rt_str a, postc_rt_str b) {
  return a.len == b.len && postc_rt_libc_memcmp(a.ptr, b.ptr, (size_t)a.len) == 0;
}

int32_t postc_rt_str_cmp(postc_rt_str a, postc_rt_str b) {
  int64_t n = a.len < b.len ? a.len : b.len;
  int c = postc_rt_libc_memcmp(a.ptr, b.ptr, (size_t)n);
  if (c != 0) {
    return c;
  }
  return a.len < b.len ? -1 : a.len > b.len ? 1 : 0;
}

postc_rt_str postc_rt_str_concat(postc_rt_str a, postc_rt_str b) {
  size_t n = (size_t)a.len + (size_t)b.len;
  char *p = postc_rt_libc_malloc(n + 1);
  if (!p) {
    postc_rt_oom();
  }
  postc_rt_libc_memcpy(p, a.ptr, (size_t)a.len);
  postc_rt_libc_memcpy(p + a.len, b.ptr, (size_t)b.len);
  p[n] = '\0';
  return (postc_rt_str){p, (int64_t)n};
}
