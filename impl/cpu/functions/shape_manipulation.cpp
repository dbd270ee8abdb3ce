// Family shape_manipulation: cat/stack/split, transpose/permute/expand/repeat,
// flip/roll, pad, unfold (and backward), tril/triu. Everything here moves
// values: most kernels build a strided view of the source and copy it, the
// rest gather through per-dimension offset tables (common/movement.hpp).
#include <cmath>
#include <cstring>
#include <string>

#include "common/common.hpp"
#include "common/movement.hpp"

namespace impl::cpu {

namespace {

void checkShape(const TensorView& out, const Shape& expect, const char* name = "out") {
    if (out.shape != expect) fail(name, " has shape ", shapeStr(out.shape), ", expected ", shapeStr(expect));
}

/// Lower (tril) or upper (triu) triangle of the last two dims of `in` into `out`.
void triangle(const TensorView& out, const TensorView& in, int64_t diagonal, bool lower) {
    CPU_CHECK(in.dim() >= 2, "input must have at least 2 dimensions, got ", in.dim());
    checkShape(out, in.shape);
    if (out.numel == 0) return;
    const int64_t nd = in.dim(), M = in.shape[nd - 2], N = in.shape[nd - 1];
    const int64_t rows = in.numel / N;
    dispatchBytes(out.itemsize, [&](auto tag) {
        using U = typename decltype(tag)::type;
        const int64_t ir = in.strides[nd - 2], ic = in.strides[nd - 1], orr = out.strides[nd - 2], oc = out.strides[nd - 1];
        parallelFor(rows, std::max<int64_t>(1, kParallelGrain / N), [&](int64_t b, int64_t e) {
            for (int64_t r = b; r < e; ++r) {
                // r = batch * M + i; batch offsets follow the leading dims.
                int64_t i = r % M, rem = r / M, io = i * ir, oo = i * orr;
                for (int64_t d = nd - 3; d >= 0; --d) {
                    int64_t k = rem % in.shape[d];
                    rem /= in.shape[d];
                    io += k * in.strides[d];
                    oo += k * out.strides[d];
                }
                const U* s = reinterpret_cast<const U*>(in.data) + io;
                U* o = reinterpret_cast<U*>(out.data) + oo;
                // tril keeps j <= i + diagonal, triu keeps j >= i + diagonal.
                int64_t edge = std::min<int64_t>(std::max<int64_t>(i + diagonal + (lower ? 1 : 0), 0), N);
                // Two straight loops per row: [0, edge) and [edge, N), one kept, one zeroed.
                int64_t k0 = lower ? 0 : edge, k1 = lower ? edge : N;
                int64_t z0 = lower ? edge : 0, z1 = lower ? N : edge;
                for (int64_t j = k0; j < k1; ++j) o[j * oc] = s[j * ic];
                for (int64_t j = z0; j < z1; ++j) o[j * oc] = U(0);
            }
        });
    });
}

}  // namespace

diopiError_t diopiTril(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, int64_t diagonal) {
    return guard(__func__, [&] {
        TensorView o = view(out, "out"), i = view(input, "input");
        triangle(o, castTo(ctx, i, o.dtype), diagonal, true);
    });
}

diopiError_t diopiTriu(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, int64_t diagonal) {
    return guard(__func__, [&] {
        TensorView o = view(out, "out"), i = view(input, "input");
        triangle(o, castTo(ctx, i, o.dtype), diagonal, false);
    });
}

diopiError_t diopiTriuInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, int64_t diagonal) {
    return guard(__func__, [&] {
        TensorView i = view(input, "input");
        triangle(i, i, diagonal, false);  // each element is read before it is written
    });
}

