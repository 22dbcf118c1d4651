//! The rates of what stream consumers write: a consumer runs its write patterns once per record
//! it handles, so a pattern that states no rate of its own is priced at the stated write rates
//! of the entities the consumer reads, and so is an entity it writes that states none.
//! Lambda's reads of the stream itself are not billed.

use monotable_model::Model;

/// The calls/s of write pattern `pattern` that consumers cause: for each consumer that lists
/// it, the sum of its entities' stated `writes_per_second`; `None` when no consumer runs it or
/// a figure is not stated.
pub(crate) fn pattern_rate(model: &Model, pattern: &str) -> Option<f64> {
    if !model.traffic.declared {
        return None;
    }
    let mut total: Option<f64> = None;
    for c in model
        .consumers
        .iter()
        .filter(|c| c.writes.iter().any(|w| w == pattern))
    {
        let mut rate = 0.0;
        for entity in &c.entities {
            let (writes, stated) = model.traffic.writes_per_second(entity);
            if !stated {
                return None;
            }
            rate += writes;
        }
        total = Some(total.unwrap_or(0.0) + rate);
    }
    total
}

/// The items/s consumers write of `entity` through patterns that return it (each at its own
/// stated rate, else at [`pattern_rate`]); `None` when no consumer writes it.
pub(crate) fn entity_rate(model: &Model, entity: &str) -> Option<f64> {
    let mut total: Option<f64> = None;
    let written = model
        .patterns
        .iter()
        .filter(|p| p.is_write() && p.returns.first().is_some_and(|r| r.name == entity));
    for p in written {
        let stated = model
            .traffic
            .patterns
            .get(&p.name)
            .and_then(|t| t.writes_per_second);
        if let Some(rate) = stated.or_else(|| pattern_rate(model, &p.name)) {
            total = Some(total.unwrap_or(0.0) + rate);
        }
    }
    total
}
