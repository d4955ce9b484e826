//! SVG charts: self-contained primitives that draw a study's results (line charts with
//! intervals, stacked bars, box plots and histograms) as standalone SVG documents, using the
//! standard library only. Non-finite numbers are treated as missing and never printed.

use std::fmt::Write as _;

/// Appends formatted text to a `String` (which cannot fail).
macro_rules! w {
    ($out:expr, $($arg:tt)*) => {{
        let _ = write!($out, $($arg)*);
    }};
}

/// Distinguishable colours (Okabe–Ito based, no yellow), cycled.
const PALETTE: [&str; 8] = [
    "#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#8c564b", "#555555",
];
/// The text colour with the better contrast on each palette colour.
const ON_PALETTE: [&str; 8] = [
    "#ffffff", "#000000", "#000000", "#000000", "#000000", "#000000", "#ffffff", "#ffffff",
];
const INK: &str = "#222222";
/// Estimated width of a character at font size 12.
const CHAR_W: f64 = 7.0;
/// Top of the plot area (below the title).
const TOP: f64 = 48.0;
/// Height of one row (bar or box plot).
const ROW_H: f64 = 30.0;
/// Height of a bar or a box inside its row.
const BAR_H: f64 = 18.0;

/// A value with a 95 % interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// The point estimate.
    pub value: f64,
    /// The lower end of the interval.
    pub low: f64,
    /// The upper end of the interval.
    pub high: f64,
}

/// One line of a line chart: a name and one optional estimate per x position.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    /// The legend name.
    pub name: String,
    /// One point per x position; `None` (or a non-finite value) leaves a gap.
    pub points: Vec<Option<Estimate>>,
}

/// One group of a stacked bar chart: a name (e.g. "scandinavian-8x8 ab:d4") and a value per
/// part (e.g. the share of games ended by each reason), in the order of `parts`.
#[derive(Clone, Debug, PartialEq)]
pub struct Bar {
    /// The bar's label.
    pub name: String,
    /// One value per part; negative or non-finite values count as 0, extra values are ignored.
    pub values: Vec<f64>,
}

/// One distribution of a box-plot chart: a name and its sample (e.g. game lengths in plies).
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// The row's label.
    pub name: String,
    /// The sample, in any order; non-finite values are ignored.
    pub values: Vec<f64>,
}

/// The `q` quantile (0 ≤ q ≤ 1, clamped) of an ascending slice, by linear interpolation between
/// order statistics (R's type 7); `None` for an empty slice or a NaN `q`.
pub fn quantile(sorted: &[f64], q: f64) -> Option<f64> {
    if sorted.is_empty() || q.is_nan() {
        return None;
    }
    let h = (sorted.len() - 1) as f64 * q.clamp(0.0, 1.0);
    let i = h.floor() as usize;
    let lo = *sorted.get(i)?;
    let hi = *sorted.get(i + 1).unwrap_or(&lo);
    Some(lo + (h - i as f64) * (hi - lo))
}

/// Escapes text for XML content and attributes; drops characters XML 1.0 does not allow.
fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if c.is_control() || c == '\u{fffe}' || c == '\u{ffff}' => {}
            c => out.push(c),
        }
    }
    out
}

/// A number with at most 2 decimals and no trailing zeros; empty for a non-finite value.
fn num(v: f64) -> String {
    if !v.is_finite() {
        return String::new();
    }
    if v.abs() >= 1e12 {
        return format!("{v:.0}");
    }
    let s = format!("{:.2}", (v * 100.0).round() / 100.0);
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" { "0" } else { s }.to_string()
}

/// A number displayed as by [`num`].
#[derive(Clone, Copy, Debug)]
struct N(f64);

impl std::fmt::Display for N {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&num(self.0))
    }
}

/// A share (0..=1) as a whole percentage.
fn pct(share: f64) -> String {
    format!("{}%", num((share * 100.0).round()))
}

/// Estimated width in pixels of text at font size 12.
fn text_w(s: &str) -> f64 {
    s.chars().count() as f64 * CHAR_W
}

/// The estimated width of the widest text.
fn widest<S: AsRef<str>>(texts: impl IntoIterator<Item = S>) -> f64 {
    texts
        .into_iter()
        .map(|s| text_w(s.as_ref()))
        .fold(0.0, f64::max)
}

/// Tick values between `lo` and `hi` at a "nice" step (1, 2 or 5 × 10^k), 4 to 8 of them when
/// possible (steps of at least 1 when `integer`).
fn nice_ticks(lo: f64, hi: f64, integer: bool) -> Vec<f64> {
    if !(lo.is_finite() && hi.is_finite()) || hi <= lo {
        return if lo.is_finite() { vec![lo] } else { Vec::new() };
    }
    if !(hi - lo).is_finite() {
        return vec![lo, hi];
    }
    let range = |step: f64| ((lo / step - 1e-9).ceil(), (hi / step + 1e-9).floor());
    let top = (hi - lo).log10().floor() as i32;
    let mut best = (f64::INFINITY, 1.0); // (badness, step)
    for k in (top - 2)..=(top + 1) {
        for m in [1.0, 2.0, 5.0] {
            let step = m * 10f64.powi(k);
            let (first, last) = range(step);
            let off = (last - first + 1.0 - 6.0).abs();
            let badness = if off <= 2.0 { off } else { off + 10.0 };
            if badness < best.0 && !(integer && step < 1.0) {
                best = (badness, step);
            }
        }
    }
    let (first, last) = range(best.1);
    (first as i64..=last as i64)
        .map(|i| i as f64 * best.1)
        .collect()
}

