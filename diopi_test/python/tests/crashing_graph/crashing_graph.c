/*
 * A graph compiler that dies, for tests/test_graph_replay.py. It forwards diopi/graph.h's entry point and the
 * last-error string to a correct library (the one named by DIOPI_GRAPH_FORWARD, impl/cpu in the tests), except
 * that compiling a graph whose name starts with "crash" prints a line to stderr and aborts: the worker that
 * replays it dies in the vendor's code, and the harness must charge that graph alone and go on.
 */
#include <diopi/graph.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void* real(const char* name) {
    static void* lib = NULL;
    if (!lib) {
        const char* path = getenv("DIOPI_GRAPH_FORWARD");
        lib = path ? dlopen(path, RTLD_NOW | RTLD_LOCAL) : NULL;
        if (!lib) {
            fprintf(stderr, "crashing_graph: cannot open DIOPI_GRAPH_FORWARD=%s\n", path ? path : "(unset)");
            return NULL;
        }
    }
    return dlsym(lib, name);
}

static const diopiGraphCompiler_t* forward(void) {
    diopiGetGraphCompilerFn get = (diopiGetGraphCompilerFn)real("diopiGetGraphCompiler");
    return get ? get() : NULL;
}

static diopiError_t crashingCompile(diopiContextHandle_t ctx, const diopiGraph_t* graph, diopiGraphExecutableHandle_t* executable,
                                    int32_t* declined, int32_t* num_declined) {
    if (graph->name && strncmp(graph->name, "crash", 5) == 0) {
        fprintf(stderr, "crashing_graph: compiling %s went wrong\n", graph->name);
        fflush(stderr);
        abort();
    }
    return forward()->compile(ctx, graph, executable, declined, num_declined);
}

static diopiError_t forwardRun(diopiContextHandle_t ctx, diopiGraphExecutableHandle_t executable, const diopiConstTensorHandle_t* inputs,
                               const diopiTensorHandle_t* outputs, const int64_t* symbols) {
    return forward()->run(ctx, executable, inputs, outputs, symbols);
}

static diopiError_t forwardDestroy(diopiGraphExecutableHandle_t executable) { return forward()->destroy(executable); }

DIOPI_API const diopiGraphCompiler_t* diopiGetGraphCompiler(void) {
    static diopiGraphCompiler_t compiler;
    const diopiGraphCompiler_t* inner = forward();
    if (!inner) return NULL;
    compiler = *inner;
    compiler.name = "crashing_graph";
    compiler.compile = crashingCompile;
    compiler.run = forwardRun;
    compiler.destroy = forwardDestroy;
    return &compiler;
}

DIOPI_API const char* diopiGetLastErrorString(void) {
    const char* (*f)(void) = (const char* (*)(void))real("diopiGetLastErrorString");
    return f ? f() : "crashing_graph: no forward library";
}
