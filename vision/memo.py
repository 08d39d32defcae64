"""The last result of a reader's step, kept for the next reader that asks the same of one card."""
import contextlib
import functools
import threading
import weakref

_state = threading.local()  # per thread: how deep in `one_card`, and the slots to clear after


@contextlib.contextmanager
def one_card():
    """While one card is read by one reader after another: `last_result` steps remember their
    last call. Only here: the readers draw on copies, never on the card or on what such a step
    returns, but a caller outside may draw on a card between two calls (a test hides a pinta)."""
    depth = getattr(_state, "depth", 0)
    _state.depth = depth + 1
    try:
        yield
    finally:
        _state.depth = depth
        if depth == 0:
            for slot in getattr(_state, "slots", ()):
                slot[:] = [(), None]


def last_result(fn):
    """``fn`` (of arrays alone) remembering, within `one_card`, its last call by the identity of
    its arguments (held by weak reference): the readers ask again for the same derived image of
    one card (the card painted over where another lies on it, its ink, its hue classes)."""
    @functools.wraps(fn)
    def remembered(*arrays):
        if not getattr(_state, "depth", 0):
            return fn(*arrays)
        slot = _state.__dict__.setdefault("memo", {}).get(remembered)
        if slot is None:
            slot = _state.memo[remembered] = [(), None]
            _state.__dict__.setdefault("slots", []).append(slot)
        refs, result = slot
        if len(refs) == len(arrays) and all(r() is a for r, a in zip(refs, arrays)):
            return result
        result = fn(*arrays)
        slot[:] = [tuple(weakref.ref(a) for a in arrays), result]
        return result

    return remembered
