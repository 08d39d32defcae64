"""Serial protocol between the table host and the Pico score display (see PROTOCOL.md).

Shared verbatim by the host (CPython) and the firmware (MicroPython), so it sticks to the
MicroPython subset: no dataclasses, no typing, no I/O, only bytes/str/int/list/dict.

A frame is one ASCII line:  ``$TYPE,SEQ,PAYLOAD*CRC\\n``  where CRC is CRC-16/CCITT-FALSE of the
bytes between ``$`` and ``*`` as four upper-case hex digits. Replies echo the SEQ they answer.
"""

VERSION = 1            # bump on any incompatible change; READY carries it
MAX_LINE = 160         # longer lines are garbage by definition (a state frame is < 80 bytes)
HEARTBEAT_MS = 1000    # host sends HB at least this often when idle
SILENCE_MS = 3000      # firmware shows the idle pattern after this much silence

# frame types
HELLO = "HELLO"   # host -> fw, payload: host protocol version
READY = "READY"   # fw -> host, payload: "version,name"
STATE = "S"       # host -> fw, payload: full state (see encode_state)
HB = "HB"         # host -> fw, heartbeat, empty payload
ACK = "ACK"       # fw -> host, echoes the SEQ accepted
NAK = "NAK"       # fw -> host, payload: reason; SEQ echoed when it could be read, else 0

TYPES = (HELLO, READY, STATE, HB, ACK, NAK)
SUITS = "OCEB"     # oros, copas, espadas, bastos
MAX_SEATS = 5
MAX_SIDES = 5


class ProtocolError(ValueError):
    """A line that is not a valid frame; ``reason`` is the short code sent back in a NAK."""

    def __init__(self, reason, seq=0, detail=""):
        super().__init__(reason + (": " + detail if detail else ""))
        self.reason = reason
        self.seq = seq


def crc16(data, crc=0xFFFF):
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF); crc16(b"123456789") == 0x29B1."""
    for b in data:
        crc ^= b << 8
        for _ in range(8):
            if crc & 0x8000:
                crc = ((crc << 1) ^ 0x1021) & 0xFFFF
            else:
                crc = (crc << 1) & 0xFFFF
    return crc


def encode(ftype, seq, payload=""):
    """One frame as bytes, newline included."""
    body = "%s,%d,%s" % (ftype, seq, payload)
    b = body.encode()
    return b"$" + b + b"*" + ("%04X" % crc16(b)).encode() + b"\n"


def _printable(b):
    for c in b:
        if c < 0x20 or c > 0x7E:
            return False
    return True


def decode(line):
    """Parse one line (bytes, without the newline) into (type, seq, payload) or raise ProtocolError."""
    line = line.rstrip(b"\r")
    if not line.startswith(b"$"):
        raise ProtocolError("NOSTART")
    if len(line) > MAX_LINE:
        raise ProtocolError("LONG")
    if not _printable(line):
        raise ProtocolError("BYTES")
    star = line.rfind(b"*")
    if star < 0 or len(line) - star != 5:
        raise ProtocolError("NOCRC")
    body = line[1:star]
    try:
        want = int(line[star + 1:].decode(), 16)
    except ValueError:
        raise ProtocolError("NOCRC")
    if crc16(body) != want:
        raise ProtocolError("CRC")
    parts = body.decode().split(",", 2)
    if len(parts) != 3:
        raise ProtocolError("FIELDS")
    try:
        seq = int(parts[1])
    except ValueError:
        raise ProtocolError("SEQ")
    if parts[0] not in TYPES:
        raise ProtocolError("TYPE", seq, parts[0])
    return parts[0], seq, parts[2]


class LineReader:
    """Splits a byte stream into lines, resynchronising on ``$`` so a truncated frame costs
    only itself. ``feed`` returns a list of items: bytes lines, or ProtocolError for junk."""

    def __init__(self, max_line=MAX_LINE):
        self.buf = bytearray()
        self.max_line = max_line
        self.discarding = False

    def feed(self, data):
        out = []
        for c in data:
            if c == 0x0A:  # newline
                if self.discarding:
                    out.append(ProtocolError("LONG"))
                elif len(self.buf):
                    if self.buf[0] == 0x24:
                        out.append(bytes(self.buf))
                    elif bytes(self.buf).strip():
                        out.append(ProtocolError("NOSTART"))
                self.buf = bytearray()
                self.discarding = False
            elif c == 0x24:  # '$' starts a frame: anything before it was a broken frame
                if self.discarding or (len(self.buf) and bytes(self.buf).strip()):
                    out.append(ProtocolError("TRUNC"))
                self.buf = bytearray(b"$")
                self.discarding = False
            elif not self.discarding:
                self.buf.append(c)
                if len(self.buf) > self.max_line:
                    self.buf = bytearray()
                    self.discarding = True
        return out


def _ints(text, limit):
    if text == "" or text == "-":
        return []
    vals = [int(v) for v in text.split("/")]
    if len(vals) > limit:
        raise ValueError("too many values")
    for v in vals:
        if v < 0 or v > 999:
            raise ValueError("out of range")
    return vals


def _opt_seat(text):
    if text == "-" or text == "":
        return None
    v = int(text)
    if v < 0 or v >= MAX_SEATS:
        raise ValueError("seat out of range")
    return v


def new_state():
    """The blank state: a dict, because MicroPython has no dataclasses."""
    return {"trump": None, "seats": 4, "turn": None, "points": [], "hands": [],
            "winner": None, "tricks": 0, "alert": False}


def encode_state(st):
    """State dict -> payload text. Keys in a fixed order so equal states give equal frames."""
    def seat(v):
        return "-" if v is None else str(v)
    return "T=%s;N=%d;U=%s;P=%s;H=%s;W=%s;K=%d;A=%d" % (
        st.get("trump") or "-", st.get("seats", 4), seat(st.get("turn")),
        "/".join([str(v) for v in st.get("points", [])]) or "-",
        "/".join([str(v) for v in st.get("hands", [])]) or "-",
        seat(st.get("winner")), st.get("tricks", 0), 1 if st.get("alert") else 0)


def decode_state(payload):
    """Payload text -> state dict; raises ProtocolError("STATE") on anything odd.
    Unknown keys are ignored so a newer host can add fields within the same version."""
    st = new_state()
    try:
        for item in payload.split(";"):
            if not item:
                continue
            k, v = item.split("=", 1)
            if k == "T":
                if v == "-":
                    st["trump"] = None
                elif len(v) == 1 and v in SUITS:
                    st["trump"] = v
                else:
                    raise ValueError("suit")
            elif k == "N":
                n = int(v)
                if n < 1 or n > MAX_SEATS:
                    raise ValueError("seats")
                st["seats"] = n
            elif k == "U":
                st["turn"] = _opt_seat(v)
            elif k == "P":
                st["points"] = _ints(v, MAX_SIDES)
            elif k == "H":
                st["hands"] = _ints(v, MAX_SIDES)
            elif k == "W":
                st["winner"] = _opt_seat(v)
            elif k == "K":
                st["tricks"] = int(v)
            elif k == "A":
                st["alert"] = v == "1"
    except ValueError as e:
        raise ProtocolError("STATE", 0, str(e))
    return st
