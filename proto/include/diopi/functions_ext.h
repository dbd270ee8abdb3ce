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
 * Rotary position embedding
 * ======================================================================== */

/**
 * @brief RotaryEmbedding operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: bfloat16, float16, float32, float64.
 * @param[in] x Dtypes: bfloat16, float16, float32, float64.
 * @param[in] cos Dtypes: bfloat16, float16, float32, float64.
 * @param[in] sin Dtypes: bfloat16, float16, float32, float64.
 * @param[in] conj
 * @param[in] interleaved
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiRotaryEmbedding(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t x,
                                            diopiConstTensorHandle_t cos, diopiConstTensorHandle_t sin, const bool conj, const bool interleaved);

/**
 * @brief RotaryEmbeddingV2 operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] query Dtypes: bfloat16, float16, float32, float64.
 * @param[in,out] key Dtypes: bfloat16, float16, float32, float64.
 * @param[in] cos Dtypes: bfloat16, float16, float32, float64.
 * @param[in] sin Dtypes: bfloat16, float16, float32, float64.
 * @param[in] dim
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiRotaryEmbeddingV2(diopiContextHandle_t ctx, diopiTensorHandle_t query, diopiTensorHandle_t key,
                                              diopiConstTensorHandle_t cos, diopiConstTensorHandle_t sin, int64_t dim);

/* ========================================================================
 * RMS normalization
 * ======================================================================== */

/**
 * @brief RMSNorm operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: bfloat16, float16, float32, float64.
 * @param[out] inv_rms Dtypes: float32, float64.
 * @param[in] input Dtypes: bfloat16, float16, float32, float64.
 * @param[in] normalized_shape
 * @param[in] weight Dtypes: bfloat16, float16, float32, float64.
 * @param[in] bias Dtypes: bfloat16, float16, float32, float64.
 * @param[in] eps
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiRMSNorm(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiTensorHandle_t inv_rms, diopiConstTensorHandle_t input,
                                    diopiSize_t normalized_shape, diopiConstTensorHandle_t weight, diopiConstTensorHandle_t bias, double eps);

/**
 * @brief RMSNormBackward operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input Dtypes: bfloat16, float16, float32, float64.
 * @param[out] grad_weight Dtypes: bfloat16, float16, float32, float64.
 * @param[out] grad_bias Dtypes: bfloat16, float16, float32, float64.
 * @param[in] grad_output Dtypes: bfloat16, float16, float32, float64.
 * @param[in] input Dtypes: bfloat16, float16, float32, float64.
 * @param[in] weight Dtypes: bfloat16, float16, float32, float64.
 * @param[in] bias Dtypes: bfloat16, float16, float32, float64.
 * @param[in] inv_rms Dtypes: bfloat16, float32, float64.
 * @param[in] normalized_shape
 * @param[in] eps
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiRMSNormBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiTensorHandle_t grad_weight,
                                            diopiTensorHandle_t grad_bias, diopiConstTensorHandle_t grad_output, diopiConstTensorHandle_t input,
                                            diopiConstTensorHandle_t weight, diopiConstTensorHandle_t bias, diopiConstTensorHandle_t inv_rms,
                                            diopiSize_t normalized_shape, double eps);

/* ========================================================================
 * Attention
 * ======================================================================== */

