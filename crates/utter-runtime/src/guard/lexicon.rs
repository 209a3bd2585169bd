//! The words the fact guard reads facts by, for one language: units and
//! currencies, magnitudes, negations, months, the words that tie a value to
//! its role. Data only: another language is another `Lexicon` (its number
//! words come from `text2num`, which reads seven more).

use std::collections::HashMap;
use std::sync::OnceLock;

/// The word tables of one language. Words are lowercase; a unit or currency
/// maps to the name it is compared by, so `hrs`, `hour` and `hours` agree.
pub(crate) struct Lexicon {
    /// The number words (cardinals, ordinals, decimals with `point`).
    pub number_words: fn() -> text2num::Language,
    /// Every word `number_words` reads as a number (a trailing `s`
    /// aside): a text with none of them skips it (a fast path, tested
    /// against `text2num`).
    pub number_word_list: &'static [&'static str],
    /// A number word that is a pronoun after one of these words (`the new
    /// one`), not a number.
    pub pronoun_numbers: &'static [(&'static str, &'static [&'static str])],
    /// Units written after a number (`3 hours`, `3-hour`, `5km`).
    pub units: &'static [(&'static str, &'static str)],
    /// Two-word units (`per cent`).
    pub unit_pairs: &'static [(&'static str, &'static str, &'static str)],
    /// Currency codes, before or after a number (`EUR 20`, `20 eur`).
    pub currency_codes: &'static [(&'static str, &'static str)],
    /// Currency signs, before or after a number; another currency sign
    /// (Unicode `Sc`) is compared as itself.
    pub currency_signs: &'static [(char, &'static str)],
    /// Words that make a number a rate (`$45 a day`, `per month`).
    pub rate_words: &'static [&'static str],
    /// Words of opposite sense (`open` / `closed`): an answer that says one
    /// where the reviewed text says the other turns the fact.
    pub opposites: &'static [(&'static str, &'static str)],
    /// Words that multiply the number before them (`1.5 million`).
    pub magnitudes: &'static [(&'static str, i64)],
    /// Suffixes written against a number that multiply it (`$1k`, `2bn`),
    /// case as written.
    pub magnitude_suffixes: &'static [(&'static str, i64)],
    /// Suffixes that make a number an ordinal (`2nd`).
    pub ordinal_suffixes: &'static [&'static str],
    /// Words that turn the sign of the number after them (`minus 20`).
    pub minus_words: &'static [&'static str],
    /// Negations (`no`, `not`, `never`, ...), and the ending of a
    /// contracted one (`n't`).
    pub negations: &'static [&'static str],
    /// The ending of a contracted negation (`don't`, `can't`).
    pub negation_suffix: &'static str,
    /// Month names and abbreviations.
    pub months: &'static [(&'static str, u8)],
    /// `am` / `pm` (also written `a.m.`, `p.m.`: the letters before `m`).
    pub meridiem: [(&'static str, bool); 2],
    /// Words too common to tie a value to its role (articles,
    /// conjunctions, possessives).
    pub role_fillers: &'static [&'static str],
    /// The tables by word, built at first use: one look-up a word.
    pub index: OnceLock<Index>,
}

/// The index's hash: the first eight bytes of a word, its length and its
/// last byte, mixed by one multiplication. The keys are short words of a
/// fixed table, hashed on every look-up; SipHash's resistance to chosen
/// keys buys nothing here, and a collision only costs a comparison.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct WordHash;

impl std::hash::BuildHasher for WordHash {
    type Hasher = WordHasher;
    fn build_hasher(&self) -> WordHasher {
        WordHasher(0)
    }
}

pub(crate) struct WordHasher(u64);

impl std::hash::Hasher for WordHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        // Folded, not copied: a copy to the stack and a wide load back
        // stalls on short words.
        let head = bytes
            .iter()
            .take(8)
            .fold(0u64, |h, &b| h << 8 | u64::from(b));
        let last = u64::from(bytes.last().copied().unwrap_or(0));
        let mixed = head ^ (bytes.len() as u64).rotate_right(8) ^ last << 48;
        self.0 = (self.0.rotate_left(5) ^ mixed).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

/// The tables by word, and two filters asked before hashing (so most
/// words, in no table, are answered without it).
pub(crate) struct Index {
    words: HashMap<&'static str, Word, WordHash>,
    /// By first byte: bit `n` set when some word of the index of that
    /// first byte is `n` bytes long (63: longer).
    shapes: [u64; 256],
    number_initials: [bool; 256],
}

/// The bit of [`Index::shapes`] for a word's length.
fn length_bit(word: &str) -> u64 {
    1 << word.len().min(63)
}

/// What the comparison asks of a word (not a word: all false).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Class {
    pub filler: bool,
    pub negation: bool,
    pub opposite: bool,
}

