"""The inside of scripts/reliability/dbus-fuzz: runs within routekit-sandbox (PULSE_SERVER set,
demo devices plugged) and a private session bus (dbus-run-session).

Starts `routectl daemon --callaudio`, reads the introspection data of every object it exports
(the tree from /), and calls every method of its own interfaces (RouteKit1, CallAudio) and of
org.freedesktop.DBus.Properties on their objects wrongly, by construction from each method's
signature, never from a list of methods: wrong arity, each argument of every other type,
strings empty, of 1 MiB and 16 MiB and with control characters, arrays of 100 000 elements,
integers at their extremes, strings that are well typed but mean nothing; and Set on every
property, with a value of every type. After each call it checks the answer (a D-Bus error that
names what was wrong, with nothing raw in it, or a success the documentation promises), its
time, that the daemon lives and answers Status within 50 ms, and that the server's defaults and
the daemon's properties and state file are as they were. Prints every failure, one line a
method, and `N passed, M failed` (calls); exits 1 if any check failed.
Usage: dbus_fuzz.py pulseaudio|pipewire   (ROUTEKIT_BIN names the folder of routectl)
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
import xml.etree.ElementTree as ElementTree

import dbus

KIND = sys.argv[1]
ROUTECTL = os.path.join(os.environ["ROUTEKIT_BIN"], "routectl")
ROUTEKIT = "io.github.routekit.RouteKit1"
CALLAUDIO = "org.mobian_project.CallAudio"
PROPERTIES = "org.freedesktop.DBus.Properties"
STANDARD = (PROPERTIES, "org.freedesktop.DBus.Introspectable", "org.freedesktop.DBus.Peer")
MIB = 1 << 20
CALL_LIMIT = 2.0        # seconds an answer may take
STATUS_LIMIT = 0.050    # seconds Status may take after each call
GIVE_UP = 25            # the client's own timeout: past it python-dbus says NoReply

# Errors that mean the daemon did not answer: never acceptable.
NO_ANSWER = {"org.freedesktop.DBus.Error.NoReply", "org.freedesktop.DBus.Error.Timeout",
             "org.freedesktop.DBus.Error.TimedOut", "org.freedesktop.DBus.Error.Disconnected",
             "org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner"}
# C0 controls (the line break too), DEL, C1 controls, and the bidirectional controls that reorder
# what a person reads (U+202A-U+202E, U+2066-U+2069): none may come back raw in an error.
RAW = re.compile("[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")

# Successes the documentation promises for calls that are well typed: (interface, method) ->
# (where it is promised, the call that undoes it or None, what must hold once it is done, given
# the arguments and the snapshot after it). Any other success is a failure.
DOCUMENTED = {
    (ROUTEKIT, "SetPreferences"): ("Docs/DBus.md: each entry a kind or a device id (a device need not be present)",
                                   ("ClearPreferences", "", []),
                                   lambda arguments, after: [str(p) for p in after[ROUTEKIT]["Preferences"]]
                                   == [str(e).strip() for e in arguments[0]]),
    (CALLAUDIO, "SelectMode"): ("Docs/DBus.md: 0 (default) unmutes the microphone, then EndCall", None, None),
    (PROPERTIES, "Get"): ("the D-Bus specification: an empty interface name reads any interface", None, None),
    (PROPERTIES, "GetAll"): ("the D-Bus specification: an empty interface name reads any interface", None, None),
}

# The basic types, with a value of each that looks right (so that a daemon that read it anyway
# would act on it) and the extremes of each integer.
TYPES = ["y", "b", "n", "q", "i", "u", "x", "t", "d", "s", "o", "g", "as", "a{sv}", "v"]
EXTREMES = {"y": (0, 255), "n": (-(1 << 15), (1 << 15) - 1), "q": (0, (1 << 16) - 1),
            "i": (-(1 << 31), (1 << 31) - 1), "u": (0, (1 << 32) - 1), "x": (-(1 << 63), (1 << 63) - 1),
            "t": (0, (1 << 64) - 1)}
DBUS_TYPE = {"y": dbus.Byte, "b": dbus.Boolean, "n": dbus.Int16, "q": dbus.UInt16, "i": dbus.Int32,
             "u": dbus.UInt32, "x": dbus.Int64, "t": dbus.UInt64, "d": dbus.Double, "s": dbus.String,
             "o": dbus.ObjectPath, "g": dbus.Signature}
INVALID = "bad\x1b[31m\x01\r\n\x7f\u009b2J\u202etxt"
NONSENSE = {"a kind that does not exist": "subwoofer",
            "a device id that does not exist": "alsa_output.no_such_device.analog-stereo",
            "../../etc": "../../etc",
            "a 4096-character name": "n" * 4096}


def plausible(signature):
    """A value of `signature` that looks right: wrong only where it is put."""
    special = {"b": dbus.Boolean(True), "d": dbus.Double(1.0), "s": dbus.String("speakerphone"),
               "o": dbus.ObjectPath("/io/github/routekit/RouteKit1"), "g": dbus.Signature("s")}
    if signature in DBUS_TYPE:
        return special[signature] if signature in special else DBUS_TYPE[signature](1)
    if signature == "v":
        return dbus.String("speakerphone", variant_level=1)
    if signature.startswith("a{"):
        key, value = split(signature[2:-1])
        return dbus.Dictionary({plausible(key): plausible(value)}, signature=key + value)
    if signature.startswith("a"):
        return dbus.Array([plausible(signature[1:])], signature=signature[1:])
    raise SystemExit(f"dbus_fuzz: no value for type {signature}")


def empty_of(signature):
    """The empty value of `signature`: the other arguments of a call whose wrong one is well typed."""
    special = {"b": dbus.Boolean(False), "d": dbus.Double(0.0), "s": dbus.String(""),
               "o": dbus.ObjectPath("/"), "g": dbus.Signature("")}
    if signature in DBUS_TYPE:
        return special[signature] if signature in special else DBUS_TYPE[signature](0)
    if signature == "v":
        return dbus.String("", variant_level=1)
    if signature.startswith("a{"):
        return dbus.Dictionary({}, signature=signature[2:-1])
    return dbus.Array([], signature=signature[1:])


def wrong_value(signature, expected):
    """A value of type `signature`, put where `expected` belongs: a variant holds a value of
    the type expected (python-dbus wraps a value given for `v` in one variant)."""
    return plausible(expected) if signature == "v" else plausible(signature)


def split(signature):
    """A signature's complete types, in order."""
    types, at = [], 0
    while at < len(signature):
        end = at
        while signature[end] == "a":
            end += 1
        if signature[end] in "({":
            depth, end = 0, end
            while True:
                depth += signature[end] in "({"
                depth -= signature[end] in ")}"
                end += 1
                if depth == 0:
                    break
        else:
            end += 1
        types.append(signature[at:end])
        at = end
    return types


