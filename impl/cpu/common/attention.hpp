// Shared attention core of the llm_attention and llm_inference families: exact softmax attention over float operands
// (double for float64 inputs), computed block by block (a query block against key blocks, with an online softmax
// that keeps a running row maximum and sum), so no score matrix is ever materialised. Every entry point (dense,
// variable-length, paged, prefill, ...) packs its operands to the compute type, describes its sequences as a list of
// Seq and calls forward/backward.
//
// Conventions (those of impl/torch): for query i and key j of one sequence, d = i + sk - sq - j (bottom-right
// alignment); causal keeps d >= 0, window_left >= 0 keeps d <= window_left, window_right >= 0 keeps
// d >= -window_right; ALiBi subtracts slope * |d| from the scaled score; a mask byte != 0 excludes the pair.
// A query row that takes no key gets out = 0, row max -inf and row sum 0. Dropout keeps a probability with
// 1 - p and scales it by 1 / (1 - p); the keep bit of pair (h, i, j) of a sequence is drawn at counter
// dropBase + (h * sq + i) * sk + j, or read from a given keep mask at that index.
#pragma once

#include <cstdint>
#include <vector>

namespace impl::cpu::attn {

/// An operand seen as rows of one head: element (head h, row r, k) at p[h * hs + r * rs + k]. S is float (float32 and
/// 16-bit inputs) or double (float64 inputs, computed in double throughout).
template <class S>
struct RowsT {
    const S* p = nullptr;
    int64_t rs = 0, hs = 0;
    const S* row(int64_t h, int64_t r) const { return p + h * hs + r * rs; }
};
template <class S>
struct OutRowsT {
    S* p = nullptr;
    int64_t rs = 0, hs = 0;
    S* row(int64_t h, int64_t r) const { return p + h * hs + r * rs; }
};

/// Excluded pairs of one sequence: byte p[h * sh + i * si + j * sj] != 0 excludes (i, j) for query head h.
struct Mask {
    const uint8_t* p = nullptr;
    int64_t sh = 0, si = 0, sj = 0;
};

/// One sequence: queries q0 .. q0 + sq of the query rows, keys k0 .. k0 + sk of the key/value rows (or the
/// rows kRows[0 .. sk) when kRows is set: paged and token-table caches). b selects the ALiBi row.
struct Seq {
    int64_t b = 0, q0 = 0, sq = 0, k0 = 0, sk = 0;
    const int64_t* kRows = nullptr;
    Mask mask;
    uint64_t dropBase = 0;
};

struct Dropout {
    double p = 0.0;
    uint64_t seed = 0, offset = 0;
    const uint8_t* keep = nullptr;  ///< given keep mask (linear order of the counters); else drawn from seed/offset
};

struct Spec {
    int64_t hq = 1, hk = 1, d = 0, dv = 0;
    double scale = 1.0;
    bool causal = false;
    int64_t windowLeft = -1, windowRight = -1;
    const double* alibi = nullptr;  ///< slopes: alibi[b * alibiBatchStride + h]
    int64_t alibiBatchStride = 0;
    Dropout drop;
};

/// Optional per-row statistics of the forward: m = row max of the scaled scores over the keys taken, l = sum of
/// exp(score - m). Element (h, row) at m[h * hs + row * rs].
template <class S>
struct StatsT {
    S* m = nullptr;
    S* l = nullptr;
    int64_t rs = 0, hs = 0;
};

/// Whether pair (i, j) of query head h is taken (mask, causal and window; not dropout).
bool allowed(const Spec& spec, const Seq& s, int64_t h, int64_t i, int64_t j);
/// Dropout keep bit at counter idx (drawn or read from the given mask).
bool keepAt(const Dropout& drop, uint64_t idx);
/// Counters one call draws: sum over sequences of hq * sq * sk.
uint64_t dropCount(const Spec& spec, const std::vector<Seq>& seqs);

/// out rows of every sequence = attention; rows outside every sequence are not written.
template <class S>
void forward(const Spec& spec, const std::vector<Seq>& seqs, RowsT<S> q, RowsT<S> k, RowsT<S> v, OutRowsT<S> out, StatsT<S> stats = StatsT<S>());

/// Gradients of forward() with respect to q, k and v, accumulated into dq / dk / dv (which the caller zeroes).
/// Sequences must not share key rows (each key/value head's rows of one sequence are written by one thread).
template <class S>
void backward(const Spec& spec, const std::vector<Seq>& seqs, RowsT<S> q, RowsT<S> k, RowsT<S> v, RowsT<S> dout, OutRowsT<S> dq, OutRowsT<S> dk,
              OutRowsT<S> dv);

extern template void forward<float>(const Spec&, const std::vector<Seq>&, RowsT<float>, RowsT<float>, RowsT<float>, OutRowsT<float>, StatsT<float>);
extern template void forward<double>(const Spec&, const std::vector<Seq>&, RowsT<double>, RowsT<double>, RowsT<double>, OutRowsT<double>,
                                     StatsT<double>);
extern template void backward<float>(const Spec&, const std::vector<Seq>&, RowsT<float>, RowsT<float>, RowsT<float>, RowsT<float>, OutRowsT<float>,
                                     OutRowsT<float>, OutRowsT<float>);
extern template void backward<double>(const Spec&, const std::vector<Seq>&, RowsT<double>, RowsT<double>, RowsT<double>, RowsT<double>,
                                      OutRowsT<double>, OutRowsT<double>, OutRowsT<double>);

}  // namespace impl::cpu::attn
