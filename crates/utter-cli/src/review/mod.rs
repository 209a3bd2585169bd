//! `utter snapshot` (write or check the reviewed wording: [`snapshot`])
//! and `utter diff` (what changed in the wording between two versions of
//! an agent: [`diff`]); here what both share.

mod diff;
mod snapshot;

pub use diff::cmd_diff;
pub use snapshot::cmd_snapshot;

/// Today's date (UTC) for a report's header, or the date of
/// `SOURCE_DATE_EPOCH` when set (reproducible builds' convention), so a
/// page can be made byte for byte again.
fn today() -> String {
    let seconds = std::env::var("SOURCE_DATE_EPOCH")
        .ok()
        .and_then(|s| s.trim().parse::<u64>().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs())
        });
    civil_date(seconds / 86_400)
}

/// The proleptic Gregorian date `days` after 1970-01-01, as `YYYY-MM-DD`
/// (Howard Hinnant's days-to-civil algorithm).
fn civil_date(days: u64) -> String {
    let z = days + 719_468;
    let era = z / 146_097;
    let day_of_era = z % 146_097;
    let year_of_era =
        (day_of_era - day_of_era / 1_460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_index = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * month_index + 2) / 5 + 1;
    let month = if month_index < 10 {
        month_index + 3
    } else {
        month_index - 9
    };
    let year = year_of_era + era * 400 + u64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

#[cfg(test)]
mod tests {
    use super::civil_date;

    #[test]
    fn days_since_the_epoch_are_civil_dates() {
        assert_eq!(civil_date(0), "1970-01-01");
        assert_eq!(civil_date(59), "1970-03-01");
        assert_eq!(civil_date(11_016), "2000-02-29");
        assert_eq!(civil_date(11_017), "2000-03-01");
        assert_eq!(civil_date(20_429), "2025-12-07");
        assert_eq!(civil_date(20_794), "2026-12-07");
        assert_eq!(civil_date(2_932_896), "9999-12-31");
    }
}
