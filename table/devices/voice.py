"""Speech: a Speaker interface with an espeak-ng backend and a silent one.

``say()`` only queues: a worker thread runs espeak-ng, so the game loop never waits for audio.
A backlog is useless at a card table (the moment has passed), so when more than ``max_pending``
phrases wait, the oldest is dropped. ``repeat_last()`` serves the "repeat" button.
"""
from __future__ import annotations

import logging
import os
import queue
import shutil
import subprocess
import threading
from typing import List, Optional

log = logging.getLogger(__name__)

VOICES = {"es": "es", "en": "en"}


class SpeechError(RuntimeError):
    """espeak-ng missing or failed; the message says which and how to fix it."""


class Speaker:
    """What the service calls. Implementations never block the caller in ``say``."""

    lang = "es"

    def __init__(self):
        self.last: Optional[str] = None
        self.spoken: List[str] = []

    def say(self, text: str) -> None:
        raise NotImplementedError

    def repeat_last(self) -> None:
        if self.last:
            self.say(self.last)

    def wait_idle(self, timeout: Optional[float] = None) -> bool:
        return True

    def close(self) -> None:
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class SilentSpeaker(Speaker):
    """Says nothing, logs and remembers what it would have said (tests, demo, quiet bars)."""

    def __init__(self, lang: str = "es"):
        super().__init__()
        self.lang = lang

    def say(self, text: str) -> None:
        self.last = text
        self.spoken.append(text)
        log.info("say: %s", text)


def render_wav(text: str, path: str, voice: str = "es", rate: int = 150,
               exe: str = "espeak-ng", timeout: float = 30.0) -> str:
    """Synthesize ``text`` into a WAV file with espeak-ng (synchronous; for tests and caching)."""
    if shutil.which(exe) is None:
        raise SpeechError(f"{exe} not found: apt-get install espeak-ng")
    r = subprocess.run([exe, "-v", VOICES.get(voice, voice), "-s", str(rate), "-w", path, "--stdin"],
                       input=text.encode(), capture_output=True, timeout=timeout)
    if r.returncode != 0 or not os.path.exists(path):
        raise SpeechError(f"{exe} failed ({r.returncode}): {r.stderr.decode(errors='replace').strip()}")
    return path


class EspeakSpeaker(Speaker):
    """espeak-ng in a worker thread. ``out_dir`` writes numbered WAV files instead of playing
    (no sound card needed: tests, recording the demo)."""

    def __init__(self, lang: str = "es", rate: int = 150, exe: str = "espeak-ng",
                 out_dir: Optional[str] = None, max_pending: int = 4, timeout: float = 30.0):
        super().__init__()
        if shutil.which(exe) is None:
            raise SpeechError(f"{exe} not found: apt-get install espeak-ng (or use SilentSpeaker)")
        self.lang = "en" if lang.startswith("en") else "es"
        self.rate = rate
        self.exe = exe
        self.out_dir = out_dir
        self.max_pending = max_pending
        self.timeout = timeout
        self.dropped = 0
        self.errors = 0
        self.last_error = ""
        self.files: List[str] = []
        self._q: "queue.Queue[Optional[str]]" = queue.Queue()
        self._lock = threading.Lock()
        self._n = 0
        self._thread = threading.Thread(target=self._work, name="speech", daemon=True)
        self._thread.start()

    def say(self, text: str) -> None:
        self.last = text
        with self._lock:
            while self._q.qsize() >= self.max_pending:
                try:
                    self._q.get_nowait()
                    self._q.task_done()
                    self.dropped += 1
                except queue.Empty:
                    break
            self._q.put(text)

    def _command(self, path: Optional[str]) -> list:
        cmd = [self.exe, "-v", VOICES[self.lang], "-s", str(self.rate)]
        if path:
            cmd += ["-w", path]
        return cmd + ["--stdin"]

    def _work(self) -> None:
        while True:
            text = self._q.get()
            try:
                if text is None:
                    return
                path = None
                if self.out_dir:
                    self._n += 1
                    path = os.path.join(self.out_dir, f"say-{self._n:04d}.wav")
                r = subprocess.run(self._command(path), input=text.encode(), capture_output=True,
                                   timeout=self.timeout)
                if r.returncode != 0:
                    raise SpeechError(r.stderr.decode(errors="replace").strip() or f"exit {r.returncode}")
                self.spoken.append(text)
                if path:
                    self.files.append(path)
            except (OSError, subprocess.SubprocessError, SpeechError) as e:
                self.errors += 1
                self.last_error = f"{text!r}: {e}"
                log.warning("speech failed: %s", self.last_error)
            finally:
                self._q.task_done()

    def wait_idle(self, timeout: Optional[float] = None) -> bool:
        """Until everything queued has been spoken (tests; the service never needs this)."""
        done = threading.Event()

        def waiter():
            self._q.join()
            done.set()
        threading.Thread(target=waiter, daemon=True).start()
        return done.wait(timeout)

    def close(self) -> None:
        self._q.put(None)
        self._thread.join(self.timeout)


def make_speaker(kind: str = "espeak", lang: str = "es", **kw) -> Speaker:
    """The service's factory: espeak-ng when asked and installed, else silent (with a warning)."""
    if kind == "silent":
        return SilentSpeaker(lang)
    try:
        return EspeakSpeaker(lang, **kw)
    except SpeechError as e:
        log.warning("%s; speaking silently", e)
        return SilentSpeaker(lang)