def size_values(signature):
    """Well-typed values of `signature` that are too big, at an extreme, or mean nothing:
    (category, what, value). Categories: `size` and `invalid` are wrong by construction;
    `extreme` and `nonsense` may meet a documented success."""
    if signature == "s":
        yield "nonsense", "an empty string", dbus.String("")
        yield "size", "a 1 MiB string", dbus.String("x" * MIB)
        yield "size", "a 16 MiB string", dbus.String("x" * (16 * MIB))
        yield "invalid", "a string with control characters and U+202E", dbus.String(INVALID)
        for what, text in NONSENSE.items():
            yield "nonsense", what, dbus.String(text)
    elif signature in EXTREMES:
        for extreme in EXTREMES[signature]:
            yield "extreme", f"{signature} {extreme}", DBUS_TYPE[signature](extreme)
    elif signature == "d":
        for extreme in (float("nan"), float("inf"), -float("inf"), 1.7976931348623157e308):
            yield "extreme", f"d {extreme}", dbus.Double(extreme)
    elif signature.startswith("a") and not signature.startswith("a{"):
        element = signature[1:]
        yield "size", "100 000 elements", dbus.Array([plausible(element)] * 100000, signature=element)
        for category, what, value in size_values(element):
            yield category, f"one element, {what}", dbus.Array([value], signature=element)
    elif signature.startswith("a{"):
        key, value = split(signature[2:-1])
        entries = {empty_of(key) if key != "s" else dbus.String(f"k{n}"): plausible(value) for n in range(100000)}
        yield "size", "100 000 entries", dbus.Dictionary(entries, signature=key + value)
    # b has no value that is wrong; v is Set's value, called with every type below.


