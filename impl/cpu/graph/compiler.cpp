// impl/cpu's graph compiler (diopi/graph.h).
//
// compile() splits the graph's nodes into runs of fusible float32
// elementwise nodes (add/sub/mul/div with tensors or scalars, neg, exp,
// relu, sigmoid, silu, tanh, rsqrt, sqrt, pow by a scalar, with
// broadcasting) and single calls. Each run becomes one loop over its output
// shape: a small register program interpreted over chunks of elements, so
// every instruction is a tight loop the compiler vectorizes, and values used
// only inside the run never reach memory. Every other node stays a call of
// impl/cpu's own exported function (through the generated thunks), so an
// executable serves whole graphs. Nodes it declines: functions without a
// thunk (an output parameter that is not a tensor, a tensor-array output),
// and calls that would need a handle for a view (the runtime cannot make
// one over a caller's memory).
#include <diopi/graph.h>
#include <dlfcn.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "common/fastmath.hpp"
#include "graph/thunks.hpp"

namespace impl::cpu::graph {
namespace {

enum Op : int { kLoad, kConst, kAdd, kSub, kMul, kDiv, kNeg, kExp, kRelu, kSigmoid, kSilu, kTanh, kRsqrt, kSqrt, kPow };

struct Instr {
    Op op;
    int dst, a = -1, b = -1;
    float c = 0.f;  // constant (kConst, kPow exponent, kAxpy alpha)
    int load = -1;  // kLoad: index into Fused::loads
};

struct Load {
    int tensor;
    std::vector<int64_t> bstride;  // strides broadcast to the loop shape (0 on broadcast dims)
};

struct Fused {
    std::vector<int64_t> shape;
    int64_t numel = 1;
    std::vector<Load> loads;
    std::vector<Instr> code;
    std::vector<std::pair<int, int>> stores;  // (register, tensor), tensors contiguous over shape
    int regs = 0;
};

struct Call {
    std::string name, kinds;
    Thunk thunk = nullptr;
    GenericFn fn = nullptr;
    std::vector<diopiGraphArg_t> args;
    std::vector<std::vector<int64_t>> ints;  // owned copies of array arguments
    std::vector<std::string> strings;
    // Prepared at compile time (prepare()): each argument's slot as far as it is known then -- numbers, scalars,
    // strings and literal arrays pointing into this call's own storage -- so that a run copies them and fills in
    // only the `dynamic` arguments (tensors, tensor lists, symbols), in run storage of at most `listLen` handles,
    // `intLen` integers and `sizeLen` sizes: no allocation per call per run.
    std::vector<Slot> base;
    std::vector<int> dynamic;
    std::vector<diopiScalar_t> scalars;
    std::vector<double> doubles;
    std::unique_ptr<bool[]> bools;
    std::vector<int64_t> singles;
    std::vector<diopiSize_t> sizes;
    size_t listLen = 0, intLen = 0, sizeLen = 0;
};

void prepare(Call& c) {
    const size_t n = c.args.size();
    c.base.assign(n, Slot{});
    c.scalars.assign(n, diopiScalar_t{});
    c.doubles.assign(n, 0.0);
    c.bools.reset(new bool[n + 1]());
    c.singles.assign(n, 0);
    c.sizes.assign(n, diopiSize_t{nullptr, 0});
    for (size_t k = 0; k < n; ++k) {
        const diopiGraphArg_t& a = c.args[k];
        Slot& sl = c.base[k];
        const char want = c.kinds[k];
        switch (a.kind) {
            case diopi_graph_arg_tensor: c.dynamic.push_back((int)k); break;
            case diopi_graph_arg_tensor_list: c.dynamic.push_back((int)k); c.listLen += c.ints[k].size(); break;
            case diopi_graph_arg_scalar: c.scalars[k] = a.scalar; sl.p = &c.scalars[k]; break;
            case diopi_graph_arg_int:
                sl.i = a.i;
                if (want == 'B') { c.bools[k] = a.i != 0; sl.p = &c.bools[k]; }
                if (want == 'N') { c.singles[k] = a.i; sl.p = &c.singles[k]; }
                break;
            case diopi_graph_arg_float: sl.d = c.doubles[k] = a.f; if (want == 'F') sl.p = &c.doubles[k]; break;
            case diopi_graph_arg_symbolic_int: c.dynamic.push_back((int)k); c.intLen += 1; break;
            case diopi_graph_arg_int_array:
                sl.z = c.sizes[k] = diopiSize_t{c.ints[k].data(), (int64_t)c.ints[k].size()};
                sl.p = want == 'S' ? static_cast<void*>(&c.sizes[k]) : static_cast<void*>(c.ints[k].data());
                break;
            case diopi_graph_arg_symbolic_int_array:
                c.dynamic.push_back((int)k);
                c.intLen += c.ints[k].size();
                c.sizeLen += 1;
                break;
            case diopi_graph_arg_string: sl.p = const_cast<char*>(c.strings[k].c_str()); break;
            default: break;  // none, and a generator the call does not draw from: NULL
        }
    }
}

struct TensorInfo {
    diopiGraphTensor_t t;
    std::vector<int64_t> shape, stride;
    std::vector<unsigned char> data;
};

struct Step {
    bool fused = false;
    Fused loop;
    Call call;
};

}  // namespace
}  // namespace impl::cpu::graph

