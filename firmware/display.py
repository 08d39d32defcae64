"""The score display's state machine: bytes and time in, replies and what to show out.

Pure logic (no board imports) so the same code runs on the Pico, in the host's simulator and
under MicroPython's WebAssembly port in CI. Time is an always-increasing millisecond count that
the caller supplies; nothing here sleeps or reads a clock.
"""

try:
    from . import protocol  # imported as firmware.display on the host
except (ImportError, ValueError):
    import protocol  # flat on the board and under MicroPython

# colours are (r, g, b) at full scale; the strip driver applies the global brightness
SUIT_COLOURS = {"O": (255, 150, 0), "C": (255, 0, 0), "E": (0, 60, 255), "B": (0, 200, 0)}
OFF = (0, 0, 0)
TURN = (255, 255, 255)
SEAT_DIM = (10, 10, 10)
FLASH = (255, 200, 40)
IDLE = (0, 0, 60)
FLASH_MS = 1500

# TM1637 segment bits: a=0x01 b=0x02 c=0x04 d=0x08 e=0x10 f=0x20 g=0x40, dp=0x80
SEGMENTS = {"0": 0x3F, "1": 0x06, "2": 0x5B, "3": 0x4F, "4": 0x66, "5": 0x6D, "6": 0x7D,
            "7": 0x07, "8": 0x7F, "9": 0x6F, "-": 0x40, " ": 0x00, "A": 0x77, "E": 0x79}
CHARS = {}
for _k in SEGMENTS:
    CHARS[SEGMENTS[_k]] = _k
DP = 0x80


def seat_pixel(seat, seats, n_pixels):
    """Seats are spread evenly around the strip, seat 0 at pixel 0."""
    return (seat * n_pixels) // seats


def digits_for(hands, points):
    """Four TM1637 bytes: hands won in digit 1 (with its decimal point), points in digits 2-4."""
    text = "%d%3d" % (hands % 10, points % 1000)
    segs = [SEGMENTS[ch] for ch in text]
    segs[0] |= DP
    return segs


def segments_text(segs):
    """Back from segment bytes to text (for the terminal simulator and tests): [0x86,..] -> '1.034'."""
    out = ""
    for s in segs:
        out += CHARS.get(s & 0x7F, "?")
        if s & DP:
            out += "."
    return out


class Display:
    """Decodes host frames, keeps the last full state, and renders the strip and digits."""

    def __init__(self, n_pixels=16, n_displays=2, name="brisca-pico"):
        self.n_pixels = n_pixels
        self.n_displays = n_displays
        self.name = name
        self.reader = protocol.LineReader()
        self.state = None          # last accepted state dict, None before the first one
        self.last_rx = None        # ms of the last valid frame
        self.flash_start = None
        self.frames = 0
        self.errors = 0
        self.last_error = ""

    def boot(self, now):
        """The unsolicited READY sent at power-up so a listening host resends the state."""
        return protocol.encode(protocol.READY, 0, "%d,%s" % (protocol.VERSION, self.name))

    def feed(self, data, now):
        """Bytes from the host -> reply bytes (ACK/NAK/READY frames, concatenated)."""
        out = b""
        for item in self.reader.feed(data):
            if isinstance(item, protocol.ProtocolError):
                out += self._nak(item)
                continue
            try:
                ftype, seq, payload = protocol.decode(item)
            except protocol.ProtocolError as e:
                out += self._nak(e)
                continue
            out += self._handle(ftype, seq, payload, now)
        return out

    def _nak(self, err):
        self.errors += 1
        self.last_error = err.reason
        return protocol.encode(protocol.NAK, err.seq, err.reason)

    def _handle(self, ftype, seq, payload, now):
        if ftype == protocol.HELLO:
            self.last_rx = now
            self.frames += 1
            return protocol.encode(protocol.READY, seq, "%d,%s" % (protocol.VERSION, self.name))
        if ftype == protocol.HB:
            self.last_rx = now
            self.frames += 1
            return protocol.encode(protocol.ACK, seq, "")
        if ftype == protocol.STATE:
            try:
                st = protocol.decode_state(payload)
            except protocol.ProtocolError as e:
                e.seq = seq
                return self._nak(e)
            self._apply(st, now)
            self.last_rx = now
            self.frames += 1
            return protocol.encode(protocol.ACK, seq, "")
        # READY/ACK/NAK travel the other way: an echo, not worth a reply
        return b""

    def _apply(self, st, now):
        old = self.state
        if (old is not None and st["winner"] is not None
                and (st["winner"], st["tricks"]) != (old["winner"], old["tricks"])):
            self.flash_start = now
        self.state = st

    def idle(self, now):
        return self.last_rx is None or now - self.last_rx > protocol.SILENCE_MS

    def pixels(self, now):
        """The strip colours, a list of (r, g, b)."""
        n = self.n_pixels
        if self.idle(now) or self.state is None:
            px = [OFF] * n
            px[(now // 120) % n] = IDLE
            return px
        st = self.state
        base = SUIT_COLOURS.get(st["trump"], OFF)
        if st["alert"]:
            phase = now % 1000
            level = phase if phase < 500 else 1000 - phase
            base = (255 * level // 500, 0, 0)
        px = [base] * n
        seats = st["seats"]
        for s in range(seats):
            px[seat_pixel(s, seats, n)] = TURN if s == st["turn"] else SEAT_DIM
        if self.flash_start is not None and st["winner"] is not None:
            t = now - self.flash_start
            if t < FLASH_MS:
                if (t // 125) % 2 == 0:
                    p = seat_pixel(st["winner"], seats, n)
                    for q in (p - 1, p, p + 1):
                        px[q % n] = FLASH
            else:
                self.flash_start = None
        return px

    def digits(self, now):
        """One list of four TM1637 segment bytes per side display."""
        out = []
        for side in range(self.n_displays):
            if self.idle(now) or self.state is None:
                out.append([SEGMENTS["-"]] * 4)
                continue
            pts = self.state["points"]
            hands = self.state["hands"]
            if side >= len(pts):
                out.append([0, 0, 0, 0])
            else:
                out.append(digits_for(hands[side] if side < len(hands) else 0, pts[side]))
        return out
