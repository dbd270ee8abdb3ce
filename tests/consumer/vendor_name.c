/* A program whose own code calls only the operator library, never the
 * runtime: the library's queries and one operator given NULL handles, which
 * must answer with an error code and a message. The runtime still has to be
 * linked, because libdiopi_impl.so needs it (pkg-config --libs diopirt). */
#include <diopi/functions.h>
#include <stdio.h>

int main(void) {
    diopiError_t st = diopiAdd(NULL, NULL, NULL, NULL, NULL);
    if (st == diopiSuccess) return fprintf(stderr, "diopiAdd accepted NULL handles\n"), 1;
    if (!diopiGetLastErrorString()[0]) return fprintf(stderr, "diopiAdd failed without a message\n"), 1;
    printf("ok %s\n", diopiGetVendorName());
    return 0;
}
