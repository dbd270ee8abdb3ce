// The collective interface (diopi/collective.h) over c10d's Gloo backend in LibTorch. Rendezvous goes through a
// c10d TCPStore that diopiCommGetUniqueId() starts in the calling process (one per process, on an ephemeral port);
// the unique id carries its address and a nonce that keeps communicators apart in it. Each communicator is one
// ProcessGroupGloo. Collectives run synchronously: a call returns when its data has arrived, and inside
// diopiCommGroupStart/End the calls are recorded and started together at the end.
#include <torch/csrc/distributed/c10d/PrefixStore.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>
#include <diopi/collective.h>
#include <netdb.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <sstream>
#include <string>
#include <thread>

#include "helper.hpp"

using namespace impl::aten;

struct diopiComm {
    c10::intrusive_ptr<c10d::ProcessGroupGloo> pg;
    int64_t rank = 0, size = 1;
    std::chrono::milliseconds timeout{DIOPI_COMM_DEFAULT_TIMEOUT_MS};
    std::string name;
};

namespace {

constexpr const char* kIdMagic = "diopi-comm-1";

// ---------------------------------------------------------------- rendezvous

// The store server of this process. Created on the first diopiCommGetUniqueId() and kept to the end of the
// process (never destroyed: its thread must not be torn down while static destructors run).
std::mutex gServerMu;
c10::intrusive_ptr<c10d::TCPStore>* gServer = nullptr;

std::string hostForPeers() {
    if (const char* h = std::getenv("DIOPI_COMM_HOST"); h && *h) return h;
    char name[256] = {0};
    if (gethostname(name, sizeof(name) - 1) == 0 && name[0]) {
        addrinfo hints{}, *res = nullptr;
        hints.ai_family = AF_UNSPEC;
        hints.ai_socktype = SOCK_STREAM;
        if (getaddrinfo(name, nullptr, &hints, &res) == 0) {  // a name the peers can resolve too (same hosts file or DNS)
            freeaddrinfo(res);
            return name;
        }
    }
    return "127.0.0.1";
}

c10d::TCPStore& server() {
    std::lock_guard<std::mutex> g(gServerMu);
    if (!gServer) {
        c10d::TCPStoreOptions o;
        o.port = 0;  // an ephemeral port, read back below
        o.isServer = true;
        o.waitWorkers = false;
        o.numWorkers = std::nullopt;
        gServer = new c10::intrusive_ptr<c10d::TCPStore>(c10::make_intrusive<c10d::TCPStore>(hostForPeers(), o));
    }
    return **gServer;
}

struct ParsedId {
    std::string host, nonce;
    int port = 0;
};

ParsedId parseId(const diopiCommUniqueId_t* id) {
    char text[sizeof(id->internal) + 1] = {0};
    std::memcpy(text, id->internal, sizeof(id->internal));
    std::istringstream in(text);
    ParsedId p;
    std::string magic;
    in >> magic >> p.host >> p.port >> p.nonce;
    if (magic != kIdMagic || p.host.empty() || p.port <= 0 || p.nonce.empty())
        fail("unique_id is not an id of this library (made by diopiCommGetUniqueId() of impl/torch?)");
    return p;
}

// Live communicators by name, for operators that take a group by name (diopiMatmulAllReduce).
std::mutex gNamesMu;
std::map<std::string, diopiComm*> gNames;

diopiComm& check(diopiCommHandle_t comm) {
    if (comm == nullptr) fail("comm is NULL");
    if (!comm->pg) fail("comm was aborted or failed to initialise");
    return *comm;
}

// ---------------------------------------------------------------- dtypes and reductions

bool glooReduces(at::ScalarType t) {
    switch (t) {
        case at::kChar: case at::kByte: case at::kInt: case at::kLong: case at::kHalf: case at::kBFloat16: case at::kFloat: case at::kDouble:
            return true;
        default:
            return false;
    }
}

bool reductionDtype(at::ScalarType t) { return glooReduces(t) || t == at::kBool || t == at::kShort || t == at::kComplexFloat || t == at::kComplexDouble; }

bool movableDtype(at::ScalarType t) {
    return reductionDtype(t) || t == at::kUInt16 || t == at::kUInt32 || t == at::kUInt64;
}

const char* opName(diopiReduceOp_t op) {
    switch (op) {
        case diopiReduceSum: return "sum";
        case diopiReduceProd: return "prod";
        case diopiReduceMin: return "min";
        case diopiReduceMax: return "max";
        case diopiReduceAvg: return "avg";
        default: return nullptr;
    }
}

void checkReduction(at::ScalarType t, diopiReduceOp_t op) {
    const char* name = opName(op);
    if (!name) fail("op " + std::to_string(static_cast<int>(op)) + " is no diopiReduceOp_t");
    if (!reductionDtype(t)) fail(std::string("reductions do not accept ") + c10::toString(t), diopiDtypeNotSupported);
    if (op == diopiReduceAvg && !at::isFloatingType(t) && !at::isComplexType(t))
        fail(std::string("avg needs a floating-point or complex dtype, got ") + c10::toString(t), diopiDtypeNotSupported);
    if (at::isComplexType(t) && op != diopiReduceSum && op != diopiReduceAvg)
        fail(std::string(name) + " is not defined on complex values (sum and avg are)", diopiDtypeNotSupported);
}

void checkMovable(const at::Tensor& t, const char* what) {
    if (!movableDtype(t.scalar_type())) fail(std::string(what) + ": dtype " + c10::toString(t.scalar_type()) + " is not accepted", diopiDtypeNotSupported);
}

c10d::ReduceOp glooOp(diopiReduceOp_t op) {
    switch (op) {
        case diopiReduceProd: return c10d::ReduceOp::PRODUCT;
        case diopiReduceMin: return c10d::ReduceOp::MIN;
        case diopiReduceMax: return c10d::ReduceOp::MAX;
        default: return c10d::ReduceOp::SUM;  // avg: sum, then divided
    }
}

// The dense bytes of a contiguous tensor as a 1-D uint8 tensor (data movement does not look at values).
at::Tensor bytesOf(const at::Tensor& t) {
    return at::from_blob(t.data_ptr(), {static_cast<int64_t>(t.numel() * t.element_size())}, [](void*) {}, at::TensorOptions().dtype(at::kByte));
}

bool sameMemory(const at::Tensor& a, const at::Tensor& b) {
    return a.data_ptr() == b.data_ptr() && a.sizes() == b.sizes() && a.strides() == b.strides() && a.scalar_type() == b.scalar_type();
}

// ---------------------------------------------------------------- one collective

// A started collective: wait() finishes it (copies results into the caller's tensors).
struct Pending {
    c10::intrusive_ptr<c10d::Work> work;
    std::function<void()> finish;
    std::string what;
    std::chrono::milliseconds timeout{DIOPI_COMM_DEFAULT_TIMEOUT_MS};
};

// Calls recorded between diopiCommGroupStart() and diopiCommGroupEnd() on this thread.
struct Group {
    int depth = 0;
    std::vector<std::function<Pending()>> calls;
};
thread_local Group tGroup;

void finishOne(Pending& p) {
    try {
        if (p.work) p.work->wait(p.timeout);
        if (p.finish) p.finish();
    } catch (const DiopiException&) {
        throw;
    } catch (const std::exception& e) {
        fail(p.what + " failed: " + e.what());
    }
}

// Runs now, or records for the end of the group.
void submit(diopiComm& comm, std::function<Pending()> start) {
    diopiComm* c = &comm;
    auto labelled = [c, start = std::move(start)]() {
        Pending p = start();
        p.what += " on " + c->name;
        p.timeout = c->timeout;
        return p;
    };
    if (tGroup.depth > 0) {
        tGroup.calls.push_back(std::move(labelled));
        return;
    }
    Pending p;
    try {
        p = labelled();
    } catch (const DiopiException&) {
        throw;
    } catch (const std::exception& e) {
        fail(std::string("starting the exchange failed: ") + e.what());
    }
    finishOne(p);
}

// All-reduce of a contiguous tensor in place: Gloo where it reduces the dtype, otherwise every rank gathers all
// ranks' bytes and reduces them in the same order with ATen (so every rank gets bitwise the same result).
Pending startAllReduce(diopiComm& comm, at::Tensor buf, diopiReduceOp_t op) {
    Pending p;
    p.what = std::string("all-reduce (") + opName(op) + ")";
    at::ScalarType t = buf.scalar_type();
    if (buf.numel() == 0) return p;
    if (glooReduces(t) || (at::isComplexType(t) && (op == diopiReduceSum || op == diopiReduceAvg))) {
        at::Tensor real = at::isComplexType(t) ? at::view_as_real(buf) : buf;
        std::vector<at::Tensor> ts{real};
        c10d::AllreduceOptions o;
        o.reduceOp = glooOp(op);
        o.timeout = comm.timeout;
        p.work = comm.pg->allreduce(ts, o);
        if (op == diopiReduceAvg) p.finish = [buf, n = comm.size]() mutable { buf.div_(n); };
        return p;
    }
    at::Tensor all = at::empty({comm.size * buf.numel() * static_cast<int64_t>(buf.element_size())}, at::kByte);
    at::Tensor mine = bytesOf(buf);
    c10d::AllgatherOptions o;
    o.timeout = comm.timeout;
    p.work = comm.pg->_allgather_base(all, mine, o);
    p.finish = [buf, all, op, n = comm.size]() mutable {
        at::Tensor ranks = all.view(buf.scalar_type()).view({n, buf.numel()});
        at::Tensor r;
        bool flag = buf.scalar_type() == at::kBool;
        switch (op) {
            case diopiReduceSum: r = flag ? ranks.any(0) : ranks.sum(0, false, buf.scalar_type()); break;
            case diopiReduceProd: r = flag ? ranks.all(0) : ranks.prod(0, false, buf.scalar_type()); break;
            case diopiReduceMin: r = flag ? ranks.all(0) : std::get<0>(ranks.min(0)); break;
            case diopiReduceMax: r = flag ? ranks.any(0) : std::get<0>(ranks.max(0)); break;
            default: fail("avg is not defined for this dtype", diopiDtypeNotSupported);
        }
        buf.view({buf.numel()}).copy_(r);
    };
    return p;
}

// A contiguous tensor to compute in: `out` itself when it is contiguous, else a fresh one copied back at the end.
struct Buffer {
    at::Tensor out, buf;
    explicit Buffer(const at::Tensor& o) : out(o), buf(o.is_contiguous() ? o : at::empty(o.sizes(), o.options())) {}
    void copyBack() {
        if (!buf.is_same(out)) out.copy_(buf);
    }
};

at::Tensor dense(const at::Tensor& t) { return t.is_contiguous() ? t : t.contiguous(); }

// Rows of a tensor as (rows, bytes per row) uint8, for all-to-all (dimension 0 is what is split).
at::Tensor rowsOf(const at::Tensor& t) {
    int64_t rows = t.size(0);
    int64_t perRow = 1;
    for (int64_t d = 1; d < t.dim(); ++d) perRow *= t.size(d);
    return at::from_blob(t.data_ptr(), {rows, perRow * static_cast<int64_t>(t.element_size())}, [](void*) {}, at::TensorOptions().dtype(at::kByte));
}

std::vector<int64_t> splits(diopiSize_t s, int64_t world, int64_t rows, const char* what) {
    if (s.len == 0) {
        if (rows % world) fail(std::string(what) + ": dimension 0 (" + std::to_string(rows) + ") is not divisible by the world size (" +
                               std::to_string(world) + ") and no split sizes were given");
        return {};
    }
    if (s.len != world || s.data == nullptr) fail(std::string(what) + " must have world size (" + std::to_string(world) + ") entries, got " + std::to_string(s.len));
    int64_t sum = 0;
    for (int64_t i = 0; i < s.len; ++i) {
        if (s.data[i] < 0) fail(std::string(what) + " has a negative entry");
        sum += s.data[i];
    }
    if (sum != rows) fail(std::string(what) + " sums to " + std::to_string(sum) + ", dimension 0 is " + std::to_string(rows));
    return std::vector<int64_t>(s.data, s.data + s.len);
}

void checkRank(int64_t r, const diopiComm& comm, const char* what) {
    if (r < 0 || r >= comm.size) fail(std::string(what) + " " + std::to_string(r) + " is out of range for a world of " + std::to_string(comm.size));
}

}  // namespace

