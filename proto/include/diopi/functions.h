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
 * Family: convolution (convolution)
 * ======================================================================== */

/**
 * @brief Applies a 2-D cross-correlation of `input` with `weight`, plus an optional per-channel bias. Same semantics
 *        as torch.nn.functional.conv2d.
 *
 * Output spatial size is floor((in + 2*padding - dilation*(k-1) - 1) / stride) + 1 for each dimension.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result of shape (N, C_out, spatial...), spatial extents given by the usual convolution size formula.
 *     Dtypes: float32, float16, float64, bfloat16.
 * @param[in] input input batch of shape (N, C_in, H, W). Dtypes: float32, float16, float64, bfloat16.
 * @param[in] weight filters of shape (C_out, C_in / groups, kernel sizes...). Dtypes: float32, float16, float64,
 *     bfloat16.
 * @param[in] bias bias of shape (C_out); may be NULL for no bias. Dtypes: float32, float16, float64, bfloat16.
 * @param[in] stride step of the sliding window per spatial dimension. Dtypes: int32, int64.
 * @param[in] padding implicit zero padding added on both sides per spatial dimension. Dtypes: int32, int64.
 * @param[in] dilation spacing between kernel taps per spatial dimension. Dtypes: int32, int64.
 * @param[in] groups number of channel groups; C_in and C_out must both be divisible by it. Dtypes: int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiConvolution2d(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                          diopiConstTensorHandle_t weight, diopiConstTensorHandle_t bias, diopiSize_t stride, diopiSize_t padding,
                                          diopiSize_t dilation, int64_t groups);

/**
 * @brief Backward of diopiConvolution2d: from the output gradient, writes the gradients of the 2-D convolution with
 *        respect to input, weight and (optionally) bias.
 *
 * grad_bias equals grad_output summed over the batch and all spatial positions.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input gradient for input; same shape as input. Dtypes: float32, float16, float64, bfloat16.
 * @param[out] grad_weight gradient for weight; same shape as weight. Dtypes: float32, float16, float64, bfloat16.
 * @param[out] grad_bias gradient for bias, shape (C_out); may be NULL when the forward had no bias. Dtypes: float32,
 *     float16, float64, bfloat16.
 * @param[in] grad_output gradient of the loss with respect to the convolution output. Dtypes: float32, float16,
 *     float64, bfloat16.
 * @param[in] input input tensor that was fed to the forward convolution. Dtypes: float32, float16, float64, bfloat16.
 * @param[in] weight filter tensor that was used in the forward convolution. Dtypes: float16, bfloat16, float32,
 *     float64.
 * @param[in] bias_sizes pointer to the bias shape (C_out); NULL means no bias gradient is computed. Dtypes: int32,
 *     int64.
 * @param[in] stride stride per spatial dimension, as in the forward call. Dtypes: int32, int64.
 * @param[in] padding zero padding per spatial dimension, as in the forward call. Dtypes: int32, int64.
 * @param[in] dilation kernel dilation per spatial dimension, as in the forward call. Dtypes: int32, int64.
 * @param[in] groups number of channel groups, as in the forward call. Dtypes: int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiConvolution2dBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiTensorHandle_t grad_weight,
                                                  diopiTensorHandle_t grad_bias, diopiConstTensorHandle_t grad_output,
                                                  diopiConstTensorHandle_t input, diopiConstTensorHandle_t weight, diopiSize_t* bias_sizes,
                                                  diopiSize_t stride, diopiSize_t padding, diopiSize_t dilation, int64_t groups);

/**
 * @brief Applies a 2-D transposed convolution (the adjoint of a strided convolution, sometimes called deconvolution)
 *        with an optional bias. Same semantics as torch.nn.functional.conv_transpose2d.
 *
 * Output size per dimension is (in-1)*stride - 2*padding + dilation*(k-1) + output_padding + 1; output_padding must
 * be smaller than stride or dilation.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result of shape (N, C_out, spatial...), spatial extents from the transposed-convolution size formula.
 *     Dtypes: float32, float16, float64, bfloat16.
 * @param[in] input input batch of shape (N, C_in, spatial...). Dtypes: float32, float16, float64, bfloat16.
 * @param[in] weight filters of shape (C_in, C_out / groups, kernel sizes...). Dtypes: float32, float16, float64,
 *     bfloat16.
 * @param[in] bias bias of shape (C_out); may be NULL for no bias. Dtypes: float32, float16, float64, bfloat16.
 * @param[in] stride upsampling stride per spatial dimension. Dtypes: int32, int64.
 * @param[in] padding amount removed from each side of every spatial dimension of the full result. Dtypes: int32,
 *     int64.
 * @param[in] output_padding extra size appended to one side of each spatial dimension of the output. Dtypes: int32,
 *     int64.
 * @param[in] groups number of channel groups; C_in must be divisible by it. Dtypes: int64.
 * @param[in] dilation spacing between kernel taps per spatial dimension. Dtypes: int32, int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiConvTranspose2d(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                            diopiConstTensorHandle_t weight, diopiConstTensorHandle_t bias, diopiSize_t stride, diopiSize_t padding,
                                            diopiSize_t output_padding, int64_t groups, diopiSize_t dilation);

/**
 * @brief Backward of diopiConvTranspose2d: writes the gradients of the 2-D transposed convolution with respect to
 *        input, weight and (optionally) bias.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input gradient for input; same shape as input. Dtypes: float32, float16, float64, bfloat16.
 * @param[out] grad_weight gradient for weight; same shape as weight. Dtypes: float32, float16, float64, bfloat16.
 * @param[out] grad_bias gradient for bias, shape (C_out); may be NULL when the forward had no bias. Dtypes: float32,
 *     float16, float64, bfloat16.
 * @param[in] grad_output gradient of the loss with respect to the transposed-convolution output. Dtypes: float32,
 *     float16, float64, bfloat16.
 * @param[in] input input tensor that was fed to the forward call. Dtypes: float32, float16, float64, bfloat16.
 * @param[in] weight filter tensor of shape (C_in, C_out / groups, kernel sizes...) from the forward call. Dtypes:
 *     float16, bfloat16, float32, float64.
 * @param[in] bias_sizes pointer to the bias shape (C_out); NULL means no bias gradient is computed. Dtypes: int32,
 *     int64.
 * @param[in] stride stride per spatial dimension, as in the forward call. Dtypes: int32, int64.
 * @param[in] padding padding per spatial dimension, as in the forward call. Dtypes: int32, int64.
 * @param[in] dilation kernel dilation per spatial dimension, as in the forward call. Dtypes: int32, int64.
 * @param[in] output_padding extra output size per spatial dimension, as in the forward call. Dtypes: int32, int64.
 * @param[in] groups number of channel groups, as in the forward call. Dtypes: int64.
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
 * @brief Applies a 3-D transposed convolution (the adjoint of a strided convolution, sometimes called deconvolution)
 *        with an optional bias. Same semantics as torch.nn.functional.conv_transpose3d.
 *
 * Output size per dimension is (in-1)*stride - 2*padding + dilation*(k-1) + output_padding + 1; output_padding must
 * be smaller than stride or dilation.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result of shape (N, C_out, spatial...), spatial extents from the transposed-convolution size formula.
 *     Dtypes: float32, float16, float64, bfloat16.
 * @param[in] input input batch of shape (N, C_in, spatial...). Dtypes: float32, float16, float64, bfloat16.
 * @param[in] weight filters of shape (C_in, C_out / groups, kernel sizes...). Dtypes: float32, float16, float64,
 *     bfloat16.
 * @param[in] bias bias of shape (C_out); may be NULL for no bias. Dtypes: float32, float16, float64, bfloat16.
 * @param[in] stride upsampling stride per spatial dimension. Dtypes: int32, int64.
 * @param[in] padding amount removed from each side of every spatial dimension of the full result. Dtypes: int32,
 *     int64.
 * @param[in] output_padding extra size appended to one side of each spatial dimension of the output. Dtypes: int32,
 *     int64.
 * @param[in] groups number of channel groups; C_in must be divisible by it. Dtypes: int64.
 * @param[in] dilation spacing between kernel taps per spatial dimension. Dtypes: int32, int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiConvTranspose3d(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                            diopiConstTensorHandle_t weight, diopiConstTensorHandle_t bias, diopiSize_t stride, diopiSize_t padding,
                                            diopiSize_t output_padding, int64_t groups, diopiSize_t dilation);

/**
 * @brief Backward of diopiConvTranspose3d: writes the gradients of the 3-D transposed convolution with respect to
 *        input, weight and (optionally) bias.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input gradient for input; same shape as input. Dtypes: float32, float16, float64, bfloat16.
 * @param[out] grad_weight gradient for weight; same shape as weight. Dtypes: float32, float16, float64, bfloat16.
 * @param[out] grad_bias gradient for bias, shape (C_out); may be NULL when the forward had no bias. Dtypes: float32,
 *     float16, float64, bfloat16.
 * @param[in] grad_output gradient of the loss with respect to the transposed-convolution output. Dtypes: float32,
 *     float16, float64, bfloat16.
 * @param[in] input input tensor that was fed to the forward call. Dtypes: float32, float16, float64, bfloat16.
 * @param[in] weight filter tensor of shape (C_in, C_out / groups, kernel sizes...) from the forward call. Dtypes:
 *     float16, bfloat16, float32, float64.
 * @param[in] bias_sizes pointer to the bias shape (C_out); NULL means no bias gradient is computed. Dtypes: int32,
 *     int64.
 * @param[in] stride stride per spatial dimension, as in the forward call. Dtypes: int32, int64.
 * @param[in] padding padding per spatial dimension, as in the forward call. Dtypes: int32, int64.
 * @param[in] dilation kernel dilation per spatial dimension, as in the forward call. Dtypes: int32, int64.
 * @param[in] output_padding extra output size per spatial dimension, as in the forward call. Dtypes: int32, int64.
 * @param[in] groups number of channel groups, as in the forward call. Dtypes: int64.
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
 * @brief Applies a 3-D cross-correlation of `input` with `weight`, plus an optional per-channel bias. Same semantics
 *        as torch.nn.functional.conv3d.
 *
 * Output spatial size is floor((in + 2*padding - dilation*(k-1) - 1) / stride) + 1 for each dimension.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result of shape (N, C_out, spatial...), spatial extents given by the usual convolution size formula.
 *     Dtypes: float16, bfloat16, float32, float64.
 * @param[in] input input batch of shape (N, C_in, D, H, W). Dtypes: float16, bfloat16, float32, float64.
 * @param[in] weight filters of shape (C_out, C_in / groups, kernel sizes...). Dtypes: float16, bfloat16, float32,
 *     float64.
 * @param[in] bias bias of shape (C_out); may be NULL for no bias. Dtypes: float16, bfloat16, float32, float64.
 * @param[in] stride step of the sliding window per spatial dimension
 * @param[in] padding implicit zero padding added on both sides per spatial dimension
 * @param[in] dilation spacing between kernel taps per spatial dimension
 * @param[in] groups number of channel groups; C_in and C_out must both be divisible by it
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiConvolution3d(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                          diopiConstTensorHandle_t weight, diopiConstTensorHandle_t bias, diopiSize_t stride, diopiSize_t padding,
                                          diopiSize_t dilation, int64_t groups);

/**
 * @brief Backward of diopiConvolution3d: from the output gradient, writes the gradients of the 3-D convolution with
 *        respect to input, weight and (optionally) bias.
 *
 * grad_bias equals grad_output summed over the batch and all spatial positions.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input gradient for input; same shape as input. Dtypes: float16, bfloat16, float32, float64.
 * @param[out] grad_weight gradient for weight; same shape as weight. Dtypes: float16, bfloat16, float32, float64.
 * @param[out] grad_bias gradient for bias, shape (C_out); may be NULL when the forward had no bias. Dtypes: float16,
 *     bfloat16, float32, float64.
 * @param[in] grad_output gradient of the loss with respect to the convolution output. Dtypes: float16, bfloat16,
 *     float32, float64.
 * @param[in] input input tensor that was fed to the forward convolution. Dtypes: float16, bfloat16, float32, float64.
 * @param[in] weight filter tensor that was used in the forward convolution. Dtypes: float16, bfloat16, float32,
 *     float64.
 * @param[in] bias_sizes pointer to the bias shape (C_out); NULL means no bias gradient is computed
 * @param[in] stride stride per spatial dimension, as in the forward call
 * @param[in] padding zero padding per spatial dimension, as in the forward call
 * @param[in] dilation kernel dilation per spatial dimension, as in the forward call
 * @param[in] groups number of channel groups, as in the forward call
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiConvolution3dBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiTensorHandle_t grad_weight,
                                                  diopiTensorHandle_t grad_bias, diopiConstTensorHandle_t grad_output,
                                                  diopiConstTensorHandle_t input, diopiConstTensorHandle_t weight, diopiSize_t* bias_sizes,
                                                  diopiSize_t stride, diopiSize_t padding, diopiSize_t dilation, int64_t groups);

/**
 * @brief Extracts every sliding kernel-sized block of a batched 4-D input and lays each block out as a column. Same
 *        semantics as torch.nn.functional.unfold.
 *
 * L is the product over both spatial dimensions of floor((size + 2*padding - dilation*(k-1) - 1)/stride) + 1.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out columns of shape (N, C * kh * kw, L), L being the number of block positions. Dtypes: float16,
 *     bfloat16, float32, float64.
 * @param[in] input input batch of shape (N, C, H, W). Dtypes: float16, bfloat16, float32, float64.
 * @param[in] kernel_size block height and width
 * @param[in] dilation spacing between elements inside a block, per spatial dimension
 * @param[in] padding implicit zero padding on both sides, per spatial dimension
 * @param[in] stride step between neighbouring blocks, per spatial dimension
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiIm2Col(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t kernel_size,
                                   diopiSize_t dilation, diopiSize_t padding, diopiSize_t stride);

/**
 * @brief Inverse layout operation of diopiIm2Col: scatters columns of blocks back into a 4-D image, summing values
 *        where blocks overlap. Same semantics as torch.nn.functional.fold.
 *
 * Overlapping contributions are added, so Col2Im(Im2Col(x)) is generally not x.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out reconstructed image of shape (N, C, output_size[0], output_size[1]). Dtypes: float16, bfloat16,
 *     float32, float64.
 * @param[in] input columns of shape (N, C * kh * kw, L). Dtypes: float16, bfloat16, float32, float64.
 * @param[in] output_size spatial height and width of the image to rebuild
 * @param[in] kernel_size block height and width
 * @param[in] dilation spacing between elements inside a block, per spatial dimension
 * @param[in] padding implicit zero padding on both sides, per spatial dimension
 * @param[in] stride step between neighbouring blocks, per spatial dimension
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiCol2Im(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t output_size,
                                   diopiSize_t kernel_size, diopiSize_t dilation, diopiSize_t padding, diopiSize_t stride);

/* ========================================================================
 * Family: normalization (normalization)
 * ======================================================================== */

/**
 * @brief Batch normalization over all dimensions except channel dim 1: out = (input - mean) / sqrt(var + eps) *
 *        weight + bias. Same semantics as torch.nn.functional.batch_norm.
 *
 * Running statistics are updated as running = (1 - momentum) * running + momentum * batch_stat, with the unbiased
 * variance.
 * For a float16 or bfloat16 input, save_mean and save_invstd may be float32 or the input's dtype (the caller
 * decides by the tensors it passes); running_mean and running_var have the dtype of the caller's buffers.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out normalized result; same shape as input. Dtypes: float32, float16, float64, bfloat16.
 * @param[out] save_mean per-channel batch mean of shape (C), written in training mode for use in backward. Dtypes:
 *     float32, float16, float64, bfloat16.
 * @param[out] save_invstd per-channel inverse standard deviation 1/sqrt(var + eps), shape (C), written in training
 *     mode. Dtypes: float32, float16, float64, bfloat16.
 * @param[in] input input of shape (N, C, ...). Dtypes: float32, float16, float64, bfloat16.
 * @param[in] weight per-channel scale of shape (C); may be NULL to use 1. Dtypes: float32, float16, float64, bfloat16.
 * @param[in] bias per-channel shift of shape (C); may be NULL to use 0. Dtypes: float32, float16, float64, bfloat16.
 * @param[in,out] running_mean running mean of shape (C), updated in place during training; may be NULL. Dtypes:
 *     float32, float16, float64, bfloat16.
 * @param[in,out] running_var running variance of shape (C), updated in place during training; may be NULL. Dtypes:
 *     float32, float16, float64, bfloat16.
 * @param[in] training true uses batch statistics; false uses running_mean and running_var
 * @param[in] momentum weight of the new batch statistic in the running-average update. Dtypes: float32, float64.
 * @param[in] eps small constant added to the variance for numerical stability. Dtypes: float32, float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiBatchNorm(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiTensorHandle_t save_mean,
                                      diopiTensorHandle_t save_invstd, diopiConstTensorHandle_t input, diopiConstTensorHandle_t weight,
                                      diopiConstTensorHandle_t bias, diopiTensorHandle_t running_mean, diopiTensorHandle_t running_var,
                                      bool training, double momentum, double eps);

/**
 * @brief Computes per-channel mean and inverse standard deviation of a local batch, the first step of synchronized
 *        batch norm. Same semantics as torch.batch_norm_stats.
 *
 * Statistics are taken over every dimension except dim 1.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] mean per-channel mean of shape (C). Dtypes: float32, float16, float64.
 * @param[out] invstd per-channel 1/sqrt(biased var + eps) of shape (C). Dtypes: float32, float16, float64.
 * @param[in] input input of shape (N, C, ...). Dtypes: float32, float16, float64.
 * @param[in] eps small constant added to the variance before the inverse square root. Dtypes: float32, float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiBatchNormStats(diopiContextHandle_t ctx, diopiTensorHandle_t mean, diopiTensorHandle_t invstd,
                                           diopiConstTensorHandle_t input, double eps);

/**
 * @brief Merges per-device batch statistics, weighted by each device's element count, into global mean and inverse
 *        std, and updates running statistics. Same semantics as torch.batch_norm_gather_stats_with_counts.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] mean global per-channel mean of shape (C). Dtypes: float32, float64.
 * @param[out] invstd global per-channel inverse standard deviation of shape (C). Dtypes: float32, float16, float64.
 * @param[in] input local input; used for shape and dtype information. Dtypes: float32, float64.
 * @param[in] mean_all stacked per-device means of shape (world_size, C). Dtypes: float32, float64.
 * @param[in] invstd_all stacked per-device inverse stds of shape (world_size, C). Dtypes: float32, float64.
 * @param[out] running_mean running mean of shape (C), updated in place; may be NULL. Dtypes: float32, float64.
 * @param[out] running_var running variance of shape (C), updated in place with unbiased variance; may be NULL.
 *     Dtypes: float32, float64.
 * @param[in] momentum weight of the new statistic in the running-average update. Dtypes: float32, float64.
 * @param[in] eps small constant added to the variance for numerical stability. Dtypes: float32, float64.
 * @param[in] counts number of elements per channel contributed by each device, shape (world_size). Dtypes: float32,
 *     float64.
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
 * @brief First backward step of synchronized batch norm: reduces the output gradient per channel and optionally
 *        produces weight and bias gradients. Same semantics as torch.batch_norm_backward_reduce.
 *
 * grad_weight = sum_dy_xmu * invstd and grad_bias = sum_dy per channel.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] sum_dy per-channel sum of grad_out, shape (C); written when input_g is true. Dtypes: float32, float64.
 * @param[out] sum_dy_xmu per-channel sum of grad_out * (input - mean), shape (C); written when input_g is true.
 *     Dtypes: float32, float64.
 * @param[out] grad_weight gradient for weight, shape (C); written when weight_g is true. Dtypes: float32, float64.
 * @param[out] grad_bias gradient for bias, shape (C); written when bias_g is true. Dtypes: float32, float64.
 * @param[in] grad_out gradient with respect to the normalized output; same shape as input. Dtypes: float32, float64.
 * @param[in] input forward input of shape (N, C, ...). Dtypes: float32, float64.
 * @param[in] mean global per-channel mean used in the forward pass, shape (C). Dtypes: float32, float64.
 * @param[in] invstd global per-channel inverse standard deviation used in the forward pass, shape (C). Dtypes:
 *     float32, float64.
 * @param[in] weight per-channel scale of shape (C); may be NULL. Dtypes: float32, float64.
 * @param[in] input_g whether the input-gradient reductions sum_dy and sum_dy_xmu are needed
 * @param[in] weight_g whether grad_weight should be computed
 * @param[in] bias_g whether grad_bias should be computed
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
 * @brief Final backward step of synchronized batch norm: computes the element-wise input gradient from globally
 *        reduced sums. Same semantics as torch.batch_norm_backward_elemt.
 *
 * grad_input = (grad_out - sum_dy/M - (input - mean) * invstd^2 * sum_dy_xmu/M) * invstd * weight, M the total count.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input gradient for input; same shape as input. Dtypes: float32, float64.
 * @param[in] grad_out gradient with respect to the normalized output; same shape as input. Dtypes: float32, float64.
 * @param[in] input forward input of shape (N, C, ...). Dtypes: float32, float64.
 * @param[in] mean global per-channel mean, shape (C). Dtypes: float32, float64.
 * @param[in] invstd global per-channel inverse standard deviation, shape (C). Dtypes: float32, float64.
 * @param[in] weight per-channel scale of shape (C); may be NULL to use 1. Dtypes: float32, float64.
 * @param[in] sum_dy globally all-reduced per-channel sum of grad_out, shape (C). Dtypes: float32, float64.
 * @param[in] sum_dy_xmu globally all-reduced per-channel sum of grad_out * (input - mean), shape (C). Dtypes:
 *     float32, float64.
 * @param[in] count element counts contributed by each device, shape (world_size); their total is the normalizer.
 *     Dtypes: int32.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiBatchNormBackwardElemt(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_out,
                                                   diopiConstTensorHandle_t input, diopiConstTensorHandle_t mean, diopiConstTensorHandle_t invstd,
                                                   diopiConstTensorHandle_t weight, diopiConstTensorHandle_t sum_dy,
                                                   diopiConstTensorHandle_t sum_dy_xmu, diopiConstTensorHandle_t count);

/**
 * @brief Applies batch normalization with externally supplied statistics: out = (input - mean) * invstd * weight +
 *        bias. Same semantics as torch.batch_norm_elemt.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out normalized result; same shape as input. Dtypes: float32, float64.
 * @param[in] input input of shape (N, C, ...). Dtypes: float32, float64.
 * @param[in] weight per-channel scale of shape (C); may be NULL to use 1. Dtypes: float32, float64.
 * @param[in] bias per-channel shift of shape (C); may be NULL to use 0. Dtypes: float32, float64.
 * @param[in] mean per-channel mean of shape (C). Dtypes: float32, float64.
 * @param[in] invstd per-channel inverse standard deviation of shape (C). Dtypes: float32, float16, float64.
 * @param[in] eps stability constant; kept for interface parity since invstd already includes it. Dtypes: float32,
 *     float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiBatchNormElemt(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                           diopiConstTensorHandle_t weight, diopiConstTensorHandle_t bias, diopiConstTensorHandle_t mean,
                                           diopiConstTensorHandle_t invstd, float eps);

/**
 * @brief Backward of diopiBatchNorm: writes the gradients with respect to input, weight and bias. Same semantics as
 *        torch.ops.aten.native_batch_norm_backward.
 *
 * In evaluation mode the statistics are constants, so grad_input reduces to grad_output * weight / sqrt(running_var +
 * eps).
 * Saved statistics of a float16 or bfloat16 input may be float32 or the input's dtype, as the forward wrote them.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input gradient for input; same shape as input. Dtypes: float32, float16, float64, bfloat16.
 * @param[out] grad_weight gradient for weight, shape (C); may be NULL if not required. Dtypes: float32, float16,
 *     float64, bfloat16.
 * @param[out] grad_bias gradient for bias, shape (C); may be NULL if not required. Dtypes: float32, float16, float64, bfloat16.
 * @param[in] grad_output gradient with respect to the normalized output; same shape as input. Dtypes: float32,
 *     float16, float64, bfloat16.
 * @param[in] input forward input of shape (N, C, ...). Dtypes: float32, float16, float64, bfloat16.
 * @param[in] weight per-channel scale of shape (C); may be NULL to use 1. Dtypes: float32, float16, float64, bfloat16.
 * @param[in] running_mean running mean of shape (C), used when training is false; may be NULL. Dtypes: float32,
 *     float16, float64, bfloat16.
 * @param[in] running_var running variance of shape (C), used when training is false; may be NULL. Dtypes: float32,
 *     float16, float64, bfloat16.
 * @param[in] save_mean batch mean saved by the forward pass, shape (C); used when training is true. Dtypes: float32,
 *     float16, float64, bfloat16.
 * @param[in] save_invstd inverse std saved by the forward pass, shape (C); used when training is true. Dtypes:
 *     float32, float16, float64, bfloat16.
 * @param[in] training whether the forward pass used batch statistics (true) or running statistics (false)
 * @param[in] eps stability constant used in the forward pass. Dtypes: float32, float64.
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
 * @brief Layer normalization over all dimensions from begin_norm_axis to the last, followed by an element-wise affine
 *        transform; also returns the computed statistics.
 *
 * Equivalent to diopiLayerNorm with normalized_shape = input.shape[begin_norm_axis:].
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out normalized result; same shape as input. Dtypes: float32, float64, float16.
 * @param[out] running_mean receives the mean of each normalized slice, shape input.shape[:begin_norm_axis]. Dtypes:
 *     float16, float32, float64.
 * @param[out] running_var receives, despite its name (kept from DIOPI 1.0), the inverse standard deviation
 *     rstd = 1/sqrt(var + eps) of each normalized slice, biased var; same shape as running_mean. This is the statistic
 *     diopiLayerNormGBBackward takes as running_std. Dtypes: float16, float32, float64.
 * @param[in] input input tensor of arbitrary rank. Dtypes: float32, float64, float16.
 * @param[in] weight scale of shape input.shape[begin_norm_axis:]; may be NULL to use 1. Dtypes: float32, float64,
 *     float16.
 * @param[in] bias shift of shape input.shape[begin_norm_axis:]; may be NULL to use 0. Dtypes: float32, float64,
 *     float16.
 * @param[in] eps small constant added to the variance for numerical stability
 * @param[in] begin_norm_axis first dimension included in the normalization; later dimensions are normalized together
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiLayerNormGB(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiTensorHandle_t running_mean,
                                        diopiTensorHandle_t running_var, diopiConstTensorHandle_t input, diopiConstTensorHandle_t weight,
                                        diopiConstTensorHandle_t bias, const double eps, const int64_t begin_norm_axis);

/**
 * @brief Group normalization: channels are split into num_groups groups and each group of each sample is normalized,
 *        then a per-channel affine is applied. Same semantics as torch.nn.functional.group_norm.
 *
 * Statistics use the biased variance over C/num_groups channels and all spatial positions.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out normalized result; same shape as input. Dtypes: float32, float64, float16.
 * @param[out] save_mean per-sample, per-group mean of shape (N, num_groups). Dtypes: float32, float64, float16.
 * @param[out] save_invstd per-sample, per-group inverse standard deviation rstd = 1/sqrt(var + eps) of shape
 *     (N, num_groups), the statistic diopiGroupNormBackward takes. Dtypes: float32, float64, float16.
 * @param[in] input input of shape (N, C, ...). Dtypes: float32, float64, float16.
 * @param[in] weight per-channel scale of shape (C); may be NULL to use 1. Dtypes: float32, float64, float16.
 * @param[in] bias per-channel shift of shape (C); may be NULL to use 0. Dtypes: float32, float64, float16.
 * @param[in] num_groups number of channel groups; must divide C. Dtypes: float32, float64, float16.
 * @param[in] eps small constant added to the variance for numerical stability. Dtypes: float32, float64, float16.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiGroupNorm(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiTensorHandle_t save_mean,
                                      diopiTensorHandle_t save_invstd, diopiConstTensorHandle_t input, diopiConstTensorHandle_t weight,
                                      diopiConstTensorHandle_t bias, int64_t num_groups, double eps);

/**
 * @brief Backward of diopiGroupNorm: writes the gradients with respect to input, weight and bias.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input gradient for input; same shape as input. Dtypes: float32, float64, float16.
 * @param[out] grad_weight gradient for weight, shape (C). Dtypes: float32, float64, float16.
 * @param[out] grad_bias gradient for bias, shape (C). Dtypes: float32, float64, float16.
 * @param[in] grad_output gradient with respect to the normalized output; same shape as input. Dtypes: float32,
 *     float64, float16.
 * @param[in] input forward input of shape (N, C, ...). Dtypes: float32, float64, float16.
 * @param[in] weight per-channel scale of shape (C) from the forward pass; may be NULL. Dtypes: float32, float64,
 *     float16.
 * @param[in] mean per-group mean saved by the forward pass, shape (N, num_groups). Dtypes: float32, float64, float16.
 * @param[in] rstd per-group inverse standard deviation 1/sqrt(var + eps) as diopiGroupNorm wrote it into save_invstd,
 *     shape (N, num_groups); it carries eps, which this function does not take. Dtypes: float32, float64, float16.
 * @param[in] num_groups number of channel groups, as in the forward call. Dtypes: float32, float64, float16.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiGroupNormBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiTensorHandle_t grad_weight,
                                              diopiTensorHandle_t grad_bias, diopiConstTensorHandle_t grad_output, diopiConstTensorHandle_t input,
                                              diopiConstTensorHandle_t weight, diopiConstTensorHandle_t mean, diopiConstTensorHandle_t rstd,
                                              int64_t num_groups);

/**
 * @brief Layer normalization over the trailing dimensions given by normalized_shape, followed by an element-wise
 *        affine transform. Same semantics as torch.nn.functional.layer_norm.
 *
 * The variance is biased (divided by the number of normalized elements). For a float16 or bfloat16 input the
 * statistics may be float32 (the caller decides by the tensors it passes; frameworks that accumulate in float32
 * keep them so) or the input's dtype; the library writes whichever it is given.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out normalized result; same shape as input. Dtypes: float32, float64, float16, bfloat16.
 * @param[in,out] save_mean written with the mean of each normalized slice, shape
 *     input.shape[:-len(normalized_shape)]. Dtypes: float32, float64, float16, bfloat16.
 * @param[in,out] save_invstd written with the inverse standard deviation rstd = 1/sqrt(var + eps) of each slice,
 *     same shape as save_mean; the statistic diopiLayerNormBackward takes.
 *     Dtypes: float32, float64, float16, bfloat16.
 * @param[in] input input whose trailing dimensions match normalized_shape. Dtypes: float32, float64, float16, bfloat16.
 * @param[in] weight element-wise scale of shape normalized_shape; may be NULL to use 1. Dtypes: float32, float64,
 *     float16, bfloat16.
 * @param[in] bias element-wise shift of shape normalized_shape; may be NULL to use 0. Dtypes: float32, float64,
 *     float16, bfloat16.
 * @param[in] normalized_shape sizes of the trailing dimensions that are normalized together
 * @param[in] eps small constant added to the variance for numerical stability
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiLayerNorm(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiTensorHandle_t save_mean,
                                      diopiTensorHandle_t save_invstd, diopiConstTensorHandle_t input, diopiConstTensorHandle_t weight,
                                      diopiConstTensorHandle_t bias, diopiSize_t normalized_shape, double eps);

/**
 * @brief Backward of diopiLayerNorm: writes the gradient with respect to input and, when requested, with respect to
 *        weight and bias.
 * Saved statistics of a float16 or bfloat16 input may be float32 or the input's dtype, as the forward wrote them.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input gradient for input; same shape as input. Dtypes: float32, float64, float16, bfloat16.
 * @param[out] grad_weight gradient for weight, shape normalized_shape; may be NULL when weight is absent. Dtypes:
 *     float32, float64, float16, bfloat16.
 * @param[out] grad_bias gradient for bias, shape normalized_shape; may be NULL when bias is absent. Dtypes: float32,
 *     float64, float16, bfloat16.
 * @param[in] grad_output gradient with respect to the normalized output; same shape as input. Dtypes: float32,
 *     float64, float16, bfloat16.
 * @param[in] input forward input. Dtypes: float32, float64, float16, bfloat16.
 * @param[in] weight element-wise scale from the forward pass; may be NULL. Dtypes: float32, float64, float16, bfloat16.
 * @param[in] bias element-wise shift from the forward pass; may be NULL. Dtypes: float32, float64, float16, bfloat16.
 * @param[in] mean per-slice mean as diopiLayerNorm wrote it into save_mean. Dtypes: float32, float64, float16, bfloat16.
 * @param[in] rstd per-slice inverse standard deviation 1/sqrt(var + eps) as diopiLayerNorm wrote it into save_invstd
 *     (it carries eps, which this function does not take). Dtypes: float32, float64, float16, bfloat16.
 * @param[in] normalized_shape sizes of the trailing normalized dimensions, as in the forward call
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiLayerNormBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiTensorHandle_t grad_weight,
                                              diopiTensorHandle_t grad_bias, diopiConstTensorHandle_t grad_output, diopiConstTensorHandle_t input,
                                              diopiConstTensorHandle_t weight, diopiConstTensorHandle_t bias, diopiConstTensorHandle_t mean,
                                              diopiConstTensorHandle_t rstd, diopiSize_t normalized_shape);

/**
 * @brief Backward of diopiLayerNormGB: writes the gradient with respect to input and, when requested, with respect to
 *        weight and bias.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input gradient for input; same shape as input. Dtypes: float32, float64, float16.
 * @param[out] grad_weight gradient for weight, shape input.shape[begin_norm_axis:]; may be NULL when not needed.
 *     Dtypes: float32, float64, float16.
 * @param[out] grad_bias gradient for bias, shape input.shape[begin_norm_axis:]; may be NULL when not needed. Dtypes:
 *     float32, float64, float16.
 * @param[in] grad_output gradient with respect to the normalized output; same shape as input. Dtypes: float32,
 *     float64, float16.
 * @param[in] input forward input. Dtypes: float32, float64, float16.
 * @param[in] weight scale from the forward pass; may be NULL. Dtypes: float32, float64, float16.
 * @param[in] bias shift from the forward pass; may be NULL. Dtypes: float32, float64, float16.
 * @param[in] running_mean per-slice mean that diopiLayerNormGB wrote into running_mean. Dtypes: float16, float32,
 *     float64.
 * @param[in] running_std despite its name (kept from DIOPI 1.0), the per-slice inverse standard deviation
 *     rstd = 1/sqrt(var + eps) that diopiLayerNormGB wrote into running_var; it carries eps, which this function does
 *     not take. Dtypes: float16, float32, float64.
 * @param[in] begin_norm_axis first normalized dimension, as in the forward call
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
 * @brief Instance normalization: each (sample, channel) slice is normalized over its remaining spatial dimensions,
 *        then scaled and shifted per channel; similar to torch.nn.functional.instance_norm without running
 *        statistics.
 *
 * Statistics are never accumulated across the batch, so training and inference behave identically.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] output normalized result; same shape as input. Dtypes: float16, float32, float64.
 * @param[in] input input of shape (N, C, spatial...) or with channels at position axis. Dtypes: float16, float32,
 *     float64.
 * @param[in] axis index of the channel dimension
 * @param[in] scale per-channel scale of shape (C); may be NULL to use 1. Dtypes: float16, float32, float64.
 * @param[in] bias per-channel shift of shape (C); may be NULL to use 0. Dtypes: float16, float32, float64.
 * @param[in] eps small constant added to the variance for numerical stability
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiInstanceNorm(diopiContextHandle_t ctx, diopiTensorHandle_t output, diopiConstTensorHandle_t input, const int64_t axis,
                                         diopiConstTensorHandle_t scale, diopiConstTensorHandle_t bias, const double eps);

/**
 * @brief Backward of diopiInstanceNorm: writes the gradients with respect to input, scale and bias.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input gradient for input; same shape as input. Dtypes: float16, float32, float64.
 * @param[out] grad_scale gradient for scale, shape (C). Dtypes: float16, float32, float64.
 * @param[out] grad_bias gradient for bias, shape (C). Dtypes: float16, float32, float64.
 * @param[in] grad_output gradient with respect to the normalized output; same shape as input. Dtypes: float16, float32,
 *     float64.
 * @param[in] input forward input. Dtypes: float16, float32, float64.
 * @param[in] scale per-channel scale from the forward pass; may be NULL. Dtypes: float16, float32, float64.
 * @param[in] bias per-channel shift from the forward pass; may be NULL. Dtypes: float16, float32, float64.
 * @param[in] axis index of the channel dimension, as in the forward call
 * @param[in] eps stability constant, as in the forward call
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiInstanceNormBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiTensorHandle_t grad_scale,
                                                 diopiTensorHandle_t grad_bias, diopiConstTensorHandle_t grad_output, diopiConstTensorHandle_t input,
                                                 diopiConstTensorHandle_t scale, diopiConstTensorHandle_t bias, const int64_t axis, const double eps);

/**
 * @brief Divides input by its p-norm along one dimension: output = input / max(||input||_p, eps). Same semantics as
 *        torch.nn.functional.normalize.
 *
 * Slices whose norm is below eps are divided by eps instead, so all-zero slices stay zero.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] output normalized result; same shape as input. Dtypes: float16, float32, float64.
 * @param[in] input input tensor of any shape. Dtypes: float16, float32, float64.
 * @param[in] p exponent of the vector norm (2 gives Euclidean normalization)
 * @param[in] axis dimension along which norms are taken
 * @param[in] eps lower bound on the norm to avoid division by zero
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiNormalize(diopiContextHandle_t ctx, diopiTensorHandle_t output, diopiConstTensorHandle_t input, const float p,
                                      const int64_t axis, const double eps);

/**
 * @brief Backward of diopiNormalize: writes the gradient with respect to input.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input gradient for input; same shape as input. Dtypes: float16, float32, float64.
 * @param[in] grad_output gradient with respect to the normalized output; same shape as input. Dtypes: float16, float32,
 *     float64.
 * @param[in] input forward input. Dtypes: float16, float32, float64.
 * @param[in] p norm exponent, as in the forward call
 * @param[in] axis normalization dimension, as in the forward call
 * @param[in] eps norm lower bound, as in the forward call
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiNormalizeBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                              diopiConstTensorHandle_t input, const float p, const int64_t axis, const double eps);

/* ========================================================================
 * Family: activation (activations)
 * ======================================================================== */

