// The `diopi` device's process group: a c10d::Backend that torch.distributed registers for device type `diopi`
// under the name "diccl" (diopi_torch/distributed.py). Built as a Python extension module (_distributed), because
// torch.distributed takes backends as Python objects.
//
// A collective on diopi tensors calls the vendor library's collective interface (diopi/collective.h) when the
// library exports the function, on a communicator created when the backend is (rank 0's unique id goes to the other
// ranks through the process group's store). Otherwise, or when DIOPI_DIST_STAGED=1, the tensors are staged through
// host memory and reduced by a Gloo backend made in Python beside this one; every staged call is counted with its
// reason (stats()). CPU tensors given to this backend go to Gloo directly.
//
// Calls complete before they return (the device's work is synchronous), except point-to-point calls: those are
// recorded and started together, as one group, when one of their works is waited for or the next collective comes,
// so that two ranks sending to each other cannot wait on each other.
#include <diopi/collective.h>
#include <torch/csrc/distributed/c10d/Backend.hpp>
#include <torch/csrc/distributed/c10d/Store.hpp>
#include <torch/csrc/distributed/c10d/Work.hpp>
#include <torch/csrc/utils/pybind.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "aten/bridge.hpp"
#include "runtime/state.hpp"

#include "diopi_support/json.hpp"

