#!/bin/bash
# switch-on-connect.sh: what people write today instead of a routing daemon, and the
# baseline route-benchmarks measures RouteKit against.
#
#   switch-on-connect.sh PATTERN FALLBACK
#
# When a sink whose name matches PATTERN (an extended regular expression, such as
# '^bluez_output\.') appears, it becomes the default sink and every playing stream moves to
# it. When that sink goes away, FALLBACK becomes the default and the streams move there.
# After each switch the script prints "switched SINK" or "fell back SINK".
#
# Every step is a `pactl` process: one to look the new sink up, one to set the default,
# one to list the streams and one per stream moved.
set -u
pattern=$1
fallback=$2

# Makes $1 the default sink and moves every playing stream to it.
route_to() {
    pactl set-default-sink "$1"
    for input in $(pactl list short sink-inputs | cut -f1); do
        pactl move-sink-input "$input" "$1"
    done
}

# Lines look like: Event 'new' on sink #12
pactl subscribe | {
    current=""
    while read -r _ kind _ facility index; do
        [ "$facility" = sink ] || continue
        index=${index#\#}
        case $kind in
        "'new'")
            name=$(pactl list short sinks | awk -v i="$index" '$1 == i { print $2 }')
            if [[ $name =~ $pattern ]]; then
                route_to "$name"
                current=$index
                echo "switched $name"
            fi
            ;;
        "'remove'")
            if [ "$index" = "$current" ]; then
                route_to "$fallback"
                current=""
                echo "fell back $fallback"
            fi
            ;;
        esac
    done
}