/// What the tables say of one word.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Word {
    unit: Option<&'static str>,
    currency: Option<&'static str>,
    month: Option<u8>,
    magnitude: Option<i64>,
    negation: bool,
    filler: bool,
    number: bool,
    opposite: bool,
}

/// English, the guard's default reading: `.` is the decimal point; `,`, a
/// space, a no-break space and `'` group thousands.
pub(crate) static ENGLISH: Lexicon = Lexicon {
    number_words: text2num::Language::english,
    number_word_list: &[
        "billion",
        "billionth",
        "eight",
        "eighteen",
        "eighteenth",
        "eighth",
        "eightieth",
        "eighty",
        "eleven",
        "eleventh",
        "fifteen",
        "fifteenth",
        "fifth",
        "fiftieth",
        "fifty",
        "first",
        "five",
        "fortieth",
        "forty",
        "four",
        "fourteen",
        "fourteenth",
        "fourth",
        "fourtieth",
        "fourty",
        "hundred",
        "hundredth",
        "million",
        "millionth",
        "nine",
        "nineteen",
        "nineteenth",
        "ninetieth",
        "ninety",
        "ninth",
        "nought",
        "o",
        "one",
        "oneth",
        "second",
        "seven",
        "seventeen",
        "seventeenth",
        "seventh",
        "seventieth",
        "seventy",
        "six",
        "sixteen",
        "sixteenth",
        "sixteeth",
        "sixth",
        "sixty",
        "ten",
        "tenth",
        "third",
        "thirteen",
        "thirteenth",
        "thirtieth",
        "thirty",
        "thousand",
        "thousandth",
        "three",
        "twelfth",
        "twelve",
        "twentieth",
        "twenty",
        "two",
        "zero",
    ],
    pronoun_numbers: &[(
        "one",
        &[
            "the", "this", "that", "a", "each", "every", "any", "which", "new", "no", "another",
            "only", "old", "right", "same", "other",
        ],
    )],
    units: &[
        // Time.
        ("second", "second"),
        ("seconds", "second"),
        ("sec", "second"),
        ("secs", "second"),
        ("s", "second"),
        ("minute", "minute"),
        ("minutes", "minute"),
        ("min", "minute"),
        ("mins", "minute"),
        ("hour", "hour"),
        ("hours", "hour"),
        ("hr", "hour"),
        ("hrs", "hour"),
        ("h", "hour"),
        ("day", "day"),
        ("days", "day"),
        ("night", "night"),
        ("nights", "night"),
        ("week", "week"),
        ("weeks", "week"),
        ("wk", "week"),
        ("wks", "week"),
        ("month", "month"),
        ("months", "month"),
        ("mo", "month"),
        ("year", "year"),
        ("years", "year"),
        ("yr", "year"),
        ("yrs", "year"),
        // Distance.
        ("km", "kilometre"),
        ("kilometre", "kilometre"),
        ("kilometres", "kilometre"),
        ("kilometer", "kilometre"),
        ("kilometers", "kilometre"),
        ("m", "metre"),
        ("metre", "metre"),
        ("metres", "metre"),
        ("meter", "metre"),
        ("meters", "metre"),
        ("cm", "centimetre"),
        ("centimetre", "centimetre"),
        ("centimetres", "centimetre"),
        ("centimeter", "centimetre"),
        ("centimeters", "centimetre"),
        ("mm", "millimetre"),
        ("millimetre", "millimetre"),
        ("millimetres", "millimetre"),
        ("millimeter", "millimetre"),
        ("millimeters", "millimetre"),
        ("mile", "mile"),
        ("miles", "mile"),
        ("mi", "mile"),
        ("ft", "foot"),
        ("foot", "foot"),
        ("feet", "foot"),
        ("inch", "inch"),
        ("inches", "inch"),
        // Weight.
        ("kg", "kilogram"),
        ("kgs", "kilogram"),
        ("kilo", "kilogram"),
        ("kilos", "kilogram"),
        ("kilogram", "kilogram"),
        ("kilograms", "kilogram"),
        ("g", "gram"),
        ("gram", "gram"),
        ("grams", "gram"),
        ("lb", "lb"),
        ("lbs", "lb"),
        ("oz", "ounce"),
        ("ounce", "ounce"),
        ("ounces", "ounce"),
        ("ton", "ton"),
        ("tons", "ton"),
        ("tonne", "tonne"),
        ("tonnes", "tonne"),
        // Volume.
        ("l", "litre"),
        ("litre", "litre"),
        ("litres", "litre"),
        ("liter", "litre"),
        ("liters", "litre"),
        ("ml", "millilitre"),
        ("millilitre", "millilitre"),
        ("millilitres", "millilitre"),
        ("milliliter", "millilitre"),
        ("milliliters", "millilitre"),
        ("gallon", "gallon"),
        ("gallons", "gallon"),
        // Money names (a pound is money or weight: one name for both).
        ("dollar", "dollar"),
        ("dollars", "dollar"),
        ("buck", "dollar"),
        ("bucks", "dollar"),
        ("euro", "euro"),
        ("euros", "euro"),
        ("pound", "pound"),
        ("pounds", "pound"),
        ("quid", "pound"),
        ("cent", "cent"),
        ("cents", "cent"),
        ("penny", "penny"),
        ("pence", "penny"),
        ("p", "penny"),
        ("yen", "yen"),
        ("yuan", "yuan"),
        ("rupee", "rupee"),
        ("rupees", "rupee"),
        ("franc", "franc"),
        ("francs", "franc"),
        ("krona", "krona"),
        ("kronor", "krona"),
        ("krone", "krone"),
        ("kroner", "krone"),
        // Shares.
        ("percent", "percent"),
        ("pct", "percent"),
        ("points", "point"),
        ("point", "point"),
        ("times", "times"),
        ("x", "times"),
    ],
    unit_pairs: &[("per", "cent", "percent")],
    currency_codes: &[
        ("usd", "dollar"),
        ("eur", "euro"),
        ("gbp", "pound"),
        ("jpy", "yen"),
        ("cny", "yuan"),
        ("rmb", "yuan"),
        ("inr", "rupee"),
        ("chf", "franc"),
        ("cad", "cad"),
        ("aud", "aud"),
        ("nzd", "nzd"),
        ("sek", "krona"),
        ("nok", "krone"),
        ("dkk", "krone-dk"),
        ("pln", "zloty"),
        ("czk", "koruna"),
        ("huf", "forint"),
        ("mxn", "mxn"),
        ("brl", "real"),
        ("zar", "rand"),
        ("sgd", "sgd"),
        ("hkd", "hkd"),
        ("krw", "won"),
        ("aed", "dirham"),
    ],
    currency_signs: &[
        ('$', "dollar"),
        ('€', "euro"),
        ('£', "pound"),
        ('¥', "yen"),
        ('₹', "rupee"),
        ('¢', "cent"),
        ('₩', "won"),
        ('₺', "lira"),
        ('%', "percent"),
        ('‰', "permille"),
    ],
    rate_words: &["a", "an", "per", "each", "every"],
    opposites: &[
        ("open", "closed"),
        ("opens", "closes"),
        ("approved", "declined"),
        ("approved", "rejected"),
        ("accepted", "rejected"),
        ("available", "unavailable"),
        ("possible", "impossible"),
        ("included", "excluded"),
        ("allowed", "forbidden"),
        ("allowed", "prohibited"),
        ("valid", "invalid"),
        ("active", "inactive"),
        ("paid", "unpaid"),
        ("refundable", "nonrefundable"),
        ("eligible", "ineligible"),
        ("increase", "decrease"),
        ("increased", "decreased"),
        ("more", "less"),
        ("above", "below"),
        ("minimum", "maximum"),
        ("earlier", "later"),
        ("early", "late"),
        ("confirmed", "cancelled"),
        ("confirmed", "canceled"),
        ("success", "failure"),
        ("successful", "unsuccessful"),
        ("credit", "debit"),
        ("credited", "debited"),
    ],
    magnitudes: &[
        ("hundred", 2),
        ("thousand", 3),
        ("million", 6),
        ("billion", 9),
        ("trillion", 12),
        ("bn", 9),
        ("mn", 6),
        ("lakh", 5),
        ("lakhs", 5),
        ("crore", 7),
        ("crores", 7),
    ],
    magnitude_suffixes: &[("k", 3), ("K", 3), ("M", 6), ("bn", 9)],
    ordinal_suffixes: &["st", "nd", "rd", "th"],
    minus_words: &["minus", "negative"],
    negations: &[
        "no",
        "not",
        "never",
        "none",
        "nothing",
        "nobody",
        "nowhere",
        "neither",
        "nor",
        "without",
        "cannot",
        "noone",
        "non",
        // Lexical negations, each counted as the `no`/`not` it says:
        // `free` is `no charge`, `unable` is `cannot`.
        "free",
        "unable",
        "impossible",
        "unavailable",
        "nonrefundable",
        "complimentary",
    ],
    negation_suffix: "n't",
    months: &[
        ("january", 1),
        ("jan", 1),
        ("february", 2),
        ("feb", 2),
        ("march", 3),
        ("mar", 3),
        ("april", 4),
        ("apr", 4),
        ("may", 5),
        ("june", 6),
        ("jun", 6),
        ("july", 7),
        ("jul", 7),
        ("august", 8),
        ("aug", 8),
        ("september", 9),
        ("sep", 9),
        ("sept", 9),
        ("october", 10),
        ("oct", 10),
        ("november", 11),
        ("nov", 11),
        ("december", 12),
        ("dec", 12),
    ],
    meridiem: [("a", false), ("p", true)],
    role_fillers: &[
        "the", "a", "an", "and", "or", "but", "your", "you", "my", "our", "their", "his", "her",
        "its", "this", "that", "these", "those", "is", "are", "was", "be", "will", "it", "of",
    ],
    index: OnceLock::new(),
};