struct diopiGraphExecutable {
    std::vector<impl::cpu::graph::TensorInfo> tensors;
    std::vector<impl::cpu::graph::Step> steps;
    int numInputs = 0, numOutputs = 0;
    std::vector<bool> needsMemory;  // per tensor: read or written through memory by some step
    std::string name;
};

namespace impl::cpu::graph {
namespace {

int64_t elemSize(int32_t dtype) {
    switch (dtype) {
        case diopi_dtype_int8: case diopi_dtype_uint8: case diopi_dtype_bool: return 1;
        case diopi_dtype_int16: case diopi_dtype_uint16: case diopi_dtype_float16: case diopi_dtype_bfloat16: return 2;
        case diopi_dtype_int32: case diopi_dtype_uint32: case diopi_dtype_float32: return 4;
        case diopi_dtype_complex128: return 16;
        default: return 8;
    }
}

std::vector<int64_t> contiguous(const std::vector<int64_t>& shape) {
    std::vector<int64_t> s(shape.size());
    int64_t acc = 1;
    for (size_t i = shape.size(); i-- > 0;) {
        s[i] = acc;
        acc *= shape[i];
    }
    return s;
}

bool symbolic(const TensorInfo& t) {
    for (int64_t v : t.shape) if (v < 0) return true;
    for (int64_t v : t.stride) if (v < 0) return true;
    return false;
}

double scalarValue(const diopiScalar_t& s) { return s.stype == diopi_dtype_float64 || s.stype == diopi_dtype_float32 ? s.fval : (double)s.ival; }

struct Builder {
    diopiGraphExecutable& ex;
    const diopiGraph_t& g;
    std::vector<int> users;   // number of nodes reading each tensor
    std::vector<bool> isOutput;

    const TensorInfo& T(int i) const { return ex.tensors.at(i); }