diopiError_t diopiCat(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t* tensors, int64_t num_inputs, int64_t dim) {
    return guard(__func__, [&] {
        TensorView o = view(out, "out");
        CPU_CHECK(num_inputs > 0, "needs at least one tensor, got ", num_inputs);
        std::vector<TensorView> ts = views(tensors, num_inputs, "tensors");
        // 1-D empty tensors are skipped whatever their rank (legacy behaviour of cat).
        std::vector<TensorView> parts;
        for (auto& t : ts)
            if (!(t.dim() == 1 && t.shape[0] == 0)) parts.push_back(t);
        if (parts.empty()) {
            CPU_CHECK(o.numel == 0, "out must be empty when every input is empty");
            return;
        }
        const TensorView& ref = parts[0];
        CPU_CHECK(ref.dim() > 0, "zero-dimensional tensors cannot be concatenated");
        int64_t d = ref.wrapDim(dim), total = 0;
        for (size_t k = 0; k < parts.size(); ++k) {
            const TensorView& t = parts[k];
            CPU_CHECK(t.dim() == ref.dim(), "tensors must have the same rank: tensor ", k, " has ", t.dim(), ", expected ", ref.dim());
            for (int64_t j = 0; j < t.dim(); ++j)
                CPU_CHECK(j == d || t.shape[j] == ref.shape[j], "sizes of tensors must match except in dimension ", d,
                          ": tensor ", k, " has shape ", shapeStr(t.shape), ", tensor 0 has ", shapeStr(ref.shape));
            total += t.shape[d];
        }
        Shape expect = ref.shape;
        expect[d] = total;
        checkShape(o, expect);
        int64_t off = 0;
        for (auto& t : parts) {
            moveCopy(narrowView(o, d, off, t.shape[d]), t);
            off += t.shape[d];
        }
    });
}

diopiError_t diopiStack(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t* tensors, int64_t numTensors, int64_t dim) {
    return guard(__func__, [&] {
        TensorView o = view(out, "out");
        CPU_CHECK(numTensors > 0, "needs at least one tensor, got ", numTensors);
        std::vector<TensorView> ts = views(tensors, numTensors, "tensors");
        for (size_t k = 1; k < ts.size(); ++k)
            CPU_CHECK(ts[k].shape == ts[0].shape, "stack expects tensors of equal shape, tensor ", k, " has ",
                      shapeStr(ts[k].shape), ", tensor 0 has ", shapeStr(ts[0].shape));
        int64_t d = wrapDimFor(dim, ts[0].dim() + 1);
        Shape expect = ts[0].shape;
        expect.insert(expect.begin() + d, numTensors);
        checkShape(o, expect);
        for (int64_t k = 0; k < numTensors; ++k) moveCopy(selectView(o, d, k), ts[k]);
    });
}

diopiError_t diopiSplitWithSizes(diopiContextHandle_t ctx, diopiTensorHandle_t* outs, int64_t num_outs, diopiConstTensorHandle_t input,
                                 const diopiSize_t splitSizes, int64_t dim) {
    return guard(__func__, [&] {
        TensorView in = view(input, "input");
        CPU_CHECK(num_outs >= 0 && (num_outs == 0 || outs), "outs is NULL or num_outs is negative");
        CPU_CHECK(splitSizes.len == num_outs && (num_outs == 0 || splitSizes.data), "num_outs (", num_outs,
                  ") differs from the number of split sizes (", splitSizes.len, ")");
        CPU_CHECK(in.dim() > 0, "a 0-d tensor cannot be split");
        int64_t d = in.wrapDim(dim), sum = 0;
        for (int64_t k = 0; k < num_outs; ++k) {
            CPU_CHECK(splitSizes.data[k] >= 0, "split sizes must be non-negative, got ", splitSizes.data[k]);
            sum += splitSizes.data[k];
        }
        CPU_CHECK(sum == in.shape[d], "split sizes sum to ", sum, " but dimension ", d, " has size ", in.shape[d]);
        std::vector<TensorView> os;
        for (int64_t k = 0; k < num_outs; ++k) {
            os.push_back(view(outs[k], "outs[i]"));
            Shape expect = in.shape;
            expect[d] = splitSizes.data[k];
            checkShape(os.back(), expect, "outs[i]");
        }
        int64_t off = 0;
        for (int64_t k = 0; k < num_outs; ++k) {
            moveCopy(os[k], narrowView(in, d, off, splitSizes.data[k]));
            off += splitSizes.data[k];
        }
    });
}

diopiError_t diopiTranspose(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, int64_t dim0, int64_t dim1) {
    return guard(__func__, [&] {
        TensorView o = view(out, "out"), in = view(input, "input");
        int64_t a = in.wrapDim(dim0), b = in.wrapDim(dim1);
        Shape sh = in.shape, st = in.strides;
        if (in.dim() > 0) {
            std::swap(sh[a], sh[b]);
            std::swap(st[a], st[b]);
        }
        checkShape(o, sh);
        moveCopy(o, in.restrided(sh, st));
    });
}

