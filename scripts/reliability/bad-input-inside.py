"""The inside of scripts/reliability/bad-input: runs within routekit-sandbox (PULSE_SERVER set,
demo devices plugged) and a private session bus. Prints one line a group of checks and every
failure; exits 1 if any check failed."""
import glob
import os
import random
import re
import subprocess
import sys
import tempfile

KIND = sys.argv[1]
ROUTECTL = os.path.join(os.environ["ROUTEKIT_BIN"], "routectl")
work = tempfile.mkdtemp(prefix="bad-input.")
# Nothing of the machine's: configuration and state in the scratch folder.
ENV = dict(os.environ, XDG_CONFIG_HOME=f"{work}/config", XDG_STATE_HOME=f"{work}/state")
failures = []

# Bytes a terminal must never see raw: C0 controls but the line break, DEL, and C1 controls
# (as UTF-8: 0xC2 0x80-0x9F).
RAW = re.compile(rb"[\x00-\x09\x0b-\x1f\x7f]|\xc2[\x80-\x9f]")
# JSON escapes C0 controls and keeps every other character as it is (C1 ones too, as UTF-8):
# --json is for programs, and keeps strings exactly (Docs/CommandLine.md).
RAW_IN_JSON = re.compile(rb"[\x00-\x09\x0b-\x1f\x7f]")

BAD_WORDS = {
    "empty": b"",
    "blank": b"   ",
    "overlong": b"a" * 5000,
    "ESC sequence": b"bt\x1b[31mred\x1b]0;title\x07",
    "line break": b"two\nlines",
    "carriage return": b"over\rwrite",
    "C1 CSI": "csi\u009b2J".encode(),
    "RTL override": "evil\u202etxt.toml".encode(),
    "zero-width space": "zero\u200bwidth".encode(),
    "byte order mark": "\ufeffbom".encode(),
    "invalid UTF-8 (0xff)": b"bad\xffbyte",
    "invalid UTF-8 (overlong /)": b"bad\xc0\xafslash",
    "invalid UTF-8 (surrogate)": b"bad\xed\xa0\x80half",
    "invalid UTF-8 (cut short)": b"cut\xe2\x82",
}


