// Random sampling. Every function draws from the runtime generator it is
// given (seed + saved state) and saves the advanced state back, so the
// same seed reproduces the same numbers.
#include "helper.hpp"

using namespace impl::aten;

namespace {

// Runs `body` with an ATen generator built from `h`, then saves its state.
template <class F>
void withGenerator(diopiContextHandle_t ctx, diopiGeneratorHandle_t h, F&& body) {
    at::Generator gen = generator(ctx, h);
    body(gen);
    saveGenerator(ctx, h, gen);
}

void checkProbability(double p, const char* name) {
    if (!(p >= 0.0 && p <= 1.0)) fail(std::string(name) + " must be in [0, 1], got " + std::to_string(p));
}

}  // namespace

extern "C" {

diopiError_t diopiDropout(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiTensorHandle_t mask, diopiConstTensorHandle_t input, double p,
                          bool train, diopiGeneratorHandle_t generator) {
    DIOPI_IMPL_BEGIN
    checkProbability(p, "p");
    at::Tensor in = tensor(input, "input");
    if (!train || p == 0.0) {
        assign(out, in);
        if (mask) tensor(mask, "mask").fill_(1);
        return;
    }
    withGenerator(ctx, generator, [&](at::Generator& gen) {
        // keep ~ Bernoulli(1 - p); kept values are scaled by 1 / (1 - p).
        at::Tensor keep = at::empty(in.sizes(), in.options().dtype(at::kFloat)).bernoulli_(1.0 - p, gen);
        if (mask) assign(mask, keep, "mask");
        if (p == 1.0) {
            assign(out, at::zeros_like(in));
            return;
        }
        // Eager PyTorch's order on the CPU: the mask scaled first, then one product, written into `out` when it can
        // take it.
        keep.div_(1.0 - p);
        if (at::Tensor o = elementwiseOut(out, in.scalar_type(), {in}); o.defined())
            at::mul_out(o, in, keep);
        else
            assign(out, in * keep);
    });
    DIOPI_IMPL_END
}

diopiError_t diopiDropoutInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, diopiTensorHandle_t mask, double p, bool train,
                             diopiGeneratorHandle_t generator) {
    DIOPI_IMPL_BEGIN
    checkProbability(p, "p");
    at::Tensor in = tensor(input, "input");
    if (!train || p == 0.0) {
        if (mask) tensor(mask, "mask").fill_(1);
        return;
    }
    withGenerator(ctx, generator, [&](at::Generator& gen) {
        at::Tensor keep = at::empty(in.sizes(), in.options().dtype(at::kFloat)).bernoulli_(1.0 - p, gen);
        if (p == 1.0)
            in.zero_();
        else
            in.mul_(keep.to(in.scalar_type())).div_(1.0 - p);
        if (mask) assign(mask, keep, "mask");
    });
    DIOPI_IMPL_END
}

diopiError_t diopiRandomInp(diopiContextHandle_t ctx, diopiTensorHandle_t inout, int64_t from, const int64_t* to, diopiGeneratorHandle_t generator) {
    DIOPI_IMPL_BEGIN
    at::Tensor t = tensor(inout, "inout");
    withGenerator(ctx, generator, [&](at::Generator& gen) {
        std::optional<int64_t> upper;
        if (to) upper = *to;
        t.random_(from, upper, gen);
    });
    DIOPI_IMPL_END
}

diopiError_t diopiUniformInp(diopiContextHandle_t ctx, diopiTensorHandle_t inout, double from, double to, diopiGeneratorHandle_t generator) {
    DIOPI_IMPL_BEGIN
    if (!(from <= to)) fail("from must not exceed to");
    at::Tensor t = tensor(inout, "inout");
    withGenerator(ctx, generator, [&](at::Generator& gen) { t.uniform_(from, to, gen); });
    DIOPI_IMPL_END
}

diopiError_t diopiBernoulli(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, diopiGeneratorHandle_t generator) {
    DIOPI_IMPL_BEGIN
    at::Tensor probs = tensor(input, "input");
    withGenerator(ctx, generator, [&](at::Generator& gen) { assign(out, at::bernoulli(probs, gen)); });
    DIOPI_IMPL_END
}

