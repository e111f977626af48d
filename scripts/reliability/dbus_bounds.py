"""The figures of Docs/Reliability.md, "Bounds on D-Bus input", measured on `routectl daemon`.

Run by scripts/reliability/dbus-bounds inside a sandboxed sound server (PULSE_SERVER set).
Starts a private dbus-daemon with the limits of Debian's session bus (messages of up to
1 GB), the daemon on it, and then, from ordinary clients:
  - a 64 MiB PropertiesChanged from an MPRIS player the daemon follows (PlaybackStatus a
    64 MiB byte array), and one from a client that owns no player name;
  - a 64 MiB method argument (Use with a 64 MiB string, SetPreferences with one entry);
  - 10 000 calls from one client at once, and 100 clients at once;
printing the daemon's resident memory (VmRSS) before and after each, the time until the
daemon answers the next call (so the oversized message is behind it), and Status's answer
time from another client during the floods. Exits non-zero when a bound is missed.
Usage: dbus_bounds.py ROUTECTL [FLOOR]   (ROUTEKIT_BOUNDS_FLOODS_ONLY=1: only the floods, to profile them)

FLOOR (Benchmarks/Helpers/floor-status-server.c, built by scripts/reliability/dbus-bounds):
the least any service can do for Status, flooded first in the same way on a bus of its own;
the daemon's slowest answers are then printed as ratios to its. The floods run through one
dbus-daemon on a machine shared with the flooding client, so the floor is not zero.
"""
import os
import subprocess
import sys
import tempfile
import threading
import time

import dbus
import dbus.lowlevel
import dbus.service
from dbus.mainloop.glib import DBusGMainLoop, threads_init
from gi.repository import GLib

threads_init()

NAME = 'io.github.routekit.RouteKit1'
PATH = '/io/github/routekit/RouteKit1'
MIB = 1 << 20
BUS_CONFIG = """<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:path={socket}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default"><allow send_destination="*"/><allow receive_sender="*"/><allow own="*"/></policy>
  <limit name="max_incoming_bytes">1000000000</limit>
  <limit name="max_outgoing_bytes">1000000000</limit>
  <limit name="max_message_size">1000000000</limit>
  <limit name="max_replies_per_connection">50000</limit>
  <limit name="max_connections_per_user">100000</limit>
  <limit name="max_pending_service_starts">10000</limit>
</busconfig>
"""
failures = []


def cpu_ms(pid):
    """The CPU time `pid` has used so far (user and system), in ms."""
    with open(f'/proc/{pid}/stat') as stat:
        fields = stat.read().rpartition(')')[2].split()
    return (int(fields[11]) + int(fields[12])) * 1000 // os.sysconf('SC_CLK_TCK')


def rss_kib(pid):
    with open(f'/proc/{pid}/status') as status:
        for line in status:
            if line.startswith('VmRSS:'):
                return int(line.split()[1])
    return 0


def call(bus, member, *arguments, signature=None, timeout=30):
    proxy = bus.get_object(NAME, PATH, introspect=False)
    return proxy.get_dbus_method(member, NAME)(*arguments, signature=signature, timeout=timeout)


def status_ms(bus):
    start = time.monotonic()
    call(bus, 'Status')
    return (time.monotonic() - start) * 1000


def check(what, ok, figure):
    print(f'  {"ok  " if ok else "FAIL"} {what}: {figure}', flush=True)
    if not ok:
        failures.append(what)


class Player(dbus.service.Object):
    """A minimal MPRIS player, served from the GLib loop's thread, so that the daemon follows
    its signals; `read` is set once the daemon has read it."""

    def __init__(self, bus):
        super().__init__(bus, '/org/mpris/MediaPlayer2')
        self.read = threading.Event()
        self.bus_name = dbus.service.BusName('org.mpris.MediaPlayer2.bounds', bus)

    @dbus.service.method('org.freedesktop.DBus.Properties', in_signature='ss', out_signature='v')
    def Get(self, interface, name):
        return dbus.String('Bounds Player') if name == 'Identity' else self.GetAll(interface)[name]

    @dbus.service.method('org.freedesktop.DBus.Properties', in_signature='s', out_signature='a{sv}')
    def GetAll(self, interface):
        self.read.set()
        return dbus.Dictionary({'PlaybackStatus': 'Stopped', 'CanPause': True, 'CanPlay': True}, signature='sv')