/// A linear map from data values (`d0..d1`) to pixels (`r0..r1`).
#[derive(Clone, Copy, Debug)]
struct Scale {
    d0: f64,
    d1: f64,
    r0: f64,
    r1: f64,
}

impl Scale {
    fn new(d0: f64, d1: f64, r0: f64, r1: f64) -> Scale {
        Scale { d0, d1, r0, r1 }
    }

    fn map(&self, v: f64) -> f64 {
        let span = self.d1 - self.d0;
        let t = if span > 0.0 {
            (v - self.d0) / span
        } else {
            0.5
        };
        self.r0 + t * (self.r1 - self.r0)
    }
}

/// Line styles.
const AXIS_LINE: &str = "stroke=\"#444444\"";
const GRID_LINE: &str = "stroke=\"#e4e4e4\"";

/// An SVG document being written.
#[derive(Debug)]
struct Doc(String);

impl Doc {
    /// Opens a document of (at least) the given size with its accessible and visible title.
    fn new(width: f64, height: f64, title: &str) -> Doc {
        let (w, h) = (width.max(text_w(title) * 1.4 + 40.0).ceil(), height.ceil());
        let mut d = Doc(String::with_capacity(8192));
        d.raw("<svg xmlns=\"http://www.w3.org/2000/svg\" ");
        w!(d.0, "viewBox=\"0 0 {w} {h}\" width=\"{w}\" height=\"{h}\" ");
        w!(d.0, "role=\"img\" font-family=\"sans-serif\" ");
        w!(d.0, "font-size=\"12\" fill=\"{INK}\">");
        w!(d.0, "<title>{}</title>", escape(title));
        d.rect((0.0, 0.0), (w, h), "fill=\"#ffffff\"", "");
        d.raw("<text x=\"16\" y=\"28\" font-size=\"16\" ");
        w!(d.0, "font-weight=\"bold\">{}</text>", escape(title));
        d
    }

    fn raw(&mut self, s: &str) {
        self.0.push_str(s);
    }

    fn line(&mut self, (x1, y1): (f64, f64), (x2, y2): (f64, f64), style: &str) {
        let (x1, y1, x2, y2) = (N(x1), N(y1), N(x2), N(y2));
        w!(self.0, "<line x1=\"{x1}\" y1=\"{y1}\" ");
        w!(self.0, "x2=\"{x2}\" y2=\"{y2}\" {style}/>");
    }

    /// A text; `anchor` is "start", "middle" or "end".
    fn text(&mut self, (x, y): (f64, f64), anchor: &str, s: &str) {
        let (x, y, s) = (N(x), N(y), escape(s));
        w!(self.0, "<text x=\"{x}\" y=\"{y}\" ");
        w!(self.0, "text-anchor=\"{anchor}\">{s}</text>");
    }

    /// A text centred on `at`.
    fn centre(&mut self, at: (f64, f64), s: &str) {
        self.text(at, "middle", s);
    }

    /// A text turned by `angle` degrees about its anchor point `(x, y)`.
    fn turned(&mut self, (x, y): (f64, f64), angle: f64, anchor: &str, s: &str) {
        let (x, y, s) = (N(x), N(y), escape(s));
        w!(self.0, "<text transform=\"translate({x},{y}) ");
        w!(
            self.0,
            "rotate({angle})\" text-anchor=\"{anchor}\">{s}</text>"
        );
    }

    /// A rectangle with extra attributes and, unless `tip` is empty, a tooltip.
    fn rect(&mut self, (x, y): (f64, f64), (w, h): (f64, f64), attrs: &str, tip: &str) {
        let (x, y, w, h) = (N(x), N(y), N(w.max(0.0)), N(h.max(0.0)));
        w!(self.0, "<rect x=\"{x}\" y=\"{y}\" width=\"{w}\" ");
        w!(self.0, "height=\"{h}\" {attrs}");
        self.close("rect", tip);
    }

    /// A circle with extra attributes and, unless `tip` is empty, a tooltip.
    fn circle(&mut self, (x, y): (f64, f64), r: f64, attrs: &str, tip: &str) {
        let (x, y) = (N(x), N(y));
        w!(self.0, "<circle cx=\"{x}\" cy=\"{y}\" r=\"{r}\" {attrs}");
        self.close("circle", tip);
    }

