// Helpers shared by the attention kernels of the llm_attention and llm_inference families: packing q / k / v to
// the compute type (float, or double for float64), the problem description handed to the attention core (common/attention.hpp), dropout generator state,
// user masks, and writing float results back into the caller's tensors.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "attention.hpp"
#include "common.hpp"

#include <cmath>
#include <limits>

namespace impl::cpu::attn_kernels {

using attn::Seq;
using attn::Spec;

/// Fails with diopiDtypeNotSupported unless t is a floating tensor.
void requireFloat(const TensorView& t, const char* name);
void requireDim(const TensorView& t, int64_t dim, const char* name);
/// Values of a 1-D integer tensor.
std::vector<int64_t> hostInts(diopiContextHandle_t ctx, const TensorView& t, const char* name);
/// A zero-filled contiguous temporary of a float dtype.
TensorView zerosOf(diopiContextHandle_t ctx, const Shape& shape, diopiDtype_t dtype);
/// The compute dtype of an attention over tensors of these dtypes: float64 when any is float64, else float32.
diopiDtype_t computeDtype(std::initializer_list<diopiDtype_t> dts);
/// Rows of a contiguous tensor (..., heads, dim) of the compute type S: row = flat index of the leading dims.
template <class S>
attn::RowsT<S> rowsOf(const TensorView& f) {
    int64_t n = f.dim();
    return attn::RowsT<S>{f.ptr<const S>(), f.shape[n - 2] * f.shape[n - 1], f.shape[n - 1]};
}
template <class S>
attn::OutRowsT<S> outRowsOf(const TensorView& f) {
    int64_t n = f.dim();
    return attn::OutRowsT<S>{f.ptr<S>(), f.shape[n - 2] * f.shape[n - 1], f.shape[n - 1]};
}
/// Copies src into dst after checking that dst has src's shape ("<name> must have shape ...").
void writeBack(const TensorView& dst, const TensorView& src, const char* name);

/// An attention call: packed operands of the compute dtype, the spec and the sequences.
struct Problem {
    Spec spec;
    std::vector<Seq> seqs;
    diopiDtype_t ct = diopi_dtype_float32;  ///< compute dtype: float64 for float64 inputs, else float32
    TensorView qf, kf, vf;  ///< contiguous, dtype ct, (leading..., heads, head_dim)
    int64_t tq = 0, tk = 0;  ///< query / key rows (product of the leading dims)
    int64_t batch = 0;       ///< rows of a (batch, heads) ALiBi table
};

/// Checks q (..., Hq, D), k / v (..., Hk, D|Dv) with `rank` dims and packs them; fills the head counts and sizes.
void pack(diopiContextHandle_t ctx, Problem& pr, const TensorView& q, const TensorView& k, const TensorView& v, int64_t rank);
/// Dense batches: q (B, Sq, H, D), sequence b = rows [b * Sq, (b + 1) * Sq).
void denseSeqs(Problem& pr);
/// Packed sequences from B + 1 offsets each (checked against the row counts and the maxima, < 0: unchecked).
void varlenSeqs(Problem& pr, const std::vector<int64_t>& cq, const std::vector<int64_t>& ck, int64_t maxQ, int64_t maxK);
void setAlibi(diopiContextHandle_t ctx, Problem& pr, const TensorView& alibi);
/// A bool user mask (true = excluded) applied to each sequence's top-left (sq, sk) block; leading dims broadcast
/// over (batch, heads). A causal call whose mask is smaller than a block ignores it (a compressed causal mask).
void setMask(diopiContextHandle_t ctx, Problem& pr, const TensorView& mask, bool perBatch);
void checkDropout(double p);
/// Draws the dropout pattern from gen (advancing it when `advance`): numbers each sequence's counters.
void setDropout(Problem& pr, double p, diopiGeneratorHandle_t gen, bool advance);

/// Runs the forward; returns out (leading of q..., Hq, Dv) of dtype ct and, when asked, row max / sum (Hq, tq).
TensorView runForward(diopiContextHandle_t ctx, const Problem& pr, std::vector<double>* m = nullptr, std::vector<double>* l = nullptr);
struct Grads {
    TensorView dq, dk, dv;
};
/// Gradients shaped like the packed q, k, v; dout has out's shape.
Grads runBackward(diopiContextHandle_t ctx, const Problem& pr, const TensorView& dout);
/// softmax_lse = m + log(l), +inf for rows without keys.
inline double lseOf(double m, double l) { return l > 0.0 ? m + std::log(l) : std::numeric_limits<double>::infinity(); }

/// Writes a varlen softmax_lse into `dst`: (B, Hq, max_q) padded with +inf, or (Hq, total_q).
void writeVarlenLse(diopiContextHandle_t ctx, const TensorView& dst, const Problem& pr, const std::vector<double>& m,
                    const std::vector<double>& l);
/// The (B, Hq, maxQ, maxK) debug mask: pairs taken (allowed and kept), false outside each sequence.
void writeDebugMask(diopiContextHandle_t ctx, const TensorView& dst, const Problem& pr, int64_t maxQ, int64_t maxK);
/// Customized variants: the keep mask drawn into a callee-allocated bool tensor read back by the core.
TensorView drawKeepMask(diopiContextHandle_t ctx, Problem& pr, const Shape& shape);
/// Customized backward: the forward's keep mask (checked to hold every counter).
void useKeepMask(diopiContextHandle_t ctx, Problem& pr, const TensorView& mask);

}  // namespace impl::cpu::attn_kernels