/**
 * @brief MultiHeadAttention operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] q
 * @param[out] k
 * @param[out] v
 * @param[in] dropout_p
 * @param[in] is_causal
 * @param[in] return_debug_mask
 * @param[in] scale
 * @param[out] out
 * @param[out] softmax_lse
 * @param[in,out] gen
 * @param[out] debug_attn_mask
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiMultiHeadAttention(diopiContextHandle_t ctx, diopiTensorHandle_t q, diopiTensorHandle_t k, diopiTensorHandle_t v,
                                               double dropout_p, bool is_causal, bool return_debug_mask, double scale, diopiTensorHandle_t out,
                                               diopiTensorHandle_t softmax_lse, diopiGeneratorHandle_t gen, diopiTensorHandle_t debug_attn_mask);

/**
 * @brief MultiHeadAttentionBackward operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in] grad_out
 * @param[in] q
 * @param[in] k
 * @param[in] v
 * @param[in] out
 * @param[in] softmax_lse
 * @param[in] dropout_p
 * @param[in] is_causal
 * @param[in,out] gen
 * @param[in] scale
 * @param[out] grad_q
 * @param[out] grad_k
 * @param[out] grad_v
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
 * @brief MultiHeadAttentionVarLen operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] q
 * @param[out] k
 * @param[out] v
 * @param[in] cum_seq_q
 * @param[in] cum_seq_k
 * @param[in] max_q
 * @param[in] max_k
 * @param[in] dropout_p
 * @param[in] is_causal
 * @param[in] return_debug_mask
 * @param[in] scale
 * @param[out] out
 * @param[out] softmax_lse
 * @param[in,out] gen
 * @param[out] debug_attn_mask
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
 * @brief MultiHeadAttentionVarLenBackward operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in] grad_out
 * @param[in] q
 * @param[in] k
 * @param[in] v
 * @param[in] out
 * @param[in] softmax_lse
 * @param[in] cum_seq_q
 * @param[in] cum_seq_k
 * @param[in] max_q
 * @param[in] max_k
 * @param[in] dropout_p
 * @param[in] is_causal
 * @param[in,out] gen
 * @param[in] scale
 * @param[out] grad_q
 * @param[out] grad_k
 * @param[out] grad_v
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
 * @brief FlashAttention operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] attention_out Dtypes: bfloat16, * float16.
 * @param[out] softmax_lse Dtypes: float32.
 * @param[in,out] gen
 * @param[in] q Dtypes: bfloat16, float16.
 * @param[in] k Dtypes: bfloat16, float16.
 * @param[in] v Dtypes: bfloat16, float16.
 * @param[in] alibi_slopes Dtypes: float32.
 * @param[in] p_dropout
 * @param[in] softmax_scale
 * @param[in] is_causal
 * @param[in] window_size_left
 * @param[in] window_size_right
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiFlashAttention(diopiContextHandle_t ctx, diopiTensorHandle_t attention_out, diopiTensorHandle_t softmax_lse,
                                           diopiGeneratorHandle_t gen, diopiConstTensorHandle_t q, diopiConstTensorHandle_t k,
                                           diopiConstTensorHandle_t v, diopiConstTensorHandle_t alibi_slopes, float p_dropout, float softmax_scale,
                                           bool is_causal, int32_t window_size_left, int32_t window_size_right);

/**
 * @brief FlashAttentionBackward operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_q Dtypes: bfloat16, float16.
 * @param[out] grad_k Dtypes: bfloat16, float16.
 * @param[out] grad_v Dtypes: bfloat16, float16.
 * @param[in] grad_output Dtypes: bfloat16, float16.
 * @param[in,out] gen
 * @param[in] q Dtypes: bfloat16, float16.
 * @param[in] k Dtypes: bfloat16, float16.
 * @param[in] v Dtypes: bfloat16, float16.
 * @param[in] alibi_slopes Dtypes: float32.
 * @param[in] attention_out Dtypes: bfloat16, * float16.
 * @param[in] softmax_lse Dtypes: float32.
 * @param[in] p_dropout
 * @param[in] softmax_scale
 * @param[in] is_causal
 * @param[in] window_size_left
 * @param[in] window_size_right
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
 * @brief CustomizedFlashAttention operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] attention_out Dtypes: bfloat16, float16.
 * @param[out] dropout_mask
 * @param[out] softmax_max Dtypes: float32.
 * @param[out] softmax_sum Dtypes: float32.
 * @param[out] softmax_out Dtypes: float32.
 * @param[in,out] gen
 * @param[in] q Dtypes: bfloat16, float16.
 * @param[in] k Dtypes: bfloat16, float16.
 * @param[in] v Dtypes: bfloat16, float16.
 * @param[in] alibi_slopes Dtypes: float32.
 * @param[in] attention_mask Dtypes: bool.
 * @param[in] p_dropout
 * @param[in] softmax_scale
 * @param[in] is_causal
 * @param[in] window_size_left
 * @param[in] window_size_right
 * @param[in] head_num
 * @param[in] input_layout Dtypes: char*.
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
 * @brief CustomizedFlashAttentionBackward operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_q Dtypes: bfloat16, float16.
 * @param[out] grad_k Dtypes: bfloat16, float16.
 * @param[out] grad_v Dtypes: bfloat16, float16.
 * @param[in] grad_output Dtypes: bfloat16, float16.
 * @param[in] q Dtypes: bfloat16, float16.
 * @param[in] k Dtypes: bfloat16, float16.
 * @param[in] v Dtypes: bfloat16, float16.
 * @param[in] alibi_slopes Dtypes: float32.
 * @param[in] attention_out Dtypes: bfloat16, float16.
 * @param[in] attention_mask Dtypes: bool.
 * @param[in] dropout_mask
 * @param[in] softmax_max Dtypes: float32.
 * @param[in] softmax_sum Dtypes: float32.
 * @param[in] softmax_out Dtypes: float32.
 * @param[in] p_dropout
 * @param[in] softmax_scale
 * @param[in] is_causal
 * @param[in] window_size_left
 * @param[in] window_size_right
 * @param[in] head_num
 * @param[in] input_layout Dtypes: char*.
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
 * @brief FlashAttentionVarLen operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] attention_out Dtypes: bfloat16, float16.
 * @param[out] softmax_lse Dtypes: float32.
 * @param[in,out] gen
 * @param[in] q Dtypes: bfloat16, float16.
 * @param[in] k Dtypes: bfloat16, float16.
 * @param[in] v Dtypes: bfloat16, float16.
 * @param[in] cum_seq_q Dtypes: int32.
 * @param[in] cum_seq_kv Dtypes: int32.
 * @param[in] alibi_slopes Dtypes: float32.
 * @param[in] max_seqlen_q
 * @param[in] max_seqlen_kv
 * @param[in] p_dropout
 * @param[in] softmax_scale
 * @param[in] is_causal
 * @param[in] window_size_left
 * @param[in] window_size_right
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
 * @brief FlashAttentionVarLenBackward operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_q
 * @param[out] grad_k
 * @param[out] grad_v
 * @param[in] grad_output Dtypes: bfloat16, float16.
 * @param[in,out] gen
 * @param[in] q Dtypes: bfloat16, float16.
 * @param[in] k Dtypes: bfloat16, float16.
 * @param[in] v Dtypes: bfloat16, float16.
 * @param[in] cum_seq_q Dtypes: int32.
 * @param[in] cum_seq_kv Dtypes: int32.
 * @param[in] alibi_slopes Dtypes: float32.
 * @param[in] attention_out Dtypes: bfloat16, float16.
 * @param[in] softmax_lse Dtypes: float32.
 * @param[in] max_seqlen_q
 * @param[in] max_seqlen_kv
 * @param[in] p_dropout
 * @param[in] softmax_scale
 * @param[in] is_causal
 * @param[in] window_size_left
 * @param[in] window_size_right
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
 * @brief CustomizedFlashAttentionVarLen operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] attention_out Dtypes: bfloat16, float16.
 * @param[out] dropout_mask
 * @param[out] softmax_max Dtypes: float32.
 * @param[out] softmax_sum Dtypes: float32.
 * @param[out] softmax_out Dtypes: float32.
 * @param[in,out] gen
 * @param[in] q Dtypes: bfloat16, float16.
 * @param[in] k Dtypes: bfloat16, float16.
 * @param[in] v Dtypes: bfloat16, float16.
 * @param[in] cum_seq_q
 * @param[in] cum_seq_kv
 * @param[in] alibi_slopes Dtypes: float32.
 * @param[in] attention_mask Dtypes: bool.
 * @param[in] max_seqlen_q
 * @param[in] max_seqlen_kv
 * @param[in] p_dropout
 * @param[in] softmax_scale
 * @param[in] is_causal
 * @param[in] window_size_left
 * @param[in] window_size_right
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
 * @brief CustomizedFlashAttentionVarLenBackward operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_q
 * @param[out] grad_k
 * @param[out] grad_v
 * @param[in] grad_output Dtypes: bfloat16, float16.
 * @param[in] q Dtypes: bfloat16, float16.
 * @param[in] k Dtypes: bfloat16, float16.
 * @param[in] v Dtypes: bfloat16, float16.
 * @param[in] cum_seq_q
 * @param[in] cum_seq_kv
 * @param[in] alibi_slopes Dtypes: float32.
 * @param[in] attention_out Dtypes: bfloat16, float16.
 * @param[in] attention_mask Dtypes: bool.
 * @param[in] dropout_mask
 * @param[in] softmax_max Dtypes: float32.
 * @param[in] softmax_sum Dtypes: float32.
 * @param[in] softmax_out Dtypes: float32.
 * @param[in] max_seqlen_q
 * @param[in] max_seqlen_kv
 * @param[in] p_dropout
 * @param[in] softmax_scale
 * @param[in] is_causal
 * @param[in] window_size_left
 * @param[in] window_size_right
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
 * @brief ScaledMaskedSoftmax operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] output Dtypes: bfloat16, float16, float32.
 * @param[in] input Dtypes: bfloat16, float16, float32.
 * @param[in] mask Dtypes: bfloat16, float16, float32.
 * @param[in] scale
 * @param[in] fixed_triu_mask
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiScaledMaskedSoftmax(diopiContextHandle_t ctx, diopiTensorHandle_t output, diopiConstTensorHandle_t input,
                                                diopiConstTensorHandle_t mask, double scale, bool fixed_triu_mask);

/**
 * @brief ScaledMaskedSoftmaxBackward operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input Dtypes: bfloat16, float16, float32.
 * @param[in] grad_output Dtypes: bfloat16, float16, float32.
 * @param[in] output
 * @param[in] mask Dtypes: bfloat16, float16, float32.
 * @param[in] scale
 * @param[in] fixed_triu_mask
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiScaledMaskedSoftmaxBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input,
                                                        diopiConstTensorHandle_t grad_output, diopiConstTensorHandle_t output,
                                                        diopiConstTensorHandle_t mask, double scale, bool fixed_triu_mask);

/**
 * @brief PromptFlashAttention operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] out
 * @param[in] query
 * @param[in] key
 * @param[in] value
 * @param[in] atten_mask
 * @param[in] actual_seq_lengths
 * @param[in] max_input_len
 * @param[in] num_heads
 * @param[in] num_kv_heads
 * @param[in] dim
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiPromptFlashAttention(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t query,
                                                 diopiConstTensorHandle_t key, diopiConstTensorHandle_t value, diopiConstTensorHandle_t atten_mask,
                                                 diopiSize_t actual_seq_lengths, int64_t max_input_len, int64_t num_heads, int64_t num_kv_heads,
                                                 int64_t dim);

/* ========================================================================
 * LLM inference kernels
 * ======================================================================== */