// Shared with diopiMatmulAllReduce (llm_distributed.cpp): the communicator named `group`, or nullptr for a world
// of one (NULL or ""). A name no live communicator has is an error.
diopiComm* diopiTorchCommByName(const char* group) {
    if (group == nullptr || group[0] == '\0') return nullptr;
    std::lock_guard<std::mutex> g(gNamesMu);
    auto it = gNames.find(group);
    if (it == gNames.end())
        fail(std::string("no live communicator is named \"") + group + "\" in this process (group takes diopiCommGetName() of one, or \"\" for a world of one)");
    return it->second;
}

// In-place all-reduce of a contiguous tensor on `comm`, for diopiMatmulAllReduce.
void diopiTorchAllReduceInPlace(diopiComm* comm, at::Tensor& t, diopiReduceOp_t op) {
    Pending p = startAllReduce(check(comm), t, op);
    p.timeout = comm->timeout;
    finishOne(p);
}

extern "C" {

diopiError_t diopiCommGetVersion(int64_t* version) {
    DIOPI_IMPL_BEGIN
    if (!version) fail("version is NULL");
    *version = DIOPI_COMM_VERSION;
    DIOPI_IMPL_END
}

diopiError_t diopiCommGetUniqueId(diopiCommUniqueId_t* unique_id) {
    DIOPI_IMPL_BEGIN
    if (!unique_id) fail("unique_id is NULL");
    c10d::TCPStore& s = server();
    std::random_device rd;
    char nonce[33];
    std::snprintf(nonce, sizeof(nonce), "%08x%08x%08x%08x", rd(), rd(), rd(), rd());
    std::string text = std::string(kIdMagic) + " " + s.getHost() + " " + std::to_string(s.getPort()) + " " + nonce;
    if (text.size() >= sizeof(unique_id->internal)) fail("the host name is too long for a unique id: " + s.getHost());
    std::memset(unique_id->internal, 0, sizeof(unique_id->internal));
    std::memcpy(unique_id->internal, text.data(), text.size());
    DIOPI_IMPL_END
}

diopiError_t diopiCommInitRank(diopiCommHandle_t* comm, int64_t world_size, const diopiCommUniqueId_t* unique_id, int64_t rank, int64_t timeout_ms) {
    DIOPI_IMPL_BEGIN
    if (!comm) fail("comm is NULL");
    if (!unique_id) fail("unique_id is NULL");
    if (world_size < 1) fail("world_size must be at least 1, got " + std::to_string(world_size));
    if (rank < 0 || rank >= world_size) fail("rank " + std::to_string(rank) + " is out of range for world_size " + std::to_string(world_size));
    ParsedId id = parseId(unique_id);
    auto timeout = std::chrono::milliseconds(timeout_ms > 0 ? timeout_ms : DIOPI_COMM_DEFAULT_TIMEOUT_MS);
    c10::intrusive_ptr<c10d::Store> base;
    {
        std::lock_guard<std::mutex> g(gServerMu);
        if (gServer && (*gServer)->getPort() == id.port) base = *gServer;  // the rank that made the id meets in its own server
    }
    if (!base) {
        c10d::TCPStoreOptions o;
        o.port = static_cast<uint16_t>(id.port);
        o.isServer = false;
        o.timeout = timeout;
        base = c10::make_intrusive<c10d::TCPStore>(id.host, o);
    }
    base->setTimeout(timeout);
    auto store = c10::make_intrusive<c10d::PrefixStore>(id.nonce, base);
    auto options = c10d::ProcessGroupGloo::Options::create_default(timeout);
    auto c = std::make_unique<diopiComm>();
    c->pg = c10::make_intrusive<c10d::ProcessGroupGloo>(store, static_cast<int>(rank), static_cast<int>(world_size), options);
    c->rank = rank;
    c->size = world_size;
    c->timeout = timeout;
    c->name = "diopi-comm-" + id.nonce;
    {
        std::lock_guard<std::mutex> g(gNamesMu);
        gNames[c->name] = c.get();
    }
    *comm = c.release();
    DIOPI_IMPL_END
}

diopiError_t diopiCommDestroy(diopiCommHandle_t comm) {
    DIOPI_IMPL_BEGIN
    if (!comm) return;
    std::unique_ptr<diopiComm> owned(comm);
    {
        std::lock_guard<std::mutex> g(gNamesMu);
        gNames.erase(owned->name);
    }
    owned->pg.reset();  // waits for its queued work (none is left: every call waited for its own)
    DIOPI_IMPL_END
}

diopiError_t diopiCommAbort(diopiCommHandle_t comm) {
    DIOPI_IMPL_BEGIN
    if (!comm) return;
    std::unique_ptr<diopiComm> owned(comm);
    {
        std::lock_guard<std::mutex> g(gNamesMu);
        gNames.erase(owned->name);
    }
    // Releasing a Gloo group waits for work in flight, which may be stuck on a dead peer until the timeout: it is
    // released on a thread of its own so that this call returns at once.
    if (owned->pg) std::thread([pg = std::move(owned->pg)]() mutable { pg.reset(); }).detach();
    DIOPI_IMPL_END
}

diopiError_t diopiCommGetRank(diopiCommHandle_t comm, int64_t* rank) {
    DIOPI_IMPL_BEGIN
    if (!comm || !rank) fail("comm and rank must not be NULL");
    *rank = comm->rank;
    DIOPI_IMPL_END
}

diopiError_t diopiCommGetSize(diopiCommHandle_t comm, int64_t* size) {
    DIOPI_IMPL_BEGIN
    if (!comm || !size) fail("comm and size must not be NULL");
    *size = comm->size;
    DIOPI_IMPL_END
}

diopiError_t diopiCommGetName(diopiCommHandle_t comm, const char** name) {
    DIOPI_IMPL_BEGIN
    if (!comm || !name) fail("comm and name must not be NULL");
    *name = comm->name.c_str();
    DIOPI_IMPL_END
}

diopiError_t diopiCommAllReduce(diopiContextHandle_t ctx, diopiCommHandle_t comm, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                diopiReduceOp_t op) {
    DIOPI_IMPL_BEGIN
    diopiComm& c = check(comm);
    at::Tensor in = tensor(input, "input"), o = tensor(out, "out");
    if (o.sizes() != in.sizes() || o.scalar_type() != in.scalar_type()) fail("out must have input's shape and dtype");
    checkReduction(in.scalar_type(), op);
    bool inPlace = sameMemory(o, in);
    submit(c, [&c, in, o, op, inPlace]() {
        auto b = std::make_shared<Buffer>(o);
        if (!inPlace || !b->buf.is_same(o)) b->buf.copy_(in);
        Pending p = startAllReduce(c, b->buf, op);
        auto then = p.finish;
        p.finish = [b, then]() {
            if (then) then();
            b->copyBack();
        };
        return p;
    });
    DIOPI_IMPL_END
}

diopiError_t diopiCommBroadcast(diopiContextHandle_t ctx, diopiCommHandle_t comm, diopiTensorHandle_t out, diopiConstTensorHandle_t input, int64_t root) {
    DIOPI_IMPL_BEGIN
    diopiComm& c = check(comm);
    checkRank(root, c, "root");
    at::Tensor o = tensor(out, "out");
    checkMovable(o, "out");
    at::Tensor in;
    if (c.rank == root) {
        in = tensor(input, "input");
        if (in.sizes() != o.sizes() || in.scalar_type() != o.scalar_type()) fail("input must have out's shape and dtype");
    }
    submit(c, [&c, in, o, root]() {
        auto b = std::make_shared<Buffer>(o);
        if (in.defined() && !(sameMemory(in, o) && b->buf.is_same(o))) b->buf.copy_(in);
        Pending p;
        p.what = "broadcast";
        if (o.numel() == 0) return p;
        std::vector<at::Tensor> ts{bytesOf(b->buf)};
        c10d::BroadcastOptions bo;
        bo.rootRank = static_cast<int>(root);
        bo.timeout = c.timeout;
        p.work = c.pg->broadcast(ts, bo);
        p.finish = [b]() { b->copyBack(); };
        return p;
    });
    DIOPI_IMPL_END
}

diopiError_t diopiCommReduce(diopiContextHandle_t ctx, diopiCommHandle_t comm, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                             diopiReduceOp_t op, int64_t root) {
    DIOPI_IMPL_BEGIN
    diopiComm& c = check(comm);
    checkRank(root, c, "root");
    at::Tensor in = tensor(input, "input");
    checkReduction(in.scalar_type(), op);
    at::Tensor o;
    if (c.rank == root) {
        o = tensor(out, "out");
        if (o.sizes() != in.sizes() || o.scalar_type() != in.scalar_type()) fail("out must have input's shape and dtype");
    }
    // An all-reduce whose result only the root keeps: the same bits on the root as an all-reduce would give.
    submit(c, [&c, in, o, op]() {
        auto tmp = std::make_shared<at::Tensor>(dense(in).clone());
        Pending p = startAllReduce(c, *tmp, op);
        p.what = std::string("reduce (") + opName(op) + ")";
        auto then = p.finish;
        p.finish = [tmp, o, then]() {
            if (then) then();
            if (o.defined()) o.copy_(*tmp);
        };
        return p;
    });
    DIOPI_IMPL_END
}

diopiError_t diopiCommAllGather(diopiContextHandle_t ctx, diopiCommHandle_t comm, diopiTensorHandle_t out, diopiConstTensorHandle_t input) {
    DIOPI_IMPL_BEGIN
    diopiComm& c = check(comm);
    at::Tensor in = tensor(input, "input"), o = tensor(out, "out");
    checkMovable(in, "input");
    if (o.scalar_type() != in.scalar_type()) fail("out must have input's dtype");
    if (o.numel() != in.numel() * c.size)
        fail("out has " + std::to_string(o.numel()) + " elements; world size x input elements is " + std::to_string(in.numel() * c.size));
    submit(c, [&c, in, o]() {
        auto b = std::make_shared<Buffer>(o);
        at::Tensor src = dense(in);
        Pending p;
        p.what = "all-gather";
        if (o.numel() == 0) return p;
        c10d::AllgatherOptions ao;
        ao.timeout = c.timeout;
        at::Tensor dst = bytesOf(b->buf), srcBytes = bytesOf(src);
        p.work = c.pg->_allgather_base(dst, srcBytes, ao);
        p.finish = [b, src]() { b->copyBack(); };
        return p;
    });
    DIOPI_IMPL_END
}

diopiError_t diopiCommReduceScatter(diopiContextHandle_t ctx, diopiCommHandle_t comm, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                                    diopiReduceOp_t op) {
    DIOPI_IMPL_BEGIN
    diopiComm& c = check(comm);
    at::Tensor in = tensor(input, "input"), o = tensor(out, "out");
    checkReduction(in.scalar_type(), op);
    if (o.scalar_type() != in.scalar_type()) fail("out must have input's dtype");
    if (in.numel() != o.numel() * c.size)
        fail("input has " + std::to_string(in.numel()) + " elements; world size x out elements is " + std::to_string(o.numel() * c.size));
    // All-reduce of the whole input, this rank keeping its chunk: the reference trades bandwidth for one code path
    // that every dtype and reduction shares.
    submit(c, [&c, in, o, op]() {
        auto tmp = std::make_shared<at::Tensor>(dense(in).clone());
        Pending p = startAllReduce(c, *tmp, op);
        p.what = std::string("reduce-scatter (") + opName(op) + ")";
        auto then = p.finish;
        int64_t n = o.numel(), r = c.rank;
        p.finish = [tmp, o, then, n, r]() {
            if (then) then();
            o.copy_(tmp->view({-1}).narrow(0, r * n, n).view(o.sizes()));
        };
        return p;
    });
    DIOPI_IMPL_END
}

diopiError_t diopiCommAllToAll(diopiContextHandle_t ctx, diopiCommHandle_t comm, diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                               diopiSize_t out_split_sizes, diopiSize_t in_split_sizes) {
    DIOPI_IMPL_BEGIN
    diopiComm& c = check(comm);
    at::Tensor in = tensor(input, "input"), o = tensor(out, "out");
    checkMovable(in, "input");
    if (o.scalar_type() != in.scalar_type()) fail("out must have input's dtype");
    if (in.dim() < 1 || o.dim() != in.dim()) fail("input and out must have the same number of dimensions, at least 1");
    for (int64_t d = 1; d < in.dim(); ++d)
        if (in.size(d) != o.size(d)) fail("input and out must have the same sizes beyond dimension 0");
    std::vector<int64_t> outSplits = splits(out_split_sizes, c.size, o.size(0), "out_split_sizes");
    std::vector<int64_t> inSplits = splits(in_split_sizes, c.size, in.size(0), "in_split_sizes");
    submit(c, [&c, in, o, outSplits, inSplits]() mutable {
        auto b = std::make_shared<Buffer>(o);
        at::Tensor src = dense(in);
        Pending p;
        p.what = "all-to-all";
        at::Tensor dstRows = rowsOf(b->buf), srcRows = rowsOf(src);
        c10d::AllToAllOptions ao;
        ao.timeout = c.timeout;
        p.work = c.pg->alltoall_base(dstRows, srcRows, outSplits, inSplits, ao);
        p.finish = [b, src]() { b->copyBack(); };
        return p;
    });
    DIOPI_IMPL_END
}

diopiError_t diopiCommSend(diopiContextHandle_t ctx, diopiCommHandle_t comm, diopiConstTensorHandle_t input, int64_t peer) {
    DIOPI_IMPL_BEGIN
    diopiComm& c = check(comm);
    checkRank(peer, c, "peer");
    if (peer == c.rank) fail("peer is this rank");
    at::Tensor in = tensor(input, "input");
    checkMovable(in, "input");
    submit(c, [&c, in, peer]() {
        Pending p;
        p.what = "send to rank " + std::to_string(peer);
        at::Tensor src = dense(in);
        std::vector<at::Tensor> ts{bytesOf(src)};
        p.work = c.pg->send(ts, static_cast<int>(peer), 0);
        p.finish = [src]() {};  // keeps the dense copy alive until sent
        return p;
    });
    DIOPI_IMPL_END
}

diopiError_t diopiCommRecv(diopiContextHandle_t ctx, diopiCommHandle_t comm, diopiTensorHandle_t out, int64_t peer) {
    DIOPI_IMPL_BEGIN
    diopiComm& c = check(comm);
    checkRank(peer, c, "peer");
    if (peer == c.rank) fail("peer is this rank");
    at::Tensor o = tensor(out, "out");
    checkMovable(o, "out");
    submit(c, [&c, o, peer]() {
        auto b = std::make_shared<Buffer>(o);
        Pending p;
        p.what = "receive from rank " + std::to_string(peer);
        std::vector<at::Tensor> ts{bytesOf(b->buf)};
        p.work = c.pg->recv(ts, static_cast<int>(peer), 0);
        p.finish = [b]() { b->copyBack(); };
        return p;
    });
    DIOPI_IMPL_END
}

diopiError_t diopiCommBarrier(diopiContextHandle_t ctx, diopiCommHandle_t comm) {
    DIOPI_IMPL_BEGIN
    diopiComm& c = check(comm);
    submit(c, [&c]() {
        Pending p;
        p.what = "barrier";
        c10d::BarrierOptions bo;
        bo.timeout = c.timeout;
        p.work = c.pg->barrier(bo);
        return p;
    });
    DIOPI_IMPL_END
}

diopiError_t diopiCommGroupStart(void) {
    DIOPI_IMPL_BEGIN
    ++tGroup.depth;
    DIOPI_IMPL_END
}

diopiError_t diopiCommGroupEnd(void) {
    DIOPI_IMPL_BEGIN
    if (tGroup.depth == 0) fail("no group is open (diopiCommGroupStart() first)");
    if (--tGroup.depth > 0) return;
    auto calls = std::move(tGroup.calls);
    tGroup.calls.clear();
    // Start everything, then wait for everything: sends and receives of the group cannot wait on each other.
    std::vector<Pending> started;
    std::string firstError;
    for (auto& start : calls) {
        try {
            started.push_back(start());
        } catch (const std::exception& e) {
            if (firstError.empty()) firstError = std::string("starting a grouped call failed: ") + e.what();
        }
    }
    for (auto& p : started) {
        try {
            finishOne(p);
        } catch (const std::exception& e) {
            if (firstError.empty()) firstError = e.what();
        }
    }
    if (!firstError.empty()) fail(firstError);
    DIOPI_IMPL_END
}

}  // extern "C"
