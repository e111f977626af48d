import Foundation

/// dbusmock templates of the tests' own, written beside a bus's socket for dbusmock to load.
enum MockTemplates {
    /// The stock `logind` template with its sessions in place before its name is owned (as
    /// logind restores them before taking its name), answering `GetSession` and
    /// `GetSessionByPID` as logind does: a known session's real path, or logind's error. The
    /// stock template answers `GetSession(x)` with `…/session/x` whether or not it exists, and
    /// has no `GetSessionByPID`.
    ///
    /// Parameters (JSON): `sessions` (ids, each added with `AddSession`), `locked` (ids whose
    /// `LockedHint` starts true), `auto` (the id `GetSession("auto")` gives; none: it fails),
    /// `by_pid` (the id `GetSessionByPID` gives; none: it fails).
    static let logindSessions = """
        '''logind with its sessions from the start, answering GetSession and GetSessionByPID as logind does.'''
        import dbus
        from dbusmock.templates.logind import *  # noqa: F401,F403 (the stock template's methods)
        from dbusmock.templates import logind as stock

        BUS_NAME = stock.BUS_NAME
        MAIN_OBJ = stock.MAIN_OBJ
        MAIN_IFACE = stock.MAIN_IFACE
        SYSTEM_BUS = True

        SESSION_BY_ID = '''
        path = "/org/freedesktop/login1/session/" + args[0]
        if args[0] == "auto":
            if not self.auto_session:
                raise dbus.exceptions.DBusException("Caller does not belong to any known session",
                                                    name="org.freedesktop.login1.NoSessionForPID")
            path = "/org/freedesktop/login1/session/" + self.auto_session
        elif path not in objects:
            raise dbus.exceptions.DBusException("No session '%s' known" % args[0],
                                                name="org.freedesktop.login1.NoSuchSession")
        ret = dbus.ObjectPath(path)
        '''

        SESSION_BY_PID = '''
        if not self.pid_session:
            raise dbus.exceptions.DBusException("PID %d does not belong to any known session" % args[0],
                                                name="org.freedesktop.login1.NoSessionForPID")
        ret = dbus.ObjectPath("/org/freedesktop/login1/session/" + self.pid_session)
        '''


        def load(mock, parameters):
            stock.load(mock, parameters)
            for session_id in parameters.get('sessions', []):
                path = mock.AddSession(session_id, 'seat0', dbus.UInt32(1000), 'user', True)
                if session_id in parameters.get('locked', []):
                    mockobject.objects[path].props['org.freedesktop.login1.Session']['LockedHint'] = True
            mock.auto_session = parameters.get('auto', '')
            mock.pid_session = parameters.get('by_pid', '')
            mock.AddMethods(MAIN_IFACE, [
                ('GetSession', 's', 'o', SESSION_BY_ID),
                ('GetSessionByPID', 'u', 'o', SESSION_BY_PID),
            ])

        """

    /// `org.freedesktop.ScreenSaver` at `/ScreenSaver`, as KDE serves it (dbusmock has no
    /// template for it): `GetActive`, and `SetActive` (the lock screen's own doing) emitting
    /// `ActiveChanged`.
    static let freedesktopScreenSaverAtRoot = """
        '''org.freedesktop.ScreenSaver at /ScreenSaver, as KDE serves it.'''
        BUS_NAME = 'org.freedesktop.ScreenSaver'
        MAIN_OBJ = '/ScreenSaver'
        MAIN_IFACE = 'org.freedesktop.ScreenSaver'
        SYSTEM_BUS = False


        def load(mock, _parameters):
            mock.AddMethods(MAIN_IFACE, [
                ('GetActive', '', 'b', 'ret = self.is_active'),
                ('SetActive', 'b', 'b', 'self.is_active = args[0]; '
                                        'self.EmitSignal("", "ActiveChanged", "b", [self.is_active]); ret = True'),
            ])
            mock.is_active = False

        """

    /// Writes `template` as `name`.py in `directory`; returns its path.
    static func write(_ template: String, named name: String, in directory: String) throws -> String {
        let path = directory + "/\(name).py"
        try template.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }
}