    /// Closes an element, with a tooltip unless `tip` is empty.
    fn close(&mut self, name: &str, tip: &str) {
        if tip.is_empty() {
            self.raw("/>");
        } else {
            w!(self.0, "><title>{}</title></{name}>", escape(tip));
        }
    }

    /// A vertical value axis at `x` with grid lines across to `right`, labelled `label`.
    fn y_axis(&mut self, s: Scale, ticks: &[f64], x: f64, right: f64, label: &str) {
        self.raw("<g>");
        for &t in ticks {
            let y = s.map(t);
            self.line((x, y), (right, y), GRID_LINE);
            self.line((x - 5.0, y), (x, y), AXIS_LINE);
            self.text((x - 8.0, y + 4.0), "end", &num(t));
        }
        self.line((x, s.r0), (x, s.r1), AXIS_LINE);
        // The label goes just left of the widest tick label.
        let lx = (x - widest(ticks.iter().map(|t| num(*t))) - 20.0).max(16.0);
        self.turned((lx, (s.r0 + s.r1) / 2.0), -90.0, "middle", label);
        self.raw("</g>");
    }

    /// A horizontal value axis at `y` with grid lines up to `top`, ticks labelled by `fmt`.
    fn x_axis(&mut self, s: Scale, ticks: &[f64], y: f64, top: f64, fmt: fn(f64) -> String) {
        self.raw("<g>");
        for &t in ticks {
            let x = s.map(t);
            self.line((x, top), (x, y), GRID_LINE);
            self.line((x, y), (x, y + 5.0), AXIS_LINE);
            self.centre((x, y + 18.0), &fmt(t));
        }
        self.line((s.r0, y), (s.r1, y), AXIS_LINE);
        self.raw("</g>");
    }

    fn finish(mut self) -> String {
        self.raw("</svg>");
        self.0
    }
}

/// The y range that fits the finite values, interval ends and reference, with 5 % padding.
fn fit_range(series: &[Series], reference: Option<f64>) -> (f64, f64) {
    let points = series.iter().flat_map(|s| s.points.iter().flatten());
    let values = points
        .filter(|e| e.value.is_finite())
        .flat_map(|e| [e.value, e.low, e.high])
        .chain(reference)
        .filter(|v| v.is_finite());
    let (lo, hi) = values.fold((f64::INFINITY, -f64::INFINITY), |(a, b), v| {
        (a.min(v), b.max(v))
    });
    if lo > hi {
        return (0.0, 1.0);
    }
    let pad = if hi > lo {
        (hi - lo) * 0.05
    } else {
        (hi.abs() * 0.1).max(0.5)
    };
    (lo - pad, hi + pad)
}