impl Lexicon {
    fn index(&self) -> &Index {
        self.index.get_or_init(|| self.build_index())
    }

    fn word(&self, word: &str) -> Option<&Word> {
        let index = self.index();
        let first = *word.as_bytes().first()?;
        if index.shapes[usize::from(first)] & length_bit(word) == 0 {
            return None;
        }
        index.words.get(word)
    }

    fn build_index(&self) -> Index {
        let mut index: HashMap<&'static str, Word, WordHash> = HashMap::default();
        for &(word, name) in self.units {
            index.entry(word).or_default().unit = Some(name);
        }
        for &(word, name) in self.currency_codes {
            index.entry(word).or_default().currency = Some(name);
        }
        for &(word, month) in self.months {
            index.entry(word).or_default().month = Some(month);
        }
        for &(word, power) in self.magnitudes {
            index.entry(word).or_default().magnitude = Some(power);
        }
        for &word in self.negations {
            index.entry(word).or_default().negation = true;
        }
        for &word in self.role_fillers {
            index.entry(word).or_default().filler = true;
        }
        for &word in self.number_word_list {
            index.entry(word).or_default().number = true;
        }
        for &(a, b) in self.opposites {
            index.entry(a).or_default().opposite = true;
            index.entry(b).or_default().opposite = true;
        }
        let initials = |words: &mut dyn Iterator<Item = &'static str>| {
            let mut set = [false; 256];
            for word in words {
                set[usize::from(word.as_bytes()[0])] = true;
            }
            set
        };
        let mut shapes = [0u64; 256];
        for word in index.keys() {
            shapes[usize::from(word.as_bytes()[0])] |= length_bit(word);
        }
        Index {
            number_initials: initials(&mut self.number_word_list.iter().copied()),
            shapes,
            words: index,
        }
    }

    fn starts_with_one_of(word: &str, initials: &[bool; 256]) -> bool {
        word.as_bytes()
            .first()
            .is_some_and(|&b| initials[usize::from(b)])
    }

    /// What the tables say of `word` (lowercase): looked up once, when
    /// the word is read.
    pub(crate) fn entry(&'static self, word: &str) -> Option<&'static Word> {
        self.word(word)
    }

    pub(crate) fn currency_sign(&self, c: char) -> Option<&'static str> {
        self.currency_signs
            .iter()
            .find(|(sign, _)| *sign == c)
            .map(|(_, name)| *name)
    }

    pub(crate) fn magnitude_suffix(&self, as_written: &str) -> Option<i64> {
        lookup(self.magnitude_suffixes, as_written)
    }

    /// Whether `word` (whose entry is `entry`) may be (part of) a number
    /// written in words.
    pub(crate) fn may_be_number_word(&self, word: &str, entry: Option<&Word>) -> bool {
        if entry.is_some_and(|w| w.number) {
            return true;
        }
        // `thousands`
        Self::starts_with_one_of(word, &self.index().number_initials)
            && word
                .strip_suffix('s')
                .is_some_and(|w| self.word(w).is_some_and(|w| w.number))
    }

    /// What the comparison asks of a word whose entry is `entry`.
    pub(crate) fn class(&self, word: &str, entry: Option<&Word>) -> Class {
        Class {
            filler: entry.is_some_and(|w| w.filler),
            negation: entry.is_some_and(|w| w.negation) || word.ends_with(self.negation_suffix),
            opposite: entry.is_some_and(|w| w.opposite),
        }
    }

    /// Whether the number word `word` after `before` is a pronoun.
    pub(crate) fn is_pronoun(&self, word: &str, before: Option<&str>) -> bool {
        let Some(before) = before else { return false };
        self.pronoun_numbers
            .iter()
            .any(|(number, after)| *number == word && after.contains(&before))
    }
}

impl Word {
    /// What the word after a number says it measures: a unit or currency.
    pub(crate) fn measure(&self) -> Option<&'static str> {
        self.unit.or(self.currency)
    }

    pub(crate) fn unit(&self) -> Option<&'static str> {
        self.unit
    }

    pub(crate) fn currency(&self) -> Option<&'static str> {
        self.currency
    }

    pub(crate) fn month(&self) -> Option<u8> {
        self.month
    }

    pub(crate) fn magnitude(&self) -> Option<i64> {
        self.magnitude
    }
}

fn lookup<T: Copy>(table: &[(&str, T)], key: &str) -> Option<T> {
    table.iter().find(|(k, _)| *k == key).map(|(_, v)| *v)
}
