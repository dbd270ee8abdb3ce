"""The suite's row for a model that cannot run keeps its first line in the
table; stderr also names the exception at the root of the chain, which a
wrapper's first line hides (torch.compile's BackendCompilerFailed reads only
"backend='diopi' raised:" and is raised `from None`)."""
import torch._dynamo.exc

from diopi_torch.suite.runner import root_cause


def _backend():
    raise AssertionError("context_fn must give TorchDispatchModes\nWhile executing %node")


def test_root_cause_of_a_backend_failure_raised_from_none():
    try:
        try:
            _backend()
        except AssertionError as inner:
            raise torch._dynamo.exc.BackendCompilerFailed(_backend, inner, None) from None
    except Exception as e:
        assert str(e).splitlines()[0] == "backend='_backend' raised:"
        cause = root_cause(e)
    assert cause.startswith("AssertionError: context_fn must give TorchDispatchModes ("), cause
    assert cause.endswith(f"{__file__}:{_backend.__code__.co_firstlineno + 1})"), cause


def test_root_cause_follows_cause_and_context_but_not_suppressed_context():
    try:
        try:
            raise KeyError("inner")
        except KeyError as k:
            raise RuntimeError("outer\nmore") from k
    except RuntimeError as e:
        assert root_cause(e).startswith("KeyError: 'inner' (")
    try:
        try:
            raise KeyError("hidden")
        except KeyError:
            raise ValueError("\n\nshown") from None
    except ValueError as e:
        assert root_cause(e).startswith("ValueError: shown (")