/// A line chart over categorical x positions (e.g. player strengths "ab:d2", "ab:d4", "ab:d6"):
/// each series is a polyline through its points (gaps at None), each point with a vertical
/// error bar from low to high. `y_range` fixes the y axis (e.g. (0.0, 1.0) for a score), else
/// it is fitted to the data (including the intervals) with a little padding. `reference`
/// draws a dashed horizontal line (e.g. 0.5 for an even score), if given.
pub fn line_chart(
    title: &str,
    x_label: &str,
    y_label: &str,
    x_names: &[String],
    series: &[Series],
    y_range: Option<(f64, f64)>,
    reference: Option<f64>,
) -> String {
    let longest = series.iter().map(|s| s.points.len()).max();
    let n = longest.unwrap_or(0).max(x_names.len());
    let reference = reference.filter(|r| r.is_finite());
    let (lo, hi) = match y_range {
        Some((a, b)) if a.is_finite() && b.is_finite() && a < b => (a, b),
        _ => fit_range(series, reference),
    };
    let ticks = nice_ticks(lo, hi, false);
    let plot_w = (n as f64 * 48.0).max(420.0);
    let slot = plot_w / n.max(1) as f64;
    let name_w = widest(x_names);
    // Names too wide for their slot are turned by 35°.
    let rotate = name_w + 8.0 > slot;
    let (sin, cos) = 35f64.to_radians().sin_cos();
    let mut left = 40.0 + widest(ticks.iter().map(|t| num(*t)));
    if rotate {
        left = left.max(name_w * cos - slot / 2.0 + 12.0);
    }
    let names_h = if rotate { name_w * sin + 16.0 } else { 20.0 };
    let legend_w = widest(series.iter().map(|s| &s.name)) + 50.0;
    let legend_w = if series.len() > 1 { legend_w } else { 0.0 };
    let plot_h = (series.len() as f64 * 20.0).max(300.0);
    let (bottom, right) = (TOP + plot_h, left + plot_w);
    let width = (right + 20.0 + legend_w).max(left + plot_w / 2.0 + text_w(x_label) / 2.0 + 20.0);
    let mut d = Doc::new(width, bottom + names_h + 44.0, title);
    let ys = Scale::new(lo, hi, bottom, TOP);
    let y = |v: f64| ys.map(v).clamp(TOP, bottom);
    let x = |i: usize| left + (i as f64 + 0.5) * slot;
    d.y_axis(ys, &ticks, left, right, y_label);
    d.raw("<g>");
    d.line((left, bottom), (right, bottom), AXIS_LINE);
    for i in 0..n {
        d.line((x(i), bottom), (x(i), bottom + 5.0), AXIS_LINE);
        let name = x_names.get(i).map_or("", String::as_str);
        if rotate {
            d.turned((x(i) + 4.0, bottom + 14.0), -35.0, "end", name);
        } else {
            d.centre((x(i), bottom + 18.0), name);
        }
    }
    d.centre((left + plot_w / 2.0, bottom + names_h + 24.0), x_label);
    d.raw("</g>");
    if let Some(r) = reference.filter(|r| (lo..=hi).contains(r)) {
        let style = "stroke=\"#888888\" stroke-dasharray=\"6 4\"";
        d.line((left, y(r)), (right, y(r)), style);
    }
    let valid = |p: &Option<Estimate>| p.filter(|e| e.value.is_finite());
    for (si, s) in series.iter().enumerate() {
        let color = PALETTE[si % PALETTE.len()];
        w!(d.0, "<g stroke=\"{color}\" fill=\"{color}\">");
        let mut run: Vec<String> = Vec::new();
        for (i, p) in s.points.iter().chain([&None]).enumerate() {
            if let Some(e) = valid(p) {
                run.push(format!("{},{}", N(x(i)), N(y(e.value))));
            } else {
                if run.len() > 1 {
                    let points = run.join(" ");
                    w!(d.0, "<polyline fill=\"none\" stroke-width=\"2\" ");
                    w!(d.0, "points=\"{points}\"/>");
                }
                run.clear();
            }
        }
        for (i, p) in s.points.iter().enumerate() {
            let Some(e) = valid(p) else { continue };
            let (cx, name) = (x(i), x_names.get(i).map_or("", String::as_str));
            let mut tip = format!("{}, {name}: {}", s.name, N(e.value));
            if e.low.is_finite() && e.high.is_finite() {
                let (a, b) = (y(e.low), y(e.high));
                d.line((cx, a), (cx, b), "stroke-width=\"1.5\"");
                d.line((cx - 4.0, a), (cx + 4.0, a), "stroke-width=\"1.5\"");
                d.line((cx - 4.0, b), (cx + 4.0, b), "stroke-width=\"1.5\"");
                w!(tip, " [{}, {}]", N(e.low), N(e.high));
            }
            d.circle((cx, y(e.value)), 3.5, "", &tip);
        }
        d.raw("</g>");
    }
    if series.len() > 1 {
        d.raw("<g>");
        for (si, s) in series.iter().enumerate() {
            let (lx, ly) = (right + 20.0, TOP + 8.0 + si as f64 * 20.0);
            let color = PALETTE[si % PALETTE.len()];
            let style = format!("stroke=\"{color}\" stroke-width=\"2\"");
            d.line((lx, ly), (lx + 20.0, ly), &style);
            d.text((lx + 26.0, ly + 4.0), "start", &s.name);
        }
        d.raw("</g>");
    }
    if n == 0 {
        d.centre((left + plot_w / 2.0, TOP + plot_h / 2.0), "no data");
    }
    d.finish()
}