    bool floatTensor(int i) const {
        if (i < 0 || i >= (int)ex.tensors.size()) return false;
        const TensorInfo& t = T(i);
        return t.t.dtype == diopi_dtype_float32 && !symbolic(t);
    }
    bool contiguousOver(int i, const std::vector<int64_t>& shape) const {
        const TensorInfo& t = T(i);
        return t.shape == shape && t.stride == contiguous(shape);
    }
    // Elementwise pattern of a node: op, tensor inputs, scalar operand, alpha; false when not fusible.
    bool pattern(const diopiGraphNode_t& n, Op& op, int& out, int& a, int& b, float& c, float& alpha) const {
        std::string f = n.function;
        auto arg = [&](int k) -> const diopiGraphArg_t& { return n.args[k]; };
        auto tensor = [&](int k) { return k < n.num_args && arg(k).kind == diopi_graph_arg_tensor ? (int)arg(k).i : -1; };
        auto scalar = [&](int k, float& v) {
            if (k >= n.num_args || arg(k).kind != diopi_graph_arg_scalar) return false;
            v = (float)scalarValue(arg(k).scalar);
            return true;
        };
        static const std::pair<const char*, Op> unary[] = {{"diopiNeg", kNeg}, {"diopiExp", kExp}, {"diopiRelu", kRelu},
            {"diopiSigmoid", kSigmoid}, {"diopiSilu", kSilu}, {"diopiTanh", kTanh}, {"diopiRsqrt", kRsqrt}, {"diopiSqrt", kSqrt}};
        out = tensor(0);
        a = tensor(1);
        b = -1;
        alpha = 1.f;
        c = 0.f;
        for (auto& u : unary)
            if (f == u.first && n.num_args == 2) { op = u.second; goto check; }
        if ((f == "diopiAdd" || f == "diopiSub") && n.num_args == 4) {
            op = f == "diopiAdd" ? kAdd : kSub;
            b = tensor(2);
            if (arg(3).kind != diopi_graph_arg_none && !scalar(3, alpha)) return false;
            if (b < 0) return false;
        } else if (f == "diopiMul" && n.num_args == 3) {
            op = kMul; b = tensor(2); if (b < 0) return false;
        } else if (f == "diopiDiv" && n.num_args == 4) {
            op = kDiv; b = tensor(2); if (b < 0 || arg(3).i != 0) return false;
        } else if ((f == "diopiAddScalar" || f == "diopiSubScalar") && n.num_args == 4) {
            float s;
            if (!scalar(2, s)) return false;
            if (arg(3).kind != diopi_graph_arg_none && !scalar(3, alpha)) return false;
            op = kAdd; c = (f == "diopiAddScalar" ? 1.f : -1.f) * s * alpha; alpha = 1.f; b = -2;  // b = constant c
        } else if (f == "diopiMulScalar" && n.num_args == 3) {
            if (!scalar(2, c)) return false;
            op = kMul; b = -2;
        } else if (f == "diopiDivScalar" && n.num_args == 4) {
            if (!scalar(2, c) || arg(3).i != 0) return false;
            op = kDiv; b = -2;
        } else if (f == "diopiPow" && n.num_args == 3) {
            if (!scalar(2, c)) return false;
            op = kPow;
        } else {
            return false;
        }
    check:
        if (!floatTensor(out) || !floatTensor(a) || (b >= 0 && !floatTensor(b))) return false;
        if (!contiguousOver(out, T(out).shape)) return false;
        // inputs must broadcast to the output's shape
        for (int in : {a, b}) {
            if (in < 0) continue;
            const auto& s = T(in).shape;
            const auto& o = T(out).shape;
            if (s.size() > o.size()) return false;
            for (size_t k = 0; k < s.size(); ++k) {
                int64_t x = s[s.size() - 1 - k], y = o[o.size() - 1 - k];
                if (x != y && x != 1) return false;
            }
        }
        // the output must not overlap an input of the same node (the loop reads and writes by chunks)
        return out != a && out != b;
    }

    std::vector<int64_t> broadcastStride(int t, const std::vector<int64_t>& shape) const {
        const TensorInfo& x = T(t);
        std::vector<int64_t> bs(shape.size(), 0);
        size_t off = shape.size() - x.shape.size();
        for (size_t k = 0; k < x.shape.size(); ++k) bs[off + k] = x.shape[k] == 1 ? 0 : x.stride[k];
        return bs;
    }

