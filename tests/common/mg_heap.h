/* mg_heap.h: how many bytes malloc has handed out, for tests that find a leak or a free
   without a sanitizer. Under ASan or TSan the sanitizer's allocator answers instead of
   glibc's (LeakSanitizer judges leaks there), so mg_heap_in_use() gives -1 and the tests
   skip that check. */
#ifndef MG_HEAP_H_
#define MG_HEAP_H_

#include <malloc.h>
#include <stdlib.h>
#include <string.h>

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define MG_UNDER_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define MG_UNDER_SANITIZER 1
#endif
#endif
#ifndef MG_UNDER_SANITIZER
#define MG_UNDER_SANITIZER 0
#endif

/* glibc's count of the bytes in use (every arena, and mmapped blocks); -1 where it cannot be
   read: a sanitizer's allocator, another C library, a glibc before 2.33. */
static inline long long mg_heap_in_use(void) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
    if (MG_UNDER_SANITIZER) return -1;
    struct mallinfo2 m = mallinfo2();
    return (long long)(m.uordblks + m.hblkhd);
#else
    return -1;
#endif
}

/* glibc counts the chunks a thread's cache (tcache) keeps as in use, and that cache grows a
   little with the work done: a count exact to the byte needs it off, as CTest runs the tests
   that compare counts (GLIBC_TUNABLES=glibc.malloc.tcache_count=0). */
static inline int mg_heap_thread_cache_off(void) {
    const char *tunables = getenv("GLIBC_TUNABLES");
    return tunables != NULL && strstr(tunables, "glibc.malloc.tcache_count=0") != NULL;
}

#endif
