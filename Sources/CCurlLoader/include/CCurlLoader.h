#ifndef SWIFTDASH_CCURLLOADER_H
#define SWIFTDASH_CCURLLOADER_H

/// Whether libcurl could be loaded (curl_loader.c). Loads it on the first call; the message names
/// the library and why it could not be loaded, or is NULL.
int swiftdash_curl_available(const char **message);

#endif
