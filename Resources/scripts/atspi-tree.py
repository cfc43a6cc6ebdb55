#!/usr/bin/python3
"""Prints an application's accessibility tree as a screen reader sees it (AT-SPI), one JSON
object per node: {"depth", "role", "name", "description", "showing", "states", "extents" (x, y,
width, height on the screen, for a component)}; for the tests.
usage: atspi-tree.py APP_NAME [TIMEOUT_SECONDS [PID]]   (exit 1 when the application never appears)
With PID, only that process's application is read: the tests' lanes share one accessibility bus,
where another test's reel may still be on its way out."""
import json, sys, time
import gi
gi.require_version("Atspi", "2.0")
from gi.repository import Atspi

name, timeout = sys.argv[1], float(sys.argv[2]) if len(sys.argv) > 2 else 20
pid = int(sys.argv[3]) if len(sys.argv) > 3 else None
deadline, app = time.time() + timeout, None
while app is None and time.time() < deadline:
    desktop = Atspi.get_desktop(0)
    for i in range(desktop.get_child_count()):
        child = desktop.get_child_at_index(i)
        if child is not None and (pid is None or child.get_process_id() == pid) and child.get_name() == name:
            app = child
    if app is None:
        time.sleep(0.3)
if app is None:
    sys.exit(f"{name}{'' if pid is None else f' (pid {pid})'}: not on the accessibility bus within {timeout:.0f} s")

def walk(node, depth):
    try:
        states = node.get_state_set()
        showing = states.contains(Atspi.StateType.SHOWING)
        kept = [s.value_nick for s in (Atspi.StateType.CHECKED, Atspi.StateType.SENSITIVE, Atspi.StateType.FOCUSABLE,
                                       Atspi.StateType.PRESSED, Atspi.StateType.SELECTED, Atspi.StateType.FOCUSED) if states.contains(s)]
        extents = None
        # Only a shown component is asked (asking another makes GTK's bridge complain on stderr).
        if showing and "Component" in (node.get_interfaces() or []):
            try:
                e = node.get_extents(Atspi.CoordType.SCREEN)
                extents = [e.x, e.y, e.width, e.height]
            except Exception:
                pass
        print(json.dumps({"depth": depth, "role": node.get_role_name(), "name": node.get_name() or "",
                          "description": node.get_description() or "", "showing": showing, "states": kept, "extents": extents}))
        for i in range(node.get_child_count()):
            child = node.get_child_at_index(i)
            if child is not None:
                walk(child, depth + 1)
    except Exception as e:  # a node gone while walking
        print(json.dumps({"depth": depth, "error": str(e)}))

walk(app, 0)
