"""The inside of scripts/reliability/storm: runs within routekit-sandbox (PULSE_SERVER set) and
a private session bus. Prints the seed, progress, and the figures; exits 1 on a wrong route or
a daemon that died."""
import collections
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time

KIND = sys.argv[1]
BIN = os.environ["ROUTEKIT_BIN"]
EVENTS = int(os.environ["ROUTEKIT_STORM_EVENTS"])
SEED = int(os.environ["ROUTEKIT_STORM_SEED"])
SETTLE_LIMIT = 10.0      # seconds a quiet period may take to reach the policy's answer
QUIET_AFTER = 0.2        # seconds of quiet after the answer, before the burst's reads are counted

# The daemon's preferences, best first, and the devices that come and go (two of one kind:
# the policy keeps either, so the answer is a set). The speaker stays.
PREFERENCES = ["bluetooth", "wiredHeadset", "earpiece", "speakerphone"]
DEVICES = {
    "bluez_output.storm_a": ("bluetooth", "device.bus=bluetooth device.form_factor=headset device.description='Headset A'"),
    "bluez_output.storm_b": ("bluetooth", "device.bus=bluetooth device.form_factor=headset device.description='Headset B'"),
    "usb_headset_storm": ("wiredHeadset", "device.bus=usb device.form_factor=headset device.description='USB Headset'"),
    "earpiece_storm": ("earpiece", "device.form_factor=handset device.description='Earpiece'"),
}
SPEAKER = ("builtin_speaker", "device.form_factor=internal device.description='Built-in Speaker'")

rng = random.Random(SEED)
work = tempfile.mkdtemp(prefix="storm.")
trace_path = os.path.join(work, "trace")
processes = []


def pactl(*args, check=True):
    result = subprocess.run(["pactl", *args], capture_output=True, text=True, timeout=30)
    if check and result.returncode != 0:
        raise RuntimeError(f"pactl {' '.join(args)}: {result.stderr.strip()}")
    return result.stdout.strip()


def load(name, properties):
    return pactl("load-module", "module-null-sink", f"sink_name={name}", f'sink_properties="{properties}"')


