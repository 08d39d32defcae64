"""The last results of a reader's step, kept for the next reader that asks the same of one card."""
import contextlib
import functools
import threading
import weakref

_state = threading.local()  # per thread: how deep in `one_card`, and the memos to clear after

KEPT = 4  # results a step keeps: the readers turn from the card to the card painted over (where
          # another lies on it) or filled, and back


@contextlib.contextmanager
def one_card():
    """While one card is read by one reader after another: `last_result` steps remember their
    last calls. Only here: the readers draw on copies, never on the card or on what such a step
    returns, but a caller outside may draw on a card between two calls (a test hides a pinta)."""
    depth = getattr(_state, "depth", 0)
    _state.depth = depth + 1
    try:
        yield
    finally:
        _state.depth = depth
        if depth == 0:
            for kept in getattr(_state, "memo", {}).values():
                kept.clear()


def _kept(step) -> list:
    """``step``'s remembered calls in this thread, newest first: [(weak refs, result)]."""
    memo = _state.__dict__.setdefault("memo", {})
    kept = memo.get(step)
    if kept is None:
        kept = memo[step] = []
    return kept


def last_result(fn):
    """``fn`` (of arrays alone) remembering, within `one_card`, its last `KEPT` calls by the
    identity of their arguments (held by weak reference): the readers ask again for the same
    derived image of one card (its ink, its HSV, the card painted over where another lies on
    it)."""
    @functools.wraps(fn)
    def remembered(*arrays):
        if not getattr(_state, "depth", 0):
            return fn(*arrays)
        kept = _kept(remembered)
        result = _find(kept, arrays)
        if result is _NONE:
            result = fn(*arrays)
            _keep(kept, arrays, result)
        return result

    return remembered


_NONE = object()  # (nothing remembered)


def _find(kept: list, arrays: tuple):
    for refs, result in kept:
        if len(refs) == len(arrays) and all(r() is a for r, a in zip(refs, arrays)):
            return result
    return _NONE


def recalled(step, *arrays):
    """What a `last_result` ``step`` remembers for ``arrays``, or None."""
    if getattr(_state, "depth", 0):
        result = _find(_kept(step), arrays)
        if result is not _NONE:
            return result
    return None


def remember(step, result, *arrays) -> None:
    """Tell a `last_result` ``step`` its result for ``arrays``, made another way (the Lab of a
    card painted over, from the card's: the same numbers at a fraction of the time). Only
    within `one_card`; elsewhere the step makes it when asked."""
    if getattr(_state, "depth", 0):
        _keep(_kept(step), arrays, result)


def _keep(kept: list, arrays: tuple, result) -> None:
    kept.insert(0, (tuple(weakref.ref(a) for a in arrays), result))
    del kept[KEPT:]
