import CGtk
import Foundation
import ReelCore

/// Draws a contact sheet: one row per item, its title and details on the left, then its frames
/// as thumbnails; failed items are tinted red and say why. Cairo image surface + Pango, so it
/// needs no display.
public enum ContactSheetRenderer {
    public struct Thumbnail: Sendable, Equatable {
        /// A PNG file, or nil when no frame was captured (a grey box is drawn).
        public var path: String?
        public var caption: String
        public init(path: String?, caption: String) { self.path = path; self.caption = caption }
    }

    public struct Row: Sendable, Equatable {
        public var title: String
        public var details: String
        /// Why the item failed; nil when it played.
        public var failure: String?
        public var thumbnails: [Thumbnail]
        public init(title: String, details: String, failure: String?, thumbnails: [Thumbnail]) {
            self.title = title; self.details = details; self.failure = failure; self.thumbnails = thumbnails
        }
    }

    public struct Layout: Sendable {
        public var thumbnailWidth = 192
        public var thumbnailHeight = 108
        public var textWidth = 340
        public var padding = 10
        public var captionHeight = 18
        public init() {}
        public var rowHeight: Int { thumbnailHeight + captionHeight + 2 * padding }
    }

    /// Colours (RGB 0…1) the tests and users can rely on.
    public static let failedBackground = (r: 0.99, g: 0.85, b: 0.85)
    public static let okBackground = (r: 1.0, g: 1.0, b: 1.0)
    public static let missingFrame = (r: 0.6, g: 0.6, b: 0.6)

    public struct RenderError: Error, CustomStringConvertible {
        public var description: String
    }

    /// Renders the rows into a PNG at `path`. Returns the image size.
    @discardableResult
    public static func render(_ rows: [Row], to path: String, layout: Layout = Layout()) throws -> (width: Int, height: Int) {
        let columns = max(1, rows.map(\.thumbnails.count).max() ?? 1)
        let width = layout.textWidth + columns * (layout.thumbnailWidth + layout.padding) + layout.padding
        let height = max(1, rows.count) * layout.rowHeight
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(width), Int32(height)) else {
            throw RenderError(description: "cairo could not create a \(width)x\(height) image")
        }
        defer { cairo_surface_destroy(surface) }
        let cr = cairo_create(surface)
        defer { cairo_destroy(cr) }
        cairo_set_source_rgb(cr, 1, 1, 1)
        cairo_paint(cr)

        for (i, row) in rows.enumerated() {
            let y = Double(i * layout.rowHeight)
            let bg = row.failure == nil ? okBackground : failedBackground
            cairo_set_source_rgb(cr, bg.r, bg.g, bg.b)
            cairo_rectangle(cr, 0, y, Double(width), Double(layout.rowHeight))
            cairo_fill(cr)
            // Row separator.
            cairo_set_source_rgb(cr, 0.8, 0.8, 0.8)
            cairo_rectangle(cr, 0, y + Double(layout.rowHeight) - 1, Double(width), 1)
            cairo_fill(cr)

            let textX = Double(layout.padding), textW = layout.textWidth - 2 * layout.padding
            var ty = y + Double(layout.padding)
            ty += drawText(cr, "\(row.title)", x: textX, y: ty, width: textW, font: "Sans Bold 11", color: (0.1, 0.1, 0.1), lines: 2)
            ty += 4
            if let failure = row.failure {
                ty += drawText(cr, "FAILED: \(failure)", x: textX, y: ty, width: textW, font: "Sans Bold 10", color: (0.7, 0, 0), lines: 4)
                ty += 4
            }
            _ = drawText(cr, row.details, x: textX, y: ty, width: textW, font: "Sans 9", color: (0.3, 0.3, 0.3),
                         lines: max(1, Int((y + Double(layout.rowHeight) - ty) / 14)))

            for (c, thumb) in row.thumbnails.enumerated() {
                let x = Double(layout.textWidth + c * (layout.thumbnailWidth + layout.padding))
                let ty0 = y + Double(layout.padding)
                drawThumbnail(cr, thumb.path, x: x, y: ty0, width: Double(layout.thumbnailWidth), height: Double(layout.thumbnailHeight))
                _ = drawText(cr, thumb.caption, x: x, y: ty0 + Double(layout.thumbnailHeight) + 2, width: layout.thumbnailWidth,
                             font: "Sans 8", color: (0.2, 0.2, 0.2), lines: 1)
            }
        }
        cairo_surface_flush(surface)
        let status = cairo_surface_write_to_png(surface, path)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw RenderError(description: "could not write \(path): \(String(cString: cairo_status_to_string(status)))")
        }
        return (width, height)
    }

    /// Draws wrapped, ellipsised text; returns the height used.
    private static func drawText(_ cr: OpaquePointer?, _ text: String, x: Double, y: Double, width: Int, font: String,
                                 color: (Double, Double, Double), lines: Int) -> Double {
        guard let layout = pango_cairo_create_layout(cr) else { return 0 }
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        let desc = pango_font_description_from_string(font)
        defer { pango_font_description_free(desc) }
        pango_layout_set_font_description(layout, desc)
        pango_layout_set_width(layout, Int32(width) * PANGO_SCALE)
        pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
        pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_END)
        pango_layout_set_height(layout, -Int32(max(1, lines)))
        pango_layout_set_text(layout, text, -1)
        cairo_set_source_rgb(cr, color.0, color.1, color.2)
        cairo_move_to(cr, x, y)
        pango_cairo_show_layout(cr, layout)
        var w: Int32 = 0, h: Int32 = 0
        pango_layout_get_pixel_size(layout, &w, &h)
        return Double(h)
    }

    /// Draws a PNG scaled to fit the box (letterboxed on black), or a grey box when missing.
    private static func drawThumbnail(_ cr: OpaquePointer?, _ path: String?, x: Double, y: Double, width: Double, height: Double) {
        cairo_save(cr)
        defer { cairo_restore(cr) }
        var loaded = path.flatMap { cairo_image_surface_create_from_png($0) }
        if let bad = loaded, cairo_surface_status(bad) != CAIRO_STATUS_SUCCESS {
            cairo_surface_destroy(bad)
            loaded = nil
        }
        guard let image = loaded else {
            cairo_set_source_rgb(cr, missingFrame.r, missingFrame.g, missingFrame.b)
            cairo_rectangle(cr, x, y, width, height)
            cairo_fill(cr)
            return
        }
        defer { cairo_surface_destroy(image) }
        let iw = Double(cairo_image_surface_get_width(image)), ih = Double(cairo_image_surface_get_height(image))
        cairo_set_source_rgb(cr, 0, 0, 0)
        cairo_rectangle(cr, x, y, width, height)
        cairo_fill(cr)
        guard iw > 0, ih > 0 else { return }
        let scale = min(width / iw, height / ih)
        let dx = x + (width - iw * scale) / 2, dy = y + (height - ih * scale) / 2
        cairo_translate(cr, dx, dy)
        cairo_scale(cr, scale, scale)
        cairo_set_source_surface(cr, image, 0, 0)
        cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD)
        cairo_paint(cr)
    }
}