class Daemon:
    """`routectl daemon --callaudio` on the session bus, its log read by a thread."""

    def __init__(self):
        self.work = tempfile.mkdtemp(prefix="dbus-fuzz.")
        environment = dict(os.environ, XDG_CONFIG_HOME=f"{self.work}/config", XDG_STATE_HOME=f"{self.work}/state")
        self.process = subprocess.Popen([ROUTECTL, "daemon", "--prefer", "bluetooth", "--prefer", "speakerphone",
                                         "--callaudio"], env=environment, stderr=subprocess.PIPE)
        self.lines = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.process.stderr:
            self.lines.append(line)

    def wait_until_serving(self):
        for _ in range(300):
            text = b"".join(self.lines)
            if b"dbus: serving" in text and b"route: " in text:
                return
            if self.process.poll() is not None:
                break
            time.sleep(0.1)
        raise SystemExit(f"dbus_fuzz: the daemon did not serve the API: {b''.join(self.lines)[-2000:]!r}")

    def state_file(self):
        """The state file's contents; none is the same as one that keeps nothing."""
        try:
            with open(f"{self.work}/state/routekit/state.json", "rb") as file:
                kept = json.load(file)
        except FileNotFoundError:
            kept = {}
        kept.pop("version", None)
        return kept


bus = dbus.SessionBus()
daemon = Daemon()
failures = []


def fail(what):
    failures.append(what)
    print(f"  FAIL {what}", flush=True)


def shown(value, limit=60):
    text = repr(value) if not isinstance(value, str) else repr(str(value))
    return text if len(text) <= limit else f"{text[:limit]}... ({len(value)} long)"


def call(destination, path, interface, member, signature, arguments, timeout=GIVE_UP):
    """(reply or None, (error name, message) or None, seconds)."""
    start = time.monotonic()
    try:
        reply = bus.call_blocking(destination, path, interface, member, signature, arguments, timeout=timeout)
        return reply, None, time.monotonic() - start
    except dbus.DBusException as error:
        return None, (error.get_dbus_name() or "", error.get_dbus_message() or ""), time.monotonic() - start


def snapshot():
    """What must not change: the server's defaults, the daemon's properties (both interfaces),
    its Status, and its state file. Returns (snapshot, Status's time in seconds)."""
    status, error, took = call(ROUTEKIT, "/io/github/routekit/RouteKit1", ROUTEKIT, "Status", "", [], timeout=5)
    properties = {}
    for interface, path in ((ROUTEKIT, "/io/github/routekit/RouteKit1"), (CALLAUDIO, "/org/mobian_project/CallAudio")):
        values, _, _ = call(interface, path, PROPERTIES, "GetAll", "s", [interface], timeout=5)
        properties[interface] = {str(k): v for k, v in (values or {}).items()}
    defaults = [subprocess.run(["pactl", which], capture_output=True, text=True).stdout.strip()
                for which in ("get-default-sink", "get-default-source")]
    return {"server defaults": defaults, "Status": dict(status or {"error": error}), **properties,
            "state file": daemon.state_file()}, took


