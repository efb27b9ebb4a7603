/* The concatenation of `Str` and `Bytes` values. (Their comparisons are
 * written out by `legalize`, in POST IR, for every backend.) */
#include "internal.h"

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