/// Horizontal stacked bars, one per `bars` entry, each split into `parts` (legend names) by
/// its values, scaled so that each bar's total fills the width when `normalise` is true
/// (shares), else to the largest total. Parts with a value of 0 draw nothing. A part wide
/// enough shows its share as a percentage inside it (normalised) or its value.
pub fn stacked_bars(title: &str, parts: &[String], bars: &[Bar], normalise: bool) -> String {
    let clean = |v: &f64| if v.is_finite() && *v > 0.0 { *v } else { 0.0 };
    let total = |b: &Bar| -> f64 { b.values.iter().take(parts.len()).map(clean).sum() };
    let max_total = bars.iter().map(total).fold(0.0, f64::max);
    let scale_max = if normalise || max_total <= 0.0 {
        1.0
    } else {
        max_total
    };
    let left = (widest(bars.iter().map(|b| &b.name)) + 26.0).max(60.0);
    let plot_w = 520.0;
    let bottom = TOP + bars.len().max(1) as f64 * ROW_H;
    let width = left + plot_w + 36.0;
    // Legend items flow in lines within the document's width.
    let mut legend = Vec::new();
    let (mut lx, mut ly) = (16.0, bottom + 48.0);
    for (j, part) in parts.iter().enumerate().filter(|_| parts.len() > 1) {
        let item_w = text_w(part) + 40.0;
        if lx > 16.0 && lx + item_w > width - 16.0 {
            (lx, ly) = (16.0, ly + 20.0);
        }
        legend.push((j, lx, ly));
        lx += item_w;
    }
    let mut d = Doc::new(
        width,
        ly + if legend.is_empty() { -8.0 } else { 20.0 },
        title,
    );
    let xs = Scale::new(0.0, scale_max, left, left + plot_w);
    let ticks = nice_ticks(0.0, scale_max, false);
    let fmt = if normalise { pct } else { num };
    d.x_axis(xs, &ticks, bottom + 4.0, TOP, fmt);
    for (i, bar) in bars.iter().enumerate() {
        let y0 = TOP + i as f64 * ROW_H + (ROW_H - BAR_H) / 2.0;
        let y_text = y0 + BAR_H / 2.0 + 4.0;
        d.raw("<g>");
        d.text((left - 8.0, y_text), "end", &bar.name);
        let mut x0 = left;
        for (j, part) in parts.iter().enumerate() {
            let v = bar.values.get(j).map_or(0.0, clean);
            if v <= 0.0 {
                continue;
            }
            let share = v / total(bar);
            let wd = plot_w * if normalise { share } else { v / scale_max };
            let (fill, ink) = (PALETTE[j % PALETTE.len()], ON_PALETTE[j % PALETTE.len()]);
            let tip = format!("{}, {part}: {} ({})", bar.name, N(v), pct(share));
            let attrs = format!("class=\"bar\" fill=\"{fill}\"");
            d.rect((x0, y0), (wd, BAR_H), &attrs, &tip);
            let label = fmt(if normalise { share } else { v });
            if wd >= text_w(&label) + 8.0 {
                w!(d.0, "<g fill=\"{ink}\">");
                d.centre((x0 + wd / 2.0, y_text), &label);
                d.raw("</g>");
            }
            x0 += wd;
        }
        d.raw("</g>");
    }
    if bars.is_empty() {
        d.centre((left + plot_w / 2.0, TOP + ROW_H / 2.0 + 4.0), "no data");
    }
    if !legend.is_empty() {
        d.raw("<g>");
        for (j, x, y) in legend {
            let fill = format!("fill=\"{}\"", PALETTE[j % PALETTE.len()]);
            d.rect((x, y - 11.0), (14.0, 14.0), &fill, "");
            d.text((x + 20.0, y), "start", &parts[j]);
        }
        d.raw("</g>");
    }
    d.finish()
}

/// The summary a box plot draws.
#[derive(Clone, Debug, PartialEq)]
struct BoxStats {
    n: usize,
    q1: f64,
    median: f64,
    q3: f64,
    /// The whisker ends: the extreme values within 1.5 IQR of the box.
    low: f64,
    high: f64,
    /// The values beyond the whiskers, ascending.
    outliers: Vec<f64>,
}

/// The box-plot summary of the finite values, `None` when there are none.
fn box_stats(values: &[f64]) -> Option<BoxStats> {
    let mut v: Vec<f64> = values.iter().copied().filter(|x| x.is_finite()).collect();
    v.sort_by(f64::total_cmp);
    let (q1, median, q3) = (quantile(&v, 0.25)?, quantile(&v, 0.5)?, quantile(&v, 0.75)?);
    let fences = (q1 - 1.5 * (q3 - q1))..=(q3 + 1.5 * (q3 - q1));
    let (inside, outliers): (Vec<f64>, Vec<f64>) = v.iter().partition(|x| fences.contains(x));
    let low = inside.first().copied().unwrap_or(q1);
    let high = inside.last().copied().unwrap_or(q3);
    let n = v.len();
    Some(BoxStats {
        n,
        q1,
        median,
        q3,
        low,
        high,
        outliers,
    })
}