def difference(before, after):
    changed = []
    for part in before:
        if isinstance(before[part], dict):
            for key in sorted(set(before[part]) | set(after[part])):
                if before[part].get(key) != after[part].get(key):
                    changed.append(f"{part} {key}: {shown(before[part].get(key))} -> {shown(after[part].get(key))}")
        elif before[part] != after[part]:
            changed.append(f"{part}: {shown(before[part])} -> {shown(after[part])}")
    return changed


# The objects and their interfaces, from the introspection data, walking the tree from /.
def walk(path, found):
    xml, error, _ = call(ROUTEKIT, path, "org.freedesktop.DBus.Introspectable", "Introspect", "", [])
    if error:
        raise SystemExit(f"dbus_fuzz: Introspect {path}: {error}")
    node = ElementTree.fromstring(str(xml))
    interfaces = {}
    for interface in node.findall("interface"):
        methods = {m.get("name"): ([a.get("type") for a in m.findall("arg") if a.get("direction", "in") == "in"],
                                   [a.get("type") for a in m.findall("arg") if a.get("direction") == "out"])
                   for m in interface.findall("method")}
        for m in interface.findall("method"):
            names_of[(path, interface.get("name"), m.get("name"))] = [
                a.get("name") or "" for a in m.findall("arg") if a.get("direction", "in") == "in"]
        properties = {p.get("name"): (p.get("type"), p.get("access")) for p in interface.findall("property")}
        interfaces[interface.get("name")] = (methods, properties)
    found[path] = interfaces
    for child in node.findall("node"):
        walk(path.rstrip("/") + "/" + child.get("name"), found)
    return found


daemon.wait_until_serving()
owners = {name: str(bus.get_name_owner(name)) for name in (ROUTEKIT, CALLAUDIO)}
if len(set(owners.values())) != 1:
    raise SystemExit(f"dbus_fuzz: the two names have different owners: {owners}")
names_of = {}   # (path, interface, method) -> the names of its in arguments
tree = walk("/", {})
# The daemon's own interfaces, and org.freedesktop.DBus.Properties on the objects that carry them
# (Peer and Introspectable are sd-bus's, and change nothing).
targets = []   # (destination, path, interface, member, in types, out types)
properties = []  # (destination, path, interface, property, type, access)
for path, interfaces in tree.items():
    own = [name for name in interfaces if name not in STANDARD]
    if not own:
        continue
    destination = CALLAUDIO if CALLAUDIO in own else ROUTEKIT
    for interface in own + [PROPERTIES]:
        methods, declared = interfaces[interface]
        for member, (ins, outs) in methods.items():
            targets.append((destination, path, interface, member, ins, outs))
        for name, (signature, access) in declared.items():
            properties.append((destination, path, interface, name, signature, access))
print(f"dbus fuzz on {KIND}: daemon pid {daemon.process.pid}, objects "
      f"{', '.join(p for p, i in tree.items() if any(n not in STANDARD for n in i))} "
      f"(of {len(tree)} in the tree); {len(targets)} methods, {len(properties)} properties", flush=True)

# Settle: the same snapshot twice, half a second apart.
initial, _ = snapshot()
for _ in range(20):
    time.sleep(0.5)
    again, _ = snapshot()
    if not difference(initial, again):
        break
    initial = again
print(f"  at rest: defaults {initial['server defaults']}, route {initial[ROUTEKIT].get('Route')}, "
      f"preferences {list(map(str, initial[ROUTEKIT].get('Preferences', [])))}", flush=True)

results = {}     # method key -> {"calls", "errors": {name: count}, "successes", "slowest": (s, what)}
slowest_status = [0.0, ""]
count = 0
state = initial


def record(key, error, took, what):
    entry = results.setdefault(key, {"calls": 0, "errors": {}, "successes": 0, "slowest": (0.0, ""), "failed": 0})
    entry["calls"] += 1
    if error:
        entry["errors"][error[0]] = entry["errors"].get(error[0], 0) + 1
    else:
        entry["successes"] += 1
    if took > entry["slowest"][0]:
        entry["slowest"] = (took, what)
    return entry


