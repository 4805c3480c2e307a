//! Charts of number sequences with the plotters crate: a scatter plot (nim sequences), a bar
//! chart (distance distributions) and a line chart of several sequences, as PNG or SVG.
use plotters::coord::Shift;
use plotters::prelude::*;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Scatter,
    Bar,
    Line,
}

impl Kind {
    pub fn parse(s: &str) -> Option<Kind> {
        match s {
            "scatter" | "points" => Some(Kind::Scatter),
            "bar" | "bars" => Some(Kind::Bar),
            "line" | "lines" => Some(Kind::Line),
            _ => None,
        }
    }
}

/// One sequence: its name (shown in the legend when there are several) and its points.
pub struct Series {
    pub name: String,
    pub points: Vec<(i64, f64)>,
}

pub struct Chart {
    pub kind: Kind,
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub series: Vec<Series>,
    pub size: (u32, u32),
}

/// Colours of the series, in order (the same palette as the Cayley graph generators).
const COLOURS: [(u8, u8, u8); 8] = [
    (31, 119, 180),
    (214, 39, 40),
    (44, 160, 44),
    (255, 127, 14),
    (148, 103, 189),
    (140, 86, 75),
    (227, 119, 194),
    (23, 190, 207),
];

/// Left and top margins of the plotting area inside the picture, for tests that read pixels.
pub const MARGIN: u32 = 16;

/// A picture drawn by plotters, on whichever backend its file needs.
pub trait Drawing {
    fn draw_on<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), String>;
}

/// Draw `d` on a `size` canvas to `path`: SVG for a `.svg` name, PNG otherwise.
pub fn save(d: &impl Drawing, size: (u32, u32), path: &str) -> Result<(), String> {
    register_font();
    let err = |e: String| format!("cannot draw {path}: {e}");
    if path.to_ascii_lowercase().ends_with(".svg") {
        // drawn in memory and written here, in both formats: the backend's own SVG file is
        // flushed on drop, where a failed write (a full disk) goes unnoticed
        let mut text = String::new();
        {
            let root = SVGBackend::with_string(&mut text, size).into_drawing_area();
            d.draw_on(&root).map_err(err)?;
            root.present().map_err(|e| err(e.to_string()))?;
        }
        std::fs::write(path, text).map_err(|e| format!("cannot write {path}: {e}"))
    } else {
        let mut rgb = vec![0u8; size.0 as usize * size.1 as usize * 3];
        {
            let root = BitMapBackend::with_buffer(&mut rgb, size).into_drawing_area();
            d.draw_on(&root).map_err(err)?;
            root.present().map_err(|e| err(e.to_string()))?;
        }
        let mut bytes = vec![];
        let mut enc = png::Encoder::new(&mut bytes, size.0, size.1);
        enc.set_color(png::ColorType::Rgb);
        enc.set_depth(png::BitDepth::Eight);
        enc.write_header()
            .and_then(|mut w| w.write_image_data(&rgb))
            .map_err(|e| err(e.to_string()))?;
        std::fs::write(path, bytes).map_err(|e| format!("cannot write {path}: {e}"))
    }
}

pub fn draw(c: &Chart, path: &str) -> Result<(), String> {
    if c.series.iter().all(|s| s.points.is_empty()) {
        return Err("nothing to plot: the sequence is empty".into());
    }
    save(c, c.size, path)
}

impl Drawing for Chart {
    fn draw_on<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), String> {
        draw_on(root, self)
    }
}

static FONT: std::sync::Once = std::sync::Once::new();

/// plotters draws text with a font registered from bytes: DejaVu Sans, embedded.
pub fn register_font() {
    FONT.call_once(|| {
        let _ = plotters::style::register_font(
            "sans-serif",
            FontStyle::Normal,
            include_bytes!("../../assets/fonts/DejaVuSans.ttf"),
        );
    });
}