namespace diopi_torch {
namespace {

constexpr const char* kName = "diccl";
constexpr const char* kUidKey = "diopi_torch/diccl/unique_id";

// ---------------------------------------------------------------- counters

struct OpCount {
    uint64_t vendor = 0, staged = 0, cpu = 0, stagedBytes = 0;
    std::map<std::string, uint64_t> reasons;  // why calls were staged
};
std::mutex gCountMu;
std::map<std::string, OpCount> gCounts;

void countVendor(const char* op) {
    std::lock_guard<std::mutex> g(gCountMu);
    gCounts[op].vendor++;
}
void countStaged(const char* op, const std::string& why, uint64_t bytes) {
    std::lock_guard<std::mutex> g(gCountMu);
    auto& c = gCounts[op];
    c.staged++;
    c.stagedBytes += bytes;
    c.reasons[why]++;
}
void countCpu(const char* op) {
    std::lock_guard<std::mutex> g(gCountMu);
    gCounts[op].cpu++;
}

uint64_t bytesOf(const std::vector<at::Tensor>& ts) {
    uint64_t n = 0;
    for (const auto& t : ts) n += t.numel() * t.element_size();
    return n;
}

// ---------------------------------------------------------------- works

// A finished call: its future already holds the result tensors.
class DoneWork : public c10d::Work {
public:
    DoneWork(c10d::OpType type, std::vector<at::Tensor> result)
        : Work(-1, type), result_(std::move(result)), future_(c10::make_intrusive<c10::ivalue::Future>(c10::ListType::create(c10::TensorType::get()))) {
        future_->markCompleted(c10::IValue(result_));
        finish();
    }
    bool isCompleted() override { return true; }
    bool isSuccess() const override { return true; }
    bool wait(std::chrono::milliseconds) override { return true; }
    std::vector<at::Tensor> result() override { return result_; }
    c10::intrusive_ptr<c10::ivalue::Future> getFuture() override { return future_; }

private:
    std::vector<at::Tensor> result_;
    c10::intrusive_ptr<c10::ivalue::Future> future_;
};

class DiopiBackend;

// A point-to-point call that runs, with every other one recorded before it, when waited for.
class DeferredWork : public c10d::Work {
public:
    DeferredWork(DiopiBackend* owner, c10d::OpType type, std::vector<at::Tensor> tensors)
        : Work(-1, type), owner_(owner), tensors_(std::move(tensors)) {}
    bool isCompleted() override;
    bool isSuccess() const override { return true; }
    bool wait(std::chrono::milliseconds) override;
    std::vector<at::Tensor> result() override { return tensors_; }
    c10::intrusive_ptr<c10::ivalue::Future> getFuture() override;
    void done() { done_ = true; }

private:
    DiopiBackend* owner_;
    std::vector<at::Tensor> tensors_;
    bool done_ = false;
};

// ---------------------------------------------------------------- the vendor's functions

template <class Fn>
Fn vendorFn(const char* name) {
    return reinterpret_cast<Fn>(symbol(name));
}

using AllReduceFn = diopiError_t (*)(diopiContextHandle_t, diopiCommHandle_t, diopiTensorHandle_t, diopiConstTensorHandle_t, diopiReduceOp_t);
using BroadcastFn = diopiError_t (*)(diopiContextHandle_t, diopiCommHandle_t, diopiTensorHandle_t, diopiConstTensorHandle_t, int64_t);
using ReduceFn = diopiError_t (*)(diopiContextHandle_t, diopiCommHandle_t, diopiTensorHandle_t, diopiConstTensorHandle_t, diopiReduceOp_t, int64_t);
using GatherFn = diopiError_t (*)(diopiContextHandle_t, diopiCommHandle_t, diopiTensorHandle_t, diopiConstTensorHandle_t);
using ScatterFn = diopiError_t (*)(diopiContextHandle_t, diopiCommHandle_t, diopiTensorHandle_t, diopiConstTensorHandle_t, diopiReduceOp_t);
using AllToAllFn = diopiError_t (*)(diopiContextHandle_t, diopiCommHandle_t, diopiTensorHandle_t, diopiConstTensorHandle_t, diopiSize_t, diopiSize_t);
using SendFn = diopiError_t (*)(diopiContextHandle_t, diopiCommHandle_t, diopiConstTensorHandle_t, int64_t);
using RecvFn = diopiError_t (*)(diopiContextHandle_t, diopiCommHandle_t, diopiTensorHandle_t, int64_t);
using BarrierFn = diopiError_t (*)(diopiContextHandle_t, diopiCommHandle_t);
using GroupFn = diopiError_t (*)();

void check(diopiError_t st, const char* fn) {
    TORCH_CHECK(st == diopiSuccess, "diccl: ", fn, " failed (status ", static_cast<int>(st), "): ",
                [] { std::string s = lastVendorError(); return s.empty() ? std::string("the library gave no message") : s; }());
}

// The handles of one vendor call (kept until a group that recorded the call has ended).
struct Handles {
    diopiContext ctx;
    diopiTensorHandle_t of(const at::Tensor& t) {
        ctx.handles.push_back(diopiTensor{t});
        return &ctx.handles.back();
    }
};

std::optional<diopiReduceOp_t> toDiopi(const c10d::ReduceOp& op) {
    switch (op.op_) {
        case c10d::ReduceOp::SUM: return diopiReduceSum;
        case c10d::ReduceOp::PRODUCT: return diopiReduceProd;
        case c10d::ReduceOp::MIN: return diopiReduceMin;
        case c10d::ReduceOp::MAX: return diopiReduceMax;
        case c10d::ReduceOp::AVG: return diopiReduceAvg;
        default: return std::nullopt;
    }
}

bool onDevice(const std::vector<at::Tensor>& ts) {
    for (const auto& t : ts)
        if (t.device().type() != c10::DeviceType::PrivateUse1) return false;
    return !ts.empty();
}

bool forcedStaged() {
    const char* v = std::getenv("DIOPI_DIST_STAGED");
    return v && *v && std::string(v) != "0";
}

// ---------------------------------------------------------------- the backend

class DiopiBackend final : public c10d::Backend {
public:
    DiopiBackend(const c10::intrusive_ptr<c10d::Store>& store, int rank, int size, std::chrono::milliseconds timeout,
                 c10::intrusive_ptr<c10d::Backend> gloo)
        : Backend(rank, size), gloo_(std::move(gloo)), timeout_(timeout) {
        requireLibrary();
        using InitFn = diopiError_t (*)(diopiCommHandle_t*, int64_t, const diopiCommUniqueId_t*, int64_t, int64_t);
        using UidFn = diopiError_t (*)(diopiCommUniqueId_t*);
        auto init = vendorFn<InitFn>("diopiCommInitRank");
        auto uid = vendorFn<UidFn>("diopiCommGetUniqueId");
        if (!forcedStaged() && init && uid) {
            diopiCommUniqueId_t id{};
            if (rank == 0) {
                check(uid(&id), "diopiCommGetUniqueId");
                store->set(kUidKey, std::vector<uint8_t>(reinterpret_cast<uint8_t*>(id.internal), reinterpret_cast<uint8_t*>(id.internal) + sizeof(id.internal)));
            } else {
                std::vector<uint8_t> bytes = store->get(kUidKey);
                TORCH_CHECK(bytes.size() == sizeof(id.internal), "diccl: the unique id in the store has ", bytes.size(), " bytes");
                std::memcpy(id.internal, bytes.data(), bytes.size());
            }
            check(init(&comm_, size, &id, rank, timeout.count()), "diopiCommInitRank");
        }
    }