def invalidation():
    """A PropertiesChanged that only invalidates PlaybackStatus: the daemon reads the player again."""
    message = dbus.lowlevel.SignalMessage('/org/mpris/MediaPlayer2', 'org.freedesktop.DBus.Properties', 'PropertiesChanged')
    message.append('org.mpris.MediaPlayer2.Player', dbus.Dictionary({}, signature='sv'),
                   dbus.Array(['PlaybackStatus'], signature='s'), signature='sa{sv}as')
    return message


def oversized_signal(bus, player, daemon, label):
    """Sends the 64 MiB signal from `bus`, then has the player announce a change that the
    daemon answers by reading it: the daemon reads the two in order on its MPRIS connection,
    so once it reads the player the big signal is behind it."""
    # An array holds at most 64 MiB (the D-Bus limit), and the dictionary around it too.
    big = dbus.ByteArray(b'\0' * (64 * MIB - 4096))
    message = dbus.lowlevel.SignalMessage('/org/mpris/MediaPlayer2', 'org.freedesktop.DBus.Properties', 'PropertiesChanged')
    message.append('org.mpris.MediaPlayer2.Player', dbus.Dictionary({'PlaybackStatus': big}, signature='sv'),
                   dbus.Array([], signature='s'), signature='sa{sv}as')
    del big
    before = rss_kib(daemon.pid)
    player.read.clear()
    start = time.monotonic()
    bus.send_message(message)
    # The bus has routed it once it answers the sender's next call.
    bus.get_object('org.freedesktop.DBus', '/org/freedesktop/DBus').GetId(dbus_interface='org.freedesktop.DBus')
    routed = (time.monotonic() - start) * 1000
    player.connection.send_message(invalidation())
    player.connection.flush()
    read = player.read.wait(10)
    elapsed = (time.monotonic() - start) * 1000
    after = rss_kib(daemon.pid)
    check(f'64 MiB PropertiesChanged {label}: RSS change under 5 MB', after - before < 5000,
          f'{before} KiB -> {after} KiB ({(after - before) / 1024:+.1f} MiB)')
    check(f'64 MiB PropertiesChanged {label}: dropped, the next signal read within 100 ms of the bus routing it',
          read and elapsed - routed < 100,
          f'{elapsed - routed:.0f} ms (the client and the bus took {routed:.0f} ms to send and route it)'
          if read else 'the next signal was never read')


def transfer_ms(bus, argument, signature):
    """How long the client and the bus take to carry the same call to no one: the bus answers
    ServiceUnknown once it has read the whole message."""
    start = time.monotonic()
    try:
        bus.call_blocking('org.routekit.Nobody', PATH, NAME, 'Use', signature, [argument], timeout=30)
    except dbus.DBusException:
        pass
    return (time.monotonic() - start) * 1000


def answer_ms(bus, member, signature, argument):
    """The time until `member` with `argument` is answered (an error, here), and the answer."""
    start = time.monotonic()
    try:
        call(bus, member, argument, signature=signature)
        error = 'no error'
    except dbus.DBusException as failure:
        error = f'{failure.get_dbus_name()}: {failure.get_dbus_message()}'
    return (time.monotonic() - start) * 1000, error


def oversized_argument(bus, daemon, member, signature, argument, floor_beyond=None):
    """Three calls with the 64 MiB argument: memory after them (once the next call is answered,
    so that the message is freed), and the best of three times beyond the bus's carrying, as
    for the floor service."""
    before = rss_kib(daemon.pid)
    beyond = []
    for _ in range(3):
        carried = transfer_ms(bus, argument, signature)
        elapsed, error = answer_ms(bus, member, signature, argument)
        beyond.append(elapsed - carried)
    status_ms(bus)
    after = rss_kib(daemon.pid)
    print(f'    answer: {error}')
    check(f'64 MiB argument to {member}: refused', 'LimitsExceeded' in error, error.split(':')[0])
    check(f'64 MiB argument to {member}: RSS change under 5 MB (three calls)', after - before < 5000,
          f'{before} KiB -> {after} KiB ({(after - before) / 1024:+.1f} MiB)')
    figure = f'{min(beyond):.0f} ms more (best of three: {", ".join(f"{b:.0f}" for b in beyond)})'
    if floor_beyond is None:
        check(f'64 MiB argument to {member}: answered within 100 ms more than the bus takes to carry it',
              min(beyond) < 100, figure)
    else:
        # sd-bus reads a message whole, and checks a string whole as it is read, before anyone
        # can know its length: the floor service, which reads it too, takes that time as well.
        # Held within 100 ms, or within the floor's time and 25 ms (the figures' noise: the
        # carrying alone varies by 100 ms from one call to the next).
        check(f'64 MiB argument to {member}: answered within 100 ms more than the bus takes to carry it, '
              f'or the floor service\'s {floor_beyond:.0f} ms more and 25 ms',
              min(beyond) < max(100, floor_beyond + 25), figure)


