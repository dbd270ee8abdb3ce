/**
 * @file functions_ext.h
 * @brief Fused and large-language-model operators of the DIOPI standard.
 *
 * Attention, rotary embedding, RMS normalization and inference kernels. Same conventions as
 * functions.h.
 */
#ifndef DIOPI_FUNCTIONS_EXT_H_
#define DIOPI_FUNCTIONS_EXT_H_

#include <diopi/diopirt.h>
#include <diopi/functions.h>

#if defined(__cplusplus)
extern "C" {
#endif

/* ========================================================================
 * Family: llm_rotary (rotary position embedding)
 * ======================================================================== */

/**
 * @brief Applies rotary position embedding: feature pairs (a, b) of x are rotated by angle theta to (a cos - b sin, a
 *        sin + b cos), with cos/sin given per position. Pairs are the two halves of the rotary width, or adjacent
 *        elements when interleaved.
 *
 * If the rotary width (2 * cos.size(-1)) is smaller than head_dim, the remaining features are passed through
 * unchanged.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out rotated result, same shape as x. Dtypes: bfloat16, float16, float32, float64.
 * @param[in] x input, e.g. (batch, seq_len, num_heads, head_dim). Dtypes: bfloat16, float16, float32, float64.
 * @param[in] cos cosines per position, last dimension half the rotary width; broadcastable over batch and heads.
 *     Dtypes: bfloat16, float16, float32, float64.
 * @param[in] sin sines laid out exactly like cos. Dtypes: bfloat16, float16, float32, float64.
 * @param[in] conj if true rotates by -theta (the inverse), which gives the gradient of the forward rotation
 * @param[in] interleaved true pairs elements (2i, 2i+1); false pairs element i with i + width/2
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiRotaryEmbedding(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t x,
                                            diopiConstTensorHandle_t cos, diopiConstTensorHandle_t sin, const bool conj, const bool interleaved);

/**
 * @brief Applies rotary position embedding in place to packed query and key tensors in the rotate-half form x * cos +
 *        rotate_half(x) * sin, where rotate_half(x) = concat(-x2, x1) over the two halves of each head.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] query queries (num_tokens, num_heads * dim) or 4-D; rotated in place. Dtypes: bfloat16, float16,
 *     float32, float64.
 * @param[in,out] key keys (num_tokens, num_kv_heads * dim) or 4-D; rotated in place. Dtypes: bfloat16, float16,
 *     float32, float64.
 * @param[in] cos cosines per token, broadcast over heads. Dtypes: bfloat16, float16, float32, float64.
 * @param[in] sin sines per token, laid out like cos. Dtypes: bfloat16, float16, float32, float64.
 * @param[in] dim size of one attention head, used to split the packed last dimension
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiRotaryEmbeddingV2(diopiContextHandle_t ctx, diopiTensorHandle_t query, diopiTensorHandle_t key,
                                              diopiConstTensorHandle_t cos, diopiConstTensorHandle_t sin, int64_t dim);

/* ========================================================================
 * Family: llm_norm (rms normalization)
 * ======================================================================== */

/**
 * @brief Root-mean-square normalisation over the trailing normalized_shape dimensions: out = input /
 *        sqrt(mean(input^2) + eps) * weight + bias, also returning the inverse RMS.
 *
 * Unlike layer norm, the mean is not subtracted.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out normalised result, same shape as input. Dtypes: bfloat16, float16, float32, float64.
 * @param[out] inv_rms written with 1 / sqrt(mean(input^2) + eps) per normalised group; leading dims of input. Dtypes:
 *     float32, float64.
 * @param[in] input tensor to normalise. Dtypes: bfloat16, float16, float32, float64.
 * @param[in] normalized_shape trailing dimensions over which the mean of squares is taken
 * @param[in] weight scale of shape normalized_shape. Dtypes: bfloat16, float16, float32, float64.
 * @param[in] bias offset of shape normalized_shape; may be NULL for no offset. Dtypes: bfloat16, float16, float32,
 *     float64.
 * @param[in] eps small constant added under the square root
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiRMSNorm(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiTensorHandle_t inv_rms, diopiConstTensorHandle_t input,
                                    diopiSize_t normalized_shape, diopiConstTensorHandle_t weight, diopiConstTensorHandle_t bias, double eps);

/**
 * @brief Backward of diopiRMSNorm: computes gradients for input, weight and (optionally) bias from the output
 *        gradient and the saved inverse RMS.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input written with the gradient for input, same shape as input. Dtypes: bfloat16, float16,
 *     float32, float64.
 * @param[out] grad_weight written with the gradient for weight, shape normalized_shape. Dtypes: bfloat16, float16,
 *     float32, float64.
 * @param[out] grad_bias written with the gradient for bias; may be NULL when the forward had no bias. Dtypes:
 *     bfloat16, float16, float32, float64.
 * @param[in] grad_output gradient of the normalised output. Dtypes: bfloat16, float16, float32, float64.
 * @param[in] input input of the forward call. Dtypes: bfloat16, float16, float32, float64.
 * @param[in] weight scale used in the forward call. Dtypes: bfloat16, float16, float32, float64.
 * @param[in] bias offset used in the forward call; may be NULL. Dtypes: bfloat16, float16, float32, float64.
 * @param[in] inv_rms inverse RMS saved by the forward call. Dtypes: bfloat16, float32, float64.
 * @param[in] normalized_shape trailing dimensions normalised in the forward call
 * @param[in] eps constant used in the forward call
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiRMSNormBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiTensorHandle_t grad_weight,
                                            diopiTensorHandle_t grad_bias, diopiConstTensorHandle_t grad_output, diopiConstTensorHandle_t input,
                                            diopiConstTensorHandle_t weight, diopiConstTensorHandle_t bias, diopiConstTensorHandle_t inv_rms,
                                            diopiSize_t normalized_shape, double eps);

/* ========================================================================
 * Family: llm_attention (attention)
 * ======================================================================== */

/**
 * @brief Deprecated attention forward: out = dropout(softmax(scale * q k^T [causal mask])) v per batch and head, with
 *        q, k, v laid out as (batch, seq, heads, head_dim).
 *
 * Superseded by diopiFlashAttention.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] q queries (batch, seq_q, heads, head_dim); may be padded in place by the implementation. Dtypes: float16,
 *     float32, float64.
 * @param[out] k keys (batch, seq_k, heads, head_dim); may be padded in place. Dtypes: float16, float32, float64.
 * @param[out] v values (batch, seq_k, heads, head_dim); may be padded in place. Dtypes: float16, float32, float64.
 * @param[in] dropout_p probability of dropping an attention weight
 * @param[in] is_causal if true, query i only attends to keys j <= i
 * @param[in] return_debug_mask if true, debug_attn_mask is filled
 * @param[in] scale factor applied to q k^T before the softmax, usually 1/sqrt(head_dim)
 * @param[out] out attention result, shape (batch, seq_q, heads, head_dim). Dtypes: float16, float32, float64.
 * @param[out] softmax_lse written with log(sum_j exp(scale * q_i . k_j)) per query row, shape (batch, heads, seq_q).
 *     Dtypes: float32.
 * @param[in,out] gen supplies the random state for dropout
 * @param[out] debug_attn_mask (batch, heads, seq_q, seq_k) dropout keep pattern, written only when requested. Dtypes:
 *     bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiMultiHeadAttention(diopiContextHandle_t ctx, diopiTensorHandle_t q, diopiTensorHandle_t k, diopiTensorHandle_t v,
                                               double dropout_p, bool is_causal, bool return_debug_mask, double scale, diopiTensorHandle_t out,
                                               diopiTensorHandle_t softmax_lse, diopiGeneratorHandle_t gen, diopiTensorHandle_t debug_attn_mask);

/**
 * @brief Deprecated backward of diopiMultiHeadAttention: recomputes the attention probabilities from softmax_lse and
 *        returns the gradients for q, k and v.
 *
 * Superseded by diopiFlashAttentionBackward.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in] grad_out gradient of the attention output, shape of out. Dtypes: float16, float32, float64.
 * @param[in] q queries of the forward call. Dtypes: float16, float32, float64.
 * @param[in] k keys of the forward call. Dtypes: float16, float32, float64.
 * @param[in] v values of the forward call. Dtypes: float16, float32, float64.
 * @param[in] out attention output of the forward call. Dtypes: float16, float32, float64.
 * @param[in] softmax_lse row log-sum-exp saved by the forward call. Dtypes: float32.
 * @param[in] dropout_p dropout probability of the forward call
 * @param[in] is_causal causal flag of the forward call
 * @param[in,out] gen random state matching the forward call, so the same dropout pattern is regenerated
 * @param[in] scale score scale of the forward call
 * @param[out] grad_q written with the gradient for q. Dtypes: float16, float32, float64.
 * @param[out] grad_k written with the gradient for k. Dtypes: float16, float32, float64.
 * @param[out] grad_v written with the gradient for v. Dtypes: float16, float32, float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiMultiHeadAttentionBackward(diopiContextHandle_t ctx, diopiConstTensorHandle_t grad_out, diopiConstTensorHandle_t q,
                                                       diopiConstTensorHandle_t k, diopiConstTensorHandle_t v, diopiConstTensorHandle_t out,
                                                       diopiConstTensorHandle_t softmax_lse, double dropout_p, bool is_causal,
                                                       diopiGeneratorHandle_t gen, double scale, diopiTensorHandle_t grad_q,
                                                       diopiTensorHandle_t grad_k, diopiTensorHandle_t grad_v);

/**
 * @brief Deprecated variable-length attention forward: sequences are packed along the token axis and each attends
 *        only within itself, out = dropout(softmax(scale * q k^T [causal])) v.
 *
 * Superseded by diopiFlashAttentionVarLen.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] q packed queries (total_q, heads, head_dim); may be padded in place. Dtypes: float16, float32, float64.
 * @param[out] k packed keys (total_k, heads, head_dim); may be padded in place. Dtypes: float16, float32, float64.
 * @param[out] v packed values (total_k, heads, head_dim); may be padded in place. Dtypes: float16, float32, float64.
 * @param[in] cum_seq_q (batch + 1) prefix sums of query lengths, starting at 0. Dtypes: int32, int64.
 * @param[in] cum_seq_k (batch + 1) prefix sums of key lengths, starting at 0. Dtypes: int32, int64.
 * @param[in] max_q longest query sequence in the batch
 * @param[in] max_k longest key sequence in the batch
 * @param[in] dropout_p probability of dropping an attention weight
 * @param[in] is_causal if true, each query only attends to keys at or before its position
 * @param[in] return_debug_mask if true, debug_attn_mask is filled
 * @param[in] scale factor applied to q k^T before the softmax
 * @param[out] out packed result (total_q, heads, head_dim). Dtypes: float16, float32, float64.
 * @param[out] softmax_lse written with row log-sum-exp of scaled scores, shape (batch, heads, max_q). Dtypes: float32.
 * @param[in,out] gen supplies the random state for dropout
 * @param[out] debug_attn_mask (batch, heads, max_q, max_k) dropout keep pattern, written only when requested. Dtypes:
 *     bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiMultiHeadAttentionVarLen(diopiContextHandle_t ctx, diopiTensorHandle_t q, diopiTensorHandle_t k, diopiTensorHandle_t v,
                                                     diopiConstTensorHandle_t cum_seq_q, diopiConstTensorHandle_t cum_seq_k, int64_t max_q,
                                                     int64_t max_k, double dropout_p, bool is_causal, bool return_debug_mask, double scale,
                                                     diopiTensorHandle_t out, diopiTensorHandle_t softmax_lse, diopiGeneratorHandle_t gen,
                                                     diopiTensorHandle_t debug_attn_mask);

/**
 * @brief Deprecated backward of diopiMultiHeadAttentionVarLen: gradients of packed variable-length attention with
 *        respect to q, k and v.
 *
 * Superseded by diopiFlashAttentionVarLenBackward.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in] grad_out gradient of the packed output (total_q, heads, head_dim). Dtypes: float16, float32, float64.
 * @param[in] q packed queries of the forward call. Dtypes: float16, float32, float64.
 * @param[in] k packed keys of the forward call. Dtypes: float16, float32, float64.
 * @param[in] v packed values of the forward call. Dtypes: float16, float32, float64.
 * @param[in] out packed output of the forward call. Dtypes: float16, float32, float64.
 * @param[in] softmax_lse row log-sum-exp saved by the forward call. Dtypes: float32.
 * @param[in] cum_seq_q query prefix sums used in the forward call. Dtypes: int32, int64.
 * @param[in] cum_seq_k key prefix sums used in the forward call. Dtypes: int32, int64.
 * @param[in] max_q longest query sequence
 * @param[in] max_k longest key sequence
 * @param[in] dropout_p dropout probability of the forward call
 * @param[in] is_causal causal flag of the forward call
 * @param[in,out] gen random state matching the forward call, so the same dropout pattern is regenerated
 * @param[in] scale score scale of the forward call
 * @param[out] grad_q written with the gradient for q. Dtypes: float16, float32, float64.
 * @param[out] grad_k written with the gradient for k. Dtypes: float16, float32, float64.
 * @param[out] grad_v written with the gradient for v. Dtypes: float16, float32, float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiMultiHeadAttentionVarLenBackward(diopiContextHandle_t ctx, diopiConstTensorHandle_t grad_out, diopiConstTensorHandle_t q,
                                                             diopiConstTensorHandle_t k, diopiConstTensorHandle_t v, diopiConstTensorHandle_t out,
                                                             diopiConstTensorHandle_t softmax_lse, diopiConstTensorHandle_t cum_seq_q,
                                                             diopiConstTensorHandle_t cum_seq_k, int64_t max_q, int64_t max_k, double dropout_p,
                                                             bool is_causal, diopiGeneratorHandle_t gen, double scale, diopiTensorHandle_t grad_q,
                                                             diopiTensorHandle_t grad_k, diopiTensorHandle_t grad_v);

/**
 * @brief Memory-efficient exact attention: attention_out = dropout(softmax(softmax_scale * q k^T + alibi bias +
 *        mask)) v, with optional causal and sliding-window masking. q is (batch, seq_q, heads_q, head_dim); k and v
 *        are (batch, seq_k, heads_k, head_dim), heads_q a multiple of heads_k (grouped-query attention).
 *
 * softmax_lse is what the backward pass needs to rebuild the probabilities without storing the full score matrix.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] attention_out result, shape (batch, seq_q, heads_q, head_dim). Dtypes: bfloat16, float16.
 * @param[out] softmax_lse written with log(sum_j exp(scaled score_ij)) per query row, shape (batch, heads_q, seq_q).
 *     Dtypes: float32.
 * @param[in,out] gen supplies the random state for dropout; advanced by the call
 * @param[in] q queries (batch, seq_q, heads_q, head_dim). Dtypes: bfloat16, float16.
 * @param[in] k keys (batch, seq_k, heads_k, head_dim). Dtypes: bfloat16, float16.
 * @param[in] v values (batch, seq_k, heads_k, head_dim). Dtypes: bfloat16, float16.
 * @param[in] alibi_slopes optional per-head ALiBi slopes (heads_q); adds -slope * |i - j| to scores; NULL disables.
 *     Dtypes: float32.
 * @param[in] p_dropout probability of dropping an attention weight; 0 disables dropout
 * @param[in] softmax_scale factor applied to q k^T, usually 1/sqrt(head_dim)
 * @param[in] is_causal if true, query i only attends to keys j <= i
 * @param[in] window_size_left keys more than this many positions before the query are masked; -1 means unlimited
 * @param[in] window_size_right keys more than this many positions after the query are masked; -1 means unlimited
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiFlashAttention(diopiContextHandle_t ctx, diopiTensorHandle_t attention_out, diopiTensorHandle_t softmax_lse,
                                           diopiGeneratorHandle_t gen, diopiConstTensorHandle_t q, diopiConstTensorHandle_t k,
                                           diopiConstTensorHandle_t v, diopiConstTensorHandle_t alibi_slopes, float p_dropout, float softmax_scale,
                                           bool is_causal, int32_t window_size_left, int32_t window_size_right);

/**
 * @brief Backward of diopiFlashAttention: recomputes the attention probabilities from softmax_lse and returns the
 *        gradients for q, k and v.
 *
 * For grouped-query attention the gradients of query heads sharing a key/value head are summed into grad_k and
 * grad_v.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_q written with the gradient for q, same shape as q. Dtypes: bfloat16, float16.
 * @param[out] grad_k written with the gradient for k, same shape as k. Dtypes: bfloat16, float16.
 * @param[out] grad_v written with the gradient for v, same shape as v. Dtypes: bfloat16, float16.
 * @param[in] grad_output gradient of attention_out. Dtypes: bfloat16, float16.
 * @param[in,out] gen random state matching the forward call, so the same dropout pattern is regenerated
 * @param[in] q queries of the forward call. Dtypes: bfloat16, float16.
 * @param[in] k keys of the forward call. Dtypes: bfloat16, float16.
 * @param[in] v values of the forward call. Dtypes: bfloat16, float16.
 * @param[in] alibi_slopes ALiBi slopes of the forward call; NULL if none were used. Dtypes: float32.
 * @param[in] attention_out output of the forward call. Dtypes: bfloat16, float16.
 * @param[in] softmax_lse row log-sum-exp saved by the forward call. Dtypes: float32.
 * @param[in] p_dropout dropout probability of the forward call
 * @param[in] softmax_scale score scale of the forward call
 * @param[in] is_causal causal flag of the forward call
 * @param[in] window_size_left left window of the forward call
 * @param[in] window_size_right right window of the forward call
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiFlashAttentionBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_q, diopiTensorHandle_t grad_k,
                                                   diopiTensorHandle_t grad_v, diopiConstTensorHandle_t grad_output, diopiGeneratorHandle_t gen,
                                                   diopiConstTensorHandle_t q, diopiConstTensorHandle_t k, diopiConstTensorHandle_t v,
                                                   diopiConstTensorHandle_t alibi_slopes, diopiConstTensorHandle_t attention_out,
                                                   diopiConstTensorHandle_t softmax_lse, float p_dropout, float softmax_scale, bool is_causal,
                                                   int32_t window_size_left, int32_t window_size_right);

/**
 * @brief Flash attention variant for backends that keep softmax statistics and the dropout mask explicitly:
 *        attention_out = dropout(softmax(softmax_scale * q k^T + mask)) v, with q, k, v in the layout named by
 *        input_layout.
 *
 * Some backends reject ALiBi slopes or sliding windows and derive the causal pattern solely from attention_mask.
 * A query whose keys are all excluded gets a zero output row (and zero gradients), as PyTorch's math path gives.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] attention_out result, laid out like q. Dtypes: bfloat16, float16.
 * @param[out] dropout_mask packed dropout keep bits; callee allocates it through diopiRequireTensor and stores the
 *     handle here (left unset without dropout). Dtypes: uint8, bool.
 * @param[out] softmax_max per-row maximum of the scaled scores; callee allocates it through diopiRequireTensor and
 *     stores the handle here. Dtypes: float32.
 * @param[out] softmax_sum per-row sum of exp(score - max); callee allocates it through diopiRequireTensor and stores
 *     the handle here. Dtypes: float32.
 * @param[out] softmax_out backend-specific softmax by-product, possibly empty; callee allocates it through
 *     diopiRequireTensor and stores the handle here. Dtypes: float32.
 * @param[in,out] gen supplies the random state for dropout
 * @param[in] q queries in input_layout. Dtypes: bfloat16, float16.
 * @param[in] k keys in input_layout; may have fewer heads than q. Dtypes: bfloat16, float16.
 * @param[in] v values laid out like k. Dtypes: bfloat16, float16.
 * @param[in] alibi_slopes optional per-head ALiBi slopes (heads_q); adds -slope * |i - j| to scores; NULL disables.
 *     Dtypes: float32.
 * @param[in] attention_mask optional boolean mask broadcast over scores, true marks excluded pairs; supply it when
 *     is_causal. Dtypes: bool.
 * @param[in] p_dropout probability of dropping an attention weight; 0 disables dropout
 * @param[in] softmax_scale factor applied to q k^T, usually 1/sqrt(head_dim)
 * @param[in] is_causal if true, query i only attends to keys j <= i
 * @param[in] window_size_left keys more than this many positions before the query are masked; -1 means unlimited
 * @param[in] window_size_right keys more than this many positions after the query are masked; -1 means unlimited
 * @param[in] head_num number of query heads; needed to split H in 3-D layouts
 * @param[in] input_layout "BSH", "SBH", "BSND" or "BNSD" (B batch, S sequence, N heads, D head_dim, H = N*D). Dtypes:
 *     char*.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiCustomizedFlashAttention(diopiContextHandle_t ctx, diopiTensorHandle_t attention_out, diopiTensorHandle_t* dropout_mask,
                                                     diopiTensorHandle_t* softmax_max, diopiTensorHandle_t* softmax_sum,
                                                     diopiTensorHandle_t* softmax_out, diopiGeneratorHandle_t gen, diopiConstTensorHandle_t q,
                                                     diopiConstTensorHandle_t k, diopiConstTensorHandle_t v, diopiConstTensorHandle_t alibi_slopes,
                                                     diopiConstTensorHandle_t attention_mask, float p_dropout, float softmax_scale, bool is_causal,
                                                     int32_t window_size_left, int32_t window_size_right, int32_t head_num, const char* input_layout);

/**
 * @brief Backward of diopiCustomizedFlashAttention: uses the saved softmax statistics and dropout mask to compute the
 *        gradients for q, k and v.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_q written with the gradient for q, same layout as q. Dtypes: bfloat16, float16.
 * @param[out] grad_k written with the gradient for k, same layout as k. Dtypes: bfloat16, float16.
 * @param[out] grad_v written with the gradient for v, same layout as v. Dtypes: bfloat16, float16.
 * @param[in] grad_output gradient of attention_out. Dtypes: bfloat16, float16.
 * @param[in] q queries of the forward call. Dtypes: bfloat16, float16.
 * @param[in] k keys of the forward call. Dtypes: bfloat16, float16.
 * @param[in] v values of the forward call. Dtypes: bfloat16, float16.
 * @param[in] alibi_slopes ALiBi slopes of the forward call; NULL if none were used. Dtypes: float32.
 * @param[in] attention_out output of the forward call. Dtypes: bfloat16, float16.
 * @param[in] attention_mask mask of the forward call; NULL if none was used. Dtypes: bool.
 * @param[in] dropout_mask dropout mask produced by the forward call; NULL when dropout was off. Dtypes: uint8, bool.
 * @param[in] softmax_max row maxima produced by the forward call. Dtypes: float32.
 * @param[in] softmax_sum row sums produced by the forward call. Dtypes: float32.
 * @param[in] softmax_out softmax by-product produced by the forward call. Dtypes: float32.
 * @param[in] p_dropout dropout probability of the forward call
 * @param[in] softmax_scale score scale of the forward call
 * @param[in] is_causal causal flag of the forward call
 * @param[in] window_size_left left window of the forward call
 * @param[in] window_size_right right window of the forward call
 * @param[in] head_num number of query heads of the forward call
 * @param[in] input_layout layout string of the forward call. Dtypes: char*.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiCustomizedFlashAttentionBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_q, diopiTensorHandle_t grad_k,
                                                             diopiTensorHandle_t grad_v, diopiConstTensorHandle_t grad_output,
                                                             diopiConstTensorHandle_t q, diopiConstTensorHandle_t k, diopiConstTensorHandle_t v,
                                                             diopiConstTensorHandle_t alibi_slopes, diopiConstTensorHandle_t attention_out,
                                                             diopiConstTensorHandle_t attention_mask, diopiConstTensorHandle_t dropout_mask,
                                                             diopiConstTensorHandle_t softmax_max, diopiConstTensorHandle_t softmax_sum,
                                                             diopiConstTensorHandle_t softmax_out, float p_dropout, float softmax_scale,
                                                             bool is_causal, int32_t window_size_left, int32_t window_size_right, int32_t head_num,
                                                             const char* input_layout);

/**
 * @brief Variable-length flash attention: sequences are packed along the token axis and each query attends only to
 *        keys of its own sequence, out = dropout(softmax(softmax_scale * q k^T + alibi + mask)) v. q is (total_q,
 *        heads_q, head_dim); k, v are (total_k, heads_k, head_dim).
 *
 * When a query sequence is shorter than its key sequence, positions are aligned at the end: query i corresponds to
 * key position i + len_k - len_q.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] attention_out packed result (total_q, heads_q, head_dim). Dtypes: bfloat16, float16.
 * @param[out] softmax_lse written with row log-sum-exp of scaled scores, shape (batch, heads_q, max_seqlen_q).
 *     Dtypes: float32.
 * @param[in,out] gen supplies the random state for dropout; advanced by the call
 * @param[in] q packed queries (total_q, heads_q, head_dim). Dtypes: bfloat16, float16.
 * @param[in] k packed keys (total_k, heads_k, head_dim). Dtypes: bfloat16, float16.
 * @param[in] v packed values (total_k, heads_k, head_dim). Dtypes: bfloat16, float16.
 * @param[in] cum_seq_q (batch + 1) prefix sums of query lengths, starting at 0. Dtypes: int32.
 * @param[in] cum_seq_kv (batch + 1) prefix sums of key/value lengths, starting at 0. Dtypes: int32.
 * @param[in] alibi_slopes optional per-head ALiBi slopes (heads_q); adds -slope * |i - j| to scores; NULL disables.
 *     Dtypes: float32.
 * @param[in] max_seqlen_q longest query sequence in the batch
 * @param[in] max_seqlen_kv longest key/value sequence in the batch
 * @param[in] p_dropout probability of dropping an attention weight; 0 disables dropout
 * @param[in] softmax_scale factor applied to q k^T, usually 1/sqrt(head_dim)
 * @param[in] is_causal if true, queries only attend to keys at or before their aligned position
 * @param[in] window_size_left keys more than this many positions before the query are masked; -1 means unlimited
 * @param[in] window_size_right keys more than this many positions after the query are masked; -1 means unlimited
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiFlashAttentionVarLen(diopiContextHandle_t ctx, diopiTensorHandle_t attention_out, diopiTensorHandle_t softmax_lse,
                                                 diopiGeneratorHandle_t gen, diopiConstTensorHandle_t q, diopiConstTensorHandle_t k,
                                                 diopiConstTensorHandle_t v, diopiConstTensorHandle_t cum_seq_q, diopiConstTensorHandle_t cum_seq_kv,
                                                 diopiConstTensorHandle_t alibi_slopes, int32_t max_seqlen_q, int32_t max_seqlen_kv, float p_dropout,
                                                 float softmax_scale, bool is_causal, int32_t window_size_left, int32_t window_size_right);

/**
 * @brief Backward of diopiFlashAttentionVarLen: gradients of packed variable-length attention with respect to q, k
 *        and v, recomputed from softmax_lse.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_q written with the gradient for q, same shape as q. Dtypes: float16, bfloat16, float32, int32.
 * @param[out] grad_k written with the gradient for k, same shape as k. Dtypes: float16, bfloat16, float32, int32.
 * @param[out] grad_v written with the gradient for v, same shape as v. Dtypes: float16, bfloat16, float32, int32.
 * @param[in] grad_output gradient of attention_out. Dtypes: bfloat16, float16.
 * @param[in,out] gen random state matching the forward call, so the same dropout pattern is regenerated
 * @param[in] q packed queries of the forward call. Dtypes: bfloat16, float16.
 * @param[in] k packed keys of the forward call. Dtypes: bfloat16, float16.
 * @param[in] v packed values of the forward call. Dtypes: bfloat16, float16.
 * @param[in] cum_seq_q query prefix sums used in the forward call. Dtypes: int32.
 * @param[in] cum_seq_kv key/value prefix sums used in the forward call. Dtypes: int32.
 * @param[in] alibi_slopes ALiBi slopes of the forward call; NULL if none were used. Dtypes: float32.
 * @param[in] attention_out output of the forward call. Dtypes: bfloat16, float16.
 * @param[in] softmax_lse row log-sum-exp saved by the forward call. Dtypes: float32.
 * @param[in] max_seqlen_q longest query sequence
 * @param[in] max_seqlen_kv longest key/value sequence
 * @param[in] p_dropout dropout probability of the forward call
 * @param[in] softmax_scale score scale of the forward call
 * @param[in] is_causal causal flag of the forward call
 * @param[in] window_size_left left window of the forward call
 * @param[in] window_size_right right window of the forward call
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiFlashAttentionVarLenBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_q, diopiTensorHandle_t grad_k,
                                                         diopiTensorHandle_t grad_v, diopiConstTensorHandle_t grad_output,
                                                         diopiGeneratorHandle_t gen, diopiConstTensorHandle_t q, diopiConstTensorHandle_t k,
                                                         diopiConstTensorHandle_t v, diopiConstTensorHandle_t cum_seq_q,
                                                         diopiConstTensorHandle_t cum_seq_kv, diopiConstTensorHandle_t alibi_slopes,
                                                         diopiConstTensorHandle_t attention_out, diopiConstTensorHandle_t softmax_lse,
                                                         int32_t max_seqlen_q, int32_t max_seqlen_kv, float p_dropout, float softmax_scale,
                                                         bool is_causal, int32_t window_size_left, int32_t window_size_right);

/**
 * @brief Variable-length variant of diopiCustomizedFlashAttention: packed sequences in (total_tokens, heads,
 *        head_dim) layout, each attending only within itself, with explicit softmax statistics and dropout mask
 *        returned for the backward pass.
 *
 * Whether cum_seq_q / cum_seq_kv carry a leading 0 is backend dependent; some backends expect only the end offsets of
 * each sequence.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] attention_out packed result (total_q, heads_q, head_dim). Dtypes: bfloat16, float16.
 * @param[out] dropout_mask packed dropout keep bits; callee allocates it through diopiRequireTensor and stores the
 *     handle here (left unset without dropout). Dtypes: uint8, bool.
 * @param[out] softmax_max per-row maximum of the scaled scores; callee allocates it through diopiRequireTensor and
 *     stores the handle here. Dtypes: float32.
 * @param[out] softmax_sum per-row sum of exp(score - max); callee allocates it through diopiRequireTensor and stores
 *     the handle here. Dtypes: float32.
 * @param[out] softmax_out backend-specific softmax by-product, possibly empty; callee allocates it through
 *     diopiRequireTensor and stores the handle here. Dtypes: float32.
 * @param[in,out] gen supplies the random state for dropout; advanced by the call
 * @param[in] q packed queries (total_q, heads_q, head_dim). Dtypes: bfloat16, float16.
 * @param[in] k packed keys (total_k, heads_k, head_dim). Dtypes: bfloat16, float16.
 * @param[in] v packed values (total_k, heads_k, head_dim). Dtypes: bfloat16, float16.
 * @param[in] cum_seq_q host array of cumulative query lengths marking sequence boundaries
 * @param[in] cum_seq_kv host array of cumulative key/value lengths marking sequence boundaries
 * @param[in] alibi_slopes optional per-head ALiBi slopes (heads_q); adds -slope * |i - j| to scores; NULL disables.
 *     Dtypes: float32.
 * @param[in] attention_mask optional boolean mask broadcast over scores, true marks excluded pairs; supply it when
 *     is_causal. Dtypes: bool.
 * @param[in] max_seqlen_q longest query sequence in the batch
 * @param[in] max_seqlen_kv longest key/value sequence in the batch
 * @param[in] p_dropout probability of dropping an attention weight; 0 disables dropout
 * @param[in] softmax_scale factor applied to q k^T, usually 1/sqrt(head_dim)
 * @param[in] is_causal if true, queries only attend to keys at or before their position
 * @param[in] window_size_left keys more than this many positions before the query are masked; -1 means unlimited
 * @param[in] window_size_right keys more than this many positions after the query are masked; -1 means unlimited
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiCustomizedFlashAttentionVarLen(diopiContextHandle_t ctx, diopiTensorHandle_t attention_out,
                                                           diopiTensorHandle_t* dropout_mask, diopiTensorHandle_t* softmax_max,
                                                           diopiTensorHandle_t* softmax_sum, diopiTensorHandle_t* softmax_out,
                                                           diopiGeneratorHandle_t gen, diopiConstTensorHandle_t q, diopiConstTensorHandle_t k,
                                                           diopiConstTensorHandle_t v, diopiSize_t cum_seq_q, diopiSize_t cum_seq_kv,
                                                           diopiConstTensorHandle_t alibi_slopes, diopiConstTensorHandle_t attention_mask,
                                                           int32_t max_seqlen_q, int32_t max_seqlen_kv, float p_dropout, float softmax_scale,
                                                           bool is_causal, int32_t window_size_left, int32_t window_size_right);

/**
 * @brief Backward of diopiCustomizedFlashAttentionVarLen: uses the saved softmax statistics and dropout mask to
 *        compute gradients for the packed q, k and v.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_q written with the gradient for q, same shape as q. Dtypes: float16, bfloat16, float32.
 * @param[out] grad_k written with the gradient for k, same shape as k. Dtypes: float16, bfloat16, float32.
 * @param[out] grad_v written with the gradient for v, same shape as v. Dtypes: float16, bfloat16, float32.
 * @param[in] grad_output gradient of attention_out. Dtypes: bfloat16, float16.
 * @param[in] q packed queries of the forward call. Dtypes: bfloat16, float16.
 * @param[in] k packed keys of the forward call. Dtypes: bfloat16, float16.
 * @param[in] v packed values of the forward call. Dtypes: bfloat16, float16.
 * @param[in] cum_seq_q query boundaries used in the forward call
 * @param[in] cum_seq_kv key/value boundaries used in the forward call
 * @param[in] alibi_slopes ALiBi slopes of the forward call; NULL if none were used. Dtypes: float32.
 * @param[in] attention_out output of the forward call. Dtypes: bfloat16, float16.
 * @param[in] attention_mask mask of the forward call; NULL if none was used. Dtypes: bool.
 * @param[in] dropout_mask dropout mask produced by the forward call; NULL when dropout was off. Dtypes: uint8, bool.
 * @param[in] softmax_max row maxima produced by the forward call. Dtypes: float32.
 * @param[in] softmax_sum row sums produced by the forward call. Dtypes: float32.
 * @param[in] softmax_out softmax by-product produced by the forward call. Dtypes: float32.
 * @param[in] max_seqlen_q longest query sequence
 * @param[in] max_seqlen_kv longest key/value sequence
 * @param[in] p_dropout dropout probability of the forward call
 * @param[in] softmax_scale score scale of the forward call
 * @param[in] is_causal causal flag of the forward call
 * @param[in] window_size_left left window of the forward call
 * @param[in] window_size_right right window of the forward call
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiCustomizedFlashAttentionVarLenBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_q, diopiTensorHandle_t grad_k,
                                                                   diopiTensorHandle_t grad_v, diopiConstTensorHandle_t grad_output,
                                                                   diopiConstTensorHandle_t q, diopiConstTensorHandle_t k,
                                                                   diopiConstTensorHandle_t v, diopiSize_t cum_seq_q, diopiSize_t cum_seq_kv,
                                                                   diopiConstTensorHandle_t alibi_slopes, diopiConstTensorHandle_t attention_out,
                                                                   diopiConstTensorHandle_t attention_mask, diopiConstTensorHandle_t dropout_mask,
                                                                   diopiConstTensorHandle_t softmax_max, diopiConstTensorHandle_t softmax_sum,
                                                                   diopiConstTensorHandle_t softmax_out, int32_t max_seqlen_q, int32_t max_seqlen_kv,
                                                                   float p_dropout, float softmax_scale, bool is_causal, int32_t window_size_left,
                                                                   int32_t window_size_right);

/**
 * @brief Softmax over the last dimension of scale * input after masked positions are set to a large negative value:
 *        output = softmax(masked_fill(scale * input, mask, -inf-like)). Mirrors the fused scaled masked softmax of
 *        Megatron-style transformers.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] output softmax probabilities, same shape as input. Dtypes: bfloat16, float16, float32.
 * @param[in] input attention scores, e.g. (batch, heads, seq_q, seq_k). Dtypes: bfloat16, float16, float32.
 * @param[in] mask boolean mask broadcastable to input; true marks excluded positions. Dtypes: bfloat16, float16,
 *     float32.
 * @param[in] scale factor applied to input before masking and softmax
 * @param[in] fixed_triu_mask if true, ignores mask and excludes the strict upper triangle (causal)
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiScaledMaskedSoftmax(diopiContextHandle_t ctx, diopiTensorHandle_t output, diopiConstTensorHandle_t input,
                                                diopiConstTensorHandle_t mask, double scale, bool fixed_triu_mask);

/**
 * @brief Backward of diopiScaledMaskedSoftmax: grad_input = scale * output * (grad_output - sum(grad_output * output,
 *        last dim)), zero at masked positions.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input written with the gradient for input, same shape as output. Dtypes: bfloat16, float16,
 *     float32.
 * @param[in] grad_output gradient of the softmax output. Dtypes: bfloat16, float16, float32.
 * @param[in] output softmax probabilities produced by the forward call. Dtypes: float16, bfloat16, float32.
 * @param[in] mask mask of the forward call. Dtypes: bfloat16, float16, float32.
 * @param[in] scale scale of the forward call
 * @param[in] fixed_triu_mask causal-mask flag of the forward call
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiScaledMaskedSoftmaxBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input,
                                                        diopiConstTensorHandle_t grad_output, diopiConstTensorHandle_t output,
                                                        diopiConstTensorHandle_t mask, double scale, bool fixed_triu_mask);

/**
 * @brief Prefill-stage attention for inference: for each sequence, out = softmax(q k^T / sqrt(dim) + mask) v with
 *        causal masking, where query/key/value are packed as (batch * max_input_len, heads * dim) with each sequence
 *        padded to max_input_len. Key/value may have fewer heads (grouped-query attention).
 *
 * Rows beyond a sequence's actual length are padding and their output is unspecified.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result, laid out like query; written in place. Dtypes: float16, bfloat16, float32.
 * @param[in] query queries (batch * max_input_len, num_heads * dim). Dtypes: float16, bfloat16, float32.
 * @param[in] key keys (batch * max_input_len, num_kv_heads * dim). Dtypes: float16, bfloat16, float32.
 * @param[in] value values laid out like key. Dtypes: float16, bfloat16, float32.
 * @param[in] atten_mask boolean mask added to the causal pattern, true marks excluded pairs; may be NULL. Dtypes: bool.
 * @param[in] actual_seq_lengths real (unpadded) length of each sequence, one entry per batch item
 * @param[in] max_input_len padded length of every sequence in the packed tensors
 * @param[in] num_heads number of query heads
 * @param[in] num_kv_heads number of key/value heads; num_heads must be a multiple of it
 * @param[in] dim size of one attention head; the score scale is 1/sqrt(dim)
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiPromptFlashAttention(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t query,
                                                 diopiConstTensorHandle_t key, diopiConstTensorHandle_t value, diopiConstTensorHandle_t atten_mask,
                                                 diopiSize_t actual_seq_lengths, int64_t max_input_len, int64_t num_heads, int64_t num_kv_heads,
                                                 int64_t dim);

/* ========================================================================
 * Family: llm_inference (llm inference kernels)
 * ======================================================================== */

/**
 * @brief Penalises already generated tokens in next-token logits: for each batch row b and each listed token t with
 *        count c, logits[b, t] -= c * frequency_penalty[b] + presence_penalty[b].
 *
 * Tokens not listed for a row are left unchanged.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] logits (batch, vocab) scores, modified in place. Dtypes: float16, bfloat16, float32, float64.
 * @param[in] presence_penalty (batch) flat penalty subtracted once for every token that has appeared. Dtypes: float16,
 *     bfloat16, float32, float64.
 * @param[in] frequency_penalty (batch) penalty multiplied by each token's occurrence count. Dtypes: float16, bfloat16,
 *     float32, float64.
 * @param[in] p_token_ids concatenated distinct token ids of all rows. Dtypes: int32, int64.
 * @param[in] p_token_counts occurrence count of each entry of p_token_ids. Dtypes: int32, int64.
 * @param[in] p_cumsum_seq_len (batch + 1) offsets delimiting each row's slice of p_token_ids. Dtypes: int32, int64.
 * @param[in] p_max_len_in_batch largest number of distinct tokens of any row
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiApplyPenalty(diopiContextHandle_t ctx, diopiTensorHandle_t logits, diopiConstTensorHandle_t presence_penalty,
                                         diopiConstTensorHandle_t frequency_penalty, diopiConstTensorHandle_t p_token_ids,
                                         diopiConstTensorHandle_t p_token_counts, diopiConstTensorHandle_t p_cumsum_seq_len, int p_max_len_in_batch);

/**
 * @brief Penalises already generated tokens with repetition, frequency and presence penalties: each listed logit l
 *        becomes (l > 0 ? l / r : l * r) - count * frequency - presence. Token positions index the flattened logits.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] logits scores, modified in place; addressed as a flattened 1-D array. Dtypes: float16, bfloat16,
 *     float32, float64.
 * @param[in] presence_penalty flat penalty per listed entry, broadcastable to p_token_ids. Dtypes: float16, bfloat16,
 *     float32, float64.
 * @param[in] frequency_penalty penalty per listed entry multiplied by its count, broadcastable to p_token_ids. Dtypes:
 *     float16, bfloat16, float32, float64.
 * @param[in] repetition_penalty divisor for positive and multiplier for negative logits, broadcastable to p_token_ids.
 *     Dtypes: float16, bfloat16, float32, float64.
 * @param[in] p_token_ids positions in the flattened logits (row * vocab + token) to penalise. Dtypes: int32, int64.
 * @param[in] p_token_counts occurrence count of each entry of p_token_ids. Dtypes: int32, int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiApplyPenaltyV2(diopiContextHandle_t ctx, diopiTensorHandle_t logits, diopiConstTensorHandle_t presence_penalty,
                                           diopiConstTensorHandle_t frequency_penalty, diopiConstTensorHandle_t repetition_penalty,
                                           diopiConstTensorHandle_t p_token_ids, diopiConstTensorHandle_t p_token_counts);

/**
 * @brief Writes newly computed key or value vectors into a preallocated KV cache: out[dest_loc[i]] = k[i] for every
 *        token i.
 *
 * Rows of the cache not named in dest_loc are left untouched.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out KV cache (max_total_tokens, heads, head_dim), rows overwritten in place. Dtypes: float16, bfloat16,
 *     float32, float64, int8, int32.
 * @param[in] k new entries (seq_len, heads, head_dim). Dtypes: float16, bfloat16, float32, float64, int8, int32.
 * @param[in] dest_loc (seq_len) cache row for each new entry. Dtypes: int32, int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiDestIndexCopyKV(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t k,
                                            diopiConstTensorHandle_t dest_loc);

/**
 * @brief Decode-stage attention scores over a token-indexed KV cache: for batch item b and head h, score[h,
 *        b_start_loc[b] + t] = q[b, h] . K[loc_t, h] / sqrt(head_dim) for each of the b_seq_len[b] cached tokens.
 *
 * Only scores are produced; softmax and the value reduction are done by diopiTokenSoftmaxReduceVInference.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] token_attention_out scores (heads, total_tokens), total_tokens = sum of b_seq_len. Dtypes: float16,
 *     bfloat16, float32, float64.
 * @param[in] q current queries (batch, heads, head_dim), one token per sequence. Dtypes: float16, bfloat16, float32,
 *     float64.
 * @param[in] k key cache (max_total_tokens, heads, head_dim). Dtypes: float16, bfloat16, float32, float64.
 * @param[in] b_loc (batch, max_input_len) cache rows of each sequence's tokens, right-aligned. Dtypes: int32, int64.
 * @param[in] b_start_loc (batch) offset of each sequence's scores in the output. Dtypes: int32, int64.
 * @param[in] b_seq_len (batch) number of cached tokens per sequence. Dtypes: int32, int64.
 * @param[in] max_input_len column count of b_loc; a sequence's tokens occupy its last b_seq_len columns
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiTokenAttentionInference(diopiContextHandle_t ctx, diopiTensorHandle_t token_attention_out, diopiConstTensorHandle_t q,
                                                    diopiConstTensorHandle_t k, diopiConstTensorHandle_t b_loc, diopiConstTensorHandle_t b_start_loc,
                                                    diopiConstTensorHandle_t b_seq_len, int max_input_len);

/**
 * @brief Second half of decode-stage token attention: for each sequence and head, applies softmax to its slice of
 *        scores and returns the probability-weighted sum of the cached value vectors.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result (batch, heads, head_dim), written in place. Dtypes: float16, bfloat16, float32, float64.
 * @param[in] logics scores (heads, total_tokens) as produced by diopiTokenAttentionInference. Dtypes: float16,
 *     bfloat16, float32, float64.
 * @param[in] v value cache (max_total_tokens, heads, head_dim). Dtypes: float16, bfloat16, float32, float64.
 * @param[in] b_loc (batch, max_input_len) cache rows of each sequence's tokens, right-aligned. Dtypes: int32, int64.
 * @param[in] b_start_loc (batch) offset of each sequence's scores in logics. Dtypes: int32, int64.
 * @param[in] b_seq_len (batch) number of cached tokens per sequence. Dtypes: int32, int64.
 * @param[in] max_input_len column count of b_loc
 * @param[in] other_kv_index valid cache row read for padded positions so no garbage is loaded
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiTokenSoftmaxReduceVInference(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t logics,
                                                         diopiConstTensorHandle_t v, diopiConstTensorHandle_t b_loc,
                                                         diopiConstTensorHandle_t b_start_loc, diopiConstTensorHandle_t b_seq_len, int max_input_len,
                                                         int other_kv_index);

/**
 * @brief Decode-stage attention over a paged KV cache: each sequence's single query token attends to its cached
 *        tokens, out = softmax(q K^T / sqrt(dim) [+ mask]) V, where K and V are gathered block by block through
 *        block_table.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result (batch, num_heads * dim), written in place. Dtypes: float16, bfloat16, float32, float64.
 * @param[in] q current queries (batch, num_heads * dim), one token per sequence. Dtypes: float16, bfloat16, float32,
 *     float64.
 * @param[in] k paged key cache; each block holds block_size tokens of num_kv_heads * dim features. Dtypes: float16,
 *     bfloat16, float32, float64.
 * @param[in] v paged value cache laid out like k. Dtypes: float16, bfloat16, float32, float64.
 * @param[in] attenMask optional mask over cached positions, true marks excluded; may be NULL. Dtypes: bool.
 * @param[in] actual_seq_lengths number of cached tokens per sequence, one entry per batch item
 * @param[in] num_heads number of query heads
 * @param[in] num_kv_heads number of key/value heads; num_heads must be a multiple of it
 * @param[in] dim size of one attention head; the score scale is 1/sqrt(dim)
 * @param[in] block_table (batch, max_blocks_per_seq) ids of the cache blocks holding each sequence, in order. Dtypes:
 *     int32, int64.
 * @param[in] block_size number of tokens stored per cache block
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiPagedAttention(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t q, diopiConstTensorHandle_t k,
                                           diopiConstTensorHandle_t v, diopiConstTensorHandle_t attenMask, diopiSize_t actual_seq_lengths,
                                           int64_t num_heads, int64_t num_kv_heads, int64_t dim, diopiConstTensorHandle_t block_table,
                                           int64_t block_size);

/**
 * @brief Prefill-stage attention on packed sequences without padding: for each sequence, out = softmax(q k^T /
 *        sqrt(head_dim) with causal mask) v, tokens of different sequences never interacting.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] context_attention_out result (total_tokens, heads, head_dim), written in place. Dtypes: float16,
 *     bfloat16, float32, float64.
 * @param[in] q packed queries (total_tokens, heads, head_dim). Dtypes: float16, bfloat16, float32, float64.
 * @param[in] k packed keys (total_tokens, heads, head_dim). Dtypes: float16, bfloat16, float32, float64.
 * @param[in] v packed values (total_tokens, heads, head_dim). Dtypes: float16, bfloat16, float32, float64.
 * @param[in] b_start_loc (batch) index of each sequence's first token in the packed tensors. Dtypes: int32, int64.
 * @param[in] b_seq_len (batch) length of each sequence. Dtypes: int32, int64.
 * @param[in] max_input_len longest sequence length in the batch
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiContextAttentionInference(diopiContextHandle_t ctx, diopiTensorHandle_t context_attention_out,
                                                      diopiConstTensorHandle_t q, diopiConstTensorHandle_t k, diopiConstTensorHandle_t v,
                                                      diopiConstTensorHandle_t b_start_loc, diopiConstTensorHandle_t b_seq_len, int max_input_len);

/* ========================================================================
 * Family: llm_distributed (distributed fused operators)
 * ======================================================================== */

/**
 * @brief Fused tensor-parallel matmul and all-reduce: every rank computes x1 @ x2 (+ bias) and the partial results
 *        are reduced across the communication group into `out`.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out reduced result (..., M, N), identical on all ranks. Dtypes: float16, bfloat16, float32, float64.
 * @param[in] x1 local left operand (..., M, K). Dtypes: bfloat16, float16, float32, float64.
 * @param[in] x2 local right operand (K, N). Dtypes: bfloat16, float16, float32, float64.
 * @param[in] bias optional (N) bias, counted once in the reduced result; may be NULL. Dtypes: bfloat16, float16,
 *     float32, float64.
 * @param[in] group name of the communicator to reduce over: diopiCommGetName() of a live communicator of this process
 *     (collective.h). NULL or "" mean a world of one rank, where the all-reduce leaves the local result. A library
 *     that implements the collective interface refuses a name no live communicator has; one without it has no
 *     communicators and treats every name as a world of one.
 * @param[in] reduce_op reduction applied across ranks: "sum" (NULL or "" mean "sum")
 * @param[in] comm_turn communication scheduling hint; 0 for the default
 * @param[in] stream_mode backend-specific communication stream mode
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiMatmulAllReduce(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t x1,
                                            diopiConstTensorHandle_t x2, diopiConstTensorHandle_t bias, const char* group, const char* reduce_op,
                                            int64_t comm_turn, int64_t stream_mode);

#if defined(__cplusplus)
}
#endif

#endif /* DIOPI_FUNCTIONS_EXT_H_ */
