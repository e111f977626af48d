#!/usr/bin/env bash
# What `routectl daemon` costs while it runs, beside what users run today, on one sandboxed
# server in one run: resident and private dirty memory idle with 10 devices and again after
# the route changes, wake-ups over an idle spell, CPU per route change, and the D-Bus round
# trip from a `Use` call to the switch the server confirmed. Baselines in the same sandbox: the server itself, WirePlumber (on
# PipeWire), callaudiod (when it stays up on virtual devices), and a `pactl subscribe | while
# read` script (bash and pactl).
#
# Usage: Benchmarks/daemon-cost.sh [pulseaudio|pipewire] [IDLE_SECONDS] [ROUTE_CHANGES]
#   defaults: pulseaudio 60 1000; memory is read idle and again after the route changes.
# ROUTECTL=/usr/bin/routectl measures that binary (as installed by the Debian package,
# scripts/package-deb); by default the release build, with the Swift runtime linked in as the
# package has it:
#   swift build -c release --static-swift-stdlib --product routectl
# routekit-sandbox (which only starts the servers) is taken from the release build, else the debug one.
set -euo pipefail
cd "$(dirname "$0")/.."
kind=${1:-pulseaudio}
idle=${2:-60}
changes=${3:-1000}
source scripts/swift-env
release=$(swift build -c release --show-bin-path)
routectl=${ROUTECTL:-$release/routectl}
[ -x "$routectl" ] || { echo "daemon-cost: build it first: swift build -c release --static-swift-stdlib --product routectl" >&2; exit 69; }
sandbox=$release/routekit-sandbox
[ -x "$sandbox" ] || sandbox=$(swift build --show-bin-path)/routekit-sandbox
[ -x "$sandbox" ] || { echo "daemon-cost: build it first: swift build --product routekit-sandbox" >&2; exit 69; }
# A binary just linked is still dirty in the page cache until written back, and smaps counts
# its mapped pages as private dirty: write it back first.
sync "$routectl"
export ROUTEKIT_ROUTECTL=$routectl ROUTEKIT_IDLE=$idle ROUTEKIT_CHANGES=$changes
exec dbus-run-session -- "$sandbox" --server "$kind" --devices demo -- bash ${ROUTEKIT_TRACE:+-x} Benchmarks/Helpers/daemon-cost-inside.sh
