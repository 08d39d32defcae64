"""Service configuration: embedded defaults, a TOML file over them, flags over both.

Every key and its default is in :data:`DEFAULTS` (and documented in docs/config.md). A file with an
unknown key or a value of the wrong type is refused with a message naming the key.
"""
from __future__ import annotations

import copy
import os
from pathlib import Path
from typing import Any, Dict, Optional

DEFAULTS: Dict[str, Dict[str, Any]] = {
    "table": {
        "rules": "classic-2",          # a preset name (see `brisca-table rules`)
        "seats": ["Ana", "Robot"],     # names in playing order
        "robot_seat": 1,               # the seat the robot plays, or -1 for none
        "first_dealer": 0,
        "auto_new_match": True,        # start the next match when one ends (the demo loops)
    },
    "camera": {
        "source": "sim",               # "sim", "picamera", "usb:0", a video file or a folder of frames
        "fps": 10.0,
        "deck": "",                    # an enrolled deck folder; "" = data_dir/deck, or the built-in deck's
                                       # templates for the simulator's built-in deck, or else the
                                       # deck-agnostic reader, learning the deck (`vision.learn`)
        "zones": "",                   # a zones file (brisca-zones/1); "" = data_dir/zones.json or the default layout
        "calibration": "",             # a calibration file; "" = from the ArUco corner markers in the picture
    },
    "sim": {
        "seed": 1,
        "deck": "",                    # card images to render; "" = the built-in deck
        "mode": "pixels",              # "pixels": render and read every frame; "truth": skip vision
        "realtime": True,              # pace frames at camera.fps (off: as fast as possible)
        "hands": 0,                    # stop once the match holds this many finished hands (0 = loop)
    },
    "robot": {
        "player": "robot",             # "robot", "greedy" or "random"
        "budget_ms": 300,              # search work per decision (the same move on any machine)
        "max_ms": 1500,                # wall-clock safety cap per decision on a slow Pi (0 = none)
        "seed": 0,
        "lang": "es",
    },
    "display": {
        "port": "sim",                 # "sim" (firmware simulator on a pty), "auto" (find the Pico), a path, "off"
    },
    "gpio": {
        "pin_factory": "mock",         # "mock" off the Pi; "" lets gpiozero choose (on the Pi)
        "pins": "",                    # a pins TOML/JSON file; "" = the defaults in hardware.md
    },
    "voice": {
        "engine": "espeak",            # "espeak" (silent when espeak-ng is missing) or "silent"
        "lang": "es",
    },
    "web": {
        "host": "127.0.0.1",
        "port": 8080,
        "enabled": True,
    },
    "store": {
        "data_dir": "data",            # relative to the working directory
        "frames_max_mb": 500,
        "frames_max_days": 30,
        "min_free_mb": 50,
    },
}


class ConfigError(ValueError):
    """A config file or flag with an unknown key or a bad value; the message names the key."""


def load(path: Optional[str] = None, overrides: Optional[Dict[str, Any]] = None) -> Dict[str, Dict[str, Any]]:
    """Defaults, then the TOML file (if any), then ``{"section.key": value}`` overrides."""
    import tomllib

    cfg = copy.deepcopy(DEFAULTS)
    if path:
        try:
            with open(path, "rb") as f:
                data = tomllib.load(f)
        except OSError as e:
            raise ConfigError(f"{path}: {e.strerror}") from None
        except tomllib.TOMLDecodeError as e:
            raise ConfigError(f"{path}: not valid TOML ({e})") from None
        for section, values in data.items():
            if section not in cfg:
                raise ConfigError(f"{path}: unknown section [{section}] (known: {', '.join(cfg)})")
            if not isinstance(values, dict):
                raise ConfigError(f"{path}: {section} must be a table")
            for key, value in values.items():
                _set(cfg, section, key, value, path)
    for dotted, value in (overrides or {}).items():
        section, _, key = dotted.partition(".")
        if section not in cfg:
            raise ConfigError(f"unknown setting {dotted!r}")
        _set(cfg, section, key, value, "flag")
    _check(cfg)
    return cfg


def _set(cfg, section, key, value, where) -> None:
    if key not in cfg[section]:
        raise ConfigError(f"{where}: unknown key {section}.{key} (known: {', '.join(cfg[section])})")
    default = cfg[section][key]
    if isinstance(default, bool):
        ok = isinstance(value, bool)
    elif isinstance(default, float):
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
        value = float(value) if ok else value
    elif isinstance(default, int):
        ok = isinstance(value, int) and not isinstance(value, bool)
    else:
        ok = isinstance(value, type(default))
    if not ok:
        raise ConfigError(f"{where}: {section}.{key} must be a {type(default).__name__}, not {value!r}")
    cfg[section][key] = value


def _check(cfg) -> None:
    from table.rules import Rules, RulesError

    t = cfg["table"]
    try:
        rules = Rules.parse(t["rules"])
    except RulesError as e:
        raise ConfigError(f"table.rules: {e}") from None
    if len(t["seats"]) != rules.players:
        raise ConfigError(f"table.seats: {rules.preset} needs {rules.players} names, not {len(t['seats'])}")
    if not -1 <= t["robot_seat"] < rules.players:
        raise ConfigError(f"table.robot_seat: must be -1 (none) or a seat 0..{rules.players - 1}")
    if not 0 <= t["first_dealer"] < rules.players:
        raise ConfigError(f"table.first_dealer: must be a seat 0..{rules.players - 1}")
    if cfg["sim"]["mode"] not in ("pixels", "truth"):
        raise ConfigError("sim.mode: must be \"pixels\" or \"truth\"")
    if cfg["robot"]["player"] not in ("robot", "greedy", "random"):
        raise ConfigError("robot.player: must be \"robot\", \"greedy\" or \"random\"")
    if not 0 < cfg["web"]["port"] < 65536:
        raise ConfigError("web.port: must be 1..65535")


def data_dir(cfg) -> Path:
    return Path(os.path.expanduser(cfg["store"]["data_dir"]))