diopiError_t diopiPermute(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t dims) {
    return guard(__func__, [&] {
        TensorView o = view(out, "out"), in = view(input, "input");
        Shape ds = toShape(dims);
        CPU_CHECK((int64_t)ds.size() == in.dim(), "dims has ", ds.size(), " entries for a ", in.dim(), "-d input");
        Shape sh(ds.size()), st(ds.size());
        std::vector<bool> seen(ds.size(), false);
        for (size_t k = 0; k < ds.size(); ++k) {
            int64_t d = in.wrapDim(ds[k]);
            CPU_CHECK(!seen[d], "dims repeats dimension ", d);
            seen[d] = true;
            sh[k] = in.shape[d];
            st[k] = in.strides[d];
        }
        checkShape(o, sh);
        moveCopy(o, in.restrided(sh, st));
    });
}

diopiError_t diopiExpand(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input) {
    return guard(__func__, [&] {
        TensorView o = view(out, "out"), in = view(input, "input");
        CPU_CHECK(in.dim() <= o.dim(), "cannot expand shape ", shapeStr(in.shape), " to ", shapeStr(o.shape));
        int64_t off = o.dim() - in.dim();
        for (int64_t d = 0; d < in.dim(); ++d)
            CPU_CHECK(in.shape[d] == 1 || in.shape[d] == o.shape[d + off], "cannot expand shape ", shapeStr(in.shape), " to ",
                      shapeStr(o.shape));
        moveCopy(o, in);
    });
}

diopiError_t diopiRepeat(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t repeats_size) {
    return guard(__func__, [&] {
        TensorView o = view(out, "out"), in = view(input, "input");
        Shape reps = toShape(repeats_size);
        CPU_CHECK((int64_t)reps.size() >= in.dim(), "repeats has ", reps.size(), " entries, fewer than the input rank ", in.dim());
        const int64_t nd = reps.size(), lead = nd - in.dim();
        Shape expect(nd);
        for (int64_t d = 0; d < nd; ++d) {
            CPU_CHECK(reps[d] >= 0, "repeats must be non-negative, got ", reps[d]);
            expect[d] = reps[d] * (d < lead ? 1 : in.shape[d - lead]);
        }
        checkShape(o, expect);
        TensorView src = castTo(ctx, in, o.dtype);
        std::vector<std::vector<int64_t>> tab(nd);
        for (int64_t d = 0; d < nd; ++d) {
            tab[d].resize(expect[d]);
            for (int64_t i = 0; i < expect[d]; ++i)
                tab[d][i] = d < lead ? 0 : (i % src.shape[d - lead]) * src.strides[d - lead] * src.itemsize;
        }
        gatherTables(o, src.data, tab);
    });
}

diopiError_t diopiFlip(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t dims) {
    return guard(__func__, [&] {
        TensorView o = view(out, "out"), in = view(input, "input");
        checkShape(o, in.shape);
        std::vector<bool> flip(in.dim(), false);
        for (int64_t d : toShape(dims)) {
            int64_t w = in.wrapDim(d);
            if (in.dim() == 0) continue;
            CPU_CHECK(!flip[w], "dims repeats dimension ", w);
            flip[w] = true;
        }
        // A flipped dim is a negative stride starting at the last element.
        Shape st = in.strides;
        int64_t off = 0;
        for (int64_t d = 0; d < in.dim(); ++d)
            if (flip[d] && in.shape[d] > 0) {
                off += (in.shape[d] - 1) * st[d];
                st[d] = -st[d];
            }
        if (in.numel == 0) return;
        moveCopy(o, in.restrided(in.shape, st, off));
    });
}

diopiError_t diopiRoll(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t shifts, diopiSize_t dims) {
    return guard(__func__, [&] {
        TensorView o = view(out, "out"), in = view(input, "input");
        checkShape(o, in.shape);
        Shape sh = toShape(shifts), ds = toShape(dims);
        if (o.numel == 0) return;
        TensorView src = castTo(ctx, in, o.dtype);
        if (ds.empty()) {
            // The flattened tensor rolls: work on dense 1-D copies.
            CPU_CHECK(sh.size() == 1, "without dims, shifts must hold one value, got ", sh.size());
            TensorView flat = contiguousAs(ctx, src, o.dtype).reshaped({src.numel});
            TensorView dst = o.isContiguous() ? o.reshaped({o.numel}) : newTensor(ctx, {o.numel}, o.dtype);
            int64_t n = src.numel, s = ((sh[0] % n) + n) % n;
            std::vector<std::vector<int64_t>> tab(1, std::vector<int64_t>(n));
            for (int64_t i = 0; i < n; ++i) tab[0][i] = ((i - s + n) % n) * flat.itemsize;
            gatherTables(dst, flat.data, tab);
            if (dst.data != o.data) moveCopy(o, dst.reshaped(o.shape));
            return;
        }
        CPU_CHECK(sh.size() == ds.size(), "shifts and dims must have the same length, got ", sh.size(), " and ", ds.size());
        std::vector<int64_t> shift(src.dim(), 0);
        for (size_t k = 0; k < ds.size(); ++k) {
            int64_t d = src.wrapDim(ds[k]);
            if (src.dim() == 0) continue;
            shift[d] += sh[k];
        }
        std::vector<std::vector<int64_t>> tab(src.dim());
        for (int64_t d = 0; d < src.dim(); ++d) {
            int64_t n = src.shape[d], s = ((shift[d] % n) + n) % n;
            tab[d].resize(n);
            for (int64_t i = 0; i < n; ++i) tab[d][i] = ((i - s + n) % n) * src.strides[d] * src.itemsize;
        }
        gatherTables(o, src.data, tab);
    });
}

