import Foundation

/// Reads just enough of an MPEG-TS segment to say whether it starts with a keyframe (as
/// mediastreamvalidator asks of every segment): the PAT and PMT give the video PID; the first
/// access unit of that PID must hold an IDR slice (H.264 NAL type 5; H.265 types 16–21) before any
/// other slice. Pure and bounded: it stops at the first video access unit.
public enum TransportStreamScan {
    /// true or false for a TS segment with H.264/H.265 video; nil when the data is not MPEG-TS or
    /// has no such video (audio-only, fMP4: not checked here).
    /// - Parameter offset: where the access unit to judge starts (an I-frame playlist's byte
    ///   range); the PAT and PMT are read from the start of `data` all the same.
    public static func startsWithKeyframe(_ data: Data, at from: Int = 0) -> Bool? {
        guard from >= 0, from % 188 == 0, from < data.count else { return nil }
        let bytes = [UInt8](data.prefix(max(2 << 20, from + (1 << 20))))
        guard bytes.count >= 188, bytes[0] == 0x47 else { return nil }
        var pmtPID: Int?
        var video: (pid: Int, hevc: Bool)?
        var payload: [UInt8] = []
        var collecting = false
        var offset = 0
        while offset + 188 <= bytes.count {
            let packet = bytes[offset..<offset + 188]
            offset += 188
            guard packet[packet.startIndex] == 0x47 else { return nil }
            let b1 = Int(packet[packet.startIndex + 1]), b2 = Int(packet[packet.startIndex + 2]), b3 = Int(packet[packet.startIndex + 3])
            let pusi = b1 & 0x40 != 0
            let pid = (b1 & 0x1F) << 8 | b2
            let adaptation = (b3 >> 4) & 0x3
            var start = packet.startIndex + 4
            if adaptation == 2 { continue }  // no payload
            if adaptation == 3 { start += 1 + Int(packet[start]) }
            guard start < packet.endIndex else { continue }
            let body = Array(packet[start...])
            if pid == 0, pusi, pmtPID == nil {
                // PAT: pointer field, then the table; the first program's PMT PID.
                let p = 1 + Int(body[0])
                guard body.count >= p + 12 else { return nil }
                pmtPID = (Int(body[p + 10]) & 0x1F) << 8 | Int(body[p + 11])
            } else if pid == pmtPID, pusi, video == nil {
                let p = 1 + Int(body[0])
                guard body.count >= p + 12 else { return nil }
                let sectionLength = (Int(body[p + 1]) & 0x0F) << 8 | Int(body[p + 2])
                let infoLength = (Int(body[p + 10]) & 0x0F) << 8 | Int(body[p + 11])
                var i = p + 12 + infoLength
                let end = min(body.count, p + 3 + sectionLength - 4)
                while i + 5 <= end {
                    let type = body[i]
                    let esPID = (Int(body[i + 1]) & 0x1F) << 8 | Int(body[i + 2])
                    let esInfo = (Int(body[i + 3]) & 0x0F) << 8 | Int(body[i + 4])
                    if type == 0x1B { video = (esPID, false); break }
                    if type == 0x24 { video = (esPID, true); break }
                    i += 5 + esInfo
                }
                if video == nil { return nil }
            } else if let v = video, pid == v.pid, offset - 188 >= from {
                if pusi {
                    if collecting { break }  // the first access unit is complete
                    collecting = true
                    // Skip the PES header.
                    guard body.count >= 9, body[0] == 0, body[1] == 0, body[2] == 1, 9 + Int(body[8]) <= body.count else { return nil }
                    payload += body[(9 + Int(body[8]))...]
                } else if collecting {
                    payload += body
                }
            }
        }
        guard let v = video, !payload.isEmpty else { return nil }
        return firstSliceIsKeyframe(payload, hevc: v.hevc)
    }

    /// Walks Annex B NAL units: true at the first IDR/IRAP slice, false at the first other slice.
    static func firstSliceIsKeyframe(_ es: [UInt8], hevc: Bool) -> Bool? {
        var i = 0
        while i + 3 < es.count {
            if es[i] == 0, es[i + 1] == 0, es[i + 2] == 1 {
                let header = es[i + 3]
                if hevc {
                    let type = Int(header >> 1) & 0x3F
                    if (16...21).contains(type) { return true }
                    if type <= 9 { return false }
                } else {
                    let type = Int(header) & 0x1F
                    if type == 5 { return true }
                    if type == 1 { return false }
                }
                i += 3
            } else {
                i += 1
            }
        }
        return nil
    }
}
