import CGStreamer
import ReelCore

// Hardware decoding (`HardwareDecoders`): the mode, and the fall back to software when a
// hardware decoder fails.
extension Player {
    /// `--hwdec`: applied from the next load.
    public var hardwareDecoding: HardwareDecodingMode {
        get { hardwareDecoders.mode }
        set { hardwareDecoders.mode = newValue }
    }

    /// A hardware decoder failed (an error it posted, or no picture within the preroll bound):
    /// the same item is loaded again with GStreamer's own ranks (software decoders), where it had
    /// got to, with a `hwdec-fallback` warning; never an item error. Once per item: false when
    /// the item already fell back (its error is then the item's).
    func fallBackToSoftwareDecoding(decoder: String, reason: String) -> Bool {
        guard let item = currentItem, hardwareDecoders.mayFallBack(item) else { return false }
        let at = prerolled ? lastPosition : startPosition
        hardwareDecoders.fellBack(item)
        Log.debug(.decoding, .warning, "\(decoder) failed (\(reason)): \(item.uri) again at \(at ?? 0) s in software")
        emit(.warning(HardwareDecoderRanking.fallbackWarning(decoder: decoder, reason: reason, uri: item.uri)))
        // The same item again: its events say so (`attempt`), as a retry's do.
        var again = item
        again.attempt = max(1, item.attempt)
        load(again)
        if let at, at > 0.5 { startPosition = at }
        return true
    }
}

extension Player {
    /// Tests only: the READY probes are made again (a stand-in decoder's device comes and goes).
    @_spi(Testing) public nonisolated static func forgetHardwareDecoderProbes() { HardwareDecoders.Registry.forgetProbes() }
}
