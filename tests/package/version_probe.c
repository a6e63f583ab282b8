/* version_probe: prints the version three ways a program can learn it from the installed
 * package: the runtime's aclrtGetVersion, and the compile-time macros of mishgrad/version.h.
 * check_version.sh compares them with pkg-config's and the CMake package's. */
#include <stdio.h>

#include "acl/acl.h"
#include "mishgrad/version.h"

int main(void) {
    int32_t major = -1, minor = -1, patch = -1;
    /* CANN marks aclrtGetVersion deprecated; it is still the runtime's version query. */
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#endif
    aclError status = aclrtGetVersion(&major, &minor, &patch);
    aclError null_status = aclrtGetVersion(NULL, &minor, &patch);
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif
    if (status != ACL_SUCCESS) {
        printf("aclrtGetVersion failed: %d\n", (int)status);
        return 1;
    }
    printf("runtime=%d.%d.%d\n", (int)major, (int)minor, (int)patch);
    printf("header=%d.%d.%d\n", MISHGRAD_VERSION_MAJOR, MISHGRAD_VERSION_MINOR, MISHGRAD_VERSION_PATCH);
    printf("header_string=%s\n", MISHGRAD_VERSION_STRING);
    printf("header_number=%d\n", MISHGRAD_VERSION);
    printf("null_status=%d\n", (int)null_status);
    return 0;
}