def floor_argument(bus):
    """How much longer than the bus's carrying the floor service takes to refuse a 64 MiB
    argument (reading it, as any service on sd-bus must): the best of three, in ms, for Use and
    SetPreferences."""
    found = {}
    for member, signature, argument in (('Use', 's', 'x' * (64 * MIB)), ('SetPreferences', 'as', ['x' * (64 * MIB - 4096)])):
        beyond = []
        for _ in range(3):
            carried = transfer_ms(bus, argument, signature)
            elapsed, error = answer_ms(bus, member, signature, argument)
            beyond.append(elapsed - carried)
        found[member] = min(beyond)
        print(f'  64 MiB argument to {member}: refused ({error.split(":")[0]}) {min(beyond):.0f} ms after the bus carried it '
              f'(best of three: {", ".join(f"{b:.0f}" for b in beyond)})', flush=True)
    return found


def send_without_waiting(bus, count):
    for _ in range(count):
        message = dbus.lowlevel.MethodCallMessage(NAME, PATH, NAME, 'Status')
        bus.send_message(message)
    bus.flush()


def status_during(bus, seconds):
    """Status's answer times from `bus` for `seconds`, in ms."""
    times = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        times.append(status_ms(bus))
    return times


def private_bus(directory):
    """A dbus-daemon with Debian's session bus limits in `directory`: (process, address)."""
    socket = os.path.join(directory, 'bus')
    with open(os.path.join(directory, 'bus.conf'), 'w') as config:
        config.write(BUS_CONFIG.format(socket=socket))
    bus_daemon = subprocess.Popen(['dbus-daemon', '--config-file', os.path.join(directory, 'bus.conf'), '--nofork',
                                   '--print-address'], stdout=subprocess.PIPE, text=True)
    return bus_daemon, bus_daemon.stdout.readline().strip()


def serving(command, directory, address):
    """Starts `command` on the bus at `address`; returns it once it says `dbus: serving`, and its lines."""
    environment = dict(os.environ, DBUS_SESSION_BUS_ADDRESS=address, XDG_STATE_HOME=directory,
                       XDG_CONFIG_HOME=directory)
    process = subprocess.Popen(command, env=environment, stderr=subprocess.PIPE, text=True)
    lines = []

    def read_lines():
        for line in process.stderr:
            lines.append(line.rstrip('\n'))
    threading.Thread(target=read_lines, daemon=True).start()
    for _ in range(300):
        if any(line.startswith('dbus: serving') for line in lines):
            return process, lines
        time.sleep(0.1)
    process.terminate()
    raise SystemExit(f'{command[0]} did not serve the API: {lines}')


def floor_figures(floor):
    """The floor service, sent what the daemon is: how much longer than the bus's carrying it
    takes to answer a 64 MiB argument, and its slowest Status answers under the floods."""
    directory = tempfile.mkdtemp(prefix='routekit-dbus-floor.')
    bus_daemon, address = private_bus(directory)
    server, _ = serving([floor], directory, address)
    try:
        observer = dbus.bus.BusConnection(address)
        for _ in range(5):
            status_ms(observer)
        print('== the floor service (floor-status-server), sent the same', flush=True)
        beyond = None if os.environ.get('ROUTEKIT_BOUNDS_FLOODS_ONLY') else floor_argument(dbus.bus.BusConnection(address))
        return {'argument': beyond, 'floods': floods(address, server, observer, bound_checked=False)}
    finally:
        server.terminate()
        server.wait(10)
        bus_daemon.terminate()
        bus_daemon.wait(10)


