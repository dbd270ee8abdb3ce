/**
 * @file functions.h
 * @brief Core operators of the DIOPI standard.
 *
 * Every operator takes a context first, then its outputs, then its inputs (with a few
 * historical exceptions kept for ABI compatibility). Outputs are allocated by the caller with
 * the shape and dtype the operator documents, except `diopiTensorHandle_t*` outputs, which the
 * library allocates through diopiRequireTensor().
 */
#ifndef DIOPI_FUNCTIONS_H_
#define DIOPI_FUNCTIONS_H_

#include <diopi/diopirt.h>

#if defined(__cplusplus)
extern "C" {
#endif

/* ========================================================================
 * Convolution
 * ======================================================================== */

/**
 * @brief Convolution2d operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float32, float16, float64.
 * @param[in] input Dtypes: float32, float16, float64.
 * @param[in] weight Dtypes: float32, float16, float64.
 * @param[in] bias Dtypes: float32, float16, float64.
 * @param[in] stride Dtypes: int32, int64.
 * @param[in] padding Dtypes: int32, int64.
 * @param[in] dilation Dtypes: int32, int64.
 * @param[in] groups Dtypes: int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiConvolution2d(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                          diopiConstTensorHandle_t weight, diopiConstTensorHandle_t bias, diopiSize_t stride, diopiSize_t padding,
                                          diopiSize_t dilation, int64_t groups);

/**
 * @brief Convolution2dBackward operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input Dtypes: float32, float16, float64.
 * @param[out] grad_weight Dtypes: float32, float16, float64.
 * @param[out] grad_bias Dtypes: float32, float16, float64.
 * @param[in] grad_output Dtypes: float32, float16, float64.
 * @param[in] input Dtypes: float32, float16, float64.
 * @param[in] weight
 * @param[in] bias_sizes Dtypes: int32, int64.
 * @param[in] stride Dtypes: int32, int64.
 * @param[in] padding Dtypes: int32, int64.
 * @param[in] dilation Dtypes: int32, int64.
 * @param[in] groups Dtypes: int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiConvolution2dBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiTensorHandle_t grad_weight,
                                                  diopiTensorHandle_t grad_bias, diopiConstTensorHandle_t grad_output,
                                                  diopiConstTensorHandle_t input, diopiConstTensorHandle_t weight, diopiSize_t* bias_sizes,
                                                  diopiSize_t stride, diopiSize_t padding, diopiSize_t dilation, int64_t groups);

/**
 * @brief ConvTranspose2d operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float32, float16, float64.
 * @param[in] input Dtypes: float32, float16, float64.
 * @param[in] weight Dtypes: float32, float16, float64.
 * @param[in] bias Dtypes: float32, float16, float64.
 * @param[in] stride Dtypes: int32, int64.
 * @param[in] padding Dtypes: int32, int64.
 * @param[in] output_padding Dtypes: int32, int64.
 * @param[in] groups Dtypes: int64.
 * @param[in] dilation Dtypes: int32, int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiConvTranspose2d(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                            diopiConstTensorHandle_t weight, diopiConstTensorHandle_t bias, diopiSize_t stride, diopiSize_t padding,
                                            diopiSize_t output_padding, int64_t groups, diopiSize_t dilation);

/**
 * @brief ConvTranspose2dBackward operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input Dtypes: float32, float16, float64.
 * @param[out] grad_weight Dtypes: float32, float16, float64.
 * @param[out] grad_bias Dtypes: float32, float16, float64.
 * @param[in] grad_output Dtypes: float32, float16, float64.
 * @param[in] input Dtypes: float32, float16, float64.
 * @param[in] weight
 * @param[in] bias_sizes Dtypes: int32, int64.
 * @param[in] stride Dtypes: int32, int64.
 * @param[in] padding Dtypes: int32, int64.
 * @param[in] dilation Dtypes: int32, int64.
 * @param[in] output_padding Dtypes: int32, int64.
 * @param[in] groups Dtypes: int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiConvTranspose2dBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiTensorHandle_t grad_weight,
                                                    diopiTensorHandle_t grad_bias, diopiConstTensorHandle_t grad_output,
                                                    diopiConstTensorHandle_t input, diopiConstTensorHandle_t weight, diopiSize_t* bias_sizes,
                                                    diopiSize_t stride, diopiSize_t padding, diopiSize_t dilation, diopiSize_t output_padding,
                                                    int64_t groups);

/**
 * @brief ConvTranspose3d operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float32, float16, float64.
 * @param[in] input Dtypes: float32, float16, float64.
 * @param[in] weight Dtypes: float32, float16, float64.
 * @param[in] bias Dtypes: float32, float16, float64.
 * @param[in] stride Dtypes: int32, int64.
 * @param[in] padding Dtypes: int32, int64.
 * @param[in] output_padding Dtypes: int32, int64.
 * @param[in] groups Dtypes: int64.
 * @param[in] dilation Dtypes: int32, int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiConvTranspose3d(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                            diopiConstTensorHandle_t weight, diopiConstTensorHandle_t bias, diopiSize_t stride, diopiSize_t padding,
                                            diopiSize_t output_padding, int64_t groups, diopiSize_t dilation);

/**
 * @brief ConvTranspose3dBackward operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input Dtypes: float32, float16, float64.
 * @param[out] grad_weight Dtypes: float32, float16, float64.
 * @param[out] grad_bias Dtypes: float32, float16, float64.
 * @param[in] grad_output Dtypes: float32, float16, float64.
 * @param[in] input Dtypes: float32, float16, float64.
 * @param[in] weight
 * @param[in] bias_sizes Dtypes: int32, int64.
 * @param[in] stride Dtypes: int32, int64.
 * @param[in] padding Dtypes: int32, int64.
 * @param[in] dilation Dtypes: int32, int64.
 * @param[in] output_padding Dtypes: int32, int64.
 * @param[in] groups Dtypes: int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiConvTranspose3dBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiTensorHandle_t grad_weight,
                                                    diopiTensorHandle_t grad_bias, diopiConstTensorHandle_t grad_output,
                                                    diopiConstTensorHandle_t input, diopiConstTensorHandle_t weight, diopiSize_t* bias_sizes,
                                                    diopiSize_t stride, diopiSize_t padding, diopiSize_t dilation, diopiSize_t output_padding,
                                                    int64_t groups);

/**
 * @brief Convolution3d operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out
 * @param[in] input
 * @param[in] weight
 * @param[in] bias
 * @param[in] stride
 * @param[in] padding
 * @param[in] dilation
 * @param[in] groups
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiConvolution3d(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                          diopiConstTensorHandle_t weight, diopiConstTensorHandle_t bias, diopiSize_t stride, diopiSize_t padding,
                                          diopiSize_t dilation, int64_t groups);

/**
 * @brief Convolution3dBackward operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input
 * @param[out] grad_weight
 * @param[out] grad_bias
 * @param[in] grad_output
 * @param[in] input
 * @param[in] weight
 * @param[in] bias_sizes
 * @param[in] stride
 * @param[in] padding
 * @param[in] dilation
 * @param[in] groups
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiConvolution3dBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiTensorHandle_t grad_weight,
                                                  diopiTensorHandle_t grad_bias, diopiConstTensorHandle_t grad_output,
                                                  diopiConstTensorHandle_t input, diopiConstTensorHandle_t weight, diopiSize_t* bias_sizes,
                                                  diopiSize_t stride, diopiSize_t padding, diopiSize_t dilation, int64_t groups);

/**
 * @brief Im2Col operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out
 * @param[in] input
 * @param[in] kernel_size
 * @param[in] dilation
 * @param[in] padding
 * @param[in] stride
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiIm2Col(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t kernel_size,
                                   diopiSize_t dilation, diopiSize_t padding, diopiSize_t stride);

/**
 * @brief Col2Im operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out
 * @param[in] input
 * @param[in] output_size
 * @param[in] kernel_size
 * @param[in] dilation
 * @param[in] padding
 * @param[in] stride
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiCol2Im(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t output_size,
                                   diopiSize_t kernel_size, diopiSize_t dilation, diopiSize_t padding, diopiSize_t stride);

/* ========================================================================
 * Normalization
 * ======================================================================== */

/**
 * @brief BatchNorm operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float32, float16, float64.
 * @param[out] save_mean Dtypes: float32, float16, float64.
 * @param[out] save_invstd Dtypes: float32, float16, float64.
 * @param[in] input Dtypes: float32, float16, float64.
 * @param[in] weight Dtypes: float32, float16, float64.
 * @param[in] bias Dtypes: float32, float16, float64.
 * @param[in,out] running_mean Dtypes: float32, float16, float64.
 * @param[in,out] running_var Dtypes: float32, float16, float64.
 * @param[in] training
 * @param[in] momentum Dtypes: float32, float64.
 * @param[in] eps Dtypes: float32, float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiBatchNorm(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiTensorHandle_t save_mean,
                                      diopiTensorHandle_t save_invstd, diopiConstTensorHandle_t input, diopiConstTensorHandle_t weight,
                                      diopiConstTensorHandle_t bias, diopiTensorHandle_t running_mean, diopiTensorHandle_t running_var,
                                      bool training, double momentum, double eps);

/**
 * @brief BatchNormStats operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] mean Dtypes: float32, float16, float64.
 * @param[out] invstd Dtypes: float32, * float16, float64.
 * @param[in] input Dtypes: float32, float16, float64.
 * @param[in] eps Dtypes: float32, float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiBatchNormStats(diopiContextHandle_t ctx, diopiTensorHandle_t mean, diopiTensorHandle_t invstd,
                                           diopiConstTensorHandle_t input, double eps);

/**
 * @brief BatchNormGatherStatsWithCounts operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] mean Dtypes: float32, float64.
 * @param[out] invstd Dtypes: float32, * float16, float64.
 * @param[in] input Dtypes: float32, float64.
 * @param[in] mean_all Dtypes: float32, float64.
 * @param[in] invstd_all Dtypes: float32, float64.
 * @param[out] running_mean Dtypes: float32, float64.
 * @param[out] running_var Dtypes: float32, float64.
 * @param[in] momentum Dtypes: float32, float64.
 * @param[in] eps Dtypes: float32, float64.
 * @param[in] counts Dtypes: float32, float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiBatchNormGatherStatsWithCounts(diopiContextHandle_t ctx, diopiTensorHandle_t mean, diopiTensorHandle_t invstd,
                                                           diopiConstTensorHandle_t input, diopiConstTensorHandle_t mean_all,
                                                           diopiConstTensorHandle_t invstd_all, diopiTensorHandle_t running_mean,
                                                           diopiTensorHandle_t running_var, float momentum, float eps,
                                                           diopiConstTensorHandle_t counts);

/**
 * @brief BatchNormBackwardReduce operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] sum_dy Dtypes: float32, float64.
 * @param[out] sum_dy_xmu Dtypes: float32, float64.
 * @param[out] grad_weight Dtypes: float32, float64.
 * @param[out] grad_bias Dtypes: float32, float64.
 * @param[in] grad_out Dtypes: float32, float64.
 * @param[in] input Dtypes: float32, float64.
 * @param[in] mean Dtypes: float32, float64.
 * @param[in] invstd Dtypes: float32, float64.
 * @param[in] weight Dtypes: float32, float64.
 * @param[in] input_g
 * @param[in] weight_g
 * @param[in] bias_g
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiBatchNormBackwardReduce(diopiContextHandle_t ctx, diopiTensorHandle_t sum_dy, diopiTensorHandle_t sum_dy_xmu,
                                                    diopiTensorHandle_t grad_weight, diopiTensorHandle_t grad_bias,
                                                    diopiConstTensorHandle_t grad_out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t mean,
                                                    diopiConstTensorHandle_t invstd, diopiConstTensorHandle_t weight, bool input_g, bool weight_g,
                                                    bool bias_g);

/**
 * @brief BatchNormBackwardElemt operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input Dtypes: float32, float64.
 * @param[in] grad_out Dtypes: float32, float64.
 * @param[in] input Dtypes: float32, float64.
 * @param[in] mean Dtypes: float32, float64.
 * @param[in] invstd Dtypes: float32, float64.
 * @param[in] weight Dtypes: float32, float64.
 * @param[in] sum_dy Dtypes: float32, float64.
 * @param[in] sum_dy_xmu Dtypes: float32, float64.
 * @param[in] count Dtypes: int32.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiBatchNormBackwardElemt(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_out,
                                                   diopiConstTensorHandle_t input, diopiConstTensorHandle_t mean, diopiConstTensorHandle_t invstd,
                                                   diopiConstTensorHandle_t weight, diopiConstTensorHandle_t sum_dy,
                                                   diopiConstTensorHandle_t sum_dy_xmu, diopiConstTensorHandle_t count);

/**
 * @brief BatchNormElemt operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float32, float64.
 * @param[in] input Dtypes: float32, float64.
 * @param[in] weight Dtypes: float32, float64.
 * @param[in] bias Dtypes: float32, float64.
 * @param[in] mean Dtypes: float32, float64.
 * @param[in] invstd Dtypes: float32, * float16, float64.
 * @param[in] eps Dtypes: float32, float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiBatchNormElemt(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                           diopiConstTensorHandle_t weight, diopiConstTensorHandle_t bias, diopiConstTensorHandle_t mean,
                                           diopiConstTensorHandle_t invstd, float eps);

/**
 * @brief BatchNormBackward operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input Dtypes: float32, float16, float64.
 * @param[out] grad_weight Dtypes: float32, float16, float64.
 * @param[out] grad_bias Dtypes: float32, float16, float64.
 * @param[in] grad_output Dtypes: float32, float16, float64.
 * @param[in] input Dtypes: float32, float16, float64.
 * @param[in] weight Dtypes: float32, float16, float64.
 * @param[in] running_mean Dtypes: float32, float16, float64.
 * @param[in] running_var Dtypes: float32, float16, float64.
 * @param[in] save_mean Dtypes: float32, float16, float64.
 * @param[in] save_invstd Dtypes: float32, float16, float64.
 * @param[in] training
 * @param[in] eps Dtypes: float32, float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiBatchNormBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiTensorHandle_t grad_weight,
                                              diopiTensorHandle_t grad_bias, diopiConstTensorHandle_t grad_output, diopiConstTensorHandle_t input,
                                              diopiConstTensorHandle_t weight, diopiConstTensorHandle_t running_mean,
                                              diopiConstTensorHandle_t running_var, diopiConstTensorHandle_t save_mean,
                                              diopiConstTensorHandle_t save_invstd, bool training, double eps);

/**
 * @brief LayerNormGB operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float32, float64, float16.
 * @param[out] running_mean
 * @param[out] running_var
 * @param[in] input Dtypes: float32, float64, float16.
 * @param[in] weight Dtypes: float32, float64, float16.
 * @param[in] bias Dtypes: float32, float64, float16.
 * @param[in] eps
 * @param[in] begin_norm_axis
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiLayerNormGB(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiTensorHandle_t running_mean,
                                        diopiTensorHandle_t running_var, diopiConstTensorHandle_t input, diopiConstTensorHandle_t weight,
                                        diopiConstTensorHandle_t bias, const double eps, const int64_t begin_norm_axis);

/**
 * @brief GroupNorm operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float32, float64, float16.
 * @param[out] save_mean Dtypes: float32, float64, float16.
 * @param[out] save_invstd Dtypes: float32, float64, float16.
 * @param[in] input Dtypes: float32, float64, float16.
 * @param[in] weight Dtypes: float32, float64, float16.
 * @param[in] bias Dtypes: float32, float64, float16.
 * @param[in] num_groups Dtypes: float32, float64, float16.
 * @param[in] eps Dtypes: float32, float64, float16.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiGroupNorm(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiTensorHandle_t save_mean,
                                      diopiTensorHandle_t save_invstd, diopiConstTensorHandle_t input, diopiConstTensorHandle_t weight,
                                      diopiConstTensorHandle_t bias, int64_t num_groups, double eps);

/**
 * @brief GroupNormBackward operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input Dtypes: float32, float64, float16.
 * @param[out] grad_weight Dtypes: float32, float64, float16.
 * @param[out] grad_bias Dtypes: float32, float64, float16.
 * @param[in] grad_output Dtypes: float32, float64, float16.
 * @param[in] input Dtypes: float32, float64, float16.
 * @param[in] weight Dtypes: float32, float64, float16.
 * @param[in] mean Dtypes: float32, float64, float16.
 * @param[in] rstd Dtypes: float32, float64, float16.
 * @param[in] num_groups Dtypes: float32, float64, float16.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiGroupNormBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiTensorHandle_t grad_weight,
                                              diopiTensorHandle_t grad_bias, diopiConstTensorHandle_t grad_output, diopiConstTensorHandle_t input,
                                              diopiConstTensorHandle_t weight, diopiConstTensorHandle_t mean, diopiConstTensorHandle_t rstd,
                                              int64_t num_groups);

/**
 * @brief LayerNorm operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float32, float64, float16.
 * @param[in,out] save_mean Dtypes: float32, float64, float16.
 * @param[in,out] save_invstd Dtypes: float32, float64, float16.
 * @param[in] input Dtypes: float32, float64, float16.
 * @param[in] weight Dtypes: float32, float64, float16.
 * @param[in] bias Dtypes: float32, float64, float16.
 * @param[in] normalized_shape
 * @param[in] eps
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiLayerNorm(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiTensorHandle_t save_mean,
                                      diopiTensorHandle_t save_invstd, diopiConstTensorHandle_t input, diopiConstTensorHandle_t weight,
                                      diopiConstTensorHandle_t bias, diopiSize_t normalized_shape, double eps);

/**
 * @brief LayerNormBackward operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input Dtypes: float32, float64, float16.
 * @param[in,out] grad_weight Dtypes: float32, float64, float16.
 * @param[in,out] grad_bias Dtypes: float32, float64, float16.
 * @param[in] grad_output Dtypes: float32, float64, float16.
 * @param[in] input Dtypes: float32, float64, float16.
 * @param[in] weight Dtypes: float32, float64, float16.
 * @param[in] bias Dtypes: float32, float64, float16.
 * @param[in] mean Dtypes: float32, float64, float16.
 * @param[in] rstd Dtypes: float32, float64, float16.
 * @param[in] normalized_shape
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiLayerNormBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiTensorHandle_t grad_weight,
                                              diopiTensorHandle_t grad_bias, diopiConstTensorHandle_t grad_output, diopiConstTensorHandle_t input,
                                              diopiConstTensorHandle_t weight, diopiConstTensorHandle_t bias, diopiConstTensorHandle_t mean,
                                              diopiConstTensorHandle_t rstd, diopiSize_t normalized_shape);

/**
 * @brief LayerNormGBBackward operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input Dtypes: float32, float64, float16.
 * @param[in,out] grad_weight Dtypes: float32, float64, float16.
 * @param[in,out] grad_bias Dtypes: float32, float64, float16.
 * @param[in] grad_output Dtypes: float32, float64, float16.
 * @param[in] input Dtypes: float32, float64, float16.
 * @param[in] weight Dtypes: float32, float64, float16.
 * @param[in] bias Dtypes: float32, float64, float16.
 * @param[in] running_mean
 * @param[in] running_std
 * @param[in] begin_norm_axis
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiLayerNormGBBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiTensorHandle_t grad_weight,
                                                diopiTensorHandle_t grad_bias, diopiConstTensorHandle_t grad_output, diopiConstTensorHandle_t input,
                                                diopiConstTensorHandle_t weight, diopiConstTensorHandle_t bias,
                                                diopiConstTensorHandle_t running_mean, diopiConstTensorHandle_t running_std,
                                                const int64_t begin_norm_axis);

/**
 * @brief InstanceNorm operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] output
 * @param[in] input
 * @param[in] axis
 * @param[in] scale
 * @param[in] bias
 * @param[in] eps
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiInstanceNorm(diopiContextHandle_t ctx, diopiTensorHandle_t output, diopiConstTensorHandle_t input, const int64_t axis,
                                         diopiConstTensorHandle_t scale, diopiConstTensorHandle_t bias, const double eps);

/**
 * @brief InstanceNormBackward operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input
 * @param[out] grad_scale
 * @param[out] grad_bias
 * @param[in] grad_output
 * @param[in] input
 * @param[in] scale
 * @param[in] bias
 * @param[in] axis
 * @param[in] eps
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiInstanceNormBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiTensorHandle_t grad_scale,
                                                 diopiTensorHandle_t grad_bias, diopiConstTensorHandle_t grad_output, diopiConstTensorHandle_t input,
                                                 diopiConstTensorHandle_t scale, diopiConstTensorHandle_t bias, const int64_t axis, const double eps);

/**
 * @brief Normalize operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] output
 * @param[in] input
 * @param[in] p
 * @param[in] axis
 * @param[in] eps
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiNormalize(diopiContextHandle_t ctx, diopiTensorHandle_t output, diopiConstTensorHandle_t input, const float p,
                                      const int64_t axis, const double eps);

/**
 * @brief NormalizeBackward operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input
 * @param[in] grad_output
 * @param[in] input
 * @param[in] p
 * @param[in] axis
 * @param[in] eps
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiNormalizeBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                              diopiConstTensorHandle_t input, const float p, const int64_t axis, const double eps);

/* ========================================================================
 * Activations
 * ======================================================================== */

/**
 * @brief Relu operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float32, float64.
 * @param[in] input Dtypes: float32, float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiRelu(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input);

/**
 * @brief ReluInp operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input Dtypes: float32, float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiReluInp(diopiContextHandle_t ctx, diopiTensorHandle_t input);

/**
 * @brief Hardtanh operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float32, float64.
 * @param[in] input Dtypes: float32, float64.
 * @param[in] min_val Dtypes: float32, float64.
 * @param[in] max_val Dtypes: float32, float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiHardtanh(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, const diopiScalar_t* min_val,
                                     const diopiScalar_t* max_val);

/**
 * @brief HardtanhInp operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input Dtypes: float32, float64.
 * @param[in] min_val
 * @param[in] max_val
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiHardtanhInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, const diopiScalar_t* min_val,
                                        const diopiScalar_t* max_val);

/**
 * @brief HardtanhBackward operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input Dtypes: float32, float64.
 * @param[in] grad_output Dtypes: float32, float64.
 * @param[in] input
 * @param[in] min_val
 * @param[in] max_val
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiHardtanhBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                             diopiConstTensorHandle_t input, const diopiScalar_t* min_val, const diopiScalar_t* max_val);

/**
 * @brief Hardswish operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out
 * @param[in] input
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiHardswish(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input);

/**
 * @brief HardswishInp operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] input
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiHardswishInp(diopiContextHandle_t ctx, diopiTensorHandle_t input);

/**
 * @brief HardswishBackward operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input
 * @param[in] grad_output
 * @param[in] input
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiHardswishBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                              diopiConstTensorHandle_t input);

/**
 * @brief Threshold operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float16, float32, float64.
 * @param[in] input Dtypes: float16, float32, float64.
 * @param[in] threshold Dtypes: float16, float32, float64.
 * @param[in] value Dtypes: float16, float32, float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiThreshold(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                      const diopiScalar_t* threshold, const diopiScalar_t* value);

/**
 * @brief ThresholdInp operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input Dtypes: float16, float32, float64.
 * @param[in] threshold
 * @param[in] value
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiThresholdInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, const diopiScalar_t* threshold,
                                         const diopiScalar_t* value);

/**
 * @brief ThresholdBackward operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input Dtypes: float16, float32, float64.
 * @param[in] grad_output Dtypes: float16, float32, float64.
 * @param[in] input
 * @param[in] threshold
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiThresholdBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                              diopiConstTensorHandle_t input, const diopiScalar_t* threshold);

/**
 * @brief Gelu operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float32, float64.
 * @param[in] input Dtypes: float32, float64.
 * @param[in] approximate
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiGelu(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, const char* approximate);

/**
 * @brief GeluBackward operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input Dtypes: float32, float64.
 * @param[in] grad_output Dtypes: float32, float64.
 * @param[in] input
 * @param[in] approximate
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiGeluBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                         diopiConstTensorHandle_t input, const char* approximate);

/**
 * @brief LeakyRelu operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float32, float64.
 * @param[in] input Dtypes: float32, float64.
 * @param[in] negative_slope
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiLeakyRelu(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                      const diopiScalar_t* negative_slope);

/**
 * @brief LeakyReluInp operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input Dtypes: float32, float64.
 * @param[in] negative_slope
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiLeakyReluInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, const diopiScalar_t* negative_slope);

/**
 * @brief LeakyReluBackward operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input Dtypes: float32, float64.
 * @param[in] grad_output Dtypes: float32, float64.
 * @param[in] input
 * @param[in] negative_slope
 * @param[in] input_is_result
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiLeakyReluBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                              diopiConstTensorHandle_t input, const diopiScalar_t* negative_slope, bool input_is_result);

/**
 * @brief TanhInp operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input Dtypes: float16, float32, float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiTanhInp(diopiContextHandle_t ctx, diopiTensorHandle_t input);

/**
 * @brief Tanh operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float16, float32, float64.
 * @param[in] input Dtypes: float16, float32, float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiTanh(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input);

/**
 * @brief TanhBackward operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input Dtypes: float16, float32, float64.
 * @param[in] grad_output
 * @param[in] output Dtypes: float16, float32, float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiTanhBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                         diopiConstTensorHandle_t output);

/**
 * @brief SigmoidInp operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input Dtypes: float16, float32.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiSigmoidInp(diopiContextHandle_t ctx, diopiTensorHandle_t input);

/**
 * @brief Sigmoid operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float16, float32.
 * @param[in] input Dtypes: float16, float32.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiSigmoid(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input);

/**
 * @brief SigmoidBackward operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input Dtypes: float16, float32.
 * @param[in] grad_output Dtypes: float16, float32.
 * @param[in] output Dtypes: float16, float32.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiSigmoidBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                            diopiConstTensorHandle_t output);

/**
 * @brief SiluInp operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiSiluInp(diopiContextHandle_t ctx, diopiTensorHandle_t input);

/**
 * @brief Silu operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out
 * @param[in] input
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiSilu(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input);

/**
 * @brief SiluBackward operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input Dtypes: float16, float32.
 * @param[in] grad_output Dtypes: float16, float32.
 * @param[in] input
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiSiluBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                         diopiConstTensorHandle_t input);

/* ========================================================================
 * Pooling
 * ======================================================================== */

/**
 * @brief MaxPool1d operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out
 * @param[in] input
 * @param[in] kernel_size
 * @param[in] stride
 * @param[in] padding
 * @param[in] dilation
 * @param[in] ceil_mode
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiMaxPool1d(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t kernel_size,
                                      diopiSize_t stride, diopiSize_t padding, diopiSize_t dilation, bool ceil_mode);

/**
 * @brief MaxPool1dBackward operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input
 * @param[in] grad_output
 * @param[in] input
 * @param[in] kernel_size
 * @param[in] stride
 * @param[in] padding
 * @param[in] dilation
 * @param[in] ceil_mode
 * @param[in] indices
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiMaxPool1dBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                              diopiConstTensorHandle_t input, diopiSize_t kernel_size, diopiSize_t stride, diopiSize_t padding,
                                              diopiSize_t dilation, bool ceil_mode, diopiConstTensorHandle_t indices);

/**
 * @brief MaxPool1dWithIndices operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out
 * @param[out] indices
 * @param[in] input
 * @param[in] kernel_size
 * @param[in] stride
 * @param[in] padding
 * @param[in] dilation
 * @param[in] ceil_mode
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiMaxPool1dWithIndices(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiTensorHandle_t indices,
                                                 diopiConstTensorHandle_t input, diopiSize_t kernel_size, diopiSize_t stride, diopiSize_t padding,
                                                 diopiSize_t dilation, bool ceil_mode);

/**
 * @brief AvgPool1d operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out
 * @param[in] input
 * @param[in] kernel_size
 * @param[in] stride
 * @param[in] padding
 * @param[in] ceil_mode
 * @param[in] count_include_pad
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAvgPool1d(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t kernel_size,
                                      diopiSize_t stride, diopiSize_t padding, bool ceil_mode, bool count_include_pad);

/**
 * @brief AvgPool1dBackward operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input
 * @param[in] grad_output
 * @param[in] input
 * @param[in] kernel_size
 * @param[in] stride
 * @param[in] padding
 * @param[in] ceil_mode
 * @param[in] count_include_pad
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAvgPool1dBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                              diopiConstTensorHandle_t input, diopiSize_t kernel_size, diopiSize_t stride, diopiSize_t padding,
                                              bool ceil_mode, bool count_include_pad);

/**
 * @brief AdaptiveMaxPool1d operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out
 * @param[in] input
 * @param[in] output_size
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAdaptiveMaxPool1d(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                              diopiSize_t output_size);

/**
 * @brief AdaptiveMaxPool1dWithIndices operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out
 * @param[out] indices
 * @param[in] input
 * @param[in] output_size
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAdaptiveMaxPool1dWithIndices(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiTensorHandle_t indices,
                                                         diopiConstTensorHandle_t input, diopiSize_t output_size);

/**
 * @brief AdaptiveMaxPool1dBackward operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input
 * @param[in] grad_output
 * @param[in] input
 * @param[in] indices
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAdaptiveMaxPool1dBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                                      diopiConstTensorHandle_t input, diopiConstTensorHandle_t indices);

/**
 * @brief AdaptiveAvgPool1dBackward operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input
 * @param[in] grad_output
 * @param[in] input
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAdaptiveAvgPool1dBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                                      diopiConstTensorHandle_t input);

/**
 * @brief AdaptiveAvgPool1d operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out
 * @param[in] input
 * @param[in] output_size
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAdaptiveAvgPool1d(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                              diopiSize_t output_size);

/**
 * @brief Pool1d operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out
 * @param[in] input
 * @param[in] mode
 * @param[in] ksize
 * @param[in] stride
 * @param[in] padding
 * @param[in] dilation
 * @param[in] ceil_mode
 * @param[in] exclusive
 * @param[in] adaptive
 * @param[in] output_size
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiPool1d(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, const char* mode,
                                   diopiSize_t ksize, diopiSize_t stride, diopiSize_t padding, diopiSize_t dilation, const bool ceil_mode,
                                   const bool exclusive, const bool adaptive, diopiSize_t output_size);

/**
 * @brief Pool1dBackward operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input
 * @param[in] grad_output
 * @param[in] input
 * @param[in] mode
 * @param[in] ksize
 * @param[in] stride
 * @param[in] padding
 * @param[in] dilation
 * @param[in] ceil_mode
 * @param[in] exclusive
 * @param[in] adaptive
 * @param[in] indices
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiPool1dBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                           diopiConstTensorHandle_t input, const char* mode, diopiSize_t ksize, diopiSize_t stride,
                                           diopiSize_t padding, diopiSize_t dilation, const bool ceil_mode, const bool exclusive,
                                           const bool adaptive, diopiConstTensorHandle_t indices);

/**
 * @brief AvgPool2d operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float32, float64.
 * @param[in] input Dtypes: float32, float64.
 * @param[in] kernel_size Dtypes: int32, int64.
 * @param[in] stride Dtypes: int32, int64.
 * @param[in] padding Dtypes: int32, int64.
 * @param[in] ceil_mode
 * @param[in] count_include_pad
 * @param[in] divisor_override
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAvgPool2d(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t kernel_size,
                                      diopiSize_t stride, diopiSize_t padding, bool ceil_mode, bool count_include_pad,
                                      const int64_t* divisor_override);

/**
 * @brief AvgPool2dBackward operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input Dtypes: float32, float64.
 * @param[in] grad_output Dtypes: float32, float64.
 * @param[in] input Dtypes: float32, float64.
 * @param[in] kernel_size Dtypes: int32, int64.
 * @param[in] stride Dtypes: int32, int64.
 * @param[in] padding Dtypes: int32, int64.
 * @param[in] ceil_mode
 * @param[in] count_include_pad
 * @param[in] divisor_override
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAvgPool2dBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                              diopiConstTensorHandle_t input, diopiSize_t kernel_size, diopiSize_t stride, diopiSize_t padding,
                                              bool ceil_mode, bool count_include_pad, const int64_t* divisor_override);

/**
 * @brief MaxPool2d operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float16, float32.
 * @param[in] input Dtypes: float16, float32.
 * @param[in] kernel_size Dtypes: int32, int64.
 * @param[in] stride Dtypes: int32, int64.
 * @param[in] padding
 * @param[in] dilation Dtypes: int32, int64.
 * @param[in] ceil_mode
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiMaxPool2d(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t kernel_size,
                                      diopiSize_t stride, diopiSize_t padding, diopiSize_t dilation, bool ceil_mode);

/**
 * @brief MaxPool2dWithIndices operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float16, float32.
 * @param[in,out] indices Dtypes: int32, int64.
 * @param[in] input Dtypes: float16, float32.
 * @param[in] kernel_size Dtypes: int32, int64.
 * @param[in] stride Dtypes: int32, int64.
 * @param[in] padding
 * @param[in] dilation Dtypes: int32, int64.
 * @param[in] ceil_mode
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiMaxPool2dWithIndices(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiTensorHandle_t indices,
                                                 diopiConstTensorHandle_t input, diopiSize_t kernel_size, diopiSize_t stride, diopiSize_t padding,
                                                 diopiSize_t dilation, bool ceil_mode);

/**
 * @brief MaxPool2dBackward operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input Dtypes: float16, float32.
 * @param[in] grad_output Dtypes: float16, float32.
 * @param[in] input Dtypes: float16, float32.
 * @param[in] kernel_size Dtypes: int32, int64.
 * @param[in] stride Dtypes: int32, int64.
 * @param[in] padding
 * @param[in] dilation Dtypes: int32, int64.
 * @param[in] ceil_mode
 * @param[in] indices Dtypes: int32, int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiMaxPool2dBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                              diopiConstTensorHandle_t input, diopiSize_t kernel_size, diopiSize_t stride, diopiSize_t padding,
                                              diopiSize_t dilation, bool ceil_mode, diopiConstTensorHandle_t indices);

/**
 * @brief Pool2d operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out
 * @param[in] input
 * @param[in] mode
 * @param[in] ksize
 * @param[in] stride
 * @param[in] padding
 * @param[in] dilation
 * @param[in] ceil_mode
 * @param[in] exclusive
 * @param[in] adaptive
 * @param[in] output_size
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiPool2d(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, const char* mode,
                                   diopiSize_t ksize, diopiSize_t stride, diopiSize_t padding, diopiSize_t dilation, const bool ceil_mode,
                                   const bool exclusive, const bool adaptive, diopiSize_t output_size);

/**
 * @brief Pool2dBackward operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input
 * @param[in] grad_output
 * @param[in] input
 * @param[in] mode
 * @param[in] ksize
 * @param[in] stride
 * @param[in] padding
 * @param[in] dilation
 * @param[in] ceil_mode
 * @param[in] exclusive
 * @param[in] adaptive
 * @param[in] indices
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiPool2dBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                           diopiConstTensorHandle_t input, const char* mode, diopiSize_t ksize, diopiSize_t stride,
                                           diopiSize_t padding, diopiSize_t dilation, const bool ceil_mode, const bool exclusive,
                                           const bool adaptive, diopiConstTensorHandle_t indices);

/**
 * @brief AdaptiveAvgPool2d operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float16, float32, float64.
 * @param[in] input Dtypes: float16, float32, float64.
 * @param[in] output_size Dtypes: int32, int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAdaptiveAvgPool2d(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                              diopiSize_t output_size);

/**
 * @brief AdaptiveAvgPool2dBackward operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input Dtypes: float16, float32, float64.
 * @param[in] grad_output Dtypes: float16, float32, float64.
 * @param[in] input Dtypes: float16, float32, float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAdaptiveAvgPool2dBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                                      diopiConstTensorHandle_t input);

/**
 * @brief AdaptiveMaxPool2d operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float32, float16, float64.
 * @param[in] input Dtypes: float32, float16, float64.
 * @param[in] output_size Dtypes: int32, int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAdaptiveMaxPool2d(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                              diopiSize_t output_size);

/**
 * @brief AdaptiveMaxPool2dWithIndices operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float32, float16, float64.
 * @param[out] indices
 * @param[in] input Dtypes: float32, float16, float64.
 * @param[in] output_size Dtypes: int32, int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAdaptiveMaxPool2dWithIndices(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiTensorHandle_t indices,
                                                         diopiConstTensorHandle_t input, diopiSize_t output_size);

/**
 * @brief AdaptiveMaxPool2dBackward operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input Dtypes: float32, float16, float64.
 * @param[in] grad_output Dtypes: float32, float16, float64.
 * @param[in] input Dtypes: float32, float16, float64.
 * @param[in] indices
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAdaptiveMaxPool2dBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                                      diopiConstTensorHandle_t input, diopiConstTensorHandle_t indices);

/**
 * @brief AvgPool3d operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out
 * @param[in] input
 * @param[in] kernel_size
 * @param[in] stride
 * @param[in] padding
 * @param[in] ceil_mode
 * @param[in] count_include_pad
 * @param[in] divisor_override
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAvgPool3d(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t kernel_size,
                                      diopiSize_t stride, diopiSize_t padding, bool ceil_mode, bool count_include_pad,
                                      const int64_t* divisor_override);

/**
 * @brief AvgPool3dBackward operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input
 * @param[in] grad_output
 * @param[in] input
 * @param[in] kernel_size
 * @param[in] stride
 * @param[in] padding
 * @param[in] ceil_mode
 * @param[in] count_include_pad
 * @param[in] divisor_override
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAvgPool3dBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                              diopiConstTensorHandle_t input, diopiSize_t kernel_size, diopiSize_t stride, diopiSize_t padding,
                                              bool ceil_mode, bool count_include_pad, const int64_t* divisor_override);

/**
 * @brief MaxPool3d operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out
 * @param[in] input
 * @param[in] kernel_size
 * @param[in] stride
 * @param[in] padding
 * @param[in] dilation
 * @param[in] ceil_mode
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiMaxPool3d(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t kernel_size,
                                      diopiSize_t stride, diopiSize_t padding, diopiSize_t dilation, bool ceil_mode);

/**
 * @brief MaxPool3dWithIndices operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out
 * @param[in,out] indices
 * @param[in] input
 * @param[in] kernel_size
 * @param[in] stride
 * @param[in] padding
 * @param[in] dilation
 * @param[in] ceil_mode
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiMaxPool3dWithIndices(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiTensorHandle_t indices,
                                                 diopiConstTensorHandle_t input, diopiSize_t kernel_size, diopiSize_t stride, diopiSize_t padding,
                                                 diopiSize_t dilation, bool ceil_mode);

/**
 * @brief MaxPool3dBackward operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input
 * @param[in] grad_output
 * @param[in] input
 * @param[in] kernel_size
 * @param[in] stride
 * @param[in] padding
 * @param[in] dilation
 * @param[in] ceil_mode
 * @param[in] indices
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiMaxPool3dBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                              diopiConstTensorHandle_t input, diopiSize_t kernel_size, diopiSize_t stride, diopiSize_t padding,
                                              diopiSize_t dilation, bool ceil_mode, diopiConstTensorHandle_t indices);

/**
 * @brief AdaptiveAvgPool3d operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out
 * @param[in] input
 * @param[in] output_size
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAdaptiveAvgPool3d(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                              diopiSize_t output_size);

/**
 * @brief AdaptiveAvgPool3dBackward operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input
 * @param[in] grad_output
 * @param[in] input
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAdaptiveAvgPool3dBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                                      diopiConstTensorHandle_t input);

/**
 * @brief AdaptiveMaxPool3d operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out
 * @param[in] input
 * @param[in] output_size
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAdaptiveMaxPool3d(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                              diopiSize_t output_size);

/**
 * @brief AdaptiveMaxPool3dWithIndices operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out
 * @param[out] indices
 * @param[in] input
 * @param[in] output_size
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAdaptiveMaxPool3dWithIndices(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiTensorHandle_t indices,
                                                         diopiConstTensorHandle_t input, diopiSize_t output_size);

/**
 * @brief AdaptiveMaxPool3dBackward operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input
 * @param[in] grad_output
 * @param[in] input
 * @param[in] indices
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAdaptiveMaxPool3dBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                                      diopiConstTensorHandle_t input, diopiConstTensorHandle_t indices);

/**
 * @brief Pool3d operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out
 * @param[in] input
 * @param[in] mode
 * @param[in] ksize
 * @param[in] stride
 * @param[in] padding
 * @param[in] dilation
 * @param[in] ceil_mode
 * @param[in] exclusive
 * @param[in] adaptive
 * @param[in] output_size
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiPool3d(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, const char* mode,
                                   diopiSize_t ksize, diopiSize_t stride, diopiSize_t padding, diopiSize_t dilation, const bool ceil_mode,
                                   const bool exclusive, const bool adaptive, diopiSize_t output_size);

/**
 * @brief Pool3dBackward operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input
 * @param[in] grad_output
 * @param[in] input
 * @param[in] mode
 * @param[in] ksize
 * @param[in] stride
 * @param[in] padding
 * @param[in] dilation
 * @param[in] ceil_mode
 * @param[in] exclusive
 * @param[in] adaptive
 * @param[in] indices
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiPool3dBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                           diopiConstTensorHandle_t input, const char* mode, diopiSize_t ksize, diopiSize_t stride,
                                           diopiSize_t padding, diopiSize_t dilation, const bool ceil_mode, const bool exclusive,
                                           const bool adaptive, diopiConstTensorHandle_t indices);

/* ========================================================================
 * Random sampling
 * ======================================================================== */

/**
 * @brief Dropout operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float32, float64.
 * @param[out] mask Dtypes: bool.
 * @param[in] input Dtypes: float32, float64.
 * @param[in] p Dtypes: float32, float64.
 * @param[in] train
 * @param[in,out] generator
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiDropout(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiTensorHandle_t mask, diopiConstTensorHandle_t input,
                                    double p, bool train, diopiGeneratorHandle_t generator);

/**
 * @brief DropoutInp operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input Dtypes: float32, float64.
 * @param[out] mask Dtypes: bool.
 * @param[in] p Dtypes: float32, float64.
 * @param[in] train
 * @param[in,out] generator
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiDropoutInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, diopiTensorHandle_t mask, double p, bool train,
                                       diopiGeneratorHandle_t generator);

/**
 * @brief RandomInp operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] inout Dtypes: float32, float64, float16, int64, int32, int16, int8.
 * @param[in] from Dtypes: int64.
 * @param[in] to
 * @param[in,out] generator
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiRandomInp(diopiContextHandle_t ctx, diopiTensorHandle_t inout, int64_t from, const int64_t* to,
                                      diopiGeneratorHandle_t generator);

/**
 * @brief UniformInp operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] inout Dtypes: float32, float64, float16, int64, int32, int16, int8.
 * @param[in] from Dtypes: double.
 * @param[in] to Dtypes: double.
 * @param[in,out] generator
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiUniformInp(diopiContextHandle_t ctx, diopiTensorHandle_t inout, double from, double to, diopiGeneratorHandle_t generator);

/**
 * @brief Bernoulli operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out
 * @param[in] input
 * @param[in,out] generator
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiBernoulli(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                      diopiGeneratorHandle_t generator);

/**
 * @brief BernoulliInp operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] inout
 * @param[in,out] generator
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiBernoulliInp(diopiContextHandle_t ctx, diopiTensorHandle_t inout, diopiGeneratorHandle_t generator);

/**
 * @brief BernoulliScalar operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out
 * @param[in] p
 * @param[in,out] generator
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiBernoulliScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out, double p, diopiGeneratorHandle_t generator);

/**
 * @brief Randperm operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: int32, int64.
 * @param[in] n Dtypes: int64.
 * @param[in,out] generator
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiRandperm(diopiContextHandle_t ctx, diopiTensorHandle_t out, int64_t n, diopiGeneratorHandle_t generator);

/**
 * @brief Normal operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out
 * @param[in] mean
 * @param[in] std
 * @param[in,out] generator
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiNormal(diopiContextHandle_t ctx, diopiTensorHandle_t out, double mean, double std, diopiGeneratorHandle_t generator);

/**
 * @brief NormalTensorScalar operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out
 * @param[in] mean
 * @param[in] std
 * @param[in,out] generator
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiNormalTensorScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t mean, double std,
                                               diopiGeneratorHandle_t generator);

/**
 * @brief NormalScalarTensor operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out
 * @param[in] mean
 * @param[in] std
 * @param[in,out] generator
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiNormalScalarTensor(diopiContextHandle_t ctx, diopiTensorHandle_t out, double mean, diopiConstTensorHandle_t std,
                                               diopiGeneratorHandle_t generator);

/**
 * @brief NormalTensor operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out
 * @param[in] mean
 * @param[in] std
 * @param[in,out] generator
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiNormalTensor(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t mean,
                                         diopiConstTensorHandle_t std, diopiGeneratorHandle_t generator);

/**
 * @brief NormalInp operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] inout
 * @param[in] mean
 * @param[in] std
 * @param[in,out] generator
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiNormalInp(diopiContextHandle_t ctx, diopiTensorHandle_t inout, double mean, double std, diopiGeneratorHandle_t generator);

/**
 * @brief Multinomial operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out
 * @param[in] input
 * @param[in] num_samples
 * @param[in] replacement
 * @param[in,out] generator
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiMultinomial(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, int64_t num_samples,
                                        bool replacement, diopiGeneratorHandle_t generator);

/* ========================================================================
 * Losses
 * ======================================================================== */

/**
 * @brief MSELoss operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float32, float64.
 * @param[in] input Dtypes: float32, float64.
 * @param[in] target Dtypes: float32, float64.
 * @param[in] reduction
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiMSELoss(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                    diopiConstTensorHandle_t target, diopiReduction_t reduction);

/**
 * @brief MSELossBackward operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input Dtypes: float32, float64.
 * @param[in] grad_output Dtypes: float32, float64.
 * @param[in] input Dtypes: float32, float64.
 * @param[in] target Dtypes: float32, float64.
 * @param[in] reduction
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiMSELossBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                            diopiConstTensorHandle_t input, diopiConstTensorHandle_t target, diopiReduction_t reduction);

/**
 * @brief SigmoidFocalLoss operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out
 * @param[in] inputs
 * @param[in] targets
 * @param[in] alpha
 * @param[in] gamma
 * @param[in] reduction
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiSigmoidFocalLoss(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t inputs,
                                             diopiConstTensorHandle_t targets, float alpha, float gamma, diopiReduction_t reduction);

/**
 * @brief SigmoidFocalLossBackward operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] grad_output
 * @param[in] input
 * @param[in] target
 * @param[out] grad_input
 * @param[in] gamma
 * @param[in] alpha
 * @param[in] reduction
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiSigmoidFocalLossBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_output, diopiConstTensorHandle_t input,
                                                     diopiConstTensorHandle_t target, diopiTensorHandle_t grad_input, float gamma, float alpha,
                                                     diopiReduction_t reduction);

/**
 * @brief CrossEntropyLoss operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float32, float64.
 * @param[in] input Dtypes: float32, float64.
 * @param[in] target Dtypes: float32, float64.
 * @param[in] weight Dtypes: float32, float64.
 * @param[in] reduction
 * @param[in] ignore_index Dtypes: int64.
 * @param[in] label_smoothing Dtypes: float32, float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiCrossEntropyLoss(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                             diopiConstTensorHandle_t target, diopiConstTensorHandle_t weight, diopiReduction_t reduction,
                                             int64_t ignore_index, double label_smoothing);

/**
 * @brief CrossEntropyLossBackward operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input Dtypes: float32, float64.
 * @param[in] grad_output Dtypes: float32, float64.
 * @param[in] input Dtypes: float32, float64.
 * @param[in] target Dtypes: float32, float64.
 * @param[in] weight Dtypes: float32, float64.
 * @param[in] reduction
 * @param[in] ignore_index Dtypes: int64.
 * @param[in] label_smoothing Dtypes: float32, float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiCrossEntropyLossBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                                     diopiConstTensorHandle_t input, diopiConstTensorHandle_t target,
                                                     diopiConstTensorHandle_t weight, diopiReduction_t reduction, int64_t ignore_index,
                                                     double label_smoothing);

/**
 * @brief NLLLoss operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out
 * @param[in] input
 * @param[in] target
 * @param[in] weight
 * @param[in] reduction
 * @param[in] ignore_index
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiNLLLoss(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                    diopiConstTensorHandle_t target, diopiConstTensorHandle_t weight, diopiReduction_t reduction,
                                    int64_t ignore_index);

/**
 * @brief NLLLossBackward operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input
 * @param[in] grad_output
 * @param[in] input
 * @param[in] target
 * @param[in] weight
 * @param[in] reduction
 * @param[in] ignore_index
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiNLLLossBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                            diopiConstTensorHandle_t input, diopiConstTensorHandle_t target, diopiConstTensorHandle_t weight,
                                            diopiReduction_t reduction, int64_t ignore_index);

/**
 * @brief NLLLossV2 operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out
 * @param[out] totalWeight
 * @param[in] input
 * @param[in] target
 * @param[in] weight
 * @param[in] reduction
 * @param[in] ignore_index
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiNLLLossV2(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiTensorHandle_t totalWeight,
                                      diopiConstTensorHandle_t input, diopiConstTensorHandle_t target, diopiConstTensorHandle_t weight,
                                      diopiReduction_t reduction, int64_t ignore_index);

/**
 * @brief NLLLossV2Backward operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input
 * @param[in] grad_output
 * @param[in] input
 * @param[in] target
 * @param[in] weight
 * @param[in] totalWeight
 * @param[in] reduction
 * @param[in] ignore_index
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiNLLLossV2Backward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                              diopiConstTensorHandle_t input, diopiConstTensorHandle_t target, diopiConstTensorHandle_t weight,
                                              diopiConstTensorHandle_t totalWeight, diopiReduction_t reduction, int64_t ignore_index);

/**
 * @brief BCEWithLogits operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float32, float64.
 * @param[in] input Dtypes: float32, float64.
 * @param[in] target Dtypes: float32, float64.
 * @param[in] weight Dtypes: float32, float64.
 * @param[in] pos_weight Dtypes: int64.
 * @param[in] reduction
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiBCEWithLogits(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                          diopiConstTensorHandle_t target, diopiConstTensorHandle_t weight, diopiConstTensorHandle_t pos_weight,
                                          diopiReduction_t reduction);

/**
 * @brief BCEWithLogitsBackward operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input Dtypes: float32, float64.
 * @param[in] grad_output Dtypes: float32, float64.
 * @param[in] input Dtypes: float32, float64.
 * @param[in] target Dtypes: float32, float64.
 * @param[in] weight Dtypes: float32, float64.
 * @param[in] pos_weight Dtypes: int64.
 * @param[in] reduction
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiBCEWithLogitsBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                                  diopiConstTensorHandle_t input, diopiConstTensorHandle_t target, diopiConstTensorHandle_t weight,
                                                  diopiConstTensorHandle_t pos_weight, diopiReduction_t reduction);

/**
 * @brief BCELoss operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out
 * @param[in] input Dtypes: float32, float64.
 * @param[in] target Dtypes: float32, float64.
 * @param[in] weight Dtypes: float32, float64.
 * @param[in] reduction
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiBCELoss(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                    diopiConstTensorHandle_t target, diopiConstTensorHandle_t weight, diopiReduction_t reduction);

/**
 * @brief BCELossBackward operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input Dtypes: float32, float64.
 * @param[in] grad_output Dtypes: float32, float64.
 * @param[in] input Dtypes: float32, float64.
 * @param[in] target Dtypes: float32, float64.
 * @param[in] weight Dtypes: float32, float64.
 * @param[in] reduction
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiBCELossBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                            diopiConstTensorHandle_t input, diopiConstTensorHandle_t target, diopiConstTensorHandle_t weight,
                                            diopiReduction_t reduction);

/**
 * @brief SmoothL1Loss operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out
 * @param[in] input
 * @param[in] target
 * @param[in] reduction
 * @param[in] beta
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiSmoothL1Loss(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                         diopiConstTensorHandle_t target, diopiReduction_t reduction, double beta);

/**
 * @brief SmoothL1LossBackward operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input
 * @param[in] grad_output
 * @param[in] input
 * @param[in] target
 * @param[in] reduction
 * @param[in] beta
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiSmoothL1LossBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                                 diopiConstTensorHandle_t input, diopiConstTensorHandle_t target, diopiReduction_t reduction,
                                                 double beta);

/**
 * @brief CTCLoss operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out
 * @param[in,out] neg_log_likelihood
 * @param[in,out] log_alpha
 * @param[in] log_probs
 * @param[in] targets
 * @param[in] input_lengths
 * @param[in] target_lengths
 * @param[in] blank
 * @param[in] reduction
 * @param[in] zero_infinity
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiCTCLoss(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiTensorHandle_t neg_log_likelihood,
                                    diopiTensorHandle_t log_alpha, diopiConstTensorHandle_t log_probs, diopiConstTensorHandle_t targets,
                                    diopiConstTensorHandle_t input_lengths, diopiConstTensorHandle_t target_lengths, int64_t blank,
                                    diopiReduction_t reduction, bool zero_infinity);

/**
 * @brief CTCLossBackward operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input
 * @param[in] grad_output
 * @param[in] log_probs
 * @param[in] targets
 * @param[in] input_lengths
 * @param[in] target_lengths
 * @param[in] neg_log_likelihood
 * @param[in] log_alpha
 * @param[in] blank
 * @param[in] reduction
 * @param[in] zero_infinity
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiCTCLossBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                            diopiConstTensorHandle_t log_probs, diopiConstTensorHandle_t targets,
                                            diopiConstTensorHandle_t input_lengths, diopiConstTensorHandle_t target_lengths,
                                            diopiConstTensorHandle_t neg_log_likelihood, diopiConstTensorHandle_t log_alpha, int64_t blank,
                                            diopiReduction_t reduction, bool zero_infinity);

/* ========================================================================
 * Elementwise unary
 * ======================================================================== */

/**
 * @brief Sign operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out
 * @param[in] input
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiSign(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input);

/**
 * @brief AbsInp operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input Dtypes: float16, float32, float64, int16, int32, int64, uint8, int8.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAbsInp(diopiContextHandle_t ctx, diopiTensorHandle_t input);

/**
 * @brief Abs operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float16, float32, float64, int16, int32, int64, uint8, int8.
 * @param[in] input Dtypes: float16, float32, float64, int16, int32, int64, uint8, int8.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAbs(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input);

/**
 * @brief NegInp operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input Dtypes: float16, float32, float64, int16, int32, int64, uint8, int8.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiNegInp(diopiContextHandle_t ctx, diopiTensorHandle_t input);

/**
 * @brief Neg operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float16, float32, float64, int16, int32, int64, uint8, int8.
 * @param[in] input Dtypes: float16, float32, float64, int16, int32, int64, uint8, int8.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiNeg(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input);

/**
 * @brief FloorInp operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input Dtypes: float16, float32, float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiFloorInp(diopiContextHandle_t ctx, diopiTensorHandle_t input);

/**
 * @brief Floor operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float16, float32, float64.
 * @param[in] input Dtypes: float16, float32, float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiFloor(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input);

/**
 * @brief CeilInp operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiCeilInp(diopiContextHandle_t ctx, diopiTensorHandle_t input);

/**
 * @brief Ceil operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out
 * @param[in] input
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiCeil(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input);

/**
 * @brief SqrtInp operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input Dtypes: float16, float32.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiSqrtInp(diopiContextHandle_t ctx, diopiTensorHandle_t input);

/**
 * @brief Sqrt operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float16, float32.
 * @param[in] input Dtypes: float16, float32.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiSqrt(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input);

/**
 * @brief RsqrtInp operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input Dtypes: float16, float32.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiRsqrtInp(diopiContextHandle_t ctx, diopiTensorHandle_t input);

/**
 * @brief Rsqrt operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out
 * @param[in] input
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiRsqrt(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input);

/**
 * @brief SinInp operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input Dtypes: float16, float32, float64, int16, int32, int64, uint8, int8.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiSinInp(diopiContextHandle_t ctx, diopiTensorHandle_t input);

/**
 * @brief Sin operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float16, float32, float64.
 * @param[in] input Dtypes: float16, float32, float64, int16, int32, int64, uint8, int8.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiSin(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input);

/**
 * @brief AsinInp operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input Dtypes: float16, float32, float64, int16, int32, int64, uint8, int8.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAsinInp(diopiContextHandle_t ctx, diopiTensorHandle_t input);

/**
 * @brief Asin operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float16, float32, float64.
 * @param[in] input Dtypes: float16, float32, float64, int16, int32, int64, uint8, int8.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAsin(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input);

/**
 * @brief CosInp operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input Dtypes: float16, float32, float64, int16, int32, int64, uint8, int8.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiCosInp(diopiContextHandle_t ctx, diopiTensorHandle_t input);

/**
 * @brief Cos operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float16, float32, float64.
 * @param[in] input Dtypes: float16, float32, float64, int16, int32, int64, uint8, int8.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiCos(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input);

/**
 * @brief AcosInp operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input Dtypes: float16, float32, float64, int16, int32, int64, uint8, int8.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAcosInp(diopiContextHandle_t ctx, diopiTensorHandle_t input);

/**
 * @brief Acos operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float16, float32, float64.
 * @param[in] input Dtypes: float16, float32, float64, int16, int32, int64, uint8, int8.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAcos(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input);

/**
 * @brief TanInp operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input Dtypes: float16, float32, float64, int16, int32, int64, uint8, int8.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiTanInp(diopiContextHandle_t ctx, diopiTensorHandle_t input);

/**
 * @brief Tan operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float16, float32, float64.
 * @param[in] input Dtypes: float16, float32, float64, int16, int32, int64, uint8, int8.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiTan(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input);

/**
 * @brief SinhInp operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input Dtypes: float16, float32, float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiSinhInp(diopiContextHandle_t ctx, diopiTensorHandle_t input);

/**
 * @brief Sinh operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float16, float32, float64.
 * @param[in] input Dtypes: float16, float32, float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiSinh(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input);

/**
 * @brief CoshInp operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input Dtypes: float16, float32, float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiCoshInp(diopiContextHandle_t ctx, diopiTensorHandle_t input);

/**
 * @brief Cosh operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float16, float32, float64.
 * @param[in] input Dtypes: float16, float32, float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiCosh(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input);

/**
 * @brief Atan operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float16, float32, float64.
 * @param[in] input Dtypes: float16, float32, float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAtan(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input);

/**
 * @brief AtanInp operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input Dtypes: float16, float32, float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAtanInp(diopiContextHandle_t ctx, diopiTensorHandle_t input);

/**
 * @brief AsinhInp operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input Dtypes: float16, float32, float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAsinhInp(diopiContextHandle_t ctx, diopiTensorHandle_t input);

/**
 * @brief Asinh operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float16, float32, float64.
 * @param[in] input Dtypes: float16, float32, float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAsinh(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input);

/**
 * @brief AcoshInp operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input Dtypes: float16, float32, float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAcoshInp(diopiContextHandle_t ctx, diopiTensorHandle_t input);

/**
 * @brief Acosh operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float16, float32, float64.
 * @param[in] input Dtypes: float16, float32, float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAcosh(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input);

/**
 * @brief AtanhInp operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input Dtypes: float16, float32, float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAtanhInp(diopiContextHandle_t ctx, diopiTensorHandle_t input);

/**
 * @brief Atanh operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float16, float32, float64.
 * @param[in] input Dtypes: float16, float32, float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAtanh(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input);

/**
 * @brief ExpInp operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input Dtypes: float16, float32, float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiExpInp(diopiContextHandle_t ctx, diopiTensorHandle_t input);

/**
 * @brief Exp operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float16, float32, float64.
 * @param[in] input Dtypes: float16, float32, float64, int16, int32, * int64, uint8, int8, bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiExp(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input);

/**
 * @brief Expm1Inp operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input Dtypes: float16, float32, float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiExpm1Inp(diopiContextHandle_t ctx, diopiTensorHandle_t input);

/**
 * @brief Expm1 operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float16, float32, float64.
 * @param[in] input Dtypes: float16, float32, float64, int16, int32, * int64, uint8, int8, bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiExpm1(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input);

/**
 * @brief LogInp operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input Dtypes: float16, float32, float64, int16, int32, int64, uint8, int8.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiLogInp(diopiContextHandle_t ctx, diopiTensorHandle_t input);

/**
 * @brief Log operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float16, float32, float64.
 * @param[in] input Dtypes: float16, float32, float64, int16, int32, int64, uint8, int8.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiLog(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input);

/**
 * @brief Log2Inp operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input Dtypes: float16, float32, float64, int16, int32, int64, uint8, int8.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiLog2Inp(diopiContextHandle_t ctx, diopiTensorHandle_t input);

/**
 * @brief Log2 operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float16, float32, float64.
 * @param[in] input Dtypes: float16, float32, float64, int16, int32, int64, uint8, int8.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiLog2(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input);

/**
 * @brief Log10Inp operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiLog10Inp(diopiContextHandle_t ctx, diopiTensorHandle_t input);

/**
 * @brief Log10 operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out
 * @param[in] input
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiLog10(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input);

/**
 * @brief Log1pInp operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiLog1pInp(diopiContextHandle_t ctx, diopiTensorHandle_t input);

/**
 * @brief Log1p operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out
 * @param[in] input
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiLog1p(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input);

/**
 * @brief ErfInp operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] input
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiErfInp(diopiContextHandle_t ctx, diopiTensorHandle_t input);

/**
 * @brief Erf operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out
 * @param[in] input
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiErf(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input);

/**
 * @brief Reciprocal operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float16, float32, float64.
 * @param[in] input Dtypes: float16, float32, float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiReciprocal(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input);

/**
 * @brief ReciprocalInp operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input Dtypes: float16, float32, float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiReciprocalInp(diopiContextHandle_t ctx, diopiTensorHandle_t input);

/**
 * @brief Erfinv operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out
 * @param[in] input
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiErfinv(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input);

/**
 * @brief ErfinvInp operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] input
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiErfinvInp(diopiContextHandle_t ctx, diopiTensorHandle_t input);

/**
 * @brief Sgn operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out
 * @param[in] input
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiSgn(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input);

/**
 * @brief SgnInp operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiSgnInp(diopiContextHandle_t ctx, diopiTensorHandle_t input);

/**
 * @brief IsNan operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: bool.
 * @param[in] input Dtypes: float32, float64, float16, bool, int64, int32, int16, int8, uint8.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiIsNan(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input);

/* ========================================================================
 * Elementwise binary arithmetic
 * ======================================================================== */

/**
 * @brief PowScalar operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: int32, int64, uint8, int8, int16, float32, float64, float16.
 * @param[in] input Dtypes: int32, int64, uint8, int8, int16, float32, float64, float16.
 * @param[in] exponent Dtypes: int32, int64, uint8, int8, int16, float32, float64, float16, bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiPowScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out, const diopiScalar_t* input,
                                      diopiConstTensorHandle_t exponent);

/**
 * @brief Pow operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: int32, int64, uint8, int8, int16, float32, float64, float16.
 * @param[in] input Dtypes: int32, int64, uint8, int8, int16, float32, float64, float16.
 * @param[in] exponent Dtypes: int32, int64, uint8, int8, int16, float32, float64, float16, bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiPow(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, const diopiScalar_t* exponent);

/**
 * @brief PowInp operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input Dtypes: int32, int64, uint8, int8, int16, float32, float64, float16.
 * @param[in] exponent Dtypes: int32, int64, uint8, int8, int16, float32, float64, float16, bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiPowInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, const diopiScalar_t* exponent);

/**
 * @brief PowTensor operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: int32, int64, uint8, int8, int16, float32, float64, float16.
 * @param[in] input Dtypes: int32, int64, uint8, int8, int16, float32, float64, float16.
 * @param[in] exponent Dtypes: int32, int64, uint8, int8, int16, float32, float64, float16, bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiPowTensor(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                      diopiConstTensorHandle_t exponent);

/**
 * @brief PowInpTensor operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input Dtypes: float32, float64, float16.
 * @param[in] exponent Dtypes: int32, int64, uint8, int8, int16, float32, float64, float16, bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiPowInpTensor(diopiContextHandle_t ctx, diopiTensorHandle_t input, diopiConstTensorHandle_t exponent);

/**
 * @brief Add operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool.
 * @param[in] input Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool.
 * @param[in] other Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool.
 * @param[in] alpha Dtypes: float32, float64, int32, int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAdd(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t other,
                                const diopiScalar_t* alpha);

/**
 * @brief AddInp operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool.
 * @param[in] other Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool.
 * @param[in] alpha Dtypes: float32, float64, int32, int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAddInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, diopiConstTensorHandle_t other, const diopiScalar_t* alpha);

/**
 * @brief AddScalar operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out
 * @param[in] input
 * @param[in] other Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8.
 * @param[in] alpha
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAddScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, const diopiScalar_t* other,
                                      const diopiScalar_t* alpha);

/**
 * @brief AddInpScalar operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool.
 * @param[in] other Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8.
 * @param[in] alpha Dtypes: float32, float64, int32, int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAddInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input, const diopiScalar_t* other, const diopiScalar_t* alpha);

/**
 * @brief Sub operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool.
 * @param[in] input Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool.
 * @param[in] other Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool.
 * @param[in] alpha Dtypes: float32, float64, int32, int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiSub(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t other,
                                const diopiScalar_t* alpha);

/**
 * @brief SubInp operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool.
 * @param[in] other Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool.
 * @param[in] alpha Dtypes: float32, float64, int32, int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiSubInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, diopiConstTensorHandle_t other, const diopiScalar_t* alpha);

/**
 * @brief SubScalar operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool.
 * @param[in] input Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool.
 * @param[in] other Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8.
 * @param[in] alpha Dtypes: float32, float64, int32, int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiSubScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, const diopiScalar_t* other,
                                      const diopiScalar_t* alpha);

/**
 * @brief SubInpScalar operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool.
 * @param[in] other Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8.
 * @param[in] alpha Dtypes: float32, float64, int32, int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiSubInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input, const diopiScalar_t* other, const diopiScalar_t* alpha);

/**
 * @brief Mul operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out
 * @param[in] input Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool.
 * @param[in] other Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiMul(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t other);

/**
 * @brief MulInp operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool.
 * @param[in] other Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiMulInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, diopiConstTensorHandle_t other);

/**
 * @brief MulScalar operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out
 * @param[in] input Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool.
 * @param[in] other Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiMulScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, const diopiScalar_t* other);

/**
 * @brief MulInpScalar operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool.
 * @param[in] other Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiMulInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input, const diopiScalar_t* other);

/**
 * @brief Div operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool.
 * @param[in] input Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool.
 * @param[in] other Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool.
 * @param[in] rounding_mode
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiDiv(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t other,
                                diopiRoundMode_t rounding_mode);

/**
 * @brief DivInp operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool.
 * @param[in] other Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool.
 * @param[in] rounding_mode
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiDivInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, diopiConstTensorHandle_t other,
                                   diopiRoundMode_t rounding_mode);

/**
 * @brief DivScalar operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool.
 * @param[in] input Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool.
 * @param[in] other Dtypes: int32, int64, float32, float64.
 * @param[in] rounding_mode
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiDivScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, const diopiScalar_t* other,
                                      diopiRoundMode_t rounding_mode);

/**
 * @brief DivInpScalar operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool.
 * @param[in] other Dtypes: int32, int64, float32, float64.
 * @param[in] rounding_mode
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiDivInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input, const diopiScalar_t* other,
                                         diopiRoundMode_t rounding_mode);

/**
 * @brief Addcmul operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float16, float32, float64.
 * @param[in] input Dtypes: float16, float32, float64.
 * @param[in] tensor1 Dtypes: float16, float32, float64.
 * @param[in] tensor2 Dtypes: float16, float32, float64.
 * @param[in] value Dtypes: float16, float32, float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAddcmul(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                    diopiConstTensorHandle_t tensor1, diopiConstTensorHandle_t tensor2, const diopiScalar_t* value);

/**
 * @brief AddcmulInp operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] input Dtypes: float16, float32, float64.
 * @param[in] tensor1 Dtypes: float16, float32, float64.
 * @param[in] tensor2 Dtypes: float16, float32, float64.
 * @param[in] value Dtypes: float16, float32, float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAddcmulInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, diopiConstTensorHandle_t tensor1,
                                       diopiConstTensorHandle_t tensor2, const diopiScalar_t* value);

/**
 * @brief Addcdiv operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float16, float32, float64.
 * @param[in] input Dtypes: float16, float32, float64.
 * @param[in] tensor1 Dtypes: float16, float32, float64.
 * @param[in] tensor2 Dtypes: float16, float32, float64.
 * @param[in] value Dtypes: float16, float32, float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAddcdiv(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                    diopiConstTensorHandle_t tensor1, diopiConstTensorHandle_t tensor2, const diopiScalar_t* value);

/**
 * @brief AddcdivInp operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] input Dtypes: float16, float32, float64.
 * @param[in] tensor1 Dtypes: float16, float32, float64.
 * @param[in] tensor2 Dtypes: float16, float32, float64.
 * @param[in] value Dtypes: float16, float32, float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAddcdivInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, diopiConstTensorHandle_t tensor1,
                                       diopiConstTensorHandle_t tensor2, const diopiScalar_t* value);

/**
 * @brief ClampInpScalar operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input Dtypes: float32, float64, float16, int16, int32, int64, int8.
 * @param[in] min Dtypes: float32, float64.
 * @param[in] max Dtypes: float32, float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiClampInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input, const diopiScalar_t* min, const diopiScalar_t* max);

/**
 * @brief ClampInp operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input Dtypes: float32, float64, float16, int16, int32, int64, int8.
 * @param[in] min Dtypes: float32, float64.
 * @param[in] max Dtypes: float32, float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiClampInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, diopiConstTensorHandle_t min, diopiConstTensorHandle_t max);

/**
 * @brief ClampScalar operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float32, float64, float16.
 * @param[in] input Dtypes: float32, float64, float16, int16, int32, int64, int8.
 * @param[in] min Dtypes: float32, float64.
 * @param[in] max Dtypes: float32, float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiClampScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, const diopiScalar_t* min,
                                        const diopiScalar_t* max);

/**
 * @brief Clamp operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float32, float64, float16.
 * @param[in] input Dtypes: float32, float64, float16, int16, int32, int64, int8, uint8.
 * @param[in] min Dtypes: float32, float64.
 * @param[in] max Dtypes: float32, float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiClamp(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t min,
                                  diopiConstTensorHandle_t max);

/**
 * @brief ClampMaxInpScalar operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input Dtypes: float32, float64, float16, int16, int32, int64, int8.
 * @param[in] max Dtypes: float32, float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiClampMaxInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input, const diopiScalar_t* max);

/**
 * @brief ClampMaxInp operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input Dtypes: float32, float64, float16, int16, int32, int64, int8.
 * @param[in] max Dtypes: float32, float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiClampMaxInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, diopiConstTensorHandle_t max);

/**
 * @brief ClampMaxScalar operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float32, float64, float16.
 * @param[in] input Dtypes: float32, float64, float16, int16, int32, int64, int8.
 * @param[in] max Dtypes: float32, float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiClampMaxScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                           const diopiScalar_t* max);

/**
 * @brief ClampMax operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float32, float64, float16.
 * @param[in] input Dtypes: float32, float64, float16, int16, int32, int64, int8.
 * @param[in] max Dtypes: float32, float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiClampMax(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t max);

/**
 * @brief ClampMinInpScalar operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input Dtypes: float32, float64, float16, int16, int32, int64, int8.
 * @param[in] min Dtypes: float32, float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiClampMinInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input, const diopiScalar_t* min);

/**
 * @brief ClampMinInp operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input Dtypes: float32, float64, float16, int16, int32, int64, int8.
 * @param[in] min Dtypes: float32, float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiClampMinInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, diopiConstTensorHandle_t min);

/**
 * @brief ClampMinScalar operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float32, float64, float16.
 * @param[in] input Dtypes: float32, float64, float16, int16, int32, int64, int8.
 * @param[in] min Dtypes: float32, float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiClampMinScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                           const diopiScalar_t* min);

/**
 * @brief ClampMin operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float32, float64, float16.
 * @param[in] input Dtypes: float32, float64, float16, int16, int32, int64, int8.
 * @param[in] min Dtypes: float32, float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiClampMin(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t min);

/**
 * @brief Maximum operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out
 * @param[in] input
 * @param[in] other
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiMaximum(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                    diopiConstTensorHandle_t other);

/**
 * @brief Minimum operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out
 * @param[in] input
 * @param[in] other
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiMinimum(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                    diopiConstTensorHandle_t other);

/**
 * @brief LerpTensor operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float16, float32, float64.
 * @param[in] input Dtypes: float16, float32, float64.
 * @param[in] end Dtypes: float16, float32, float64.
 * @param[in] weight Dtypes: float16, float32, float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiLerpTensor(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                       diopiConstTensorHandle_t end, diopiConstTensorHandle_t weight);

/**
 * @brief LerpScalar operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out
 * @param[in] input
 * @param[in] end
 * @param[in] weight Dtypes: float16, float32, float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiLerpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                       diopiConstTensorHandle_t end, const diopiScalar_t* weight);

/**
 * @brief RemainderTensor operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out
 * @param[in] input
 * @param[in] other
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiRemainderTensor(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                            diopiConstTensorHandle_t other);

/**
 * @brief RemainderScalar operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out
 * @param[in] input
 * @param[in] other
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiRemainderScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                            const diopiScalar_t* other);

/**
 * @brief Remainder operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out
 * @param[in] input
 * @param[in] other
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiRemainder(diopiContextHandle_t ctx, diopiTensorHandle_t out, const diopiScalar_t* input, diopiConstTensorHandle_t other);

/* ========================================================================
 * Foreach (lists of tensors)
 * ======================================================================== */

/**
 * @brief ForeachaddScalar operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] outs Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool.
 * @param[in] inputs Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool.
 * @param[in] inputSize Dtypes: int64.
 * @param[in] other Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiForeachaddScalar(diopiContextHandle_t ctx, diopiTensorHandle_t* outs, diopiConstTensorHandle_t* inputs,
                                             int64_t inputSize, const diopiScalar_t* other);

/**
 * @brief ForeachaddInpScalar operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] inputs
 * @param[in] inputSize Dtypes: int64.
 * @param[in] other Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiForeachaddInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t* inputs, int64_t inputSize, const diopiScalar_t* other);

/**
 * @brief ForeachmulScalar operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] outs Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool.
 * @param[in] inputs Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool.
 * @param[in] inputSize Dtypes: int64.
 * @param[in] other Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiForeachmulScalar(diopiContextHandle_t ctx, diopiTensorHandle_t* outs, diopiConstTensorHandle_t* inputs,
                                             int64_t inputSize, const diopiScalar_t* other);

/**
 * @brief ForeachmulInpScalar operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] inputs Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool.
 * @param[in] inputSize Dtypes: int64.
 * @param[in] other Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiForeachmulInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t* inputs, int64_t inputSize, const diopiScalar_t* other);

/**
 * @brief ForeachmulTensor operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] outs
 * @param[in] inputs
 * @param[in] inputSize
 * @param[in] other
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiForeachmulTensor(diopiContextHandle_t ctx, diopiTensorHandle_t* outs, diopiConstTensorHandle_t* inputs,
                                             int64_t inputSize, const diopiConstTensorHandle_t other);

/**
 * @brief ForeachmulInpTensor operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] inputs Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool.
 * @param[in] inputSize Dtypes: int64.
 * @param[in] other Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiForeachmulInpTensor(diopiContextHandle_t ctx, diopiTensorHandle_t* inputs, int64_t inputSize,
                                                const diopiConstTensorHandle_t other);

/**
 * @brief ForeachnormScalar operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] outs Dtypes: float32, float64, float16.
 * @param[in] inputs Dtypes: float32, float64, float16.
 * @param[in] inputSize
 * @param[in] ord
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiForeachnormScalar(diopiContextHandle_t ctx, diopiTensorHandle_t* outs, diopiConstTensorHandle_t* inputs,
                                              int64_t inputSize, const diopiScalar_t* ord);

/* ========================================================================
 * Linear algebra and matrix products
 * ======================================================================== */

/**
 * @brief Bmm operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float16, float32, float64.
 * @param[in] input Dtypes: float16, float32, float64.
 * @param[in] mat2 Dtypes: float16, float32, float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiBmm(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t mat2);

/**
 * @brief Baddbmm operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out
 * @param[in] input
 * @param[in] batch1
 * @param[in] batch2
 * @param[in] beta
 * @param[in] alpha
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiBaddbmm(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                    diopiConstTensorHandle_t batch1, diopiConstTensorHandle_t batch2, double beta, double alpha);

/**
 * @brief BaddbmmInp operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input
 * @param[in] batch1
 * @param[in] batch2
 * @param[in] beta
 * @param[in] alpha
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiBaddbmmInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, diopiConstTensorHandle_t batch1,
                                       diopiConstTensorHandle_t batch2, double beta, double alpha);

/**
 * @brief Matmul operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float32, float64.
 * @param[in] input Dtypes: float32, float64.
 * @param[in] other Dtypes: float32, float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiMatmul(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t other);

/**
 * @brief MatmulBackward operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input Dtypes: float32, float64.
 * @param[out] grad_other Dtypes: float32, float64.
 * @param[in] grad_out Dtypes: float32, float64.
 * @param[in] input Dtypes: float32, float64.
 * @param[in] other Dtypes: float32, float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiMatmulBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiTensorHandle_t grad_other,
                                           diopiConstTensorHandle_t grad_out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t other);

/**
 * @brief Addmm operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float32, float64, float16.
 * @param[in] input Dtypes: float32, float64, float16.
 * @param[in] mat1 Dtypes: float32, float64, float16.
 * @param[in] mat2 Dtypes: float32, float64, float16.
 * @param[in] beta Dtypes: int32, int64, float32, float64.
 * @param[in] alpha Dtypes: int32, int64, float32, float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAddmm(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t mat1,
                                  diopiConstTensorHandle_t mat2, const diopiScalar_t* beta, const diopiScalar_t* alpha);

/**
 * @brief Cholesky operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out
 * @param[out] info
 * @param[in] mat
 * @param[in] upper
 * @param[in] checkerror
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiCholesky(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiTensorHandle_t info, diopiConstTensorHandle_t mat,
                                     bool upper, bool checkerror);

/**
 * @brief CholeskyBackward operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_mat
 * @param[in] grad_output
 * @param[in] L
 * @param[in] upper
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiCholeskyBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_mat, diopiConstTensorHandle_t grad_output,
                                             diopiConstTensorHandle_t L, bool upper);

/**
 * @brief TriangularSolve operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out
 * @param[out] cloned_mat
 * @param[in] b
 * @param[in] mat
 * @param[in] upper
 * @param[in] transpose
 * @param[in] unitriangular
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiTriangularSolve(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiTensorHandle_t cloned_mat,
                                            diopiConstTensorHandle_t b, diopiConstTensorHandle_t mat, bool upper, bool transpose, bool unitriangular);

/**
 * @brief TriangularSolveBackward operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_b
 * @param[out] grad_mat
 * @param[in] grad_x
 * @param[in] grad_cloned_mat
 * @param[in] x
 * @param[in] b
 * @param[in] mat
 * @param[in] upper
 * @param[in] transpose
 * @param[in] unitriangular
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiTriangularSolveBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_b, diopiTensorHandle_t grad_mat,
                                                    diopiConstTensorHandle_t grad_x, diopiConstTensorHandle_t grad_cloned_mat,
                                                    diopiConstTensorHandle_t x, diopiConstTensorHandle_t b, diopiConstTensorHandle_t mat, bool upper,
                                                    bool transpose, bool unitriangular);

/**
 * @brief Linear operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float16, float32, float64.
 * @param[in] input Dtypes: float16, float32, float64.
 * @param[in] weight Dtypes: float16, float32, float64.
 * @param[in] bias Dtypes: float16, float32, float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiLinear(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                   diopiConstTensorHandle_t weight, diopiConstTensorHandle_t bias);

/**
 * @brief LinearBackward operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input Dtypes: float16, float32, float64.
 * @param[out] grad_weight Dtypes: float16, float32, float64.
 * @param[out] grad_bias Dtypes: float16, float32, float64.
 * @param[in] grad_output Dtypes: float16, float32, float64.
 * @param[in] input Dtypes: float16, float32, float64.
 * @param[in] weight Dtypes: float16, float32, float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiLinearBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiTensorHandle_t grad_weight,
                                           diopiTensorHandle_t grad_bias, diopiConstTensorHandle_t grad_output, diopiConstTensorHandle_t input,
                                           diopiConstTensorHandle_t weight);

/**
 * @brief Cdist operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float32, float64.
 * @param[in] input1 Dtypes: float32, float64.
 * @param[in] input2 Dtypes: float32, float64.
 * @param[in] p Dtypes: double.
 * @param[in] compute_mode
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiCdist(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input1,
                                  diopiConstTensorHandle_t input2, double p, const int64_t* compute_mode);

/**
 * @brief CdistBackward operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input Dtypes: float32, float64.
 * @param[in] grad_output Dtypes: float32, float64.
 * @param[in] input1 Dtypes: float32, float64.
 * @param[in] input2 Dtypes: float32, float64.
 * @param[in] p Dtypes: double.
 * @param[in] cdist Dtypes: float32, float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiCdistBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                          diopiConstTensorHandle_t input1, diopiConstTensorHandle_t input2, double p, diopiConstTensorHandle_t cdist);

/**
 * @brief Mm operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out
 * @param[in] input
 * @param[in] mat2
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiMm(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t mat2);

/**
 * @brief LinalgVecNorm operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float32, float64, float16.
 * @param[in] input Dtypes: float32, float64, float16.
 * @param[in] ord
 * @param[in] dim
 * @param[in] keepdim
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiLinalgVecNorm(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiScalar_t* ord,
                                          diopiSize_t dim, bool keepdim);

/**
 * @brief LinalgQR operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in] A Dtypes: float64, float32.
 * @param[in] mode
 * @param[out] Q Dtypes: float64, float32.
 * @param[out] R Dtypes: float64, float32.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiLinalgQR(diopiContextHandle_t ctx, diopiConstTensorHandle_t A, const char* mode, diopiTensorHandle_t Q,
                                     diopiTensorHandle_t R);

/* ========================================================================
 * Creation and fill
 * ======================================================================== */

/**
 * @brief Fill operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input Dtypes: float32, float64, float16, int16, int32, int64, int8, uint8.
 * @param[in] value Dtypes: float32, float64, float16, int16, int32, int64, int8, uint8.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiFill(diopiContextHandle_t ctx, diopiTensorHandle_t input, const diopiScalar_t* value);

/**
 * @brief Linspace operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float32, float64, float16, int16, int32, int64.
 * @param[in] start Dtypes: float32, float64, float16, int16, int32, int64.
 * @param[in] end Dtypes: float32, float64, float16, int16, int32, int64.
 * @param[in] steps Dtypes: int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiLinspace(diopiContextHandle_t ctx, diopiTensorHandle_t out, const diopiScalar_t* start, const diopiScalar_t* end,
                                     int64_t steps);

/**
 * @brief Arange operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float32, float64.
 * @param[in] start Dtypes: float32, float64.
 * @param[in] end Dtypes: float32, float64.
 * @param[in] step Dtypes: float32, float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiArange(diopiContextHandle_t ctx, diopiTensorHandle_t out, const diopiScalar_t* start, const diopiScalar_t* end,
                                   const diopiScalar_t* step);

/**
 * @brief MeshGrid operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] outs Dtypes: float32, float64.
 * @param[in] inputs Dtypes: float32, float64.
 * @param[in] inputsNum Dtypes: int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiMeshGrid(diopiContextHandle_t ctx, diopiTensorHandle_t* outs, diopiConstTensorHandle_t* inputs, int64_t inputsNum);

/**
 * @brief Ones operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float32, float64, float16, int16, int32, int64, int8, uint8.
 * @param[in] size
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiOnes(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiSize_t size);

/**
 * @brief Zeros operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float32, float64, float16, int16, int32, int64, int8, uint8.
 * @param[in] size
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiZeros(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiSize_t size);

/**
 * @brief ZeroInp operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] self Dtypes: float32, float64, float16, int16, int32, int64, int8, uint8.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiZeroInp(diopiContextHandle_t ctx, diopiTensorHandle_t self);

/* ========================================================================
 * Comparison, logical and bitwise
 * ======================================================================== */

/**
 * @brief LogicalAnd operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: bool.
 * @param[in] input Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool.
 * @param[in] other Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiLogicalAnd(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                       diopiConstTensorHandle_t other);

/**
 * @brief LogicalAndInp operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool.
 * @param[in] other
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiLogicalAndInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, diopiConstTensorHandle_t other);

/**
 * @brief LogicalOr operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: bool.
 * @param[in] input Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool.
 * @param[in] other Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiLogicalOr(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                      diopiConstTensorHandle_t other);

/**
 * @brief LogicalOrInp operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool.
 * @param[in] other
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiLogicalOrInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, diopiConstTensorHandle_t other);

/**
 * @brief LogicalNot operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: bool.
 * @param[in] input Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiLogicalNot(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input);

/**
 * @brief LogicalNotInp operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiLogicalNotInp(diopiContextHandle_t ctx, diopiTensorHandle_t input);

/**
 * @brief BitwiseAnd operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: int16, int32, int64, int8, uint8, bool.
 * @param[in] input Dtypes: int16, int32, int64, int8, uint8, bool.
 * @param[in] other Dtypes: int16, int32, int64, int8, uint8, bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiBitwiseAnd(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                       diopiConstTensorHandle_t other);

/**
 * @brief BitwiseAndInp operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input Dtypes: int16, int32, int64, int8, uint8, bool.
 * @param[in] other
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiBitwiseAndInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, diopiConstTensorHandle_t other);

/**
 * @brief BitwiseAndScalar operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: int16, int32, int64, int8, uint8, bool.
 * @param[in] input Dtypes: int16, int32, int64, int8, uint8, bool.
 * @param[in] other Dtypes: int16, int32, int64, int8, uint8, bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiBitwiseAndScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                             const diopiScalar_t* other);

/**
 * @brief BitwiseAndInpScalar operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input Dtypes: int16, int32, int64, int8, uint8, bool.
 * @param[in] other
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiBitwiseAndInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input, const diopiScalar_t* other);

/**
 * @brief BitwiseOr operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: int16, int32, int64, int8, uint8, bool.
 * @param[in] input Dtypes: int16, int32, int64, int8, uint8, bool.
 * @param[in] other Dtypes: int16, int32, int64, int8, uint8, bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiBitwiseOr(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                      diopiConstTensorHandle_t other);

/**
 * @brief BitwiseOrInp operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input Dtypes: int16, int32, int64, int8, uint8, bool.
 * @param[in] other
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiBitwiseOrInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, diopiConstTensorHandle_t other);

/**
 * @brief BitwiseOrScalar operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: int16, int32, int64, int8, uint8, bool.
 * @param[in] input Dtypes: int16, int32, int64, int8, uint8, bool.
 * @param[in] other Dtypes: int16, int32, int64, int8, uint8, bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiBitwiseOrScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                            const diopiScalar_t* other);

/**
 * @brief BitwiseOrInpScalar operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input Dtypes: int16, int32, int64, int8, uint8, bool.
 * @param[in] other
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiBitwiseOrInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input, const diopiScalar_t* other);

/**
 * @brief BitwiseNot operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: int16, int32, int64, uint8, int8, bool.
 * @param[in] input Dtypes: int16, int32, int64, uint8, int8, bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiBitwiseNot(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input);

/**
 * @brief BitwiseNotInp operator.
 * @param[in] ctx context of the call: stream and temporaries. Dtypes: int16, int32, int64, uint8, int8, bool.
 * @param[in,out] input Dtypes: int16, int32, int64, uint8, int8, bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiBitwiseNotInp(diopiContextHandle_t ctx, diopiTensorHandle_t input);

/**
 * @brief EqScalar operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: bool.
 * @param[in] input Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool.
 * @param[in] other Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiEqScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, const diopiScalar_t* other);

/**
 * @brief EqInpScalar operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool.
 * @param[in] other
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiEqInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input, const diopiScalar_t* other);

/**
 * @brief Eq operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: bool.
 * @param[in] input Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool.
 * @param[in] other Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiEq(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t other);

/**
 * @brief EqInp operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input
 * @param[in] other
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiEqInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, diopiConstTensorHandle_t other);

/**
 * @brief Equal operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: bool.
 * @param[in] input Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool.
 * @param[in] other Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiEqual(diopiContextHandle_t ctx, bool* out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t other);

/**
 * @brief NeScalar operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: bool.
 * @param[in] input Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool.
 * @param[in] other Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiNeScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, const diopiScalar_t* other);

/**
 * @brief NeInpScalar operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool.
 * @param[in] other Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiNeInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input, const diopiScalar_t* other);

/**
 * @brief Ne operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: bool.
 * @param[in] input Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool.
 * @param[in] other Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiNe(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t other);

/**
 * @brief NeInp operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool.
 * @param[in] other Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiNeInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, diopiConstTensorHandle_t other);

/**
 * @brief GeScalar operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: bool.
 * @param[in] input Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool.
 * @param[in] other Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiGeScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, const diopiScalar_t* other);

/**
 * @brief GeInpScalar operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool.
 * @param[in] other Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiGeInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input, const diopiScalar_t* other);

/**
 * @brief Ge operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: bool.
 * @param[in] input Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool.
 * @param[in] other Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiGe(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t other);

/**
 * @brief GeInp operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool.
 * @param[in] other Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiGeInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, diopiConstTensorHandle_t other);

/**
 * @brief GtScalar operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: bool.
 * @param[in] input Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool.
 * @param[in] other Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiGtScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, const diopiScalar_t* other);

/**
 * @brief GtInpScalar operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool.
 * @param[in] other Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiGtInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input, const diopiScalar_t* other);

/**
 * @brief Gt operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: bool.
 * @param[in] input Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool.
 * @param[in] other Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiGt(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t other);

/**
 * @brief GtInp operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool.
 * @param[in] other Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiGtInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, diopiConstTensorHandle_t other);

/**
 * @brief LeScalar operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: bool.
 * @param[in] input Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool.
 * @param[in] other Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiLeScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, const diopiScalar_t* other);

/**
 * @brief LeInpScalar operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool.
 * @param[in] other Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiLeInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input, const diopiScalar_t* other);

/**
 * @brief Le operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: bool.
 * @param[in] input Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool.
 * @param[in] other Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiLe(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t other);

/**
 * @brief LeInp operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool.
 * @param[in] other Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiLeInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, diopiConstTensorHandle_t other);

/**
 * @brief LtScalar operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out
 * @param[in] input Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool.
 * @param[in] other Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiLtScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, const diopiScalar_t* other);

/**
 * @brief LtInpScalar operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool.
 * @param[in] other Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiLtInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input, const diopiScalar_t* other);

/**
 * @brief Lt operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: bool.
 * @param[in] input Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool.
 * @param[in] other
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiLt(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t other);

/**
 * @brief LtInp operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool.
 * @param[in] other
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiLtInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, diopiConstTensorHandle_t other);

/* ========================================================================
 * Reductions and scans
 * ======================================================================== */

/**
 * @brief Mean operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float32, float64, float16.
 * @param[in] input Dtypes: float32, float64, float16.
 * @param[in] dim Dtypes: int32, int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiMean(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t dim);

/**
 * @brief Sum operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float32, float64, float16.
 * @param[in] input Dtypes: float32, float64, float16.
 * @param[in] dim Dtypes: int32, int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiSum(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t dim);

/**
 * @brief Std operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float32, float64, float16.
 * @param[in] input Dtypes: float32, float64, float16.
 * @param[in] dim Dtypes: int32, int64.
 * @param[in] correction
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiStd(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t dim,
                                const diopiScalar_t* correction);

/**
 * @brief Min operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] min Dtypes: float32, float64, float16, int16, int32, int64, uint8, int8, bool.
 * @param[out] min_indices Dtypes: int32, int64.
 * @param[in] input Dtypes: float32, float64, float16, int16, int32, int64, uint8, int8, bool.
 * @param[in] dim Dtypes: int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiMin(diopiContextHandle_t ctx, diopiTensorHandle_t min, diopiTensorHandle_t min_indices, diopiConstTensorHandle_t input,
                                int64_t dim);

/**
 * @brief MinAll operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] min Dtypes: float32, float64, float16, int16, int32, int64, uint8, int8, bool.
 * @param[in] input Dtypes: float32, float64, float16, int16, int32, int64, uint8, int8, bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiMinAll(diopiContextHandle_t ctx, diopiTensorHandle_t min, diopiConstTensorHandle_t input);

/**
 * @brief Max operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] max Dtypes: float32, float64, float16, int16, int32, int64, uint8, int8, bool.
 * @param[out] max_indices Dtypes: int32, int64.
 * @param[in] input Dtypes: float32, float64, float16, int16, int32, int64, uint8, int8, bool.
 * @param[in] dim Dtypes: int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiMax(diopiContextHandle_t ctx, diopiTensorHandle_t max, diopiTensorHandle_t max_indices, diopiConstTensorHandle_t input,
                                int64_t dim);

/**
 * @brief MaxAll operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] max Dtypes: float32, float64, float16, int16, int32, int64, uint8, int8, bool.
 * @param[in] input Dtypes: float32, float64, float16, int16, int32, int64, uint8, int8, bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiMaxAll(diopiContextHandle_t ctx, diopiTensorHandle_t max, diopiConstTensorHandle_t input);

/**
 * @brief Any operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: bool.
 * @param[in] input Dtypes: bool, float16, float32, float64, int16, int32, int64, uint8, int8.
 * @param[in] dim
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAny(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, const int64_t* dim);

/**
 * @brief All operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: bool.
 * @param[in] input Dtypes: bool, float16, float32, float64, int16, * int32, int64, uint8, int8.
 * @param[in] dim
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAll(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, const int64_t* dim);

/**
 * @brief Cumsum operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float32, float64, float16, int16, int32, int64, uint8, int8, bool.
 * @param[in] input Dtypes: float32, float64, float16, int16, int32, int64, uint8, int8, bool.
 * @param[in] dim Dtypes: int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiCumsum(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, int64_t dim);

/**
 * @brief CumsumBackward operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input Dtypes: float16, float32, float64.
 * @param[in] grad_output Dtypes: float16, float32, float64.
 * @param[in] dim Dtypes: int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiCumsumBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                           int64_t dim);

/**
 * @brief Argmax operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: int32, int64.
 * @param[in] input Dtypes: float32, float64, float16, int16, int32, int64, uint8, int8, bool.
 * @param[in] dim Dtypes: int32, int64.
 * @param[in] keepdim
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiArgmax(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, const int64_t* dim,
                                   bool keepdim);

/**
 * @brief Argmin operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: int32, int64.
 * @param[in] input Dtypes: float32, float64, float16, int16, int32, int64, uint8, int8, bool.
 * @param[in] dim Dtypes: int32, int64.
 * @param[in] keepdim
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiArgmin(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, const int64_t* dim,
                                   bool keepdim);

/**
 * @brief Norm operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float32, float64, float16.
 * @param[in] input Dtypes: float32, float64, float16.
 * @param[in] p
 * @param[in] dim
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiNorm(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, const diopiScalar_t* p,
                                 diopiSize_t dim);

/**
 * @brief NormBackward operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input Dtypes: float32, float64, float16.
 * @param[in] grad_output Dtypes: float32, float64, float16.
 * @param[in] self Dtypes: float32, float64, float16.
 * @param[in] norm Dtypes: float32, float64, float16.
 * @param[in] dim
 * @param[in] p
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiNormBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                         diopiConstTensorHandle_t self, diopiConstTensorHandle_t norm, diopiSize_t dim, const diopiScalar_t* p);

/**
 * @brief Prod operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out
 * @param[in] input
 * @param[in] dim
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiProd(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, const int64_t* dim);

/**
 * @brief Amax operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float64, float32, float16, int16, int32, int64, int8, uint8.
 * @param[in] self Dtypes: float64, float32, float16, int16, int32, int64, int8, uint8.
 * @param[in] dim
 * @param[in] keepdim Dtypes: bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAmax(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t self, diopiSize_t dim, bool keepdim);

/* ========================================================================
 * Softmax
 * ======================================================================== */

/**
 * @brief Softmax operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float32, float64.
 * @param[in] input Dtypes: float32, float64.
 * @param[in] dim Dtypes: int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiSoftmax(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, int64_t dim);

/**
 * @brief SoftmaxBackward operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input Dtypes: float32, float64.
 * @param[in] grad_output Dtypes: float32, float64.
 * @param[in] output Dtypes: float32, float64.
 * @param[in] dim Dtypes: int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiSoftmaxBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                            diopiConstTensorHandle_t output, int64_t dim);

/**
 * @brief LogSoftmax operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float32, float64.
 * @param[in] input Dtypes: float32, float64.
 * @param[in] dim Dtypes: int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiLogSoftmax(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, int64_t dim);

/**
 * @brief LogSoftmaxBackward operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input Dtypes: float32, float64.
 * @param[in] grad_output Dtypes: float32, float64.
 * @param[in] output Dtypes: float32, float64.
 * @param[in] dim Dtypes: int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiLogSoftmaxBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                               diopiConstTensorHandle_t output, int64_t dim);

/* ========================================================================
 * Indexing, gather and scatter
 * ======================================================================== */

/**
 * @brief Index operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: int32, int16, int64, uint8, int8, bool, float32, float64, float16.
 * @param[in] input Dtypes: int32, int16, int64, uint8, int8, bool, float32, float64, float16.
 * @param[in] indices Dtypes: int32, int64, uint8, bool.
 * @param[in] nums Dtypes: int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiIndex(diopiContextHandle_t ctx, diopiTensorHandle_t* out, diopiConstTensorHandle_t input,
                                  diopiConstTensorHandle_t* indices, int64_t nums);

/**
 * @brief IndexBackward operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input Dtypes: float32, float64, float16.
 * @param[in,out] zeros_like_input Dtypes: float32, float64, float16.
 * @param[in] indices Dtypes: int32, int64, uint8, bool.
 * @param[in] nums Dtypes: int64.
 * @param[in] grad_output Dtypes: float32, float64, float16.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiIndexBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiTensorHandle_t zeros_like_input,
                                          diopiConstTensorHandle_t* indices, int64_t nums, diopiConstTensorHandle_t grad_output);

/**
 * @brief IndexSelect operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: int32, int16, int64, uint8, int8, bool, float32, float64, float16.
 * @param[in] input Dtypes: int32, int16, int64, uint8, int8, bool, float32, float64, float16.
 * @param[in] dim Dtypes: int64.
 * @param[in] index Dtypes: int32, int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiIndexSelect(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, int64_t dim,
                                        diopiConstTensorHandle_t index);

/**
 * @brief IndexSelectBackward operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input Dtypes: float32, float64, float16.
 * @param[in] grad Dtypes: float32, float64, float16.
 * @param[in] input_sizes Dtypes: int32, int64.
 * @param[in] dim Dtypes: int64.
 * @param[in] index Dtypes: int32, int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiIndexSelectBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad,
                                                diopiSize_t input_sizes, int64_t dim, diopiConstTensorHandle_t index);

/**
 * @brief Select operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: int32, int16, int64, uint8, int8, bool, float32, float64, float16.
 * @param[in] input Dtypes: int32, int16, int64, uint8, int8, bool, float32, float64, float16.
 * @param[in] dim Dtypes: int64.
 * @param[in] index Dtypes: int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiSelect(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, int64_t dim, int64_t index);

/**
 * @brief SelectBackward operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input Dtypes: int32, int16, int64, uint8, int8, bool, float32, float64, float16.
 * @param[in] grad_output Dtypes: int32, int16, int64, uint8, int8, bool, float32, float64, float16.
 * @param[in] input_sizes Dtypes: int32, int16, int64, uint8, int8.
 * @param[in] dim Dtypes: int64.
 * @param[in] index Dtypes: int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiSelectBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                           diopiSize_t input_sizes, int64_t dim, int64_t index);

/**
 * @brief SelectScatter operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float32, float64, float16, int16, int32, int64, uint8, int8, bool.
 * @param[in] input Dtypes: float32, float64, float16, int16, int32, int64, uint8, int8, bool.
 * @param[in] src Dtypes: float32, float64, float16, int16, int32, int64, uint8, int8, bool.
 * @param[in] dim Dtypes: int64.
 * @param[in] index Dtypes: int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiSelectScatter(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                          diopiConstTensorHandle_t src, int64_t dim, int64_t index);

/**
 * @brief SliceScatter operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float32, float64, float16, int16, int32, int64, uint8, int8, bool.
 * @param[in] input Dtypes: float32, float64, float16, int16, int32, int64, uint8, int8, bool.
 * @param[in] src Dtypes: float32, float64, float16, int16, int32, int64, uint8, int8, bool.
 * @param[in] dim Dtypes: int64.
 * @param[in] start Dtypes: int64.
 * @param[in] end Dtypes: int64.
 * @param[in] step Dtypes: int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiSliceScatter(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                         diopiConstTensorHandle_t src, int64_t dim, int64_t start, int64_t end, int64_t step);

/**
 * @brief Slice operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] null_out
 * @param[in] input
 * @param[in] dim
 * @param[in] start
 * @param[in] end
 * @param[in] step
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiSlice(diopiContextHandle_t ctx, diopiTensorHandle_t null_out, diopiConstTensorHandle_t input, int64_t dim, int64_t start,
                                  int64_t end, int64_t step);

/**
 * @brief SliceBackward operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input
 * @param[in] grad_output
 * @param[in] input_sizes
 * @param[in] dim
 * @param[in] start
 * @param[in] end
 * @param[in] step
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiSliceBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                          diopiSize_t input_sizes, int64_t dim, int64_t start, int64_t end, int64_t step);

/**
 * @brief MaskedScatter operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float32, float64, float16, int16, int32, int64, uint8, int8, bool.
 * @param[in] input Dtypes: float32, float64, float16, int16, int32, int64, uint8, int8, bool.
 * @param[in] mask Dtypes: bool.
 * @param[in] source Dtypes: float32, float64, float16, int16, int32, int64, uint8, int8, bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiMaskedScatter(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                          diopiConstTensorHandle_t mask, diopiConstTensorHandle_t source);

/**
 * @brief Nonzero operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: int32, int64.
 * @param[in] input Dtypes: float32, float16, float64, int16, int32, int64, uint8, int8, bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiNonzero(diopiContextHandle_t ctx, diopiTensorHandle_t* out, diopiConstTensorHandle_t input);

/**
 * @brief EmbeddingRenorm_ operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] inout Dtypes: float32, float64.
 * @param[in] indices Dtypes: int32, int64.
 * @param[in] max_norm Dtypes: double.
 * @param[in] norm_type Dtypes: double.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiEmbeddingRenorm_(diopiContextHandle_t ctx, diopiTensorHandle_t inout, diopiConstTensorHandle_t indices, double max_norm,
                                             double norm_type);

/**
 * @brief Embedding operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float32, float64.
 * @param[in] weight Dtypes: float32, float64.
 * @param[in] indices Dtypes: int32, int64.
 * @param[in] padding_idx Dtypes: int64.
 * @param[in] scale_grad_byfreq Dtypes: bool.
 * @param[in] sparse Dtypes: bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiEmbedding(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t weight,
                                      diopiConstTensorHandle_t indices, int64_t padding_idx, bool scale_grad_byfreq, bool sparse);

/**
 * @brief EmbeddingBackward operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float32, float64.
 * @param[in] grad Dtypes: float32, float64.
 * @param[in] indices Dtypes: int32, int64.
 * @param[in] num_weights Dtypes: int64.
 * @param[in] padding_idx Dtypes: int64.
 * @param[in] scale_grad_byfreq Dtypes: bool.
 * @param[in] sparse Dtypes: bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiEmbeddingBackward(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t grad,
                                              diopiConstTensorHandle_t indices, int64_t num_weights, int64_t padding_idx, bool scale_grad_byfreq,
                                              bool sparse);

/**
 * @brief OneHot operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: int32, int64.
 * @param[in] input Dtypes: int32, int64.
 * @param[in] num_classes Dtypes: int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiOneHot(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, int64_t num_classes);

/**
 * @brief Where operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float16, float32, float64, int16, int32, int64, uint8, int8, bool.
 * @param[in] condition Dtypes: uint8, bool.
 * @param[in] input Dtypes: float16, float32, float64, int16, int32, int64, uint8, int8, bool.
 * @param[in] other Dtypes: float16, float32, float64, int16, int32, int64, uint8, int8, bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiWhere(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t condition,
                                  diopiConstTensorHandle_t input, diopiConstTensorHandle_t other);

/**
 * @brief MaskedFill operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float32, float64, float16.
 * @param[in] input Dtypes: float32, float64, float16.
 * @param[in] mask Dtypes: bool.
 * @param[in] value Dtypes: float32, float64, float16.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiMaskedFill(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                       diopiConstTensorHandle_t mask, diopiConstTensorHandle_t value);

/**
 * @brief MaskedFillInp operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input Dtypes: float32, float64, float16.
 * @param[in] mask Dtypes: bool.
 * @param[in] value Dtypes: float32, float64, float16.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiMaskedFillInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, diopiConstTensorHandle_t mask,
                                          diopiConstTensorHandle_t value);

/**
 * @brief MaskedFillScalar operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float32, float64, float16.
 * @param[in] input Dtypes: float32, float64, float16.
 * @param[in] mask Dtypes: bool.
 * @param[in] value Dtypes: float32, float64, float16.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiMaskedFillScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                             diopiConstTensorHandle_t mask, const diopiScalar_t* value);

/**
 * @brief MaskedFillInpScalar operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input
 * @param[in] mask Dtypes: bool.
 * @param[in] value Dtypes: float32, float64, float16.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiMaskedFillInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input, diopiConstTensorHandle_t mask,
                                                const diopiScalar_t* value);

/**
 * @brief MaskedSelect operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out
 * @param[in] input
 * @param[in] mask
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiMaskedSelect(diopiContextHandle_t ctx, diopiTensorHandle_t* out, diopiConstTensorHandle_t input,
                                         diopiConstTensorHandle_t mask);

/**
 * @brief MaskedSelectBackward operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input
 * @param[in] grad_output
 * @param[in] input
 * @param[in] mask
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiMaskedSelectBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                                 diopiConstTensorHandle_t input, diopiConstTensorHandle_t mask);

/**
 * @brief IndexFillScalar operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out
 * @param[in] input
 * @param[in] dim
 * @param[in] index
 * @param[in] value
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiIndexFillScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, int64_t dim,
                                            diopiConstTensorHandle_t index, const diopiScalar_t* value);

/**
 * @brief IndexFill operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out
 * @param[in] input
 * @param[in] dim
 * @param[in] index
 * @param[in] value
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiIndexFill(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, int64_t dim,
                                      diopiConstTensorHandle_t index, diopiConstTensorHandle_t value);

/**
 * @brief IndexFillInpScalar operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] input
 * @param[in] dim
 * @param[in] index
 * @param[in] value
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiIndexFillInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input, int64_t dim, diopiConstTensorHandle_t index,
                                               const diopiScalar_t* value);

/**
 * @brief IndexFillInp operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] input
 * @param[in] dim
 * @param[in] index
 * @param[in] value
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiIndexFillInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, int64_t dim, diopiConstTensorHandle_t index,
                                         diopiConstTensorHandle_t value);

/**
 * @brief Gather operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float32, float64, float16, int16, int32, int64, uint8, int8, bool.
 * @param[in] input Dtypes: float32, float64, float16, int16, int32, int64, uint8, int8, bool.
 * @param[in] dim Dtypes: int64.
 * @param[in] index Dtypes: int32, int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiGather(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, int64_t dim,
                                   diopiConstTensorHandle_t index);

/**
 * @brief GatherBackward operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input Dtypes: float32, float64, float16, int16, int32, int64, uint8, int8, bool.
 * @param[in] grad_output Dtypes: float32, float64, float16, int16, int32, int64, uint8, int8, bool.
 * @param[in] input Dtypes: float32, float64, float16, int16, int32, int64, uint8, int8, bool.
 * @param[in] dim Dtypes: int64.
 * @param[in] index Dtypes: int32, int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiGatherBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                           diopiConstTensorHandle_t input, int64_t dim, diopiConstTensorHandle_t index);

/**
 * @brief ScatterInp operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input Dtypes: float32, float64, float16, int16, int32, int64, uint8, int8, bool.
 * @param[in] dim
 * @param[in] src
 * @param[in] index
 * @param[in] reduce
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiScatterInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, int64_t dim, diopiConstTensorHandle_t src,
                                       diopiConstTensorHandle_t index, const char* reduce);

/**
 * @brief ScatterInpScalar operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input Dtypes: float32, float64, float16, int16, int32, int64, uint8, int8, bool.
 * @param[in] dim
 * @param[in] value
 * @param[in] index
 * @param[in] reduce
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiScatterInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input, int64_t dim, const diopiScalar_t* value,
                                             diopiConstTensorHandle_t index, const char* reduce);

/**
 * @brief Scatter operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float32, float64, float16, int16, int32, int64, uint8, int8, bool.
 * @param[in] input Dtypes: float32, float64, float16, int16, int32, int64, uint8, int8, bool.
 * @param[in] dim Dtypes: int64.
 * @param[in] src Dtypes: float32, float64, float16, int16, int32, int64, uint8, int8, bool.
 * @param[in] index Dtypes: int32, int64.
 * @param[in] reduce Dtypes: string.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiScatter(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, int64_t dim,
                                    diopiConstTensorHandle_t src, diopiConstTensorHandle_t index, const char* reduce);

/**
 * @brief ScatterScalar operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out
 * @param[in] input
 * @param[in] dim
 * @param[in] value Dtypes: float32, float64, float16, int16, int32, int64, uint8, int8, bool.
 * @param[in] index
 * @param[in] reduce
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiScatterScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, int64_t dim,
                                          const diopiScalar_t* value, diopiConstTensorHandle_t index, const char* reduce);

/**
 * @brief IndexPutInp operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input Dtypes: float32, float64, float16, int16, int32, int64, uint8, int8, bool.
 * @param[in] values Dtypes: float32, float64, float16, int16, int32, int64, uint8, int8, bool.
 * @param[in] indices Dtypes: int32, int64.
 * @param[in] indices_counts Dtypes: int64.
 * @param[in] accumulate
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiIndexPutInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, diopiConstTensorHandle_t values,
                                        diopiConstTensorHandle_t* indices, int64_t indices_counts, bool accumulate);

/**
 * @brief IndexPut operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float32, float64, float16, int16, int32, int64, uint8, int8, bool.
 * @param[in] input Dtypes: float32, float64, float16, int16, int32, int64, uint8, int8, bool.
 * @param[in] values Dtypes: float32, float64, float16, int16, int32, int64, uint8, int8, bool.
 * @param[in] indices Dtypes: int32, int64.
 * @param[in] indices_counts Dtypes: int64.
 * @param[in] accumulate
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiIndexPut(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                     diopiConstTensorHandle_t values, diopiConstTensorHandle_t* indices, int64_t indices_counts, bool accumulate);

/* ========================================================================
 * Vision and interpolation
 * ======================================================================== */

/**
 * @brief Nms operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float16, float32, float64.
 * @param[in] boxes Dtypes: float16, float32, float64.
 * @param[in] confidence Dtypes: float16, float32, float64.
 * @param[in] iou_threshold Dtypes: double.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiNms(diopiContextHandle_t ctx, diopiTensorHandle_t* out, diopiConstTensorHandle_t boxes,
                                diopiConstTensorHandle_t confidence, double iou_threshold);

/**
 * @brief RoiAlign operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float16, float32, float64.
 * @param[in] input Dtypes: float16, float32, float64.
 * @param[in] rois Dtypes: float16, float32, float64.
 * @param[in] spatial_scale Dtypes: double.
 * @param[in] pooled_height Dtypes: int64.
 * @param[in] pooled_width Dtypes: int64.
 * @param[in] sampling_ratio Dtypes: int64.
 * @param[in] aligned Dtypes: bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiRoiAlign(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                     diopiConstTensorHandle_t rois, double spatial_scale, int64_t pooled_height, int64_t pooled_width,
                                     int64_t sampling_ratio, bool aligned);

/**
 * @brief RoiAlignBackward operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float16, float32, float64.
 * @param[in] grad Dtypes: float16, float32, float64.
 * @param[in] rois Dtypes: float16, float32, float64.
 * @param[in] spatial_scale Dtypes: double.
 * @param[in] pooled_height Dtypes: int64.
 * @param[in] pooled_width Dtypes: int64.
 * @param[in] batch_size Dtypes: int64.
 * @param[in] channels Dtypes: int64.
 * @param[in] height Dtypes: int64.
 * @param[in] width Dtypes: int64.
 * @param[in] sampling_ratio Dtypes: int64.
 * @param[in] aligned Dtypes: bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiRoiAlignBackward(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t grad,
                                             diopiConstTensorHandle_t rois, double spatial_scale, int64_t pooled_height, int64_t pooled_width,
                                             int64_t batch_size, int64_t channels, int64_t height, int64_t width, int64_t sampling_ratio,
                                             bool aligned);

/**
 * @brief GridSample operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out
 * @param[in] input
 * @param[in] grid
 * @param[in] mode
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiGridSample(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                       diopiConstTensorHandle_t grid, const char* mode);

/**
 * @brief UpsampleNearest operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out
 * @param[in] input
 * @param[in] size
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiUpsampleNearest(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t size);

/**
 * @brief UpsampleNearestBackward operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input
 * @param[in] grad_output
 * @param[in] out_size
 * @param[in] in_size
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiUpsampleNearestBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                                    diopiSize_t out_size, diopiSize_t in_size);

/**
 * @brief UpsampleLinear operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out
 * @param[in] input
 * @param[in] size
 * @param[in] align_corners
 * @param[in] mode Dtypes: char *.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiUpsampleLinear(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t size,
                                           bool align_corners, const char* mode);

/**
 * @brief UpsampleLinearBackward operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input
 * @param[in] grad_output
 * @param[in] out_size
 * @param[in] in_size
 * @param[in] align_corners
 * @param[in] mode Dtypes: char *.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiUpsampleLinearBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                                   diopiSize_t out_size, diopiSize_t in_size, bool align_corners, const char* mode);

/* ========================================================================
 * Optimizers and mixed precision
 * ======================================================================== */

/**
 * @brief Sgd operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] param Dtypes: float32, float64.
 * @param[in,out] grad Dtypes: float32, float64.
 * @param[in,out] buf Dtypes: float32, float64.
 * @param[in] lr Dtypes: float32, float64.
 * @param[in] momentum Dtypes: float32, float64.
 * @param[in] dampening Dtypes: float32, float64.
 * @param[in] weight_decay Dtypes: float32, float64.
 * @param[in] nesterov
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiSgd(diopiContextHandle_t ctx, diopiTensorHandle_t param, diopiTensorHandle_t grad, diopiTensorHandle_t buf, double lr,
                                double momentum, double dampening, double weight_decay, bool nesterov);

/**
 * @brief ClipGradNorm operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float32, float64.
 * @param[in,out] grads Dtypes: float32, float64.
 * @param[in] num_grads Dtypes: int64.
 * @param[in] max_norm Dtypes: float32, float64.
 * @param[in] norm_type Dtypes: float32, float64.
 * @param[in] error_if_nonfinite
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiClipGradNorm(diopiContextHandle_t ctx, double* out, diopiTensorHandle_t* grads, int64_t num_grads, double max_norm,
                                         double norm_type, bool error_if_nonfinite);

/**
 * @brief FusedAdamW operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] params Dtypes: float16, float32, float64.
 * @param[in] grads Dtypes: float16, float32, float64.
 * @param[in,out] exp_avgs Dtypes: float16, float32, float64.
 * @param[in,out] exp_avg_sqs Dtypes: float16, float32, float64.
 * @param[in,out] max_exp_avg_sqs Dtypes: float16, float32, float64.
 * @param[in] state_steps Dtypes: int64.
 * @param[in] nums
 * @param[in] lr
 * @param[in] beta1
 * @param[in] beta2
 * @param[in] eps
 * @param[in] weight_decay
 * @param[in] amsgrad
 * @param[in] maximize
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiFusedAdamW(diopiContextHandle_t ctx, diopiTensorHandle_t* params, diopiConstTensorHandle_t* grads,
                                       diopiTensorHandle_t* exp_avgs, diopiTensorHandle_t* exp_avg_sqs, diopiTensorHandle_t* max_exp_avg_sqs,
                                       diopiConstTensorHandle_t* state_steps, int64_t nums, double lr, double beta1, double beta2, double eps,
                                       double weight_decay, bool amsgrad, bool maximize);

/**
 * @brief AdamW operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] param Dtypes: float16, float32, float64.
 * @param[in] grad Dtypes: float16, float32, float64.
 * @param[in,out] exp_avg Dtypes: float16, * float32, float64.
 * @param[in,out] exp_avg_sq Dtypes: float16, float32, float64.
 * @param[in,out] max_exp_avg_sq Dtypes: float16, float32, float64.
 * @param[in] lr
 * @param[in] beta1
 * @param[in] beta2
 * @param[in] eps
 * @param[in] weight_decay
 * @param[in] step Dtypes: int64.
 * @param[in] amsgrad
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAdamW(diopiContextHandle_t ctx, diopiTensorHandle_t param, diopiConstTensorHandle_t grad, diopiTensorHandle_t exp_avg,
                                  diopiTensorHandle_t exp_avg_sq, diopiTensorHandle_t max_exp_avg_sq, float lr, float beta1, float beta2, float eps,
                                  float weight_decay, int64_t step, bool amsgrad);

/**
 * @brief Adadelta operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] param Dtypes: float16, float32, float64.
 * @param[in] grad Dtypes: float16, float32, float64.
 * @param[in,out] square_avg Dtypes: float16, float32, float64.
 * @param[in,out] acc_delta Dtypes: float16, float32, float64.
 * @param[in] lr Dtypes: float32.
 * @param[in] rho Dtypes: float32.
 * @param[in] eps Dtypes: float32.
 * @param[in] weight_decay Dtypes: float32.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAdadelta(diopiContextHandle_t ctx, diopiTensorHandle_t param, diopiConstTensorHandle_t grad,
                                     diopiTensorHandle_t square_avg, diopiTensorHandle_t acc_delta, float lr, float rho, float eps,
                                     float weight_decay);

/**
 * @brief Adam operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] param Dtypes: float16, float32, float64.
 * @param[in] grad Dtypes: float16, float32, float64.
 * @param[in,out] exp_avg Dtypes: float16, float32, * float64.
 * @param[in,out] exp_avg_sq Dtypes: float16, float32, float64.
 * @param[in,out] max_exp_avg_sq Dtypes: float16, float32, float64.
 * @param[in] lr Dtypes: float32.
 * @param[in] beta1 Dtypes: float32.
 * @param[in] beta2 Dtypes: float32.
 * @param[in] eps Dtypes: float32.
 * @param[in] weight_decay Dtypes: float32.
 * @param[in] step Dtypes: int64.
 * @param[in] amsgrad Dtypes: bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAdam(diopiContextHandle_t ctx, diopiTensorHandle_t param, diopiConstTensorHandle_t grad, diopiTensorHandle_t exp_avg,
                                 diopiTensorHandle_t exp_avg_sq, diopiTensorHandle_t max_exp_avg_sq, float lr, float beta1, float beta2, float eps,
                                 float weight_decay, int64_t step, bool amsgrad);

/**
 * @brief Rmsprop operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] param Dtypes: float16, float32, float64.
 * @param[in] grad Dtypes: float16, float32, float64.
 * @param[in,out] square_avg Dtypes: float16, float32, float64.
 * @param[in,out] grad_avg Dtypes: float16, float32, float64.
 * @param[in,out] momentum_buf Dtypes: float16, float32, float64.
 * @param[in] lr Dtypes: float32.
 * @param[in] alpha Dtypes: float32.
 * @param[in] eps Dtypes: float32.
 * @param[in] weight_decay Dtypes: float32.
 * @param[in] momentum Dtypes: float32.
 * @param[in] centered Dtypes: bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiRmsprop(diopiContextHandle_t ctx, diopiTensorHandle_t param, diopiConstTensorHandle_t grad,
                                    diopiTensorHandle_t square_avg, diopiTensorHandle_t grad_avg, diopiTensorHandle_t momentum_buf, float lr,
                                    float alpha, float eps, float weight_decay, float momentum, bool centered);

/**
 * @brief AmpForeachNonFiniteCheckAndUnscaleInp operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] scaled_grads
 * @param[in] num_scaled_grads
 * @param[out] found_inf
 * @param[in] inv_scale
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAmpForeachNonFiniteCheckAndUnscaleInp(diopiContextHandle_t ctx, diopiTensorHandle_t* scaled_grads,
                                                                  int64_t num_scaled_grads, diopiTensorHandle_t found_inf,
                                                                  diopiConstTensorHandle_t inv_scale);

/**
 * @brief AmpUpdateScaleInp operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] current_scale
 * @param[out] growth_tracker
 * @param[in] found_inf
 * @param[in] scale_growth_factor
 * @param[in] scale_backoff_factor
 * @param[in] growth_interval
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAmpUpdateScaleInp(diopiContextHandle_t ctx, diopiTensorHandle_t current_scale, diopiTensorHandle_t growth_tracker,
                                              diopiConstTensorHandle_t found_inf, double scale_growth_factor, double scale_backoff_factor,
                                              int32_t growth_interval);

/* ========================================================================
 * Shape manipulation
 * ======================================================================== */

/**
 * @brief Tril operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float32, float64, float16, int16, int32, int64, uint8, int8, bool.
 * @param[in] input Dtypes: float32, float64, float16, int16, int32, int64, uint8, int8, bool.
 * @param[in] diagonal Dtypes: int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiTril(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, int64_t diagonal);

/**
 * @brief Cat operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float32, float16, float64, int16, int64, uint8, int8, bool, int32.
 * @param[in] tensors Dtypes: float32, float16, float64, int16, int64, uint8, int8, bool, int32.
 * @param[in] num_inputs Dtypes: int64.
 * @param[in] dim Dtypes: int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiCat(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t* tensors, int64_t num_inputs,
                                int64_t dim);

/**
 * @brief SplitWithSizes operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] outs
 * @param[in] num_outs Dtypes: int64.
 * @param[in] input Dtypes: float32, float16, float64, int16, int64, uint8, int8, bool, int32.
 * @param[in] splitSizes Dtypes: int32, int64.
 * @param[in] dim Dtypes: int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiSplitWithSizes(diopiContextHandle_t ctx, diopiTensorHandle_t* outs, int64_t num_outs, diopiConstTensorHandle_t input,
                                           const diopiSize_t splitSizes, int64_t dim);

/**
 * @brief Stack operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float32, float16, float64, int16, int64, uint8, int8, bool, int32.
 * @param[in] tensors Dtypes: float32, float16, float64, int16, int64, uint8, int8, bool, int32.
 * @param[in] numTensors Dtypes: int64.
 * @param[in] dim Dtypes: int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiStack(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t* tensors, int64_t numTensors,
                                  int64_t dim);

/**
 * @brief Transpose operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float16, float32, float64, int16, int64, uint8, int8, bool, int32.
 * @param[in] input Dtypes: float16, float32, float64, int16, * int64, uint8, int8, bool, int32.
 * @param[in] dim0 Dtypes: int32, int64.
 * @param[in] dim1 Dtypes: int32, int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiTranspose(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, int64_t dim0, int64_t dim1);

/**
 * @brief Unfold operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float16, float32, float64.
 * @param[in] input Dtypes: float32, float64, float16.
 * @param[in] dim Dtypes: int64.
 * @param[in] size Dtypes: int64.
 * @param[in] step Dtypes: int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiUnfold(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, int64_t dim, int64_t size,
                                   int64_t step);

/**
 * @brief UnfoldBackward operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input Dtypes: float16, float32, float64.
 * @param[in] grad_output Dtypes: float16, float32, float64.
 * @param[in] input_sizes
 * @param[in] dim Dtypes: int64.
 * @param[in] size Dtypes: int64.
 * @param[in] step Dtypes: int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiUnfoldBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                           diopiSize_t input_sizes, int64_t dim, int64_t size, int64_t step);

/**
 * @brief Expand operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float32, float64, float16, int16, int32, int64, uint8, int8, bool.
 * @param[in] input Dtypes: float32, float64, float16, int16, int32, int64, uint8, int8, bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiExpand(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input);

/**
 * @brief Permute operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float32, float64, float16, int16, int32, int64, uint8, int8, bool.
 * @param[in] input Dtypes: float32, float64, float16, int16, int32, int64, uint8, int8, bool.
 * @param[in] dims Dtypes: int32, int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiPermute(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t dims);

/**
 * @brief Pad operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float32, float64, float16.
 * @param[in] input Dtypes: float32, float64, float16.
 * @param[in] pad
 * @param[in] mode
 * @param[in] value
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiPad(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t pad, const char* mode,
                                const double* value);

/**
 * @brief Roll operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out
 * @param[in] input Dtypes: float32, float64, float16, bool, int64, int32, int16, int8, uint8, bool.
 * @param[in] shifts
 * @param[in] dims
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiRoll(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t shifts,
                                 diopiSize_t dims);

/**
 * @brief Flip operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out
 * @param[in] input
 * @param[in] dims
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiFlip(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t dims);

/**
 * @brief Repeat operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: float32, float64.
 * @param[in] input Dtypes: float32, float64.
 * @param[in] repeats_size Dtypes: int32, int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiRepeat(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t repeats_size);

/**
 * @brief Triu operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out
 * @param[in] input
 * @param[in] diagonal
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiTriu(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, int64_t diagonal);

/**
 * @brief TriuInp operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input
 * @param[in] diagonal
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiTriuInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, int64_t diagonal);

/* ========================================================================
 * Sort, select and unique
 * ======================================================================== */

/**
 * @brief Sort operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] values Dtypes: float16, float32, float64, int16, int32, int64, uint8, int8.
 * @param[out] indices Dtypes: int32, int64.
 * @param[in] input Dtypes: float16, float32, float64, int16, int32, int64, uint8, int8.
 * @param[in] dim Dtypes: int64.
 * @param[in] descending
 * @param[in] pStable
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiSort(diopiContextHandle_t ctx, diopiTensorHandle_t values, diopiTensorHandle_t indices, diopiConstTensorHandle_t input,
                                 int64_t dim, bool descending, const bool* pStable);

/**
 * @brief SortBackward operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input
 * @param[in] grad_output
 * @param[in] dim
 * @param[in] indices
 * @param[in] sizes
 * @param[in] keepdim
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiSortBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output, int64_t dim,
                                         diopiConstTensorHandle_t indices, diopiSize_t sizes, bool keepdim);

/**
 * @brief Topk operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] values Dtypes: float16, float32, float64, int16, int32, int64, uint8, int8.
 * @param[out] indices Dtypes: int32, int64.
 * @param[in] input Dtypes: float16, float32, float64, int16, int32, int64, uint8, int8.
 * @param[in] k Dtypes: int64.
 * @param[in] dim Dtypes: int64.
 * @param[in] largest
 * @param[in] sorted
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiTopk(diopiContextHandle_t ctx, diopiTensorHandle_t values, diopiTensorHandle_t indices, diopiConstTensorHandle_t input,
                                 int64_t k, int64_t dim, bool largest, bool sorted);

/**
 * @brief Argsort operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: int32, int64.
 * @param[in] input Dtypes: float32, float64, float16, int16, int32, int64, uint8, int8, bool.
 * @param[in] stable
 * @param[in] dim Dtypes: int32, int64.
 * @param[in] descending
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiArgsort(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, bool stable,
                                    const int64_t* dim, bool descending);

/**
 * @brief Unique operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out Dtypes: int64, float32, float64, float16, int16, int32, uint8, int8, bool.
 * @param[in] input Dtypes: int64, float32, float64, float16, int16, int32, uint8, int8, bool.
 * @param[in] dim
 * @param[in] sorted
 * @param[in] return_counts
 * @param[out] indices Dtypes: int32, int64.
 * @param[out] counts Dtypes: int32, int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiUnique(diopiContextHandle_t ctx, diopiTensorHandle_t* out, diopiConstTensorHandle_t input, const int64_t* dim,
                                   bool sorted, bool return_counts, diopiTensorHandle_t indices, diopiTensorHandle_t* counts);

/* ========================================================================
 * Copy, cast and memory
 * ======================================================================== */

/**
 * @brief CopyInp operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in] src Dtypes: float32, float64, float16, bool, int64, int32, int16, int8, uint8.
 * @param[out] dest Dtypes: float32, float64, float16, bool, int64, int32, int16, int8, uint8.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiCopyInp(diopiContextHandle_t ctx, diopiConstTensorHandle_t src, diopiTensorHandle_t dest);

/**
 * @brief CastDtype operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out
 * @param[in] input
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiCastDtype(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input);

/**
 * @brief Contiguous operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out
 * @param[in] input
 * @param[in] memoryFormat
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiContiguous(diopiContextHandle_t ctx, diopiTensorHandle_t* out, diopiConstTensorHandle_t input,
                                       diopiMemoryFormat_t memoryFormat);

/**
 * @brief NativeMemoryFormatCast operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out
 * @param[in,out] in
 * @param[in] format
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiNativeMemoryFormatCast(diopiContextHandle_t ctx, diopiTensorHandle_t* out, diopiTensorHandle_t in, int64_t format);

/**
 * @brief GetNativeMemoryFormat operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in] input
 * @param[out] format
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiGetNativeMemoryFormat(diopiContextHandle_t ctx, diopiConstTensorHandle_t input, int64_t* format);

/**
 * @brief TensorDestructionHook operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in] ptr
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiTensorDestructionHook(diopiContextHandle_t ctx, void* ptr);

/* ========================================================================
 * Complex numbers
 * ======================================================================== */

/**
 * @brief Polar operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out
 * @param[in] abs
 * @param[in] angle
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiPolar(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t abs, diopiConstTensorHandle_t angle);

/**
 * @brief Complex operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out
 * @param[in] real
 * @param[in] imag
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiComplex(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t real, diopiConstTensorHandle_t imag);

/**
 * @brief Conj operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] out
 * @param[in] input
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiConj(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input);

/**
 * @brief Imag operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] out
 * @param[in] input
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiImag(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input);

/**
 * @brief Real operator.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] out
 * @param[in] input
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiReal(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input);

/* ========================================================================
 * Library information
 * ======================================================================== */

/**
 * @brief GetVendorName operator.
 * @return the vendor name, a static NUL-terminated string.
 */
DIOPI_API const char* diopiGetVendorName(void);

/**
 * @brief GetImplVersion operator.
 * @return the library version, a static NUL-terminated string.
 */
DIOPI_API const char* diopiGetImplVersion(void);

/**
 * @brief GetLastErrorString operator.
 * @return the message of the last failed call on this thread ("" if none).
 */
DIOPI_API const char* diopiGetLastErrorString(void);

#if defined(__cplusplus)
}
#endif

#endif /* DIOPI_FUNCTIONS_H_ */