def rss_kb(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def expected(plugged):
    for kind in PREFERENCES:
        names = {name for name in plugged if DEVICES[name][0] == kind}
        if names:
            return names
    return {SPEAKER[0]}


print(f"storm: {KIND}, {EVENTS} plug/unplug events, seed {SEED} (scripts/reliability/storm {KIND} {EVENTS} {SEED})", flush=True)
load(*SPEAKER)
daemon_log = open(os.path.join(work, "daemon.log"), "w")
environment = dict(os.environ, ROUTEKIT_PULSE_TRACE=trace_path)
daemon = subprocess.Popen([f"{BIN}/routectl", "daemon", *[a for p in PREFERENCES for a in ("--prefer", p)]],
                          stdout=daemon_log, stderr=subprocess.STDOUT, env=environment)
processes.append(daemon)


def stop_all():
    for process in processes:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
    for process in processes:
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()


try:
    deadline = time.monotonic() + 30
    while "daemon: running" not in open(os.path.join(work, "daemon.log")).read():
        if daemon.poll() is not None or time.monotonic() > deadline:
            print("storm: the daemon did not start:\n" + open(os.path.join(work, "daemon.log")).read())
            sys.exit(1)
        time.sleep(0.05)

    # The server's events, as any client sees them: what the daemon had to read about.
    events_seen = []
    events_lock = threading.Lock()
    subscriber = subprocess.Popen(["pactl", "subscribe"], stdout=subprocess.PIPE, text=True)
    processes.append(subscriber)
    event_line = re.compile(r"^Event '(\w+)' on (sink|source|card|sink-input|source-output|client|module) #(\d+)$")

    def follow_events():
        for line in subscriber.stdout:
            found = event_line.match(line.strip())
            if found:
                with events_lock:
                    events_seen.append((found[2].replace("-", " "), found[3], found[1]))
    threading.Thread(target=follow_events, daemon=True).start()
    started = time.monotonic()

    plugged = {}         # sink name -> module index
    streams = []         # pacat processes playing
    samples = [(0, rss_kb(daemon.pid))]
    marks = sorted({max(1, EVENTS // 10), max(1, EVENTS // 2), EVENTS})
    done = 0
    churn = 0
    bursts = 0
    wrong = []
    settle_times = []
    trace_offset = os.path.getsize(trace_path) if os.path.exists(trace_path) else 0
    reads_per_burst = []     # per burst: the most reads of one object, and by which connection
    repeated_bursts = 0
    lookups = 0
    example = None
    excess_reads = 0
    excess_example = None
    events_total = 0
    whole_reads = collections.Counter()   # lists (every object of a type) and server info
    lookup = re.compile(r"^(\S+) get (sink|source|card|sink input|source output|client|module) #(\d+)$")

    while done < EVENTS:
        burst = min(rng.randint(1, 40), EVENTS - done)
        for _ in range(burst):
            name = rng.choice(list(DEVICES))
            if name in plugged:
                pactl("unload-module", plugged.pop(name))
            else:
                plugged[name] = load(name, DEVICES[name][1])
            done += 1
            if done in marks:
                samples.append((done, rss_kb(daemon.pid)))
            # Churn beside the plugging: streams come and go, volumes and mutes change.
            if rng.random() < 0.5:
                churn += 1
                what = rng.random()
                present = [SPEAKER[0], *plugged]
                if what < 0.3:
                    if len(streams) < 3:
                        streams.append(subprocess.Popen(["pacat", "--raw", "-p", "/dev/zero", "--property=media.role=music"],
                                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
                        processes.append(streams[-1])
                    else:
                        stream = streams.pop(rng.randrange(len(streams)))
                        stream.terminate()
                        stream.wait()
                elif what < 0.7:
                    pactl("set-sink-volume", rng.choice(present), f"{rng.randint(10, 100)}%", check=False)
                else:
                    pactl("set-sink-mute", rng.choice(present), "toggle", check=False)
            time.sleep(rng.expovariate(1 / 0.005))
        bursts += 1

        # The quiet period: the route must come to the policy's answer, and stay.
        answer = expected(plugged)
        start = time.monotonic()
        while True:
            default = pactl("get-default-sink", check=False)
            if default in answer:
                break
            if time.monotonic() - start > SETTLE_LIMIT or daemon.poll() is not None:
                wrong.append((done, default, sorted(answer)))
                break
            time.sleep(0.02)
        settle_times.append(time.monotonic() - start)
        time.sleep(QUIET_AFTER)
        if daemon.poll() is not None:
            print(f"storm: the daemon ended (status {daemon.returncode}) after {done} events")
            break

        # Reads of each object in this burst, by connection and over all connections.
        with open(trace_path) as trace:
            trace.seek(trace_offset)
            text = trace.read()
            trace_offset = trace.tell()
        per_connection = collections.Counter()
        per_object = collections.Counter()
        for line in text.splitlines():
            request = line.split(" ", 1)[1] if " " in line else line
            if request.startswith("list ") or request == "get server info":
                whole_reads[request] += 1
            found = lookup.match(line)
            if found:
                lookups += 1
                per_connection[(found[1], found[2], found[3])] += 1
                per_object[(found[2], found[3])] += 1
        with events_lock:
            burst_events, events_seen[:] = list(events_seen), []
        # An object read more often than the server told of it (new or changed) in this burst
        # was read by more than one follower, or read again for nothing.
        told = collections.Counter((kind, index) for kind, index, what in burst_events if what != "remove")
        for key, reads in per_object.items():
            extra = reads - told.get(key, 0)
            if extra > 0:
                excess_reads += extra
                if excess_example is None:
                    excess_example = (bursts, key, reads, told.get(key, 0))
        events_total += len(burst_events)
        most = max(per_object.values(), default=0)
        reads_per_burst.append(most)
        if most > 1:
            repeated_bursts += 1
            if example is None:
                example = (bursts, per_object.most_common(1)[0], per_connection.most_common(3))
        if bursts % 50 == 0:
            print(f"storm: {done} events, {bursts} bursts, {len(wrong)} wrong routes, "
                  f"resident {rss_kb(daemon.pid) // 1024} MB", flush=True)

    alive = daemon.poll() is None
    print(f"== storm on {KIND}: seed {SEED}, {done} plug/unplug events in {bursts} bursts, {churn} stream/volume/mute changes beside them")
    print(f"route after each quiet period: {bursts - len(wrong)} of {bursts} on the policy's answer"
          + (f"; wrong: {wrong[:5]}" if wrong else ""))
    settle_times.sort()
    if settle_times:
        print(f"time from the burst's last event to the answer: p50 {settle_times[len(settle_times) // 2] * 1000:.0f} ms, "
              f"p99 {settle_times[int(len(settle_times) * 0.99)] * 1000:.0f} ms, max {settle_times[-1] * 1000:.0f} ms (polled every 20 ms)")
    print("daemon resident memory (VmRSS): " + ", ".join(f"{n} events {kb / 1024:.1f} MB" for n, kb in samples))
    print(f"lookups by index: {lookups} ({lookups / max(1, done + churn):.2f} per event); the most reads of one object in one burst: "
          f"{max(reads_per_burst, default=0)}; bursts with an object read more than once: {repeated_bursts} of {bursts}")
    if example:
        print(f"  first such burst: #{example[0]}, object {example[1][0]} read {example[1][1]} times; by connection: {example[2]}")
    print("whole reads: " + ", ".join(f"{what} {count} ({count / max(1, bursts):.1f} per burst)" for what, count in whole_reads.most_common()))
    print(f"server events seen by a client: {events_total}; reads beyond one per new or changed object's event in a burst: {excess_reads}"
          + (f" (first: burst #{excess_example[0]}, {excess_example[1]} read {excess_example[2]} times, told {excess_example[3]})"
             if excess_example else ""))
    print(f"elapsed: {time.monotonic() - started:.0f} s")
    connections = sorted({line.split(" ", 1)[0] for line in open(trace_path)})
    print(f"connections in the daemon's trace: {', '.join(connections)}")
    print(f"daemon {'alive' if alive else 'ended'}; its log: {work}/daemon.log")
    sys.exit(0 if alive and not wrong else 1)
finally:
    stop_all()