def attempt(key, category, what, target, signature, arguments, names=()):
    """One wrong call and every check after it. `names`: words one of which the error's message
    must hold (it names what was wrong)."""
    global count, state
    destination, path, interface, member = target
    count += 1
    failed_before = len(failures)
    described = f"{interface}.{member}({signature}) with {what}"
    reply, error, took = call(destination, path, interface, member, signature, arguments)
    entry = record(key, error, took, what)
    if error:
        name, message = error
        answer = f"{name}: {message[:300]!r}"
        if name in NO_ANSWER or not name:
            fail(f"{described}: no answer: {answer} after {took:.2f} s")
        elif name == "org.freedesktop.DBus.Error.Failed":
            fail(f"{described}: an error that names nothing: {answer}")
        if RAW.search(message):
            fail(f"{described}: a raw control character in the error: {answer}")
        if not message.strip() or len(message) > 8192:
            fail(f"{described}: an error message of {len(message)} characters: {answer}")
        elif category in ("arity", "type") and name != "org.freedesktop.DBus.Error.InvalidArgs" and not (
                member == "Set" and name == "org.freedesktop.DBus.Error.PropertyReadOnly"):
            # (Set of a property that cannot be set is refused whatever the value: read-only.)
            fail(f"{described}: {name.rsplit('.', 1)[-1]}, not InvalidArgs: {answer}")
        elif names and not any(word.lower() in message.lower() for word in names):
            fail(f"{described}: the error does not say which of {list(names)} was wrong: {answer}")
    if took > CALL_LIMIT:
        fail(f"{described}: answered after {took:.2f} s (limit {CALL_LIMIT} s)")
    if daemon.process.poll() is not None:
        fail(f"{described}: the daemon ended (status {daemon.process.returncode})")
        finish()
    after, status_took = snapshot()
    if status_took > slowest_status[0]:
        slowest_status[:] = [status_took, described]
    if status_took > STATUS_LIMIT:
        fail(f"{described}: Status took {status_took * 1000:.0f} ms after it (limit {STATUS_LIMIT * 1000:.0f} ms)")
    if not error:
        documented = DOCUMENTED.get((interface, member))
        promised = documented is not None and category in ("nonsense", "extreme")
        if not promised:
            fail(f"{described}: succeeded ({shown(reply, 120)}), which no documentation promises")
        elif documented[2] and not documented[2](arguments, after):
            fail(f"{described}: succeeded without doing what {documented[0]!r} says")
        changed = difference(state, after)
        undo = documented[1] if documented else None
        if changed and undo:
            # Undone (after a wrong success too), so that each call starts from the same state.
            _, undo_error, _ = call(destination, path, interface, undo[0], undo[1], undo[2])
            if undo_error:
                fail(f"{described}: {undo[0]} after it failed: {undo_error}")
            after, _ = snapshot()
            print(f"    {described}: succeeded, undone with {undo[0]}; it had changed {changed[:2]}", flush=True)
        elif promised and not changed:
            print(f"    {described}: succeeded, nothing changed ({documented[0]})", flush=True)
    changed = difference(state, after)
    if changed:
        fail(f"{described}: changed {changed}")
    state = after
    if len(failures) > failed_before:
        entry["failed"] += 1