/**
 * @brief Rectified linear unit applied element-wise: out = max(input, 0). Same semantics as torch.relu.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result; same shape as input. Dtypes: float32, float64, float16, bfloat16.
 * @param[in] input input tensor of any shape. Dtypes: float32, float64, float16, bfloat16, int8, uint8, int32, int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiRelu(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input);

/**
 * @brief In-place ReLU: replaces each element of `input` with max(input, 0). Same semantics as torch.relu_.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input tensor that is read and overwritten with the result. Dtypes: float32, float64, float16,
 *     bfloat16.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiReluInp(diopiContextHandle_t ctx, diopiTensorHandle_t input);

/**
 * @brief Clamps every element into [min_val, max_val]: out = min(max(input, min_val), max_val). Same semantics as
 *        torch.nn.functional.hardtanh.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result; same shape as input. Dtypes: float32, float64, float16, bfloat16.
 * @param[in] input input tensor of any shape. Dtypes: float32, float64, float16, bfloat16.
 * @param[in] min_val lower clamp bound. Dtypes: float32, float64.
 * @param[in] max_val upper clamp bound; should not be below min_val. Dtypes: float32, float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiHardtanh(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, const diopiScalar_t* min_val,
                                     const diopiScalar_t* max_val);

/**
 * @brief In-place hardtanh: clamps every element of `input` into [min_val, max_val]. Same semantics as
 *        torch.nn.functional.hardtanh_.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input tensor that is read and overwritten with the clamped values. Dtypes: float32, float64, float16,
 *     bfloat16.
 * @param[in] min_val lower clamp bound
 * @param[in] max_val upper clamp bound
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiHardtanhInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, const diopiScalar_t* min_val,
                                        const diopiScalar_t* max_val);

/**
 * @brief Backward of diopiHardtanh: grad_input equals grad_output where min_val < input < max_val and zero elsewhere.
 *
 * Elements exactly on a bound receive zero gradient.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input gradient for input; same shape as input. Dtypes: float32, float64, float16, bfloat16.
 * @param[in] grad_output gradient with respect to the hardtanh output; same shape as input. Dtypes: float32, float64,
 *     float16, bfloat16.
 * @param[in] input forward input. Dtypes: float16, bfloat16, float32, float64.
 * @param[in] min_val lower clamp bound used in the forward call
 * @param[in] max_val upper clamp bound used in the forward call
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiHardtanhBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                             diopiConstTensorHandle_t input, const diopiScalar_t* min_val, const diopiScalar_t* max_val);

/**
 * @brief Hard swish activation: out = input * relu6(input + 3) / 6, element-wise. Same semantics as
 *        torch.nn.functional.hardswish.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result; same shape as input. Dtypes: float16, bfloat16, float32, float64.
 * @param[in] input input tensor of any shape. Dtypes: float16, bfloat16, float32, float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiHardswish(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input);

/**
 * @brief In-place hard swish: overwrites `input` with input * relu6(input + 3) / 6. Same semantics as
 *        torch.nn.functional.hardswish with inplace=True.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] input tensor that is read and overwritten with the result. Dtypes: float16, bfloat16, float32, float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiHardswishInp(diopiContextHandle_t ctx, diopiTensorHandle_t input);

/**
 * @brief Backward of diopiHardswish: grad_input = grad_output * (0 for x < -3, (2x + 3)/6 for -3 <= x <= 3, 1 for x >
 *        3).
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input gradient for input; same shape as input. Dtypes: float16, bfloat16, float32, float64.
 * @param[in] grad_output gradient with respect to the hardswish output; same shape as input. Dtypes: float16, bfloat16,
 *     float32, float64.
 * @param[in] input forward input. Dtypes: float16, bfloat16, float32, float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiHardswishBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                              diopiConstTensorHandle_t input);

/**
 * @brief Element-wise thresholding: out = input where input > threshold, otherwise value. Same semantics as
 *        torch.nn.functional.threshold.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result; same shape as input. Dtypes: float16, float32, float64, bfloat16.
 * @param[in] input input tensor of any shape. Dtypes: float16, float32, float64, bfloat16.
 * @param[in] threshold cut-off compared against each element. Dtypes: float16, float32, float64.
 * @param[in] value replacement for elements not greater than threshold. Dtypes: float16, float32, float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiThreshold(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                      const diopiScalar_t* threshold, const diopiScalar_t* value);

/**
 * @brief In-place thresholding: elements of `input` not greater than threshold are replaced by value. Same semantics
 *        as torch.nn.functional.threshold_.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input tensor that is read and overwritten. Dtypes: float16, float32, float64, bfloat16.
 * @param[in] threshold cut-off compared against each element
 * @param[in] value replacement for elements not greater than threshold
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiThresholdInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, const diopiScalar_t* threshold,
                                         const diopiScalar_t* value);

/**
 * @brief Backward of diopiThreshold: grad_input equals grad_output where input > threshold and zero elsewhere.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input gradient for input; same shape as input. Dtypes: float16, float32, float64, bfloat16.
 * @param[in] grad_output gradient with respect to the threshold output; same shape as input. Dtypes: float16, float32,
 *     float64, bfloat16.
 * @param[in] input forward input. Dtypes: float16, bfloat16, float32, float64.
 * @param[in] threshold cut-off used in the forward call
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiThresholdBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                              diopiConstTensorHandle_t input, const diopiScalar_t* threshold);

/**
 * @brief Gaussian error linear unit: out = input * Phi(input), Phi the standard normal CDF, or its tanh
 *        approximation. Same semantics as torch.nn.functional.gelu.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result; same shape as input. Dtypes: float32, float64, float16, bfloat16.
 * @param[in] input input tensor of any shape. Dtypes: float32, float64, float16, bfloat16.
 * @param[in] approximate "none" for the exact erf form or "tanh" for the tanh approximation
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiGelu(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, const char* approximate);

/**
 * @brief Backward of diopiGelu: writes the gradient with respect to input for the chosen GELU variant.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input gradient for input; same shape as input. Dtypes: float32, float64, float16, bfloat16.
 * @param[in] grad_output gradient with respect to the GELU output; same shape as input. Dtypes: float32, float64,
 *     float16, bfloat16.
 * @param[in] input forward input. Dtypes: float16, bfloat16, float32, float64.
 * @param[in] approximate "none" or "tanh"; must match the forward call
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiGeluBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                         diopiConstTensorHandle_t input, const char* approximate);

/**
 * @brief Leaky ReLU: out = input for input >= 0, otherwise negative_slope * input. Same semantics as
 *        torch.nn.functional.leaky_relu.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result; same shape as input. Dtypes: float32, float64, float16, bfloat16.
 * @param[in] input input tensor of any shape. Dtypes: float32, float64, float16, bfloat16.
 * @param[in] negative_slope multiplier applied to negative elements
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiLeakyRelu(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                      const diopiScalar_t* negative_slope);

/**
 * @brief In-place leaky ReLU: negative elements of `input` are multiplied by negative_slope. Same semantics as
 *        torch.nn.functional.leaky_relu_.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input tensor that is read and overwritten. Dtypes: float32, float64, float16, bfloat16.
 * @param[in] negative_slope multiplier applied to negative elements
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiLeakyReluInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, const diopiScalar_t* negative_slope);

/**
 * @brief Backward of diopiLeakyRelu: grad_input = grad_output where input > 0, otherwise grad_output *
 *        negative_slope.
 *
 * Using the forward result is only valid for a non-negative slope, since the sign is then preserved.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input gradient for input; same shape as input. Dtypes: float32, float64, float16, bfloat16.
 * @param[in] grad_output gradient with respect to the leaky ReLU output; same shape as input. Dtypes: float32, float64,
 *     float16, bfloat16.
 * @param[in] input forward input, or the forward output when input_is_result is true. Dtypes: float16, bfloat16,
 *     float32, float64.
 * @param[in] negative_slope multiplier used for negative elements in the forward call
 * @param[in] input_is_result true if `input` holds the forward result (in-place forward) rather than the original
 *     input
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiLeakyReluBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                              diopiConstTensorHandle_t input, const diopiScalar_t* negative_slope, bool input_is_result);

/**
 * @brief In-place hyperbolic tangent: overwrites each element of `input` with tanh(input). Same semantics as
 *        torch.tanh_.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input tensor that is read and overwritten with the result. Dtypes: float16, float32, float64,
 *     bfloat16.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiTanhInp(diopiContextHandle_t ctx, diopiTensorHandle_t input);

/**
 * @brief Element-wise hyperbolic tangent: out = tanh(input). Same semantics as torch.tanh.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result; same shape as input. Dtypes: float16, float32, float64, bfloat16.
 * @param[in] input input tensor of any shape. Dtypes: float16, float32, float64, bfloat16, uint8, int32, int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiTanh(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input);

/**
 * @brief Backward of diopiTanh, expressed via the forward result: grad_input = grad_output * (1 - output^2).
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input gradient for input; same shape as output. Dtypes: float16, float32, float64, bfloat16.
 * @param[in] grad_output gradient with respect to the tanh output; same shape as output. Dtypes: float16, bfloat16,
 *     float32, float64.
 * @param[in] output result of the forward tanh. Dtypes: float16, float32, float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiTanhBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                         diopiConstTensorHandle_t output);

/**
 * @brief In-place logistic sigmoid: overwrites each element of `input` with 1 / (1 + exp(-input)). Same semantics as
 *        torch.sigmoid_.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input tensor that is read and overwritten with the result. Dtypes: float16, float32, bfloat16,
 *     float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiSigmoidInp(diopiContextHandle_t ctx, diopiTensorHandle_t input);

/**
 * @brief Element-wise logistic sigmoid: out = 1 / (1 + exp(-input)). Same semantics as torch.sigmoid.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result; same shape as input. Dtypes: float16, float32, bfloat16, float64.
 * @param[in] input input tensor of any shape. Dtypes: float16, float32, bfloat16, float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiSigmoid(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input);

/**
 * @brief Backward of diopiSigmoid, expressed via the forward result: grad_input = grad_output * output * (1 -
 *        output).
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input gradient for input; same shape as output. Dtypes: float16, float32, bfloat16, float64.
 * @param[in] grad_output gradient with respect to the sigmoid output; same shape as output. Dtypes: float16, float32,
 *     bfloat16, float64.
 * @param[in] output result of the forward sigmoid. Dtypes: float16, float32.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiSigmoidBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                            diopiConstTensorHandle_t output);

/**
 * @brief In-place SiLU (swish): overwrites `input` with input * sigmoid(input). Same semantics as
 *        torch.nn.functional.silu with inplace=True.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input tensor that is read and overwritten with the result. Dtypes: float16, bfloat16, float32,
 *     float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiSiluInp(diopiContextHandle_t ctx, diopiTensorHandle_t input);

/**
 * @brief Sigmoid-weighted linear unit (swish): out = input * sigmoid(input). Same semantics as
 *        torch.nn.functional.silu.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result; same shape as input. Dtypes: float16, bfloat16, float32, float64.
 * @param[in] input input tensor of any shape. Dtypes: float16, bfloat16, float32, float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiSilu(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input);

/**
 * @brief Backward of diopiSilu: grad_input = grad_output * s * (1 + input * (1 - s)), where s = sigmoid(input).
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input gradient for input; same shape as input. Dtypes: float16, float32, bfloat16, float64.
 * @param[in] grad_output gradient with respect to the SiLU output; same shape as input. Dtypes: float16, float32,
 *     bfloat16, float64.
 * @param[in] input forward input. Dtypes: float16, bfloat16, float32, float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiSiluBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                         diopiConstTensorHandle_t input);

/* ========================================================================
 * Family: pooling (pooling)
 * ======================================================================== */

/**
 * @brief 1-D max pooling over sliding windows. Same semantics as torch.nn.functional.max_pool1d.
 *
 * padding must be at most half the kernel size; windows starting entirely in the right padding are dropped in
 * ceil_mode.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out pooled maxima of shape (N, C, spatial_out...). Dtypes: float16, bfloat16, float32, float64.
 * @param[in] input input of shape (N, C, L) or (C, L). Dtypes: float16, bfloat16, float32, float64.
 * @param[in] kernel_size window size per spatial dimension
 * @param[in] stride window step per spatial dimension; empty means equal to kernel_size
 * @param[in] padding implicit negative-infinity padding on both sides per spatial dimension
 * @param[in] dilation spacing between window elements per spatial dimension
 * @param[in] ceil_mode use ceiling instead of floor when computing the output size
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiMaxPool1d(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t kernel_size,
                                      diopiSize_t stride, diopiSize_t padding, diopiSize_t dilation, bool ceil_mode);

/**
 * @brief Backward of diopiMaxPool1dWithIndices: routes each output gradient to the input position that held the
 *        window maximum, accumulating overlaps.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input gradient for input; same shape as input. Dtypes: float16, bfloat16, float32, float64.
 * @param[in] grad_output gradient with respect to the pooled output. Dtypes: float16, bfloat16, float32, float64.
 * @param[in] input forward input of shape (N, C, L) or (C, L). Dtypes: float16, bfloat16, float32, float64.
 * @param[in] kernel_size window size per spatial dimension, as in the forward call
 * @param[in] stride window step per spatial dimension, as in the forward call
 * @param[in] padding padding per spatial dimension, as in the forward call
 * @param[in] dilation window dilation per spatial dimension, as in the forward call
 * @param[in] ceil_mode output-size rounding mode, as in the forward call
 * @param[in] indices required: the indices diopiMaxPool1dWithIndices gave for this input; same shape as
 *     grad_output. The gradient is routed through them (they settle ties). Dtypes: int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiMaxPool1dBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                              diopiConstTensorHandle_t input, diopiSize_t kernel_size, diopiSize_t stride, diopiSize_t padding,
                                              diopiSize_t dilation, bool ceil_mode, diopiConstTensorHandle_t indices);

/**
 * @brief 1-D max pooling over sliding windows and also records where each maximum came from. Same semantics as
 *        torch.nn.functional.max_pool1d with return_indices=True.
 *
 * padding must be at most half the kernel size; windows starting entirely in the right padding are dropped in
 * ceil_mode.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out pooled maxima of shape (N, C, spatial_out...). Dtypes: float16, bfloat16, float32, float64.
 * @param[out] indices written with the flat per-plane position of each maximum; same shape as out. Dtypes: int64.
 * @param[in] input input of shape (N, C, L) or (C, L). Dtypes: float16, bfloat16, float32, float64.
 * @param[in] kernel_size window size per spatial dimension
 * @param[in] stride window step per spatial dimension; empty means equal to kernel_size
 * @param[in] padding implicit negative-infinity padding on both sides per spatial dimension
 * @param[in] dilation spacing between window elements per spatial dimension
 * @param[in] ceil_mode use ceiling instead of floor when computing the output size
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiMaxPool1dWithIndices(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiTensorHandle_t indices,
                                                 diopiConstTensorHandle_t input, diopiSize_t kernel_size, diopiSize_t stride, diopiSize_t padding,
                                                 diopiSize_t dilation, bool ceil_mode);

/**
 * @brief 1-D average pooling over sliding windows. Same semantics as torch.nn.functional.avg_pool1d.
 *
 * Windows that extend past the input in ceil_mode never count the out-of-range part, even with count_include_pad.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out pooled averages of shape (N, C, spatial_out...). Dtypes: float16, bfloat16, float32, float64.
 * @param[in] input input of shape (N, C, L) or (C, L). Dtypes: float16, bfloat16, float32, float64.
 * @param[in] kernel_size window size per spatial dimension
 * @param[in] stride window step per spatial dimension; empty means equal to kernel_size
 * @param[in] padding implicit zero padding on both sides per spatial dimension
 * @param[in] ceil_mode use ceiling instead of floor when computing the output size
 * @param[in] count_include_pad whether padded zeros count in the averaging divisor
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAvgPool1d(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t kernel_size,
                                      diopiSize_t stride, diopiSize_t padding, bool ceil_mode, bool count_include_pad);

/**
 * @brief Backward of diopiAvgPool1d: spreads each output gradient evenly (divided by the window divisor) over its
 *        window.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input gradient for input; same shape as input. Dtypes: float16, bfloat16, float32, float64.
 * @param[in] grad_output gradient with respect to the pooled output. Dtypes: float16, bfloat16, float32, float64.
 * @param[in] input forward input of shape (N, C, L) or (C, L). Dtypes: float16, bfloat16, float32, float64.
 * @param[in] kernel_size window size per spatial dimension, as in the forward call
 * @param[in] stride window step per spatial dimension, as in the forward call
 * @param[in] padding padding per spatial dimension, as in the forward call
 * @param[in] ceil_mode output-size rounding mode, as in the forward call
 * @param[in] count_include_pad divisor convention, as in the forward call
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAvgPool1dBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                              diopiConstTensorHandle_t input, diopiSize_t kernel_size, diopiSize_t stride, diopiSize_t padding,
                                              bool ceil_mode, bool count_include_pad);

/**
 * @brief 1-D adaptive max pooling producing exactly output_size. Same semantics as
 *        torch.nn.functional.adaptive_max_pool1d.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out pooled maxima of shape (N, C, *output_size). Dtypes: float16, bfloat16, float32, float64.
 * @param[in] input input of shape (N, C, L) or (C, L). Dtypes: float16, bfloat16, float32, float64.
 * @param[in] output_size desired output size per spatial dimension
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAdaptiveMaxPool1d(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                              diopiSize_t output_size);

/**
 * @brief 1-D adaptive max pooling producing exactly output_size, also recording the location of each maximum. Same
 *        semantics as torch.nn.functional.adaptive_max_pool1d with return_indices=True.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out pooled maxima of shape (N, C, *output_size). Dtypes: float16, bfloat16, float32, float64.
 * @param[out] indices written with the flat per-plane position of each maximum; same shape as out. Dtypes: int64.
 * @param[in] input input of shape (N, C, L) or (C, L). Dtypes: float16, bfloat16, float32, float64.
 * @param[in] output_size desired output size per spatial dimension
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAdaptiveMaxPool1dWithIndices(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiTensorHandle_t indices,
                                                         diopiConstTensorHandle_t input, diopiSize_t output_size);

/**
 * @brief Backward of diopiAdaptiveMaxPool1dWithIndices: sends each output gradient to the input location recorded in
 *        indices.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input gradient for input; same shape as input. Dtypes: float16, bfloat16, float32, float64.
 * @param[in] grad_output gradient with respect to the pooled output. Dtypes: float16, bfloat16, float32, float64.
 * @param[in] input forward input of shape (N, C, L) or (C, L). Dtypes: float16, bfloat16, float32, float64.
 * @param[in] indices required: the indices diopiAdaptiveMaxPool1dWithIndices gave for this input; same shape as
 *     grad_output. The gradient is routed through them (they settle ties). Dtypes: int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAdaptiveMaxPool1dBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                                      diopiConstTensorHandle_t input, diopiConstTensorHandle_t indices);

/**
 * @brief Backward of diopiAdaptiveAvgPool1d: distributes each output gradient uniformly over the input elements of
 *        its adaptive window.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input gradient for input; same shape as input. Dtypes: float16, bfloat16, float32, float64.
 * @param[in] grad_output gradient with respect to the pooled output. Dtypes: float16, bfloat16, float32, float64.
 * @param[in] input forward input of shape (N, C, L) or (C, L). Dtypes: float16, bfloat16, float32, float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAdaptiveAvgPool1dBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                                      diopiConstTensorHandle_t input);

/**
 * @brief 1-D adaptive average pooling: chooses window bounds automatically so the output has exactly output_size.
 *        Same semantics as torch.nn.functional.adaptive_avg_pool1d.
 *
 * Window i along a dimension of length L covers [floor(i*L/out), ceil((i+1)*L/out)).
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out pooled result of shape (N, C, *output_size). Dtypes: float16, bfloat16, float32, float64.
 * @param[in] input input of shape (N, C, L) or (C, L). Dtypes: float16, bfloat16, float32, float64.
 * @param[in] output_size desired output size per spatial dimension
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAdaptiveAvgPool1d(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                              diopiSize_t output_size);

/**
 * @brief Generic 1-D pooling selected by mode (max or average), with optional adaptive sizing; a single entry
 *        covering the fixed and adaptive pooling variants.
 *
 * Which arguments matter depends on mode and adaptive; the unused ones are ignored.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out pooled result of shape (N, C, spatial_out...). Dtypes: float16, bfloat16, float32, float64.
 * @param[in] input input of shape (N, C, L) or (C, L). Dtypes: float16, bfloat16, float32, float64.
 * @param[in] mode pooling kind: "max" or "avg"
 * @param[in] ksize window size per spatial dimension; ignored when adaptive is true
 * @param[in] stride window step per spatial dimension; ignored when adaptive is true
 * @param[in] padding implicit padding per spatial dimension; ignored when adaptive is true
 * @param[in] dilation spacing between window elements per spatial dimension (max mode)
 * @param[in] ceil_mode use ceiling instead of floor when computing the output size
 * @param[in] exclusive in avg mode, exclude padded elements from the divisor (opposite of count_include_pad)
 * @param[in] adaptive if true, derive windows from output_size like adaptive pooling
 * @param[in] output_size target output size per spatial dimension, used when adaptive is true
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiPool1d(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, const char* mode,
                                   diopiSize_t ksize, diopiSize_t stride, diopiSize_t padding, diopiSize_t dilation, const bool ceil_mode,
                                   const bool exclusive, const bool adaptive, diopiSize_t output_size);

/**
 * @brief Backward of diopiPool1d: writes the input gradient for the selected pooling mode.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input gradient for input; same shape as input. Dtypes: float16, bfloat16, float32, float64.
 * @param[in] grad_output gradient with respect to the pooled output. Dtypes: float16, bfloat16, float32, float64.
 * @param[in] input forward input of shape (N, C, L) or (C, L). Dtypes: float16, bfloat16, float32, float64.
 * @param[in] mode pooling kind used in the forward call: "max" or "avg"
 * @param[in] ksize window size per spatial dimension, as in the forward call
 * @param[in] stride window step per spatial dimension, as in the forward call
 * @param[in] padding padding per spatial dimension, as in the forward call
 * @param[in] dilation window dilation per spatial dimension, as in the forward call
 * @param[in] ceil_mode output-size rounding mode, as in the forward call
 * @param[in] exclusive avg-mode divisor convention, as in the forward call
 * @param[in] adaptive whether the forward call used adaptive windows
 * @param[in] indices max mode: required, the indices diopiMaxPool1dWithIndices (adaptive:
 *     diopiAdaptiveMaxPool1dWithIndices) gave for this input, through which the gradient is routed; avg mode:
 *     may be NULL (not read). Dtypes: int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiPool1dBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                           diopiConstTensorHandle_t input, const char* mode, diopiSize_t ksize, diopiSize_t stride,
                                           diopiSize_t padding, diopiSize_t dilation, const bool ceil_mode, const bool exclusive,
                                           const bool adaptive, diopiConstTensorHandle_t indices);

/**
 * @brief 2-D average pooling over sliding windows. Same semantics as torch.nn.functional.avg_pool2d.
 *
 * Windows that extend past the input in ceil_mode never count the out-of-range part, even with count_include_pad.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out pooled averages of shape (N, C, spatial_out...). Dtypes: float32, float64, float16, bfloat16.
 * @param[in] input input of shape (N, C, H, W) or (C, H, W). Dtypes: float32, float64, float16, bfloat16.
 * @param[in] kernel_size window size per spatial dimension. Dtypes: int32, int64.
 * @param[in] stride window step per spatial dimension; empty means equal to kernel_size. Dtypes: int32, int64.
 * @param[in] padding implicit zero padding on both sides per spatial dimension. Dtypes: int32, int64.
 * @param[in] ceil_mode use ceiling instead of floor when computing the output size
 * @param[in] count_include_pad whether padded zeros count in the averaging divisor
 * @param[in] divisor_override pointer to a fixed divisor replacing the window size; NULL for the default
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAvgPool2d(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t kernel_size,
                                      diopiSize_t stride, diopiSize_t padding, bool ceil_mode, bool count_include_pad,
                                      const int64_t* divisor_override);

/**
 * @brief Backward of diopiAvgPool2d: spreads each output gradient evenly (divided by the window divisor) over its
 *        window.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input gradient for input; same shape as input. Dtypes: float32, float64, float16, bfloat16.
 * @param[in] grad_output gradient with respect to the pooled output. Dtypes: float32, float64, float16, bfloat16.
 * @param[in] input forward input of shape (N, C, H, W) or (C, H, W). Dtypes: float32, float64, float16, bfloat16.
 * @param[in] kernel_size window size per spatial dimension, as in the forward call. Dtypes: int32, int64.
 * @param[in] stride window step per spatial dimension, as in the forward call. Dtypes: int32, int64.
 * @param[in] padding padding per spatial dimension, as in the forward call. Dtypes: int32, int64.
 * @param[in] ceil_mode output-size rounding mode, as in the forward call
 * @param[in] count_include_pad divisor convention, as in the forward call
 * @param[in] divisor_override fixed divisor used in the forward call; NULL if none
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAvgPool2dBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                              diopiConstTensorHandle_t input, diopiSize_t kernel_size, diopiSize_t stride, diopiSize_t padding,
                                              bool ceil_mode, bool count_include_pad, const int64_t* divisor_override);

/**
 * @brief 2-D max pooling over sliding windows. Same semantics as torch.nn.functional.max_pool2d.
 *
 * padding must be at most half the kernel size; windows starting entirely in the right padding are dropped in
 * ceil_mode.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out pooled maxima of shape (N, C, spatial_out...). Dtypes: float16, float32, bfloat16, float64.
 * @param[in] input input of shape (N, C, H, W) or (C, H, W). Dtypes: float16, float32, bfloat16, float64.
 * @param[in] kernel_size window size per spatial dimension. Dtypes: int32, int64.
 * @param[in] stride window step per spatial dimension; empty means equal to kernel_size. Dtypes: int32, int64.
 * @param[in] padding implicit negative-infinity padding on both sides per spatial dimension
 * @param[in] dilation spacing between window elements per spatial dimension. Dtypes: int32, int64.
 * @param[in] ceil_mode use ceiling instead of floor when computing the output size
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiMaxPool2d(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t kernel_size,
                                      diopiSize_t stride, diopiSize_t padding, diopiSize_t dilation, bool ceil_mode);

/**
 * @brief 2-D max pooling over sliding windows and also records where each maximum came from. Same semantics as
 *        torch.nn.functional.max_pool2d with return_indices=True.
 *
 * padding must be at most half the kernel size; windows starting entirely in the right padding are dropped in
 * ceil_mode.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out pooled maxima of shape (N, C, spatial_out...). Dtypes: float16, float32, bfloat16, float64.
 * @param[out] indices written with the flat per-plane position of each maximum; same shape as out. Dtypes: int32,
 *     int64, bfloat16, float64.
 * @param[in] input input of shape (N, C, H, W) or (C, H, W). Dtypes: float16, float32, bfloat16, float64.
 * @param[in] kernel_size window size per spatial dimension. Dtypes: int32, int64.
 * @param[in] stride window step per spatial dimension; empty means equal to kernel_size. Dtypes: int32, int64.
 * @param[in] padding implicit negative-infinity padding on both sides per spatial dimension
 * @param[in] dilation spacing between window elements per spatial dimension. Dtypes: int32, int64.
 * @param[in] ceil_mode use ceiling instead of floor when computing the output size
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiMaxPool2dWithIndices(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiTensorHandle_t indices,
                                                 diopiConstTensorHandle_t input, diopiSize_t kernel_size, diopiSize_t stride, diopiSize_t padding,
                                                 diopiSize_t dilation, bool ceil_mode);

/**
 * @brief Backward of diopiMaxPool2dWithIndices: routes each output gradient to the input position that held the
 *        window maximum, accumulating overlaps.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input gradient for input; same shape as input. Dtypes: float16, float32, bfloat16, float64.
 * @param[in] grad_output gradient with respect to the pooled output. Dtypes: float16, float32, bfloat16, float64.
 * @param[in] input forward input of shape (N, C, H, W) or (C, H, W). Dtypes: float16, float32, bfloat16, float64.
 * @param[in] kernel_size window size per spatial dimension, as in the forward call. Dtypes: int32, int64.
 * @param[in] stride window step per spatial dimension, as in the forward call. Dtypes: int32, int64.
 * @param[in] padding padding per spatial dimension, as in the forward call
 * @param[in] dilation window dilation per spatial dimension, as in the forward call. Dtypes: int32, int64.
 * @param[in] ceil_mode output-size rounding mode, as in the forward call
 * @param[in] indices required: the indices diopiMaxPool2dWithIndices gave for this input; same shape as
 *     grad_output. The gradient is routed through them (they settle ties). Dtypes: int32, int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiMaxPool2dBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                              diopiConstTensorHandle_t input, diopiSize_t kernel_size, diopiSize_t stride, diopiSize_t padding,
                                              diopiSize_t dilation, bool ceil_mode, diopiConstTensorHandle_t indices);

/**
 * @brief Generic 2-D pooling selected by mode (max or average), with optional adaptive sizing; a single entry
 *        covering the fixed and adaptive pooling variants.
 *
 * Which arguments matter depends on mode and adaptive; the unused ones are ignored.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out pooled result of shape (N, C, spatial_out...). Dtypes: float16, bfloat16, float32, float64.
 * @param[in] input input of shape (N, C, H, W) or (C, H, W). Dtypes: float16, bfloat16, float32, float64.
 * @param[in] mode pooling kind: "max" or "avg"
 * @param[in] ksize window size per spatial dimension; ignored when adaptive is true
 * @param[in] stride window step per spatial dimension; ignored when adaptive is true
 * @param[in] padding implicit padding per spatial dimension; ignored when adaptive is true
 * @param[in] dilation spacing between window elements per spatial dimension (max mode)
 * @param[in] ceil_mode use ceiling instead of floor when computing the output size
 * @param[in] exclusive in avg mode, exclude padded elements from the divisor (opposite of count_include_pad)
 * @param[in] adaptive if true, derive windows from output_size like adaptive pooling
 * @param[in] output_size target output size per spatial dimension, used when adaptive is true
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiPool2d(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, const char* mode,
                                   diopiSize_t ksize, diopiSize_t stride, diopiSize_t padding, diopiSize_t dilation, const bool ceil_mode,
                                   const bool exclusive, const bool adaptive, diopiSize_t output_size);

/**
 * @brief Backward of diopiPool2d: writes the input gradient for the selected pooling mode.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input gradient for input; same shape as input. Dtypes: float16, bfloat16, float32, float64.
 * @param[in] grad_output gradient with respect to the pooled output. Dtypes: float16, bfloat16, float32, float64.
 * @param[in] input forward input of shape (N, C, H, W) or (C, H, W). Dtypes: float16, bfloat16, float32, float64.
 * @param[in] mode pooling kind used in the forward call: "max" or "avg"
 * @param[in] ksize window size per spatial dimension, as in the forward call
 * @param[in] stride window step per spatial dimension, as in the forward call
 * @param[in] padding padding per spatial dimension, as in the forward call
 * @param[in] dilation window dilation per spatial dimension, as in the forward call
 * @param[in] ceil_mode output-size rounding mode, as in the forward call
 * @param[in] exclusive avg-mode divisor convention, as in the forward call
 * @param[in] adaptive whether the forward call used adaptive windows
 * @param[in] indices max mode: required, the indices diopiMaxPool2dWithIndices (adaptive:
 *     diopiAdaptiveMaxPool2dWithIndices) gave for this input, through which the gradient is routed; avg mode:
 *     may be NULL (not read). Dtypes: int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiPool2dBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                           diopiConstTensorHandle_t input, const char* mode, diopiSize_t ksize, diopiSize_t stride,
                                           diopiSize_t padding, diopiSize_t dilation, const bool ceil_mode, const bool exclusive,
                                           const bool adaptive, diopiConstTensorHandle_t indices);

/**
 * @brief 2-D adaptive average pooling: chooses window bounds automatically so the output has exactly output_size.
 *        Same semantics as torch.nn.functional.adaptive_avg_pool2d.
 *
 * Window i along a dimension of length L covers [floor(i*L/out), ceil((i+1)*L/out)).
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out pooled result of shape (N, C, *output_size). Dtypes: float16, float32, float64, bfloat16.
 * @param[in] input input of shape (N, C, H, W) or (C, H, W). Dtypes: float16, float32, float64, bfloat16.
 * @param[in] output_size desired output size per spatial dimension. Dtypes: int32, int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAdaptiveAvgPool2d(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                              diopiSize_t output_size);

/**
 * @brief Backward of diopiAdaptiveAvgPool2d: distributes each output gradient uniformly over the input elements of
 *        its adaptive window.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input gradient for input; same shape as input. Dtypes: float16, float32, float64, bfloat16.
 * @param[in] grad_output gradient with respect to the pooled output. Dtypes: float16, float32, float64, bfloat16.
 * @param[in] input forward input of shape (N, C, H, W) or (C, H, W). Dtypes: float16, float32, float64, bfloat16.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAdaptiveAvgPool2dBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                                      diopiConstTensorHandle_t input);

/**
 * @brief 2-D adaptive max pooling producing exactly output_size. Same semantics as
 *        torch.nn.functional.adaptive_max_pool2d.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out pooled maxima of shape (N, C, *output_size). Dtypes: float32, float16, float64, bfloat16.
 * @param[in] input input of shape (N, C, H, W) or (C, H, W). Dtypes: float32, float16, float64, bfloat16.
 * @param[in] output_size desired output size per spatial dimension. Dtypes: int32, int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAdaptiveMaxPool2d(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                              diopiSize_t output_size);

/**
 * @brief 2-D adaptive max pooling producing exactly output_size, also recording the location of each maximum. Same
 *        semantics as torch.nn.functional.adaptive_max_pool2d with return_indices=True.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out pooled maxima of shape (N, C, *output_size). Dtypes: float32, float16, float64, bfloat16.
 * @param[out] indices written with the flat per-plane position of each maximum; same shape as out. Dtypes: int64.
 * @param[in] input input of shape (N, C, H, W) or (C, H, W). Dtypes: float32, float16, float64, bfloat16.
 * @param[in] output_size desired output size per spatial dimension. Dtypes: int32, int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAdaptiveMaxPool2dWithIndices(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiTensorHandle_t indices,
                                                         diopiConstTensorHandle_t input, diopiSize_t output_size);

/**
 * @brief Backward of diopiAdaptiveMaxPool2dWithIndices: sends each output gradient to the input location recorded in
 *        indices.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input gradient for input; same shape as input. Dtypes: float32, float16, float64, bfloat16.
 * @param[in] grad_output gradient with respect to the pooled output. Dtypes: float32, float16, float64, bfloat16.
 * @param[in] input forward input of shape (N, C, H, W) or (C, H, W). Dtypes: float32, float16, float64, bfloat16.
 * @param[in] indices required: the indices diopiAdaptiveMaxPool2dWithIndices gave for this input; same shape as
 *     grad_output. The gradient is routed through them (they settle ties). Dtypes: int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAdaptiveMaxPool2dBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                                      diopiConstTensorHandle_t input, diopiConstTensorHandle_t indices);

/**
 * @brief 3-D average pooling over sliding windows. Same semantics as torch.nn.functional.avg_pool3d.
 *
 * Windows that extend past the input in ceil_mode never count the out-of-range part, even with count_include_pad.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out pooled averages of shape (N, C, spatial_out...). Dtypes: float32, float64.
 * @param[in] input input of shape (N, C, D, H, W) or (C, D, H, W). Dtypes: float32, float64.
 * @param[in] kernel_size window size per spatial dimension
 * @param[in] stride window step per spatial dimension; empty means equal to kernel_size
 * @param[in] padding implicit zero padding on both sides per spatial dimension
 * @param[in] ceil_mode use ceiling instead of floor when computing the output size
 * @param[in] count_include_pad whether padded zeros count in the averaging divisor
 * @param[in] divisor_override pointer to a fixed divisor replacing the window size; NULL for the default
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAvgPool3d(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t kernel_size,
                                      diopiSize_t stride, diopiSize_t padding, bool ceil_mode, bool count_include_pad,
                                      const int64_t* divisor_override);

/**
 * @brief Backward of diopiAvgPool3d: spreads each output gradient evenly (divided by the window divisor) over its
 *        window.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input gradient for input; same shape as input. Dtypes: float32, float64.
 * @param[in] grad_output gradient with respect to the pooled output. Dtypes: float32, float64.
 * @param[in] input forward input of shape (N, C, D, H, W) or (C, D, H, W). Dtypes: float32, float64.
 * @param[in] kernel_size window size per spatial dimension, as in the forward call
 * @param[in] stride window step per spatial dimension, as in the forward call
 * @param[in] padding padding per spatial dimension, as in the forward call
 * @param[in] ceil_mode output-size rounding mode, as in the forward call
 * @param[in] count_include_pad divisor convention, as in the forward call
 * @param[in] divisor_override fixed divisor used in the forward call; NULL if none
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAvgPool3dBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                              diopiConstTensorHandle_t input, diopiSize_t kernel_size, diopiSize_t stride, diopiSize_t padding,
                                              bool ceil_mode, bool count_include_pad, const int64_t* divisor_override);

/**
 * @brief 3-D max pooling over sliding windows. Same semantics as torch.nn.functional.max_pool3d.
 *
 * padding must be at most half the kernel size; windows starting entirely in the right padding are dropped in
 * ceil_mode.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out pooled maxima of shape (N, C, spatial_out...). Dtypes: float16, bfloat16, float32, float64.
 * @param[in] input input of shape (N, C, D, H, W) or (C, D, H, W). Dtypes: float16, bfloat16, float32, float64.
 * @param[in] kernel_size window size per spatial dimension
 * @param[in] stride window step per spatial dimension; empty means equal to kernel_size
 * @param[in] padding implicit negative-infinity padding on both sides per spatial dimension
 * @param[in] dilation spacing between window elements per spatial dimension
 * @param[in] ceil_mode use ceiling instead of floor when computing the output size
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiMaxPool3d(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t kernel_size,
                                      diopiSize_t stride, diopiSize_t padding, diopiSize_t dilation, bool ceil_mode);

/**
 * @brief 3-D max pooling over sliding windows and also records where each maximum came from. Same semantics as
 *        torch.nn.functional.max_pool3d with return_indices=True.
 *
 * padding must be at most half the kernel size; windows starting entirely in the right padding are dropped in
 * ceil_mode.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out pooled maxima of shape (N, C, spatial_out...). Dtypes: float16, bfloat16, float32, float64.
 * @param[out] indices written with the flat per-plane position of each maximum; same shape as out. Dtypes: int64.
 * @param[in] input input of shape (N, C, D, H, W) or (C, D, H, W). Dtypes: float16, bfloat16, float32, float64.
 * @param[in] kernel_size window size per spatial dimension
 * @param[in] stride window step per spatial dimension; empty means equal to kernel_size
 * @param[in] padding implicit negative-infinity padding on both sides per spatial dimension
 * @param[in] dilation spacing between window elements per spatial dimension
 * @param[in] ceil_mode use ceiling instead of floor when computing the output size
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiMaxPool3dWithIndices(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiTensorHandle_t indices,
                                                 diopiConstTensorHandle_t input, diopiSize_t kernel_size, diopiSize_t stride, diopiSize_t padding,
                                                 diopiSize_t dilation, bool ceil_mode);

/**
 * @brief Backward of diopiMaxPool3dWithIndices: routes each output gradient to the input position that held the
 *        window maximum, accumulating overlaps.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input gradient for input; same shape as input. Dtypes: float16, bfloat16, float32, float64.
 * @param[in] grad_output gradient with respect to the pooled output. Dtypes: float16, bfloat16, float32, float64.
 * @param[in] input forward input of shape (N, C, D, H, W) or (C, D, H, W). Dtypes: float16, bfloat16, float32, float64.
 * @param[in] kernel_size window size per spatial dimension, as in the forward call
 * @param[in] stride window step per spatial dimension, as in the forward call
 * @param[in] padding padding per spatial dimension, as in the forward call
 * @param[in] dilation window dilation per spatial dimension, as in the forward call
 * @param[in] ceil_mode output-size rounding mode, as in the forward call
 * @param[in] indices required: the indices diopiMaxPool3dWithIndices gave for this input; same shape as
 *     grad_output. The gradient is routed through them (they settle ties). Dtypes: int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiMaxPool3dBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                              diopiConstTensorHandle_t input, diopiSize_t kernel_size, diopiSize_t stride, diopiSize_t padding,
                                              diopiSize_t dilation, bool ceil_mode, diopiConstTensorHandle_t indices);

/**
 * @brief 3-D adaptive average pooling: chooses window bounds automatically so the output has exactly output_size.
 *        Same semantics as torch.nn.functional.adaptive_avg_pool3d.
 *
 * Window i along a dimension of length L covers [floor(i*L/out), ceil((i+1)*L/out)).
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out pooled result of shape (N, C, *output_size). Dtypes: float16, bfloat16, float32, float64.
 * @param[in] input input of shape (N, C, D, H, W) or (C, D, H, W). Dtypes: float16, bfloat16, float32, float64.
 * @param[in] output_size desired output size per spatial dimension
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAdaptiveAvgPool3d(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                              diopiSize_t output_size);

/**
 * @brief Backward of diopiAdaptiveAvgPool3d: distributes each output gradient uniformly over the input elements of
 *        its adaptive window.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input gradient for input; same shape as input. Dtypes: float16, bfloat16, float32, float64.
 * @param[in] grad_output gradient with respect to the pooled output. Dtypes: float16, bfloat16, float32, float64.
 * @param[in] input forward input of shape (N, C, D, H, W) or (C, D, H, W). Dtypes: float16, bfloat16, float32, float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAdaptiveAvgPool3dBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                                      diopiConstTensorHandle_t input);

/**
 * @brief 3-D adaptive max pooling producing exactly output_size. Same semantics as
 *        torch.nn.functional.adaptive_max_pool3d.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out pooled maxima of shape (N, C, *output_size). Dtypes: float16, bfloat16, float32, float64.
 * @param[in] input input of shape (N, C, D, H, W) or (C, D, H, W). Dtypes: float16, bfloat16, float32, float64.
 * @param[in] output_size desired output size per spatial dimension
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAdaptiveMaxPool3d(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                              diopiSize_t output_size);

/**
 * @brief 3-D adaptive max pooling producing exactly output_size, also recording the location of each maximum. Same
 *        semantics as torch.nn.functional.adaptive_max_pool3d with return_indices=True.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out pooled maxima of shape (N, C, *output_size). Dtypes: float16, bfloat16, float32, float64.
 * @param[out] indices written with the flat per-plane position of each maximum; same shape as out. Dtypes: int64.
 * @param[in] input input of shape (N, C, D, H, W) or (C, D, H, W). Dtypes: float16, bfloat16, float32, float64.
 * @param[in] output_size desired output size per spatial dimension
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAdaptiveMaxPool3dWithIndices(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiTensorHandle_t indices,
                                                         diopiConstTensorHandle_t input, diopiSize_t output_size);

/**
 * @brief Backward of diopiAdaptiveMaxPool3dWithIndices: sends each output gradient to the input location recorded in
 *        indices.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input gradient for input; same shape as input. Dtypes: float16, bfloat16, float32, float64.
 * @param[in] grad_output gradient with respect to the pooled output. Dtypes: float16, bfloat16, float32, float64.
 * @param[in] input forward input of shape (N, C, D, H, W) or (C, D, H, W). Dtypes: float16, bfloat16, float32, float64.
 * @param[in] indices required: the indices diopiAdaptiveMaxPool3dWithIndices gave for this input; same shape as
 *     grad_output. The gradient is routed through them (they settle ties). Dtypes: int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAdaptiveMaxPool3dBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                                      diopiConstTensorHandle_t input, diopiConstTensorHandle_t indices);

/**
 * @brief Generic 3-D pooling selected by mode (max or average), with optional adaptive sizing; a single entry
 *        covering the fixed and adaptive pooling variants.
 *
 * Which arguments matter depends on mode and adaptive; the unused ones are ignored.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out pooled result of shape (N, C, spatial_out...). Dtypes: float16, bfloat16, float32, float64.
 * @param[in] input input of shape (N, C, D, H, W) or (C, D, H, W). Dtypes: float16, bfloat16, float32, float64.
 * @param[in] mode pooling kind: "max" or "avg"
 * @param[in] ksize window size per spatial dimension; ignored when adaptive is true
 * @param[in] stride window step per spatial dimension; ignored when adaptive is true
 * @param[in] padding implicit padding per spatial dimension; ignored when adaptive is true
 * @param[in] dilation spacing between window elements per spatial dimension (max mode)
 * @param[in] ceil_mode use ceiling instead of floor when computing the output size
 * @param[in] exclusive in avg mode, exclude padded elements from the divisor (opposite of count_include_pad)
 * @param[in] adaptive if true, derive windows from output_size like adaptive pooling
 * @param[in] output_size target output size per spatial dimension, used when adaptive is true
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiPool3d(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, const char* mode,
                                   diopiSize_t ksize, diopiSize_t stride, diopiSize_t padding, diopiSize_t dilation, const bool ceil_mode,
                                   const bool exclusive, const bool adaptive, diopiSize_t output_size);

/**
 * @brief Backward of diopiPool3d: writes the input gradient for the selected pooling mode.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input gradient for input; same shape as input. Dtypes: float16, bfloat16, float32, float64.
 * @param[in] grad_output gradient with respect to the pooled output. Dtypes: float16, bfloat16, float32, float64.
 * @param[in] input forward input of shape (N, C, D, H, W) or (C, D, H, W). Dtypes: float16, bfloat16, float32, float64.
 * @param[in] mode pooling kind used in the forward call: "max" or "avg"
 * @param[in] ksize window size per spatial dimension, as in the forward call
 * @param[in] stride window step per spatial dimension, as in the forward call
 * @param[in] padding padding per spatial dimension, as in the forward call
 * @param[in] dilation window dilation per spatial dimension, as in the forward call
 * @param[in] ceil_mode output-size rounding mode, as in the forward call
 * @param[in] exclusive avg-mode divisor convention, as in the forward call
 * @param[in] adaptive whether the forward call used adaptive windows
 * @param[in] indices max mode: required, the indices diopiMaxPool3dWithIndices (adaptive:
 *     diopiAdaptiveMaxPool3dWithIndices) gave for this input, through which the gradient is routed; avg mode:
 *     may be NULL (not read). Dtypes: int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiPool3dBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                           diopiConstTensorHandle_t input, const char* mode, diopiSize_t ksize, diopiSize_t stride,
                                           diopiSize_t padding, diopiSize_t dilation, const bool ceil_mode, const bool exclusive,
                                           const bool adaptive, diopiConstTensorHandle_t indices);

/* ========================================================================
 * Family: random (random sampling)
 * ======================================================================== */