def main():
    routectl = sys.argv[1]
    floor = floor_figures(sys.argv[2]) if len(sys.argv) > 2 else {'argument': None, 'floods': (None, None)}
    directory = tempfile.mkdtemp(prefix='routekit-dbus-bounds.')
    bus_daemon, address = private_bus(directory)
    daemon, lines = serving([routectl, 'daemon', '--prefer', 'bluetooth', '--prefer', 'speakerphone'], directory, address)
    try:
        os.environ['DBUS_SESSION_BUS_ADDRESS'] = address
        observer = dbus.bus.BusConnection(address)
        for _ in range(5):
            status_ms(observer)  # warm up
        print(f'daemon pid {daemon.pid}, RSS {rss_kib(daemon.pid)} KiB; Status answers in '
              f'{min(status_during(observer, 0.5)):.1f} ms at rest', flush=True)

        if os.environ.get('ROUTEKIT_BOUNDS_FLOODS_ONLY'):
            # Only the floods, after 2 s in which to attach a profiler to the daemon's pid.
            print('floods only, in 2 s', flush=True)
            time.sleep(2)
        else:
            oversized_inputs(address, daemon, floor['argument'])
        slowest = floods(address, daemon, observer, floor=floor['floods'])
        if floor['floods'][0] is not None:
            for what, ours, least in zip(('10 000 calls from one client', '100 clients at once'), slowest, floor['floods']):
                print(f'ratio to the floor, {what}: slowest Status {ours:.1f} ms against {least:.1f} ms: '
                      f'{ours / least:.2f}x', flush=True)
    finally:
        daemon.terminate()
        daemon.wait(10)
        bus_daemon.terminate()
        bus_daemon.wait(10)
    refused = [line for line in lines if 'limit' in line.lower()]
    if refused:
        print('daemon lines about limits:', *refused[:5], sep='\n    ')
    print(f'{len(failures)} bounds missed' if failures else 'every bound held')
    sys.exit(1 if failures else 0)


def oversized_inputs(address, daemon, floor_beyond=None):
    """The 64 MiB signals and method arguments."""
    print('== a 64 MiB signal', flush=True)
    player_bus = dbus.bus.BusConnection(address, mainloop=DBusGMainLoop())
    player = Player(player_bus)
    threading.Thread(target=GLib.MainLoop().run, daemon=True).start()
    if not player.read.wait(10):
        raise SystemExit('the daemon did not read the player')
    stranger = dbus.bus.BusConnection(address)
    oversized_signal(stranger, player, daemon, 'from a client that owns no player name')
    oversized_signal(player_bus, player, daemon, 'from a player the daemon follows')

    print('== a 64 MiB method argument', flush=True)
    oversized_argument(stranger, daemon, 'Use', 's', 'x' * (64 * MIB), (floor_beyond or {}).get('Use'))
    oversized_argument(stranger, daemon, 'SetPreferences', 'as', ['x' * (64 * MIB - 4096)],
                       (floor_beyond or {}).get('SetPreferences'))


def floods(address, daemon, observer, bound_checked=True, floor=(None, None)):
    """10 000 calls from one client, then 100 clients at once: the slowest Status of each, in ms."""
    def judge(what, times, floor_slowest):
        figure = f'{len(times)} answers, median {sorted(times)[len(times) // 2]:.1f} ms, slowest {max(times):.1f} ms'
        if not bound_checked:
            print(f'  {what}: {figure}', flush=True)
        elif floor_slowest is None:
            check(f'{what}: answered within 50 ms', max(times) < 50, figure)
        else:
            # The floor service misses 50 ms too on this machine (the flood's messages go
            # through one dbus-daemon, on cores shared with the flooding client): held when
            # within 50 ms, or within 1.25 times the floor's slowest, measured in this run.
            check(f'{what}: answered within 50 ms, or 1.25 times the floor ({floor_slowest:.1f} ms)',
                  max(times) < max(50, 1.25 * floor_slowest), figure)

    print('== 10 000 calls from one client at once', flush=True)
    before = rss_kib(daemon.pid)
    cpu = cpu_ms(daemon.pid)
    flooding = dbus.bus.BusConnection(address)
    send_without_waiting(flooding, 10000)
    one = status_during(observer, 2.0)
    judge('Status from another client during 10 000 calls', one, floor[0])
    print(f'    RSS {before} KiB -> {rss_kib(daemon.pid)} KiB; the service used {cpu_ms(daemon.pid) - cpu} ms of CPU')
    flooding.close()

    print('== 100 clients at once', flush=True)
    crowd = [dbus.bus.BusConnection(address) for _ in range(100)]
    for client in crowd:
        send_without_waiting(client, 20)
    many = status_during(observer, 2.0)
    judge('Status from another client while 100 clients call', many, floor[1])
    for client in crowd:
        client.close()
    print(f'RSS at the end {rss_kib(daemon.pid)} KiB', flush=True)
    return max(one), max(many)


if __name__ == '__main__':
    main()