fn draw_on<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, c: &Chart) -> Result<(), String> {
    let e = |x: DrawingAreaErrorKind<DB::ErrorType>| x.to_string();
    root.fill(&WHITE).map_err(e)?;
    let pts = c.series.iter().flat_map(|s| s.points.iter());
    let (mut x0, mut x1, mut y1) = (i64::MAX, i64::MIN, 0f64);
    let mut y0 = 0f64;
    for &(x, y) in pts {
        x0 = x0.min(x);
        x1 = x1.max(x);
        y1 = y1.max(y);
        y0 = y0.min(y);
    }
    let pad = if c.kind == Kind::Bar { 0.6 } else { 0.0 };
    let xr = (x0 as f64 - pad)..(x1.max(x0 + 1) as f64 + pad);
    let yr = y0..(if y1 <= y0 { y0 + 1.0 } else { y1 * 1.05 });
    let mut chart = ChartBuilder::on(root)
        .caption(&c.title, ("sans-serif", 20))
        .margin(MARGIN)
        .x_label_area_size(44)
        .y_label_area_size(if y1 >= 1e6 { 90 } else { 60 })
        .build_cartesian_2d(xr, yr)
        .map_err(e)?;
    let bar = c.kind == Kind::Bar;
    let mut mesh = chart.configure_mesh();
    mesh.x_desc(&c.x_label)
        .y_desc(&c.y_label)
        .label_style(("sans-serif", 13))
        .axis_desc_style(("sans-serif", 15))
        .light_line_style(RGBColor(235, 235, 235));
    if bar || x1 - x0 <= 30 {
        mesh.x_label_formatter(&|x| {
            if (x - x.round()).abs() < 1e-9 {
                format!("{}", x.round() as i64)
            } else {
                String::new()
            }
        });
    } else {
        mesh.x_label_formatter(&|x| format!("{}", x.round() as i64));
    }
    mesh.y_label_formatter(&|y| {
        if (y - y.round()).abs() < 1e-9 {
            format!("{}", y.round() as i64)
        } else {
            format!("{y:.2}")
        }
    });
    if bar {
        mesh.x_labels(((x1 - x0 + 1) as usize).min(30))
            .disable_x_mesh();
    }
    mesh.draw().map_err(e)?;
    let many = c.series.len() > 1;
    for (k, s) in c.series.iter().enumerate() {
        let (r, g, b) = COLOURS[k % COLOURS.len()];
        let col = RGBColor(r, g, b);
        let label = s.name.clone();
        match c.kind {
            Kind::Scatter => {
                let rad = if s.points.len() > 2000 { 1 } else { 2 };
                let a = chart
                    .draw_series(
                        s.points
                            .iter()
                            .map(|&(x, y)| Circle::new((x as f64, y), rad, col.filled())),
                    )
                    .map_err(e)?;
                if many {
                    a.label(label)
                        .legend(move |(x, y)| Circle::new((x + 8, y), 4, col.filled()));
                }
            }
            Kind::Bar => {
                let w = 0.8 / c.series.len() as f64;
                let off = -0.4 + w * k as f64;
                let a = chart
                    .draw_series(s.points.iter().map(|&(x, y)| {
                        let l = x as f64 + off;
                        Rectangle::new([(l, 0.0), (l + w, y)], col.filled())
                    }))
                    .map_err(e)?;
                if many {
                    a.label(label).legend(move |(x, y)| {
                        Rectangle::new([(x, y - 5), (x + 14, y + 5)], col.filled())
                    });
                }
            }
            Kind::Line => {
                let a = chart
                    .draw_series(LineSeries::new(
                        s.points.iter().map(|&(x, y)| (x as f64, y)),
                        col.stroke_width(2),
                    ))
                    .map_err(e)?;
                if many {
                    a.label(label).legend(move |(x, y)| {
                        PathElement::new(vec![(x, y), (x + 18, y)], col.stroke_width(2))
                    });
                }
            }
        }
    }
    if many {
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .label_font(("sans-serif", 14))
            .position(SeriesLabelPosition::UpperLeft)
            .draw()
            .map_err(e)?;
    }
    Ok(())
}

/// A thermograph: its left and right walls as (temperature, value) polylines from t = −1 up.
/// As in *Winning Ways*, values grow to the left and the temperature upwards; the walls are
/// black, the mast above the temperature grey.
pub struct Thermograph {
    pub title: String,
    pub walls: [Vec<(f64, f64)>; 2],
    pub temperature: f64,
    pub size: (u32, u32),
}

pub fn draw_thermograph(t: &Thermograph, path: &str) -> Result<(), String> {
    save(t, t.size, path)
}

impl Drawing for Thermograph {
    fn draw_on<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), String> {
        thermograph_on(root, self)
    }
}

fn thermograph_on<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    t: &Thermograph,
) -> Result<(), String> {
    let e = |x: DrawingAreaErrorKind<DB::ErrorType>| x.to_string();
    root.fill(&WHITE).map_err(e)?;
    let pts = || t.walls.iter().flatten();
    let (lo, hi) = pts().fold((f64::MAX, f64::MIN), |(a, b), p| (a.min(p.1), b.max(p.1)));
    let top = pts().map(|p| p.0).fold(f64::MIN, f64::max);
    let pad = ((hi - lo) * 0.1).max(0.5);
    let mut chart = ChartBuilder::on(root)
        .caption(&t.title, ("sans-serif", 20))
        .margin(MARGIN)
        .x_label_area_size(44)
        .y_label_area_size(60)
        // values grow to the left
        .build_cartesian_2d((hi + pad)..(lo - pad), -1.0..top)
        .map_err(e)?;
    chart
        .configure_mesh()
        .x_desc("value")
        .y_desc("temperature")
        .label_style(("sans-serif", 13))
        .axis_desc_style(("sans-serif", 15))
        .light_line_style(RGBColor(235, 235, 235))
        .draw()
        .map_err(e)?;
    for wall in &t.walls {
        let below: Vec<(f64, f64)> = wall.iter().map(|&(x, v)| (v, x)).collect();
        let (solid, mast): (Vec<_>, Vec<_>) = below.iter().partition(|p| p.1 <= t.temperature);
        chart
            .draw_series(LineSeries::new(solid.clone(), BLACK.stroke_width(2)))
            .map_err(e)?;
        let from = solid.last().copied().into_iter();
        chart
            .draw_series(LineSeries::new(
                from.chain(mast),
                RGBColor(128, 128, 128).stroke_width(2),
            ))
            .map_err(e)?;
    }
    Ok(())
}