/**
 * @brief Randomly zeroes elements of `input` with probability p while training and scales the survivors by 1/(1-p);
 *        also records the keep mask. Same semantics as torch.nn.functional.dropout.
 *
 * A channel-wise variant is obtained by passing a mask of shape (N, C, 1, 1), which is broadcast over the spatial
 * dimensions.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result, same shape as input. Dtypes: float32, float64, float16, bfloat16.
 * @param[out] mask written with 1 for kept and 0 for dropped elements; shape of input or broadcastable to it. Dtypes:
 *     bool, float16, bfloat16.
 * @param[in] input tensor to apply dropout to. Dtypes: float32, float64, float16, bfloat16.
 * @param[in] p probability that an element is zeroed, in [0, 1]. Dtypes: float32, float64.
 * @param[in] train when false the operation is the identity and no randomness is drawn
 * @param[in,out] generator supplies the random state; advanced by the call
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiDropout(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiTensorHandle_t mask, diopiConstTensorHandle_t input,
                                    double p, bool train, diopiGeneratorHandle_t generator);

/**
 * @brief In-place version of diopiDropout: zeroes elements of `input` with probability p while training and rescales
 *        the kept ones by 1/(1-p).
 *
 * With p = 1 every element becomes zero.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input tensor modified in place. Dtypes: float32, float64, float16, bfloat16.
 * @param[out] mask written with 1 for kept and 0 for dropped elements; shape of input or broadcastable to it. Dtypes:
 *     bool, float16, bfloat16.
 * @param[in] p probability that an element is zeroed, in [0, 1]. Dtypes: float32, float64.
 * @param[in] train when false the tensor is left unchanged
 * @param[in,out] generator supplies the random state; advanced by the call
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiDropoutInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, diopiTensorHandle_t mask, double p, bool train,
                                       diopiGeneratorHandle_t generator);

/**
 * @brief Fills `inout` in place with integers drawn uniformly from [from, to - 1]. Same semantics as
 *        torch.Tensor.random_.
 *
 * For floating-point tensors without an explicit bound the upper limit is 2^mantissa_bits so every sample is exactly
 * representable.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] inout tensor overwritten in place with the sampled values. Dtypes: float32, float64, float16, int64,
 *     int32, int16, int8, bfloat16, uint8, bool.
 * @param[in] from inclusive lower bound of the sampled range. Dtypes: int64.
 * @param[in] to pointer to the exclusive upper bound; NULL means the largest value the dtype can represent exactly
 * @param[in,out] generator supplies the random state; advanced by the call
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiRandomInp(diopiContextHandle_t ctx, diopiTensorHandle_t inout, int64_t from, const int64_t* to,
                                      diopiGeneratorHandle_t generator);

/**
 * @brief Fills `inout` in place with values drawn from the continuous uniform distribution on [from, to). Same
 *        semantics as torch.Tensor.uniform_.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] inout floating-point tensor overwritten in place with the samples. Dtypes: float32, float64, float16,
 *     bfloat16.
 * @param[in] from lower bound of the interval. Dtypes: double.
 * @param[in] to upper bound of the interval. Dtypes: double.
 * @param[in,out] generator supplies the random state; advanced by the call
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiUniformInp(diopiContextHandle_t ctx, diopiTensorHandle_t inout, double from, double to, diopiGeneratorHandle_t generator);

/**
 * @brief Draws independent 0/1 samples where out[i] is 1 with probability input[i]. Same semantics as
 *        torch.bernoulli.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out written with the 0/1 samples; same shape as input. Dtypes: float16, bfloat16, float32, float64.
 * @param[in] input per-element success probabilities in [0, 1]. Dtypes: float16, bfloat16, float32, float64.
 * @param[in,out] generator supplies the random state; advanced by the call
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiBernoulli(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                      diopiGeneratorHandle_t generator);

/**
 * @brief In-place Bernoulli sampling: each element of `inout` is read as a probability and replaced by a 0/1 sample
 *        drawn with that probability.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] inout probabilities in [0, 1] on entry; overwritten in place with the 0/1 samples. Dtypes: float16,
 *     bfloat16, float32, float64.
 * @param[in,out] generator supplies the random state; advanced by the call
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiBernoulliInp(diopiContextHandle_t ctx, diopiTensorHandle_t inout, diopiGeneratorHandle_t generator);

/**
 * @brief Fills `out` with independent 0/1 samples, each equal to 1 with the same probability p. Same semantics as
 *        torch.Tensor.bernoulli_(p).
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out tensor overwritten with the samples. Dtypes: float16, bfloat16, float32, float64.
 * @param[in] p success probability shared by all elements, in [0, 1]
 * @param[in,out] generator supplies the random state; advanced by the call
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiBernoulliScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out, double p, diopiGeneratorHandle_t generator);

/**
 * @brief Writes a uniformly random permutation of the integers 0 .. n-1. Same semantics as torch.randperm.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out 1-D tensor of length n receiving the permutation. Dtypes: int32, int64.
 * @param[in] n number of elements to permute. Dtypes: int64.
 * @param[in,out] generator supplies the random state; advanced by the call
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiRandperm(diopiContextHandle_t ctx, diopiTensorHandle_t out, int64_t n, diopiGeneratorHandle_t generator);

/**
 * @brief Fills `out` with samples from a normal distribution with the given scalar mean and standard deviation. Same
 *        semantics as torch.normal(mean, std, size).
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out tensor overwritten with the samples. Dtypes: float16, bfloat16, float32, float64.
 * @param[in] mean mean of the distribution
 * @param[in] std standard deviation, must be non-negative
 * @param[in,out] generator supplies the random state; advanced by the call
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiNormal(diopiContextHandle_t ctx, diopiTensorHandle_t out, double mean, double std, diopiGeneratorHandle_t generator);

/**
 * @brief Samples out[i] from a normal distribution with mean mean[i] and a shared scalar standard deviation. Same
 *        semantics as torch.normal(Tensor mean, float std).
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out written with the samples; same shape as mean. Dtypes: float16, bfloat16, float32, float64.
 * @param[in] mean per-element means. Dtypes: float16, bfloat16, float32, float64.
 * @param[in] std standard deviation shared by all elements, non-negative
 * @param[in,out] generator supplies the random state; advanced by the call
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiNormalTensorScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t mean, double std,
                                               diopiGeneratorHandle_t generator);

/**
 * @brief Samples out[i] from a normal distribution with a shared scalar mean and per-element standard deviation
 *        std[i]. Same semantics as torch.normal(float mean, Tensor std).
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out written with the samples; same shape as std. Dtypes: float16, bfloat16, float32, float64.
 * @param[in] mean mean shared by all elements
 * @param[in] std per-element standard deviations, non-negative. Dtypes: float16, bfloat16, float32, float64.
 * @param[in,out] generator supplies the random state; advanced by the call
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiNormalScalarTensor(diopiContextHandle_t ctx, diopiTensorHandle_t out, double mean, diopiConstTensorHandle_t std,
                                               diopiGeneratorHandle_t generator);

/**
 * @brief Samples each output element from a normal distribution whose mean and standard deviation come from the
 *        matching elements of two tensors. Same semantics as torch.normal(Tensor mean, Tensor std).
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out written with the samples; broadcast shape of mean and std. Dtypes: float16, bfloat16, float32,
 *     float64.
 * @param[in] mean per-element means. Dtypes: float16, bfloat16, float32, float64.
 * @param[in] std per-element standard deviations, non-negative; broadcastable against mean. Dtypes: float16, bfloat16,
 *     float32, float64.
 * @param[in,out] generator supplies the random state; advanced by the call
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiNormalTensor(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t mean,
                                         diopiConstTensorHandle_t std, diopiGeneratorHandle_t generator);

/**
 * @brief Fills `inout` in place with samples from a normal distribution N(mean, std^2). Same semantics as
 *        torch.Tensor.normal_.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] inout floating-point tensor overwritten in place with the samples. Dtypes: float16, bfloat16, float32,
 *     float64.
 * @param[in] mean mean of the distribution
 * @param[in] std standard deviation, must be non-negative
 * @param[in,out] generator supplies the random state; advanced by the call
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiNormalInp(diopiContextHandle_t ctx, diopiTensorHandle_t inout, double mean, double std, diopiGeneratorHandle_t generator);

/**
 * @brief Draws category indices from the categorical distribution given by each row of non-negative weights. Same
 *        semantics as torch.multinomial.
 *
 * Without replacement, num_samples may not exceed the number of categories with non-zero weight.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out sampled indices, shape (num_samples) for 1-D input or (N, num_samples) for 2-D input. Dtypes: int64.
 * @param[in] input non-negative, not necessarily normalised weights of shape (C) or (N, C). Dtypes: float32, float64.
 * @param[in] num_samples number of indices drawn per row
 * @param[in] replacement whether a category may be drawn more than once
 * @param[in,out] generator supplies the random state; advanced by the call
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiMultinomial(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, int64_t num_samples,
                                        bool replacement, diopiGeneratorHandle_t generator);

/* ========================================================================
 * Family: loss (losses)
 * ======================================================================== */

/**
 * @brief Mean squared error between input and target: element-wise (input - target)^2, then reduced. Same semantics
 *        as torch.nn.functional.mse_loss.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out loss: scalar for mean/sum reduction, otherwise same shape as input. Dtypes: float32, float64,
 *     float16, bfloat16.
 * @param[in] input predictions of any shape. Dtypes: float32, float64, float16, bfloat16.
 * @param[in] target reference values; same shape as input. Dtypes: float32, float64, float16, bfloat16.
 * @param[in] reduction reduction mode: none keeps per-element values, mean averages them, sum adds them
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiMSELoss(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                    diopiConstTensorHandle_t target, diopiReduction_t reduction);

/**
 * @brief Backward of diopiMSELoss: grad_input = 2 * (input - target) * grad_output, divided by the element count for
 *        mean reduction.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input gradient for input; same shape as input. Dtypes: float32, float64, float16, bfloat16.
 * @param[in] grad_output gradient with respect to the loss output: scalar for mean/sum, input-shaped for none. Dtypes:
 *     float32, float64, float16, bfloat16.
 * @param[in] input forward predictions. Dtypes: float32, float64, float16, bfloat16.
 * @param[in] target forward reference values; same shape as input. Dtypes: float32, float64, float16, bfloat16.
 * @param[in] reduction reduction mode used in the forward call
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiMSELossBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                            diopiConstTensorHandle_t input, diopiConstTensorHandle_t target, diopiReduction_t reduction);

/**
 * @brief Sigmoid focal loss for dense detection: with p = sigmoid(inputs), loss = -alpha_t * (1 - p_t)^gamma *
 *        log(p_t) per element, then reduced. Same semantics as torchvision.ops.sigmoid_focal_loss.
 *
 * gamma = 0 reduces the loss to alpha-weighted binary cross entropy with logits.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out loss: per-element values for none reduction, otherwise a scalar. Dtypes: float16, bfloat16, float32,
 *     float64.
 * @param[in] inputs raw logits of any shape. Dtypes: float16, bfloat16, float32, float64.
 * @param[in] targets binary (0/1) targets with the same shape as inputs. Dtypes: float16, bfloat16, float32, float64.
 * @param[in] alpha balancing weight for positives; negatives receive 1 - alpha
 * @param[in] gamma focusing exponent that down-weights easy examples
 * @param[in] reduction reduction mode: none keeps per-element values, mean averages them, sum adds them
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiSigmoidFocalLoss(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t inputs,
                                             diopiConstTensorHandle_t targets, float alpha, float gamma, diopiReduction_t reduction);

/**
 * @brief Backward of diopiSigmoidFocalLoss: writes the gradient of the focal loss with respect to the logits.
 *
 * Note the argument order differs from most backward functions: grad_input comes after target.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_output gradient with respect to the loss output. Dtypes: float16, bfloat16, float32, float64.
 * @param[in] input forward logits. Dtypes: float16, bfloat16, float32, float64.
 * @param[in] target forward binary targets; same shape as input. Dtypes: float16, bfloat16, float32, float64.
 * @param[out] grad_input gradient for the logits; same shape as input. Dtypes: float16, bfloat16, float32, float64.
 * @param[in] gamma focusing exponent, as in the forward call
 * @param[in] alpha positive/negative balancing weight, as in the forward call
 * @param[in] reduction reduction mode used in the forward call
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiSigmoidFocalLossBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_output, diopiConstTensorHandle_t input,
                                                     diopiConstTensorHandle_t target, diopiTensorHandle_t grad_input, float gamma, float alpha,
                                                     diopiReduction_t reduction);

/**
 * @brief Cross entropy between logits and targets, i.e. log_softmax over the class dimension followed by negative log
 *        likelihood, with optional label smoothing. Same semantics as torch.nn.functional.cross_entropy.
 *
 * With mean reduction and index targets, the sum is divided by the total weight of non-ignored targets, not the
 * element count.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out loss: shape (N, ...) for none reduction, otherwise a scalar. Dtypes: float32, float64, float16,
 *     bfloat16.
 * @param[in] input unnormalized logits of shape (N, C, ...) or (C). Dtypes: float32, float64, float16, bfloat16.
 * @param[in] target either class indices of shape (N, ...) with values in [0, C) or ignore_index, in an integer dtype
 *     (int64 or int32), or class probabilities with the same shape and floating dtype as input. Dtypes: float32,
 *     float64, float16, bfloat16, int64, int32.
 * @param[in] weight per-class rescaling weights of shape (C); may be NULL for uniform weights. Dtypes: float32,
 *     float64, float16, bfloat16.
 * @param[in] reduction reduction mode: none keeps per-element values, mean averages them, sum adds them
 * @param[in] ignore_index target class whose positions contribute neither loss nor gradient (index targets only).
 *     Dtypes: int64.
 * @param[in] label_smoothing amount in [0, 1] mixed from a uniform distribution into the targets. Dtypes: float32,
 *     float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiCrossEntropyLoss(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                             diopiConstTensorHandle_t target, diopiConstTensorHandle_t weight, diopiReduction_t reduction,
                                             int64_t ignore_index, double label_smoothing);

/**
 * @brief Backward of diopiCrossEntropyLoss: writes the gradient with respect to the logits.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input gradient for the logits; same shape as input. Dtypes: float32, float64, float16, bfloat16.
 * @param[in] grad_output gradient with respect to the loss output. Dtypes: float32, float64, float16, bfloat16.
 * @param[in] input forward logits of shape (N, C, ...). Dtypes: float32, float64, float16, bfloat16.
 * @param[in] target forward targets: class indices in an integer dtype (int64 or int32), or class probabilities in
 *     input's floating dtype. Dtypes: float32, float64, float16, bfloat16, int64, int32.
 * @param[in] weight per-class weights of shape (C) from the forward call; may be NULL. Dtypes: float32, float64,
 *     float16, bfloat16.
 * @param[in] reduction reduction mode used in the forward call
 * @param[in] ignore_index ignored target class, as in the forward call. Dtypes: int64.
 * @param[in] label_smoothing label smoothing amount, as in the forward call. Dtypes: float32, float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiCrossEntropyLossBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                                     diopiConstTensorHandle_t input, diopiConstTensorHandle_t target,
                                                     diopiConstTensorHandle_t weight, diopiReduction_t reduction, int64_t ignore_index,
                                                     double label_smoothing);

/**
 * @brief Negative log likelihood loss: picks -input[n, target[n]] (times the class weight) for each sample and
 *        reduces. Same semantics as torch.nn.functional.nll_loss.
 *
 * Mean reduction divides by the sum of weights of non-ignored targets; if all are ignored the result is NaN.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out loss: shape (N, ...) for none reduction, otherwise a scalar. Dtypes: float16, bfloat16, float32,
 *     float64.
 * @param[in] input log-probabilities of shape (N, C, ...) or (C). Dtypes: float16, bfloat16, float32, float64.
 * @param[in] target class indices of shape (N, ...) with values in [0, C). Dtypes: int8, uint8, int16, int32, int64.
 * @param[in] weight per-class rescaling weights of shape (C); may be NULL for uniform weights. Dtypes: float16,
 *     bfloat16, float32, float64.
 * @param[in] reduction reduction mode: none keeps per-element values, mean averages them, sum adds them
 * @param[in] ignore_index target value whose positions are skipped and excluded from the mean
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiNLLLoss(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                    diopiConstTensorHandle_t target, diopiConstTensorHandle_t weight, diopiReduction_t reduction,
                                    int64_t ignore_index);

/**
 * @brief Backward of diopiNLLLoss: writes -weight[target] * grad_output at each target class position and zeros
 *        elsewhere.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input gradient for input; same shape as input. Dtypes: float16, bfloat16, float32, float64.
 * @param[in] grad_output gradient with respect to the loss output. Dtypes: float16, bfloat16, float32, float64.
 * @param[in] input forward log-probabilities of shape (N, C, ...). Dtypes: float16, bfloat16, float32, float64.
 * @param[in] target forward class indices. Dtypes: int8, uint8, int16, int32, int64.
 * @param[in] weight per-class weights of shape (C); may be NULL. Dtypes: float16, bfloat16, float32, float64.
 * @param[in] reduction reduction mode used in the forward call
 * @param[in] ignore_index ignored target value, as in the forward call
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiNLLLossBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                            diopiConstTensorHandle_t input, diopiConstTensorHandle_t target, diopiConstTensorHandle_t weight,
                                            diopiReduction_t reduction, int64_t ignore_index);

/**
 * @brief Negative log likelihood loss that additionally returns the total weight used for mean reduction. Same
 *        semantics as torch.ops.aten.nll_loss_forward.
 *
 * totalWeight is what the mean reduction divides by, and is passed unchanged to diopiNLLLossV2Backward.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out loss: shape (N, ...) for none reduction, otherwise a scalar. Dtypes: float16, bfloat16, float32,
 *     float64.
 * @param[out] totalWeight scalar written with the summed weight of all non-ignored targets. Dtypes: float16, bfloat16,
 *     float32, float64.
 * @param[in] input log-probabilities of shape (N, C, ...) or (C). Dtypes: float16, bfloat16, float32, float64.
 * @param[in] target class indices of shape (N, ...) with values in [0, C). Dtypes: int8, uint8, int16, int32, int64.
 * @param[in] weight per-class rescaling weights of shape (C); may be NULL for uniform weights. Dtypes: float16,
 *     bfloat16, float32, float64.
 * @param[in] reduction reduction mode: none keeps per-element values, mean averages them, sum adds them
 * @param[in] ignore_index target value whose positions are skipped
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiNLLLossV2(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiTensorHandle_t totalWeight,
                                      diopiConstTensorHandle_t input, diopiConstTensorHandle_t target, diopiConstTensorHandle_t weight,
                                      diopiReduction_t reduction, int64_t ignore_index);

/**
 * @brief Backward of diopiNLLLossV2: writes the gradient with respect to the log-probabilities using the saved total
 *        weight.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input gradient for input; same shape as input. Dtypes: float16, bfloat16, float32, float64.
 * @param[in] grad_output gradient with respect to the loss output. Dtypes: float16, bfloat16, float32, float64.
 * @param[in] input forward log-probabilities of shape (N, C, ...). Dtypes: float16, bfloat16, float32, float64.
 * @param[in] target forward class indices. Dtypes: int8, uint8, int16, int32, int64.
 * @param[in] weight per-class weights of shape (C); may be NULL. Dtypes: float16, bfloat16, float32, float64.
 * @param[in] totalWeight scalar total weight produced by the forward call. Dtypes: float32.
 * @param[in] reduction reduction mode used in the forward call
 * @param[in] ignore_index ignored target value, as in the forward call
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiNLLLossV2Backward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                              diopiConstTensorHandle_t input, diopiConstTensorHandle_t target, diopiConstTensorHandle_t weight,
                                              diopiConstTensorHandle_t totalWeight, diopiReduction_t reduction, int64_t ignore_index);

/**
 * @brief Binary cross entropy on logits, computed stably: -w * [pos_weight * t * log(sigmoid(x)) + (1 - t) * log(1 -
 *        sigmoid(x))], then reduced. Same semantics as torch.nn.functional.binary_cross_entropy_with_logits.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out loss: scalar for mean/sum reduction, otherwise same shape as input. Dtypes: float32, float64,
 *     float16, bfloat16.
 * @param[in] input logits of any shape. Dtypes: float32, float64, float16, bfloat16.
 * @param[in] target targets in [0, 1]; same shape as input. Dtypes: float32, float64, float16, bfloat16.
 * @param[in] weight element rescaling weights broadcastable to input; may be NULL. Dtypes: float32, float64, float16,
 *     bfloat16.
 * @param[in] pos_weight weight of positive examples, broadcast along the last (class) dimension; may be NULL. Dtypes:
 *     int64, float16, bfloat16, float32, float64.
 * @param[in] reduction reduction mode: none keeps per-element values, mean averages them, sum adds them
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiBCEWithLogits(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                          diopiConstTensorHandle_t target, diopiConstTensorHandle_t weight, diopiConstTensorHandle_t pos_weight,
                                          diopiReduction_t reduction);

/**
 * @brief Backward of diopiBCEWithLogits: writes the gradient with respect to the logits.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input gradient for input; same shape as input. Dtypes: float32, float64, float16, bfloat16.
 * @param[in] grad_output gradient with respect to the loss output: scalar for mean/sum, input-shaped for none. Dtypes:
 *     float32, float64, float16, bfloat16.
 * @param[in] input forward logits. Dtypes: float32, float64, float16, bfloat16.
 * @param[in] target forward targets; same shape as input. Dtypes: float32, float64, float16, bfloat16.
 * @param[in] weight element weights from the forward call; may be NULL. Dtypes: float32, float64, float16, bfloat16.
 * @param[in] pos_weight positive-example weights from the forward call; may be NULL. Dtypes: int64, float16, bfloat16,
 *     float32, float64.
 * @param[in] reduction reduction mode used in the forward call
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiBCEWithLogitsBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                                  diopiConstTensorHandle_t input, diopiConstTensorHandle_t target, diopiConstTensorHandle_t weight,
                                                  diopiConstTensorHandle_t pos_weight, diopiReduction_t reduction);

/**
 * @brief Binary cross entropy on probabilities: -w * [t * log(x) + (1 - t) * log(1 - x)], then reduced. Same
 *        semantics as torch.nn.functional.binary_cross_entropy.
 *
 * Log terms are clamped at -100 so inputs of exactly 0 or 1 give finite losses.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out loss: scalar for mean/sum reduction, otherwise same shape as input. Dtypes: float16, bfloat16,
 *     float32, float64.
 * @param[in] input probabilities in [0, 1] of any shape. Dtypes: float32, float64, float16, bfloat16.
 * @param[in] target targets in [0, 1]; same shape as input. Dtypes: float32, float64, float16, bfloat16.
 * @param[in] weight element rescaling weights broadcastable to input; may be NULL. Dtypes: float32, float64, float16,
 *     bfloat16.
 * @param[in] reduction reduction mode: none keeps per-element values, mean averages them, sum adds them
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiBCELoss(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                    diopiConstTensorHandle_t target, diopiConstTensorHandle_t weight, diopiReduction_t reduction);

/**
 * @brief Backward of diopiBCELoss: grad_input = w * (input - target) / (input * (1 - input)) * grad_output, scaled
 *        for mean reduction.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input gradient for input; same shape as input. Dtypes: float32, float64, float16, bfloat16.
 * @param[in] grad_output gradient with respect to the loss output: scalar for mean/sum, input-shaped for none. Dtypes:
 *     float32, float64, float16, bfloat16.
 * @param[in] input forward probabilities. Dtypes: float32, float64, float16, bfloat16.
 * @param[in] target forward targets; same shape as input. Dtypes: float32, float64, float16, bfloat16.
 * @param[in] weight element weights from the forward call; may be NULL. Dtypes: float32, float64, float16, bfloat16.
 * @param[in] reduction reduction mode used in the forward call
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiBCELossBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                            diopiConstTensorHandle_t input, diopiConstTensorHandle_t target, diopiConstTensorHandle_t weight,
                                            diopiReduction_t reduction);

/**
 * @brief Smooth L1 (Huber-like) loss: 0.5 * d^2 / beta where |d| < beta, else |d| - 0.5 * beta, with d = input -
 *        target, then reduced. Same semantics as torch.nn.functional.smooth_l1_loss.
 *
 * beta = 0 makes the loss identical to plain L1 loss.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out loss: scalar for mean/sum reduction, otherwise same shape as input. Dtypes: float16, bfloat16,
 *     float32, float64.
 * @param[in] input predictions of any shape. Dtypes: float16, bfloat16, float32, float64.
 * @param[in] target reference values; same shape as input. Dtypes: float16, bfloat16, float32, float64.
 * @param[in] reduction reduction mode: none keeps per-element values, mean averages them, sum adds them
 * @param[in] beta threshold where the loss switches from quadratic to linear; non-negative
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiSmoothL1Loss(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                         diopiConstTensorHandle_t target, diopiReduction_t reduction, double beta);

/**
 * @brief Backward of diopiSmoothL1Loss: gradient is d / beta inside the quadratic zone and sign(d) outside, times
 *        grad_output.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input gradient for input; same shape as input. Dtypes: float16, bfloat16, float32, float64.
 * @param[in] grad_output gradient with respect to the loss output: scalar for mean/sum, input-shaped for none. Dtypes:
 *     float16, bfloat16, float32, float64.
 * @param[in] input forward predictions. Dtypes: float16, bfloat16, float32, float64.
 * @param[in] target forward reference values. Dtypes: float16, bfloat16, float32, float64.
 * @param[in] reduction reduction mode used in the forward call
 * @param[in] beta quadratic-to-linear threshold, as in the forward call
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiSmoothL1LossBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                                 diopiConstTensorHandle_t input, diopiConstTensorHandle_t target, diopiReduction_t reduction,
                                                 double beta);

/**
 * @brief Connectionist Temporal Classification loss: negative log probability of each target sequence summed over all
 *        valid alignments. Same semantics as torch.nn.functional.ctc_loss.
 *
 * An alignment is impossible when input_length is too short for the target, giving an infinite loss unless
 * zero_infinity is set.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out loss: shape (N) for none reduction, otherwise a scalar. Dtypes: float32, float64.
 * @param[in,out] neg_log_likelihood written with per-sample negative log likelihood, shape (N), for the backward pass.
 *     Dtypes: float32, float64.
 * @param[in,out] log_alpha written with forward-variable table of shape (N, T, 2*max_target_len + 1) for backward,
 *     max_target_len the largest of target_lengths. Only entries [n, t, s] with t < input_lengths[n] and
 *     s < 2*target_lengths[n] + 1 are defined (log of the forward variable, -inf where it is 0); the others are
 *     unspecified, may be left unwritten, and diopiCTCLossBackward does not read them. Dtypes: float32, float64.
 * @param[in] log_probs log-softmax outputs of shape (T, N, C), C including the blank class. Dtypes: float32, float64.
 * @param[in] targets padded targets of shape (N, S) or all targets concatenated in 1-D. Dtypes: int32, int64.
 * @param[in] input_lengths valid time steps per sample, shape (N). Dtypes: int32, int64.
 * @param[in] target_lengths target length per sample, shape (N). Dtypes: int32, int64.
 * @param[in] blank class index reserved for the blank label
 * @param[in] reduction none keeps per-sample losses; mean divides each by its target length then averages; sum adds
 * @param[in] zero_infinity replace infinite losses (impossible alignments) and their gradients with zero
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiCTCLoss(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiTensorHandle_t neg_log_likelihood,
                                    diopiTensorHandle_t log_alpha, diopiConstTensorHandle_t log_probs, diopiConstTensorHandle_t targets,
                                    diopiConstTensorHandle_t input_lengths, diopiConstTensorHandle_t target_lengths, int64_t blank,
                                    diopiReduction_t reduction, bool zero_infinity);

/**
 * @brief Backward of diopiCTCLoss: writes the gradient with respect to log_probs using the saved alignment tables.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input gradient for log_probs; shape (T, N, C). Dtypes: float32, float64.
 * @param[in] grad_output gradient with respect to the loss output. Dtypes: float32, float64.
 * @param[in] log_probs forward log-probabilities of shape (T, N, C). Dtypes: float32, float64.
 * @param[in] targets forward targets. Dtypes: int32, int64.
 * @param[in] input_lengths valid time steps per sample, shape (N). Dtypes: int32, int64.
 * @param[in] target_lengths target length per sample, shape (N). Dtypes: int32, int64.
 * @param[in] neg_log_likelihood per-sample negative log likelihood saved by the forward call. Dtypes: float32, float64.
 * @param[in] log_alpha forward-variable table saved by the forward call; only its defined entries (see diopiCTCLoss)
 *     are read. Dtypes: float32, float64.
 * @param[in] blank blank class index, as in the forward call
 * @param[in] reduction reduction mode used in the forward call
 * @param[in] zero_infinity whether infinite losses were zeroed in the forward call
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
 * Family: elementwise_unary (elementwise unary)
 * ======================================================================== */