    ~DiopiBackend() override {
        if (comm_) {
            if (auto destroy = vendorFn<diopiError_t (*)(diopiCommHandle_t)>("diopiCommDestroy")) destroy(comm_);
            comm_ = nullptr;
        }
    }

    const std::string getBackendName() const override { return kName; }
    bool supportsCoalescing() const override { return true; }
    bool hasVendorComm() const { return comm_ != nullptr; }

    // ---- collectives

    c10::intrusive_ptr<c10d::Work> allreduce(std::vector<at::Tensor>& tensors, const c10d::AllreduceOptions& opts) override {
        flush();
        auto op = toDiopi(opts.reduceOp);
        auto fn = op ? vendor<AllReduceFn>("diopiCommAllReduce", tensors) : nullptr;
        if (fn) {
            for (auto& t : tensors) {
                Handles h;
                call(fn(&h.ctx, comm_, h.of(t), h.of(t), *op), "diopiCommAllReduce", std::move(h));
            }
            countVendor("allreduce");
            return done(c10d::OpType::ALLREDUCE, tensors);
        }
        bool avg = opts.reduceOp.op_ == c10d::ReduceOp::AVG;  // Gloo has no average: a sum, divided on the host
        return staged("allreduce", tensors, tensors, op ? "" : "reduction without a DIOPI equivalent", [&](std::vector<at::Tensor>& in, std::vector<at::Tensor>&) {
            c10d::AllreduceOptions o = opts;
            if (avg) o.reduceOp = c10d::ReduceOp(c10d::ReduceOp::SUM);
            auto w = gloo_->allreduce(in, o);
            if (avg) {
                w->wait(timeout_);
                for (auto& t : in) t.div_(size_);
            }
            return w;
        });
    }

    c10::intrusive_ptr<c10d::Work> allreduce_coalesced(std::vector<at::Tensor>& tensors, const c10d::AllreduceCoalescedOptions& opts) override {
        c10d::AllreduceOptions one;
        one.reduceOp = opts.reduceOp;
        one.timeout = opts.timeout;
        for (auto& t : tensors) {
            std::vector<at::Tensor> v{t};
            allreduce(v, one)->wait();
        }
        return done(c10d::OpType::ALLREDUCE_COALESCED, tensors);
    }

    c10::intrusive_ptr<c10d::Work> broadcast(std::vector<at::Tensor>& tensors, const c10d::BroadcastOptions& opts) override {
        flush();
        if (auto fn = vendor<BroadcastFn>("diopiCommBroadcast", tensors)) {
            for (auto& t : tensors) {
                Handles h;
                call(fn(&h.ctx, comm_, h.of(t), rank_ == opts.rootRank ? h.of(t) : nullptr, opts.rootRank), "diopiCommBroadcast", std::move(h));
            }
            countVendor("broadcast");
            return done(c10d::OpType::BROADCAST, tensors);
        }
        return staged("broadcast", tensors, tensors, "", [&](std::vector<at::Tensor>& in, std::vector<at::Tensor>&) { return gloo_->broadcast(in, opts); });
    }

    c10::intrusive_ptr<c10d::Work> reduce(std::vector<at::Tensor>& tensors, const c10d::ReduceOptions& opts) override {
        flush();
        auto op = toDiopi(opts.reduceOp);
        auto fn = op ? vendor<ReduceFn>("diopiCommReduce", tensors) : nullptr;
        if (fn) {
            for (auto& t : tensors) {
                Handles h;
                call(fn(&h.ctx, comm_, rank_ == opts.rootRank ? h.of(t) : nullptr, h.of(t), *op, opts.rootRank), "diopiCommReduce", std::move(h));
            }
            countVendor("reduce");
            return done(c10d::OpType::REDUCE, tensors);
        }
        return staged("reduce", tensors, tensors, op ? "" : "reduction without a DIOPI equivalent",
                      [&](std::vector<at::Tensor>& in, std::vector<at::Tensor>&) { return gloo_->reduce(in, opts); });
    }

    c10::intrusive_ptr<c10d::Work> _allgather_base(at::Tensor& output, at::Tensor& input, const c10d::AllgatherOptions& opts) override {
        flush();
        std::vector<at::Tensor> ins{input}, outs{output};
        if (auto fn = vendor<GatherFn>("diopiCommAllGather", ins)) {
            Handles h;
            call(fn(&h.ctx, comm_, h.of(output), h.of(input)), "diopiCommAllGather", std::move(h));
            countVendor("_allgather_base");
            return done(c10d::OpType::_ALLGATHER_BASE, outs);
        }
        return staged("_allgather_base", ins, outs, "", [&](std::vector<at::Tensor>& in, std::vector<at::Tensor>& out) {
            at::Tensor o = out[0].view({-1}), i = in[0].reshape({-1});  // Gloo wants (world * n) and (n)
            return gloo_->_allgather_base(o, i, opts);
        });
    }