diopiError_t diopiPad(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t pad, const char* mode,
                      const double* value) {
    return guard(__func__, [&] {
        TensorView o = view(out, "out"), in = view(input, "input");
        std::string m = mode ? mode : "constant";
        CPU_CHECK(m == "constant" || m == "reflect" || m == "replicate" || m == "circular",
                  "mode must be constant, reflect, replicate or circular, got \"", m, "\"");
        CPU_CHECK(m == "constant" || value == nullptr || *value == 0.0, "a fill value is only meaningful for mode \"constant\"");
        Shape p = toShape(pad);
        CPU_CHECK(p.size() % 2 == 0, "pad must hold (before, after) pairs, got ", p.size(), " values");
        const int64_t np = p.size() / 2, nd = in.dim();
        CPU_CHECK(np <= nd, "pad covers ", np, " dimensions of a ", nd, "-d input");
        if (m != "constant")
            CPU_CHECK(nd == np + 1 || nd == np + 2, "mode ", m, " pads the last ", np, " dims of a ", np + 1, "-d or ", np + 2,
                      "-d input, got ", nd, " dims");
        // before[d], after[d] for every dim (pairs start with the last dim).
        Shape before(nd, 0), after(nd, 0), expect = in.shape;
        for (int64_t k = 0; k < np; ++k) {
            int64_t d = nd - 1 - k;
            before[d] = p[2 * k];
            after[d] = p[2 * k + 1];
            expect[d] = in.shape[d] + before[d] + after[d];
            CPU_CHECK(expect[d] >= 0, "padding makes dimension ", d, " negative (", expect[d], ")");
            if (m == "reflect")
                CPU_CHECK(before[d] < in.shape[d] && after[d] < in.shape[d], "reflect padding (", before[d], ", ", after[d],
                          ") must be smaller than the dimension size ", in.shape[d]);
            if (m == "circular")
                CPU_CHECK(before[d] <= in.shape[d] && after[d] <= in.shape[d], "circular padding (", before[d], ", ", after[d],
                          ") must not exceed the dimension size ", in.shape[d]);
            if (m == "replicate" && expect[d] > 0)
                CPU_CHECK(in.shape[d] > 0, "replicate padding needs a non-empty dimension ", d);
        }
        checkShape(o, expect);
        if (o.numel == 0) return;
        if (m == "constant") {
            double v = value ? *value : 0.0;
            dispatch<AllTypes>(o.dtype, "out", [&](auto tag) {
                using T = typename decltype(tag)::type;
                fillWith<T>(o, convert<T>(v));
            });
            // The part of the input that survives cropping lands at max(before, 0).
            TensorView src = in, dst = o;
            for (int64_t d = 0; d < nd; ++d) {
                int64_t s0 = std::max<int64_t>(0, -before[d]), s1 = in.shape[d] - std::max<int64_t>(0, -after[d]);
                int64_t len = std::max<int64_t>(0, s1 - s0);
                src = narrowView(src, d, s0, len);
                dst = narrowView(dst, d, std::max<int64_t>(0, before[d]), len);
            }
            moveCopy(dst, src);
            return;
        }
        TensorView src = castTo(ctx, in, o.dtype);
        std::vector<std::vector<int64_t>> tab(nd);
        for (int64_t d = 0; d < nd; ++d) {
            int64_t n = src.shape[d];
            tab[d].resize(expect[d]);
            for (int64_t i = 0; i < expect[d]; ++i) {
                int64_t j = i - before[d];
                if (m == "reflect") {
                    if (j < 0) j = -j;
                    if (j >= n) j = 2 * (n - 1) - j;
                } else if (m == "replicate") {
                    j = std::min(std::max<int64_t>(j, 0), n - 1);
                } else {
                    j = ((j % n) + n) % n;
                }
                tab[d][i] = j * src.strides[d] * src.itemsize;
            }
        }
        gatherTables(o, src.data, tab);
    });
}