/**
 * @brief Writes -1, 0 or +1 to `out` depending on whether each element of `input` is negative, zero or positive. Same
 *        semantics as torch.sign.
 *
 * NaN inputs yield NaN for floating-point tensors; bool inputs map to 0 or 1.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result tensor, same shape as `input`, holding -1, 0 or 1. Dtypes: float16, bfloat16, float32,
 *     float64, int8, uint8, int16, int32, int64, bool.
 * @param[in] input source tensor. Dtypes: float16, bfloat16, float32, float64, int8, uint8, int16, int32, int64, bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiSign(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input);

/**
 * @brief In-place variant of diopiAbs, which computes the absolute value |x| of each element; the result overwrites
 *        `input`. Same semantics as torch.Tensor.abs_.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input tensor that is read and overwritten with the result. Dtypes: float16, float32, float64, int16,
 *     int32, int64, uint8, int8, bfloat16.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAbsInp(diopiContextHandle_t ctx, diopiTensorHandle_t input);

/**
 * @brief Computes the absolute value |x| of each element, writing the result to `out`. Same semantics as torch.abs.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result tensor, same shape as `input`. Dtypes: float16, float32, float64, int16, int32, int64, uint8,
 *     int8, bfloat16.
 * @param[in] input source tensor. Dtypes: float16, float32, float64, int16, int32, int64, uint8, int8, bfloat16.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAbs(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input);

/**
 * @brief In-place variant of diopiNeg, which computes the negation -x of each element; the result overwrites `input`.
 *        Same semantics as torch.Tensor.neg_.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input tensor that is read and overwritten with the result. Dtypes: float16, float32, float64, int16,
 *     int32, int64, uint8, int8, bfloat16.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiNegInp(diopiContextHandle_t ctx, diopiTensorHandle_t input);

/**
 * @brief Computes the negation -x of each element, writing the result to `out`. Same semantics as torch.neg.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result tensor, same shape as `input`. Dtypes: float16, float32, float64, int16, int32, int64, uint8,
 *     int8, bfloat16.
 * @param[in] input source tensor. Dtypes: float16, float32, float64, int16, int32, int64, uint8, int8, bfloat16.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiNeg(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input);

/**
 * @brief In-place variant of diopiFloor, which computes the largest integer not greater than each element (rounding
 *        toward minus infinity); the result overwrites `input`. Same semantics as torch.Tensor.floor_.
 *
 * Integer inputs are returned unchanged.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input tensor that is read and overwritten with the result. Dtypes: float16, float32, float64, int8,
 *     int16, int32, int64, uint8, bfloat16.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiFloorInp(diopiContextHandle_t ctx, diopiTensorHandle_t input);

/**
 * @brief Computes the largest integer not greater than each element (rounding toward minus infinity), writing the
 *        result to `out`. Same semantics as torch.floor.
 *
 * Integer inputs are returned unchanged.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result tensor, same shape as `input`. Dtypes: float16, float32, float64, int8, int16, int32, int64,
 *     uint8, bfloat16.
 * @param[in] input source tensor. Dtypes: float16, float32, float64, int8, int16, int32, int64, uint8, bfloat16.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiFloor(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input);

/**
 * @brief In-place variant of diopiCeil, which computes the smallest integer not less than each element (rounding
 *        toward plus infinity); the result overwrites `input`. Same semantics as torch.Tensor.ceil_.
 *
 * Integer inputs are returned unchanged.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input tensor that is read and overwritten with the result. Dtypes: float16, float32, float64, int8,
 *     int16, int32, int64, uint8, bfloat16.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiCeilInp(diopiContextHandle_t ctx, diopiTensorHandle_t input);

/**
 * @brief Computes the smallest integer not less than each element (rounding toward plus infinity), writing the result
 *        to `out`. Same semantics as torch.ceil.
 *
 * Integer inputs are returned unchanged.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result tensor, same shape as `input`. Dtypes: float16, float32, float64, int8, int16, int32, int64,
 *     uint8, bfloat16.
 * @param[in] input source tensor. Dtypes: float16, float32, float64, int8, int16, int32, int64, uint8, bfloat16.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiCeil(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input);

/**
 * @brief In-place variant of diopiSqrt, which computes the square root of each element; the result overwrites
 *        `input`. Same semantics as torch.Tensor.sqrt_.
 *
 * Negative inputs produce NaN.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input tensor that is read and overwritten with the result. Dtypes: float16, float32, bfloat16,
 *     float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiSqrtInp(diopiContextHandle_t ctx, diopiTensorHandle_t input);

/**
 * @brief Computes the square root of each element, writing the result to `out`. Same semantics as torch.sqrt.
 *
 * Negative inputs produce NaN.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result tensor, same shape as `input`. Dtypes: float16, float32, bfloat16, float64.
 * @param[in] input source tensor. Dtypes: float16, float32, bfloat16, float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiSqrt(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input);

/**
 * @brief In-place variant of diopiRsqrt, which computes the reciprocal square root 1 / sqrt(x) of each element; the
 *        result overwrites `input`. Same semantics as torch.Tensor.rsqrt_.
 *
 * Zero maps to +inf and negative inputs produce NaN.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input tensor that is read and overwritten with the result. Dtypes: float16, float32, bfloat16,
 *     float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiRsqrtInp(diopiContextHandle_t ctx, diopiTensorHandle_t input);

/**
 * @brief Computes the reciprocal square root 1 / sqrt(x) of each element, writing the result to `out`. Same semantics
 *        as torch.rsqrt.
 *
 * Zero maps to +inf and negative inputs produce NaN.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result tensor, same shape as `input`. Dtypes: float16, bfloat16, float32, float64.
 * @param[in] input source tensor. Dtypes: float16, bfloat16, float32, float64, uint8, int32, int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiRsqrt(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input);

/**
 * @brief In-place variant of diopiSin, which computes the sine of each element (radians); the result overwrites
 *        `input`. Same semantics as torch.Tensor.sin_.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input tensor that is read and overwritten with the result. Dtypes: float16, float32, float64,
 *     bfloat16.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiSinInp(diopiContextHandle_t ctx, diopiTensorHandle_t input);

/**
 * @brief Computes the sine of each element (radians), writing the result to `out`. Same semantics as torch.sin.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result tensor, same shape as `input`. Dtypes: float16, float32, float64, bfloat16.
 * @param[in] input source tensor. Dtypes: float16, float32, float64, int16, int32, int64, uint8, int8, bfloat16.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiSin(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input);

/**
 * @brief In-place variant of diopiAsin, which computes the arcsine of each element, in radians; the result overwrites
 *        `input`. Same semantics as torch.Tensor.asin_.
 *
 * Inputs outside [-1, 1] produce NaN.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input tensor that is read and overwritten with the result. Dtypes: float16, float32, float64,
 *     bfloat16.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAsinInp(diopiContextHandle_t ctx, diopiTensorHandle_t input);

/**
 * @brief Computes the arcsine of each element, in radians, writing the result to `out`. Same semantics as torch.asin.
 *
 * Inputs outside [-1, 1] produce NaN.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result tensor, same shape as `input`. Dtypes: float16, float32, float64, bfloat16.
 * @param[in] input source tensor. Dtypes: float16, float32, float64, int16, int32, int64, uint8, int8, bfloat16.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAsin(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input);

/**
 * @brief In-place variant of diopiCos, which computes the cosine of each element (radians); the result overwrites
 *        `input`. Same semantics as torch.Tensor.cos_.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input tensor that is read and overwritten with the result. Dtypes: float16, float32, float64,
 *     bfloat16.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiCosInp(diopiContextHandle_t ctx, diopiTensorHandle_t input);

/**
 * @brief Computes the cosine of each element (radians), writing the result to `out`. Same semantics as torch.cos.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result tensor, same shape as `input`. Dtypes: float16, float32, float64, bfloat16.
 * @param[in] input source tensor. Dtypes: float16, float32, float64, int16, int32, int64, uint8, int8, bfloat16.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiCos(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input);

/**
 * @brief In-place variant of diopiAcos, which computes the arccosine of each element, in radians; the result
 *        overwrites `input`. Same semantics as torch.Tensor.acos_.
 *
 * Inputs outside [-1, 1] produce NaN.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input tensor that is read and overwritten with the result. Dtypes: float16, float32, float64,
 *     bfloat16.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAcosInp(diopiContextHandle_t ctx, diopiTensorHandle_t input);

/**
 * @brief Computes the arccosine of each element, in radians, writing the result to `out`. Same semantics as
 *        torch.acos.
 *
 * Inputs outside [-1, 1] produce NaN.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result tensor, same shape as `input`. Dtypes: float16, float32, float64, bfloat16.
 * @param[in] input source tensor. Dtypes: float16, float32, float64, int16, int32, int64, uint8, int8, bfloat16.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAcos(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input);

/**
 * @brief In-place variant of diopiTan, which computes the tangent of each element (radians); the result overwrites
 *        `input`. Same semantics as torch.Tensor.tan_.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input tensor that is read and overwritten with the result. Dtypes: float16, float32, float64,
 *     bfloat16.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiTanInp(diopiContextHandle_t ctx, diopiTensorHandle_t input);

/**
 * @brief Computes the tangent of each element (radians), writing the result to `out`. Same semantics as torch.tan.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result tensor, same shape as `input`. Dtypes: float16, float32, float64, bfloat16.
 * @param[in] input source tensor. Dtypes: float16, float32, float64, int16, int32, int64, uint8, int8, bfloat16.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiTan(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input);

/**
 * @brief In-place variant of diopiSinh, which computes the hyperbolic sine of each element; the result overwrites
 *        `input`. Same semantics as torch.Tensor.sinh_.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input tensor that is read and overwritten with the result. Dtypes: float16, float32, float64,
 *     bfloat16.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiSinhInp(diopiContextHandle_t ctx, diopiTensorHandle_t input);

/**
 * @brief Computes the hyperbolic sine of each element, writing the result to `out`. Same semantics as torch.sinh.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result tensor, same shape as `input`. Dtypes: float16, float32, float64, bfloat16.
 * @param[in] input source tensor. Dtypes: float16, float32, float64, bfloat16, uint8, int32, int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiSinh(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input);

/**
 * @brief In-place variant of diopiCosh, which computes the hyperbolic cosine of each element; the result overwrites
 *        `input`. Same semantics as torch.Tensor.cosh_.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input tensor that is read and overwritten with the result. Dtypes: float16, float32, float64,
 *     bfloat16.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiCoshInp(diopiContextHandle_t ctx, diopiTensorHandle_t input);

/**
 * @brief Computes the hyperbolic cosine of each element, writing the result to `out`. Same semantics as torch.cosh.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result tensor, same shape as `input`. Dtypes: float16, float32, float64, bfloat16.
 * @param[in] input source tensor. Dtypes: float16, float32, float64, bfloat16, uint8, int32, int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiCosh(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input);

/**
 * @brief Computes the arctangent of each element, in radians within (-pi/2, pi/2), writing the result to `out`. Same
 *        semantics as torch.atan.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result tensor, same shape as `input`. Dtypes: float16, float32, float64, bfloat16.
 * @param[in] input source tensor. Dtypes: float16, float32, float64, bfloat16, uint8, int32, int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAtan(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input);

/**
 * @brief In-place variant of diopiAtan, which computes the arctangent of each element, in radians within (-pi/2,
 *        pi/2); the result overwrites `input`. Same semantics as torch.Tensor.atan_.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input tensor that is read and overwritten with the result. Dtypes: float16, float32, float64,
 *     bfloat16.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAtanInp(diopiContextHandle_t ctx, diopiTensorHandle_t input);

/**
 * @brief In-place variant of diopiAsinh, which computes the inverse hyperbolic sine of each element; the result
 *        overwrites `input`. Same semantics as torch.Tensor.asinh_.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input tensor that is read and overwritten with the result. Dtypes: float16, float32, float64,
 *     bfloat16.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAsinhInp(diopiContextHandle_t ctx, diopiTensorHandle_t input);

/**
 * @brief Computes the inverse hyperbolic sine of each element, writing the result to `out`. Same semantics as
 *        torch.asinh.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result tensor, same shape as `input`. Dtypes: float16, float32, float64, bfloat16.
 * @param[in] input source tensor. Dtypes: float16, float32, float64, bfloat16, uint8, int32, int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAsinh(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input);

/**
 * @brief In-place variant of diopiAcosh, which computes the inverse hyperbolic cosine of each element; the result
 *        overwrites `input`. Same semantics as torch.Tensor.acosh_.
 *
 * Inputs below 1 produce NaN.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input tensor that is read and overwritten with the result. Dtypes: float16, float32, float64,
 *     bfloat16.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAcoshInp(diopiContextHandle_t ctx, diopiTensorHandle_t input);

/**
 * @brief Computes the inverse hyperbolic cosine of each element, writing the result to `out`. Same semantics as
 *        torch.acosh.
 *
 * Inputs below 1 produce NaN.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result tensor, same shape as `input`. Dtypes: float16, float32, float64, bfloat16.
 * @param[in] input source tensor. Dtypes: float16, float32, float64, bfloat16, uint8, int32, int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAcosh(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input);

/**
 * @brief In-place variant of diopiAtanh, which computes the inverse hyperbolic tangent of each element; the result
 *        overwrites `input`. Same semantics as torch.Tensor.atanh_.
 *
 * Inputs of exactly +-1 give +-inf and inputs outside [-1, 1] give NaN.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input tensor that is read and overwritten with the result. Dtypes: float16, float32, float64,
 *     bfloat16.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAtanhInp(diopiContextHandle_t ctx, diopiTensorHandle_t input);

/**
 * @brief Computes the inverse hyperbolic tangent of each element, writing the result to `out`. Same semantics as
 *        torch.atanh.
 *
 * Inputs of exactly +-1 give +-inf and inputs outside [-1, 1] give NaN.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result tensor, same shape as `input`. Dtypes: float16, float32, float64, bfloat16.
 * @param[in] input source tensor. Dtypes: float16, float32, float64, bfloat16, int32.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAtanh(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input);

/**
 * @brief In-place variant of diopiExp, which computes e raised to the power of each element; the result overwrites
 *        `input`. Same semantics as torch.Tensor.exp_.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input tensor that is read and overwritten with the result. Dtypes: float16, float32, float64,
 *     bfloat16.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiExpInp(diopiContextHandle_t ctx, diopiTensorHandle_t input);

/**
 * @brief Computes e raised to the power of each element, writing the result to `out`. Same semantics as torch.exp.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result tensor, same shape as `input`. Dtypes: float16, float32, float64, bfloat16.
 * @param[in] input source tensor. Dtypes: float16, float32, float64, int16, int32, int64, uint8, int8, bool, bfloat16.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiExp(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input);

/**
 * @brief In-place variant of diopiExpm1, which computes exp(x) - 1 for each element, accurate for x near zero; the
 *        result overwrites `input`. Same semantics as torch.Tensor.expm1_.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input tensor that is read and overwritten with the result. Dtypes: float16, float32, float64,
 *     bfloat16.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiExpm1Inp(diopiContextHandle_t ctx, diopiTensorHandle_t input);

/**
 * @brief Computes exp(x) - 1 for each element, accurate for x near zero, writing the result to `out`. Same semantics
 *        as torch.expm1.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result tensor, same shape as `input`. Dtypes: float16, float32, float64, bfloat16.
 * @param[in] input source tensor. Dtypes: float16, float32, float64, int16, int32, int64, uint8, int8, bool, bfloat16.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiExpm1(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input);

/**
 * @brief In-place variant of diopiLog, which computes the natural logarithm of each element; the result overwrites
 *        `input`. Same semantics as torch.Tensor.log_.
 *
 * Zero maps to -inf and negative inputs produce NaN.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input tensor that is read and overwritten with the result. Dtypes: float16, float32, float64,
 *     bfloat16.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiLogInp(diopiContextHandle_t ctx, diopiTensorHandle_t input);

/**
 * @brief Computes the natural logarithm of each element, writing the result to `out`. Same semantics as torch.log.
 *
 * Zero maps to -inf and negative inputs produce NaN.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result tensor, same shape as `input`. Dtypes: float16, float32, float64, bfloat16.
 * @param[in] input source tensor. Dtypes: float16, float32, float64, int16, int32, int64, uint8, int8, bfloat16.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiLog(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input);

/**
 * @brief In-place variant of diopiLog2, which computes the base-2 logarithm of each element; the result overwrites
 *        `input`. Same semantics as torch.Tensor.log2_.
 *
 * Zero maps to -inf and negative inputs produce NaN.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input tensor that is read and overwritten with the result. Dtypes: float16, float32, float64,
 *     bfloat16.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiLog2Inp(diopiContextHandle_t ctx, diopiTensorHandle_t input);

/**
 * @brief Computes the base-2 logarithm of each element, writing the result to `out`. Same semantics as torch.log2.
 *
 * Zero maps to -inf and negative inputs produce NaN.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result tensor, same shape as `input`. Dtypes: float16, float32, float64, bfloat16.
 * @param[in] input source tensor. Dtypes: float16, float32, float64, int16, int32, int64, uint8, int8, bfloat16.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiLog2(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input);

/**
 * @brief In-place variant of diopiLog10, which computes the base-10 logarithm of each element; the result overwrites
 *        `input`. Same semantics as torch.Tensor.log10_.
 *
 * Zero maps to -inf and negative inputs produce NaN.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input tensor that is read and overwritten with the result. Dtypes: float16, bfloat16, float32,
 *     float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiLog10Inp(diopiContextHandle_t ctx, diopiTensorHandle_t input);

/**
 * @brief Computes the base-10 logarithm of each element, writing the result to `out`. Same semantics as torch.log10.
 *
 * Zero maps to -inf and negative inputs produce NaN.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result tensor, same shape as `input`. Dtypes: float16, bfloat16, float32, float64.
 * @param[in] input source tensor. Dtypes: float16, bfloat16, float32, float64, uint8, int32, int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiLog10(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input);

/**
 * @brief In-place variant of diopiLog1p, which computes log(1 + x) for each element, accurate for x near zero; the
 *        result overwrites `input`. Same semantics as torch.Tensor.log1p_.
 *
 * x = -1 maps to -inf and x < -1 produces NaN.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input tensor that is read and overwritten with the result. Dtypes: float16, bfloat16, float32,
 *     float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiLog1pInp(diopiContextHandle_t ctx, diopiTensorHandle_t input);

/**
 * @brief Computes log(1 + x) for each element, accurate for x near zero, writing the result to `out`. Same semantics
 *        as torch.log1p.
 *
 * x = -1 maps to -inf and x < -1 produces NaN.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result tensor, same shape as `input`. Dtypes: float16, bfloat16, float32, float64.
 * @param[in] input source tensor. Dtypes: float16, bfloat16, float32, float64, uint8, int32, int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiLog1p(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input);

/**
 * @brief In-place variant of diopiErf, which computes the Gauss error function erf(x) of each element; the result
 *        overwrites `input`. Same semantics as torch.Tensor.erf_.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] input tensor that is read and overwritten with the result. Dtypes: float16, bfloat16, float32, float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiErfInp(diopiContextHandle_t ctx, diopiTensorHandle_t input);

/**
 * @brief Computes the Gauss error function erf(x) of each element, writing the result to `out`. Same semantics as
 *        torch.erf.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result tensor, same shape as `input`. Dtypes: float16, bfloat16, float32, float64.
 * @param[in] input source tensor. Dtypes: float16, bfloat16, float32, float64, uint8, int32, int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiErf(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input);

/**
 * @brief Computes the reciprocal 1 / x of each element, writing the result to `out`. Same semantics as
 *        torch.reciprocal.
 *
 * Zero maps to inf; integer inputs yield a floating-point result.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result tensor, same shape as `input`. Dtypes: float16, float32, float64, bfloat16.
 * @param[in] input source tensor. Dtypes: float16, float32, float64, bfloat16, uint8, int32, int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiReciprocal(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input);

/**
 * @brief In-place variant of diopiReciprocal, which computes the reciprocal 1 / x of each element; the result
 *        overwrites `input`. Same semantics as torch.Tensor.reciprocal_.
 *
 * Zero maps to inf; integer inputs yield a floating-point result.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input tensor that is read and overwritten with the result. Dtypes: float16, float32, float64,
 *     bfloat16.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiReciprocalInp(diopiContextHandle_t ctx, diopiTensorHandle_t input);

/**
 * @brief Computes the inverse error function of each element, so that erf(out) = x, writing the result to `out`. Same
 *        semantics as torch.erfinv.
 *
 * Inputs of +-1 give +-inf and inputs outside [-1, 1] give NaN.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result tensor, same shape as `input`. Dtypes: float16, bfloat16, float32, float64.
 * @param[in] input source tensor. Dtypes: float16, bfloat16, float32, float64, int32.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiErfinv(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input);

/**
 * @brief In-place variant of diopiErfinv, which computes the inverse error function of each element, so that erf(out)
 *        = x; the result overwrites `input`. Same semantics as torch.Tensor.erfinv_.
 *
 * Inputs of +-1 give +-inf and inputs outside [-1, 1] give NaN.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] input tensor that is read and overwritten with the result. Dtypes: float16, bfloat16, float32, float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiErfinvInp(diopiContextHandle_t ctx, diopiTensorHandle_t input);

/**
 * @brief Computes the sign of each element; for complex values this is x / |x| (0 where x is 0), writing the result
 *        to `out`. Same semantics as torch.sgn.
 *
 * For real inputs it behaves like diopiSign.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result tensor, same shape as `input`. Dtypes: float16, bfloat16, float32, float64, int8, uint8,
 *     int16, int32, int64, bool, complex64, complex128.
 * @param[in] input source tensor. Dtypes: float16, bfloat16, float32, float64, int8, uint8, int16, int32, int64, bool,
 *     complex64, complex128.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiSgn(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input);

/**
 * @brief In-place variant of diopiSgn, which computes the sign of each element; for complex values this is x / |x| (0
 *        where x is 0); the result overwrites `input`. Same semantics as torch.Tensor.sgn_.
 *
 * For real inputs it behaves like diopiSign.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input tensor that is read and overwritten with the result. Dtypes: float16, bfloat16, float32,
 *     float64, int8, uint8, int16, int32, int64, complex64, complex128.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiSgnInp(diopiContextHandle_t ctx, diopiTensorHandle_t input);

/**
 * @brief Tests each element of `input` for NaN and writes a boolean mask to `out`. Same semantics as torch.isnan.
 *
 * Integer and bool inputs never contain NaN, so the result is all false for them.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out boolean result tensor, same shape as `input`; true where the element is NaN. Dtypes: bool, bfloat16.
 * @param[in] input tensor to test. Dtypes: float32, float64, float16, bool, int64, int32, int16, int8, uint8, bfloat16.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiIsNan(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input);

/* ========================================================================
 * Family: elementwise_binary_arith (elementwise binary arithmetic)
 * ======================================================================== */

