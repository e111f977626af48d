'''A fake MPRIS media player for RouteKit's tests, as a python3-dbusmock template.

    /usr/bin/python3 -m dbusmock --session --template mpris_player.py \
        -p '{"name": "fake", "identity": "Fake Player", "status": "Playing"}'

It serves /org/mpris/MediaPlayer2 (org.mpris.MediaPlayer2 and org.mpris.MediaPlayer2.Player),
takes org.mpris.MediaPlayer2.NAME once its object is complete, and then prints "ready".
Pause, Play, PlayPause and Stop change PlaybackStatus and announce it with PropertiesChanged,
as players do; dbusmock's GetCalls (org.freedesktop.DBus.Mock) lists the calls it received.

Parameters:
    name       the part after org.mpris.MediaPlayer2. (default "fake")
    identity   Identity (default "Fake Player")
    status     the first PlaybackStatus (default "Playing")
    can_pause  CanPause (default true)
    fault      how it misbehaves: "" (not at all), "no-player-interface" (only the root
               interface), "wrong-types" (PlaybackStatus a number, CanPause a string),
               "refuses" (Pause and Play answer an error)

org.routekit.Test.MPRISMock.InvalidateStatus(s status) sets PlaybackStatus without saying
its value: PropertiesChanged names it in invalidated_properties.
'''

import os
import sys

import dbus
import dbus.service

# dbusmock takes this name first; each fake player has its own, so that several run at once.
BUS_NAME = f'org.routekit.Test.MPRISMock.p{os.getpid()}'
MAIN_OBJ = '/org/mpris/MediaPlayer2'
MAIN_IFACE = 'org.mpris.MediaPlayer2'
SYSTEM_BUS = False

PLAYER_IFACE = 'org.mpris.MediaPlayer2.Player'
TEST_IFACE = 'org.routekit.Test.MPRISMock'
REFUSED = 'org.routekit.Test.MPRISMock.Error.Refused'


def set_status(mock, status):
    '''Sets PlaybackStatus and announces it, as a player does when its state changes.'''
    if mock.props[PLAYER_IFACE]['PlaybackStatus'] != status:
        mock.UpdateProperties(PLAYER_IFACE, {'PlaybackStatus': dbus.String(status)})


def command(status_after):
    '''A Player method that refuses when told to, and otherwise moves to a status.'''
    def method(mock, *_):
        if mock.mpris_fault == 'refuses':
            raise dbus.exceptions.DBusException('this player refuses everything', name=REFUSED)
        set_status(mock, status_after(mock.props[PLAYER_IFACE]['PlaybackStatus']))
    return method


def load(mock, parameters):
    name = parameters.get('name', 'fake')
    fault = parameters.get('fault', '')
    mock.mpris_fault = fault
    mock.AddProperties(MAIN_IFACE, {
        'Identity': dbus.String(parameters.get('identity', 'Fake Player')),
        'CanQuit': dbus.Boolean(False),
        'CanRaise': dbus.Boolean(False),
        'HasTrackList': dbus.Boolean(False),
        'SupportedUriSchemes': dbus.Array([], signature='s'),
        'SupportedMimeTypes': dbus.Array([], signature='s'),
    })
    if fault != 'no-player-interface':
        if fault == 'wrong-types':
            status, can_pause = dbus.UInt32(1), dbus.String('yes')
        else:
            status = dbus.String(parameters.get('status', 'Playing'))
            can_pause = dbus.Boolean(parameters.get('can_pause', True))
        mock.AddProperties(PLAYER_IFACE, {
            'PlaybackStatus': status,
            'CanPause': can_pause,
            'CanPlay': dbus.Boolean(True),
            'CanControl': dbus.Boolean(True),
            'CanGoNext': dbus.Boolean(False),
            'CanGoPrevious': dbus.Boolean(False),
            'CanSeek': dbus.Boolean(False),
            'Rate': dbus.Double(1.0),
            'Volume': dbus.Double(1.0),
            'Position': dbus.Int64(0),
            'Metadata': dbus.Dictionary({}, signature='sv'),
        })
        mock.AddMethods(PLAYER_IFACE, [
            ('Pause', '', '', command(lambda _: 'Paused')),
            ('Play', '', '', command(lambda _: 'Playing')),
            ('PlayPause', '', '', command(lambda now: 'Paused' if now == 'Playing' else 'Playing')),
            ('Stop', '', '', command(lambda _: 'Stopped')),
        ])
    mock.AddMethod(TEST_IFACE, 'InvalidateStatus', 's', '',
                   'self.props["org.mpris.MediaPlayer2.Player"]["PlaybackStatus"] = args[0]\n'
                   'self.EmitSignal("org.freedesktop.DBus.Properties", "PropertiesChanged", "sa{sv}as", '
                   '["org.mpris.MediaPlayer2.Player", dbus.Dictionary({}, signature="sv"), ["PlaybackStatus"]])')
    # The player's name last, once its object is complete: whoever sees the name can read it.
    # A later fake of the same name takes it over, as a restarted player does.
    mock.mpris_name = dbus.service.BusName(f'org.mpris.MediaPlayer2.{name}', mock.connection,
                                           allow_replacement=True, replace_existing=True, do_not_queue=True)
    print('ready', flush=True)
