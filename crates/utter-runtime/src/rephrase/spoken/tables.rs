//! The words a spoken fact is made of, by language: currencies with their
//! minor units, months, units, rates, symbols.

use crate::rephrase::context::Spoken;

/// A currency's words in one language.
pub(crate) struct Currency {
    pub one: &'static str,
    pub many: &'static str,
    /// The minor unit, one and many; `None` when amounts have none.
    pub minor: Option<(&'static str, &'static str)>,
    /// The word between the major and the minor amount.
    pub and: &'static str,
}

type Names = (
    &'static str,
    &'static str,
    Option<(&'static str, &'static str)>,
);

/// The currencies utter speaks, by the reader's name for them: English,
/// German, French, Spanish.
const CURRENCIES: &[(&str, [Names; 4])] = &[
    (
        "dollar",
        [
            ("dollar", "dollars", Some(("cent", "cents"))),
            ("Dollar", "Dollar", Some(("Cent", "Cent"))),
            ("dollar", "dollars", Some(("cent", "cents"))),
            ("dólar", "dólares", Some(("centavo", "centavos"))),
        ],
    ),
    (
        "euro",
        [
            ("euro", "euros", Some(("cent", "cents"))),
            ("Euro", "Euro", Some(("Cent", "Cent"))),
            ("euro", "euros", Some(("centime", "centimes"))),
            ("euro", "euros", Some(("céntimo", "céntimos"))),
        ],
    ),
    (
        "pound",
        [
            ("pound", "pounds", Some(("penny", "pence"))),
            ("Pfund", "Pfund", Some(("Penny", "Pence"))),
            ("livre", "livres", Some(("penny", "pence"))),
            ("libra", "libras", Some(("penique", "peniques"))),
        ],
    ),
    (
        "yen",
        [
            ("yen", "yen", None),
            ("Yen", "Yen", None),
            ("yen", "yens", None),
            ("yen", "yenes", None),
        ],
    ),
    (
        "franc",
        [
            ("franc", "francs", Some(("centime", "centimes"))),
            ("Franken", "Franken", Some(("Rappen", "Rappen"))),
            ("franc", "francs", Some(("centime", "centimes"))),
            ("franco", "francos", Some(("céntimo", "céntimos"))),
        ],
    ),
    (
        "cad",
        [
            (
                "Canadian dollar",
                "Canadian dollars",
                Some(("cent", "cents")),
            ),
            (
                "kanadischer Dollar",
                "kanadische Dollar",
                Some(("Cent", "Cent")),
            ),
            (
                "dollar canadien",
                "dollars canadiens",
                Some(("cent", "cents")),
            ),
            (
                "dólar canadiense",
                "dólares canadienses",
                Some(("centavo", "centavos")),
            ),
        ],
    ),
    (
        "aud",
        [
            (
                "Australian dollar",
                "Australian dollars",
                Some(("cent", "cents")),
            ),
            (
                "australischer Dollar",
                "australische Dollar",
                Some(("Cent", "Cent")),
            ),
            (
                "dollar australien",
                "dollars australiens",
                Some(("cent", "cents")),
            ),
            (
                "dólar australiano",
                "dólares australianos",
                Some(("centavo", "centavos")),
            ),
        ],
    ),
];

fn index(language: Spoken) -> usize {
    match language {
        Spoken::English => 0,
        Spoken::German => 1,
        Spoken::French => 2,
        Spoken::Spanish => 3,
    }
}

/// The words of the currency the reader names `name`, in `language`.
pub(crate) fn currency(name: &str, language: Spoken) -> Option<Currency> {
    let (_, names) = CURRENCIES.iter().find(|(n, _)| *n == name)?;
    let (one, many, minor) = names[index(language)];
    let and = ["and", "und", "et", "con"][index(language)];
    Some(Currency {
        one,
        many,
        minor,
        and,
    })
}

