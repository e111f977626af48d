#!/usr/bin/env bash
# What `routectl daemon` costs while it runs, beside what users run today, on one sandboxed
# server in one run: resident and private dirty memory idle with 10 devices, wake-ups over an
# idle spell, CPU per route change, and the D-Bus round trip from a `Use` call to the switch
# the server confirmed. Baselines in the same sandbox: the server itself, WirePlumber (on
# PipeWire), callaudiod (when it stays up on virtual devices), and a `pactl subscribe | while
# read` script (bash and pactl).
#
# Usage: Benchmarks/daemon-cost.sh [pulseaudio|pipewire] [IDLE_SECONDS] [ROUTE_CHANGES]
# Needs the release builds, one command each (SwiftPM builds only the last --product named), with
# the Swift runtime linked in as the README installs routectl (the same flags for both, so that
# neither build undoes the other):
#   swift build -c release --static-swift-stdlib --product routectl
#   swift build -c release --static-swift-stdlib --product routekit-sandbox
set -euo pipefail
cd "$(dirname "$0")/.."
kind=${1:-pulseaudio}
idle=${2:-60}
changes=${3:-40}
bin=$(source scripts/swift-env && swift build -c release --show-bin-path)
for tool in routectl routekit-sandbox; do
    [ -x "$bin/$tool" ] || { echo "daemon-cost: build it first: swift build -c release --static-swift-stdlib --product $tool" >&2; exit 69; }
done
# A binary just linked is still dirty in the page cache until written back, and smaps counts
# its mapped pages as private dirty: write it back first.
sync "$bin/routectl"
export ROUTEKIT_BIN=$bin ROUTEKIT_IDLE=$idle ROUTEKIT_CHANGES=$changes
exec dbus-run-session -- "$bin/routekit-sandbox" --server "$kind" --devices demo -- bash ${ROUTEKIT_TRACE:+-x} Benchmarks/Helpers/daemon-cost-inside.sh