/**
 * @brief Raises a scalar base to an element-wise tensor power: out = input ^ exponent. Same semantics as torch.pow
 *        with a scalar first argument.
 *
 * The result dtype follows type promotion between the scalar base and the exponent tensor.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result tensor, same shape as `exponent`. Dtypes: int32, int64, uint8, int8, int16, float32, float64,
 *     float16, bfloat16.
 * @param[in] input scalar base shared by all elements. Dtypes: int32, int64, uint8, int8, int16, float32, float64,
 *     float16.
 * @param[in] exponent tensor of exponents. Dtypes: int32, int64, uint8, int8, int16, float32, float64, float16, bool,
 *     bfloat16.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiPowScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out, const diopiScalar_t* input,
                                      diopiConstTensorHandle_t exponent);

/**
 * @brief Raises every element of `input` to a scalar power: out = input ^ exponent. Same semantics as torch.pow with
 *        a scalar exponent.
 *
 * A negative base with a non-integer exponent produces NaN; the result dtype follows type promotion of input and
 * exponent.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result tensor, same shape as `input`. Dtypes: int32, int64, uint8, int8, int16, float32, float64,
 *     float16, bfloat16.
 * @param[in] input base tensor. Dtypes: int32, int64, uint8, int8, int16, float32, float64, float16, bfloat16.
 * @param[in] exponent scalar exponent applied to every element. Dtypes: int32, int64, uint8, int8, int16, float32,
 *     float64, float16, bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiPow(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, const diopiScalar_t* exponent);

/**
 * @brief In-place variant of diopiPow: input = input ^ exponent, where the exponent is a scalar. Same semantics as
 *        torch.Tensor.pow_.
 *
 * A negative base with a non-integer exponent produces NaN.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input base tensor, overwritten with the result. Dtypes: int32, int64, uint8, int8, int16, float32,
 *     float64, float16, bfloat16.
 * @param[in] exponent scalar exponent applied to every element. Dtypes: int32, int64, uint8, int8, int16, float32,
 *     float64, float16, bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiPowInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, const diopiScalar_t* exponent);

/**
 * @brief Element-wise power of two tensors: out = input ^ exponent, with broadcasting. Same semantics as torch.pow
 *        with a tensor exponent.
 *
 * Shapes are broadcast and dtypes promoted; a negative base with a fractional exponent gives NaN.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result tensor with the broadcast shape of `input` and `exponent`. Dtypes: int32, int64, uint8, int8,
 *     int16, float32, float64, float16, bfloat16.
 * @param[in] input base tensor. Dtypes: int32, int64, uint8, int8, int16, float32, float64, float16, bfloat16.
 * @param[in] exponent exponent tensor, broadcastable with `input`. Dtypes: int32, int64, uint8, int8, int16, float32,
 *     float64, float16, bool, bfloat16.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiPowTensor(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                      diopiConstTensorHandle_t exponent);

/**
 * @brief In-place element-wise power: input = input ^ exponent, where the exponent is a tensor. Same semantics as
 *        torch.Tensor.pow_.
 *
 * `exponent` must broadcast to `input`'s shape, since the result is stored in `input`.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input base tensor, overwritten with the result. Dtypes: float32, float64, float16, bfloat16.
 * @param[in] exponent exponent tensor, broadcastable to the shape of `input`. Dtypes: int32, int64, uint8, int8, int16,
 *     float32, float64, float16, bool, bfloat16.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiPowInpTensor(diopiContextHandle_t ctx, diopiTensorHandle_t input, diopiConstTensorHandle_t exponent);

/**
 * @brief Computes out = input + alpha * other element-wise, with broadcasting. Same semantics as torch.add.
 *
 * Operands are broadcast to a common shape and their dtypes promoted to a common result type.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result tensor with the broadcast shape of `input` and `other`. Dtypes: float64, float32, float16,
 *     int64, int32, int16, int8, uint8, bool, bfloat16.
 * @param[in] input first operand. Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool, bfloat16.
 * @param[in] other second operand, broadcastable with `input`; scaled by `alpha`. Dtypes: float64, float32, float16,
 *     int64, int32, int16, int8, uint8, bool, bfloat16.
 * @param[in] alpha scalar multiplier applied to `other` before the operation. Dtypes: float32, float64, int32, int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAdd(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t other,
                                const diopiScalar_t* alpha);

/**
 * @brief In-place variant: input = input + alpha * other, with `other` broadcast to `input`. Same semantics as
 *        torch.Tensor.add_.
 *
 * The broadcast shape must equal `input`'s shape because the result is stored in it.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input first operand, overwritten with the result. Dtypes: float64, float32, float16, int64, int32,
 *     int16, int8, uint8, bool, bfloat16.
 * @param[in] other second operand, broadcastable to the shape of `input`. Dtypes: float64, float32, float16, int64,
 *     int32, int16, int8, uint8, bool, bfloat16.
 * @param[in] alpha scalar multiplier applied to `other`. Dtypes: float32, float64, int32, int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAddInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, diopiConstTensorHandle_t other, const diopiScalar_t* alpha);

/**
 * @brief Computes out = input + alpha * other, where the second operand is a scalar. Same semantics as torch.add with
 *        a scalar `other`.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result tensor, same shape as `input`. Dtypes: float16, bfloat16, float32, float64, int8, uint8,
 *     int16, int32, int64.
 * @param[in] input tensor operand. Dtypes: float16, bfloat16, float32, float64, int8, uint8, int16, int32, int64.
 * @param[in] other scalar second operand. Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8.
 * @param[in] alpha scalar multiplier applied to `other`.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAddScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, const diopiScalar_t* other,
                                      const diopiScalar_t* alpha);

/**
 * @brief In-place variant: input = input + alpha * other, where the second operand is a scalar. Same semantics as
 *        torch.Tensor.add_ with a scalar.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input tensor operand, overwritten with the result. Dtypes: float64, float32, float16, int64, int32,
 *     int16, int8, uint8, bool, bfloat16.
 * @param[in] other scalar second operand. Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8.
 * @param[in] alpha scalar multiplier applied to `other`. Dtypes: float32, float64, int32, int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAddInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input, const diopiScalar_t* other, const diopiScalar_t* alpha);

/**
 * @brief Computes out = input - alpha * other element-wise, with broadcasting. Same semantics as torch.sub.
 *
 * Operands are broadcast to a common shape and their dtypes promoted to a common result type.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result tensor with the broadcast shape of `input` and `other`. Dtypes: float64, float32, float16,
 *     int64, int32, int16, int8, uint8, bool, bfloat16.
 * @param[in] input first operand. Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bfloat16.
 * @param[in] other second operand, broadcastable with `input`; scaled by `alpha`. Dtypes: float64, float32, float16,
 *     int64, int32, int16, int8, uint8, bool, bfloat16.
 * @param[in] alpha scalar multiplier applied to `other` before the operation. Dtypes: float32, float64, int32, int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiSub(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t other,
                                const diopiScalar_t* alpha);

/**
 * @brief In-place variant: input = input - alpha * other, with `other` broadcast to `input`. Same semantics as
 *        torch.Tensor.sub_.
 *
 * The broadcast shape must equal `input`'s shape because the result is stored in it.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input first operand, overwritten with the result. Dtypes: float64, float32, float16, int64, int32,
 *     int16, int8, uint8, bfloat16.
 * @param[in] other second operand, broadcastable to the shape of `input`. Dtypes: float64, float32, float16, int64,
 *     int32, int16, int8, uint8, bool, bfloat16.
 * @param[in] alpha scalar multiplier applied to `other`. Dtypes: float32, float64, int32, int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiSubInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, diopiConstTensorHandle_t other, const diopiScalar_t* alpha);

/**
 * @brief Computes out = input - alpha * other, where the second operand is a scalar. Same semantics as torch.sub with
 *        a scalar `other`.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result tensor, same shape as `input`. Dtypes: float64, float32, float16, int64, int32, int16, int8,
 *     uint8, bool, bfloat16.
 * @param[in] input tensor operand. Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bfloat16.
 * @param[in] other scalar second operand. Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8.
 * @param[in] alpha scalar multiplier applied to `other`. Dtypes: float32, float64, int32, int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiSubScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, const diopiScalar_t* other,
                                      const diopiScalar_t* alpha);

/**
 * @brief In-place variant: input = input - alpha * other, where the second operand is a scalar. Same semantics as
 *        torch.Tensor.sub_ with a scalar.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input tensor operand, overwritten with the result. Dtypes: float64, float32, float16, int64, int32,
 *     int16, int8, uint8, bfloat16.
 * @param[in] other scalar second operand. Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8.
 * @param[in] alpha scalar multiplier applied to `other`. Dtypes: float32, float64, int32, int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiSubInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input, const diopiScalar_t* other, const diopiScalar_t* alpha);

/**
 * @brief Element-wise product out = input * other, with broadcasting. Same semantics as torch.mul.
 *
 * Operands are broadcast to a common shape and their dtypes promoted.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result tensor with the broadcast shape of `input` and `other`. Dtypes: float16, bfloat16, float32,
 *     float64, int8, uint8, int16, int32, int64, bool.
 * @param[in] input first factor. Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool, bfloat16.
 * @param[in] other second factor, broadcastable with `input`. Dtypes: float64, float32, float16, int64, int32, int16,
 *     int8, uint8, bool, bfloat16.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiMul(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t other);

/**
 * @brief In-place element-wise product: input = input * other. Same semantics as torch.Tensor.mul_.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input first factor, overwritten with the result. Dtypes: float64, float32, float16, int64, int32,
 *     int16, int8, uint8, bool, bfloat16.
 * @param[in] other second factor, broadcastable to the shape of `input`. Dtypes: float64, float32, float16, int64,
 *     int32, int16, int8, uint8, bool, bfloat16.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiMulInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, diopiConstTensorHandle_t other);

/**
 * @brief Multiplies every element of `input` by a scalar: out = input * other. Same semantics as torch.mul with a
 *        scalar.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result tensor, same shape as `input`. Dtypes: float16, bfloat16, float32, float64, int8, uint8,
 *     int16, int32, int64, bool.
 * @param[in] input tensor factor. Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool, bfloat16.
 * @param[in] other scalar factor. Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiMulScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, const diopiScalar_t* other);

/**
 * @brief In-place multiplication by a scalar: input = input * other. Same semantics as torch.Tensor.mul_ with a
 *        scalar.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input tensor factor, overwritten with the result. Dtypes: float64, float32, float16, int64, int32,
 *     int16, int8, uint8, bool, bfloat16.
 * @param[in] other scalar factor. Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiMulInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input, const diopiScalar_t* other);

/**
 * @brief Element-wise division out = input / other with broadcasting, optionally rounded according to
 *        `rounding_mode`. Same semantics as torch.div.
 *
 * With no rounding mode the result is true (floating-point) division even for integer inputs. For integer dtypes
 * trunc and floor round the exact quotient. For floating dtypes the rounding follows torch and works on values
 * already rounded to the result's dtype: trunc truncates the quotient input / other as computed in that dtype, and
 * floor is floor division as Python defines it for floats ((input - fmod(input, other)) / other, one less where the
 * remainder and the divisor differ in sign), each step rounded to that dtype. In float16 and bfloat16 the result can
 * therefore differ by one from rounding the exact quotient.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result tensor with the broadcast shape of `input` and `other`. Dtypes: float64, float32, float16,
 *     int64, int32, int16, int8, uint8, bool, bfloat16.
 * @param[in] input dividend tensor. Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool,
 *     bfloat16.
 * @param[in] other divisor tensor, broadcastable with `input`. Dtypes: float64, float32, float16, int64, int32, int16,
 *     int8, uint8, bool, bfloat16.
 * @param[in] rounding_mode rounding applied to the quotient: none (true division), trunc (toward zero) or floor
 *     (toward minus infinity).
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiDiv(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t other,
                                diopiRoundMode_t rounding_mode);

/**
 * @brief In-place element-wise division: input = input / other, optionally rounded. Same semantics as
 *        torch.Tensor.div_.
 *
 * With no rounding mode the result is true (floating-point) division even for integer inputs. For integer dtypes
 * trunc and floor round the exact quotient. For floating dtypes the rounding follows torch and works on values
 * already rounded to the result's dtype: trunc truncates the quotient input / other as computed in that dtype, and
 * floor is floor division as Python defines it for floats ((input - fmod(input, other)) / other, one less where the
 * remainder and the divisor differ in sign), each step rounded to that dtype. In float16 and bfloat16 the result can
 * therefore differ by one from rounding the exact quotient.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input dividend, overwritten with the quotient. Dtypes: float64, float32, float16, int64, int32, int16,
 *     int8, uint8, bfloat16.
 * @param[in] other divisor tensor, broadcastable to the shape of `input`. Dtypes: float64, float32, float16, int64,
 *     int32, int16, int8, uint8, bool, bfloat16.
 * @param[in] rounding_mode rounding applied to the quotient: none (true division), trunc (toward zero) or floor
 *     (toward minus infinity).
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiDivInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, diopiConstTensorHandle_t other,
                                   diopiRoundMode_t rounding_mode);

/**
 * @brief Divides every element of `input` by a scalar: out = input / other, optionally rounded. Same semantics as
 *        torch.div with a scalar divisor.
 *
 * With no rounding mode the result is true (floating-point) division even for integer inputs. For integer dtypes
 * trunc and floor round the exact quotient. For floating dtypes the rounding follows torch and works on values
 * already rounded to the result's dtype: trunc truncates the quotient input / other as computed in that dtype, and
 * floor is floor division as Python defines it for floats ((input - fmod(input, other)) / other, one less where the
 * remainder and the divisor differ in sign), each step rounded to that dtype. In float16 and bfloat16 the result can
 * therefore differ by one from rounding the exact quotient.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result tensor, same shape as `input`. Dtypes: float64, float32, float16, int64, int32, int16, int8,
 *     uint8, bool, bfloat16.
 * @param[in] input dividend tensor. Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool,
 *     bfloat16.
 * @param[in] other scalar divisor. Dtypes: int32, int64, float32, float64.
 * @param[in] rounding_mode rounding applied to the quotient: none (true division), trunc (toward zero) or floor
 *     (toward minus infinity).
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiDivScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, const diopiScalar_t* other,
                                      diopiRoundMode_t rounding_mode);

/**
 * @brief In-place division by a scalar: input = input / other, optionally rounded. Same semantics as
 *        torch.Tensor.div_ with a scalar.
 *
 * With no rounding mode the result is true (floating-point) division even for integer inputs. For integer dtypes
 * trunc and floor round the exact quotient. For floating dtypes the rounding follows torch and works on values
 * already rounded to the result's dtype: trunc truncates the quotient input / other as computed in that dtype, and
 * floor is floor division as Python defines it for floats ((input - fmod(input, other)) / other, one less where the
 * remainder and the divisor differ in sign), each step rounded to that dtype. In float16 and bfloat16 the result can
 * therefore differ by one from rounding the exact quotient.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input dividend, overwritten with the quotient. Dtypes: float64, float32, float16, int64, int32, int16,
 *     int8, uint8, bfloat16.
 * @param[in] other scalar divisor. Dtypes: int32, int64, float32, float64.
 * @param[in] rounding_mode rounding applied to the quotient: none (true division), trunc (toward zero) or floor
 *     (toward minus infinity).
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiDivInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input, const diopiScalar_t* other,
                                         diopiRoundMode_t rounding_mode);

/**
 * @brief Computes out = input + value * (tensor1 * tensor2) element-wise, with all three tensors broadcast together.
 *        Same semantics as torch.addcmul.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result tensor with the broadcast shape of the three inputs. Dtypes: float16, float32, float64,
 *     bfloat16.
 * @param[in] input tensor the scaled term is added to. Dtypes: float16, float32, float64, bfloat16.
 * @param[in] tensor1 first factor of the product term. Dtypes: float16, float32, float64, bfloat16.
 * @param[in] tensor2 second factor of the product term. Dtypes: float16, float32, float64, bfloat16.
 * @param[in] value scalar multiplier for the product/quotient term. Dtypes: float16, float32, float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAddcmul(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                    diopiConstTensorHandle_t tensor1, diopiConstTensorHandle_t tensor2, const diopiScalar_t* value);

/**
 * @brief In-place variant: input = input + value * (tensor1 * tensor2). Same semantics as torch.Tensor.addcmul_.
 *
 * The broadcast shape of the operands must equal `input`'s shape.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] input accumulator tensor, overwritten with the result. Dtypes: float16, float32, float64, bfloat16.
 * @param[in] tensor1 first factor, broadcastable to `input`. Dtypes: float16, float32, float64, bfloat16.
 * @param[in] tensor2 second factor, broadcastable to `input`. Dtypes: float16, float32, float64, bfloat16.
 * @param[in] value scalar multiplier for the product/quotient term. Dtypes: float16, float32, float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAddcmulInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, diopiConstTensorHandle_t tensor1,
                                       diopiConstTensorHandle_t tensor2, const diopiScalar_t* value);

/**
 * @brief Computes out = input + value * (tensor1 / tensor2) element-wise, with all three tensors broadcast together.
 *        Same semantics as torch.addcdiv.
 *
 * The quotient is true division, so integer tensor1/tensor2 are not supported.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result tensor with the broadcast shape of the three inputs. Dtypes: float16, float32, float64,
 *     bfloat16.
 * @param[in] input tensor the scaled term is added to. Dtypes: float16, float32, float64, bfloat16.
 * @param[in] tensor1 numerator of the quotient term. Dtypes: float16, float32, float64, bfloat16.
 * @param[in] tensor2 denominator of the quotient term. Dtypes: float16, float32, float64, bfloat16.
 * @param[in] value scalar multiplier for the product/quotient term. Dtypes: float16, float32, float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAddcdiv(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                    diopiConstTensorHandle_t tensor1, diopiConstTensorHandle_t tensor2, const diopiScalar_t* value);

/**
 * @brief In-place variant: input = input + value * (tensor1 / tensor2). Same semantics as torch.Tensor.addcdiv_.
 *
 * The broadcast shape of the operands must equal `input`'s shape.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] input accumulator tensor, overwritten with the result. Dtypes: float16, float32, float64, bfloat16.
 * @param[in] tensor1 numerator, broadcastable to `input`. Dtypes: float16, float32, float64, bfloat16.
 * @param[in] tensor2 denominator, broadcastable to `input`. Dtypes: float16, float32, float64, bfloat16.
 * @param[in] value scalar multiplier for the product/quotient term. Dtypes: float16, float32, float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAddcdivInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, diopiConstTensorHandle_t tensor1,
                                       diopiConstTensorHandle_t tensor2, const diopiScalar_t* value);

/**
 * @brief In-place clamp to scalar bounds: input = min(max(input, min), max). Same semantics as torch.Tensor.clamp_.
 *
 * If min is greater than max, every element becomes max.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input tensor clamped and overwritten in place. Dtypes: float32, float64, float16, int16, int32, int64,
 *     int8, bfloat16.
 * @param[in] min scalar lower bound; may be null for no lower bound. Dtypes: float32, float64.
 * @param[in] max scalar upper bound; may be null for no upper bound. Dtypes: float32, float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiClampInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input, const diopiScalar_t* min, const diopiScalar_t* max);

/**
 * @brief In-place clamp to tensor bounds: input = min(max(input, min), max). Same semantics as torch.Tensor.clamp_
 *        with tensor bounds.
 *
 * If min is greater than max, every element becomes max.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input tensor clamped and overwritten in place. Dtypes: float32, float64, float16, int16, int32, int64,
 *     int8, bfloat16.
 * @param[in] min lower-bound tensor broadcastable to `input`; may be null for no lower bound. Dtypes: float32, float64,
 *     float16, bfloat16.
 * @param[in] max upper-bound tensor broadcastable to `input`; may be null for no upper bound. Dtypes: float32, float64,
 *     float16, bfloat16.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiClampInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, diopiConstTensorHandle_t min, diopiConstTensorHandle_t max);

/**
 * @brief Limits each element of `input` to the range [min, max] given as scalars: out = min(max(input, min), max).
 *        Same semantics as torch.clamp.
 *
 * If min is greater than max every element becomes max, and at least one bound should be non-null.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result tensor, same shape as `input`. Dtypes: float32, float64, float16, bfloat16.
 * @param[in] input tensor to clamp. Dtypes: float32, float64, float16, int16, int32, int64, int8, bfloat16.
 * @param[in] min scalar lower bound; may be null for no lower bound. Dtypes: float32, float64.
 * @param[in] max scalar upper bound; may be null for no upper bound. Dtypes: float32, float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiClampScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, const diopiScalar_t* min,
                                        const diopiScalar_t* max);

/**
 * @brief Limits each element of `input` to element-wise bounds given as tensors: out = min(max(input, min), max),
 *        with broadcasting. Same semantics as torch.clamp with tensor bounds.
 *
 * If min is greater than max, every element becomes max.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result tensor with the broadcast shape of `input`, `min` and `max`. Dtypes: float32, float64,
 *     float16, bfloat16.
 * @param[in] input tensor to clamp. Dtypes: float32, float64, float16, int16, int32, int64, int8, uint8, bfloat16.
 * @param[in] min lower-bound tensor broadcastable with `input`; may be null for no lower bound. Dtypes: float32,
 *     float64, float16, bfloat16.
 * @param[in] max upper-bound tensor broadcastable with `input`; may be null for no upper bound. Dtypes: float32,
 *     float64, float16, bfloat16.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiClamp(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t min,
                                  diopiConstTensorHandle_t max);

/**
 * @brief In-place variant: input = min(input, max) with a scalar upper bound. Same semantics as
 *        torch.Tensor.clamp_max_.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input tensor clamped and overwritten in place. Dtypes: float32, float64, float16, int16, int32, int64,
 *     int8, bfloat16.
 * @param[in] max scalar upper bound. Dtypes: float32, float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiClampMaxInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input, const diopiScalar_t* max);

/**
 * @brief In-place variant: input = min(input, max) with a tensor upper bound. Same semantics as
 *        torch.Tensor.clamp_max_.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input tensor clamped and overwritten in place. Dtypes: float32, float64, float16, int16, int32, int64,
 *     int8, bfloat16.
 * @param[in] max upper-bound tensor, broadcastable to the shape of `input`. Dtypes: float32, float64, float16,
 *     bfloat16.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiClampMaxInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, diopiConstTensorHandle_t max);

/**
 * @brief Bounds `input` from above by a scalar: out = min(input, max). Same semantics as torch.clamp_max.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result tensor, same shape as `input`. Dtypes: float32, float64, float16, bfloat16.
 * @param[in] input tensor to clamp. Dtypes: float32, float64, float16, int16, int32, int64, int8, bfloat16.
 * @param[in] max scalar upper bound. Dtypes: float32, float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiClampMaxScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                           const diopiScalar_t* max);

/**
 * @brief Bounds `input` from above by an element-wise tensor: out = min(input, max), with broadcasting. Same
 *        semantics as torch.clamp_max with a tensor bound.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result tensor with the broadcast shape of `input` and `max`. Dtypes: float32, float64, float16,
 *     bfloat16.
 * @param[in] input tensor to clamp. Dtypes: float32, float64, float16, int16, int32, int64, int8, bfloat16.
 * @param[in] max upper-bound tensor, broadcastable with `input`. Dtypes: float32, float64, float16, bfloat16.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiClampMax(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t max);

/**
 * @brief In-place variant: input = max(input, min) with a scalar lower bound. Same semantics as
 *        torch.Tensor.clamp_min_.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input tensor clamped and overwritten in place. Dtypes: float32, float64, float16, int16, int32, int64,
 *     int8, bfloat16.
 * @param[in] min scalar lower bound. Dtypes: float32, float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiClampMinInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input, const diopiScalar_t* min);

/**
 * @brief In-place variant: input = max(input, min) with a tensor lower bound. Same semantics as
 *        torch.Tensor.clamp_min_.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input tensor clamped and overwritten in place. Dtypes: float32, float64, float16, int16, int32, int64,
 *     int8, bfloat16.
 * @param[in] min lower-bound tensor, broadcastable to the shape of `input`. Dtypes: float32, float64, float16,
 *     bfloat16.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiClampMinInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, diopiConstTensorHandle_t min);

/**
 * @brief Bounds `input` from below by a scalar: out = max(input, min). Same semantics as torch.clamp_min.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result tensor, same shape as `input`. Dtypes: float32, float64, float16, bfloat16.
 * @param[in] input tensor to clamp. Dtypes: float32, float64, float16, int16, int32, int64, int8, bfloat16.
 * @param[in] min scalar lower bound. Dtypes: float32, float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiClampMinScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                           const diopiScalar_t* min);

/**
 * @brief Bounds `input` from below by an element-wise tensor: out = max(input, min), with broadcasting. Same
 *        semantics as torch.clamp_min with a tensor bound.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result tensor with the broadcast shape of `input` and `min`. Dtypes: float32, float64, float16,
 *     bfloat16.
 * @param[in] input tensor to clamp. Dtypes: float32, float64, float16, int16, int32, int64, int8, bfloat16.
 * @param[in] min lower-bound tensor, broadcastable with `input`. Dtypes: float32, float64, float16, bfloat16.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiClampMin(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t min);

/**
 * @brief Takes the element-wise larger of `input` and `other`, with broadcasting. Same semantics as torch.maximum.
 *
 * If either element of a pair is NaN, the result for that position is NaN.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result tensor with the broadcast shape of `input` and `other`. Dtypes: float16, bfloat16, float32,
 *     float64, int8, uint8, int16, int32, int64, bool.
 * @param[in] input first tensor to compare. Dtypes: float16, bfloat16, float32, float64, int8, uint8, int16, int32,
 *     int64, bool.
 * @param[in] other second tensor, broadcastable with `input`. Dtypes: float16, bfloat16, float32, float64, int8, uint8,
 *     int16, int32, int64, bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiMaximum(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                    diopiConstTensorHandle_t other);

/**
 * @brief Takes the element-wise smaller of `input` and `other`, with broadcasting. Same semantics as torch.minimum.
 *
 * If either element of a pair is NaN, the result for that position is NaN.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result tensor with the broadcast shape of `input` and `other`. Dtypes: float16, bfloat16, float32,
 *     float64, int8, uint8, int16, int32, int64, bool.
 * @param[in] input first tensor to compare. Dtypes: float16, bfloat16, float32, float64, int8, uint8, int16, int32,
 *     int64, bool.
 * @param[in] other second tensor, broadcastable with `input`. Dtypes: float16, bfloat16, float32, float64, int8, uint8,
 *     int16, int32, int64, bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiMinimum(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                    diopiConstTensorHandle_t other);

/**
 * @brief Linear interpolation between `input` and `end` with element-wise weights: out = input + weight * (end -
 *        input). Same semantics as torch.lerp with a tensor weight.
 *
 * Weights outside [0, 1] extrapolate rather than being clipped.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result tensor with the broadcast shape of `input`, `end` and `weight`. Dtypes: float16, float32,
 *     float64, bfloat16.
 * @param[in] input start points of the interpolation. Dtypes: float16, float32, float64, bfloat16.
 * @param[in] end end points, broadcastable with `input`. Dtypes: float16, float32, float64, bfloat16.
 * @param[in] weight interpolation weights, broadcastable with `input` and `end`. Dtypes: float16, float32, float64,
 *     bfloat16.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiLerpTensor(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                       diopiConstTensorHandle_t end, diopiConstTensorHandle_t weight);

/**
 * @brief Linear interpolation between `input` and `end` with one scalar weight: out = input + weight * (end - input).
 *        Same semantics as torch.lerp with a scalar weight.
 *
 * Weights outside [0, 1] extrapolate rather than being clipped.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result tensor with the broadcast shape of `input` and `end`. Dtypes: float16, bfloat16, float32,
 *     float64.
 * @param[in] input start points of the interpolation. Dtypes: float16, bfloat16, float32, float64.
 * @param[in] end end points, broadcastable with `input`. Dtypes: float16, bfloat16, float32, float64.
 * @param[in] weight scalar interpolation weight shared by all elements. Dtypes: float16, float32, float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiLerpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                       diopiConstTensorHandle_t end, const diopiScalar_t* weight);

/**
 * @brief Element-wise modulus out = input - floor(input / other) * other, with broadcasting. Same semantics as
 *        torch.remainder.
 *
 * The result takes the sign of the divisor (floor-style modulo, like Python's %), unlike C fmod which follows the
 * dividend.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result tensor with the broadcast shape of `input` and `other`. Dtypes: float16, bfloat16, float32,
 *     float64, int8, uint8, int16, int32, int64.
 * @param[in] input dividend tensor. Dtypes: float16, bfloat16, float32, float64, int8, uint8, int16, int32, int64.
 * @param[in] other divisor tensor, broadcastable with `input`. Dtypes: float16, bfloat16, float32, float64, int8,
 *     uint8, int16, int32, int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiRemainderTensor(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                            diopiConstTensorHandle_t other);

/**
 * @brief Element-wise modulus of a tensor by a scalar divisor: out = input - floor(input / other) * other. Same
 *        semantics as torch.remainder with a scalar divisor.
 *
 * The result takes the sign of the divisor (floor-style modulo, like Python's %), unlike C fmod which follows the
 * dividend.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result tensor, same shape as `input`. Dtypes: float16, bfloat16, float32, float64, int8, uint8,
 *     int16, int32, int64.
 * @param[in] input dividend tensor. Dtypes: float16, bfloat16, float32, float64, int8, uint8, int16, int32, int64.
 * @param[in] other scalar divisor.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiRemainderScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                            const diopiScalar_t* other);

/**
 * @brief Element-wise modulus of a scalar dividend by a tensor of divisors: out = input - floor(input / other) *
 *        other. Same semantics as torch.remainder with a scalar first argument.
 *
 * The result takes the sign of the divisor (floor-style modulo, like Python's %), unlike C fmod which follows the
 * dividend.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result tensor, same shape as `other`. Dtypes: float16, bfloat16, float32, float64, int8, uint8,
 *     int16, int32, int64.
 * @param[in] input scalar dividend shared by all elements.
 * @param[in] other divisor tensor. Dtypes: float16, bfloat16, float32, float64, int8, uint8, int16, int32, int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiRemainder(diopiContextHandle_t ctx, diopiTensorHandle_t out, const diopiScalar_t* input, diopiConstTensorHandle_t other);

/* ========================================================================
 * Family: foreach (foreach (lists of tensors))
 * ======================================================================== */

/**
 * @brief For every tensor in a list, adds the same scalar and writes the result to the matching output tensor. Same
 *        semantics as torch._foreach_add(tensors, scalar).
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] outs array of inputSize caller-allocated result tensors, each shaped like its input. Dtypes: float64,
 *     float32, float16, int64, int32, int16, int8, uint8, bool.
 * @param[in] inputs array of inputSize input tensors. Dtypes: float64, float32, float16, int64, int32, int16, int8,
 *     uint8, bool.
 * @param[in] inputSize number of tensors in inputs and outs. Dtypes: int64.
 * @param[in] other scalar added to every element of every input. Dtypes: float64, float32, float16, int64, int32,
 *     int16, int8, uint8.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiForeachaddScalar(diopiContextHandle_t ctx, diopiTensorHandle_t* outs, diopiConstTensorHandle_t* inputs,
                                             int64_t inputSize, const diopiScalar_t* other);

/**
 * @brief In-place list version of scalar addition: adds the same scalar to every tensor of the list. Same semantics
 *        as torch._foreach_add_(tensors, scalar).
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] inputs array of inputSize tensors updated in place. Dtypes: float16, float32, float64, int8, uint8,
 *     int16, int32, int64.
 * @param[in] inputSize number of tensors in inputs. Dtypes: int64.
 * @param[in] other scalar added to every element. Dtypes: float64, float32, float16, int64, int32, int16, int8,
 *     uint8.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiForeachaddInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t* inputs, int64_t inputSize, const diopiScalar_t* other);

/**
 * @brief For every tensor in a list, multiplies by the same scalar and writes the product to the matching output
 *        tensor. Same semantics as torch._foreach_mul(tensors, scalar).
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] outs array of inputSize caller-allocated result tensors, each shaped like its input. Dtypes: float64,
 *     float32, float16, int64, int32, int16, int8, uint8, bool.
 * @param[in] inputs array of inputSize input tensors. Dtypes: float64, float32, float16, int64, int32, int16, int8,
 *     uint8, bool.
 * @param[in] inputSize number of tensors in inputs and outs. Dtypes: int64.
 * @param[in] other scalar multiplier applied to every input. Dtypes: float64, float32, float16, int64, int32, int16,
 *     int8, uint8.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiForeachmulScalar(diopiContextHandle_t ctx, diopiTensorHandle_t* outs, diopiConstTensorHandle_t* inputs,
                                             int64_t inputSize, const diopiScalar_t* other);

/**
 * @brief In-place list version of scalar multiplication: scales every tensor of the list by the same scalar. Same
 *        semantics as torch._foreach_mul_(tensors, scalar).
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] inputs array of inputSize tensors scaled in place. Dtypes: float64, float32, float16, int64, int32,
 *     int16, int8, uint8, bool.
 * @param[in] inputSize number of tensors in inputs. Dtypes: int64.
 * @param[in] other scalar multiplier. Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiForeachmulInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t* inputs, int64_t inputSize, const diopiScalar_t* other);

/**
 * @brief For every tensor in a list, multiplies it by one shared tensor (typically 0-dim) and writes the product to
 *        the matching output. Same semantics as torch._foreach_mul(tensors, Tensor).
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] outs array of inputSize caller-allocated result tensors, each shaped like its input. Dtypes: float16,
 *     float32, float64, int8, uint8, int16, int32, int64, bool.
 * @param[in] inputs array of inputSize input tensors. Dtypes: float16, float32, float64, int8, uint8, int16, int32,
 *     int64, bool.
 * @param[in] inputSize number of tensors in inputs and outs
 * @param[in] other single multiplier tensor, usually 0-dim, broadcast against every input. Dtypes: float16, float32,
 *     float64, int8, uint8, int16, int32, int64, bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiForeachmulTensor(diopiContextHandle_t ctx, diopiTensorHandle_t* outs, diopiConstTensorHandle_t* inputs,
                                             int64_t inputSize, const diopiConstTensorHandle_t other);

/**
 * @brief In-place list multiplication by one shared tensor (typically 0-dim): every tensor of the list is multiplied
 *        by it. Same semantics as torch._foreach_mul_(tensors, Tensor).
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] inputs array of inputSize tensors multiplied in place. Dtypes: float64, float32, float16, int64,
 *     int32, int16, int8, uint8, bool.
 * @param[in] inputSize number of tensors in inputs. Dtypes: int64.
 * @param[in] other single multiplier tensor, usually 0-dim, broadcast against every input. Dtypes: float64, float32,
 *     float16, int64, int32, int16, int8, uint8, bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiForeachmulInpTensor(diopiContextHandle_t ctx, diopiTensorHandle_t* inputs, int64_t inputSize,
                                                const diopiConstTensorHandle_t other);

/**
 * @brief Computes, for each tensor of a list, the vector p-norm over all its elements. Same semantics as
 *        torch._foreach_norm(tensors, ord).
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] outs array of inputSize caller-allocated 0-dim tensors, each receiving one norm. Dtypes: float32,
 *     float64, float16.
 * @param[in] inputs array of inputSize input tensors. Dtypes: float32, float64, float16.
 * @param[in] inputSize number of tensors in inputs and outs
 * @param[in] ord order p of the norm, e.g. 2; infinity gives the maximum absolute value
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiForeachnormScalar(diopiContextHandle_t ctx, diopiTensorHandle_t* outs, diopiConstTensorHandle_t* inputs,
                                              int64_t inputSize, const diopiScalar_t* ord);

/* ========================================================================
 * Family: linalg_matmul (linear algebra and matrix products)
 * ======================================================================== */

/**
 * @brief Batched matrix product: out[b] = input[b] @ mat2[b] for every batch index b. Same semantics as torch.bmm.
 *
 * No broadcasting is performed; both operands must be 3-D with equal batch size.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result of shape (B, n, p). Dtypes: float16, float32, float64, bfloat16.
 * @param[in] input batch of matrices of shape (B, n, m). Dtypes: float16, float32, float64, bfloat16.
 * @param[in] mat2 batch of matrices of shape (B, m, p). Dtypes: float16, float32, float64, bfloat16.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiBmm(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t mat2);

/**
 * @brief Batched matrix product added to a scaled tensor: out = beta * input + alpha * (batch1 @ batch2), per batch.
 *        Same semantics as torch.baddbmm.
 *
 * When beta is 0, input is ignored so NaN or Inf values in it do not propagate.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result of shape (B, n, p). Dtypes: float16, float32, float64.
 * @param[in] input tensor broadcastable to (B, n, p). Dtypes: float16, float32, float64.
 * @param[in] batch1 left matrices of shape (B, n, m). Dtypes: float16, float32, float64.
 * @param[in] batch2 right matrices of shape (B, m, p). Dtypes: float16, float32, float64.
 * @param[in] beta multiplier of input
 * @param[in] alpha multiplier of the batched product
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiBaddbmm(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                    diopiConstTensorHandle_t batch1, diopiConstTensorHandle_t batch2, double beta, double alpha);

/**
 * @brief In-place variant of diopiBaddbmm: works in place on `input`, setting input = beta * input + alpha * (batch1
 *        @ batch2).
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input tensor of shape (B, n, p); read and overwritten with the result. Dtypes: float16, float32,
 *     float64.
 * @param[in] batch1 left matrices of shape (B, n, m). Dtypes: float16, float32, float64.
 * @param[in] batch2 right matrices of shape (B, m, p). Dtypes: float16, float32, float64.
 * @param[in] beta multiplier of the original input
 * @param[in] alpha multiplier of the batched product
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiBaddbmmInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, diopiConstTensorHandle_t batch1,
                                       diopiConstTensorHandle_t batch2, double beta, double alpha);

/**
 * @brief General matrix product with NumPy-style rules: dot product for 1-D operands, matrix product for 2-D,
 *        broadcast batched product otherwise. Same semantics as torch.matmul.
 *
 * A 1-D operand is temporarily promoted to a matrix and the added dimension is removed from the result.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out product; shape follows the matmul broadcasting rules. Dtypes: float32, float64.
 * @param[in] input left operand with at least one dimension. Dtypes: float32, float64.
 * @param[in] other right operand with at least one dimension. Dtypes: float32, float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiMatmul(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t other);

/**
 * @brief Backward of diopiMatmul: writes the gradients with respect to both operands, summing over broadcast batch
 *        dimensions.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input gradient for input; same shape as input. Dtypes: float32, float64.
 * @param[out] grad_other gradient for other; same shape as other. Dtypes: float32, float64.
 * @param[in] grad_out gradient with respect to the matmul result. Dtypes: float32, float64.
 * @param[in] input forward left operand. Dtypes: float32, float64.
 * @param[in] other forward right operand. Dtypes: float32, float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiMatmulBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiTensorHandle_t grad_other,
                                           diopiConstTensorHandle_t grad_out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t other);

/**
 * @brief Matrix product added to a scaled tensor: out = beta * input + alpha * (mat1 @ mat2). Same semantics as
 *        torch.addmm.
 *
 * When beta is 0, input is ignored so NaN or Inf values in it do not propagate.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result of shape (n, p). Dtypes: float32, float64, float16, bfloat16.
 * @param[in] input tensor broadcastable to (n, p). Dtypes: float32, float64, float16, bfloat16.
 * @param[in] mat1 left matrix of shape (n, m). Dtypes: float32, float64, float16, bfloat16.
 * @param[in] mat2 right matrix of shape (m, p). Dtypes: float32, float64, float16, bfloat16.
 * @param[in] beta multiplier of input. Dtypes: int32, int64, float32, float64.
 * @param[in] alpha multiplier of the matrix product. Dtypes: int32, int64, float32, float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAddmm(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t mat1,
                                  diopiConstTensorHandle_t mat2, const diopiScalar_t* beta, const diopiScalar_t* alpha);

/**
 * @brief Cholesky factorization of (batches of) symmetric/Hermitian positive-definite matrices, returning a
 *        triangular factor and a status code. Same semantics as torch.linalg.cholesky_ex.
 *
 * Only the relevant triangle of mat is read; symmetry is not checked.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out triangular factor L (mat = L L^H) or U (mat = U^H U); same shape as mat. Dtypes: float32, float64.
 * @param[out] info status per matrix: 0 on success, k > 0 when the order-k leading minor is not positive definite.
 *     Dtypes: int32.
 * @param[in] mat input of shape (..., n, n). Dtypes: float32, float64.
 * @param[in] upper return the upper-triangular factor instead of the lower one
 * @param[in] checkerror if true, raise an error when any factorization fails instead of only setting info
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiCholesky(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiTensorHandle_t info, diopiConstTensorHandle_t mat,
                                     bool upper, bool checkerror);

/**
 * @brief Backward of diopiCholesky: writes the gradient with respect to the factorized matrix given the gradient of
 *        its Cholesky factor.
 *
 * The resulting gradient is symmetric.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_mat gradient for the input matrix; shape (..., n, n). Dtypes: float32, float64.
 * @param[in] grad_output gradient with respect to the Cholesky factor. Dtypes: float32, float64.
 * @param[in] L factor produced by the forward call. Dtypes: float32, float64.
 * @param[in] upper whether L is upper-triangular, as in the forward call
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiCholeskyBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_mat, diopiConstTensorHandle_t grad_output,
                                             diopiConstTensorHandle_t L, bool upper);

/**
 * @brief Solves mat @ X = b (or mat^T @ X = b) for X where mat is triangular, in batches. Same semantics as
 *        torch.triangular_solve.
 *
 * Batch dimensions of b and mat are broadcast; the unused triangle of mat is ignored.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out solution X of shape (..., n, k). Dtypes: float32, float64.
 * @param[out] cloned_mat written with a copy of mat. Dtypes: float32, float64.
 * @param[in] b right-hand sides of shape (..., n, k). Dtypes: float32, float64.
 * @param[in] mat triangular coefficient matrices of shape (..., n, n). Dtypes: float32, float64.
 * @param[in] upper mat is upper-triangular if true, lower-triangular otherwise
 * @param[in] transpose solve with the transpose of mat instead
 * @param[in] unitriangular assume mat has ones on its diagonal and do not read the diagonal
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiTriangularSolve(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiTensorHandle_t cloned_mat,
                                            diopiConstTensorHandle_t b, diopiConstTensorHandle_t mat, bool upper, bool transpose, bool unitriangular);

/**
 * @brief Backward of diopiTriangularSolve: writes the gradients with respect to the right-hand side b and the
 *        triangular matrix.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_b gradient for b; same shape as b. Dtypes: float32, float64.
 * @param[out] grad_mat gradient for mat, restricted to its used triangle. Dtypes: float32, float64.
 * @param[in] grad_x gradient with respect to the solution. Dtypes: float32, float64.
 * @param[in] grad_cloned_mat gradient with respect to the cloned_mat output of the forward call. Dtypes: float32,
 *     float64.
 * @param[in] x solution produced by the forward call. Dtypes: float32, float64.
 * @param[in] b forward right-hand sides. Dtypes: float32, float64.
 * @param[in] mat forward triangular matrices. Dtypes: float32, float64.
 * @param[in] upper triangle used in the forward call
 * @param[in] transpose whether the forward solved with the transpose
 * @param[in] unitriangular whether the forward assumed a unit diagonal
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiTriangularSolveBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_b, diopiTensorHandle_t grad_mat,
                                                    diopiConstTensorHandle_t grad_x, diopiConstTensorHandle_t grad_cloned_mat,
                                                    diopiConstTensorHandle_t x, diopiConstTensorHandle_t b, diopiConstTensorHandle_t mat, bool upper,
                                                    bool transpose, bool unitriangular);

/**
 * @brief Affine map over the last dimension: out = input @ weight^T + bias. Same semantics as
 *        torch.nn.functional.linear.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result of shape (..., out_features). Dtypes: float16, float32, float64, bfloat16.
 * @param[in] input input of shape (..., in_features). Dtypes: float16, float32, float64, bfloat16.
 * @param[in] weight weight matrix of shape (out_features, in_features). Dtypes: float16, float32, float64, bfloat16.
 * @param[in] bias bias of shape (out_features); may be NULL for no bias. Dtypes: float16, float32, float64, bfloat16.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiLinear(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                   diopiConstTensorHandle_t weight, diopiConstTensorHandle_t bias);

/**
 * @brief Backward of diopiLinear: writes the gradients with respect to input, weight and bias.
 *
 * grad_weight and grad_bias sum over all leading (batch) dimensions.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input gradient for input; same shape as input. Dtypes: float16, float32, float64, bfloat16.
 * @param[out] grad_weight gradient for weight, shape (out_features, in_features). Dtypes: float16, float32, float64,
 *     bfloat16.
 * @param[out] grad_bias gradient for bias, shape (out_features); may be NULL when there is no bias. Dtypes: float16,
 *     float32, float64, bfloat16.
 * @param[in] grad_output gradient with respect to the linear output, shape (..., out_features). Dtypes: float16,
 *     float32, float64, bfloat16.
 * @param[in] input forward input. Dtypes: float16, float32, float64, bfloat16.
 * @param[in] weight forward weight matrix. Dtypes: float16, float32, float64, bfloat16.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiLinearBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiTensorHandle_t grad_weight,
                                           diopiTensorHandle_t grad_bias, diopiConstTensorHandle_t grad_output, diopiConstTensorHandle_t input,
                                           diopiConstTensorHandle_t weight);

/**
 * @brief Pairwise p-norm distances between the row vectors of two (batched) point sets. Same semantics as
 *        torch.cdist.
 *
 * The matrix-multiply shortcut for p = 2 is faster but may lose precision for nearby points.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out distances of shape (..., P, R). Dtypes: float32, float64.
 * @param[in] input1 first point set of shape (..., P, M). Dtypes: float32, float64.
 * @param[in] input2 second point set of shape (..., R, M). Dtypes: float32, float64.
 * @param[in] p norm order, non-negative; may be infinity. Dtypes: double.
 * @param[in] compute_mode pointer choosing whether matrix-multiply Euclidean shortcut is used (0/1/2); NULL for
 *     default
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiCdist(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input1,
                                  diopiConstTensorHandle_t input2, double p, const int64_t* compute_mode);

/**
 * @brief Backward of diopiCdist: writes the gradient with respect to the first point set input1.
 *
 * The gradient for input2 is obtained by calling again with the two point sets swapped and grad_output transposed.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input gradient for input1; same shape as input1. Dtypes: float32, float64.
 * @param[in] grad_output gradient with respect to the distances, shape (..., P, R). Dtypes: float32, float64.
 * @param[in] input1 forward first point set. Dtypes: float32, float64.
 * @param[in] input2 forward second point set. Dtypes: float32, float64.
 * @param[in] p norm order, as in the forward call. Dtypes: double.
 * @param[in] cdist distance tensor produced by the forward call. Dtypes: float32, float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiCdistBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                          diopiConstTensorHandle_t input1, diopiConstTensorHandle_t input2, double p, diopiConstTensorHandle_t cdist);

/**
 * @brief Plain 2-D matrix product: out = input @ mat2. Same semantics as torch.mm.
 *
 * No broadcasting; both operands must be 2-D and of one dtype. Integer products wrap around on overflow, as
 * two's-complement sums do.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result of shape (n, p). Dtypes: float16, float32, float64, int8, int16, int32, int64, uint8,
 *     bfloat16.
 * @param[in] input left matrix of shape (n, m). Dtypes: float16, float32, float64, int8, int16, int32, int64, uint8,
 *     bfloat16.
 * @param[in] mat2 right matrix of shape (m, p). Dtypes: float16, float32, float64, int8, int16, int32, int64, uint8,
 *     bfloat16.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiMm(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t mat2);

/**
 * @brief Vector norm of order ord computed over the given dimensions (or all elements). Same semantics as
 *        torch.linalg.vector_norm.
 *
 * ord = 0 counts non-zero elements, and ord = inf / -inf give the max / min absolute value.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out norms; input shape with reduced dims removed, or kept as size 1 if keepdim. Dtypes: float32,
 *     float64, float16.
 * @param[in] input input tensor of any shape. Dtypes: float32, float64, float16.
 * @param[in] ord norm order, such as 2, 1, inf, -inf or 0
 * @param[in] dim dimensions to reduce; empty reduces over every element
 * @param[in] keepdim keep reduced dimensions as size-1 axes
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiLinalgVecNorm(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiScalar_t* ord,
                                          diopiSize_t dim, bool keepdim);

/**
 * @brief QR decomposition A = Q R of (batches of) matrices, Q with orthonormal columns and R upper-triangular. Same
 *        semantics as torch.linalg.qr.
 *
 * Note the input A comes before the outputs in this signature.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in] A input matrices of shape (..., m, n). Dtypes: float64, float32.
 * @param[in] mode "reduced" (thin Q and R), "complete" (square Q), or "r" (R only)
 * @param[out] Q orthonormal factor, (..., m, k) for reduced or (..., m, m) for complete; untouched in "r" mode.
 *     Dtypes: float64, float32.
 * @param[out] R upper-triangular factor, (..., k, n) for reduced or (..., m, n) for complete, k = min(m, n). Dtypes:
 *     float64, float32.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiLinalgQR(diopiContextHandle_t ctx, diopiConstTensorHandle_t A, const char* mode, diopiTensorHandle_t Q,
                                     diopiTensorHandle_t R);

/* ========================================================================
 * Family: creation_fill (creation and fill)
 * ======================================================================== */

