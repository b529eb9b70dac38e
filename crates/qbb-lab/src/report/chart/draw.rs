//! A [`Layout`] drawn as SVG through plotters, in pixels: the layout has placed everything.

use anyhow::Result;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::{FontDesc, FontStyle};

use super::layout::{Anchor, Layout, Rect, Role, Swatch};
use super::{FONT, color, fill, plot_error};

/// Plotters' SVG backend writes a font's size divided by 1.24: ask for that much more.
const SVG_FONT_SCALE: f64 = 1.24;

/// Pixels as plotters' integer coordinates.
fn point(x: f64, y: f64) -> (i32, i32) {
    (x.round() as i32, y.round() as i32)
}

fn corners(r: &Rect) -> [(i32, i32); 2] {
    [point(r.x0, r.y0), point(r.x1, r.y1)]
}

/// The chart as an SVG document.
pub fn svg(layout: &Layout) -> Result<String> {
    let mut svg = String::new();
    {
        let size = (layout.width as u32, layout.height as u32);
        let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        root.fill(&WHITE).map_err(plot_error)?;
        for band in &layout.bands {
            root.draw(&Rectangle::new(corners(band), BLACK.mix(0.1).filled()))
                .map_err(plot_error)?;
        }
        // The grid across each group's rows, the line of 1× darker; the headings stay clear.
        for &(top, bottom) in &layout.spans {
            for &x in &layout.ticks {
                let line = [point(x, top), point(x, bottom)];
                root.draw(&PathElement::new(line, BLACK.mix(0.12).stroke_width(1)))
                    .map_err(plot_error)?;
            }
            let one = [point(layout.one, top), point(layout.one, bottom)];
            root.draw(&PathElement::new(one, BLACK.stroke_width(1)))
                .map_err(plot_error)?;
        }
        for bar in &layout.bars {
            let outline = color(&bar.implementation);
            let body = fill(&bar.implementation, bar.inherited);
            root.draw(&Rectangle::new(corners(&bar.rect), body.filled()))
                .map_err(plot_error)?;
            root.draw(&Rectangle::new(corners(&bar.rect), outline.stroke_width(1)))
                .map_err(plot_error)?;
            if let Some((low, high)) = bar.whisker {
                whisker(&root, low, high, (bar.rect.y0 + bar.rect.y1) / 2.0)?;
            }
        }
        for (swatch, r) in &layout.legend {
            legend_mark(&root, swatch, r)?;
        }
        for label in &layout.labels {
            let (x, y) = label.anchor_point();
            let h = match label.anchor {
                Anchor::Left => HPos::Left,
                Anchor::Centre => HPos::Center,
                Anchor::Right => HPos::Right,
            };
            let style = if label.bold {
                FontStyle::Bold
            } else {
                FontStyle::Normal
            };
            let shade = match label.role {
                Role::Footer | Role::Tick => BLACK.mix(0.7),
                _ => BLACK.mix(1.0),
            };
            let font = FontDesc::new(FontFamily::Name(FONT), label.px * SVG_FONT_SCALE, style);
            let text_style = TextStyle::from(font)
                .color(&shade)
                .pos(Pos::new(h, VPos::Center));
            root.draw(&Text::new(label.text.clone(), point(x, y), text_style))
                .map_err(plot_error)?;
        }
        root.present().map_err(plot_error)?;
    }
    Ok(svg)
}

/// An interval: a line from `low` to `high` with a cap at each end.
fn whisker<DB: DrawingBackend>(
    root: &DrawingArea<DB, plotters::coord::Shift>,
    low: f64,
    high: f64,
    y: f64,
) -> Result<()> {
    let style = BLACK.mix(0.85).stroke_width(1);
    root.draw(&PathElement::new([point(low, y), point(high, y)], style))
        .map_err(plot_error)?;
    for x in [low, high] {
        let cap = [point(x, y - 4.0), point(x, y + 4.0)];
        root.draw(&PathElement::new(cap, style))
            .map_err(plot_error)?;
    }
    Ok(())
}

/// A legend's glyph in its box.
fn legend_mark<DB: DrawingBackend>(
    root: &DrawingArea<DB, plotters::coord::Shift>,
    swatch: &Swatch,
    r: &Rect,
) -> Result<()> {
    match swatch {
        Swatch::Implementation(name) => {
            root.draw(&Rectangle::new(corners(r), color(name).filled()))
                .map_err(plot_error)?;
        }
        Swatch::Pale => {
            // A pale bar, of no implementation's colour in particular: grey in its outline.
            root.draw(&Rectangle::new(corners(r), fill("scalar", true).filled()))
                .map_err(plot_error)?;
            root.draw(&Rectangle::new(corners(r), color("scalar").stroke_width(1)))
                .map_err(plot_error)?;
        }
        Swatch::Band => {
            root.draw(&Rectangle::new(corners(r), BLACK.mix(0.1).filled()))
                .map_err(plot_error)?;
        }
        Swatch::Whisker => whisker(root, r.x0 + 1.0, r.x1 - 1.0, (r.y0 + r.y1) / 2.0)?,
    }
    Ok(())
}
