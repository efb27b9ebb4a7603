/* Panics: the message, then the thread's handler, else standard error and
 * abort. */
#include "internal.h"

static _Thread_local postc_panic_handler handler;
static _Thread_local void *handler_data;
/* The thread's buffer for messages longer than the one on the stack; kept,
 * since a handler may leave with longjmp. */
static _Thread_local char *long_message;
static _Thread_local size_t long_message_size;

POSTC_RT_EXPORT void postc_rt_set_panic_handler(postc_panic_handler h, void *data) {
  handler = h;
  handler_data = data;
}

void postc_rt_get_panic_handler(postc_panic_handler *h, void **data) {
  *h = handler;
  *data = handler_data;
}

POSTC_RT_EXPORT __attribute__((cold, noinline)) _Noreturn void postc_rt_panic(const char *fmt, ...) {
  char small[512];
  va_list ap;
  va_start(ap, fmt);
  int n = postc_rt_libc_vsnprintf(small, sizeof small, fmt, ap);
  va_end(ap);
  char *msg = small;
  size_t len = n < 0 ? 0 : (size_t)n;
  if (len >= sizeof small) {
    if (long_message_size <= len) {
      char *grown = postc_rt_libc_malloc(len + 1);
      if (grown) {
        postc_rt_libc_free(long_message);
        long_message = grown;
        long_message_size = len + 1;
      }
    }
    if (long_message_size > len) {
      va_start(ap, fmt);
      postc_rt_libc_vsnprintf(long_message, long_message_size, fmt, ap);
      va_end(ap);
      msg = long_message;
    } else {
      len = sizeof small - 1; /* truncated: no memory for more */
    }
  }
  if (len > 0 && msg[len - 1] == '\n') {
    msg[--len] = '\0';
  }
  if (handler) {
    /* The handler leaves every compiled frame by longjmp (or returns to the
     * abort below): the thread's depth of calls starts again from zero. */
    postc_rt_depth = 0;
    handler(msg, len, handler_data);
  }
  msg[len] = '\n';
  postc_rt_libc_write_stderr(msg, len + 1);
  postc_rt_libc_abort();
}

_Noreturn void postc_rt_oom(void) { postc_rt_panic("panic: out of memory (%s)", "arena"); }