diopiError_t diopiUnfold(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, int64_t dim, int64_t size, int64_t step) {
    return guard(__func__, [&] {
        TensorView o = view(out, "out"), in = view(input, "input");
        CPU_CHECK(step > 0, "step must be positive, got ", step);
        int64_t d = in.wrapDim(dim);
        int64_t len = in.dim() == 0 ? 1 : in.shape[d];
        CPU_CHECK(size >= 0 && size <= len, "size ", size, " exceeds the dimension size ", len);
        Shape sh = in.shape, st = in.strides;
        if (in.dim() == 0) {
            sh = {size};
            st = {0};
        } else {
            sh[d] = (len - size) / step + 1;
            st[d] = in.strides[d] * step;
            sh.push_back(size);
            st.push_back(in.strides[d]);
        }
        checkShape(o, sh);
        moveCopy(o, in.restrided(sh, st));
    });
}

diopiError_t diopiUnfoldBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                 diopiSize_t input_sizes, int64_t dim, int64_t size, int64_t step) {
    return guard(__func__, [&] {
        TensorView gi = view(grad_input, "grad_input"), go = view(grad_output, "grad_output");
        CPU_CHECK(step > 0, "step must be positive, got ", step);
        Shape in = toShape(input_sizes);
        checkShape(gi, in, "grad_input");
        int64_t nd = in.size(), d = wrapDimFor(dim, nd);
        int64_t len = nd == 0 ? 1 : in[d];
        CPU_CHECK(size >= 0 && size <= len, "size ", size, " exceeds the dimension size ", len);
        int64_t n = (len - size) / step + 1;
        Shape gs = in;
        if (nd == 0) gs = {size};
        else {
            gs[d] = n;
            gs.push_back(size);
        }
        checkShape(go, gs, "grad_output");
        if (!isFloatingDtype(gi.dtype)) failCode(diopiDtypeNotSupported, "grad_input must be floating point, got ", dtypeName(gi.dtype));
        if (gi.numel == 0) return;
        // Overlapping windows add up: sums in a dense float32 buffer (float64 for float64), read as (outer, len, inner),
        // while the gradient is read densely as (outer, n, inner, size), in its memory order.
        const diopiDtype_t at = gi.dtype == diopi_dtype_float64 ? diopi_dtype_float64 : diopi_dtype_float32;
        TensorView acc = gi.dtype == at && gi.isContiguous() ? gi : newTensor(ctx, in, at);
        TensorView g = contiguousAs(ctx, go, at);
        int64_t outer = 1, inner = 1;
        for (int64_t j = 0; j < nd; ++j) {
            if (j < d) outer *= in[j];
            if (j > d) inner *= in[j];
        }
        // Zeroed first: positions no window covers (and the adds) start from 0.
        std::memset(acc.data, 0, (size_t)(acc.numel * acc.itemsize));
        auto run = [&](auto tag) {
            using S = typename decltype(tag)::type;
            S* A = acc.ptr<S>();
            const S* G = g.ptr<const S>();
            parallelFor(outer, std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(1, len * inner)), [&](int64_t ob, int64_t oe) {
                for (int64_t o = ob; o < oe; ++o) {
                    S* a = A + o * len * inner;
                    const S* go0 = G + o * n * inner * size;
                    if (inner == 1 && step == size) {  // windows side by side: one copy, then the uncovered tail
                        std::memcpy(a, go0, (size_t)(n * size) * sizeof(S));
                        continue;
                    }
                    for (int64_t w = 0; w < n; ++w) {
                        S* aw = a + w * step * inner;
                        const S* gw = go0 + w * inner * size;
                        if (inner == 1) {
                            for (int64_t k = 0; k < size; ++k) aw[k] += gw[k];
                            continue;
                        }
                        for (int64_t i = 0; i < inner; ++i)
                            for (int64_t k = 0; k < size; ++k) aw[k * inner + i] += gw[i * size + k];
                    }
                }
            });
        };
        if (at == diopi_dtype_float64) run(Tag<double>{});
        else run(Tag<float>{});
        if (acc.data != gi.data) moveCopy(gi, acc);
    });
}

}  // namespace impl::cpu