    c10::intrusive_ptr<c10d::Work> allgather(std::vector<std::vector<at::Tensor>>& outputs, std::vector<at::Tensor>& inputs,
                                             const c10d::AllgatherOptions& opts) override {
        flush();
        TORCH_CHECK(outputs.size() == inputs.size(), "diccl: allgather needs one output list per input");
        bool even = true;
        for (size_t i = 0; i < inputs.size(); ++i) {
            TORCH_CHECK(static_cast<int>(outputs[i].size()) == size_, "diccl: allgather needs world size outputs per input");
            for (const auto& o : outputs[i]) even = even && o.numel() == inputs[i].numel() && o.scalar_type() == inputs[i].scalar_type();
        }
        auto fn = even ? vendor<GatherFn>("diopiCommAllGather", inputs) : nullptr;
        if (fn) {
            // One all-gather into a flat tensor per input, then each rank's slice into its output.
            for (size_t i = 0; i < inputs.size(); ++i) {
                at::Tensor flat = at::empty({size_ * inputs[i].numel()}, inputs[i].options());
                Handles h;
                call(fn(&h.ctx, comm_, h.of(flat), h.of(inputs[i])), "diopiCommAllGather", std::move(h));
                for (int r = 0; r < size_; ++r) outputs[i][r].copy_(flat.narrow(0, r * inputs[i].numel(), inputs[i].numel()).view(outputs[i][r].sizes()));
            }
            countVendor("allgather");
            std::vector<at::Tensor> all;
            for (auto& v : outputs) all.insert(all.end(), v.begin(), v.end());
            return done(c10d::OpType::ALLGATHER, all);
        }
        std::vector<at::Tensor> flatOut;
        for (auto& v : outputs) flatOut.insert(flatOut.end(), v.begin(), v.end());
        return staged("allgather", inputs, flatOut, even ? "" : "outputs of different sizes", [&](std::vector<at::Tensor>& in, std::vector<at::Tensor>& out) {
            std::vector<std::vector<at::Tensor>> lists;
            size_t k = 0;
            for (auto& v : outputs) {
                lists.emplace_back(out.begin() + k, out.begin() + k + v.size());
                k += v.size();
            }
            auto w = gloo_->allgather(lists, in, opts);
            w->wait();
            k = 0;
            for (auto& l : lists)
                for (auto& t : l) out[k++] = t;
            return w;
        });
    }

    c10::intrusive_ptr<c10d::Work> allgather_into_tensor_coalesced(std::vector<at::Tensor>& outputs, std::vector<at::Tensor>& inputs,
                                                                   const c10d::AllgatherOptions& opts) override {
        for (size_t i = 0; i < inputs.size(); ++i) _allgather_base(outputs[i], inputs[i], opts)->wait();
        return done(c10d::OpType::ALLGATHER_COALESCED, outputs);
    }

    c10::intrusive_ptr<c10d::Work> _reduce_scatter_base(at::Tensor& output, at::Tensor& input, const c10d::ReduceScatterOptions& opts) override {
        flush();
        std::vector<at::Tensor> ins{input}, outs{output};
        auto op = toDiopi(opts.reduceOp);
        auto fn = op ? vendor<ScatterFn>("diopiCommReduceScatter", ins) : nullptr;
        if (fn) {
            Handles h;
            call(fn(&h.ctx, comm_, h.of(output), h.of(input), *op), "diopiCommReduceScatter", std::move(h));
            countVendor("_reduce_scatter_base");
            return done(c10d::OpType::_REDUCE_SCATTER_BASE, outs);
        }
        return staged("_reduce_scatter_base", ins, outs, op ? "" : "reduction without a DIOPI equivalent",
                      [&](std::vector<at::Tensor>& in, std::vector<at::Tensor>& out) {
                          at::Tensor o = out[0].view({-1}), i = in[0].reshape({-1});
                          return gloo_->_reduce_scatter_base(o, i, opts);
                      });
    }

