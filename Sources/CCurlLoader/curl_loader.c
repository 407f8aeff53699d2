// libcurl, loaded when the first request is made instead of when the program starts (issue 35).
//
// swiftdash and its provider host are one program (swiftdash-fetch is a link to swiftdash, decision
// 62). Foundation's URLSession (FoundationNetworking, linked statically) calls the 23 libcurl
// functions below; linked against libcurl.so.4, every start of the home screen would map libcurl and
// the 30 libraries behind it (TLS, Kerberos, LDAP, …): +6.5 MB resident and +6 to 13 ms to start,
// measured with LD_PRELOAD. Defined here, they resolve at link time (the targets that import
// FoundationNetworking pass `-disable-autolink-library curl`, so no DT_NEEDED names libcurl), and
// the first call opens libcurl.so.4 with dlopen and forwards to it. Only a process that makes a
// request pays for it: the provider host and the one-request helper, never the home screen.
//
// The three variadic functions take exactly one argument after the option (a long, a pointer, a
// curl_off_t or a function pointer, all passed in one integer register on the ABIs Swift supports
// on Linux), forwarded as it came.
#include "CCurlLoader.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define CURL_FUNCTIONS(X)                                                                                    \
    X(curl_easy_cleanup) X(curl_easy_getinfo) X(curl_easy_init) X(curl_easy_pause) X(curl_easy_setopt)       \
    X(curl_easy_strerror) X(curl_free) X(curl_global_init) X(curl_multi_add_handle) X(curl_multi_assign)     \
    X(curl_multi_cleanup) X(curl_multi_info_read) X(curl_multi_init) X(curl_multi_remove_handle)             \
    X(curl_multi_setopt) X(curl_multi_socket_action) X(curl_slist_append) X(curl_slist_free_all) X(curl_url) \
    X(curl_url_get) X(curl_url_set) X(curl_version) X(curl_version_info)

static struct {
#define FIELD(name) void *name;
    CURL_FUNCTIONS(FIELD)
#undef FIELD
} real;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char failure[512];

static void load(void) {
    void *lib = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        const char *why = dlerror();
        snprintf(failure, sizeof failure, "libcurl (libcurl.so.4) could not be loaded: %s", why ? why : "not found");
        return;
    }
#define LOOKUP(name)                                                                                      \
    real.name = dlsym(lib, #name);                                                                        \
    if (!real.name) {                                                                                     \
        snprintf(failure, sizeof failure, "libcurl.so.4 has no %s (libcurl 7.62 or later is needed)", #name); \
        return;                                                                                           \
    }
    CURL_FUNCTIONS(LOOKUP)
#undef LOOKUP
}

int swiftdash_curl_available(const char **message) {
    pthread_once(&once, load);
    if (message) *message = failure[0] ? failure : NULL;
    return failure[0] == 0;
}

/// The function `name` of libcurl; a process that cannot load it says why and ends (URLSession has
/// no way to be told that libcurl is missing).
static void *need(void *const *slot) {
    pthread_once(&once, load);
    if (failure[0]) {
        dprintf(2, "swiftdash: %s\n", failure);
        _exit(70);
    }
    return *slot;
}

#define CALL(name, type) ((type)need(&real.name))

void curl_easy_cleanup(void *h) { CALL(curl_easy_cleanup, void (*)(void *))(h); }
void *curl_easy_init(void) { return CALL(curl_easy_init, void *(*)(void))(); }
int curl_easy_pause(void *h, int mask) { return CALL(curl_easy_pause, int (*)(void *, int))(h, mask); }
const char *curl_easy_strerror(int code) { return CALL(curl_easy_strerror, const char *(*)(int))(code); }
void curl_free(void *p) { CALL(curl_free, void (*)(void *))(p); }
int curl_global_init(long flags) { return CALL(curl_global_init, int (*)(long))(flags); }
int curl_multi_add_handle(void *m, void *h) { return CALL(curl_multi_add_handle, int (*)(void *, void *))(m, h); }
int curl_multi_assign(void *m, int socket, void *p) {
    return CALL(curl_multi_assign, int (*)(void *, int, void *))(m, socket, p);
}
int curl_multi_cleanup(void *m) { return CALL(curl_multi_cleanup, int (*)(void *))(m); }
void *curl_multi_info_read(void *m, int *left) { return CALL(curl_multi_info_read, void *(*)(void *, int *))(m, left); }
void *curl_multi_init(void) { return CALL(curl_multi_init, void *(*)(void))(); }
int curl_multi_remove_handle(void *m, void *h) { return CALL(curl_multi_remove_handle, int (*)(void *, void *))(m, h); }
int curl_multi_socket_action(void *m, int socket, int mask, int *running) {
    return CALL(curl_multi_socket_action, int (*)(void *, int, int, int *))(m, socket, mask, running);
}
void *curl_slist_append(void *list, const char *s) {
    return CALL(curl_slist_append, void *(*)(void *, const char *))(list, s);
}
void curl_slist_free_all(void *list) { CALL(curl_slist_free_all, void (*)(void *))(list); }
void *curl_url(void) { return CALL(curl_url, void *(*)(void))(); }
int curl_url_get(void *u, int part, char **out, unsigned flags) {
    return CALL(curl_url_get, int (*)(void *, int, char **, unsigned))(u, part, out, flags);
}
int curl_url_set(void *u, int part, const char *s, unsigned flags) {
    return CALL(curl_url_set, int (*)(void *, int, const char *, unsigned))(u, part, s, flags);
}
char *curl_version(void) { return CALL(curl_version, char *(*)(void))(); }
void *curl_version_info(int age) { return CALL(curl_version_info, void *(*)(int))(age); }

#define FORWARD_ONE(function, handle_type)                                                \
    int function(handle_type h, int option, ...) {                                        \
        va_list ap;                                                                       \
        va_start(ap, option);                                                             \
        void *argument = va_arg(ap, void *);                                              \
        va_end(ap);                                                                       \
        return CALL(function, int (*)(handle_type, int, ...))(h, option, argument);       \
    }

FORWARD_ONE(curl_easy_setopt, void *)
FORWARD_ONE(curl_easy_getinfo, void *)
FORWARD_ONE(curl_multi_setopt, void *)