/**
 * @brief Sets every element of `input` to the same scalar, working in place. Same semantics as torch.Tensor.fill_.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input tensor overwritten in place. Dtypes: float32, float64, float16, int16, int32, int64, int8,
 *     uint8, bfloat16, bool.
 * @param[in] value scalar written to every element, converted to the tensor's dtype. Dtypes: float32, float64,
 *     float16, int16, int32, int64, int8, uint8.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiFill(diopiContextHandle_t ctx, diopiTensorHandle_t input, const diopiScalar_t* value);

/**
 * @brief Writes `steps` evenly spaced values from start to end, both endpoints included. Same semantics as
 *        torch.linspace.
 *
 * With steps = 1 the single element equals start.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out 1-D tensor of length steps receiving the sequence. Dtypes: float32, float64, float16, int16, int32,
 *     int64.
 * @param[in] start first value of the sequence. Dtypes: float32, float64, float16, int16, int32, int64.
 * @param[in] end last value of the sequence. Dtypes: float32, float64, float16, int16, int32, int64.
 * @param[in] steps number of points to generate. Dtypes: int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiLinspace(diopiContextHandle_t ctx, diopiTensorHandle_t out, const diopiScalar_t* start, const diopiScalar_t* end,
                                     int64_t steps);

/**
 * @brief Writes the arithmetic progression start, start+step, ... stopping before end. Same semantics as
 *        torch.arange.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out 1-D tensor of length ceil((end - start) / step) receiving the values. Dtypes: float32, float64,
 *     int64.
 * @param[in] start first value of the progression. Dtypes: float32, float64.
 * @param[in] end exclusive bound of the progression. Dtypes: float32, float64.
 * @param[in] step non-zero difference between consecutive values. Dtypes: float32, float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiArange(diopiContextHandle_t ctx, diopiTensorHandle_t out, const diopiScalar_t* start, const diopiScalar_t* end,
                                   const diopiScalar_t* step);

/**
 * @brief Builds coordinate grids from a list of 1-D tensors, the i-th output varying along dimension i only ('ij'
 *        indexing). Same semantics as torch.meshgrid(indexing='ij').
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] outs array of inputsNum caller-allocated tensors, each of shape (len(inputs[0]), ...,
 *     len(inputs[n-1])). Dtypes: float32, float64.
 * @param[in] inputs array of inputsNum 1-D (or 0-dim) coordinate tensors. Dtypes: float32, float64.
 * @param[in] inputsNum number of coordinate tensors and of outputs. Dtypes: int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiMeshGrid(diopiContextHandle_t ctx, diopiTensorHandle_t* outs, diopiConstTensorHandle_t* inputs, int64_t inputsNum);

/**
 * @brief Fills `out` with ones. Same semantics as torch.ones.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out tensor of shape size overwritten with ones. Dtypes: float32, float64, float16, int16, int32, int64,
 *     int8, uint8.
 * @param[in] size shape of the result; must match out
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiOnes(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiSize_t size);

/**
 * @brief Fills `out` with zeros. Same semantics as torch.zeros.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out tensor of shape size overwritten with zeros. Dtypes: float32, float64, float16, int16, int32,
 *     int64, int8, uint8.
 * @param[in] size shape of the result; must match out
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiZeros(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiSize_t size);

/**
 * @brief Sets every element of the tensor to zero, working in place. Same semantics as torch.Tensor.zero_.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] self tensor cleared in place. Dtypes: float32, float64, float16, int16, int32, int64, int8, uint8,
 *     bfloat16.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiZeroInp(diopiContextHandle_t ctx, diopiTensorHandle_t self);

/* ========================================================================
 * Family: logical_bitwise_compare (comparison, logical and bitwise)
 * ======================================================================== */

/**
 * @brief Element-wise logical AND of `input` and `other`, treating non-zero values as true; broadcasting applies.
 *        Same semantics as torch.logical_and.
 *
 * Inputs of any dtype are accepted; only zero versus non-zero matters.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out boolean result tensor with the broadcast shape of `input` and `other`. Dtypes: bool, bfloat16.
 * @param[in] input first operand; non-zero counts as true. Dtypes: float64, float32, float16, int64, int32, int16,
 *     int8, uint8, bool, bfloat16.
 * @param[in] other second operand, broadcastable with `input`; non-zero counts as true. Dtypes: float64, float32,
 *     float16, int64, int32, int16, int8, uint8, bool, bfloat16.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiLogicalAnd(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                       diopiConstTensorHandle_t other);

/**
 * @brief In-place logical AND: input = input AND other, with non-zero treated as true. Same semantics as
 *        torch.Tensor.logical_and_.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input first operand, overwritten with the result (1/true or 0/false in its own dtype). Dtypes:
 *     float64, float32, float16, int64, int32, int16, int8, uint8, bool, bfloat16.
 * @param[in] other second operand, broadcastable to the shape of `input`. Dtypes: float16, bfloat16, float32, float64,
 *     int8, uint8, int16, int32, int64, bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiLogicalAndInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, diopiConstTensorHandle_t other);

/**
 * @brief Element-wise logical OR of `input` and `other`, treating non-zero values as true; broadcasting applies. Same
 *        semantics as torch.logical_or.
 *
 * Inputs of any dtype are accepted; only zero versus non-zero matters.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out boolean result tensor with the broadcast shape of `input` and `other`. Dtypes: bool, bfloat16.
 * @param[in] input first operand; non-zero counts as true. Dtypes: float64, float32, float16, int64, int32, int16,
 *     int8, uint8, bool, bfloat16.
 * @param[in] other second operand, broadcastable with `input`; non-zero counts as true. Dtypes: float64, float32,
 *     float16, int64, int32, int16, int8, uint8, bool, bfloat16.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiLogicalOr(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                      diopiConstTensorHandle_t other);

/**
 * @brief In-place logical OR: input = input OR other, with non-zero treated as true. Same semantics as
 *        torch.Tensor.logical_or_.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input first operand, overwritten with the result (1/true or 0/false in its own dtype). Dtypes:
 *     float64, float32, float16, int64, int32, int16, int8, uint8, bool, bfloat16.
 * @param[in] other second operand, broadcastable to the shape of `input`. Dtypes: float16, bfloat16, float32, float64,
 *     int8, uint8, int16, int32, int64, bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiLogicalOrInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, diopiConstTensorHandle_t other);

/**
 * @brief Computes the logical negation of each element: true where the element is zero, false otherwise, writing the
 *        result to `out`. Same semantics as torch.logical_not.
 *
 * Any non-zero value, including NaN, counts as true.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result tensor, same shape as `input`. Dtypes: bool, bfloat16.
 * @param[in] input source tensor. Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool, bfloat16.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiLogicalNot(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input);

/**
 * @brief In-place variant of diopiLogicalNot, which computes the logical negation of each element: true where the
 *        element is zero, false otherwise; the result overwrites `input`. Same semantics as
 *        torch.Tensor.logical_not_.
 *
 * Any non-zero value, including NaN, counts as true.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input tensor that is read and overwritten with the result. Dtypes: float64, float32, float16, int64,
 *     int32, int16, int8, uint8, bool, bfloat16.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiLogicalNotInp(diopiContextHandle_t ctx, diopiTensorHandle_t input);

/**
 * @brief Element-wise bitwise AND: out = input & other, with broadcasting. Same semantics as torch.bitwise_and.
 *
 * For bool tensors this is the logical AND; floating-point inputs are not supported.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result tensor with the broadcast shape of `input` and `other`. Dtypes: int16, int32, int64, int8,
 *     uint8, bool.
 * @param[in] input first integer or bool operand. Dtypes: int16, int32, int64, int8, uint8, bool.
 * @param[in] other second integer or bool operand, broadcastable with `input`. Dtypes: int16, int32, int64, int8,
 *     uint8, bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiBitwiseAnd(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                       diopiConstTensorHandle_t other);

/**
 * @brief In-place bitwise AND: input = input & other. Same semantics as torch.Tensor.bitwise_and_.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input first operand, overwritten with the result. Dtypes: int16, int32, int64, int8, uint8, bool.
 * @param[in] other second operand, broadcastable to the shape of `input`. Dtypes: int8, uint8, int16, int32, int64,
 *     bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiBitwiseAndInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, diopiConstTensorHandle_t other);

/**
 * @brief Bitwise AND of every element with a scalar: out = input & other, where the second operand is a scalar. Same
 *        semantics as torch.bitwise_and with a scalar.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result tensor, same shape as `input`. Dtypes: int16, int32, int64, int8, uint8, bool.
 * @param[in] input integer or bool tensor operand. Dtypes: int16, int32, int64, int8, uint8, bool.
 * @param[in] other integral or boolean scalar operand. Dtypes: int16, int32, int64, int8, uint8, bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiBitwiseAndScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                             const diopiScalar_t* other);

/**
 * @brief In-place bitwise AND with a scalar: input = input & other. Same semantics as torch.Tensor.bitwise_and_ with
 *        a scalar.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input tensor operand, overwritten with the result. Dtypes: int16, int32, int64, int8, uint8, bool.
 * @param[in] other integral or boolean scalar operand.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiBitwiseAndInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input, const diopiScalar_t* other);

/**
 * @brief Element-wise bitwise OR: out = input | other, with broadcasting. Same semantics as torch.bitwise_or.
 *
 * For bool tensors this is the logical OR; floating-point inputs are not supported.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result tensor with the broadcast shape of `input` and `other`. Dtypes: int16, int32, int64, int8,
 *     uint8, bool.
 * @param[in] input first integer or bool operand. Dtypes: int16, int32, int64, int8, uint8, bool.
 * @param[in] other second integer or bool operand, broadcastable with `input`. Dtypes: int16, int32, int64, int8,
 *     uint8, bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiBitwiseOr(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                      diopiConstTensorHandle_t other);

/**
 * @brief In-place bitwise OR: input = input | other. Same semantics as torch.Tensor.bitwise_or_.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input first operand, overwritten with the result. Dtypes: int16, int32, int64, int8, uint8, bool.
 * @param[in] other second operand, broadcastable to the shape of `input`. Dtypes: int8, uint8, int16, int32, int64,
 *     bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiBitwiseOrInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, diopiConstTensorHandle_t other);

/**
 * @brief Bitwise OR of every element with a scalar: out = input | other, where the second operand is a scalar. Same
 *        semantics as torch.bitwise_or with a scalar.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result tensor, same shape as `input`. Dtypes: int16, int32, int64, int8, uint8, bool.
 * @param[in] input integer or bool tensor operand. Dtypes: int16, int32, int64, int8, uint8, bool.
 * @param[in] other integral or boolean scalar operand. Dtypes: int16, int32, int64, int8, uint8, bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiBitwiseOrScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                            const diopiScalar_t* other);

/**
 * @brief In-place bitwise OR with a scalar: input = input | other. Same semantics as torch.Tensor.bitwise_or_ with a
 *        scalar.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input tensor operand, overwritten with the result. Dtypes: int16, int32, int64, int8, uint8, bool.
 * @param[in] other integral or boolean scalar operand.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiBitwiseOrInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input, const diopiScalar_t* other);

/**
 * @brief Computes the bitwise complement ~x of each element (logical NOT for bool tensors), writing the result to
 *        `out`. Same semantics as torch.bitwise_not.
 *
 * Only integer and bool tensors are meaningful inputs.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result tensor, same shape as `input`. Dtypes: int16, int32, int64, uint8, int8, bool.
 * @param[in] input source tensor. Dtypes: int16, int32, int64, uint8, int8, bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiBitwiseNot(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input);

/**
 * @brief In-place variant of diopiBitwiseNot, which computes the bitwise complement ~x of each element (logical NOT
 *        for bool tensors); the result overwrites `input`. Same semantics as torch.Tensor.bitwise_not_.
 *
 * Only integer and bool tensors are meaningful inputs.
 * @param[in] ctx context of the call: stream and temporaries. Dtypes: int16, int32, int64, uint8, int8, bool.
 * @param[in,out] input tensor that is read and overwritten with the result. Dtypes: int16, int32, int64, uint8, int8,
 *     bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiBitwiseNotInp(diopiContextHandle_t ctx, diopiTensorHandle_t input);

/**
 * @brief Compares every element of `input` with a scalar, writing true where input == other. Same semantics as
 *        torch.eq with a scalar.
 *
 * Any comparison involving NaN is false.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out boolean mask, same shape as `input`. Dtypes: bool, bfloat16.
 * @param[in] input left-hand tensor operand. Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool,
 *     bfloat16.
 * @param[in] other scalar right-hand operand. Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8,
 *     bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiEqScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, const diopiScalar_t* other);

/**
 * @brief In-place comparison with a scalar: each element of `input` becomes 1 if input == other holds, else 0. Same
 *        semantics as torch.Tensor.eq_ with a scalar.
 *
 * Any comparison involving NaN is false.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input left-hand operand, overwritten with the comparison result in its own dtype. Dtypes: float64,
 *     float32, float16, int64, int32, int16, int8, uint8, bool, bfloat16.
 * @param[in] other scalar right-hand operand.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiEqInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input, const diopiScalar_t* other);

/**
 * @brief Element-wise test input == other with broadcasting, writing true where `input` is equal to `other`. Same
 *        semantics as torch.eq.
 *
 * Any comparison involving NaN is false.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out boolean mask with the broadcast shape of `input` and `other`. Dtypes: bool, bfloat16.
 * @param[in] input left-hand operand. Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool,
 *     bfloat16.
 * @param[in] other right-hand operand, broadcastable with `input`. Dtypes: float64, float32, float16, int64, int32,
 *     int16, int8, uint8, bool, bfloat16.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiEq(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t other);

/**
 * @brief In-place element-wise test input == other; each element of `input` becomes 1 (true) or 0 (false). Same
 *        semantics as torch.Tensor.eq_.
 *
 * Any comparison involving NaN is false.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input left-hand operand, overwritten with the comparison result in its own dtype. Dtypes: float16,
 *     bfloat16, float32, float64, int8, uint8, int16, int32, int64, bool.
 * @param[in] other right-hand operand, broadcastable to the shape of `input`. Dtypes: float16, bfloat16, float32,
 *     float64, int8, uint8, int16, int32, int64, bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiEqInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, diopiConstTensorHandle_t other);

/**
 * @brief Checks whether two tensors have the same shape and identical elements, returning a single boolean on the
 *        host. Same semantics as torch.equal.
 *
 * No broadcasting is done: differing shapes give false, and NaN never equals NaN.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out pointer to a host bool set to true if shapes and all elements match. Dtypes: bool.
 * @param[in] input first tensor. Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool, bfloat16.
 * @param[in] other second tensor to compare against `input`. Dtypes: float64, float32, float16, int64, int32, int16,
 *     int8, uint8, bool, bfloat16.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiEqual(diopiContextHandle_t ctx, bool* out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t other);

/**
 * @brief Element-wise membership test: writes true where an element of `elements` equals some element of
 *        `test_elements`, or where it equals none of them when `invert` is true. Same semantics as torch.isin.
 *
 * The two operands are compared in their promoted dtype; NaN equals nothing, so a NaN element is never a member.
 * Generation loops use it to stop a sequence on any of several end tokens.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out boolean result with the shape of `elements`. Dtypes: bool.
 * @param[in] elements values looked up. Dtypes: float64, float32, float16, bfloat16, int64, int32, int16, int8, uint8.
 * @param[in] test_elements the values of the set, of any shape (only its elements matter). Dtypes: float64, float32,
 *     float16, bfloat16, int64, int32, int16, int8, uint8.
 * @param[in] assume_unique a promise that each tensor holds distinct values, which an implementation may use to go
 *     faster; the result is the same either way.
 * @param[in] invert when true, write true for the elements that are not in the set.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, an `out` of another shape than
 *         `elements` or other invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiIsIn(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t elements,
                                 diopiConstTensorHandle_t test_elements, bool assume_unique, bool invert);

/**
 * @brief Compares every element of `input` with a scalar, writing true where input != other. Same semantics as
 *        torch.ne with a scalar.
 *
 * Any comparison involving NaN is true.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out boolean mask, same shape as `input`. Dtypes: bool, bfloat16.
 * @param[in] input left-hand tensor operand. Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool,
 *     bfloat16.
 * @param[in] other scalar right-hand operand. Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8,
 *     bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiNeScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, const diopiScalar_t* other);

/**
 * @brief In-place comparison with a scalar: each element of `input` becomes 1 if input != other holds, else 0. Same
 *        semantics as torch.Tensor.ne_ with a scalar.
 *
 * Any comparison involving NaN is true.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input left-hand operand, overwritten with the comparison result in its own dtype. Dtypes: float64,
 *     float32, float16, int64, int32, int16, int8, uint8, bool, bfloat16.
 * @param[in] other scalar right-hand operand. Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8,
 *     bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiNeInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input, const diopiScalar_t* other);

/**
 * @brief Element-wise test input != other with broadcasting, writing true where `input` is not equal to `other`. Same
 *        semantics as torch.ne.
 *
 * Any comparison involving NaN is true.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out boolean mask with the broadcast shape of `input` and `other`. Dtypes: bool, bfloat16.
 * @param[in] input left-hand operand. Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool,
 *     bfloat16.
 * @param[in] other right-hand operand, broadcastable with `input`. Dtypes: float64, float32, float16, int64, int32,
 *     int16, int8, uint8, bool, bfloat16.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiNe(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t other);

/**
 * @brief In-place element-wise test input != other; each element of `input` becomes 1 (true) or 0 (false). Same
 *        semantics as torch.Tensor.ne_.
 *
 * Any comparison involving NaN is true.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input left-hand operand, overwritten with the comparison result in its own dtype. Dtypes: float64,
 *     float32, float16, int64, int32, int16, int8, uint8, bool, bfloat16.
 * @param[in] other right-hand operand, broadcastable to the shape of `input`. Dtypes: float64, float32, float16, int64,
 *     int32, int16, int8, uint8, bool, bfloat16.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiNeInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, diopiConstTensorHandle_t other);

/**
 * @brief Compares every element of `input` with a scalar, writing true where input >= other. Same semantics as
 *        torch.ge with a scalar.
 *
 * Any comparison involving NaN is false.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out boolean mask, same shape as `input`. Dtypes: bool, bfloat16.
 * @param[in] input left-hand tensor operand. Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool,
 *     bfloat16.
 * @param[in] other scalar right-hand operand. Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8,
 *     bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiGeScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, const diopiScalar_t* other);

/**
 * @brief In-place comparison with a scalar: each element of `input` becomes 1 if input >= other holds, else 0. Same
 *        semantics as torch.Tensor.ge_ with a scalar.
 *
 * Any comparison involving NaN is false.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input left-hand operand, overwritten with the comparison result in its own dtype. Dtypes: float64,
 *     float32, float16, int64, int32, int16, int8, uint8, bool, bfloat16.
 * @param[in] other scalar right-hand operand. Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8,
 *     bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiGeInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input, const diopiScalar_t* other);

/**
 * @brief Element-wise test input >= other with broadcasting, writing true where `input` is greater than or equal to
 *        `other`. Same semantics as torch.ge.
 *
 * Any comparison involving NaN is false.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out boolean mask with the broadcast shape of `input` and `other`. Dtypes: bool, bfloat16.
 * @param[in] input left-hand operand. Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool,
 *     bfloat16.
 * @param[in] other right-hand operand, broadcastable with `input`. Dtypes: float64, float32, float16, int64, int32,
 *     int16, int8, uint8, bool, bfloat16.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiGe(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t other);

/**
 * @brief In-place element-wise test input >= other; each element of `input` becomes 1 (true) or 0 (false). Same
 *        semantics as torch.Tensor.ge_.
 *
 * Any comparison involving NaN is false.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input left-hand operand, overwritten with the comparison result in its own dtype. Dtypes: float64,
 *     float32, float16, int64, int32, int16, int8, uint8, bool, bfloat16.
 * @param[in] other right-hand operand, broadcastable to the shape of `input`. Dtypes: float64, float32, float16, int64,
 *     int32, int16, int8, uint8, bool, bfloat16.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiGeInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, diopiConstTensorHandle_t other);

/**
 * @brief Compares every element of `input` with a scalar, writing true where input > other. Same semantics as
 *        torch.gt with a scalar.
 *
 * Any comparison involving NaN is false.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out boolean mask, same shape as `input`. Dtypes: bool, bfloat16.
 * @param[in] input left-hand tensor operand. Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool,
 *     bfloat16.
 * @param[in] other scalar right-hand operand. Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8,
 *     bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiGtScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, const diopiScalar_t* other);

/**
 * @brief In-place comparison with a scalar: each element of `input` becomes 1 if input > other holds, else 0. Same
 *        semantics as torch.Tensor.gt_ with a scalar.
 *
 * Any comparison involving NaN is false.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input left-hand operand, overwritten with the comparison result in its own dtype. Dtypes: float64,
 *     float32, float16, int64, int32, int16, int8, uint8, bool, bfloat16.
 * @param[in] other scalar right-hand operand. Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8,
 *     bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiGtInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input, const diopiScalar_t* other);

/**
 * @brief Element-wise test input > other with broadcasting, writing true where `input` is greater than `other`. Same
 *        semantics as torch.gt.
 *
 * Any comparison involving NaN is false.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out boolean mask with the broadcast shape of `input` and `other`. Dtypes: bool, bfloat16.
 * @param[in] input left-hand operand. Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool,
 *     bfloat16.
 * @param[in] other right-hand operand, broadcastable with `input`. Dtypes: float64, float32, float16, int64, int32,
 *     int16, int8, uint8, bool, bfloat16.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiGt(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t other);

/**
 * @brief In-place element-wise test input > other; each element of `input` becomes 1 (true) or 0 (false). Same
 *        semantics as torch.Tensor.gt_.
 *
 * Any comparison involving NaN is false.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input left-hand operand, overwritten with the comparison result in its own dtype. Dtypes: float64,
 *     float32, float16, int64, int32, int16, int8, uint8, bool, bfloat16.
 * @param[in] other right-hand operand, broadcastable to the shape of `input`. Dtypes: float64, float32, float16, int64,
 *     int32, int16, int8, uint8, bool, bfloat16.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiGtInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, diopiConstTensorHandle_t other);

/**
 * @brief Compares every element of `input` with a scalar, writing true where input <= other. Same semantics as
 *        torch.le with a scalar.
 *
 * Any comparison involving NaN is false.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out boolean mask, same shape as `input`. Dtypes: bool, bfloat16.
 * @param[in] input left-hand tensor operand. Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool,
 *     bfloat16.
 * @param[in] other scalar right-hand operand. Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8,
 *     bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiLeScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, const diopiScalar_t* other);

/**
 * @brief In-place comparison with a scalar: each element of `input` becomes 1 if input <= other holds, else 0. Same
 *        semantics as torch.Tensor.le_ with a scalar.
 *
 * Any comparison involving NaN is false.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input left-hand operand, overwritten with the comparison result in its own dtype. Dtypes: float64,
 *     float32, float16, int64, int32, int16, int8, uint8, bool, bfloat16.
 * @param[in] other scalar right-hand operand. Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8,
 *     bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiLeInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input, const diopiScalar_t* other);

/**
 * @brief Element-wise test input <= other with broadcasting, writing true where `input` is less than or equal to
 *        `other`. Same semantics as torch.le.
 *
 * Any comparison involving NaN is false.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out boolean mask with the broadcast shape of `input` and `other`. Dtypes: bool, bfloat16.
 * @param[in] input left-hand operand. Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool,
 *     bfloat16.
 * @param[in] other right-hand operand, broadcastable with `input`. Dtypes: float64, float32, float16, int64, int32,
 *     int16, int8, uint8, bool, bfloat16.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiLe(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t other);

/**
 * @brief In-place element-wise test input <= other; each element of `input` becomes 1 (true) or 0 (false). Same
 *        semantics as torch.Tensor.le_.
 *
 * Any comparison involving NaN is false.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input left-hand operand, overwritten with the comparison result in its own dtype. Dtypes: float64,
 *     float32, float16, int64, int32, int16, int8, uint8, bool, bfloat16.
 * @param[in] other right-hand operand, broadcastable to the shape of `input`. Dtypes: float64, float32, float16, int64,
 *     int32, int16, int8, uint8, bool, bfloat16.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiLeInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, diopiConstTensorHandle_t other);

/**
 * @brief Compares every element of `input` with a scalar, writing true where input < other. Same semantics as
 *        torch.lt with a scalar.
 *
 * Any comparison involving NaN is false.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out boolean mask, same shape as `input`. Dtypes: bool.
 * @param[in] input left-hand tensor operand. Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool,
 *     bfloat16.
 * @param[in] other scalar right-hand operand. Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8,
 *     bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiLtScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, const diopiScalar_t* other);

/**
 * @brief In-place comparison with a scalar: each element of `input` becomes 1 if input < other holds, else 0. Same
 *        semantics as torch.Tensor.lt_ with a scalar.
 *
 * Any comparison involving NaN is false.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input left-hand operand, overwritten with the comparison result in its own dtype. Dtypes: float64,
 *     float32, float16, int64, int32, int16, int8, uint8, bool, bfloat16.
 * @param[in] other scalar right-hand operand. Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8,
 *     bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiLtInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input, const diopiScalar_t* other);

/**
 * @brief Element-wise test input < other with broadcasting, writing true where `input` is less than `other`. Same
 *        semantics as torch.lt.
 *
 * Any comparison involving NaN is false.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out boolean mask with the broadcast shape of `input` and `other`. Dtypes: bool, bfloat16.
 * @param[in] input left-hand operand. Dtypes: float64, float32, float16, int64, int32, int16, int8, uint8, bool,
 *     bfloat16.
 * @param[in] other right-hand operand, broadcastable with `input`. Dtypes: float16, bfloat16, float32, float64, int8,
 *     uint8, int16, int32, int64, bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiLt(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiConstTensorHandle_t other);

/**
 * @brief In-place element-wise test input < other; each element of `input` becomes 1 (true) or 0 (false). Same
 *        semantics as torch.Tensor.lt_.
 *
 * Any comparison involving NaN is false.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input left-hand operand, overwritten with the comparison result in its own dtype. Dtypes: float64,
 *     float32, float16, int64, int32, int16, int8, uint8, bool, bfloat16.
 * @param[in] other right-hand operand, broadcastable to the shape of `input`. Dtypes: float16, bfloat16, float32,
 *     float64, int8, uint8, int16, int32, int64, bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiLtInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, diopiConstTensorHandle_t other);

/* ========================================================================
 * Family: reduction_scan (reductions and scans)
 * ======================================================================== */

/**
 * @brief Arithmetic mean of `input` over the given dimensions. Same semantics as torch.mean.
 *
 * Keeping reduced dimensions with size 1 is inferred from the shape of `out`, and an empty reduction gives NaN.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out reduced tensor receiving the means. Dtypes: float32, float64, float16, bfloat16.
 * @param[in] input tensor to average. Dtypes: float32, float64, float16, bfloat16.
 * @param[in] dim dimensions to reduce; empty means reduce over all elements. Dtypes: int32, int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiMean(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t dim);

/**
 * @brief Sum of the elements of `input` over the given dimensions. Same semantics as torch.sum.
 *
 * Keeping reduced dimensions with size 1 is inferred from the shape of `out`, and an empty reduction gives 0.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out reduced tensor receiving the sums; its dtype selects the accumulation/result type. Dtypes: float32,
 *     float64, float16, bfloat16, int64.
 * @param[in] input tensor to sum. Dtypes: float32, float64, float16, bfloat16, int8, uint8, int16, int32, int64, bool.
 * @param[in] dim dimensions to reduce; empty means reduce over all elements. Dtypes: int32, int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiSum(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t dim);

/**
 * @brief Standard deviation of `input` over the given dimensions: sqrt(sum((x - mean)^2) / (N - correction)). Same
 *        semantics as torch.std.
 *
 * Keeping reduced dimensions is inferred from the shape of `out`; if N - correction <= 0 the result is NaN or inf.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out reduced tensor receiving the standard deviations. Dtypes: float32, float64, float16.
 * @param[in] input tensor whose spread is measured. Dtypes: float32, float64, float16.
 * @param[in] dim dimensions to reduce; empty means reduce over all elements. Dtypes: int32, int64.
 * @param[in] correction value subtracted from the sample count N in the divisor; 1 gives Bessel's correction.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiStd(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t dim,
                                const diopiScalar_t* correction);

/**
 * @brief Finds the minimum of `input` along one dimension together with the position where it occurs. Same semantics
 *        as torch.min(input, dim).
 *
 * Whether `dim` is kept with size 1 is inferred from the output shape; NaN is treated as the minimum if present.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] min tensor receiving the minimum values along `dim`. Dtypes: float32, float64, float16, int16, int32,
 *     int64, uint8, int8, bool, bfloat16.
 * @param[out] min_indices tensor receiving the index of each minimum along `dim`; same shape as `min`. Dtypes: int32,
 *     int64, bfloat16.
 * @param[in] input tensor to search. Dtypes: float32, float64, float16, int16, int32, int64, uint8, int8, bool,
 *     bfloat16.
 * @param[in] dim dimension to reduce; negative values count from the end. Dtypes: int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiMin(diopiContextHandle_t ctx, diopiTensorHandle_t min, diopiTensorHandle_t min_indices, diopiConstTensorHandle_t input,
                                int64_t dim);

/**
 * @brief Returns the smallest element of the whole tensor as a zero-dimensional result. Same semantics as
 *        torch.min(input).
 *
 * If any element is NaN the result is NaN.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] min zero-dimensional tensor receiving the minimum value. Dtypes: float32, float64, float16, int16,
 *     int32, int64, uint8, int8, bool.
 * @param[in] input tensor to search; must be non-empty. Dtypes: float32, float64, float16, int16, int32, int64,
 *     uint8, int8, bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiMinAll(diopiContextHandle_t ctx, diopiTensorHandle_t min, diopiConstTensorHandle_t input);

/**
 * @brief Finds the maximum of `input` along one dimension together with the position where it occurs. Same semantics
 *        as torch.max(input, dim).
 *
 * Whether `dim` is kept with size 1 is inferred from the output shape; NaN is treated as the maximum if present.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] max tensor receiving the maximum values along `dim`. Dtypes: float32, float64, float16, int16, int32,
 *     int64, uint8, int8, bool, bfloat16.
 * @param[out] max_indices tensor receiving the index of each maximum along `dim`; same shape as `max`. Dtypes: int32,
 *     int64, bfloat16.
 * @param[in] input tensor to search. Dtypes: float32, float64, float16, int16, int32, int64, uint8, int8, bool,
 *     bfloat16.
 * @param[in] dim dimension to reduce; negative values count from the end. Dtypes: int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiMax(diopiContextHandle_t ctx, diopiTensorHandle_t max, diopiTensorHandle_t max_indices, diopiConstTensorHandle_t input,
                                int64_t dim);

/**
 * @brief Returns the largest element of the whole tensor as a zero-dimensional result. Same semantics as
 *        torch.max(input).
 *
 * If any element is NaN the result is NaN.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] max zero-dimensional tensor receiving the maximum value. Dtypes: float32, float64, float16, int16,
 *     int32, int64, uint8, int8, bool.
 * @param[in] input tensor to search; must be non-empty. Dtypes: float32, float64, float16, int16, int32, int64,
 *     uint8, int8, bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiMaxAll(diopiContextHandle_t ctx, diopiTensorHandle_t max, diopiConstTensorHandle_t input);

/**
 * @brief Tests whether at least one element of `input` is non-zero, either along one dimension or over the whole
 *        tensor. Same semantics as torch.any.
 *
 * An empty reduction yields false.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out boolean tensor receiving the reduction result. Dtypes: bool.
 * @param[in] input tensor to test; non-zero counts as true. Dtypes: bool, float16, float32, float64, int16, int32,
 *     int64, uint8, int8.
 * @param[in] dim pointer to the dimension to reduce; null means reduce over all elements.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAny(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, const int64_t* dim);

/**
 * @brief Tests whether every element of `input` is non-zero, either along one dimension or over the whole tensor.
 *        Same semantics as torch.all.
 *
 * An empty reduction yields true.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out boolean tensor receiving the reduction result. Dtypes: bool.
 * @param[in] input tensor to test; non-zero counts as true. Dtypes: bool, float16, float32, float64, int16, int32,
 *     int64, uint8, int8.
 * @param[in] dim pointer to the dimension to reduce; null means reduce over all elements.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAll(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, const int64_t* dim);

/**
 * @brief Running (inclusive prefix) sum of `input` along dimension `dim`: out[i] is the sum of input[0] through
 *        input[i]. Same semantics as torch.cumsum.
 *
 * The accumulation type is given by the dtype of `out`.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result tensor, same shape as `input`, holding the prefix sums. Dtypes: float32, float64, float16,
 *     int16, int32, int64, uint8, int8, bool.
 * @param[in] input tensor to accumulate. Dtypes: float32, float64, float16, int16, int32, int64, uint8, int8, bool.
 * @param[in] dim dimension along which sums accumulate; negative values count from the end. Dtypes: int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiCumsum(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, int64_t dim);

/**
 * @brief Gradient of diopiCumsum: each grad_input element is the sum of grad_output from that position to the end
 *        along `dim` (a reversed cumulative sum).
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input gradient with respect to the cumsum input, same shape as `grad_output`. Dtypes: float16,
 *     float32, float64.
 * @param[in] grad_output gradient flowing back from the cumsum result. Dtypes: float16, float32, float64.
 * @param[in] dim dimension the forward cumsum was taken along. Dtypes: int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiCumsumBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                           int64_t dim);

/**
 * @brief Returns the index of the largest element of `input`, along one dimension or over the flattened tensor. Same
 *        semantics as torch.argmax.
 *
 * When the extreme value occurs several times, the index of the first occurrence is returned.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out integer tensor receiving the indices. Dtypes: int32, int64.
 * @param[in] input tensor to search. Dtypes: float32, float64, float16, int16, int32, int64, uint8, int8, bool.
 * @param[in] dim pointer to the dimension to reduce; null means search the flattened tensor. Dtypes: int32, int64.
 * @param[in] keepdim if true, the reduced dimension is kept with size 1.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiArgmax(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, const int64_t* dim,
                                   bool keepdim);

/**
 * @brief Returns the index of the smallest element of `input`, along one dimension or over the flattened tensor. Same
 *        semantics as torch.argmin.
 *
 * When the extreme value occurs several times, the index of the first occurrence is returned.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out integer tensor receiving the indices. Dtypes: int32, int64.
 * @param[in] input tensor to search. Dtypes: float32, float64, float16, int16, int32, int64, uint8, int8, bool.
 * @param[in] dim pointer to the dimension to reduce; null means search the flattened tensor. Dtypes: int32, int64.
 * @param[in] keepdim if true, the reduced dimension is kept with size 1.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiArgmin(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, const int64_t* dim,
                                   bool keepdim);

/**
 * @brief Vector p-norm of `input` over the given dimensions: (sum |x|^p)^(1/p). Same semantics as torch.norm with a
 *        numeric p.
 *
 * p = 0 counts non-zero elements; whether reduced dimensions are kept is inferred from `out`'s shape.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out reduced tensor receiving the norms. Dtypes: float32, float64, float16.
 * @param[in] input tensor whose norm is computed. Dtypes: float32, float64, float16.
 * @param[in] p order of the norm, e.g. 2 for Euclidean; inf/-inf give max/min absolute value.
 * @param[in] dim dimensions to reduce; empty means reduce over all elements.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiNorm(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, const diopiScalar_t* p,
                                 diopiSize_t dim);

/**
 * @brief Gradient of diopiNorm: propagates `grad_output` back to the input of the p-norm using the saved forward
 *        result.
 *
 * Where the norm is zero the gradient is defined as zero rather than NaN.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input gradient with respect to `self`, same shape as `self`. Dtypes: float32, float64, float16.
 * @param[in] grad_output gradient of the loss with respect to the norm output. Dtypes: float32, float64, float16.
 * @param[in] self input tensor that was passed to the forward norm. Dtypes: float32, float64, float16.
 * @param[in] norm norm values produced by the forward pass, shaped like `grad_output`. Dtypes: float32, float64,
 *     float16.
 * @param[in] dim dimensions reduced in the forward pass; empty means all.
 * @param[in] p order of the norm used in the forward pass.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiNormBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                         diopiConstTensorHandle_t self, diopiConstTensorHandle_t norm, diopiSize_t dim, const diopiScalar_t* p);

/**
 * @brief Product of the elements of `input`, along one dimension or over the whole tensor. Same semantics as
 *        torch.prod.
 *
 * The product over an empty set is 1; keeping the reduced dimension is inferred from `out`'s shape.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out tensor receiving the products. Dtypes: float16, bfloat16, float32, float64, int64.
 * @param[in] input tensor to multiply out. Dtypes: float16, bfloat16, float32, float64, int32, int64.
 * @param[in] dim pointer to the dimension to reduce; null means multiply all elements.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiProd(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, const int64_t* dim);

/**
 * @brief Maximum values of `self` over the given dimensions, without indices. Same semantics as torch.amax.
 *
 * NaN propagates: a slice containing NaN yields NaN.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out reduced tensor receiving the maxima. Dtypes: float64, float32, float16, int16, int32, int64, int8,
 *     uint8.
 * @param[in] self tensor to search. Dtypes: float64, float32, float16, int16, int32, int64, int8, uint8.
 * @param[in] dim dimensions to reduce; empty means reduce over all dimensions.
 * @param[in] keepdim if true, reduced dimensions are kept with size 1. Dtypes: bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAmax(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t self, diopiSize_t dim, bool keepdim);

/* ========================================================================
 * Family: softmax (softmax)
 * ======================================================================== */