/// Horizontal box plots, one row per sample: the box from the lower to the upper quartile, a
/// line at the median, whiskers to the smallest and largest values within 1.5 interquartile
/// ranges of the box, and the values beyond them as small dots; a shared x axis labelled
/// `x_label` from 0 (or the smallest value if negative) to the largest value. An empty sample
/// draws its name and "no games". Quartiles by linear interpolation between order statistics
/// (the method R calls type 7).
pub fn box_plots(title: &str, x_label: &str, samples: &[Sample]) -> String {
    let all = samples.iter().flat_map(|s| &s.values);
    let finite = all.copied().filter(|v| v.is_finite());
    let (min, max) = finite.fold((0.0f64, -f64::INFINITY), |(a, b), v| (a.min(v), b.max(v)));
    let (lo, hi) = (min, if max > min { max } else { min + 1.0 });
    let left = (widest(samples.iter().map(|s| &s.name)) + 26.0).max(60.0);
    let plot_w = 520.0;
    let bottom = TOP + samples.len().max(1) as f64 * ROW_H;
    let mut d = Doc::new(left + plot_w + 36.0, bottom + 60.0, title);
    let xs = Scale::new(lo, hi, left, left + plot_w);
    d.x_axis(xs, &nice_ticks(lo, hi, false), bottom + 4.0, TOP, num);
    d.centre((left + plot_w / 2.0, bottom + 44.0), x_label);
    let color = PALETTE[0];
    for (i, sample) in samples.iter().enumerate() {
        let y0 = TOP + i as f64 * ROW_H + (ROW_H - BAR_H) / 2.0;
        let mid = y0 + BAR_H / 2.0;
        d.raw("<g>");
        d.text((left - 8.0, mid + 4.0), "end", &sample.name);
        let Some(st) = box_stats(&sample.values) else {
            d.text((left + 6.0, mid + 4.0), "start", "no games");
            d.raw("</g>");
            continue;
        };
        let (name, n, med) = (&sample.name, st.n, N(st.median));
        let tip = format!(
            "{name}: {n} values, median {med}, quartiles {} to {}",
            N(st.q1),
            N(st.q3)
        );
        w!(d.0, "<title>{}</title>", escape(&tip));
        let [low, q1, median, q3, high] =
            [st.low, st.q1, st.median, st.q3, st.high].map(|v| xs.map(v));
        d.line((low, mid), (q1, mid), AXIS_LINE);
        d.line((q3, mid), (high, mid), AXIS_LINE);
        d.line((low, mid - 5.0), (low, mid + 5.0), AXIS_LINE);
        d.line((high, mid - 5.0), (high, mid + 5.0), AXIS_LINE);
        let attrs = format!("fill=\"{color}\" fill-opacity=\"0.3\" stroke=\"{color}\"");
        d.rect((q1, y0), (q3 - q1, BAR_H), &attrs, "");
        let style = format!("stroke=\"{color}\" stroke-width=\"2.5\"");
        d.line((median, y0), (median, y0 + BAR_H), &style);
        for &o in &st.outliers {
            d.circle((xs.map(o), mid), 2.0, "fill=\"#444444\"", "");
        }
        d.raw("</g>");
    }
    if samples.is_empty() {
        d.centre((left + plot_w / 2.0, TOP + ROW_H / 2.0 + 4.0), "no data");
    }
    d.finish()
}

/// Bins for a histogram: the first bin's start, the bin width and the count per bin; one bin
/// per integer in range, or at most 40 bins of a nice width aligned to multiples of it.
fn bins(values: &[i64]) -> (i128, i128, Vec<u64>) {
    let (Some(&min), Some(&max)) = (values.iter().min(), values.iter().max()) else {
        return (0, 1, Vec::new());
    };
    let (min, max) = (i128::from(min), i128::from(max));
    let mut width = 1i128;
    'search: for k in 0..20 {
        for m in [1i128, 2, 5] {
            width = m * 10i128.pow(k);
            if max.div_euclid(width) - min.div_euclid(width) < 40 {
                break 'search;
            }
        }
    }
    let start = min.div_euclid(width) * width;
    let mut counts = vec![0u64; (max.div_euclid(width) - min.div_euclid(width) + 1) as usize];
    for &v in values {
        counts[((i128::from(v) - start) / width) as usize] += 1;
    }
    (start, width, counts)
}

