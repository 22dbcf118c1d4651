//! Rendering a [`CostReport`]: an aligned table for people, JSON for tools.

use std::fmt::Write as _;

use super::CostReport;

/// A number without noise: integers plain, others with at most two decimals, and a figure
/// below 0.01 with two significant digits (`0.0033`), so it never reads as `0`.
pub(crate) fn number(x: f64) -> String {
    if !x.is_finite() {
        return "-".to_string();
    }
    if (x - x.round()).abs() < 1e-9 {
        // `+ 0.0` makes a rounded -0 (a sum off by a rounding error below zero) read `0`.
        return format!("{:.0}", x.round() + 0.0);
    }
    let magnitude = x.abs();
    let decimals = if magnitude >= 0.01 {
        2
    } else {
        // Two significant digits: 0.0033 has its first at the third decimal.
        let mut d = 3;
        while d < 12 && magnitude < 10f64.powi(1 - d) {
            d += 1;
        }
        usize::try_from(d).unwrap_or(12)
    };
    let text = format!("{x:.decimals$}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// A price, or `-` when it is too large to price.
fn price(amount: Option<rust_decimal::Decimal>) -> String {
    amount.map_or_else(|| "-".to_string(), |a| a.to_string())
}

/// A unit count, or `-` when it is too large to count.
fn count(units: Option<u64>) -> String {
    units.map_or_else(|| "-".to_string(), |u| u.to_string())
}

fn opt(x: Option<f64>) -> String {
    x.map_or_else(|| "-".to_string(), number)
}

/// Aligned columns: text columns (the first `text` ones) left-aligned, numbers right-aligned.
pub(crate) fn table(out: &mut String, headers: &[&str], text: usize, rows: &[Vec<String>]) {
    let mut widths: Vec<usize> = headers.iter().map(|h| h.chars().count()).collect();
    for row in rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let text_columns = text;
    let line = |cells: Vec<&str>| {
        let mut text = String::from(" ");
        for (i, (cell, w)) in cells.iter().zip(&widths).enumerate() {
            let pad = w.saturating_sub(cell.chars().count());
            text.push(' ');
            if i < text_columns {
                text.push_str(cell);
                text.push_str(&" ".repeat(pad));
            } else {
                text.push_str(&" ".repeat(pad + 1));
                text.push_str(cell);
            }
        }
        text.trim_end().to_string()
    };
    let _ = writeln!(out, "{}", line(headers.to_vec()));
    for row in rows {
        let _ = writeln!(out, "{}", line(row.iter().map(String::as_str).collect()));
    }
}

impl CostReport {
    /// The report as aligned text tables. Hidden characters (of a price file's text, say) are escaped.
    pub fn render_human(&self) -> String {
        monotable_model::text::escape(&self.human()).into_owned()
    }

    fn human(&self) -> String {
        let mut out = String::new();
        let p = &self.prices;
        let _ = writeln!(out, "monotable cost: table {}", self.table);
        let _ = writeln!(
            out,
            "prices: {} {} as of {} ({}); on-demand {}/M reads, {}/M writes; provisioned {}/RCU-h, {}/WCU-h",
            p.region,
            p.currency,
            p.as_of,
            p.source,
            p.on_demand_read_per_million.normalize(),
            p.on_demand_write_per_million.normalize(),
            p.provisioned_rcu_per_hour.normalize(),
            p.provisioned_wcu_per_hour.normalize(),
        );

        let _ = writeln!(
            out,
            "\naccess patterns (units per call; per second at the stated rate)"
        );
        let rows: Vec<Vec<String>> = self
            .patterns
            .iter()
            .map(|c| {
                vec![
                    c.name.clone(),
                    match c.call.requests {
                        0 | 1 => c.operation.clone(),
                        n => format!("{} ×{n}", c.operation),
                    },
                    c.index.clone().unwrap_or_else(|| "table".to_string()),
                    c.call.consistency.map_or("-", |r| r.name()).to_string(),
                    c.call.items.to_string(),
                    if c.call.bytes > 0 {
                        c.call.bytes.to_string()
                    } else {
                        "-".to_string()
                    },
                    number(c.call.rcu.total),
                    number(c.call.wcu.total),
                    opt(c.requests_per_second),
                    opt(c.rcu_per_second),
                    opt(c.wcu_per_second),
                ]
            })
            .collect();
        table(
            &mut out,
            &[
                "pattern",
                "operation",
                "on",
                "read",
                "items",
                "bytes",
                "RCU/call",
                "WCU/call",
                "req/s",
                "RCU/s",
                "WCU/s",
            ],
            4,
            &rows,
        );

        let write_rows: Vec<Vec<String>> = self
            .patterns
            .iter()
            .filter(|c| c.call.wcu.total > 0.0)
            .map(|c| {
                let split: Vec<String> = c
                    .call
                    .wcu
                    .indexes
                    .iter()
                    .map(|i| format!("{} {}", i.index, number(i.units)))
                    .collect();
                vec![
                    c.name.clone(),
                    number(c.call.wcu.table),
                    if split.is_empty() {
                        "-".to_string()
                    } else {
                        split.join(", ")
                    },
                    number(c.call.wcu_if_condition_fails),
                ]
            })
            .collect();
        if !write_rows.is_empty() {
            let _ = writeln!(out, "\nwrites per call by table and index");
            table(
                &mut out,
                &[
                    "pattern",
                    "table WCU",
                    "index WCU",
                    "WCU if condition fails",
                ],
                1,
                &write_rows,
            );
        }

        if !self.entity_writes.is_empty() {
            let _ = writeln!(out, "\nentity writes (at the stated writes/s)");
            let rows: Vec<Vec<String>> = self
                .entity_writes
                .iter()
                .map(|w| {
                    vec![
                        w.entity.clone(),
                        w.costed_as.clone(),
                        number(w.writes_per_second),
                        number(w.per_write.table),
                        number(w.per_write.total - w.per_write.table),
                        number(w.per_second.total),
                    ]
                })
                .collect();
            table(
                &mut out,
                &[
                    "entity",
                    "costed as",
                    "writes/s",
                    "table WCU",
                    "index WCU",
                    "WCU/s",
                ],
                2,
                &rows,
            );
        }

        if !self.consumers.is_empty() {
            self.consumers_table(&mut out);
        }

        if self.traffic {
            let _ = writeln!(
                out,
                "\ncapacity by table and index (write amplification = index WCU per table WCU)"
            );
            let rows: Vec<Vec<String>> = self
                .indexes
                .iter()
                .map(|i| {
                    vec![
                        i.index.clone(),
                        i.kind.clone(),
                        number(i.rcu_per_second),
                        number(i.wcu_per_second),
                        format!("{}x", number(i.write_amplification)),
                    ]
                })
                .collect();
            table(
                &mut out,
                &["name", "kind", "RCU/s", "WCU/s", "amplification"],
                2,
                &rows,
            );

            let _ = writeln!(out, "\nmonthly ({})", p.currency);
            let rows: Vec<Vec<String>> = self
                .designs
                .iter()
                .map(|d| {
                    vec![
                        d.design.clone(),
                        d.tables.to_string(),
                        d.indexes.to_string(),
                        number(d.read_requests_per_second),
                        number(d.rcu_per_second),
                        number(d.wcu_per_second),
                        price(d.on_demand_monthly),
                        format!("{}/{}", count(d.provisioned_rcu), count(d.provisioned_wcu)),
                        price(d.provisioned_monthly),
                    ]
                })
                .collect();
            table(
                &mut out,
                &[
                    "design",
                    "tables",
                    "indexes",
                    "read req/s",
                    "RCU/s",
                    "WCU/s",
                    "on-demand",
                    "prov. RCU/WCU",
                    "provisioned",
                ],
                1,
                &rows,
            );
        }

        let mut notes: Vec<String> = self.notes.clone();
        if self
            .designs
            .iter()
            .any(|d| d.on_demand_monthly.is_none() || d.provisioned_monthly.is_none())
        {
            notes.push(
                "`-` in monthly: the figures are too large to price (check the traffic section's rates, sizes and counts)".to_string(),
            );
        }
        for c in &self.patterns {
            notes.extend(c.call.notes.iter().map(|n| format!("{}: {n}", c.name)));
        }
        if !notes.is_empty() {
            let _ = writeln!(out, "\nnotes");
            for n in notes {
                let _ = writeln!(out, "  - {n}");
            }
        }
        out
    }

    /// Each consumer's patterns at the rate it runs them, and its total with its month.
    fn consumers_table(&self, out: &mut String) {
        let _ = writeln!(
            out,
            "\nstream consumers (per second at the records each handles: its stated records/s, else its entities' stated writes/s)"
        );
        let mut rows: Vec<Vec<String>> = Vec::new();
        for c in &self.consumers {
            for p in &c.patterns {
                rows.push(vec![
                    c.consumer.clone(),
                    p.pattern.clone(),
                    p.kind.clone(),
                    opt(c.records_per_second),
                    opt(p.calls_per_second),
                    opt(p.rcu_per_second),
                    opt(p.wcu_per_second),
                    String::new(),
                ]);
            }
            rows.push(vec![
                c.consumer.clone(),
                "(all)".to_string(),
                String::new(),
                opt(c.records_per_second),
                String::new(),
                number(c.rcu_per_second),
                number(c.wcu_per_second),
                price(c.on_demand_monthly),
            ]);
        }
        table(
            out,
            &[
                "consumer",
                "pattern",
                "runs",
                "records/s",
                "calls/s",
                "RCU/s",
                "WCU/s",
                "on-demand",
            ],
            3,
            &rows,
        );
    }

    /// The report as pretty JSON, with a trailing newline. Money is a decimal string.
    pub fn render_json(&self) -> String {
        let mut text = serde_json::to_string_pretty(self).unwrap_or_default();
        text.push('\n');
        monotable_model::text::escape_json(&text).into_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::number;

    #[test]
    fn small_and_large_figures_keep_their_meaning() {
        assert_eq!(number(0.0), "0");
        assert_eq!(number(2.0), "2");
        assert_eq!(number(0.5), "0.5");
        assert_eq!(number(12.25), "12.25");
        assert_eq!(number(0.28082), "0.28");
        assert_eq!(number(0.010), "0.01");
        // An index taking 100 WCU/s next to a table taking 30,000: not "0".
        assert_eq!(number(100.0 / 30_000.0), "0.0033");
        assert_eq!(number(0.0005), "0.0005");
        assert_eq!(number(0.000_001_234), "0.0000012");
        assert_eq!(number(-0.004), "-0.004");
        assert_eq!(number(1_234_567_890.0), "1234567890");
        assert_eq!(number(1e9 + 0.5), "1000000000.5");
        assert_eq!(number(1e20), "100000000000000000000");
        assert_eq!(number(f64::NAN), "-");
        assert_eq!(number(-0.0), "0");
        assert_eq!(number(-1e-12), "0");
        assert_eq!(number(f64::INFINITY), "-");
    }
}
