import ReelCore
import XCTest

/// The `--events` wire format is a public interface: these pin it.
final class EventEncoderTests: XCTestCase {
    func testLines() {
        let err = PlaybackError(kind: .notAuthorized, message: "Access was refused (HTTP 401).", httpStatus: 401, uri: "https://h/a.m3u8?token=SECRET99")
        let table: [(PlayerEvent, Int?, String)] = [
            (.itemChanged(index: 2, uri: "file:///m/a%20b.mp4", title: "a b.mp4"), 2,
             #"{"event":"item","t":1.5,"item":2,"uri":"file:///m/a%20b.mp4","title":"a b.mp4"}"#),
            (.status(.readyToPlay), 0, #"{"event":"status","t":1.5,"item":0,"status":"readyToPlay"}"#),
            (.timeControl(.waitingToPlayAtSpecifiedRate(.buffering(percent: 25))), 0,
             #"{"event":"time-control","t":1.5,"item":0,"status":"waiting","reason":"buffering","percent":25}"#),
            (.timeControl(.playing), 0, #"{"event":"time-control","t":1.5,"item":0,"status":"playing"}"#),
            (.progress(position: 2.0, duration: 10, tick: .second), 0,
             #"{"event":"tick","t":1.5,"item":0,"position":2.0,"duration":10.0,"every":1}"#),
            (.progress(position: 0.25, duration: nil, tick: .fine), 0,
             #"{"event":"progress","t":1.5,"item":0,"position":0.25,"duration":null}"#),
            (.playedToEnd, 1, #"{"event":"end","t":1.5,"item":1,"reason":"ended"}"#),
            (.error(err), 3, #"{"event":"error","t":1.5,"item":3,"error":{"code":"not-authorized","message":"Access was refused (HTTP 401).","httpStatus":401,"uri":"https://h/a.m3u8?token=***"}}"#),
            (.finished(played: 2, failed: 1, reason: .error), nil, #"{"event":"finished","t":1.5,"item":null,"played":2,"failed":1,"reason":"error"}"#),
            (.finished(played: 1, failed: 0, reason: .userExited), nil, #"{"event":"finished","t":1.5,"item":null,"played":1,"failed":0,"reason":"user-exited"}"#),
            (.timeControl(.stopped), 0, #"{"event":"time-control","t":1.5,"item":0,"status":"stopped"}"#),
            (.status(.failed(err)), 3, #"{"event":"status","t":1.5,"item":3,"status":"failed","error":{"code":"not-authorized","message":"Access was refused (HTTP 401).","httpStatus":401,"uri":"https://h/a.m3u8?token=***"}}"#),
            (.timeControl(.paused), 0, #"{"event":"time-control","t":1.5,"item":0,"status":"paused"}"#),
            (.timeControl(.waitingToPlayAtSpecifiedRate(.seeking)), 0, #"{"event":"time-control","t":1.5,"item":0,"status":"waiting","reason":"seeking"}"#),
            (.timeControl(.waitingToPlayAtSpecifiedRate(.noItem)), nil, #"{"event":"time-control","t":1.5,"item":null,"status":"waiting","reason":"noItem"}"#),
            (.duration(12.5), 0, #"{"event":"duration","t":1.5,"item":0,"duration":12.5}"#),
            (.duration(nil), 0, #"{"event":"duration","t":1.5,"item":0,"duration":null}"#),
            (.progress(position: 20, duration: 60, tick: .tenSeconds), 0, #"{"event":"tick","t":1.5,"item":0,"position":20.0,"duration":60.0,"every":10}"#),
            (.seeked(position: 3.25), 0, #"{"event":"seeked","t":1.5,"item":0,"position":3.25}"#),
            (.progress(position: 4, duration: nil, tick: .second,
                       live: LivePosition(position: 4, window: 0...12, behindLiveEdge: 8, epochTime: 1_795_550_404.5)), 0,
             #"{"event":"tick","t":1.5,"item":0,"position":4.0,"duration":null,"every":1,"epochTime":1795550404.5,"behindLiveEdge":8.0,"window":{"start":0.0,"end":12.0}}"#),
            (.liveStart(mode: .restart, rule: "program-start", live: LivePosition(position: 0.25, window: 0...40, behindLiveEdge: 39.75, epochTime: nil)), 0,
             #"{"event":"live","t":1.5,"item":0,"mode":"restart","rule":"program-start","position":0.25,"epochTime":null,"behindLiveEdge":39.75,"window":{"start":0.0,"end":40.0}}"#),
            (.liveProgramEnd(programEnd: Date(timeIntervalSince1970: 1_795_550_400)), 0,
             #"{"event":"live-program-end","t":1.5,"item":0,"programEnd":"2026-11-24T20:00:00.000Z"}"#),
            (.rate(-1), 0, #"{"event":"rate","t":1.5,"item":0,"rate":-1.0}"#),
            (.volume(volume: 0.5, muted: true), 0, #"{"event":"volume","t":1.5,"item":0,"volume":0.5,"muted":true}"#),
            (.buffering(percent: 75), 0, #"{"event":"buffering","t":1.5,"item":0,"percent":75}"#),
            (.retrying(attempt: 1, delay: 0.5, error: PlaybackError(kind: .serverError, message: "The server failed (HTTP 503).", httpStatus: 503)), 0,
             #"{"event":"retry","t":1.5,"item":0,"attempt":1,"delay":0.5,"error":{"code":"server-error","message":"The server failed (HTTP 503).","httpStatus":503,"uri":null}}"#),
            (.warning(EarlyEnd.error(reached: 3.1, duration: 10.023, uri: "file:///m/cut.mp4")), 0,
             #"{"event":"warning","t":1.5,"item":0,"warning":{"code":"corrupt","message":"It stops at 3.10 s of its 10.02 s: the file is damaged or cut short.","httpStatus":null,"uri":"file:///m/cut.mp4"}}"#),
        ]
        for (event, item, expected) in table {
            XCTAssertEqual(EventEncoder.line(event, item: item, time: 1.5), expected)
        }
    }

    func testEscaping() {
        let line = EventEncoder.line(.itemChanged(index: 0, uri: "file:///x", title: "quote\" back\\ nl\n tab\t \u{1}"), item: 0, time: 0)
        XCTAssertTrue(line.contains(#""title":"quote\" back\\ nl\n tab\t \u0001""#), line)
        XCTAssertNotNil(try JSONSerialization.jsonObject(with: Data(line.utf8)))
    }

    func testSubtitleLinesAndOnlyChangesPass() {
        XCTAssertEqual(EventEncoder.line(.subtitle(text: "Two\nlines", position: 2.0333), item: 0, time: 1),
                       #"{"event":"subtitle","t":1.0,"item":0,"text":"Two\nlines","position":2.033}"#)
        XCTAssertEqual(EventEncoder.line(.subtitle(text: nil, position: nil), item: 0, time: 1),
                       #"{"event":"subtitle","t":1.0,"item":0,"text":null,"position":null}"#)
        var dedup = EventDeduplicator()
        XCTAssertNotNil(dedup.admit(.subtitle(text: "A", position: 1)))
        XCTAssertNil(dedup.admit(.subtitle(text: "A", position: 1)))
        XCTAssertNotNil(dedup.admit(.subtitle(text: nil, position: 2)))
    }

    func testMediaInfoLine() {
        var info = MediaInfo()
        info.width = 640
        info.height = 360
        info.videoCodec = "H.264 (Main Profile)"
        info.audioCodec = "MPEG-4 AAC"
        info.isSeekable = true
        XCTAssertEqual(EventEncoder.line(.mediaInfo(info), item: 0, time: 1.5),
                       #"{"event":"media-info","t":1.5,"item":0,"width":640,"height":360,"videoCodec":"H.264 (Main Profile)","audioCodec":"MPEG-4 AAC","title":null,"live":false,"seekable":true,"videoDecoder":null,"audioDecoder":null,"hardware":null}"#)
    }

    /// The one rule for "ended early", player and `reel check` alike.
    func testEarlyEnd() {
        let table: [(reached: Double, duration: Double, early: Bool)] = [
            (3.1, 10.0, true),     // cut at a third
            (9.2, 10.0, false),    // within a second
            (8.9, 10.0, true),
            (0, 10.0, true),       // nothing played at all
            (95.5, 100.0, false),  // within 5 % of a long item (an estimated duration)
            (94.0, 100.0, true),
            (0.5, 1.0, false),     // a short item: a second's grace
            (10.0, 10.0, false),
            (5, 0, false),         // no duration, no rule
        ]
        for row in table {
            XCTAssertEqual(EarlyEnd.isEarly(reached: row.reached, duration: row.duration), row.early, "\(row)")
        }
    }
}