    // Builds the steps; appends declined node indices.
    void build(std::vector<int32_t>& declined) {
        int i = 0;
        while (i < g.num_nodes) {
            Op op; int out, a, b; float c, alpha;
            // a first node the loop cannot take (a store into a view) is a call
            if (pattern(g.nodes[i], op, out, a, b, c, alpha) && T(out).t.role != diopi_graph_tensor_view) {
                Step st;
                st.fused = true;
                Fused& L = st.loop;
                L.shape = T(out).shape;
                for (int64_t v : L.shape) L.numel *= v;
                std::vector<int> reg(ex.tensors.size(), -1);  // tensor -> register holding it in this loop
                std::vector<int> producedAt(ex.tensors.size(), -1);
                int j = i;
                for (; j < g.num_nodes; ++j) {
                    if (!pattern(g.nodes[j], op, out, a, b, c, alpha) || T(out).shape != L.shape) break;
                    if (reg[out] >= 0) break;  // written twice: keep it simple, start a new loop
                    // memory read and written in one loop must not overlap (chunks of a store land before later
                    // chunks are loaded): no store into a view, no load of a view of what the loop writes
                    if (T(out).t.role == diopi_graph_tensor_view) break;
                    bool overlap = false;
                    for (int in : {a, b})
                        if (in >= 0 && T(in).t.role == diopi_graph_tensor_view && producedAt[T(in).t.view_of] >= 0) overlap = true;
                    for (auto& ld : L.loads)
                        if (T(ld.tensor).t.role == diopi_graph_tensor_view && T(ld.tensor).t.view_of == out) overlap = true;
                    if (overlap) break;
                    auto operand = [&](int t) {
                        if (reg[t] >= 0) return reg[t];
                        Instr in{kLoad, L.regs++};
                        in.load = (int)L.loads.size();
                        L.loads.push_back({t, broadcastStride(t, L.shape)});
                        L.code.push_back(in);
                        return reg[t] = in.dst;
                    };
                    int ra = operand(a), rb = -1;
                    if (b >= 0) rb = operand(b);
                    if (b == -2) { rb = L.regs++; Instr k{kConst, rb}; k.c = c; L.code.push_back(k); }
                    if (alpha != 1.f && (op == kAdd || op == kSub)) {
                        int rs = L.regs++;
                        Instr k{kConst, rs}; k.c = alpha; L.code.push_back(k);
                        int rm = L.regs++;
                        L.code.push_back(Instr{kMul, rm, rb, rs});
                        rb = rm;
                    }
                    Instr in{op, L.regs++, ra, rb};
                    in.c = c;
                    L.code.push_back(in);
                    reg[out] = in.dst;
                    producedAt[out] = j;
                }
                // store what lives beyond the loop: graph outputs, tensors read after it, and anything viewed
                for (size_t t = 0; t < ex.tensors.size(); ++t) {
                    if (producedAt[t] < 0) continue;
                    const auto& ti = T((int)t);
                    bool needed = ti.t.role != diopi_graph_tensor_intermediate || ti.t.last_use >= j || ti.t.last_use < 0;
                    for (size_t v = 0; v < ex.tensors.size() && !needed; ++v)
                        needed = T((int)v).t.role == diopi_graph_tensor_view && T((int)v).t.view_of == (int)t;
                    if (needed) L.stores.push_back({reg[t], (int)t});
                }
                for (auto& ld : L.loads) ex.needsMemory[ld.tensor] = true;
                for (auto& s2 : L.stores) ex.needsMemory[s2.second] = true;
                ex.steps.push_back(std::move(st));
                i = j;
                continue;
            }
            // a call of impl/cpu's own function
            const diopiGraphNode_t& n = g.nodes[i];
            auto it = thunks().find(n.function ? n.function : "");
            Step st;
            bool ok = it != thunks().end() && (int)std::strlen(it->second.kinds) == n.num_args;
            if (ok) {
                st.call.name = n.function;
                st.call.thunk = it->second.thunk;
                st.call.kinds = it->second.kinds;
#ifdef DIOPI_GRAPH_KERNEL_TABLE
                st.call.fn = kernelOf(n.function);
#else
                st.call.fn = reinterpret_cast<GenericFn>(dlsym(RTLD_DEFAULT, n.function));
                Dl_info self{};
                if (!st.call.fn && dladdr(reinterpret_cast<void*>(&thunks), &self) && self.dli_fname) {
                    void* h = dlopen(self.dli_fname, RTLD_NOW | RTLD_NOLOAD);
                    if (h) st.call.fn = reinterpret_cast<GenericFn>(dlsym(h, n.function));
                }
#endif
                ok = st.call.fn != nullptr;
            }
            for (int k = 0; ok && k < n.num_args; ++k) {
                const diopiGraphArg_t& a = n.args[k];
                char want = it->second.kinds[k];
                if (a.kind == diopi_graph_arg_tensor) {
                    ok = want == 't' && a.i >= -1 && a.i < (int64_t)ex.tensors.size() &&
                         (a.i < 0 || T((int)a.i).t.role != diopi_graph_tensor_view);
                } else if (a.kind == diopi_graph_arg_tensor_list) {
                    for (int e = 0; ok && e < a.len; ++e)
                        ok = a.ints[e] >= -1 && a.ints[e] < (int64_t)ex.tensors.size() &&
                             (a.ints[e] < 0 || T((int)a.ints[e]).t.role != diopi_graph_tensor_view);
                } else if (a.kind == diopi_graph_arg_int_array || a.kind == diopi_graph_arg_symbolic_int_array) {
                    ok = want != 't' && want != 'l';
                } else if (a.kind == diopi_graph_arg_symbolic_int) {
                    ok = (want == 'i' || want == 'N') && a.i >= 0 && a.i < g.num_symbols;
                } else if (a.kind == diopi_graph_arg_generator) {
                    // Random nodes stay with the framework's generator state; a node whose dropout probability is a
                    // literal 0 (attention without dropout) draws nothing and runs with no generator.
                    const int d = it->second.dropout;
                    ok = d >= 0 && d < n.num_args && n.args[d].kind == diopi_graph_arg_float && n.args[d].f == 0.0;
                } else {
                    ok = a.kind == diopi_graph_arg_none || a.kind == diopi_graph_arg_scalar || a.kind == diopi_graph_arg_int ||
                         a.kind == diopi_graph_arg_float || a.kind == diopi_graph_arg_string;  // a kind of a later version: declined
                }
            }
            if (!ok) {
                declined.push_back(i);
                ++i;
                continue;
            }
            st.call.args.assign(n.args, n.args + n.num_args);
            st.call.ints.resize(n.num_args);
            st.call.strings.resize(n.num_args);
            for (int k = 0; k < n.num_args; ++k) {
                auto& a = st.call.args[k];
                if (a.ints) st.call.ints[k].assign(a.ints, a.ints + a.len);
                if (a.s) st.call.strings[k] = a.s;
            }
            prepare(st.call);
            for (auto& a : st.call.args) {
                if (a.kind == diopi_graph_arg_tensor && a.i >= 0) ex.needsMemory[a.i] = true;
            }
            for (size_t k = 0; k < st.call.args.size(); ++k)
                if (st.call.args[k].kind == diopi_graph_arg_tensor_list)
                    for (int64_t id : st.call.ints[k]) if (id >= 0) ex.needsMemory[id] = true;
            ex.steps.push_back(std::move(st));
            ++i;
        }
    }
};

constexpr int64_t kChunk = 512;

void runLoop(const Fused& L, const std::vector<char*>& ptr) {
    std::vector<float> regs((size_t)L.regs * kChunk);
    const int nd = (int)L.shape.size();
    std::vector<int64_t> idx(nd);
    for (int64_t base = 0; base < L.numel; base += kChunk) {
        const int64_t n = std::min(kChunk, L.numel - base);
        // multi-index of `base`
        int64_t rem = base;
        for (int d = nd - 1; d >= 0; --d) { idx[d] = L.shape[d] ? rem % L.shape[d] : 0; rem = L.shape[d] ? rem / L.shape[d] : 0; }
        for (const Instr& in : L.code) {
            float* r = &regs[(size_t)in.dst * kChunk];
            const float* x = in.a >= 0 ? &regs[(size_t)in.a * kChunk] : nullptr;
            const float* y = in.b >= 0 ? &regs[(size_t)in.b * kChunk] : nullptr;
            switch (in.op) {
                case kLoad: {
                    // row segments along the last dimension: a copy, a fill (broadcast) or a strided gather each
                    const Load& ld = L.loads[in.load];
                    const float* src = reinterpret_cast<const float*>(ptr[ld.tensor]);
                    if (nd == 0) { r[0] = src[0]; break; }
                    std::vector<int64_t> j(idx);
                    const int64_t last = L.shape[nd - 1], inner = ld.bstride[nd - 1];
                    int64_t e = 0;
                    while (e < n) {
                        int64_t off = 0;
                        for (int d = 0; d < nd; ++d) off += j[d] * ld.bstride[d];
                        const int64_t len = std::min(n - e, last - j[nd - 1]);
                        if (inner == 1) std::memcpy(r + e, src + off, sizeof(float) * len);
                        else if (inner == 0) std::fill(r + e, r + e + len, src[off]);
                        else for (int64_t q = 0; q < len; ++q) r[e + q] = src[off + q * inner];
                        e += len;
                        j[nd - 1] += len;
                        for (int d = nd - 1; d > 0 && j[d] >= L.shape[d]; --d) { j[d] = 0; ++j[d - 1]; }
                    }
                    break;
                }
                case kConst: for (int64_t e = 0; e < n; ++e) r[e] = in.c; break;
                case kAdd: for (int64_t e = 0; e < n; ++e) r[e] = x[e] + y[e]; break;
                case kSub: for (int64_t e = 0; e < n; ++e) r[e] = x[e] - y[e]; break;
                case kMul: for (int64_t e = 0; e < n; ++e) r[e] = x[e] * y[e]; break;
                case kDiv: for (int64_t e = 0; e < n; ++e) r[e] = x[e] / y[e]; break;
                case kNeg: for (int64_t e = 0; e < n; ++e) r[e] = -x[e]; break;
                case kExp: for (int64_t e = 0; e < n; ++e) r[e] = expF(x[e]); break;
                case kRelu: for (int64_t e = 0; e < n; ++e) r[e] = x[e] > 0.f ? x[e] : (x[e] != x[e] ? x[e] : 0.f); break;
                case kSigmoid: for (int64_t e = 0; e < n; ++e) r[e] = 1.f / (1.f + expF(-x[e])); break;
                case kSilu: for (int64_t e = 0; e < n; ++e) r[e] = x[e] / (1.f + expF(-x[e])); break;
                case kTanh: for (int64_t e = 0; e < n; ++e) r[e] = std::tanh(x[e]); break;
                case kRsqrt: for (int64_t e = 0; e < n; ++e) r[e] = 1.f / std::sqrt(x[e]); break;
                case kSqrt: for (int64_t e = 0; e < n; ++e) r[e] = std::sqrt(x[e]); break;
                case kPow:
                    if (in.c == 2.f) for (int64_t e = 0; e < n; ++e) r[e] = x[e] * x[e];
                    else for (int64_t e = 0; e < n; ++e) r[e] = std::pow(x[e], in.c);
                    break;
            }
        }
        for (auto& [reg, t] : L.stores)
            std::memcpy(reinterpret_cast<float*>(ptr[t]) + base, &regs[(size_t)reg * kChunk], sizeof(float) * n);
    }
}

diopiError_t compileGraph(diopiContextHandle_t, const diopiGraph_t* graph, diopiGraphExecutableHandle_t* executable,
                          int32_t* declined, int32_t* numDeclined) {
    return guard("diopiGraphCompiler.compile", [&] {
        CPU_CHECK(graph && executable && numDeclined && declined, "NULL argument");
        CPU_CHECK(graph->version / 1000 == DIOPI_GRAPH_VERSION / 1000, "graph form version ", graph->version, ", this compiler reads ",
                  DIOPI_GRAPH_VERSION);
        *executable = nullptr;
        *numDeclined = 0;
        auto ex = std::make_unique<diopiGraphExecutable>();
        ex->numInputs = graph->num_inputs;
        ex->numOutputs = graph->num_outputs;
        ex->name = graph->name ? graph->name : "";
        for (int i = 0; i < graph->num_tensors; ++i) {
            TensorInfo t;
            t.t = graph->tensors[i];
            t.shape.assign(t.t.shape, t.t.shape + t.t.ndim);
            t.stride = t.t.stride ? std::vector<int64_t>(t.t.stride, t.t.stride + t.t.ndim) : contiguous(t.shape);
            if (t.t.role == diopi_graph_tensor_constant) {
                CPU_CHECK(t.t.data && !symbolic(t), "constant tensor ", i, " has no data or a symbolic size");
                int64_t n = 1;
                for (int64_t v : t.shape) n *= v;
                auto p = static_cast<const unsigned char*>(t.t.data);
                t.data.assign(p, p + n * elemSize(t.t.dtype));
            }
            if (t.t.role == diopi_graph_tensor_view)
                CPU_CHECK(t.t.view_of >= 0 && t.t.view_of < i, "view tensor ", i, " views ", t.t.view_of, ", not an earlier tensor");
            if (t.t.role == diopi_graph_tensor_input) CPU_CHECK(t.t.index >= 0 && t.t.index < graph->num_inputs, "input index out of range");
            if (t.t.role == diopi_graph_tensor_output) CPU_CHECK(t.t.index >= 0 && t.t.index < graph->num_outputs, "output index out of range");
            ex->tensors.push_back(std::move(t));
        }
        for (int i = 0; i < graph->num_nodes; ++i) CPU_CHECK(graph->nodes[i].function && (graph->nodes[i].num_args == 0 || graph->nodes[i].args), "node ", i, " is malformed");
        ex->needsMemory.assign(ex->tensors.size(), false);
        for (size_t i = 0; i < ex->tensors.size(); ++i)  // what a view reads lives in memory
            if (ex->tensors[i].t.role == diopi_graph_tensor_view) ex->needsMemory[ex->tensors[i].t.view_of] = true;
        Builder b{*ex, *graph};
        std::vector<int32_t> d;
        b.build(d);
        if (!d.empty()) {
            std::copy(d.begin(), d.end(), declined);
            *numDeclined = (int32_t)d.size();
            return;
        }
        *executable = ex.release();
    });
}

diopiError_t runGraph(diopiContextHandle_t ctx, diopiGraphExecutableHandle_t ex, const diopiConstTensorHandle_t* inputs,
                      const diopiTensorHandle_t* outputs, const int64_t* symbols) {
    return guard("diopiGraphCompiler.run", [&] {
        CPU_CHECK(ex, "NULL executable");
        const size_t nt = ex->tensors.size();
        std::vector<diopiTensorHandle_t> h(nt, nullptr);
        std::vector<char*> ptr(nt, nullptr);
        auto resolve = [&](const std::vector<int64_t>& v) {
            std::vector<int64_t> r(v);
            for (auto& x : r) if (x < 0) { CPU_CHECK(symbols, "symbolic size without symbols"); x = symbols[-x - 1]; }
            return r;
        };
        for (size_t i = 0; i < nt; ++i) {
            const TensorInfo& t = ex->tensors[i];
            switch (t.t.role) {
                case diopi_graph_tensor_input: h[i] = const_cast<diopiTensorHandle_t>(inputs[t.t.index]); break;
                case diopi_graph_tensor_output: h[i] = outputs[t.t.index]; break;
                case diopi_graph_tensor_intermediate:
                case diopi_graph_tensor_constant: {
                    if (!ex->needsMemory[i]) break;
                    auto shape = resolve(t.shape), stride = resolve(t.stride);
                    diopiSize_t sz{shape.data(), (int64_t)shape.size()}, st{stride.data(), (int64_t)stride.size()};
                    diopiError_t e = diopiRequireTensor(ctx, &h[i], &sz, &st, (diopiDtype_t)t.t.dtype, diopi_host);
                    CPU_CHECK(e == diopiSuccess && h[i], "cannot allocate tensor ", i);
                    break;
                }
                default: break;
            }
            if (h[i]) {
                void* p = nullptr;
                CPU_CHECK(diopiGetTensorData(h[i], &p) == diopiSuccess, "no data pointer for tensor ", i);
                ptr[i] = static_cast<char*>(p);
                if (t.t.role == diopi_graph_tensor_constant) std::memcpy(p, t.data.data(), t.data.size());
            } else if (t.t.role == diopi_graph_tensor_view) {
                ptr[i] = ptr[t.t.view_of] ? ptr[t.t.view_of] + t.t.offset * elemSize(t.t.dtype) : nullptr;
            }
        }
        // Run storage for the arguments a run fills in, sized for the largest call: pointers into it stay valid
        // while a call's slots are prepared (nothing grows past its reservation).
        size_t listCap = 0, intCap = 0, sizeCap = 0;
        for (const Step& st : ex->steps) {
            if (st.fused) continue;
            listCap = std::max(listCap, st.call.listLen);
            intCap = std::max(intCap, st.call.intLen);
            sizeCap = std::max(sizeCap, st.call.sizeLen);
        }
        std::vector<Slot> slots;
        std::vector<diopiConstTensorHandle_t> lists;
        std::vector<int64_t> ints;
        std::vector<diopiSize_t> sizes;
        lists.reserve(listCap);
        ints.reserve(intCap);
        sizes.reserve(sizeCap);
        for (size_t s = 0; s < ex->steps.size(); ++s) {
            const Step& st = ex->steps[s];
            if (st.fused) {
                runLoop(st.loop, ptr);
                continue;
            }
            const Call& c = st.call;
            slots.assign(c.base.begin(), c.base.end());
            lists.clear();
            ints.clear();
            sizes.clear();
            for (int k : c.dynamic) {
                const diopiGraphArg_t& a = c.args[k];
                Slot& sl = slots[k];
                switch (a.kind) {
                    case diopi_graph_arg_tensor: sl.p = a.i >= 0 ? h[a.i] : nullptr; break;
                    case diopi_graph_arg_tensor_list: {
                        const size_t at = lists.size();
                        for (int64_t id : c.ints[k]) lists.push_back(id >= 0 ? h[id] : nullptr);
                        sl.p = lists.data() + at;
                        sl.i = a.len;
                        break;
                    }
                    case diopi_graph_arg_symbolic_int:
                        CPU_CHECK(symbols, "a symbolic argument without symbols");
                        sl.i = symbols[a.i];
                        if (c.kinds[k] == 'N') {
                            ints.push_back(sl.i);
                            sl.p = &ints.back();
                        }
                        break;
                    case diopi_graph_arg_symbolic_int_array: {
                        const size_t at = ints.size();
                        for (int64_t x : c.ints[k]) {
                            if (x < 0) CPU_CHECK(symbols, "a symbolic argument without symbols");
                            ints.push_back(x < 0 ? symbols[-x - 1] : x);
                        }
                        sl.z = diopiSize_t{ints.data() + at, (int64_t)c.ints[k].size()};
                        sizes.push_back(sl.z);
                        sl.p = c.kinds[k] == 'S' ? static_cast<void*>(&sizes.back()) : static_cast<void*>(ints.data() + at);
                        break;
                    }
                    default: break;
                }
            }
            diopiError_t e = c.thunk(c.fn, ctx, slots.data());
            if (e != diopiSuccess) {
                const char* why = impl::cpu::lastErrorString();
                throw Error(e, detail::concat("node ", c.name, " (step ", s, "): ", why ? why : ""));
            }
        }
    });
}

diopiError_t destroyGraph(diopiGraphExecutableHandle_t ex) {
    delete ex;
    return diopiSuccess;
}

const diopiGraphCompiler_t kCompiler = {DIOPI_GRAPH_VERSION, sizeof(diopiGraphCompiler_t), "impl/cpu fused elementwise loops + calls",
                                        compileGraph, runGraph, destroyGraph};

}  // namespace
}  // namespace impl::cpu::graph

#ifdef DIOPI_GRAPH_KERNEL_TABLE
// Built into another library (impl/sim): the table is that library's to export, wrapped.
const diopiGraphCompiler_t* impl::cpu::graph::innerCompiler() { return &kCompiler; }
#else
extern "C" __attribute__((visibility("default"))) const diopiGraphCompiler_t* diopiGetGraphCompiler(void) {
    return &impl::cpu::graph::kCompiler;
}
#endif
