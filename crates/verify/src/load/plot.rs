//! The load run as an SVG: achieved throughput per second over time (one line per pattern and
//! entity) above, throttles per second below (the same colours; the emulator's throttled
//! attempts dashed). Written by hand: a few elements, the same bytes for the same report.

use std::fmt::Write as _;

use crate::load::report::LoadReport;

const WIDTH: f64 = 1060.0;
const LEFT: f64 = 64.0;
const RIGHT: f64 = 700.0;
const LEGEND_X: f64 = 720.0;
const TOP_PANEL: (f64, f64) = (48.0, 300.0);
const BOTTOM_PANEL: (f64, f64) = (360.0, 540.0);
const HEIGHT_MIN: f64 = 580.0;
const LEGEND_LINE: f64 = 16.0;

/// Line colours, in stream order (repeating past the last).
const PALETTE: [&str; 20] = [
    "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
    "#bcbd22", "#17becf", "#393b79", "#ad494a", "#637939", "#8ca252", "#843c39", "#d6616b",
    "#7b4173", "#a55194", "#3182bd", "#e6550d",
];

/// The smallest 1, 2 or 5 times a power of ten at or above `value` (1 for nothing).
pub fn nice_ceiling(value: f64) -> f64 {
    if !(value.is_finite() && value > 0.0) {
        return 1.0;
    }
    let magnitude = 10f64.powf(value.log10().floor());
    for step in [1.0, 2.0, 5.0, 10.0] {
        if value <= step * magnitude + 1e-9 * magnitude {
            return step * magnitude;
        }
    }
    10.0 * magnitude
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A number as SVG coordinates want it: one decimal, no `-0.0`.
fn num(value: f64) -> String {
    let text = format!("{value:.1}");
    if text == "-0.0" {
        "0.0".to_string()
    } else {
        text
    }
}

struct Panel {
    top: f64,
    bottom: f64,
    seconds: usize,
    max: f64,
}

impl Panel {
    fn x(&self, second: f64) -> f64 {
        LEFT + (RIGHT - LEFT) * second / self.seconds.max(1) as f64
    }

    fn y(&self, value: f64) -> f64 {
        self.bottom - (self.bottom - self.top) * value / self.max
    }

    /// The frame, the title, horizontal grid lines with their values, and seconds below.
    fn axes(&self, out: &mut String, title: &str) {
        let _ = writeln!(
            out,
            r##"<text x="{}" y="{}" font-weight="bold">{}</text>"##,
            num(LEFT),
            num(self.top - 12.0),
            escape(title)
        );
        for i in 0..=4 {
            let value = self.max * f64::from(i) / 4.0;
            let y = self.y(value);
            let _ = writeln!(
                out,
                r##"<line x1="{}" y1="{y}" x2="{}" y2="{y}" stroke="#ddd"/><text x="{}" y="{}" text-anchor="end">{}</text>"##,
                num(LEFT),
                num(RIGHT),
                num(LEFT - 6.0),
                num(self.y(value) + 4.0),
                label(value),
                y = num(y),
            );
        }
        let step = (self.seconds / 10).max(1);
        for s in (0..=self.seconds).step_by(step) {
            let x = num(self.x(s as f64));
            let _ = writeln!(
                out,
                r##"<text x="{x}" y="{}" text-anchor="middle">{s}</text>"##,
                num(self.bottom + 16.0)
            );
        }
        let _ = writeln!(
            out,
            r##"<rect x="{}" y="{}" width="{}" height="{}" fill="none" stroke="#888"/>"##,
            num(LEFT),
            num(self.top),
            num(RIGHT - LEFT),
            num(self.bottom - self.top)
        );
    }

    /// A dashed vertical line where the schedule ended (later points are requests finishing).
    fn window_end(&self, out: &mut String, window: f64) {
        if window >= self.seconds as f64 {
            return;
        }
        let x = num(self.x(window));
        let _ = writeln!(
            out,
            r##"<line x1="{x}" y1="{}" x2="{x}" y2="{}" stroke="#888" stroke-dasharray="2 3"/>"##,
            num(self.top),
            num(self.bottom)
        );
    }

    /// A line through the middle of each second.
    fn line(&self, out: &mut String, values: &[u64], colour: &str, dashed: bool) {
        if values.is_empty() {
            return;
        }
        let points: Vec<String> = (0..self.seconds)
            .map(|i| {
                let v = values.get(i).copied().unwrap_or(0) as f64;
                format!("{},{}", num(self.x(i as f64 + 0.5)), num(self.y(v)))
            })
            .collect();
        let dash = if dashed {
            r#" stroke-dasharray="6 4""#
        } else {
            ""
        };
        let _ = writeln!(
            out,
            r#"<polyline fill="none" stroke="{colour}" stroke-width="1.5"{dash} points="{}"/>"#,
            points.join(" ")
        );
    }
}

/// A grid value: whole numbers as such, others with one decimal.
fn label(value: f64) -> String {
    if value.fract() == 0.0 {
        format!("{value:.0}")
    } else {
        format!("{value:.1}")
    }
}

/// The report's per-second series as an SVG document.
pub fn svg(report: &LoadReport) -> String {
    let window = report.duration_seconds.ceil() as usize;
    let seconds = report
        .streams
        .iter()
        .flat_map(|s| [s.per_second.ok.len(), s.per_second.throttled.len()])
        .chain([report.emulator_throttled_per_second.len(), window])
        .max()
        .unwrap_or(1)
        .max(1);
    let peak = |f: &dyn Fn(usize) -> u64| (0..seconds).map(f).max().unwrap_or(0) as f64;
    let ok_max = report
        .streams
        .iter()
        .map(|s| {
            let rate = peak(&|i| s.per_second.ok.get(i).copied().unwrap_or(0));
            rate.max(s.target_per_second)
        })
        .fold(0.0, f64::max);
    let throttle_max = report
        .streams
        .iter()
        .map(|s| peak(&|i| s.per_second.throttled.get(i).copied().unwrap_or(0)))
        .chain([peak(&|i| {
            report
                .emulator_throttled_per_second
                .get(i)
                .copied()
                .unwrap_or(0)
        })])
        .fold(0.0, f64::max);
    let top = Panel {
        top: TOP_PANEL.0,
        bottom: TOP_PANEL.1,
        seconds,
        max: nice_ceiling(ok_max),
    };
    let bottom = Panel {
        top: BOTTOM_PANEL.0,
        bottom: BOTTOM_PANEL.1,
        seconds,
        max: nice_ceiling(throttle_max),
    };
    let legend_rows = report.streams.len() + 3;
    let height = HEIGHT_MIN.max(TOP_PANEL.0 + LEGEND_LINE * legend_rows as f64 + 16.0);
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif" font-size="12">"#,
        w = num(WIDTH),
        h = num(height)
    );
    let _ = writeln!(
        out,
        r##"<rect width="100%" height="100%" fill="#fff"/><text x="{}" y="20" font-size="14">{}</text>"##,
        num(LEFT),
        escape(&format!(
            "monotable load: {} ({} s, {}x traffic{})",
            report.meta.model,
            label(report.duration_seconds),
            report.meta.scale,
            match report.meta.capacity_scale {
                Some(scale) if scale != 1.0 => format!(", DynamoDB's limits / {scale}"),
                _ => String::new(),
            }
        ))
    );
    top.axes(
        &mut out,
        "achieved requests/s (dotted: the end of the schedule; after it, requests finishing)",
    );
    bottom.axes(
        &mut out,
        "throttled requests/s (dashed: the emulator's throttled attempts)",
    );
    top.window_end(&mut out, report.duration_seconds);
    bottom.window_end(&mut out, report.duration_seconds);
    let _ = writeln!(
        out,
        r#"<text x="{}" y="{}" text-anchor="middle">seconds</text>"#,
        num((LEFT + RIGHT) / 2.0),
        num(BOTTOM_PANEL.1 + 32.0)
    );
    for (i, s) in report.streams.iter().enumerate() {
        let colour = PALETTE[i % PALETTE.len()];
        top.line(&mut out, &s.per_second.ok, colour, false);
        if s.per_second.throttled.iter().any(|&n| n > 0) {
            bottom.line(&mut out, &s.per_second.throttled, colour, false);
        }
        let y = TOP_PANEL.0 + LEGEND_LINE * i as f64;
        let _ = writeln!(
            out,
            r#"<rect x="{}" y="{}" width="12" height="4" fill="{colour}"/><text x="{}" y="{}">{} {}</text>"#,
            num(LEGEND_X),
            num(y - 4.0),
            num(LEGEND_X + 18.0),
            num(y),
            if s.passed { "" } else { "!" },
            escape(&format!(
                "{} {} ({}/s)",
                if s.kind == crate::load::Kind::Read {
                    "read"
                } else {
                    "write"
                },
                s.name,
                label(s.target_per_second)
            ))
        );
    }
    if !report.emulator_throttled_per_second.is_empty() {
        bottom.line(
            &mut out,
            &report.emulator_throttled_per_second,
            "#000",
            true,
        );
        let y = TOP_PANEL.0 + LEGEND_LINE * (report.streams.len() as f64 + 1.0);
        let _ = writeln!(
            out,
            r##"<line x1="{x}" y1="{}" x2="{}" y2="{}" stroke="#000" stroke-dasharray="6 4"/><text x="{}" y="{}">emulator: throttled attempts</text>"##,
            num(y - 2.0),
            num(LEGEND_X + 12.0),
            num(y - 2.0),
            num(LEGEND_X + 18.0),
            num(y),
            x = num(LEGEND_X),
        );
    }
    out.push_str("</svg>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load::report::LoadReport;

    #[test]
    fn nice_ceilings() {
        assert_eq!(nice_ceiling(0.0), 1.0);
        assert_eq!(nice_ceiling(0.3), 0.5);
        assert_eq!(nice_ceiling(1.0), 1.0);
        assert_eq!(nice_ceiling(1.2), 2.0);
        assert_eq!(nice_ceiling(4.9), 5.0);
        assert_eq!(nice_ceiling(7.0), 10.0);
        assert_eq!(nice_ceiling(480.0), 500.0);
        assert_eq!(nice_ceiling(1000.0), 1000.0);
    }

    #[test]
    fn the_plot_is_stable() {
        let (plan, measured, resources) = crate::load::report::tests::sample();
        let report = LoadReport::build(
            crate::load::report::tests::meta(),
            &plan,
            &measured,
            resources,
            measured.probe_per_second.clone(),
        );
        let svg = svg(&report);
        assert!(svg.starts_with("<svg "));
        // Two throughput lines, two throttle lines, the emulator's.
        assert_eq!(svg.matches("<polyline").count(), 5);
        insta::assert_snapshot!(svg);
    }
}