/// A histogram of integer values (e.g. score margins of scored games): one bar per distinct
/// value between the smallest and the largest (or bins of equal integer width when there are
/// more than 40 distinct values), heights as counts, x axis labelled `x_label`.
pub fn histogram(title: &str, x_label: &str, values: &[i64]) -> String {
    let (start, width, counts) = bins(values);
    let n = counts.len();
    let starts: Vec<i128> = (0..n as i128).map(|i| start + i * width).collect();
    let max_count = counts.iter().copied().max().unwrap_or(0).max(1) as f64;
    let ticks = nice_ticks(0.0, max_count, true);
    let left = 40.0 + widest(ticks.iter().map(|t| num(*t)));
    let (plot_w, plot_h) = (520.0, 260.0);
    let (bottom, right) = (TOP + plot_h, left + plot_w);
    let mut d = Doc::new(right + 30.0, bottom + 64.0, title);
    let ys = Scale::new(0.0, max_count, bottom, TOP);
    d.y_axis(ys, &ticks, left, right, "count");
    let slot = plot_w / n.max(1) as f64;
    // Every bin is labelled (by its value, or its start at its left edge) if the labels fit,
    // else every `every`-th.
    let every = ((widest(starts.iter().map(|a| a.to_string())) + 8.0) / slot).ceil();
    let fill = format!("class=\"bar\" fill=\"{}\"", PALETTE[0]);
    d.raw("<g>");
    d.line((left, bottom), (right, bottom), AXIS_LINE);
    for (i, (count, a)) in counts.iter().zip(&starts).enumerate() {
        let (x0, top) = (left + i as f64 * slot, ys.map(*count as f64));
        let range = (width > 1).then(|| format!(" to {}", a + width - 1));
        let tip = format!("{a}{}: {count}", range.unwrap_or_default());
        d.rect(
            (x0 + slot * 0.05, top),
            (slot * 0.9, bottom - top),
            &fill,
            &tip,
        );
        if i % (every.max(1.0) as usize) == 0 {
            let cx = if width == 1 { x0 + slot / 2.0 } else { x0 };
            d.line((cx, bottom), (cx, bottom + 5.0), AXIS_LINE);
            d.centre((cx, bottom + 18.0), &a.to_string());
        }
    }
    d.centre((left + plot_w / 2.0, bottom + 44.0), x_label);
    if counts.is_empty() {
        d.centre((left + plot_w / 2.0, TOP + plot_h / 2.0), "no data");
    }
    d.raw("</g>");
    d.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    fn est(value: f64, low: f64, high: f64) -> Option<Estimate> {
        Some(Estimate { value, low, high })
    }

    fn sample(name: &str, values: Vec<f64>) -> Sample {
        let name = name.to_string();
        Sample { name, values }
    }

    /// Asserts the document is a complete, plausibly well-formed SVG without NaN or inf.
    fn assert_svg(svg: &str) {
        assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
        assert!(svg.ends_with("</svg>") && svg.contains("role=\"img\""));
        let opened = svg.matches("<g>").count() + svg.matches("<g ").count();
        assert_eq!(opened, svg.matches("</g>").count(), "unbalanced <g>");
        assert_eq!(svg.matches("<text").count(), svg.matches("</text>").count());
        assert!(svg.contains("<title>") && svg.contains("font-family=\"sans-serif\""));
        for bad in ["NaN", "inf", "<>", "<svg xmlns"] {
            assert!(!svg[1..].contains(bad), "{bad} in {svg}");
        }
    }

    /// The numeric values of an attribute, in document order.
    fn attr(svg: &str, name: &str) -> Vec<f64> {
        let key = format!(" {name}=\"");
        let values = svg.split(key.as_str()).skip(1);
        values
            .filter_map(|rest| rest.split('"').next()?.parse().ok())
            .collect()
    }

    #[test]
    fn escapes_and_formats() {
        let escaped = "a&lt;b &amp; &quot;c&quot; &gt; &apos;d&apos;";
        assert_eq!(escape("a<b & \"c\" > 'd'"), escaped);
        assert_eq!(escape("x\u{1}y"), "xy");
        assert_eq!([num(1.0), num(2.5), num(0.1251)], ["1", "2.5", "0.13"]);
        assert_eq!(
            [num(-0.001), num(-12.3456), num(f64::NAN)],
            ["0", "-12.35", ""]
        );
        assert_eq!(pct(0.5), "50%");
    }

    #[test]
    fn quantile_is_type_7() {
        let four = [1.0, 2.0, 3.0, 4.0];
        assert_eq!(quantile(&four, 0.25), Some(1.75));
        assert_eq!(quantile(&four, 0.5), Some(2.5));
        assert_eq!(quantile(&four, 0.75), Some(3.25));
        assert_eq!(quantile(&[1.0, 2.0, 3.0, 4.0, 5.0], 0.5), Some(3.0));
        assert_eq!(quantile(&[7.0], 0.9), Some(7.0));
        assert_eq!(quantile(&[1.0, 9.0], 0.0), Some(1.0));
        assert_eq!(quantile(&[1.0, 9.0], 1.0), Some(9.0));
        assert_eq!(quantile(&[], 0.5), None);
        assert_eq!(quantile(&[1.0], f64::NAN), None);
    }

    #[test]
    fn ticks_are_nice() {
        let ranges = [
            (0.0, 1.0),
            (0.0, 37.0),
            (-3.2, 118.0),
            (0.4, 0.6),
            (0.0, 1234.0),
        ];
        for (lo, hi) in ranges {
            let ticks = nice_ticks(lo, hi, false);
            assert!((4..=8).contains(&ticks.len()), "{lo}..{hi}: {ticks:?}");
            assert!(ticks.iter().all(|t| *t >= lo - 1e-9 && *t <= hi + 1e-9));
            let step = ticks[1] - ticks[0];
            let mantissa = step / 10f64.powf(step.log10().floor());
            assert!([1.0, 2.0, 5.0].iter().any(|m| (m - mantissa).abs() < 1e-6));
        }
        assert_eq!(nice_ticks(0.0, 1.0, false).last().copied(), Some(1.0));
        assert_eq!(nice_ticks(0.0, 2.0, true), vec![0.0, 1.0, 2.0]);
        assert_eq!(nice_ticks(-f64::MAX, f64::MAX, false).len(), 2);
        let huge = [sample("huge", vec![-f64::MAX, f64::MAX, 0.0])];
        assert_svg(&box_plots("Huge", "x", &huge));
    }

    #[test]
    fn line_chart_places_points_on_the_fixed_range() {
        let points = vec![est(0.0, 0.0, 0.1), est(0.5, 0.4, 0.6), est(1.0, 0.9, 1.0)];
        let s = [Series {
            name: "first".into(),
            points,
        }];
        let x = names(&["d2", "d4", "d6"]);
        let svg = line_chart("Score", "x", "y", &x, &s, Some((0.0, 1.0)), Some(0.5));
        assert_svg(&svg);
        let cy = attr(&svg, "cy");
        assert_eq!(cy.len(), 3);
        // Value 0 on the bottom of the axis, 1 on its top, 0.5 midway.
        assert!((cy[0] - TOP - 300.0).abs() < 0.01 && (cy[2] - TOP).abs() < 0.01);
        assert!((cy[1] - (cy[0] + cy[2]) / 2.0).abs() < 0.01, "{cy:?}");
        assert!(svg.contains("stroke-dasharray") && svg.contains("<polyline"));
    }

    #[test]
    fn line_chart_skips_missing_and_non_finite_points() {
        let nan = est(f64::NAN, f64::NAN, f64::INFINITY);
        let odd = est(0.3, f64::NEG_INFINITY, 0.4);
        let points = vec![est(0.2, 0.1, 0.3), nan, None, odd];
        let a = Series {
            name: "a<b".into(),
            points,
        };
        let points = vec![est(0.6, 0.5, 0.7), est(0.7, 0.6, 0.8)];
        let b = Series {
            name: "b & c".into(),
            points,
        };
        let x = names(&["p", "q", "r", "s"]);
        let svg = line_chart("T", "x", "y", &x, &[a, b], None, Some(f64::NAN));
        assert_svg(&svg);
        assert!(svg.contains("a&lt;b") && svg.contains("b &amp; c") && !svg.contains("a<b"));
        assert_eq!(attr(&svg, "cy").len(), 4);
        assert_eq!(
            svg.matches("<polyline").count(),
            1,
            "a has no adjacent points"
        );
        assert!(!svg.contains("stroke-dasharray"));
        let empty = line_chart("Empty", "x", "y", &[], &[], None, None);
        assert_svg(&empty);
        assert!(empty.contains("no data"));
    }

    #[test]
    fn stacked_bars_show_shares() {
        let parts = names(&["win", "draw", "limit"]);
        let long = "scandinavian-8x8 ab:d4";
        let bars = [
            Bar {
                name: long.into(),
                values: vec![1.0, 1.0, 2.0],
            },
            Bar {
                name: "x<y".into(),
                values: vec![0.0, f64::NAN, 3.0],
            },
        ];
        let svg = stacked_bars("Endings", &parts, &bars, true);
        assert_svg(&svg);
        assert!(svg.contains(">50%</text>") && svg.contains(">25%</text>"));
        assert!(svg.contains("x&lt;y"));
        let rects: Vec<&str> = svg.split("<rect").filter(|r| r.contains("bar")).collect();
        assert_eq!(rects.len(), 4, "zero and NaN parts draw nothing");
        // The long name fits left of the bars.
        assert!(attr(rects[0], "x")[0] >= text_w(long) + 16.0);
        let raw = stacked_bars("Counts", &parts, &bars, false);
        assert_svg(&raw);
        assert!(raw.contains("\"#000000\"><text") && raw.contains(">3</text></g>"));
        assert!(!raw.contains("%</text>"));
    }

    #[test]
    fn box_plots_summarise_and_handle_empty_samples() {
        let mut values: Vec<f64> = (1..=20).map(f64::from).collect();
        values.extend([100.0, f64::NAN]);
        let samples = [sample("long<games>", values), sample("none", vec![])];
        let svg = box_plots("Lengths", "plies", &samples);
        assert_svg(&svg);
        assert!(svg.contains("no games") && svg.contains("long&lt;games&gt;"));
        let end = text_w("long<games>") + 26.0 + 520.0;
        assert_eq!(
            attr(&svg, "cx"),
            vec![end],
            "100 is the only outlier, at the axis end"
        );
        let st = box_stats(&[1.0, 2.0, 3.0, 4.0, 5.0, 50.0]).expect("non-empty");
        assert_eq!((st.q1, st.median, st.q3), (2.25, 3.5, 4.75));
        assert_eq!((st.low, st.high, st.outliers), (1.0, 5.0, vec![50.0]));
        let many: Vec<Sample> = (0..10)
            .map(|i| sample(&format!("s{i}"), vec![1.0]))
            .collect();
        assert!(attr(&box_plots("T", "x", &many), "height")[0] > attr(&svg, "height")[0]);
    }

    #[test]
    fn histogram_has_one_bar_per_value_or_bins() {
        let svg = histogram("Margins", "margin", &[-2, 1, 1, 3]);
        assert_svg(&svg);
        assert_eq!(
            svg.matches("class=\"bar\"").count(),
            6,
            "one per integer, -2 to 3"
        );
        assert!(svg.contains("<title>1: 2</title>"));
        let wide: Vec<i64> = (0..500).collect();
        let svg = histogram("Wide", "a&b", &wide);
        assert_svg(&svg);
        let bars = svg.matches("class=\"bar\"").count();
        assert!((2..41).contains(&bars), "{bars}");
        assert!(svg.contains("a&amp;b") && svg.contains("<title>0 to 19: 20</title>"));
        let (start, width, counts) = bins(&[i64::MIN, i64::MAX]);
        assert!(counts.len() <= 40 && counts.iter().sum::<u64>() == 2);
        assert!(start <= i128::from(i64::MIN) && width > 1);
        assert!(histogram("None", "x", &[]).contains("no data"));
    }
}
