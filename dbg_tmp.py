import numpy as np
from tests.test_vision_identify import _scene
from vision import synth, identify
deck = synth.builtin(40)
t = identify.Templates.from_deck(deck)
fr = _scene(deck, ["3B", "7C", "11O", "5E", "1C", "12B"], backs=0)
for deg, sh in ((3,(5,-4)),):
    for i in range(6):
        truth = fr.truth[i].corners.astype(np.float64)
        c = truth.mean(axis=0)
        th = np.radians(deg)
        rot = np.array([[np.cos(th), -np.sin(th)], [np.sin(th), np.cos(th)]])
        off = ((truth - c) @ rot.T + c + sh).astype(np.float32)
        q = t.align(fr.image, off)
        a = t.identify_quad(fr.image, q, variants=False)
        b = t.identify_quad(fr.image, off, variants=False)
        tr = t.identify_quad(fr.image, truth.astype(np.float32), variants=False)
        print(fr.truth[i].code, "err %.1f -> %.1f"%(np.abs(off-truth).max(), np.abs(q-truth).max()), b.candidate, round(b.score,3), "->", a.candidate, round(a.score,3), round(a.confidence,2), "truth", tr.code, round(tr.score,3))