    c10::intrusive_ptr<c10d::Work> reduce_scatter(std::vector<at::Tensor>& outputs, std::vector<std::vector<at::Tensor>>& inputs,
                                                  const c10d::ReduceScatterOptions& opts) override {
        // The list form: each output's inputs concatenated, then the tensor form.
        for (size_t i = 0; i < outputs.size(); ++i) {
            std::vector<at::Tensor> flat;
            for (auto& t : inputs[i]) flat.push_back(t.reshape({-1}));
            at::Tensor in = at::cat(flat);
            at::Tensor out = outputs[i].is_contiguous() ? outputs[i].view({-1}) : at::empty({outputs[i].numel()}, outputs[i].options());
            _reduce_scatter_base(out, in, opts)->wait();
            if (!out.is_same(outputs[i]) && out.data_ptr() != outputs[i].data_ptr()) outputs[i].copy_(out.view(outputs[i].sizes()));
        }
        return done(c10d::OpType::REDUCE_SCATTER, outputs);
    }

    c10::intrusive_ptr<c10d::Work> reduce_scatter_tensor_coalesced(std::vector<at::Tensor>& outputs, std::vector<at::Tensor>& inputs,
                                                                   const c10d::ReduceScatterOptions& opts) override {
        for (size_t i = 0; i < inputs.size(); ++i) _reduce_scatter_base(outputs[i], inputs[i], opts)->wait();
        return done(c10d::OpType::REDUCE_SCATTER_TENSOR_COALESCED, outputs);
    }

    c10::intrusive_ptr<c10d::Work> alltoall_base(at::Tensor& output, at::Tensor& input, std::vector<int64_t>& outSplits, std::vector<int64_t>& inSplits,
                                                 const c10d::AllToAllOptions& opts) override {
        flush();
        std::vector<at::Tensor> ins{input}, outs{output};
        if (auto fn = vendor<AllToAllFn>("diopiCommAllToAll", ins)) {
            Handles h;
            diopiSize_t os{outSplits.data(), static_cast<int64_t>(outSplits.size())}, is{inSplits.data(), static_cast<int64_t>(inSplits.size())};
            call(fn(&h.ctx, comm_, h.of(output), h.of(input), os, is), "diopiCommAllToAll", std::move(h));
            countVendor("alltoall_base");
            return done(c10d::OpType::ALLTOALL_BASE, outs);
        }
        return staged("alltoall_base", ins, outs, "", [&](std::vector<at::Tensor>& in, std::vector<at::Tensor>& out) {
            return gloo_->alltoall_base(out[0], in[0], outSplits, inSplits, opts);
        });
    }

    c10::intrusive_ptr<c10d::Work> alltoall(std::vector<at::Tensor>& outputs, std::vector<at::Tensor>& inputs, const c10d::AllToAllOptions& opts) override {
        flush();
        return staged("alltoall", inputs, outputs, "no DIOPI collective for the list form", [&](std::vector<at::Tensor>& in, std::vector<at::Tensor>& out) {
            return gloo_->alltoall(out, in, opts);
        });
    }

    c10::intrusive_ptr<c10d::Work> gather(std::vector<std::vector<at::Tensor>>& outputs, std::vector<at::Tensor>& inputs,
                                          const c10d::GatherOptions& opts) override {
        flush();
        std::vector<at::Tensor> flatOut;
        for (auto& v : outputs) flatOut.insert(flatOut.end(), v.begin(), v.end());
        return staged("gather", inputs, flatOut, "no DIOPI collective (gather)", [&](std::vector<at::Tensor>& in, std::vector<at::Tensor>& out) {
            std::vector<std::vector<at::Tensor>> lists;
            if (!out.empty()) lists.push_back(out);
            auto w = gloo_->gather(lists, in, opts);
            w->wait();
            if (!lists.empty()) out = lists[0];
            return w;
        });
    }

    c10::intrusive_ptr<c10d::Work> scatter(std::vector<at::Tensor>& outputs, std::vector<std::vector<at::Tensor>>& inputs,
                                           const c10d::ScatterOptions& opts) override {
        flush();
        std::vector<at::Tensor> flatIn;
        for (auto& v : inputs) flatIn.insert(flatIn.end(), v.begin(), v.end());
        return staged("scatter", flatIn, outputs, "no DIOPI collective (scatter)", [&](std::vector<at::Tensor>& in, std::vector<at::Tensor>& out) {
            std::vector<std::vector<at::Tensor>> lists;
            if (!in.empty()) lists.push_back(in);
            return gloo_->scatter(out, lists, opts);
        });
    }

    c10::intrusive_ptr<c10d::Work> barrier(const c10d::BarrierOptions& opts) override {
        flush();
        if (comm_ && !forcedStaged()) {
            if (auto fn = vendorFn<BarrierFn>("diopiCommBarrier")) {
                Handles h;
                call(fn(&h.ctx, comm_), "diopiCommBarrier", std::move(h));
                countVendor("barrier");
                return done(c10d::OpType::BARRIER, {});
            }
        }
        countStaged("barrier", stageReason("diopiCommBarrier"), 0);
        auto w = gloo_->barrier(opts);
        w->wait();
        return done(c10d::OpType::BARRIER, {});
    }