diopiError_t diopiBernoulliInp(diopiContextHandle_t ctx, diopiTensorHandle_t inout, diopiGeneratorHandle_t generator) {
    DIOPI_IMPL_BEGIN
    // Each element is replaced by a draw with its own value as probability.
    at::Tensor t = tensor(inout, "inout");
    withGenerator(ctx, generator, [&](at::Generator& gen) { t.copy_(at::bernoulli(t, gen)); });
    DIOPI_IMPL_END
}

diopiError_t diopiBernoulliScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out, double p, diopiGeneratorHandle_t generator) {
    DIOPI_IMPL_BEGIN
    checkProbability(p, "p");
    at::Tensor o = tensor(out, "out");
    withGenerator(ctx, generator, [&](at::Generator& gen) { o.bernoulli_(p, gen); });
    DIOPI_IMPL_END
}

diopiError_t diopiRandperm(diopiContextHandle_t ctx, diopiTensorHandle_t out, int64_t n, diopiGeneratorHandle_t generator) {
    DIOPI_IMPL_BEGIN
    if (n < 0) fail("n must be non-negative");
    at::Tensor o = tensor(out, "out");
    withGenerator(ctx, generator, [&](at::Generator& gen) { assign(out, at::randperm(n, gen, o.options().dtype(at::kLong))); });
    DIOPI_IMPL_END
}

diopiError_t diopiNormal(diopiContextHandle_t ctx, diopiTensorHandle_t out, double mean, double std, diopiGeneratorHandle_t generator) {
    DIOPI_IMPL_BEGIN
    if (!(std >= 0.0)) fail("std must be non-negative");
    at::Tensor o = tensor(out, "out");
    withGenerator(ctx, generator, [&](at::Generator& gen) { o.normal_(mean, std, gen); });
    DIOPI_IMPL_END
}

diopiError_t diopiNormalTensorScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t mean, double std,
                                     diopiGeneratorHandle_t generator) {
    DIOPI_IMPL_BEGIN
    if (!(std >= 0.0)) fail("std must be non-negative");
    at::Tensor m = tensor(mean, "mean");
    withGenerator(ctx, generator, [&](at::Generator& gen) { assign(out, at::normal(m, std, gen)); });
    DIOPI_IMPL_END
}

diopiError_t diopiNormalScalarTensor(diopiContextHandle_t ctx, diopiTensorHandle_t out, double mean, diopiConstTensorHandle_t std,
                                     diopiGeneratorHandle_t generator) {
    DIOPI_IMPL_BEGIN
    at::Tensor s = tensor(std, "std");
    withGenerator(ctx, generator, [&](at::Generator& gen) { assign(out, at::normal(mean, s, gen)); });
    DIOPI_IMPL_END
}

diopiError_t diopiNormalTensor(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t mean, diopiConstTensorHandle_t std,
                               diopiGeneratorHandle_t generator) {
    DIOPI_IMPL_BEGIN
    at::Tensor m = tensor(mean, "mean"), s = tensor(std, "std");
    withGenerator(ctx, generator, [&](at::Generator& gen) { assign(out, at::normal(m, s, gen)); });
    DIOPI_IMPL_END
}

diopiError_t diopiNormalInp(diopiContextHandle_t ctx, diopiTensorHandle_t inout, double mean, double std, diopiGeneratorHandle_t generator) {
    DIOPI_IMPL_BEGIN
    if (!(std >= 0.0)) fail("std must be non-negative");
    at::Tensor t = tensor(inout, "inout");
    withGenerator(ctx, generator, [&](at::Generator& gen) { t.normal_(mean, std, gen); });
    DIOPI_IMPL_END
}

diopiError_t diopiMultinomial(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t input, int64_t num_samples,
                              bool replacement, diopiGeneratorHandle_t generator) {
    DIOPI_IMPL_BEGIN
    at::Tensor probs = tensor(input, "input");
    withGenerator(ctx, generator, [&](at::Generator& gen) { assign(out, at::multinomial(probs, num_samples, replacement, gen)); });
    DIOPI_IMPL_END
}

}  // extern "C"