def run(arguments, timeout=20, env=ENV):
    try:
        return subprocess.run([ROUTECTL.encode(), *[a if isinstance(a, bytes) else a.encode() for a in arguments]],
                              capture_output=True, timeout=timeout, env=env, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return None


def fail(what):
    failures.append(what)
    print(f"  FAIL {what}", flush=True)


def shown(arguments):
    return " ".join(repr(a) for a in arguments)


def check_answer(arguments, result, statuses, says=None):
    if result is None:
        fail(f"{shown(arguments)}: did not end within 20 s")
        return
    if result.returncode not in statuses:
        fail(f"{shown(arguments)}: exit {result.returncode}, not {statuses}: {result.stderr[:300]!r}")
    if result.returncode < 0 or result.returncode >= 128:
        fail(f"{shown(arguments)}: crashed (status {result.returncode})")
    for stream, text in (("stdout", result.stdout), ("stderr", result.stderr)):
        if (RAW_IN_JSON if "--json" in arguments and stream == "stdout" else RAW).search(text):
            fail(f"{shown(arguments)}: raw control bytes on {stream}: {text[:300]!r}")
    if says and says.encode() not in result.stderr:
        fail(f"{shown(arguments)}: stderr does not say {says!r}: {result.stderr[:300]!r}")


def server_state():
    sinks = subprocess.run(["pactl", "list", "sinks"], capture_output=True, text=True).stdout
    lines = [line.strip() for line in sinks.splitlines() if line.strip().startswith(("Name:", "Mute:", "Volume:"))]
    default = subprocess.run(["pactl", "get-default-sink"], capture_output=True, text=True).stdout.strip()
    return [default, *lines]


def section(heading, text):
    inside, lines = False, []
    for line in text.splitlines():
        if line.endswith(":") and not line.startswith(" "):
            inside = line == heading
        elif inside and line.startswith("  ") and not line.startswith("    "):
            lines.append(line.strip())
    return lines


# 1. Every command and option from the help, every bad word.
help_text = run(["--help"]).stdout.decode()
subcommands = [line.split()[0] for line in section("SUBCOMMANDS:", help_text) if line.split()[0] not in ("help", "See")]
command_lines = [["BAD"]]
for subcommand in subcommands:
    command_lines.append([subcommand, "BAD"])
    for line in section("OPTIONS:", run([subcommand, "--help"]).stdout.decode()):
        words = line.split()
        for index, word in enumerate(words):
            if word.startswith("<") and index > 0 and words[index - 1].startswith("--"):
                option = words[index - 1].rstrip(",")
                if option != "--exec":   # a shell command: only bounded, never read as a name
                    command_lines.append([subcommand, option, "BAD"])
                break
before = server_state()
count = 0
for command in command_lines:
    for name, word in BAD_WORDS.items():
        arguments = [word if part == "BAD" else part for part in command]
        check_answer(arguments, run(arguments), {64}, says="routectl: argument ")
        count += 1
if server_state() != before:
    fail(f"the server changed: {before} -> {server_state()}")
if os.path.exists(f"{work}/state/routekit/state.json"):
    fail("a state file was written")
print(f"arguments: {len(command_lines)} command lines x {len(BAD_WORDS)} bad words = {count} runs "
      f"({', '.join(subcommands)}): each exit 64, nothing changed", flush=True)

# 2. Configuration files that are no configuration: refused by name, with the line, no hang.
os.makedirs(f"{work}/files")
fifo = f"{work}/files/fifo.toml"
os.mkfifo(fifo)
files = {
    "a FIFO": (fifo, 66, "not a regular file"),
    "/dev/zero": ("/dev/zero", 66, "not a regular file"),
    "a directory": (f"{work}/files", 66, "not a regular file"),
}
contents = {
    "invalid UTF-8 on line 3": (b'preferences = ["bluetooth"]\n\nscope = "sys\xfftem"\n', 66, "line 3 is not UTF-8 text"),
    "a NUL on line 2": (b'preferences = ["bluetooth"]\n\x00scope = "x"\n', 78, ":2: a NUL byte"),
    "arrays 100 000 deep": (b"preferences = " + b"[" * 100000 + b"]" * 100000, 78, ":1:"),
    "inline tables 50 000 deep": (b"[match]\nx = " + b"{a=" * 50000 + b"1" + b"}" * 50000, 78, ":2:"),
    "a line of 300 000 quotes": (b'"a' * 300000, 78, ":1:"),
    "2 MiB": (b"#" * (2 << 20), 66, "larger than"),
    "an ESC in a value": (b'scope = "\x1b[2Jsystem"\n', 78, ":1:"),
    # Each of these aborted the daemon inside toml++ before TOMLTextCheck (found by ConfigurationFuzzTests).
    "a header not ASCII": ('scope = "system"\n[\u00e9calls]\n'.encode(), 78, ":2:"),
    "a [ left at a line's end": (b'scope = "system"\n[\n', 78, ":2: a table header needs a name"),
    "a } in a list": (b'preferences = [\n"bluetooth",\n}]\n', 78, ":3:"),
}
for name, (data, status, says) in contents.items():
    path = f"{work}/files/{len(files)}.toml"
    with open(path, "wb") as file:
        file.write(data)
    files[name] = (path, status, says)
for name, (path, status, says) in files.items():
    arguments = ["daemon", "--config", path]
    check_answer(arguments, run(arguments), {status}, says=says)
if server_state() != before:
    fail("the server changed after the configuration files")
print(f"configuration files: {', '.join(files)}: each refused with its reason, nothing changed", flush=True)

# 3. Dumps with invalid UTF-8 and terminal escapes, for list --from-dump (and --json).
rng = random.Random(18)
corpus = sorted(glob.glob("Tests/Corpus/*.txt"))
poison = [b"\xff", b"\xc0\xaf", b"\xed\xa0\x80", b"\xe2\x82", b"\x80", b"\x1b[2J", b"\x1b]0;x\x07", b"\r", b"\xc2\x9b31m", b"\x00"]
dumps = 0
for path in corpus:
    data = bytearray(open(path, "rb").read())
    for _ in range(20):
        at = rng.randrange(len(data) + 1)
        data[at:at] = rng.choice(poison)
    # And in every description, where a name is shown.
    data = data.replace(b"Description: ", b"Description: \x1b[31m\xff")
    dump = f"{work}/files/dump-{dumps}.txt"
    with open(dump, "wb") as file:
        file.write(bytes(data))
    for extra in ([], ["--json"]):
        arguments = ["list", "--from-dump", dump, *extra]
        check_answer(arguments, run(arguments), {0, 65})
    dumps += 1
print(f"dumps: {dumps} corpus dumps with invalid UTF-8, NULs and escapes, list --from-dump with and without --json: "
      "no crash, nothing raw", flush=True)

# 4. A sink whose description carries terminal escapes: list, status, use and the daemon's log.
hostile = "Evil\x1b[2J\x1b]0;pwned\x07 forged\u009b31m"
module = subprocess.run(["pactl", "load-module", "module-null-sink", "sink_name=hostile_sink",
                         f"sink_properties=\"device.description='{hostile}'\""],
                        capture_output=True, text=True).stdout.strip()
description = subprocess.run(["pactl", "list", "sinks"], capture_output=True).stdout
if b"\x1b[2J" not in description:
    fail(f"the server did not keep the escapes in the description: {description[:200]!r}")
for arguments in (["list"], ["list", "--raw"], ["status"], ["use", "hostile_sink"], ["list", "--json"], ["status", "--json"]):
    check_answer(arguments, run(arguments), {0})
check_answer(["use", "no_such_device"], run(["use", "no_such_device"]), {67}, says="hostile_sink")   # lists the devices
daemon_log = f"{work}/daemon.log"
with open(daemon_log, "wb") as log:
    daemon = subprocess.Popen([ROUTECTL, "daemon", "--prefer", "hostile_sink", "--prefer", "speakerphone"],
                              stdout=log, stderr=subprocess.STDOUT, env=ENV)
    try:
        subprocess.run(["pactl", "unload-module", module], check=True)
        module = subprocess.run(["pactl", "load-module", "module-null-sink", "sink_name=hostile_sink",
                                 f"sink_properties=\"device.description='{hostile}'\""],
                                capture_output=True, text=True).stdout.strip()
        for _ in range(100):
            if b"hostile_sink" in open(daemon_log, "rb").read():
                break
            subprocess.run(["sleep", "0.05"])
    finally:
        daemon.terminate()
        daemon.wait(timeout=15)
text = open(daemon_log, "rb").read()
if RAW.search(text):
    fail(f"raw control bytes in the daemon's log: {text[:400]!r}")
if b"hostile_sink" not in text:
    fail(f"the daemon never named the hostile sink: {text[:400]!r}")
print("a sink described with escapes: list, list --raw, status, use, --json and the daemon's log: nothing raw", flush=True)

print(f"bad input on {KIND}: {len(failures)} failures")
sys.exit(1 if failures else 0)