    // ---- point to point: recorded, started together when waited for (see the file's head)

    c10::intrusive_ptr<c10d::Work> send(std::vector<at::Tensor>& tensors, int dstRank, int tag) override {
        return defer(c10d::OpType::SEND, tensors, dstRank, tag, true);
    }

    c10::intrusive_ptr<c10d::Work> recv(std::vector<at::Tensor>& tensors, int srcRank, int tag) override {
        return defer(c10d::OpType::RECV, tensors, srcRank, tag, false);
    }

    c10::intrusive_ptr<c10d::Work> recvAnysource(std::vector<at::Tensor>& tensors, int tag) override {
        flush();
        return staged("recvAnysource", {}, tensors, "no DIOPI receive from any source", [&](std::vector<at::Tensor>&, std::vector<at::Tensor>& out) {
            return gloo_->recvAnysource(out, tag);
        });
    }

    // Point-to-point calls of a coalesced batch are recorded anyway; the end of the batch starts them together.
    void startCoalescing() override { flush(); }

    c10::intrusive_ptr<c10d::Work> endCoalescing() override {
        std::vector<at::Tensor> ts;
        for (auto& p : pending_) ts.insert(ts.end(), p.tensors.begin(), p.tensors.end());
        flush();
        return done(c10d::OpType::COALESCED, ts);
    }

    void abort() override {
        if (comm_) {
            if (auto fn = vendorFn<diopiError_t (*)(diopiCommHandle_t)>("diopiCommAbort")) fn(comm_);
            comm_ = nullptr;
        }
    }

    void shutdown() override {
        flush();
        if (comm_) {
            if (auto fn = vendorFn<diopiError_t (*)(diopiCommHandle_t)>("diopiCommDestroy")) fn(comm_);
            comm_ = nullptr;
        }
    }

    // Runs every recorded point-to-point call: on the vendor's communicator inside one group, else over Gloo.
    void flush() {
        if (pending_.empty()) return;
        auto calls = std::move(pending_);
        pending_.clear();
        bool vendorPath = comm_ && !forcedStaged() && vendorFn<SendFn>("diopiCommSend") && vendorFn<RecvFn>("diopiCommRecv") &&
                          vendorFn<GroupFn>("diopiCommGroupStart") && vendorFn<GroupFn>("diopiCommGroupEnd");
        bool allDevice = true;
        for (auto& c : calls) allDevice = allDevice && onDevice(c.tensors);
        if (vendorPath && allDevice) {
            auto sendFn = vendorFn<SendFn>("diopiCommSend");
            auto recvFn = vendorFn<RecvFn>("diopiCommRecv");
            std::deque<Handles> keep;  // the group's calls read their handles until it ends
            check(vendorFn<GroupFn>("diopiCommGroupStart")(), "diopiCommGroupStart");
            diopiError_t first = diopiSuccess;
            const char* firstFn = "";
            for (auto& c : calls) {
                for (auto& t : c.tensors) {
                    Handles& h = keep.emplace_back();
                    diopiError_t st = c.isSend ? sendFn(&h.ctx, comm_, h.of(t), c.peer) : recvFn(&h.ctx, comm_, h.of(t), c.peer);
                    if (st != diopiSuccess && first == diopiSuccess) {
                        first = st;
                        firstFn = c.isSend ? "diopiCommSend" : "diopiCommRecv";
                    }
                }
                countVendor(c.isSend ? "send" : "recv");
            }
            diopiError_t end = vendorFn<GroupFn>("diopiCommGroupEnd")();
            for (auto& c : calls) c.work->done();
            check(first, firstFn);
            check(end, "diopiCommGroupEnd");
            return;
        }
        // Gloo: start every call, then wait for all of them, then copy what was received to the device.
        std::vector<std::pair<c10::intrusive_ptr<c10d::Work>, std::function<void()>>> started;
        for (auto& c : calls) {
            std::vector<at::Tensor> host;
            bool device = onDevice(c.tensors);
            for (auto& t : c.tensors) host.push_back(device ? t.cpu() : t);
            if (device) countStaged(c.isSend ? "send" : "recv", stageReason(c.isSend ? "diopiCommSend" : "diopiCommRecv"), bytesOf(c.tensors));
            else countCpu(c.isSend ? "send" : "recv");
            auto w = c.isSend ? gloo_->send(host, c.peer, c.tag) : gloo_->recv(host, c.peer, c.tag);
            std::function<void()> finish = [device, isSend = c.isSend, host, tensors = c.tensors]() mutable {
                if (device && !isSend)
                    for (size_t i = 0; i < tensors.size(); ++i) tensors[i].copy_(host[i]);
            };
            started.emplace_back(w, std::move(finish));
        }
        for (auto& [w, finish] : started) {
            w->wait(timeout_);
            finish();
        }
        for (auto& c : calls) c.work->done();
    }

private:
    struct P2P {
        std::vector<at::Tensor> tensors;
        int peer, tag;
        bool isSend;
        c10::intrusive_ptr<DeferredWork> work;
    };

