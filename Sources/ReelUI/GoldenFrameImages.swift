import CGtk
import Foundation
import ReelCore

/// The images of `reel check --golden`: a frame's luma plane at `FrameSimilarity.size` (the PNG
/// scaled to fill it, BT.601 weights), and the diff image — the new frame with the windows that
/// changed filled and outlined in magenta. Cairo image surfaces, no display needed.
public enum GoldenFrameImages {
    /// The marks' colour: not a colour test pictures use for their own content.
    public static let markColor = (r: 1.0, g: 0.0, b: 1.0)

    /// The luma samples of a PNG scaled to `FrameSimilarity.size`, nil when it cannot be read.
    public static func luma(ofPNG path: String) -> [UInt8]? {
        guard let image = load(path) else { return nil }
        defer { cairo_surface_destroy(image) }
        let (w, h) = FrameSimilarity.size
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(w), Int32(h)) else { return nil }
        defer { cairo_surface_destroy(surface) }
        let cr = cairo_create(surface)
        cairo_scale(cr, Double(w) / Double(cairo_image_surface_get_width(image)), Double(h) / Double(cairo_image_surface_get_height(image)))
        cairo_set_source_surface(cr, image, 0, 0)
        cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD)
        cairo_paint(cr)
        cairo_destroy(cr)
        cairo_surface_flush(surface)
        guard let data = cairo_image_surface_get_data(surface) else { return nil }
        let stride = Int(cairo_image_surface_get_stride(surface))
        var luma = [UInt8](repeating: 0, count: w * h)
        for y in 0..<h {
            for x in 0..<w {
                // RGB24: one native-endian 32-bit word per pixel, 0x00RRGGBB.
                let p = data.advanced(by: y * stride + x * 4).withMemoryRebound(to: UInt32.self, capacity: 1) { $0.pointee }
                let r = (p >> 16) & 0xFF, g = (p >> 8) & 0xFF, b = p & 0xFF
                luma[y * w + x] = UInt8((77 * r + 150 * g + 29 * b) >> 8)
            }
        }
        return luma
    }

    /// Writes the frame at `path` with `areas` (0…1 of the picture) marked, as a PNG at `to`.
    public static func writeDiff(frame path: String, areas: [(x: Double, y: Double, width: Double, height: Double)], to output: String) throws {
        guard let image = load(path) else { throw ContactSheetRenderer.RenderError(description: "\(path) cannot be read as PNG") }
        defer { cairo_surface_destroy(image) }
        let w = Double(cairo_image_surface_get_width(image)), h = Double(cairo_image_surface_get_height(image))
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(w), Int32(h)) else {
            throw ContactSheetRenderer.RenderError(description: "no surface for the diff image")
        }
        defer { cairo_surface_destroy(surface) }
        let cr = cairo_create(surface)
        defer { cairo_destroy(cr) }
        cairo_set_source_surface(cr, image, 0, 0)
        cairo_paint(cr)
        // Dim what did not change, then mark what did.
        cairo_set_source_rgba(cr, 0, 0, 0, 0.45)
        cairo_paint(cr)
        let c = markColor
        for a in areas {
            cairo_rectangle(cr, a.x * w, a.y * h, a.width * w, a.height * h)
        }
        cairo_set_source_rgba(cr, c.r, c.g, c.b, 0.55)
        cairo_fill_preserve(cr)
        cairo_set_source_rgb(cr, c.r, c.g, c.b)
        cairo_set_line_width(cr, 1)
        cairo_stroke(cr)
        cairo_surface_flush(surface)
        let status = cairo_surface_write_to_png(surface, output)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw ContactSheetRenderer.RenderError(description: "could not write \(output): \(String(cString: cairo_status_to_string(status)))")
        }
    }

    /// A PNG's size in pixels, nil when it cannot be read.
    public static func size(ofPNG path: String) -> (width: Int, height: Int)? {
        guard let image = load(path) else { return nil }
        defer { cairo_surface_destroy(image) }
        return (Int(cairo_image_surface_get_width(image)), Int(cairo_image_surface_get_height(image)))
    }

    /// Fills `rects` (pixels) of the PNG at `path` with flat grey, in place: a capture's areas
    /// that may move (`capture-mask`), the same in every run.
    public static func fill(png path: String, rects: [(x: Int, y: Int, width: Int, height: Int)]) throws {
        guard !rects.isEmpty else { return }
        guard let image = load(path) else { throw ContactSheetRenderer.RenderError(description: "\(path) cannot be read as PNG") }
        defer { cairo_surface_destroy(image) }
        let cr = cairo_create(image)
        cairo_set_source_rgb(cr, 0.5, 0.5, 0.5)
        for r in rects { cairo_rectangle(cr, Double(r.x), Double(r.y), Double(r.width), Double(r.height)) }
        cairo_fill(cr)
        cairo_destroy(cr)
        cairo_surface_flush(image)
        guard cairo_surface_write_to_png(image, path) == CAIRO_STATUS_SUCCESS else {
            throw ContactSheetRenderer.RenderError(description: "\(path) could not be written")
        }
    }

    private static func load(_ path: String) -> OpaquePointer? {
        guard let image = cairo_image_surface_create_from_png(path) else { return nil }
        guard cairo_surface_status(image) == CAIRO_STATUS_SUCCESS, cairo_image_surface_get_width(image) > 0, cairo_image_surface_get_height(image) > 0 else {
            cairo_surface_destroy(image)
            return nil
        }
        return image
    }
}