/**
 * @brief ApplyPenalty operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] logits
 * @param[in] presence_penalty
 * @param[in] frequency_penalty
 * @param[in] p_token_ids
 * @param[in] p_token_counts
 * @param[in] p_cumsum_seq_len
 * @param[in] p_max_len_in_batch
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiApplyPenalty(diopiContextHandle_t ctx, diopiTensorHandle_t logits, diopiConstTensorHandle_t presence_penalty,
                                         diopiConstTensorHandle_t frequency_penalty, diopiConstTensorHandle_t p_token_ids,
                                         diopiConstTensorHandle_t p_token_counts, diopiConstTensorHandle_t p_cumsum_seq_len, int p_max_len_in_batch);

/**
 * @brief ApplyPenaltyV2 operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] logits
 * @param[in] presence_penalty
 * @param[in] frequency_penalty
 * @param[in] repetition_penalty
 * @param[in] p_token_ids
 * @param[in] p_token_counts
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiApplyPenaltyV2(diopiContextHandle_t ctx, diopiTensorHandle_t logits, diopiConstTensorHandle_t presence_penalty,
                                           diopiConstTensorHandle_t frequency_penalty, diopiConstTensorHandle_t repetition_penalty,
                                           diopiConstTensorHandle_t p_token_ids, diopiConstTensorHandle_t p_token_counts);

/**
 * @brief DestIndexCopyKV operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out
 * @param[in] k
 * @param[in] dest_loc
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiDestIndexCopyKV(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t k,
                                            diopiConstTensorHandle_t dest_loc);

/**
 * @brief TokenAttentionInference operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] token_attention_out
 * @param[in] q
 * @param[in] k
 * @param[in] b_loc
 * @param[in] b_start_loc
 * @param[in] b_seq_len
 * @param[in] max_input_len
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiTokenAttentionInference(diopiContextHandle_t ctx, diopiTensorHandle_t token_attention_out, diopiConstTensorHandle_t q,
                                                    diopiConstTensorHandle_t k, diopiConstTensorHandle_t b_loc, diopiConstTensorHandle_t b_start_loc,
                                                    diopiConstTensorHandle_t b_seq_len, int max_input_len);

/**
 * @brief TokenSoftmaxReduceVInference operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] out
 * @param[in] logics
 * @param[in] v
 * @param[in] b_loc
 * @param[in] b_start_loc
 * @param[in] b_seq_len
 * @param[in] max_input_len
 * @param[in] other_kv_index
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiTokenSoftmaxReduceVInference(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t logics,
                                                         diopiConstTensorHandle_t v, diopiConstTensorHandle_t b_loc,
                                                         diopiConstTensorHandle_t b_start_loc, diopiConstTensorHandle_t b_seq_len, int max_input_len,
                                                         int other_kv_index);

/**
 * @brief PagedAttention operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] out
 * @param[in] q
 * @param[in] k
 * @param[in] v
 * @param[in] attenMask
 * @param[in] actual_seq_lengths
 * @param[in] num_heads
 * @param[in] num_kv_heads
 * @param[in] dim
 * @param[in] block_table
 * @param[in] block_size
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiPagedAttention(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t q, diopiConstTensorHandle_t k,
                                           diopiConstTensorHandle_t v, diopiConstTensorHandle_t attenMask, diopiSize_t actual_seq_lengths,
                                           int64_t num_heads, int64_t num_kv_heads, int64_t dim, diopiConstTensorHandle_t block_table,
                                           int64_t block_size);

/**
 * @brief ContextAttentionInference operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] context_attention_out
 * @param[in] q
 * @param[in] k
 * @param[in] v
 * @param[in] b_start_loc
 * @param[in] b_seq_len
 * @param[in] max_input_len
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiContextAttentionInference(diopiContextHandle_t ctx, diopiTensorHandle_t context_attention_out,
                                                      diopiConstTensorHandle_t q, diopiConstTensorHandle_t k, diopiConstTensorHandle_t v,
                                                      diopiConstTensorHandle_t b_start_loc, diopiConstTensorHandle_t b_seq_len, int max_input_len);

/* ========================================================================
 * Distributed fused operators
 * ======================================================================== */

/**
 * @brief MatmulAllReduce operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out
 * @param[in] x1 Dtypes: bfloat16, float16, float32, float64.
 * @param[in] x2 Dtypes: bfloat16, float16, float32, float64.
 * @param[in] bias Dtypes: bfloat16, float16, float32, float64.
 * @param[in] group
 * @param[in] reduce_op
 * @param[in] comm_turn
 * @param[in] stream_mode
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