    c10::intrusive_ptr<c10d::Work> defer(c10d::OpType type, std::vector<at::Tensor>& tensors, int peer, int tag, bool isSend) {
        auto w = c10::make_intrusive<DeferredWork>(this, type, tensors);
        pending_.push_back(P2P{tensors, peer, tag, isSend, w});
        return w;
    }

    // The DIOPI function a torch collective maps to, for the reasons of staged calls.
    static const char* diopiName(const char* op) {
        static const std::map<std::string, const char*> names = {
            {"allreduce", "diopiCommAllReduce"}, {"broadcast", "diopiCommBroadcast"}, {"reduce", "diopiCommReduce"},
            {"_allgather_base", "diopiCommAllGather"}, {"allgather", "diopiCommAllGather"},
            {"_reduce_scatter_base", "diopiCommReduceScatter"}, {"alltoall_base", "diopiCommAllToAll"}};
        auto it = names.find(op);
        return it == names.end() ? op : it->second;
    }

    std::string stageReason(const char* fn) const {
        if (forcedStaged()) return "DIOPI_DIST_STAGED=1";
        if (!comm_) return "the library has no collective interface";
        return std::string("the library does not export ") + fn;
    }

    // The vendor's function when it may serve these tensors (on the device, a communicator, exported), else nullptr.
    template <class Fn>
    Fn vendor(const char* name, const std::vector<at::Tensor>& tensors) {
        if (!comm_ || forcedStaged() || !onDevice(tensors)) return nullptr;
        return vendorFn<Fn>(name);
    }

    void call(diopiError_t st, const char* fn, Handles&&) { check(st, fn); }

    c10::intrusive_ptr<c10d::Work> done(c10d::OpType type, std::vector<at::Tensor> result) {
        return c10::make_intrusive<DoneWork>(type, std::move(result));
    }

    // Host copies of the device tensors, the Gloo call on them, and the results copied back; CPU tensors go to
    // Gloo as they are. `gloo` receives (inputs, outputs) and may replace outputs (list forms).
    c10::intrusive_ptr<c10d::Work> staged(const char* op, const std::vector<at::Tensor>& inputs, std::vector<at::Tensor> outputs,
                                          std::string why,
                                          const std::function<c10::intrusive_ptr<c10d::Work>(std::vector<at::Tensor>&, std::vector<at::Tensor>&)>& gloo) {
        bool device = onDevice(inputs) || onDevice(outputs);
        // In-place calls (the same tensors in and out) must stage each tensor once.
        bool inPlace = inputs.size() == outputs.size();
        for (size_t i = 0; inPlace && i < inputs.size(); ++i) inPlace = inputs[i].is_same(outputs[i]);
        std::vector<at::Tensor> hin, hout;
        size_t slot = 0;
        for (const auto& t : inputs) hin.push_back(device ? toHost(t, slot++) : t);
        if (inPlace) hout = hin;
        else
            for (const auto& t : outputs) hout.push_back(device ? hostBuffer(t, slot++) : t);
        if (device) countStaged(op, why.empty() ? stageReason(diopiName(op)) : why, bytesOf(inputs) + (inPlace ? 0 : bytesOf(outputs)));
        else countCpu(op);
        auto w = gloo(hin, inPlace ? hin : hout);
        w->wait(timeout_);
        if (inPlace) hout = hin;
        if (device)
            for (size_t i = 0; i < outputs.size() && i < hout.size(); ++i) toDevice(hout[i], outputs[i]);
        return done(w->retrieveOpType(), outputs);
    }

