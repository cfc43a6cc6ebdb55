import CGtk

/// A main-thread object that GTK signals are delivered to, by tag (see `SignalBridge`).
@MainActor
protocol SignalReceiver: AnyObject {
    /// A plain signal ("clicked", "value-changed", "changed" …).
    func onSignal(_ tag: Int, instance: UnsafeMutableRawPointer?)
    /// An event signal; return true to stop further handling.
    func onEvent(_ tag: Int, _ event: UnsafeMutablePointer<GdkEvent>) -> Bool
    func onRowActivated(_ tag: Int, index: Int)
    func onDragData(_ tag: Int, context: OpaquePointer?, x: Int, y: Int, selection: OpaquePointer?, time: UInt32)
    func onResponse(_ tag: Int, dialog: UnsafeMutableRawPointer?, response: Int32)
}

extension SignalReceiver {
    func onSignal(_ tag: Int, instance: UnsafeMutableRawPointer?) {}
    func onEvent(_ tag: Int, _ event: UnsafeMutablePointer<GdkEvent>) -> Bool { false }
    func onRowActivated(_ tag: Int, index: Int) {}
    func onDragData(_ tag: Int, context: OpaquePointer?, x: Int, y: Int, selection: OpaquePointer?, time: UInt32) {}
    func onResponse(_ tag: Int, dialog: UnsafeMutableRawPointer?, response: Int32) {}
}
