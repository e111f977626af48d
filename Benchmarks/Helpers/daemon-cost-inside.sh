#!/usr/bin/env bash
# The inside of Benchmarks/daemon-cost.sh: runs within routekit-sandbox (PULSE_SERVER set) and
# a private session bus (DBUS_SESSION_BUS_ADDRESS set). Prints one line a measurement.
set -euo pipefail
routectl=$ROUTEKIT_ROUTECTL
idle=$ROUTEKIT_IDLE
changes=$ROUTEKIT_CHANGES
work=$(mktemp -d)
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

# Ten devices: the demo's three, and seven more speakers and headsets.
for n in 1 2 3 4 5 6 7; do
    pactl load-module module-null-sink sink_name="extra_$n" \
        "sink_properties=\"device.form_factor=speaker device.description='Extra $n'\"" >/dev/null
done

# The sum over a process's threads of its context switches (each one a wake-up or a
# preemption), its CPU ticks, and its memory.
# A process that is gone (one of the script's short-lived pactl) counts 0.
switches() { { cat /proc/"$1"/task/*/status 2>/dev/null || true; } | awk '/ctxt_switches/ { n += $2 } END { print n + 0 }'; }
ticks() { awk '{ print $14 + $15 }' /proc/"$1"/stat; }
rss_kb() { { cat /proc/"$1"/smaps_rollup 2>/dev/null || true; } | awk '/^Rss:/ { n = $2 } END { print n + 0 }'; }
dirty_kb() { { cat /proc/"$1"/smaps_rollup 2>/dev/null || true; } | awk '/^Private_Dirty:/ { n = $2 } END { print n + 0 }'; }
mb() { awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }'; }
hz=$(getconf CLK_TCK)

"$routectl" daemon --prefer bluetooth --prefer speakerphone 2>"$work/daemon.log" &
daemon=$!
pids+=("$daemon")
# In a process group of its own, so that its pactl and subshells can be counted together.
setsid bash Benchmarks/Helpers/switch-on-connect.sh '^bluez_output\.' builtin_speaker >"$work/script.log" 2>&1 &
script=$!
pids+=("$script")
callaudiod >"$work/callaudiod.log" 2>&1 &
callaudio=$!
pids+=("$callaudio")
for _ in $(seq 100); do grep -q "daemon: running" "$work/daemon.log" && break; sleep 0.1; done
grep -q "daemon: running" "$work/daemon.log" || { echo "the daemon did not start:"; cat "$work/daemon.log"; exit 1; }
sleep 3

# Who is there to compare with: the script's whole process group, the server, WirePlumber.
declare -A watched=([routectl daemon]=$daemon)
kill -0 "$callaudio" 2>/dev/null && watched[callaudiod]=$callaudio
script_pids() { pgrep -g "$script" 2>/dev/null || true; }
for name in pulseaudio pipewire pipewire-pulse wireplumber; do
    for pid in $(pgrep -x "$name" || true); do
        [ "$(tr '\0' '\n' < /proc/"$pid"/environ 2>/dev/null | grep -c "^XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-none}$")" -gt 0 ] \
            && watched[$name]=$pid
    done
done

echo "== idle ${idle} s with 10 devices, per process: wake-ups (context switches), resident, private dirty"
# perf counts the context switches of every thread, threads that end meanwhile included
# (libdispatch retires idle workers); without perf, the threads alive at both ends are summed.
count_switches() {  # FILE PID[,PID...]
    if command -v perf >/dev/null && perf stat -x, -e context-switches -p "$2" -o "$1" -- sleep "$idle" 2>/dev/null; then
        awk -F, '/context-switches/ { print ($1 ~ /^[0-9]+$/ ? $1 : 0) }' "$1"
    else
        local before=0 after=0 pid
        for pid in ${2//,/ }; do before=$((before + $(switches "$pid"))); done
        sleep "$idle"
        for pid in ${2//,/ }; do after=$((after + $(switches "$pid"))); done
        echo $((after - before))
    fi
}
group=$(for pid in $(script_pids); do if [ -d /proc/"$pid" ]; then echo "$pid"; fi; done | paste -sd, -)
counting=()
for name in "${!watched[@]}"; do
    count_switches "$work/$name.perf" "${watched[$name]}" > "$work/$name.count" &
    counting+=($!)
done
count_switches "$work/script.perf" "$group" > "$work/script.count" &
counting+=($!)
wait "${counting[@]}"
for name in "${!watched[@]}"; do
    pid=${watched[$name]}
    echo "$name: $(cat "$work/$name.count") wake-ups, $(mb "$(rss_kb "$pid")") MB resident, $(mb "$(dirty_kb "$pid")") MB private dirty"
done
script_rss=0; script_dirty=0
for pid in ${group//,/ }; do
    script_rss=$((script_rss + $(rss_kb "$pid"))); script_dirty=$((script_dirty + $(dirty_kb "$pid")))
done
echo "pactl subscribe script (bash, pactl): $(cat "$work/script.count") wake-ups, $((script_rss / 1024)) MB resident, $((script_dirty / 1024)) MB private dirty"
kill -0 "$callaudio" 2>/dev/null || echo "callaudiod: not running here ($(tail -1 "$work/callaudiod.log"))"
echo "routectl daemon's resident memory by mapping (MB resident, MB private dirty), 0.1 MB and more:"
awk '/^[0-9a-f]+-[0-9a-f]+ / { name = ($6 == "" ? "[anonymous]" : $6); sub(".*/", "", name) }
     /^Rss:/ { rss[name] += $2 } /^Private_Dirty:/ { dirty[name] += $2 }
     END { for (n in rss) if (rss[n] >= 100) printf "  %-40s %5.1f %5.1f\n", n, rss[n] / 1024, dirty[n] / 1024 }' \
    /proc/"$daemon"/smaps | sort -k2 -nr

echo "== CPU per route change ($changes changes: a second Bluetooth headset plugged and unplugged)"
kill -TERM -- -"$script" 2>/dev/null || true
start_ticks=$(ticks "$daemon")
start_routes=$(grep -c "^route:" "$work/daemon.log" || true)
for n in $(seq $((changes / 2))); do
    module=$(pactl load-module module-null-sink sink_name="bluez_output.cost_$n" \
        "sink_properties=\"device.bus=bluetooth device.form_factor=headset device.description='Headset $n'\"")
    for _ in $(seq 200); do [ "$(pactl get-default-sink)" = "bluez_output.cost_$n" ] && break; sleep 0.01; done
    pactl unload-module "$module"
    for _ in $(seq 200); do [ "$(pactl get-default-sink)" != "bluez_output.cost_$n" ] && break; sleep 0.01; done
done
sleep 1
routes=$(( $(grep -c "^route:" "$work/daemon.log" || true) - start_routes ))
cpu_ms=$(( ($(ticks "$daemon") - start_ticks) * 1000 / hz ))
echo "routectl daemon: ${cpu_ms} ms CPU over ${routes} route changes: $(awk -v c="$cpu_ms" -v r="$routes" 'BEGIN { printf "%.2f", (r ? c / r : 0) }') ms each (clock ticks of 1000/${hz} ms)"

echo "== memory after ${routes} route changes, per process: resident, private dirty"
for name in "${!watched[@]}"; do
    pid=${watched[$name]}
    if kill -0 "$pid" 2>/dev/null; then
        echo "$name: $(mb "$(rss_kb "$pid")") MB resident, $(mb "$(dirty_kb "$pid")") MB private dirty"
    else
        echo "$name: gone"
    fi
done

echo "== D-Bus: Use(s) round trip, from the call to the reply (the daemon replies once the server confirmed the switch)"
/usr/bin/python3 - "$changes" <<'PYTHON'
import sys, time, statistics, dbus
bus = dbus.SessionBus()
api = dbus.Interface(bus.get_object("io.github.routekit.RouteKit1", "/io/github/routekit/RouteKit1"),
                     "io.github.routekit.RouteKit1")
props = dbus.Interface(bus.get_object("io.github.routekit.RouteKit1", "/io/github/routekit/RouteKit1"),
                       "org.freedesktop.DBus.Properties")
samples, reads = [], []
for n in range(int(sys.argv[1])):
    target = "extra_1" if n % 2 == 0 else "usb_headset"
    start = time.perf_counter()
    api.Use(target)
    samples.append((time.perf_counter() - start) * 1000)
    start = time.perf_counter()
    props.Get("io.github.routekit.RouteKit1", "Route")
    reads.append((time.perf_counter() - start) * 1000)
api.ClearSelection()
def line(name, values):
    values.sort()
    print(f"{name}: n={len(values)} p50 {statistics.median(values):.2f} ms  p90 {values[int(len(values) * 0.9)]:.2f} ms  max {values[-1]:.2f} ms")
line("Use → switch confirmed", samples)
line("a property read", reads)
PYTHON