    // Host staging buffers, kept between calls: a fresh host allocation of a large tensor costs more in page
    // faults than the copy itself. Slot i holds the i-th tensor of a call.
    at::Tensor hostBuffer(const at::Tensor& like, size_t slot) {
        int64_t nbytes = like.numel() * static_cast<int64_t>(like.element_size());
        if (scratch_.size() <= slot) scratch_.resize(slot + 1);
        if (!scratch_[slot].defined() || scratch_[slot].numel() < nbytes) scratch_[slot] = at::empty({std::max<int64_t>(nbytes, 1)}, at::kByte);
        return scratch_[slot].narrow(0, 0, nbytes).view(like.scalar_type()).view(like.sizes());
    }

    // A dense device tensor is copied by the device runtime straight into a staging buffer (on the tensor's
    // device's current stream, waited for); others through ATen.
    at::Tensor toHost(const at::Tensor& t, size_t slot) {
        if (!(t.is_contiguous() && t.is_non_overlapping_and_dense())) return t.cpu();
        at::Tensor h = hostBuffer(t, slot);
        size_t n = t.numel() * t.element_size();
        if (n) {
            c10::Stream s = currentStream(t.device().index());
            checkRuntime(runtime().memcpy_d2h_async(h.data_ptr(), t.const_data_ptr(), n, nativeStream(s)), "diccl: staging to the host");
            synchronizeStream(s);
        }
        return h;
    }

    void toDevice(const at::Tensor& h, const at::Tensor& t) {
        size_t n = t.numel() * t.element_size();
        if (t.is_contiguous() && t.is_non_overlapping_and_dense() && h.is_contiguous() && h.scalar_type() == t.scalar_type() &&
            static_cast<size_t>(h.numel() * h.element_size()) == n) {
            if (n) {
                c10::Stream s = currentStream(t.device().index());
                checkRuntime(runtime().memcpy_h2d_async(t.data_ptr(), h.const_data_ptr(), n, nativeStream(s)), "diccl: staging to the device");
                synchronizeStream(s);  // the host buffer is reused by the next call
            }
            return;
        }
        t.copy_(h);
    }

    c10::intrusive_ptr<c10d::Backend> gloo_;
    std::chrono::milliseconds timeout_;
    diopiCommHandle_t comm_ = nullptr;
    std::vector<P2P> pending_;
    std::vector<at::Tensor> scratch_;
};

bool DeferredWork::isCompleted() { return done_; }

bool DeferredWork::wait(std::chrono::milliseconds) {
    if (!done_) owner_->flush();
    return true;
}

c10::intrusive_ptr<c10::ivalue::Future> DeferredWork::getFuture() {
    wait(std::chrono::milliseconds(0));
    auto f = c10::make_intrusive<c10::ivalue::Future>(c10::ListType::create(c10::TensorType::get()));
    f->markCompleted(c10::IValue(tensors_));
    return f;
}

std::string statsJson() {
    std::lock_guard<std::mutex> g(gCountMu);
    diopi_support::JsonWriter w;
    w.beginObject();
    for (const auto& [op, c] : gCounts) {
        w.key(op).beginObject().member("vendor", c.vendor).member("staged", c.staged).member("cpu", c.cpu);
        w.member("staged_bytes", c.stagedBytes).key("reasons").beginObject();
        for (const auto& [r, n] : c.reasons) w.member(r, n);
        w.endObject().endObject();
    }
    w.endObject();
    return w.str();
}

}  // namespace
}  // namespace diopi_torch

PYBIND11_MODULE(_distributed, m) {
    m.doc() = "The diopi device's torch.distributed backend (diccl); see diopi_torch/distributed.py";
    m.def(
        "create",
        [](const c10::intrusive_ptr<c10d::Store>& store, int rank, int size, int64_t timeout_ms, const c10::intrusive_ptr<c10d::Backend>& gloo) {
            pybind11::gil_scoped_release nogil;  // joining a communicator waits for the other ranks
            c10::intrusive_ptr<c10d::Backend> b =
                c10::make_intrusive<diopi_torch::DiopiBackend>(store, rank, size, std::chrono::milliseconds(timeout_ms), gloo);
            return b;
        },
        "The backend for one process group: (store, rank, size, timeout in ms, Gloo backend for staging)");
    m.def("uses_vendor", [](const c10::intrusive_ptr<c10d::Backend>& b) {
        auto* d = dynamic_cast<diopi_torch::DiopiBackend*>(b.get());
        return d != nullptr && d->hasVendorComm();
    });
    m.def("stats_json", &diopi_torch::statsJson);
    m.def("reset_stats", [] {
        std::lock_guard<std::mutex> g(diopi_torch::gCountMu);
        diopi_torch::gCounts.clear();
    });
}