/**
 * @brief Softmax along one dimension: out = exp(input) / sum(exp(input)) over dim. Same semantics as
 *        torch.nn.functional.softmax.
 *
 * Implementations subtract the maximum along dim first for numerical stability.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out probabilities; same shape as input. Dtypes: float32, float64, float16, bfloat16.
 * @param[in] input input tensor of any shape. Dtypes: float32, float64, float16, bfloat16.
 * @param[in] dim dimension normalized to sum to one; negative values count from the end. Dtypes: int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiSoftmax(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, int64_t dim);

/**
 * @brief Backward of diopiSoftmax via its result: grad_input = output * (grad_output - sum(grad_output * output,
 *        dim)).
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input gradient for input; same shape as output. Dtypes: float32, float64, float16, bfloat16.
 * @param[in] grad_output gradient with respect to the softmax result. Dtypes: float32, float64, float16, bfloat16.
 * @param[in] output result of the forward softmax. Dtypes: float32, float64.
 * @param[in] dim softmax dimension used in the forward call. Dtypes: int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiSoftmaxBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                            diopiConstTensorHandle_t output, int64_t dim);

/**
 * @brief Log of softmax along one dimension: out = input - logsumexp(input, dim). Same semantics as
 *        torch.nn.functional.log_softmax.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out log-probabilities; same shape as input. Dtypes: float32, float64, float16, bfloat16.
 * @param[in] input input tensor of any shape. Dtypes: float32, float64, float16, bfloat16.
 * @param[in] dim dimension over which the normalization is done. Dtypes: int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiLogSoftmax(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, int64_t dim);

/**
 * @brief Backward of diopiLogSoftmax via its result: grad_input = grad_output - exp(output) * sum(grad_output, dim).
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input gradient for input; same shape as output. Dtypes: float32, float64, float16, bfloat16.
 * @param[in] grad_output gradient with respect to the log-softmax result. Dtypes: float32, float64, float16, bfloat16.
 * @param[in] output result of the forward log-softmax. Dtypes: float32, float64.
 * @param[in] dim dimension used in the forward call. Dtypes: int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiLogSoftmaxBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                               diopiConstTensorHandle_t output, int64_t dim);

/* ========================================================================
 * Family: indexing_gather_scatter (indexing, gather and scatter)
 * ======================================================================== */

/**
 * @brief Advanced (integer or boolean) indexing: returns input[indices[0], indices[1], ...], where a NULL entry keeps
 *        the whole dimension. Same semantics as torch.ops.aten.index (tensor subscripting with index tensors).
 *
 * Index tensors are broadcast together; a boolean mask entry is equivalent to the index tensors of its nonzero
 * positions.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result of the indexing; callee allocates it through diopiRequireTensor and stores the handle here.
 *     Dtypes: int32, int16, int64, uint8, int8, bool, float32, float64, float16, bfloat16.
 * @param[in] input tensor to index. Dtypes: int32, int16, int64, uint8, int8, bool, float32, float64, float16,
 *     bfloat16.
 * @param[in] indices array of nums index tensors, one per leading dimension; NULL entries select the full dimension.
 *     Dtypes: int32, int64, uint8, bool.
 * @param[in] nums number of entries in indices, at most the rank of input. Dtypes: int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiIndex(diopiContextHandle_t ctx, diopiTensorHandle_t* out, diopiConstTensorHandle_t input,
                                  diopiConstTensorHandle_t* indices, int64_t nums);

/**
 * @brief Backward of diopiIndex: accumulates grad_output into a zero tensor shaped like the forward input at the
 *        indexed positions, summing repeated indices.
 *
 * Equivalent to index_put with accumulate = true on a zero tensor.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input written with the gradient for input; same shape as the forward input. Dtypes: float32,
 *     float64, float16.
 * @param[in,out] zeros_like_input zero-filled scratch tensor shaped like the forward input; its content may be
 *     modified. Dtypes: float32, float64, float16.
 * @param[in] indices the same array of index tensors as in the forward call; NULL entries select whole dimensions.
 *     Dtypes: int32, int64, uint8, bool.
 * @param[in] nums number of entries in indices. Dtypes: int64.
 * @param[in] grad_output gradient of the loss with respect to the indexing result. Dtypes: float32, float64, float16.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiIndexBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiTensorHandle_t zeros_like_input,
                                          diopiConstTensorHandle_t* indices, int64_t nums, diopiConstTensorHandle_t grad_output);

/**
 * @brief Gathers whole slices of `input` along dimension dim at the positions listed in a 1-D index. Same semantics
 *        as torch.index_select.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result; shape of input with size along dim replaced by len(index). Dtypes: int32, int16, int64,
 *     uint8, int8, bool, float32, float64, float16, bfloat16.
 * @param[in] input source tensor. Dtypes: int32, int16, int64, uint8, int8, bool, float32, float64, float16, bfloat16.
 * @param[in] dim dimension along which slices are picked; negative values count from the end. Dtypes: int64.
 * @param[in] index 1-D tensor of positions along dim. Dtypes: int32, int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiIndexSelect(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, int64_t dim,
                                        diopiConstTensorHandle_t index);

/**
 * @brief Backward of diopiIndexSelect: adds each slice of the incoming gradient back into the input position it was
 *        taken from, starting from zeros.
 *
 * Positions that appear several times in index receive the sum of their gradients.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input written with the gradient for input, shape input_sizes. Dtypes: float32, float64, float16.
 * @param[in] grad gradient of the index_select result. Dtypes: float32, float64, float16.
 * @param[in] input_sizes shape of the forward input. Dtypes: int32, int64.
 * @param[in] dim dimension used in the forward call. Dtypes: int64.
 * @param[in] index 1-D positions used in the forward call. Dtypes: int32, int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiIndexSelectBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad,
                                                diopiSize_t input_sizes, int64_t dim, diopiConstTensorHandle_t index);

/**
 * @brief Takes the slice of `input` at a single position along dimension dim, removing that dimension. Same semantics
 *        as torch.select.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result with rank one less than input. Dtypes: int32, int16, int64, uint8, int8, bool, float32,
 *     float64, float16.
 * @param[in] input source tensor. Dtypes: int32, int16, int64, uint8, int8, bool, float32, float64, float16.
 * @param[in] dim dimension to slice; negative values count from the end. Dtypes: int64.
 * @param[in] index position along dim; negative values count from the end. Dtypes: int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiSelect(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, int64_t dim, int64_t index);

/**
 * @brief Backward of diopiSelect: produces a zero tensor of the input shape whose slice at index along dim holds
 *        grad_output.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input written with the gradient for input, shape input_sizes. Dtypes: int32, int16, int64, uint8,
 *     int8, bool, float32, float64, float16, bfloat16.
 * @param[in] grad_output gradient of the selected slice. Dtypes: int32, int16, int64, uint8, int8, bool, float32,
 *     float64, float16, bfloat16.
 * @param[in] input_sizes shape of the forward input. Dtypes: int32, int16, int64, uint8, int8.
 * @param[in] dim dimension used in the forward call. Dtypes: int64.
 * @param[in] index position used in the forward call. Dtypes: int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiSelectBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                           diopiSize_t input_sizes, int64_t dim, int64_t index);

/**
 * @brief Copies `input` into `out` and then overwrites the slice at position index along dim with `src`. Same
 *        semantics as torch.select_scatter.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result, same shape as input. Dtypes: float32, float64, float16, int16, int32, int64, uint8, int8,
 *     bool.
 * @param[in] input tensor providing all values outside the embedded slice. Dtypes: float32, float64, float16, int16,
 *     int32, int64, uint8, int8, bool.
 * @param[in] src slice to embed; shape of input with dim removed. Dtypes: float32, float64, float16, int16, int32,
 *     int64, uint8, int8, bool.
 * @param[in] dim dimension on which the slice lies. Dtypes: int64.
 * @param[in] index position of the slice along dim. Dtypes: int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiSelectScatter(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                          diopiConstTensorHandle_t src, int64_t dim, int64_t index);

/**
 * @brief Copies `input` into `out` and then overwrites the strided range start:end:step along dim with `src`. Same
 *        semantics as torch.slice_scatter.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result, same shape as input. Dtypes: float32, float64, float16, int16, int32, int64, uint8, int8,
 *     bool.
 * @param[in] input tensor providing all values outside the written range. Dtypes: float32, float64, float16, int16,
 *     int32, int64, uint8, int8, bool.
 * @param[in] src values to embed; shape matches input[start:end:step] along dim. Dtypes: float32, float64, float16,
 *     int16, int32, int64, uint8, int8, bool.
 * @param[in] dim dimension along which the range runs. Dtypes: int64.
 * @param[in] start first index of the range. Dtypes: int64.
 * @param[in] end exclusive end of the range. Dtypes: int64.
 * @param[in] step stride between written indices, positive. Dtypes: int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiSliceScatter(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                         diopiConstTensorHandle_t src, int64_t dim, int64_t start, int64_t end, int64_t step);

/**
 * @brief Extracts the strided range start:end:step of `input` along dimension dim. Same semantics as Python slicing
 *        input[..., start:end:step, ...] (torch.ops.aten.slice).
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] null_out result; input's shape with the dim extent replaced by the number of selected indices. Dtypes:
 *     float16, float32, float64, int8, uint8, int16, int32, int64, bool.
 * @param[in] input source tensor. Dtypes: float16, float32, float64, int8, uint8, int16, int32, int64, bool.
 * @param[in] dim dimension to slice
 * @param[in] start first index taken, clamped to the valid range
 * @param[in] end exclusive stop index, clamped to the dimension size
 * @param[in] step stride between taken indices, positive
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiSlice(diopiContextHandle_t ctx, diopiTensorHandle_t null_out, diopiConstTensorHandle_t input, int64_t dim, int64_t start,
                                  int64_t end, int64_t step);

/**
 * @brief Backward of diopiSlice: places grad_output into the strided range start:end:step along dim of a zero tensor
 *        with the input shape.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input written with the gradient for input, shape input_sizes. Dtypes: float16, bfloat16, float32,
 *     float64, int8, uint8, int16, int32, int64, bool.
 * @param[in] grad_output gradient of the sliced result. Dtypes: float16, bfloat16, float32, float64, int8, uint8, int16,
 *     int32, int64, bool.
 * @param[in] input_sizes shape of the forward input
 * @param[in] dim dimension used in the forward call
 * @param[in] start start index used in the forward call
 * @param[in] end end index used in the forward call
 * @param[in] step step used in the forward call
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiSliceBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                          diopiSize_t input_sizes, int64_t dim, int64_t start, int64_t end, int64_t step);

/**
 * @brief Copies `input` to `out`, then fills the positions where mask is true with consecutive elements of `source`
 *        taken in row-major order. Same semantics as torch.Tensor.masked_scatter.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result, same shape as input. Dtypes: float32, float64, float16, int16, int32, int64, uint8, int8,
 *     bool.
 * @param[in] input tensor providing values where mask is false. Dtypes: float32, float64, float16, int16, int32,
 *     int64, uint8, int8, bool.
 * @param[in] mask boolean mask broadcastable to input. Dtypes: bool.
 * @param[in] source tensor whose leading elements, in order, fill the true positions; needs at least as many
 *     elements. Dtypes: float32, float64, float16, int16, int32, int64, uint8, int8, bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiMaskedScatter(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                          diopiConstTensorHandle_t mask, diopiConstTensorHandle_t source);

/**
 * @brief Returns the coordinates of all non-zero elements of `input`, one row per element in row-major order. Same
 *        semantics as torch.nonzero.
 *
 * The output size depends on the data, which is why the callee allocates it.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out (count, input rank) index matrix; callee allocates it through diopiRequireTensor and stores the
 *     handle here. Dtypes: int32, int64.
 * @param[in] input tensor to scan. Dtypes: float32, float16, float64, int16, int32, int64, uint8, int8, bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiNonzero(diopiContextHandle_t ctx, diopiTensorHandle_t* out, diopiConstTensorHandle_t input);

/**
 * @brief In place, rescales every row of the embedding table referenced in `indices` whose norm_type-norm exceeds
 *        max_norm so that its norm becomes max_norm. Same semantics as torch.embedding_renorm_.
 *
 * Rows not referenced by indices are never touched.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] inout embedding table (num_embeddings, embedding_dim), modified in place. Dtypes: float32, float64.
 * @param[in] indices row indices whose rows are checked; duplicates are processed once. Dtypes: int32, int64.
 * @param[in] max_norm largest allowed norm of a row. Dtypes: double.
 * @param[in] norm_type order p of the norm, e.g. 2. Dtypes: double.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiEmbeddingRenorm_(diopiContextHandle_t ctx, diopiTensorHandle_t inout, diopiConstTensorHandle_t indices, double max_norm,
                                             double norm_type);

/**
 * @brief Looks up rows of an embedding table: out[..., :] = weight[indices[...], :]. Same semantics as
 *        torch.nn.functional.embedding.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result of shape indices.shape + (embedding_dim). Dtypes: float32, float64, float16, bfloat16.
 * @param[in] weight embedding table of shape (num_embeddings, embedding_dim). Dtypes: float32, float64, float16,
 *     bfloat16.
 * @param[in] indices integer row indices of any shape. Dtypes: int32, int64.
 * @param[in] padding_idx row whose gradient is kept at zero (negative for none); forward values are unaffected.
 *     Dtypes: int64.
 * @param[in] scale_grad_byfreq only meaningful for the backward pass; ignored by the lookup. Dtypes: bool.
 * @param[in] sparse only meaningful for the backward pass; ignored by the lookup. Dtypes: bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiEmbedding(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t weight,
                                      diopiConstTensorHandle_t indices, int64_t padding_idx, bool scale_grad_byfreq, bool sparse);

/**
 * @brief Backward of diopiEmbedding: sums the incoming gradient rows into a dense weight-gradient table according to
 *        the looked-up indices.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out written with the weight gradient, shape (num_weights, embedding_dim). Dtypes: float32, float64,
 *     bfloat16.
 * @param[in] grad gradient of the lookup result, shape indices.shape + (embedding_dim). Dtypes: float32, float64,
 *     bfloat16.
 * @param[in] indices row indices used in the forward call. Dtypes: int32, int64.
 * @param[in] num_weights number of rows of the embedding table. Dtypes: int64.
 * @param[in] padding_idx row whose gradient stays zero. Dtypes: int64.
 * @param[in] scale_grad_byfreq if true, each row gradient is divided by how often that index occurs. Dtypes: bool.
 * @param[in] sparse requests a sparse gradient in frameworks that support it; the result here is dense. Dtypes: bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiEmbeddingBackward(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t grad,
                                              diopiConstTensorHandle_t indices, int64_t num_weights, int64_t padding_idx, bool scale_grad_byfreq,
                                              bool sparse);

/**
 * @brief Encodes integer class labels as one-hot vectors along a new trailing dimension. Same semantics as
 *        torch.nn.functional.one_hot.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result of shape input.shape + (num_classes), holding 0 and 1. Dtypes: int32, int64.
 * @param[in] input non-negative class labels. Dtypes: int32, int64.
 * @param[in] num_classes length of each one-hot vector; -1 means max(input) + 1. Dtypes: int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiOneHot(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, int64_t num_classes);

/**
 * @brief Elementwise selection: out = condition ? input : other, after broadcasting all three. Same semantics as
 *        torch.where(condition, input, other).
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result with the broadcast shape of condition, input and other. Dtypes: float16, float32, float64,
 *     int16, int32, int64, uint8, int8, bool.
 * @param[in] condition boolean selector. Dtypes: uint8, bool.
 * @param[in] input values taken where condition is true. Dtypes: float16, float32, float64, int16, int32, int64,
 *     uint8, int8, bool.
 * @param[in] other values taken where condition is false. Dtypes: float16, float32, float64, int16, int32, int64,
 *     uint8, int8, bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiWhere(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t condition,
                                  diopiConstTensorHandle_t input, diopiConstTensorHandle_t other);

/**
 * @brief Copies `input` to `out` and replaces the elements where mask is true with the value held in a 0-dim tensor.
 *        Same semantics as torch.masked_fill with a tensor value.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result, same shape as input. Dtypes: float32, float64, float16.
 * @param[in] input source tensor. Dtypes: float32, float64, float16.
 * @param[in] mask boolean mask broadcastable to input. Dtypes: bool.
 * @param[in] value 0-dim tensor holding the fill value. Dtypes: float32, float64, float16.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiMaskedFill(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                       diopiConstTensorHandle_t mask, diopiConstTensorHandle_t value);

/**
 * @brief In-place version of diopiMaskedFill: overwrites the elements of `input` where mask is true with the value of
 *        a 0-dim tensor.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input tensor modified in place. Dtypes: float32, float64, float16.
 * @param[in] mask boolean mask broadcastable to input. Dtypes: bool.
 * @param[in] value 0-dim tensor holding the fill value. Dtypes: float32, float64, float16.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiMaskedFillInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, diopiConstTensorHandle_t mask,
                                          diopiConstTensorHandle_t value);

/**
 * @brief Copies `input` to `out` and replaces the elements where mask is true with a scalar. Same semantics as
 *        torch.masked_fill with a number.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result, same shape as input. Dtypes: float32, float64, float16.
 * @param[in] input source tensor. Dtypes: float32, float64, float16.
 * @param[in] mask boolean mask broadcastable to input. Dtypes: bool.
 * @param[in] value scalar fill value. Dtypes: float32, float64, float16.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiMaskedFillScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                             diopiConstTensorHandle_t mask, const diopiScalar_t* value);

/**
 * @brief In-place version of diopiMaskedFillScalar: overwrites the elements of `input` where mask is true with a
 *        scalar.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input tensor modified in place. Dtypes: float16, float32, float64, int64.
 * @param[in] mask boolean mask broadcastable to input. Dtypes: bool.
 * @param[in] value scalar fill value. Dtypes: float32, float64, float16.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiMaskedFillInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input, diopiConstTensorHandle_t mask,
                                                const diopiScalar_t* value);

/**
 * @brief Collects the elements of `input` at the positions where mask is true into a 1-D tensor, in row-major order.
 *        Same semantics as torch.masked_select.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out 1-D result, one entry per true mask position; callee allocates it through diopiRequireTensor and
 *     stores the handle here. Dtypes: float16, float32, float64, int8, uint8, int16, int32, int64, bool.
 * @param[in] input source tensor. Dtypes: float16, float32, float64, int8, uint8, int16, int32, int64, bool.
 * @param[in] mask boolean mask broadcastable with input. Dtypes: uint8, bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiMaskedSelect(diopiContextHandle_t ctx, diopiTensorHandle_t* out, diopiConstTensorHandle_t input,
                                         diopiConstTensorHandle_t mask);

/**
 * @brief Backward of diopiMaskedSelect: scatters the 1-D gradient back to the positions where mask is true, leaving
 *        zeros elsewhere.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input written with the gradient for input, same shape as input. Dtypes: float16, float32, float64.
 * @param[in] grad_output 1-D gradient of the selected elements. Dtypes: float16, float32, float64.
 * @param[in] input tensor from the forward call (used for its shape). Dtypes: float16, float32, float64.
 * @param[in] mask boolean mask from the forward call. Dtypes: uint8, bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiMaskedSelectBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                                 diopiConstTensorHandle_t input, diopiConstTensorHandle_t mask);

/**
 * @brief Copies `input` to `out` and sets every slice along dim whose position is listed in index to a scalar. Same
 *        semantics as torch.index_fill with a number.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result, same shape as input. Dtypes: float16, float32, float64, int8, uint8, int16, int32, int64,
 *     bool.
 * @param[in] input source tensor. Dtypes: float16, float32, float64, int8, uint8, int16, int32, int64, bool.
 * @param[in] dim dimension along which slices are filled
 * @param[in] index 1-D positions along dim to fill. Dtypes: int32, int64.
 * @param[in] value scalar fill value
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiIndexFillScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, int64_t dim,
                                            diopiConstTensorHandle_t index, const diopiScalar_t* value);

/**
 * @brief Copies `input` to `out` and sets every slice along dim whose position is listed in index to the value of a
 *        0-dim tensor. Same semantics as torch.index_fill with a tensor value.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result, same shape as input. Dtypes: float16, float32, float64, int8, uint8, int16, int32, int64,
 *     bool.
 * @param[in] input source tensor. Dtypes: float16, float32, float64, int8, uint8, int16, int32, int64, bool.
 * @param[in] dim dimension along which slices are filled
 * @param[in] index 1-D positions along dim to fill. Dtypes: int32, int64.
 * @param[in] value 0-dim tensor holding the fill value. Dtypes: float16, float32, float64, int8, uint8, int16, int32,
 *     int64, bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiIndexFill(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, int64_t dim,
                                      diopiConstTensorHandle_t index, diopiConstTensorHandle_t value);

/**
 * @brief In-place version of diopiIndexFillScalar: sets the slices of `input` along dim at the listed positions to a
 *        scalar.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] input tensor modified in place. Dtypes: float16, float32, float64, int8, uint8, int16, int32, int64,
 *     bool.
 * @param[in] dim dimension along which slices are filled
 * @param[in] index 1-D positions along dim to fill. Dtypes: int32, int64.
 * @param[in] value scalar fill value
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiIndexFillInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input, int64_t dim, diopiConstTensorHandle_t index,
                                               const diopiScalar_t* value);

/**
 * @brief In-place version of diopiIndexFill: sets the slices of `input` along dim at the listed positions to the
 *        value of a 0-dim tensor.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] input tensor modified in place. Dtypes: float16, float32, float64, int8, uint8, int16, int32, int64,
 *     bool.
 * @param[in] dim dimension along which slices are filled
 * @param[in] index 1-D positions along dim to fill. Dtypes: int32, int64.
 * @param[in] value 0-dim tensor holding the fill value. Dtypes: float16, float32, float64, int8, uint8, int16, int32,
 *     int64, bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiIndexFillInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, int64_t dim, diopiConstTensorHandle_t index,
                                         diopiConstTensorHandle_t value);

/**
 * @brief Picks values along dimension dim using an index tensor: out[i][j][k] = input[index[i][j][k]][j][k] for dim =
 *        0, and analogously for other dims. Same semantics as torch.gather.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result, same shape as index. Dtypes: float32, float64, float16, int16, int32, int64, uint8, int8,
 *     bool.
 * @param[in] input source tensor. Dtypes: float32, float64, float16, int16, int32, int64, uint8, int8, bool.
 * @param[in] dim dimension along which values are picked. Dtypes: int64.
 * @param[in] index positions along dim, each in [-input.size(dim), input.size(dim)). It must have the same number of
 *     dimensions as input (a lower-rank index is not broadcast; diopiErrorOccurred), and in every dimension other
 *     than dim its extent must not exceed input's. Dtypes: int32, int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiGather(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, int64_t dim,
                                   diopiConstTensorHandle_t index);

/**
 * @brief Backward of diopiGather: scatter-adds grad_output into a zero tensor shaped like input at the gathered
 *        positions.
 *
 * Positions gathered several times receive the sum of the corresponding gradients.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input written with the gradient for input, same shape as input. Dtypes: float32, float64, float16,
 *     int16, int32, int64, uint8, int8, bool.
 * @param[in] grad_output gradient of the gather result, same shape as index. Dtypes: float32, float64, float16,
 *     int16, int32, int64, uint8, int8, bool.
 * @param[in] input tensor from the forward call (used for its shape). Dtypes: float32, float64, float16, int16,
 *     int32, int64, uint8, int8, bool.
 * @param[in] dim dimension used in the forward call. Dtypes: int64.
 * @param[in] index index tensor used in the forward call. Dtypes: int32, int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiGatherBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                           diopiConstTensorHandle_t input, int64_t dim, diopiConstTensorHandle_t index);

/**
 * @brief In place, writes the elements of `src` into `input` at positions given by index along dim, optionally
 *        combining with the existing values. Same semantics as torch.Tensor.scatter_(dim, index, src, reduce=...).
 *
 * Without a reduction, the result is unspecified when several index entries hit the same position.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input tensor modified in place. Dtypes: float32, float64, float16, int16, int32, int64, uint8, int8,
 *     bool.
 * @param[in] dim dimension along which index addresses positions
 * @param[in] src values to write; at least as large as index in every dimension. Dtypes: float16, float32, float64,
 *     int8, uint8, int16, int32, int64, bool.
 * @param[in] index target positions along dim; same rank as input. Dtypes: int32, int64.
 * @param[in] reduce NULL or empty to overwrite, or "add" / "multiply" to combine with the existing value
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiScatterInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, int64_t dim, diopiConstTensorHandle_t src,
                                       diopiConstTensorHandle_t index, const char* reduce);

/**
 * @brief In place, writes one scalar into `input` at every position given by index along dim, optionally combining
 *        with the existing values. Same semantics as torch.Tensor.scatter_(dim, index, value, reduce=...).
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input tensor modified in place. Dtypes: float32, float64, float16, int16, int32, int64, uint8, int8,
 *     bool.
 * @param[in] dim dimension along which index addresses positions
 * @param[in] value scalar written at every indexed position
 * @param[in] index target positions along dim; same rank as input. Dtypes: int32, int64.
 * @param[in] reduce NULL or empty to overwrite, or "add" / "multiply" to combine with the existing value
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiScatterInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input, int64_t dim, const diopiScalar_t* value,
                                             diopiConstTensorHandle_t index, const char* reduce);

/**
 * @brief Out-of-place scatter: out is a copy of `input` in which elements of `src` are written at positions given by
 *        index along dim, optionally reduced with the existing values. Same semantics as torch.scatter.
 *
 * Without a reduction, the result is unspecified when several index entries hit the same position.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result, same shape as input. Dtypes: float32, float64, float16, int16, int32, int64, uint8, int8,
 *     bool.
 * @param[in] input tensor supplying the initial values. Dtypes: float32, float64, float16, int16, int32, int64,
 *     uint8, int8, bool.
 * @param[in] dim dimension along which index addresses positions. Dtypes: int64.
 * @param[in] src values to write; at least as large as index in every dimension. Dtypes: float32, float64, float16,
 *     int16, int32, int64, uint8, int8, bool.
 * @param[in] index target positions along dim; same rank as input. Dtypes: int32, int64.
 * @param[in] reduce NULL or empty to overwrite, or "add" / "multiply" to combine with the existing value. Dtypes:
 *     string.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiScatter(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, int64_t dim,
                                    diopiConstTensorHandle_t src, diopiConstTensorHandle_t index, const char* reduce);

/**
 * @brief Out-of-place scatter of a scalar: out is a copy of `input` with the scalar written at every position given
 *        by index along dim, optionally reduced. Same semantics as torch.scatter with a number.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result, same shape as input. Dtypes: float16, float32, float64, int8, uint8, int16, int32, int64,
 *     bool.
 * @param[in] input tensor supplying the initial values. Dtypes: float16, float32, float64, int8, uint8, int16, int32,
 *     int64, bool.
 * @param[in] dim dimension along which index addresses positions
 * @param[in] value scalar written at every indexed position. Dtypes: float32, float64, float16, int16, int32, int64,
 *     uint8, int8, bool.
 * @param[in] index target positions along dim; same rank as input. Dtypes: int32, int64.
 * @param[in] reduce NULL or empty to overwrite, or "add" / "multiply" to combine with the existing value
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiScatterScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, int64_t dim,
                                          const diopiScalar_t* value, diopiConstTensorHandle_t index, const char* reduce);

/**
 * @brief In place, assigns `values` to input[indices[0], indices[1], ...] or adds them there when accumulate is set.
 *        Same semantics as torch.Tensor.index_put_.
 *
 * With accumulate false and repeated indices, which value ends up stored is unspecified.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input tensor modified in place. Dtypes: float32, float64, float16, int16, int32, int64, uint8, int8,
 *     bool, bfloat16.
 * @param[in] values values broadcastable to the shape of the indexed region. Dtypes: float32, float64, float16, int16,
 *     int32, int64, uint8, int8, bool, bfloat16.
 * @param[in] indices array of indices_counts index tensors, one per leading dimension; NULL entries select whole
 *     dimensions. Dtypes: int32, int64.
 * @param[in] indices_counts number of entries in indices. Dtypes: int64.
 * @param[in] accumulate if true, duplicates add up; if false, values overwrite
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiIndexPutInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, diopiConstTensorHandle_t values,
                                        diopiConstTensorHandle_t* indices, int64_t indices_counts, bool accumulate);

/**
 * @brief Out-of-place version of diopiIndexPutInp: out is a copy of `input` whose region input[indices...] is
 *        assigned or incremented by `values`. Same semantics as torch.index_put.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result, same shape as input. Dtypes: float32, float64, float16, int16, int32, int64, uint8, int8,
 *     bool, bfloat16.
 * @param[in] input tensor supplying the initial values. Dtypes: float32, float64, float16, int16, int32, int64, uint8,
 *     int8, bool, bfloat16.
 * @param[in] values values broadcastable to the shape of the indexed region. Dtypes: float32, float64, float16, int16,
 *     int32, int64, uint8, int8, bool, bfloat16.
 * @param[in] indices array of indices_counts index tensors, one per leading dimension; NULL entries select whole
 *     dimensions. Dtypes: int32, int64.
 * @param[in] indices_counts number of entries in indices. Dtypes: int64.
 * @param[in] accumulate if true, duplicates add up; if false, values overwrite
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiIndexPut(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                     diopiConstTensorHandle_t values, diopiConstTensorHandle_t* indices, int64_t indices_counts, bool accumulate);

/* ========================================================================
 * Family: vision_interp (vision and interpolation)
 * ======================================================================== */