def finish():
    daemon.process.terminate()
    try:
        daemon.process.wait(15)
    except subprocess.TimeoutExpired:
        fail("the daemon did not stop within 15 s of SIGTERM")
        daemon.process.kill()
    log = b"".join(daemon.lines)
    if re.search(rb"[\x00-\x09\x0b-\x1f\x7f]|\xc2[\x80-\x9f]", log):
        fail(f"raw control bytes in the daemon's log: {log[-600:]!r}")
    print("\nmethod: calls, errors (by name), successes, slowest answer")
    for key, entry in results.items():
        errors = ", ".join(f"{name.rsplit('.', 1)[-1]} {n}" for name, n in sorted(entry["errors"].items()))
        print(f"{key}: {entry['calls']} calls, {entry['failed']} failed; errors: {errors or 'none'}; "
              f"successes {entry['successes']}; slowest {entry['slowest'][0] * 1000:.0f} ms ({entry['slowest'][1]})")
    names = sorted({name for entry in results.values() for name in entry["errors"]})
    print(f"\nerror names seen: {', '.join(names)}")
    print(f"slowest answer: {max(e['slowest'][0] for e in results.values()) * 1000:.0f} ms; slowest Status after "
          f"a call: {slowest_status[0] * 1000:.1f} ms ({slowest_status[1]})")
    if difference(initial, state):
        fail(f"at the end the state differs from the start: {difference(initial, state)}")
    failed_calls = sum(entry["failed"] for entry in results.values())
    print(f"{count} calls on {KIND}; {len(failures)} failed checks")
    print(f"{count - failed_calls} passed, {failed_calls} failed")
    sys.exit(1 if failures else 0)


for destination, path, interface, member, ins, outs in targets:
    target = (destination, path, interface, member)
    key = f"{interface.rsplit('.', 1)[-1]}.{member}" + ("" if interface not in STANDARD else f" on {path}")
    signature = "".join(ins)
    # A type or arity error names the signature the method takes, or its arguments (by the
    # names in the introspection data: interface_name gives "interface").
    expecting = (f"'{signature}'", *(name.split("_")[0] for name in names_of[(path, interface, member)]))
    good = [plausible(t) for t in ins]
    if interface == PROPERTIES:
        # Properties' own arguments that look right: the object's interface, its first
        # property and that property's value, from the introspection data.
        own = next(name for name in tree[path] if name not in STANDARD)
        first = next(iter(tree[path][own][1]))
        good = [v for v, t in zip([dbus.String(own), dbus.String(first), state[own][first]], ins)]
    # Wrong arity: none, one too few, one too many.
    if ins:
        attempt(key, "arity", "no arguments", target, "", [], expecting)
    if len(ins) > 1:
        attempt(key, "arity", "one argument too few", target, "".join(ins[:-1]), good[:-1], expecting)
    attempt(key, "arity", "one argument too many (s)", target, signature + "s", good + [plausible("s")], expecting)
    # Wrong types: each argument in turn, of every other type.
    for index, expected in enumerate(ins):
        for other in TYPES:
            if other == expected:
                continue
            arguments = list(good)
            arguments[index] = wrong_value(other, expected)
            types = list(ins)
            types[index] = other
            attempt(key, "type", f"argument {index + 1} of type {other}", target, "".join(types), arguments, expecting)
    # Sizes, extremes and nonsense, well typed: each argument in turn, the others empty.
    for index, expected in enumerate(ins):
        for category, what, value in size_values(expected):
            arguments = [empty_of(t) for t in ins]
            arguments[index] = value
            names = ("limit", "at most") if category == "size" else ()
            attempt(key, category, f"argument {index + 1} {what}", target, signature, arguments, names)

# Set on every property: its own type (its current value) and every other type.
for destination, path, interface, name, signature, access in properties:
    target = (destination, path, PROPERTIES, "Set")
    key = f"{interface.rsplit('.', 1)[-1]} properties Set"
    current = state[interface].get(name)
    values = [(f"{name} to its current value ({signature})", current)] if current is not None else []
    # The value is sent as a variant of its type; "v" is a variant within the variant.
    values += [(f"{name} to a value of type {other}",
                dbus.String("speakerphone", variant_level=2) if other == "v" else plausible(other))
               for other in TYPES if other != signature]
    for what, value in values:
        attempt(key, "set", what, target, "ssv", [interface, name, value], (name,))

finish()