/// The magnitude a currency amount is written with (`£5m`, `$3.2 bn`,
/// `€2k`), in words.
pub(crate) fn magnitude(written: &str, language: Spoken) -> Option<&'static str> {
    let last_digit = written.rfind(|c: char| c.is_ascii_digit())?;
    let after = written[last_digit + 1..].trim_start();
    let suffix: String = after.chars().take_while(|c| c.is_alphabetic()).collect();
    let words: [&str; 4] = match suffix.to_lowercase().as_str() {
        "k" | "thousand" => ["thousand", "tausend", "mille", "mil"],
        "m" | "mn" | "mm" | "million" | "millions" => {
            ["million", "Millionen", "millions", "millones"]
        }
        "b" | "bn" | "billion" | "billions" => {
            ["billion", "Milliarden", "milliards", "mil millones"]
        }
        _ => return None,
    };
    Some(words[index(language)])
}

const MONTHS: [[&str; 12]; 4] = [
    [
        "January",
        "February",
        "March",
        "April",
        "May",
        "June",
        "July",
        "August",
        "September",
        "October",
        "November",
        "December",
    ],
    [
        "Januar",
        "Februar",
        "März",
        "April",
        "Mai",
        "Juni",
        "Juli",
        "August",
        "September",
        "Oktober",
        "November",
        "Dezember",
    ],
    [
        "janvier",
        "février",
        "mars",
        "avril",
        "mai",
        "juin",
        "juillet",
        "août",
        "septembre",
        "octobre",
        "novembre",
        "décembre",
    ],
    [
        "enero",
        "febrero",
        "marzo",
        "abril",
        "mayo",
        "junio",
        "julio",
        "agosto",
        "septiembre",
        "octubre",
        "noviembre",
        "diciembre",
    ],
];

/// A month's name (1 to 12).
pub(crate) fn month(month: u8, language: Spoken) -> &'static str {
    MONTHS[index(language)][usize::from(month.clamp(1, 12) - 1)]
}

/// A unit's word by the reader's name for it.
pub(crate) fn unit_word(name: &str, language: Spoken) -> Option<&'static str> {
    let words: [&str; 4] = match name {
        "percent" => ["percent", "Prozent", "pour cent", "por ciento"],
        _ => return None,
    };
    Some(words[index(language)])
}

/// A rate's words by the reader's name for its time or unit (`per day`).
pub(crate) fn per_phrase(per: &str, language: Spoken) -> Option<&'static str> {
    let words: [&str; 4] = match per {
        "day" => ["per day", "pro Tag", "par jour", "por día"],
        "week" => ["per week", "pro Woche", "par semaine", "por semana"],
        "month" => ["per month", "pro Monat", "par mois", "al mes"],
        "year" => ["per year", "pro Jahr", "par an", "al año"],
        "hour" => ["per hour", "pro Stunde", "de l'heure", "por hora"],
        "night" => ["per night", "pro Nacht", "par nuit", "por noche"],
        "person" => ["per person", "pro Person", "par personne", "por persona"],
        _ => return None,
    };
    Some(words[index(language)])
}

/// The decimal point's word.
pub(crate) fn point(language: Spoken) -> &'static str {
    ["point", "Komma", "virgule", "coma"][index(language)]
}

/// A symbol's spoken name in an address or a phone number.
pub(crate) fn symbol(c: char, language: Spoken) -> Option<&'static str> {
    let words: [&str; 4] = match c {
        '@' => ["at", "at", "arobase", "arroba"],
        '.' => ["dot", "Punkt", "point", "punto"],
        '-' => ["hyphen", "Bindestrich", "tiret", "guion"],
        '_' => ["underscore", "Unterstrich", "tiret bas", "guion bajo"],
        '/' => ["slash", "Schrägstrich", "barre oblique", "barra"],
        ':' => ["colon", "Doppelpunkt", "deux-points", "dos puntos"],
        '?' => [
            "question mark",
            "Fragezeichen",
            "point d'interrogation",
            "signo de interrogación",
        ],
        '=' => ["equals", "gleich", "égal", "igual"],
        '&' => ["and", "und", "et", "y"],
        '#' => ["hash", "Raute", "dièse", "almohadilla"],
        '+' => ["plus", "plus", "plus", "más"],
        '~' => ["tilde", "Tilde", "tilde", "virgulilla"],
        '%' => ["percent", "Prozent", "pour cent", "por ciento"],
        _ => return None,
    };
    Some(words[index(language)])
}