/**
 * @brief Non-maximum suppression: visits boxes by decreasing confidence and discards any box whose IoU with an
 *        already kept box exceeds the threshold. Same semantics as torchvision.ops.nms.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out 1-D indices of kept boxes, highest score first; callee allocates it through diopiRequireTensor and
 *     stores the handle here. Dtypes: float16, float32, float64.
 * @param[in] boxes (N, 4) boxes as (x1, y1, x2, y2) corners. Dtypes: float16, float32, float64.
 * @param[in] confidence (N) score per box. Dtypes: float16, float32, float64.
 * @param[in] iou_threshold boxes overlapping a kept box by more than this IoU are dropped. Dtypes: double.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiNms(diopiContextHandle_t ctx, diopiTensorHandle_t* out, diopiConstTensorHandle_t boxes,
                                diopiConstTensorHandle_t confidence, double iou_threshold);

/**
 * @brief RoIAlign pooling: for every region of interest, bilinearly samples the feature map on a regular grid and
 *        averages the samples of each of the pooled_height x pooled_width bins. Same semantics as
 *        torchvision.ops.roi_align.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result of shape (K, C, pooled_height, pooled_width). Dtypes: float16, float32, float64.
 * @param[in] input feature map of shape (N, C, H, W). Dtypes: float16, float32, float64.
 * @param[in] rois (K, 5) regions as (batch_index, x1, y1, x2, y2) in input-image coordinates. Dtypes: float16,
 *     float32, float64.
 * @param[in] spatial_scale factor mapping roi coordinates onto the feature map, e.g. 1/stride. Dtypes: double.
 * @param[in] pooled_height number of output bins vertically. Dtypes: int64.
 * @param[in] pooled_width number of output bins horizontally. Dtypes: int64.
 * @param[in] sampling_ratio sample points per bin along each axis; 0 or less picks ceil(roi_size / bins) adaptively.
 *     Dtypes: int64.
 * @param[in] aligned if true, shifts box coordinates by -0.5 pixel for exact pixel alignment. Dtypes: bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiRoiAlign(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                     diopiConstTensorHandle_t rois, double spatial_scale, int64_t pooled_height, int64_t pooled_width,
                                     int64_t sampling_ratio, bool aligned);

/**
 * @brief Backward of diopiRoiAlign: distributes each pooled gradient back to the feature-map pixels through the
 *        bilinear sampling weights.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out written with the gradient of the feature map, shape (batch_size, channels, height, width). Dtypes:
 *     float16, float32, float64.
 * @param[in] grad gradient of the pooled result, shape (K, channels, pooled_height, pooled_width). Dtypes: float16,
 *     float32, float64.
 * @param[in] rois regions used in the forward call, shape (K, 5). Dtypes: float16, float32, float64.
 * @param[in] spatial_scale scale used in the forward call. Dtypes: double.
 * @param[in] pooled_height vertical bin count used in the forward call. Dtypes: int64.
 * @param[in] pooled_width horizontal bin count used in the forward call. Dtypes: int64.
 * @param[in] batch_size batch size N of the forward feature map. Dtypes: int64.
 * @param[in] channels channel count C of the forward feature map. Dtypes: int64.
 * @param[in] height height H of the forward feature map. Dtypes: int64.
 * @param[in] width width W of the forward feature map. Dtypes: int64.
 * @param[in] sampling_ratio sampling ratio used in the forward call. Dtypes: int64.
 * @param[in] aligned alignment flag used in the forward call. Dtypes: bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiRoiAlignBackward(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t grad,
                                             diopiConstTensorHandle_t rois, double spatial_scale, int64_t pooled_height, int64_t pooled_width,
                                             int64_t batch_size, int64_t channels, int64_t height, int64_t width, int64_t sampling_ratio,
                                             bool aligned);

/**
 * @brief Samples `input` at the normalised locations given by `grid` using the chosen interpolation. Same semantics
 *        as torch.nn.functional.grid_sample.
 *
 * Out-of-range locations read zeros (zero padding); corner alignment follows the align_corners = false convention.
 * For float16 and bfloat16 the sample coordinates and interpolation weights are computed in float32 or wider and
 * only the result is rounded to the output dtype: a coordinate held in half precision is off by up to 1/64 of a
 * pixel near pixel 64, which moves a bilinear result by that share of the difference between neighbouring pixels
 * and makes nearest sampling read another pixel.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result of shape (N, C, H_out, W_out), or (N, C, D_out, H_out, W_out) for volumes. Dtypes: float16,
 *     bfloat16, float32, float64.
 * @param[in] input source of shape (N, C, H_in, W_in) or (N, C, D_in, H_in, W_in). Dtypes: float16, bfloat16, float32,
 *     float64.
 * @param[in] grid sampling locations (N, H_out, W_out, 2) or (N, D_out, H_out, W_out, 3), in [-1, 1]. Dtypes: float16,
 *     bfloat16, float32, float64.
 * @param[in] mode interpolation: "bilinear" or "nearest"
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiGridSample(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                       diopiConstTensorHandle_t grid, const char* mode);

/**
 * @brief Resizes the spatial dimensions of `input` to `size` by nearest-neighbour sampling. Same semantics as
 *        torch.nn.functional.interpolate(mode='nearest').
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result of shape (N, C) + size. Dtypes: float16, bfloat16, float32, float64.
 * @param[in] input source of shape (N, C, spatial...) with 1 to 3 spatial dimensions. Dtypes: float16, bfloat16,
 *     float32, float64.
 * @param[in] size target spatial extents, one per spatial dimension
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiUpsampleNearest(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t size);

/**
 * @brief Backward of diopiUpsampleNearest: sums the output gradients of all output positions that copied the same
 *        input pixel.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input written with the gradient for input, shape in_size. Dtypes: float16, bfloat16, float32,
 *     float64.
 * @param[in] grad_output gradient of the upsampled result. Dtypes: float16, bfloat16, float32, float64.
 * @param[in] out_size spatial extents of the forward output
 * @param[in] in_size full shape (N, C, spatial...) of the forward input
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiUpsampleNearestBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                                    diopiSize_t out_size, diopiSize_t in_size);

/**
 * @brief Resizes the spatial dimensions of `input` to `size` by (multi)linear or bicubic interpolation. Same
 *        semantics as torch.nn.functional.interpolate with mode linear, bilinear, bicubic or trilinear.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result of shape (N, C) + size. Dtypes: float16, bfloat16, float32, float64.
 * @param[in] input source of shape (N, C, spatial...) matching the chosen mode's rank. Dtypes: float16, bfloat16,
 *     float32, float64.
 * @param[in] size target spatial extents, one per spatial dimension
 * @param[in] align_corners if true, corner pixel centres of input and output coincide
 * @param[in] mode "linear" (3-D), "bilinear" or "bicubic" (4-D), or "trilinear" (5-D). Dtypes: char *.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiUpsampleLinear(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t size,
                                           bool align_corners, const char* mode);

/**
 * @brief Backward of diopiUpsampleLinear: distributes each output gradient to the input pixels with the interpolation
 *        weights used in the forward pass.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input written with the gradient for input, shape in_size. Dtypes: float16, bfloat16, float32,
 *     float64.
 * @param[in] grad_output gradient of the resized result. Dtypes: float16, bfloat16, float32, float64.
 * @param[in] out_size spatial extents of the forward output
 * @param[in] in_size full shape (N, C, spatial...) of the forward input
 * @param[in] align_corners corner-alignment flag used in the forward call
 * @param[in] mode interpolation mode used in the forward call. Dtypes: char *.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiUpsampleLinearBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                                   diopiSize_t out_size, diopiSize_t in_size, bool align_corners, const char* mode);

/* ========================================================================
 * Family: optimizer_amp (optimizers and mixed precision)
 * ======================================================================== */

/**
 * @brief Performs one stochastic gradient descent step on a single parameter, with optional weight decay, momentum,
 *        dampening and Nesterov momentum. Same update rule as torch.optim.SGD.
 *
 * The caller is responsible for initialising buf before the first step.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] param parameter updated in place. Dtypes: float32, float64.
 * @param[in,out] grad gradient of param; may be overwritten with the decayed gradient. Dtypes: float32, float64.
 * @param[in,out] buf momentum buffer shaped like param, updated in place; unused when momentum is 0. Dtypes: float32,
 *     float64.
 * @param[in] lr learning rate. Dtypes: float32, float64.
 * @param[in] momentum momentum factor; 0 disables momentum. Dtypes: float32, float64.
 * @param[in] dampening fraction (1 - dampening) of the gradient enters the momentum buffer. Dtypes: float32, float64.
 * @param[in] weight_decay L2 penalty coefficient added to the gradient as weight_decay * param. Dtypes: float32,
 *     float64.
 * @param[in] nesterov whether to use the Nesterov form g + momentum * buf
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiSgd(diopiContextHandle_t ctx, diopiTensorHandle_t param, diopiTensorHandle_t grad, diopiTensorHandle_t buf, double lr,
                                double momentum, double dampening, double weight_decay, bool nesterov);

/**
 * @brief Computes the total norm of a list of gradients as if concatenated, and rescales them in place when it
 *        exceeds max_norm. Same semantics as torch.nn.utils.clip_grad_norm_.
 *
 * The scaling factor is max_norm / (total_norm + 1e-6) and is applied only when it is below 1.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out pointer receiving the total norm measured before clipping. Dtypes: float32, float64.
 * @param[in,out] grads array of num_grads gradient tensors, rescaled in place. Dtypes: float32, float64.
 * @param[in] num_grads number of tensors in grads. Dtypes: int64.
 * @param[in] max_norm largest allowed total norm. Dtypes: float32, float64.
 * @param[in] norm_type order p of the norm; infinity uses the largest absolute value. Dtypes: float32, float64.
 * @param[in] error_if_nonfinite if true, a NaN or infinite total norm makes the call fail
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiClipGradNorm(diopiContextHandle_t ctx, double* out, diopiTensorHandle_t* grads, int64_t num_grads, double max_norm,
                                         double norm_type, bool error_if_nonfinite);

/**
 * @brief Applies one AdamW step (decoupled weight decay, optional AMSGrad and maximisation) to a whole list of
 *        parameters at once. Same semantics as torch._fused_adamw_.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] params array of nums parameters updated in place. Dtypes: float16, float32, float64, bfloat16.
 * @param[in] grads array of nums gradients, one per parameter. Dtypes: float16, float32, float64, bfloat16.
 * @param[in,out] exp_avgs array of nums first-moment running averages, updated in place. Dtypes: float16, float32,
 *     float64, bfloat16.
 * @param[in,out] exp_avg_sqs array of nums second-moment running averages, updated in place. Dtypes: float16, float32,
 *     float64, bfloat16.
 * @param[in,out] max_exp_avg_sqs array of nums running maxima of second moments, used and updated only with amsgrad.
 *     Dtypes: float16, float32, float64, bfloat16.
 * @param[in] state_steps array of nums step-count tensors used for bias correction. Dtypes: int64, float32.
 * @param[in] nums number of parameters in every array
 * @param[in] lr learning rate
 * @param[in] beta1 decay rate of the first-moment average
 * @param[in] beta2 decay rate of the second-moment average
 * @param[in] eps term added to the denominator for numerical stability
 * @param[in] weight_decay decoupled decay: param is multiplied by 1 - lr * weight_decay
 * @param[in] amsgrad whether to use the maximum of past second moments in the denominator
 * @param[in] maximize if true, ascends the objective by negating the gradients
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiFusedAdamW(diopiContextHandle_t ctx, diopiTensorHandle_t* params, diopiConstTensorHandle_t* grads,
                                       diopiTensorHandle_t* exp_avgs, diopiTensorHandle_t* exp_avg_sqs, diopiTensorHandle_t* max_exp_avg_sqs,
                                       diopiConstTensorHandle_t* state_steps, int64_t nums, double lr, double beta1, double beta2, double eps,
                                       double weight_decay, bool amsgrad, bool maximize);

/**
 * @brief Applies one AdamW step to a single parameter: decoupled weight decay followed by the bias-corrected Adam
 *        update. Same update rule as torch.optim.AdamW.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] param parameter updated in place. Dtypes: float16, float32, float64.
 * @param[in] grad gradient of param. Dtypes: float16, float32, float64.
 * @param[in,out] exp_avg first-moment running average, updated in place. Dtypes: float16, float32, float64.
 * @param[in,out] exp_avg_sq second-moment running average, updated in place. Dtypes: float16, float32, float64.
 * @param[in,out] max_exp_avg_sq running maximum of exp_avg_sq, used and updated only with amsgrad. Dtypes: float16,
 *     float32, float64.
 * @param[in] lr learning rate
 * @param[in] beta1 decay rate of the first-moment average
 * @param[in] beta2 decay rate of the second-moment average
 * @param[in] eps term added to the denominator for numerical stability
 * @param[in] weight_decay decoupled decay: param is multiplied by 1 - lr * weight_decay
 * @param[in] step 1-based index of this step, used for bias correction. Dtypes: int64.
 * @param[in] amsgrad whether to use the maximum of past second moments in the denominator
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAdamW(diopiContextHandle_t ctx, diopiTensorHandle_t param, diopiConstTensorHandle_t grad, diopiTensorHandle_t exp_avg,
                                  diopiTensorHandle_t exp_avg_sq, diopiTensorHandle_t max_exp_avg_sq, float lr, float beta1, float beta2, float eps,
                                  float weight_decay, int64_t step, bool amsgrad);

/**
 * @brief Applies one Adadelta step to a single parameter using running averages of squared gradients and squared
 *        updates. Same update rule as torch.optim.Adadelta.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] param parameter updated in place. Dtypes: float16, float32, float64.
 * @param[in] grad gradient of param. Dtypes: float16, float32, float64.
 * @param[in,out] square_avg running average of squared gradients, updated in place. Dtypes: float16, float32,
 *     float64.
 * @param[in,out] acc_delta running average of squared updates, updated in place. Dtypes: float16, float32, float64.
 * @param[in] lr coefficient scaling the computed update. Dtypes: float32.
 * @param[in] rho decay rate of both running averages. Dtypes: float32.
 * @param[in] eps term added inside the square roots for numerical stability. Dtypes: float32.
 * @param[in] weight_decay L2 penalty coefficient added to the gradient. Dtypes: float32.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAdadelta(diopiContextHandle_t ctx, diopiTensorHandle_t param, diopiConstTensorHandle_t grad,
                                     diopiTensorHandle_t square_avg, diopiTensorHandle_t acc_delta, float lr, float rho, float eps,
                                     float weight_decay);

/**
 * @brief Applies one Adam step to a single parameter, with L2 weight decay folded into the gradient and optional
 *        AMSGrad. Same update rule as torch.optim.Adam.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] param parameter updated in place. Dtypes: float16, float32, float64.
 * @param[in] grad gradient of param. Dtypes: float16, float32, float64.
 * @param[in,out] exp_avg first-moment running average, updated in place. Dtypes: float16, float32, float64.
 * @param[in,out] exp_avg_sq second-moment running average, updated in place. Dtypes: float16, float32, float64.
 * @param[in,out] max_exp_avg_sq running maximum of exp_avg_sq, used and updated only with amsgrad. Dtypes: float16,
 *     float32, float64.
 * @param[in] lr learning rate. Dtypes: float32.
 * @param[in] beta1 decay rate of the first-moment average. Dtypes: float32.
 * @param[in] beta2 decay rate of the second-moment average. Dtypes: float32.
 * @param[in] eps term added to the denominator for numerical stability. Dtypes: float32.
 * @param[in] weight_decay L2 penalty: weight_decay * param is added to the gradient. Dtypes: float32.
 * @param[in] step 1-based index of this step, used for bias correction. Dtypes: int64.
 * @param[in] amsgrad whether to use the maximum of past second moments in the denominator. Dtypes: bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAdam(diopiContextHandle_t ctx, diopiTensorHandle_t param, diopiConstTensorHandle_t grad, diopiTensorHandle_t exp_avg,
                                 diopiTensorHandle_t exp_avg_sq, diopiTensorHandle_t max_exp_avg_sq, float lr, float beta1, float beta2, float eps,
                                 float weight_decay, int64_t step, bool amsgrad);

/**
 * @brief Applies one RMSprop step to a single parameter, dividing the gradient by a running root-mean-square,
 *        optionally centred and with momentum. Same update rule as torch.optim.RMSprop.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] param parameter updated in place. Dtypes: float16, float32, float64.
 * @param[in] grad gradient of param. Dtypes: float16, float32, float64.
 * @param[in,out] square_avg running average of squared gradients, updated in place. Dtypes: float16, float32,
 *     float64.
 * @param[out] grad_avg running average of gradients, used and updated only when centered. Dtypes: float16, float32,
 *     float64.
 * @param[in,out] momentum_buf momentum buffer, used and updated only when momentum > 0. Dtypes: float16, float32,
 *     float64.
 * @param[in] lr learning rate. Dtypes: float32.
 * @param[in] alpha smoothing constant of the running averages. Dtypes: float32.
 * @param[in] eps term added to the denominator for numerical stability. Dtypes: float32.
 * @param[in] weight_decay L2 penalty coefficient added to the gradient. Dtypes: float32.
 * @param[in] momentum momentum factor; 0 disables the momentum buffer. Dtypes: float32.
 * @param[in] centered if true, normalises by the estimated variance sqrt(square_avg - grad_avg^2). Dtypes: bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiRmsprop(diopiContextHandle_t ctx, diopiTensorHandle_t param, diopiConstTensorHandle_t grad,
                                    diopiTensorHandle_t square_avg, diopiTensorHandle_t grad_avg, diopiTensorHandle_t momentum_buf, float lr,
                                    float alpha, float eps, float weight_decay, float momentum, bool centered);

/**
 * @brief Mixed-precision helper: multiplies every gradient in the list by inv_scale in place and raises found_inf to
 *        1 if any value is NaN or infinite. Same semantics as torch._amp_foreach_non_finite_check_and_unscale_.
 *
 * found_inf is only ever set, never cleared, so the caller must zero it beforehand.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] scaled_grads array of num_scaled_grads gradients, unscaled in place. Dtypes: float16, float32, float64.
 * @param[in] num_scaled_grads number of tensors in scaled_grads
 * @param[out] found_inf single-element tensor set to 1.0 when a non-finite value is seen. Dtypes: float32.
 * @param[in] inv_scale single-element tensor holding the reciprocal of the loss scale. Dtypes: float32.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAmpForeachNonFiniteCheckAndUnscaleInp(diopiContextHandle_t ctx, diopiTensorHandle_t* scaled_grads,
                                                                  int64_t num_scaled_grads, diopiTensorHandle_t found_inf,
                                                                  diopiConstTensorHandle_t inv_scale);

/**
 * @brief Mixed-precision helper that adjusts the dynamic loss scale in place: backs off after an overflow and grows
 *        it after growth_interval clean steps. Same semantics as torch._amp_update_scale_.
 *
 * On overflow the tracker resets to 0; when it reaches growth_interval the scale grows and the tracker resets.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] current_scale single-element loss scale, updated in place. Dtypes: float32.
 * @param[out] growth_tracker single-element count of consecutive overflow-free steps, updated in place. Dtypes: int32.
 * @param[in] found_inf single-element tensor, non-zero if the last step overflowed. Dtypes: float32.
 * @param[in] scale_growth_factor factor applied to the scale after growth_interval clean steps
 * @param[in] scale_backoff_factor factor applied to the scale after an overflow
 * @param[in] growth_interval number of consecutive clean steps before growing the scale
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiAmpUpdateScaleInp(diopiContextHandle_t ctx, diopiTensorHandle_t current_scale, diopiTensorHandle_t growth_tracker,
                                              diopiConstTensorHandle_t found_inf, double scale_growth_factor, double scale_backoff_factor,
                                              int32_t growth_interval);

/* ========================================================================
 * Family: shape_manipulation (shape manipulation)
 * ======================================================================== */

/**
 * @brief Keeps the lower-triangular part of the last two dimensions of `input` and zeroes the rest. Same semantics as
 *        torch.tril.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result, same shape as input. Dtypes: float32, float64, float16, int16, int32, int64, uint8, int8,
 *     bool.
 * @param[in] input tensor with at least 2 dimensions. Dtypes: float32, float64, float16, int16, int32, int64, uint8,
 *     int8, bool.
 * @param[in] diagonal offset of the kept boundary; 0 is the main diagonal, positive moves above it. Dtypes: int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiTril(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, int64_t diagonal);

/**
 * @brief Concatenates a list of tensors along an existing dimension. Same semantics as torch.cat.
 *
 * Empty 1-D tensors of shape (0) are skipped, as in PyTorch.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result whose extent along dim is the sum of the inputs' extents. Dtypes: float32, float16, float64,
 *     int16, int64, uint8, int8, bool, int32, bfloat16.
 * @param[in] tensors array of num_inputs tensors agreeing in shape except along dim. Dtypes: float32, float16, float64,
 *     int16, int64, uint8, int8, bool, int32, bfloat16.
 * @param[in] num_inputs number of tensors in tensors. Dtypes: int64.
 * @param[in] dim dimension along which to join. Dtypes: int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiCat(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t* tensors, int64_t num_inputs,
                                int64_t dim);

/**
 * @brief Splits `input` along dim into consecutive chunks of the given sizes. Same semantics as
 *        torch.split_with_sizes.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] outs array of num_outs caller-allocated chunks, the i-th of extent splitSizes[i] along dim. Dtypes:
 *     float16, float32, float64, int8, uint8, int16, int32, int64, bool.
 * @param[in] num_outs number of chunks, equal to the length of splitSizes. Dtypes: int64.
 * @param[in] input tensor to split. Dtypes: float32, float16, float64, int16, int64, uint8, int8, bool, int32.
 * @param[in] splitSizes extent of each chunk along dim; must sum to input's extent. Dtypes: int32, int64.
 * @param[in] dim dimension along which to split. Dtypes: int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiSplitWithSizes(diopiContextHandle_t ctx, diopiTensorHandle_t* outs, int64_t num_outs, diopiConstTensorHandle_t input,
                                           const diopiSize_t splitSizes, int64_t dim);

/**
 * @brief Joins a list of equally shaped tensors along a new dimension inserted at dim. Same semantics as torch.stack.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result with one more dimension than the inputs, of extent numTensors at dim. Dtypes: float32,
 *     float16, float64, int16, int64, uint8, int8, bool, int32.
 * @param[in] tensors array of numTensors tensors of identical shape. Dtypes: float32, float16, float64, int16, int64,
 *     uint8, int8, bool, int32.
 * @param[in] numTensors number of tensors in tensors. Dtypes: int64.
 * @param[in] dim position of the new dimension, from 0 to the input rank. Dtypes: int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiStack(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t* tensors, int64_t numTensors,
                                  int64_t dim);

/**
 * @brief Swaps two dimensions of `input`. Same semantics as torch.transpose.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result with dim0 and dim1 exchanged. Dtypes: float16, float32, float64, int16, int64, uint8, int8,
 *     bool, int32.
 * @param[in] input source tensor. Dtypes: float16, float32, float64, int16, int64, uint8, int8, bool, int32.
 * @param[in] dim0 first dimension to swap. Dtypes: int32, int64.
 * @param[in] dim1 second dimension to swap. Dtypes: int32, int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiTranspose(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, int64_t dim0, int64_t dim1);

/**
 * @brief Extracts all windows of length size with stride step along dimension dim, appending the window contents as a
 *        new last dimension. Same semantics as torch.Tensor.unfold.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result; extent at dim becomes (L - size) / step + 1, plus a trailing dimension of size. Dtypes:
 *     float16, float32, float64.
 * @param[in] input source tensor. Dtypes: float32, float64, float16.
 * @param[in] dim dimension to slide over. Dtypes: int64.
 * @param[in] size length of each window. Dtypes: int64.
 * @param[in] step distance between window starts. Dtypes: int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiUnfold(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, int64_t dim, int64_t size,
                                   int64_t step);

/**
 * @brief Backward of diopiUnfold: sums the gradients of overlapping windows back into a tensor with the original
 *        input shape.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input written with the gradient for input, shape input_sizes. Dtypes: float16, float32, float64.
 * @param[in] grad_output gradient of the unfolded result. Dtypes: float16, float32, float64.
 * @param[in] input_sizes shape of the forward input
 * @param[in] dim dimension used in the forward call. Dtypes: int64.
 * @param[in] size window length used in the forward call. Dtypes: int64.
 * @param[in] step window stride used in the forward call. Dtypes: int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiUnfoldBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
                                           diopiSize_t input_sizes, int64_t dim, int64_t size, int64_t step);

/**
 * @brief Broadcasts `input` to the shape of `out`, repeating size-1 dimensions and prepending new leading ones as
 *        needed. Same semantics as torch.Tensor.expand.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result; its shape is the target shape. Dtypes: float32, float64, float16, int16, int32, int64,
 *     uint8, int8, bool.
 * @param[in] input tensor whose shape is broadcast-compatible with out. Dtypes: float32, float64, float16, int16,
 *     int32, int64, uint8, int8, bool.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiExpand(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input);

/**
 * @brief Reorders the dimensions of `input` according to dims. Same semantics as torch.permute.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result whose i-th dimension is input's dimension dims[i]. Dtypes: float32, float64, float16, int16,
 *     int32, int64, uint8, int8, bool.
 * @param[in] input source tensor. Dtypes: float32, float64, float16, int16, int32, int64, uint8, int8, bool.
 * @param[in] dims permutation of 0 .. rank-1. Dtypes: int32, int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiPermute(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t dims);

/**
 * @brief Pads the trailing dimensions of `input` using constant, reflection, replication or circular padding. Same
 *        semantics as torch.nn.functional.pad.
 *
 * Negative pad amounts crop instead of pad; reflect requires pads smaller than the padded dimension.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out padded result. Dtypes: float32, float64, float16, int64.
 * @param[in] input tensor to pad (an int64 attention mask is padded in constant mode). Dtypes: float32, float64,
 *     float16, int64.
 * @param[in] pad (before, after) pairs, starting with the last dimension and moving forward
 * @param[in] mode "constant", "reflect", "replicate" or "circular"
 * @param[in] value pointer to the fill value for constant mode; NULL means 0
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiPad(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t pad, const char* mode,
                                const double* value);

/**
 * @brief Cyclically shifts elements of `input` along the given dimensions; elements pushed past the end reappear at
 *        the start. Same semantics as torch.roll.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result, same shape as input. Dtypes: float16, float32, float64, int8, uint8, int16, int32, int64,
 *     bool.
 * @param[in] input source tensor. Dtypes: float32, float64, float16, bool, int64, int32, int16, int8, uint8, bool.
 * @param[in] shifts shift amount per listed dimension; may be negative
 * @param[in] dims dimensions to roll; empty means the flattened tensor is rolled then reshaped
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiRoll(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t shifts,
                                 diopiSize_t dims);

/**
 * @brief Reverses the order of elements along the given dimensions. Same semantics as torch.flip.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result, same shape as input. Dtypes: float16, float32, float64, int8, uint8, int16, int32, int64,
 *     bool.
 * @param[in] input source tensor. Dtypes: float16, float32, float64, int8, uint8, int16, int32, int64, bool.
 * @param[in] dims dimensions to reverse
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiFlip(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t dims);

/**
 * @brief Tiles `input` by repeating it the given number of times along each dimension. Same semantics as
 *        torch.Tensor.repeat.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result; each extent is the input extent times the repeat count. Dtypes: float32, float64.
 * @param[in] input source tensor. Dtypes: float32, float64.
 * @param[in] repeats_size repeat count per dimension; may be longer than input rank, adding leading dimensions.
 *     Dtypes: int32, int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiRepeat(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiSize_t repeats_size);

/**
 * @brief Keeps the upper-triangular part of the last two dimensions of `input` and zeroes the rest. Same semantics as
 *        torch.triu.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result, same shape as input. Dtypes: float16, float32, float64, int8, uint8, int16, int32, int64,
 *     bool.
 * @param[in] input tensor with at least 2 dimensions. Dtypes: float16, float32, float64, int8, uint8, int16, int32,
 *     int64, bool.
 * @param[in] diagonal offset of the kept boundary; 0 is the main diagonal, positive moves above it
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiTriu(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, int64_t diagonal);

/**
 * @brief In-place version of diopiTriu: zeroes the elements below the chosen diagonal of the last two dimensions.
 *        Same semantics as torch.Tensor.triu_.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in,out] input tensor with at least 2 dimensions, modified in place. Dtypes: float16, float32, float64, int8,
 *     uint8, int16, int32, int64, bool.
 * @param[in] diagonal offset of the kept boundary; 0 is the main diagonal, positive moves above it
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiTriuInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, int64_t diagonal);

/* ========================================================================
 * Family: sort_select_unique (sort, select and unique)
 * ======================================================================== */

/**
 * @brief Sorts `input` along one dimension, returning the sorted values and the positions they came from. Same
 *        semantics as torch.sort.
 *
 * NaN values are ordered as larger than any other value.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] values sorted values, same shape as input. Dtypes: float16, float32, float64, int16, int32, int64,
 *     uint8, int8.
 * @param[out] indices original positions along dim of each sorted value, same shape as input. Dtypes: int32, int64.
 * @param[in] input tensor to sort. Dtypes: float16, float32, float64, int16, int32, int64, uint8, int8.
 * @param[in] dim dimension to sort along. Dtypes: int64.
 * @param[in] descending if true, largest values come first
 * @param[in] pStable pointer to a flag requesting a stable sort; NULL means stability is not required
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiSort(diopiContextHandle_t ctx, diopiTensorHandle_t values, diopiTensorHandle_t indices, diopiConstTensorHandle_t input,
                                 int64_t dim, bool descending, const bool* pStable);

/**
 * @brief Backward of value-selecting operations such as sort: scatters grad_output into a zero tensor of the input
 *        shape at the positions recorded in indices along dim.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] grad_input written with the gradient for input, shape sizes. Dtypes: float16, bfloat16, float32, float64.
 * @param[in] grad_output gradient of the selected values. Dtypes: float16, bfloat16, float32, float64.
 * @param[in] dim dimension along which the values were selected
 * @param[in] indices positions returned by the forward call. Dtypes: int64.
 * @param[in] sizes shape of the forward input
 * @param[in] keepdim whether grad_output and indices still contain dim; if false it is re-inserted first
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiSortBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output, int64_t dim,
                                         diopiConstTensorHandle_t indices, diopiSize_t sizes, bool keepdim);

/**
 * @brief Returns the k largest (or smallest) values along a dimension together with their positions. Same semantics
 *        as torch.topk.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] values selected values; input shape with extent k at dim. Dtypes: float16, float32, float64, int16,
 *     int32, int64, uint8, int8.
 * @param[out] indices positions along dim of the selected values; same shape as values. Dtypes: int32, int64.
 * @param[in] input source tensor. Dtypes: float16, float32, float64, int16, int32, int64, uint8, int8.
 * @param[in] k number of elements to select. Dtypes: int64.
 * @param[in] dim dimension to search. Dtypes: int64.
 * @param[in] largest if true picks the largest values, otherwise the smallest
 * @param[in] sorted if true the k results are returned in sorted order
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiTopk(diopiContextHandle_t ctx, diopiTensorHandle_t values, diopiTensorHandle_t indices, diopiConstTensorHandle_t input,
                                 int64_t k, int64_t dim, bool largest, bool sorted);

/**
 * @brief Returns the positions that would sort `input` along a dimension. Same semantics as torch.argsort.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out sorting permutation along dim, same shape as input. Dtypes: int32, int64.
 * @param[in] input tensor to sort. Dtypes: float32, float64, float16, int16, int32, int64, uint8, int8, bool.
 * @param[in] stable if true, equal elements keep their original relative order
 * @param[in] dim pointer to the dimension to sort along; NULL selects the last dimension. Dtypes: int32, int64.
 * @param[in] descending if true, positions of larger values come first
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiArgsort(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, bool stable,
                                    const int64_t* dim, bool descending);

/**
 * @brief Finds the distinct elements (or distinct slices along dim) of `input`, optionally with the inverse mapping
 *        and occurrence counts. Same semantics as torch.unique.
 *
 * The number of distinct values is data dependent, so out and counts are allocated by the implementation.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out distinct values or slices; callee allocates it through diopiRequireTensor and stores the handle
 *     here. Dtypes: int64, float32, float64, float16, int16, int32, uint8, int8, bool.
 * @param[in] input source tensor. Dtypes: int64, float32, float64, float16, int16, int32, uint8, int8, bool.
 * @param[in] dim pointer to the dimension whose slices are compared; NULL flattens input
 * @param[in] sorted whether the distinct values are returned in ascending order
 * @param[in] return_counts whether counts should be produced
 * @param[out] indices if not NULL, written with each element's position in out (inverse mapping). Dtypes: int32,
 *     int64.
 * @param[out] counts occurrence counts; if return_counts, callee allocates it through diopiRequireTensor and stores
 *     the handle here. Dtypes: int32, int64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiUnique(diopiContextHandle_t ctx, diopiTensorHandle_t* out, diopiConstTensorHandle_t input, const int64_t* dim,
                                   bool sorted, bool return_counts, diopiTensorHandle_t indices, diopiTensorHandle_t* counts);

/* ========================================================================
 * Family: copy_cast_memory (copy, cast and memory)
 * ======================================================================== */

/**
 * @brief Copies the values of src into dest in place, broadcasting src and converting dtype as needed. Same semantics
 *        as torch.Tensor.copy_.
 *
 * dest keeps its own dtype, shape and layout; only its values change.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in] src source tensor, broadcastable to dest. Dtypes: float32, float64, float16, bool, int64, int32, int16,
 *     int8, uint8, bfloat16.
 * @param[out] dest destination overwritten in place. Dtypes: float32, float64, float16, bool, int64, int32, int16,
 *     int8, uint8, bfloat16.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiCopyInp(diopiContextHandle_t ctx, diopiConstTensorHandle_t src, diopiTensorHandle_t dest);

/**
 * @brief Converts `input` elementwise to the dtype of `out`. Same semantics as torch.Tensor.to(dtype).
 *
 * Float-to-integer conversion truncates toward zero.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out result of the same shape as input; its dtype selects the conversion target. Dtypes: float16,
 *     bfloat16, float32, float64, int8, uint8, int16, int32, int64, bool, complex64, complex128.
 * @param[in] input tensor to convert. Dtypes: float16, bfloat16, float32, float64, int8, uint8, int16, int32, int64,
 *     bool, complex64, complex128.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiCastDtype(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input);

/**
 * @brief Produces a dense copy of `input` laid out in the requested memory format. Same semantics as
 *        torch.Tensor.contiguous(memory_format=...).
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out dense tensor in the requested layout; callee allocates it through diopiRequireTensor and stores the
 *     handle here. Dtypes: float16, bfloat16, float32, float64, int8, uint8, int16, int32, int64, bool, complex64,
 *     complex128.
 * @param[in] input tensor to copy. Dtypes: float16, bfloat16, float32, float64, int8, uint8, int16, int32, int64, bool,
 *     complex64, complex128.
 * @param[in] memoryFormat target layout, e.g. contiguous (row-major) or channels-last
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiContiguous(diopiContextHandle_t ctx, diopiTensorHandle_t* out, diopiConstTensorHandle_t input,
                                       diopiMemoryFormat_t memoryFormat);

/**
 * @brief Converts a tensor into a vendor-specific (device-native) memory format identified by an integer code, such
 *        as a blocked layout preferred by the hardware.
 *
 * The meaning of format codes is private to each vendor implementation.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out converted tensor; callee stores the handle here, possibly `in` itself when no change is needed.
 *     Dtypes: float16, bfloat16, float32, float64, int8, uint8, int16, int32, int64, bool, complex64, complex128.
 * @param[in,out] in tensor to convert. Dtypes: float16, bfloat16, float32, float64, int8, uint8, int16, int32, int64,
 *     bool, complex64, complex128.
 * @param[in] format vendor-defined code of the target native format
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiNativeMemoryFormatCast(diopiContextHandle_t ctx, diopiTensorHandle_t* out, diopiTensorHandle_t in, int64_t format);

/**
 * @brief Queries the vendor-specific (device-native) memory format currently used by a tensor.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in] input tensor to inspect. Dtypes: float16, bfloat16, float32, float64, int8, uint8, int16, int32, int64,
 *     bool, complex64, complex128.
 * @param[out] format pointer receiving the vendor-defined format code
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiGetNativeMemoryFormat(diopiContextHandle_t ctx, diopiConstTensorHandle_t input, int64_t* format);

/**
 * @brief Notification called when the storage at a given address is being released, so the implementation can drop
 *        any bookkeeping attached to it (for example cached native-format metadata).
 *
 * Implementations without per-tensor bookkeeping may simply return success.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[in] ptr data address of the tensor being destroyed
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiTensorDestructionHook(diopiContextHandle_t ctx, void* ptr);

/* ========================================================================
 * Family: complex (complex numbers)
 * ======================================================================== */

/**
 * @brief Builds complex numbers from magnitude and phase: out = abs * (cos(angle) + i * sin(angle)). Same semantics
 *        as torch.polar.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out complex result with the broadcast shape of abs and angle. Dtypes: complex64, complex128.
 * @param[in] abs non-negative magnitudes. Dtypes: float32, float64.
 * @param[in] angle phases in radians. Dtypes: float32, float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiPolar(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t abs, diopiConstTensorHandle_t angle);

/**
 * @brief Builds complex numbers from real and imaginary parts: out = real + i * imag. Same semantics as
 *        torch.complex.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out complex result with the broadcast shape of real and imag. Dtypes: complex64, complex128.
 * @param[in] real real parts. Dtypes: float32, float64.
 * @param[in] imag imaginary parts, same dtype as real. Dtypes: float32, float64.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiComplex(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t real, diopiConstTensorHandle_t imag);

/**
 * @brief Writes the complex conjugate of each element (imaginary part negated). Same semantics as torch.conj, but the
 *        result is materialised.
 *
 * For real inputs the result equals the input.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out written with the conjugates; same shape as input. Dtypes: float16, bfloat16, float32, float64,
 *     complex64, complex128.
 * @param[in] input source tensor. Dtypes: float16, bfloat16, float32, float64, complex64, complex128.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiConj(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input);

/**
 * @brief Extracts the imaginary part of each complex element. Same semantics as torch.imag.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out real-valued result with the same shape as input. Dtypes: float32, float64.
 * @param[in] input complex source tensor. Dtypes: complex64, complex128.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiImag(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input);

/**
 * @brief Extracts the real part of each complex element. Same semantics as torch.real.
 * @param[in] ctx context of the call: stream and temporaries.
 * @param[out] out real-valued result with the same shape as input. Dtypes: float16, bfloat16, float32, float64.
 * @param[in] input complex (or real) source tensor. Dtypes: float16, bfloat16, float32, float64, complex64, complex128.
 * @return diopiSuccess on success; diopiDtypeNotSupported for a dtype not listed here; diopiNoImplement if the
 *         library lacks this variant; diopiErrorOccurred for NULL required handles, inconsistent shapes or other
 *         invalid arguments (see diopiGetLastErrorString()).
 */
DIOPI_API diopiError_t diopiReal(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input);

/* ========================================================================
 * Family: runtime_info (library information)
 * ======================================================================== */

/**
 * @brief Returns a constant, NUL-terminated string naming the vendor or device this implementation targets.
 *
 * The string is owned by the library and must not be freed.
 * @return the vendor name, a static NUL-terminated string.
 */
DIOPI_API const char* diopiGetVendorName(void);

/**
 * @brief Returns a constant, NUL-terminated string describing the version of the vendor implementation.
 *
 * The string is owned by the library and must not be freed.
 * @return the library version, a static NUL-terminated string.
 */
DIOPI_API const char* diopiGetImplVersion(void);

/**
 * @brief Returns a human-readable description of the most recent error recorded by the implementation, for
 *        diagnostics after a failing call.
 *
 * The pointer stays valid only until the next failing call overwrites the message.
 * @return the message of the last failed call on this thread ("" if none).
 */
DIOPI_API const char* diopiGetLastErrorString(void);

#if defined(__cplusplus)
}
#endif

#endif /* DIOPI_FUNCTIONS_H_ */
