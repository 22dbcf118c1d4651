//! Names that are not declared: the closest declared one, for a "did you mean" (the model's
//! validation and the derives' compile errors suggest with it).

/// The candidate closest to `name` (case-insensitive edit distance at most a third of its
/// length, and at least one edit away), for a "did you mean".
pub fn closest<'a>(name: &str, candidates: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    let lower = name.to_lowercase();
    let limit = (name.chars().count() / 3).max(1);
    candidates
        .filter(|c| *c != name)
        .map(|c| (distance(&lower, &c.to_lowercase()), c))
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

/// Levenshtein distance in characters.
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut previous = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let substitute = previous + usize::from(ca != *cb);
            previous = row[j + 1];
            row[j + 1] = substitute.min(row[j] + 1).min(previous + 1);
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::closest;

    #[test]
    fn closest_names_are_suggested() {
        let names = ["Comment", "Project", "Task"];
        assert_eq!(closest("Projet", names.into_iter()), Some("Project"));
        assert_eq!(closest("projects", names.into_iter()), Some("Project"));
        assert_eq!(closest("Order", names.into_iter()), None);
        assert_eq!(closest("Task", names.into_iter()), None, "not itself");
        assert_eq!(
            closest("ap.toml", ["app.toml"].into_iter()),
            Some("app.toml")
        );
    }
}
