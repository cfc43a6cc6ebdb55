import Foundation

/// A stand-in for org.freedesktop.ScreenSaver on the session bus (a python3-gi process, as
/// dbus-run-session gives `make test` a private bus): it answers Inhibit with cookies 42, 43, …
/// and prints every call, so a test sees what Reel asked for. `replyDelay` holds each Inhibit's
/// reply back (the call is printed at once), as a slow service would.
public final class FakeScreenSaver: @unchecked Sendable {  // its state is the child process and its output file
    private let process: BackgroundProcess

    static let script = #"""
import sys
from gi.repository import Gio, GLib
xml = """<node><interface name='org.freedesktop.ScreenSaver'>
<method name='Inhibit'><arg type='s' direction='in'/><arg type='s' direction='in'/><arg type='u' direction='out'/></method>
<method name='UnInhibit'><arg type='u' direction='in'/></method></interface></node>"""
iface = Gio.DBusNodeInfo.new_for_xml(xml).interfaces[0]
cookie = [41]
delay_ms = int(float(sys.argv[1]) * 1000) if len(sys.argv) > 1 else 0
def reply(invocation, value):
    invocation.return_value(GLib.Variant('(u)', (value,)))
    return False
def call(conn, sender, path, name, method, params, invocation):
    if method == 'Inhibit':
        cookie[0] += 1
        app, reason = params.unpack()
        print('Inhibit|%s|%s|%d' % (app, reason, cookie[0]), flush=True)
        if delay_ms > 0:
            GLib.timeout_add(delay_ms, reply, invocation, cookie[0])
        else:
            reply(invocation, cookie[0])
    else:
        print('UnInhibit|%d' % params.unpack()[0], flush=True)
        invocation.return_value(None)
def acquired(conn, name):
    conn.register_object('/org/freedesktop/ScreenSaver', iface, call, None, None)
def owned(conn, name):
    print('ready', flush=True)
def lost(conn, name):
    print('lost', flush=True)
    sys.exit(1)
Gio.bus_own_name(Gio.BusType.SESSION, 'org.freedesktop.ScreenSaver', Gio.BusNameOwnerFlags.NONE, acquired, owned, lost)
GLib.MainLoop().run()
"""#

    /// Starts the service and waits (up to 10 s) until it owns its name. Throws without a
    /// session bus or python3-gi.
    public init(replyDelay: Double = 0) throws {
        guard ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil else {
            throw NSError(domain: "FakeScreenSaver", code: 1, userInfo: [NSLocalizedDescriptionKey: "no session bus (run under dbus-run-session, as make test does)"])
        }
        process = try BackgroundProcess("/usr/bin/python3", ["-c", Self.script, String(replyDelay)])
        let deadline = Date().addingTimeInterval(10)
        while !process.stdout.contains("ready") {
            guard Date() < deadline, process.process.isRunning else {
                throw NSError(domain: "FakeScreenSaver", code: 2, userInfo: [NSLocalizedDescriptionKey: "did not start: \(process.stderr)"])
            }
            usleep(20_000)
        }
    }

    /// The calls so far: "Inhibit|app|reason|cookie", "UnInhibit|cookie".
    public var calls: [String] { process.stdout.split(separator: "\n").map(String.init).filter { $0 != "ready" } }

    /// Ends the service (it never exits by itself: no stacks wanted).
    public func stop() { process.finish(timeout: 0.1, dumpStacks: false) }
}
